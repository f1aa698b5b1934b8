// End to end: every failing call returns its exact status, names the problem in
// jacc_last_error(), leaves the data and mappings as they were, and a correct push still works.
#include "tests/DoublingMacros.h"
#include "tests/ScopedEnv.h"
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using jacc_test::lastError;
using jacc_test::stats;

class ErrorTest : public DeviceTest {
protected:
  /// A correct kernel on its own data, checked: the runtime is still usable.
  void expectHealthyPush() {
    int n = 257;
    std::vector<int> v(n);
    for (int i = 0; i < n; i++)
      v[i] = i;
    int *x = v.data();
    ASSERT_JACC(jacc_copyin(x, n * sizeof(int)));
    jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
    ASSERT_JACC(jacc_kernel_push(HealthySrc, 2, args, JACC_DEFAULT));
    ASSERT_JACC(jacc_copyout(x, n * sizeof(int)));
    for (int i = 0; i < n; i++)
      ASSERT_EQ(v[i], 3 * i - 1) << i;
  }
  static constexpr const char *HealthySrc = "#pragma acc parallel loop present(x)\n"
                                            "for (int i = 0; i < n; i++)\n"
                                            "  x[i] = 3 * x[i] - 1;\n";
};

/// Status and message: the status must be Want and the message must contain every Part.
#define EXPECT_JACC_ERROR(call, want, ...)                                                         \
  do {                                                                                             \
    jacc_status St_ = (call);                                                                      \
    std::string Msg_ = lastError();                                                                \
    EXPECT_EQ(St_, (want)) << #call << ": " << Msg_;                                               \
    for (const std::string &Part_ : std::initializer_list<std::string>{__VA_ARGS__})               \
      EXPECT_NE(Msg_.find(Part_), std::string::npos)                                               \
          << #call << ": message lacks \"" << Part_ << "\":\n"                                     \
          << Msg_;                                                                                 \
  } while (0)

/// A mapped array of ints whose host and device contents the tests check after a failure.
struct Guarded {
  int n;
  std::vector<int> v;
  explicit Guarded(int N) : n(N), v(N) {
    for (int i = 0; i < n; i++)
      v[i] = 7 * i + 1;
  }
  int *data() { return v.data(); }
  size_t bytes() const { return n * sizeof(int); }
  /// Host data as created.
  bool hostIntact() const {
    for (int i = 0; i < n; i++)
      if (v[i] != 7 * i + 1)
        return false;
    return true;
  }
};

/// Checks that G is still mapped with its original device contents, then unmaps it.
void expectDeviceIntactAndUnmap(Guarded &G) {
  EXPECT_EQ(jacc_is_present(G.data(), G.bytes()), 1);
  for (int &x : G.v)
    x = -1;
  ASSERT_JACC(jacc_copyout(G.data(), G.bytes()));
  EXPECT_TRUE(G.hostIntact()) << "the device copy changed";
  EXPECT_EQ(jacc_is_present(G.data(), G.bytes()), 0) << "the reference count changed";
}

// ---- kernels that do not compile ---------------------------------------------------------------

const char *WritesXSrcHead = "#pragma acc parallel loop present(x)\n"
                             "for (int i = 0; i < n; i++)\n";

