// The runtime's lifecycle (init from the environment, finalize) and jacc's data API, each call
// holding the runtime while the data environment does the work.
#include "src/Runtime.h"

#include "analysis/KernelSource.h"
#include "jit/cache/KernelStore.h"
#include "jit/host/PerfMap.h"
#include "jit/server/CompileServer.h"
#include "src/DeviceRegistry.h"
#include "src/Settings.h"
#include "src/launch/Watchdog.h"
#include "src/profile/KernelNames.h"
#include "src/profile/Start.h"
#include "support/ClangUse.h"
#include "support/Debug.h"
#include "support/Fork.h"
#include "support/Stats.h"

namespace jacc {

Runtime &Runtime::instance() {
  static Runtime *R = new Runtime; // never destroyed: device threads may outlive static dtors
  return *R;
}

namespace {

/// The error of any call in a child forked from a process that had started jacc.
llvm::Error forkedChildError() {
  return makeError(ErrorCode::Unsupported,
                   "jacc cannot be used in a process forked from one that had started it (its "
                   "devices' and compilers' threads stay in the parent): fork before jacc_init, "
                   "or exec a program in the child");
}

} // namespace

llvm::Error Runtime::initLocked() {
  if (Initialized)
    return llvm::Error::success();
  jit::exitIfStartedAsCompileServer();
  watchForks();        // before the first device's threads start
  ClangUse::prepare(); // before the first kernel's analysis
  auto Settings = readSettings();
  if (!Settings)
    return Settings.takeError();
  // Observers first: tools see the devices start.
  if (auto E = prof::startProfiling(Settings->Profile))
    return E;
  std::vector<std::unique_ptr<Device>> Created;
  for (const DeviceSpec &S : Settings->Devices.Devices) {
    int Index = Created.size();
    observeDevice(&prof::Listener::deviceInit, Index, deviceKind(S.Kind), true);
    auto D = createDevice(S, Created.size(), Settings->Devices);
    if (!D)
      return D.takeError();
    Created.push_back(std::move(*D));
    observeDevice(&prof::Listener::deviceInit, Index, deviceKind(S.Kind), false);
  }
  auto Tree = readLocations(Settings->ConfigFile, Created);
  if (!Tree)
    return Tree.takeError();
  std::shared_ptr<const Distribution> Policy;
  if (Settings->Policy.How != Distribution::Kind::Static) {
    llvm::Error E = *Tree ? (*Tree)->checkPolicy(Settings->Policy, (*Tree)->root())
                          : checkDistribution(Settings->Policy, Created);
    if (E)
      return prefixError("JACC_POLICY", std::move(E));
    Policy = std::make_shared<const Distribution>(std::move(Settings->Policy));
  }
  if (Settings->PerfMap)
    if (auto E = jit::enablePerfMap())
      return E;
  jit::configureCompiles(Settings->Compile);
  jit::prestartCompileServer(); // its start-up overlaps the program's until the first push
  Chooser.setPolicy(Settings->Split);
  // A program that ran before on these devices starts as its last run chose.
  if (auto Disk =
          Settings->ProgramCache && Created.size() > 1 ? jit::processDiskCache() : nullptr) {
    std::string Devices;
    for (const auto &D : Created)
      Devices += D->name() + "x" + std::to_string(D->computeUnits()) + " ";
    Chooser.rememberIn(std::make_unique<ProgramMemory>(std::move(Disk), programIdentity(Devices)));
  }
  PolicyFromEnv = Policy;
  std::atomic_store(&this->Policy, std::move(Policy));
  Watchdog::instance().setThreshold(Settings->KernelWarnSeconds);
  if (auto Progress = prof::startCompileProgress(Settings->Progress))
    Cache.watchCompiles([Progress](llvm::StringRef Source, bool Begins) {
      double Now = prof::now() * 1e-9;
      if (Begins)
        Progress->begins(analysis::kernelSite(Source), Now);
      else
        Progress->ends(Now);
    });
  Cache.setCapacity(Settings->KernelsInMemory);
  Cache.watchEvictions([this](const jit::CompiledKernel &K) {
    Chooser.forget(&K);
    Twins.forget(K);
  });
  NarrowPolicy = Settings->Narrow;
  TwinsOn = Settings->Twins;
  Sched.setDemandExchange(Settings->DemandExchange);
  Sched.setMeetSpin(Settings->Devices.SpinTime);
  CheckBounds = Settings->CheckBounds;
  Specialize = std::move(Settings->Specialize);
  for (const auto &D : Created)
    D->addCodeTargets(Specialize);
  Compiler.setCanceller(jit::cancelIdleCompiles);
  Budget.reset(Specialize.BudgetSeconds);
  Specialize.Budget = &Budget;
  Specialize.OnReady = [](const jit::CompiledKernel &K, const jit::VariantCode &V) {
    stats().VariantsCompiled.fetch_add(1, std::memory_order_relaxed);
    if (V.FromDisk)
      stats().VariantsLoaded.fetch_add(1, std::memory_order_relaxed);
    if (prof::active()) {
      prof::Nanos End = prof::now();
      prof::CompileEvent E{prof::kernelNameOf(K),
                           V.FromDisk ? prof::CacheSource::Disk : prof::CacheSource::Compiled,
                           /*Variant=*/true, End - prof::Nanos(V.CompileMs * 1e6), End};
      prof::each([&](prof::Listener &L) { L.compile(E); });
    }
  };
  Devices = std::move(Created);
  for (const auto &D : Devices)
    DeviceTypes.push_back(D->properties().Type);
  StartDevice = Settings->Devices.CurrentDevice;
  {
    std::lock_guard<std::mutex> G(LocationMutex);
    Locations = std::move(*Tree);
    Target = Locations ? Locations->root() : "";
    HasLocations = Locations.has_value();
  }
  Data.attach(Devices);
  Data.setUnified(Settings->UnifiedMemory);
  Data.setUserBlockCopies(Settings->BlockCopies);
  Sched.attach(Devices);
  Initialized = true;
  debugLog("device", llvm::Twine(Devices.size()) + " device(s), " +
                         llvm::Twine(Devices.front()->computeUnits()) + " thread(s) each");
  return llvm::Error::success();
}

llvm::Error Runtime::init() {
  if (forkedChild())
    return forkedChildError();
  std::unique_lock<FairSharedMutex> L(StateMutex);
  return initLocked();
}

llvm::Expected<std::shared_lock<FairSharedMutex>> Runtime::acquire() {
  // Before the lock: a thread of the parent may have held it when the child was forked.
  if (forkedChild())
    return forkedChildError();
  std::shared_lock<FairSharedMutex> Shared(StateMutex);
  if (Initialized)
    return Shared;
  Shared.unlock();
  {
    std::unique_lock<FairSharedMutex> Unique(StateMutex);
    if (auto E = initLocked())
      return E;
  }
  // A finalize between the two locks is the caller's race; the next call re-initialises.
  Shared.lock();
  return Shared;
}

llvm::Error Runtime::finalize() {
  if (forkedChild()) // nothing here may wait for the parent's threads, nor take its locks
    return forkedChildError();
  std::unique_lock<FairSharedMutex> L(StateMutex);
  if (!Initialized)
    return llvm::Error::success();
  llvm::Error Result = llvm::Error::success();
  for (auto &D : Devices)
    if (auto E = D->synchronize())
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  Result = llvm::joinErrors(std::move(Result), Data.releaseAll());
  for (auto &D : Devices)
    Result = llvm::joinErrors(std::move(Result), D->releaseKeptMemory());
  Data.attach({});
  Sched.attach({});
  for (auto &D : Devices) {
    prof::DeviceKind Kind = deviceKind(D->kind());
    int Index = D->index();
    observeDevice(&prof::Listener::deviceShutdown, Index, Kind, true);
    D.reset();
    observeDevice(&prof::Listener::deviceShutdown, Index, Kind, false);
  }
  Devices.clear();
  DeviceTypes.clear();
  Chooser.clear(); // the next devices may be other ones
  Twins.clear();
  {
    std::lock_guard<std::mutex> G(LocationMutex);
    Locations.reset();
    Target.clear();
    DataTarget.clear();
    HasLocations = false;
  }
  Initialized = false;
  // Variants being compiled or queued: their hits are counted, their code goes to the disk
  // cache, so that the next run compiles nothing (the budget bounds what is left to compile).
  // A compile that takes too long (a stuck compile server) is cancelled rather than waited for.
  auto Wait = std::chrono::milliseconds(
      static_cast<long long>(jit::compileConfig().FinalizeWaitSeconds * 1000));
  if (!Compiler.drainFor(Wait)) {
    Compiler.cancel();
    jit::stopCompileServers();
    if (!Compiler.drainFor(Wait))
      debugLog("cache", "finalize: a compile in process is still running");
  }
  Cache.flushStats();
  if (prof::active())
    prof::finishAll(/*AtExit=*/false);
  return Result;
}

void Runtime::observeDevice(void (prof::Listener::*Event)(int, const prof::DeviceKind &, bool,
                                                          prof::Nanos),
                            int Index, const prof::DeviceKind &Kind, bool Begin) {
  if (!prof::active())
    return;
  prof::Nanos T = prof::now();
  prof::each([&](prof::Listener &L) { (L.*Event)(Index, Kind, Begin, T); });
}

llvm::Expected<unsigned> Runtime::numDevices() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  return Devices.size();
}

