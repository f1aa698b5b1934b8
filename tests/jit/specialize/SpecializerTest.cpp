// Tests of the specialization policy: a value is folded after K pushes with the same bytes, a
// value that keeps changing never is, the variant limit holds, the off / auto / always modes,
// per-argument force and forbid, and the JACC_SPECIALIZE* variables.
#include "jit/specialize/Specializer.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

using namespace jacc;
using namespace jacc::jit;
using analysis::ScalarType;

namespace {

/// The scalar arguments of one push of a kernel taking (int n, int m, double dt).
struct Push {
  int N = 100;
  int M = 64;
  double Dt = 0.5;
  std::vector<ScalarArg> args(bool DtEligible = true) const {
    return {{0, "n", ScalarType::I32, &N, sizeof N, true},
            {1, "m", ScalarType::I32, &M, sizeof M, true},
            {2, "dt", ScalarType::F64, &Dt, sizeof Dt, DtEligible}};
  }
};

Specializer::Options options(Specializer::Mode Mode = Specializer::Mode::Auto) {
  Specializer::Options O;
  O.Policy = Mode;
  return O;
}

TEST(SpecializerTest, DefaultOptions) {
  Specializer S;
  EXPECT_EQ(S.options().Policy, Specializer::Mode::Auto);
  EXPECT_EQ(S.options().Repeat, 3u);
  EXPECT_EQ(S.options().ChangeLimit, 2u);
  EXPECT_EQ(S.options().MaxVariants, 4u);
}

TEST(SpecializerTest, CandidateAfterKPushesWithTheSameValue) {
  Specializer S(options());
  Push P;
  EXPECT_FALSE(S.observe(P.args()));
  EXPECT_FALSE(S.observe(P.args()));
  auto C = S.observe(P.args());
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->New);
  EXPECT_EQ(C->Index, 0u);
  EXPECT_EQ(C->Key, "n=100;m=64;dt=0x1p-1");
  ASSERT_NE(C->Spec, nullptr);
  EXPECT_EQ(C->Spec->key(), C->Key.str());
  ASSERT_EQ(C->Spec->Args.size(), 3u);
  EXPECT_EQ(C->Spec->Args[0].Param, 0u);
  EXPECT_EQ(C->Spec->Args[0].Literal, "100");
  // The same values again: the same variant, not new.
  for (int I = 0; I < 5; ++I) {
    auto Again = S.observe(P.args());
    ASSERT_TRUE(Again);
    EXPECT_FALSE(Again->New);
    EXPECT_EQ(Again->Index, 0u);
    EXPECT_EQ(Again->Spec, C->Spec);
  }
  EXPECT_EQ(S.numVariants(), 1u);
}

TEST(SpecializerTest, RepeatIsConfigurable) {
  Specializer::Options O = options();
  O.Repeat = 1;
  Specializer S(O);
  Push P;
  EXPECT_TRUE(S.observe(P.args()));
  O.Repeat = 5;
  Specializer S5(O);
  for (int I = 0; I < 4; ++I)
    EXPECT_FALSE(S5.observe(P.args())) << I;
  EXPECT_TRUE(S5.observe(P.args()));
}

TEST(SpecializerTest, ChangingValuesAreNeverSpecialized) {
  Specializer S(options());
  Push P;
  // n changes at every push: only m and dt are folded once they have been stable for 3 pushes.
  for (int I = 0; I < 10; ++I) {
    P.N = I;
    auto C = S.observe(P.args());
    if (I < 2) {
      EXPECT_FALSE(C) << I;
      continue;
    }
    ASSERT_TRUE(C) << I;
    EXPECT_EQ(C->Key, "m=64;dt=0x1p-1");
  }
  EXPECT_TRUE(S.isChanging("n"));
  EXPECT_FALSE(S.isChanging("m"));
  // Stable from now on, n is still never folded.
  for (int I = 0; I < 10; ++I) {
    auto C = S.observe(P.args());
    ASSERT_TRUE(C);
    EXPECT_EQ(C->Key, "m=64;dt=0x1p-1");
  }
  EXPECT_EQ(S.numVariants(), 1u);
}

