#include "translate/Translate.h"

#include "analysis/AccPragma.h"
#include "analysis/Directive.h"
#include "analysis/Stores.h"
#include "support/CText.h"
#include "support/ClangInvocation.h"
#include "support/Error.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>
#include <clang/Lex/Pragma.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Path.h>

#include <map>
#include <set>

using namespace clang;

namespace jacc::analysis {
namespace {

/// One `#pragma acc` line of the main file, as the preprocessor saw it.
struct Pragma {
  unsigned Hash = 0;      ///< offset of '#'
  unsigned LineStart = 0; ///< offset of the start of its line
  unsigned LineEnd = 0;   ///< offset after its last line's '\n'
  unsigned EndTok = 0;    ///< offset after its last token
  unsigned Line = 0, Column = 0;
  unsigned TextColumn = 0; ///< column of the first token after "acc"
  std::string Indent;      ///< the whitespace before '#'
  std::string Text;        ///< tokens after "acc", macros expanded, joined by single spaces
  std::string Problem;     ///< why it cannot be translated where it is, if so
};

/// The pragma as the translator locates it in the main file (Problem set when it is not there, or
/// not written as #pragma).
Pragma locatePragma(const AccPragma &A, SourceManager &SM, const LangOptions &LangOpts) {
  SourceLocation Loc = A.Loc;
  Pragma P;
  P.Text = A.Text;
  P.TextColumn = A.TextColumn;
  if (!SM.isInMainFile(Loc) || !A.HashForm) {
    // Only the main file's text is rewritten: say so rather than drop the directive.
    P.Problem = SM.isInMainFile(Loc)
                    ? "'_Pragma(\"acc " + P.Text + "\")' is not supported: write it as #pragma"
                    : "'#pragma acc " + P.Text + "' in an included file is not translated: "
                      "move it to the .c file";
    if (!SM.isInMainFile(Loc))
      Loc = SM.getExpansionLoc(SM.getIncludeLoc(SM.getFileID(Loc)));
    P.Line = SM.getPresumedLineNumber(Loc);
    P.Column = SM.getPresumedColumnNumber(Loc);
    return P;
  }
  llvm::StringRef Buf = SM.getBufferData(SM.getMainFileID());
  P.Hash = SM.getFileOffset(Loc);
  P.LineStart = Buf.rfind('\n', P.Hash) == llvm::StringRef::npos ? 0
                                                                  : Buf.rfind('\n', P.Hash) + 1;
  P.Indent = Buf.slice(P.LineStart, P.Hash).str();
  if (!llvm::StringRef(P.Indent).trim().empty())
    P.Indent.clear();
  P.EndTok = SM.getFileOffset(A.Last) + Lexer::MeasureTokenLength(A.Last, SM, LangOpts);
  size_t NL = Buf.find('\n', P.EndTok);
  P.LineEnd = NL == llvm::StringRef::npos ? Buf.size() : NL + 1;
  P.Line = SM.getPresumedLineNumber(Loc);
  P.Column = SM.getPresumedColumnNumber(Loc);
  return P;
}

/// Statements by start offset, variables with their scopes, functions, in the main file.
class Index : public RecursiveASTVisitor<Index> {
public:
  explicit Index(SourceManager &SM) : SM(SM) {}

  struct VarScope {
    VarDecl *V;
    unsigned DeclOffset, ScopeBegin, ScopeEnd;
  };

  std::map<unsigned, Stmt *> Starts; ///< outermost statement per start offset
  std::map<unsigned, Decl *> Decls;  ///< top-level or local declarations per start offset
  std::vector<VarScope> Vars;
  std::vector<FunctionDecl *> Functions;

  bool TraverseStmt(Stmt *S) {
    if (!S)
      return true;
    bool Scope = isa<CompoundStmt, ForStmt, IfStmt, WhileStmt, SwitchStmt, DoStmt>(S);
    if (Scope)
      Scopes.push_back({offset(S->getBeginLoc()), offset(S->getEndLoc()) + 1});
    bool R = RecursiveASTVisitor::TraverseStmt(S);
    if (Scope)
      Scopes.pop_back();
    return R;
  }
  bool VisitStmt(Stmt *S) {
    SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
    if (SM.isInMainFile(L))
      Starts.emplace(SM.getFileOffset(L), S); // pre-order: the first is the outermost
    return true;
  }
  bool VisitDecl(Decl *D) {
    SourceLocation L = SM.getExpansionLoc(D->getBeginLoc());
    if (SM.isInMainFile(L) && !isa<TranslationUnitDecl>(D))
      Decls.emplace(SM.getFileOffset(L), D);
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *F) {
    Functions.push_back(F);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    SourceLocation L = SM.getExpansionLoc(V->getLocation());
    bool Main = SM.isInMainFile(L);
    unsigned Off = Main ? SM.getFileOffset(L) : 0;
    if (isa<ParmVarDecl>(V)) {
      auto *F = dyn_cast<FunctionDecl>(V->getDeclContext());
      if (F && F->hasBody() && Main)
        Vars.push_back({V, Off, offset(F->getBody()->getBeginLoc()),
                        offset(F->getBody()->getEndLoc()) + 1});
      return true;
    }
    if (V->isLocalVarDecl() && !Scopes.empty())
      Vars.push_back({V, Off, Scopes.back().first, Scopes.back().second});
    else if (V->isFileVarDecl())
      Vars.push_back({V, Off, 0, ~0u});
    return true;
  }

  unsigned offset(SourceLocation L) const {
    L = SM.getExpansionLoc(L);
    return SM.isInMainFile(L) ? SM.getFileOffset(L) : 0;
  }

private:
  SourceManager &SM;
  std::vector<std::pair<unsigned, unsigned>> Scopes;
};

/// A compute construct or a data construct and the statement it applies to.
struct Region {
  const Pragma *P = nullptr;
  Directive D;
  Stmt *S = nullptr;
  unsigned End = 0; ///< offset after the statement (its ';' or '}' included)
  std::vector<std::string> Exits; ///< exit calls, in order (data regions)
};

std::string cString(llvm::StringRef Text, const std::string &Indent) {
  std::string Out = Indent + "\"";
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    switch (C) {
    case '\\': Out += "\\\\"; break;
    case '"': Out += "\\\""; break;
    case '\t': Out += "\\t"; break;
    case '\n':
      Out += "\\n\"";
      if (I + 1 < Text.size())
        Out += "\n" + Indent + "\"";
      else
        return Out;
      break;
    default: Out += C;
    }
  }
  return Out + "\"";
}

class Translator {
public:
  Translator(ASTContext &Ctx, Preprocessor &PP, std::vector<Pragma> &Pragmas,
             llvm::StringRef FileName)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), PP(PP), Pragmas(Pragmas), FileName(FileName),
        Idx(SM), RW(SM, Ctx.getLangOpts()), Policy(Ctx.getPrintingPolicy()) {
    Buf = SM.getBufferData(SM.getMainFileID());
  }

