// Routines defined in another file of the program: jaccc registers each file's `routine`
// definitions at program start, and a kernel that calls one it only saw declared names it in a
// line `#pragma jacc routines(f, g)`, which the table replaces by their definitions before the
// kernel is compiled (OpenACC's separate compilation: nvc links device routines the same way).
#ifndef JACC_JIT_KERNELROUTINES_H
#define JACC_JIT_KERNELROUTINES_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace jacc::jit {

/// The routines of the program by name, each with the text a kernel needs to call it.
class KernelRoutines {
public:
  /// Registers Name's text (a last line `// jacc-site: lib.c:12` names where it was written).
  /// The same name again with the same text is no change; with another text, the kernels
  /// calling it get an error naming both sites.
  llvm::Error define(llvm::StringRef Name, llvm::StringRef Text);

  /// Kernel with its `#pragma jacc routines(...)` lines replaced by the routines' texts (and
  /// theirs, transitively), each declaration once; none when Kernel has no such line. An
  /// unregistered routine is an error naming it and the kernel's site.
  llvm::Expected<std::optional<std::string>> link(llvm::StringRef Kernel) const;

private:
  struct Routine {
    std::string Text, Site;
    std::string OtherSite; ///< where a second, different text of the name was registered
  };
  /// For a name qualified by its signature (`f_sig` and 8 hex digits: how a Fortran routine of
  /// another file is named, from the caller's interface), a routine of the same base name and
  /// another signature; called with M held.
  const Routine *sameNameOtherSignature(llvm::StringRef Name) const;
  mutable std::mutex M;
  std::map<std::string, Routine, std::less<>> Table;
};

/// The process's table (registrations run before main, before any runtime exists).
KernelRoutines &kernelRoutines();

} // namespace jacc::jit

#endif