TEST(SpecializerTest, AValueThatChangedOnceIsFoldedAgain) {
  Specializer S(options());
  Push P;
  for (int I = 0; I < 3; ++I)
    S.observe(P.args());
  P.N = 200; // one change, below the limit of 2
  EXPECT_EQ(S.observe(P.args())->Key, "m=64;dt=0x1p-1");
  EXPECT_EQ(S.observe(P.args())->Key, "m=64;dt=0x1p-1");
  auto C = S.observe(P.args());
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->New);
  EXPECT_EQ(C->Key, "n=200;m=64;dt=0x1p-1");
  EXPECT_EQ(S.numVariants(), 3u);
  EXPECT_FALSE(S.isChanging("n"));
  P.N = 300; // the second change
  S.observe(P.args());
  EXPECT_TRUE(S.isChanging("n"));
}

TEST(SpecializerTest, ValuesAreComparedByTheirBytes) {
  Specializer::Options O = options();
  O.Repeat = 1;
  Specializer S(O);
  Push P;
  P.Dt = 0.0;
  EXPECT_EQ(S.observe(P.args())->Key, "n=100;m=64;dt=0x0p+0");
  P.Dt = -0.0; // equal as doubles, another value to fold
  EXPECT_EQ(S.observe(P.args())->Key, "n=100;m=64;dt=(-0x0p+0)");
}

TEST(SpecializerTest, VariantLimitHolds) {
  Specializer::Options O = options(Specializer::Mode::Always);
  O.MaxVariants = 2;
  Specializer S(O);
  Push P;
  P.N = 1;
  auto A = S.observe(P.args());
  P.N = 2;
  auto B = S.observe(P.args());
  ASSERT_TRUE(A && B);
  EXPECT_EQ(A->Index, 0u);
  EXPECT_EQ(B->Index, 1u);
  for (int N = 3; N < 10; ++N) {
    P.N = N;
    EXPECT_FALSE(S.observe(P.args())) << N; // the generic kernel
  }
  EXPECT_EQ(S.numVariants(), 2u);
  // The existing variants still run their values.
  P.N = 1;
  auto Again = S.observe(P.args());
  ASSERT_TRUE(Again);
  EXPECT_EQ(Again->Index, 0u);
  EXPECT_EQ(S.variant(1).key(), "n=2;m=64;dt=0x1p-1");
}

TEST(SpecializerTest, OffNeverSpecializes) {
  Specializer::Options O = options(Specializer::Mode::Off);
  O.Force = {"n"};
  Specializer S(O);
  Push P;
  for (int I = 0; I < 20; ++I)
    EXPECT_FALSE(S.observe(P.args()));
  EXPECT_EQ(S.numVariants(), 0u);
  Specializer::Options None = options();
  None.MaxVariants = 0;
  Specializer Z(None);
  for (int I = 0; I < 5; ++I)
    EXPECT_FALSE(Z.observe(P.args()));
}

TEST(SpecializerTest, AlwaysFoldsEveryEligibleValueFromTheFirstPush) {
  Specializer S(options(Specializer::Mode::Always));
  Push P;
  auto C = S.observe(P.args(/*DtEligible=*/false));
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->New);
  EXPECT_EQ(C->Key, "n=100;m=64");
  // A changing value too, while variants remain.
  P.N = 5;
  C = S.observe(P.args(false));
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Key, "n=5;m=64");
}

TEST(SpecializerTest, ForceAndForbid) {
  Specializer::Options O = options();
  O.Force = {"n"};
  O.Forbid = {"dt"};
  Specializer S(O);
  Push P;
  // n from the first push; m after 3; dt never.
  EXPECT_EQ(S.observe(P.args())->Key, "n=100");
  EXPECT_EQ(S.observe(P.args())->Key, "n=100");
  EXPECT_EQ(S.observe(P.args())->Key, "n=100;m=64");
  // A forced value that changes is folded all the same, within the variant limit.
  P.N = 7;
  S.observe(P.args());
  P.N = 8;
  auto C = S.observe(P.args());
  EXPECT_TRUE(S.isChanging("n"));
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Key, "n=8;m=64");
  // Forbidding wins over forcing; ineligible arguments cannot be forced.
  Specializer::Options Both = options(Specializer::Mode::Always);
  Both.Force = {"n", "dt"};
  Both.Forbid = {"n"};
  Specializer T(Both);
  EXPECT_EQ(T.observe(P.args(/*DtEligible=*/false))->Key, "m=64");
}

