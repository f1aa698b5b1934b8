// The C boundary: every internal error becomes a jacc_status and this thread's last error message.
// Nothing thrown or aborted crosses it.
#include "jacc/jacc.h"

#include "jit/KernelRoutines.h"
#include "src/CApi.h"
#include "src/Runtime.h"
#include "src/profile/Events.h"
#include "support/Error.h"
#include "support/ExitSafeThreadLocal.h"
#include "support/Stats.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

using namespace jacc;

namespace {

/// This thread's last error message; once exit() destroyed it (support/ExitSafeThreadLocal.h),
/// a fixed buffer (truncated) that nothing destroys.
using LastError = ExitSafeThreadLocal<std::string, struct LastErrorTag>;
char ExitTimeError[4096];

void setLastError(const std::string &Message) {
  if (std::string *Text = LastError::get()) {
    *Text = Message;
    return;
  }
  size_t N = std::min(Message.size(), sizeof ExitTimeError - 1);
  std::memcpy(ExitTimeError, Message.data(), N);
  ExitTimeError[N] = 0;
}

} // namespace

jacc_status jacc::toStatus(llvm::Error E) {
  if (!E)
    return JACC_SUCCESS;
  std::string Message;
  ErrorCode Code = jacc::takeError(std::move(E), Message);
  setLastError(Message);
  return static_cast<jacc_status>(static_cast<int>(Code));
}

void jacc::clearLastError() {
  setLastError("");
}

