// CUDA code generation: the analysed kernel becomes a CUDA C++ translation unit for NVRTC with an
// `extern "C" __global__` entry, and the launch parameter layout the runtime's launcher builds.
#ifndef JACC_JIT_CUDA_CUDACODEGEN_H
#define JACC_JIT_CUDA_CUDACODEGEN_H

#include "analysis/Kernel.h"
#include "jit/cuda/BlockGeometry.h"

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace jacc::jit {

struct Specialization;

/// One parameter of a generated CUDA entry as the launcher passes it (cuLaunchKernel copies Size
/// bytes from each parameter's address in the launcher's argument buffer).
struct CudaParam {
  std::string What; ///< the argument's name, "__jacc_mlo_a"... or "__jacc_team"
  unsigned Size = 0;
  unsigned Align = 0;
};

struct CudaKernelSource {
  std::string Source;             ///< CUDA C++ (JACC_DEBUG=codegen prints it)
  std::string Entry;              ///< the entry's (unmangled) name
  std::vector<CudaParam> Params;  ///< in order: arguments by ArgInfo::Param, split bounds, team
  bool GridSync = false;          ///< barriers between region statements: all blocks resident
  unsigned BlockSize = 256;       ///< threads per block: cudaBlockGeometry
  unsigned NumGangs = 0;          ///< blocks from a constant num_gangs, 0: as many as fit
};

/// The threads per block of K's CUDA entries: a constant vector_length (folded by Spec too),
/// rounded up to whole warps, else JACC_CUDA_BLOCK_SIZE when set, else chooseBlockGeometry of
/// the kernel's access traits.
BlockGeometry cudaBlockGeometry(const analysis::KernelInfo &K,
                                const Specialization *Spec = nullptr);

/// Generate the plain entry, or the split entry (Split, when K.Split.Enabled). Unsupported when
/// the kernel uses what CUDA C++ cannot express (long double, a header with no CUDA equivalent,
/// a variable-length array other than through a pointer argument), naming it. With Spec, the
/// variant folding its values (generateEntry; checkSpecialization's errors): the same Params.
llvm::Expected<CudaKernelSource> generateCudaSource(const analysis::KernelInfo &K, bool Split,
                                                    const Specialization *Spec = nullptr);

/// Byte offsets of the parameters in the launcher's argument buffer (each aligned to its
/// Align), and the buffer's total size in Size.
std::vector<unsigned> cudaParamOffsets(const std::vector<CudaParam> &Params, unsigned &Size);

} // namespace jacc::jit

#endif
