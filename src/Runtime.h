// The runtime: devices, the present table, the kernel cache and the scheduler that launches a
// kernel on every device. The C API (CApi.cpp) is a thin layer over this class.
#ifndef JACC_SRC_RUNTIME_H
#define JACC_SRC_RUNTIME_H

#include "jit/KernelCache.h"
#include "src/Device.h"
#include "src/data/PresentTable.h"
#include "src/launch/Adaptive.h"
#include "src/launch/KernelLaunch.h"

#include "jacc/jacc.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
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

  // --- The OpenACC runtime API (src/OpenACC.cpp). Device is an index into the device list (the
  // caller's "current device"); Api names the routine in messages. ---

  /// What acc_get_property reports about one device.
  struct DeviceInfo {
    DeviceKind Kind = DeviceKind::Host;
    std::string Name, Vendor, Driver;
    size_t TotalMemory = 0, FreeMemory = 0; ///< bytes; 0 when unknown
  };
  /// The kind of every device, in device order.
  llvm::Expected<std::vector<DeviceKind>> deviceKinds();
  llvm::Expected<DeviceInfo> deviceInfo(unsigned Device, const char *Api);

  /// OpenACC exit (acc_copyout, acc_delete): absent data and a dynamic count already at zero are
  /// no-ops; Finalize sets the count to zero instead of decrementing it. At zero (and no
  /// structured reference), copy back from the primary device (CopyBack) and free. Taking the
  /// count of an acc_map_data mapping to zero is an error: only acc_unmap_data ends it.
  llvm::Error exitDataOpenACC(void *P, size_t Bytes, bool CopyBack, bool Finalize,
                              const char *Api);
  /// Device's address of the mapped host address P; null when P is not mapped.
  llvm::Expected<void *> devicePtr(const void *P, unsigned Device, const char *Api);
  /// The host address whose copy on Device is at DevicePtr; null when no mapping has it.
  llvm::Expected<void *> hostPtr(const void *DevicePtr, unsigned Device, const char *Api);
  /// acc_malloc: Bytes of Device's memory, owned by the program (acc_free, or finalize, frees it).
  llvm::Expected<void *> allocateUser(unsigned Device, size_t Bytes, const char *Api);
  /// acc_free of an allocateUser() block that no acc_map_data mapping uses.
  llvm::Error releaseUser(void *DevicePtr, const char *Api);
  /// acc_map_data: map [P, P+Bytes), which must be absent, with DevicePtr as Device's copy; the
  /// other devices get copies of their own, initialised from DevicePtr. Dynamic count 1.
  llvm::Error mapUserData(void *P, void *DevicePtr, size_t Bytes, unsigned Device,
                          const char *Api);
  /// acc_unmap_data: end a mapping made by mapUserData (P its start), whatever its dynamic count;
  /// frees the other devices' copies, never the program's memory.
  llvm::Error unmapUserData(void *P, const char *Api);
  enum class MemcpyKind { HostToDevice, DeviceToHost, DeviceToDevice };
  /// acc_memcpy_to_device / _from_device / _device on Device's memory, after the device's queued
  /// work. Device addresses must lie in one block jacc knows on Device: an allocateUser() block or
  /// a mapping's copy.
  llvm::Error memcpyDevice(MemcpyKind Kind, void *Dst, const void *Src, size_t Bytes,
                           unsigned Device, const char *Api);
  /// acc_memcpy_d2d: copy the mapped host range SrcP's copy on SrcDevice to the mapped host range
  /// DstP's copy on DstDevice.
  llvm::Error memcpyBetweenDevices(void *DstP, const void *SrcP, size_t Bytes, unsigned DstDevice,
                                   unsigned SrcDevice, const char *Api);
  /// Whether no device has queued work left (acc_async_test).
  llvm::Expected<bool> idle();

private:
  Runtime() = default;
  /// A shared hold on an initialised runtime (initialising it first if needed).
  llvm::Expected<std::shared_lock<std::shared_mutex>> acquire();
  llvm::Error initLocked();
  /// Wait for queued kernels that use M (caller holds the table lock).
  llvm::Error waitForUses(const Mapping &M);
  /// OpenACC: an error unless Device indexes the device list (caller holds the state lock).
  llvm::Error checkDevice(unsigned Device, const char *Api) const;
  /// OpenACC: whether [P, P+Bytes) lies inside one block of Device's memory that jacc knows (an
  /// allocateUser() block or a mapping's copy); caller holds the table lock.
  bool knownDeviceRange(const void *P, size_t Bytes, unsigned Device);
  /// The device whose memory P is in: an allocateUser() block's, or a mapping's copy (then
  /// *Owner is that mapping); none for any other address. Caller holds the table lock.
  std::optional<unsigned> deviceOwning(const void *P, Mapping **Owner);
  /// The launch of K on device D with its argument cells: the host's split entry when Split, the
  /// variant's entry or image when Variant.
  std::shared_ptr<KernelLaunch>
  makeLaunch(std::shared_ptr<const jit::CompiledKernel> K, unsigned D, ArgCells Cells,
             std::shared_ptr<std::vector<std::vector<char>>> Aggregates,
             const jit::SplitCode *Split, const jit::VariantCode *Variant);
  /// Run K on device O alone (a kernel given deviceptr memory, which only O can see), then copy
  /// the mappings it may have written from O to the other devices. Caller holds the table lock.
  llvm::Error launchOnOwner(std::shared_ptr<const jit::CompiledKernel> K, unsigned O,
                            ArgCells Cells,
                            std::shared_ptr<std::vector<std::vector<char>>> Aggregates,
                            llvm::ArrayRef<Mapping *> Written,
                            std::function<void(const KernelLaunch &)> OnFinished,
                            const jit::VariantCode *Variant);
  /// finalize(): free the allocateUser() blocks and keep the program's acc_map_data memory out of
  /// the mappings' release (caller holds the table lock).
  llvm::Error releaseUserMemoryLocked();

  enum class SplitMode { Auto, Always, Never };

  std::shared_mutex StateMutex; // shared: any operation; exclusive: init / finalize
  SplitMode SplitPolicy = SplitMode::Auto; ///< JACC_SPLIT
  bool NarrowPolicy = true;                ///< JACC_NARROW
  AdaptiveChooser Adaptive;
  bool Initialized = false;
  std::vector<std::unique_ptr<Device>> Devices;
  PresentTable Table;
  jit::KernelCache Cache;
  jit::SpecializeSettings Specialize; ///< JACC_SPECIALIZE*
  /// acc_malloc blocks by device address: their device and size (guarded by Table.mutex()).
  struct UserAllocation {
    unsigned Device = 0;
    size_t Bytes = 0;
  };
  std::map<uintptr_t, UserAllocation> UserAllocations;
  /// Compiles kernel variants off the launch path. Last: destroyed (joined) first.
  jit::BackgroundCompiler Compiler;
};

} // namespace jacc

#endif
