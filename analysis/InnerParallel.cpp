// Whether an inner loop's iterations are independent (InnerParallel.h): scalars from the AST,
// arrays from the loop body's region IR.
#include "analysis/InnerParallel.h"
#include "analysis/KernelSource.h"
#include "analysis/SSA.h"
#include "support/DynamicASTVisitor.h"

#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <llvm/ADT/STLExtras.h>

#include <map>

using namespace clang;

namespace jacc::analysis {
namespace {

/// The variable an lvalue belongs to: `x`, `s.f`, `t[k]` give x, s, t; `p[k]` gives p.
const VarDecl *rootVariable(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
      E = ME->getBase();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      return dyn_cast<VarDecl>(DRE->getDecl());
    } else {
      return nullptr;
    }
  }
}

/// Whether T, through its pointers and arrays, reaches pointers stored in memory (`double **`,
/// `double *[4]`).
bool reachesStoredPointers(QualType T) {
  while (T->isPointerType() || T->isArrayType()) {
    T = T->isPointerType() ? T->getPointeeType() : QualType(T->getArrayElementTypeNoTypeQual(), 0);
    if (T->isPointerType())
      return true;
  }
  return false;
}

/// Whether every variable the body changes belongs to one iteration: declared in the body, an
/// array argument's element (left to the arrays' check), or a reduction variable updated.
struct ScalarScan : DynamicASTVisitor {
  const std::set<std::string> &Reductions;
  std::set<const VarDecl *> Declared, Changed;
  std::set<std::string> LocalArrays; ///< arrays declared in the body
  bool Unknown = false;              ///< a write through something other than a variable
  /// The body names a pointer that is not an argument's own (a local pointer, a row of
  /// `double **rows`), which may point into an array the body writes. The region IR already
  /// makes its subscripts unattributable; this also covers such a pointer handed to a function
  /// that reads through it.
  bool OtherPointers = false;
  explicit ScalarScan(const std::set<std::string> &Reductions) : Reductions(Reductions) {}

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      OtherPointers |= (V->getType()->isPointerType() && !isa<ParmVarDecl>(V)) ||
                       reachesStoredPointers(V->getType());
    return true;
  }
  bool VisitVarDecl(VarDecl *V) override {
    Declared.insert(V);
    if (V->getType()->isArrayType())
      LocalArrays.insert(V->getName().str());
    return true;
  }
  void changes(const Expr *LHS) {
    const Expr *Bare = LHS->IgnoreParenImpCasts();
    const VarDecl *V = rootVariable(LHS);
    if (!V) {
      Unknown = true;
      return;
    }
    bool ThroughPointer = V->getType()->isPointerType() && !isa<DeclRefExpr>(Bare);
    bool ReductionUpdate = isa<DeclRefExpr>(Bare) && Reductions.count(V->getName().str());
    if (ThroughPointer) {
      // An array argument: the region IR's accesses decide. A local pointer may point anywhere.
      Unknown |= !isa<ParmVarDecl>(V);
      return;
    }
    if (!ReductionUpdate)
      Changed.insert(V);
  }
  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (B->isAssignmentOp())
      changes(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    if (U->isIncrementDecrementOp()) {
      changes(U->getSubExpr());
    } else if (U->getOpcode() == UO_AddrOf) {
      const VarDecl *V = rootVariable(U->getSubExpr());
      bool ElementOfArgument = V && isa<ParmVarDecl>(V) && V->getType()->isPointerType();
      if (!ElementOfArgument) {
        if (V)
          Changed.insert(V); // its address may be written through
        else
          Unknown = true;
      }
    }
    return true;
  }

  bool independent() const {
    return !Unknown && llvm::all_of(Changed, [&](const VarDecl *V) { return Declared.count(V); });
  }
};

/// E moves with Var alone: a non-zero multiple of Var plus terms the loop never changes.
bool movesWith(const IndexExpr &E, const std::string &Var, const RegionIR &IR) {
  auto C = E.Linear.Coef.find(Var);
  if (E.ReadsMemory || E.Linear.ReadsMemory || C == E.Linear.Coef.end() || C->second == 0 ||
      E.Linear.Nonlinear.count(Var))
    return false;
  return llvm::all_of(E.Vars, [&](const std::string &V) { return V == Var || IR.invariant(V); });
}