  /// The translated file, or "" with Errors filled.
  std::string run();
  std::vector<std::string> Errors;

private:
  // Diagnostics.
  void error(unsigned Line, unsigned Col, const llvm::Twine &Msg) {
    Errors.push_back((FileName + ":" + llvm::Twine(Line) + ":" + llvm::Twine(Col) +
                      ": error: " + Msg).str());
  }
  void error(const Pragma &P, const llvm::Twine &Msg) { error(P.Line, P.Column, Msg); }
  void error(const Pragma &P, const Clause &C, const llvm::Twine &Msg) {
    error(P.Line, P.TextColumn + C.Column - 1, Msg);
  }
  void errorAt(SourceLocation L, const llvm::Twine &Msg) {
    PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(L));
    error(PL.getLine(), PL.getColumn(), Msg);
  }
  std::string where(const Pragma &P) const {
    return "\"" + FileName.str() + ":" + std::to_string(P.Line) + "\"";
  }
  std::string check(const std::string &Call, const Pragma &P) const {
    return "jacc_translated_check(" + Call + ", " + where(P) + ");";
  }

  // Structure.
  Stmt *statementAfter(const Pragma &P);
  unsigned endOf(Stmt *S);
  VarDecl *lookupVar(llvm::StringRef Name, unsigned Offset);

  // Data clauses.
  struct Section {
    std::string Addr, Bytes;
    bool Scalar = false; ///< a scalar or struct named without a section: passed by value
    bool Const = false;  ///< const elements: never copied back
  };
  std::optional<Section> section(const std::string &Item, const Pragma &P, const Clause &C);
  /// The entry and exit calls of R's data clauses; Decls gets the declarations they need, which
  /// go before the entry calls (outside an `if` clause's guard).
  bool dataCalls(const Region &R, std::vector<std::string> &Decls,
                 std::vector<std::string> &Entry, std::vector<std::string> &Exit);
  unsigned NoCreates = 0; ///< no_create flags declared so far (their names are numbered)

  // Directives.
  void translateCompute(Region &R);
  void translateData(Region &R);
  void translateStandalone(const Pragma &P, const Directive &D);
  void addExits(Region &R);
  void translateRoutine(const Pragma &P, const Directive &D);

  // What a kernel needs.
  struct KernelNeeds {
    std::vector<VarDecl *> Vars;               ///< referenced, declared outside, in order
    std::set<const Decl *> TypeDecls;          ///< typedefs, records, enums
    std::vector<FunctionDecl *> Routines;      ///< called routine definitions
    std::set<const FunctionDecl *> RoutineSet;
    std::map<const VarDecl *, SourceLocation> Assigned; ///< outer scalars the construct writes
    std::set<const VarDecl *> LoopVars; ///< outer variables used as loop counters (private)
  };
  void collect(Stmt *S, unsigned Begin, unsigned End, KernelNeeds &N, FunctionDecl *InRoutine);
  void addType(QualType T, KernelNeeds &N);
  std::string leadingDecls(KernelNeeds &N, llvm::StringRef Body);
  std::string declText(const Decl *D);
  /// The kernel argument for V: its declaration, the value's address and the host temporary
  /// that holds it when needed; Before gets the arguments V's declaration refers to (the extents
  /// of a variable-length array).
  bool argDecl(VarDecl *V, std::string &Decl, std::string &Temp, std::string &Value,
               std::vector<std::string> &Before, const Pragma &P);

  ASTContext &Ctx;
  SourceManager &SM;
  Preprocessor &PP;
  std::vector<Pragma> &Pragmas;
  llvm::StringRef FileName;
  llvm::StringRef Buf;
  Index Idx;
  Rewriter RW;
  PrintingPolicy Policy;
  std::map<const FunctionDecl *, const Pragma *> RoutineOf; ///< canonical decl -> its pragma
  std::map<const FunctionDecl *, Directive> RoutineDir;
  std::vector<Region> Computes, Datas;
  /// Pragmas[K]'s directive, parsed once by run() (empty where it did not parse: run() stops
  /// before translating anything then).
  std::vector<std::optional<Directive>> Dirs;
  /// C declaration of Name with type T ("double (*a)[80]").
  std::string declaration(QualType T, llvm::StringRef Name) const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    T.print(OS, Policy, Name);
    return OS.str();
  }
  /// Whether `private(Var)` of directive QD (at Q) in compute construct R makes a gang loop
  /// nest that owns every use of Var in R.
  bool privatisableHere(const Pragma &Q, const Directive &QD, const Region &R, const VarDecl *Var);
  /// The directives from P up to End (a construct's own and those inside its statement).
  std::vector<std::pair<const Pragma *, const Directive *>> directivesIn(const Pragma &P,
                                                                         unsigned End) const {
    std::vector<std::pair<const Pragma *, const Directive *>> In;
    for (size_t K = 0; K < Pragmas.size(); ++K)
      if (Pragmas[K].Hash >= P.Hash && Pragmas[K].Hash < End && Dirs[K])
        In.push_back({&Pragmas[K], &*Dirs[K]});
    return In;
  }
};

bool Translator::privatisableHere(const Pragma &Q, const Directive &QD, const Region &R,
                                  const VarDecl *Var) {
  if (&Q == R.P)
    return R.D.Kind == DirectiveKind::ParallelLoop || R.D.Kind == DirectiveKind::KernelsLoop;
  if (QD.Kind != DirectiveKind::Loop || QD.find(ClauseKind::Seq) ||
      (R.D.Kind != DirectiveKind::Parallel && R.D.Kind != DirectiveKind::Kernels))
    return false;
  auto *Body = dyn_cast<CompoundStmt>(R.S);
  if (!Body)
    return false;
  // The statement right after the pragma must be a for loop of the construct's body.
  Stmt *Loop = nullptr;
  for (Stmt *S : Body->body())
    if (Idx.offset(S->getBeginLoc()) >= Q.LineEnd) {
      Loop = S;
      break;
    }
  if (!Loop || !isa<ForStmt>(Loop))
    return false;
  unsigned LoopBegin = Idx.offset(Loop->getBeginLoc()), LoopEnd = endOf(Loop);
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *Var;
    std::vector<SourceLocation> Locs;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (E->getDecl() == Var)
        Locs.push_back(E->getLocation());
      return true;
    }
  } U;
  U.Var = Var;
  U.TraverseStmt(R.S);
  for (SourceLocation L : U.Locs) {
    unsigned Off = Idx.offset(L);
    if (Off < LoopBegin || Off >= LoopEnd)
      return false;
  }
  return true;
}

unsigned Translator::endOf(Stmt *S) {
  SourceLocation E = SM.getExpansionLoc(S->getEndLoc());
  unsigned Off = SM.getFileOffset(E) + Lexer::MeasureTokenLength(E, SM, Ctx.getLangOpts());
  llvm::StringRef Last = Buf.slice(SM.getFileOffset(E), Off);
  if (Last != "}" && Last != ";") {
    // An expression statement ends at its expression; its ';' follows.
    size_t Semi = Buf.find_first_not_of(" \t\r\n", Off);
    if (Semi != llvm::StringRef::npos && Buf[Semi] == ';')
      Off = Semi + 1;
  }
  return Off;
}

Stmt *Translator::statementAfter(const Pragma &P) {
  auto It = Idx.Starts.upper_bound(P.EndTok);
  if (It == Idx.Starts.end())
    return nullptr;
  // Only blank lines, comments or other pragmas may come between the pragma and its statement
  // (a pragma before a '}' has none).
  llvm::StringRef Gap = Buf.slice(P.EndTok, It->first);
  while (!Gap.empty()) {
    Gap = Gap.ltrim();
    if (Gap.startswith("//") || Gap.startswith("#"))
      Gap = Gap.drop_until([](char C) { return C == '\n'; });
    else if (Gap.startswith("/*"))
      Gap = Gap.drop_front(std::min(Gap.size(), Gap.find("*/") + 2));
    else if (!Gap.empty())
      return nullptr;
  }
  return It->second;
}

VarDecl *Translator::lookupVar(llvm::StringRef Name, unsigned Offset) {
  VarDecl *Best = nullptr;
  unsigned BestOff = 0;
  for (const Index::VarScope &V : Idx.Vars) {
    if (V.V->getName() != Name || V.DeclOffset > Offset || Offset < V.ScopeBegin ||
        Offset >= V.ScopeEnd)
      continue;
    if (!Best || V.DeclOffset >= BestOff) {
      Best = V.V;
      BestOff = V.DeclOffset;
    }
  }
  return Best;
}

