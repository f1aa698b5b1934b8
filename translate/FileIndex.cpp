// Locating the main file's pragmas, statements, declarations and variables (FileIndex.h).
#include "translate/FileIndex.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

using namespace clang;

namespace jacc::translate {

/// The pragma as the translator locates it in the main file (Problem set when it is not there, or
/// not written as #pragma).
Pragma locatePragma(const analysis::AccPragma &A, SourceManager &SM, const LangOptions &LangOpts) {
  SourceLocation Loc = A.Loc;
  Pragma P;
  P.Text = A.Text;
  P.TextColumn = A.TextColumn;
  P.Loc = Loc;
  P.Included = A.HashForm && !SM.isInMainFile(Loc) && !SM.isInSystemHeader(Loc);
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

FileIndex::FileIndex(SourceManager &SM, const LangOptions &LangOpts)
    : SM(SM), LangOpts(LangOpts), Buf(SM.getBufferData(SM.getMainFileID())) {}

/// The walk that fills a FileIndex: its hooks are the index's.
struct IndexWalk : RecursiveASTVisitor<IndexWalk> {
  FileIndex &I;
  explicit IndexWalk(FileIndex &I) : I(I) {}
  bool TraverseStmt(Stmt *S) {
    if (!S)
      return true;
    bool Scope = isa<CompoundStmt, ForStmt, IfStmt, WhileStmt, SwitchStmt, DoStmt>(S);
    if (Scope)
      I.Scopes.push_back({I.offset(S->getBeginLoc()), I.offset(S->getEndLoc()) + 1});
    // A sub-expression never starts a statement; and finding where one begins walks down its
    // operands, so indexing every one would take time quadratic in a long expression.
    bool WasInExpr = I.InExpr;
    I.IndexCurrent = !(WasInExpr && isa<Expr>(S));
    I.InExpr = isa<Expr>(S);
    bool R = RecursiveASTVisitor::TraverseStmt(S);
    I.InExpr = WasInExpr;
    if (Scope)
      I.Scopes.pop_back();
    return R;
  }
  bool VisitStmt(Stmt *S) { return I.VisitStmt(S); }
  bool VisitDecl(Decl *D) { return I.VisitDecl(D); }
  bool VisitFunctionDecl(FunctionDecl *F) { return I.VisitFunctionDecl(F); }
  bool VisitVarDecl(VarDecl *V) { return I.VisitVarDecl(V); }
};

void FileIndex::index(TranslationUnitDecl *TU) {
  IndexWalk(*this).TraverseDecl(TU);
}

bool FileIndex::VisitStmt(Stmt *S) {
  if (!IndexCurrent)
    return true;
  SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
  if (SM.isInMainFile(L))
    Starts.emplace(SM.getFileOffset(L), S); // pre-order: the first is the outermost
  return true;
}

bool FileIndex::VisitDecl(Decl *D) {
  SourceLocation L = SM.getExpansionLoc(D->getBeginLoc());
  if (SM.isInMainFile(L) && !isa<TranslationUnitDecl>(D))
    Decls.emplace(SM.getFileOffset(L), D);
  return true;
}

bool FileIndex::VisitFunctionDecl(FunctionDecl *F) {
  Functions.push_back(F);
  return true;
}

bool FileIndex::VisitVarDecl(VarDecl *V) {
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
  if (V->isFileVarDecl() && Main && V->getInit()) {
    const Expr *Init = V->getInit()->IgnoreImplicit();
    if (const auto *C = dyn_cast<CXXConstructExpr>(Init); C && C->getNumArgs() == 1)
      Init = C->getArg(0)->IgnoreImplicit(); // the closure copied or moved
    if (auto *L = const_cast<LambdaExpr *>(dyn_cast<LambdaExpr>(Init));
        L && L->capture_size() == 0 && L->getCaptureDefault() == LCD_None) {
      LambdaRoutines[L->getCallOperator()] = {V, L};
      Functions.push_back(L->getCallOperator());
    }
  }
  if (V->isLocalVarDecl() && !Scopes.empty())
    Vars.push_back({V, Off, Scopes.back().first, Scopes.back().second});
  else if (V->isFileVarDecl())
    Vars.push_back({V, Off, 0, ~0u});
  return true;
}

FunctionDecl *FileIndex::lambdaOf(const VarDecl *V) const {
  for (auto &[F, L] : LambdaRoutines)
    if (L.Var == V)
      return const_cast<FunctionDecl *>(F);
  return nullptr;
}

unsigned FileIndex::offset(SourceLocation L) const {
  L = SM.getExpansionLoc(L);
  return SM.isInMainFile(L) ? SM.getFileOffset(L) : 0;
}

unsigned FileIndex::endOf(Stmt *S) const {
  SourceLocation E = SM.getExpansionRange(S->getEndLoc()).getEnd();
  unsigned Off = SM.getFileOffset(E) + Lexer::MeasureTokenLength(E, SM, LangOpts);
  llvm::StringRef Last = Buf.slice(SM.getFileOffset(E), Off);
  if (Last != "}" && Last != ";") {
    // An expression statement ends at its expression; its ';' follows.
    size_t Semi = Buf.find_first_not_of(" \t\r\n", Off);
    if (Semi != llvm::StringRef::npos && Buf[Semi] == ';')
      Off = Semi + 1;
  }
  return Off;
}

Stmt *FileIndex::statementAfter(const Pragma &P) const {
  auto It = Starts.upper_bound(P.EndTok);
  if (It == Starts.end())
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

VarDecl *FileIndex::lookupVar(llvm::StringRef Name, unsigned Offset) const {
  VarDecl *Best = nullptr;
  unsigned BestOff = 0;
  for (const VarScope &V : Vars) {
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

} // namespace jacc::translate
