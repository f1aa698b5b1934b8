// The device interface: a generic, non-virtual front (validation, tracing, statistics, in-order
// queue bookkeeping, peer copies through host memory) over backend hooks (*Impl), as LLVM
// Offload's plugins-nextgen does. Each backend lives in its own folder (src/host, src/cuda) and is
// registered once (src/DeviceRegistry.cpp); nothing outside them asks what kind a device is.
#ifndef JACC_SRC_DEVICE_H
#define JACC_SRC_DEVICE_H

#include "jacc/openacc.h"
#include "src/LaunchCode.h"
#include "src/MemoryPool.h"
#include "support/Error.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace jacc {

namespace jit {
struct CompiledKernel;
struct SpecializeSettings;
} // namespace jit

class DeviceLaunch;
class KernelLaunch;

/// What a device says about itself: what the OpenACC routines report, and the facts the
/// runtime's generic paths need (instead of asking for a kind).
struct DeviceProperties {
  acc_device_t Type = acc_device_host; ///< its OpenACC device type
  std::string Model;                   ///< acc_property_name: "host:0", the GPU's model
  std::string Vendor, Driver;          ///< acc_property_vendor, acc_property_driver
  size_t TotalMemory = 0, FreeMemory = 0; ///< bytes; 0 when unknown
  unsigned ComputeUnits = 0;           ///< threads (host) or SMs (GPU)
  unsigned ComputeCapability = 0;      ///< a GPU's sm_XY as 10 * X + Y; 0 for others
};

/// The longest a thread spins for a hand-off between the launching thread and a device's stream
/// thread (work queued, a ticket completed, the devices of a split launch meeting) before it
/// sleeps: a futex wake-up costs tens of microseconds on a VM, more than a tiny kernel, and a
/// program spread over devices pushes its kernels tens to hundreds of microseconds apart (NPB
/// SP's: a spin of 50 µs slept at most of them and made its split launches 1.5x slower). The
/// spin adapts to the recent waits and stops when the cores are wanted (support/SpinWait.h);
/// JACC_SPIN_US lowers it (0: never spin).
constexpr std::chrono::microseconds MaxHandOffSpin{1000};
inline std::chrono::microseconds handOffSpin(std::chrono::microseconds SpinTime) {
  return std::min(SpinTime, MaxHandOffSpin);
}

class Device {
public:
  virtual ~Device();
  unsigned index() const { return Index; }         ///< position in the runtime's device list
  const std::string &name() const { return Name; } ///< "host:0", "cuda:1"
  /// The name's part before the index: "host", "cuda".
  std::string kind() const { return Name.substr(0, Name.find(':')); }
  virtual unsigned computeUnits() const = 0;       ///< threads (host) or SMs (GPU)
  /// Whether its memory is the process's host memory (a host device): its pointers can be read
  /// and written by the CPU, so copies to and from it need no staging.
  bool hostMemory() const { return HostMemory; }
  /// Whether it computes on the process's own cores (a host device), which all such devices
  /// share: the whole kernel run on each of them at once takes as long as on each in turn.
  bool hostCores() const { return HostMemory; }
  /// Whether code outside jacc (a vendor library, a native kernel) may write this device's memory
  /// through pointers the program holds: such writes reach one copy of an acc_malloc block, so
  /// by default (JACC_MALLOC=auto) its blocks get no copies on other devices.
  bool nativeCodeMayWrite() const { return nativeCodeMayWriteImpl(); }
  DeviceProperties properties() const {
    DeviceProperties P = propertiesImpl();
    P.ComputeUnits = computeUnits();
    // Blocks the pool keeps are free for the program.
    if (P.TotalMemory)
      P.FreeMemory = std::min(P.TotalMemory, P.FreeMemory + Pool.keptBytes());
    return P;
  }