std::optional<Translator::Section> Translator::section(const std::string &Item, const Pragma &P,
                                                       const Clause &C) {
  llvm::StringRef T(Item);
  size_t Br = T.find('[');
  std::string Base = T.take_front(Br).trim().str();
  std::vector<std::pair<std::string, std::string>> Dims; // (lower, length)
  llvm::StringRef Rest = Br == llvm::StringRef::npos ? "" : T.drop_front(Br);
  while (!Rest.empty()) {
    if (Rest.front() != '[') {
      error(P, C, "cannot read the array section '" + Item + "' in clause '" + C.Name + "'");
      return std::nullopt;
    }
    int Depth = 0;
    size_t Colon = llvm::StringRef::npos, I = 0;
    for (; I < Rest.size(); ++I) {
      char Ch = Rest[I];
      if (Ch == '[' || Ch == '(')
        ++Depth;
      else if (Ch == ']' || Ch == ')') {
        if (--Depth == 0)
          break;
      } else if (Ch == ':' && Depth == 1 && Colon == llvm::StringRef::npos)
        Colon = I;
    }
    if (I == Rest.size() || Colon == llvm::StringRef::npos) {
      error(P, C, "'" + Item + "' in clause '" + C.Name +
                      "' is not an array section: write it as name[lower:length]");
      return std::nullopt;
    }
    Dims.push_back({Rest.slice(1, Colon).trim().str(), Rest.slice(Colon + 1, I).trim().str()});
    Rest = Rest.drop_front(I + 1).ltrim();
  }
  VarDecl *V = lookupVar(Base, P.Hash);
  QualType Ty = V ? V->getType().getCanonicalType() : QualType();
  Section S;
  if (Dims.empty()) {
    if (!V) {
      error(P, C, "'" + Base + "' in clause '" + C.Name + "' is not a variable in scope");
      return std::nullopt;
    }
    if (Ty->isConstantArrayType() || Ty->isVariableArrayType()) {
      S.Const = Ctx.getAsArrayType(Ty)->getElementType().isConstQualified();
      S.Addr = S.Const ? "(void *)" + Base : Base;
      S.Bytes = "sizeof " + Base;
      return S;
    }
    if (Ty->isPointerType() || Ty->isArrayType()) {
      error(P, C, "'" + Base + "' in clause '" + C.Name +
                      "' is a pointer: give the array section it points to, e.g. " + Base +
                      "[0:n]");
      return std::nullopt;
    }
    S.Scalar = true;
    return S;
  }
  if (V && !Ty->isPointerType() && !Ty->isArrayType()) {
    error(P, C, "'" + Base + "' in clause '" + C.Name + "' is not an array or a pointer");
    return std::nullopt;
  }
  for (size_t I = 1; I < Dims.size(); ++I)
    if (!Dims[I].first.empty() && Dims[I].first != "0") {
      error(P, C, "'" + Item + "' in clause '" + C.Name +
                      "' is not contiguous: only the first dimension of a section may start "
                      "after 0");
      return std::nullopt;
    }
  std::string Lo = Dims[0].first.empty() ? "0" : Dims[0].first;
  std::string Len = Dims[0].second;
  if (Len.empty()) {
    if (!V || !(Ty->isConstantArrayType() || Ty->isVariableArrayType())) {
      error(P, C, "'" + Item + "' in clause '" + C.Name +
                      "' needs a length: the size of '" + Base + "' is not known");
      return std::nullopt;
    }
    Len = "sizeof " + Base + " / sizeof " + Base + "[0] - (" + Lo + ")";
  }
  S.Addr = "&" + Base + "[" + Lo + "]";
  bool Simple = llvm::all_of(Len, isIdentChar);
  S.Bytes = (Simple ? Len : "(" + Len + ")") + " * sizeof " + Base + "[0]";
  if (V) {
    QualType E = Ty->isPointerType() ? Ty->getPointeeType()
                                     : Ctx.getAsArrayType(Ty)->getElementType();
    S.Const = E.isConstQualified();
  }
  // jacc's data calls take void *: const data needs the cast (a member's type is not looked up).
  if (S.Const || !V)
    S.Addr = "(void *)" + S.Addr;
  return S;
}

/// Entry and exit calls of the data clauses of a compute or data construct, in clause order
/// (exits reversed). False after an error.
bool Translator::dataCalls(const Region &R, std::vector<std::string> &Decls,
                           std::vector<std::string> &Entry, std::vector<std::string> &Exit) {
  bool Ok = true;
  std::vector<std::string> Exits;
  for (const Clause &C : R.D.Clauses) {
    const char *In = nullptr, *Out = nullptr;
    switch (C.Kind) {
    case ClauseKind::Copy: In = "jacc_copyin"; Out = "jacc_copyout"; break;
    case ClauseKind::Copyin: In = "jacc_copyin"; Out = "jacc_delete"; break;
    case ClauseKind::Copyout: In = "jacc_create"; Out = "jacc_copyout"; break;
    case ClauseKind::Create: In = "jacc_create"; Out = "jacc_delete"; break;
    case ClauseKind::Present: In = "present"; break;
    case ClauseKind::NoCreate: In = "no_create"; break;
    default: continue;
    }
    for (const std::string &Item : C.Vars) {
      auto S = section(Item, *R.P, C);
      if (!S) {
        Ok = false;
        continue;
      }
      if (S->Scalar) {
        // A scalar is passed to every kernel by value; only a copy back cannot be honoured.
        if (C.Kind == ClauseKind::Copy || C.Kind == ClauseKind::Copyout) {
          error(*R.P, C, "scalar '" + Item + "' in clause '" + C.Name +
                             "': kernels get scalars by value; use a reduction clause or a "
                             "one-element array to bring a value back");
          Ok = false;
        }
        continue;
      }
      if (llvm::StringRef(In) == "present") {
        Entry.push_back("jacc_translated_present(" + S->Addr + ", " + S->Bytes + ", " +
                        where(*R.P) + ", \"" + Item + "\");");
        continue;
      }
      if (llvm::StringRef(In) == "no_create") {
        // Absent data is the host's memory: the construct works on a copy jacc brings in and
        // takes back at its end, as if the devices had used the host's memory.
        std::string Flag = "jacc_no_create_" + std::to_string(++NoCreates);
        Decls.push_back("int " + Flag + " = 0;");
        Entry.push_back(Flag + " = jacc_translated_no_create(" + S->Addr + ", " + S->Bytes +
                        ", " + where(*R.P) + ");");
        Exits.push_back("if (" + Flag + ") " +
                        check(std::string(S->Const ? "jacc_delete" : "jacc_copyout") + "(" +
                                  S->Addr + ", " + S->Bytes + ")",
                              *R.P));
        continue;
      }
      Entry.push_back(check(std::string(In) + "(" + S->Addr + ", " + S->Bytes + ")", *R.P));
      // Const data is never copied back (it may live in read-only memory).
      const char *O = S->Const && llvm::StringRef(Out) == "jacc_copyout" ? "jacc_delete" : Out;
      Exits.push_back(check(std::string(O) + "(" + S->Addr + ", " + S->Bytes + ")", *R.P));
    }
  }
  Exit.insert(Exit.end(), Exits.rbegin(), Exits.rend());
  return Ok;
}

