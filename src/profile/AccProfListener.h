// The listener that turns jacc's events into the OpenACC profiling interface's callbacks, with
// the chapter's records filled in (src/profile/AccProfListener.cpp says which event becomes which).
#ifndef JACC_SRC_PROFILE_ACCPROFLISTENER_H
#define JACC_SRC_PROFILE_ACCPROFLISTENER_H

#include "src/profile/Events.h"

#include <memory>

namespace jacc::prof {

/// A new listener; the registry adds one when a tool first registers a callback.
std::unique_ptr<Listener> makeAccProfListener();

} // namespace jacc::prof

#endif