  /// Allocate device memory; OutOfMemory names the device and the size. A block of
  /// MemoryPool::MinBytes or more released earlier with the same size is reused.
  llvm::Expected<void *> allocate(size_t Bytes);
  /// Give the blocks the pool keeps back to the backend (finalize; an allocation that failed).
  llvm::Error releaseKeptMemory();
  /// JACC_MEMORY_POOL=0: every release reaches the backend (a memory checker then sees each).
  void keepReleasedMemory(bool On) { PoolOn = On; }
  /// JACC_MEMORY=unified: memory every device and the host can address (CUDA's managed
  /// memory), released with release(). Unsupported for a device that cannot, naming it.
  llvm::Expected<void *> allocateUnified(size_t Bytes);
  /// JACC_MEMORY=unified: move [Ptr, Ptr+Bytes) of allocateUnified() memory next to this device
  /// ahead of its next launch, read-mostly when no kernel is about to write it (a hint: a
  /// device whose memory is the host's does nothing).
  llvm::Error prefetch(const void *Ptr, size_t Bytes, bool ReadMostly);
  /// Bytes: the allocation's size, for profiling tools (0: not known here).
  llvm::Error release(void *DevicePtr, size_t Bytes = 0);
  /// Copies count their bytes in stats(); zero bytes, or a copy onto itself (one memory shared
  /// by both sides, JACC_MEMORY=unified), is a no-op.
  llvm::Error copyToDevice(void *Dst, const void *HostSrc, size_t Bytes);
  llvm::Error copyToHost(void *HostDst, const void *Src, size_t Bytes);
  llvm::Error copyToPeer(Device &DstDevice, void *Dst, const void *Src, size_t Bytes);
  /// Height rows of Width bytes, Pitch bytes apart in both memories (a strided exchange). A
  /// device with host memory on either side is reached by the other's host copy; two devices of
  /// one backend use its fast path; others are staged through host memory.
  llvm::Error copyToPeer2D(Device &DstDevice, void *Dst, const void *Src, size_t Width,
                           size_t Height, size_t Pitch);
  /// Height rows of Width bytes, Pitch bytes apart in both memories, to host memory (a gather
  /// of a column band).
  llvm::Error copyToHost2D(void *HostDst, const void *Src, size_t Width, size_t Height,
                           size_t Pitch);

  /// This device's code for launches of K as C says, compiled (or found) before anything is
  /// queued: a kernel that cannot run here then fails the push with nothing launched anywhere.
  llvm::Error prepareCode(const jit::CompiledKernel &K, const LaunchCode &C);
  /// This device's launch of K with its argument cells (translated to its addresses).
  llvm::Expected<std::shared_ptr<KernelLaunch>> constructLaunch(std::shared_ptr<const jit::CompiledKernel> K,
                                                ArgCells Cells, AggregateArgs Aggregates,
                                                const LaunchCode &C);
  /// Add the code targets this device runs to the specializer's settings (variants are
  /// compiled for each ahead of their use).
  virtual void addCodeTargets(jit::SpecializeSettings &) const {}

  /// Run a launch. Async: queue it in order after earlier queued work and return its ticket.
  /// Sync: wait for earlier queued work, run it, and return its ticket once done.
  llvm::Expected<uint64_t> launch(std::shared_ptr<DeviceLaunch> L, bool Async);
  /// Issue L's ticket now, in order with every other launch, for runReserved to run on the
  /// thread that would otherwise wait for it: a device whose launches run on their caller then
  /// takes no hand-off (the caller computes its part instead of sleeping); the others queue L
  /// now, as an async launch.
  llvm::Expected<uint64_t> reserveLaunch(std::shared_ptr<DeviceLaunch> L);
  /// Run the launch reserved under Ticket on this thread once everything before it completed
  /// (or wait for it where it was queued), and return its error.
  llvm::Error runReserved(uint64_t Ticket);
  /// Wait until the work with this ticket (and everything queued before it) completed.
  /// Returns the first error an async launch reported, once.
  llvm::Error waitFor(uint64_t Ticket);
  /// Wait for everything queued so far.
  llvm::Error synchronize();
  /// Ticket of the most recently submitted launch (0 if none).
  uint64_t lastTicket() const;
  /// Whether everything queued so far has completed, without waiting (acc_async_test). An async
  /// launch's error is still kept for the next waitFor() / synchronize().
  bool idle() const;
  /// Launches submitted and not completed yet (queued or running).
  uint64_t pending() const;

protected:
  Device(unsigned Index, std::string Name, bool HostMemory)
      : Index(Index), Name(std::move(Name)), HostMemory(HostMemory) {}