void Translator::addType(QualType T, KernelNeeds &N) {
  while (!T.isNull()) {
    const Type *Ty = T.getTypePtr();
    if (auto *TT = dyn_cast<TypedefType>(Ty)) {
      if (!N.TypeDecls.insert(TT->getDecl()).second)
        return;
      T = TT->getDecl()->getUnderlyingType();
    } else if (auto *ET = dyn_cast<ElaboratedType>(Ty)) {
      T = ET->getNamedType();
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

/// Collects what a kernel needs from the statement S (its text spans [Begin, End)).
void Translator::collect(Stmt *S, unsigned Begin, unsigned End, KernelNeeds &N,
                         FunctionDecl *InRoutine) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    Translator &T;
    KernelNeeds &N;
    unsigned Begin, End;
    FunctionDecl *InRoutine;
    Visitor(Translator &T, KernelNeeds &N, unsigned B, unsigned E, FunctionDecl *R)
        : T(T), N(N), Begin(B), End(E), InRoutine(R) {}
    bool inside(const Decl *D) const {
      unsigned O = T.Idx.offset(D->getLocation());
      SourceLocation L = T.SM.getExpansionLoc(D->getLocation());
      return T.SM.isInMainFile(L) && O >= Begin && O < End;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      ValueDecl *D = E->getDecl();
      if (auto *V = dyn_cast<VarDecl>(D)) {
        if (InRoutine ? V->isLocalVarDeclOrParm() : inside(V))
          return true;
        if (InRoutine) {
          T.errorAt(E->getLocation(), "routine '" + InRoutine->getName() +
                                          "' uses the global variable '" + V->getName() +
                                          "': a routine may use only its parameters and locals");
          return true;
        }
        if (std::find(N.Vars.begin(), N.Vars.end(), V) == N.Vars.end())
          N.Vars.push_back(V);
        T.addType(V->getType(), N);
      } else if (auto *EC = dyn_cast<EnumConstantDecl>(D)) {
        if (auto *ED = dyn_cast<EnumDecl>(EC->getDeclContext()))
          N.TypeDecls.insert(ED);
      } else if (auto *F = dyn_cast<FunctionDecl>(D)) {
        const FunctionDecl *Def = F->getDefinition();
        if (!Def || T.SM.isInSystemHeader(T.SM.getExpansionLoc(Def->getLocation())))
          return true; // the C library (sqrt, ...): the kernel declares or includes it
        if (!T.RoutineOf.count(F->getCanonicalDecl())) {
          T.errorAt(E->getLocation(), "function '" + F->getName() +
                                          "' is called in a compute construct but is not "
                                          "declared with '#pragma acc routine'");
          return true;
        }
        auto *D2 = const_cast<FunctionDecl *>(Def);
        if (N.RoutineSet.insert(D2).second) {
          T.addType(D2->getType(), N);
          T.collect(D2->getBody(), 0, 0, N, D2);
          N.Routines.push_back(D2);
        }
      }
      return true;
    }
    bool VisitVarDecl(VarDecl *V) {
      T.addType(V->getType(), N);
      return true;
    }
    bool VisitForStmt(ForStmt *F) {
      if (auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit()); B && B->isAssignmentOp())
        if (auto *DRE = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          if (auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
            N.LoopVars.insert(V);
      return true;
    }
    bool VisitExplicitCastExpr(ExplicitCastExpr *E) {
      T.addType(E->getTypeAsWritten(), N);
      return true;
    }
    bool VisitUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *E) {
      if (E->isArgumentType())
        T.addType(E->getArgumentType(), N);
      return true;
    }
    bool VisitCompoundLiteralExpr(CompoundLiteralExpr *E) {
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

/// The text of the top-level declaration(s) that define D, e.g. the whole
/// `typedef struct {...} point;` for either the struct or the typedef.
std::string Translator::declText(const Decl *D) {
  SourceRange R(SM.getExpansionLoc(D->getBeginLoc()), SM.getExpansionLoc(D->getEndLoc()));
  bool Grew = true;
  while (Grew) {
    Grew = false;
    for (Decl *Top : Ctx.getTranslationUnitDecl()->decls()) {
      SourceRange TR(SM.getExpansionLoc(Top->getBeginLoc()),
                     SM.getExpansionLoc(Top->getEndLoc()));
      if (SM.getFileID(TR.getBegin()) != SM.getFileID(R.getBegin()))
        continue;
      bool Overlaps = !SM.isBeforeInTranslationUnit(TR.getEnd(), R.getBegin()) &&
                      !SM.isBeforeInTranslationUnit(R.getEnd(), TR.getBegin());
      if (!Overlaps)
        continue;
      if (SM.isBeforeInTranslationUnit(TR.getBegin(), R.getBegin())) {
        R.setBegin(TR.getBegin());
        Grew = true;
      }
      if (SM.isBeforeInTranslationUnit(R.getEnd(), TR.getEnd())) {
        R.setEnd(TR.getEnd());
        Grew = true;
      }
    }
  }
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts()).str() +
         ";";
}

/// Typedefs, struct/enum definitions, routines and macros a kernel's text needs, in order.
std::string Translator::leadingDecls(KernelNeeds &N, llvm::StringRef Body) {
  std::string Out;
  // Types: system typedefs by their canonical type; the others by their own text, in file order.
  std::vector<std::pair<SourceLocation, std::string>> Types;
  std::set<std::string> Seen;
  std::string Texts; // everything emitted, scanned for macros below
  for (const Decl *D : N.TypeDecls) {
    SourceLocation L = SM.getExpansionLoc(D->getLocation());
    if (SM.isInSystemHeader(L)) {
      if (auto *TD = dyn_cast<TypedefNameDecl>(D)) {
        QualType C = TD->getUnderlyingType().getCanonicalType();
        if (C->isBuiltinType()) {
          std::string S;
          llvm::raw_string_ostream OS(S);
          OS << "typedef ";
          C.print(OS, Policy, TD->getName());
          OS << ";";
          Out += OS.str() + "\n";
        }
      }
      continue; // records from system headers are the kernel's to include
    }
    if (!D->getDeclContext()->isFileContext()) {
      errorAt(D->getLocation(), "type '" + cast<NamedDecl>(D)->getNameAsString() +
                                    "' used in a compute construct is defined inside a "
                                    "function: define it at file scope");
      continue;
    }
    std::string T = declText(D);
    if (Seen.insert(T).second)
      Types.push_back({SM.getExpansionLoc(D->getBeginLoc()), T});
  }
  std::sort(Types.begin(), Types.end(), [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.first, B.first);
  });
  std::string Decls;
  for (auto &[L, T] : Types)
    Decls += T + "\n";
  std::sort(N.Routines.begin(), N.Routines.end(), [&](FunctionDecl *A, FunctionDecl *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  for (FunctionDecl *F : N.Routines) {
    const Directive &D = RoutineDir[F->getCanonicalDecl()];
    Decls += "#pragma acc routine";
    for (const Clause &C : D.Clauses)
      Decls += " " + C.Name + (C.HasArgument ? "(" + C.Argument + ")" : "");
    Decls += "\n";
    // Static: every kernel holding the routine has its own copy.
    if (F->getStorageClass() != SC_Static)
      Decls += "static ";
    SourceRange R(SM.getExpansionLoc(F->getBeginLoc()), SM.getExpansionLoc(F->getEndLoc()));
    Decls += Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts()).str();
    Decls += "\n";
  }
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
    IdentifierInfo *II = PP.getIdentifierInfo(Name);
    const MacroInfo *MI = II && II->hasMacroDefinition() ? PP.getMacroInfo(II) : nullptr;
    if (!MI || MI->isBuiltinMacro())
      continue;
    SourceLocation DL = MI->getDefinitionLoc();
    if (DL.isInvalid() || SM.isWrittenInBuiltinFile(DL))
      continue; // predefined: the kernel's compiler defines it too
    std::string Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(DL, MI->getDefinitionEndLoc()), SM, Ctx.getLangOpts())
                           .str();
    for (std::string &I : identifiersIn(Text))
      Work.push_back(I);
    Macros.push_back({DL, "#define " + Text});
  }
  std::sort(Macros.begin(), Macros.end(), [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.first, B.first);
  });
  for (auto &[L, T] : Macros)
    Out += T + "\n";
  return Out + Decls;
}

