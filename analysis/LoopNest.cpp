// The gang loop nests of a compute construct, from their for loops (LoopNest.h).
#include "analysis/LoopNest.h"
#include "support/DynamicASTVisitor.h"

#include <set>

using namespace clang;

namespace jacc::analysis {
namespace {

const VarDecl *loopVarOf(Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

} // namespace

llvm::Expected<CanonicalLoop> canonicalLoop(ForStmt *F, const VarDecl *&Var,
                                            const KernelLocations &Loc) {
  CanonicalLoop L;
  L.ForBegin = Loc.beginOf(F);
  L.BodyBegin = Loc.beginOf(F->getBody());
  L.BodyEnd = Loc.endOf(F->getBody());
  L.Line = Loc.lineOf(F);
  auto NotCanonical = [&](const char *What) {
    return Loc.errorAt(ErrorCode::Unsupported, F,
                       llvm::Twine("the parallel loop is not in canonical form (") + What +
                           "): write it as for (i = lo; i < hi; i += step)");
  };
  Var = nullptr;
  Stmt *Init = F->getInit();
  if (auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    if (!DS->isSingleDecl())
      return NotCanonical("one loop variable expected");
    auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!V || !V->getInit())
      return NotCanonical("the loop variable needs an initial value");
    Var = V;
    L.Lower = Loc.text(V->getInit());
  } else if (auto *B = dyn_cast_or_null<BinaryOperator>(Init); B && B->getOpcode() == BO_Assign) {
    Var = loopVarOf(B->getLHS());
    L.Lower = Loc.text(B->getRHS());
  }
  if (!Var)
    return NotCanonical("no loop variable initialisation");
  if (!Var->getType()->isIntegerType())
    return NotCanonical("the loop variable must have an integer type");
  L.Var = Var->getName().str();
  L.VarType = Var->getType().getUnqualifiedType().getAsString(Loc.Ctx.getPrintingPolicy());

  auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Cond)
    return NotCanonical("no comparison of the loop variable");
  if (!Cond->isComparisonOp())
    return NotCanonical("the condition must compare the loop variable with <, <=, >, >= or !=");
  BinaryOperatorKind Op = Cond->getOpcode();
  Expr *Bound = nullptr;
  if (loopVarOf(Cond->getLHS()) == Var) {
    Bound = Cond->getRHS();
  } else if (loopVarOf(Cond->getRHS()) == Var) {
    Bound = Cond->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  switch (Op) {
  case BO_LT: L.Compare = CanonicalLoop::Cmp::LT; break;
  case BO_LE: L.Compare = CanonicalLoop::Cmp::LE; break;
  case BO_GT: L.Compare = CanonicalLoop::Cmp::GT; break;
  case BO_GE: L.Compare = CanonicalLoop::Cmp::GE; break;
  case BO_NE: L.Compare = CanonicalLoop::Cmp::NE; break;
  default: Bound = nullptr;
  }
  if (!Bound)
    return NotCanonical("the condition must compare the loop variable with <, <=, >, >= or !=");
  L.Upper = Loc.text(Bound);

  Expr *Inc = F->getInc();
  Inc = Inc ? Inc->IgnoreParens() : nullptr;
  bool Ok = false;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && U->isIncrementDecrementOp() &&
                                                     loopVarOf(U->getSubExpr()) == Var) {
    L.Step = "1";
    L.Increasing = U->isIncrementOp();
    Ok = true;
  } else if (auto *B = dyn_cast_or_null<BinaryOperator>(Inc); B && loopVarOf(B->getLHS()) == Var) {
    if (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign) {
      L.Step = Loc.text(B->getRHS());
      L.Increasing = B->getOpcode() == BO_AddAssign;
      Ok = true;
    } else if (B->getOpcode() == BO_Assign) {
      auto *R = dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
      if (R && (R->getOpcode() == BO_Add || R->getOpcode() == BO_Sub)) {
        if (loopVarOf(R->getLHS()) == Var) {
          L.Step = Loc.text(R->getRHS());
          L.Increasing = R->getOpcode() == BO_Add;
          Ok = true;
        } else if (R->getOpcode() == BO_Add && loopVarOf(R->getRHS()) == Var) {
          L.Step = Loc.text(R->getLHS());
          Ok = true;
        }
      }
    }
  }
  if (!Ok)
    return NotCanonical("the increment must be i++, i--, i += step or i -= step");
  bool UpCmp = L.Compare == CanonicalLoop::Cmp::LT || L.Compare == CanonicalLoop::Cmp::LE;
  bool DownCmp = L.Compare == CanonicalLoop::Cmp::GT || L.Compare == CanonicalLoop::Cmp::GE;
  if ((UpCmp && !L.Increasing) || (DownCmp && L.Increasing))
    return NotCanonical("the increment goes away from the bound");
  if (L.Compare == CanonicalLoop::Cmp::NE && L.Step != "1")
    return NotCanonical("a loop with != needs a step of 1");
  return L;
}

