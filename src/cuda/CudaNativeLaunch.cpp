// A native part on a GPU: the function called with the device's launch stream, in the context
// the launch made current.
#include "src/cuda/CudaNativeLaunch.h"

#include "src/cuda/CudaDevice.h"

namespace jacc {

llvm::Error CudaNativeLaunch::enqueue(CudaDevice &D) {
  // CudaDevice::launchImpl made the context current; the split information is the probe's, and
  // the reduction variables' private copies are host memory the function fills.
  return call(D.launchStream());
}

} // namespace jacc
