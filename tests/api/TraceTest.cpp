// JACC_TRACE end to end: a small program (copyin, split and duplicate pushes, an update, a wait,
// a copyout) traced in a child process (observers start once per process), its file read back:
// one kernel run per device per push with its share, copies adding up to the counters, the
// program's constructs around the calls they became.
#include "tests/TraceReader.h"
#include "tests/api/ChildTrace.h"
#include "tests/api/Helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

using jacc_test::TraceFile;
using jacc_test::TraceSpan;

const char *const Program = "trace_prog.c";
const char *const Saxpy = "#pragma acc parallel loop present(x, y)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = a * x[i] + y[i];\n"
                          "// jacc-site: trace_prog.c:12\n";
/// The pushes of the program: two split, then one duplicate (asynchronous, waited for).
const unsigned PushFlags[] = {JACC_FORCE_SPLIT, JACC_FORCE_SPLIT,
                              JACC_FORCE_DUPLICATE | JACC_ASYNC};
constexpr int Pushes = sizeof PushFlags / sizeof *PushFlags;

/// Exits the child with Code, naming the call that failed, if S is not a success.
void check(jacc_status S, const char *What, int Code) {
  if (S == JACC_SUCCESS)
    return;
  std::fprintf(stderr, "%s failed: %s\n", What, jacc_last_error());
  std::exit(Code);
}

/// In a child process: the program traced to Path on Devices, its counters written to
/// Path.stats ("host-to-device device-to-host device-to-device" bytes); exits 0 if every call
/// succeeded.
[[noreturn]] void tracedProgram(const std::string &Path, const char *Devices) {
  setenv("JACC_TRACE", Path.c_str(), 1);
  setenv("JACC_DEVICES", Devices, 1);
  jacc_finalize();
  check(jacc_init(), "jacc_init", 2);
  int N = 3000;
  double A = 0.5;
  std::vector<double> Xv(N, 1.0), Yv(N, 2.0);
  double *X = Xv.data(), *Y = Yv.data();
  size_t Bytes = N * sizeof(double);

  jacc_construct_begin(JACC_CONSTRUCT_DATA, Program, 10, "main");
  check(jacc_copyin(X, Bytes), "copyin x", 3);
  check(jacc_copyin(Y, Bytes), "copyin y", 3);
  jacc_construct_end();
  jacc_arg Args[] = {{"int n", &N}, {"double a", &A}, {"const double *x", &X}, {"double *y", &Y}};
  for (unsigned Flags : PushFlags) {
    jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, Program, 12, "main");
    check(jacc_kernel_push(Saxpy, 4, Args, Flags), "push", 4);
    jacc_construct_end();
  }
  jacc_construct_begin(JACC_CONSTRUCT_WAIT, Program, 20, "main");
  check(jacc_wait(), "wait", 5);
  jacc_construct_end();
  jacc_construct_begin(JACC_CONSTRUCT_UPDATE, Program, 22, "main");
  check(jacc_update_self(Y, Bytes / 2), "update self", 6);
  jacc_construct_end();
  jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, Program, 30, "main");
  check(jacc_copyout(Y, Bytes), "copyout y", 7);
  check(jacc_delete(X, Bytes), "delete x", 7);
  jacc_construct_end();

  jacc_stats S{};
  check(jacc_get_stats(&S), "jacc_get_stats", 8);
  std::ofstream(Path + ".stats") << S.bytes_host_to_device << ' ' << S.bytes_device_to_host << ' '
                                 << S.bytes_device_to_device << '\n';
  check(jacc_finalize(), "jacc_finalize", 9);
  // y = 2 + 3 * 0.5 * 1 everywhere: the program ran as traced.
  std::exit(Yv[0] == 3.5 && Yv[N - 1] == 3.5 ? 0 : 10);
}

class TraceTest : public ::testing::TestWithParam<const char *> {};

/// The share of the push's iterations a kernel run had ("share fraction"), or -1.
double shareOf(const TraceSpan &Run) {
  return Run.Args->getNumber("share fraction").value_or(-1);
}

