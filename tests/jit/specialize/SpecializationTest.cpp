// Tests of kernel specialization on runtime values: exact literals for every scalar type (checked
// in compiled host code and in NVRTC's PTX), specialized host entries that compute what the
// generic ones do with the values folded (loop bounds, variable-length array extents, an argument
// the kernel assigns), CUDA entries whose PTX parameters stay the generic entry's, and what
// cannot be specialized.
#include "jit/specialize/Specialization.h"

#include "analysis/Pipeline.h"
#include "jit/cuda/CudaCodegen.h"
#include "jit/cuda/NvrtcCompiler.h"
#include "jit/cuda/PtxEntry.h"
#include "jit/host/CallInterface.h"
#include "jit/host/HostABI.h"
#include "jit/host/HostCodegen.h"
#include "jit/host/HostCompiler.h"
#include "jit/host/HostJIT.h"
#include "support/ClangInvocation.h"
#include "support/Error.h"
#include "tests/jit/cuda/CudaCheck.h"

#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Regex.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace jacc;
using namespace jacc::analysis;
using namespace jacc::jit;

namespace {

using Strings = std::vector<std::string>;

template <typename T> std::string literal(ScalarType Type, T V) {
  static_assert(sizeof(T) <= 16);
  auto L = scalarLiteral(Type, &V);
  if (!L) {
    ADD_FAILURE() << llvm::toString(L.takeError());
    return "";
  }
  return *L;
}

float floatBits(uint32_t B) {
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}

double doubleBits(uint64_t B) {
  double D;
  std::memcpy(&D, &B, 8);
  return D;
}

//===-- Literals ----------------------------------------------------------------------------===//

TEST(SpecializationTest, IntegerLiterals) {
  EXPECT_EQ(literal(ScalarType::Bool, true), "((_Bool)1)");
  EXPECT_EQ(literal(ScalarType::Bool, false), "((_Bool)0)");
  EXPECT_EQ(literal(ScalarType::I8, int8_t(-128)), "((signed char)-128)");
  EXPECT_EQ(literal(ScalarType::I8, int8_t(127)), "((signed char)127)");
  EXPECT_EQ(literal(ScalarType::U8, uint8_t(255)), "((unsigned char)255)");
  EXPECT_EQ(literal(ScalarType::I16, int16_t(-32768)), "((short)-32768)");
  EXPECT_EQ(literal(ScalarType::U16, uint16_t(65535)), "((unsigned short)65535)");
  EXPECT_EQ(literal(ScalarType::I32, int32_t(100)), "100");
  EXPECT_EQ(literal(ScalarType::I32, int32_t(0)), "0");
  EXPECT_EQ(literal(ScalarType::I32, int32_t(-5)), "((int)-5)");
  EXPECT_EQ(literal(ScalarType::I32, std::numeric_limits<int32_t>::min()), "((int)-2147483648)");
  EXPECT_EQ(literal(ScalarType::I32, std::numeric_limits<int32_t>::max()), "2147483647");
  EXPECT_EQ(literal(ScalarType::U32, std::numeric_limits<uint32_t>::max()), "4294967295U");
  EXPECT_EQ(literal(ScalarType::I64, int64_t(100)), "100LL");
  EXPECT_EQ(literal(ScalarType::I64, int64_t(-5)), "(-5LL)");
  EXPECT_EQ(literal(ScalarType::I64, std::numeric_limits<int64_t>::min()),
            "(-9223372036854775807LL-1)");
  EXPECT_EQ(literal(ScalarType::I64, std::numeric_limits<int64_t>::max()), "9223372036854775807LL");
  EXPECT_EQ(literal(ScalarType::U64, std::numeric_limits<uint64_t>::max()),
            "18446744073709551615ULL");
}

TEST(SpecializationTest, FloatingLiteralsAreExactHexadecimal) {
  EXPECT_EQ(literal(ScalarType::F64, 3.0), "0x1.8p+1");
  EXPECT_EQ(literal(ScalarType::F32, 3.0f), "0x1.8p+1f");
  EXPECT_EQ(literal(ScalarType::F32, 0.1f), "0x1.99999ap-4f");
  EXPECT_EQ(literal(ScalarType::F64, 0.1), "0x1.999999999999ap-4");
  EXPECT_EQ(literal(ScalarType::F32, -0.1f), "(-0x1.99999ap-4f)");
  EXPECT_EQ(literal(ScalarType::F64, 1.0), "0x1p+0");
  EXPECT_EQ(literal(ScalarType::F64, 0.0), "0x0p+0");
  EXPECT_EQ(literal(ScalarType::F64, -0.0), "(-0x0p+0)");
  EXPECT_EQ(literal(ScalarType::F32, -0.0f), "(-0x0p+0f)");
  EXPECT_EQ(literal(ScalarType::F64, std::numeric_limits<double>::max()),
            "0x1.fffffffffffffp+1023");
  EXPECT_EQ(literal(ScalarType::F32, std::numeric_limits<float>::max()), "0x1.fffffep+127f");
  EXPECT_EQ(literal(ScalarType::F64, std::numeric_limits<double>::min()), "0x1p-1022");
  EXPECT_EQ(literal(ScalarType::F64, std::numeric_limits<double>::denorm_min()), "0x1p-1074");
  EXPECT_EQ(literal(ScalarType::F32, std::numeric_limits<float>::denorm_min()), "0x1p-149f");
  EXPECT_EQ(literal(ScalarType::F64, doubleBits(0x000fffffffffffffULL)), "0x1.ffffffffffffep-1023");
  EXPECT_EQ(literal(ScalarType::F64, std::numeric_limits<double>::infinity()),
            "__builtin_bit_cast(double, 0x7ff0000000000000ULL)");
  EXPECT_EQ(literal(ScalarType::F32, -std::numeric_limits<float>::infinity()),
            "__builtin_bit_cast(float, 0xff800000U)");
  EXPECT_EQ(literal(ScalarType::F32, floatBits(0x7fc00001)),
            "__builtin_bit_cast(float, 0x7fc00001U)");
}

TEST(SpecializationTest, LongDoubleIsUnsupported) {
  long double V = 1.5L;
  auto L = scalarLiteral(ScalarType::F80, &V);
  ASSERT_FALSE(bool(L));
  std::string Msg;
  EXPECT_EQ(takeError(L.takeError(), Msg), ErrorCode::Unsupported);
  EXPECT_NE(Msg.find("long double"), std::string::npos) << Msg;
}

/// A value of some type, as raw bytes.
struct Sample {
  ScalarType Type;
  unsigned char Bytes[8];
};

template <typename T> Sample sample(ScalarType Type, T V) {
  static_assert(sizeof(T) <= 8);
  Sample S{Type, {}};
  std::memcpy(S.Bytes, &V, sizeof V);
  return S;
}

/// Extremes, signed zeros, subnormals, infinities and quiet NaNs (with payloads and signs).
std::vector<Sample> samples() {
  std::vector<Sample> S = {
      sample(ScalarType::Bool, true),
      sample(ScalarType::Bool, false),
      sample(ScalarType::I8, std::numeric_limits<int8_t>::min()),
      sample(ScalarType::I8, std::numeric_limits<int8_t>::max()),
      sample(ScalarType::I8, int8_t(-1)),
      sample(ScalarType::U8, std::numeric_limits<uint8_t>::max()),
      sample(ScalarType::U8, uint8_t(200)),
      sample(ScalarType::I16, std::numeric_limits<int16_t>::min()),
      sample(ScalarType::I16, std::numeric_limits<int16_t>::max()),
      sample(ScalarType::U16, std::numeric_limits<uint16_t>::max()),
      sample(ScalarType::I32, std::numeric_limits<int32_t>::min()),
      sample(ScalarType::I32, std::numeric_limits<int32_t>::max()),
      sample(ScalarType::I32, int32_t(-5)),
      sample(ScalarType::I32, int32_t(0)),
      sample(ScalarType::U32, std::numeric_limits<uint32_t>::max()),
      sample(ScalarType::U32, uint32_t(2147483648U)),
      sample(ScalarType::I64, std::numeric_limits<int64_t>::min()),
      sample(ScalarType::I64, std::numeric_limits<int64_t>::max()),
      sample(ScalarType::I64, int64_t(-1)),
      sample(ScalarType::U64, std::numeric_limits<uint64_t>::max()),
      sample(ScalarType::U64, uint64_t(1) << 63),
  };
  using FL = std::numeric_limits<float>;
  using DL = std::numeric_limits<double>;
  for (float F : {0.0f, -0.0f, 0.1f, -3.0f, FL::max(), FL::lowest(), FL::min(), FL::denorm_min(),
                  -FL::denorm_min(), floatBits(0x007fffff), FL::infinity(), -FL::infinity(),
                  FL::quiet_NaN(), floatBits(0x7fc12345), floatBits(0xffc00000)})
    S.push_back(sample(ScalarType::F32, F));
  for (double D :
       {0.0, -0.0, 0.1, -3.0, 1e300, DL::max(), DL::lowest(), DL::min(), DL::denorm_min(),
        doubleBits(0x000fffffffffffffULL), DL::infinity(), -DL::infinity(), DL::quiet_NaN(),
        doubleBits(0x7ff8000000012345ULL), doubleBits(0xfff8000000000001ULL)})
    S.push_back(sample(ScalarType::F64, D));
  return S;
}

std::string literalOf(const Sample &S) {
  auto L = scalarLiteral(S.Type, S.Bytes);
  if (!L) {
    ADD_FAILURE() << llvm::toString(L.takeError());
    return "0";
  }
  return *L;
}

TEST(SpecializationTest, LiteralsHaveTheirExactBytesInHostC) {
  // Store every literal in a variable of its type in compiled code, then compare the bytes: a
  // literal of the wrong type, range or rounding shows, NaN payloads and the sign of zero too.
  std::vector<Sample> Samples = samples();
  // Signalling NaNs too (NVRTC quiets them).
  Samples.push_back(sample(ScalarType::F32, floatBits(0x7f800001)));
  Samples.push_back(sample(ScalarType::F64, doubleBits(0xfff0000000000001ULL)));
  std::string Code = "void __jacc_values(unsigned char *out) {\n";
  for (size_t I = 0; I < Samples.size(); ++I)
    Code += "  { " + std::string(scalarTypeName(Samples[I].Type)) +
            " v = " + literalOf(Samples[I]) + "; __builtin_memcpy(out + " + std::to_string(8 * I) +
            ", &v, sizeof v); }\n";
  Code += "}\n";
  auto Obj = compileHostObjectInProcess(Code);
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError()) << "\n" << Code;
  auto Fns = loadHostObject(Obj->Bytes, std::vector<std::string>{"__jacc_values"});
  ASSERT_TRUE(bool(Fns)) << llvm::toString(Fns.takeError());
  std::vector<unsigned char> Out(8 * Samples.size(), 0xab);
  reinterpret_cast<void (*)(unsigned char *)>(Fns->Symbols.front())(Out.data());
  for (size_t I = 0; I < Samples.size(); ++I) {
    unsigned Size = scalarTypeSize(Samples[I].Type);
    EXPECT_EQ(std::memcmp(&Out[8 * I], Samples[I].Bytes, Size), 0)
        << scalarTypeName(Samples[I].Type) << " " << literalOf(Samples[I]);
  }
}

