// Reading `#pragma acc` through clang's preprocessor (clang 16 has no OpenACC of its own), and the
// parse action that hands the pragmas, with the AST, to the kernel frontend and the translator.
#ifndef JACC_ANALYSIS_ACCPRAGMA_H
#define JACC_ANALYSIS_ACCPRAGMA_H

#include <clang/Basic/SourceLocation.h>
#include <clang/Frontend/FrontendAction.h>

#include <functional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace jacc::analysis {

/// One `#pragma acc` as the preprocessor saw it.
struct AccPragma {
  clang::SourceLocation Loc;  ///< its '#' (or `_Pragma`), as an expansion (file) location
  clang::SourceLocation Last; ///< expansion location of its last token (Loc when it has none)
  unsigned TextColumn = 0;    ///< presumed column of the first token after "acc" (0: none)
  bool HashForm = true;       ///< written `#pragma`, not `_Pragma("...")`
  std::string Text; ///< the tokens after "acc", macros expanded, one space where the source had any
};

/// Parses a file and records its `#pragma acc`s; once the AST is complete and no error was
/// reported, OnParsed gets it with the preprocessor and the pragmas in source order.
class AccParseAction : public clang::ASTFrontendAction {
public:
  using Callback = std::function<void(clang::ASTContext &, clang::Preprocessor &,
                                      const std::vector<AccPragma> &)>;
  explicit AccParseAction(Callback OnParsed) : OnParsed(std::move(OnParsed)) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &CI,
                                                        llvm::StringRef InFile) override;

private:
  Callback OnParsed;
  std::vector<AccPragma> Pragmas;
};

} // namespace jacc::analysis

#endif