llvm::Error Runtime::enterData(void *P, size_t Bytes, bool Copy, const char *Api, bool Zero) {
  if (!P || !Bytes)
    return llvm::Error::success(); // OpenACC: a null pointer or an empty range is a no-op
  auto L = acquire();
  if (!L)
    return L.takeError();
  auto At = dataPlacement(Api);
  if (!At)
    return At.takeError();
  // Observed once the runtime (and so its listeners) started.
  prof::ImplicitConstruct Construct(prof::Construct::EnterData, Api);
  prof::DataScope Observed(prof::DataOp::Enter, P, Bytes);
  return Data.enter(P, Bytes, Copy, Api, Zero, *At ? &**At : nullptr);
}

llvm::Error Runtime::exitData(void *P, size_t Bytes, bool CopyBack, const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  // Observed once the runtime (and so its listeners) started.
  prof::ImplicitConstruct Construct(prof::Construct::ExitData, Api);
  prof::DataScope Observed(prof::DataOp::Exit, P, Bytes);
  return Data.exit(P, Bytes, CopyBack, /*Finalize=*/false, DataEnvironment::ExitRules::Jacc, Api);
}

llvm::Error Runtime::update(void *P, size_t Bytes, bool ToDevice, const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  // Observed once the runtime (and so its listeners) started.
  prof::ImplicitConstruct Construct(prof::Construct::Update, Api);
  prof::DataScope Observed(ToDevice ? prof::DataOp::UpdateDevice : prof::DataOp::UpdateSelf, P,
                           Bytes);
  return Data.update(P, Bytes, ToDevice, Api);
}

