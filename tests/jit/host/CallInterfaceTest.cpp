// Tests of the libffi call interface: compiled kernels called directly, with a hand-built team, for
// every kind of argument (scalars of each C type, pointers, aggregates), reductions and the share
// of iterations each thread gets.
#include "jit/host/CallInterface.h"

#include "jit/CompiledKernel.h"
#include "jit/host/HostABI.h"
#include "support/Error.h"

#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace jacc;
using namespace jacc::analysis;
using namespace jacc::jit;

namespace {

using Strings = std::vector<std::string>;

std::shared_ptr<const CompiledKernel> compile(const std::string &Src, const Strings &Decls) {
  auto K = compileKernel(Src, Decls);
  if (!K) {
    std::string Msg;
    takeError(K.takeError(), Msg);
    ADD_FAILURE() << "compileKernel failed: " << Msg;
    return nullptr;
  }
  return *K;
}

void noBarrier(void *) {}

/// Thread Tid of a team of Size threads of a single device, with 8-byte reduction slots.
struct Team {
  jacc_host_team T;
  uint64_t Reduction[16] = {};
  long long SplitInfo[64] = {};
  explicit Team(long Tid = 0, long Size = 1) {
    std::memset(&T, 0, sizeof T);
    T.tid = Tid;
    T.nthreads = Size;
    T.barrier = noBarrier;
    T.team = nullptr;
    T.reduction = Reduction;
    T.share_begin = 0;
    T.share_end = 1;
    T.share_scale = 1;
    T.narrow = 0;
    T.split_info = SplitInfo;
  }
  template <typename V> V slot(unsigned I) const {
    V Value;
    std::memcpy(&Value, &Reduction[I], sizeof Value);
    return Value;
  }
};

/// Call K with Args[i] pointing to the value of the user's argument i (for a pointer argument, to
/// the pointer; for an aggregate, to a pointer to it).
void call(const CompiledKernel &K, const std::vector<void *> &Args, Team &T) {
  ASSERT_EQ(Args.size(), K.Info.Args.size());
  ASSERT_EQ(K.Call->numParams(), K.Info.Args.size() + 1);
  std::vector<void *> Values(K.Info.Args.size() + 1, nullptr);
  for (const ArgInfo &A : K.Info.Args)
    Values[A.Param] = Args[A.Position];
  const jacc_host_team *TeamPtr = &T.T;
  Values.back() = &TeamPtr;
  K.Call->call(K.Entry, Values.data());
}

//===-- Scalars by value --------------------------------------------------------------------===//

/// out[k] = v * k + 1 for k < n, with v and out of type T.
template <typename T> std::vector<T> scaled(const char *TypeName, T V, int N) {
  std::string Ty = TypeName;
  auto K = compile("#pragma acc parallel loop\n"
                   "for (int k = 0; k < n; k++) out[k] = v * k + 1;\n",
                   {Ty + " *out", Ty + " v", "int n"});
  std::vector<T> Out(N + 1, T(0));
  if (!K)
    return Out;
  T *OutPtr = Out.data();
  Team Tm;
  call(*K, {&OutPtr, &V, &N}, Tm);
  return Out;
}

TEST(CallInterfaceTest, Int) {
  EXPECT_EQ(scaled<int>("int", -7, 5), (std::vector<int>{1, -6, -13, -20, -27, 0}));
}

TEST(CallInterfaceTest, Float) {
  EXPECT_EQ(scaled<float>("float", 1.5f, 4), (std::vector<float>{1, 2.5f, 4, 5.5f, 0}));
}

TEST(CallInterfaceTest, Double) {
  EXPECT_EQ(scaled<double>("double", 2.25, 4), (std::vector<double>{1, 3.25, 5.5, 7.75, 0}));
}

TEST(CallInterfaceTest, LongLong) {
  // Beyond 32 bits: the full 64-bit value must arrive.
  const long long V = 3000000000000LL;
  EXPECT_EQ(scaled<long long>("long long", V, 3), (std::vector<long long>{1, V + 1, 2 * V + 1, 0}));
  EXPECT_EQ(scaled<long long>("long long", -V, 2), (std::vector<long long>{1, -V + 1, 0}));
}

TEST(CallInterfaceTest, Char) {
  auto K = compile("#pragma acc parallel loop\n"
                   "for (int k = 0; k < n; k++) out[k] = c + k;\n",
                   {"char *out", "char c", "int n"});
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Info.Args[1].Scalar, ScalarType::I8);
  char Out[8] = {};
  char *OutPtr = Out;
  char C = 'A';
  int N = 5;
  Team T;
  call(*K, {&OutPtr, &C, &N}, T);
  EXPECT_STREQ(Out, "ABCDE");
  // A negative char stays negative.
  C = -100;
  N = 1;
  call(*K, {&OutPtr, &C, &N}, T);
  EXPECT_EQ(Out[0], -100);
}

