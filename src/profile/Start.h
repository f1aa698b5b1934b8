// Which observers the environment asks for (JACC_PROFILE, JACC_TRACE, ACC_PROFLIB), and starting
// them once per process, before the first device exists.
#ifndef JACC_SRC_PROFILE_START_H
#define JACC_SRC_PROFILE_START_H

#include <llvm/Support/Error.h>

#include <string>

namespace jacc::prof {

struct ProfileSettings {
  enum class Format { Off, Text, Json };
  Format Summary = Format::Off; ///< JACC_PROFILE: 1 (text), json, or a file (.json: JSON)
  std::string SummaryFile;      ///< empty: stderr
  std::string TraceFile;        ///< JACC_TRACE: where the timeline goes; empty: none
  std::string ToolLibraries;    ///< ACC_PROFLIB: tool libraries, ':'-separated
};

/// The settings from the environment; InvalidArgument naming a bad value.
llvm::Expected<ProfileSettings> profileSettingsFromEnv();

/// Starts the observers S asks for, the first time only (jacc_init after a jacc_finalize keeps
/// them), and makes the process's exit finish them. InvalidArgument naming ACC_PROFLIB's library
/// when one cannot be loaded or lacks acc_register_library, then and at every later call.
llvm::Error startProfiling(const ProfileSettings &S);

} // namespace jacc::prof

#endif