ForStmt *perfectlyNested(ForStmt *F) {
  Stmt *B = F->getBody();
  if (auto *CS = dyn_cast<CompoundStmt>(B)) {
    if (CS->size() != 1)
      return nullptr;
    B = CS->body_front();
  }
  return dyn_cast<ForStmt>(B);
}

namespace {

/// Collects the variables an expression refers to.
struct RefScan : public DynamicASTVisitor {
  std::set<const ValueDecl *> Refs;
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    Refs.insert(E->getDecl());
    return true;
  }
};
/// Finds reads of memory (elements, members through pointers, calls) in an expression.
struct MemoryScan : public DynamicASTVisitor {
  bool Found = false;
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *) override { return !(Found = true); }
  bool VisitMemberExpr(MemberExpr *) override { return !(Found = true); }
  bool VisitCallExpr(CallExpr *) override { return !(Found = true); }
  bool VisitUnaryOperator(UnaryOperator *U) override {
    Found |= U->getOpcode() == UO_Deref;
    return !Found;
  }
};
/// Finds `break` statements that would leave the loop whose body is scanned.
struct BreakScan : public DynamicASTVisitor {
  BreakStmt *Found = nullptr;
  bool TraverseForStmt(ForStmt *) override {
    return true;
  } // breaks inside belong to the inner loop
  bool TraverseWhileStmt(WhileStmt *) override { return true; }
  bool TraverseDoStmt(DoStmt *) override { return true; }
  bool TraverseSwitchStmt(SwitchStmt *) override { return true; }
  bool VisitBreakStmt(BreakStmt *B) override {
    if (!Found)
      Found = B;
    return true;
  }
};
/// Finds the declaration a name refers to inside a statement.
struct NameScan : public DynamicASTVisitor {
  llvm::StringRef Name;
  const VarDecl *Found = nullptr;
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (auto *V = dyn_cast<VarDecl>(E->getDecl()); V && V->getName() == Name && !Found)
      Found = V;
    return true;
  }
};

} // namespace

bool plainRectangularHeader(ForStmt *F, const std::vector<CanonicalLoop> &Loops) {
  RefScan Refs;
  MemoryScan Memory;
  for (Stmt *Part :
       {static_cast<Stmt *>(F->getCond()), F->getInit(), static_cast<Stmt *>(F->getInc())})
    if (Part) {
      Refs.TraverseStmt(Part);
      Memory.TraverseStmt(Part);
    }
  if (Memory.Found)
    return false;
  for (const ValueDecl *V : Refs.Refs)
    for (const CanonicalLoop &L : Loops)
      if (V->getName() == L.Var)
        return false;
  return true;
}

