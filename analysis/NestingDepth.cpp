// The nesting limit of kernel code (see NestingDepth.h).
#include "analysis/NestingDepth.h"

#include <clang/AST/Stmt.h>
#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>

#include <utility>
#include <vector>

namespace jacc::analysis {

const clang::Stmt *findTooDeeplyNested(const clang::Stmt *Root, unsigned Limit) {
  std::vector<std::pair<const clang::Stmt *, unsigned>> Work;
  if (Root)
    Work.emplace_back(Root, 0);
  while (!Work.empty()) {
    auto [S, Depth] = Work.back();
    Work.pop_back();
    if (Depth > Limit)
      return S;
    for (const clang::Stmt *Child : S->children())
      if (Child)
        Work.emplace_back(Child, Depth + 1);
  }
  return nullptr;
}

/// Whether T may start an operand's prefix: a unary operator, `sizeof`, or an opening parenthesis.
static bool isPrefixToken(const clang::Token &T) {
  switch (T.getKind()) {
  case clang::tok::plus:
  case clang::tok::minus:
  case clang::tok::exclaim:
  case clang::tok::tilde:
  case clang::tok::star:
  case clang::tok::amp:
  case clang::tok::plusplus:
  case clang::tok::minusminus:
  case clang::tok::l_paren:
    return true;
  case clang::tok::raw_identifier:
    return T.getRawIdentifier() == "sizeof";
  default:
    return false;
  }
}

std::optional<unsigned> findLongPrefixRun(llvm::StringRef Source, unsigned Limit) {
  clang::LangOptions Opts;
  clang::Lexer L(clang::SourceLocation(), Opts, Source.begin(), Source.begin(), Source.end());
  clang::Token T;
  unsigned Run = 0;
  bool InCast = false; // after '(': identifiers and '*' up to ')' make a cast, part of the run
  for (L.LexFromRawLexer(T); !T.is(clang::tok::eof); L.LexFromRawLexer(T)) {
    bool Continues = isPrefixToken(T);
    if (InCast && (T.is(clang::tok::raw_identifier) || T.is(clang::tok::star) ||
                   T.is(clang::tok::r_paren)))
      Continues = true;
    InCast = T.is(clang::tok::l_paren) || (InCast && !T.is(clang::tok::r_paren) && Continues);
    Run = Continues ? Run + 1 : 0;
    if (Run > Limit)
      return unsigned(L.getBufferLocation() - Source.begin()) - T.getLength();
  }
  return std::nullopt;
}

} // namespace jacc::analysis
