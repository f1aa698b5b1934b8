// What a run learnt of spreading the program over its devices, kept beside the kernel cache for
// its next runs: a program that ran before starts in the regime it chose (the other regime is
// timed again later, as after any choice) instead of timing both again. A short program (NPB FT:
// 55 launches) otherwise ends before its timings pay; StarPU keeps its performance models
// between runs for the same reason.
#ifndef JACC_SRC_LAUNCH_PROGRAMMEMORY_H
#define JACC_SRC_LAUNCH_PROGRAMMEMORY_H

#include "src/launch/ProgramSpread.h"

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace jacc {

namespace jit {
class DiskCache;
}

class ProgramMemory {
public:
  /// What a run chose.
  using Choice = ProgramSpread::Kept;
  /// The record of the program Identity (programIdentity()) in Cache's directory.
  ProgramMemory(std::shared_ptr<jit::DiskCache> Cache, std::string Identity);
  /// The choice a past run of the program kept, if any (a record of another format, or of
  /// another identity under the same name, is none).
  std::optional<Choice> recall() const;
  /// Keep C for the next runs, when it differs from what is kept. Best effort: a failure to
  /// write is one JACC_DEBUG=launch line, never an error of the push.
  void remember(const Choice &C);
  /// The record's file name ("program-" and a hash of the identity).
  const std::string &name() const { return Name; }

private:
  std::shared_ptr<jit::DiskCache> Cache;
  std::string Identity, Name;
  std::mutex M;
  std::optional<Choice> Kept;
};

/// What makes this process's program the same as a past run's: its executable (path, size,
/// modification time), its arguments, the jacc variables that change how it runs (not the
/// observers: JACC_DEBUG, JACC_PROFILE, ...) and Devices (their names and threads).
std::string programIdentity(llvm::StringRef Devices);

} // namespace jacc

#endif
