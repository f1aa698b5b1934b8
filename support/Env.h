// Every JACC_* environment variable jacc reads (and the MPI launchers' local rank variables), and
// the one rule for their values: unset or empty means the default; any other value must be one
// the variable accepts, or it is an InvalidArgument error naming the variable, the value and what
// it accepts. Variables are read here only (get); each is parsed by its module with the helpers
// below (DeviceConfig, LocalRank, Specializer, KernelVariants, BlockGeometry, CompiledKernel,
// CacheConfig, DynamicCuda, Debug, the runtime's settings), and jacc_init checks them all before
// it creates a device (src/Settings.cpp): a bad value fails jacc_init rather than being ignored
// or warned about.
#ifndef JACC_SUPPORT_ENV_H
#define JACC_SUPPORT_ENV_H

#include "support/Error.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <utility>

namespace jacc::env {

enum class Var : unsigned {
  Devices,           ///< JACC_DEVICES: which devices (src/DeviceConfig)
  HostThreads,       ///< JACC_HOST_THREADS: threads per host device
  SpinUs,            ///< JACC_SPIN_US: spinning before idle threads sleep
  Split,             ///< JACC_SPLIT: auto, always, never
  Narrow,            ///< JACC_NARROW: on, off
  Twins,             ///< JACC_TWINS: on, off
  Exchange,          ///< JACC_EXCHANGE: demand, eager (src/launch/DemandExchange)
  Policy,            ///< JACC_POLICY: how split launches share the work (src/launch/Distribution)
  Config,            ///< JACC_CONFIG: the location hierarchy's file (src/launch/Locations)
  Memory,            ///< JACC_MEMORY: separate, unified (src/data/UnifiedMemory)
  HugePages,         ///< JACC_HUGE_PAGES: host copies on transparent huge pages (src/host)
  MemoryPool,        ///< JACC_MEMORY_POOL: released device blocks kept for reuse (src/MemoryPool)
  Malloc,            ///< JACC_MALLOC: one, every (src/data/UserBlockCopies)
  Specialize,        ///< JACC_SPECIALIZE: off, auto, always (jit/Specializer)
  SpecializeArgs,    ///< JACC_SPECIALIZE_ARGS: n,+m,-dt
  SpecializeAfter,   ///< JACC_SPECIALIZE_AFTER: pushes before auto folds
  SpecializeMax,     ///< JACC_SPECIALIZE_MAX: variants per kernel
  SpecializeWait,    ///< JACC_SPECIALIZE_WAIT: a push creating a variant waits for it
  SpecializeBudget,  ///< JACC_SPECIALIZE_BUDGET: seconds of background variant compiles
  SpecializePayback, ///< JACC_SPECIALIZE_PAYBACK: kernel time before a variant compiles
  CudaBlockSize,     ///< JACC_CUDA_BLOCK_SIZE: auto or threads per block (jit/cuda)
  CudaVerify,        ///< JACC_CUDA_VERIFY: architectures every kernel is also compiled for
  Cache,             ///< JACC_CACHE: the disk cache on or off (jit/cache)
  CacheDir,          ///< JACC_CACHE_DIR: its directory
  CacheMaxSize,      ///< JACC_CACHE_MAX_SIZE: its size limit
  ProgramCache,      ///< JACC_PROGRAM_CACHE: a run's regime kept for the next (src/launch)
  LibCuda,           ///< JACC_LIBCUDA: the CUDA driver library (src/cuda)
  AccErrors,         ///< JACC_ACC_ERRORS: abort, return (src/OpenACC.cpp)
  Debug,             ///< JACC_DEBUG: trace topics (support/Debug)
  KernelWarn,        ///< JACC_KERNEL_WARN: seconds before an unfinished launch is named
  KernelsInMemory,   ///< JACC_KERNELS_IN_MEMORY: compiled kernels the memory cache keeps
  Progress,          ///< JACC_PROGRESS: the compile progress line (src/profile/CompileProgress)
  Compile,           ///< JACC_COMPILE: server, inprocess (jit/server)
  CompileTimeout,    ///< JACC_COMPILE_TIMEOUT: seconds a compile may take
  CompileMemory,     ///< JACC_COMPILE_MEMORY: memory the compile server may use
  CompileServer,     ///< JACC_COMPILE_SERVER: the server executable to run
  TestCompileFault,  ///< JACC_TEST_COMPILE_FAULT: a failure the server fakes (tests only)
  TestSlowdown,      ///< JACC_TEST_SLOWDOWN: host devices made slower (tests only)
  Check,             ///< JACC_CHECK: off, bounds (checked array accesses)
  Perf,              ///< JACC_PERF: a perf map of the JIT'd kernels (jit/host/PerfMap)
  Profile,           ///< JACC_PROFILE: the time summary at exit (src/profile/Summary)
  Trace,             ///< JACC_TRACE: the timeline file (src/profile/Trace)
  AccProfLib,        ///< ACC_PROFLIB: OpenACC profiling tool libraries (src/profile/AccProf)
  AccDeviceType,     ///< ACC_DEVICE_TYPE: host, multicore, nvidia (src/AccDeviceVars)
  AccDeviceNum,      ///< ACC_DEVICE_NUM: the default device's number
  // The MPI launchers' variables JACC_DEVICES=local-rank:... reads (src/LocalRank): this
  // process's rank among the node's ranks, and their number.
  OmpiLocalRank,     ///< OMPI_COMM_WORLD_LOCAL_RANK (Open MPI's mpirun)
  OmpiLocalSize,     ///< OMPI_COMM_WORLD_LOCAL_SIZE
  MpichLocalRank,    ///< MPI_LOCALRANKID (MPICH's and Intel MPI's Hydra)
  MpichLocalSize,    ///< MPI_LOCALNRANKS
  SlurmLocalId,      ///< SLURM_LOCALID (srun)
  SlurmTasksPerNode, ///< SLURM_NTASKS_PER_NODE (srun --ntasks-per-node)
};

/// Every variable, in the order above (listings: jacc-info).
llvm::ArrayRef<Var> allVars();
/// The variable's name, "JACC_SPLIT".
const char *name(Var V);
/// What the variable means when unset, as the README's table says ("auto", "cores / devices").
const char *defaultText(Var V);
/// Its value as set, or null when unset: the one getenv of jacc's variables.
const char *get(Var V);
/// Its value trimmed; empty when unset.
llvm::StringRef text(Var V);

/// The error for a bad value: "<NAME>='<Value>' is not valid: use <Accepted>".
llvm::Error invalid(Var V, llvm::StringRef Value, const llvm::Twine &Accepted);

/// A keyword among Words (case-insensitive), each with the value it stands for; unset or empty
/// gives Default. Accepted says how messages list the words ("auto, always or never").
llvm::Expected<unsigned> keyword(Var V, llvm::ArrayRef<std::pair<llvm::StringRef, unsigned>> Words,
                                 unsigned Default, const llvm::Twine &Accepted);

/// A switch: on, 1, true, yes or off, 0, false, no (case-insensitive); unset or empty gives
/// Default. Accepted as for keyword ("on or off").
llvm::Expected<bool> onOff(Var V, bool Default, const llvm::Twine &Accepted);

/// A number of seconds from 0 to Max, fractions allowed; unset or empty gives Default. Messages
/// say "a number of seconds (e.g. <Examples>)": Examples also says what 0 means ("60 or 0.5; 0
/// for no limit").
llvm::Expected<double> seconds(Var V, double Default, double Max, const llvm::Twine &Examples);

/// The words a switch accepts, for a value that is not a variable's (a command-line option).
std::optional<bool> parseOnOff(llvm::StringRef Text);

} // namespace jacc::env

#endif
