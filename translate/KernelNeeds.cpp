// What a kernel needs from the program: its arguments and its leading declarations.
#include "translate/KernelNeeds.h"

#include "analysis/KernelSource.h"
#include "analysis/Stores.h"
#include "support/CText.h"
#include "support/DynamicASTVisitor.h"

#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>

using namespace clang;

namespace jacc::translate {

using namespace analysis;

void KernelDeclarations::addType(QualType T, KernelNeeds &N) {
  while (!T.isNull()) {
    const Type *Ty = T.getTypePtr();
    if (auto *TT = dyn_cast<TypedefType>(Ty)) {
      if (!N.TypeDecls.insert(TT->getDecl()).second)
        return;
      T = TT->getDecl()->getUnderlyingType();
    } else if (auto *ET = dyn_cast<ElaboratedType>(Ty)) {
      T = ET->getNamedType();
    } else if (auto *TS = dyn_cast<TemplateSpecializationType>(Ty); TS && TS->isSugared()) {
      T = TS->desugar(); // a class template's instance
    } else if (auto *ST = dyn_cast<SubstTemplateTypeParmType>(Ty)) {
      T = ST->getReplacementType();
    } else if (auto *RT = dyn_cast<RecordType>(Ty)) {
      RecordDecl *RD = RT->getDecl()->getDefinition();
      if (!RD || !N.TypeDecls.insert(RD).second)
        return;
      for (FieldDecl *F : RD->fields())
        addType(F->getType(), N);
      return;
    } else if (auto *EnT = dyn_cast<EnumType>(Ty)) {
      N.TypeDecls.insert(EnT->getDecl());
      return;
    } else if (auto *PT = dyn_cast<PointerType>(Ty)) {
      T = PT->getPointeeType();
    } else if (auto *RT = dyn_cast<ReferenceType>(Ty)) { // C++: passed as its referent
      T = RT->getPointeeType();
    } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
      T = AT->getElementType();
    } else if (auto *PT = dyn_cast<ParenType>(Ty)) {
      T = PT->getInnerType();
    } else if (auto *AT = dyn_cast<AdjustedType>(Ty)) {
      T = AT->getOriginalType();
    } else if (auto *FT = dyn_cast<FunctionProtoType>(Ty)) {
      for (QualType P : FT->getParamTypes())
        addType(P, N);
      T = FT->getReturnType();
    } else {
      return;
    }
  }
}

/// The directive a called function without '#pragma acc routine' implicitly has.
static analysis::Directive implicitRoutineSeq() {
  analysis::Directive D;
  D.Kind = analysis::DirectiveKind::Routine;
  D.Text = "routine seq";
  analysis::Clause Seq;
  Seq.Kind = analysis::ClauseKind::Seq;
  Seq.Name = "seq";
  D.Clauses.push_back(Seq);
  return D;
}