TEST(CallInterfaceTest, SmallAndWideTypes) {
  // long double exists only on the host (CUDA reports it Unsupported, CudaCodegenTest checks
  // that): this kernel is not verified for CUDA.
  ScopedEnv NoCuda("JACC_CUDA_VERIFY", nullptr);
  auto K = compile("#pragma acc serial\n"
                   "{\n"
                   "  i[0] = b; i[1] = uc; i[2] = us; i[3] = s; i[4] = u > 4000000000u;\n"
                   "  d[0] = (double)ld; d[1] = (double)ull;\n"
                   "}\n",
                   {"long long *i", "double *d", "_Bool b", "unsigned char uc", "unsigned short us",
                    "short s", "unsigned u", "long double ld", "unsigned long long ull"});
  ASSERT_TRUE(K);
  long long I[5] = {};
  double D[2] = {};
  long long *IPtr = I;
  double *DPtr = D;
  bool B = true;
  unsigned char UC = 250;
  unsigned short US = 65000;
  short S = -30000;
  unsigned U = 4000000001u;
  long double LD = 1.5L;
  unsigned long long ULL = 1ULL << 60;
  Team T;
  call(*K, {&IPtr, &DPtr, &B, &UC, &US, &S, &U, &LD, &ULL}, T);
  EXPECT_EQ(I[0], 1);
  EXPECT_EQ(I[1], 250);
  EXPECT_EQ(I[2], 65000);
  EXPECT_EQ(I[3], -30000);
  EXPECT_EQ(I[4], 1);
  EXPECT_EQ(D[0], 1.5);
  EXPECT_EQ(D[1], 1152921504606846976.0);
}

TEST(CallInterfaceTest, ManyMixedArgumentsSpillToTheStack) {
  // More integer and floating arguments than the registers hold: libffi must place the rest on
  // the stack exactly as the compiled entry expects.
  Strings Decls = {"double *out"};
  std::string Body;
  for (int I = 0; I < 9; ++I) {
    Decls.push_back("int i" + std::to_string(I));
    Decls.push_back("double d" + std::to_string(I));
    Body += "out[" + std::to_string(2 * I) + "] = i" + std::to_string(I) + "; out[" +
            std::to_string(2 * I + 1) + "] = d" + std::to_string(I) + ";\n";
  }
  Decls.push_back("float f");
  Decls.push_back("long long l");
  Body += "out[18] = f; out[19] = (double)l;\n";
  auto K = compile("#pragma acc serial\n{\n" + Body + "}\n", Decls);
  ASSERT_TRUE(K);
  double Out[20] = {};
  double *OutPtr = Out;
  int Ints[9];
  double Doubles[9];
  float F = -0.75f;
  long long L = -(1LL << 40);
  std::vector<void *> Args = {&OutPtr};
  for (int I = 0; I < 9; ++I) {
    Ints[I] = 100 + I;
    Doubles[I] = 0.5 + I;
    Args.push_back(&Ints[I]);
    Args.push_back(&Doubles[I]);
  }
  Args.push_back(&F);
  Args.push_back(&L);
  Team T;
  call(*K, Args, T);
  for (int I = 0; I < 9; ++I) {
    EXPECT_EQ(Out[2 * I], 100 + I) << "i" << I;
    EXPECT_EQ(Out[2 * I + 1], 0.5 + I) << "d" << I;
  }
  EXPECT_EQ(Out[18], -0.75);
  EXPECT_EQ(Out[19], -1099511627776.0);
}

