// Seeing what the JIT made of a kernel: JACC_PERF=1 names the kernels a program pushes in perf's
// map (/tmp/perf-<pid>.map) by the site their text ends with (`// jacc-site: heat.c:42`, as jaccc
// writes it), plain and split; JACC_DEBUG=remarks prints the vectoriser's remarks.
#include "tests/ScopedEnv.h"
#include "tests/api/Helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using jacc::ScopedEnv;

/// The names of the map's lines ("START SIZE NAME").
std::vector<std::string> mapNames() {
  std::ifstream In("/tmp/perf-" + std::to_string(::getpid()) + ".map");
  std::vector<std::string> Names;
  std::string Start, Size, Name;
  while (In >> Start >> Size && std::getline(In >> std::ws, Name))
    Names.push_back(Name);
  return Names;
}

bool has(const std::vector<std::string> &Names, const std::string &Name) {
  return std::find(Names.begin(), Names.end(), Name) != Names.end();
}

TEST(PerfTest, KernelsAreNamedByTheirSite) {
  ScopedEnv Perf("JACC_PERF", "1"), Devices("JACC_DEVICES", "host:2");
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS);
  ASSERT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
  int N = 1000;
  std::vector<double> Xv(N, 1.0);
  double *X = Xv.data();
  ASSERT_EQ(jacc_copyin(X, N * sizeof(double)), JACC_SUCCESS);
  jacc_arg Args[] = {{"int n", &N}, {"double *x", &X}};
  const char *Src = "#pragma acc parallel loop present(x)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  x[i] = 3 * x[i] + 0.25;\n"
                    "// jacc-site: perf_heat.c:42\n";
  for (unsigned Flags : {JACC_FORCE_DUPLICATE, JACC_FORCE_SPLIT})
    ASSERT_EQ(jacc_kernel_push(Src, 2, Args, Flags), JACC_SUCCESS) << jacc_last_error();
  ASSERT_EQ(jacc_copyout(X, N * sizeof(double)), JACC_SUCCESS);
  EXPECT_EQ(Xv[N - 1], 3 * (3 * 1.0 + 0.25) + 0.25);
  std::vector<std::string> Names = mapNames();
  EXPECT_TRUE(has(Names, "jacc:perf_heat.c:42")) << Names.size() << " names";
  EXPECT_TRUE(has(Names, "jacc:perf_heat.c:42 split"));
  std::remove(("/tmp/perf-" + std::to_string(::getpid()) + ".map").c_str());
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS);
}

/// In a child process: a cold compile of a plain loop under JACC_DEBUG=remarks; exits 0 if the
/// push succeeded.
[[noreturn]] void pushWithRemarks() {
  setenv("JACC_DEBUG", "remarks", 1);
  setenv("JACC_CACHE", "off", 1);
  setenv("JACC_DEVICES", "host:1", 1);
  jacc_finalize();
  if (jacc_init() != JACC_SUCCESS)
    std::exit(2);
  int N = 4096;
  std::vector<float> Xv(N, 1.0f);
  float *X = Xv.data();
  jacc_copyin(X, N * sizeof(float));
  jacc_arg Args[] = {{"int n", &N}, {"float *x", &X}};
  int S = jacc_kernel_push("#pragma acc parallel loop present(x)\n"
                           "for (int i = 0; i < n; i++)\n"
                           "  x[i] = 2 * x[i] + 1;\n",
                           2, Args, JACC_DEFAULT);
  std::exit(S == JACC_SUCCESS ? 0 : 3);
}

TEST(PerfTest, RemarksSayWhetherTheLoopsVectorised) {
  // JACC_DEBUG is read once per process: in a child of its own.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(pushWithRemarks(), ::testing::ExitedWithCode(0),
              "\\[jacc:remarks\\] kernel 'for \\(int i = 0; i < n; i\\+\\+\\)':\n"
              ".*remark: vectorized loop \\(vectorization width: [0-9]+");
}

} // namespace
