// Each variable's name and default, reading it, and the helpers that parse a value or fail naming
// the variable and what it accepts.
#include "support/Env.h"

#include <cstdlib>

namespace jacc::env {

const char *name(Var V) {
  switch (V) {
  case Var::Devices: return "JACC_DEVICES";
  case Var::HostThreads: return "JACC_HOST_THREADS";
  case Var::SpinUs: return "JACC_SPIN_US";
  case Var::Split: return "JACC_SPLIT";
  case Var::Narrow: return "JACC_NARROW";
  case Var::Twins:
    return "JACC_TWINS";
  case Var::Exchange: return "JACC_EXCHANGE";
  case Var::Policy: return "JACC_POLICY";
  case Var::Config: return "JACC_CONFIG";
  case Var::Memory: return "JACC_MEMORY";
  case Var::HugePages: return "JACC_HUGE_PAGES";
  case Var::MemoryPool:
    return "JACC_MEMORY_POOL";
  case Var::Malloc:
    return "JACC_MALLOC";
  case Var::Specialize: return "JACC_SPECIALIZE";
  case Var::SpecializeArgs: return "JACC_SPECIALIZE_ARGS";
  case Var::SpecializeAfter: return "JACC_SPECIALIZE_AFTER";
  case Var::SpecializeMax: return "JACC_SPECIALIZE_MAX";
  case Var::SpecializeWait: return "JACC_SPECIALIZE_WAIT";
  case Var::SpecializeBudget: return "JACC_SPECIALIZE_BUDGET";
  case Var::SpecializePayback: return "JACC_SPECIALIZE_PAYBACK";
  case Var::CudaBlockSize: return "JACC_CUDA_BLOCK_SIZE";
  case Var::CudaVerify: return "JACC_CUDA_VERIFY";
  case Var::Cache: return "JACC_CACHE";
  case Var::CacheDir: return "JACC_CACHE_DIR";
  case Var::CacheMaxSize: return "JACC_CACHE_MAX_SIZE";
  case Var::ProgramCache:
    return "JACC_PROGRAM_CACHE";
  case Var::LibCuda: return "JACC_LIBCUDA";
  case Var::AccErrors: return "JACC_ACC_ERRORS";
  case Var::Debug: return "JACC_DEBUG";
  case Var::KernelWarn: return "JACC_KERNEL_WARN";
  case Var::KernelsInMemory:
    return "JACC_KERNELS_IN_MEMORY";
  case Var::Progress:
    return "JACC_PROGRESS";
  case Var::Compile: return "JACC_COMPILE";
  case Var::CompileTimeout: return "JACC_COMPILE_TIMEOUT";
  case Var::CompileMemory: return "JACC_COMPILE_MEMORY";
  case Var::CompileServer: return "JACC_COMPILE_SERVER";
  case Var::TestCompileFault: return "JACC_TEST_COMPILE_FAULT";
  case Var::TestSlowdown: return "JACC_TEST_SLOWDOWN";
  case Var::Check: return "JACC_CHECK";
  case Var::Perf: return "JACC_PERF";
  case Var::Profile: return "JACC_PROFILE";
  case Var::Trace: return "JACC_TRACE";
  case Var::AccProfLib: return "ACC_PROFLIB";
  case Var::AccDeviceType: return "ACC_DEVICE_TYPE";
  case Var::AccDeviceNum: return "ACC_DEVICE_NUM";
  case Var::OmpiLocalRank: return "OMPI_COMM_WORLD_LOCAL_RANK";
  case Var::OmpiLocalSize: return "OMPI_COMM_WORLD_LOCAL_SIZE";
  case Var::MpichLocalRank: return "MPI_LOCALRANKID";
  case Var::MpichLocalSize: return "MPI_LOCALNRANKS";
  case Var::SlurmLocalId: return "SLURM_LOCALID";
  case Var::SlurmTasksPerNode: return "SLURM_NTASKS_PER_NODE";
  }
  return "JACC_?";
}

llvm::ArrayRef<Var> allVars() {
  static const Var All[] = {Var::Devices,
                            Var::HostThreads,
                            Var::SpinUs,
                            Var::Split,
                            Var::Narrow,
                            Var::Twins,
                            Var::Exchange,
                            Var::Policy,
                            Var::Config,
                            Var::Memory,
                            Var::HugePages,
                            Var::MemoryPool,
                            Var::Malloc,
                            Var::Specialize,
                            Var::SpecializeArgs,
                            Var::SpecializeAfter,
                            Var::SpecializeMax,
                            Var::SpecializeWait,
                            Var::SpecializeBudget,
                            Var::SpecializePayback,
                            Var::CudaBlockSize,
                            Var::CudaVerify,
                            Var::Cache,
                            Var::CacheDir,
                            Var::CacheMaxSize,
                            Var::ProgramCache,
                            Var::LibCuda,
                            Var::AccErrors,
                            Var::Debug,
                            Var::KernelWarn,
                            Var::KernelsInMemory,
                            Var::Progress,
                            Var::Compile,
                            Var::CompileTimeout,
                            Var::CompileMemory,
                            Var::CompileServer,
                            Var::TestCompileFault,
                            Var::TestSlowdown,
                            Var::Check,
                            Var::Perf,
                            Var::Profile,
                            Var::Trace,
                            Var::AccProfLib,
                            Var::AccDeviceType,
                            Var::AccDeviceNum,
                            Var::OmpiLocalRank,
                            Var::OmpiLocalSize,
                            Var::MpichLocalRank,
                            Var::MpichLocalSize,
                            Var::SlurmLocalId,
                            Var::SlurmTasksPerNode};
  return All;
}

const char *defaultText(Var V) {
  switch (V) {
  case Var::Devices: return "every GPU the CUDA driver finds, else one host device";
  case Var::HostThreads: return "the cores divided among the host devices";
  case Var::SpinUs: return "1000";
  case Var::Split: return "auto";
  case Var::Narrow: return "on";
  case Var::Twins:
    return "on";
  case Var::Exchange: return "demand";
  case Var::Policy: return "static";
  case Var::Config: return "none (one location per device)";
  case Var::Memory: return "separate (a copy per device)";
  case Var::HugePages: return "1 (host copies of 2 MiB or more on huge pages)";
  case Var::MemoryPool:
    return "1 (released blocks of 1 MiB or more kept for reuse)";
  case Var::Malloc:
    return "auto (acc_malloc memory has a copy on every device unless code outside jacc may "
           "write it)";
  case Var::Specialize: return "auto";
  case Var::SpecializeArgs: return "every foldable scalar";
  case Var::SpecializeAfter: return "3";
  case Var::SpecializeMax: return "4";
  case Var::SpecializeWait: return "0";
  case Var::SpecializeBudget: return "5";
  case Var::SpecializePayback: return "1";
  case Var::CudaBlockSize: return "auto";
  case Var::CudaVerify: return "off";
  case Var::Cache: return "on";
  case Var::CacheDir: return "$XDG_CACHE_HOME/jacc, else ~/.cache/jacc";
  case Var::CacheMaxSize: return "1G";
  case Var::ProgramCache:
    return "on";
  case Var::LibCuda: return "libcuda.so.1";
  case Var::AccErrors: return "abort";
  case Var::Debug: return "off";
  case Var::KernelWarn: return "0 (off)";
  case Var::KernelsInMemory:
    return "4096";
  case Var::Progress:
    return "terminal (shown when stderr is a terminal)";
  case Var::Compile: return "server";
  case Var::CompileTimeout: return "60";
  case Var::CompileMemory: return "half the RAM";
  case Var::CompileServer: return "the one installed with libjacc";
  case Var::TestCompileFault: return "none";
  case Var::TestSlowdown: return "none";
  case Var::Check: return "off";
  case Var::Perf: return "0";
  case Var::Profile: return "0 (off)";
  case Var::Trace: return "none";
  case Var::AccProfLib: return "none";
  case Var::AccDeviceType: return "JACC_DEVICES's first device's type";
  case Var::AccDeviceNum: return "0";
  case Var::OmpiLocalRank:
  case Var::OmpiLocalSize:
  case Var::MpichLocalRank:
  case Var::MpichLocalSize:
  case Var::SlurmLocalId:
  case Var::SlurmTasksPerNode: return "unset (set by the MPI launcher)";
  }
  return "";
}

const char *get(Var V) { return std::getenv(name(V)); }

llvm::StringRef text(Var V) {
  const char *Value = get(V);
  return llvm::StringRef(Value ? Value : "").trim();
}

llvm::Error invalid(Var V, llvm::StringRef Value, const llvm::Twine &Accepted) {
  return makeError(ErrorCode::InvalidArgument, llvm::Twine(name(V)) + "='" + Value +
                                                   "' is not valid: use " + Accepted);
}

llvm::Expected<unsigned> keyword(Var V, llvm::ArrayRef<std::pair<llvm::StringRef, unsigned>> Words,
                                 unsigned Default, const llvm::Twine &Accepted) {
  llvm::StringRef T = text(V);
  if (T.empty())
    return Default;
  for (const auto &[Word, Value] : Words)
    if (T.equals_insensitive(Word))
      return Value;
  return invalid(V, T, Accepted);
}

std::optional<bool> parseOnOff(llvm::StringRef Text) {
  for (llvm::StringRef On : {"on", "1", "true", "yes"})
    if (Text.equals_insensitive(On))
      return true;
  for (llvm::StringRef Off : {"off", "0", "false", "no"})
    if (Text.equals_insensitive(Off))
      return false;
  return std::nullopt;
}

llvm::Expected<bool> onOff(Var V, bool Default, const llvm::Twine &Accepted) {
  llvm::StringRef T = text(V);
  if (T.empty())
    return Default;
  if (std::optional<bool> B = parseOnOff(T))
    return *B;
  return invalid(V, T, Accepted);
}

llvm::Expected<double> seconds(Var V, double Default, double Max, const llvm::Twine &Examples) {
  llvm::StringRef T = text(V);
  if (T.empty())
    return Default;
  double Seconds = 0;
  if (T.getAsDouble(Seconds) || !(Seconds >= 0) || Seconds > Max)
    return invalid(V, T, "a number of seconds (e.g. " + Examples + ")");
  return Seconds;
}

} // namespace jacc::env
