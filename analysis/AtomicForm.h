// The form of an `#pragma acc atomic` statement (OpenACC 3.3: update, read, write or capture of one
// expression statement), checked and located in the kernel source: what the jit's targets write.
#ifndef JACC_ANALYSIS_ATOMICFORM_H
#define JACC_ANALYSIS_ATOMICFORM_H

#include "analysis/Directive.h"
#include "analysis/Kernel.h"

#include <clang/AST/Expr.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Support/Error.h>

namespace jacc::analysis {

/// The atomic operation D (an atomic directive) makes of the expression statement E. Span gives
/// the kernel source range of a parsed range; Source is the kernel source. Errors: Unsupported
/// ("kernel:LINE: '#pragma acc atomic ...': ...") for an expression not of D's form.
llvm::Expected<AtomicOp> describeAtomic(const clang::Expr *E, const Directive &D,
                                        llvm::StringRef Source,
                                        llvm::function_ref<SourceSpan(clang::SourceRange)> Span);

} // namespace jacc::analysis

#endif
