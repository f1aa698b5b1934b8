// The form of an `#pragma acc atomic` statement (OpenACC 3.3 §2.12: read, write, update or capture
// of one expression statement, or a structured capture block), checked and located in the kernel
// source: what the jit's targets write.
#ifndef JACC_ANALYSIS_ATOMICFORM_H
#define JACC_ANALYSIS_ATOMICFORM_H

#include "analysis/Directive.h"
#include "analysis/Kernel.h"

#include <clang/AST/Stmt.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/Error.h>

namespace jacc::analysis {

/// The atomic operation D (an atomic directive) makes of the statement S that follows it: an
/// expression statement, or for capture a block `{v = x; x binop= expr;}`, `{x++; v = x;}`,
/// `{v = x; x = expr;}`... Span gives the kernel source range of a parsed range; Source is the
/// kernel source. Errors: Unsupported ("kernel:LINE: '#pragma acc ...': ...") naming the forms
/// D allows when S is none of them.
llvm::Expected<AtomicOp> describeAtomic(const clang::Stmt *S, const Directive &D,
                                        llvm::StringRef Source,
                                        llvm::function_ref<SourceSpan(clang::SourceRange)> Span);

} // namespace jacc::analysis

#endif