std::string withoutSpaces(llvm::StringRef S) {
  std::string R;
  for (char Ch : S)
    if (!isspace(static_cast<unsigned char>(Ch)))
      R += Ch;
  return R;
}

bool sameIndex(const IndexExpr &X, const IndexExpr &Y) {
  if (X.Affine && Y.Affine && X.Coeffs == Y.Coeffs && X.Const == Y.Const)
    return true;
  return withoutSpaces(X.Text) == withoutSpaces(Y.Text);
}

/// Every access to one array argument, writes and reads.
using AccessesByArray = std::map<std::string, std::vector<const ArrayAccess *>>;

/// Whether the accesses Xs to one array each touch one slice of it per iteration, the same for
/// all: some dimension indexed by one expression that moves with Var.
bool oneSlicePerIteration(const std::vector<const ArrayAccess *> &Xs, const std::string &Var,
                          const RegionIR &IR) {
  const ArrayAccess &First = *Xs.front();
  for (size_t D = 0; D < First.Index.size(); ++D) {
    if (!movesWith(First.Index[D], Var, IR))
      continue;
    if (llvm::all_of(Xs, [&](const ArrayAccess *X) {
          return !X->ThroughLoadedPointer && X->Index.size() > D &&
                 sameIndex(X->Index[D], First.Index[D]);
        }))
      return true;
  }
  return false;
}

} // namespace

InnerIndependence innerIterationsIndependent(ForStmt *F, const std::string &Var,
                                             const LowerContext &C,
                                             const std::set<std::string> &Reductions) {
  ScalarScan Scalars(Reductions);
  Scalars.TraverseStmt(F->getBody());
  if (!Scalars.independent())
    return InnerIndependence::No;
  RegionIR IR = lowerRegion(F->getBody(), C);
  if (!IR.Unattributable.empty())
    return InnerIndependence::No;
  AccessesByArray Accesses;
  std::set<std::string> Written;
  auto Note = [&](const ArrayAccess &A) {
    if (A.Arg >= 0)
      Accesses[A.Name].push_back(&A);
  };
  for (const IRStmt &S : IR.Stmts) {
    if (S.K == IRStmt::Kind::Call)
      return InnerIndependence::No;
    // A reduction variable's running value differs from one order of iterations to another.
    for (const std::string &R : Reductions)
      if (S.IndexUses.count(R) || (S.Uses.count(R) && !(S.Reduction && S.Var == R)))
        return InnerIndependence::No;
    if (S.K == IRStmt::Kind::ArrayWrite) {
      // Arrays other than arguments: only those each iteration declares (deviceptr ones, for
      // one, are not the IR's arguments).
      bool Local = S.Write.Arg < 0 && Scalars.LocalArrays.count(S.Write.Name);
      if (S.Atomic || S.Write.ThroughLoadedPointer || (S.Write.Arg < 0 && !Local))
        return InnerIndependence::No;
      if (!Local)
        Written.insert(S.Write.Name);
      Note(S.Write);
    }
    for (const ArrayAccess &A : S.Reads)
      Note(A);
    for (const ArrayAccess &A : S.IndexReads)
      Note(A);
  }
  if (Scalars.OtherPointers && !Written.empty())
    return InnerIndependence::No;
  for (const std::string &Name : Written)
    if (!oneSlicePerIteration(Accesses[Name], Var, IR))
      return InnerIndependence::No;
  return Accesses.size() > 1 && !Written.empty() ? InnerIndependence::IfPointersDisjoint
                                                 : InnerIndependence::Yes;
}

bool scalarsStayInLoop(ForStmt *F, const CanonicalLoop &L, const LowerContext &C,
                       SourceSpan Construct) {
  RegionIR IR = lowerRegion(F->getBody(), C);
  if (!IR.Unattributable.empty())
    return false; // a write through a local pointer may reach a scalar
  std::set<std::string> Assigned;
  if (!assignsBeforeReading(IR, Assigned))
    return false;
  Assigned.insert(L.Var);
  llvm::StringRef Source = C.Source;
  std::string Elsewhere =
      (Source.slice(Construct.Begin, L.ForBegin) + "\n" + Source.slice(L.BodyEnd, Construct.End))
          .str();
  return llvm::none_of(Assigned,
                       [&](const std::string &V) { return mentionsIdentifier(Elsewhere, V); });
}

} // namespace jacc::analysis
