// The OpenACC 3.3 runtime library routines (include/jacc/openacc.h): a thin C layer over
// jacc::Runtime, as CApi.cpp is for the jacc_* API. The semantics chosen for jacc's devices:
//
// - Current device: one per host thread (OpenACC's ICVs are per thread), an index into jacc's
//   device list, 0 at first. It selects whose copy acc_deviceptr, acc_hostptr and acc_copyin /
//   acc_create's results name, where acc_malloc allocates and acc_map_data's memory lives, and
//   which memory the acc_memcpy_* routines copy. Kernels still run on every device.
// - Device types: each device says its own (DeviceProperties::Type): a host device is
//   acc_device_host, a CUDA device acc_device_nvidia (also acc_device_not_host).
//   acc_device_default and acc_device_current mean every device. A device number counts the
//   devices of the type given, in JACC_DEVICES order; a negative one means the first.
// - Data: acc_copyin / acc_create are jacc's present-or enter data (dynamic count + 1) and return
//   the current device's address; acc_copyout / acc_delete decrement, the _finalize forms set the
//   count to zero, and at zero the primary device's copy is copied back and every copy freed. An
//   exit of absent data, or of data whose dynamic count is already zero, does nothing (OpenACC).
//   acc_update_device writes every device's copy, acc_update_self reads the primary device's.
// - acc_map_data: the current device uses the program's memory; the other devices get copies of
//   it. Its dynamic count starts at 1 and no exit can take it to zero: acc_unmap_data ends it
//   (freeing the other copies, never the program's memory).
// - Async: data routines complete before returning, the *_async forms too (after validating the
//   queue argument). Every queue is the devices' one in-order queue: acc_wait(n) and acc_wait_all
//   wait for every queued kernel, acc_wait_async / acc_wait_all_async have nothing to order, and
//   acc_async_test(n) / acc_async_test_all are nonzero once no device has queued work.
// - Default async: acc-default-async-var is per thread, 0 at first (NVHPC's value: programs
//   may wait for acc_get_default_async()); acc_async_noval and acc_async_default set it back
//   to 0.
// - Attach: see DataEnvironment::attachPointer (every device's copy points at its own copy).
// - Errors: see report().
#include "jacc/openacc.h"

#include "src/CApi.h"
#include "src/Runtime.h"
#include "src/Settings.h"
#include "support/Env.h"
#include "support/Error.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace jacc;