TEST(SpecializationTest, LiteralsHaveTheirExactBytesWithNvrtc) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  // Device globals initialised with the literals: the PTX states each initial value (integers
  // in decimal, floating-point values as 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX bit images, none for
  // zero bytes).
  std::vector<Sample> Samples = samples();
  std::string Code = "#define _Bool bool\n"; // as jacc's CUDA prelude
  for (size_t I = 0; I < Samples.size(); ++I)
    Code += "__device__ " + std::string(scalarTypeName(Samples[I].Type)) + " __jacc_v" +
            std::to_string(I) + " = " + literalOf(Samples[I]) + ";\n";
  Code += "extern \"C\" __global__ void __jacc_entry(unsigned char *o) { o[0] = __jacc_v0; }\n";
  auto Img = compileCuda(Code, 75);
  ASSERT_TRUE(bool(Img)) << llvm::toString(Img.takeError()) << "\n" << Code;
  for (size_t I = 0; I < Samples.size(); ++I) {
    const Sample &S = Samples[I];
    unsigned Size = scalarTypeSize(S.Type);
    llvm::Regex Init("\\.global[^\n;]* __jacc_v" + std::to_string(I) + "( = ([^;\n]+))?;");
    llvm::SmallVector<llvm::StringRef, 3> M;
    ASSERT_TRUE(Init.match(Img->Ptx, &M)) << "__jacc_v" << I << " in\n" << Img->Ptx;
    llvm::StringRef V = M[2];
    uint64_t Expected = 0, Got = 0;
    std::memcpy(&Expected, S.Bytes, Size);
    if (V.consume_front("0f") || V.consume_front("0d")) {
      ASSERT_FALSE(V.getAsInteger(16, Got)) << M[2].str();
    } else if (!V.empty()) {
      int64_t Signed = 0;
      ASSERT_FALSE(V.getAsInteger(10, Signed)) << M[2].str();
      Got = uint64_t(Signed);
    }
    if (Size < 8)
      Got &= (uint64_t(1) << (8 * Size)) - 1;
    EXPECT_EQ(Got, Expected) << scalarTypeName(S.Type) << " " << literalOf(S) << ": " << M[0].str();
  }
}

