// Which of NVIDIA's CUDA libraries the process has loaded: code that may write a GPU's memory
// behind jacc's back, through device pointers the program hands it.
#ifndef JACC_SRC_CUDA_CUDALIBRARIES_H
#define JACC_SRC_CUDA_CUDALIBRARIES_H

#include <llvm/ADT/StringRef.h>

namespace jacc {

/// Whether Path names one of the CUDA libraries that compute on device memory (the runtime
/// libcudart, cuBLAS, cuFFT, cuSPARSE, cuSOLVER, cuRAND, NCCL, cuDNN, ...), not the driver.
bool isCudaLibrary(llvm::StringRef Path);
/// Whether such a library is loaded in the process now (linked or dlopen'ed).
bool cudaLibraryLoaded();

} // namespace jacc

#endif
