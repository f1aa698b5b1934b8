// Host compiles in a separate process (see CompileServer.h): the client side, a small pool of
// server processes, each serving one compile at a time.
#include "jit/server/CompileServer.h"

#include "jit/server/CompileProtocol.h"
#include "support/Debug.h"
#include "support/Error.h"
#include "support/IdlePriority.h"
#include "support/LargeStack.h"
#include "support/ProcessLimits.h"

#include "jacc_server_paths.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace jacc::jit {

using namespace server;

namespace {

using Clock = std::chrono::steady_clock;

/// Set in a server's environment: jacc_init in a program started as one knows it is not one.
constexpr const char *StartedAsServerVar = "JACC_STARTED_AS_COMPILE_SERVER";
/// The descriptor the server reads its socket from (argument --fd=3).
constexpr int ServerFd = 3;
/// The end of a cancelled compile's message (isCancelledCompile).
constexpr llvm::StringLiteral CancelledText = " was cancelled: jacc is finalizing";
/// How often a waiting client looks at the clock, the server's memory and cancellation.
constexpr int PollMs = 50;

/// What a request asks of a server, for its errors: "compiling kernel 'x'" or "analysing ...".
struct Job {
  llvm::StringRef Verb; ///< "compiling" or "analysing"
  llvm::StringRef What; ///< the kernel ("kernel 'for (int i = 0; ...'")
  std::string doing() const { return (Verb + " " + What).str(); }
  /// "the compile of kernel 'x'": the start of a cancelled job's error (isCancelledCompile).
  std::string noun() const {
    return (llvm::Twine(Verb == "analysing" ? "the analysis of " : "the compile of ") + What).str();
  }
};

/// One server process, the socket to it and the pipe of its stderr (and stdout).
class ServerProcess {
public:
  /// Start the server at Path; Idle: it runs at idle priority (--idle).
  static llvm::Expected<std::unique_ptr<ServerProcess>> start(const std::string &Path,
                                                              bool Idle);
  ~ServerProcess();

  /// Send Request, wait for the reply within C's limits. After an error the server is gone.
  llvm::Expected<Message> exchange(const Message &Request, const CompileConfig &C, const Job &J);
  bool alive() const { return Pid > 0; }
  /// Whether the process holds more than half of C's memory limit: the memory a huge kernel's
  /// compile took stays with its allocator, and the next compile, small or not, would start
  /// near the limit.
  bool holdsHalfTheLimit(const CompileConfig &C) const {
    return C.MemoryBytes > 0 && residentBytes() > C.MemoryBytes / 2;
  }
  /// Whether the process has ended (killed from outside while idle): it is then reaped.
  bool ended() {
    int Status;
    if (Pid > 0 && ::waitpid(Pid, &Status, WNOHANG) == Pid)
      Pid = -1;
    return Pid <= 0;
  }
  int pid() const { return Pid; }
  /// Make the compile in flight fail at once: the waiting thread wakes up (its end of the socket
  /// is shut down; the descriptor stays open until this object goes) and stops the server.
  void cancel() {
    Cancelled = true;
    if (Sock >= 0)
      ::shutdown(Sock, SHUT_RDWR);
  }
  /// Forget the process without stopping it: in a forked child, it is the parent's.
  void disown() { Pid = -1; }

private:
  llvm::Expected<Message> receive(Clock::time_point Deadline, const CompileConfig &C, const Job &J);
  void readStderr();
  uint64_t residentBytes() const;
  /// Stop the process if it still runs, reap it, and say how it ended.
  std::string finish(bool Kill);
  llvm::Error failure(const llvm::Twine &How, const Job &J);