TEST(SpecializationTest, KeyListsTheValuesInParameterOrder) {
  Specialization S;
  EXPECT_EQ(S.key(), "");
  S.Args = {{3, "64", "m"}, {1, "100", "n"}};
  EXPECT_EQ(S.key(), "n=100;m=64");
  S.Args = {{2, "0x1.8p+1", ""}};
  EXPECT_EQ(S.key(), "#2=0x1.8p+1");
}

//===-- Host entries ------------------------------------------------------------------------===//

/// The whole analysis of a kernel, as the runtime runs it (split plan and guards included).
KernelInfo analyze(const std::string &Src, const Strings &Decls) {
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  return std::move(*K);
}

/// The parameter index of argument Name.
unsigned paramOf(const KernelInfo &K, const std::string &Name) {
  for (const ArgInfo &A : K.Args)
    if (A.Name == Name)
      return A.Param;
  ADD_FAILURE() << "no argument " << Name;
  return 0;
}

/// The specialization of K folding the named values (which must be accepted).
Specialization specialize(const KernelInfo &K, const std::map<std::string, const void *> &Values) {
  std::vector<ArgValue> V;
  for (const auto &[Name, Bytes] : Values)
    V.push_back({paramOf(K, Name), Bytes});
  auto S = makeSpecialization(K, V);
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return {};
  }
  return std::move(*S);
}

void noBarrier(void *) {}

/// Compile host source Code of K, then call its plain entry as a team of one thread with the
/// arguments at Values (by name).
void runOnHost(const KernelInfo &K, const std::string &Code,
               const std::map<std::string, void *> &Values) {
  auto Obj = compileHostObjectInProcess(Code, K.Source);
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError()) << "\n--- generated source:\n" << Code;
  auto Fns = loadHostObject(Obj->Bytes, std::vector<std::string>{EntryName});
  ASSERT_TRUE(bool(Fns)) << llvm::toString(Fns.takeError());
  auto Call = CallInterface::create(K);
  ASSERT_TRUE(bool(Call)) << llvm::toString(Call.takeError());
  std::vector<void *> Params(K.Args.size() + 1, nullptr);
  for (const ArgInfo &A : K.Args) {
    auto It = Values.find(A.Name);
    ASSERT_NE(It, Values.end()) << A.Name;
    Params[A.Param] = It->second;
  }
  long long Reduction[8] = {};
  jacc_host_team Team{};
  Team.tid = 0;
  Team.nthreads = 1;
  Team.barrier = noBarrier;
  Team.reduction = Reduction;
  Team.share_end = 1;
  Team.share_scale = 1;
  const jacc_host_team *TeamPtr = &Team;
  Params.back() = &TeamPtr;
  (*Call)->call(Fns->Symbols.front(), Params.data());
}

/// Compile the split entry of K in host source Code, then run it as Devices devices of one
/// thread each, one after the other, on the same memory: every split array is mapped from its
/// pointer over Bytes bytes, each device writes the part it owns.
void runSplitOnHost(const KernelInfo &K, const std::string &Code,
                    const std::map<std::string, void *> &Values, long long Bytes, int Devices) {
  auto Obj = compileHostObjectInProcess(Code, K.Source);
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError()) << "\n--- generated source:\n" << Code;
  auto Fns = loadHostObject(Obj->Bytes, std::vector<std::string>{SplitEntryName});
  ASSERT_TRUE(bool(Fns)) << llvm::toString(Fns.takeError());
  auto Call = CallInterface::create(K, /*Split=*/true);
  ASSERT_TRUE(bool(Call)) << llvm::toString(Call.takeError());
  size_t Arrays = K.Split.Plan.Arrays.size();
  std::vector<void *> Params(K.Args.size() + 2 * Arrays + 1, nullptr);
  for (const ArgInfo &A : K.Args) {
    auto It = Values.find(A.Name);
    ASSERT_NE(It, Values.end()) << A.Name;
    Params[A.Param] = It->second;
  }
  long long Lo = 0, Hi = Bytes;
  for (size_t I = 0; I < Arrays; ++I) {
    Params[K.Args.size() + 2 * I] = &Lo;
    Params[K.Args.size() + 2 * I + 1] = &Hi;
  }
  for (int D = 0; D < Devices; ++D) {
    std::vector<long long> Info(JACC_SPLIT_INFO_WORDS * (Arrays + 1), 0);
    long long Reduction[8] = {};
    jacc_host_team Team{};
    Team.tid = 0;
    Team.nthreads = 1;
    Team.barrier = noBarrier;
    Team.reduction = Reduction;
    Team.share_begin = D;
    Team.share_end = D + 1;
    Team.share_scale = Devices;
    Team.narrow = 1;
    Team.split_info = Info.data();
    const jacc_host_team *TeamPtr = &Team;
    Params.back() = &TeamPtr;
    (*Call)->call(Fns->Symbols.front(), Params.data());
  }
}

/// The optimised LLVM IR of host source Code: whether the entry's parameter Param is used.
bool entryUsesParam(const std::string &Code, unsigned Param) {
  std::string Diags;
  llvm::raw_string_ostream DiagOS(Diags);
  auto CI = makeCompilerInstance(ClangPurpose::HostCodegen, Code, "jacc-host.c", DiagOS);
  if (!CI) {
    ADD_FAILURE() << llvm::toString(CI.takeError());
    return true;
  }
  llvm::LLVMContext Ctx;
  clang::EmitLLVMOnlyAction Action(&Ctx);
  if (!(*CI)->ExecuteAction(Action)) {
    ADD_FAILURE() << DiagOS.str() << "\n" << Code;
    return true;
  }
  std::unique_ptr<llvm::Module> M = Action.takeModule();
  llvm::Function *F = M ? M->getFunction(EntryName) : nullptr;
  if (!F || Param >= F->arg_size()) {
    ADD_FAILURE() << "no entry with parameter " << Param;
    return true;
  }
  return !F->getArg(Param)->use_empty();
}

// A loop bound and the row length of a variable-length array pointer, both arguments.
const char *const Rows = "#pragma acc parallel loop collapse(2)\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  for (int j = 0; j < m; j++)\n"
                         "    a[i][j] = a[i][j] * s + i * m + j;\n";
