// Lowering: one iteration of a parallel nest's innermost body (a clang statement) into the region
// IR, a CFG of the statements that matter to data ranges.
#ifndef JACC_ANALYSIS_LOWERREGION_H
#define JACC_ANALYSIS_LOWERREGION_H

#include "analysis/Kernel.h"
#include "analysis/RegionIR.h"

#include <llvm/ADT/StringRef.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class ForStmt;
class Stmt;
class SourceRange;
} // namespace clang

namespace jacc::analysis {

struct LowerContext {
  clang::ASTContext *Ctx = nullptr;
  llvm::StringRef Source; ///< the kernel source, for index texts
  /// Pointer arguments by name -> index in KernelInfo::Args.
  std::map<std::string, unsigned> PointerArgs;
  std::set<std::string> ReductionVars;
  std::vector<std::string> ParallelVars;
  /// The loops that collapse into the nest's first one (RegionIR::CollapsedLoops).
  std::vector<const clang::ForStmt *> CollapsedLoops;
  /// Kernel-source offsets of a clang range (token range, expansion locations).
  std::function<std::pair<unsigned, unsigned>(clang::SourceRange)> Offsets;
  /// Kernel-source offsets of the text that spells exactly a clang range, nullopt when the
  /// range starts or ends inside a macro's body.
  std::function<std::optional<std::pair<unsigned, unsigned>>(clang::SourceRange)> ExactOffsets;
  /// Statements under `#pragma acc atomic`, by their form.
  std::map<const clang::Stmt *, AtomicOp::Form> AtomicStmts;
};

/// Lower Body (one iteration). Never fails: what it cannot attribute is recorded in
/// RegionIR::Unattributable, which sends the kernel to duplicate mode.
RegionIR lowerRegion(const clang::Stmt *Body, const LowerContext &C);

} // namespace jacc::analysis

#endif