/// Collects what a kernel needs from the statement S (its text spans [Begin, End)).
void KernelDeclarations::collect(Stmt *S, unsigned Begin, unsigned End, KernelNeeds &N,
                                 FunctionDecl *InRoutine) {
  struct Visitor : public DynamicASTVisitor {
    KernelDeclarations &T;
    KernelNeeds &N;
    unsigned Begin, End;
    FunctionDecl *InRoutine;
    Visitor(KernelDeclarations &T, KernelNeeds &N, unsigned B, unsigned E, FunctionDecl *R)
        : T(T), N(N), Begin(B), End(E), InRoutine(R) {}
    bool inside(const Decl *D) const {
      unsigned O = T.File.Idx.offset(D->getLocation());
      SourceLocation L = T.File.SM.getExpansionLoc(D->getLocation());
      return T.File.SM.isInMainFile(L) && O >= Begin && O < End;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      ValueDecl *D = E->getDecl();
      if (auto *V = dyn_cast<VarDecl>(D)) {
        if (InRoutine ? V->isLocalVarDeclOrParm() : inside(V))
          return true;
        if (T.File.Idx.lambdaOf(V))
          return true; // a lambda routine's: the call names its operator (carried below)
        if (InRoutine) {
          if (std::optional<std::string> C = T.constantDecl(V)) {
            N.Constants.emplace(V, *C); // C++: a constexpr scalar, as its value
            return true;
          }
          T.File.errorAt(E->getLocation(),
                         "routine '" + T.File.Idx.routineName(InRoutine) +
                             "' uses the global variable '" + V->getName() +
                             "': a routine may use only its parameters, its locals "
                             "and (C++) constexpr scalars");
          return true;
        }
        if (std::find(N.Vars.begin(), N.Vars.end(), V) == N.Vars.end())
          N.Vars.push_back(V);
        T.addType(V->getType(), N);
      } else if (auto *EC = dyn_cast<EnumConstantDecl>(D)) {
        if (auto *ED = dyn_cast<EnumDecl>(EC->getDeclContext()))
          N.TypeDecls.insert(ED);
      } else if (auto *F = dyn_cast<FunctionDecl>(D)) {
        // routine bind: the kernel calls each device kind's binding under the routine's name
        // (#define), and carries every function a kind calls.
        if (auto B = T.Table.BoundTo.find(F->getCanonicalDecl()); B != T.Table.BoundTo.end()) {
          FunctionDecl *Host = B->second.Host ? B->second.Host : F;
          FunctionDecl *Gpu = B->second.Gpu ? B->second.Gpu : F;
          N.Renames[T.File.Idx.routineName(F)] = {T.File.Idx.routineName(Host),
                                                  T.File.Idx.routineName(Gpu)};
          carry(Host, E->getLocation());
          if (Gpu != Host)
            carry(Gpu, E->getLocation());
        } else {
          carry(F, E->getLocation());
        }
      }
      return true;
    }
    /// F's definition in this file, with what it needs, as a routine of the kernel.
    void carry(FunctionDecl *F, SourceLocation At) {
      const FunctionDecl *Def = F->getDefinition();
      if (T.File.SM.isInSystemHeader(T.File.SM.getExpansionLoc(F->getLocation())))
        return; // the C library (sqrt, ...): the kernel declares or includes it
      if (analysis::isDeviceApiRoutine(identifierOf(F)))
        return; // declared by every kernel
      if (F->isImplicit())
        return; // C++'s implicit members (a struct's '='): what C does without a function
      if (!Def) {
        // Defined in another file of the program: its definition is linked into the kernel
        // at run time, as that file registered it (RoutineDefinitions.cpp).
        if (!identifierOf(F).empty() && !F->isVariadic() && !F->isImplicit())
          N.Externals.insert(identifierOf(F).str());
        return;
      }
      // A function defined in this file without a routine directive gets an implicit
      // 'routine seq' (OpenACC 3.3 2.15.1), as with NVHPC; static, it may be unused on the
      // host now, as an explicit routine may (translateRoutine).
      if (!T.Table.RoutineOf.count(F->getCanonicalDecl()) &&
          T.Table.RoutineDir.try_emplace(F->getCanonicalDecl(), implicitRoutineSeq()).second &&
          Def->getStorageClass() == SC_Static)
        T.File.RW.InsertTextBefore(T.File.SM.getExpansionLoc(Def->getBeginLoc()),
                                   "__attribute__((unused)) ");
      auto *D2 = const_cast<FunctionDecl *>(Def);
      if (N.RoutineSet.insert(D2).second) {
        for (const FunctionDecl *G : N.Routines)
          if (T.File.Idx.routineName(G).empty()
                  ? G->getDeclName() == D2->getDeclName()
                  : T.File.Idx.routineName(G) == T.File.Idx.routineName(D2))
            T.File.errorAt(At, "routine '" + D2->getNameAsString() +
                                   "' is overloaded: a kernel holds one "
                                   "function of a name (rename one of them)");
        T.addRoutine(D2, N);
      }
    }
    bool VisitVarDecl(VarDecl *V) override {
      T.addType(V->getType(), N);
      return true;
    }
    bool VisitForStmt(ForStmt *F) override {
      if (auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit()); B && B->isAssignmentOp())
        if (auto *DRE = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          if (auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
            N.LoopVars.insert(V);
      return true;
    }
    bool VisitExplicitCastExpr(ExplicitCastExpr *E) override {
      T.addType(E->getTypeAsWritten(), N);
      return true;
    }
    bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) override {
      if (E->isArgumentType())
        T.addType(E->getArgumentType(), N);
      return true;
    }
    bool VisitCompoundLiteralExpr(CompoundLiteralExpr *E) override {
      T.addType(E->getType(), N);
      return true;
    }
  };
  Visitor V(*this, N, Begin, End, InRoutine);
  V.TraverseStmt(S);
  if (InRoutine)
    return; // a routine writes only its parameters and locals
  // Outer variables the construct writes, or takes the address of.
  forEachStore(
      S,
      [&](Expr *LHS) {
        if (auto *DRE = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts()))
          if (auto *Var = dyn_cast<VarDecl>(DRE->getDecl());
              Var && !V.inside(Var) && !N.Assigned.count(Var))
            N.Assigned[Var] = DRE->getLocation();
      },
      /*AddressTaken=*/true);
}

