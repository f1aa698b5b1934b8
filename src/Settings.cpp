// Reading every JACC_* setting at jacc_init: the runtime's own into RuntimeSettings, the other
// modules' variables only checked, and the devices last.
#include "src/Settings.h"

#include "jit/CodeTarget.h"
#include "jit/cache/DiskCacheConfig.h"
#include "support/Debug.h"
#include "support/Env.h"

#include <array>

namespace jacc {

llvm::Expected<bool> accErrorsReturn() {
  auto Mode = env::keyword(env::Var::AccErrors, {{"abort", 0}, {"return", 1}}, 0,
                           "abort or return");
  if (!Mode)
    return Mode.takeError();
  return *Mode == 1;
}

/// The variables whose modules are not part of the runtime's settings: only checked.
static llvm::Error checkOtherVariables() {
  if (auto E = checkDebugTopics())
    return E;
  for (const jit::CodeTarget *T : jit::codeTargets())
    if (auto E = T->checkEnvironment())
      return E;
  if (auto C = jit::diskCacheConfigFromEnv(); !C)
    return C.takeError();
  if (auto R = accErrorsReturn(); !R)
    return R.takeError();
  return llvm::Error::success();
}

llvm::Expected<RuntimeSettings> readSettings() {
  if (auto E = checkOtherVariables())
    return E;
  RuntimeSettings S;
  using Policy = SplitChoice::Policy;
  auto Split = env::keyword(env::Var::Split,
                            {{"auto", unsigned(Policy::Auto)},
                             {"always", unsigned(Policy::Always)},
                             {"on", unsigned(Policy::Always)},
                             {"never", unsigned(Policy::Never)},
                             {"off", unsigned(Policy::Never)},
                             {"one", unsigned(Policy::One)}},
                            unsigned(Policy::Auto), "auto, always, never or one");
  if (!Split)
    return Split.takeError();
  S.Split = static_cast<Policy>(*Split);
  auto Narrow = env::onOff(env::Var::Narrow, true, "on or off");
  if (!Narrow)
    return Narrow.takeError();
  S.Narrow = *Narrow;
  auto Twins = env::onOff(env::Var::Twins, true, "on or off");
  if (!Twins)
    return Twins.takeError();
  S.Twins = *Twins;
  auto Exchange =
      env::keyword(env::Var::Exchange, {{"eager", 0}, {"demand", 1}}, 1, "demand or eager");
  if (!Exchange)
    return Exchange.takeError();
  S.DemandExchange = *Exchange == 1;
  if (llvm::StringRef Text = env::text(env::Var::Policy); !Text.trim().empty()) {
    auto D = parseDistribution(Text);
    if (!D)
      return prefixError("JACC_POLICY", D.takeError());
    S.Policy = std::move(*D);
  }
  S.ConfigFile = env::text(env::Var::Config).str();
  auto Memory = env::keyword(env::Var::Memory, {{"separate", 0}, {"unified", 1}}, 0,
                             "separate or unified");
  if (!Memory)
    return Memory.takeError();
  S.UnifiedMemory = *Memory == 1;
  auto Malloc = env::keyword(env::Var::Malloc, {{"one", 0}, {"every", 1}, {"auto", 2}}, 2,
                             "one, every or auto");
  if (!Malloc)
    return Malloc.takeError();
  S.BlockCopies = std::array{UserBlockCopies::Never, UserBlockCopies::Always,
                             UserBlockCopies::UnlessNativeCode}[*Malloc];
  auto ProgramCache = env::onOff(env::Var::ProgramCache, true, "on or off");
  if (!ProgramCache)
    return ProgramCache.takeError();
  S.ProgramCache = *ProgramCache;
  auto Warn = env::seconds(env::Var::KernelWarn, S.KernelWarnSeconds, 1e9,
                           "30 or 0.5; 0 turns the warning off");
  if (!Warn)
    return Warn.takeError();
  S.KernelWarnSeconds = *Warn;
  if (llvm::StringRef Text = env::text(env::Var::KernelsInMemory); !Text.empty()) {
    unsigned long long Kernels;
    if (Text.getAsInteger(10, Kernels) || Kernels > (1ull << 32))
      return env::invalid(env::Var::KernelsInMemory, Text,
                          "a number of kernels such as 4096 (0: keep every kernel)");
    S.KernelsInMemory = size_t(Kernels);
  }
  using prof::ProgressWhen;
  auto Progress = env::keyword(env::Var::Progress,
                               {{"terminal", unsigned(ProgressWhen::Terminal)},
                                {"off", unsigned(ProgressWhen::Never)},
                                {"on", unsigned(ProgressWhen::Always)}},
                               unsigned(ProgressWhen::Terminal), "terminal, off or on");
  if (!Progress)
    return Progress.takeError();
  S.Progress = ProgressWhen(*Progress);
  auto Compile = jit::compileConfigFromEnv();
  if (!Compile)
    return Compile.takeError();
  S.Compile = std::move(*Compile);
  auto Check = env::keyword(env::Var::Check, {{"off", 0}, {"bounds", 1}}, 0, "off or bounds");
  if (!Check)
    return Check.takeError();
  S.CheckBounds = *Check == 1;
  auto Perf = env::onOff(env::Var::Perf, false, "1 or 0");
  if (!Perf)
    return Perf.takeError();
  S.PerfMap = *Perf;
  auto Profile = prof::profileSettingsFromEnv();
  if (!Profile)
    return Profile.takeError();
  S.Profile = std::move(*Profile);
  auto Spec = jit::specializeSettingsFromEnv();
  if (!Spec)
    return Spec.takeError();
  S.Specialize = std::move(*Spec);
  // Last: it may load the CUDA driver.
  auto Devices = deviceConfigFromEnv();
  if (!Devices)
    return Devices.takeError();
  S.Devices = std::move(*Devices);
  S.Devices.GuardPages = S.CheckBounds;
  auto Huge = env::onOff(env::Var::HugePages, true,
                         "1 (host devices' copies of 2 MiB or more on transparent huge pages) or 0");
  if (!Huge)
    return Huge.takeError();
  S.Devices.HugePages = *Huge;
  auto Pool = env::onOff(env::Var::MemoryPool, true,
                         "1 (devices keep released blocks of 1 MiB or more for reuse) or 0");
  if (!Pool)
    return Pool.takeError();
  S.Devices.MemoryPool = *Pool;
  return S;
}

} // namespace jacc
