// JACC_TRACE's listener fed synthetic events: the file it writes parses, names its tracks, nests
// each thread's spans, keeps device tracks in order, and holds everything at each finish.
#include "src/profile/Trace.h"
#include "src/DeviceRegistry.h"

#include "tests/TraceReader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>

namespace {

using namespace jacc::prof;
using jacc::deviceKind;
using jacc_test::TraceFile;
using jacc_test::TraceSpan;

constexpr Nanos Us = 1000;

int64_t sortIndexOf(const TraceFile &T, const std::string &Track) {
  for (const auto &[Tid, Name] : T.TrackNames)
    if (Name == Track)
      return T.SortIndexes.count(Tid) ? T.SortIndexes.at(Tid) : -1;
  return -1;
}

/// A scratch file for one test, removed at the end.
class TraceTest : public ::testing::Test {
protected:
  void SetUp() override {
    const ::testing::TestInfo *T = ::testing::UnitTest::GetInstance()->current_test_info();
    Path = ::testing::TempDir() + "jacc-trace-" + std::to_string(::getpid()) + "-" + T->name() +
           ".json";
  }
  void TearDown() override { std::remove(Path.c_str()); }

  /// The listener's file, read back and checked.
  void read(TraceFile &T) {
    ASSERT_TRUE(jacc_test::readTrace(Path, T));
    EXPECT_TRUE(jacc_test::wellFormed(T));
  }

  std::string Path;
};

/// Feeds a listener what a program does, at synthetic times one microsecond apart (from a second
/// before the test, so that events reported at now() come after them).
class Program {
public:
  explicit Program(Listener &L) : L(L) {}

  Nanos tick(Nanos Step = Us) { return T += Step; }

  void startDevices(int Count, const char *Kind) {
    for (int D = 0; D < Count; ++D) {
      L.deviceInit(D, deviceKind(Kind), true, tick());
      L.deviceInit(D, deviceKind(Kind), false, tick());
    }
  }

  /// A construct at heat.c:Line around Body.
  template <typename F> void construct(Construct Kind, int Line, F &&Body) {
    Site S;
    S.Kind = Kind;
    S.File = "heat.c";
    S.Func = "main";
    S.Line = Line;
    L.constructBegin(S, tick());
    Body();
    L.constructEnd(S, tick());
  }

  /// A data operation of Bytes, with the copy it makes on every device.
  void data(DataOp Op, int Devices, uint64_t Bytes) {
    L.dataBegin(Op, &Buffer, Bytes, tick());
    for (int D = 0; D < Devices; ++D)
      copy(Op == DataOp::UpdateSelf || Op == DataOp::Exit ? Direction::DeviceToHost
                                                          : Direction::HostToDevice,
           D, Bytes);
    L.dataEnd(Op, &Buffer, Bytes, tick());
  }

  void copy(Direction Dir, int Device, uint64_t Bytes, int Peer = -1) {
    CopyEvent E{Dir, Device, Peer, &Buffer, &Buffer, Bytes, tick(), 0};
    L.copyBegin(E);
    E.End = tick(5 * Us);
    L.copyEnd(E);
  }

  /// A push of Kernel on Devices (split: equal shares), its launches queued then run.
  void push(const char *Kernel, Mode How, int Devices) {
    Nanos Start = tick();
    for (int D = 0; D < Devices; ++D) {
      LaunchEvent E = launch(Kernel, How, D, Devices);
      E.Start = tick();
      L.launchBegin(E);
      E.End = tick();
      L.launchEnd(E);
    }
    for (int D = 0; D < Devices; ++D) {
      LaunchEvent E = launch(Kernel, How, D, Devices);
      E.Start = tick();
      E.End = tick(20 * Us);
      L.kernelRun(E);
    }
    L.push({Push,
            {Kernel, true},
            How,
            unsigned(Devices),
            CacheSource::Memory,
            0,
            false,
            false,
            Start,
            tick()});
    ++Push;
  }

  LaunchEvent launch(const char *Kernel, Mode How, int Device, int Devices) {
    bool Split = How == Mode::Split;
    return {Push,
            {Kernel, true},
            How,
            Device,
            Split ? Device : 0,
            Split ? Device + 1 : 1,
            Split ? Devices : 1,
            0,
            0};
  }

  void compile(const char *Kernel) {
    Nanos Start = tick();
    L.compile({{Kernel, true}, CacheSource::Compiled, false, Start, tick(100 * Us)});
  }

