// What a CUDA device runs: work enqueued in order on its launch stream. CUDA devices accept only
// launches that implement this (kernel launches, and the tests' own).
#ifndef JACC_SRC_CUDA_CUDALAUNCH_H
#define JACC_SRC_CUDA_CUDALAUNCH_H

#include "support/Error.h"

namespace jacc {

class CudaDevice;

class CudaLaunch {
public:
  virtual ~CudaLaunch() = default;
  /// Enqueue the work (and any read-back it needs) on D's launch stream, in order, and return
  /// without waiting; D calls the launch's finished() once that work has completed.
  virtual llvm::Error enqueue(CudaDevice &D) = 0;
};

} // namespace jacc

#endif