namespace {

/// The device this host thread selected (acc_set_device_num, acc_set_device_type): an index into
/// the runtime's device list; none: the one ACC_DEVICE_TYPE and ACC_DEVICE_NUM name.
thread_local std::optional<unsigned> SelectedDevice;

/// This host thread's current device.
unsigned currentDevice() {
  if (SelectedDevice)
    return *SelectedDevice;
  auto Start = Runtime::instance().startDevice();
  if (!Start) { // the runtime could not start: the routine's own call reports why
    llvm::consumeError(Start.takeError());
    return 0;
  }
  return *Start;
}

/// This host thread's acc-default-async-var (acc_set_default_async).
thread_local int DefaultAsync = 0;

std::atomic<jacc_acc_error_handler> ErrorHandler{nullptr};

/// OpenACC's error convention for a failing routine: E becomes jacc_last_error(); then the
/// program's handler runs, or with JACC_ACC_ERRORS=return the routine just returns; otherwise
/// "OpenACC runtime error: <routine>: <message>" goes to stderr and the process aborts.
void report(const char *Routine, llvm::Error E) {
  jacc_status Status = toStatus(std::move(E));
  const char *Message = jacc_last_error();
  if (jacc_acc_error_handler H = ErrorHandler.load()) {
    H(Routine, Status, Message);
    return;
  }
  llvm::Expected<bool> Return = accErrorsReturn();
  if (Return && *Return)
    return;
  // Messages usually start with the routine's name already.
  llvm::StringRef Text(Message);
  Text.consume_front((llvm::Twine(Routine) + ": ").str());
  std::fprintf(stderr, "OpenACC runtime error: %s: %.*s\n", Routine, static_cast<int>(Text.size()),
               Text.data());
  if (!Return)
    std::fprintf(stderr, "jacc: %s\n", llvm::toString(Return.takeError()).c_str());
  std::fflush(stderr);
  std::abort();
}

/// True on success (jacc_last_error() then empty); otherwise reports E.
bool ok(const char *Routine, llvm::Error E) {
  if (!E) {
    clearLastError();
    return true;
  }
  report(Routine, std::move(E));
  return false;
}

/// The value, or nullopt after reporting the error.
template <typename T> std::optional<T> take(const char *Routine, llvm::Expected<T> V) {
  if (V) {
    clearLastError();
    return std::move(*V);
  }
  report(Routine, V.takeError());
  return std::nullopt;
}

llvm::Error invalid(const char *Routine, const llvm::Twine &What) {
  return makeError(ErrorCode::InvalidArgument, llvm::Twine(Routine) + ": " + What);
}

const char *typeName(acc_device_t T) {
  switch (T) {
  case acc_device_current:
    return "acc_device_current";
  case acc_device_none:
    return "acc_device_none";
  case acc_device_default:
    return "acc_device_default";
  case acc_device_host:
    return "acc_device_host";
  case acc_device_not_host:
    return "acc_device_not_host";
  case acc_device_nvidia:
    return "acc_device_nvidia";
  case acc_device_radeon:
    return "acc_device_radeon";
  }
  return nullptr;
}

/// An error for device type values outside the enumeration.
llvm::Error checkType(const char *Routine, acc_device_t T) {
  if (typeName(T))
    return llvm::Error::success();
  return invalid(Routine, "device type " + llvm::Twine(static_cast<int>(T)) + " is not valid");
}

/// Whether a device of type K is one of the devices type T selects.
bool matches(acc_device_t T, acc_device_t K) {
  switch (T) {
  case acc_device_current:
  case acc_device_default:
    return true;
  case acc_device_not_host:
    return K != acc_device_host;
  default:
    return K == T;
  }
}

/// The device list's types (initialising the runtime if needed), T checked.
llvm::Expected<std::vector<acc_device_t>> types(const char *Routine, acc_device_t T) {
  if (auto E = checkType(Routine, T))
    return E;
  return Runtime::instance().deviceTypes();
}

unsigned count(const std::vector<acc_device_t> &Types, acc_device_t T) {
  unsigned N = 0;
  for (acc_device_t K : Types)
    N += matches(T, K);
  return N;
}

/// The list index of device Num (negative: the first) among the devices of type T.
llvm::Expected<unsigned> indexOf(const char *Routine, const std::vector<acc_device_t> &Types,
                                 acc_device_t T, int Num) {
  unsigned Of = count(Types, T);
  if (Of == 0) {
    const char *Devices = env::get(env::Var::Devices);
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Routine) + ": there is no " + typeName(T) + " device (jacc has " +
                         llvm::Twine(Types.size()) +
                         " device(s), JACC_DEVICES=" + (Devices ? Devices : "<unset>") + ")");
  }
  unsigned Want = Num < 0 ? 0 : static_cast<unsigned>(Num);
  if (Want >= Of)
    return invalid(Routine, "device number " + llvm::Twine(Num) + " of type " + typeName(T) +
                                " does not exist: there are " + llvm::Twine(Of) +
                                " (numbered from 0)");
  for (unsigned I = 0, Seen = 0; I < Types.size(); ++I)
    if (matches(T, Types[I]) && Seen++ == Want)
      return I;
  return makeError(ErrorCode::Internal, llvm::Twine(Routine) + ": device count mismatch");
}

/// An error unless the current device exists (the device list may have shrunk since it was set).
llvm::Error checkCurrent(const char *Routine, const std::vector<acc_device_t> &Types) {
  unsigned Current = currentDevice();
  if (Current < Types.size())
    return llvm::Error::success();
  return invalid(Routine, "the current device " + llvm::Twine(Current) +
                              " no longer exists (jacc has " + llvm::Twine(Types.size()) +
                              " device(s)); select one with acc_set_device_num");
}

