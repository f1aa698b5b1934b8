// This process's place among the MPI ranks of its node, as the launcher tells it through the
// environment: what JACC_DEVICES=local-rank:... deals the node's devices by.
#ifndef JACC_SRC_LOCALRANK_H
#define JACC_SRC_LOCALRANK_H

#include "support/Env.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/Error.h>

#include <string>

namespace jacc {

struct LocalRank {
  unsigned Rank = 0; ///< among the ranks of this node, from 0
  unsigned Size = 1; ///< the ranks of this node
  /// The variables it came from: "OMPI_COMM_WORLD_LOCAL_RANK=1, OMPI_COMM_WORLD_LOCAL_SIZE=2".
  std::string Source;
};

/// A variable's value, or null when unset (env::get, or a test's fake environment).
using EnvLookup = llvm::function_ref<const char *(env::Var)>;

/// The local rank and size from the first launcher that set its rank variable: Open MPI's
/// (OMPI_COMM_WORLD_LOCAL_RANK / _SIZE), MPICH's Hydra (MPI_LOCALRANKID / MPI_LOCALNRANKS), Slurm's
/// srun (SLURM_LOCALID / SLURM_NTASKS_PER_NODE). InvalidArgument when none did, when the size is
/// missing, or when a value is not a number or the rank is not below the size, naming the
/// variables.
llvm::Expected<LocalRank> localRankFrom(EnvLookup Get);

/// The same from the process's environment.
llvm::Expected<LocalRank> localRankFromEnv();

} // namespace jacc

#endif
