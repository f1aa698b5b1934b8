// The kernel without variably modified types, for targets whose language has none (C++: CUDA,
// EntryTarget::FlatVlaPointers): a kernel argument such as `double (*a)[m]` cannot be declared as
// written there, so this pass describes each such pointer (ArgInfo::Vla, Dims, ElemType) and the
// edits that rewrite every subscript through it into flat pointer arithmetic,
//   a[i][j]  ->  (a + (i) * __jacc_vla_a_s1)[j]
// where __jacc_vla_a_sN is the element count of the N-th level's rows, computed once at kernel entry
// (as C evaluates VLA bounds once). What cannot be rewritten is recorded, never an error: only a
// target that needs flat pointers refuses the kernel then.
#ifndef JACC_ANALYSIS_FLATVLA_H
#define JACC_ANALYSIS_FLATVLA_H

#include "analysis/Kernel.h"

#include <clang/AST/ASTContext.h>
#include <llvm/ADT/STLFunctionalExtras.h>

#include <map>
#include <optional>

namespace jacc::analysis {

/// Name of the row stride of level Level (1 = the rows `a[i]` selects) of VLA pointer argument A.
std::string vlaStrideName(const std::string &A, unsigned Level);

/// Fill ArgInfo::Vla/Dims/ElemType for the wrapper's pointer parameters and K.FlatVla (edits, or
/// the reason the kernel cannot be expressed without variably modified types). Offset maps a file location of the parsed
/// translation unit to its kernel source offset (nullopt outside the kernel source).
void collectFlatVla(clang::ASTContext &Ctx, clang::FunctionDecl *Wrapper,
                       const std::map<const clang::ParmVarDecl *, unsigned> &ArgByDecl,
                       llvm::function_ref<std::optional<unsigned>(clang::SourceLocation)> Offset,
                       KernelInfo &K);

} // namespace jacc::analysis

#endif
