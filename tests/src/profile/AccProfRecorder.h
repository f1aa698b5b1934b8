// A callback that records every OpenACC profiling event it receives, for the registry's and the
// listener's tests.
#ifndef JACC_TESTS_SRC_PROFILE_ACCPROFRECORDER_H
#define JACC_TESTS_SRC_PROFILE_ACCPROFRECORDER_H

#include "jacc/acc_prof.h"
#include "src/profile/AccProf.h"

#include <mutex>
#include <vector>

namespace jacc::testing {

/// One callback's view of an event: copies of its three records.
struct Recorded {
  acc_prof_info Prof;
  acc_event_info Event;
  acc_api_info Api;
};

/// Everything recordEvent saw since the last clearRecorded, in order.
inline std::vector<Recorded> &recorded() {
  static std::vector<Recorded> R;
  return R;
}
inline std::mutex &recordedLock() {
  static std::mutex M;
  return M;
}

inline void recordEvent(acc_prof_info *P, acc_event_info *E, acc_api_info *A) {
  std::lock_guard<std::mutex> G(recordedLock());
  recorded().push_back({*P, *E, *A});
}

/// The recorded events' types, in order.
inline std::vector<acc_event_t> recordedTypes() {
  std::lock_guard<std::mutex> G(recordedLock());
  std::vector<acc_event_t> T;
  for (const Recorded &R : recorded())
    T.push_back(R.Prof.event_type);
  return T;
}

inline void clearRecorded() {
  std::lock_guard<std::mutex> G(recordedLock());
  recorded().clear();
}

/// recordEvent registered for every event, and a clean registry afterwards.
struct RecordEverything {
  RecordEverything() {
    prof::accprof::resetForTesting();
    clearRecorded();
    for (int E = acc_ev_none + 1; E < acc_ev_last; ++E)
      acc_prof_register(acc_event_t(E), recordEvent, acc_reg);
  }
  ~RecordEverything() {
    prof::accprof::resetForTesting();
    clearRecorded();
  }
};

} // namespace jacc::testing

#endif