TEST(SpecializerTest, DisabledVariantsRunTheGenericKernel) {
  Specializer::Options O = options();
  O.Repeat = 1;
  Specializer S(O);
  Push P;
  auto C = S.observe(P.args());
  ASSERT_TRUE(C);
  S.disable(C->Index);
  EXPECT_FALSE(S.observe(P.args()));
  EXPECT_EQ(S.numVariants(), 1u);
}

TEST(SpecializerTest, LongDoubleAndMismatchedSizesAreNeverFolded) {
  Specializer S(options(Specializer::Mode::Always));
  long double W = 1;
  int N = 3;
  std::vector<ScalarArg> Args = {{0, "w", ScalarType::F80, &W, sizeof W, true},
                                 {1, "n", ScalarType::I32, &N, 2, true}};
  EXPECT_FALSE(S.observe(Args));
  // Another argument list starts over.
  Args[1].Size = sizeof N;
  auto C = S.observe(Args);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Key, "n=3");
}

//===-- Environment -------------------------------------------------------------------------===//

std::string envError(const char *Mode, const char *Args, const char *Repeat, const char *Max) {
  auto O = specializeOptionsFromEnv(Mode, Args, Repeat, Max);
  if (O) {
    ADD_FAILURE() << "accepted";
    return "";
  }
  std::string Msg;
  EXPECT_EQ(takeError(O.takeError(), Msg), ErrorCode::InvalidArgument) << Msg;
  return Msg;
}

const PointerFacts Disjoint{true, false}, Both{true, true}, None{};

TEST(SpecializerTest, PointerFactsFoldLikeAValue) {
  Specializer S(options());
  Push P;
  EXPECT_FALSE(S.observe(P.args(), Disjoint));
  EXPECT_FALSE(S.observe(P.args(), Disjoint));
  auto C = S.observe(P.args(), Disjoint);
  ASSERT_TRUE(C);
  EXPECT_TRUE(C->Spec->Pointers.Disjoint);
  EXPECT_FALSE(C->Spec->Pointers.Aligned);
  EXPECT_EQ(C->Key, "n=100;m=64;dt=0x1p-1;restrict");
  // A push whose pointers shared a mapping: a variant of the same values without restrict
  // (the facts' run starts again); the restrict one again once they hold for 3 pushes.
  auto Aliased = S.observe(P.args(), None);
  ASSERT_TRUE(Aliased);
  EXPECT_TRUE(Aliased->New);
  EXPECT_FALSE(Aliased->Spec->Pointers.any());
  EXPECT_EQ(Aliased->Key, "n=100;m=64;dt=0x1p-1");
  EXPECT_FALSE(S.observe(P.args(), Disjoint)->Spec->Pointers.any());
  EXPECT_FALSE(S.observe(P.args(), Disjoint)->Spec->Pointers.any());
  auto Back = S.observe(P.args(), Disjoint);
  EXPECT_FALSE(Back->New);
  EXPECT_EQ(Back->Index, C->Index);
  // Both facts: one more variant assuming both.
  for (int I = 0; I < 2; ++I)
    EXPECT_FALSE(S.observe(P.args(), Both)->Spec->Pointers.Aligned);
  EXPECT_EQ(S.observe(P.args(), Both)->Key, "n=100;m=64;dt=0x1p-1;restrict;aligned64");
  // Kernels without facts never get them.
  Specializer Never(options());
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(Never.observe(P.args()).has_value(), I == 2);
  EXPECT_FALSE(Never.variant(0).Pointers.any());
}

