// The runtime: devices, the present table, the kernel cache and the scheduler that launches a
// kernel on every device. The C API (CApi.cpp) is a thin layer over this class.
#ifndef JACC_SRC_RUNTIME_H
#define JACC_SRC_RUNTIME_H

#include "Adaptive.h"
#include "Device.h"
#include "KernelCache.h"
#include "PresentTable.h"

#include "jacc/jacc.h"

#include <memory>
#include <shared_mutex>
#include <vector>

namespace jacc {

class Runtime {
public:
  /// The process's runtime.
  static Runtime &instance();

  /// Create the devices from the environment; idempotent.
  llvm::Error init();
  /// Wait for all work, free all device memory, drop the devices (kernels stay cached).
  llvm::Error finalize();
  llvm::Expected<unsigned> numDevices();

  /// create / copyin: present-or-create, reference counted (Api names the caller in messages).
  llvm::Error enterData(void *P, size_t Bytes, bool Copy, const char *Api);
  /// copyout / delete: decrement; at zero copy back (CopyBack) and free.
  llvm::Error exitData(void *P, size_t Bytes, bool CopyBack, const char *Api);
  /// update device / self of a mapped (sub-)range.
  llvm::Error update(void *P, size_t Bytes, bool ToDevice, const char *Api);
  llvm::Expected<bool> isPresent(const void *P, size_t Bytes);

  llvm::Error push(const char *Source, int NArgs, const jacc_arg *Args, unsigned Flags);
  llvm::Error wait();

  jit::KernelCache &kernelCache() { return Cache; }

private:
  Runtime() = default;
  /// A shared hold on an initialised runtime (initialising it first if needed).
  llvm::Expected<std::shared_lock<std::shared_mutex>> acquire();
  llvm::Error initLocked();
  /// Wait for queued kernels that use M (caller holds the table lock).
  llvm::Error waitForUses(const Mapping &M);

  enum class SplitMode { Auto, Always, Never };

  std::shared_mutex StateMutex; // shared: any operation; exclusive: init / finalize
  SplitMode SplitPolicy = SplitMode::Auto; ///< JACC_SPLIT
  bool NarrowPolicy = true;                ///< JACC_NARROW
  AdaptiveChooser Adaptive;
  bool Initialized = false;
  std::vector<std::unique_ptr<Device>> Devices;
  PresentTable Table;
  jit::KernelCache Cache;
};

} // namespace jacc

#endif
