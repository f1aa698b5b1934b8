// Tests of compiles in the compile server: objects come back from another process, and each way
// a compile can go wrong there (crash, abort, LLVM fatal error, hang, memory, a kill from
// outside, cancellation, a wrong or missing server) is a Compile error for that compile only:
// the next compile works.
#include "jit/server/CompileServer.h"

#include "jit/host/HostJIT.h"
#include "support/Error.h"
#include "support/IdlePriority.h"
#include "support/ProcessLimits.h"

#include "../../DoublingMacros.h"
#include "../../ScopedEnv.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace jacc;
using namespace jacc::jit;

namespace {

const char *Good = "int jacc_server_test(int a) { return a * 3; }\n";

/// Fresh servers with the test's configuration, and the defaults again after.
class CompileServerTest : public ::testing::Test {
protected:
  void SetUp() override { use({}); }
  void TearDown() override {
    stopCompileServers();
    configureCompiles(CompileConfig());
  }
  void use(CompileConfig C) {
    stopCompileServers(); // no server still busy from the test before
    configureCompiles(C);
  }
  /// The configuration faking Kind in compiles containing Text, with these limits.
  static CompileConfig fault(const char *Kind, const char *Text = "", double TimeoutSeconds = 60,
                             uint64_t MemoryBytes = 0) {
    CompileConfig C;
    C.Fault = {Kind, Text};
    C.TimeoutSeconds = TimeoutSeconds;
    C.MemoryBytes = MemoryBytes;
    return C;
  }
};

/// The message of a compile that must fail with a Compile error.
std::string failure(llvm::StringRef Code = Good) {
  auto Obj = compileHost(Code, "", "kernel 'test'");
  if (Obj) {
    ADD_FAILURE() << "the compile should fail";
    return "";
  }
  std::string Msg;
  EXPECT_EQ(takeError(Obj.takeError(), Msg), ErrorCode::Compile) << Msg;
  return Msg;
}

/// A good compile works and its function runs.
void expectWorks() {
  auto Obj = compileHost(Good, "", "kernel 'test'");
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError());
  auto Fns = loadHostObject(Obj->Bytes, std::vector<std::string>{"jacc_server_test"});
  ASSERT_TRUE(bool(Fns)) << llvm::toString(Fns.takeError());
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(Fns->Symbols[0])(14), 42);
}

#define EXPECT_HAS(Text, Part) EXPECT_NE((Text).find(Part), std::string::npos) << (Text)

} // namespace

TEST_F(CompileServerTest, CompilesInAnotherProcess) {
  expectWorks();
  std::vector<int> Pids = compileServerPids();
  ASSERT_EQ(Pids.size(), 1u);
  EXPECT_NE(Pids[0], int(getpid()));
  expectWorks(); // the same server again
  EXPECT_EQ(compileServerPids(), Pids);
}

TEST_F(CompileServerTest, ClangDiagnosticsComeBack) {
  std::string Msg = failure("int f(void) { return nope; }\n");
  EXPECT_HAS(Msg, "nope");
  expectWorks();
}

TEST_F(CompileServerTest, CrashIsAnErrorAndTheNextCompileWorks) {
  use(fault("crash", "jacc_server_test"));
  std::string Msg = failure();
  EXPECT_HAS(Msg, "the compile server crashed (signal 11, Segmentation fault) while compiling "
                  "kernel 'test'");
  EXPECT_HAS(Msg, "the next compile starts a new server");
  use({});
  expectWorks();
}

TEST_F(CompileServerTest, AbortAndFatalErrorAreNamed) {
  use(fault("abort"));
  EXPECT_HAS(failure(), "crashed (signal 6, Aborted)");
  use(fault("fatal"));
  std::string Msg = failure();
  EXPECT_HAS(Msg, "exited with status 70");
  EXPECT_HAS(Msg, "LLVM ERROR: a fatal error faked by JACC_TEST_COMPILE_FAULT");
}

TEST_F(CompileServerTest, FaultOnlyInTheCompileThatContainsItsText) {
  use(fault("crash", "poison"));
  expectWorks();
  EXPECT_HAS(failure("int poison(void) { return 1; }\n"), "crashed");
  expectWorks(); // a new server, same environment
}

