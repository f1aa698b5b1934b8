// The CUDA Driver API, loaded with dlopen at run time (as LLVM Offload's dynamic_cuda does): jacc
// builds and runs without the NVIDIA driver, and a machine without a GPU only pays for one failed
// dlopen. The declarations below are jacc's own minimal copy of the driver's C ABI, checked against
// CUDA 13's cuda.h, which is never included (its macros would rename the entry points).
#ifndef JACC_SRC_CUDA_DYNAMICCUDA_H
#define JACC_SRC_CUDA_DYNAMICCUDA_H

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>
#include <llvm/Support/Error.h>

#include <cstddef>
#include <memory>
#include <string>

namespace jacc {

// Opaque driver handles and scalar types, as cuda.h spells them (in namespace jacc, so that a
// translation unit that also sees cuda.h's global ones is not ambiguous).
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUarray_st *CUarray;
typedef unsigned long long CUdeviceptr;
typedef int CUdevice;
typedef int CUresult;
typedef int CUdevice_attribute;
typedef int CUmemorytype;

// The few enumerators jacc uses (values from cuda.h's CUresult, CUdevice_attribute, ...).
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
constexpr CUresult CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr CUdevice_attribute CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95;
constexpr CUmemorytype CU_MEMORYTYPE_HOST = 1;
constexpr CUmemorytype CU_MEMORYTYPE_DEVICE = 2;
constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 1;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
constexpr int CU_MEM_ADVISE_SET_READ_MOSTLY = 1;

/// cuda.h's CUDA_MEMCPY2D (CUDA_MEMCPY2D_v2): field for field, so the layout is the driver's.
struct CUDA_MEMCPY2D {
  size_t srcXInBytes;
  size_t srcY;
  CUmemorytype srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  size_t srcPitch;
  size_t dstXInBytes;
  size_t dstY;
  CUmemorytype dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
};
static_assert(sizeof(CUDA_MEMCPY2D) == 128, "CUDA_MEMCPY2D must match cuda.h's layout (LP64)");

/// The loaded driver: one pointer per entry point jacc calls, resolved by its versioned symbol
/// (cuMemAlloc is cuMemAlloc_v2, ...), so the members read like the API without cuda.h's macros.
struct CudaDriver {
  std::string Library; ///< what was passed to dlopen
  int Version = 0;     ///< cuDriverGetVersion: 1000 * major + 10 * minor

  CUresult (*cuInit)(unsigned Flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *Version) = nullptr;
  CUresult (*cuDeviceGetCount)(int *Count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *Device, int Ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char *Name, int Len, CUdevice Device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *Value, CUdevice_attribute Attribute,
                                   CUdevice Device) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *Bytes, CUdevice Device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *Context, CUdevice Device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice Device) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext Context) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *Ptr, size_t Bytes) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr Ptr) = nullptr;
  CUresult (*cuMemHostAlloc)(void **Ptr, size_t Bytes, unsigned Flags) = nullptr;
  /// Managed memory (JACC_MEMORY=unified); null when the driver lacks them (then that mode
  /// fails naming the call).
  CUresult (*cuMemAllocManaged)(CUdeviceptr *Ptr, size_t Bytes, unsigned Flags) = nullptr;
  CUresult (*cuMemAdvise)(CUdeviceptr Ptr, size_t Bytes, int Advice, CUdevice Device) = nullptr;
  CUresult (*cuMemPrefetchAsync)(CUdeviceptr Ptr, size_t Bytes, CUdevice Device,
                                 CUstream Stream) = nullptr;
  CUresult (*cuMemFreeHost)(void *Ptr) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr Dst, const void *Src, size_t Bytes,
                                CUstream Stream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void *Dst, CUdeviceptr Src, size_t Bytes,
                                CUstream Stream) = nullptr;
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr Dst, CUdeviceptr Src, size_t Bytes,
                                CUstream Stream) = nullptr;
  CUresult (*cuMemcpyPeerAsync)(CUdeviceptr Dst, CUcontext DstContext, CUdeviceptr Src,
                                CUcontext SrcContext, size_t Bytes, CUstream Stream) = nullptr;
  CUresult (*cuMemcpy2DAsync)(const CUDA_MEMCPY2D *Copy, CUstream Stream) = nullptr;
  CUresult (*cuDeviceCanAccessPeer)(int *CanAccess, CUdevice Device, CUdevice Peer) = nullptr;
  CUresult (*cuCtxEnablePeerAccess)(CUcontext Peer, unsigned Flags) = nullptr;
  CUresult (*cuStreamCreate)(CUstream *Stream, unsigned Flags) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream Stream) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream Stream) = nullptr;
  CUresult (*cuEventCreate)(CUevent *Event, unsigned Flags) = nullptr;
  CUresult (*cuEventRecord)(CUevent Event, CUstream Stream) = nullptr;
  CUresult (*cuEventQuery)(CUevent Event) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent Event) = nullptr;
  CUresult (*cuEventDestroy)(CUevent Event) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule *Module, const void *Image) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *Function, CUmodule Module,
                                  const char *Name) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule Module) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction Function, unsigned GridX, unsigned GridY, unsigned GridZ,
                             unsigned BlockX, unsigned BlockY, unsigned BlockZ,
                             unsigned SharedBytes, CUstream Stream, void **Params,
                             void **Extra) = nullptr;
  CUresult (*cuLaunchCooperativeKernel)(CUfunction Function, unsigned GridX, unsigned GridY,
                                        unsigned GridZ, unsigned BlockX, unsigned BlockY,
                                        unsigned BlockZ, unsigned SharedBytes, CUstream Stream,
                                        void **Params) = nullptr;
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *Blocks, CUfunction Function,
                                                          int BlockSize,
                                                          size_t DynamicSharedBytes) = nullptr;
  CUresult (*cuGetErrorName)(CUresult Error, const char **Name) = nullptr;
  CUresult (*cuGetErrorString)(CUresult Error, const char **Text) = nullptr;

  /// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", or the number when the driver does not know it.
  std::string describe(CUresult Result) const;
};

/// Load the driver at Path (a name for the loader's search, or a path), resolve every entry point
/// and call cuInit(0). A fresh object every call; it is never unloaded (threads of the driver may
/// still run code from it at exit). Errors are ErrorCode::Device and name the library and the fix.
llvm::Expected<std::unique_ptr<CudaDriver>> loadCudaDriver(llvm::StringRef Path);

/// The library JACC_LIBCUDA names, or "libcuda.so.1".
std::string cudaDriverPath();

/// The process-wide driver: cudaDriverPath() loaded once (thread-safe), then cached; so is a
/// failure, reported again on every call. Keyed by the path, so a test can switch JACC_LIBCUDA.
llvm::Expected<const CudaDriver &> cudaDriver();

/// How many GPUs cudaDriver() sees (an error if it cannot be loaded).
llvm::Expected<int> cudaDeviceCount();

/// The error for a failed driver call: "<Device>: <Call> failed with CUDA_ERROR_X (text)".
/// CUDA_ERROR_OUT_OF_MEMORY becomes ErrorCode::OutOfMemory, everything else ErrorCode::Device.
llvm::Error cudaError(const CudaDriver &Driver, CUresult Result, const llvm::Twine &Call,
                      const llvm::Twine &Device);

} // namespace jacc

#endif