  void wait() {
    L.waitBegin(tick());
    L.waitEnd(tick());
  }

  /// The program of the end-to-end test on Devices host devices: copyin, a split and a duplicate
  /// push, an update, a wait, a copyout.
  void run(int Devices) {
    startDevices(Devices, "host");
    construct(Construct::Data, 10, [&] { data(DataOp::Enter, Devices, 4096); });
    construct(Construct::Parallel, 12, [&] {
      compile("heat.c:12");
      push("heat.c:12", Mode::Split, Devices);
    });
    construct(Construct::Parallel, 20, [&] { push("heat.c:20", Mode::Duplicate, Devices); });
    construct(Construct::Update, 25, [&] { data(DataOp::UpdateSelf, 1, 1024); });
    construct(Construct::Wait, 26, [&] { wait(); });
    construct(Construct::ExitData, 30, [&] { data(DataOp::Exit, 1, 4096); });
  }

  Listener &L;
  Nanos T = now() - 1'000'000'000;
  uint64_t Push = 1; ///< the next push's number
  char Buffer[16] = {};
};

TEST_F(TraceTest, TracksAreNamedNestedAndOrdered) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  Program P(*L);
  P.run(2);
  L->finish(false);
  TraceFile T;
  read(T);
  EXPECT_EQ(T.ProcessName, std::string("jacc ") + program_invocation_short_name);
  for (const char *Track : {"device 0 (host)", "device 1 (host)", "device 0 (host) copies",
                            "device 1 (host) copies", "compile"})
    EXPECT_TRUE(T.hasTrack(Track)) << Track;
  EXPECT_EQ(T.TrackNames.size(), 6u) << "one thread, two devices with two tracks, compiles";
  // One kernel run per device per push, each with its share of a split.
  std::vector<TraceSpan> Runs = T.on("device 1 (host)");
  ASSERT_EQ(Runs.size(), 2u);
  EXPECT_EQ(Runs[0].Name, "heat.c:12");
  EXPECT_EQ(Runs[0].intArg("push"), 1);
  EXPECT_EQ(Runs[1].intArg("push"), 2);
  EXPECT_EQ(Runs[0].textArg("mode"), "split");
  EXPECT_EQ(Runs[0].textArg("share"), "[0.5, 1)");
  EXPECT_EQ(Runs[1].textArg("mode"), "duplicate");
  EXPECT_EQ(Runs[1].textArg("share"), "[0, 1)");
  // Copies: bytes, direction.
  std::vector<TraceSpan> Copies = T.on("device 0 (host) copies");
  ASSERT_EQ(Copies.size(), 3u);
  EXPECT_EQ(Copies[0].intArg("bytes"), 4096);
  EXPECT_EQ(Copies[0].textArg("direction"), "host to device");
  EXPECT_EQ(Copies[1].textArg("direction"), "device to host");
  // The thread's constructs hold their operations, pushes and launches.
  std::vector<TraceSpan> Constructs = T.ofCategory("construct");
  ASSERT_EQ(Constructs.size(), 6u);
  EXPECT_EQ(Constructs[1].Name, "parallel");
  EXPECT_EQ(Constructs[1].textArg("site"), "heat.c:12");
  EXPECT_EQ(Constructs[1].textArg("function"), "main");
  std::vector<TraceSpan> Pushes = T.ofCategory("push");
  ASSERT_EQ(Pushes.size(), 2u);
  EXPECT_EQ(Pushes[0].Track, Constructs[1].Track);
  EXPECT_GE(Pushes[0].Start, Constructs[1].Start);
  EXPECT_LE(Pushes[0].End, Constructs[1].End);
  EXPECT_EQ(Pushes[0].intArg("devices"), 2);
  EXPECT_EQ(Pushes[0].textArg("cache source"), "memory");
  EXPECT_EQ(T.ofCategory("launch").size(), 4u);
  EXPECT_EQ(T.FlowStarts.size(), 4u) << "an arrow from each launch to its run";
  EXPECT_EQ(T.ofCategory("wait").size(), 1u);
  EXPECT_EQ(T.ofCategory("device").size(), 2u);
  EXPECT_EQ(T.ofCategory("data").size(), 3u);
  EXPECT_EQ(T.otherInt("dropped_events"), 0);
  EXPECT_EQ(T.otherInt("unmatched_ends"), 0);
  EXPECT_EQ(T.otherInt("clamped_spans"), 0);
}