/// The kernel argument for V: its declaration as the kernel names it, and the host value.
bool Translator::argDecl(VarDecl *V, std::string &Decl, std::string &Temp, std::string &Value,
                         std::vector<std::string> &Before, const Pragma &P) {
  QualType T = V->getType();
  QualType C = T.getCanonicalType();
  std::string Name = V->getName().str();
  if (C->isVariablyModifiedType()) {
    // A variable-length array (`double a[n][m]`) or a pointer to one (`double (*a)[m]`): the
    // kernel gets `double (*a)[jacc_vla_a_1]`, each variable extent a scalar argument before it,
    // measured with sizeof at the push (whatever the bounds were written with, and their values
    // when the array was declared, as C has it).
    QualType R = C->isArrayType() ? Ctx.getAsArrayType(C)->getElementType()
                                  : C->getPointeeType();
    std::string Dims, Sub = Name + "[0]";
    for (unsigned L = 1; const ArrayType *AT = Ctx.getAsArrayType(R); ++L) {
      std::string Dim;
      if (auto *CA = dyn_cast<ConstantArrayType>(AT)) {
        Dim = std::to_string(CA->getSize().getZExtValue());
      } else {
        Dim = "jacc_vla_" + Name + "_" + std::to_string(L);
        Temp += "long " + Dim + " = (long)(sizeof " + Sub + " / sizeof " + Sub + "[0]); ";
        Before.push_back("{\"long " + Dim + "\", &" + Dim + "}");
      }
      Dims += "[" + Dim + "]";
      Sub += "[0]";
      R = AT->getElementType();
    }
    if (R->isVariablyModifiedType() || R->isPointerType() || (Dims.empty() && !C->isArrayType())) {
      error(P, "variable '" + Name + "' (" + T.getAsString(Policy) +
                   ") cannot be passed to a kernel: jacc passes variable-length arrays and "
                   "pointers to them, of non-pointer elements");
      return false;
    }
    Decl = declaration(R, Dims.empty() ? "*" + Name : "(*" + Name + ")" + Dims);
    Temp += "void *jacc_ptr_" + Name + " = (void *)" + Name + ";";
    Value = "&jacc_ptr_" + Name;
    return true;
  }
  if (C->isArrayType()) {
    QualType D = Ctx.getArrayDecayedType(T);
    if (D->getPointeeType()->isPointerType()) {
      error(P, "array of pointers '" + Name + "' cannot be passed to a kernel");
      return false;
    }
    Decl = declaration(D, Name);
    Temp = declaration(D, "jacc_ptr_" + Name) + " = " + Name + ";";
    Value = "&jacc_ptr_" + Name;
    return true;
  }
  if (C->isPointerType()) {
    QualType E = C->getPointeeType();
    if (E->isPointerType() || E->isFunctionType()) {
      error(P, "variable '" + Name + "' (" + T.getAsString(Policy) +
                   ") cannot be passed to a kernel: pointers to pointers and function pointers "
                   "are not supported; pass each array as its own pointer");
      return false;
    }
  } else if (!C->isScalarType() && !C->isRecordType()) {
    error(P, "variable '" + Name + "' of type '" + T.getAsString(Policy) +
                 "' cannot be passed to a kernel");
    return false;
  }
  Decl = declaration(T, Name);
  Value = "&" + Name;
  return true;
}

