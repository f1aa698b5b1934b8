// The OpenACC profiling interface end to end: a program run with ACC_PROFLIB naming the test tool
// (tests/api/AccProfTool.c), on host:1..3 and a host with two fake GPUs; the tool's counts and checks against what the program
// did and jacc_get_stats. Tools load at the first jacc_init of a process: each run is a child
// process of its own.
#include "jacc/jacc.h"
#include "tests/api/AccProfTool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <vector>

namespace {

/// This program's own acc_register_library (the chapter's other way in): counts its calls.
int OwnRegistrations = 0;

} // namespace

extern "C" void acc_register_library(acc_prof_reg, acc_prof_reg, acc_prof_lookup_func) {
  ++OwnRegistrations;
}

namespace {

/// What a child found wrong, one line each.
struct Problems {
  std::string Text;
  void expect(bool Ok, const std::string &What) {
    if (!Ok)
      Text += What + "\n";
  }
  void expectCount(long long Got, long long Want, const std::string &What) {
    expect(Got == Want, What + ": " + std::to_string(Got) + ", want " + std::to_string(Want));
  }
  [[noreturn]] void exit() {
    std::fputs(Text.c_str(), stderr);
    std::exit(Text.empty() ? 0 : 1);
  }
};

[[noreturn]] void fail(const char *What) {
  std::fprintf(stderr, "%s: %s\n", What, jacc_last_error());
  std::exit(2);
}

const prof_tool_report *toolReport() {
  void *Tool = dlopen(JACC_PROF_TOOL_PATH, RTLD_NOW | RTLD_NOLOAD);
  if (!Tool)
    return nullptr;
  auto Get = reinterpret_cast<prof_tool_report_fn>(dlsym(Tool, "prof_tool_report_get"));
  return Get ? Get() : nullptr;
}

const char *const Kernel = "#pragma acc parallel loop present(x, y)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  y[i] = y[i] + 2 * x[i];\n";

/// A device configuration and what the tool should see of it.
struct Config {
  const char *Devices;
  int Hosts, Gpus; ///< Gpus: fake ones (tests/src/cuda/mockcuda), which run no kernel
};

/// In a child: the program below under the tool, on C's devices; exits 0 when every count and
/// check holds, else 1 with the problems on stderr.
[[noreturn]] void runProfiledProgram(const Config &C) {
  setenv("ACC_PROFLIB", JACC_PROF_TOOL_PATH, 1);
  setenv("JACC_DEVICES", C.Devices, 1);
  setenv("JACC_CACHE", "off", 1);
  setenv("JACC_SPLIT", "one", 1); // the pushes not forced run on one device
  if (C.Gpus) {
    setenv("JACC_LIBCUDA", JACC_MOCKCUDA_PATH, 1);
    setenv("MOCKCUDA_DEVICES", std::to_string(C.Gpus).c_str(), 1);
  }
  jacc_finalize();
  if (jacc_init() != JACC_SUCCESS)
    fail("jacc_init");
  Problems P;
  const prof_tool_report *R = toolReport();
  if (!R)
    fail("the tool is not loaded");
  const long *Count = R->counts;
  int Devs = jacc_get_num_devices();
  P.expectCount(R->registrations, 1, "tool registrations");
  P.expectCount(OwnRegistrations, 1, "the program's own acc_register_library calls");
  P.expectCount(Count[acc_ev_device_init_start], Devs, "device_init_start");
  P.expectCount(Count[acc_ev_device_init_end], Devs, "device_init_end");
  jacc_reset_stats();

  int N = 3000;
  std::vector<double> Xv(N, 1.0), Yv(N, 0.5);
  double *X = Xv.data(), *Y = Yv.data();
  if (jacc_copyin(X, N * sizeof(double)) || jacc_copyin(Y, N * sizeof(double)))
    fail("copyin");
  for (double &V : Xv)
    V = 2.0;
  // A construct as jaccc brackets it: its events carry its place.
  jacc_construct_begin(JACC_CONSTRUCT_UPDATE, "accprof_program.c", 42, "main");
  if (jacc_update_device(X, N * sizeof(double)))
    fail("update device");
  jacc_construct_end();
  jacc_arg Args[] = {{"int n", &N}, {"const double *x", &X}, {"double *y", &Y}};
  if (jacc_kernel_push(Kernel, 3, Args, JACC_FORCE_SPLIT) ||
      jacc_kernel_push(Kernel, 3, Args, JACC_FORCE_DUPLICATE | JACC_ASYNC))
    fail("push");
  if (jacc_wait())
    fail("wait");
  if (jacc_kernel_push(Kernel, 3, Args, JACC_DEFAULT))
    fail("push on one device");
  if (jacc_copyout(Y, N * sizeof(double)) || jacc_delete(X, N * sizeof(double)))
    fail("copyout");
  if (!C.Gpus) // the fake GPUs run no kernel
    P.expect(Yv[0] == 12.5 && Yv[N - 1] == 12.5, "wrong results");

  jacc_stats S{};
  jacc_get_stats(&S);
  P.expectCount(Count[acc_ev_enqueue_launch_start], 2 * Devs + 1,
                "launch starts (2 per device, and the one device's)");
  P.expectCount(Count[acc_ev_enqueue_launch_end], 2 * Devs + 1, "launch ends");
  // A host device's gangs are its threads: the cores divided among the host devices, and all of
  // them for the kernel on one device (host:0) while the others idle.
  long Cores = std::max(1u, std::thread::hardware_concurrency());
  long Each = std::max(1l, Cores / C.Hosts);
  P.expectCount(R->host_launch_gangs, 2 * C.Hosts * Each + Cores, "host launches' gangs");
  // A GPU's grid without num_gangs fills it: the mock's 4 SMs of 2048 threads, whatever the
  // block, for each GPU's split and duplicate launch.
  P.expectCount(R->gpu_launch_threads, 2 * C.Gpus * 4 * 2048, "GPU launches' threads");
  P.expectCount(Count[acc_ev_compute_construct_start], 3, "compute construct starts");
  P.expectCount(Count[acc_ev_update_start], 1, "update starts");
  P.expectCount(R->located_constructs, 1, "constructs with a file and line");
  P.expectCount(Count[acc_ev_enter_data_start], 2, "enter data starts (2 copyins)");
  P.expectCount(Count[acc_ev_exit_data_start], 2, "exit data starts (copyout, delete)");
  P.expectCount(Count[acc_ev_wait_start], 1, "wait starts (jacc_wait)");
  P.expectCount(Count[acc_ev_enqueue_download_start], 1, "downloads (copyout, from device 0)");
  P.expectCount(R->upload_bytes, S.bytes_host_to_device, "upload bytes");
  P.expectCount(R->download_bytes, S.bytes_device_to_host, "download bytes");
  P.expectCount(R->device_to_device_bytes, S.bytes_device_to_device, "device to device bytes");
  P.expect(R->upload_bytes >= 3ull * Devs * N * sizeof(double), "too few upload bytes");
  P.expectCount(Count[acc_ev_create], 2 * Devs, "creates (2 arrays per device)");
  P.expectCount(Count[acc_ev_delete], 2 * Devs, "deletes");

  if (jacc_finalize())
    fail("jacc_finalize");
  // Once the devices are gone every allocation was freed (before, a GPU may keep launch scratch
  // for the next launch).
  P.expectCount(Count[acc_ev_alloc], Count[acc_ev_free], "allocs against frees");
  P.expectCount(Count[acc_ev_device_shutdown_start], Devs, "device_shutdown_start");
  P.expectCount(Count[acc_ev_device_shutdown_end], Devs, "device_shutdown_end");
  P.expectCount(R->host_devices, C.Hosts, "host devices numbered");
  P.expectCount(R->nvidia_devices, C.Gpus, "NVIDIA devices numbered");
  P.expectCount(R->open_pairs, 0, "start events without their end");
  P.expectCount(Count[acc_ev_runtime_shutdown], 0, "runtime_shutdown before the exit");
  P.expectCount(R->errors, 0, std::string("tool checks failed, first: ") + R->first_error);
  P.exit();
}

class ProfilingToolTest : public ::testing::TestWithParam<Config> {};

TEST_P(ProfilingToolTest, ToolSeesEveryEventWithItsRecords) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // The exit's runtime_shutdown reaches the tool after the program's last check.
  EXPECT_EXIT(runProfiledProgram(GetParam()), ::testing::ExitedWithCode(0),
              "accproftool: runtime_shutdown after 0 errors");
}