extern "C" {

const char *jacc_last_error(void) {
  std::string *Text = LastError::get();
  return Text ? Text->c_str() : ExitTimeError;
}

jacc_status jacc_init(void) { return toStatus(Runtime::instance().init()); }

jacc_status jacc_finalize(void) { return toStatus(Runtime::instance().finalize()); }

int jacc_get_num_devices(void) {
  auto N = Runtime::instance().numDevices();
  if (!N) {
    toStatus(N.takeError());
    return 0;
  }
  return static_cast<int>(*N);
}

jacc_status jacc_create(void *host, size_t bytes) {
  return toStatus(Runtime::instance().enterData(host, bytes, false, "jacc_create"));
}

jacc_status jacc_copyin(void *host, size_t bytes) {
  return toStatus(Runtime::instance().enterData(host, bytes, true, "jacc_copyin"));
}

jacc_status jacc_copyout(void *host, size_t bytes) {
  return toStatus(Runtime::instance().exitData(host, bytes, true, "jacc_copyout"));
}

jacc_status jacc_delete(void *host, size_t bytes) {
  return toStatus(Runtime::instance().exitData(host, bytes, false, "jacc_delete"));
}

jacc_status jacc_create_zero(void *host, size_t bytes) {
  return toStatus(Runtime::instance().enterData(host, bytes, false, "jacc_create_zero", true));
}

jacc_status jacc_exit_data(void *host, size_t bytes, int copy_back, int finalize) {
  return toStatus(Runtime::instance().exitDataOpenACC(host, bytes, copy_back != 0, finalize != 0,
                                                      "jacc_exit_data"));
}

jacc_status jacc_attach(void **pointer) {
  return toStatus(
      Runtime::instance().attachPointer(pointer, Runtime::AttachOp::Attach, "jacc_attach"));
}

jacc_status jacc_detach(void **pointer, int finalize) {
  return toStatus(Runtime::instance().attachPointer(
      pointer, finalize ? Runtime::AttachOp::DetachFinalize : Runtime::AttachOp::Detach,
      "jacc_detach"));
}

jacc_status jacc_update_device(void *host, size_t bytes) {
  return toStatus(Runtime::instance().update(host, bytes, true, "jacc_update_device"));
}

jacc_status jacc_update_self(void *host, size_t bytes) {
  return toStatus(Runtime::instance().update(host, bytes, false, "jacc_update_self"));
}

int jacc_is_present(const void *host, size_t bytes) {
  auto P = Runtime::instance().isPresent(host, bytes);
  if (!P) {
    toStatus(P.takeError());
    return 0;
  }
  return *P ? 1 : 0;
}

jacc_status jacc_kernel_push(const char *source, int nargs, const jacc_arg *args,
                             unsigned flags) {
  return toStatus(Runtime::instance().push(source, nargs, args, flags));
}

jacc_status jacc_define_routine(const char *name, const char *source) {
  if (!name || !source)
    return toStatus(makeError(ErrorCode::InvalidArgument,
                              "jacc_define_routine: the name or the source is NULL"));
  return toStatus(jit::kernelRoutines().define(name, source));
}

jacc_status jacc_kernel_native(const char *source, const char *device_kind, jacc_native_fn fn,
                               void *user) {
  return toStatus(Runtime::instance().setNative(source, device_kind, fn, user));
}

jacc_status jacc_wait(void) { return toStatus(Runtime::instance().wait()); }

jacc_status jacc_set_policy(const char *policy) {
  return toStatus(Runtime::instance().setPolicy(policy));
}

jacc_status jacc_set_location(const char *name) {
  return toStatus(Runtime::instance().setLocation(name));
}

jacc_status jacc_location_add(const char *name) {
  return toStatus(Runtime::instance().addLocation(name));
}

jacc_status jacc_location_add_child(const char *parent, const char *child) {
  return toStatus(Runtime::instance().changeLocationChild(parent, child, /*Add=*/true));
}

jacc_status jacc_location_remove_child(const char *parent, const char *child) {
  return toStatus(Runtime::instance().changeLocationChild(parent, child, /*Add=*/false));
}

jacc_status jacc_set_data_location(const char *name) {
  return toStatus(Runtime::instance().setDataLocation(name));
}

jacc_status jacc_data_location_begin(const char *name) {
  return toStatus(Runtime::instance().beginDataLocation(name));
}

jacc_status jacc_data_location_end(void) {
  return toStatus(Runtime::instance().endDataLocation());
}

void jacc_construct_begin(int kind, const char *file, int line, const char *func) {
  // The first construct starts the runtime, as a directive does: its observers then see the
  // construct begin (a failure is reported by the construct's first call).
  static std::once_flag Started;
  std::call_once(Started, [] { llvm::consumeError(Runtime::instance().init()); });
  prof::Site S;
  // An unknown kind is still a construct with a place: it only loses its name.
  bool Exit = kind == JACC_CONSTRUCT_DATA_EXIT;
  int K = Exit ? JACC_CONSTRUCT_DATA : kind;
  S.Kind = K >= 0 && K <= int(prof::Construct::Serial) ? prof::Construct(K)
                                                        : prof::Construct::RuntimeApi;
  S.File = file;
  S.Func = func;
  S.Line = line;
  S.ExitPart = Exit;
  prof::beginConstruct(S);
}

void jacc_construct_end(void) { prof::endConstruct(); }

jacc_status jacc_get_stats(jacc_stats *out) {
  if (!out) {
    setLastError("jacc_get_stats: out is NULL");
    return JACC_ERROR_INVALID_ARGUMENT;
  }
  Stats &S = stats();
  out->kernels_pushed = S.KernelsPushed;
  out->kernels_compiled = S.KernelsCompiled;
  out->memory_cache_hits = S.MemoryCacheHits;
  out->disk_cache_hits = S.DiskCacheHits;
  out->split_launches = S.SplitLaunches;
  out->duplicate_launches = S.DuplicateLaunches;
  out->bytes_host_to_device = S.BytesHostToDevice;
  out->bytes_device_to_host = S.BytesDeviceToHost;
  out->bytes_device_to_device = S.BytesDeviceToDevice;
  out->variants_compiled = S.VariantsCompiled;
  out->specialized_launches = S.SpecializedLaunches;
  out->variants_loaded = S.VariantsLoaded;
  out->variants_over_budget = S.VariantsOverBudget;
  out->kernel_cache_evictions = S.KernelCacheEvictions;
  return JACC_SUCCESS;
}

void jacc_reset_stats(void) { stats().reset(); }

} // extern "C"
