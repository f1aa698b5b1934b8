// Tests of the launch plan (src/launch/LaunchPlan.h): how a push binds to the devices, on a data
// environment whose mappings are made directly in its table (no device is touched).
#include "src/launch/LaunchPlan.h"

#include "analysis/Pipeline.h"

#include <gtest/gtest.h>

#include <cstring>

namespace jacc {
namespace {

/// Three devices' worth of copies for mappings made in a data environment's table.
class LaunchPlanTest : public ::testing::Test {
protected:
  static constexpr unsigned Devices = 3;

  /// Map [P, P + Bytes) with a copy per device (those of Home, at location Location when
  /// given): fake addresses that no one dereferences.
  Mapping &map(const void *P, size_t Bytes, HolderSet Home = ValidityMap::devices(Devices),
               const char *Location = "") {
    Mapping M;
    M.Begin = reinterpret_cast<uintptr_t>(P);
    M.End = M.Begin + Bytes;
    M.Home = Home;
    M.Location = Location;
    for (unsigned D = 0; D < Devices; ++D)
      M.DevicePtrs.push_back(M.hasCopy(D) ? reinterpret_cast<void *>(0x100000 * (D + 1) +
                                                                     0x1000 * Mapped)
                                          : nullptr);
    M.LastUse.assign(Devices, 0);
    ++Mapped;
    return Data.table().insert(std::move(M));
  }
  analysis::KernelInfo analyse(const char *Source, std::vector<std::string> Decls) {
    auto K = analysis::runAnalysis(Source, Decls);
    EXPECT_TRUE(static_cast<bool>(K)) << llvm::toString(K.takeError());
    return K ? std::move(*K) : analysis::KernelInfo();
  }
  template <typename T> static T cell(const LaunchPlan &P, unsigned D, unsigned Cell) {
    T V;
    std::memcpy(&V, &P.Cells[D][2 * Cell], sizeof V);
    return V;
  }
  /// A plan of Axpy (analysed in K) with pointers XP and YP.
  llvm::Expected<LaunchPlan> planAxpy(const analysis::KernelInfo &K, const float *XP, float *YP,
                                      int N, PlanOptions O, float A = 1) {
    jacc_arg Args[] = {{"int n", &N}, {"float a", &A}, {"const float *x", &XP}, {"float *y", &YP}};
    return planLaunch(K, Args, Devices, O, Data);
  }
  /// A split plan of TwoWrites (analysed in K) with pointers AP and BP.
  llvm::Expected<LaunchPlan> planTwoWrites(const analysis::KernelInfo &K, double *AP, double *BP,
                                           int N) {
    jacc_arg Args[] = {{"int n", &N}, {"double *a", &AP}, {"double *b", &BP}};
    return planLaunch(K, Args, Devices, {/*Split=*/true, /*Narrow=*/true}, Data);
  }
  static unsigned param(const analysis::KernelInfo &K, const char *Name) {
    for (const analysis::ArgInfo &A : K.Args)
      if (A.Name == Name)
        return A.Param;
    ADD_FAILURE() << "no argument " << Name;
    return 0;
  }

