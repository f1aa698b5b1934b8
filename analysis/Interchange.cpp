// Which loops of a nest's body a CPU thread runs swapped (Interchange.h): legality from the AST
// and the inner body's SSA, profit from where its accesses move contiguously.
#include "analysis/Interchange.h"

#include "analysis/LoopNest.h"
#include "analysis/SSA.h"

#include <clang/AST/Stmt.h>
#include <llvm/ADT/STLExtras.h>

#include <cstdlib>
#include <set>

using namespace clang;

namespace jacc::analysis {
namespace {

/// Whether S holds a statement that leaves or enters loops other than by their ends.
bool jumps(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S))
    return true;
  return llvm::any_of(S->children(), [](const Stmt *C) { return jumps(C); });
}

/// The coefficient of Var in the innermost subscript of A (0 when it does not move with Var).
long long innermostCoefficient(const ArrayAccess &A, const std::string &Var) {
  if (A.Index.empty() || A.ThroughLoadedPointer)
    return 0;
  const IndexExpr &X = A.Index.back();
  const std::map<std::string, long long> &Coef = X.Affine ? X.Coeffs : X.Linear.Coef;
  auto It = Coef.find(Var);
  return It == Coef.end() || X.Linear.Nonlinear.count(Var) ? 0 : It->second;
}

/// Whether more of IR's accesses step by one element along Outer than along Inner: running
/// Outer innermost then turns strided accesses into contiguous ones.
bool contiguousAlongOuter(const RegionIR &IR, const std::string &Outer, const std::string &Inner) {
  int AlongOuter = 0, AlongInner = 0;
  auto Count = [&](const ArrayAccess &A) {
    AlongOuter += std::llabs(innermostCoefficient(A, Outer)) == 1;
    AlongInner += innermostCoefficient(A, Inner) != 0;
  };
  for (const IRStmt &S : IR.Stmts) {
    if (S.K == IRStmt::Kind::ArrayWrite)
      Count(S.Write);
    for (const ArrayAccess &A : S.Reads)
      Count(A);
  }
  return AlongOuter > AlongInner;
}

/// Whether Inner's body gives the same values in any order of Outer and Inner's iterations,
/// each iteration of Outer independent of the others: no call, atomic or reduction, every write
/// attributed, and each scalar it assigns assigned before it is read in every iteration (none
/// carries a value from one iteration to the next). Assigned receives those scalars.
bool bodyReorderable(const RegionIR &IR, const std::set<std::string> &Reductions,
                     std::set<std::string> &Assigned) {
  if (!IR.Unattributable.empty())
    return false;
  for (const IRStmt &S : IR.Stmts) {
    if (S.K == IRStmt::Kind::Call || (S.K == IRStmt::Kind::ArrayWrite && S.Atomic))
      return false;
    for (const std::string &R : Reductions)
      if (S.Uses.count(R) || S.IndexUses.count(R) || (S.K == IRStmt::Kind::ScalarDef && S.Var == R))
        return false;
  }
  return assignsBeforeReading(IR, Assigned);
}

/// The interchange of F and the loop its body holds, if it is legal and pays.
std::optional<LoopInterchange>
interchangeOf(ForStmt *F, unsigned BodyEnd, LowerContext C, const KernelLocations &Loc,
              llvm::function_ref<bool(ForStmt *, const std::string &)> Independent) {
  ForStmt *G = perfectlyNested(F);
  if (!G || jumps(F))
    return std::nullopt;
  const VarDecl *OuterVar = nullptr, *InnerVar = nullptr;
  auto Outer = canonicalLoop(F, OuterVar, Loc);
  auto Inner = canonicalLoop(G, InnerVar, Loc);
  if (!Outer || !Inner) {
    llvm::consumeError(Outer.takeError());
    llvm::consumeError(Inner.takeError());
    return std::nullopt;
  }
  // Each header independent of the other loop's variable: every pair of iterations still runs.
  if (!plainRectangularHeader(G, {*Outer}) || !plainRectangularHeader(F, {*Inner}))
    return std::nullopt;
  if (auto E = checkNoBreak(G->getBody(), Loc)) {
    llvm::consumeError(std::move(E));
    return std::nullopt;
  }
  if (!Independent(F, Outer->Var))
    return std::nullopt;
  C.ParallelVars.push_back(Outer->Var);
  RegionIR IR = lowerRegion(G->getBody(), C);
  std::set<std::string> Assigned;
  if (!bodyReorderable(IR, C.ReductionVars, Assigned) ||
      !contiguousAlongOuter(IR, Outer->Var, Inner->Var))
    return std::nullopt;
  // Neither header reads what the body assigns, and nothing after the loops reads what they
  // leave behind: after zero iterations of one loop the other's variable differs.
  llvm::StringRef Source = C.Source;
  std::string Headers = (Source.slice(Outer->ForBegin, Outer->BodyBegin) + " " +
                         Source.slice(Inner->ForBegin, Inner->BodyBegin))
                            .str();
  llvm::StringRef After = Source.slice(Outer->BodyEnd, BodyEnd);
  Assigned.insert(Outer->Var);
  Assigned.insert(Inner->Var);
  for (const std::string &V : Assigned)
    if (mentionsIdentifier(After, V) ||
        (V != Outer->Var && V != Inner->Var && mentionsIdentifier(Headers, V)))
      return std::nullopt;
  return LoopInterchange{std::move(*Outer), std::move(*Inner)};
}

void collect(Stmt *S, unsigned BodyEnd, const LowerContext &C, const KernelLocations &Loc,
             llvm::function_ref<bool(ForStmt *, const std::string &)> Independent,
             std::vector<LoopInterchange> &Out) {
  if (!S)
    return;
  if (auto *F = dyn_cast<ForStmt>(S))
    if (auto I = interchangeOf(F, BodyEnd, C, Loc, Independent)) {
      Out.push_back(std::move(*I));
      return;
    }
  for (Stmt *Child : S->children())
    collect(Child, BodyEnd, C, Loc, Independent, Out);
}

} // namespace

std::vector<LoopInterchange>
findInterchanges(Stmt *Body, unsigned BodyEnd, const LowerContext &C, const KernelLocations &Loc,
                 llvm::function_ref<bool(ForStmt *F, const std::string &Var)> Independent) {
  std::vector<LoopInterchange> Out;
  collect(Body, BodyEnd, C, Loc, Independent, Out);
  return Out;
}

} // namespace jacc::analysis
