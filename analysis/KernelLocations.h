// Where the nodes of the parsed kernel wrapper (KernelSource.h) are in the kernel source: offsets,
// ranges, texts and lines, and errors that name them ("kernel:LINE:COL: ...").
#ifndef JACC_ANALYSIS_KERNELLOCATIONS_H
#define JACC_ANALYSIS_KERNELLOCATIONS_H

#include "analysis/Kernel.h"
#include "analysis/KernelSource.h"
#include "support/Error.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <optional>
#include <string>

namespace jacc::analysis {

/// The parsed wrapper of a kernel and the way back to the kernel source.
struct KernelLocations {
  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const WrappedKernel &W;

  KernelLocations(clang::ASTContext &Ctx, const WrappedKernel &W)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), W(W) {}

  /// The kernel source offset of an offset of the wrapper (in the construct or the leading
  /// declarations).
  unsigned toSource(unsigned WrapperOffset) const {
    if (WrapperOffset >= W.ConstructBegin)
      return WrapperOffset - W.ConstructBegin + W.ConstructOffset;
    return WrapperOffset - W.LeadingBegin;
  }
  /// The kernel source offset of a file location, nullopt outside the kernel's text.
  std::optional<unsigned> kernelOffset(clang::SourceLocation L) const;
  unsigned beginOf(const clang::Stmt *S) const;
  /// One past the statement, its ';' included.
  unsigned endOf(const clang::Stmt *S) const;
  /// The kernel source range of a parsed range, its last token included.
  SourceSpan span(clang::SourceRange R) const;
  /// The kernel source range that spells exactly R: whole macro invocations and macro
  /// arguments map back to their text; nullopt when R starts or ends inside a macro's body.
  std::optional<SourceSpan> exactSpan(clang::SourceRange R) const;
  /// The source text of an expression (of its macro expansion, if a macro spells it).
  std::string text(const clang::Expr *E) const;
  /// The kernel line of a statement.
  unsigned lineOf(const clang::Stmt *S) const;
  /// An error "kernel:LINE:COL: Msg" at a statement.
  llvm::Error errorAt(ErrorCode Code, const clang::Stmt *S, const llvm::Twine &Msg) const;
};

} // namespace jacc::analysis

#endif
