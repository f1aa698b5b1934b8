// The compile server's side (tools/jacc-compile-server.cpp runs it): answer host compile
// requests on a socket, one at a time, until the client closes it.
#ifndef JACC_JIT_SERVER_SERVECOMPILES_H
#define JACC_JIT_SERVER_SERVECOMPILES_H

#include "jit/server/CompileProtocol.h"

namespace jacc::jit {

/// The reply to one request, as serveCompiles sends it back: an analysis's outcome, a compiled
/// object, or an error (an unknown request is one).
server::Message answerRequest(const server::Message &Request);

/// Greet on Fd, then compile each request and reply. Returns the process exit status: 0 when
/// the client closed the socket, 1 on a broken socket or message. An LLVM fatal error prints
/// "LLVM ERROR: ..." to stderr and exits with status 70 (the client reports both). Idle: lower
/// the process to idle priority first (the background compiler's server; silently kept as it
/// is when denied).
int serveCompiles(int Fd, bool Idle = false);

} // namespace jacc::jit

#endif