TEST_P(ErrorTest, SyntaxErrorReportsKernelLineAndColumn) {
  Guarded G(64);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  const std::string Line3 = "  x[i] = x[i] + ;";
  std::string Src = std::string(WritesXSrcHead) + Line3 + "\n";
  std::string Where = "kernel:3:" + std::to_string(Line3.find(';') + 1) + ": error: expected expression";
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  jacc_stats Before = stats();
  EXPECT_JACC_ERROR(jacc_kernel_push(Src.c_str(), 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE, Where);
  // Not cached as a success: the same text fails again, and nothing was compiled.
  EXPECT_JACC_ERROR(jacc_kernel_push(Src.c_str(), 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE, Where);
  jacc_stats After = stats();
  EXPECT_EQ(After.kernels_compiled, Before.kernels_compiled);
  EXPECT_EQ(After.memory_cache_hits, Before.memory_cache_hits);
  EXPECT_EQ(After.duplicate_launches, Before.duplicate_launches);
  EXPECT_EQ(After.split_launches, Before.split_launches);
  EXPECT_TRUE(G.hostIntact());
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, SyntaxErrorInLeadingDeclarations) {
  const char *Src = "#define K 3\n"
                    "static inline int f(int v) { return v * K +; }\n"
                    "#pragma acc parallel loop present(x)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  x[i] = f(x[i]);\n";
  std::string Line2 = "static inline int f(int v) { return v * K +; }";
  Guarded G(16);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push(Src, 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE,
                    "kernel:2:" + std::to_string(Line2.find("+;") + 2) + ": error:");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, BadArgumentDeclarationNamesTheArgument) {
  Guarded G(16);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"itn *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE,
                    "arg 2", "itn");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, UndeclaredVariable) {
  Guarded G(32);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  const std::string Line3 = "  x[i] = x[i] + zz;";
  std::string Src = std::string(WritesXSrcHead) + Line3 + "\n";
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push(Src.c_str(), 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE,
                    "kernel:3:" + std::to_string(Line3.find("zz") + 1) +
                        ": error: use of undeclared identifier 'zz'",
                    "must be passed in args");
  EXPECT_TRUE(G.hostIntact());
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, MissingArgument) {
  Guarded G(32);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int *x = G.data();
  jacc_arg args[] = {{"int *x", &x}}; // the kernel also uses n
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 1, args, JACC_DEFAULT),
                    JACC_ERROR_COMPILE, "kernel:2:", "use of undeclared identifier 'n'");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, UndeclaredFunction) {
  // C library functions may be called without their header; unknown ones stay errors.
  Guarded G(8);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  std::string Src = std::string(WritesXSrcHead) + "  x[i] = frobnicate(x[i]);\n";
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push(Src.c_str(), 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE,
                    "kernel:3:", "frobnicate");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, IncludesOfSpecialFilesAreRefusedNotWaitedFor) {
  // Reading /dev/stdin or a FIFO would block the push (and jacc_finalize) for ever.
  char Dir[] = "/tmp/jacc-fifo-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string Fifo = std::string(Dir) + "/fifo.h";
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  Guarded G(8);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  for (const std::string &Path : {std::string("/dev/stdin"), Fifo, std::string("/dev/zero")}) {
    std::string Src = "#include <" + Path + ">\n" + WritesXSrcHead + "  x[i] = 1;\n";
    EXPECT_JACC_ERROR(jacc_kernel_push(Src.c_str(), 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE,
                      "kernel:1:", "cannot open file '" + Path + "'");
  }
  unlink(Fifo.c_str());
  rmdir(Dir);
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, CompilerCrashOrHangIsAnErrorAndTheNextPushWorks) {
  // Faked by the compile server, in code holding the marker only; settings are read at init.
  jacc::ScopedEnv Fault("JACC_TEST_COMPILE_FAULT", "crash:poison_k"),
      Timeout("JACC_COMPILE_TIMEOUT", "1"), Mode("JACC_COMPILE", nullptr);
  for (const char *Kind : {"crash", "hang"}) {
    Fault.set((std::string(Kind) + ":poison_k").c_str());
    ASSERT_JACC(jacc_finalize());
    ASSERT_JACC(jacc_init());
    Guarded G(8);
    ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
    int n = G.n, poison_k = 5;
    int *x = G.data();
    jacc_arg args[] = {{"int n", &n}, {"int *x", &x}, {"int poison_k", &poison_k}};
    std::string Src = std::string(WritesXSrcHead) + "  x[i] = poison_k;\n";
    EXPECT_JACC_ERROR(jacc_kernel_push(Src.c_str(), 3, args, JACC_DEFAULT), JACC_ERROR_COMPILE,
                      std::string(Kind) == "crash"
                          ? "the compile server crashed (signal 11, Segmentation fault)"
                          : "timed out after 1 s",
                      "while compiling kernel 'for (int i = 0; i < n; i++)'");
    expectDeviceIntactAndUnmap(G);
    expectHealthyPush();
  }
}

TEST_P(ErrorTest, KernelWhoseAnalysisExhaustsTheLimitsIsAnErrorAndTheNextPushWorks) {
  // A macro doubling 40 times would grow the application until the OOM killer ends it: its
  // analysis runs in the compile server first, under the compile limits (read at init).
  jacc::ScopedEnv Memory("JACC_COMPILE_MEMORY", "300M"), Mode("JACC_COMPILE", nullptr);
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  Guarded G(8);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  std::string Src = jacc_test::doublingMacros(40) + WritesXSrcHead + "  x[i] = A40;\n";
  EXPECT_JACC_ERROR(jacc_kernel_push(Src.c_str(), 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE,
                    "the compile server used more than 300 MiB of memory while analysing "
                    "kernel 'for (int i = 0; i < n; i++)",
                    "JACC_COMPILE_MEMORY sets the limit");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, CompileServerThatIsAProgramUsingJaccEndsAtOnce) {
  // This test program itself as the server: its jacc_init ends it with a message, where it
  // started servers of its own (itself again), a chain that outlived the application.
  jacc::ScopedEnv Server("JACC_COMPILE_SERVER", "/proc/self/exe"), Mode("JACC_COMPILE", nullptr),
      Cache("JACC_CACHE", "off");
  char Self[4096];
  ssize_t N = readlink("/proc/self/exe", Self, sizeof Self - 1);
  ASSERT_GT(N, 0);
  Self[N] = 0;
  Server.set(Self);
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  auto Start = std::chrono::steady_clock::now();
  Guarded G(8);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  static int Runs = 0; // a kernel no earlier push compiled
  std::string Src =
      std::string(WritesXSrcHead) + "  x[i] = " + std::to_string(12345 + Runs++) + ";\n";
  EXPECT_JACC_ERROR(jacc_kernel_push(Src.c_str(), 2, args, JACC_DEFAULT), JACC_ERROR_COMPILE,
                    "exited with status 2",
                    "jacc: this program uses jacc; it is not jacc's compile server");
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(20));
  expectDeviceIntactAndUnmap(G);
  Server.set(nullptr);
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  expectHealthyPush();
}

TEST_P(ErrorTest, ExtraArgumentNotUsedByTheKernel) {
  Guarded G(32);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n, unused = 5;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}, {"int unused", &unused}};
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 3, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "argument 3 ('int unused')",
                    "is not used by the kernel");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, ArgumentDeclaredTwiceOrWithoutName) {
  int n = 4, m = 4;
  jacc_arg twice[] = {{"int n", &n}, {"int n", &m}};
  const char *Src = "#pragma acc serial\n"
                    "{ int k = n; (void)k; }\n";
  EXPECT_JACC_ERROR(jacc_kernel_push(Src, 2, twice, JACC_DEFAULT), JACC_ERROR_COMPILE,
                    "arg 2:1:5: error: redefinition of parameter 'n'");
  jacc_arg unnamed[] = {{"int n", &n}, {"int", &m}};
  EXPECT_JACC_ERROR(jacc_kernel_push(Src, 2, unnamed, JACC_DEFAULT), JACC_ERROR_INVALID_ARGUMENT,
                    "argument 2 ('int') declares no name");
  expectHealthyPush();
}

