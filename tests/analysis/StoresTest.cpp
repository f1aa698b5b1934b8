// Tests of the store scans: the targets of a statement's stores in order, the calls that may
// write, and what a region statement writes (memory, or scalars declared outside it).
#include "analysis/Stores.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Tooling.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace jacc::analysis;
using namespace clang;

namespace {

using Strings = std::vector<std::string>;

/// A C function `f` parsed with the declarations before it; its body's statements.
class Parsed {
public:
  explicit Parsed(const std::string &Code) {
    AST = tooling::buildASTFromCodeWithArgs(Code, {"-xc", "-std=c99"}, "t.c");
    for (Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (auto *F = dyn_cast<FunctionDecl>(D); F && F->getName() == "f" && F->hasBody())
        Body = cast<CompoundStmt>(F->getBody());
  }
  Stmt *stmt(unsigned I) const { return Body->body_begin()[I]; }
  Stmt *body() const { return Body; }
  std::string text(const Expr *E) const {
    ASTContext &Ctx = AST->getASTContext();
    return Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()),
                                Ctx.getSourceManager(), Ctx.getLangOpts())
        .str();
  }
  /// Statement I, a call.
  const CallExpr *call(unsigned I) const { return cast<CallExpr>(stmt(I)); }

private:
  std::unique_ptr<ASTUnit> AST;
  CompoundStmt *Body = nullptr;
};

Strings stores(const Parsed &P, Stmt *S, bool AddressTaken = false) {
  Strings Out;
  forEachStore(S, [&](Expr *T) { Out.push_back(P.text(T)); }, AddressTaken);
  return Out;
}

TEST(StoresTest, TargetsInSourceOrder) {
  Parsed P("void f(int *a, int n) { int t = 0; a[n] = t++; n += --a[0]; (void)&t; t = n; }");
  ASSERT_TRUE(P.body());
  EXPECT_EQ(stores(P, P.body()), (Strings{"a[n]", "t", "n", "a[0]", "t"}));
  // Address taking counts only when asked (the translator's view of a construct).
  EXPECT_EQ(stores(P, P.stmt(3), /*AddressTaken=*/true), Strings{"t"});
  EXPECT_EQ(stores(P, P.stmt(3)), Strings{});
  // Comparisons and declarations with an initialiser store nothing.
  Parsed Q("void f(int n) { int m = n; (void)(m == n); }");
  EXPECT_EQ(stores(Q, Q.body()), Strings{});
}

TEST(StoresTest, CallsThatMayWrite) {
  Parsed P("void r(const double *p, int n);\n"
           "void w(double *p);\n"
           "void f(double *a, void (*g)(void)) { r(a, 1); w(a); g(); }");
  ASSERT_TRUE(P.body());
  EXPECT_FALSE(callMayWrite(P.call(0))) << "pointers to const only";
  EXPECT_TRUE(callMayWrite(P.call(1))) << "a pointer to non-const";
  EXPECT_TRUE(callMayWrite(P.call(2))) << "an indirect call";
}

TEST(StoresTest, EffectsOfAStatement) {
  Parsed P("struct pt { int x; };\n"
           "void w(int *p);\n"
           "void f(int *a, int s, struct pt q) {\n"
           "  { int t = 0; t += 1; int l[4]; l[1] = t; }\n" // locals only
           "  s = 2;\n"                                     // an outer scalar
           "  q.x = 1;\n"                                   // a member of an outer scalar
           "  a[0] = 1;\n"                                  // memory
           "  { int t; a[1] = t = 3; }\n"                   // memory, a local
           "  w(&s);\n"                                     // a call that may write
           "}");
  ASSERT_TRUE(P.body());
  auto Effects = [&](unsigned I) {
    StmtEffects E = effectsOf(P.stmt(I));
    return std::make_pair(E.WritesMemory, E.WritesOuterScalar);
  };
  EXPECT_EQ(Effects(0), std::make_pair(false, false));
  EXPECT_EQ(Effects(1), std::make_pair(false, true));
  EXPECT_EQ(Effects(2), std::make_pair(false, true));
  EXPECT_EQ(Effects(3), std::make_pair(true, false));
  EXPECT_EQ(Effects(4), std::make_pair(true, false));
  EXPECT_EQ(Effects(5), std::make_pair(true, false));
}

} // namespace