const Strings RowsDecls = {"double (*a)[m]", "int n", "int m", "double s"};

TEST(SpecializationTest, HostEntryFoldsLoopBoundAndArrayExtent) {
  KernelInfo K = analyze(Rows, RowsDecls);
  ASSERT_EQ(K.Args.size(), 4u);
  int N = 7, M = 5;
  double S = 1.5;
  Specialization Spec = specialize(K, {{"n", &N}, {"m", &M}});
  EXPECT_EQ(Spec.key(), "n=7;m=5");
  std::string Generic = generateHostSource(K);
  std::string Code = generateHostSource(K, false, &Spec);
  std::string P = std::to_string(paramOf(K, "a"));
  std::string Pn = std::to_string(paramOf(K, "n")), Pm = std::to_string(paramOf(K, "m"));
  // The parameters keep their types and order; the folded ones are renamed, the pointer whose
  // type names m is declared in the body, after the constants.
  EXPECT_NE(Code.find("void __jacc_entry(int __jacc_spec_unused_" + Pn +
                      ", int __jacc_spec_unused_" + Pm + ", double s, void *__jacc_spec_ptr_" + P +
                      ", const jacc_host_team *__jacc_t) {\n"
                      "int n = 7;\n(void)__jacc_spec_unused_" +
                      Pn +
                      ";\n"
                      "int m = 5;\n(void)__jacc_spec_unused_" +
                      Pm +
                      ";\n"
                      "double (*a)[m] = __jacc_spec_ptr_" +
                      P + ";\n"),
            std::string::npos)
      << Code;
  EXPECT_NE(Generic.find("void __jacc_entry(int n, int m, double s, double (*a)[m], "),
            std::string::npos)
      << Generic;

  std::vector<double> Ref(N * M), Got(N * M);
  for (int I = 0; I < N * M; ++I)
    Ref[I] = Got[I] = 0.25 * I - 3;
  double(*RefPtr)[5] = reinterpret_cast<double(*)[5]>(Ref.data());
  double(*GotPtr)[5] = reinterpret_cast<double(*)[5]>(Got.data());
  runOnHost(K, Generic, {{"a", &RefPtr}, {"n", &N}, {"m", &M}, {"s", &S}});
  runOnHost(K, Code, {{"a", &GotPtr}, {"n", &N}, {"m", &M}, {"s", &S}});
  EXPECT_EQ(Ref, Got);
  EXPECT_EQ(Got[1 * M + 2], (0.25 * 7 - 3) * 1.5 + 1 * 5 + 2);

  // LLVM sees constants: the folded parameters are dead in the optimised entry.
  EXPECT_TRUE(entryUsesParam(Generic, paramOf(K, "n")));
  EXPECT_TRUE(entryUsesParam(Generic, paramOf(K, "m")));
  EXPECT_FALSE(entryUsesParam(Code, paramOf(K, "n")));
  EXPECT_FALSE(entryUsesParam(Code, paramOf(K, "m")));
  EXPECT_TRUE(entryUsesParam(Code, paramOf(K, "s")));

  // The split entry takes the same specialization: its owned ranges come from the row size,
  // sizeof(*a), once a is declared.
  ASSERT_TRUE(K.Split.Enabled) << K.Split.Fallback;
  ASSERT_EQ(K.Split.Plan.Arrays.size(), 1u);
  std::string SplitCode = generateHostSource(K, true, &Spec);
  size_t Decl = SplitCode.find("double (*a)[m] = __jacc_spec_ptr_" + P + ";\n");
  size_t Bounds = SplitCode.find("long long a__lb");
  ASSERT_NE(Decl, std::string::npos) << SplitCode;
  ASSERT_NE(Bounds, std::string::npos) << SplitCode;
  EXPECT_LT(Decl, Bounds);
  std::vector<double> Parts(N * M);
  for (int I = 0; I < N * M; ++I)
    Parts[I] = 0.25 * I - 3;
  double(*PartsPtr)[5] = reinterpret_cast<double(*)[5]>(Parts.data());
  runSplitOnHost(K, SplitCode, {{"a", &PartsPtr}, {"n", &N}, {"m", &M}, {"s", &S}},
                 N * M * sizeof(double), 3);
  EXPECT_EQ(Ref, Parts);
}

TEST(SpecializationTest, HostEntryFoldsOnlyWhatItIsAsked) {
  KernelInfo K = analyze(Rows, RowsDecls);
  int N = 4, M = 3;
  double S = -0.5;
  // n alone: the array's declaration stays in the parameter list.
  Specialization Spec = specialize(K, {{"n", &N}});
  std::string Code = generateHostSource(K, false, &Spec);
  EXPECT_NE(Code.find("double (*a)[m], const jacc_host_team *__jacc_t) {\nint n = 4;\n"),
            std::string::npos)
      << Code;
  std::vector<double> Ref(N * M, 1.0), Got(N * M, 1.0);
  void *RefPtr = Ref.data(), *GotPtr = Got.data();
  runOnHost(K, generateHostSource(K), {{"a", &RefPtr}, {"n", &N}, {"m", &M}, {"s", &S}});
  runOnHost(K, Code, {{"a", &GotPtr}, {"n", &N}, {"m", &M}, {"s", &S}});
  EXPECT_EQ(Ref, Got);
  // A double folded too: the literal in the source.
  Specialization SpecS = specialize(K, {{"s", &S}, {"m", &M}});
  std::string CodeS = generateHostSource(K, false, &SpecS);
  EXPECT_NE(CodeS.find("double s = (-0x1p-1);\n"), std::string::npos) << CodeS;
  std::fill(Got.begin(), Got.end(), 1.0);
  runOnHost(K, CodeS, {{"a", &GotPtr}, {"n", &N}, {"m", &M}, {"s", &S}});
  EXPECT_EQ(Ref, Got);
}

TEST(SpecializationTest, HostPointerMovesOnlyWhenItsTypeNamesAFoldedValue) {
  KernelInfo K = analyze("#pragma acc parallel loop\n"
                         "for (int i = 0; i < m; i++)\n"
                         "  for (int j = 0; j < mm; j++) a[i][j] = i * mm + j;\n",
                         {"double (*a)[mm + 0]", "int m", "int mm"});
  ASSERT_EQ(K.Args.size(), 3u);
  int M = 3, MM = 4;
  std::string A = std::to_string(paramOf(K, "a"));
  Specialization Rows = specialize(K, {{"m", &M}});
  std::string Code = generateHostSource(K, false, &Rows);
  EXPECT_NE(Code.find(", double (*a)[mm + 0], const jacc_host_team"), std::string::npos) << Code;
  EXPECT_EQ(Code.find("__jacc_spec_ptr_"), std::string::npos) << Code;
  Specialization Cols = specialize(K, {{"mm", &MM}});
  std::string CodeCols = generateHostSource(K, false, &Cols);
  EXPECT_NE(CodeCols.find("double (*a)[mm + 0] = __jacc_spec_ptr_" + A + ";"), std::string::npos)
      << CodeCols;
  for (const std::string *C : {&Code, &CodeCols}) {
    std::vector<double> Got(M * MM, -1);
    void *GotPtr = Got.data();
    runOnHost(K, *C, {{"a", &GotPtr}, {"m", &M}, {"mm", &MM}});
    for (int I = 0; I < M * MM; ++I)
      EXPECT_EQ(Got[I], I);
  }
}