// ---- invalid calls -----------------------------------------------------------------------------

TEST_P(ErrorTest, NullSource) {
  int n = 1;
  jacc_arg args[] = {{"int n", &n}};
  EXPECT_JACC_ERROR(jacc_kernel_push(nullptr, 1, args, JACC_DEFAULT), JACC_ERROR_INVALID_ARGUMENT,
                    "jacc_kernel_push: the source is NULL");
  EXPECT_EQ(stats().kernels_pushed, 0u);
  expectHealthyPush();
}

TEST_P(ErrorTest, NullArgsWithPositiveCountAndNegativeCount) {
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 2, nullptr, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "nargs is 2 but args is NULL");
  int n = 1;
  jacc_arg args[] = {{"int n", &n}};
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, -1, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "nargs is -1, it must be >= 0");
  EXPECT_EQ(stats().kernels_pushed, 0u);
  expectHealthyPush();
}

TEST_P(ErrorTest, NullDeclOrNullValue) {
  Guarded G(8);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg nullDecl[] = {{"int n", &n}, {nullptr, &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 2, nullDecl, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "args[1] has a NULL decl");
  jacc_arg nullValue[] = {{"int n", nullptr}, {"int *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 2, nullValue, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "args[0] has a NULL value");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, UnknownFlagBits) {
  Guarded G(8);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 2, args, 1u << 7),
                    JACC_ERROR_INVALID_ARGUMENT, "unknown flag bits 0x80");
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 2, args, JACC_ASYNC | (1u << 12)),
                    JACC_ERROR_INVALID_ARGUMENT, "unknown flag bits 0x1000");
  EXPECT_JACC_ERROR(
      jacc_kernel_push(ErrorTest::HealthySrc, 2, args, JACC_FORCE_DUPLICATE | JACC_FORCE_SPLIT),
      JACC_ERROR_INVALID_ARGUMENT, "exclude each other");
  ASSERT_JACC(jacc_wait());
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