void KernelDeclarations::addRoutine(FunctionDecl *F, KernelNeeds &N) {
  addType(F->getType(), N);
  collect(F->getBody(), 0, 0, N, F);
  if (const CxxKernel *K = File.cxx() ? Cxx.lowerRoutine(F) : nullptr)
    for (QualType Ty : K->Types)
      addType(Ty, N);
  N.Routines.push_back(F);
}

/// The text of the top-level declaration(s) that define D, e.g. the whole
/// `typedef struct {...} point;` for either the struct or the typedef.
std::string KernelDeclarations::declText(const Decl *D) {
  if (auto *RD = dyn_cast<CXXRecordDecl>(D); RD && RD->getIdentifier())
    return Cxx.cStructText(RD); // C++: the class's data members as C
  if (auto *TD = dyn_cast<TypedefNameDecl>(D); TD && File.cxx()) {
    QualType U = TD->getUnderlyingType();
    if (File.TypeText.cType(U) != U) // of a class template's instance: as C
      return "typedef " + File.TypeText.declaration(U, TD->getName()) + ";";
    // Of a class (`typedef struct P {...} P;`): the class's C struct already declares its
    // own name (cStructText); another name is a typedef of it, before or after its definition.
    if (const auto *RD = U->getAsCXXRecordDecl();
        RD && RD->getIdentifier() && !U.getCanonicalType().hasLocalQualifiers())
      return TD->getName() == RD->getName() ? ""
                                            : "typedef struct " + File.TypeText.cRecordName(RD) +
                                                  " " + TD->getName().str() + ";";
  }
  SourceRange R(File.SM.getExpansionLoc(D->getBeginLoc()),
                File.SM.getExpansionRange(D->getEndLoc()).getEnd());
  // Grown to the declarations it is written with (`typedef struct {...} T;`): of the file, of
  // the function that defines it, or of the `extern "C" {...}` block around it.
  const DeclContext *Around = D->getLexicalDeclContext();
  while (!Around->isFileContext() && !isa<FunctionDecl>(Around) && !isa<LinkageSpecDecl>(Around))
    Around = Around->getLexicalParent();
  bool Grew = true;
  while (Grew) {
    Grew = false;
    for (Decl *Top : Around->decls()) {
      SourceRange TR(File.SM.getExpansionLoc(Top->getBeginLoc()),
                     File.SM.getExpansionRange(Top->getEndLoc()).getEnd());
      if (File.SM.getFileID(TR.getBegin()) != File.SM.getFileID(R.getBegin()))
        continue;
      bool Overlaps = !File.SM.isBeforeInTranslationUnit(TR.getEnd(), R.getBegin()) &&
                      !File.SM.isBeforeInTranslationUnit(R.getEnd(), TR.getBegin());
      if (!Overlaps)
        continue;
      if (File.SM.isBeforeInTranslationUnit(TR.getBegin(), R.getBegin())) {
        R.setBegin(TR.getBegin());
        Grew = true;
      }
      if (File.SM.isBeforeInTranslationUnit(R.getEnd(), TR.getEnd())) {
        R.setEnd(TR.getEnd());
        Grew = true;
      }
    }
  }
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), File.SM, File.Ctx.getLangOpts())
             .str() +
         ";";
}