  DataEnvironment Data;
  unsigned Mapped = 0;
};

const char *const Axpy = "#pragma acc parallel loop present(x, y)\n"
                         "for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n";

TEST_F(LaunchPlanTest, ScalarsGoToEveryDeviceAndPointersToEachDevicesCopy) {
  auto K = analyse(Axpy, {"int n", "float a", "const float *x", "float *y"});
  float X[8], Y[8];
  Mapping &MX = map(X, sizeof X), &MY = map(Y, sizeof Y);
  const float *XP = X + 2; // an interior pointer
  auto P = planAxpy(K, XP, Y, 8, {/*Split=*/false, /*Narrow=*/true}, 2.5f);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Cells.size(), Devices);
  for (unsigned D = 0; D < Devices; ++D) {
    EXPECT_EQ(cell<int>(*P, D, param(K, "n")), 8);
    EXPECT_EQ(cell<float>(*P, D, param(K, "a")), 2.5f);
    EXPECT_EQ(cell<void *>(*P, D, param(K, "x")), MX.translate(XP, D));
    EXPECT_EQ(cell<void *>(*P, D, param(K, "y")), MY.DevicePtrs[D]);
    EXPECT_EQ(P->Cells[D].size(), 2 * K.Args.size()); // no split parameters
  }
  EXPECT_EQ(P->Used.size(), 2u);
  EXPECT_FALSE(P->Owner);
  EXPECT_TRUE(P->Targets.empty());
}

TEST_F(LaunchPlanTest, APointerIntoNoMappingNamesTheArgument) {
  auto K = analyse(Axpy, {"int n", "float a", "const float *x", "float *y"});
  float X[8], Y[8];
  map(Y, sizeof Y);
  auto P = planAxpy(K, X, Y, 8, {});
  ASSERT_FALSE(static_cast<bool>(P));
  std::string Message;
  EXPECT_EQ(takeError(P.takeError(), Message), ErrorCode::NotPresent);
  EXPECT_NE(Message.find("argument 3 ('const float *x')"), std::string::npos) << Message;
}

TEST_F(LaunchPlanTest, ASplitArrayCarriesItsMappingRelativeToThePointer) {
  auto K = analyse(Axpy, {"int n", "float a", "const float *x", "float *y"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  float X[8], Y[8];
  map(X, sizeof X);
  Mapping &MY = map(Y, sizeof Y);
  float *YP = Y + 2; // the kernel indexes from inside the mapping
  auto P = planAxpy(K, X, YP, 6, {/*Split=*/true, /*Narrow=*/true});
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Targets.size(), 1u);
  const SplitTarget &T = P->Targets[0];
  EXPECT_TRUE(T.Split);
  EXPECT_EQ(T.Begin, MY.Begin);
  EXPECT_EQ(T.End, MY.End);
  EXPECT_EQ(T.Pointer, reinterpret_cast<uintptr_t>(YP));
  EXPECT_EQ(T.DevicePtrs, MY.DevicePtrs);
  EXPECT_TRUE(P->Narrow);
  unsigned NParams = K.Args.size();
  for (unsigned D = 0; D < Devices; ++D) {
    EXPECT_EQ(cell<long long>(*P, D, NParams), -2 * long(sizeof(float)));
    EXPECT_EQ(cell<long long>(*P, D, NParams + 1), 6 * long(sizeof(float)));
  }
}

TEST_F(LaunchPlanTest, AWrittenArrayAlsoReadThroughAnotherPointerAfterTheWriteIsComputedWhole) {
  float Both[16] = {};
  map(Both, sizeof Both);
  // x and y in one mapping: Axpy reads x before it writes y, as before the kernel: split.
  auto KBefore = analyse(Axpy, {"int n", "float a", "const float *x", "float *y"});
  auto Before = planAxpy(KBefore, Both + 8, Both, 8, {/*Split=*/true, /*Narrow=*/true});
  ASSERT_TRUE(static_cast<bool>(Before)) << llvm::toString(Before.takeError());
  ASSERT_EQ(Before->Targets.size(), 1u);
  EXPECT_TRUE(Before->Targets[0].Split);
  // Read after the write: a device running the iteration without owning y[i] would miss it,
  // unless the probes show the reads miss the writes (the scheduler's check).
  auto K = analyse("#pragma acc parallel loop present(x, y)\n"
                   "for (int i = 0; i < n; i++) {\n"
                   "  y[i] = a;\n"
                   "  y[i] += x[i];\n"
                   "}\n",
                   {"int n", "float a", "const float *x", "float *y"});
  ASSERT_TRUE(K.Split.ProbeExact);
  auto Probed = planAxpy(K, Both + 8, Both, 8, {/*Split=*/true, /*Narrow=*/true});
  ASSERT_TRUE(static_cast<bool>(Probed)) << llvm::toString(Probed.takeError());
  ASSERT_EQ(Probed->Targets.size(), 1u);
  EXPECT_TRUE(Probed->Targets[0].Split);
  EXPECT_EQ(Probed->Targets[0].AliasReads, std::vector<unsigned>{2}) << "x, for the probes";
  // Without exact probes nobody can tell: y is computed whole.
  K.Split.ProbeExact = false;
  auto P = planAxpy(K, Both + 8, Both, 8, {/*Split=*/true, /*Narrow=*/true});
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Targets.size(), 1u);
  EXPECT_FALSE(P->Targets[0].Split);
  EXPECT_FALSE(P->Narrow);
  unsigned NParams = K.Args.size();
  for (unsigned D = 0; D < Devices; ++D) { // the "not split" sentinel: mlo > mhi
    EXPECT_EQ(cell<long long>(*P, D, NParams), 1);
    EXPECT_EQ(cell<long long>(*P, D, NParams + 1), 0);
  }
}

const char *const TwoWrites = "#pragma acc parallel loop present(a, b)\n"
                              "for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }\n";

TEST_F(LaunchPlanTest, TwoWrittenPointersIntoOneMappingStaySplitWhenCutAlike) {
  auto K = analyse(TwoWrites, {"int n", "double *a", "double *b"});
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  double Buffer[16];
  map(Buffer, sizeof Buffer);
  auto P = planTwoWrites(K, Buffer, Buffer + 8, 8); // whole elements apart: owned alike
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Targets.size(), 2u);
  EXPECT_TRUE(P->Targets[0].Split);
  EXPECT_TRUE(P->Targets[1].Split);
  EXPECT_TRUE(P->Narrow);
}