/// Make the first device of type T current, unless the current device already is one.
llvm::Error selectType(const char *Routine, acc_device_t T) {
  if (T == acc_device_none)
    return invalid(Routine, "acc_device_none selects no device");
  auto Types = types(Routine, T);
  if (!Types)
    return Types.takeError();
  unsigned Current = currentDevice();
  if (Current < Types->size() && matches(T, (*Types)[Current]))
    return llvm::Error::success();
  auto I = indexOf(Routine, *Types, T, 0);
  if (!I)
    return I.takeError();
  SelectedDevice = *I;
  return llvm::Error::success();
}

/// OpenACC async arguments: a queue number >= 0, acc_async_noval, acc_async_sync or
/// acc_async_default.
llvm::Error checkAsync(const char *Routine, int Async) {
  if (Async >= 0 || Async == acc_async_noval || Async == acc_async_sync ||
      Async == acc_async_default)
    return llvm::Error::success();
  return invalid(Routine, "async argument " + llvm::Twine(Async) +
                              " is not valid: use a queue number >= 0, acc_async_noval, "
                              "acc_async_sync or acc_async_default");
}

/// Strings returned by acc_get_property_string: kept for the life of the process.
const char *intern(std::string S) {
  static std::mutex M;
  static std::set<std::string> *Strings = new std::set<std::string>; // outlives static dtors
  std::lock_guard<std::mutex> L(M);
  return Strings->insert(std::move(S)).first->c_str();
}

/// The device info for acc_get_property[_string].
std::optional<DeviceProperties> info(const char *Routine, int Num, acc_device_t T) {
  auto Types = take(Routine, types(Routine, T));
  if (!Types)
    return std::nullopt;
  if (Num < 0) {
    report(Routine, invalid(Routine, "device number " + llvm::Twine(Num) + " is negative"));
    return std::nullopt;
  }
  auto I = take(Routine, indexOf(Routine, *Types, T, Num));
  if (!I)
    return std::nullopt;
  return take(Routine, Runtime::instance().deviceProperties(*I, Routine));
}

void *enter(const char *Routine, void *P, size_t Bytes, bool Copy) {
  if (!P || !Bytes)
    return nullptr; // OpenACC: no action
  Runtime &R = Runtime::instance();
  if (!ok(Routine, R.enterData(P, Bytes, Copy, Routine)))
    return nullptr;
  return take(Routine, R.devicePtr(P, currentDevice(), Routine)).value_or(nullptr);
}

void exitData(const char *Routine, void *P, size_t Bytes, bool CopyBack, bool Finalize) {
  ok(Routine, Runtime::instance().exitDataOpenACC(P, Bytes, CopyBack, Finalize, Routine));
}

void updateData(const char *Routine, void *P, size_t Bytes, bool ToDevice) {
  ok(Routine, Runtime::instance().update(P, Bytes, ToDevice, Routine));
}

void copyMemory(const char *Routine, Runtime::MemcpyKind Kind, void *Dst, const void *Src,
                size_t Bytes) {
  ok(Routine, Runtime::instance().memcpyDevice(Kind, Dst, Src, Bytes, currentDevice(), Routine));
}

/// The list index of device Num of the current device's type (OpenACC's `dev_num` arguments).
llvm::Expected<unsigned> currentTypeIndex(const char *Routine, int Num) {
  auto Types = types(Routine, acc_device_default);
  if (!Types)
    return Types.takeError();
  if (auto E = checkCurrent(Routine, *Types))
    return E;
  return indexOf(Routine, *Types, (*Types)[currentDevice()], Num);
}

void memcpyD2D(const char *Routine, void *Dst, void *Src, size_t Bytes, int DstNum, int SrcNum) {
  auto To = take(Routine, currentTypeIndex(Routine, DstNum));
  if (!To)
    return;
  auto From = take(Routine, currentTypeIndex(Routine, SrcNum));
  if (!From)
    return;
  ok(Routine, Runtime::instance().memcpyBetweenDevices(Dst, Src, Bytes, *To, *From, Routine));
}