  int Pid = -1, Sock = -1, Err = -1;
  bool Greeted = false;
  MessageReader Reader;
  std::string Output; ///< the end of what the server printed
  std::atomic<bool> Cancelled{false};
};

/// Fd, or a copy of it numbered above stdin, stdout and stderr: an application that closed one
/// of them gets its number back from socketpair or pipe2, and its next dup2 onto it (restoring
/// stderr) or its prints would close the server's socket or write into it.
static int aboveStandardStreams(int Fd) {
  if (Fd > 2)
    return Fd;
  int Moved = ::fcntl(Fd, F_DUPFD_CLOEXEC, 3);
  if (Moved < 0)
    return Fd;
  ::close(Fd);
  return Moved;
}

llvm::Expected<std::unique_ptr<ServerProcess>> ServerProcess::start(const std::string &Path,
                                                                     bool Idle) {
  auto Fail = [&](const char *Step) {
    return makeError(ErrorCode::Compile, "cannot start the compile server " + Path + " (" +
                                             Step + ": " + std::strerror(errno) + ")");
  };
  int Pair[2], Pipe[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pair) != 0)
    return Fail("socketpair");
  if (::pipe2(Pipe, O_CLOEXEC) != 0) {
    ::close(Pair[0]);
    ::close(Pair[1]);
    return Fail("pipe");
  }
  // The child's end must not already be descriptor 3 (dup2 onto itself keeps close-on-exec).
  int Child = ::fcntl(Pair[1], F_DUPFD_CLOEXEC, 10);
  ::close(Pair[1]);
  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_addopen(&Files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&Files, Pipe[1], 1);
  posix_spawn_file_actions_adddup2(&Files, Pipe[1], 2);
  posix_spawn_file_actions_adddup2(&Files, Child, ServerFd);
  // Default signal handling and no blocked signals, whatever the application set.
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  sigset_t All, None;
  sigfillset(&All);
  sigemptyset(&None);
  posix_spawnattr_setsigdefault(&Attr, &All);
  posix_spawnattr_setsigmask(&Attr, &None);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::string FdArg = "--fd=" + std::to_string(ServerFd), IdleArg = "--idle";
  char *Argv[] = {const_cast<char *>(Path.c_str()), FdArg.data(),
                  Idle ? IdleArg.data() : nullptr, nullptr};
  std::vector<char *> Env;
  std::string Marker = std::string(StartedAsServerVar) + "=1";
  for (char **E = environ; *E; ++E)
    Env.push_back(*E);
  Env.push_back(Marker.data());
  Env.push_back(nullptr);
  pid_t Pid = -1;
  int Rc = Child < 0 ? errno : ::posix_spawn(&Pid, Path.c_str(), &Files, &Attr, Argv, Env.data());
  posix_spawn_file_actions_destroy(&Files);
  posix_spawnattr_destroy(&Attr);
  if (Child >= 0)
    ::close(Child);
  ::close(Pipe[1]);
  if (Rc != 0) {
    ::close(Pair[0]);
    ::close(Pipe[0]);
    errno = Rc;
    return Fail("posix_spawn");
  }
  auto S = std::make_unique<ServerProcess>();
  S->Pid = Pid;
  S->Sock = aboveStandardStreams(Pair[0]);
  S->Err = aboveStandardStreams(Pipe[0]);
  ::fcntl(S->Err, F_SETFL, O_NONBLOCK);
  return S;
}

ServerProcess::~ServerProcess() {
  if (Pid > 0)
    finish(/*Kill=*/true);
  if (Sock >= 0)
    ::close(Sock);
  if (Err >= 0)
    ::close(Err);
}

void ServerProcess::readStderr() {
  char Buf[4096];
  for (;;) {
    ssize_t N = ::read(Err, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      if (N == 0) { // the server and everything it started have closed it
        ::close(Err);
        Err = -1;
      }
      return;
    }
    Output.append(Buf, size_t(N));
    if (Output.size() > 16384)
      Output.erase(0, Output.size() - 8192);
  }
}

uint64_t ServerProcess::residentBytes() const {
  return jacc::residentBytes(Pid);
}