//===-- Pointers and aggregates -------------------------------------------------------------===//

TEST(CallInterfaceTest, Pointers) {
  auto K = compile("#pragma acc parallel loop\n"
                   "for (int k = 0; k < n; k++) out[k] = 2 * in[k] + 1;\n",
                   {"const double *in", "double *out", "int n"});
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Info.Args[0].ArgKind, ArgInfo::Kind::Pointer);
  double In[4] = {1, -2, 3.5, 8};
  double Out[5] = {0, 0, 0, 0, -1};
  const double *InPtr = In;
  double *OutPtr = Out;
  int N = 4;
  Team T;
  call(*K, {&InPtr, &OutPtr, &N}, T);
  EXPECT_EQ(Out[0], 3);
  EXPECT_EQ(Out[1], -3);
  EXPECT_EQ(Out[2], 8);
  EXPECT_EQ(Out[3], 17);
  EXPECT_EQ(Out[4], -1); // past n: untouched
  EXPECT_EQ(In[1], -2);  // the input is not written
}

TEST(CallInterfaceTest, TwoDimensionalArray) {
  auto K = compile("#pragma acc parallel loop collapse(2)\n"
                   "for (int i = 0; i < n; i++)\n"
                   "  for (int j = 0; j < m; j++)\n"
                   "    a[i][j] = 10 * i + j;\n",
                   {"int (*a)[m]", "int n", "int m"});
  ASSERT_TRUE(K);
  int A[3][4];
  std::memset(A, 0xff, sizeof A);
  int(*APtr)[4] = A;
  int N = 3, M = 4;
  Team T;
  call(*K, {&APtr, &N, &M}, T);
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 4; ++J)
      EXPECT_EQ(A[I][J], 10 * I + J) << I << "," << J;
}

TEST(CallInterfaceTest, AggregateByAddress) {
  struct P {
    double X;
    int Y;
  };
  auto K = compile("struct P { double x; int y; };\n"
                   "#pragma acc parallel loop\n"
                   "for (int k = 0; k < n; k++) out[k] = p.x * k + p.y;\n",
                   {"double *out", "int n", "struct P p"});
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Info.Args[2].ArgKind, ArgInfo::Kind::Aggregate);
  P Value{0.5, -3};
  P *ValuePtr = &Value;
  double Out[3] = {};
  double *OutPtr = Out;
  int N = 3;
  Team T;
  call(*K, {&OutPtr, &N, &ValuePtr}, T);
  EXPECT_EQ(Out[0], -3);
  EXPECT_EQ(Out[1], -2.5);
  EXPECT_EQ(Out[2], -2);
  // The entry copied the aggregate: the caller's value is unchanged.
  EXPECT_EQ(Value.X, 0.5);
  EXPECT_EQ(Value.Y, -3);
}

//===-- Reductions and the share of iterations ----------------------------------------------===//

TEST(CallInterfaceTest, ReductionPartialGoesToTheThreadsSlot) {
  auto K = compile("#pragma acc parallel loop reduction(+:s) reduction(max:m)\n"
                   "for (int k = 0; k < n; k++) { s += x[k]; m = x[k] > m ? x[k] : m; }\n",
                   {"const int *x", "int n", "long long s", "double m"});
  ASSERT_TRUE(K);
  int X[6] = {4, -1, 9, 2, 7, 3};
  const int *XPtr = X;
  int N = 6;
  long long S = 1000; // the entry starts from the identity, not from the value passed
  double M = 1e9;
  Team T;
  call(*K, {&XPtr, &N, &S, &M}, T);
  EXPECT_EQ(T.slot<long long>(0), 24);
  EXPECT_EQ(T.slot<double>(1), 9.0);
}