TEST(SpecializationTest, FoldedArgumentTheKernelAssigns) {
  // n is halved by every thread before the loop: the folded value is a variable, not a const.
  const char *Src = "#pragma acc parallel\n"
                    "{\n"
                    "  n = n / 2;\n"
                    "  #pragma acc loop\n"
                    "  for (int i = 0; i < n; i++) x[i] = i + n;\n"
                    "}\n";
  KernelInfo K = analyze(Src, {"int *x", "int n"});
  ASSERT_EQ(K.Args.size(), 2u);
  int N = 10;
  Specialization Spec = specialize(K, {{"n", &N}});
  std::string Code = generateHostSource(K, false, &Spec);
  EXPECT_NE(Code.find("int n = 10;\n"), std::string::npos) << Code;
  std::vector<int> Ref(N, -1), Got(N, -1);
  int *RefPtr = Ref.data(), *GotPtr = Got.data();
  runOnHost(K, generateHostSource(K), {{"x", &RefPtr}, {"n", &N}});
  runOnHost(K, Code, {{"x", &GotPtr}, {"n", &N}});
  EXPECT_EQ(Ref, Got);
  EXPECT_EQ(Got[4], 9);
  EXPECT_EQ(Got[5], -1);
  auto Cuda = generateCudaSource(K, false, &Spec);
  ASSERT_TRUE(bool(Cuda)) << llvm::toString(Cuda.takeError());
  expectCudaCompiles(*Cuda);
}

//===-- CUDA entries ------------------------------------------------------------------------===//

/// Compile the generic and the specialized CUDA entry of K for sm_75: the same PTX parameters,
/// and the specialized entry never reads the folded ones.
void expectSameCudaEntry(const KernelInfo &K, const Specialization &Spec, bool Split = false) {
  auto Generic = generateCudaSource(K, Split);
  auto Special = generateCudaSource(K, Split, &Spec);
  ASSERT_TRUE(bool(Generic)) << llvm::toString(Generic.takeError());
  ASSERT_TRUE(bool(Special)) << llvm::toString(Special.takeError());
  ASSERT_EQ(Generic->Params.size(), Special->Params.size());
  for (size_t I = 0; I < Generic->Params.size(); ++I) {
    EXPECT_EQ(Generic->Params[I].What, Special->Params[I].What);
    EXPECT_EQ(Generic->Params[I].Size, Special->Params[I].Size);
    EXPECT_EQ(Generic->Params[I].Align, Special->Params[I].Align);
  }
  if (!nvrtcAvailable())
    return;
  expectCudaCompiles(*Special); // every tested architecture, launch ABI checked
  auto GenericImg = compileCuda(Generic->Source, 75);
  auto SpecialImg = compileCuda(Special->Source, 75);
  ASSERT_TRUE(bool(GenericImg)) << llvm::toString(GenericImg.takeError());
  ASSERT_TRUE(bool(SpecialImg)) << llvm::toString(SpecialImg.takeError()) << "\n"
                                << Special->Source;
  auto GenericParams = parsePtxEntryParams(GenericImg->Ptx, Generic->Entry);
  auto SpecialParams = parsePtxEntryParams(SpecialImg->Ptx, Special->Entry);
  ASSERT_TRUE(bool(GenericParams)) << llvm::toString(GenericParams.takeError());
  ASSERT_TRUE(bool(SpecialParams)) << llvm::toString(SpecialParams.takeError());
  ASSERT_EQ(GenericParams->size(), SpecialParams->size());
  for (size_t I = 0; I < GenericParams->size(); ++I) {
    const PtxParam &G = (*GenericParams)[I], &S = (*SpecialParams)[I];
    EXPECT_EQ(G.Name, S.Name);
    EXPECT_EQ(G.Type, S.Type) << G.Name;
    EXPECT_EQ(G.Size, S.Size) << G.Name;
    EXPECT_EQ(G.Align, S.Align) << G.Name;
  }
  for (const ArgSpecialization &A : Spec.Args) {
    std::string Load = "[" + Generic->Entry + "_param_" + std::to_string(A.Param) + "]";
    EXPECT_EQ(SpecialImg->Ptx.find(Load), std::string::npos) << Load << "\n" << SpecialImg->Ptx;
  }
}

TEST(SpecializationTest, CudaEntryKeepsItsParameters) {
  KernelInfo K = analyze(Rows, RowsDecls);
  int N = 7, M = 5;
  Specialization Spec = specialize(K, {{"n", &N}, {"m", &M}});
  auto S = generateCudaSource(K, false, &Spec);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  // The row stride comes from the folded m, computed after it.
  size_t Constant = S->Source.find("int m = (decltype(m))5;\n");
  size_t Stride = S->Source.find("const long long __jacc_vla_a_s1 = (long long)(m);");
  ASSERT_NE(Constant, std::string::npos) << S->Source;
  ASSERT_NE(Stride, std::string::npos) << S->Source;
  EXPECT_LT(Constant, Stride);
  EXPECT_NE(S->Source.find("int __jacc_spec_unused_" + std::to_string(paramOf(K, "m"))),
            std::string::npos);
  expectSameCudaEntry(K, Spec);
  if (K.Split.Enabled)
    expectSameCudaEntry(K, Spec, /*Split=*/true);
}

//===-- restrict variants ---------------------------------------------------------------===//

const char *const DenseProduct = "#pragma acc parallel loop collapse(2)\n"
                                 "for (int i = 0; i < n; i++)\n"
                                 "  for (int j = 0; j < m; j++) {\n"
                                 "    double s = 0.0;\n"
                                 "    for (int k = 0; k < l; k++) s += a[i][k] * b[k][j];\n"
                                 "    c[i][j] = s;\n"
                                 "  }\n";
const Strings DenseDecls = {
    "int n", "int m", "int l", "const double (*a)[l]", "const double (*b)[m]", "double (*c)[m]"};