void Translator::translateCompute(Region &R) {
  const Pragma &P = *R.P;
  const Directive &D = R.D;
  bool Ok = true;
  KernelNeeds N;
  unsigned StmtBegin = Idx.offset(R.S->getBeginLoc());
  collect(R.S, StmtBegin, R.End, N, nullptr);

  // Clauses: data clauses become calls around the push; the others stay in the kernel.
  std::vector<std::string> Decls, Entry, Exit;
  Ok &= dataCalls(R, Decls, Entry, Exit);
  std::string Kept, IfCond;
  bool Async = false, Wait = false, DefaultPresent = false;
  std::set<std::string> Explicit; // names in data or privatising clauses
  for (const Clause &C : D.Clauses) {
    for (const std::string &V : C.Vars)
      Explicit.insert(llvm::StringRef(V).take_until([](char Ch) { return Ch == '['; })
                          .trim()
                          .str());
    switch (C.Kind) {
    case ClauseKind::Copy:
    case ClauseKind::Copyin:
    case ClauseKind::Copyout:
    case ClauseKind::Create:
    case ClauseKind::Present:
    case ClauseKind::NoCreate:
      continue; // mapped (or checked) by the calls around the push
    case ClauseKind::Async:
      Async = true;
      continue;
    case ClauseKind::Wait:
      Wait = true;
      continue;
    case ClauseKind::If:
      IfCond = C.Argument;
      continue;
    case ClauseKind::Default:
      DefaultPresent = llvm::StringRef(C.Argument).trim() == "present";
      break;
    case ClauseKind::Deviceptr: {
      std::string Vars;
      for (const std::string &V : C.Vars)
        if (llvm::any_of(N.Vars, [&](VarDecl *X) { return X->getName() == V; }))
          Vars += (Vars.empty() ? "" : ", ") + V;
      if (!Vars.empty())
        Kept += " " + C.Name + "(" + Vars + ")";
      continue;
    }
    case ClauseKind::Self:
    case ClauseKind::Attach:
    case ClauseKind::DeviceType:
    case ClauseKind::Tile:
      error(P, C, "clause '" + C.Name + "' of '#pragma acc " + directiveKindName(D.Kind) +
                      "' is not supported by jacc-translate");
      Ok = false;
      continue;
    default:
      break;
    }
    Kept += " " + C.Name + (C.HasArgument ? "(" + C.Argument + ")" : "");
  }

  // deviceptr on an enclosing data construct applies to the compute constructs inside it: the
  // same variable (found from the data construct's pragma), unless a clause here names it.
  std::string Inherited;
  for (const Region &Data : Datas) {
    if (!(Data.P->Hash < P.Hash && P.Hash < Data.End))
      continue;
    for (const Clause &C : Data.D.Clauses) {
      if (C.Kind != ClauseKind::Deviceptr)
        continue;
      for (const std::string &V : C.Vars) {
        VarDecl *Outer = lookupVar(V, Data.P->Hash);
        if (Explicit.count(V) || !llvm::is_contained(N.Vars, Outer))
          continue;
        Explicit.insert(V);
        Inherited += (Inherited.empty() ? "" : ", ") + V;
      }
    }
  }
  if (!Inherited.empty())
    Kept += " deviceptr(" + Inherited + ")";

  // private of an array from outside: the kernel gets it as an array argument (`double t[16]`,
  // passed NULL, no data moved) that the loop nest with the clause privatises per iteration
  // (analysis/Frontend.cpp). That holds where the clause makes a gang loop nest: on a combined
  // construct, or on a non-seq loop that is a top-level statement of the construct using the
  // array nowhere else. Anything else (firstprivate arrays, pointers) is an error.
  std::set<const VarDecl *> PrivateArrays;
  for (auto [Q, QD] : directivesIn(P, R.End)) {
    for (const Clause &C : QD->Clauses) {
      if (C.Kind != ClauseKind::Private && C.Kind != ClauseKind::Firstprivate)
        continue;
      for (const std::string &V : C.Vars) {
        VarDecl *Var = lookupVar(V, Q->Hash);
        if (!Var || !llvm::is_contained(N.Vars, Var))
          continue;
        QualType T = Var->getType().getCanonicalType();
        if (!T->isArrayType() && !T->isPointerType())
          continue;
        std::string Why;
        if (T->isPointerType())
          Why = "a pointer declared outside the construct: jacc cannot privatise it; use a "
                "pointer variable declared inside the loop body";
        else if (C.Kind == ClauseKind::Firstprivate)
          Why = "an array declared outside the construct: jacc privatises such arrays only in "
                "private clauses; copy it into an array declared inside the loop body";
        else if (!T->isConstantArrayType())
          Why = "a variable-length array: jacc privatises arrays of constant size";
        else if (!privatisableHere(*Q, *QD, R, Var))
          Why = "an array declared outside the construct, private here to a loop that is not a "
                "gang loop of the construct (a combined construct, or a loop directly in its "
                "body using the array nowhere else); declare the private array inside the loop "
                "body";
        if (Why.empty()) {
          PrivateArrays.insert(Var);
          continue;
        }
        error(*Q, C, "'" + V + "' in clause '" + C.Name + "' is " + Why);
        Ok = false;
      }
    }
  }

  // In a kernels construct a scalar is copied back (OpenACC's implicit copy); jacc passes scalars
  // by value, so only a reduction brings a value back: anything else would be silently lost.
  if (D.Kind == DirectiveKind::Kernels || D.Kind == DirectiveKind::KernelsLoop) {
    std::set<std::string> Reduced;
    for (auto [Q, QD] : directivesIn(P, R.End))
      for (const Clause &C : QD->Clauses)
        if (C.Kind == ClauseKind::Reduction)
          Reduced.insert(C.Vars.begin(), C.Vars.end());
    for (VarDecl *V : N.Vars)
      if (auto It = N.Assigned.find(V); It != N.Assigned.end() &&
                                        !V->getType()->isArrayType() &&
                                        !N.LoopVars.count(V) &&
                                        !Reduced.count(V->getName().str())) {
        errorAt(It->second, "scalar '" + V->getName() + "' is assigned in a '" +
                                directiveKindName(D.Kind) +
                                "' construct: jacc passes scalars by value and cannot copy it "
                                "back; use a reduction clause or a one-element array");
        Ok = false;
      }
  }

  // Arguments, with the implicit data attributes of OpenACC: scalars firstprivate (by value),
  // arrays of known size present-or-copy, pointers present.
  std::vector<std::string> Temps, Args;
  for (VarDecl *V : N.Vars) {
    std::string Decl, Temp, Value;
    std::vector<std::string> Before;
    if (PrivateArrays.count(V)) {
      std::string Name = V->getName().str();
      Decl = declaration(V->getType().getUnqualifiedType(), Name);
      // (void): the host code may not use the array any more.
      Temps.push_back("void *jacc_private_" + Name + " = 0; (void)" + Name + ";");
      Args.push_back("{\"" + Decl + "\", &jacc_private_" + Name + "}");
      continue;
    }
    if (!argDecl(V, Decl, Temp, Value, Before, P)) {
      Ok = false;
      continue;
    }
    if (!Temp.empty())
      Temps.push_back(Temp);
    Args.insert(Args.end(), Before.begin(), Before.end());
    Args.push_back("{\"" + Decl + "\", " + Value + "}");
    QualType C = V->getType().getCanonicalType();
    if ((C->isConstantArrayType() || C->isVariableArrayType()) &&
        !Explicit.count(V->getName().str()) && !DefaultPresent) {
      std::string Name = V->getName().str();
      bool Const = Ctx.getAsArrayType(C)->getElementType().isConstQualified();
      std::string Addr = Const ? "(void *)" + Name : Name;
      Entry.push_back(check("jacc_copyin(" + Addr + ", sizeof " + Name + ")", P));
      Exit.insert(Exit.begin(), check(std::string(Const ? "jacc_delete" : "jacc_copyout") + "(" +
                                          Addr + ", sizeof " + Name + ")",
                                      P));
    }
  }

  // The kernel: leading declarations, the construct's pragma without the clauses handled here,
  // then the statement as written (inner loop, atomic and cache pragmas included).
  std::string Body = "#pragma acc " + std::string(directiveKindName(D.Kind)) + Kept + "\n" +
                     Buf.slice(P.LineEnd, R.End).str() + "\n";
  std::string Kernel = leadingDecls(N, Body) + Body;
  if (!Ok || !Errors.empty())
    return;

  std::string I = P.Indent, I2 = P.Indent + "  ";
  std::string Code = I + "{ /* #pragma acc " + D.Text + " */\n";
  std::string Else;
  if (!IfCond.empty()) {
    Code += I2 + "if (" + IfCond + ") {\n";
    // Not on the device: the statement runs on the host, as written.
    // Its inner pragmas become comments (cc would warn about them).
    std::string Host;
    unsigned At = P.LineEnd;
    for (const Pragma &Q : Pragmas)
      if (Q.Hash > P.Hash && Q.Hash < R.End) {
        Host += Buf.slice(At, Q.LineStart).str() + Q.Indent + "/* #pragma acc " + Q.Text + " */\n";
        At = Q.LineEnd;
      }
    Host += Buf.slice(At, R.End).str();
    Else = I2 + "} else {\n" + Host + "\n" + I2 + "}\n";
  }
  if (Wait)
    Code += I2 + check("jacc_wait()", P) + "\n";
  for (const std::string &E : Decls)
    Code += I2 + E + "\n";
  for (const std::string &E : Entry)
    Code += I2 + E + "\n";
  for (const std::string &T : Temps)
    Code += I2 + T + "\n";
  if (!Args.empty()) {
    Code += I2 + "jacc_arg jacc_args[] = {";
    for (size_t K = 0; K < Args.size(); ++K)
      Code += (K ? ", " : "") + Args[K];
    Code += "};\n";
  }
  Code += I2 + "jacc_translated_check(jacc_kernel_push(\n" + cString(Kernel, I2 + "    ") + ",\n";
  Code += I2 + "    " + std::to_string(Args.size()) + ", " + (Args.empty() ? "0" : "jacc_args") +
          ", " + (Async ? "JACC_ASYNC" : "JACC_DEFAULT") + "), " + where(P) + ");\n";
  for (const std::string &E : Exit)
    Code += I2 + E + "\n";
  Code += Else;
  Code += I + "}";
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), R.End - P.LineStart, Code);
}

void Translator::translateData(Region &R) {
  const Pragma &P = *R.P;
  std::vector<std::string> Decls, Entry;
  bool Ok = dataCalls(R, Decls, Entry, R.Exits);
  std::string Guard, Pre;
  for (const Clause &C : R.D.Clauses)
    switch (C.Kind) {
    case ClauseKind::Copy:
    case ClauseKind::Copyin:
    case ClauseKind::Copyout:
    case ClauseKind::Create:
    case ClauseKind::Present:
    case ClauseKind::NoCreate:
      break;
    case ClauseKind::Deviceptr:
      // No call: the compute constructs inside pass these pointers untranslated (translateCompute).
      for (const std::string &V : C.Vars) {
        VarDecl *Var = lookupVar(V, P.Hash);
        if (!Var || !Var->getType().getCanonicalType()->isPointerType()) {
          error(P, C, "'" + V + "' in clause 'deviceptr' must be a pointer variable (memory "
                      "from acc_malloc or acc_deviceptr)");
          Ok = false;
        }
      }
      break;
    case ClauseKind::If:
      Guard = "jacc_if_" + std::to_string(P.Line);
      Pre = P.Indent + "const int " + Guard + " = (" + C.Argument + ") != 0;\n";
      break;
    case ClauseKind::Wait:
      Pre += P.Indent + check("jacc_wait()", P) + "\n";
      break;
    default:
      error(P, C, "clause '" + C.Name + "' of '#pragma acc data' is not supported by "
                                         "jacc-translate");
      Ok = false;
    }
  if (!Ok)
    return;
  if (!Guard.empty()) {
    for (std::string &E : Entry)
      E = "if (" + Guard + ") " + E;
    for (std::string &E : R.Exits)
      E = "if (" + Guard + ") " + E;
  }
  std::string Code = P.Indent + "{ /* #pragma acc " + R.D.Text + " */\n" + Pre;
  for (const std::string &E : Decls)
    Code += P.Indent + E + "\n";
  for (const std::string &E : Entry)
    Code += P.Indent + E + "\n";
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Code);
}

