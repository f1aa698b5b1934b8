// CUDA C++ source to a GPU image with NVRTC, in process: a CUBIN for the GPU's architecture when
// this NVRTC knows it, PTX for the driver to JIT-compile when the GPU is newer. Builds without the
// CUDA toolkit keep the API and answer Unsupported.
#ifndef JACC_JIT_CUDA_NVRTCCOMPILER_H
#define JACC_JIT_CUDA_NVRTCCOMPILER_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace jacc::jit {

struct CudaImage {
  std::string Image;      ///< CUBIN bytes, or PTX text when IsPtx (c_str() is NUL-terminated)
  bool IsPtx = false;
  std::string Ptx;        ///< the PTX NVRTC produced, for the launch-ABI check (may be empty)
  unsigned SmVersion = 0; ///< the architecture compiled for (e.g. 80)
  std::string Log;        ///< warnings, mapped like errors (mapNvrtcLog)
  double CompileMs = 0;
};

/// True when this build links NVRTC.
bool nvrtcAvailable();

/// NVRTC's version, "13.0", or "unavailable".
std::string nvrtcVersionString();

/// The real architectures NVRTC can compile for, ascending (75 80 86 ... on CUDA 13); empty
/// without NVRTC.
std::vector<unsigned> nvrtcSupportedArchs();

/// What compileCuda builds for a GPU of compute capability Sm.
struct CudaTarget {
  unsigned Arch = 0;  ///< sm_Arch (CUBIN) or compute_Arch (PTX)
  bool IsPtx = false; ///< Sm itself is unsupported: PTX that the driver JIT-compiles for Sm
};

/// Sm itself when supported; otherwise PTX for the newest supported architecture below Sm (a GPU
/// newer than this NVRTC, or between two supported ones). An Sm older than every supported
/// architecture is an Unsupported error naming them.
llvm::Expected<CudaTarget> chooseCudaTarget(unsigned Sm, llvm::ArrayRef<unsigned> Supported);

/// Compile CUDA C++ Source for a GPU of compute capability Sm (e.g. 80), with the target of
/// chooseCudaTarget. Always passes -default-device (so helper functions in the user's kernel
/// prelude become __device__), -std=c++17 and --gpu-architecture; ExtraOptions follow (e.g.
/// "-lineinfo"). NVRTC's errors are a Compile error carrying the mapped error diagnostics;
/// rejected options are InvalidArgument. Safe to call concurrently.
llvm::Expected<CudaImage> compileCuda(llvm::StringRef Source, unsigned Sm,
                                      llvm::ArrayRef<std::string> ExtraOptions = {});

/// NVRTC log lines "kernel(12): error: ..." as "kernel:12: error: ..." (the generated source uses
/// #line directives naming "kernel" for user lines and "<jacc>" for generated ones). Blank lines,
/// the "Remark: The warnings can be suppressed" hint and the "N errors detected" trailer are
/// dropped; source and caret lines are kept.
std::string mapNvrtcLog(llvm::StringRef Log);

} // namespace jacc::jit

#endif
