// The progress line's drawing: redrawn in place as compiles begin and end and four times a second,
// erased when none runs, and the closing line at exit.
#include "src/profile/CompileProgress.h"

#include "src/profile/Events.h"
#include "support/Fork.h"

#include <llvm/ADT/Twine.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstdlib>
#include <unistd.h>

namespace jacc::prof {

void CompileProgress::begins(llvm::StringRef Name, double Now) {
  std::lock_guard<std::mutex> G(M);
  if (Running++ == 0)
    RunningSince = Now;
  Current = Name.empty() ? "a kernel" : Name.str();
  drawLocked(Now);
}

void CompileProgress::ends(double Now) {
  std::lock_guard<std::mutex> G(M);
  if (Running == 0)
    return;
  ++Done;
  if (--Running > 0)
    return InPlace ? drawLocked(Now) : void();
  Busy += Now - RunningSince;
  if (Shown && InPlace)
    Write("\r\033[K"); // the program's own output starts at the line's beginning
  Shown = false;
}

void CompileProgress::tick(double Now) {
  std::lock_guard<std::mutex> G(M);
  if (Running && InPlace)
    drawLocked(Now);
}

void CompileProgress::finish() {
  std::lock_guard<std::mutex> G(M);
  if (!EverShown)
    return;
  std::string Line;
  llvm::raw_string_ostream OS(Line);
  OS << (Shown && InPlace ? "\r\033[K" : "") << "jacc: compiled " << Done << " kernel"
     << (Done == 1 ? "" : "s") << " in " << llvm::format("%.1f", Busy)
     << " s; the disk cache keeps them, so the next run starts at once\n";
  Write(OS.str());
  Shown = false;
  EverShown = false;
}

double CompileProgress::busyLocked(double Now) const {
  return Busy + (Running ? Now - RunningSince : 0);
}

void CompileProgress::drawLocked(double Now) {
  double Seconds = busyLocked(Now);
  if (Seconds < ShowAfter)
    return;
  std::string Line;
  llvm::raw_string_ostream OS(Line);
  OS << (InPlace ? "\r" : "") << "jacc: compiling kernels: " << Done << " done, now " << Current
     << " (" << llvm::format("%.1f", Seconds) << " s)" << (InPlace ? "\033[K" : "\n");
  Write(OS.str());
  Shown = EverShown = true;
}

namespace {

/// Ticks the line four times a second while the process lives (a detached thread: compiles
/// may run until exit).
void tickForever(std::weak_ptr<CompileProgress> Progress) {
  std::thread([Progress] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      auto P = Progress.lock();
      if (!P)
        return;
      P->tick(now() * 1e-9);
    }
  }).detach();
}

} // namespace

std::shared_ptr<CompileProgress> startCompileProgress(ProgressWhen When) {
  if (When == ProgressWhen::Never || (When == ProgressWhen::Terminal && !isatty(STDERR_FILENO)))
    return nullptr;
  // One per process, never destroyed: the exit handler and the ticker use it.
  // Asked for (Always): from the first compile, as a log shows every step.
  double ShowAfter = When == ProgressWhen::Always ? 0 : 1;
  static std::shared_ptr<CompileProgress> *Process = [ShowAfter] {
    auto *P = new std::shared_ptr<CompileProgress>(std::make_shared<CompileProgress>(
        [](llvm::StringRef Text) {
          llvm::errs() << Text;
          llvm::errs().flush();
        },
        ShowAfter, isatty(STDERR_FILENO)));
    tickForever(*P);
    std::atexit([] {
      if (!forkedChild()) // its ticker thread stayed in the parent
        (*Process)->finish();
    });
    return P;
  }();
  return *Process;
}

} // namespace jacc::prof