// ---- data errors -------------------------------------------------------------------------------

TEST_P(ErrorTest, PointerArgumentIntoUnmappedMemory) {
  Guarded G(50);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  std::vector<int> yv(50, 9);
  int n = G.n;
  int *x = G.data(), *y = yv.data();
  const char *Src = "#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  x[i] = -x[i];\n"
                    "  y[i] = x[i];\n"
                    "}\n";
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}, {"int *y", &y}};
  char Addr[32];
  std::snprintf(Addr, sizeof Addr, "%p", static_cast<void *>(y));
  EXPECT_JACC_ERROR(jacc_kernel_push(Src, 3, args, JACC_DEFAULT), JACC_ERROR_NOT_PRESENT,
                    std::string("argument 3 ('int *y') = ") + Addr +
                        " does not point into mapped data");
  EXPECT_EQ(jacc_is_present(y, 50 * sizeof(int)), 0);
  EXPECT_EQ(yv, std::vector<int>(50, 9));
  EXPECT_EQ(stats().duplicate_launches + stats().split_launches, 0u);
  expectDeviceIntactAndUnmap(G); // the kernel did not run, not even partly
  expectHealthyPush();
}

TEST_P(ErrorTest, PointerArgumentJustPastAMapping) {
  Guarded G(50);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = 1;
  int *x = G.data() + G.n; // one past the end: not inside the mapping
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push(ErrorTest::HealthySrc, 2, args, JACC_DEFAULT),
                    JACC_ERROR_NOT_PRESENT, "argument 2 ('int *x')");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, PartiallyPresentRanges) {
  std::vector<int> buf(300, 4);
  int *x = buf.data() + 100; // mapped: [x, x + 100)
  size_t bytes = 100 * sizeof(int);
  ASSERT_JACC(jacc_copyin(x, bytes));
  jacc_reset_stats();
  EXPECT_JACC_ERROR(jacc_copyin(x + 50, bytes), JACC_ERROR_PARTIALLY_PRESENT, "jacc_copyin: ",
                    "is partially present");
  EXPECT_JACC_ERROR(jacc_create(x - 50, bytes), JACC_ERROR_PARTIALLY_PRESENT, "jacc_create: ",
                    "is partially present");
  EXPECT_JACC_ERROR(jacc_copyin(x - 10, 2 * bytes), JACC_ERROR_PARTIALLY_PRESENT,
                    "is partially present"); // covers the mapping
  EXPECT_JACC_ERROR(jacc_copyout(x + 90, 20 * sizeof(int)), JACC_ERROR_PARTIALLY_PRESENT,
                    "jacc_copyout: ", "is partially present");
  EXPECT_JACC_ERROR(jacc_delete(x - 1, 2 * sizeof(int)), JACC_ERROR_PARTIALLY_PRESENT,
                    "jacc_delete: ", "is partially present");
  EXPECT_JACC_ERROR(jacc_update_self(x + 99, 2 * sizeof(int)), JACC_ERROR_PARTIALLY_PRESENT,
                    "jacc_update_self: ");
  EXPECT_JACC_ERROR(jacc_update_device(x - 1, 2 * sizeof(int)), JACC_ERROR_PARTIALLY_PRESENT,
                    "jacc_update_device: ");
  jacc_stats s = stats();
  EXPECT_EQ(s.bytes_host_to_device, 0u);
  EXPECT_EQ(s.bytes_device_to_host, 0u);
  // Nothing new mapped, the mapping itself unchanged (reference count 1), the host untouched.
  EXPECT_EQ(jacc_is_present(x + 100, 50 * sizeof(int)), 0);
  EXPECT_EQ(jacc_is_present(x - 50, 50 * sizeof(int)), 0);
  EXPECT_EQ(jacc_is_present(x, bytes), 1);
  ASSERT_JACC(jacc_delete(x, bytes));
  EXPECT_EQ(jacc_is_present(x, bytes), 0);
  EXPECT_EQ(buf, std::vector<int>(300, 4));
  expectHealthyPush();
}