llvm::Expected<bool> Runtime::isPresent(const void *P, size_t Bytes,
                                        std::optional<unsigned> Device) {
  if (!P)
    return false;
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (Device)
    return *Device < Devices.size() && Data.isPresentOn(P, Bytes, *Device);
  return Data.isPresent(P, Bytes);
}

llvm::Error Runtime::wait() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  // Observed once the runtime (and so its listeners) started.
  prof::ImplicitConstruct Construct(prof::Construct::Wait, "jacc_wait");
  WaitObservation Observed;
  llvm::Error Result = llvm::Error::success();
  for (auto &D : Devices)
    if (auto E = D->synchronize())
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  return Result;
}

llvm::Error Runtime::setPolicy(const char *Text) {
  auto L = acquire();
  if (!L)
    return L.takeError();
  if (!Text || llvm::StringRef(Text).trim().empty()) {
    std::atomic_store(&Policy, PolicyFromEnv);
    return llvm::Error::success();
  }
  auto D = parseDistribution(Text);
  if (!D)
    return prefixError("jacc_set_policy", D.takeError());
  if (auto E = checkPolicy(*D))
    return prefixError("jacc_set_policy", std::move(E));
  std::shared_ptr<const Distribution> New;
  if (D->How != Distribution::Kind::Static)
    New = std::make_shared<const Distribution>(std::move(*D));
  std::atomic_store(&Policy, std::move(New));
  return llvm::Error::success();
}

} // namespace jacc