TEST_F(CompileServerTest, HangTimesOut) {
  use(fault("hang", "poison", 0.3));
  auto Start = std::chrono::steady_clock::now();
  std::string Msg = failure("int poison(void) { return 1; }\n");
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(20));
  EXPECT_HAS(Msg, "timed out after 0.3 s while compiling kernel 'test'");
  EXPECT_HAS(Msg, "JACC_COMPILE_TIMEOUT");
  expectWorks();
}

TEST_F(CompileServerTest, MemoryLimitStopsTheServer) {
  use(fault("memory", "poison", 0, 200u << 20));
  std::string Msg = failure("int poison(void) { return 1; }\n");
  EXPECT_HAS(Msg, "used more than 200 MiB of memory while compiling kernel 'test'");
  EXPECT_HAS(Msg, "JACC_COMPILE_MEMORY");
  expectWorks();
}

TEST_F(CompileServerTest, AServerLeftHoldingHalfItsLimitIsReplaced) {
  expectWorks();
  std::vector<int> Pids = compileServerPids();
  ASSERT_EQ(Pids.size(), 1u);
  uint64_t Held = residentBytes(Pids[0]); // what a server keeps after a compile
  ASSERT_GT(Held, 0u);
  // A limit the compile stays under but whose half the server then holds: the server stops
  // after each compile, so the next one does not start near the limit in it.
  CompileConfig C;
  C.MemoryBytes = Held * 8 / 5;
  use(C);
  expectWorks();
  EXPECT_TRUE(compileServerPids().empty());
  expectWorks();
  EXPECT_TRUE(compileServerPids().empty());
  // Under a limit far above what it holds, the server is kept.
  C.MemoryBytes = Held * 4;
  use(C);
  expectWorks();
  Pids = compileServerPids();
  expectWorks();
  EXPECT_EQ(compileServerPids(), Pids);
}

/// A kernel whose one statement is 2^Levels terms once its macros are expanded.
std::string doublingKernel(int Levels) {
  return jacc_test::doublingMacros(Levels) +
         "#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n  y[i] = A" +
         std::to_string(Levels) + ";\n";
}
const std::vector<std::string> KernelDecls = {"int n", "double *y"};

/// The message of an analysis that must fail with a Compile error.
std::string analysisFailure(const std::string &Kernel) {
  llvm::Error E = analyseWhereCompilesRun(Kernel, KernelDecls, "kernel 'bomb'");
  std::string Msg;
  EXPECT_EQ(takeError(std::move(E), Msg), ErrorCode::Compile) << Msg;
  return Msg;
}

TEST_F(CompileServerTest, AnalysisThatExhaustsMemoryOrTimeIsAnError) {
  CompileConfig C;
  C.TimeoutSeconds = 0;
  C.MemoryBytes = 300u << 20;
  use(C);
  EXPECT_HAS(analysisFailure(doublingKernel(40)),
             "the compile server used more than 300 MiB of memory while analysing kernel 'bomb' "
             "(JACC_COMPILE_MEMORY sets the limit; 0 removes it)");
  EXPECT_FALSE(bool(analyseWhereCompilesRun(doublingKernel(4), KernelDecls, "kernel 'small'")));
  C.TimeoutSeconds = 1;
  C.MemoryBytes = 0;
  use(C);
  EXPECT_HAS(analysisFailure(doublingKernel(40)),
             "timed out after 1 s while analysing kernel 'bomb' (JACC_COMPILE_TIMEOUT");
  expectWorks();
}

TEST_F(CompileServerTest, AnalysisErrorsComeBackAsTheyAre) {
  std::string Bad = "#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n  y[i] = nope;\n";
  llvm::Error E = analyseWhereCompilesRun(Bad, KernelDecls, "kernel 'bad'");
  std::string Msg;
  EXPECT_EQ(takeError(std::move(E), Msg), ErrorCode::Compile);
  EXPECT_HAS(Msg, "use of undeclared identifier 'nope'");
  EXPECT_EQ(compileServerPids().size(), 1u) << "an error of the kernel's, not of the server";
}

TEST_F(CompileServerTest, InProcessModeAnalysesNothingBeforehand) {
  CompileConfig C;
  C.InProcess = true;
  use(C);
  EXPECT_FALSE(bool(analyseWhereCompilesRun(doublingKernel(40), KernelDecls, "kernel 'bomb'")));
  EXPECT_TRUE(compileServerPids().empty());
}