void attach(const char *Routine, void **PtrAddr, Runtime::AttachOp Op) {
  ok(Routine, Runtime::instance().attachPointer(PtrAddr, Op, Routine));
}

/// Whether the _device form's dev_num names a device (reported when not).
bool deviceExists(const char *Routine, int Num) {
  return take(Routine, currentTypeIndex(Routine, Num)).has_value();
}

/// acc_wait_any: jacc's queues all complete together, so after waiting for everything the first
/// entry that names a queue is the one that completed; -1 when none does.
int waitAny(const char *Routine, int Count, const int *WaitArgs) {
  int First = -1;
  for (int I = 0; I < Count; ++I) {
    if (WaitArgs[I] == acc_async_sync)
      continue; // OpenACC: such entries are ignored
    if (!ok(Routine, checkAsync(Routine, WaitArgs[I])))
      return -1;
    if (First < 0)
      First = I;
  }
  if (First >= 0 && !ok(Routine, Runtime::instance().wait()))
    return -1;
  return First;
}

/// Whether every queue is empty (acc_async_test*), 1 if the query fails.
int testAll(const char *Routine) {
  return take(Routine, Runtime::instance().idle()).value_or(true) ? 1 : 0;
}

} // namespace

extern "C" {

jacc_acc_error_handler jacc_set_acc_error_handler(jacc_acc_error_handler handler) {
  return ErrorHandler.exchange(handler);
}

// --- Devices ---

int acc_get_num_devices(acc_device_t dev_type) {
  auto Types = take("acc_get_num_devices", types("acc_get_num_devices", dev_type));
  return Types ? static_cast<int>(count(*Types, dev_type)) : 0;
}

void acc_set_device_type(acc_device_t dev_type) {
  ok("acc_set_device_type", selectType("acc_set_device_type", dev_type));
}

acc_device_t acc_get_device_type(void) {
  const char *Routine = "acc_get_device_type";
  auto Types = take(Routine, types(Routine, acc_device_default));
  if (!Types || !ok(Routine, checkCurrent(Routine, *Types)))
    return acc_device_none;
  return (*Types)[currentDevice()];
}

void acc_set_device_num(int dev_num, acc_device_t dev_type) {
  const char *Routine = "acc_set_device_num";
  if (dev_type == acc_device_none) {
    report(Routine, invalid(Routine, "acc_device_none selects no device"));
    return;
  }
  auto Types = take(Routine, types(Routine, dev_type));
  if (!Types)
    return;
  if (auto I = take(Routine, indexOf(Routine, *Types, dev_type, dev_num)))
    SelectedDevice = *I;
}

int acc_get_device_num(acc_device_t dev_type) {
  const char *Routine = "acc_get_device_num";
  auto Types = take(Routine, types(Routine, dev_type));
  if (!Types || !ok(Routine, checkCurrent(Routine, *Types)))
    return -1;
  unsigned Current = currentDevice();
  if (!matches(dev_type, (*Types)[Current])) {
    // Another type: the device acc_set_device_type(dev_type) would select, its first.
    if (!take(Routine, indexOf(Routine, *Types, dev_type, 0)))
      return -1;
    return 0;
  }
  int Num = 0;
  for (unsigned I = 0; I < Current; ++I)
    Num += matches(dev_type, (*Types)[I]);
  return Num;
}

size_t acc_get_property(int dev_num, acc_device_t dev_type, acc_device_property_t property) {
  auto I = info("acc_get_property", dev_num, dev_type);
  if (!I)
    return 0;
  switch (property) {
  case acc_property_memory:
    return I->TotalMemory;
  case acc_property_free_memory:
    return I->FreeMemory;
  case acc_property_shared_memory_support:
    return 0; // every jacc device has memory of its own, as a discrete GPU
  default:
    return 0; // string properties and unknown ones
  }
}

const char *acc_get_property_string(int dev_num, acc_device_t dev_type,
                                    acc_device_property_t property) {
  auto I = info("acc_get_property_string", dev_num, dev_type);
  if (!I)
    return nullptr;
  switch (property) {
  case acc_property_name:
    return intern(I->Model);
  case acc_property_vendor:
    return intern(I->Vendor);
  case acc_property_driver:
    return intern(I->Driver);
  default:
    return nullptr; // numeric properties and unknown ones
  }
}

void acc_init(acc_device_t dev_type) {
  const char *Routine = "acc_init";
  if (!ok(Routine, checkType(Routine, dev_type)) || !ok(Routine, Runtime::instance().init()))
    return;
  if (dev_type != acc_device_default && dev_type != acc_device_current)
    ok(Routine, selectType(Routine, dev_type));
}

void acc_shutdown(acc_device_t dev_type) {
  // jacc cannot release one type of device alone: any type it has shuts everything down.
  const char *Routine = "acc_shutdown";
  auto Types = take(Routine, types(Routine, dev_type));
  if (!Types || !take(Routine, indexOf(Routine, *Types, dev_type, 0)))
    return;
  if (ok(Routine, Runtime::instance().finalize()))
    SelectedDevice.reset();
}

void acc_init_device(int dev_num, acc_device_t dev_type) {
  // jacc initialises all its devices together: check that this one is among them.
  const char *Routine = "acc_init_device";
  if (dev_num < 0) {
    report(Routine, invalid(Routine, "device number " + llvm::Twine(dev_num) + " is negative"));
    return;
  }
  if (auto Types = take(Routine, types(Routine, dev_type)))
    take(Routine, indexOf(Routine, *Types, dev_type, dev_num));
}

void acc_shutdown_device(int dev_num, acc_device_t dev_type) {
  // jacc cannot release one device alone: shutting down one of its devices shuts down all.
  const char *Routine = "acc_shutdown_device";
  if (dev_num < 0) {
    report(Routine, invalid(Routine, "device number " + llvm::Twine(dev_num) + " is negative"));
    return;
  }
  auto Types = take(Routine, types(Routine, dev_type));
  if (!Types || !take(Routine, indexOf(Routine, *Types, dev_type, dev_num)))
    return;
  if (ok(Routine, Runtime::instance().finalize()))
    SelectedDevice.reset();
}

void acc_set_default_async(int async_arg) {
  if (ok("acc_set_default_async", checkAsync("acc_set_default_async", async_arg)))
    DefaultAsync = async_arg == acc_async_noval || async_arg == acc_async_default ? 0 : async_arg;
}

int acc_get_default_async(void) {
  return DefaultAsync;
}

int acc_on_device(acc_device_t dev_type) {
  // Called from host code, outside any kernel.
  return dev_type == acc_device_host ? 1 : 0;
}

// --- Asynchronous queues ---

int acc_async_test(int wait_arg) {
  if (!ok("acc_async_test", checkAsync("acc_async_test", wait_arg)))
    return 0;
  return testAll("acc_async_test");
}

int acc_async_test_all(void) {
  return testAll("acc_async_test_all");
}

void acc_wait(int wait_arg) {
  if (ok("acc_wait", checkAsync("acc_wait", wait_arg)))
    ok("acc_wait", Runtime::instance().wait());
}

void acc_wait_async(int wait_arg, int async_arg) {
  // One in-order queue: work queued later already runs after queue wait_arg.
  if (ok("acc_wait_async", checkAsync("acc_wait_async", wait_arg)))
    ok("acc_wait_async", checkAsync("acc_wait_async", async_arg));
}

void acc_wait_all(void) {
  ok("acc_wait_all", Runtime::instance().wait());
}

void acc_wait_all_async(int async_arg) {
  ok("acc_wait_all_async", checkAsync("acc_wait_all_async", async_arg));
}

int acc_wait_any(int count, int wait_arg[]) {
  return waitAny("acc_wait_any", count, wait_arg);
}

int acc_async_test_device(int wait_arg, int dev_num) {
  const char *Routine = "acc_async_test_device";
  if (!deviceExists(Routine, dev_num) || !ok(Routine, checkAsync(Routine, wait_arg)))
    return 0;
  return testAll(Routine);
}

int acc_async_test_all_device(int dev_num) {
  return deviceExists("acc_async_test_all_device", dev_num)
             ? testAll("acc_async_test_all_device")
             : 0;
}

void acc_wait_device(int wait_arg, int dev_num) {
  const char *Routine = "acc_wait_device";
  if (deviceExists(Routine, dev_num) && ok(Routine, checkAsync(Routine, wait_arg)))
    ok(Routine, Runtime::instance().wait());
}

void acc_wait_device_async(int wait_arg, int async_arg, int dev_num) {
  const char *Routine = "acc_wait_device_async";
  if (deviceExists(Routine, dev_num) && ok(Routine, checkAsync(Routine, wait_arg)))
    ok(Routine, checkAsync(Routine, async_arg));
}

void acc_wait_all_device(int dev_num) {
  if (deviceExists("acc_wait_all_device", dev_num))
    ok("acc_wait_all_device", Runtime::instance().wait());
}

void acc_wait_all_device_async(int async_arg, int dev_num) {
  if (deviceExists("acc_wait_all_device_async", dev_num))
    ok("acc_wait_all_device_async", checkAsync("acc_wait_all_device_async", async_arg));
}

int acc_wait_any_device(int count, int wait_arg[], int dev_num) {
  if (!deviceExists("acc_wait_any_device", dev_num))
    return -1;
  return waitAny("acc_wait_any_device", count, wait_arg);
}

void acc_async_wait(int wait_arg) {
  if (ok("acc_async_wait", checkAsync("acc_async_wait", wait_arg)))
    ok("acc_async_wait", Runtime::instance().wait());
}

void acc_async_wait_all(void) {
  ok("acc_async_wait_all", Runtime::instance().wait());
}

// --- Device memory ---

d_void *acc_malloc(size_t bytes) {
  return take("acc_malloc", Runtime::instance().allocateUser(currentDevice(), bytes, "acc_malloc"))
      .value_or(nullptr);
}

void acc_free(d_void *data_dev) {
  ok("acc_free", Runtime::instance().releaseUser(data_dev, "acc_free"));
}

// --- Data ---

d_void *acc_copyin(h_void *data_arg, size_t bytes) {
  return enter("acc_copyin", data_arg, bytes, true);
}

void acc_copyin_async(h_void *data_arg, size_t bytes, int async_arg) {
  if (ok("acc_copyin_async", checkAsync("acc_copyin_async", async_arg)))
    enter("acc_copyin_async", data_arg, bytes, true);
}

d_void *acc_create(h_void *data_arg, size_t bytes) {
  return enter("acc_create", data_arg, bytes, false);
}

void acc_create_async(h_void *data_arg, size_t bytes, int async_arg) {
  if (ok("acc_create_async", checkAsync("acc_create_async", async_arg)))
    enter("acc_create_async", data_arg, bytes, false);
}

void acc_copyout(h_void *data_arg, size_t bytes) {
  exitData("acc_copyout", data_arg, bytes, true, false);
}

void acc_copyout_async(h_void *data_arg, size_t bytes, int async_arg) {
  if (ok("acc_copyout_async", checkAsync("acc_copyout_async", async_arg)))
    exitData("acc_copyout_async", data_arg, bytes, true, false);
}

void acc_copyout_finalize(h_void *data_arg, size_t bytes) {
  exitData("acc_copyout_finalize", data_arg, bytes, true, true);
}

void acc_copyout_finalize_async(h_void *data_arg, size_t bytes, int async_arg) {
  if (ok("acc_copyout_finalize_async", checkAsync("acc_copyout_finalize_async", async_arg)))
    exitData("acc_copyout_finalize_async", data_arg, bytes, true, true);
}

void acc_delete(h_void *data_arg, size_t bytes) {
  exitData("acc_delete", data_arg, bytes, false, false);
}

void acc_delete_async(h_void *data_arg, size_t bytes, int async_arg) {
  if (ok("acc_delete_async", checkAsync("acc_delete_async", async_arg)))
    exitData("acc_delete_async", data_arg, bytes, false, false);
}

void acc_delete_finalize(h_void *data_arg, size_t bytes) {
  exitData("acc_delete_finalize", data_arg, bytes, false, true);
}

void acc_delete_finalize_async(h_void *data_arg, size_t bytes, int async_arg) {
  if (ok("acc_delete_finalize_async", checkAsync("acc_delete_finalize_async", async_arg)))
    exitData("acc_delete_finalize_async", data_arg, bytes, false, true);
}

void acc_update_device(h_void *data_arg, size_t bytes) {
  updateData("acc_update_device", data_arg, bytes, true);
}

void acc_update_device_async(h_void *data_arg, size_t bytes, int async_arg) {
  if (ok("acc_update_device_async", checkAsync("acc_update_device_async", async_arg)))
    updateData("acc_update_device_async", data_arg, bytes, true);
}

void acc_update_self(h_void *data_arg, size_t bytes) {
  updateData("acc_update_self", data_arg, bytes, false);
}

void acc_update_self_async(h_void *data_arg, size_t bytes, int async_arg) {
  if (ok("acc_update_self_async", checkAsync("acc_update_self_async", async_arg)))
    updateData("acc_update_self_async", data_arg, bytes, false);
}

void acc_map_data(h_void *data_arg, d_void *data_dev, size_t bytes) {
  ok("acc_map_data",
     Runtime::instance().mapUserData(data_arg, data_dev, bytes, currentDevice(), "acc_map_data"));
}

void acc_unmap_data(h_void *data_arg) {
  ok("acc_unmap_data", Runtime::instance().unmapUserData(data_arg, "acc_unmap_data"));
}

d_void *acc_deviceptr(h_void *data_arg) {
  return take("acc_deviceptr",
              Runtime::instance().devicePtr(data_arg, currentDevice(), "acc_deviceptr"))
      .value_or(nullptr);
}

jacc_status jacc_use_device(void *host, void **device) {
  if (!device)
    return toStatus(makeError(ErrorCode::InvalidArgument,
                              "jacc_use_device: the address to return the device copy's in is "
                              "null"));
  auto P = Runtime::instance().devicePtr(host, currentDevice(), "jacc_use_device", /*Sole=*/true);
  if (!P)
    return toStatus(P.takeError());
  *device = *P;
  return toStatus(llvm::Error::success());
}

h_void *acc_hostptr(d_void *data_dev) {
  return take("acc_hostptr", Runtime::instance().hostPtr(data_dev, currentDevice(), "acc_hostptr"))
      .value_or(nullptr);
}

int acc_is_present(h_void *data_arg, size_t bytes) {
  // Bytes 0 is looked up as one byte, as OpenACC asks.
  // On the current device: data living at a location without it is not accessible there.
  return take("acc_is_present", Runtime::instance().isPresent(data_arg, bytes, currentDevice()))
                 .value_or(false)
             ? 1
             : 0;
}

// --- Attached pointers ---

void acc_attach(h_void **ptr_addr) {
  attach("acc_attach", ptr_addr, Runtime::AttachOp::Attach);
}

void acc_attach_async(h_void **ptr_addr, int async_arg) {
  if (ok("acc_attach_async", checkAsync("acc_attach_async", async_arg)))
    attach("acc_attach_async", ptr_addr, Runtime::AttachOp::Attach);
}

void acc_detach(h_void **ptr_addr) {
  attach("acc_detach", ptr_addr, Runtime::AttachOp::Detach);
}

void acc_detach_async(h_void **ptr_addr, int async_arg) {
  if (ok("acc_detach_async", checkAsync("acc_detach_async", async_arg)))
    attach("acc_detach_async", ptr_addr, Runtime::AttachOp::Detach);
}

void acc_detach_finalize(h_void **ptr_addr) {
  attach("acc_detach_finalize", ptr_addr, Runtime::AttachOp::DetachFinalize);
}

void acc_detach_finalize_async(h_void **ptr_addr, int async_arg) {
  if (ok("acc_detach_finalize_async", checkAsync("acc_detach_finalize_async", async_arg)))
    attach("acc_detach_finalize_async", ptr_addr, Runtime::AttachOp::DetachFinalize);
}

// --- Deprecated names ---

d_void *acc_present_or_copyin(h_void *data_arg, size_t bytes) {
  return enter("acc_present_or_copyin", data_arg, bytes, true);
}

d_void *acc_pcopyin(h_void *data_arg, size_t bytes) {
  return enter("acc_pcopyin", data_arg, bytes, true);
}

d_void *acc_present_or_create(h_void *data_arg, size_t bytes) {
  return enter("acc_present_or_create", data_arg, bytes, false);
}

d_void *acc_pcreate(h_void *data_arg, size_t bytes) {
  return enter("acc_pcreate", data_arg, bytes, false);
}

// --- Copies ---

void acc_memcpy_to_device(d_void *data_dev_dest, h_void *data_host_src, size_t bytes) {
  copyMemory("acc_memcpy_to_device", Runtime::MemcpyKind::HostToDevice, data_dev_dest,
             data_host_src, bytes);
}

void acc_memcpy_to_device_async(d_void *data_dev_dest, h_void *data_host_src, size_t bytes,
                                int async_arg) {
  if (ok("acc_memcpy_to_device_async", checkAsync("acc_memcpy_to_device_async", async_arg)))
    copyMemory("acc_memcpy_to_device_async", Runtime::MemcpyKind::HostToDevice, data_dev_dest,
               data_host_src, bytes);
}

void acc_memcpy_from_device(h_void *data_host_dest, d_void *data_dev_src, size_t bytes) {
  copyMemory("acc_memcpy_from_device", Runtime::MemcpyKind::DeviceToHost, data_host_dest,
             data_dev_src, bytes);
}

void acc_memcpy_from_device_async(h_void *data_host_dest, d_void *data_dev_src, size_t bytes,
                                  int async_arg) {
  if (ok("acc_memcpy_from_device_async", checkAsync("acc_memcpy_from_device_async", async_arg)))
    copyMemory("acc_memcpy_from_device_async", Runtime::MemcpyKind::DeviceToHost, data_host_dest,
               data_dev_src, bytes);
}

void acc_memcpy_device(d_void *data_dev_dest, d_void *data_dev_src, size_t bytes) {
  copyMemory("acc_memcpy_device", Runtime::MemcpyKind::DeviceToDevice, data_dev_dest, data_dev_src,
             bytes);
}

void acc_memcpy_device_async(d_void *data_dev_dest, d_void *data_dev_src, size_t bytes,
                             int async_arg) {
  if (ok("acc_memcpy_device_async", checkAsync("acc_memcpy_device_async", async_arg)))
    copyMemory("acc_memcpy_device_async", Runtime::MemcpyKind::DeviceToDevice, data_dev_dest,
               data_dev_src, bytes);
}

void acc_memcpy_d2d(h_void *data_arg_dest, h_void *data_arg_src, size_t bytes, int dev_num_dest,
                    int dev_num_src) {
  memcpyD2D("acc_memcpy_d2d", data_arg_dest, data_arg_src, bytes, dev_num_dest, dev_num_src);
}

void acc_memcpy_d2d_async(h_void *data_arg_dest, h_void *data_arg_src, size_t bytes,
                          int dev_num_dest, int dev_num_src, int async_arg_src) {
  if (ok("acc_memcpy_d2d_async", checkAsync("acc_memcpy_d2d_async", async_arg_src)))
    memcpyD2D("acc_memcpy_d2d_async", data_arg_dest, data_arg_src, bytes, dev_num_dest,
              dev_num_src);
}

} // extern "C"