std::string KernelDeclarations::routineText(const FunctionDecl *F) {
  SourceRange R(File.SM.getExpansionLoc(F->getBeginLoc()),
                File.SM.getExpansionRange(F->getEndLoc()).getEnd());
  if (auto L = File.Idx.LambdaRoutines.find(F); L != File.Idx.LambdaRoutines.end()) // from its '['
    R = SourceRange(File.SM.getExpansionLoc(L->second.Lambda->getBeginLoc()),
                    File.SM.getExpansionRange(L->second.Lambda->getEndLoc()).getEnd());
  std::string Text =
      Lexer::getSourceText(CharSourceRange::getTokenRange(R), File.SM, File.Ctx.getLangOpts())
          .str();
  if (!File.SM.isInMainFile(R.getBegin())) {
    // A header's, as written, but its loops (the only directives taken from a routine's body
    // there) run sequentially in each call, as a main file's do.
    std::string Out;
    llvm::StringRef Rest(Text);
    while (!Rest.empty()) {
      auto [Line, Tail] = Rest.split('\n');
      llvm::SmallVector<llvm::StringRef, 3> Words;
      Line.trim().split(Words, ' ', 2, false);
      bool IsAcc = Words.size() == 3 && Words[0] == "#pragma" && Words[1] == "acc";
      if (IsAcc)
        Out += "/* " + Line.trim().str() + ": sequential in a routine */";
      else
        Out += Line.str();
      if (Rest.size() > Line.size())
        Out += "\n";
      Rest = Tail;
    }
    return Out;
  }
  unsigned Begin = File.Idx.offset(R.getBegin()), End = Begin + Text.size();
  std::map<unsigned, std::pair<unsigned, std::string>> Edits;
  std::map<unsigned, std::string> Ins;
  if (File.cxx())
    if (const CxxKernel *K = Cxx.lowerRoutine(F)) {
      Edits = K->Edits;
      Ins = K->Ins;
    }
  for (const Pragma *P : Table.RoutineLoops) {
    if (P->Hash < Begin || P->LineEnd > End)
      continue;
    llvm::StringRef Line(File.Buf.data() + P->Hash, P->LineEnd - P->Hash);
    // One comment, and the pragma's line count kept (kernel diagnostics name source lines).
    Edits[P->Hash] = {P->LineEnd - P->Hash, "/* #pragma acc " + P->Text +
                                                ": sequential in a routine */" +
                                                std::string(Line.count('\n'), '\n')};
  }
  return editedText(File.Buf, Begin, End, Edits, Ins);
}