/// Specialization Spec with the pointers declared restrict.
Specialization restricted(Specialization Spec = {}) {
  Spec.Pointers.Disjoint = true;
  return Spec;
}

TEST(SpecializationTest, RestrictVariantsDeclareEveryPointerRestrict) {
  KernelInfo K = analyze(DenseProduct, DenseDecls);
  ASSERT_TRUE(K.MayRestrict);
  EXPECT_EQ(restricted().key(), "restrict");
  int N = 6;
  Specialization Folded = restricted(specialize(K, {{"n", &N}}));
  EXPECT_EQ(Folded.key(), "n=6;restrict");
  EXPECT_FALSE(bool(checkSpecialization(K, Folded)));
  std::string Code = generateHostSource(K, false, &Folded);
  EXPECT_NE(Code.find("const double (*restrict a)[l], const double (*restrict b)[m], "
                      "double (*restrict c)[m], const jacc_host_team *__jacc_t)"),
            std::string::npos)
      << Code;
  // A pointer whose type names a folded value is declared in the body from a restrict `void *`
  // parameter: noalias reaches it (it is based on the parameter), a local restrict would not.
  int L = 64;
  Specialization Moved = restricted(specialize(K, {{"l", &L}}));
  std::string MovedCode = generateHostSource(K, false, &Moved);
  EXPECT_NE(MovedCode.find("void *restrict __jacc_spec_ptr_" + std::to_string(paramOf(K, "a"))),
            std::string::npos)
      << MovedCode;
  // The generic code and a variant folding values only declare nothing restrict.
  EXPECT_EQ(count(generateHostSource(K), "restrict"), 0u);
  Specialization Plain = specialize(K, {{"n", &N}});
  EXPECT_EQ(count(generateHostSource(K, false, &Plain), "restrict"), 0u);
  // On GPUs (`restrict` is `__restrict__` there), with the same launch ABI.
  auto Cuda = generateCudaSource(K, false, &Folded);
  ASSERT_TRUE(bool(Cuda)) << llvm::toString(Cuda.takeError());
  EXPECT_NE(Cuda->Source.find("const double *restrict a"), std::string::npos) << Cuda->Source;
  expectSameCudaEntry(K, Folded);
  // A kernel that may not restrict (one pointer) refuses such a variant.
  KernelInfo One = analyze(Rows, RowsDecls);
  EXPECT_FALSE(One.MayRestrict);
  llvm::Error E = checkSpecialization(One, restricted());
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("cannot be declared restrict"), std::string::npos);
}

TEST(SpecializationTest, AlignedVariantsDeclareEveryPointerAligned) {
  KernelInfo K = analyze(DenseProduct, DenseDecls);
  ASSERT_TRUE(K.MayAlign);
  Specialization Spec;
  Spec.Pointers.Aligned = true;
  EXPECT_EQ(Spec.key(), "aligned64");
  EXPECT_FALSE(bool(checkSpecialization(K, Spec)));
  std::string Code = generateHostSource(K, false, &Spec);
  for (const char *P : {"a", "b", "c"})
    EXPECT_NE(Code.find("(void)__builtin_assume_aligned(" + std::string(P) + ", 64);\n"),
              std::string::npos)
        << P << "\n"
        << Code;
  EXPECT_EQ(count(Code, "restrict"), 0u) << "aligned only";
  EXPECT_EQ(count(generateHostSource(K), "__builtin_assume_aligned"), 0u);
  // A pointer declared from a folded extent is declared aligned after its declaration.
  int L = 8;
  Specialization Moved = specialize(K, {{"l", &L}});
  Moved.Pointers.Aligned = true;
  std::string MovedCode = generateHostSource(K, false, &Moved);
  size_t Decl = MovedCode.find("const double (*a)[l] = __jacc_spec_ptr_");
  size_t Assume = MovedCode.find("(void)__builtin_assume_aligned(a, 64);");
  ASSERT_NE(Decl, std::string::npos) << MovedCode;
  ASSERT_NE(Assume, std::string::npos) << MovedCode;
  EXPECT_LT(Decl, Assume);
  // The optimiser is told (an assumption bundle on the pointer), and NVRTC takes it too.
  auto IR = optimizedHostIR(Code);
  ASSERT_TRUE(bool(IR)) << llvm::toString(IR.takeError());
  EXPECT_NE(IR->find("\"align\"(ptr"), std::string::npos) << *IR;
  expectSameCudaEntry(K, Spec);
  // A kernel without pointers refuses it.
  KernelInfo NoPointers = analyze("#pragma acc parallel loop reduction(+:s)\n"
                                  "for (int i = 0; i < n; i++) s += i;\n",
                                  {"int n", "long s"});
  EXPECT_FALSE(NoPointers.MayAlign);
  llvm::Error E = checkSpecialization(NoPointers, Spec);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("no pointer argument"), std::string::npos);
}

/// How many times Needle occurs in the optimised IR of host source Code.
size_t countInIR(const std::string &Code, const std::string &Needle) {
  auto IR = optimizedHostIR(Code);
  if (!IR) {
    ADD_FAILURE() << llvm::toString(IR.takeError()) << "\n" << Code;
    return 0;
  }
  return count(*IR, Needle);
}

/// Whether the optimiser reports unrolling and jamming a loop of host source Code by 4.
bool jammedByFour(const std::string &Code) {
  auto Remarks = hostLoopRemarks(Code);
  if (!Remarks) {
    ADD_FAILURE() << llvm::toString(Remarks.takeError()) << "\n" << Code;
    return false;
  }
  return Remarks->find("unroll and jammed loop by a factor of 4") != std::string::npos;
}

/// Run the plain entry of Code (one thread) and its split entry (Devices devices) of the dense
/// product of an n x l and an l x m matrix; both results.
std::pair<std::vector<double>, std::vector<double>> runProduct(const KernelInfo &K,
                                                               const std::string &Code,
                                                               const std::string &SplitCode, int n,
                                                               int m, int l, int Devices) {
  std::vector<double> A(size_t(n) * l), B(size_t(l) * m), Plain(size_t(n) * m, -1.0),
      Parts(Plain.size(), -1.0);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 1.0 / double(1 + I % 7);
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = double(I % 11) / 3;
  void *a = A.data(), *b = B.data(), *c = Plain.data(), *p = Parts.data();
  runOnHost(K, Code, {{"a", &a}, {"b", &b}, {"c", &c}, {"n", &n}, {"m", &m}, {"l", &l}});
  runSplitOnHost(K, SplitCode, {{"a", &a}, {"b", &b}, {"c", &p}, {"n", &n}, {"m", &m}, {"l", &l}},
                 static_cast<long long>(Parts.size() * sizeof(double)), Devices);
  return {Plain, Parts};
}