TEST(SpecializerTest, PointerFactsAloneMakeAVariant) {
  // No scalar argument at all, or only changing ones: a variant assuming the facts alone.
  Specializer S(options());
  for (int I = 0; I < 2; ++I)
    EXPECT_FALSE(S.observe({}, Both));
  auto C = S.observe({}, Both);
  ASSERT_TRUE(C);
  EXPECT_EQ(C->Key, "restrict;aligned64");
  EXPECT_TRUE(C->Spec->Args.empty());
  // Under always from the first push; -restrict / -aligned never; + from the first push.
  Specializer Always(options(Specializer::Mode::Always));
  EXPECT_EQ(Always.observe({}, Disjoint)->Key, "restrict");
  Specializer::Options Forbid = options();
  Forbid.Forbid = {"restrict"};
  Specializer F(Forbid);
  for (int I = 0; I < 5; ++I)
    EXPECT_FALSE(F.observe({}, Both)) << "alignment alone makes no variant";
  Specializer::Options Force = options();
  Force.Force = {"restrict"};
  Specializer Forced(Force);
  EXPECT_EQ(Forced.observe({}, Both)->Key, "restrict") << "aligned has not settled yet";
  EXPECT_FALSE(Forced.observe({}, None)) << "forced, but not for pointers that alias";
}

TEST(SpecializerTest, OptionsFromEnvironment) {
  auto D = specializeOptionsFromEnv(nullptr, nullptr, nullptr, nullptr);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_EQ(D->Policy, Specializer::Mode::Auto);
  EXPECT_EQ(D->Repeat, 3u);
  EXPECT_EQ(D->MaxVariants, 4u);
  EXPECT_TRUE(D->Force.empty() && D->Forbid.empty());
  auto E = specializeOptionsFromEnv("", "", "", "");
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  EXPECT_EQ(E->Policy, Specializer::Mode::Auto);

  auto O = specializeOptionsFromEnv("always", " n, +m ,-dt,", "5", "0");
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->Policy, Specializer::Mode::Always);
  EXPECT_EQ(O->Force, (std::vector<std::string>{"n", "m"}));
  EXPECT_EQ(O->Forbid, (std::vector<std::string>{"dt"}));
  EXPECT_EQ(O->Repeat, 5u);
  EXPECT_EQ(O->MaxVariants, 0u);
  auto Off = specializeOptionsFromEnv("OFF", nullptr, nullptr, "16");
  ASSERT_TRUE(bool(Off));
  EXPECT_EQ(Off->Policy, Specializer::Mode::Off);
  EXPECT_EQ(Off->MaxVariants, 16u);
}

TEST(SpecializerTest, EnvironmentErrorsNameTheVariableAndTheFix) {
  std::string Msg = envError("sometimes", nullptr, nullptr, nullptr);
  EXPECT_NE(Msg.find("JACC_SPECIALIZE='sometimes'"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("off, auto or always"), std::string::npos) << Msg;

  Msg = envError(nullptr, "n,+2x", nullptr, nullptr);
  EXPECT_NE(Msg.find("JACC_SPECIALIZE_ARGS='n,+2x'"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("'+2x' is not an argument name"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("-name"), std::string::npos) << Msg;
  Msg = envError(nullptr, "a b", nullptr, nullptr);
  EXPECT_NE(Msg.find("'a b'"), std::string::npos) << Msg;
  Msg = envError(nullptr, "+", nullptr, nullptr);
  EXPECT_NE(Msg.find("'+' is not an argument name"), std::string::npos) << Msg;
  Msg = envError(nullptr, "n,-n", nullptr, nullptr);
  EXPECT_NE(Msg.find("'n' is both forced and forbidden"), std::string::npos) << Msg;

  for (const char *Bad : {"0", "-1", "three", "2x"}) {
    Msg = envError(nullptr, nullptr, Bad, nullptr);
    EXPECT_NE(Msg.find("JACC_SPECIALIZE_AFTER='" + std::string(Bad) + "'"), std::string::npos)
        << Msg;
    EXPECT_NE(Msg.find("between 1 and"), std::string::npos) << Msg;
  }
  for (const char *Bad : {"-1", "many", "100000"}) {
    Msg = envError(nullptr, nullptr, nullptr, Bad);
    EXPECT_NE(Msg.find("JACC_SPECIALIZE_MAX='" + std::string(Bad) + "'"), std::string::npos) << Msg;
    EXPECT_NE(Msg.find("between 0 and 1024"), std::string::npos) << Msg;
  }
}

} // namespace
