// Tests of the NVRTC compile step: real compiles to CUBIN and PTX (no GPU needed), the choice of
// target architecture, mapped error and warning logs, and the build without NVRTC.
#include "jit/cuda/NvrtcCompiler.h"

#include "support/Error.h"

#include <llvm/ADT/STLExtras.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <future>
#include <string>
#include <vector>

using namespace jacc;
using namespace jacc::jit;

namespace {

#define REQUIRE_NVRTC()                                                                            \
  do {                                                                                             \
    if (!nvrtcAvailable())                                                                         \
      GTEST_SKIP() << "this build has no NVRTC (CUDA toolkit not found at configure time)";        \
  } while (0)

/// A kernel as the generator lays it out: generated lines named "<jacc>", user lines "kernel";
/// the helper has no __device__ (-default-device makes it one).
const char *Saxpy = "#line 1 \"<jacc>\"\n"
                    "#line 1 \"kernel\"\n"
                    "static inline float twice(float v) { return 2 * v; }\n"
                    "#line 1 \"<jacc>\"\n"
                    "extern \"C\" __global__ void saxpy(int n, float a, const float *x, float *y) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) y[i] = a * x[i] + twice(y[i]);\n"
                    "}\n";

CudaImage compile(llvm::StringRef Source, unsigned Sm) {
  auto Img = compileCuda(Source, Sm);
  if (!Img) {
    ADD_FAILURE() << "sm_" << Sm << ": " << llvm::toString(Img.takeError());
    return {};
  }
  return std::move(*Img);
}

/// The error code of a failed compile, its message in Message.
ErrorCode compileError(llvm::StringRef Source, unsigned Sm, std::string &Message,
                       llvm::ArrayRef<std::string> Extra = {}) {
  auto Img = compileCuda(Source, Sm, Extra);
  if (Img) {
    ADD_FAILURE() << "compiling for sm_" << Sm << " succeeded";
    return ErrorCode::Internal;
  }
  return takeError(Img.takeError(), Message);
}

bool contains(const std::string &Haystack, llvm::StringRef Needle) {
  return llvm::StringRef(Haystack).contains(Needle);
}

TEST(NvrtcCompilerTest, ReportsVersionAndArchitectures) {
  REQUIRE_NVRTC();
  std::string Version = nvrtcVersionString();
  unsigned Major = 0, Minor = 0;
  ASSERT_EQ(std::sscanf(Version.c_str(), "%u.%u", &Major, &Minor), 2) << Version;
  EXPECT_GE(Major, 11u);
  std::vector<unsigned> Archs = nvrtcSupportedArchs();
  ASSERT_FALSE(Archs.empty());
  EXPECT_TRUE(std::is_sorted(Archs.begin(), Archs.end()));
  if (Major == 13) {
    EXPECT_EQ(Archs.front(), 75u); // CUDA 13 dropped sm_70
    EXPECT_TRUE(llvm::is_contained(Archs, 90u));
  }
}

TEST(NvrtcCompilerTest, ChoosesTheTarget) {
  const std::vector<unsigned> Supported = {75, 80, 86, 90, 120};
  auto Target = [&](unsigned Sm) {
    auto T = chooseCudaTarget(Sm, Supported);
    EXPECT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
    return T ? std::make_pair(T->Arch, T->IsPtx) : std::make_pair(0u, false);
  };
  EXPECT_EQ(Target(80), std::make_pair(80u, false));
  EXPECT_EQ(Target(120), std::make_pair(120u, false));
  // Newer than all: PTX for the newest; between two: PTX for the one below.
  EXPECT_EQ(Target(990), std::make_pair(120u, true));
  EXPECT_EQ(Target(89), std::make_pair(86u, true));
  auto Old = chooseCudaTarget(70, Supported);
  ASSERT_FALSE(static_cast<bool>(Old));
  std::string Message;
  EXPECT_EQ(takeError(Old.takeError(), Message), ErrorCode::Unsupported);
  EXPECT_TRUE(contains(Message, "sm_70")) << Message;
  EXPECT_TRUE(contains(Message, "sm_75, sm_80, sm_86, sm_90, sm_120")) << Message;
}

TEST(NvrtcCompilerTest, CompilesCubinsThatCarryTheEntry) {
  REQUIRE_NVRTC();
  for (unsigned Sm : {75u, 80u, 90u}) {
    CudaImage Img = compile(Saxpy, Sm);
    EXPECT_FALSE(Img.IsPtx) << Sm;
    EXPECT_EQ(Img.SmVersion, Sm);
    ASSERT_GT(Img.Image.size(), 64u) << Sm;
    EXPECT_EQ(Img.Image.compare(0, 4, "\x7f"
                                      "ELF"),
              0)
        << Sm;
    // The image is the whole ELF file: the driver finds its end from the header (the section and
    // program header tables close it), so trailing zero bytes must not be trimmed.
    uint64_t PhOff, ShOff;
    uint16_t PhEntSize, PhNum, ShEntSize, ShNum;
    std::memcpy(&PhOff, Img.Image.data() + 0x20, 8);
    std::memcpy(&ShOff, Img.Image.data() + 0x28, 8);
    std::memcpy(&PhEntSize, Img.Image.data() + 0x36, 2);
    std::memcpy(&PhNum, Img.Image.data() + 0x38, 2);
    std::memcpy(&ShEntSize, Img.Image.data() + 0x3a, 2);
    std::memcpy(&ShNum, Img.Image.data() + 0x3c, 2);
    EXPECT_EQ(Img.Image.size(), std::max<uint64_t>(ShOff + uint64_t(ShEntSize) * ShNum,
                                                   PhOff + uint64_t(PhEntSize) * PhNum))
        << Sm;
    EXPECT_TRUE(contains(Img.Ptx, ".target sm_" + std::to_string(Sm))) << Img.Ptx;
    EXPECT_TRUE(contains(Img.Ptx, ".entry saxpy(")) << Img.Ptx;
    EXPECT_GT(Img.CompileMs, 0);
    EXPECT_TRUE(Img.Log.empty()) << Img.Log;
  }
}

TEST(NvrtcCompilerTest, PtxForAGpuNewerThanNvrtc) {
  REQUIRE_NVRTC();
  unsigned Newest = nvrtcSupportedArchs().back();
  CudaImage Img = compile(Saxpy, 990);
  EXPECT_TRUE(Img.IsPtx);
  EXPECT_EQ(Img.SmVersion, Newest);
  EXPECT_EQ(Img.Image, Img.Ptx);
  EXPECT_TRUE(contains(Img.Image, ".target sm_" + std::to_string(Newest))) << Img.Image;
  EXPECT_TRUE(contains(Img.Image, ".entry saxpy(")) << Img.Image;
  // The driver takes PTX as a C string.
  EXPECT_EQ(std::strlen(Img.Image.c_str()), Img.Image.size());
}

TEST(NvrtcCompilerTest, OlderThanEverySupportedArchIsUnsupported) {
  REQUIRE_NVRTC();
  std::string Message;
  EXPECT_EQ(compileError(Saxpy, 70, Message), ErrorCode::Unsupported);
  EXPECT_TRUE(contains(Message, "sm_70")) << Message;
  EXPECT_TRUE(contains(Message, "sm_" + std::to_string(nvrtcSupportedArchs().front())))
      << Message;
}

TEST(NvrtcCompilerTest, ErrorsNameKernelLines) {
  REQUIRE_NVRTC();
  const char *Bad = "#line 1 \"kernel\"\n"
                    "static inline int f(int v) { return v; }\n"
                    "static inline int g(int v) { return v + q; }\n"
                    "extern \"C\" __global__ void k(int *x) { x[0] = g(1) + undefined_fn(); }\n";
  std::string Message;
  EXPECT_EQ(compileError(Bad, 80, Message), ErrorCode::Compile);
  EXPECT_TRUE(contains(Message, "kernel:2: error: identifier \"q\" is undefined")) << Message;
  EXPECT_TRUE(contains(Message, "kernel:3: error: identifier \"undefined_fn\" is undefined"))
      << Message;
  // The source line and its caret follow each error; NVRTC's noise does not.
  EXPECT_TRUE(contains(Message, "return v + q;")) << Message;
  EXPECT_FALSE(contains(Message, "kernel(")) << Message;
  EXPECT_FALSE(contains(Message, "detected in the compilation")) << Message;
  EXPECT_FALSE(contains(Message, "<jacc>")) << Message;
}

TEST(NvrtcCompilerTest, ErrorsInGeneratedLinesAskForAReport) {
  REQUIRE_NVRTC();
  const char *Bad = "#line 7 \"<jacc>\"\n"
                    "extern \"C\" __global__ void k(int *x) { x[0] = \"s\"; }\n";
  std::string Message;
  EXPECT_EQ(compileError(Bad, 80, Message), ErrorCode::Compile);
  EXPECT_TRUE(contains(Message, "<jacc>:7: error:")) << Message;
  EXPECT_TRUE(contains(Message, "JACC_DEBUG=codegen")) << Message;
}

TEST(NvrtcCompilerTest, CapturesWarnings) {
  REQUIRE_NVRTC();
  const char *Warn = "#line 1 \"kernel\"\n"
                     "extern \"C\" __global__ void k(int *x) {\n"
                     "  int unused;\n"
                     "  x[0] = 1;\n"
                     "}\n";
  CudaImage Img = compile(Warn, 80);
  EXPECT_FALSE(Img.Image.empty());
  EXPECT_TRUE(contains(Img.Log, "kernel:2: warning")) << Img.Log;
  EXPECT_TRUE(contains(Img.Log, "\"unused\"")) << Img.Log;
  EXPECT_FALSE(contains(Img.Log, "Remark:")) << Img.Log;
}

TEST(NvrtcCompilerTest, ExtraOptions) {
  REQUIRE_NVRTC();
  auto Img = compileCuda(Saxpy, 80, {"-lineinfo"});
  ASSERT_TRUE(static_cast<bool>(Img)) << llvm::toString(Img.takeError());
  EXPECT_TRUE(contains(Img->Ptx, ".loc")) << Img->Ptx;
  std::string Message;
  EXPECT_EQ(compileError(Saxpy, 80, Message, {"-no-such-option"}), ErrorCode::InvalidArgument);
  EXPECT_TRUE(contains(Message, "-no-such-option")) << Message;
}

TEST(NvrtcCompilerTest, CompilesConcurrently) {
  REQUIRE_NVRTC();
  std::vector<std::future<bool>> Jobs;
  for (unsigned Sm : {75u, 80u, 86u, 90u})
    Jobs.push_back(std::async(std::launch::async, [Sm] {
      auto Img = compileCuda(Saxpy, Sm);
      if (!Img) {
        llvm::consumeError(Img.takeError());
        return false;
      }
      return contains(Img->Ptx, ".target sm_" + std::to_string(Sm));
    }));
  for (auto &J : Jobs)
    EXPECT_TRUE(J.get());
}

TEST(NvrtcCompilerTest, WithoutNvrtcCompilingIsUnsupported) {
  if (nvrtcAvailable())
    GTEST_SKIP() << "this build has NVRTC";
  EXPECT_EQ(nvrtcVersionString(), "unavailable");
  EXPECT_TRUE(nvrtcSupportedArchs().empty());
  std::string Message;
  EXPECT_EQ(compileError(Saxpy, 80, Message), ErrorCode::Unsupported);
  EXPECT_TRUE(contains(Message, "no NVRTC")) << Message;
}

TEST(NvrtcCompilerTest, MapsLogs) {
  const char *Log = "kernel(1): error: identifier \"q\" is undefined\n"
                    "  int h(int x){ return x+q;}\n"
                    "                         ^\n"
                    "\n"
                    "<jacc>(40): warning #177-D: variable \"y(2): \" was declared\n"
                    "  void g(){ int y; }\n"
                    "\n"
                    "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
                    "\n"
                    "2 errors detected in the compilation of \"jacc.cu\".\n"
                    "nvrtc: error: unrecognized option -bogus found\n";
  EXPECT_EQ(mapNvrtcLog(Log), "kernel:1: error: identifier \"q\" is undefined\n"
                              "  int h(int x){ return x+q;}\n"
                              "                         ^\n"
                              "<jacc>:40: warning #177-D: variable \"y(2): \" was declared\n"
                              "  void g(){ int y; }\n"
                              "nvrtc: error: unrecognized option -bogus found");
  EXPECT_EQ(mapNvrtcLog(""), "");
}

} // namespace
