// Compute constructs in templates (function templates, members of class templates): the kernel
// text starts with the template's parameters as each instantiation spells them, and the C++ that
// depends on them is lowered per instantiation, from the instantiation's AST (docs/translate.md,
// "C++").
#include "translate/TemplateKernels.h"

#include "support/DynamicASTVisitor.h"

#include <clang/AST/DeclTemplate.h>

using namespace clang;

namespace jacc::translate {

/// The template parameter lists around pattern F, outermost first: its enclosing class
/// templates' (or partial specializations'), then its own.
static std::vector<const TemplateParameterList *> parameterLists(const FunctionDecl *F) {
  std::vector<const TemplateParameterList *> Lists;
  if (const FunctionTemplateDecl *FT = F->getDescribedFunctionTemplate())
    Lists.push_back(FT->getTemplateParameters());
  for (const DeclContext *DC = F->getDeclContext(); DC; DC = DC->getParent()) {
    const auto *RD = dyn_cast<CXXRecordDecl>(DC);
    if (!RD)
      continue;
    if (const ClassTemplateDecl *CT = RD->getDescribedClassTemplate())
      Lists.insert(Lists.begin(), CT->getTemplateParameters());
    else if (const auto *PS = dyn_cast<ClassTemplatePartialSpecializationDecl>(RD))
      Lists.insert(Lists.begin(), PS->getTemplateParameters());
  }
  return Lists;
}

/// The template arguments of instantiation I, in the order of parameterLists of its pattern.
static std::vector<const TemplateArgumentList *> argumentLists(const FunctionDecl *I) {
  std::vector<const TemplateArgumentList *> Lists;
  if (const TemplateArgumentList *Own = I->getTemplateSpecializationArgs())
    Lists.push_back(Own);
  for (const DeclContext *DC = I->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *S = dyn_cast<ClassTemplateSpecializationDecl>(DC))
      // From a partial specialization: the arguments of its parameters.
      Lists.insert(Lists.begin(), S->getSpecializedTemplateOrPartial()
                                          .is<ClassTemplatePartialSpecializationDecl *>()
                                      ? &S->getTemplateInstantiationArgs()
                                      : &S->getTemplateArgs());
  return Lists;
}

const FunctionDecl *TemplateKernels::templateAround(const Pragma &P) const {
  const FunctionDecl *Around = nullptr;
  for (const FunctionDecl *F : File.Idx.Functions)
    if (F->doesThisDeclarationHaveABody() && F->isDependentContext() &&
        File.Idx.offset(F->getBody()->getBeginLoc()) < P.Hash &&
        P.Hash < File.Idx.offset(F->getBody()->getEndLoc()))
      Around = F;
  return Around;
}

std::optional<std::string> TemplateKernels::parameterText(const FunctionDecl *F) const {
  std::vector<const TemplateParameterList *> Lists = parameterLists(F);
  if (Lists.empty())
    return std::nullopt; // dependent without a template of its own (a generic lambda's)
  std::string Text = "std::string()";
  for (const TemplateParameterList *L : Lists)
    for (const NamedDecl *D : *L) {
      std::string Name = D->getNameAsString();
      if (Name.empty() || D->isParameterPack())
        return std::nullopt;
      if (isa<TemplateTypeParmDecl>(D))
        Text += " + \"typedef \" + jacc::detail::declare<" + Name + ">(\"" + Name +
                "\") + \";\\n\"";
      else if (const auto *V = dyn_cast<NonTypeTemplateParmDecl>(D);
               V && V->getType()->isIntegralOrEnumerationType())
        Text += " + \"enum { " + Name + " = \" + std::to_string((long long)(" + Name +
                ")) + \" };\\n\"";
      else
        return std::nullopt;
    }
  return Text;
}

std::vector<FunctionDecl *> TemplateKernels::instantiationsOf(const FunctionDecl *Pattern) {
  if (!Instantiations) {
    // Every instantiated function definition of the file, by its pattern (one walk).
    struct Walk : public DynamicASTVisitor {
      std::map<const FunctionDecl *, std::vector<FunctionDecl *>> &Out;
      explicit Walk(std::map<const FunctionDecl *, std::vector<FunctionDecl *>> &Out) : Out(Out) {
        VisitTemplateInstantiations = true;
      }
      bool VisitFunctionDecl(FunctionDecl *F) override {
        if (F->isTemplateInstantiation() && F->doesThisDeclarationHaveABody())
          if (const FunctionDecl *Pat = F->getTemplateInstantiationPattern())
            Out[Pat].push_back(F);
        return true;
      }
    };
    Instantiations.emplace();
    Walk W(*Instantiations);
    W.TraverseDecl(File.Ctx.getTranslationUnitDecl());
  }
  auto It = Instantiations->find(Pattern);
  return It == Instantiations->end() ? std::vector<FunctionDecl *>() : It->second;
}

Stmt *TemplateKernels::instantiatedStatement(FunctionDecl *I, const Stmt *Pattern) {
  struct Find : public DynamicASTVisitor {
    const Stmt *Pattern;
    Stmt *Found = nullptr;
    bool VisitStmt(Stmt *S) override {
      if (S->getStmtClass() == Pattern->getStmtClass() &&
          S->getBeginLoc() == Pattern->getBeginLoc() && S->getEndLoc() == Pattern->getEndLoc())
        Found = S;
      return !Found; // pre-order: the outermost
    }
  } F;
  F.Pattern = Pattern;
  F.TraverseStmt(I->getBody());
  return F.Found;
}

std::optional<std::string> TemplateKernels::instantiationCondition(const FunctionDecl *Pattern,
                                                                   const FunctionDecl *I) const {
  std::vector<const TemplateParameterList *> Params = parameterLists(Pattern);
  std::vector<const TemplateArgumentList *> Args = argumentLists(I);
  if (Params.size() != Args.size())
    return std::nullopt;
  PrintingPolicy Host = File.Ctx.getPrintingPolicy(); // C++, as the host compiler reads it
  std::string Cond;
  for (size_t L = 0; L < Params.size(); ++L) {
    if (Params[L]->size() != Args[L]->size())
      return std::nullopt;
    for (unsigned K = 0; K < Params[L]->size(); ++K) {
      std::string Name = Params[L]->getParam(K)->getNameAsString();
      const TemplateArgument &A = Args[L]->get(K);
      std::string Term;
      if (A.getKind() == TemplateArgument::Type) {
        Term = "std::is_same<" + Name + ", " + A.getAsType().getCanonicalType().getAsString(Host) +
               ">::value";
      } else if (A.getKind() == TemplateArgument::Integral) {
        const llvm::APSInt &V = A.getAsIntegral();
        Term = std::string(V.isSigned() ? "(long long)(" : "(unsigned long long)(") + Name +
               ") == " + llvm::toString(V, 10) + (V.isSigned() ? "LL" : "ULL");
      } else {
        return std::nullopt;
      }
      Cond += (Cond.empty() ? "" : " && ") + Term;
    }
  }
  return Cond.empty() ? "true" : Cond;
}

bool TemplateKernels::instantiationKernels(
    const Region &R, const FunctionDecl *F, const KernelNeeds &N,
    llvm::function_ref<std::optional<std::string>(const CxxKernel &, KernelNeeds &)> Text,
    std::vector<std::pair<std::string, std::string>> &Kernels) {
  for (FunctionDecl *Inst : instantiationsOf(F)) {
    Stmt *S = instantiatedStatement(Inst, R.S);
    std::optional<std::string> Cond = instantiationCondition(F, Inst);
    if (!S || !Cond) {
      File.error(*R.P, "compute construct in a template instantiation jacc-translate cannot name "
                       "(its arguments are not types or integral values)");
      return false;
    }
    CxxKernel K;
    Cxx.lower(S, K, "a compute construct");
    KernelNeeds NI = N; // and the routines this instantiation calls
    Needs.collect(S, File.Idx.offset(R.S->getBeginLoc()), R.End, NI, nullptr);
    for (QualType T : K.Types)
      Needs.addType(T, NI);
    std::optional<std::string> T = !File.Diags.failed() ? Text(K, NI) : std::nullopt;
    if (!T)
      continue; // the errors are reported; the other instantiations may add their own
    auto Same = llvm::find_if(Kernels, [&](const auto &X) { return X.second == *T; });
    if (Same == Kernels.end())
      Kernels.push_back({"(" + *Cond + ")", *T});
    else
      Same->first += " || (" + *Cond + ")";
  }
  return !File.Diags.failed();
}

} // namespace jacc::translate
