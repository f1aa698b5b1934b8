// A use of clang inside this process (a kernel's analysis, host code generation) that exit()
// must not cut short: exit's static destructors destroy clang's tables (the driver's options)
// under a thread still parsing ("pure virtual method called"). An exiting thread waits for the
// uses in progress before those destructors run, and no use starts after it began.
#ifndef JACC_SUPPORT_CLANGUSE_H
#define JACC_SUPPORT_CLANGUSE_H

#include <llvm/Support/Error.h>

#include <chrono>

namespace jacc {

class ClangUse {
public:
  /// How long an exiting process waits for the uses in progress (a huge kernel's analysis may
  /// take longer; the exit then goes on as it would have).
  static constexpr std::chrono::seconds ExitWait{10};

  /// Build clang's driver state, then register the exit hook (idempotent). The hook must come
  /// after that state, whose destructors exit() then runs after it, and before the first use
  /// (an exit during the state's construction would destroy it under the use): jacc_init calls
  /// it before any kernel is analysed.
  static void prepare();

  /// Enter a use: false when the process is exiting (the caller fails with an error).
  ClangUse();
  ~ClangUse();
  ClangUse(const ClangUse &) = delete;
  ClangUse &operator=(const ClangUse &) = delete;
  explicit operator bool() const { return Entered; }
  /// The error of a use (What: "the kernel's analysis") not entered.
  static llvm::Error refused(const char *What);

private:
  bool Entered = false;
};

} // namespace jacc

#endif