TEST_P(TraceTest, AProgramsTimelineHasItsKernelsCopiesAndConstructs) {
  std::string Config = GetParam();
  jacc_test::ChildTrace File(Config.replace(Config.find(':'), 1, ""));
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(tracedProgram(File.Path, GetParam()), ::testing::ExitedWithCode(0), "");
  TraceFile T;
  ASSERT_TRUE(jacc_test::readTrace(File.Path, T));
  EXPECT_TRUE(jacc_test::wellFormed(T));
  EXPECT_EQ(T.otherInt("dropped_events"), 0);
  EXPECT_EQ(T.otherInt("unmatched_ends"), 0);
  EXPECT_EQ(T.otherInt("clamped_spans"), 0);
  EXPECT_EQ(T.otherInt("unfinished_spans"), 0);

  // One kernel run per device per push: a split push's shares add up to the whole, a duplicate
  // push runs everything everywhere.
  int Devices = jacc_test::configuredDevices(GetParam());
  std::vector<double> Shares(Pushes, 0.0);
  for (int D = 0; D < Devices; ++D) {
    std::string Track = "device " + std::to_string(D) + " (host)";
    std::vector<TraceSpan> Runs = T.on(Track);
    ASSERT_EQ(Runs.size(), size_t(Pushes)) << Track;
    for (int P = 0; P < Pushes; ++P) {
      EXPECT_EQ(Runs[P].Name, "trace_prog.c:12");
      EXPECT_EQ(Runs[P].intArg("device"), D);
      bool Split = PushFlags[P] & JACC_FORCE_SPLIT;
      if (Devices > 1) {
        EXPECT_EQ(Runs[P].textArg("mode"), Split ? "split" : "duplicate") << Track << " " << P;
      }
      if (Split) {
        Shares[P] += shareOf(Runs[P]);
      } else {
        EXPECT_DOUBLE_EQ(shareOf(Runs[P]), 1.0) << Track;
      }
    }
  }
  for (int P = 0; P < Pushes; ++P) {
    if (PushFlags[P] & JACC_FORCE_SPLIT) {
      EXPECT_NEAR(Shares[P], 1.0, 1e-9) << "push " << P;
    }
  }
  EXPECT_FALSE(T.hasTrack("device " + std::to_string(Devices) + " (host)"));

  // The copies' bytes are the counters' bytes, direction by direction.
  uint64_t ToDevice = 0, ToHost = 0, Between = 0;
  std::ifstream(File.Path + ".stats") >> ToDevice >> ToHost >> Between;
  std::map<std::string, int64_t> Copied;
  for (const TraceSpan &C : T.ofCategory("copy"))
    Copied[C.textArg("direction")] += C.intArg("bytes");
  EXPECT_EQ(Copied["host to device"], int64_t(ToDevice));
  EXPECT_EQ(Copied["device to host"], int64_t(ToHost));
  EXPECT_EQ(Copied["device to device"], int64_t(Between));
  EXPECT_GT(ToDevice, 0u);
  if (Devices > 1) {
    // The duplicate push after the split ones: each device fetches what the others computed.
    EXPECT_GT(Between, 0u);
  }

  // The program's constructs, with their sites, around the pushes and the wait.
  std::vector<TraceSpan> Constructs = T.ofCategory("construct");
  std::vector<std::string> Sites;
  for (const TraceSpan &C : Constructs)
    Sites.push_back(C.Name + " " + C.textArg("site"));
  EXPECT_EQ(Sites, (std::vector<std::string>{"data trace_prog.c:10", "parallel trace_prog.c:12",
                                             "parallel trace_prog.c:12", "parallel trace_prog.c:12",
                                             "wait trace_prog.c:20", "update trace_prog.c:22",
                                             "data (exit) trace_prog.c:30"}));
  std::vector<TraceSpan> PushSpans = T.ofCategory("push");
  ASSERT_EQ(PushSpans.size(), size_t(Pushes));
  for (int P = 0; P < Pushes; ++P) {
    const TraceSpan &C = Constructs[1 + P];
    EXPECT_EQ(PushSpans[P].Track, C.Track);
    EXPECT_GE(PushSpans[P].Start, C.Start);
    EXPECT_LE(PushSpans[P].End, C.End);
    EXPECT_EQ(PushSpans[P].intArg("devices"), Devices);
  }
  const TraceSpan &WaitConstruct = Constructs[4];
  std::vector<TraceSpan> Waits = T.ofCategory("wait");
  EXPECT_TRUE(std::any_of(Waits.begin(), Waits.end(),
                          [&](const TraceSpan &W) {
                            return W.Start >= WaitConstruct.Start && W.End <= WaitConstruct.End;
                          }))
      << Waits.size() << " waits, none in the wait construct";
  EXPECT_EQ(T.ofCategory("launch").size(), size_t(Pushes * Devices));
  EXPECT_EQ(T.FlowStarts.size(), size_t(Pushes * Devices))
      << "an arrow from each launch to its run";
}

JACC_DEVICE_CONFIGS(TraceTest);

} // namespace
