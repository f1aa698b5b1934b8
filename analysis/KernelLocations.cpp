// From the parsed kernel wrapper back to the kernel source (KernelLocations.h).
#include "analysis/KernelLocations.h"

#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

using namespace clang;

namespace jacc::analysis {

std::optional<unsigned> KernelLocations::kernelOffset(SourceLocation L) const {
  if (!L.isFileID() || !SM.isInMainFile(L))
    return std::nullopt;
  unsigned O = SM.getFileOffset(L);
  if (O >= W.ConstructBegin)
    return O - W.ConstructBegin + W.ConstructOffset;
  if (O >= W.LeadingBegin && O - W.LeadingBegin < W.ConstructOffset)
    return O - W.LeadingBegin;
  return std::nullopt;
}

unsigned KernelLocations::beginOf(const Stmt *S) const {
  return toSource(SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc())));
}

unsigned KernelLocations::endOf(const Stmt *S) const {
  SourceLocation E = SM.getExpansionRange(S->getEndLoc()).getEnd();
  SourceLocation After = Lexer::getLocForEndOfToken(E, 0, SM, Ctx.getLangOpts());
  llvm::StringRef Last =
      Lexer::getSourceText(CharSourceRange::getTokenRange(E), SM, Ctx.getLangOpts());
  if (Last != "}" && Last != ";") {
    std::optional<Token> Next = Lexer::findNextToken(E, SM, Ctx.getLangOpts());
    if (Next && Next->is(tok::semi))
      After = Next->getEndLoc();
  }
  return toSource(SM.getFileOffset(After));
}

SourceSpan KernelLocations::span(SourceRange R) const {
  CharSourceRange CR = SM.getExpansionRange(R);
  SourceLocation E = Lexer::getLocForEndOfToken(CR.getEnd(), 0, SM, Ctx.getLangOpts());
  return {toSource(SM.getFileOffset(CR.getBegin())), toSource(SM.getFileOffset(E))};
}

std::optional<SourceSpan> KernelLocations::exactSpan(SourceRange R) const {
  CharSourceRange CR =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, Ctx.getLangOpts());
  if (CR.isInvalid())
    return std::nullopt;
  std::optional<unsigned> B = kernelOffset(CR.getBegin()), E = kernelOffset(CR.getEnd());
  if (!B || !E || *E < *B)
    return std::nullopt;
  return SourceSpan{*B, *E};
}

std::string KernelLocations::text(const Expr *E) const {
  CharSourceRange R = SM.getExpansionRange(E->getSourceRange());
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

unsigned KernelLocations::lineOf(const Stmt *S) const {
  return SM.getPresumedLoc(S->getBeginLoc()).getLine();
}

llvm::Error KernelLocations::errorAt(ErrorCode Code, const Stmt *S, const llvm::Twine &Msg) const {
  PresumedLoc P = SM.getPresumedLoc(S->getBeginLoc());
  return makeError(Code, "kernel:" + llvm::Twine(P.getLine()) + ":" + llvm::Twine(P.getColumn()) +
                             ": " + Msg);
}

} // namespace jacc::analysis
