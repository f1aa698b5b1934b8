// The observers' start-up: one reading of their variables, one registration each.
#include "src/profile/Start.h"

#include "src/profile/Events.h"
#include "src/profile/KernelNames.h"
#include "src/profile/Summary.h"
#include "src/profile/ToolLibraries.h"
#include "src/profile/Trace.h"
#include "support/Env.h"
#include "support/Error.h"

#include <mutex>
#include <string>

namespace jacc::prof {

llvm::Expected<ProfileSettings> profileSettingsFromEnv() {
  ProfileSettings S;
  llvm::StringRef P = env::text(env::Var::Profile);
  std::optional<bool> Switch = env::parseOnOff(P);
  if (P.empty() || (Switch && !*Switch))
    S.Summary = ProfileSettings::Format::Off;
  else if (Switch)
    S.Summary = ProfileSettings::Format::Text;
  else if (P.equals_insensitive("json"))
    S.Summary = ProfileSettings::Format::Json;
  else {
    S.SummaryFile = P.str();
    S.Summary = P.ends_with_insensitive(".json") ? ProfileSettings::Format::Json
                                                 : ProfileSettings::Format::Text;
  }
  S.TraceFile = env::text(env::Var::Trace).str();
  S.ToolLibraries = env::text(env::Var::AccProfLib).str();
  return S;
}

namespace {

/// Late code (a split entry, a GPU image) as a compile event.
void observeLateCode(const jit::LateCode &C) {
  if (!active())
    return;
  auto Ns = [](std::chrono::steady_clock::time_point T) {
    return Nanos(std::chrono::duration_cast<std::chrono::nanoseconds>(T.time_since_epoch())
                     .count());
  };
  CompileEvent E{kernelNameOf(*C.Kernel), C.FromDisk ? CacheSource::Disk : CacheSource::Compiled,
                 false,                   Ns(C.Start),
                 Ns(C.End),               C.Part};
  each([&](Listener &L) { L.compile(E); });
}

} // namespace

llvm::Error startProfiling(const ProfileSettings &S) {
  static std::mutex Lock;
  static bool Started = false;
  // A tool that failed to load fails every later jacc_init the same way: a run never goes on
  // without the tool it asked for.
  static std::string &ToolFailure = *new std::string; // outlives static dtors
  std::lock_guard<std::mutex> G(Lock);
  if (Started)
    return ToolFailure.empty() ? llvm::Error::success()
                               : makeError(ErrorCode::InvalidArgument, ToolFailure);
  Started = true;
  jit::setLateCodeObserver(observeLateCode);
  if (S.Summary != ProfileSettings::Format::Off)
    addListener(std::make_unique<Summary>(S.Summary == ProfileSettings::Format::Json,
                                          S.SummaryFile));
  if (!S.TraceFile.empty())
    addListener(makeTraceListener(S.TraceFile));
  if (llvm::Error E = loadToolLibraries(S.ToolLibraries)) {
    takeError(std::move(E), ToolFailure);
    return makeError(ErrorCode::InvalidArgument, ToolFailure);
  }
  return llvm::Error::success();
}

} // namespace jacc::prof
