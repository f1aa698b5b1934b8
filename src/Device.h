// The device interface: a generic, non-virtual front (validation, tracing, statistics, in-order
// queue bookkeeping) over backend hooks (*Impl), as LLVM Offload's plugins-nextgen does.
#ifndef JACC_SRC_DEVICE_H
#define JACC_SRC_DEVICE_H

#include "support/Error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace jacc {


enum class DeviceKind { Host, Cuda };

class CudaDevice;

/// One kernel launch on one device, prepared by the scheduler (arguments already translated to
/// this device's addresses). Backends call the hook that matches their kind.
class DeviceLaunch {
public:
  virtual ~DeviceLaunch();
  /// Host backends: execute team member Tid's part. Team is the runtime's ThreadTeam, passed on to
  /// the generated code for barriers. Called on every member of the team, concurrently.
  virtual void runHostMember(unsigned Tid, unsigned NThreads, void *Team,
                             void (*Barrier)(void *Team)) = 0;
  /// GPU backends: enqueue the kernel (and any read-back it needs) on D's stream, in order, and
  /// return without waiting; D calls finished() once that work has completed.
  virtual llvm::Error enqueueCuda(CudaDevice &D);
  /// Host: called once after every member has returned (on the thread that ran member 0).
  /// CUDA: called once the enqueued work completed, also when the launch failed (launch() or
  /// waitFor() reports the error), on the device's event poller thread: it must not wait for
  /// later work of the same device.
  virtual void finished() {}
};

class Device {
public:
  virtual ~Device();
  DeviceKind kind() const { return Kind; }
  unsigned index() const { return Index; }           ///< position in the runtime's device list
  const std::string &name() const { return Name; }   ///< "host:0", "cuda:1"
  virtual unsigned computeUnits() const = 0;         ///< threads (host) or SMs (GPU)

  /// Allocate device memory; OutOfMemory names the device and the size.
  llvm::Expected<void *> allocate(size_t Bytes);
  llvm::Error release(void *DevicePtr);
  /// Copies count their bytes in stats(); zero bytes is a no-op.
  llvm::Error copyToDevice(void *Dst, const void *HostSrc, size_t Bytes);
  llvm::Error copyToHost(void *HostDst, const void *Src, size_t Bytes);
  llvm::Error copyToPeer(Device &DstDevice, void *Dst, const void *Src, size_t Bytes);
  /// Height rows of Width bytes, Pitch bytes apart in both memories (a strided exchange).
  llvm::Error copyToPeer2D(Device &DstDevice, void *Dst, const void *Src, size_t Width,
                           size_t Height, size_t Pitch);

  /// Run a launch. Async: queue it in order after earlier queued work and return its ticket.
  /// Sync: wait for earlier queued work, run it, and return its ticket once done.
  llvm::Expected<uint64_t> launch(std::shared_ptr<DeviceLaunch> L, bool Async);
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

protected:
  Device(DeviceKind Kind, unsigned Index, std::string Name)
      : Kind(Kind), Index(Index), Name(std::move(Name)) {}

  virtual llvm::Expected<void *> allocateImpl(size_t Bytes) = 0;
  virtual llvm::Error releaseImpl(void *DevicePtr) = 0;
  virtual llvm::Error copyToDeviceImpl(void *Dst, const void *HostSrc, size_t Bytes) = 0;
  virtual llvm::Error copyToHostImpl(void *HostDst, const void *Src, size_t Bytes) = 0;
  virtual llvm::Error copyToPeerImpl(Device &DstDevice, void *Dst, const void *Src,
                                     size_t Bytes) = 0;
  /// Strided peer copy (Width, Height > 0). The default copies row by row through
  /// copyToPeerImpl; backends with a 2-D copy engine override it.
  virtual llvm::Error copyToPeer2DImpl(Device &DstDevice, void *Dst, const void *Src, size_t Width,
                                       size_t Height, size_t Pitch);
  virtual llvm::Expected<uint64_t> launchImpl(std::shared_ptr<DeviceLaunch> L, bool Async) = 0;
  virtual llvm::Error waitForImpl(uint64_t Ticket) = 0;
  virtual uint64_t lastTicketImpl() const = 0;
  /// Every launch with a ticket up to the result has completed.
  virtual uint64_t completedTicketImpl() const = 0;

private:
  DeviceKind Kind;
  unsigned Index;
  std::string Name;
};

} // namespace jacc

#endif