TEST_F(LaunchPlanTest, TwoWrittenPointersIntoOneMappingCutDifferentlyAreComputedWhole) {
  auto K = analyse(TwoWrites, {"int n", "double *a", "double *b"});
  double Buffer[16];
  map(Buffer, sizeof Buffer);
  double *Half = reinterpret_cast<double *>(reinterpret_cast<char *>(Buffer) + 4); // half a row
  auto P = planTwoWrites(K, Buffer, Half, 7);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_EQ(P->Targets.size(), 2u);
  EXPECT_FALSE(P->Targets[0].Split);
  EXPECT_FALSE(P->Targets[1].Split);
  EXPECT_FALSE(P->Narrow);
}

TEST_F(LaunchPlanTest, NarrowingFollowsThePolicy) {
  auto K = analyse(Axpy, {"int n", "float a", "const float *x", "float *y"});
  float X[8], Y[8];
  map(X, sizeof X);
  map(Y, sizeof Y);
  auto P = planAxpy(K, X, Y, 8, {/*Split=*/true, /*Narrow=*/false});
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  EXPECT_TRUE(P->Targets[0].Split);
  EXPECT_FALSE(P->Narrow);
}

const char *const Sum = "#pragma acc parallel loop present(x) reduction(+:s)\n"
                        "for (int i = 0; i < n; i++) s += x[i];\n";

TEST_F(LaunchPlanTest, ReductionsKeepTheirInitialValueAndWhereTheResultGoes) {
  auto K = analyse(Sum, {"int n", "const double *x", "double s"});
  ASSERT_EQ(K.Reductions.size(), 1u);
  double X[4];
  map(X, sizeof X);
  int N = 4;
  const double *XP = X;
  double S = 1.5;
  jacc_arg Args[] = {{"int n", &N}, {"const double *x", &XP}, {"double s", &S}};
  auto P = planLaunch(K, Args, Devices, {}, Data);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  unsigned Slot = K.Reductions[0].Slot;
  double Initial;
  std::memcpy(&Initial, &P->Reductions.Initial[Slot], sizeof Initial);
  EXPECT_EQ(Initial, 1.5);
  EXPECT_EQ(P->Reductions.Results[Slot], &S);
}