TEST(CallInterfaceTest, ThreadsShareTheIterations) {
  auto K = compile("#pragma acc parallel loop reduction(+:s)\n"
                   "for (int k = 0; k < n; k++) { out[k] = 1 + 100 * t; s += k; }\n",
                   {"int *out", "int n", "int t", "int s"});
  ASSERT_TRUE(K);
  int Out[10] = {};
  int *OutPtr = Out;
  int N = 10, S = 0;
  // Thread 0 then thread 1 of a team of 2: each marks its iterations with its id.
  Team T0(0, 2), T1(1, 2);
  int Tid = 0;
  call(*K, {&OutPtr, &N, &Tid, &S}, T0);
  Tid = 1;
  call(*K, {&OutPtr, &N, &Tid, &S}, T1);
  for (int I = 0; I < 5; ++I)
    EXPECT_EQ(Out[I], 1) << I;
  for (int I = 5; I < 10; ++I)
    EXPECT_EQ(Out[I], 101) << I;
  EXPECT_EQ(T0.slot<int>(0), 0 + 1 + 2 + 3 + 4);
  EXPECT_EQ(T1.slot<int>(0), 5 + 6 + 7 + 8 + 9);
}

TEST(CallInterfaceTest, LoopReductionInASerialRegionReachesTheSlot) {
  // As in a parallel region, the reduced value must come back through the reduction slot.
  auto K = compile("#pragma acc serial\n"
                   "{\n"
                   "#pragma acc loop reduction(+:s)\n"
                   "  for (int k = 0; k < n; k++) s += x[k];\n"
                   "}\n",
                   {"const int *x", "int n", "int s"});
  ASSERT_TRUE(K);
  int X[4] = {1, 2, 3, 4};
  const int *XPtr = X;
  int N = 4, S = 0;
  Team T;
  T.Reduction[0] = 0xdeadbeef;
  call(*K, {&XPtr, &N, &S}, T);
  EXPECT_EQ(T.slot<int>(0), 10);
}

TEST(CallInterfaceTest, SerialKernelRunsOnlyOnThreadZero) {
  auto K = compile("#pragma acc serial\n"
                   "x[0] += 1;\n",
                   {"int *x"});
  ASSERT_TRUE(K);
  int X = 0;
  int *XPtr = &X;
  Team T0(0, 3), T1(1, 3), T2(2, 3);
  call(*K, {&XPtr}, T1);
  call(*K, {&XPtr}, T2);
  EXPECT_EQ(X, 0);
  call(*K, {&XPtr}, T0);
  EXPECT_EQ(X, 1);
}

TEST(CallInterfaceTest, CreateMatchesTheArguments) {
  auto K = compile("#pragma acc parallel loop\n"
                   "for (int k = 0; k < n; k++) out[k] = a;\n",
                   {"float *out", "float a", "int n"});
  ASSERT_TRUE(K);
  auto CI = CallInterface::create(K->Info);
  ASSERT_TRUE(static_cast<bool>(CI)) << llvm::toString(CI.takeError());
  EXPECT_EQ((*CI)->numParams(), 4u);
  // A second interface for the same entry works the same.
  float Out[2] = {};
  float *OutPtr = Out;
  float A = 2.5f;
  int N = 2;
  Team T;
  const jacc_host_team *TeamPtr = &T.T;
  void *Values[4];
  Values[K->Info.Args[0].Param] = &OutPtr;
  Values[K->Info.Args[1].Param] = &A;
  Values[K->Info.Args[2].Param] = &N;
  Values[3] = &TeamPtr;
  (*CI)->call(K->Entry, Values);
  EXPECT_EQ(Out[0], 2.5f);
  EXPECT_EQ(Out[1], 2.5f);
}

} // namespace
