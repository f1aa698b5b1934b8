// Loading the CUDA driver with dlopen and turning its result codes into jacc errors.
#include "src/cuda/DynamicCuda.h"

#include "support/Env.h"
#include "support/Error.h"

#include <dlfcn.h>

#include <map>
#include <mutex>

namespace jacc {

namespace {

/// What every load failure tells the user to do.
constexpr const char *LoadFix =
    "install the NVIDIA driver (or point JACC_LIBCUDA at its libcuda.so.1), or run on the CPU "
    "with JACC_DEVICES=host";

/// Resolve Symbol into Fn; on failure remember the first missing name.
template <typename FnT>
void resolve(void *Handle, const char *Symbol, FnT &Fn, const char *&Missing) {
  Fn = reinterpret_cast<FnT>(dlsym(Handle, Symbol));
  if (!Fn && !Missing)
    Missing = Symbol;
}

/// One cached load result per library path: the driver, or why it could not be loaded (kept as
/// text because an llvm::Error can be reported only once).
struct CachedLoad {
  std::unique_ptr<CudaDriver> Driver;
  ErrorCode Code = ErrorCode::Device;
  std::string Message;
};

} // namespace

std::string CudaDriver::describe(CUresult Result) const {
  const char *Name = nullptr, *Text = nullptr;
  if (cuGetErrorName && cuGetErrorName(Result, &Name) != CUDA_SUCCESS)
    Name = nullptr;
  if (cuGetErrorString && cuGetErrorString(Result, &Text) != CUDA_SUCCESS)
    Text = nullptr;
  std::string S = Name ? Name : "CUDA error " + std::to_string(Result);
  if (Text)
    S += std::string(" (") + Text + ")";
  return S;
}

llvm::Expected<std::unique_ptr<CudaDriver>> loadCudaDriver(llvm::StringRef Path) {
  std::string Lib = Path.str();
  // RTLD_LOCAL: the driver's symbols must not satisfy anyone else's undefined references.
  void *Handle = dlopen(Lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *Why = dlerror();
    return makeError(ErrorCode::Device, "cannot load the CUDA driver " + Lib + ": " +
                                            (Why ? Why : "unknown dlopen error") + "; " + LoadFix);
  }
  auto D = std::make_unique<CudaDriver>();
  D->Library = Lib;
  const char *Missing = nullptr;
  // The versioned names are what cuda.h's macros call today (the unversioned ones are the old ABI).
  resolve(Handle, "cuInit", D->cuInit, Missing);
  resolve(Handle, "cuDriverGetVersion", D->cuDriverGetVersion, Missing);
  resolve(Handle, "cuDeviceGetCount", D->cuDeviceGetCount, Missing);
  resolve(Handle, "cuDeviceGet", D->cuDeviceGet, Missing);
  resolve(Handle, "cuDeviceGetName", D->cuDeviceGetName, Missing);
  resolve(Handle, "cuDeviceGetAttribute", D->cuDeviceGetAttribute, Missing);
  resolve(Handle, "cuDeviceTotalMem_v2", D->cuDeviceTotalMem, Missing);
  resolve(Handle, "cuDevicePrimaryCtxRetain", D->cuDevicePrimaryCtxRetain, Missing);
  resolve(Handle, "cuDevicePrimaryCtxRelease_v2", D->cuDevicePrimaryCtxRelease, Missing);
  resolve(Handle, "cuCtxSetCurrent", D->cuCtxSetCurrent, Missing);
  resolve(Handle, "cuMemAlloc_v2", D->cuMemAlloc, Missing);
  resolve(Handle, "cuMemFree_v2", D->cuMemFree, Missing);
  resolve(Handle, "cuMemHostAlloc", D->cuMemHostAlloc, Missing);
  resolve(Handle, "cuMemFreeHost", D->cuMemFreeHost, Missing);
  // Optional: only JACC_MEMORY=unified calls them.
  const char *Optional = nullptr;
  resolve(Handle, "cuMemAllocManaged", D->cuMemAllocManaged, Optional);
  resolve(Handle, "cuMemAdvise", D->cuMemAdvise, Optional);
  resolve(Handle, "cuMemPrefetchAsync", D->cuMemPrefetchAsync, Optional);
  resolve(Handle, "cuMemcpyHtoDAsync_v2", D->cuMemcpyHtoDAsync, Missing);
  resolve(Handle, "cuMemcpyDtoHAsync_v2", D->cuMemcpyDtoHAsync, Missing);
  resolve(Handle, "cuMemcpyDtoDAsync_v2", D->cuMemcpyDtoDAsync, Missing);
  resolve(Handle, "cuMemcpyPeerAsync", D->cuMemcpyPeerAsync, Missing);
  resolve(Handle, "cuMemcpy2DAsync_v2", D->cuMemcpy2DAsync, Missing);
  resolve(Handle, "cuDeviceCanAccessPeer", D->cuDeviceCanAccessPeer, Missing);
  resolve(Handle, "cuCtxEnablePeerAccess", D->cuCtxEnablePeerAccess, Missing);
  resolve(Handle, "cuStreamCreate", D->cuStreamCreate, Missing);
  resolve(Handle, "cuStreamSynchronize", D->cuStreamSynchronize, Missing);
  resolve(Handle, "cuStreamDestroy_v2", D->cuStreamDestroy, Missing);
  resolve(Handle, "cuEventCreate", D->cuEventCreate, Missing);
  resolve(Handle, "cuEventRecord", D->cuEventRecord, Missing);
  resolve(Handle, "cuEventQuery", D->cuEventQuery, Missing);
  resolve(Handle, "cuEventSynchronize", D->cuEventSynchronize, Missing);
  resolve(Handle, "cuEventDestroy_v2", D->cuEventDestroy, Missing);
  resolve(Handle, "cuModuleLoadData", D->cuModuleLoadData, Missing);
  resolve(Handle, "cuModuleGetFunction", D->cuModuleGetFunction, Missing);
  resolve(Handle, "cuModuleUnload", D->cuModuleUnload, Missing);
  resolve(Handle, "cuLaunchKernel", D->cuLaunchKernel, Missing);
  resolve(Handle, "cuLaunchCooperativeKernel", D->cuLaunchCooperativeKernel, Missing);
  resolve(Handle, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
          D->cuOccupancyMaxActiveBlocksPerMultiprocessor, Missing);
  resolve(Handle, "cuGetErrorName", D->cuGetErrorName, Missing);
  resolve(Handle, "cuGetErrorString", D->cuGetErrorString, Missing);
  if (Missing) {
    // Not dlclose'd: a driver library may not survive being unloaded (see loadCudaDriver's doc).
    return makeError(ErrorCode::Device, "the CUDA driver " + Lib + " has no " + Missing +
                                            ": it is too old for jacc; update the NVIDIA driver "
                                            "(or run on the CPU with JACC_DEVICES=host)");
  }
  if (CUresult R = D->cuInit(0))
    return makeError(ErrorCode::Device,
                     "the CUDA driver " + Lib + " failed to initialise: cuInit returned " +
                         D->describe(R) +
                         "; check that a GPU is visible (nvidia-smi) and the driver is loaded, or "
                         "run on the CPU with JACC_DEVICES=host");
  if (CUresult R = D->cuDriverGetVersion(&D->Version))
    return cudaError(*D, R, "cuDriverGetVersion", Lib);
  return D;
}

std::string cudaDriverPath() {
  const char *Env = env::get(env::Var::LibCuda);
  return Env && *Env ? Env : "libcuda.so.1";
}

llvm::Expected<const CudaDriver &> cudaDriver() {
  // Never destroyed: devices released by static destructors may still call the driver.
  static std::mutex *M = new std::mutex;
  static auto *Cache = new std::map<std::string, CachedLoad>;
  std::string Path = cudaDriverPath();
  std::lock_guard<std::mutex> Lock(*M);
  auto [It, Inserted] = Cache->try_emplace(Path);
  CachedLoad &C = It->second;
  if (Inserted) {
    auto D = loadCudaDriver(Path);
    if (D)
      C.Driver = std::move(*D);
    else
      C.Code = takeError(D.takeError(), C.Message);
  }
  if (!C.Driver)
    return makeError(C.Code, C.Message);
  return *C.Driver;
}

llvm::Expected<int> cudaDeviceCount() {
  auto D = cudaDriver();
  if (!D)
    return D.takeError();
  int Count = 0;
  if (CUresult R = D->cuDeviceGetCount(&Count))
    return cudaError(*D, R, "cuDeviceGetCount", "the CUDA driver");
  return Count;
}

llvm::Error cudaError(const CudaDriver &Driver, CUresult Result, const llvm::Twine &Call,
                      const llvm::Twine &Device) {
  return makeError(Result == CUDA_ERROR_OUT_OF_MEMORY ? ErrorCode::OutOfMemory : ErrorCode::Device,
                   Device + ": " + Call + " failed with " + Driver.describe(Result));
}

} // namespace jacc