std::string ServerProcess::finish(bool Kill) {
  if (Pid <= 0)
    return "ended";
  int Status = 0;
  pid_t Got = 0;
  if (!Kill) // it closed the socket, so it is exiting: give it a moment
    for (int I = 0; I < 100 && (Got = ::waitpid(Pid, &Status, WNOHANG)) == 0; ++I)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (Got == 0) {
    ::kill(Pid, SIGKILL);
    while ((Got = ::waitpid(Pid, &Status, 0)) < 0 && errno == EINTR) {
    }
  }
  Pid = -1;
  if (Err >= 0) // what it printed before it ended (still non-blocking: a fork of the
    readStderr(); // application may hold the pipe open)
  if (Got < 0) // the application reaps children itself, or ignores SIGCHLD
    return "ended";
  if (WIFSIGNALED(Status))
    return "crashed (signal " + std::to_string(WTERMSIG(Status)) + ", " +
           ::strsignal(WTERMSIG(Status)) + ")";
  return "exited with status " + std::to_string(WEXITSTATUS(Status));
}

/// The last lines of the server's output, indented, for an error message.
static std::string lastLines(llvm::StringRef Output) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Output.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Out;
  size_t First = Lines.size() > 6 ? Lines.size() - 6 : 0;
  for (size_t I = First; I < Lines.size(); ++I)
    Out += "\n  " + Lines[I].rtrim().take_front(300).str();
  return Out;
}

llvm::Error ServerProcess::failure(const llvm::Twine &How, const Job &J) {
  std::string Said = lastLines(Output);
  // One that never greeted is likely no compile server at all (/bin/true, a script).
  std::string Next = Greeted ? " (the next compile starts a new server)"
                             : " before it greeted (is " + compileServerPath() +
                                   " jacc's compile server? JACC_COMPILE_SERVER names it)";
  return makeError(ErrorCode::Compile, "the compile server " + How + " while " + J.doing() + Next +
                                           (Said.empty() ? "" : "; it printed:" + Said));
}

llvm::Expected<Message> ServerProcess::receive(Clock::time_point Deadline, const CompileConfig &C,
                                               const Job &J) {
  for (;;) {
    auto M = Reader.next();
    if (!M) {
      std::string Why = llvm::toString(M.takeError());
      finish(/*Kill=*/true);
      return makeError(ErrorCode::Compile, Why + " while " + J.doing() + " (is " +
                                               compileServerPath() + " jacc's compile server?)");
    }
    if (*M)
      return std::move(**M);
    if (Cancelled) {
      finish(/*Kill=*/true);
      return makeError(ErrorCode::Compile, J.noun() + CancelledText);
    }
    if (C.TimeoutSeconds > 0 && Clock::now() >= Deadline) {
      finish(/*Kill=*/true);
      return makeError(ErrorCode::Compile,
                       "timed out after " + secondsText(C.TimeoutSeconds) + " s while " +
                           J.doing() + " (JACC_COMPILE_TIMEOUT sets the limit; 0 removes it)");
    }
    if (C.MemoryBytes > 0 && residentBytes() > C.MemoryBytes) {
      finish(/*Kill=*/true);
      return makeError(ErrorCode::Compile, "the compile server used more than " +
                                               sizeText(C.MemoryBytes) + " of memory while " +
                                               J.doing() +
                                               " (JACC_COMPILE_MEMORY sets the limit; 0 "
                                               "removes it)");
    }
    pollfd Fds[2] = {{Sock, POLLIN, 0}, {Err, POLLIN, 0}};
    if (::poll(Fds, Err >= 0 ? 2 : 1, PollMs) < 0 && errno != EINTR)
      return failure(llvm::Twine("could not be waited for: ") + std::strerror(errno), J);
    if (Err >= 0 && (Fds[1].revents & (POLLIN | POLLHUP)))
      readStderr();
    if (Fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char Buf[1 << 16];
      ssize_t N = ::recv(Sock, Buf, sizeof Buf, MSG_DONTWAIT);
      if (N > 0)
        Reader.feed(llvm::StringRef(Buf, size_t(N)));
      else if (Cancelled) // woken by cancel(): the check above ends the compile
        continue;
      else if (N == 0 || (errno != EINTR && errno != EAGAIN))
        return failure(finish(/*Kill=*/false), J);
    }
  }
}