TEST_F(LaunchPlanTest, WideScalarsKeepAllTheirBytes) {
  // A long double _Complex (32 bytes) does not fit its cell: it travels with the aggregates'
  // bytes. A reduction's initial value keeps all of its bytes too.
  auto K = analyse("#pragma acc parallel loop reduction(+:s)\n"
                   "for (int i = 0; i < n; i++) s += w;\n",
                   {"int n", "long double _Complex w", "long double _Complex s"});
  ASSERT_EQ(K.Reductions.size(), 1u);
  int N = 4;
  long double _Complex W, S;
  __real__ W = 1.25L, __imag__ W = 2.5L, __real__ S = 3, __imag__ S = -4;
  jacc_arg Args[] = {{"int n", &N}, {"long double _Complex w", &W},
                     {"long double _Complex s", &S}};
  auto P = planLaunch(K, Args, Devices, {}, Data);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  for (unsigned D = 0; D < Devices; ++D) {
    ASSERT_TRUE(P->Aggregates[D]) << D;
    const std::vector<char> &Bytes = (*P->Aggregates[D])[param(K, "w")];
    ASSERT_EQ(Bytes.size(), sizeof W);
    EXPECT_EQ(std::memcmp(Bytes.data(), &W, sizeof W), 0) << D;
  }
  long double _Complex Initial;
  std::memcpy(&Initial, &P->Reductions.Initial[0], sizeof Initial);
  EXPECT_TRUE(Initial == S);
  EXPECT_EQ(P->Reductions.Results[0], static_cast<void *>(&S));
}

const char *const Histogram = "#pragma acc parallel loop present(x) reduction(+:h[j:3])\n"
                              "for (int i = 0; i < n; i++) h[j + i % 3] += x[i];\n";

TEST_F(LaunchPlanTest, AnArrayReductionsResultGoesToTheHostArrayMappedOrNot) {
  auto K = analyse(Histogram, {"int n", "int j", "const double *x", "double *h"});
  ASSERT_EQ(K.Reductions.size(), 1u);
  double X[4], H[8];
  map(X, sizeof X);
  int N = 4, J = 2;
  const double *XP = X;
  double *HP = H; // not mapped: the kernel reduces into its private copies
  jacc_arg Args[] = {{"int n", &N}, {"int j", &J}, {"const double *x", &XP}, {"double *h", &HP}};
  auto P = planLaunch(K, Args, Devices, {}, Data);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Reductions.Results[0], static_cast<void *>(H));
  map(H, sizeof H);
  auto Mapped = planLaunch(K, Args, Devices, {}, Data);
  ASSERT_TRUE(static_cast<bool>(Mapped)) << llvm::toString(Mapped.takeError());
  EXPECT_EQ(Mapped->Reductions.Results[0], static_cast<void *>(H));
}

const char *const InPlace = "#pragma acc parallel loop deviceptr(d)\n"
                            "for (int i = 0; i < n; i++) d[i] += 1;\n";

TEST_F(LaunchPlanTest, DevicePointersRunTheKernelOnTheDeviceThatOwnsThem) {
  auto K = analyse(InPlace, {"int n", "double *d"});
  double X[4];
  Mapping &M = map(X, sizeof X);
  int N = 4;
  double *DP = static_cast<double *>(M.DevicePtrs[2]) + 1; // inside device 2's copy
  jacc_arg Args[] = {{"int n", &N}, {"double *d", &DP}};
  auto P = planLaunch(K, Args, Devices, {}, Data);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  ASSERT_TRUE(P->Owner);
  EXPECT_EQ(*P->Owner, 2u);
  EXPECT_EQ(P->OwnerArg, "d");
  ASSERT_EQ(P->Used.size(), 1u); // written through d: stale elsewhere afterwards
  EXPECT_EQ(P->Used[0], &M);
  for (unsigned D = 0; D < Devices; ++D) // passed through untranslated
    EXPECT_EQ(cell<double *>(*P, D, param(K, "d")), DP);
}