TEST(SpecializationTest, RestrictVariantsJamSumsAlongAnInnerLoop) {
  KernelInfo K = analyze(DenseProduct, DenseDecls);
  ASSERT_TRUE(K.Nests.size() == 1 && K.Nests[0].SumsAlongInnerLoop);
  const std::string Jam = "#pragma unroll_and_jam(4)\n";
  Specialization R = restricted();
  std::string Generic = generateHostSource(K), Jammed = generateHostSource(K, false, &R);
  EXPECT_EQ(count(Generic, Jam), 0u);
  EXPECT_EQ(count(Jammed, Jam), 1u) << Jammed;
  // Whole rows per thread, the innermost loop over the whole row (LLVM jams only a loop whose
  // trip count its parent loop does not change).
  EXPECT_NE(Jammed.find(Jam + "for (unsigned __jacc_q = 0; __jacc_q < __jacc_len; ++__jacc_q)"),
            std::string::npos)
      << Jammed;
  EXPECT_NE(Jammed.find("int j = (int)(__jacc_v0 + __jacc_q * __jacc_vs);"), std::string::npos);
  // LLVM did jam it (four chains in one pass of the k loop), and only where asked. The count of
  // adds would say so on some CPUs, but the unroller's factors differ by CPU (Zen 3 unrolls the
  // generic sum by 8): the optimiser's own report holds on every one.
  EXPECT_TRUE(jammedByFour(Jammed));
  EXPECT_FALSE(jammedByFour(Generic));
  // Each sum keeps its order: results equal the generic code's bit for bit, with rows of 1 to
  // 6 columns (jam remainders), on one device and split over three.
  std::string GenericSplit = generateHostSource(K, true),
              JammedSplit = generateHostSource(K, true, &R);
  EXPECT_EQ(count(JammedSplit, Jam), 1u);
  for (int m : {1, 3, 4, 6, 37}) {
    auto [Ref, RefParts] = runProduct(K, Generic, GenericSplit, 9, m, 13, 3);
    auto [Got, GotParts] = runProduct(K, Jammed, JammedSplit, 9, m, 13, 3);
    EXPECT_EQ(Ref, Got) << "m = " << m;
    EXPECT_EQ(Ref, RefParts) << "m = " << m;
    EXPECT_EQ(Ref, GotParts) << "m = " << m;
  }
}

// NPB LU's hyperplane kernels: each cell's indices read from index arrays. Without restrict, LLVM
// keeps the loop scalar and loads u[i] again after each store to tv or tw; a variant whose
// pointers are disjoint declares them restrict, and the loads are shared.
TEST(SpecializationTest, RestrictVariantsOfNestsIndexedThroughMemoryDeclareIt) {
  KernelInfo K =
      analyze("#pragma acc parallel loop\n"
              "for (int n = 0; n < np; n++) {\n"
              "  int i = ix[n];\n"
              "  tv[n] = u[i] - 2 * u[i + 1];\n"
              "  tw[n] = u[i] * u[i + 1];\n"
              "}\n",
              {"int np", "const int *ix", "const double *u", "double *tv", "double *tw"});
  ASSERT_TRUE(K.MayRestrict);
  ASSERT_TRUE(K.Nests[0].IndexedThroughMemory);
  Specialization R = restricted();
  std::string Generic = generateHostSource(K), Restricted = generateHostSource(K, false, &R);
  EXPECT_EQ(count(Generic, "restrict"), 0u);
  EXPECT_EQ(count(Restricted, "restrict"), 4u) << Restricted;
  EXPECT_LT(countInIR(Restricted, "load double"), countInIR(Generic, "load double"));
}

TEST(SpecializationTest, FoldedValuesThatShortenTheSumLeaveNothingToJam) {
  KernelInfo K = analyze(DenseProduct, DenseDecls);
  // l folded to 8: the k loop is unrolled whole, the j loop vectorised; no jam, and no restrict
  // (which costs elsewhere). l = 64 keeps the sum long: jammed.
  for (int L : {8, 64}) {
    Specialization Spec = restricted(specialize(K, {{"l", &L}}));
    EXPECT_EQ(foldedInteger(Spec, "l"), L);
    std::string Code = generateHostSource(K, false, &Spec);
    bool Long = L >= 16;
    EXPECT_EQ(count(Code, "unroll_and_jam"), Long ? 1u : 0u) << L;
    // a (its type names l: a restrict `void *` parameter), b and c.
    EXPECT_EQ(count(Code, "restrict"), Long ? 3u : 0u) << L << "\n" << Code;
  }
  int N = 5;
  EXPECT_EQ(foldedInteger(restricted(specialize(K, {{"n", &N}})), "l"), std::nullopt);
  // The literals of the other integer types, and values that are no integer.
  Specialization Lits;
  Lits.Args = {{0, "((int)-5)", "a"},
               {1, "100LL", "b"},
               {2, "((unsigned char)200)", "c"},
               {3, "0x1.8p+1", "d"},
               {4, "18446744073709551615ULL", "e"}};
  EXPECT_EQ(foldedInteger(Lits, "a"), -5);
  EXPECT_EQ(foldedInteger(Lits, "b"), 100);
  EXPECT_EQ(foldedInteger(Lits, "c"), 200);
  EXPECT_EQ(foldedInteger(Lits, "d"), std::nullopt);
  EXPECT_EQ(foldedInteger(Lits, "e"), std::nullopt);
}

TEST(SpecializationTest, JamsOnlyProductSumsWithoutReductions) {
  const std::string Jam = "unroll_and_jam";
  Specialization R = restricted();
  // A dense matrix-vector product: one parallel loop, jammed over it.
  KernelInfo MatVec = analyze("#pragma acc parallel loop\n"
                              "for (int i = 0; i < n; i++) {\n"
                              "  double s = 0;\n"
                              "  for (int j = 0; j < n; j++) s += a[i][j] * x[j];\n"
                              "  y[i] = s;\n"
                              "}\n",
                              {"int n", "const double (*a)[n]", "const double *x", "double *y"});
  std::string Jammed = generateHostSource(MatVec, false, &R);
  EXPECT_NE(Jammed.find("#pragma unroll_and_jam(4)\nfor (long long __jacc_k = __jacc_b;"),
            std::string::npos)
      << Jammed;
  EXPECT_TRUE(jammedByFour(Jammed));
  EXPECT_FALSE(jammedByFour(generateHostSource(MatVec)));
  // A reduction's partial sums would follow the jam: not jammed; nor a stencil (no sum).
  KernelInfo Dot = analyze("#pragma acc parallel loop reduction(+:d)\n"
                           "for (int i = 0; i < n; i++) {\n"
                           "  double s = 0;\n"
                           "  for (int j = 0; j < n; j++) s += a[i][j] * x[j];\n"
                           "  d += s;\n"
                           "}\n",
                           {"int n", "const double (*a)[n]", "const double *x", "double d"});
  EXPECT_EQ(count(generateHostSource(Dot, false, &R), Jam), 0u);
  KernelInfo Stencil = analyze("#pragma acc parallel loop\n"
                               "for (int i = 1; i < n - 1; i++) y[i] = x[i - 1] + x[i + 1];\n",
                               {"int n", "const double *x", "double *y"});
  EXPECT_EQ(count(generateHostSource(Stencil, false, &R), Jam), 0u);
}