llvm::Expected<Message> ServerProcess::exchange(const Message &Request, const CompileConfig &C,
                                                const Job &J) {
  auto Deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(C.TimeoutSeconds));
  if (!Greeted) {
    auto Hello = receive(Deadline, C, J);
    if (!Hello)
      return Hello.takeError();
    if (auto Wrong = checkHello(*Hello)) {
      finish(/*Kill=*/true);
      return makeError(ErrorCode::Compile, "the compile server " + compileServerPath() +
                                               " does not match this library: " + *Wrong +
                                               " (reinstall jacc, or set JACC_COMPILE_SERVER)");
    }
    Greeted = true;
  }
  if (auto E = sendAll(Sock, encode(Request))) {
    llvm::consumeError(std::move(E));
    return failure(finish(/*Kill=*/false), J);
  }
  return receive(Deadline, C, J);
}

/// The running servers; at most MaxServers compiles run at once, the others wait. The pool of
/// idle-priority servers serves the compiles of idle-priority threads (the background
/// compiler's), one at a time: a server cannot be raised back to normal priority, and a
/// foreground compile must not run in one.
class ServerPool {
public:
  explicit ServerPool(bool Idle)
      : IdlePriority(Idle),
        MaxServers(Idle ? 1u : std::clamp(std::thread::hardware_concurrency(), 2u, 8u)) {}
  llvm::Expected<Message> run(const Message &Request, const CompileConfig &C, const Job &J);
  void prestart();
  void stopAll();
  std::vector<int> pids();

private:
  /// In a child forked by the application, the servers (and their sockets) are the parent's:
  /// forget them. Called with M held.
  void leaveTheParentsServers();

  pid_t Owner = ::getpid();
  std::mutex M;
  std::condition_variable Freed;
  std::vector<std::unique_ptr<ServerProcess>> Idle;
  std::vector<ServerProcess *> Busy;
  unsigned Count = 0; ///< idle, busy and starting
  const bool IdlePriority;
  const unsigned MaxServers;
};

void ServerPool::leaveTheParentsServers() {
  if (Owner == ::getpid())
    return;
  for (auto &S : Idle)
    S->disown(); // its descriptors are closed, the parent's server goes on
  Idle.clear();
  Busy.clear(); // the threads that used them did not survive the fork
  Count = 0;
  Owner = ::getpid();
}

llvm::Expected<Message> ServerPool::run(const Message &Request, const CompileConfig &C,
                                        const Job &J) {
  std::unique_ptr<ServerProcess> S;
  {
    std::unique_lock<std::mutex> L(M);
    leaveTheParentsServers();
    Freed.wait(L, [&] { return !Idle.empty() || Count < MaxServers; });
    if (!Idle.empty()) {
      S = std::move(Idle.back());
      Idle.pop_back();
      if (S->ended()) // replaced below; not this compile's failure
        S.reset();
    } else {
      ++Count;
    }
  }
  if (!S) {
    auto Started = ServerProcess::start(compileServerPath(), IdlePriority);
    if (!Started) {
      std::lock_guard<std::mutex> L(M);
      --Count;
      Freed.notify_one();
      return Started.takeError();
    }
    S = std::move(*Started);
  }
  {
    std::lock_guard<std::mutex> L(M);
    Busy.push_back(S.get());
  }
  auto Reply = S->exchange(Request, C, J);
  bool Keep = S->alive() && !S->holdsHalfTheLimit(C); // else a fresh one serves the next compile
  std::unique_ptr<ServerProcess> Dead;
  {
    std::lock_guard<std::mutex> L(M);
    llvm::erase_value(Busy, S.get());
    if (Keep)
      Idle.push_back(std::move(S));
    else {
      --Count;
      Dead = std::move(S);
    }
  }
  Freed.notify_one();
  return Reply;
}

void ServerPool::prestart() {
  {
    std::lock_guard<std::mutex> L(M);
    leaveTheParentsServers();
    if (Count > 0)
      return;
    ++Count;
  }
  auto Started = ServerProcess::start(compileServerPath(), IdlePriority);
  std::lock_guard<std::mutex> L(M);
  if (Started)
    Idle.push_back(std::move(*Started));
  else {
    llvm::consumeError(Started.takeError()); // the first compile reports it
    --Count;
  }
  Freed.notify_one();
}