TEST_F(LaunchPlanTest, DevicePointersOfTwoDevicesAreAnError) {
  auto K = analyse("#pragma acc parallel loop deviceptr(d, e)\n"
                   "for (int i = 0; i < n; i++) d[i] += e[i];\n",
                   {"int n", "double *d", "const double *e"});
  double X[4];
  Mapping &M = map(X, sizeof X);
  int N = 4;
  double *DP = static_cast<double *>(M.DevicePtrs[0]);
  const double *EP = static_cast<const double *>(M.DevicePtrs[1]);
  jacc_arg Args[] = {{"int n", &N}, {"double *d", &DP}, {"const double *e", &EP}};
  auto P = planLaunch(K, Args, Devices, {}, Data);
  ASSERT_FALSE(static_cast<bool>(P));
  std::string Message;
  EXPECT_EQ(takeError(P.takeError(), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("deviceptr arguments 'd' and 'e' are memory of devices 0 and 1"),
            std::string::npos)
      << Message;
}

// Data at a location (devices 0 and 2 of 3): the kernel's devices are those holding all its
// data; device 1 gets a null pointer, and a target that includes it fails naming the array.
TEST_F(LaunchPlanTest, DataAtALocationLimitsTheLaunchToItsDevices) {
  auto K = analyse(Axpy, {"int n", "float a", "const float *x", "float *y"});
  float X[8], Y[8];
  HolderSet Outer = ValidityMap::device(0) | ValidityMap::device(2);
  Mapping &MX = map(X, sizeof X, Outer, "outer");
  map(Y, sizeof Y); // every device
  for (HolderSet Target : {Outer, ValidityMap::device(2)}) {
    PlanOptions O;
    O.Target = Target;
    O.TargetName = "inner";
    auto P = planAxpy(K, X, Y, 8, O);
    ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
    EXPECT_EQ(P->Devices, Outer);
    EXPECT_EQ(cell<const void *>(*P, 0, param(K, "x")), MX.DevicePtrs[0]);
    EXPECT_EQ(cell<const void *>(*P, 1, param(K, "x")), nullptr);
    EXPECT_EQ(cell<const void *>(*P, 2, param(K, "x")), MX.DevicePtrs[2]);
  }
  for (const char *Name : {"", "all"}) {
    PlanOptions O;
    O.TargetName = Name;
    O.Target = *Name ? ValidityMap::devices(Devices) : 0;
    auto P = planAxpy(K, X, Y, 8, O);
    ASSERT_FALSE(static_cast<bool>(P));
    std::string Message;
    EXPECT_EQ(takeError(P.takeError(), Message), ErrorCode::InvalidArgument);
    for (const char *Part :
         {"'x' [0x", "lives at location 'outer' (devices 0, 2)", "device 1 has no copy of it",
          "target a location inside 'outer' (#pragma jacc location(outer)"})
      EXPECT_NE(Message.find(Part), std::string::npos) << Part << " in " << Message;
    EXPECT_NE(Message.find(*Name ? "targets location 'all' (devices 0, 1, 2)"
                                 : "runs on every device (no location targeted)"),
              std::string::npos)
        << Message;
  }
}

// A deviceptr kernel runs on its owner alone: data it uses must have a copy there.
TEST_F(LaunchPlanTest, ADeviceptrKernelsOwnerNeedsACopyOfItsData) {
  auto K = analyse("#pragma acc parallel loop deviceptr(d) present(x)\n"
                   "for (int i = 0; i < n; i++) d[i] += x[i];\n",
                   {"int n", "double *d", "const double *x"});
  double D4[4], X4[4];
  Mapping &MD = map(D4, sizeof D4);
  map(X4, sizeof X4, ValidityMap::device(2), "last");
  int N = 4;
  const double *XP = X4;
  for (unsigned Owner : {2u, 1u}) {
    double *DP = static_cast<double *>(MD.DevicePtrs[Owner]);
    jacc_arg Args[] = {{"int n", &N}, {"double *d", &DP}, {"const double *x", &XP}};
    auto P = planLaunch(K, Args, Devices, {}, Data);
    if (Owner == 2) {
      ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
      EXPECT_EQ(*P->Owner, 2u);
      continue;
    }
    ASSERT_FALSE(static_cast<bool>(P));
    std::string Message;
    EXPECT_EQ(takeError(P.takeError(), Message), ErrorCode::InvalidArgument);
    EXPECT_NE(Message.find("runs on device 1 alone (deviceptr 'd'), but 'x'"), std::string::npos)
        << Message;
  }
}

} // namespace
} // namespace jacc
