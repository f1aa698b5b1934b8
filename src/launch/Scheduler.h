// Runs planned pushes on the devices (libgomp's oacc-parallel.c room): builds each device's
// launch, joins split launches in one group with their shares, orders tickets so that devices
// meet in the same order, runs device 0's part on the caller when it can, waits, and runs
// deviceptr kernels on their owner alone.
#ifndef JACC_SRC_LAUNCH_SCHEDULER_H
#define JACC_SRC_LAUNCH_SCHEDULER_H

#include "src/data/DataEnvironment.h"
#include "src/launch/ExchangeMemo.h"
#include "src/launch/LaunchPlan.h"

#include <llvm/ADT/ArrayRef.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>

namespace jacc {

class Scheduler {
public:
  Scheduler(DataEnvironment &Data) : Data(Data) {}
  /// The devices to run on, in device order (set by init, cleared by finalize, which forgets
  /// what the split launches on the old ones needed).
  void attach(llvm::ArrayRef<std::unique_ptr<Device>> Devices) {
    this->Devices = Devices;
    Memo.clear();
  }
  /// JACC_EXCHANGE: demand (split launches that can be probed fetch what they read and
  /// exchange nothing after) or eager (every split launch ends with the exchange).
  void setDemandExchange(bool Demand) { DemandExchange = Demand; }
  /// How long the devices of a split launch spin for each other at its exchange (JACC_SPIN_US,
  /// bounded as the devices' own hand-offs are) before they sleep.
  void setMeetSpin(std::chrono::microseconds Spin) { MeetSpin.emplace(handOffSpin(Spin)); }

  /// Launch K as planned with Code on every device (or on the plan's owner alone). Async: return
  /// once queued. TableLock, Data's lock held since the plan was made, is released before
  /// waiting; the mappings the plan uses get the launch's tickets first.
  llvm::Error run(std::shared_ptr<const jit::CompiledKernel> K, LaunchPlan &Plan,
                  const LaunchCode &Code, bool Async, std::unique_lock<std::mutex> TableLock);

private:
  /// Run K on device O alone (a kernel given deviceptr memory, which only O can see, or one
  /// memory its devices' parts would overlap in); what it may have written is then current on O
  /// alone (one memory and pointer arrays: copied to the others). Caller holds the table lock.
  llvm::Error runOnOwner(std::shared_ptr<const jit::CompiledKernel> K, LaunchPlan &Plan,
                         const LaunchCode &Code);
  /// Whether a synchronous launch on device O alone has the cores it shares with the other
  /// devices to itself: they all compute on the process's cores and have nothing queued.
  bool aloneOnSharedCores(unsigned O) const;
  /// Take a ticket on every device, in device order, under the table lock: devices of split
  /// launches meet for the exchange, so two threads pushing at once must not queue them in
  /// opposite orders. Reserve: the device whose launch is reserved for this thread to run.
  llvm::Error queueAll(llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches,
                       llvm::ArrayRef<Mapping *> Used, llvm::MutableArrayRef<uint64_t> Tickets,
                       std::optional<unsigned> Reserve = std::nullopt);

  DataEnvironment &Data;
  llvm::ArrayRef<std::unique_ptr<Device>> Devices;
  bool DemandExchange = true;
  std::optional<SpinPolicy> MeetSpin;
  ExchangeMemo Memo; ///< split launches' ranges, under the table lock
};

} // namespace jacc

#endif
