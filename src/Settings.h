// The runtime's settings, read from the environment by jacc_init. Every JACC_* variable is
// checked here first, by the module that parses it (support/Env.h's one rule), so that a bad
// value fails jacc_init naming the variable and what it accepts, before any device exists.
#ifndef JACC_SRC_SETTINGS_H
#define JACC_SRC_SETTINGS_H

#include "jit/KernelCache.h"
#include "jit/server/CompileConfig.h"
#include "jit/specialize/KernelVariants.h"
#include "src/DeviceConfig.h"
#include "src/data/DataEnvironment.h"
#include "src/launch/Distribution.h"
#include "src/launch/SplitChoice.h"
#include "src/profile/CompileProgress.h"
#include "src/profile/Start.h"

namespace jacc {

struct RuntimeSettings {
  DeviceConfig Devices;                              ///< JACC_DEVICES, _HOST_THREADS, _SPIN_US
  SplitChoice::Policy Split = SplitChoice::Policy::Auto; ///< JACC_SPLIT
  bool Narrow = true;                                ///< JACC_NARROW
  bool Twins = true;                                 ///< JACC_TWINS
  bool DemandExchange = true;                        ///< JACC_EXCHANGE=demand (else eager)
  Distribution Policy;                               ///< JACC_POLICY (checked at jacc_init)
  std::string ConfigFile;                            ///< JACC_CONFIG (read at jacc_init)
  bool UnifiedMemory = false;                        ///< JACC_MEMORY=unified
  UserBlockCopies BlockCopies = UserBlockCopies::UnlessNativeCode; ///< JACC_MALLOC
  bool ProgramCache = true;                          ///< JACC_PROGRAM_CACHE
  jit::SpecializeSettings Specialize;                ///< JACC_SPECIALIZE*
  double KernelWarnSeconds = 0;                      ///< JACC_KERNEL_WARN (0: off)
  size_t KernelsInMemory = jit::KernelCache::DefaultCapacity; ///< JACC_KERNELS_IN_MEMORY (0: all)
  prof::ProgressWhen Progress = prof::ProgressWhen::Terminal; ///< JACC_PROGRESS
  jit::CompileConfig Compile;                        ///< JACC_COMPILE*
  bool CheckBounds = false;                          ///< JACC_CHECK=bounds
  bool PerfMap = false;                              ///< JACC_PERF=1
  prof::ProfileSettings Profile;                     ///< JACC_PROFILE, JACC_TRACE, ACC_PROFLIB
};

/// Check every JACC_* variable, then read the runtime's settings (the CUDA driver is loaded
/// only when JACC_DEVICES needs it). InvalidArgument naming the first bad variable.
llvm::Expected<RuntimeSettings> readSettings();

/// JACC_ACC_ERRORS: whether a failing OpenACC routine returns (true) or aborts (false, the
/// default). Read at each error, as programs may set it while they run.
llvm::Expected<bool> accErrorsReturn();

} // namespace jacc

#endif
