// The runtime: owns the devices and the lifecycle (init from the environment, finalize), and
// composes the rooms that do the work: the data environment (src/data), the push path
// (src/Push.cpp: kernel cache, specialization, split choice, launch plan, scheduler in
// src/launch) and the OpenACC routines' entry points (src/RuntimeOpenACC.cpp). The C API
// (CApi.cpp, OpenACC.cpp) is a thin layer over this class.
#ifndef JACC_SRC_RUNTIME_H
#define JACC_SRC_RUNTIME_H

#include "jacc/jacc.h"
#include "jit/KernelCache.h"
#include "jit/specialize/KernelVariants.h"
#include "src/Device.h"
#include "src/data/DataEnvironment.h"
#include "src/launch/Distribution.h"
#include "src/launch/LaunchDecision.h"
#include "src/launch/Locations.h"
#include "src/launch/NativeKernels.h"
#include "src/launch/Scheduler.h"
#include "src/launch/SplitTwins.h"
#include "src/profile/Events.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include "support/FairSharedMutex.h"
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
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

  // --- jacc's data API (Api names the caller in messages). ---

  /// create / copyin: present-or-create, reference counted; Zero: a new mapping's copies are
  /// zeroed (`create(zero: ...)`). A new mapping lives at the data location chosen (below).
  llvm::Error enterData(void *P, size_t Bytes, bool Copy, const char *Api, bool Zero = false);
  /// copyout / delete: decrement; at zero copy back (CopyBack) and free.
  llvm::Error exitData(void *P, size_t Bytes, bool CopyBack, const char *Api);
  /// update device / self of a mapped (sub-)range.
  llvm::Error update(void *P, size_t Bytes, bool ToDevice, const char *Api);
  /// Whether [P, P+Bytes) lies inside one mapping (that has a copy on Device, when given).
  llvm::Expected<bool> isPresent(const void *P, size_t Bytes,
                                 std::optional<unsigned> Device = std::nullopt);

  /// jacc_kernel_push (src/Push.cpp).
  llvm::Error push(const char *Source, int NArgs, const jacc_arg *Args, unsigned Flags);
  /// jacc_kernel_native: Fn runs Source's parts on devices of Kind from now on (null: the
  /// generated code again). Needs no initialised runtime; finalize keeps it.
  llvm::Error setNative(const char *Source, const char *Kind, jacc_native_fn Fn, void *User) {
    return Natives.set(Source, Kind, Fn, User);
  }
  llvm::Error wait();
  /// jacc_set_policy: how split launches share the work from now on (null or empty: JACC_POLICY's
  /// again). A bad policy changes nothing.
  llvm::Error setPolicy(const char *Text);
  /// Gecko's locations (src/RuntimeLocations.cpp): the location kernels target from now on
  /// (null or empty: the root), a new virtual location, and a child added or removed.
  llvm::Error setLocation(const char *Name);
  llvm::Error addLocation(const char *Name);
  llvm::Error changeLocationChild(const char *Parent, const char *Child, bool Add);
  /// Gecko's memory at a location: the location new mappings live at from now on (null or
  /// empty: every device), and this thread's own choice until the matching end (nested; it
  /// wins over the process's). Unknown names are InvalidArgument and change nothing.
  llvm::Error setDataLocation(const char *Name);
  llvm::Error beginDataLocation(const char *Name);
  llvm::Error endDataLocation();

  jit::KernelCache &kernelCache() { return Cache; }

  // --- The OpenACC runtime API (src/RuntimeOpenACC.cpp; OpenACC.cpp is the C layer over it).
  // Device is an index into the device list (the caller's "current device"); Api names the
  // routine in messages. ---

  /// The OpenACC type of every device, in device order.
  llvm::Expected<std::vector<acc_device_t>> deviceTypes();
  /// The current device of a thread that has selected none: the one ACC_DEVICE_TYPE and
  /// ACC_DEVICE_NUM name (0 when unset).
  llvm::Expected<unsigned> startDevice();
  /// What acc_get_property reports about one device.
  llvm::Expected<DeviceProperties> deviceProperties(unsigned Device, const char *Api);
  /// OpenACC exit (acc_copyout, acc_delete): absent data and a dynamic count already at zero are
  /// no-ops; Finalize sets the count to zero instead of decrementing it. At zero (and no
  /// structured reference), copy back from the primary device (CopyBack) and free. Taking the
  /// count of an acc_map_data mapping to zero is an error: only acc_unmap_data ends it.
  llvm::Error exitDataOpenACC(void *P, size_t Bytes, bool CopyBack, bool Finalize,
                              const char *Api);
  using AttachOp = DataEnvironment::AttachOp;
  /// acc_attach / acc_detach[_finalize] (see DataEnvironment::attachPointer).
  llvm::Error attachPointer(void **PtrAddr, AttachOp Op, const char *Api);
  /// Device's address of the mapped host address P; null when P is not mapped. Sole: Device's
  /// copy becomes the only current one (see DataEnvironment::devicePtr).
  llvm::Expected<void *> devicePtr(const void *P, unsigned Device, const char *Api,
                                   bool Sole = false);
  /// The host address whose copy on Device is at DevicePtr; null when no mapping has it.
  llvm::Expected<void *> hostPtr(const void *DevicePtr, unsigned Device, const char *Api);
  /// acc_malloc / acc_free / acc_map_data / acc_unmap_data (see DataEnvironment).
  llvm::Expected<void *> allocateUser(unsigned Device, size_t Bytes, const char *Api);
  llvm::Error releaseUser(void *DevicePtr, const char *Api);
  llvm::Error mapUserData(void *P, void *DevicePtr, size_t Bytes, unsigned Device,
                          const char *Api);
  llvm::Error unmapUserData(void *P, const char *Api);
  using MemcpyKind = DataEnvironment::MemcpyKind;
  /// acc_memcpy_to_device / _from_device / _device on Device's memory (see DataEnvironment).
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
  llvm::Expected<std::shared_lock<FairSharedMutex>> acquire();
  llvm::Error initLocked();
  /// OpenACC: an error unless Device indexes the device list (caller holds the state lock).
  llvm::Error checkDevice(unsigned Device, const char *Api) const;
  /// acquire(), then checkDevice(Device, Api).
  llvm::Expected<std::shared_lock<FairSharedMutex>> acquireDevice(unsigned Device, const char *Api);

  // The steps of push (src/Push.cpp).
  /// What profiling learns of a push on its way (Start 0: nobody listens).
  struct PushObservation {
    /// Starts now when anybody listens (Start stays 0 otherwise).
    static PushObservation startNow() {
      PushObservation O;
      if (prof::active())
        O.Start = prof::now();
      return O;
    }
    prof::Nanos Start = 0;
    uint64_t Id = 0;
    prof::CacheSource Source = prof::CacheSource::Memory;
    double CompileSeconds = 0;
  };
  /// The compiled kernel for Source and the argument declarations (memory cache, disk cache, or
  /// compiled now), counted in the statistics (and reported when observed).
  llvm::Expected<std::shared_ptr<const jit::CompiledKernel>>
  compile(const char *Source, int NArgs, const jacc_arg *Args, PushObservation &Observed);
  /// The push's event to the profiling listeners.
  void observePush(const jit::CompiledKernel &K, const PushObservation &Observed, prof::Mode How,
                   unsigned NumDevices, bool Variant, bool Async);
  /// The variant of K with this push's scalar values folded in, once compiled (null: generic).
  /// Trial (a push that will be timed) may put a new variant on trial against the generic code.
  llvm::Expected<const jit::VariantCode *>
  specialize(const std::shared_ptr<const jit::CompiledKernel> &K, int NArgs, const jacc_arg *Args,
             jit::TrialLaunch *Trial);
  /// A device's init or shutdown event (Begin: before it) to the profiling listeners.
  static void observeDevice(void (prof::Listener::*Event)(int, const prof::DeviceKind &, bool,
                                                          prof::Nanos),
                            int Index, const prof::DeviceKind &Kind, bool Begin);
  /// waitBegin now and waitEnd with the scope, when anybody listens.
  struct WaitObservation {
    WaitObservation() {
      if ((On = prof::active())) {
        prof::Nanos T = prof::now();
        prof::each([&](prof::Listener &L) { L.waitBegin(T); });
      }
    }
    ~WaitObservation() {
      if (On) {
        prof::Nanos T = prof::now();
        prof::each([&](prof::Listener &L) { L.waitEnd(T); });
      }
    }
    bool On;
  };
  /// What a push that ran teaches: its event to the listeners, its time (Seconds, with the
  /// bytes it fetched) to the chooser, and to a variant on trial its code's own time.
  void learnFrom(const std::shared_ptr<const jit::CompiledKernel> &Launched,
                 const LaunchRequest &Request, const LaunchDecision &Decision,
                 const LaunchPlan &Plan, const LaunchCode &Code, jit::TrialLaunch &Trial,
                 const PushObservation &Observed, bool Async, double Seconds);
  /// K, or for a split launch its twin when SplitTwins chooses it (compiled on first use).
  llvm::Expected<std::shared_ptr<const jit::CompiledKernel>>
  formOf(const std::shared_ptr<const jit::CompiledKernel> &K, const LaunchDecision &Decision,
         const NativeChoice &Native, int NArgs, const jacc_arg *Args, PushObservation &Observed);
  /// What the choice of a push of K needs: its policy, a targeted location's shares, the
  /// devices an automatic policy balances over.
  llvm::Expected<LaunchRequest> launchRequest(const jit::CompiledKernel &K, unsigned Flags,
                                              bool Async);
  struct TargetDevices;
  /// Bind a push of K as Decision says, on the devices Targets names (planLaunch), with the
  /// variant the binding allows; Decision's shares and timing move to the plan. Caller holds
  /// Data's lock.
  llvm::Expected<LaunchPlan> bind(const jit::CompiledKernel &K, const jacc_arg *Args,
                                  const TargetDevices &Targets, LaunchDecision &Decision,
                                  NativeChoice Native, LaunchCode &Code, jit::TrialLaunch &Trial);
  /// Every device's code for the launch (its native implementation's, if Natives gives it
  /// one), before anything is queued anywhere.
  llvm::Error prepareCode(const jit::CompiledKernel &K, const LaunchCode &Code,
                          const NativeChoice &Natives);
  /// After the binding: tells K's variants what it proved about the pointers, and runs the
  /// generic code instead of a variant assuming more.
  void bindVariant(const jit::CompiledKernel &K, const LaunchPlan &Plan, LaunchCode &Code,
                   jit::TrialLaunch &Trial);
  /// The policy of a push of Info: its `#pragma jacc policy`, else the process's; null for the
  /// even split. InvalidArgument naming the kernel, the policy and the devices.
  llvm::Expected<std::shared_ptr<const Distribution>> distributionOf(const analysis::KernelInfo &Info);
  /// Each device's share of a split launch under D (null: empty, the equal shares).
  std::vector<SplitShare> sharesOf(const Distribution *D) const;
  /// Whether D fits the devices it shares the work of: those under the targeted location, or
  /// every device. InvalidArgument naming the policy and the devices.
  /// Location: a kernel's own (`#pragma jacc location`), else the one jacc_set_location chose.
  llvm::Error checkPolicy(const Distribution &D, const std::optional<std::string> &Location = {});
  /// The shares of a split launch under D (null: the even split) over the devices of Location
  /// (a kernel's own), else of the targeted location; nullopt without locations, or when they
  /// are the even split over every device. An unknown Location is InvalidArgument naming it.
  llvm::Expected<std::optional<std::vector<SplitShare>>>
  targetShares(const Distribution *D, const std::optional<std::string> &Location);
  /// The devices JACC_POLICY=auto balances a kernel over: those under Location (its own) or the
  /// targeted location, every device without locations. InvalidArgument when there are none.
  llvm::Expected<std::vector<unsigned>> balanceOver(const std::optional<std::string> &Location);
  /// Location if given (building the hierarchy of the devices if there is none yet; unknown:
  /// InvalidArgument naming it and the hierarchy), else the targeted one. Caller holds
  /// LocationMutex.
  llvm::Expected<std::string> targetOf(const std::optional<std::string> &Location);
  /// Where a new mapping made now lives: this thread's innermost data location, else the
  /// process's; nullopt for every device. InvalidArgument (Api naming the caller) when the
  /// location has no device under it.
  llvm::Expected<std::optional<DataPlacement>> dataPlacement(const char *Api);
  /// The devices a push's kernel targets: those under Location (its own) or the targeted
  /// location, every device without locations; Name: that location ("": none targeted).
  struct TargetDevices {
    std::string Name;
    HolderSet Devices = 0;
  };
  llvm::Expected<TargetDevices> targetDevices(const std::optional<std::string> &Location);
  /// The name of a location that must exist (null or empty: ""), else InvalidArgument naming
  /// it and the hierarchy. LocationMutex held.
  llvm::Expected<std::string> existingLocation(const char *Name);
  /// Holding the runtime and LocationMutex, Choose(Name) when it exists (null or empty: ""),
  /// else InvalidArgument prefixed by Api.
  llvm::Error chooseLocation(const char *Name, const char *Api,
                             llvm::function_ref<void(std::string)> Choose);
  /// JACC_CONFIG's hierarchy (File: its path; empty: none), bound to Devs.
  static llvm::Expected<std::optional<LocationTree>>
  readLocations(const std::string &File, const std::vector<std::unique_ptr<Device>> &Devs);
  /// The hierarchy, built from the devices (one location each under "devices") at the first
  /// location call when JACC_CONFIG gave none. LocationMutex held.
  LocationTree &locations();

  FairSharedMutex StateMutex; // shared: any operation; exclusive: init / finalize
  bool Initialized = false;
  std::vector<std::unique_ptr<Device>> Devices;
  std::vector<acc_device_t> DeviceTypes; ///< each device's OpenACC type, in device order
  unsigned StartDevice = 0; ///< startDevice()
  bool NarrowPolicy = true; ///< JACC_NARROW
  bool TwinsOn = true;      ///< JACC_TWINS
  bool CheckBounds = false; ///< JACC_CHECK=bounds
  LaunchChooser Chooser;    ///< how each push runs: JACC_SPLIT, the choosers, the shares
  SplitTwins Twins;         ///< which form of a kernel its split launches run
  /// JACC_POLICY, then jacc_set_policy's (std::atomic_load / store: pushes read it unlocked);
  /// null: the even split.
  std::shared_ptr<const Distribution> Policy, PolicyFromEnv;
  /// The location hierarchy and the location pushes target (LocationMutex); HasLocations:
  /// whether there is one, read by pushes without the mutex.
  std::mutex LocationMutex;
  std::optional<LocationTree> Locations;
  std::string Target;
  std::string DataTarget; ///< jacc_set_data_location's ("": every device)
  std::atomic<bool> HasLocations{false};
  DataEnvironment Data;
  Scheduler Sched{Data};
  NativeKernels Natives; ///< jacc_kernel_native's, for the process
  jit::KernelCache Cache;
  jit::SpecializeSettings Specialize; ///< JACC_SPECIALIZE*
  /// The background compiles' budget (JACC_SPECIALIZE_BUDGET), from jacc_init on.
  jit::CompileBudget Budget;
  /// Compiles kernel variants off the launch path. Last: destroyed (joined) first.
  jit::BackgroundCompiler Compiler;
};

} // namespace jacc

#endif