TEST_P(ErrorTest, ExitWithoutEntry) {
  std::vector<int> v(20, 6);
  int *x = v.data();
  EXPECT_JACC_ERROR(jacc_copyout(x, 20 * sizeof(int)), JACC_ERROR_NOT_PRESENT, "jacc_copyout: ",
                    "is not mapped", "needs a matching jacc_create or jacc_copyin");
  EXPECT_JACC_ERROR(jacc_delete(x, 20 * sizeof(int)), JACC_ERROR_NOT_PRESENT, "jacc_delete: ",
                    "is not mapped");
  EXPECT_EQ(v, std::vector<int>(20, 6));
  EXPECT_EQ(jacc_is_present(x, 20 * sizeof(int)), 0);
  // One exit too many after a matched pair.
  ASSERT_JACC(jacc_copyin(x, 20 * sizeof(int)));
  ASSERT_JACC(jacc_delete(x, 20 * sizeof(int)));
  for (int &e : v)
    e = 8;
  EXPECT_JACC_ERROR(jacc_copyout(x, 20 * sizeof(int)), JACC_ERROR_NOT_PRESENT, "is not mapped");
  EXPECT_EQ(v, std::vector<int>(20, 8));
  expectHealthyPush();
}

TEST_P(ErrorTest, UpdateOfUnmappedData) {
  std::vector<int> v(20, 6);
  int *x = v.data();
  EXPECT_JACC_ERROR(jacc_update_device(x, 20 * sizeof(int)), JACC_ERROR_NOT_PRESENT,
                    "jacc_update_device: ", "is not mapped", "map it first");
  EXPECT_JACC_ERROR(jacc_update_self(x + 3, 4 * sizeof(int)), JACC_ERROR_NOT_PRESENT,
                    "jacc_update_self: ", "is not mapped");
  EXPECT_EQ(v, std::vector<int>(20, 6));
  EXPECT_EQ(jacc_is_present(x, 20 * sizeof(int)), 0);
  expectHealthyPush();
}