void ServerPool::stopAll() {
  std::vector<std::unique_ptr<ServerProcess>> Stopping;
  {
    std::lock_guard<std::mutex> L(M);
    for (ServerProcess *S : Busy)
      S->cancel();
    Count -= unsigned(Idle.size());
    Stopping = std::move(Idle);
    Idle.clear();
  }
  Freed.notify_all();
}

std::vector<int> ServerPool::pids() {
  std::lock_guard<std::mutex> L(M);
  std::vector<int> P;
  for (const auto &S : Idle)
    P.push_back(S->pid());
  for (ServerProcess *S : Busy)
    P.push_back(S->pid());
  return P;
}

/// The servers at normal priority, or (Idle) those at idle priority.
ServerPool &pool(bool Idle) {
  // Never destroyed: servers exit when their socket closes.
  static auto *Normal = new ServerPool(false);
  static auto *Lowered = new ServerPool(true);
  return Idle ? *Lowered : *Normal;
}

/// Whether the calling thread compiles in the background: it was lowered to idle priority
/// (BackgroundCompiler), so its compiles go to an idle-priority server. (Not the thread's
/// priority as read: a whole program run under nice compiles in the foreground.)
bool callerIsIdle() { return thisThreadWasLowered(); }

std::mutex ConfigMutex;
std::optional<CompileConfig> Configured;

llvm::Expected<HostObject> hostObjectFromReply(Message Reply) {
  if (Reply.size() == 4 && Reply[0] == "ok") {
    HostObject Obj;
    Obj.Bytes.assign(Reply[1].begin(), Reply[1].end());
    Obj.OptimizedIR = std::move(Reply[2]);
    Obj.Remarks = std::move(Reply[3]);
    return Obj;
  }
  int Code = 0;
  if (Reply.size() == 3 && Reply[0] == "error" && llvm::to_integer(Reply[1], Code) &&
      Code >= int(ErrorCode::Internal) && Code <= int(ErrorCode::InvalidArgument))
    return makeError(ErrorCode(Code), Reply[2]);
  return makeError(ErrorCode::Internal, "the compile server sent an unknown reply");
}

llvm::Expected<HostObject> compileHere(llvm::StringRef Code, llvm::StringRef KernelSource) {
  std::optional<llvm::Expected<HostObject>> Result;
  runWithLargeStack([&] { Result.emplace(compileHostObjectInProcess(Code, KernelSource)); });
  return std::move(*Result);
}

/// Whether the server can run; otherwise warn once that compiles run in process.
bool serverRunnable() {
  static std::once_flag Warned;
  std::string Path = compileServerPath();
  struct stat St;
  int Errno = 0;
  if (::access(Path.c_str(), X_OK) != 0 || ::stat(Path.c_str(), &St) != 0)
    Errno = errno;
  else if (!S_ISREG(St.st_mode)) // a directory passes access(X_OK)
    Errno = S_ISDIR(St.st_mode) ? EISDIR : EACCES;
  else
    return true;
  std::call_once(Warned, [&] {
    llvm::errs() << "jacc: warning: cannot run the compile server " << Path << " ("
                 << std::strerror(Errno)
                 << "): compiling in the application's process, where a crash of the compiler "
                    "ends the program (reinstall jacc, set JACC_COMPILE_SERVER to it, or set "
                    "JACC_COMPILE=inprocess to silence this)\n";
  });
  return false;
}

} // namespace

void configureCompiles(const CompileConfig &C) {
  bool OtherServer;
  {
    std::lock_guard<std::mutex> L(ConfigMutex);
    OtherServer = Configured && Configured->ServerPath != C.ServerPath;
    Configured = C;
  }
  if (OtherServer) // the servers running are the old program's
    stopCompileServers();
}

CompileConfig compileConfig() {
  std::lock_guard<std::mutex> L(ConfigMutex);
  if (!Configured) {
    auto C = compileConfigFromEnv();
    if (C)
      Configured = std::move(*C);
    else {
      llvm::consumeError(C.takeError()); // jacc_init reports it; defaults meanwhile
      Configured = CompileConfig();
    }
  }
  return *Configured;
}

