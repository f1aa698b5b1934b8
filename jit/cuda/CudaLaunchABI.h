// The launch ABI check: the parameters NVRTC's PTX declares for an entry must be, in order and
// size and alignment, the argument buffer the runtime's CUDA launcher builds (CudaParam). A
// mismatch would make the driver read arguments from the wrong bytes, silently.
#ifndef JACC_JIT_CUDA_CUDALAUNCHABI_H
#define JACC_JIT_CUDA_CUDALAUNCHABI_H

#include "jit/cuda/CudaCodegen.h"

#include <llvm/Support/Error.h>

namespace jacc::jit {

/// Success when the `.entry S.Entry` of Ptx takes exactly S.Params (names `<Entry>_param_<i>`,
/// sizes, alignments, hence offsets); else an Internal error listing both sides.
llvm::Error checkCudaLaunchABI(const CudaKernelSource &S, llvm::StringRef Ptx);

} // namespace jacc::jit

#endif