TEST_F(CompileServerTest, KilledMidCompile) {
  use(fault("hang", "poison", 0));
  expectWorks(); // a server is running
  std::vector<int> Pids = compileServerPids();
  ASSERT_EQ(Pids.size(), 1u);
  std::thread Killer([Pid = Pids[0]] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(Pid, SIGKILL);
  });
  std::string Msg = failure("int poison(void) { return 1; }\n");
  Killer.join();
  EXPECT_HAS(Msg, "crashed (signal 9, Killed)");
  expectWorks();
}

TEST_F(CompileServerTest, IdleServerKilledFromOutsideIsReplacedSilently) {
  expectWorks();
  std::vector<int> Pids = compileServerPids();
  ASSERT_EQ(Pids.size(), 1u);
  ::kill(Pids[0], SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  expectWorks();
  EXPECT_NE(compileServerPids(), Pids);
}

TEST_F(CompileServerTest, StopCancelsACompileInFlight) {
  use(fault("hang", "", 0));
  std::thread Stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    stopCompileServers();
  });
  std::string Msg = failure();
  Stopper.join();
  EXPECT_HAS(Msg, "was cancelled: jacc is finalizing");
}

TEST_F(CompileServerTest, ServerThatIsNotOneIsRefused) {
  std::string Script = testing::TempDir() + "jacc-not-a-server.sh";
  {
    std::ofstream S(Script);
    S << "#!/bin/sh\necho 'hello, I am something else' >&3\nsleep 5\n";
  }
  ::chmod(Script.c_str(), 0755);
  CompileConfig C = fault("", "", 10);
  C.ServerPath = Script;
  use(C);
  std::string Msg = failure();
  EXPECT_HAS(Msg, "malformed message");
  C.ServerPath = "/bin/false"; // ends before it greets: the message asks whether it is one
  use(C);
  std::string Ended = failure();
  EXPECT_HAS(Ended, "exited with status 1 while compiling kernel 'test' before it greeted (is "
                    "/bin/false jacc's compile server? JACC_COMPILE_SERVER names it)");
  std::remove(Script.c_str());
}

TEST_F(CompileServerTest, ADirectoryAsServerFallsBackToCompilingInProcess) {
  // access(X_OK) lets a directory pass; spawning it then failed every compile.
  CompileConfig C;
  C.ServerPath = testing::TempDir();
  use(C);
  expectWorks();
  EXPECT_TRUE(compileServerPids().empty());
}

TEST_F(CompileServerTest, MissingServerFallsBackToCompilingInProcess) {
  CompileConfig C;
  C.ServerPath = "/nonexistent/jacc-compile-server";
  use(C);
  testing::internal::CaptureStderr();
  expectWorks();
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(compileServerPids().empty());
  // Warned once per process: only the first test to get here sees it.
  if (!Err.empty()) {
    EXPECT_HAS(Err, "cannot run the compile server /nonexistent/jacc-compile-server");
  }
}

TEST_F(CompileServerTest, InProcessModeStartsNoServer) {
  CompileConfig C = fault("crash"); // only servers fake faults
  C.InProcess = true;
  use(C);
  expectWorks();
  EXPECT_TRUE(compileServerPids().empty());
}

TEST_F(CompileServerTest, ConfigurationFromTheEnvironment) {
  ScopedEnv Mode("JACC_COMPILE", "inprocess"), T("JACC_COMPILE_TIMEOUT", "2.5"),
      M("JACC_COMPILE_MEMORY", "1G"), S("JACC_COMPILE_SERVER", "/opt/x/server"),
      F("JACC_TEST_COMPILE_FAULT", "hang:poison");
  auto C = compileConfigFromEnv();
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_TRUE(C->InProcess);
  EXPECT_EQ(C->TimeoutSeconds, 2.5);
  EXPECT_EQ(C->MemoryBytes, uint64_t(1) << 30);
  EXPECT_EQ(C->ServerPath, "/opt/x/server");
  EXPECT_EQ(C->Fault.Kind, "hang");
  EXPECT_EQ(C->Fault.Text, "poison");
  for (auto [Name, Value, Says] :
       {std::tuple{"JACC_COMPILE", "fork", "server or inprocess"},
        std::tuple{"JACC_COMPILE_TIMEOUT", "-1", "a number of seconds"},
        std::tuple{"JACC_COMPILE_MEMORY", "lots", "a size"},
        std::tuple{"JACC_TEST_COMPILE_FAULT", "explode", "crash, abort, fatal, hang or memory"}}) {
    ScopedEnv Bad(Name, Value);
    auto E = compileConfigFromEnv();
    ASSERT_FALSE(bool(E)) << Name;
    std::string Msg;
    EXPECT_EQ(takeError(E.takeError(), Msg), ErrorCode::InvalidArgument);
    EXPECT_HAS(Msg, std::string(Name) + "='" + Value + "'");
    EXPECT_HAS(Msg, Says);
  }
}

