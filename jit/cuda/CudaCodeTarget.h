// The CUDA target's code for kernels (jit/CodeTarget.h): CUDA C++ generated from the analysis,
// compiled by NVRTC, its launch ABI checked against the PTX, and kept in a kernel's disk cache
// entry as sm_<N>[-split].cubin (or .ptx) with its launch metadata, sm_<N>[-split].json.
#ifndef JACC_JIT_CUDA_CUDACODETARGET_H
#define JACC_JIT_CUDA_CUDACODETARGET_H

#include "jit/CodeTarget.h"
#include "jit/cuda/CudaCodegen.h"
#include "jit/cuda/NvrtcCompiler.h"

#include <llvm/Support/JSON.h>

namespace jacc::jit {

struct CompiledKernel;
struct VariantCode;

/// A kernel's entry for one GPU architecture: the generated CUDA C++ (empty when loaded from
/// disk), the NVRTC image, and the launch metadata.
struct CudaCode : DeviceCode {
  CudaKernelSource Kernel;
  CudaImage Image;
};

/// The CUDA target.
const CodeTarget &cudaCodeTarget();

/// K's plain or split entry for a GPU of compute capability Sm (CompiledKernel::deviceCode).
llvm::Expected<const CudaCode *> cudaCodeOf(const CompiledKernel &K, unsigned Sm, bool Split);
/// Variant V's entry for Sm; null when V was not compiled for it.
const CudaCode *cudaCodeOf(const VariantCode &V, unsigned Sm, bool Split);

/// JACC_CUDA_VERIFY=75,80,90 (the test suites set it): the GPU architectures every kernel is
/// also generated and compiled for by NVRTC, both entries, launch ABI checked (a failure fails
/// the push): machines without a GPU verify the CUDA path this way. Empty when unset.
/// JACC_CUDA_VERIFY=source gives {CudaSourceOnly}: the entries are generated, not compiled (the
/// sanitized tests: NVRTC is not instrumented, and the normal build's tests compile the same
/// kernels).
llvm::Expected<std::vector<unsigned>> cudaVerifyArchsFromEnv();
inline constexpr unsigned CudaSourceOnly = 0;

/// "sm_80", or "sm_80-split" for the split entry: the stem of the CUDA image for compute
/// capability Sm (its image and its launch metadata take one extension each).
std::string cudaImageStem(unsigned Sm, bool Split);
/// The image of a CUDA image stem: Stem.cubin, or Stem.ptx for PTX.
std::string cudaImageArtifact(llvm::StringRef Stem, bool IsPtx);
/// The launch metadata of a CUDA image stem: Stem.json.
std::string cudaLaunchArtifact(llvm::StringRef Stem);

/// A CUDA image's launch metadata (everything of CudaKernelSource but the source).
llvm::json::Object cudaLaunchToJson(const CudaKernelSource &S);
llvm::Expected<CudaKernelSource> cudaLaunchFromJson(const llvm::json::Value &V);

} // namespace jacc::jit

#endif