TEST_P(ErrorTest, RangesWrappingPastTheEndOfMemory) {
  void *Top = reinterpret_cast<void *>(~uintptr_t{0} - 15); // 16 bytes below the top
  for (auto Call : {jacc_create, jacc_copyin, jacc_copyout, jacc_delete, jacc_update_device,
                    jacc_update_self})
    EXPECT_JACC_ERROR(Call(Top, 32), JACC_ERROR_INVALID_ARGUMENT,
                      "bytes wraps past the end of the address space");
  EXPECT_JACC_ERROR(jacc_exit_data(Top, 32, 1, 1), JACC_ERROR_INVALID_ARGUMENT, "wraps past");
  EXPECT_EQ(jacc_is_present(Top, 8), 0) << "nothing was mapped";
  expectHealthyPush();
}

TEST_P(ErrorTest, RangesThatAreNotMemoryOfTheProgram) {
  // An address no allocation has, one past the end of a mapped page, a page of no access.
  long Page = sysconf(_SC_PAGESIZE);
  void *Block = mmap(nullptr, 2 * Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(Block, MAP_FAILED);
  ASSERT_EQ(mprotect(static_cast<char *>(Block) + Page, Page, PROT_NONE), 0);
  char *Readable = static_cast<char *>(Block);
  for (auto Call : {jacc_create, jacc_copyin, jacc_create_zero}) {
    EXPECT_JACC_ERROR(Call(reinterpret_cast<void *>(0x10), 800), JACC_ERROR_INVALID_ARGUMENT,
                      "[0x10,+800] is not memory of the program",
                      "pass the pointer and size of an object of the program");
    EXPECT_JACC_ERROR(Call(Readable + Page - 8, 16), JACC_ERROR_INVALID_ARGUMENT,
                      "is not memory of the program");
    EXPECT_JACC_ERROR(Call(Readable + Page, 8), JACC_ERROR_INVALID_ARGUMENT,
                      "is not memory of the program");
  }
  EXPECT_EQ(jacc_is_present(Readable + Page - 8, 16), 0) << "nothing was mapped";
  ASSERT_JACC(jacc_copyin(Readable, Page)); // the readable page itself is fine
  ASSERT_JACC(jacc_delete(Readable, Page));
  munmap(Block, 2 * Page);
  // Three pages whose middle one is gone: both ends readable, the range is not one object.
  char *Three = static_cast<char *>(
      mmap(nullptr, 3 * Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(Three, MAP_FAILED);
  ASSERT_EQ(munmap(Three + Page, Page), 0);
  EXPECT_JACC_ERROR(jacc_copyin(Three, 3 * Page), JACC_ERROR_INVALID_ARGUMENT,
                    "is not memory of the program (some of it cannot be read)");
  munmap(Three, Page);
  munmap(Three + 2 * Page, Page);
  expectHealthyPush();
}

TEST_P(ErrorTest, CopyBackIntoReadOnlyMemoryIsAnErrorAndTheDataStaysMapped) {
  // A string literal reads fine (a copy in), but nothing may be written back into it.
  static const char Literal[] = "a string literal lives in read-only memory";
  void *P = const_cast<char *>(Literal);
  ASSERT_JACC(jacc_copyin(P, sizeof Literal));
  EXPECT_JACC_ERROR(jacc_update_self(P, sizeof Literal), JACC_ERROR_INVALID_ARGUMENT,
                    "cannot be written back: some of it is read-only memory of the program",
                    "copy back into writable memory");
  EXPECT_JACC_ERROR(jacc_copyout(P, sizeof Literal), JACC_ERROR_INVALID_ARGUMENT,
                    "cannot be written back");
  EXPECT_EQ(jacc_is_present(P, sizeof Literal), 1) << "the failed copy out kept the mapping";
  EXPECT_JACC(jacc_delete(P, sizeof Literal));
  EXPECT_EQ(jacc_is_present(P, sizeof Literal), 0);
  expectHealthyPush();
}

// ---- unsupported or invalid OpenACC ------------------------------------------------------------

void expectUnsupportedClause(const char *Src, const char *Clause, int argc, jacc_arg *args) {
  EXPECT_JACC_ERROR(jacc_kernel_push(Src, argc, args, JACC_DEFAULT), JACC_ERROR_UNSUPPORTED,
                    std::string("clause '") + Clause + "'", "not supported");
}

TEST_P(ErrorTest, UnsupportedClauses) {
  Guarded G(16);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n, c = 1;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  jacc_arg withC[] = {{"int n", &n}, {"int *x", &x}, {"int c", &c}};
  expectUnsupportedClause("#pragma acc parallel loop copyin(x[0:n])\n"
                          "for (int i = 0; i < n; i++) x[i] = 0;\n",
                          "copyin", 2, args);
  expectUnsupportedClause("#pragma acc parallel loop copy(x[0:n])\n"
                          "for (int i = 0; i < n; i++) x[i] = 0;\n",
                          "copy", 2, args);
  expectUnsupportedClause("#pragma acc kernels loop create(x[0:n])\n"
                          "for (int i = 0; i < n; i++) x[i] = 0;\n",
                          "create", 2, args);
  // device_type groups are resolved (DeviceTypeClausesTest); what OpenACC forbids after one
  // is an error naming the clause.
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel loop device_type(*) present(x)\n"
                                     "for (int i = 0; i < n; i++) x[i] = 0;\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "clause 'present' cannot follow device_type");
  expectUnsupportedClause("#pragma acc parallel loop present(x) if(c)\n"
                          "for (int i = 0; i < n; i++) x[i] = c;\n",
                          "if", 3, withC);
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, UnknownClauseOrDirective) {
  Guarded G(16);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel loop presnt(x)\n"
                                     "for (int i = 0; i < n; i++) x[i] = 0;\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "unknown clause 'presnt'", "line 1");
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel present(x)\n"
                                     "{\n"
                                     "  #pragma acc lop\n"
                                     "  for (int i = 0; i < n; i++) x[i] = 0;\n"
                                     "}\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "unknown directive 'lop'", "line 3");
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel loop reduction(avg:n) present(x)\n"
                                     "for (int i = 0; i < n; i++) x[i] = 0;\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "unknown reduction operator 'avg'");
  // A misspelt compute construct leaves no compute construct.
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc paralel loop present(x)\n"
                                     "for (int i = 0; i < n; i++) x[i] = 0;\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "no compute construct");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, PointerToPointerToPointerArgument) {
  std::vector<double> row(4, 1.0);
  double *rows[1] = {row.data()};
  double **plane[1] = {rows};
  double ***p = plane;
  int n = 1;
  jacc_arg args[] = {{"int n", &n}, {"double ***p", &p}};
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel loop\n"
                                     "for (int i = 0; i < n; i++) p[i][0][0] = 2.0;\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_UNSUPPORTED, "argument 2 ('double ***p')",
                    "pointers to pointers to pointers");
  EXPECT_EQ(row, std::vector<double>(4, 1.0));
  expectHealthyPush();
}

TEST_P(ErrorTest, NoComputeConstruct) {
  Guarded G(8);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  EXPECT_JACC_ERROR(
      jacc_kernel_push("for (int i = 0; i < n; i++) x[i] = 0;\n", 2, args, JACC_DEFAULT),
      JACC_ERROR_INVALID_ARGUMENT, "no compute construct");
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc loop\n"
                                     "for (int i = 0; i < n; i++) x[i] = 0;\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "no compute construct");
  EXPECT_JACC_ERROR(jacc_kernel_push("", 0, nullptr, JACC_DEFAULT), JACC_ERROR_INVALID_ARGUMENT,
                    "no compute construct");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

TEST_P(ErrorTest, InvalidRegionShapes) {
  Guarded G(8);
  ASSERT_JACC(jacc_copyin(G.data(), G.bytes()));
  int n = G.n;
  int *x = G.data();
  jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel loop present(x)\n"
                                     "for (int i = 0; i < n; i++) { if (x[i] < 0) break; x[i] = 0; }\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "kernel:2:", "'break' cannot leave a parallel loop");
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel loop present(x)\n"
                                     "for (int i = 1; i < n; i *= 2) x[i] = 0;\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_UNSUPPORTED, "kernel:2:", "not in canonical form");
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel present(x)\n"
                                     "x[0] = 1;\n"
                                     "x[1] = 2;\n",
                                     1, args + 1, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "kernel:3:", "exactly one statement");
  EXPECT_JACC_ERROR(jacc_kernel_push("#pragma acc parallel loop collapse(2) present(x)\n"
                                     "for (int i = 0; i < n; i++)\n"
                                     "  for (int j = 0; j < i; j++) x[i] = j;\n",
                                     2, args, JACC_DEFAULT),
                    JACC_ERROR_UNSUPPORTED, "kernel:3:", "rectangular");
  expectDeviceIntactAndUnmap(G);
  expectHealthyPush();
}

// ---- the error message itself --------------------------------------------------------------------

TEST_P(ErrorTest, LastErrorIsPerThread) {
  EXPECT_JACC_ERROR(jacc_kernel_push(nullptr, 0, nullptr, JACC_DEFAULT),
                    JACC_ERROR_INVALID_ARGUMENT, "the source is NULL");
  std::string Other;
  jacc_status OtherStatus = JACC_SUCCESS;
  std::string OtherBefore;
  std::thread T([&] {
    OtherBefore = jacc_last_error(); // nothing failed on this thread yet
    std::vector<int> v(4);
    OtherStatus = jacc_copyout(v.data(), sizeof(int) * 4);
    Other = jacc_last_error();
  });
  T.join();
  EXPECT_EQ(OtherBefore, "");
  EXPECT_EQ(OtherStatus, JACC_ERROR_NOT_PRESENT);
  EXPECT_NE(Other.find("jacc_copyout"), std::string::npos) << Other;
  // This thread's message is its own.
  EXPECT_NE(lastError().find("the source is NULL"), std::string::npos) << lastError();
  expectHealthyPush();
}

TEST_P(ErrorTest, AForkedChildGetsAClearErrorAndExitsWithoutWaiting) {
  // The devices' threads stay in the parent: the child's calls fail naming the way out, its exit
  // waits for none of them (nor writes the parent's files), and the parent carries on.
  expectHealthyPush();
  pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    int n = 16, v[16] = {0}, *x = v;
    jacc_arg args[] = {{"int n", &n}, {"int *x", &x}};
    bool Push = jacc_kernel_push(HealthySrc, 2, args, JACC_DEFAULT) == JACC_ERROR_UNSUPPORTED &&
                lastError().find("fork before jacc_init, or exec a program in the child") !=
                    std::string::npos;
    bool Copy = jacc_copyin(v, sizeof v) == JACC_ERROR_UNSUPPORTED;
    bool Finalize = jacc_finalize() == JACC_ERROR_UNSUPPORTED;
    std::exit(Push && Copy && Finalize ? 0 : 3); // the atexit hooks run
  }
  int Status = 0;
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  pid_t Done = 0;
  while ((Done = ::waitpid(Child, &Status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < Deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (Done == 0) {
    ::kill(Child, SIGKILL);
    ::waitpid(Child, &Status, 0);
    FAIL() << "the forked child still runs after 60 s";
  }
  ASSERT_TRUE(WIFEXITED(Status)) << "the child died of signal " << WTERMSIG(Status);
  EXPECT_EQ(WEXITSTATUS(Status), 0) << "the child's calls did not fail as they should";
  expectHealthyPush();
}

JACC_DEVICE_CONFIGS(ErrorTest);

} // namespace