  virtual DeviceProperties propertiesImpl() const = 0;
  virtual llvm::Expected<void *> allocateImpl(size_t Bytes) = 0;
  virtual llvm::Error releaseImpl(void *DevicePtr) = 0;
  /// Whether released blocks may be kept for reuse (MemoryPool): not where every release must
  /// reach the backend (guard pages that catch a use after the release).
  virtual bool reusesReleasedMemory() const { return true; }
  /// The default: only jacc's kernels and copies reach the device's memory (a host device's
  /// memory read or written by the program's host code breaks OpenACC's rules for device memory).
  virtual bool nativeCodeMayWriteImpl() const { return false; }
  virtual llvm::Expected<void *> allocateUnifiedImpl(size_t Bytes);
  virtual llvm::Error prefetchImpl(const void *, size_t, bool) { return llvm::Error::success(); }
  virtual llvm::Error copyToDeviceImpl(void *Dst, const void *HostSrc, size_t Bytes) = 0;
  virtual llvm::Error copyToHostImpl(void *HostDst, const void *Src, size_t Bytes) = 0;
  /// Strided copies between this device and host memory (Width, Height > 0). The defaults copy
  /// row by row through the plain hooks; backends with a 2-D copy engine override them.
  virtual llvm::Error copyToDevice2DImpl(void *Dst, const void *HostSrc, size_t Width,
                                         size_t Height, size_t Pitch);
  virtual llvm::Error copyToHost2DImpl(void *HostDst, const void *Src, size_t Width, size_t Height,
                                       size_t Pitch);
  /// A strided copy to a device without host memory (Width, Height > 0). The default stages it
  /// through a host buffer; a backend overrides it for peers of its own (checking the peer's
  /// type) and calls the default for others.
  virtual llvm::Error copyToPeer2DImpl(Device &DstDevice, void *Dst, const void *Src, size_t Width,
                                       size_t Height, size_t Pitch);
  virtual llvm::Error prepareCodeImpl(const jit::CompiledKernel &K, const LaunchCode &C) = 0;
  virtual llvm::Expected<std::shared_ptr<KernelLaunch>>
  constructLaunchImpl(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                      AggregateArgs Aggregates, const LaunchCode &C) = 0;
  virtual llvm::Expected<uint64_t> launchImpl(std::shared_ptr<DeviceLaunch> L, bool Async) = 0;
  virtual llvm::Error waitForImpl(uint64_t Ticket) = 0;
  /// By default a reserved launch is queued at once and its runner waits for it.
  virtual llvm::Expected<uint64_t> reserveLaunchImpl(std::shared_ptr<DeviceLaunch> L) {
    return launchImpl(std::move(L), /*Async=*/true);
  }
  virtual llvm::Error runReservedImpl(uint64_t Ticket) { return waitForImpl(Ticket); }
  virtual uint64_t lastTicketImpl() const = 0;
  /// Every launch with a ticket up to the result has completed.
  virtual uint64_t completedTicketImpl() const = 0;

private:
  enum class Submit { Async, Sync, Reserved };
  /// launch() and reserveLaunch(): the watchdog, timing and profiling around the backend's hook.
  llvm::Expected<uint64_t> submit(std::shared_ptr<DeviceLaunch> L, Submit How);
  /// The path of a peer copy: host memory on either side, else the backend's hook.
  llvm::Error peerCopy(Device &DstDevice, void *Dst, const void *Src, size_t Width, size_t Height,
                       size_t Pitch);

  unsigned Index;
  std::string Name;
  bool HostMemory;
  /// When the last observed launch ended (profiling: the next one cannot have started before).
  std::atomic<int64_t> LastRunEnd{0};
  MemoryPool Pool;
  bool PoolOn = true;
  std::once_flag PoolLimitSet; ///< an eighth of the device's memory, set at the first use
};

} // namespace jacc

#endif
