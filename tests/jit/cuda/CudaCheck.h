// Shared by the code generation tests: kernels analysed for a test, and the check that a kernel
// generated for CUDA compiles with NVRTC for every architecture jacc tests (a CUBIN) with a PTX
// entry that matches the launcher's ABI.
#ifndef JACC_TESTS_JIT_CUDA_CUDACHECK_H
#define JACC_TESTS_JIT_CUDA_CUDACHECK_H

#include "analysis/Pipeline.h"
#include "jit/cuda/CudaCodeTarget.h"
#include "jit/cuda/CudaCodegen.h"
#include "jit/cuda/CudaLaunchABI.h"
#include "jit/cuda/NvrtcCompiler.h"

#include <gtest/gtest.h>

#include <vector>

namespace jacc::jit {

/// The frontend's view of a kernel that must analyse (a test failure otherwise, and empty).
inline analysis::KernelInfo analyzeOrFail(const std::string &Src,
                                          const std::vector<std::string> &Decls) {
  auto K = analysis::runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  return std::move(*K);
}

/// How many times Needle occurs in Text (overlapping occurrences count).
inline size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t P = Text.find(Needle); P != std::string::npos; P = Text.find(Needle, P + 1))
    ++N;
  return N;
}

/// CUDA 13's NVRTC starts at sm_75 (sm_70 was dropped by the toolkit); sm_90 is the newest
/// data-centre generation. The generated source is the same for every architecture (no
/// __CUDA_ARCH__ in it), so the oldest and the newest bound what NVRTC may refuse; one between
/// them only repeated the compile. (The suites' JACC_CUDA_VERIFY compiles every kernel for the
/// oldest only: tests/meson.build.)
inline constexpr unsigned TestedCudaArchs[] = {75, 90};

/// Whether this run compiles what it generates: the sanitized build's suites generate CUDA code
/// without compiling it (JACC_CUDA_VERIFY=source, tests/meson.build), since NVRTC is not
/// instrumented and the normal build compiles the same text.
inline bool compilesGeneratedCuda() {
  auto Archs = cudaVerifyArchsFromEnv();
  if (!Archs) {
    llvm::consumeError(Archs.takeError()); // a malformed setting: compile, as without one
    return true;
  }
  return *Archs != std::vector<unsigned>{CudaSourceOnly};
}

/// Compile S for every tested architecture and check its launch ABI; failures are test failures
/// that carry NVRTC's log and the generated source. Skipped (returns false) without NVRTC; true
/// without compiling where this run only generates (compilesGeneratedCuda).
inline bool expectCudaCompiles(const CudaKernelSource &S) {
  if (!nvrtcAvailable())
    return false;
  if (!compilesGeneratedCuda())
    return true;
  for (unsigned Sm : TestedCudaArchs) {
    auto Img = compileCuda(S.Source, Sm);
    if (!Img) {
      ADD_FAILURE() << "sm_" << Sm << ": " << llvm::toString(Img.takeError())
                    << "\n--- generated source:\n" << S.Source;
      return true;
    }
    EXPECT_FALSE(Img->IsPtx) << "sm_" << Sm;
    EXPECT_EQ(Img->Image.substr(0, 4), std::string("\x7f" "ELF")) << "sm_" << Sm;
    if (auto E = checkCudaLaunchABI(S, Img->Ptx))
      ADD_FAILURE() << "sm_" << Sm << ": " << llvm::toString(std::move(E));
  }
  return true;
}

/// Generate K's plain entry (and split entry, when it has one) and expect both to compile.
inline void expectKernelCompilesForCuda(const analysis::KernelInfo &K) {
  for (bool Split : {false, true}) {
    if (Split && !K.Split.Enabled)
      continue;
    auto S = generateCudaSource(K, Split);
    if (!S) {
      ADD_FAILURE() << "CUDA code generation: " << llvm::toString(S.takeError());
      return;
    }
    expectCudaCompiles(*S);
  }
}

} // namespace jacc::jit

#endif
