// The OpenACC profiling interface's registry (OpenACC 3.3 chapter 5.3): which callbacks tools
// registered for each event, which of them are enabled, and calling them. acc_prof_register,
// acc_prof_unregister and acc_prof_lookup (include/jacc/acc_prof.h) are its C face.
#ifndef JACC_SRC_PROFILE_ACCPROF_H
#define JACC_SRC_PROFILE_ACCPROF_H

#include "jacc/acc_prof.h"

namespace jacc::prof::accprof {

/// Whether an event has an enabled callback, for the calling thread: the one check before an
/// event's records are built.
bool wanted(acc_event_t Event);

/// Calls every enabled callback of Info->event_type in the order the chapter asks for (an end
/// event's in the reverse order of registration). The callbacks run without the registry's lock:
/// they may register and unregister.
void dispatch(acc_prof_info *Prof, acc_event_info *Event, acc_api_info *Api);

/// Whether Event ends a start/end pair (device_init_end, ..., wait_end).
bool isEndEvent(acc_event_t Event);

/// Forgets every registration and toggle (the calling thread's too): tests only.
void resetForTesting();

} // namespace jacc::prof::accprof

#endif
