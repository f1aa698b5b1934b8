// Launching planned pushes: duplicate and split launches, ticket order, waiting, owners.
#include "src/launch/Scheduler.h"

#include "src/launch/DemandExchange.h"
#include "src/profile/KernelNames.h"

#include "support/Debug.h"
#include "support/SavedError.h"
#include "support/Stats.h"

#include <algorithm>

namespace jacc {

llvm::Error Scheduler::queueAll(llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches,
                                llvm::ArrayRef<Mapping *> Used,
                                llvm::MutableArrayRef<uint64_t> Tickets,
                                std::optional<unsigned> Reserve) {
  auto Issue = [&](unsigned D) -> llvm::Error {
    auto Ticket = D == Reserve ? Devices[D]->reserveLaunch(Launches[D])
                               : Devices[D]->launch(Launches[D], /*Async=*/true);
    if (!Ticket)
      return Ticket.takeError();
    Tickets[D] = *Ticket;
    for (Mapping *M : Used)
      M->LastUse[D] = std::max(M->LastUse[D], *Ticket);
    return llvm::Error::success();
  };
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (Launches[D] && D != Reserve) // a device of the launch, not the reserved one
      if (auto E = Issue(D))
        return E;
  // Reserved last: once reserved, a launch must be run, and nothing after it can fail.
  return Reserve ? Issue(*Reserve) : llvm::Error::success();
}

/// The split arrays whose aliased reads may meet their writes are computed whole by every
/// device, which runs every iteration.
static void keepAliasedTargetsWhole(LaunchPlan &Plan,
                                    llvm::ArrayRef<std::shared_ptr<KernelLaunch>> Launches,
                                    SplitGroup &Group) {
  for (size_t I = 0; I < Plan.Targets.size(); ++I) {
    SplitTarget &T = Plan.Targets[I];
    if (!T.Split || T.AliasReads.empty())
      continue;
    T.Split = false;
    Plan.Narrow = false;
    Group.keepWhole(I);
    for (const auto &L : Launches)
      if (L)
        L->keepWhole(I);
  }
}

llvm::Error Scheduler::run(std::shared_ptr<const jit::CompiledKernel> K, LaunchPlan &Plan,
                           const LaunchCode &Code, bool Async,
                           std::unique_lock<std::mutex> TableLock) {
  const analysis::KernelInfo &Info = K->Info;
  unsigned N = Devices.size();
  // The launch's devices: every device, unless data it uses lives at a location (then those
  // holding all of it; the others get no launch).
  llvm::SmallVector<unsigned, 4> On;
  for (unsigned D = 0; D < N; ++D)
    if (Plan.Devices >> D & 1)
      On.push_back(D);
  if (On.empty())
    return makeError(ErrorCode::Internal, "jacc_kernel_push: no device holds the kernel's data");
  unsigned Lead = On.front(), Members = On.size();
  bool Unified = llvm::any_of(Plan.Used, [](const Mapping *M) { return M->Unified; });
  if (Plan.Owner)
    return runOnOwner(std::move(K), Plan, Code);
  llvm::SmallVector<std::shared_ptr<KernelLaunch>, 4> Launches(N);
  for (unsigned D : On) {
    LaunchCode OnD = Plan.codeOn(Code, D);
    OnD.Alone = Members == 1 && !Async && aloneOnSharedCores(D);
    auto L = Devices[D]->constructLaunch(K, std::move(Plan.Cells[D]), Plan.Aggregates[D], OnD);
    if (!L)
      return L.takeError();
    Launches[D] = std::move(*L);
  }
  bool Reduce = !Info.Reductions.empty();
  auto Combine = [K, R = Plan.Reductions](llvm::ArrayRef<const KernelLaunch *> Parts) {
    R.combine(K->Info, Parts);
  };
  std::shared_ptr<SplitGroup> Group;
  auto ShareOf = [&](unsigned D) {
    return Plan.Shares.empty() ? SplitShare::equal(D, N) : Plan.Shares[D];
  };
  if (Code.Split) {
    std::vector<Device *> Devs(N, nullptr); // the group's members: the launch's devices
    for (unsigned D : On)
      Devs[D] = Devices[D].get();
    Group = std::make_shared<SplitGroup>(std::move(Devs), Plan.Targets,
                                         MeetSpin ? &*MeetSpin : nullptr);
    if (Reduce)
      Group->OnAllComputed = Combine;
    for (unsigned D : On)
      Launches[D]->setSplit(D, ShareOf(D), Plan.Narrow, Group);
    stats().SplitLaunches.fetch_add(1, std::memory_order_relaxed);
  } else {
    if (Reduce)
      Launches[Lead]->OnFinished = [Combine](const KernelLaunch &Done) { Combine({&Done}); };
    stats().DuplicateLaunches.fetch_add(1, std::memory_order_relaxed);
  }

  if (!Plan.Bounds.empty())
    for (unsigned D : On)
      Launches[D]->checkBounds(Plan.Bounds, D);
  if (Plan.TimeParts && !Async)
    for (unsigned D : On)
      Launches[D]->Timing = std::make_unique<DeviceLaunch::TimedRun>();
  if (Plan.ObservedPush) {
    prof::KernelName Name = prof::kernelNameOf(*K);
    for (unsigned D : On)
      if (Group) {
        SplitShare S = ShareOf(D);
        Launches[D]->observe(Plan.ObservedPush, Name, prof::Mode::Split, S.Begin, S.End, S.Scale);
      } else {
        Launches[D]->observe(Plan.ObservedPush, Name, prof::Mode::Duplicate);
      }
  }
  bool Probed = false; // a split launch whose devices never meet (no exchange)
  if (N > 1 || Data.unified()) {
    Probed = Group && DemandExchange && probeSplitLaunches(Info, Plan, Launches);
    if (std::string Why = Group ? aliasedReadsMeetWrites(Info, Plan, Launches, Probed) : "";
        !Why.empty()) {
      debugLog("launch", Why + ": not split");
      keepAliasedTargetsWhole(Plan, Launches, *Group);
      if (Probed)
        Probed = probeSplitLaunches(Info, Plan, Launches); // without their narrowing
    }
    std::shared_ptr<const void> Kernel = K;
    ExchangeMemo::Use Remember{Memo, Kernel};
    if (auto E = fetchForLaunch(Info, Plan, Launches, Probed, Data, Plan.Fetched, Remember,
                                &Plan.ListedOnce))
      return E;
    if (Probed) {
      recordSplitWrites(Plan, Launches, Remember);
      Group->withoutExchange({Launches.begin(), Launches.end()});
    } else if (Members < N) {
      recordWholeWrites(Info, Plan, Plan.Devices); // computed on the launch's devices alone
    }
  }
  // Native implementations' parts, from their probes (taken above, or now). In one memory they
  // are disjoint: LaunchChooser::settle gave the launch no owner.
  if (!Plan.Natives.empty())
    for (unsigned D : On)
      if (auto E = Launches[D]->prepare(Plan.ArgHosts, Unified))
        return E;

  llvm::SmallVector<uint64_t, 4> Tickets(N, 0);
  // A kernel's own failure (a bounds violation) on one device must not stay pending on the
  // others for the next push: every device is waited for, the first error is reported.
  SavedError First;
  // Devices that exchange after the kernel meet in the group: their tickets are queued together.
  // A single device has nobody to meet and runs its part on this thread, with no hand-off.
  bool Meet = Group && !Probed && Members > 1;
  if (Async || Meet) {
    // Every device's ticket under the table lock, the lead device's too (see queueAll). A
    // synchronous push reserves the lead's part and computes it on this thread: waiting for the
    // lead's queue would add a hand-off each way and, where the devices share the cores, a
    // third thread to the devices' two.
    if (auto E = queueAll(Launches, Plan.Used, Tickets,
                          Async ? std::nullopt : std::optional<unsigned>(Lead)))
      return E;
    if (Async)
      return llvm::Error::success();
    TableLock.unlock();
    First.keep(Devices[Lead]->runReserved(Tickets[Lead]));
  } else {
    TableLock.unlock();
    // Other devices run on their own threads while this thread runs the lead device's part.
    for (unsigned D : llvm::drop_begin(On)) {
      auto Ticket = Devices[D]->launch(Launches[D], /*Async=*/true);
      if (!Ticket)
        return Ticket.takeError();
      Tickets[D] = *Ticket;
    }
    auto T0 = Devices[Lead]->launch(Launches[Lead], /*Async=*/false);
    if (!T0)
      First.keep(T0.takeError());
  }
  for (unsigned D : llvm::drop_begin(On))
    First.keep(Devices[D]->waitFor(Tickets[D]));
  if (Group)
    First.keep(Group->takeError());
  if (Plan.TimeParts && !Async)
    for (auto &L : Launches)
      Plan.PartNanos.push_back(L ? L->Timing->Nanos.load(std::memory_order_acquire) : -1);
  return First.take();
}

bool Scheduler::aloneOnSharedCores(unsigned O) const {
  if (Devices.size() < 2 || !llvm::all_of(Devices, [](const auto &D) { return D->hostCores(); }))
    return false;
  for (unsigned D = 0; D < Devices.size(); ++D)
    if (D != O && !Devices[D]->idle())
      return false;
  return true;
}

llvm::Error Scheduler::runOnOwner(std::shared_ptr<const jit::CompiledKernel> K, LaunchPlan &Plan,
                                  const LaunchCode &Code) {
  unsigned O = *Plan.Owner;
  std::string Why = Plan.OwnerArg.empty()
                        ? "its data is one memory and the kernel would compute it beyond each "
                          "device's share"
                        : "deviceptr '" + Plan.OwnerArg + "' is memory of device " +
                              std::to_string(O);
  debugLog("launch", Why + ": the kernel runs on device " + llvm::Twine(O) + " alone");
  // The kernel reads device O's copies: current first.
  for (Mapping *M : Plan.Used) {
    if (auto E = Data.prefetch(*M, {{0, M->bytes()}}, O, /*ReadMostly=*/false))
      return E;
    if (auto E = Data.makeCurrent(*M, 0, M->bytes(), O, &Plan.Fetched))
      return E;
  }
  LaunchCode OnO = Plan.codeOn(Code, O);
  OnO.Alone = aloneOnSharedCores(O);
  auto Launch = Devices[O]->constructLaunch(K, std::move(Plan.Cells[O]), Plan.Aggregates[O], OnO);
  if (!Launch)
    return Launch.takeError();
  // A unified kernel bound split (its cells hold the split entry's bounds) runs that entry as
  // the one device of a split; a native implementation there computes the whole loop.
  if (Code.Split)
    (*Launch)->setSplit(0, SplitShare::equal(0, 1), Plan.Narrow, nullptr);
  if (auto E = (*Launch)->prepare(Plan.ArgHosts, /*Disjoint=*/false))
    return E;
  if (!Plan.Bounds.empty())
    (*Launch)->checkBounds(Plan.Bounds, O);
  if (Plan.ObservedPush)
    (*Launch)->observe(Plan.ObservedPush, prof::kernelNameOf(*K), prof::Mode::OnOwner);
  if (!K->Info.Reductions.empty())
    (*Launch)->OnFinished = [K, R = Plan.Reductions](const KernelLaunch &Done) {
      R.combine(K->Info, {&Done});
    };
  (Code.Split ? stats().SplitLaunches : stats().DuplicateLaunches)
      .fetch_add(1, std::memory_order_relaxed);
  // Synchronous even when asynchronous was asked: the copies below need the kernel's results.
  // Run on this thread, as one device's launch is (Scheduler::run): handing it to the device's
  // queue and waiting cost a wake-up and a sleep per launch.
  auto Ticket = Devices[O]->launch(*Launch, /*Async=*/false);
  if (!Ticket)
    return Ticket.takeError();
  for (Mapping *M : Plan.Used)
    M->LastUse[O] = std::max(M->LastUse[O], *Ticket);
  // Device O's copy of what the kernel may write is its new value. Copies of pointer arrays
  // hold each device's own addresses and one memory has no copies: those are refreshed now;
  // elsewhere the other copies go stale, and a later launch fetches what it reads there.
  recordWholeWrites(K->Info, Plan, ValidityMap::device(O));
  llvm::SmallVector<Mapping *, 8> Copies(Plan.Used.begin(), Plan.Used.end());
  llvm::sort(Copies);
  Copies.erase(std::unique(Copies.begin(), Copies.end()), Copies.end());
  for (Mapping *M : Copies) {
    if (!M->Unified && M->Attachments.empty())
      continue;
    if (auto E = Data.waitForUses(*M))
      return E;
    for (unsigned D = 0; D < Devices.size(); ++D)
      if (D != O && M->hasCopy(D))
        if (auto E = Devices[O]->copyToPeer(*Devices[D], M->DevicePtrs[D], M->DevicePtrs[O],
                                            M->bytes()))
          return E;
    M->Valid.assign(0, M->bytes(), M->Home);
    // Device O's attached pointers hold its own addresses: each device gets its own back.
    if (!M->Attachments.empty())
      if (auto E = Data.reattachCopies(*M))
        return E;
  }
  return llvm::Error::success();
}

} // namespace jacc
