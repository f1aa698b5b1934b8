// The `#pragma acc` reader and the parse action built on it (AccPragma.h).
#include "analysis/AccPragma.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/Pragma.h>
#include <clang/Lex/Preprocessor.h>

using namespace clang;

namespace jacc::analysis {
namespace {

/// Records each `#pragma acc` with its locations and its tokens' spelling.
class AccPragmaReader : public PragmaHandler {
public:
  explicit AccPragmaReader(std::vector<AccPragma> &Out) : PragmaHandler("acc"), Out(Out) {}
  void HandlePragma(Preprocessor &PP, PragmaIntroducer Intro, Token &) override {
    SourceManager &SM = PP.getSourceManager();
    AccPragma P;
    P.Loc = SM.getExpansionLoc(Intro.Loc);
    P.Last = P.Loc;
    P.HashForm = Intro.Kind == PIK_HashPragma;
    Token Tok;
    PP.Lex(Tok);
    while (Tok.isNot(tok::eod)) {
      if (P.Text.empty())
        P.TextColumn = SM.getPresumedColumnNumber(SM.getExpansionLoc(Tok.getLocation()));
      else if (Tok.hasLeadingSpace())
        P.Text += ' ';
      P.Text += PP.getSpelling(Tok);
      P.Last = SM.getExpansionLoc(Tok.getLocation());
      PP.Lex(Tok);
    }
    Out.push_back(std::move(P));
  }

private:
  std::vector<AccPragma> &Out;
};

class AccParseConsumer : public ASTConsumer {
public:
  AccParseConsumer(Preprocessor &PP, const std::vector<AccPragma> &Pragmas,
                   const AccParseAction::Callback &OnParsed)
      : PP(PP), Pragmas(Pragmas), OnParsed(OnParsed) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Ctx.getDiagnostics().hasErrorOccurred())
      OnParsed(Ctx, PP, Pragmas);
  }

private:
  Preprocessor &PP;
  const std::vector<AccPragma> &Pragmas;
  const AccParseAction::Callback &OnParsed;
};

} // namespace

std::unique_ptr<ASTConsumer> AccParseAction::CreateASTConsumer(CompilerInstance &CI,
                                                               llvm::StringRef) {
  CI.getPreprocessor().AddPragmaHandler(new AccPragmaReader(Pragmas));
  return std::make_unique<AccParseConsumer>(CI.getPreprocessor(), Pragmas, OnParsed);
}

} // namespace jacc::analysis