/// Typedefs, struct/enum definitions, routines and macros a kernel's text needs, in order.
std::string KernelDeclarations::leadingDecls(KernelNeeds &N, llvm::StringRef Body,
                                             const std::set<std::string> &Helpers,
                                             llvm::StringRef ItemEnd) {
  std::string Out;
  // Types: system typedefs by their canonical type; the others by their own text, in file order.
  std::vector<std::pair<SourceLocation, std::string>> Types;
  std::set<std::string> Seen;
  std::string Texts; // everything emitted, scanned for macros below
  for (const Decl *D : N.TypeDecls) {
    SourceLocation L = File.SM.getExpansionLoc(D->getLocation());
    if (File.SM.isInSystemHeader(L)) {
      if (auto *TD = dyn_cast<TypedefNameDecl>(D)) {
        QualType C = TD->getUnderlyingType().getCanonicalType();
        if (C->isBuiltinType()) {
          std::string S;
          llvm::raw_string_ostream OS(S);
          OS << "typedef ";
          C.print(OS, File.TypeText.policy(), TD->getName());
          OS << ";";
          Out += OS.str() + "\n" + ItemEnd.str();
        }
      }
      continue; // records from system headers are the kernel's to include
    }
    // A type defined in a function goes to the kernel's file scope as written, unless its size
    // is the function's to compute (a variable-length array type).
    if (!D->getDeclContext()->isFileContext()) {
      auto *TD = dyn_cast<TypedefNameDecl>(D);
      if (TD && TD->getUnderlyingType()->isVariablyModifiedType()) {
        File.errorAt(D->getLocation(), "type '" + TD->getName() +
                                           "' used in a compute construct has a size computed "
                                           "in the function (a variable-length array): use the "
                                           "array type itself, or a pointer");
        continue;
      }
    }
    std::string T = declText(D);
    if (!T.empty() && Seen.insert(T).second)
      Types.push_back({File.SM.getExpansionLoc(D->getBeginLoc()), T});
  }
  std::sort(Types.begin(), Types.end(), [&](const auto &A, const auto &B) {
    return File.SM.isBeforeInTranslationUnit(A.first, B.first);
  });
  std::string Decls;
  for (auto &[L, T] : Types)
    Decls += T + "\n" + ItemEnd.str();
  std::sort(N.Routines.begin(), N.Routines.end(), [&](FunctionDecl *A, FunctionDecl *B) {
    return File.SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  // Renames first, so that every routine calls the bindings too; a routine some kind calls
  // itself is defined under its own name, the rename undone around its text.
  std::string Routines;
  std::set<std::string> AllHelpers = Helpers; // C++: std::min/max of the routines too
  for (const auto &[Routine, To] : N.Renames)
    Routines += RoutineTable::renameText(Routine, To);
  for (FunctionDecl *F : N.Routines) {
    auto Renamed = N.Renames.find(File.Idx.routineName(F));
    if (Renamed != N.Renames.end())
      Routines += "#undef " + Renamed->first + "\n";
    Routines += RoutineTable::kernelRoutinePragma(Table.RoutineDir[F->getCanonicalDecl()]);
    // Static: every kernel holding the routine has its own copy.
    if (F->getStorageClass() != SC_Static)
      Routines += "static ";
    Routines += routineText(F) + "\n" + ItemEnd.str();
    if (Renamed != N.Renames.end())
      Routines += RoutineTable::renameText(Renamed->first, Renamed->second);
    if (const CxxKernel *K = File.cxx() ? Cxx.lowerRoutine(F) : nullptr)
      AllHelpers.insert(K->Helpers.begin(), K->Helpers.end());
  }
  std::vector<std::pair<const VarDecl *, std::string>> Constants(N.Constants.begin(),
                                                                  N.Constants.end());
  std::sort(Constants.begin(), Constants.end(), [&](const auto &A, const auto &B) {
    return File.SM.isBeforeInTranslationUnit(A.first->getLocation(), B.first->getLocation());
  });
  for (const auto &[V, Text] : Constants)
    Decls += Text + "\n" + ItemEnd.str();
  for (const std::string &H : AllHelpers)
    Decls += H + ItemEnd.str();
  // Routines of other files before this file's, which may call them.
  if (!N.Externals.empty())
    Decls += "#pragma jacc routines(" + llvm::join(N.Externals, ", ") + ")\n" + ItemEnd.str();
  Decls += Routines;
  // Macros the text uses (and the macros they use), by their definitions, in definition order.
  std::vector<std::pair<SourceLocation, std::string>> Macros;
  std::set<std::string> Done;
  std::vector<std::string> Work = identifiersIn(Body);
  for (std::string &I : identifiersIn(Decls))
    Work.push_back(I);
  while (!Work.empty()) {
    std::string Name = Work.back();
    Work.pop_back();
    if (!Done.insert(Name).second)
      continue;
    IdentifierInfo *II = File.PP.getIdentifierInfo(Name);
    const MacroInfo *MI = II && II->hasMacroDefinition() ? File.PP.getMacroInfo(II) : nullptr;
    if (!MI || MI->isBuiltinMacro())
      continue;
    SourceLocation DL = MI->getDefinitionLoc();
    if (DL.isInvalid() || File.SM.isWrittenInBuiltinFile(DL))
      continue; // predefined: the kernel's compiler defines it too
    std::string Text =
        Lexer::getSourceText(CharSourceRange::getTokenRange(DL, MI->getDefinitionEndLoc()), File.SM,
                             File.Ctx.getLangOpts())
            .str();
    for (std::string &I : identifiersIn(Text))
      Work.push_back(I);
    Macros.push_back({DL, "#define " + Text});
  }
  std::sort(Macros.begin(), Macros.end(), [&](const auto &A, const auto &B) {
    return File.SM.isBeforeInTranslationUnit(A.first, B.first);
  });
  for (auto &[L, T] : Macros)
    Out += T + "\n" + ItemEnd.str();
  return Out + Decls;
}

std::optional<std::string> KernelDeclarations::constantDecl(const VarDecl *V) const {
  QualType T = V->getType();
  if (!File.cxx() || !V->hasGlobalStorage() || !T->isArithmeticType() ||
      !(V->isConstexpr() || V->isUsableInConstantExpressions(File.Ctx)))
    return std::nullopt;
  const APValue *Val = V->evaluateValue();
  std::string Lit;
  if (Val && Val->isInt()) {
    const llvm::APSInt &I = Val->getInt();
    Lit = llvm::toString(I, 10) + (I.isSigned() ? "LL" : "ULL");
  } else if (Val && Val->isFloat() && Val->getFloat().isFinite()) {
    // The fewest digits that give the same value back (at most 9 for a float, 17 for a double).
    bool Single = &Val->getFloat().getSemantics() == &llvm::APFloat::IEEEsingle();
    if (!Single && &Val->getFloat().getSemantics() != &llvm::APFloat::IEEEdouble())
      return std::nullopt;
    double D = Single ? double(Val->getFloat().convertToFloat())
                      : Val->getFloat().convertToDouble();
    char S[64];
    for (int Digits = 1; Digits <= 17; ++Digits) {
      std::snprintf(S, sizeof S, "%.*g", Digits, D);
      double Back = std::strtod(S, nullptr);
      if (Single ? float(Back) == float(D) : Back == D)
        break;
    }
    Lit = std::string(S) + (Single ? "f" : "");
    if (Lit.find_first_of(".en") == std::string::npos) // 3 -> 3.0 (a double literal)
      Lit.insert(Single ? Lit.size() - 1 : Lit.size(), ".0");
  } else {
    return std::nullopt;
  }
  return "static " + File.TypeText.declaration(T.getUnqualifiedType().withConst(), V->getName()) +
         " = " + Lit + ";";
}

} // namespace jacc::translate