TEST_F(TraceTest, EachThreadThatCallsJaccHasItsOwnNestedTrack) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  constexpr int Threads = 4, Constructs = 500;
  std::vector<std::thread> Callers;
  for (int I = 0; I < Threads; ++I)
    Callers.emplace_back([&] {
      Program P(*L); // a clock of its own: the threads' times interleave
      for (int C = 0; C < Constructs; ++C)
        P.construct(Construct::Update, C, [&] { P.data(DataOp::UpdateSelf, 1, 64); });
    });
  for (std::thread &T : Callers)
    T.join();
  L->finish(false);
  TraceFile T;
  read(T);
  std::map<std::string, int> PerTrack;
  for (const TraceSpan &S : T.ofCategory("construct"))
    ++PerTrack[S.Track];
  EXPECT_EQ(PerTrack.size(), size_t(Threads));
  for (const auto &[Track, Count] : PerTrack)
    EXPECT_EQ(Count, Constructs) << Track;
  EXPECT_EQ(T.ofCategory("data").size(), size_t(Threads * Constructs));
  // The threads' copies overlap in time: lanes keep the device's copy tracks in order
  // (wellFormed), at most one lane per thread.
  EXPECT_EQ(T.ofCategory("copy").size(), size_t(Threads * Constructs));
  EXPECT_TRUE(T.hasTrack("device 0 copies"));
  EXPECT_FALSE(T.hasTrack("device 0 copies #" + std::to_string(Threads + 1)));
  EXPECT_EQ(T.otherInt("unmatched_ends"), 0);
}

TEST_F(TraceTest, ASecondFinishRewritesTheFileWithBothBatches) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  Program P(*L);
  P.run(1);
  L->finish(false);
  size_t FirstSpans;
  {
    TraceFile First;
    read(First);
    FirstSpans = First.Spans.size();
  }
  P.run(1);
  L->finish(true);
  TraceFile Both;
  read(Both);
  EXPECT_EQ(Both.Spans.size(), 2 * FirstSpans);
  EXPECT_EQ(Both.on("device 0 (host)").size(), 4u);
}

TEST_F(TraceTest, KernelsThatOverlapOnADeviceGoToLanesOfTheirOwn) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  Program P(*L);
  P.startDevices(1, "cuda");
  LaunchEvent A = P.launch("a.c:1", Mode::Duplicate, 0, 1), B = A, C = A;
  A.Start = P.tick(), B.Start = P.tick(), A.End = P.tick(), C.Start = P.tick(), B.End = P.tick();
  C.End = P.tick();
  for (const LaunchEvent &E : {A, B, C})
    L->kernelRun(E);
  L->finish(false);
  TraceFile T;
  read(T);
  EXPECT_EQ(T.on("device 0 (cuda)").size(), 2u) << "A, then C after A ended";
  EXPECT_EQ(T.on("device 0 (cuda) #2").size(), 1u) << "B, which overlaps both";
  EXPECT_LT(sortIndexOf(T, "device 0 (cuda)"), sortIndexOf(T, "device 0 (cuda) #2"));
}

TEST_F(TraceTest, BeyondTheCapEventsAreCountedAndEndsStillMatch) {
  std::unique_ptr<Listener> L = makeTraceListener(Path, /*MaxEvents=*/3);
  Program P(*L);
  P.construct(Construct::Data, 1, [&] {                   // kept
    P.construct(Construct::Update, 2, [&] {               // kept
      P.data(DataOp::UpdateDevice, 1, 8);                 // data kept, its copy dropped
      P.construct(Construct::Wait, 3, [&] { P.wait(); }); // both dropped
    });
  });
  L->finish(false);
  TraceFile T;
  read(T);
  EXPECT_EQ(T.Spans.size(), 3u);
  EXPECT_EQ(T.otherInt("event_cap"), 3);
  EXPECT_EQ(T.otherInt("dropped_events"), 3);
  EXPECT_EQ(T.otherInt("unmatched_ends"), 0);
  EXPECT_EQ(T.otherInt("unfinished_spans"), 0);
}

TEST_F(TraceTest, ASpanOpenAtTheFinishEndsThereMarkedUnfinished) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  Program P(*L);
  Site S;
  S.Kind = Construct::Data;
  S.File = "heat.c";
  S.Line = 7;
  L->constructBegin(S, P.tick());
  P.wait();
  L->finish(true);
  TraceFile T;
  read(T);
  std::vector<TraceSpan> Data = T.ofCategory("construct");
  ASSERT_EQ(Data.size(), 1u);
  EXPECT_EQ(Data[0].Args->getBoolean("unfinished"), true);
  EXPECT_GT(Data[0].End, T.ofCategory("wait").at(0).End);
  EXPECT_EQ(T.otherInt("unfinished_spans"), 1);
}

