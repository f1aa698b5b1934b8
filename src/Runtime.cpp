// The runtime's lifecycle (init from the environment, finalize) and jacc's data API, each call
// holding the runtime while the data environment does the work.
#include "src/Runtime.h"

#include "jit/host/PerfMap.h"
#include "jit/server/CompileServer.h"
#include "src/DeviceRegistry.h"
#include "src/Settings.h"
#include "src/launch/Watchdog.h"
#include "support/Debug.h"
#include "support/Stats.h"

namespace jacc {

Runtime &Runtime::instance() {
  static Runtime *R = new Runtime; // never destroyed: device threads may outlive static dtors
  return *R;
}

llvm::Error Runtime::initLocked() {
  if (Initialized)
    return llvm::Error::success();
  auto Settings = readSettings();
  if (!Settings)
    return Settings.takeError();
  std::vector<std::unique_ptr<Device>> Created;
  for (const DeviceSpec &S : Settings->Devices.Devices) {
    auto D = createDevice(S, Created.size(), Settings->Devices);
    if (!D)
      return D.takeError();
    Created.push_back(std::move(*D));
  }
  if (Settings->PerfMap)
    if (auto E = jit::enablePerfMap())
      return E;
  jit::configureCompiles(Settings->Compile);
  jit::prestartCompileServer(); // its start-up overlaps the program's until the first push
  Split.setPolicy(Settings->Split);
  Watchdog::instance().setThreshold(Settings->KernelWarnSeconds);
  NarrowPolicy = Settings->Narrow;
  Sched.setDemandExchange(Settings->DemandExchange);
  CheckBounds = Settings->CheckBounds;
  Specialize = std::move(Settings->Specialize);
  for (const auto &D : Created)
    D->addCodeTargets(Specialize);
  Specialize.OnReady = [](const jit::VariantCode &) {
    stats().VariantsCompiled.fetch_add(1, std::memory_order_relaxed);
  };
  Devices = std::move(Created);
  Data.attach(Devices);
  Sched.attach(Devices);
  Initialized = true;
  debugLog("device", llvm::Twine(Devices.size()) + " device(s), " +
                         llvm::Twine(Devices.front()->computeUnits()) + " thread(s) each");
  return llvm::Error::success();
}

llvm::Error Runtime::init() {
  std::unique_lock<std::shared_mutex> L(StateMutex);
  return initLocked();
}

llvm::Expected<std::shared_lock<std::shared_mutex>> Runtime::acquire() {
  std::shared_lock<std::shared_mutex> Shared(StateMutex);
  if (Initialized)
    return Shared;
  Shared.unlock();
  {
    std::unique_lock<std::shared_mutex> Unique(StateMutex);
    if (auto E = initLocked())
      return E;
  }
  // A finalize between the two locks is the caller's race; the next call re-initialises.
  Shared.lock();
  return Shared;
}

llvm::Error Runtime::finalize() {
  std::unique_lock<std::shared_mutex> L(StateMutex);
  if (!Initialized)
    return llvm::Error::success();
  llvm::Error Result = llvm::Error::success();
  for (auto &D : Devices)
    if (auto E = D->synchronize())
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  Result = llvm::joinErrors(std::move(Result), Data.releaseAll());
  Data.attach({});
  Sched.attach({});
  Devices.clear();
  Initialized = false;
  // Variants being compiled: their hits are counted, their code is kept. A compile that takes
  // too long (a stuck compile server) is cancelled rather than waited for.
  auto Wait = std::chrono::milliseconds(
      static_cast<long long>(jit::compileConfig().FinalizeWaitSeconds * 1000));
  if (!Compiler.drainFor(Wait)) {
    Compiler.dropQueued();
    jit::stopCompileServers();
    if (!Compiler.drainFor(Wait))
      debugLog("cache", "finalize: a compile in process is still running");
  }
  Cache.flushStats();
  return Result;
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
  return Data.enter(P, Bytes, Copy, Api, Zero);
}

llvm::Error Runtime::exitData(void *P, size_t Bytes, bool CopyBack, const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  return Data.exit(P, Bytes, CopyBack, /*Finalize=*/false, DataEnvironment::ExitRules::Jacc, Api);
}

llvm::Error Runtime::update(void *P, size_t Bytes, bool ToDevice, const char *Api) {
  if (!P || !Bytes)
    return llvm::Error::success();
  auto L = acquire();
  if (!L)
    return L.takeError();
  return Data.update(P, Bytes, ToDevice, Api);
}

llvm::Expected<bool> Runtime::isPresent(const void *P, size_t Bytes) {
  if (!P)
    return false;
  auto L = acquire();
  if (!L)
    return L.takeError();
  return Data.isPresent(P, Bytes);
}

llvm::Error Runtime::wait() {
  auto L = acquire();
  if (!L)
    return L.takeError();
  llvm::Error Result = llvm::Error::success();
  for (auto &D : Devices)
    if (auto E = D->synchronize())
      Result = llvm::joinErrors(std::move(Result), std::move(E));
  return Result;
}

} // namespace jacc
