// The compile server's side (see ServeCompiles.h).
#include "jit/server/ServeCompiles.h"

#include "analysis/Pipeline.h"
#include "jit/host/HostCompiler.h"
#include "jit/server/CompileProtocol.h"
#include "support/ClangInvocation.h"
#include "support/Error.h"
#include "support/IdlePriority.h"
#include "support/LargeStack.h"

#include <llvm/Support/ErrorHandling.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include <sys/socket.h>
#include <unistd.h>

namespace jacc::jit {

using namespace server;

/// An LLVM fatal error ends the server, saying why on stderr, which the client reports.
static void reportFatal(void *, const char *Reason, bool) {
  std::string Line = std::string("LLVM ERROR: ") + Reason + "\n";
  if (::write(2, Line.data(), Line.size()) < 0) {
  }
  ::_exit(70);
}

/// The failure JACC_TEST_COMPILE_FAULT asks for (Kind, in a compile whose Code contains Text).
static void fakeFault(llvm::StringRef Kind, llvm::StringRef Text, llvm::StringRef Code) {
  if (Kind.empty() || !Code.contains(Text))
    return;
  if (Kind == "crash") {
    std::signal(SIGSEGV, SIG_DFL); // a crash as without sanitizers, which catch SIGSEGV
    std::raise(SIGSEGV);
  }
  if (Kind == "abort")
    std::abort();
  if (Kind == "fatal")
    llvm::report_fatal_error("a fatal error faked by JACC_TEST_COMPILE_FAULT");
  if (Kind == "hang")
    for (;;)
      ::pause();
  if (Kind == "memory") {
    std::vector<std::unique_ptr<char[]>> Blocks;
    for (;;) {
      Blocks.emplace_back(new char[64 << 20]);
      std::memset(Blocks.back().get(), 1, 64 << 20);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
}

/// The analysis of a kernel, which the client runs again when it ends here (see
/// analyseWhereCompilesRun): only its outcome goes back.
static Message analyse(const Message &Request) {
  auto Info = analysis::runAnalysis(Request[1], analysisDecls(Request));
  if (!Info) {
    std::string Text;
    ErrorCode Code = takeError(Info.takeError(), Text);
    return errorReply(int(Code), Text);
  }
  return okReply("", "", "");
}

Message answerRequest(const Message &Request) {
  if (Request.size() == 3 && Request[0] == "analyse-kernel")
    return analyse(Request);
  if (Request.size() != 5 || Request[0] != "compile-host")
    return errorReply(int(ErrorCode::Internal), "unknown request");
  fakeFault(Request[3], Request[4], Request[1]);
  std::optional<llvm::Expected<HostObject>> Result;
  runWithLargeStack(
      [&] { Result.emplace(compileHostObjectInProcess(Request[1], Request[2])); });
  if (!*Result) {
    std::string Text;
    ErrorCode Code = takeError(Result->takeError(), Text);
    return errorReply(int(Code), Text);
  }
  HostObject &Obj = **Result;
  return okReply(llvm::StringRef(Obj.Bytes.data(), Obj.Bytes.size()), Obj.OptimizedIR,
                 Obj.Remarks);
}

int serveCompiles(int Fd, bool Idle) {
  // The main thread, which compiles (through a large-stack thread that inherits its policy).
  if (Idle)
    lowerThisThreadToIdle();
  llvm::install_fatal_error_handler(reportFatal);
  // The driver's work (include paths, host CPU) before the greeting, not in the first compile.
  if (auto Args = cc1Arguments(ClangPurpose::HostCodegen); !Args)
    llvm::consumeError(Args.takeError()); // each compile reports it
  if (auto E = sendAll(Fd, encode(helloMessage()))) {
    llvm::consumeError(std::move(E));
    return 1;
  }
  MessageReader Reader;
  for (;;) {
    auto M = Reader.next();
    if (!M) {
      llvm::consumeError(M.takeError());
      return 1;
    }
    if (*M) {
      if (auto E = sendAll(Fd, encode(answerRequest(**M)))) {
        llvm::consumeError(std::move(E));
        return 1;
      }
      continue;
    }
    char Buf[1 << 16];
    ssize_t N = ::recv(Fd, Buf, sizeof Buf, 0);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return N == 0 ? 0 : 1;
    Reader.feed(llvm::StringRef(Buf, size_t(N)));
  }
}

} // namespace jacc::jit
