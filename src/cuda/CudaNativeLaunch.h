// A native implementation's part on a GPU: the function is called while the part is queued, with
// the device's context current, and queues its work (a cuBLAS call, its own kernels) on the
// launch stream it is given; the device's event behind that work completes the part.
#ifndef JACC_SRC_CUDA_CUDANATIVELAUNCH_H
#define JACC_SRC_CUDA_CUDANATIVELAUNCH_H

#include "src/cuda/CudaLaunch.h"
#include "src/launch/NativeLaunch.h"

namespace jacc {

class CudaNativeLaunch final : public NativeLaunch, public CudaLaunch {
public:
  using NativeLaunch::NativeLaunch;
  llvm::Error enqueue(CudaDevice &D) override;
};

} // namespace jacc

#endif