TEST_F(TraceTest, AnEndWithoutItsBeginIsCountedNotShown) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  Program P(*L);
  L->waitEnd(P.tick());
  P.wait();
  L->finish(false);
  TraceFile T;
  read(T);
  EXPECT_EQ(T.ofCategory("wait").size(), 1u);
  EXPECT_EQ(T.otherInt("unmatched_ends"), 1);
}

TEST_F(TraceTest, ASpanReachingPastItsParentIsClampedToIt) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  Program P(*L);
  Nanos Inside = 0;
  P.construct(Construct::Parallel, 5, [&] { Inside = P.tick(); });
  // A push reported as starting inside the construct and ending after it.
  L->push({1,
           {"heat.c:5", true},
           Mode::Duplicate,
           1,
           CacheSource::Memory,
           0,
           false,
           false,
           Inside,
           P.tick()});
  L->finish(false);
  TraceFile T;
  read(T);
  EXPECT_EQ(T.otherInt("clamped_spans"), 1);
  EXPECT_EQ(T.ofCategory("push").at(0).End, T.ofCategory("construct").at(0).End);
}

TEST_F(TraceTest, MemoryCountersFollowAllocationsAndMappings) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  Program P(*L);
  P.startDevices(1, "host");
  int A, B;
  L->memory({MemOp::Alloc, 0, nullptr, &A, 100});
  L->memory({MemOp::Create, 0, &P.Buffer, &A, 100});
  L->memory({MemOp::Alloc, 0, nullptr, &B, 50});
  L->memory({MemOp::Delete, 0, &P.Buffer, &A, 100});
  L->memory({MemOp::Free, 0, nullptr, &A, 0}); // takes off what its allocation added
  L->finish(false);
  TraceFile T;
  read(T);
  std::vector<std::pair<std::string, int64_t>> Got;
  for (const llvm::json::Object *C : T.Counters)
    Got.push_back({C->getString("name").value_or("").str(),
                   C->getObject("args")->getInteger("bytes").value_or(-1)});
  std::vector<std::pair<std::string, int64_t>> Want = {{"device 0 (host) allocated", 100},
                                                       {"device 0 (host) mapped", 100},
                                                       {"device 0 (host) allocated", 150},
                                                       {"device 0 (host) mapped", 0},
                                                       {"device 0 (host) allocated", 50}};
  EXPECT_EQ(Got, Want);
}

TEST_F(TraceTest, KernelNamesThatAreNotUtf8StillMakeJson) {
  std::unique_ptr<Listener> L = makeTraceListener(Path);
  Program P(*L);
  P.push("for (i = 0; i < n; i++) /* \xff\xfe */", Mode::Duplicate, 1);
  L->finish(false);
  TraceFile T;
  read(T);
  EXPECT_EQ(T.on("device 0").size(), 1u) << "a device never started is named by its index";
}

TEST_F(TraceTest, ARelativePathIsTakenFromTheWorkingDirectoryAtTheStart) {
  std::string Dir = ::testing::TempDir(),
              Name = "jacc-trace-relative-" + std::to_string(::getpid()) + ".json";
  std::string Old = std::filesystem::current_path();
  std::filesystem::current_path(Dir);
  std::unique_ptr<Listener> L = makeTraceListener(Name);
  std::filesystem::current_path("/"); // as a program may, before its exit writes the file
  Program(*L).wait();
  L->finish(true);
  std::filesystem::current_path(Old);
  Path = Dir + "/" + Name; // TearDown removes it
  TraceFile T;
  read(T);
  EXPECT_EQ(T.ofCategory("wait").size(), 1u);
}

TEST_F(TraceTest, AFileThatCannotBeWrittenIsNamedOnStderr) {
  std::string Missing = ::testing::TempDir() + "jacc-no-such-dir/trace.json";
  std::unique_ptr<Listener> L = makeTraceListener(Missing);
  Program P(*L);
  P.wait();
  ::testing::internal::CaptureStderr();
  L->finish(true);
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("jacc: JACC_TRACE: cannot write the trace to '" + Missing + "'"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("No such file or directory"), std::string::npos) << Err;
  EXPECT_EQ(std::count(Err.begin(), Err.end(), '\n'), 1) << Err;
}

} // namespace
