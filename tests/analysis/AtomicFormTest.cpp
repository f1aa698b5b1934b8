// Tests of the atomic statement's forms (OpenACC 3.3 §2.12): each expression form of read, write,
// update and capture, each structured capture block, and the errors naming the allowed forms.
#include "analysis/AtomicForm.h"

#include "FrontendCheck.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc::analysis;
using namespace jacc::analysis::test;

namespace {

const Strings Decls = {"int n", "int *h", "double *d", "int *c"};

/// The one atomic of a loop whose body is Body.
struct Described {
  KernelInfo K;
  AtomicOp A;
  std::string text(SourceSpan S) const { return K.Source.substr(S.Begin, S.End - S.Begin); }
};

std::string kernelWith(const std::string &Directive, const std::string &Body) {
  return "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) {\n  int v = 0; double w = 0;\n"
         "  #pragma acc " +
         Directive + "\n  " + Body + "\n  c[i] = v + (int)w + h[n] + (int)d[n];\n}\n";
}

Described describe(const std::string &Directive, const std::string &Body) {
  Described D;
  D.K = analyze(kernelWith(Directive, Body), Decls);
  EXPECT_EQ(D.K.Atomics.size(), 1u) << Body;
  if (!D.K.Atomics.empty())
    D.A = D.K.Atomics[0];
  return D;
}

TEST(AtomicFormTest, UpdateForms) {
  Described D = describe("atomic update", "h[i % 4] = h[i % 4] << 2;");
  EXPECT_EQ(D.A.Kind, AtomicOp::Form::Update);
  EXPECT_EQ(D.text(D.A.X), "h[i % 4]");
  EXPECT_EQ(D.A.Op, "<<");
  EXPECT_TRUE(D.A.OldOnLeft);
  EXPECT_EQ(D.text(D.A.Operand), "2");
  D = describe("atomic", "d[0] = (w + 1) / d[0];");
  EXPECT_EQ(D.A.Op, "/");
  EXPECT_FALSE(D.A.OldOnLeft);
  EXPECT_EQ(D.text(D.A.Operand), "(w + 1)");
  D = describe("atomic update", "h[1] ^= i;");
  EXPECT_EQ(D.A.Op, "^");
  EXPECT_FALSE(D.A.IntegerAdd);
  D = describe("atomic", "--h[2];");
  EXPECT_EQ(D.A.How, AtomicOp::Change::Decrement);
  EXPECT_TRUE(D.A.IntegerAdd);
}

TEST(AtomicFormTest, ReadWriteAndExpressionCaptures) {
  Described D = describe("atomic read", "v = h[i];");
  EXPECT_EQ(D.A.Kind, AtomicOp::Form::Read);
  EXPECT_EQ(D.text(D.A.V), "v");
  D = describe("atomic write", "d[1] = w * 2;");
  EXPECT_EQ(D.A.Kind, AtomicOp::Form::Write);
  EXPECT_EQ(D.text(D.A.Operand), "w * 2");
  D = describe("atomic capture", "v = (h[0])++;");
  EXPECT_EQ(D.A.Kind, AtomicOp::Form::Capture);
  EXPECT_EQ(D.text(D.A.X), "h[0]");
  EXPECT_TRUE(D.A.Post);
  D = describe("atomic capture", "w = d[0] = 3.0 - d[0];");
  EXPECT_EQ(D.text(D.A.V), "w");
  EXPECT_EQ(D.A.Op, "-");
  EXPECT_FALSE(D.A.OldOnLeft);
  EXPECT_FALSE(D.A.Post);
  EXPECT_FALSE(D.A.Block);
}

TEST(AtomicFormTest, StructuredCapturesOfTheOldValue) {
  for (const char *Body :
       {"{ v = h[i % 3]; h[i % 3] += i; }", "{ v = h[i % 3]; h[i % 3]++; }",
        "{ v = h[i % 3]; --h[i % 3]; }", "{ v = (h[i % 3]); (h[i % 3])--; }", "{ v = h[i % 3]; h[i % 3] = h[i % 3] & i; }",
        "{ v = h[i % 3]; h[i % 3] = i | h[i % 3]; }"}) {
    Described D = describe("atomic capture", Body);
    EXPECT_EQ(D.A.Kind, AtomicOp::Form::Capture) << Body;
    EXPECT_TRUE(D.A.Block) << Body;
    EXPECT_TRUE(D.A.Post) << Body;
    EXPECT_EQ(D.text(D.A.V), "v") << Body;
    EXPECT_EQ(D.text(D.A.X), "h[i % 3]") << Body;
    EXPECT_EQ(D.K.Source.substr(D.A.Begin, D.A.End - D.A.Begin), Body);
  }
}

TEST(AtomicFormTest, StructuredCapturesOfTheNewValue) {
  for (const char *Body :
       {"{ d[i % 3] *= w; w = d[i % 3]; }", "{ ++d[0]; w = d[0]; }", "{ d[1]--; w = d[1]; }",
        "{ d[2] = d[2] - 1.5; w = d[2]; }", "{ d[2] = 1.5 / d[2]; w = d[2]; }"}) {
    Described D = describe("atomic capture", Body);
    EXPECT_TRUE(D.A.Block) << Body;
    EXPECT_FALSE(D.A.Post) << Body;
    EXPECT_EQ(D.text(D.A.V), "w") << Body;
  }
}

TEST(AtomicFormTest, StructuredCaptureWithWriteSwaps) {
  Described D = describe("atomic capture", "{ c[i] = h[i]; h[i] = n - i; }");
  EXPECT_EQ(D.A.How, AtomicOp::Change::Replace);
  EXPECT_TRUE(D.A.Post);
  EXPECT_EQ(D.text(D.A.V), "c[i]");
  EXPECT_EQ(D.text(D.A.X), "h[i]");
  EXPECT_EQ(D.text(D.A.Operand), "n - i");
}

// Max and min, which binop lacks (C's MAX and MIN idioms, Fortran's max and min): a conditional
// choosing between x and e by comparing them, in any order, or fmax/fmin of a floating x.
TEST(AtomicFormTest, MaxAndMinUpdates) {
  struct Form {
    const char *Body, *X, *Op, *Operand;
  };
  for (Form F : {Form{"h[0] = h[0] < i ? i : h[0];", "h[0]", "max", "i"},
                 Form{"h[0] = (h[0] >= i + 1) ? h[0] : i + 1;", "h[0]", "max", "i + 1"},
                 Form{"h[1] = i > h[1] ? h[1] : i;", "h[1]", "min", "i"},
                 Form{"h[1] = h[1] <= n ? h[1] : n;", "h[1]", "min", "n"},
                 Form{"d[0] = fmax(d[0], w);", "d[0]", "max", "w"},
                 Form{"d[i % 2] = fmin(w * 2, d[i % 2]);", "d[i % 2]", "min", "w * 2"}}) {
    Described D = describe("atomic update", F.Body);
    EXPECT_EQ(D.A.How, AtomicOp::Change::Operator) << F.Body;
    EXPECT_EQ(D.text(D.A.X), F.X) << F.Body;
    EXPECT_EQ(D.A.Op, F.Op) << F.Body;
    EXPECT_EQ(D.text(D.A.Operand), F.Operand) << F.Body;
    EXPECT_FALSE(D.A.IntegerAdd) << F.Body;
  }
  Described D = describe("atomic capture", "{ h[2] = h[2] > i ? h[2] : i; v = h[2]; }");
  EXPECT_EQ(D.A.Op, "max");
  EXPECT_FALSE(D.A.Post);
  D = describe("atomic capture", "{ w = d[1]; d[1] = fmin(d[1], 1.5); }");
  EXPECT_EQ(D.A.Op, "min");
  EXPECT_TRUE(D.A.Post);
}

TEST(AtomicFormTest, BadFormsNameTheAllowedOnes) {
  const std::string Binop = "(binop is one of +, *, -, /, &, ^, |, <<, >>; max and min as x > e "
                            "? x : e, x < e ? x : e or fmax/fmin(x, e)); ";
  std::string Capture = "an atomic capture must be v = x++, v = --x, v = x binop= expr, "
                        "v = x = x binop expr, or a block {v = x; x binop= expr;}, "
                        "{x binop= expr; v = x;}, {v = x; x = expr;}, {v = x; x++;}...";
  EXPECT_FAILURE(kernelWith("atomic capture", "{ v = h[0]; h[1] += 2; }"), Decls,
                 jacc::ErrorCode::Unsupported,
                 "kernel:4: '#pragma acc atomic capture': " + Capture);
  EXPECT_FAILURE(kernelWith("atomic capture", "{ v = h[0]; h[0] += 2; w = 1; }"), Decls,
                 jacc::ErrorCode::Unsupported,
                 "kernel:4: '#pragma acc atomic capture': " + Capture);
  EXPECT_FAILURE(kernelWith("atomic update", "{ h[0] += 2; }"), Decls, jacc::ErrorCode::Unsupported,
                 "kernel:4: '#pragma acc atomic update': only an atomic capture may be followed "
                 "by a block; write one expression statement");
  EXPECT_FAILURE(kernelWith("atomic update", "h[0] %= 3;"), Decls, jacc::ErrorCode::Unsupported,
                 "kernel:4: '#pragma acc atomic update': '%=' is not an atomic operator " + Binop +
                     "an atomic update must be x++, x--, x binop= expr, x = x binop expr or "
                     "x = expr binop x");
  EXPECT_FAILURE(kernelWith("atomic", "h[0] = h[0] < i ? 0 : h[0];"), Decls,
                 jacc::ErrorCode::Unsupported,
                 "kernel:4: '#pragma acc atomic': '?:' is not an atomic operator " + Binop +
                     "an atomic update must be x++, x--, x binop= expr, x = x binop expr or "
                     "x = expr binop x");
  // fmax of an integer x would round it through double; fminf of a double x through float.
  for (const char *Body : {"h[0] = fmax(h[0], i);", "d[0] = fminf(d[0], 2.0f);"})
    EXPECT_FAILURE(kernelWith("atomic", Body), Decls, jacc::ErrorCode::Unsupported,
                   "kernel:4: '#pragma acc atomic': an atomic update must be x++, x--, x binop= "
                   "expr, x = x binop expr or x = expr binop x");
  EXPECT_FAILURE(kernelWith("atomic capture", "{ v = h[0]; h[0] = h[0] && i; }"), Decls,
                 jacc::ErrorCode::Unsupported,
                 "kernel:4: '#pragma acc atomic capture': '&&' is not an atomic operator " + Binop +
                     Capture);
}

} // namespace