/// The routine pragma becomes a comment: the routine's text travels in the kernels that call it.
/// A static routine that only kernels call is unused in the host code: say so to the compiler.
void Translator::translateRoutine(const Pragma &P, const Directive &D) {
  std::string Code = P.Indent + "/* #pragma acc " + D.Text + " */\n";
  auto It = Idx.Decls.upper_bound(P.EndTok);
  if (D.Argument.empty() && It != Idx.Decls.end())
    if (auto *F = dyn_cast<FunctionDecl>(It->second); F && F->getStorageClass() == SC_Static)
      Code += P.Indent + "__attribute__((unused))\n";
  if (!D.Argument.empty())
    // routine(name): the static definition, wherever it is, gets the attribute.
    for (FunctionDecl *G : Idx.Functions)
      if (G->getName() == D.Argument && G->isThisDeclarationADefinition() &&
          G->getStorageClass() == SC_Static)
        RW.InsertTextBefore(SM.getExpansionLoc(G->getBeginLoc()), "__attribute__((unused)) ");
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Code);
}

/// Exit calls at the end of a data region, and before every jump out of it.
void Translator::addExits(Region &R) {
  std::string Tail;
  for (const std::string &E : R.Exits)
    Tail += "\n" + R.P->Indent + E;
  RW.InsertTextAfter(SM.getComposedLoc(SM.getMainFileID(), R.End), Tail + "\n" + R.P->Indent + "}");
}

void Translator::translateStandalone(const Pragma &P, const Directive &D) {
  std::vector<std::string> Calls;
  std::string Guard;
  bool Ok = true, Finalize = D.has(ClauseKind::Finalize), IfPresent = D.has(ClauseKind::IfPresent);
  if (D.Kind == DirectiveKind::Wait) {
    // jacc has one queue per device: waiting for any async queue waits for all.
    Calls.push_back(check("jacc_wait()", P));
  }
  for (const Clause &C : D.Clauses) {
    const char *Fn = nullptr;
    switch (C.Kind) {
    case ClauseKind::If:
      Guard = C.Argument;
      continue;
    case ClauseKind::Async:      // done synchronously: a later wait has nothing left to wait for
    case ClauseKind::Finalize:
    case ClauseKind::IfPresent:
      continue;
    case ClauseKind::Wait:
      if (D.Kind != DirectiveKind::Wait)
        Calls.insert(Calls.begin(), check("jacc_wait()", P));
      continue;
    case ClauseKind::Copyin:
      Fn = D.Kind == DirectiveKind::EnterData ? "jacc_copyin" : nullptr;
      break;
    case ClauseKind::Create:
      Fn = D.Kind == DirectiveKind::EnterData ? "jacc_create" : nullptr;
      break;
    case ClauseKind::Copyout:
      Fn = D.Kind == DirectiveKind::ExitData ? "jacc_copyout" : nullptr;
      break;
    case ClauseKind::Delete:
      Fn = D.Kind == DirectiveKind::ExitData ? "jacc_delete" : nullptr;
      break;
    case ClauseKind::Self:
    case ClauseKind::Host:
      Fn = D.Kind == DirectiveKind::Update ? "jacc_update_self" : nullptr;
      break;
    case ClauseKind::Device:
      Fn = D.Kind == DirectiveKind::Update ? "jacc_update_device" : nullptr;
      break;
    default:
      break;
    }
    if (!Fn) {
      error(P, C, "clause '" + C.Name + "' of '#pragma acc " + directiveKindName(D.Kind) +
                      "' is not supported by jacc-translate");
      Ok = false;
      continue;
    }
    for (const std::string &Item : C.Vars) {
      auto S = section(Item, P, C);
      if (!S) {
        Ok = false;
        continue;
      }
      if (S->Scalar)
        continue; // scalars are passed to kernels by value: nothing to map or update
      std::string Call = check(std::string(Fn) + "(" + S->Addr + ", " + S->Bytes + ")", P);
      if (llvm::StringRef(Fn) == "jacc_copyout" && S->Const)
        Call = check("jacc_delete(" + S->Addr + ", " + S->Bytes + ")", P);
      std::string Present = "jacc_is_present(" + S->Addr + ", " + S->Bytes + ")";
      if (Finalize) // every reference goes: exit until the mapping is gone
        Call = "while (" + Present + ") " + Call;
      else if (IfPresent)
        Call = "if (" + Present + ") " + Call;
      Calls.push_back(Call);
    }
  }
  if (!Ok)
    return;
  std::string Code = P.Indent + "/* #pragma acc " + D.Text + " */\n";
  if (!Guard.empty()) {
    Code += P.Indent + "if (" + Guard + ") {\n";
    for (const std::string &C : Calls)
      Code += P.Indent + "  " + C + "\n";
    Code += P.Indent + "}\n";
  } else {
    for (const std::string &C : Calls)
      Code += P.Indent + C + "\n";
  }
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), P.LineEnd - P.LineStart,
                 Code);
}

/// Jumps (return, break, continue, goto) that leave the statement S.
void jumpsOut(Stmt *S, unsigned Begin, unsigned End, SourceManager &SM,
              int Loops, int Switches, std::vector<Stmt *> &Out) {
  if (!S)
    return;
  if (isa<ReturnStmt>(S) || (isa<BreakStmt>(S) && Loops == 0 && Switches == 0) ||
      (isa<ContinueStmt>(S) && Loops == 0))
    Out.push_back(S);
  if (auto *G = dyn_cast<GotoStmt>(S)) {
    SourceLocation L = SM.getExpansionLoc(G->getLabel()->getLocation());
    unsigned O = SM.getFileOffset(L);
    if (O < Begin || O >= End)
      Out.push_back(S);
  }
  bool Loop = isa<ForStmt, WhileStmt, DoStmt>(S), Switch = isa<SwitchStmt>(S);
  for (Stmt *C : S->children())
    jumpsOut(C, Begin, End, SM, Loops + Loop, Switches + Switch, Out);
}

