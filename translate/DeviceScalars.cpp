// Scalars that live on the devices: OpenACC's copy of a scalar (a data clause on the construct or
// on a data construct around it, or implicitly in a kernels construct) as a one-element array the
// kernel reaches through a pointer, so that what the kernel assigns comes back to the host.
#include "translate/DeviceScalars.h"

#include "analysis/Stores.h"
#include "support/DynamicASTVisitor.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

/// Whether V is a scalar or a struct (something a kernel would get by value).
static bool byValueKind(const VarDecl *V) {
  QualType T = V->getType().getCanonicalType();
  return !T->isArrayType() && !T->isPointerType() && !T.isConstQualified();
}

std::map<const VarDecl *, DeviceScalar> DeviceScalars::of(const Region &R, const KernelNeeds &N) {
  const Pragma &P = *R.P;
  // Privatised and reduced scalars keep their own rules.
  std::set<std::string> OwnRules, Reduced;
  for (auto [Q, QD] : File.directivesIn(P, R.End))
    for (const Clause &C : QD->Clauses)
      if (C.Kind == ClauseKind::Reduction || C.Kind == ClauseKind::Private ||
          C.Kind == ClauseKind::Firstprivate) {
        OwnRules.insert(C.Vars.begin(), C.Vars.end());
        if (C.Kind == ClauseKind::Reduction)
          Reduced.insert(C.Vars.begin(), C.Vars.end());
      }
  auto NamedIn = [&](const Region &Where, const VarDecl *V, auto IsKind) {
    for (const Clause &C : Where.D.Clauses)
      if (IsKind(C.Kind))
        for (const std::string &Item : C.Vars)
          if (File.itemBase(Item) == V->getName() &&
              File.Idx.lookupVar(V->getName(), Where.P->Hash) == V)
            return true;
    return false;
  };
  auto CopiesBack = [](ClauseKind K) {
    return K == ClauseKind::Copy || K == ClauseKind::Copyout || K == ClauseKind::Create;
  };
  auto Maps = [](ClauseKind K) {
    return K == ClauseKind::Copy || K == ClauseKind::Copyout || K == ClauseKind::Create ||
           K == ClauseKind::Copyin || K == ClauseKind::Present || K == ClauseKind::DeviceResident;
  };
  bool Kernels = R.D.Kind == DirectiveKind::Kernels || R.D.Kind == DirectiveKind::KernelsLoop;
  std::map<const VarDecl *, DeviceScalar> Out;
  for (VarDecl *V : N.Vars) {
    if (!byValueKind(V) || N.LoopVars.count(V))
      continue;
    bool Visible =
        File.DeclaredGlobals.count(V) || llvm::any_of(File.Datas, [&](const Region &Data) {
          return Data.P->Hash < P.Hash && P.Hash < Data.End && NamedIn(Data, V, Maps);
        });
    if (Reduced.count(V->getName().str())) {
      // The reduction's result goes to the device copy a data clause maps (a data construct
      // around, or copy/copyout here), which the clause's exit copies back.
      if (Visible || NamedIn(R, V, CopiesBack))
        Out[V] = DeviceScalar::ReducedInto;
      continue;
    }
    if (OwnRules.count(V->getName().str()))
      continue;
    if (NamedIn(R, V, CopiesBack))
      Out[V] = DeviceScalar::Mapped; // by the clause's calls
    else if (NamedIn(R, V, [](ClauseKind K) { return K == ClauseKind::Copyin; }))
      continue; // by value is the same for the construct
    else if (Visible)
      Out[V] = DeviceScalar::Mapped; // present: the data construct's copy
    else if (Kernels && N.Assigned.count(V))
      Out[V] = DeviceScalar::ImplicitCopy; // OpenACC: a scalar in a kernels construct is copy
  }
  return Out;
}

std::string DeviceScalars::pointerName(const VarDecl *V) {
  return "jacc_ref_" + V->getName().str();
}

std::map<unsigned, std::string>
DeviceScalars::sequentialLoops(const Region &R, const std::set<const VarDecl *> &Vars,
                               bool &ConstructSeq) {
  ConstructSeq = false;
  std::map<unsigned, std::string> Ins;
  if (R.D.Kind != DirectiveKind::Kernels && R.D.Kind != DirectiveKind::KernelsLoop)
    return Ins;
  std::vector<std::pair<unsigned, const VarDecl *>> Stores; // the assignments to device scalars
  forEachStore(R.S, [&](Expr *LHS) {
    if (auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()))
      if (auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && Vars.count(V))
        Stores.push_back({File.Idx.offset(DRE->getLocation()), V});
  });
  // A kernels loop is `auto`: parallel only when independent. One assigning a scalar every
  // iteration is not (NVHPC: "loop carried scalar dependence"): it runs sequentially, and the
  // scalar ends with the value a sequential run gives it.
  for (auto [Q, QD] : File.directivesIn(*R.P, R.End)) {
    bool Own = Q == R.P;
    if ((!Own && QD->Kind != DirectiveKind::Loop) ||
        (Own && R.D.Kind != DirectiveKind::KernelsLoop) || QD->has(ClauseKind::Seq) ||
        QD->has(ClauseKind::Independent))
      continue;
    Stmt *Loop = Own ? R.S : File.Idx.statementAfter(*Q);
    if (!Loop)
      continue;
    unsigned B = File.Idx.offset(Loop->getBeginLoc()), E = File.Idx.endOf(Loop);
    auto Store = llvm::find_if(Stores, [&](auto S) { return B <= S.first && S.first < E; });
    if (Store == Stores.end())
      continue;
    if (File.Describe)
      File.info(Q->Line, "loop assigns the scalar '" + Store->second->getName() +
                             "' in its iterations (a loop-carried scalar dependence): it runs "
                             "sequentially, as 'loop seq'");
    if (Own)
      ConstructSeq = true;
    else
      Ins[Q->EndTok] = " seq";
  }
  return Ins;
}

std::optional<std::string> DeviceScalars::referencedThroughPointers(
    const Region &R, const std::set<const VarDecl *> &Vars, unsigned Begin,
    std::map<unsigned, std::string> Ins,
    std::map<unsigned, std::pair<unsigned, std::string>> Edits) {
  struct Uses : public DynamicASTVisitor {
    const std::set<const VarDecl *> *Vars;
    std::vector<DeclRefExpr *> Refs;
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      if (auto *V = dyn_cast<VarDecl>(E->getDecl()); V && Vars->count(V))
        Refs.push_back(E);
      return true;
    }
  } U;
  U.Vars = &Vars;
  U.TraverseStmt(R.S);
  for (const DeclRefExpr *E : U.Refs) {
    if (E->getLocation().isMacroID()) {
      File.errorAt(E->getLocation(), "scalar '" + E->getDecl()->getName() +
                                         "' lives on the devices here and is named through a "
                                         "macro: write its name in the construct itself");
      return std::nullopt;
    }
    Edits[File.Idx.offset(E->getLocation())] = {unsigned(E->getDecl()->getName().size()),
                                                pointerName(cast<VarDecl>(E->getDecl())) + "[0]"};
  }
  return editedText(File.Buf, Begin, R.End, Edits, Ins);
}

} // namespace jacc::translate