std::string compileServerPath() {
  CompileConfig C = compileConfig();
  if (!C.ServerPath.empty())
    return C.ServerPath;
  // Code in the build tree runs the build tree's server; installed code the installed one.
  // The code is in libjacc.so or, for the unit tests, in the executable (which dladdr may
  // name as it was started, relative to a directory since left).
  static const bool InBuildTree = [] {
    Dl_info Info;
    std::string Module = "/proc/self/exe";
    if (::dladdr(reinterpret_cast<void *>(&compileServerPath), &Info) && Info.dli_fname &&
        Info.dli_fname[0] == '/')
      Module = Info.dli_fname;
    char Real[PATH_MAX], Root[PATH_MAX];
    return ::realpath(Module.c_str(), Real) && ::realpath(JACC_BUILD_ROOT, Root) &&
           llvm::StringRef(Real).startswith(std::string(Root) + "/");
  }();
  return InBuildTree ? JACC_SERVER_BUILD_PATH : JACC_SERVER_INSTALL_PATH;
}

/// Where the host compile runs: here, or in a server.
static llvm::Expected<HostObject> compileHostSomewhere(llvm::StringRef Code,
                                                       llvm::StringRef KernelSource,
                                                       llvm::StringRef What) {
  CompileConfig C = compileConfig();
  if (C.InProcess || !serverRunnable())
    return compileHere(Code, KernelSource);
  auto Reply = pool(callerIsIdle())
                   .run(hostCompileRequest(Code, KernelSource, C.Fault.Kind, C.Fault.Text), C,
                        Job{"compiling", What});
  if (!Reply)
    return Reply.takeError();
  return hostObjectFromReply(std::move(*Reply));
}

llvm::Error analyseWhereCompilesRun(llvm::StringRef KernelSource, llvm::ArrayRef<std::string> Decls,
                                    llvm::StringRef What) {
  CompileConfig C = compileConfig();
  if (C.InProcess || !serverRunnable())
    return llvm::Error::success();
  auto Reply =
      pool(callerIsIdle()).run(analysisRequest(KernelSource, Decls), C, Job{"analysing", What});
  if (!Reply)
    return Reply.takeError();
  auto Outcome = hostObjectFromReply(std::move(*Reply)); // an empty object, or the error
  return Outcome ? llvm::Error::success() : Outcome.takeError();
}

llvm::Expected<HostObject> compileHost(llvm::StringRef Code, llvm::StringRef KernelSource,
                                       llvm::StringRef What) {
  auto Obj = compileHostSomewhere(Code, KernelSource, What);
  if (Obj && !Obj->Remarks.empty())
    debugLog("remarks", What + ":\n" + llvm::StringRef(Obj->Remarks).rtrim());
  return Obj;
}

void exitIfStartedAsCompileServer() {
  if (!std::getenv(StartedAsServerVar))
    return;
  std::string Line = "jacc: this program uses jacc; it is not jacc's compile server, which "
                     "JACC_COMPILE_SERVER must name (unset it to use the installed one)\n";
  if (::write(2, Line.data(), Line.size()) < 0) {
  }
  ::_exit(2);
}

void prestartCompileServer() {
  if (!compileConfig().InProcess && serverRunnable())
    pool(/*Idle=*/false).prestart();
}

void stopCompileServers() {
  pool(false).stopAll();
  pool(true).stopAll();
}

std::vector<int> compileServerPids() {
  std::vector<int> P = pool(false).pids(), Idle = pool(true).pids();
  P.insert(P.end(), Idle.begin(), Idle.end());
  return P;
}

std::vector<int> idleCompileServerPids() { return pool(true).pids(); }

void cancelIdleCompiles() { pool(true).stopAll(); }

bool isCancelledCompile(llvm::StringRef Message) { return Message.endswith(CancelledText); }

llvm::Error cancelledCompileError(llvm::StringRef What) {
  return makeError(ErrorCode::Compile, "the compile of " + What + CancelledText);
}

} // namespace jacc::jit
