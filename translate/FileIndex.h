// The main file's `#pragma acc` lines, statements, declarations and variables by offset.
#ifndef JACC_TRANSLATE_FILEINDEX_H
#define JACC_TRANSLATE_FILEINDEX_H

#include "analysis/AccPragma.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace jacc::translate {

/// D's name when it is an identifier; "" for C++'s other names (operators, constructors,
/// conversions), which NamedDecl::getName may not be asked for.
inline llvm::StringRef identifierOf(const clang::NamedDecl *D) {
  return D->getDeclName().isIdentifier() ? D->getName() : llvm::StringRef();
}

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
  /// In a header the main file includes (not a system one): its text is not rewritten, and only
  /// `routine`, a file-scope `declare` and the loops of a routine's body are taken from there.
  bool Included = false;
  clang::SourceLocation Loc; ///< its '#' (a file location), wherever it is
};

/// The pragma as the translator locates it in the main file (Problem set when it is not there, or
/// not written as #pragma).
Pragma locatePragma(const analysis::AccPragma &A, clang::SourceManager &SM,
                    const clang::LangOptions &LangOpts);

/// Statements by start offset, variables with their scopes, functions, in the main file.
class FileIndex {
public:
  FileIndex(clang::SourceManager &SM, const clang::LangOptions &LangOpts);

  struct VarScope {
    clang::VarDecl *V;
    unsigned DeclOffset, ScopeBegin, ScopeEnd;
  };

  std::map<unsigned, clang::Stmt *> Starts; ///< outermost statement per start offset
  std::map<unsigned, clang::Decl *> Decls;  ///< top-level or local declarations per start offset
  std::vector<VarScope> Vars;
  std::vector<clang::FunctionDecl *> Functions; ///< lambdas' call operators of LambdaRoutines too
  /// A lambda without captures that initialises a variable of the main file's namespace scope
  /// (`auto f = [](double x) { ... };`): a function kernels call by the variable's name.
  struct LambdaRoutine {
    clang::VarDecl *Var;
    clang::LambdaExpr *Lambda;
  };
  std::map<const clang::FunctionDecl *, LambdaRoutine> LambdaRoutines; ///< by call operator
  /// The call operator of the lambda variable V holds (LambdaRoutines), or null.
  clang::FunctionDecl *lambdaOf(const clang::VarDecl *V) const;
  /// The name kernels call function F by: its identifier, or for a lambda a variable holds
  /// (LambdaRoutines) the variable's; "" for operators and constructors.
  std::string routineName(const clang::FunctionDecl *F) const {
    auto L = LambdaRoutines.find(F);
    return (L != LambdaRoutines.end() ? L->second.Var->getName() : identifierOf(F)).str();
  }

  /// Indexes the main file's part of the translation unit TU.
  void index(clang::TranslationUnitDecl *TU);

  /// The main file offset of L's expansion (0 outside the main file).
  unsigned offset(clang::SourceLocation L) const;
  /// The offset after the statement (its ';' or '}' included).
  unsigned endOf(clang::Stmt *S) const;
  /// The statement P applies to: the next one, with only blank lines, comments or other pragmas
  /// in between; null if none.
  clang::Stmt *statementAfter(const Pragma &P) const;
  /// The variable Name names at Offset (the innermost declaration in scope), or null.
  clang::VarDecl *lookupVar(llvm::StringRef Name, unsigned Offset) const;

private:
  friend struct IndexWalk;
  bool VisitStmt(clang::Stmt *S);
  bool VisitDecl(clang::Decl *D);
  bool VisitFunctionDecl(clang::FunctionDecl *F);
  bool VisitVarDecl(clang::VarDecl *V);

  clang::SourceManager &SM;
  const clang::LangOptions &LangOpts;
  llvm::StringRef Buf; ///< the main file's text
  std::vector<std::pair<unsigned, unsigned>> Scopes;
  bool InExpr = false;      ///< the statement traversed is inside an expression
  bool IndexCurrent = true; ///< the statement about to be visited goes into Starts
};

} // namespace jacc::translate

#endif
