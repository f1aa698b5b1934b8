// C++ compute constructs as C kernels: the C++ a kernel's statement may use, rewritten into the
// C the kernel compilers (analysis, host JIT, NVRTC's CUDA C++ from C) take; anything else is a
// located error naming the construct (docs/translate.md, "C++").
#include "translate/CxxLowering.h"

#include "support/DynamicASTVisitor.h"

#include <clang/Lex/Lexer.h>

using namespace clang;

namespace jacc::translate {

/// The <cmath>/<cstdlib> functions a kernel may call through `std::` or a C++ overload: each
/// becomes its C function of the argument's type (sqrtf for float, sqrtl for long double).
static bool isMathFunction(llvm::StringRef Name) {
  static const std::set<std::string> Names = {
      "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow",
      "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
      "asinh", "acosh", "atanh", "floor", "ceil", "round", "trunc", "fmod", "fabs", "abs",
      "fmin", "fmax", "hypot", "erf", "erfc", "tgamma", "lgamma", "copysign", "fma"};
  return Names.count(Name.str());
}

/// The C name of the C++ math function F (resolved overload): `std::sqrt(float)` is sqrtf,
/// `std::abs(double)` fabs, `std::abs(long)` labs; "" when there is none.
static std::string cMathName(const FunctionDecl *F) {
  std::string Name = F->getNameAsString();
  if (F->getNumParams() == 0 || !isMathFunction(Name))
    return "";
  QualType T = F->getParamDecl(0)->getType().getCanonicalType().getUnqualifiedType();
  const auto *B = T->getAs<BuiltinType>();
  if (!B)
    return "";
  if (Name == "abs" && B->isInteger())
    return B->getKind() == BuiltinType::Long       ? "labs"
           : B->getKind() == BuiltinType::LongLong ? "llabs"
                                                   : "abs";
  // Floating point: the C function of the type the overload computes in, its return type
  // (std::pow(float, int) is pow of doubles, as libstdc++ promotes it).
  B = F->getReturnType().getCanonicalType()->getAs<BuiltinType>();
  if (!B || !B->isFloatingPoint())
    return "";
  if (Name == "abs")
    Name = "fabs";
  if (B->getKind() == BuiltinType::Float)
    return Name + "f";
  if (B->getKind() == BuiltinType::LongDouble)
    return Name + "l";
  return Name;
}

/// `std::min`/`std::max` of an arithmetic type as a C helper the kernel declares: it returns
/// what std::min (b < a ? b : a) and std::max (a < b ? b : a) return, NaNs included.
static std::string minMaxHelper(const FunctionDecl *F, const PrintingPolicy &Policy,
                                std::string &Helper) {
  std::string Name = F->getNameAsString();
  if ((Name != "min" && Name != "max") || F->getNumParams() != 2)
    return "";
  QualType T = F->getReturnType().getNonReferenceType().getUnqualifiedType();
  if (!T->isArithmeticType())
    return "";
  std::string Type = T.getAsString(Policy), Fn = "jacc_" + Name + "_";
  for (char C : Type)
    Fn += C == ' ' ? '_' : C;
  Helper = "static inline " + Type + " " + Fn + "(" + Type + " a, " + Type + " b) { return " +
           (Name == "min" ? "b < a ? b : a" : "a < b ? b : a") + "; }\n";
  return Fn;
}

void CxxLowering::lower(Stmt *S, CxxKernel &K, const std::string &What, bool Pattern) {
  struct Visitor : public DynamicASTVisitor {
    CxxLowering &T;
    CxxKernel &K;
    const std::string &What;
    bool Pattern;
    Visitor(CxxLowering &T, CxxKernel &K, const std::string &What, bool Pattern)
        : T(T), K(K), What(What), Pattern(Pattern) {}
    unsigned off(SourceLocation L) { return T.Idx.offset(T.SM.getExpansionLoc(L)); }
    void replace(SourceRange R, const std::string &Text) { T.replace(K, R, Text, What); }
    bool unsupported(SourceLocation L, const llvm::Twine &Construct) {
      T.unsupported(L, Construct, What);
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *E) override {
      return unsupported(E->getBeginLoc(), "a lambda");
    }
    bool TraverseLambdaExpr(LambdaExpr *E) override { return VisitLambdaExpr(E); }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *E) override {
      const CXXMethodDecl *M = E->getMethodDecl();
      return unsupported(E->getExprLoc(),
                         llvm::Twine(M && M->isVirtual() ? "a virtual call" : "a call") +
                             " of member function '" +
                             (M ? M->getQualifiedNameAsString() : std::string("?")) + "'");
    }
    std::set<const Expr *> Reported; ///< callees of the operator calls reported
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) override {
      Reported.insert(E->getCallee()->IgnoreParenImpCasts());
      if (lambdaRoutineCall(E))
        return true; // `f(x)` calls the routine f as written
      if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(E->getDirectCallee());
          M && M->isTrivial() && (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()))
        return true; // `a = b` of a struct without its own '=': C's assignment
      std::string Of;
      if (E->getNumArgs())
        Of = " of '" + E->getArg(0)->getType().getNonReferenceType().getAsString() + "'";
      return unsupported(E->getOperatorLoc(),
                         "overloaded operator '" +
                             llvm::Twine(getOperatorSpelling(E->getOperator())) + "'" + Of);
    }
    std::set<const CXXConstructExpr *> InNew; ///< constructions of a 'new' reported
    bool VisitCXXConstructExpr(CXXConstructExpr *E) override {
      if (E->getConstructor()->isTrivial() || InNew.count(E))
        return true;
      return unsupported(E->getBeginLoc(), "a constructor call of '" +
                                               E->getType().getAsString() + "'");
    }
    /// The offset after the token at L.
    unsigned endOff(SourceLocation L) {
      return T.Idx.offset(
          Lexer::getLocForEndOfToken(T.SM.getExpansionLoc(L), 0, T.SM, T.Ctx.getLangOpts()));
    }
    /// `new double[n]` -> `((double *)malloc(sizeof(double) * (n)))`, `new P` likewise: the
    /// device's heap (CUDA's malloc in kernels), for types that need no constructor.
    bool VisitCXXNewExpr(CXXNewExpr *E) override {
      QualType Ty = E->getAllocatedType();
      if (E->getNumPlacementArgs() || E->hasInitializer() || !Ty.isTrivialType(T.Ctx)) {
        if (const CXXConstructExpr *C = E->getConstructExpr())
          InNew.insert(C); // one error for the expression
        return unsupported(E->getBeginLoc(), "'new' with an initializer, placement or a type "
                                             "with a constructor ('new T' and 'new T[n]' of a "
                                             "type without one are the device's malloc)");
      }
      std::string Type = T.TypeText.declaration(Ty, "");
      T.addTypeNeed(Ty, K);
      std::string Alloc = "((" + T.TypeText.declaration(T.Ctx.getPointerType(Ty), "") +
                          ")malloc(sizeof(" + Type + ")";
      std::optional<Expr *> Size = E->getArraySize();
      if (!E->isArray() || !Size || !*Size) {
        replace(E->getSourceRange(), Alloc + "))");
        return true;
      }
      // The size's own text (and what lowering it edits) stays: `new T[` and `]` are replaced.
      unsigned Begin = off(E->getBeginLoc()), SizeBegin = off((*Size)->getBeginLoc());
      unsigned SizeEnd = endOff((*Size)->getEndLoc()), End = endOff(E->getEndLoc());
      K.Edits[Begin] = {SizeBegin - Begin, Alloc + " * ("};
      K.Edits[SizeEnd] = {End - SizeEnd, ")))"};
      return true;
    }
    /// `delete[] p`, `delete p` -> `free(p)`, for types without a destructor to run.
    bool VisitCXXDeleteExpr(CXXDeleteExpr *E) override {
      QualType Ty = E->getDestroyedType();
      if (!Ty.isNull() && !Ty.isTriviallyCopyableType(T.Ctx))
        return unsupported(E->getBeginLoc(), "'delete' of a type with a destructor");
      Expr *Arg = E->getArgument()->IgnoreImpCasts();
      unsigned Begin = off(E->getBeginLoc()), ArgBegin = off(Arg->getBeginLoc());
      K.Edits[Begin] = {ArgBegin - Begin, "free("};
      closeAfter(Arg);
      return true;
    }
    bool VisitCXXThrowExpr(CXXThrowExpr *E) override {
      return unsupported(E->getBeginLoc(), "'throw'");
    }
    bool VisitCXXTryStmt(CXXTryStmt *S) override { return unsupported(S->getBeginLoc(), "'try'"); }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *S) override {
      return unsupported(S->getBeginLoc(), "a range-based for loop");
    }
    bool VisitCXXTypeidExpr(CXXTypeidExpr *E) override {
      return unsupported(E->getBeginLoc(), "'typeid'");
    }
    bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) override {
      return unsupported(E->getBeginLoc(), "a member of a dependent type");
    }
    bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) override {
      if (Pattern)
        return true; // resolved in each instantiation
      return unsupported(E->getBeginLoc(), "the call of '" + E->getName().getAsString() +
                                               "' with arguments of a template parameter's type");
    }
    bool VisitCXXNullPtrLiteralExpr(CXXNullPtrLiteralExpr *E) override {
      // 0, not ((void *)0): NVRTC compiles kernels as C++, where void * converts to no other
      // pointer type.
      replace(E->getSourceRange(), "0");
      return true;
    }
    bool VisitCXXBoolLiteralExpr(CXXBoolLiteralExpr *E) override {
      replace(E->getSourceRange(), E->getValue() ? "1" : "0");
      return true;
    }
    /// A type as the source writes it: a template's parameter by its name (the kernel's
    /// typedef), so that instantiations share their text.
    std::string writtenType(QualType Q) {
      if (const auto *ST = dyn_cast<SubstTemplateTypeParmType>(Q.getTypePtr()))
        return (Q.isConstQualified() ? "const " : "") +
               ST->getReplacedParameter()->getNameAsString();
      return T.TypeText.declaration(Q, "");
    }
    bool VisitCXXNamedCastExpr(CXXNamedCastExpr *E) override {
      if (isa<CXXDynamicCastExpr>(E))
        return unsupported(E->getBeginLoc(), "'dynamic_cast'");
      // static_cast<double>(x) -> (double)(x): the parenthesised operand stays.
      replace(SourceRange(E->getBeginLoc(), E->getAngleBrackets().getEnd()),
              "(" + writtenType(E->getTypeAsWritten()) + ")");
      T.addTypeNeed(E->getTypeAsWritten(), K);
      return true;
    }
    bool VisitCXXFunctionalCastExpr(CXXFunctionalCastExpr *E) override {
      if (!E->getType()->isScalarType() || E->getLParenLoc().isInvalid())
        return unsupported(E->getBeginLoc(), "a functional cast to '" +
                                                 E->getType().getAsString() + "'");
      // double(x) -> (double)(x)
      replace(SourceRange(E->getBeginLoc(), E->getLParenLoc().getLocWithOffset(-1)),
              "(" + writtenType(E->getTypeAsWritten()) + ")");
      return true;
    }
    /// Whether E calls a lambda that a variable holds (`f(x)`, FileIndex::LambdaRoutines).
    bool lambdaRoutineCall(const CXXOperatorCallExpr *E) const {
      const auto *Object = dyn_cast<DeclRefExpr>(E->getArg(0)->IgnoreParenImpCasts());
      const auto *V = Object ? dyn_cast<VarDecl>(Object->getDecl()) : nullptr;
      return E->getOperator() == OO_Call && V && T.Idx.lambdaOf(V) == E->getDirectCallee();
    }
    /// A routine's reference parameters: the arguments of those it takes as pointers are
    /// passed by address (`f(a[i])` -> `f(&(a[i]))`), which must be lvalues.
    bool VisitCallExpr(CallExpr *E) override {
      const FunctionDecl *F = E->getDirectCallee();
      // A lambda's call: its arguments after the object called.
      const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      unsigned First = Op && lambdaRoutineCall(Op) ? 1 : 0;
      if (!F || (isa<CXXMethodDecl>(F) && !First) ||
          T.SM.isInSystemHeader(T.SM.getExpansionLoc(F->getLocation())))
        return true;
      std::string Name = T.Idx.routineName(F);
      for (unsigned I = 0; I + First < E->getNumArgs() && I < F->getNumParams(); ++I) {
        const Expr *Arg = E->getArg(I + First);
        std::string Param = F->getParamDecl(I)->getNameAsString();
        if (isa<CXXDefaultArgExpr>(Arg))
          return unsupported(E->getRParenLoc(), "the default argument of parameter '" + Param +
                                                    "' of '" + Name + "' (pass it in the call)");
        if (T.refParam(F, I) != RefParam::Pointer)
          continue;
        // A temporary bound to a const reference has no address in C (NVRTC's C++ has no
        // compound literals either).
        const Expr *Bound = Arg->IgnoreParens(); // IgnoreParenImpCasts skips temporaries
        while (const auto *C = dyn_cast<ImplicitCastExpr>(Bound))
          Bound = C->getSubExpr()->IgnoreParens();
        if (!Arg->isLValue() || isa<MaterializeTemporaryExpr>(Bound))
          return unsupported(Arg->getBeginLoc(),
                             "a value that is no variable, element or member, passed to "
                             "reference parameter '" +
                                 Param + "' of '" + Name +
                                 "' (it may write through its parameters, so the kernel passes "
                                 "the address of what its references name: store the value in "
                                 "a variable of the parameter's type first)");
        addressOf(Arg);
      }
      return true;
    }
    std::set<const CXXThisExpr *> MemberBases; ///< `this` in `this->a`, handled as `a`
    bool VisitCXXThisExpr(CXXThisExpr *E) override {
      if (!MemberBases.count(E))
        return unsupported(E->getBeginLoc(), "'this' other than in 'this->member'");
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) override {
      auto *This = dyn_cast<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts());
      if (!This)
        return true;
      auto *F = dyn_cast<FieldDecl>(E->getMemberDecl());
      if (!F)
        return unsupported(E->getMemberLoc(), "member '" + E->getMemberDecl()->getNameAsString() +
                                                  "' that is not a data member");
      if (!E->isArrow())
        return unsupported(E->getBeginLoc(), "member access '" + F->getNameAsString() +
                                                 "' other than 'this->" + F->getNameAsString() + "'");
      MemberBases.insert(This);
      if (!This->isImplicit()) // `this->a` -> `a`
        K.Edits[off(This->getBeginLoc())] = {off(E->getMemberLoc()) - off(This->getBeginLoc()),
                                             ""};
      if (!llvm::is_contained(K.Members, F))
        K.Members.push_back(F);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      if (Reported.count(E))
        return true;
      ValueDecl *D = E->getDecl();
      if (auto *F = dyn_cast<FunctionDecl>(D)) {
        bool System = T.SM.isInSystemHeader(T.SM.getExpansionLoc(F->getLocation()));
        if (!System) {
          // A routine of the program: its kernel copy is lowered too (lowerRoutine); a
          // namespace's is called by its bare name there.
          if (isa<CXXMethodDecl>(F) || F->getTemplateInstantiationPattern())
            return unsupported(E->getBeginLoc(), "the call of C++ function '" +
                                                     F->getQualifiedNameAsString() +
                                                     "' (a member or a template)");
          if (E->hasQualifier())
            replace(SourceRange(E->getQualifierLoc().getBeginLoc(), E->getLocation()),
                    F->getNameAsString());
          return true;
        }
        if (F->isExternC() && !E->hasQualifier())
          return true; // the C library function itself
        std::string Helper, Name = cMathName(F);
        if (Name.empty())
          Name = minMaxHelper(F, T.TypeText.policy(), Helper);
        if (Name.empty())
          return unsupported(E->getBeginLoc(), "the call of '" + F->getQualifiedNameAsString() +
                                                   "'");
        if (!Helper.empty())
          K.Helpers.insert(Helper);
        replace(E->getSourceRange(), Name);
        return true;
      }
      if (E->hasQualifier())
        replace(SourceRange(E->getQualifierLoc().getBeginLoc(), E->getLocation()),
                D->getNameAsString());
      if (auto *V = dyn_cast<VarDecl>(D); V && V->getType()->isReferenceType() &&
                                          K.LocalRefs.count(V))
        replace(E->getSourceRange(), "(*" + V->getNameAsString() + ")");
      return true;
    }
    /// `&(E)`: insertions, so that a replacement at E's first token (`r` -> `(*r)`) stays.
    void addressOf(const Expr *E) {
      K.Ins[off(E->getBeginLoc())] += "&(";
      closeAfter(E);
    }
    /// A `)` after E, before the parentheses opened inside E close.
    void closeAfter(const Expr *E) {
      std::string &At = K.Ins[endOff(E->getEndLoc())];
      At = ")" + At;
    }
    std::set<unsigned> Declarators; ///< declarations rewritten from their first token
    /// Replace V's declaration up to its name (`auto &r`, `double &r`) by Text; an error when
    /// another declarator shares its first tokens (`double &a = x, &b = y;`).
    bool replaceDeclarator(VarDecl *V, const std::string &Text) {
      if (!Declarators.insert(off(V->getBeginLoc())).second) {
        unsupported(V->getLocation(), "'" + V->getNameAsString() +
                                          "' declared with another reference or 'auto' "
                                          "declarator (declare each on its own)");
        return false;
      }
      replace(SourceRange(V->getBeginLoc(), V->getLocation()), Text);
      return true;
    }
    bool VisitVarDecl(VarDecl *V) override {
      if (isa<ParmVarDecl>(V))
        return true;
      TypeLoc TL = V->getTypeSourceInfo() ? V->getTypeSourceInfo()->getTypeLoc() : TypeLoc();
      if (V->isConstexpr()) {
        // constexpr -> const: the first token of the declaration (`constexpr double c = 2;`).
        SourceLocation B = T.SM.getExpansionLoc(V->getBeginLoc());
        if (T.Buf.substr(T.Idx.offset(B)).startswith("constexpr"))
          K.Edits[T.Idx.offset(B)] = {9, "const"};
        else
          return unsupported(V->getLocation(), "'constexpr' after the type of '" +
                                                   V->getNameAsString() + "'");
      }
      if (V->getType()->getContainedAutoType() && !V->getType()->isReferenceType()) {
        // `auto x` -> its deduced type; `auto *p`, `const auto *p` -> the whole declarator.
        if (V->getType()->getAs<AutoType>() && !TL.isNull())
          replace(TL.getSourceRange(),
                  T.TypeText.declaration(V->getType().getUnqualifiedType(), ""));
        else if (!replaceDeclarator(V, T.TypeText.declaration(V->getType(), V->getNameAsString())))
          return true;
        T.addTypeNeed(V->getType(), K);
      }
      if (V->getType()->isReferenceType()) {
        // `double &r = a[i];` -> `double *const r = &(a[i]);`, each use `(*r)`.
        if (TL.isNull() || !V->hasInit() || !V->getType()->isLValueReferenceType())
          return unsupported(V->getLocation(), "reference '" + V->getNameAsString() + "'");
        K.LocalRefs.insert(V);
        QualType P = T.Ctx.getPointerType(V->getType().getNonReferenceType());
        if (!replaceDeclarator(V, T.TypeText.declaration(P.withConst(), V->getNameAsString())))
          return true;
        T.addTypeNeed(P, K);
        addressOf(V->getInit());
      }
      return true;
    }
    // Class template instances the statement writes (a local's type, a cast): their C names.
    bool TraverseElaboratedTypeLoc(ElaboratedTypeLoc TL) override {
      return T.lowerTemplateType(TL, K, What) || DynamicASTVisitor::TraverseElaboratedTypeLoc(TL);
    }
    bool TraverseTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) override {
      return T.lowerTemplateType(TL, K, What) ||
             DynamicASTVisitor::TraverseTemplateSpecializationTypeLoc(TL);
    }
  } V(*this, K, What, Pattern);
  V.TraverseStmt(S);
}