TEST_F(CompileServerTest, DefaultsUseTheServerWithLimits) {
  ScopedEnv Mode("JACC_COMPILE", nullptr), T("JACC_COMPILE_TIMEOUT", nullptr),
      M("JACC_COMPILE_MEMORY", nullptr);
  auto C = compileConfigFromEnv();
  ASSERT_TRUE(bool(C));
  EXPECT_FALSE(C->InProcess);
  EXPECT_EQ(C->TimeoutSeconds, 60);
  EXPECT_GT(C->MemoryBytes, uint64_t(0)); // half the machine's memory
  EXPECT_NE(compileServerPath().find("jacc-compile-server"), std::string::npos);
}

TEST_F(CompileServerTest, ForkedChildStartsItsOwnServerAndLeavesTheParentsAlone) {
  expectWorks();
  std::vector<int> Pids = compileServerPids();
  ASSERT_EQ(Pids.size(), 1u);
  pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) { // the parent's socket must not be shared: the child starts its own server
    auto Obj = compileHost(Good, "", "kernel 'test'");
    bool Own = Obj && !Obj->Bytes.empty() && compileServerPids().size() == 1 &&
               compileServerPids() != Pids;
    if (!Obj)
      llvm::consumeError(Obj.takeError());
    stopCompileServers();
    ::_exit(Own ? 0 : 1);
  }
  int Status = 0;
  ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0) << Status;
  expectWorks();
  EXPECT_EQ(compileServerPids(), Pids);
}

TEST_F(CompileServerTest, AnApplicationThatClosedItsStderrKeepsItsServer) {
  // With stderr closed, socketpair hands its number to the server's socket; the application
  // restoring stderr with dup2 then closed the socket, and the next compile failed.
  int Saved = ::fcntl(2, F_DUPFD_CLOEXEC, 10);
  ASSERT_GE(Saved, 0);
  ::close(2);
  auto Obj = compileHost(Good, "", "kernel 'test'");
  bool StderrFree = ::fcntl(2, F_GETFD) == -1; // jacc holds nothing there
  ::dup2(Saved, 2);
  ::close(Saved);
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError());
  EXPECT_TRUE(StderrFree);
  std::vector<int> Pids = compileServerPids();
  ASSERT_EQ(Pids.size(), 1u);
  expectWorks();
  EXPECT_EQ(compileServerPids(), Pids); // the same server: its socket survived the dup2
}

// The background compiler's thread runs at idle priority, and so must the process compiling for
// it; a compile from a normal thread never runs in that process (it could not be raised back).
TEST_F(CompileServerTest, IdleThreadsCompileInAnIdleServer) {
  std::vector<int> IdlePids;
  std::thread Background([&] {
    ASSERT_NE(lowerThisThreadToIdle(), ThreadPriority::Normal);
    expectWorks();
    IdlePids = idleCompileServerPids();
  });
  Background.join();
  ASSERT_EQ(IdlePids.size(), 1u) << "one server for the idle thread's compile";
  EXPECT_EQ(threadPriority(IdlePids[0]), ThreadPriority::Idle)
      << "the server at SCHED_IDLE, read back from /proc";
  // A normal thread's compile: in another server, at normal priority.
  expectWorks();
  std::vector<int> All = compileServerPids();
  ASSERT_EQ(All.size(), 2u);
  for (int Pid : All)
    EXPECT_EQ(threadPriority(Pid), Pid == IdlePids[0] ? ThreadPriority::Idle
                                                     : ThreadPriority::Normal)
        << Pid;
  EXPECT_EQ(idleCompileServerPids(), IdlePids) << "the idle server stays for the next one";
}