TEST(SpecializationTest, EveryScalarTypeFoldsWithTheSameAbi) {
  const char *Src = "enum mode { SLOW, FAST };\n"
                    "#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  x[i] = b + c + uc + s + us + u + l + ul + ll + f + d + (md == FAST);\n";
  Strings Decls = {"double *x",
                   "int n",
                   "_Bool b",
                   "char c",
                   "unsigned char uc",
                   "short s",
                   "unsigned short us",
                   "unsigned u",
                   "long l",
                   "unsigned long ul",
                   "long long ll",
                   "float f",
                   "double d",
                   "enum mode md"};
  KernelInfo K = analyze(Src, Decls);
  ASSERT_EQ(K.Args.size(), Decls.size());
  bool B = true;
  char C = -3;
  unsigned char UC = 250;
  short S = -300;
  unsigned short US = 60000;
  unsigned U = 4000000000U;
  long L = -5000000000L;
  unsigned long UL = 9000000000UL;
  long long LL = -7;
  float F = 0.1f;
  double D = -2.5;
  int N = 3;
  unsigned Md = 1;
  Specialization Spec = specialize(K, {{"n", &N},
                                       {"b", &B},
                                       {"c", &C},
                                       {"uc", &UC},
                                       {"s", &S},
                                       {"us", &US},
                                       {"u", &U},
                                       {"l", &L},
                                       {"ul", &UL},
                                       {"ll", &LL},
                                       {"f", &F},
                                       {"d", &D},
                                       {"md", &Md}});
  std::string Code = generateHostSource(K, false, &Spec);
  for (const char *Decl :
       {"_Bool b = ((_Bool)1);", "char c = ((signed char)-3);", "long l = (-5000000000LL);",
        "float f = 0x1.99999ap-4f;", "enum mode md = 1U;"})
    EXPECT_NE(Code.find(Decl), std::string::npos) << Decl << "\n" << Code;
  std::vector<double> Ref(N, 0), Got(N, 0);
  double *RefPtr = Ref.data(), *GotPtr = Got.data();
  std::map<std::string, void *> Values = {
      {"n", &N}, {"b", &B},   {"c", &C},   {"uc", &UC}, {"s", &S}, {"us", &US}, {"u", &U},
      {"l", &L}, {"ul", &UL}, {"ll", &LL}, {"f", &F},   {"d", &D}, {"md", &Md}};
  Values["x"] = &RefPtr;
  runOnHost(K, generateHostSource(K), Values);
  Values["x"] = &GotPtr;
  runOnHost(K, Code, Values);
  EXPECT_EQ(Ref, Got);
  EXPECT_NE(Got[0], 0);
  expectSameCudaEntry(K, Spec);
}

//===-- What cannot be specialized ----------------------------------------------------------===//

std::string rejection(const KernelInfo &K, const Specialization &Spec, ErrorCode Expected) {
  llvm::Error E = checkSpecialization(K, Spec);
  if (!E) {
    ADD_FAILURE() << "accepted: " << Spec.key();
    return "";
  }
  std::string Msg;
  EXPECT_EQ(takeError(std::move(E), Msg), Expected) << Msg;
  return Msg;
}

TEST(SpecializationTest, ReductionsAndNonScalarsAreRejected) {
  KernelInfo K = analyze("#pragma acc parallel loop reduction(+:sum)\n"
                         "for (int i = 0; i < n; i++) sum += x[i] * w;\n",
                         {"const double *x", "int n", "double sum", "long double w"});
  ASSERT_EQ(K.Args.size(), 4u);
  unsigned Sum = paramOf(K, "sum"), X = paramOf(K, "x"), N = paramOf(K, "n"), W = paramOf(K, "w");
  std::string Msg = rejection(K, {{{Sum, "0x0p+0", "sum"}}, {}}, ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("'double sum'"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("reduction(+:sum)"), std::string::npos) << Msg;
  Msg = rejection(K, {{{X, "0", "x"}}, {}}, ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("only scalar arguments"), std::string::npos) << Msg;
  Msg = rejection(K, {{{W, "1", "w"}}, {}}, ErrorCode::Unsupported);
  EXPECT_NE(Msg.find("long double"), std::string::npos) << Msg;
  Msg = rejection(K, {{{9, "1", ""}}, {}}, ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("parameter 9"), std::string::npos) << Msg;
  Msg = rejection(K, {{{N, "1", "n"}, {N, "2", "n"}}, {}}, ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("twice"), std::string::npos) << Msg;
  Msg = rejection(K, {{{N, "", "n"}}, {}}, ErrorCode::InvalidArgument);
  EXPECT_NE(Msg.find("no value"), std::string::npos) << Msg;
  EXPECT_FALSE(bool(checkSpecialization(K, {{{N, "100", "n"}}, {}})));

  // Through the other entry points: the same errors.
  double Zero = 0;
  auto S = makeSpecialization(K, {{Sum, &Zero}});
  ASSERT_FALSE(bool(S));
  EXPECT_NE(llvm::toString(S.takeError()).find("reduction"), std::string::npos);
  long double One = 1;
  S = makeSpecialization(K, {{W, &One}});
  ASSERT_FALSE(bool(S));
  EXPECT_NE(llvm::toString(S.takeError()).find("long double"), std::string::npos);
  Specialization Bad{{{Sum, "0x0p+0", "sum"}}, {}};
  auto Cuda = generateCudaSource(K, false, &Bad);
  ASSERT_FALSE(bool(Cuda));
  EXPECT_NE(llvm::toString(Cuda.takeError()).find("reduction"), std::string::npos);
  // The host generator, given what it must not fold, leaves it a parameter.
  std::string Code = generateHostSource(K, false, &Bad);
  EXPECT_EQ(Code.find("__jacc_spec_unused"), std::string::npos) << Code;
}

} // namespace