void CxxLowering::replace(CxxKernel &K, SourceRange R, const std::string &Text,
                          const std::string &What) {
  CharSourceRange C =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
  if (C.isInvalid()) {
    errorAt(R.getBegin(),
            "C++ written through a macro in " + What + ": write it in the source itself");
    return;
  }
  unsigned B = Idx.offset(C.getBegin());
  K.Edits[B] = {Idx.offset(C.getEnd()) - B, Text};
}

void CxxLowering::unsupported(SourceLocation L, const llvm::Twine &Construct,
                              const std::string &What) {
  errorAt(L, Construct + " in " + What + " is not supported by jacc-translate (kernels are C "
                                         "with the C++ of docs/translate.md, \"C++\")");
}

void CxxLowering::errorAt(SourceLocation L, const llvm::Twine &Msg) {
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(L));
  Diags.error(PL.getLine(), PL.getColumn(), Msg);
}

std::string editedText(llvm::StringRef Buf, unsigned Begin, unsigned End,
                       const TextReplacements &Edits, const TextInsertions &Ins) {
  std::string Out;
  unsigned From = Begin;
  std::set<unsigned> Offsets;
  for (auto &[Off, E] : Edits)
    if (Off >= Begin && Off <= End)
      Offsets.insert(Off);
  for (auto &[Off, S] : Ins)
    if (Off >= Begin && Off <= End)
      Offsets.insert(Off);
  for (unsigned Off : Offsets) {
    if (Off < From)
      continue; // inside a replaced range
    Out += Buf.slice(From, Off).str();
    From = Off;
    if (auto I = Ins.find(Off); I != Ins.end())
      Out += I->second;
    if (auto E = Edits.find(Off); E != Edits.end()) {
      Out += E->second.second;
      From = Off + E->second.first;
    }
  }
  return Out + Buf.slice(From, End).str();
}

std::string CxxLowering::cStructText(const CXXRecordDecl *RD) {
  std::string Name = TypeText.cRecordName(RD);
  if (RD->isPolymorphic() || RD->getNumBases() || !RD->isStandardLayout() || RD->isUnion()) {
    errorAt(RD->getLocation(), "class '" + RD->getNameAsString() +
                                   "' used in a compute construct: kernels take standard-layout "
                                   "classes without bases or virtual functions (their data "
                                   "members as a C struct)");
    return "";
  }
  // Its data members, in order, as a C struct of the same layout; member functions stay host's.
  std::string Out = "struct " + Name + " {";
  for (const FieldDecl *F : RD->fields()) {
    if (F->isBitField() || F->getType()->isReferenceType()) {
      errorAt(F->getLocation(), "member '" + F->getNameAsString() + "' of class '" +
                                    RD->getNameAsString() +
                                    "' (a bit-field or a reference) in a compute construct");
      return "";
    }
    Out += " " + TypeText.declaration(F->getType(), F->getNameAsString()) + ";";
  }
  return Out + " }; typedef struct " + Name + " " + Name + ";";
}

} // namespace jacc::translate