llvm::Error checkNoBreak(Stmt *Body, const KernelLocations &Loc) {
  BreakScan B;
  B.TraverseStmt(Body);
  if (B.Found)
    return Loc.errorAt(ErrorCode::InvalidArgument, B.Found,
                       "'break' cannot leave a parallel loop (OpenACC forbids it)");
  return llvm::Error::success();
}

llvm::Expected<ParallelNest> buildNest(ForStmt *F, const Directive &D, const KernelLocations &Loc,
                                       std::vector<ForStmt *> &Fors) {
  Fors.clear();
  ParallelNest N;
  N.Dir = D;
  unsigned Depth = 1;
  if (const Clause *C = D.find(ClauseKind::Collapse))
    Depth = std::stoul(C->Argument);
  else if (const Clause *T = D.find(ClauseKind::Tile))
    // tile(s1, ..., sk) runs the k loops' iterations in tiles: the same independent iterations
    // as collapse(k), which is how jacc shares them (each device's share is its tile).
    Depth = T->Vars.size();
  std::set<const ValueDecl *> OuterVars;
  ForStmt *Cur = F;
  for (unsigned I = 0; I < Depth; ++I) {
    if (!Cur)
      return Loc.errorAt(ErrorCode::InvalidArgument, F,
                         "collapse(" + llvm::Twine(Depth) + ") needs " + llvm::Twine(Depth) +
                             " perfectly nested loops");
    const VarDecl *Var = nullptr;
    auto L = canonicalLoop(Cur, Var, Loc);
    if (!L)
      return L.takeError();
    // Collapsed loops must be rectangular: their bounds may not use outer loop variables.
    RefScan Refs;
    for (Stmt *Part : {static_cast<Stmt *>(Cur->getCond()), Cur->getInit(),
                       static_cast<Stmt *>(Cur->getInc())})
      if (Part)
        Refs.TraverseStmt(Part);
    for (const ValueDecl *V : Refs.Refs)
      if (OuterVars.count(V))
        return Loc.errorAt(ErrorCode::Unsupported, Cur,
                           "the bounds of a collapsed loop use the outer loop variable '" +
                               V->getName() + "': collapse needs rectangular loops");
    OuterVars.insert(Var);
    N.Loops.push_back(std::move(*L));
    Fors.push_back(Cur);
    if (I + 1 < Depth)
      Cur = perfectlyNested(Cur);
  }
  if (auto E = checkNoBreak(Cur->getBody(), Loc))
    return E;
  // private(list): one fresh variable per iteration.
  if (const Clause *C = D.find(ClauseKind::Private))
    for (const std::string &Name : C->Vars) {
      // The nest's own loop variables (`private(i)` on `for (i = ...)`, as OpenACC allows):
      // each iteration has its own already, declared with its value.
      if (llvm::any_of(N.Loops, [&](const CanonicalLoop &L) { return L.Var == Name; }))
        continue;
      NameScan S;
      S.Name = Name;
      S.TraverseStmt(Cur->getBody());
      if (!S.Found)
        continue; // not used in the loop: nothing to privatise
      QualType T = S.Found->getType();
      // An argument declared as an array (`double tmp[16]`, a pointer in C) is privatised as
      // that array: how jacc-translate passes a private array declared outside the construct.
      if (auto *PV = dyn_cast<ParmVarDecl>(S.Found); PV && T->isPointerType()) {
        if (!PV->getOriginalType()->isConstantArrayType())
          return Loc.errorAt(ErrorCode::Unsupported, F,
                             "private pointer '" + Name +
                                 "' is not supported: declare the private "
                                 "array inside the loop, or make the "
                                 "argument an array ('double " +
                                 Name + "[16]')");
        T = PV->getOriginalType();
      }
      std::string Decl;
      llvm::raw_string_ostream OS(Decl);
      T.getUnqualifiedType().print(OS, Loc.Ctx.getPrintingPolicy(), Name);
      N.PrivateDecls.push_back(OS.str());
    }
  return N;
}

} // namespace jacc::analysis
