// A host device: its own memory (a separate copy of every mapped array, as a discrete GPU has) and
// its own team of worker threads on a share of the cores. It runs HostLaunch work: kernels
// (HostKernelLaunch) call their JIT'd entry on every member of the team.
#ifndef JACC_SRC_HOST_HOSTDEVICE_H
#define JACC_SRC_HOST_HOSTDEVICE_H

#include "src/Device.h"
#include "src/host/ForkChoice.h"
#include "src/host/HostMemory.h"

#include <chrono>
#include <memory>

namespace jacc {

class HostDevice final : public Device {
public:
  /// Threads: team size (>= 1). SpinTime: how long idle workers spin before blocking.
  /// Memory: how copies are allocated (src/host/HostMemory.h); Guarded also installs a SIGSEGV
  /// report naming the kernel (JACC_CHECK=bounds). Fork: when a run is short enough for the
  /// launching thread to run the team's members in turn (tests set their own). Slowdown: every run
  /// takes this many times as long (JACC_TEST_SLOWDOWN: a weaker device, for tests of the balance).
  /// AloneThreads: the team of a launch built Alone (LaunchCode), when more than Threads: the
  /// cores the other host devices leave idle then (a second team, started by the first such
  /// launch).
  static llvm::Expected<std::unique_ptr<HostDevice>>
  create(unsigned Index, unsigned Threads, std::chrono::microseconds SpinTime,
         HostCopies Memory = HostCopies::Plain, ForkChoice::Limits Fork = ForkChoice::Limits(),
         double Slowdown = 1, unsigned AloneThreads = 0);
  ~HostDevice() override;
  unsigned computeUnits() const override;

private:
  HostDevice(unsigned Index, unsigned Threads, std::chrono::microseconds SpinTime,
             HostCopies Memory, ForkChoice::Limits Fork, double Slowdown, unsigned AloneThreads);
  DeviceProperties propertiesImpl() const override;
  llvm::Expected<void *> allocateImpl(size_t Bytes) override;
  llvm::Error releaseImpl(void *DevicePtr) override;
  bool reusesReleasedMemory() const override;
  llvm::Error copyToDeviceImpl(void *Dst, const void *HostSrc, size_t Bytes) override;
  llvm::Error copyToHostImpl(void *HostDst, const void *Src, size_t Bytes) override;
  llvm::Error prepareCodeImpl(const jit::CompiledKernel &K, const LaunchCode &C) override;
  llvm::Expected<std::shared_ptr<KernelLaunch>>
  constructLaunchImpl(std::shared_ptr<const jit::CompiledKernel> K, ArgCells Cells,
                      AggregateArgs Aggregates, const LaunchCode &C) override;
  llvm::Expected<uint64_t> launchImpl(std::shared_ptr<DeviceLaunch> L, bool Async) override;
  llvm::Error waitForImpl(uint64_t Ticket) override;
  llvm::Expected<uint64_t> reserveLaunchImpl(std::shared_ptr<DeviceLaunch> L) override;
  llvm::Error runReservedImpl(uint64_t Ticket) override;
  uint64_t lastTicketImpl() const override;
  uint64_t completedTicketImpl() const override;

  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace jacc

#endif
