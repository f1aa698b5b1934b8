// The registry of OpenACC profiling callbacks and the routines tools call to fill it.
#include "src/profile/AccProf.h"

#include "src/profile/AccProfListener.h"
#include "src/profile/Events.h"

#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

namespace jacc::prof::accprof {

namespace {

struct Registration {
  acc_prof_callback Callback;
  unsigned Count; ///< registrations not yet unregistered
  bool Enabled;
};

/// Everything behind one lock; Wanted mirrors it for the lock-free check of every event.
struct Registry {
  std::mutex Lock;
  /// Per event, in calling order (an end event's newest first).
  std::vector<Registration> Callbacks[acc_ev_last];
  /// Per event: acc_toggle with a null callback; [acc_ev_none] is every event's switch.
  bool EventEnabled[acc_ev_last];
  std::atomic<bool> Wanted[acc_ev_last];

  Registry() { clear(); }

  void clear() {
    for (int E = 0; E < acc_ev_last; ++E) {
      Callbacks[E].clear();
      EventEnabled[E] = true;
      Wanted[E].store(false, std::memory_order_relaxed);
    }
  }

  /// Recomputes Wanted after a change (under Lock).
  void refresh() {
    for (int E = 1; E < acc_ev_last; ++E) {
      bool Any = std::any_of(Callbacks[E].begin(), Callbacks[E].end(),
                             [](const Registration &R) { return R.Enabled; });
      Wanted[E].store(Any && EventEnabled[E] && EventEnabled[acc_ev_none],
                      std::memory_order_release);
    }
  }

  Registration *find(acc_event_t E, acc_prof_callback Cb) {
    for (Registration &R : Callbacks[E])
      if (R.Callback == Cb)
        return &R;
    return nullptr;
  }
};

Registry &registry() {
  static Registry *R = new Registry; // never destroyed: events may arrive during the exit
  return *R;
}

/// acc_toggle_per_thread's switch for the calling thread.
thread_local bool ThreadEnabled = true;

bool validEvent(acc_event_t E) { return E >= acc_ev_none && E < acc_ev_last; }

/// The listener that turns jacc's events into callbacks, added by the first registration: until
/// a tool registers, nothing is built.
void listenOnce() {
  static std::once_flag Once;
  std::call_once(Once, [] { addListener(makeAccProfListener()); });
}

/// acc_prof_register (On) and acc_prof_unregister (!On).
void change(acc_event_t E, acc_prof_callback Cb, acc_register_t How, bool On) {
  if (!validEvent(E))
    return;
  if (How == acc_toggle_per_thread) {
    // The chapter's per-thread switch applies to every event; other arguments are ignored.
    if (E == acc_ev_none && !Cb)
      ThreadEnabled = On;
    return;
  }
  if (How != acc_reg && How != acc_toggle)
    return;
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  if (How == acc_toggle) {
    if (!Cb)
      R.EventEnabled[E] = On;
    else if (Registration *Found = E != acc_ev_none ? R.find(E, Cb) : nullptr)
      Found->Enabled = On;
    R.refresh();
    return;
  }
  if (E == acc_ev_none || !Cb)
    return;
  std::vector<Registration> &List = R.Callbacks[E];
  Registration *Found = R.find(E, Cb);
  if (On && Found)
    ++Found->Count;
  else if (On)
    List.insert(isEndEvent(E) ? List.begin() : List.end(), Registration{Cb, 1, true});
  else if (Found && --Found->Count == 0)
    List.erase(List.begin() + (Found - List.data()));
  R.refresh();
}

} // namespace

bool isEndEvent(acc_event_t E) {
  switch (E) {
  case acc_ev_device_init_end:
  case acc_ev_device_shutdown_end:
  case acc_ev_enter_data_end:
  case acc_ev_exit_data_end:
  case acc_ev_update_end:
  case acc_ev_compute_construct_end:
  case acc_ev_enqueue_launch_end:
  case acc_ev_enqueue_upload_end:
  case acc_ev_enqueue_download_end:
  case acc_ev_wait_end:
    return true;
  default:
    return false;
  }
}

bool wanted(acc_event_t E) {
  return validEvent(E) && registry().Wanted[E].load(std::memory_order_acquire) && ThreadEnabled;
}

void dispatch(acc_prof_info *Prof, acc_event_info *Event, acc_api_info *Api) {
  acc_event_t E = Prof->event_type;
  if (!wanted(E))
    return;
  llvm::SmallVector<acc_prof_callback, 4> Calls;
  {
    Registry &R = registry();
    std::lock_guard<std::mutex> G(R.Lock);
    for (const Registration &Reg : R.Callbacks[E])
      if (Reg.Enabled)
        Calls.push_back(Reg.Callback);
  }
  for (acc_prof_callback Cb : Calls)
    Cb(Prof, Event, Api);
}

void resetForTesting() {
  Registry &R = registry();
  std::lock_guard<std::mutex> G(R.Lock);
  R.clear();
  ThreadEnabled = true;
}

} // namespace jacc::prof::accprof

using namespace jacc::prof;

extern "C" {

void acc_prof_register(acc_event_t event_type, acc_prof_callback cb, acc_register_t info) {
  if (info == acc_reg && cb)
    accprof::listenOnce();
  accprof::change(event_type, cb, info, /*On=*/true);
}

void acc_prof_unregister(acc_event_t event_type, acc_prof_callback cb, acc_register_t info) {
  accprof::change(event_type, cb, info, /*On=*/false);
}

acc_query_fn acc_prof_lookup(const char *acc_query_fn_name) {
  // jacc defines no inquiry routines of its own (the chapter allows none): NULL for every name.
  (void)acc_query_fn_name;
  return nullptr;
}

} // extern "C"
