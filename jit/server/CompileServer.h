// Host compiles in a separate process. clang and LLVM's code generator run in
// jacc-compile-server (tools/), started on first use (or at jacc_init), reused, and restarted
// when it dies; the object comes back over a socket and is linked here. Compiles asked for by a
// thread at idle priority (the background compiler's) run in servers at idle priority. A crash, LLVM fatal
// error, timeout or memory overrun in the server is a Compile error for that kernel only.
#ifndef JACC_JIT_SERVER_COMPILESERVER_H
#define JACC_JIT_SERVER_COMPILESERVER_H

#include "jit/host/HostCompiler.h"
#include "jit/server/CompileConfig.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace jacc::jit {

/// Compile generated host C where the configuration says (compileHostObjectInProcess's
/// contract). What names the kernel in errors ("kernel 'for (int i = 0; ...'").
llvm::Expected<HostObject> compileHost(llvm::StringRef Code, llvm::StringRef KernelSource,
                                       llvm::StringRef What);

/// Analyse a kernel where compiles run, before the application analyses it itself: in a server,
/// the analysis of a source that would exhaust the application (a macro doubling forty times,
/// thousands of nested statements) meets the compile limits and is an error for that kernel
/// only. Success: it ended there. The analysis's own errors come back as they are. In process
/// (JACC_COMPILE=inprocess), nothing is checked.
llvm::Error analyseWhereCompilesRun(llvm::StringRef KernelSource, llvm::ArrayRef<std::string> Decls,
                                    llvm::StringRef What);

/// End this process with a message on stderr if jacc started it as a compile server: then it is
/// a program linked with jacc that JACC_COMPILE_SERVER names, not the server, and running on
/// would start servers of its own, each the same program, without end (jacc_init).
void exitIfStartedAsCompileServer();

/// Use C from now on (jacc_init; tests); servers of another program than C's stop. Until called,
/// the environment's configuration.
void configureCompiles(const CompileConfig &C);
/// The configuration in use.
CompileConfig compileConfig();

/// Start a server in the background so the first compile does not wait for its start
/// (jacc_init); nothing in process mode.
void prestartCompileServer();

/// Stop every server: compiles in flight fail at once ("cancelled"), idle servers exit
/// (jacc_finalize: it must not wait for a stuck compile). Later compiles start new ones.
void stopCompileServers();

/// Stop the servers of the idle threads' compiles: a background compile in flight fails at once
/// ("cancelled"), as stopCompileServers does for all (jacc_finalize).
void cancelIdleCompiles();

/// Whether Message is that of a compile cancelled by stopCompileServers or cancelIdleCompiles.
bool isCancelledCompile(llvm::StringRef Message);
/// The error of a compile of What cancelled before it reached a server (isCancelledCompile).
llvm::Error cancelledCompileError(llvm::StringRef What);

/// The process ids of the running servers (tests kill them mid-compile).
std::vector<int> compileServerPids();
/// Those of the servers at idle priority, which serve the idle threads' compiles.
std::vector<int> idleCompileServerPids();

/// The server executable this library runs: JACC_COMPILE_SERVER, else the one of its build
/// tree or of its installation.
std::string compileServerPath();

} // namespace jacc::jit

#endif