// Device numbers count within a type: host:1,cuda:all is host 0, NVIDIA 0 and NVIDIA 1.
INSTANTIATE_TEST_SUITE_P(Devices, ProfilingToolTest,
                         ::testing::Values(Config{"host:1", 1, 0}, Config{"host:2", 2, 0},
                                           Config{"host:3", 3, 0},
                                           Config{"host:1,cuda:all", 1, 2}),
                         [](const ::testing::TestParamInfo<Config> &I) {
                           std::string N;
                           for (const char *P = I.param.Devices; *P; ++P)
                             N += std::isalnum(static_cast<unsigned char>(*P)) ? *P : '_';
                           return N;
                         });

/// In a child: jacc_init with ACC_PROFLIB naming Path, twice; exits 0 if both fail with
/// InvalidArgument, the message on stderr.
[[noreturn]] void initWithTool(const char *Path) {
  setenv("ACC_PROFLIB", Path, 1);
  setenv("JACC_DEVICES", "host:1", 1);
  jacc_finalize();
  jacc_status First = jacc_init();
  std::string Message = jacc_last_error();
  jacc_status Again = jacc_init();
  std::fprintf(stderr, "%s\n", Message.c_str());
  std::exit(First == JACC_ERROR_INVALID_ARGUMENT && Again == JACC_ERROR_INVALID_ARGUMENT ? 0 : 1);
}

TEST(ProfilingToolErrors, AToolThatCannotLoadFailsInitNamingIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(initWithTool("/nonexistent/accprof-tool.so"), ::testing::ExitedWithCode(0),
              "ACC_PROFLIB: cannot use the profiling tool '/nonexistent/accprof-tool.so': "
              ".*No such file.*; set ACC_PROFLIB to .*, or unset it");
  EXPECT_EXIT(initWithTool("libm.so.6"), ::testing::ExitedWithCode(0),
              "'libm.so.6': it defines no acc_register_library");
}

} // namespace
