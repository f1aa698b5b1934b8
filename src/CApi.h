// Shared by the C boundary files (CApi.cpp: the jacc_* API, OpenACC.cpp: the acc_* API).
#ifndef JACC_SRC_CAPI_H
#define JACC_SRC_CAPI_H

#include "jacc/jacc.h"

#include <llvm/Support/Error.h>

namespace jacc {

/// JACC_SUCCESS for no error; otherwise consume E into this thread's jacc_last_error() and return
/// its status.
jacc_status toStatus(llvm::Error E);

/// Empty this thread's jacc_last_error(): OpenACC routines do it when they succeed, so that with
/// JACC_ACC_ERRORS=return the caller of a void routine can tell success from failure.
void clearLastError();

} // namespace jacc

#endif
