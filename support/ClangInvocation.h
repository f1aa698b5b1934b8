// Compile an in-memory C file with clang in process: the cc1 arguments are computed once by clang's
// own driver (system include paths, resource dir, host CPU and features), then reused.
#ifndef JACC_SUPPORT_CLANGINVOCATION_H
#define JACC_SUPPORT_CLANGINVOCATION_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
}

namespace jacc {

/// What the compiler instance is for: analysis parses kernels at -O0; host code generation at -O3
/// for the host CPU (-march=native as the driver resolves it); Program parses a user's whole
/// program as gcc would (gnu17, gcc's warnings not errors); ProgramCxx a C++ one as g++ would
/// (gnu++17, the default of the g++ versions jacc is tested with).
enum class ClangPurpose { Analysis, HostCodegen, Program, ProgramCxx };

/// cc1 arguments (without the input file) for a purpose; computed on first use, thread-safe.
llvm::Expected<const std::vector<std::string> &> cc1Arguments(ClangPurpose Purpose);

/// A compiler instance whose main file is Code (named FileName), diagnostics going to Diags.
/// The caller runs an action on it (ExecuteAction) and keeps Code alive meanwhile; a NUL must
/// follow Code (std::string's and MemoryBuffer's do): clang's lexer stops there. Code's leading
/// system #include lines are served from a precompiled header built once per process (see
/// systemIncludePrefix); the lines stay in Code and are skipped by the headers' include guards.
/// ExtraArgs are cc1 options after the purpose's own (a user's -std= overrides the default).
llvm::Expected<std::unique_ptr<clang::CompilerInstance>>
makeCompilerInstance(ClangPurpose Purpose, llvm::StringRef Code, llvm::StringRef FileName,
                     llvm::raw_ostream &Diags, llvm::StringRef KernelSource = "",
                     llvm::ArrayRef<std::string> ExtraArgs = {});

/// The `#include <...>` lines at the very start of a kernel source (blank and comment lines may
/// come between them), joined; empty when the source does not start with system includes.
std::string systemIncludePrefix(llvm::StringRef Source);

/// The clang version string ("16.0.6"), part of every cache key.
std::string clangVersion();

} // namespace jacc

#endif