std::string Translator::run() {
  Idx.TraverseDecl(Ctx.getTranslationUnitDecl());

  // Parse every directive; find the statement of each construct.
  for (const Pragma &P : Pragmas)
    if (!P.Problem.empty())
      error(P, P.Problem);
  if (!Errors.empty())
    return "";
  Dirs.clear();
  for (const Pragma &P : Pragmas) {
    auto D = parseDirective(P.Text, P.Line);
    if (!D) {
      std::string Msg = llvm::toString(D.takeError());
      unsigned Col = P.Column;
      llvm::StringRef M(Msg);
      // "line L, column C: problem": C counts in the directive text.
      if (M.consume_front("line ")) {
        size_t Comma = M.find(", column ");
        unsigned C = 0;
        if (Comma != llvm::StringRef::npos &&
            !M.drop_front(Comma + 9).take_while(llvm::isDigit).getAsInteger(10, C)) {
          Col = P.TextColumn + C - 1;
          M = M.drop_front(Comma + 9).drop_while(llvm::isDigit);
          M.consume_front(": ");
          Msg = M.str();
        }
      }
      error(P.Line, Col, Msg);
      Dirs.emplace_back();
      continue;
    }
    Dirs.emplace_back(std::move(*D));
  }
  if (!Errors.empty())
    return "";

  // Routines first: compute constructs carry the ones they call.
  for (size_t K = 0; K < Pragmas.size(); ++K) {
    const Pragma &P = Pragmas[K];
    const Directive &D = *Dirs[K];
    if (D.Kind != DirectiveKind::Routine)
      continue;
    FunctionDecl *F = nullptr;
    if (!D.Argument.empty()) {
      for (FunctionDecl *G : Idx.Functions)
        if (G->getName() == D.Argument)
          F = G;
    } else {
      auto It = Idx.Decls.upper_bound(P.EndTok);
      F = It == Idx.Decls.end() ? nullptr : dyn_cast<FunctionDecl>(It->second);
    }
    if (!F) {
      error(P, "'#pragma acc " + D.Text + "' must be followed by a function declaration or "
                                          "name a function");
      continue;
    }
    RoutineOf[F->getCanonicalDecl()] = &P;
    RoutineDir[F->getCanonicalDecl()] = D;
  }

  // Constructs with a statement.
  std::vector<std::pair<unsigned, unsigned>> ComputeRanges;
  for (size_t K = 0; K < Pragmas.size(); ++K) {
    const Pragma &P = Pragmas[K];
    const Directive &D = *Dirs[K];
    if (!D.isCompute() && D.Kind != DirectiveKind::Data)
      continue;
    bool Inside = llvm::any_of(ComputeRanges, [&](auto &Rg) {
      return P.Hash >= Rg.first && P.Hash < Rg.second;
    });
    if (Inside) {
      error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                   "' inside a compute construct is not supported");
      continue;
    }
    Region R;
    R.P = &P;
    R.D = D;
    R.S = statementAfter(P);
    if (!R.S) {
      error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                   "' must be followed by a statement");
      continue;
    }
    R.End = endOf(R.S);
    if (D.isCompute()) {
      ComputeRanges.push_back({P.Hash, R.End});
      Computes.push_back(std::move(R));
    } else {
      Datas.push_back(std::move(R));
    }
  }
  for (size_t K = 0; K < Pragmas.size(); ++K) {
    const Pragma &P = Pragmas[K];
    const Directive &D = *Dirs[K];
    bool Inside = llvm::any_of(ComputeRanges, [&](auto &Rg) {
      return P.Hash > Rg.first && P.Hash < Rg.second;
    });
    switch (D.Kind) {
    case DirectiveKind::Loop:
    case DirectiveKind::Atomic:
    case DirectiveKind::Cache:
      if (!Inside)
        error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                     "' outside a compute construct is not supported");
      break; // inside: part of the kernel's text
    case DirectiveKind::EnterData:
    case DirectiveKind::ExitData:
    case DirectiveKind::Update:
    case DirectiveKind::Wait:
      if (Inside)
        error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                     "' inside a compute construct is not supported");
      else
        translateStandalone(P, D);
      break;
    case DirectiveKind::Routine:
      if (Inside)
        error(P, "'#pragma acc routine' inside a compute construct");
      else
        translateRoutine(P, D);
      break;
    case DirectiveKind::HostData:
    case DirectiveKind::Declare:
    case DirectiveKind::Init:
    case DirectiveKind::Shutdown:
    case DirectiveKind::Set:
      error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                   "' is not supported by jacc-translate");
      break;
    default:
      break; // compute and data constructs: below
    }
  }
  for (Region &R : Computes)
    translateCompute(R);
  for (Region &R : Datas)
    translateData(R);
  if (!Errors.empty())
    return "";

  // Exits of data regions: at the end, innermost first, and before jumps that leave a region.
  std::map<Stmt *, std::vector<const Region *>> JumpExits;
  for (auto It = Datas.rbegin(); It != Datas.rend(); ++It) {
    addExits(*It);
    std::vector<Stmt *> Jumps;
    jumpsOut(It->S, Idx.offset(It->S->getBeginLoc()), It->End, SM, 0, 0, Jumps);
    for (Stmt *J : Jumps)
      JumpExits[J].push_back(&*It);
  }
  for (auto &[J, Regions] : JumpExits) {
    std::string Calls;
    for (const Region *R : Regions)
      for (const std::string &E : R->Exits)
        Calls += E + " ";
    if (Calls.empty())
      continue;
    RW.InsertTextBefore(SM.getExpansionLoc(J->getBeginLoc()), "{ " + Calls);
    RW.InsertTextAfter(SM.getComposedLoc(SM.getMainFileID(), endOf(J)), " }");
  }

  std::string Out;
  if (const RewriteBuffer *B = RW.getRewriteBufferFor(SM.getMainFileID()))
    Out.assign(B->begin(), B->end());
  else
    Out = Buf.str();
  return Out;
}

/// The helpers the translated code calls, at the top of every translated file.
constexpr const char *TranslatedPrelude = R"(#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* Added by jacc-translate: a failing jacc call ends the program with jacc's message, as a failing
   OpenACC directive would. */
static inline void jacc_translated_check(jacc_status status, const char *where) {
  if (status != JACC_SUCCESS) {
    fprintf(stderr, "%s: %s\n", where, jacc_last_error());
    exit(1);
  }
}
/* no_create: 1 when [p, p+bytes) was absent and is now mapped for the construct (copied in;
   the construct's end copies it back). */
static inline int jacc_translated_no_create(void *p, size_t bytes, const char *where) {
  if (!p || !bytes || jacc_is_present(p, bytes))
    return 0;
  jacc_translated_check(jacc_copyin(p, bytes), where);
  return 1;
}
static inline void jacc_translated_present(const void *p, size_t bytes, const char *where,
                                           const char *what) {
  if (!jacc_is_present(p, bytes)) {
    fprintf(stderr, "%s: '%s' in clause 'present' is not present on the devices\n", where, what);
    exit(1);
  }
}
)";

/// Apply the cc preprocessor options jaccc passes on.
llvm::Error applyExtraArgs(CompilerInstance &CI, llvm::ArrayRef<std::string> Args) {
  auto &HS = CI.getHeaderSearchOpts();
  auto &PPO = CI.getPreprocessorOpts();
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    auto Value = [&](llvm::StringRef Flag) -> std::optional<std::string> {
      if (!A.startswith(Flag))
        return std::nullopt;
      if (A.size() > Flag.size())
        return A.drop_front(Flag.size()).str();
      if (I + 1 < Args.size())
        return Args[++I];
      return std::nullopt;
    };
    if (A.startswith("-std="))
      continue;
    if (auto V = Value("-isystem"))
      HS.AddPath(*V, frontend::System, false, true);
    else if (auto V = Value("-iquote"))
      HS.AddPath(*V, frontend::Quoted, false, true);
    else if (auto V = Value("-include"))
      PPO.Includes.push_back(*V);
    else if (auto V = Value("-I"))
      HS.AddPath(*V, frontend::Angled, false, true);
    else if (auto V = Value("-D"))
      PPO.addMacroDef(*V);
    else if (auto V = Value("-U"))
      PPO.addMacroUndef(*V);
    else
      return makeError(ErrorCode::InvalidArgument,
                       "jacc-translate: unsupported compiler option '" + A +
                           "' (accepted: -I, -iquote, -isystem, -include, -D, -U, -std=)");
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::string> translateOpenACC(llvm::StringRef Source, llvm::StringRef FileName,
                                             llvm::ArrayRef<std::string> ExtraArgs) {
  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  std::string Name = FileName.str(); // NUL-terminated for the compiler's argv
  auto CI = makeCompilerInstance(ClangPurpose::Analysis, Source, Name, DiagOS);
  if (!CI)
    return CI.takeError();
  // `#include "x.h"` is looked up next to the file, as cc does (the file itself is in memory).
  llvm::StringRef Dir = llvm::sys::path::parent_path(FileName);
  (*CI)->getHeaderSearchOpts().AddPath(Dir.empty() ? "." : Dir, frontend::Quoted, false, true);
  if (auto E = applyExtraArgs(**CI, ExtraArgs))
    return E;
  std::string Out;
  std::vector<std::string> Errors;
  AccParseAction Action([&](ASTContext &Ctx, Preprocessor &PP, const std::vector<AccPragma> &Read) {
    std::vector<Pragma> Pragmas;
    for (const AccPragma &A : Read)
      Pragmas.push_back(locatePragma(A, Ctx.getSourceManager(), Ctx.getLangOpts()));
    Translator T(Ctx, PP, Pragmas, Name);
    Out = T.run();
    Errors = std::move(T.Errors);
  });
  bool Ran = (*CI)->ExecuteAction(Action);
  if (!Ran || (*CI)->getDiagnostics().hasErrorOccurred())
    return makeError(ErrorCode::Compile, llvm::StringRef(DiagOS.str()).rtrim());
  if (!Errors.empty())
    return makeError(ErrorCode::Unsupported, llvm::join(Errors, "\n"));
  return TranslatedPrelude + Out;
}

} // namespace jacc::analysis
