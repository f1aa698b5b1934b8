// The line a run shows on a terminal's stderr while its first compiles take more than a second
// ("jacc: compiling kernels: 12 done, now heat.c:42 (3.4 s)"), erased when they end, and one
// closing line at exit naming what the wait was; silent when stderr is not a terminal.
#ifndef JACC_SRC_PROFILE_COMPILEPROGRESS_H
#define JACC_SRC_PROFILE_COMPILEPROGRESS_H

#include <llvm/ADT/StringRef.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace jacc::prof {

/// JACC_PROGRESS: when the line is shown: on a terminal after a second of compiles, never, or
/// always from the first compile.
enum class ProgressWhen { Terminal, Never, Always };

/// What the line says, from the compiles' begins and ends; times in seconds of any clock. The
/// text goes to Write: on a terminal (InPlace) "\r" and "\033[K" redraw and erase it in place;
/// elsewhere (a log) each compile's begin is a line of its own.
class CompileProgress {
public:
  using Writer = std::function<void(llvm::StringRef)>;
  explicit CompileProgress(Writer Write, double ShowAfterSeconds = 1.0, bool InPlace = true)
      : Write(std::move(Write)), ShowAfter(ShowAfterSeconds), InPlace(InPlace) {}

  /// A compile of the kernel named Name ("heat.c:42") begins.
  void begins(llvm::StringRef Name, double Now);
  /// A compile ends: the line is erased when none is left.
  void ends(double Now);
  /// Redraws the line while compiles run (a ticker calls it a few times a second).
  void tick(double Now);
  /// At exit: "jacc: compiled 12 kernels in 3.4 s ..." when the line was ever shown.
  void finish();

private:
  void drawLocked(double Now);
  /// Seconds spent with at least one compile running, up to Now.
  double busyLocked(double Now) const;

  Writer Write;
  double ShowAfter;
  bool InPlace;
  std::mutex M;
  unsigned Running = 0, Done = 0;
  double Busy = 0, RunningSince = 0;
  std::string Current;
  bool Shown = false, EverShown = false;
};

/// The process's progress line for When (Terminal: when stderr is one), on stderr, redrawn by a
/// thread of its own and finished at exit; null when it is never to be shown.
std::shared_ptr<CompileProgress> startCompileProgress(ProgressWhen When);

} // namespace jacc::prof

#endif
