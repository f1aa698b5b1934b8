// The local rank and size from the first launcher whose variables are set (Open MPI, MPICH,
// Slurm), with errors naming what is missing or malformed.
#include "src/LocalRank.h"

#include "support/Error.h"

#include <utility>

namespace jacc {

llvm::Expected<LocalRank> localRankFrom(EnvLookup Get) {
  using env::Var;
  static const std::pair<Var, Var> Launchers[] = {{Var::OmpiLocalRank, Var::OmpiLocalSize},
                                                  {Var::MpichLocalRank, Var::MpichLocalSize},
                                                  {Var::SlurmLocalId, Var::SlurmTasksPerNode}};
  for (auto [RankVar, SizeVar] : Launchers) {
    const char *RankText = Get(RankVar);
    if (!RankText || llvm::StringRef(RankText).trim().empty())
      continue;
    const char *SizeText = Get(SizeVar);
    if (!SizeText || llvm::StringRef(SizeText).trim().empty())
      return makeError(ErrorCode::InvalidArgument,
                       llvm::Twine(env::name(RankVar)) + " is set but " + env::name(SizeVar) +
                           " is not: the number of ranks on the node is needed to deal its "
                           "devices" +
                           (SizeVar == Var::SlurmTasksPerNode ? " (srun --ntasks-per-node=N)"
                                                              : ""));
    LocalRank R;
    R.Source = std::string(env::name(RankVar)) + "=" + RankText + ", " + env::name(SizeVar) +
               "=" + SizeText;
    if (llvm::StringRef(RankText).trim().getAsInteger(10, R.Rank) ||
        llvm::StringRef(SizeText).trim().getAsInteger(10, R.Size) || R.Size == 0 ||
        R.Rank >= R.Size)
      return makeError(ErrorCode::InvalidArgument,
                       R.Source + " is not a local rank: both must be numbers, the rank "
                                  "below the size");
    return R;
  }
  return makeError(ErrorCode::InvalidArgument,
                   "no launcher variable gives this process's local rank (" +
                       llvm::Twine(env::name(Var::OmpiLocalRank)) + ", " +
                       env::name(Var::MpichLocalRank) + " or " + env::name(Var::SlurmLocalId) +
                       "); start it with mpirun or srun");
}

llvm::Expected<LocalRank> localRankFromEnv() {
  return localRankFrom([](env::Var V) { return env::get(V); });
}

} // namespace jacc
