// The CUDA device path end to end through the public API, against the fake driver of
// tests/src/cuda/mockcuda (JACC_LIBCUDA points at it; two fake GPUs of compute capability 8.0). NVRTC
// really compiles each kernel for sm_80 and the image is really loaded by entry name; the fake
// driver cannot execute it, so each test installs a hook that does what the kernel would, reading
// the arguments exactly as the generated entry declares them: a wrong argument buffer, pointer
// translation, grid, read-back or reduction combine shows up as a wrong result.
#include "jacc/openacc.h"
#include "jit/cuda/CudaABI.h"
#include "jit/host/HostABI.h"
#include "tests/api/ExchangePatterns.h"
#include "tests/api/Fixture.h"
#include "tests/api/NativeCalls.h"
#include "tests/api/ProfiledProgram.h"
#include "tests/api/SolverStep.h"

#include "jacc/openacc.h"

#include "tests/ScopedEnv.h"
#include "tests/TraceReader.h"
#include "tests/api/ChildTrace.h"

#include <dirent.h>
#include <dlfcn.h>
#include <functional>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <complex>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

using KernelHook = void (*)(const char *Entry, unsigned Grid, unsigned Block, void **Params);

template <typename Fn> Fn mockFunction(const char *Name) {
  void *Lib = dlopen(std::getenv("JACC_LIBCUDA"), RTLD_NOW | RTLD_NOLOAD);
  if (!Lib)
    return nullptr;
  return reinterpret_cast<Fn>(dlsym(Lib, Name));
}

void setHook(KernelHook H) {
  auto Set = mockFunction<void (*)(KernelHook)>("mockcuda_set_kernel_hook");
  ASSERT_NE(Set, nullptr);
  Set(H);
}

int launchCount() { return mockFunction<int (*)()>("mockcuda_launch_count")(); }

void lastLaunch(unsigned &Grid, unsigned &Block, int &Coop) {
  mockFunction<void (*)(unsigned *, unsigned *, int *)>("mockcuda_last_launch")(&Grid, &Block,
                                                                               &Coop);
}

template <typename T> T param(void **Params, unsigned I) {
  T V;
  std::memcpy(&V, Params[I], sizeof V);
  return V;
}

class CudaMockTest : public DeviceTest {
protected:
  void SetUp() override {
    ASSERT_NE(std::getenv("JACC_LIBCUDA"), nullptr) << "run through meson: it sets JACC_LIBCUDA";
    DeviceTest::SetUp();
  }
  void TearDown() override {
    setHook(nullptr);
    DeviceTest::TearDown();
  }
  /// A new runtime (reading the environment again) whose GPUs run Hook.
  void restartWith(KernelHook Hook) {
    ASSERT_JACC(jacc_finalize());
    ASSERT_JACC(jacc_init());
    setHook(Hook);
  }
  /// The fake GPUs of the configuration (mixes include host devices, which the hook never sees).
  int gpus() const { return std::string(GetParam()).find("host") == std::string::npos ? devices() : 1; }
};

const char *const Saxpy = "#pragma acc parallel loop present(x, y)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = a * x[i] + y[i];\n";

/// Saxpy's arrays and arguments: N elements, x[i] = i (or XAll everywhere), y[i] = Y0.
struct SaxpyArrays {
  int N;
  float A;
  std::vector<float> X, Y;
  float *Xp, *Yp;
  jacc_arg Args[4];

  SaxpyArrays(int N, float A, float Y0, std::optional<float> XAll = std::nullopt)
      : N(N), A(A), X(N), Y(N, Y0), Xp(X.data()), Yp(Y.data()), Args{{"float *y", &Yp},
                                                                     {"const float *x", &Xp},
                                                                     {"float a", &this->A},
                                                                     {"int n", &this->N}} {
    for (int I = 0; I < N; ++I)
      X[I] = XAll ? *XAll : float(I);
  }
  SaxpyArrays(const SaxpyArrays &) = delete;
  size_t bytes() const { return N * sizeof(float); }
  /// Map x and y on the devices.
  jacc_status copyin() {
    jacc_status S = jacc_copyin(Xp, bytes());
    return S == JACC_SUCCESS ? jacc_copyin(Yp, bytes()) : S;
  }
  jacc_status push(unsigned Flags = JACC_DEFAULT, const char *Src = Saxpy) {
    return jacc_kernel_push(Src, 4, Args, Flags);
  }
  /// Copy y out and delete x.
  jacc_status copyoutY() {
    jacc_status S = jacc_copyout(Yp, bytes());
    return S == JACC_SUCCESS ? jacc_delete(Xp, bytes()) : S;
  }
};

/// This device's owned rows of a split array from the mapping's byte range relative to the
/// pointer, as the split entry's prologue computes them.
void ownedRange(long long MLo, long long MHi, long long Unit, const jacc_cuda_team &T,
                long long &Lb, long long &Ub) {
  if (MLo > MHi) { // the array is not split (the kernel runs on one device): every row
    Lb = LLONG_MIN;
    Ub = LLONG_MAX;
    return;
  }
  long long First = MLo >= 0 ? (MLo + Unit - 1) / Unit : -((-MLo) / Unit);
  long long Last = (MHi >= 0 ? MHi / Unit : -((-MHi + Unit - 1) / Unit)) - 1;
  long long Cnt = Last - First + 1;
  Lb = First + Cnt * T.share_begin / T.share_scale;
  Ub = First + Cnt * T.share_end / T.share_scale - 1;
}

/// The owned rows [Lb, Ub] of a split 1-D array of N elements of Unit bytes, its mapping bounds
/// the split entry's parameters Mlo and Mlo + 1, reported in split_info's slot Slot (HostABI.h's
/// JACC_SPLIT_INFO_WORDS words, no window) as the entry's prologue does: every element may be
/// written, the owned rows run.
void splitRows(void **P, unsigned Mlo, long long Unit, long long N, const jacc_cuda_team &T,
               int Slot, long long &Lb, long long &Ub) {
  ownedRange(param<long long>(P, Mlo), param<long long>(P, Mlo + 1), Unit, T, Lb, Ub);
  long long Info[JACC_SPLIT_INFO_WORDS] = {
      Lb, Ub, Unit, 0, 0, N - 1, std::max(0LL, Lb), Ub >= N ? N : Ub + 1};
  std::memcpy(T.split_info + JACC_SPLIT_INFO_WORDS * Slot, Info, sizeof Info);
}

/// What the generated saxpy entries do: (float a, int n, float *y, const float *x, team) and
/// the split entry (..., long long mlo_y, long long mhi_y, team): only the owned rows of y,
/// reported in split_info (HostABI.h's JACC_SPLIT_INFO_WORDS words).
void saxpyHook(const char *Entry, unsigned, unsigned, void **P) {
  bool Split = std::strcmp(Entry, "__jacc_entry_split") == 0;
  float A = param<float>(P, 0);
  int N = param<int>(P, 1);
  float *Y = param<float *>(P, 2);
  const float *X = param<const float *>(P, 3);
  long long Lb = 0, Ub = N - 1;
  if (Split)
    splitRows(P, 4, sizeof(float), N, param<jacc_cuda_team>(P, 6), 0, Lb, Ub);
  for (long long I = std::max(0LL, Lb); I <= Ub && I < N; ++I)
    Y[I] = A * X[I] + Y[I];
}

// A routine of another file, linked into the kernel's text before NVRTC compiles it: the GPUs
// launch it (no hook: the results are the host devices' test, KernelTest).
TEST_P(CudaMockTest, RoutinesOfOtherFilesAreLinkedBeforeNvrtcCompiles) {
  ASSERT_JACC(jacc_define_routine("cm_half", "#pragma acc routine seq\n"
                                             "static float cm_half(float v) { return 0.5f * v; }\n"
                                             "// jacc-site: lib.c:2\n"));
  int N = 1000;
  std::vector<float> Y(N, 1.0f);
  float *Yp = Y.data();
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(float)));
  jacc_arg Args[] = {{"float *y", &Yp}, {"int n", &N}};
  int Before = launchCount();
  ASSERT_JACC(jacc_kernel_push("#pragma jacc routines(cm_half)\n"
                               "#pragma acc parallel loop present(y)\n"
                               "for (int i = 0; i < n; i++)\n"
                               "  y[i] = cm_half(y[i]);\n",
                               2, Args, JACC_DEFAULT));
  EXPECT_EQ(launchCount() - Before, gpus());
  EXPECT_EQ(jacc_kernel_push("#pragma jacc routines(cm_nowhere)\n"
                             "#pragma acc parallel loop present(y)\n"
                             "for (int i = 0; i < n; i++)\n"
                             "  y[i] = cm_nowhere(y[i]);\n",
                             2, Args, JACC_DEFAULT),
            JACC_ERROR_COMPILE);
  EXPECT_NE(std::string(jacc_last_error()).find("calls 'cm_nowhere'"), std::string::npos)
      << jacc_last_error();
  ASSERT_JACC(jacc_delete(Yp, N * sizeof(float)));
}

TEST_P(CudaMockTest, LaunchesReuseTheirScratchMemory) {
  // A launch's scratch (barrier words, split information) goes back to its device for the next
  // launch: cuMemFree waits for the whole GPU, so freeing it per launch would serialise them.
  setHook(saxpyHook);
  SaxpyArrays S(1000, 2, 1, 1.0f);
  ASSERT_JACC(S.copyin());
  ASSERT_JACC(S.push());
  ASSERT_JACC(jacc_wait());
  auto Allocs = mockFunction<int (*)()>("mockcuda_device_alloc_count");
  int Before = Allocs();
  for (int I = 0; I < 20; ++I)
    ASSERT_JACC(S.push());
  ASSERT_JACC(jacc_wait());
  EXPECT_EQ(Allocs() - Before, 0);
  ASSERT_JACC(S.copyoutY());
  EXPECT_EQ(S.Y[S.N - 1], 1.0f + 21 * 2.0f);
}

TEST_P(CudaMockTest, SaxpyArgumentsReachTheKernelAndResultsComeBack) {
  setHook(saxpyHook);
  SaxpyArrays S(1000, 2, 1);
  ASSERT_JACC(S.copyin());
  int Before = launchCount();
  ASSERT_JACC(S.push());
  // Every GPU ran it: duplicate, or split with the exchange after it.
  EXPECT_EQ(launchCount() - Before, gpus());
  unsigned Grid = 0, Block = 0;
  int Coop = -1;
  lastLaunch(Grid, Block, Coop);
  EXPECT_EQ(Block, 512u); // from the access traits: coalesced streaming
  EXPECT_EQ(Grid, 4u * (2048 / 512)); // 4 SMs, full occupancy
  EXPECT_EQ(Coop, 0);
  // The host copy is untouched until copyout.
  EXPECT_EQ(S.Y[10], 1.0f);
  ASSERT_JACC(S.copyoutY());
  for (int I = 0; I < S.N; ++I)
    ASSERT_EQ(S.Y[I], 2.0f * I + 1) << I;
}

/// One run of saxpy pushed Pushes times (the runtime restarted: a new run of the program); its
/// split launches, or -1 if a call failed.
long long splitLaunchesOfARun(int Pushes) {
  if (jacc_finalize() != JACC_SUCCESS || jacc_init() != JACC_SUCCESS)
    return -1;
  setHook(saxpyHook);
  SaxpyArrays S(1000, 2, 1);
  if (S.copyin() != JACC_SUCCESS)
    return -1;
  jacc_reset_stats();
  for (int P = 0; P < Pushes; ++P)
    if (S.push() != JACC_SUCCESS)
      return -1;
  jacc_stats St;
  if (jacc_get_stats(&St) != JACC_SUCCESS || S.copyoutY() != JACC_SUCCESS)
    return -1;
  return static_cast<long long>(St.split_launches);
}

/// The record the cache in Dir keeps for the program on Devices ("" if none), and its file.
std::string recordOf(const std::string &Dir, const std::string &Devices, std::string &File) {
  std::string Records = Dir + "/records", Want = "JACC_DEVICES=" + Devices + ";";
  DIR *D = ::opendir(Records.c_str());
  if (!D)
    return "";
  std::string Found;
  while (dirent *E = ::readdir(D)) {
    if (E->d_name[0] == '.')
      continue;
    std::ifstream In(Records + "/" + E->d_name);
    std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
    if (Text.find(Want) != std::string::npos) {
      File = Records + "/" + E->d_name;
      Found = Text;
    }
  }
  ::closedir(D);
  return Found;
}

// The program regime's choice kept for the next run (JACC_PROGRAM_CACHE) holds on GPUs as on
// host devices: GPUs, which do not share cores, start a program spread, and a kept "one device"
// runs the next run's first pushes on one GPU; a damaged record or the variable off leaves them
// split. One device keeps nothing. (The disk cache is opened once per process, before any
// configuration's first run: the runs happen in a child of the test's own.)
TEST(CudaMockProgramTest, ARunStartsTheWayItsLastRunChose) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  char Dir[] = "/tmp/jacc-mock-program-XXXXXX";
  ASSERT_NE(::mkdtemp(Dir), nullptr);
  jacc::ScopedEnv Cache("JACC_CACHE", "on"), CacheDir("JACC_CACHE_DIR", Dir),
      Split("JACC_SPLIT", nullptr), Memory("JACC_PROGRAM_CACHE", nullptr),
      Devices("JACC_DEVICES", nullptr);
  EXPECT_EXIT(
      {
        for (const char *Config : {"cuda:all", "cuda:1,host:1", "cuda:0"}) {
          Devices.set(Config);
          Memory.set(nullptr);
          std::string Record;
          bool Ran = splitLaunchesOfARun(400) >= 0;
          std::string Kept = recordOf(Dir, Config, Record);
          std::fprintf(stderr, "%s: %s, kept %s", Config, Ran ? "ran" : "failed",
                       Kept.empty() ? "nothing" : "a regime");
          if (!Kept.empty()) {
            // One device, confirmed, re-checked far later than these pushes.
            for (const char *From : {"\"spread\"", "\"confirmed\":false"})
              if (size_t At = Kept.find(From); At != std::string::npos)
                Kept.replace(At, std::strlen(From),
                             From[1] == 's' ? "\"one device\"" : "\"confirmed\":true");
            std::ofstream(Record, std::ios::trunc) << Kept;
            std::fprintf(stderr, "; recalled %lld", splitLaunchesOfARun(10));
            std::ofstream(Record, std::ios::trunc) << "{";
            std::fprintf(stderr, ", damaged %lld", splitLaunchesOfARun(10));
            std::ofstream(Record, std::ios::trunc) << Kept;
            Memory.set("off");
            std::fprintf(stderr, ", off %lld", splitLaunchesOfARun(10));
          }
          std::fprintf(stderr, "\n");
        }
        std::_Exit(jacc_finalize() == JACC_SUCCESS ? 0 : 1);
      },
      ::testing::ExitedWithCode(0),
      "cuda:all: ran, kept a regime; recalled 0, damaged 10, off 10\n"
      "cuda:1,host:1: ran, kept a regime; recalled 0, damaged 10, off 10\n"
      "cuda:0: ran, kept nothing\n");
  std::string Rm = std::string("rm -rf ") + Dir;
  ASSERT_EQ(std::system(Rm.c_str()), 0);
}

// JACC_SPLIT=one: each push runs on the first device alone (a GPU in every configuration here),
// which keeps the only current copy of what it writes; nothing moves between devices, and the
// copy-out reads that device's copy.
TEST_P(CudaMockTest, OnOneDeviceEachPushLaunchesOnceAndNothingMovesBetweenDevices) {
  jacc::ScopedEnv One("JACC_SPLIT", "one");
  restartWith(saxpyHook);
  int Pushes = 10;
  SaxpyArrays S(1000, 2, 1);
  ASSERT_JACC(S.copyin());
  jacc_reset_stats();
  int Before = launchCount();
  for (int P = 0; P < Pushes; ++P)
    ASSERT_JACC(S.push());
  EXPECT_EQ(launchCount() - Before, Pushes);
  jacc_stats St;
  ASSERT_JACC(jacc_get_stats(&St));
  EXPECT_EQ(St.bytes_device_to_device, 0u);
  EXPECT_EQ(St.split_launches, 0u);
  EXPECT_EQ(St.duplicate_launches, uint64_t(Pushes));
  ASSERT_JACC(S.copyoutY());
  ASSERT_JACC(jacc_get_stats(&St));
  EXPECT_EQ(St.bytes_device_to_host, S.bytes());
  for (int I = 0; I < S.N; ++I)
    ASSERT_EQ(S.Y[I], 1 + Pushes * 2.0f * I) << I;
}

/// (int n, double s, const double *x, team): each block stores a partial sum in its slot; the
/// runtime reads them back and combines them with the initial value of s. Split entry: the same
/// over this device's share of the iterations.
void reductionHook(const char *Entry, unsigned Grid, unsigned, void **P) {
  jacc_cuda_team T = param<jacc_cuda_team>(P, 3);
  int N = param<int>(P, 0);
  const double *X = param<const double *>(P, 2);
  long long Begin = 0, End = N;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    Begin = N * T.share_begin / T.share_scale;
    End = N * T.share_end / T.share_scale;
  }
  auto *Slots = static_cast<double *>(T.reduction);
  for (unsigned B = 0; B < Grid; ++B) {
    double Part = 0;
    for (long long I = Begin + B; I < End; I += Grid)
      Part += X[I];
    Slots[B] = Part; // one reduction variable: slot B * 1 + 0
  }
}

/// Pushes saxpy (y = 3 x + 2 over N elements, x[i] = i; Src: its source, with clauses of its
/// own) with Flags and checks the result on the host; AfterPush runs between the push and the
/// copyout.
void pushSaxpyAndCheck(int N, const char *Src = Saxpy, unsigned Flags = JACC_DEFAULT,
                       const std::function<void()> &AfterPush = {}) {
  SaxpyArrays S(N, 3, 2);
  ASSERT_JACC(S.copyin());
  ASSERT_JACC(S.push(Flags, Src));
  if (AfterPush)
    AfterPush();
  ASSERT_JACC(S.copyoutY());
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(S.Y[I], 3.0f * I + 2) << I;
}

TEST_P(CudaMockTest, ForcedSplitMovesOnlyWhatTheExchangePolicySays) {
  setHook(saxpyHook);
  for (const char *Exchange : {"demand", "eager"}) {
    SCOPED_TRACE(std::string("JACC_EXCHANGE=") + Exchange);
    ASSERT_JACC(jacc_finalize());
    jacc::ScopedEnv Policy("JACC_EXCHANGE", Exchange);
    ASSERT_JACC(jacc_init());
    bool Eager = std::string(Exchange) == "eager";
    int N = 1001;
    jacc_reset_stats();
    ASSERT_NO_FATAL_FAILURE(pushSaxpyAndCheck(N, Saxpy, JACC_FORCE_SPLIT, [&] {
      jacc_stats St;
      ASSERT_JACC(jacc_get_stats(&St));
      EXPECT_EQ(St.split_launches, 1u);
      // Eager: every device pulled the rows the others own. Demand: nothing moves; the copyout
      // takes each device's rows from it.
      EXPECT_EQ(St.bytes_device_to_device,
                Eager ? uint64_t(N) * sizeof(float) * (devices() - 1) : 0u);
      EXPECT_EQ(St.bytes_device_to_host, 0u);
    }));
    jacc_stats St;
    ASSERT_JACC(jacc_get_stats(&St));
    EXPECT_EQ(St.bytes_device_to_host, uint64_t(N) * sizeof(float));
    ASSERT_JACC(jacc_finalize());
  }
  ASSERT_JACC(jacc_init());
}

/// The owned rows each split saxpy run on a GPU had (saxpyShareHook), in any order.
std::mutex SharesMutex;
std::vector<std::pair<long long, long long>> GpuShares;

void saxpyShareHook(const char *Entry, unsigned Grid, unsigned Block, void **P) {
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    jacc_cuda_team T = param<jacc_cuda_team>(P, 6);
    long long Lb, Ub;
    ownedRange(param<long long>(P, 4), param<long long>(P, 5), sizeof(float), T, Lb, Ub);
    std::lock_guard<std::mutex> L(SharesMutex);
    GpuShares.emplace_back(Lb, Ub);
  }
  saxpyHook(Entry, Grid, Block, P);
}

// device_type: the GPUs launch with the nvidia group's vector_length, whatever the host's;
// the host devices of a mixed configuration run the same kernel.
TEST_P(CudaMockTest, TheNvidiaGroupsVectorLengthSetsTheBlockSize) {
  setHook(saxpyHook);
  ASSERT_NO_FATAL_FAILURE(pushSaxpyAndCheck(
      1000, "#pragma acc parallel loop present(x, y) vector_length(64) device_type(nvidia) "
            "vector_length(128) device_type(host) vector_length(8)\n"
            "for (int i = 0; i < n; i++)\n"
            "  y[i] = a * x[i] + y[i];\n"));
  unsigned Grid = 0, Block = 0;
  int Coop = -1;
  lastLaunch(Grid, Block, Coop);
  EXPECT_EQ(Block, 128u);
}

// A policy's shares reach the GPUs' split entries (jacc_cuda_team), and the results are whole.
TEST_P(CudaMockTest, AWeightedPolicySharesTheRowsBetweenGpusByWeight) {
  setHook(saxpyShareHook);
  GpuShares.clear();
  int N = 1000;
  std::string Weights = "weights:[";
  std::vector<long long> Cuts = {0};
  long long Sum = devices() * (devices() + 1) / 2, Prefix = 0;
  for (int D = 1; D <= devices(); ++D) {
    Weights += (D > 1 ? "," : "") + std::to_string(D);
    Prefix += D;
    Cuts.push_back(N * Prefix / Sum);
  }
  ASSERT_JACC(jacc_set_policy((Weights + "]").c_str()));
  ASSERT_NO_FATAL_FAILURE(pushSaxpyAndCheck(N));
  std::vector<std::pair<long long, long long>> Expected;
  if (devices() > 1) // the GPUs come first in the configurations
    for (int D = 0; D < gpus(); ++D)
      Expected.emplace_back(Cuts[D], Cuts[D + 1] - 1);
  std::sort(GpuShares.begin(), GpuShares.end());
  EXPECT_EQ(GpuShares, Expected);
}

// JACC_CONFIG binds `cuda all` to the GPUs: a kernel targeting their location runs on them
// only, evenly; the host device of a mixed configuration takes no part.
TEST_P(CudaMockTest, AKernelTargetingTheGpusLocationRunsOnTheGpusOnly) {
  // Per process: the test runs in two variants at once (meson.build).
  std::string File =
      ::testing::TempDir() + "jacc-cuda-locations-" + std::to_string(::getpid()) + ".conf";
  std::FILE *F = std::fopen(File.c_str(), "w");
  ASSERT_TRUE(F);
  std::fputs("location root virtual\nlocation gpus virtual\nlocation g cuda all\n"
             "location h host all\nhierarchy root + gpus, h\nhierarchy gpus + g\n",
             F);
  std::fclose(F);
  jacc::ScopedEnv Config("JACC_CONFIG", File.c_str());
  restartWith(saxpyShareHook);
  GpuShares.clear();
  ASSERT_JACC(jacc_set_location("gpus"));
  int N = 1000;
  ASSERT_NO_FATAL_FAILURE(pushSaxpyAndCheck(N));
  std::vector<std::pair<long long, long long>> Expected;
  for (int D = 0; D < gpus(); ++D)
    Expected.emplace_back(N * D / gpus(), N * (D + 1) / gpus() - 1);
  std::sort(GpuShares.begin(), GpuShares.end());
  if (gpus() < devices()) // the host device excluded: split over the GPUs
    EXPECT_EQ(GpuShares, Expected);
  else // every device: the default, the chooser may run it split (evenly) or not
    EXPECT_TRUE(GpuShares.empty() || GpuShares == Expected);
  std::remove(File.c_str());
}

/// A cuMemPrefetchAsync the fake driver saw.
struct SeenPrefetch {
  unsigned long long Ptr;
  size_t Bytes;
  int Gpu;
  int ReadMostly;
  bool operator<(const SeenPrefetch &O) const {
    return std::tie(Gpu, Ptr, Bytes, ReadMostly) < std::tie(O.Gpu, O.Ptr, O.Bytes, O.ReadMostly);
  }
  bool operator==(const SeenPrefetch &O) const { return !(*this < O) && !(O < *this); }
};

std::vector<SeenPrefetch> prefetchesSince(int First) {
  auto Count = mockFunction<int (*)()>("mockcuda_prefetch_count");
  auto Get = mockFunction<void (*)(int, unsigned long long *, size_t *, int *, int *)>(
      "mockcuda_prefetch");
  std::vector<SeenPrefetch> Out;
  for (int I = First; I < Count(); ++I) {
    SeenPrefetch P;
    Get(I, &P.Ptr, &P.Bytes, &P.Gpu, &P.ReadMostly);
    Out.push_back(P);
  }
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

// JACC_MEMORY=unified: each array is one managed block for every device (no copy per GPU, no
// exchange), and before its part of a split kernel each GPU gets its rows of what it reads and
// writes prefetched, the array it only reads advised read-mostly. A host device beside the GPU
// works in the same block.
TEST_P(CudaMockTest, UnifiedMemoryIsOneManagedBlockPrefetchedToEachGpusShare) {
  jacc::ScopedEnv Memory("JACC_MEMORY", "unified");
  restartWith(saxpyHook);
  auto Managed = mockFunction<int (*)()>("mockcuda_managed_alloc_count");
  auto PrefetchCount = mockFunction<int (*)()>("mockcuda_prefetch_count");
  int ManagedBefore = Managed(), PrefetchBefore = PrefetchCount();
  int N = 1000;
  ASSERT_NO_FATAL_FAILURE(pushSaxpyAndCheck(N, Saxpy, devices() > 1 ? JACC_FORCE_SPLIT : 0, [&] {
    jacc_stats St;
    ASSERT_JACC(jacc_get_stats(&St));
    EXPECT_EQ(St.bytes_device_to_device, 0u);
    EXPECT_EQ(St.bytes_host_to_device, 2u * N * sizeof(float)); // each array copied in once
    EXPECT_EQ(Managed() - ManagedBefore, 2);
  }));
  // The blocks' starts, from the GPU 0 share's prefetches: x (read only) is the read-mostly one.
  std::vector<SeenPrefetch> Seen = prefetchesSince(PrefetchBefore);
  ASSERT_FALSE(Seen.empty());
  // Each GPU's share of both arrays, equal among the devices (jacc device d is GPU d, or GPU 1
  // first in "cuda:1,host:1").
  int Base = std::string(GetParam()).rfind("cuda:1", 0) == 0 ? 1 : 0;
  std::vector<SeenPrefetch> Want;
  unsigned long long X0 = ~0ull, Y0 = ~0ull;
  for (const SeenPrefetch &P : Seen)
    (P.ReadMostly ? X0 : Y0) = std::min(P.ReadMostly ? X0 : Y0, P.Ptr);
  ASSERT_NE(X0, ~0ull) << "x was never prefetched read-mostly";
  ASSERT_NE(Y0, ~0ull) << "y was never prefetched";
  for (int G = 0; G < gpus(); ++G) {
    long long Lo = (long long)N * G / devices(), Hi = (long long)N * (G + 1) / devices();
    size_t Bytes = size_t(Hi - Lo) * sizeof(float);
    Want.push_back({X0 + Lo * sizeof(float), Bytes, G + Base, 1});
    Want.push_back({Y0 + Lo * sizeof(float), Bytes, G + Base, 0});
  }
  std::sort(Want.begin(), Want.end());
  EXPECT_EQ(Seen.size(), Want.size());
  for (size_t I = 0; I < std::min(Seen.size(), Want.size()); ++I)
    EXPECT_TRUE(Seen[I] == Want[I]) << "prefetch " << I << ": GPU " << Seen[I].Gpu << " +"
                                    << Seen[I].Ptr - (Seen[I].ReadMostly ? X0 : Y0) << " "
                                    << Seen[I].Bytes << " bytes, read-mostly "
                                    << Seen[I].ReadMostly;
}

// The same through the kernel's own `#pragma jacc location(...)` line, no jacc_set_location.
TEST_P(CudaMockTest, AKernelsLocationPragmaRunsItOnThoseGpus) {
  std::string File =
      ::testing::TempDir() + "jacc-cuda-locations-pragma-" + std::to_string(::getpid()) + ".conf";
  std::FILE *F = std::fopen(File.c_str(), "w");
  ASSERT_TRUE(F);
  std::fputs("location root virtual\nlocation g cuda all\nlocation h host all\n"
             "hierarchy root + g, h\n",
             F);
  std::fclose(F);
  jacc::ScopedEnv Config("JACC_CONFIG", File.c_str());
  restartWith(saxpyShareHook);
  GpuShares.clear();
  int N = 1000;
  std::string Src = std::string("#pragma jacc location(g)\n") + Saxpy;
  ASSERT_NO_FATAL_FAILURE(pushSaxpyAndCheck(N, Src.c_str()));
  std::vector<std::pair<long long, long long>> Expected;
  for (int D = 0; D < gpus(); ++D)
    Expected.emplace_back(N * D / gpus(), N * (D + 1) / gpus() - 1);
  std::sort(GpuShares.begin(), GpuShares.end());
  if (gpus() < devices())
    EXPECT_EQ(GpuShares, Expected);
  else
    EXPECT_TRUE(GpuShares.empty() || GpuShares == Expected);
  std::remove(File.c_str());
}

/// The name of jacc's device 0, a GPU in every configuration ("cuda:1" first in "cuda:1,host:1").
std::string firstGpu(const char *Config) {
  return std::string(Config).rfind("cuda:1", 0) == 0 ? "cuda:1" : "cuda:0";
}

// Gecko's memory at a location on GPUs: data mapped at the first GPU's location gets a copy on
// that GPU only (one device allocation per array; none on the other GPU, or on the host device
// of "cuda:1,host:1", which has no address for it), and a kernel there runs on it; a kernel on
// every device fails. Data at the host device's location allocates nothing on the GPU.
TEST_P(CudaMockTest, DataAtAGpusLocationHasACopyOnThatGpuOnly) {
  restartWith(saxpyHook);
  auto Allocs = mockFunction<int (*)()>("mockcuda_device_alloc_count");
  std::string Gpu = firstGpu(GetParam());
  int N = 1000;
  size_t Bytes = N * sizeof(float);
  float A = 3;
  std::vector<float> X(N), Y(N, 2);
  for (int I = 0; I < N; ++I)
    X[I] = I;
  float *Yp = Y.data(), *Xp = X.data();
  jacc_arg Args[] = {{"float *y", &Yp}, {"const float *x", &Xp}, {"float a", &A}, {"int n", &N}};
  ASSERT_JACC(jacc_set_data_location(Gpu.c_str()));
  int Before = Allocs();
  jacc_reset_stats();
  ASSERT_JACC(jacc_copyin(Xp, Bytes));
  ASSERT_JACC(jacc_copyin(Yp, Bytes));
  EXPECT_EQ(Allocs() - Before, 2);
  jacc_stats St;
  ASSERT_JACC(jacc_get_stats(&St));
  EXPECT_EQ(St.bytes_host_to_device, 2 * Bytes);
  for (int D = 0; D < devices(); ++D) {
    acc_set_device_num(D, acc_device_default);
    EXPECT_EQ(acc_deviceptr(Xp) != nullptr, D == 0) << "device " << D;
  }
  acc_set_device_num(0, acc_device_default);
  if (devices() > 1) {
    EXPECT_EQ(jacc_kernel_push(Saxpy, 4, Args, JACC_DEFAULT), JACC_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(jacc_last_error()).find("device 1 has no copy of it"),
              std::string::npos)
        << jacc_last_error();
  }
  int Launches = launchCount();
  std::string Src = "#pragma jacc location(" + Gpu + ")\n" + Saxpy;
  ASSERT_JACC(jacc_kernel_push(Src.c_str(), 4, Args, JACC_DEFAULT));
  EXPECT_EQ(launchCount() - Launches, 1); // on that GPU alone
  ASSERT_JACC(jacc_copyout(Yp, Bytes));
  ASSERT_JACC(jacc_delete(Xp, Bytes));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Y[I], 3.0f * I + 2) << I;
  if (devices() == gpus())
    return;
  // "cuda:1,host:1": at the host device, nothing on the GPU, which runs nothing.
  ASSERT_JACC(jacc_set_data_location("host:1"));
  Before = Allocs();
  std::fill(Y.begin(), Y.end(), 2.0f);
  ASSERT_JACC(jacc_copyin(Xp, Bytes));
  ASSERT_JACC(jacc_copyin(Yp, Bytes));
  EXPECT_EQ(Allocs() - Before, 0);
  Launches = launchCount();
  Src = "#pragma jacc location(host:1)\n" + std::string(Saxpy);
  ASSERT_JACC(jacc_kernel_push(Src.c_str(), 4, Args, JACC_DEFAULT));
  EXPECT_EQ(launchCount(), Launches);
  ASSERT_JACC(jacc_copyout(Yp, Bytes));
  ASSERT_JACC(jacc_delete(Xp, Bytes));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Y[I], 3.0f * I + 2) << I;
  ASSERT_JACC(jacc_set_data_location(nullptr));
}

// JACC_MEMORY=unified at a location: one managed block when the location has a GPU (Gecko's
// allocation algorithm), the program's own memory when its devices are host devices only.
TEST_P(CudaMockTest, UnifiedDataAtALocationIsManagedOnlyWithAGpu) {
  jacc::ScopedEnv Memory("JACC_MEMORY", "unified");
  restartWith(saxpyHook);
  auto Managed = mockFunction<int (*)()>("mockcuda_managed_alloc_count");
  std::string Gpu = firstGpu(GetParam());
  int N = 1000;
  std::vector<float> X(N, 1);
  for (const std::string &Where : {Gpu, std::string("host:1")}) {
    if (Where == "host:1" && devices() == gpus())
      continue; // no host device in this configuration
    ASSERT_JACC(jacc_set_data_location(Where.c_str()));
    int Before = Managed();
    ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
    EXPECT_EQ(Managed() - Before, Where == Gpu ? 1 : 0) << Where;
    ASSERT_JACC(jacc_delete(X.data(), N * sizeof(float)));
  }
  ASSERT_JACC(jacc_set_data_location(nullptr));
}

const char *const Stencil1D = "#pragma acc parallel loop present(in, out)\n"
                              "for (int i = 1; i < n - 1; i++)\n"
                              "  out[i] = in[i - 1] + in[i] + in[i + 1];\n";

/// The generated stencil entries: (int n, const double *in, double *out, team), the split one
/// with (..., long long mlo_out, long long mhi_out, team): the owned rows of out.
void stencilHook(const char *Entry, unsigned, unsigned, void **P) {
  int N = param<int>(P, 0);
  const double *In = param<const double *>(P, 1);
  double *Out = param<double *>(P, 2);
  long long Lb = 0, Ub = N - 1;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    jacc_cuda_team T = param<jacc_cuda_team>(P, 5);
    ownedRange(param<long long>(P, 3), param<long long>(P, 4), sizeof(double), T, Lb, Ub);
    long long Info[JACC_SPLIT_INFO_WORDS] = {Lb, Ub, sizeof(double), 0, 1, N - 2, 0, 0};
    std::memcpy(T.split_info, Info, sizeof Info);
  }
  for (long long I = std::max(1LL, Lb); I <= Ub && I < N - 1; ++I)
    Out[I] = In[I - 1] + In[I] + In[I + 1];
}

TEST_P(CudaMockTest, StencilTimeLoopFetchesOnlyTheHaloBetweenGpus) {
  setHook(stencilHook);
  int N = 1000, Iters = 8;
  std::vector<double> U(N), V(N, 0.0);
  for (int I = 0; I < N; ++I)
    U[I] = (I * 7) % 13;
  std::vector<double> RU = U, RV = V;
  ASSERT_JACC(jacc_copyin(U.data(), N * sizeof(double)));
  ASSERT_JACC(jacc_copyin(V.data(), N * sizeof(double)));
  double *In = U.data(), *Out = V.data();
  jacc_reset_stats();
  uint64_t Before = 0;
  for (int T = 0; T < Iters; ++T) {
    jacc_arg Args[] = {{"int n", &N}, {"const double *in", &In}, {"double *out", &Out}};
    ASSERT_JACC(jacc_kernel_push(Stencil1D, 3, Args, JACC_FORCE_SPLIT));
    jacc_stats St;
    ASSERT_JACC(jacc_get_stats(&St));
    // From the second step on, each boundary between two devices: one element each way.
    EXPECT_EQ(St.bytes_device_to_device - Before,
              T == 0 ? 0u : uint64_t(devices() - 1) * 2 * sizeof(double))
        << "step " << T;
    Before = St.bytes_device_to_device;
    std::swap(In, Out);
    for (int I = 1; I < N - 1; ++I)
      RV[I] = RU[I - 1] + RU[I] + RU[I + 1];
    std::swap(RU, RV);
  }
  ASSERT_JACC(jacc_copyout(U.data(), N * sizeof(double)));
  ASSERT_JACC(jacc_copyout(V.data(), N * sizeof(double)));
  // After an even number of steps the result is in U again.
  EXPECT_EQ(U, RU);
  EXPECT_EQ(V, RV);
}

const char *const ColumnStencil = "#pragma acc parallel loop present(in, out)\n"
                                  "for (int i = 1; i < c - 1; i++)\n"
                                  "  for (int j = 0; j < r; j++)\n"
                                  "    out[j][i] = in[j][i - 1] + in[j][i] + in[j][i + 1];\n";

/// The generated column stencil entries: (int r, int c, const double *in, double *out, team),
/// the split one with (..., long long mlo_out, long long mhi_out, team): the owned columns of
/// out, [c * share_begin / scale, c * share_end / scale).
void columnStencilHook(const char *Entry, unsigned, unsigned, void **P) {
  int R = param<int>(P, 0), C = param<int>(P, 1);
  const double *In = param<const double *>(P, 2);
  double *Out = param<double *>(P, 3);
  long long Lb = 0, Ub = C - 1;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    jacc_cuda_team T = param<jacc_cuda_team>(P, 6);
    Lb = C * T.share_begin / T.share_scale;
    Ub = C * T.share_end / T.share_scale - 1;
    long long Info[JACC_SPLIT_INFO_WORDS] = {
        Lb, Ub, sizeof(double), C * (long long)sizeof(double), 1, C - 2, 0, 0};
    std::memcpy(T.split_info, Info, sizeof Info);
  }
  for (long long I = std::max(1LL, Lb); I <= Ub && I < C - 1; ++I)
    for (long long J = 0; J < R; ++J)
      Out[J * C + I] = In[J * C + I - 1] + In[J * C + I] + In[J * C + I + 1];
}

int copy2DCount() {
  return mockFunction<int (*)()>("mockcuda_copy2d_count")();
}

TEST_P(CudaMockTest, ColumnSplitStencilFetchesStridedHaloColumnsBetweenGpus) {
  setHook(columnStencilHook);
  int R = 30, C = 200, Iters = 6;
  std::vector<double> U(R * C), V(R * C, 0.0);
  for (int I = 0; I < R * C; ++I)
    U[I] = (I * 7) % 13;
  std::vector<double> RU = U, RV = V;
  ASSERT_JACC(jacc_copyin(U.data(), U.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(V.data(), V.size() * sizeof(double)));
  double *In = U.data(), *Out = V.data();
  jacc_reset_stats();
  uint64_t Before = 0;
  int Copies = copy2DCount();
  for (int T = 0; T < Iters; ++T) {
    jacc_arg Args[] = {
        {"int r", &R}, {"int c", &C}, {"const double (*in)[c]", &In}, {"double (*out)[c]", &Out}};
    ASSERT_JACC(jacc_kernel_push(ColumnStencil, 4, Args, JACC_FORCE_SPLIT));
    jacc_stats St;
    ASSERT_JACC(jacc_get_stats(&St));
    // From the second step on, each boundary between two GPUs: one column of R rows each way,
    // in one strided copy.
    EXPECT_EQ(St.bytes_device_to_device - Before,
              T == 0 ? 0u : uint64_t(devices() - 1) * 2 * R * sizeof(double))
        << "step " << T;
    if (gpus() > 1) {
      // Staged without peer access: one strided copy into pinned host memory, one out of it.
      int PerCopy = std::getenv("MOCKCUDA_NO_PEER") ? 2 : 1;
      EXPECT_EQ(copy2DCount() - Copies, T == 0 ? 0 : (gpus() - 1) * 2 * PerCopy) << "step " << T;
    }
    Copies = copy2DCount();
    Before = St.bytes_device_to_device;
    std::swap(In, Out);
    for (int J = 0; J < R; ++J)
      for (int I = 1; I < C - 1; ++I)
        RV[J * C + I] = RU[J * C + I - 1] + RU[J * C + I] + RU[J * C + I + 1];
    std::swap(RU, RV);
  }
  // The copyout gathers each GPU's columns of every row in a strided copy (a few per GPU where
  // the unwritten edge columns join its runs), not one copy per row.
  Copies = copy2DCount();
  ASSERT_JACC(jacc_copyout(U.data(), U.size() * sizeof(double)));
  if (gpus() > 1) {
    EXPECT_GE(copy2DCount() - Copies, gpus());
    EXPECT_LE(copy2DCount() - Copies, 2 * gpus());
  }
  ASSERT_JACC(jacc_copyout(V.data(), V.size() * sizeof(double)));
  EXPECT_EQ(U, RU);
  EXPECT_EQ(V, RV);
}

/// An alternating-direction sweep in two dimensions (NPB BT's and SP's solvers): a recurrence
/// along each row, parallel over rows, then along each column, parallel over columns.
const char *const RowSweep = "#pragma acc parallel loop present(a)\n"
                             "for (int j = 0; j < r; j++)\n"
                             "  for (int i = 1; i < c; i++)\n"
                             "    a[j][i] = 0.5 * (a[j][i] + a[j][i - 1]);\n";
const char *const ColumnSweep = "#pragma acc parallel loop present(a)\n"
                                "for (int i = 0; i < c; i++)\n"
                                "  for (int j = 1; j < r; j++)\n"
                                "    a[j][i] = 0.5 * (a[j][i] + a[j - 1][i]);\n";
/// Which of the two the next launch is (pushes without async complete before they return).
std::atomic<bool> SweepingColumns{false};

/// The sweeps' entries: (int r, int c, double *a, team), the split one (..., long long mlo_a,
/// long long mhi_a, team). Split: the row sweep owns rows [r * begin / scale, r * end / scale)
/// (unit: a row), the column sweep the same part of the columns (unit: an element, pitch: a row),
/// reported in split_info as the entries' prologues do.
void sweepHook(const char *Entry, unsigned, unsigned, void **P) {
  int R = param<int>(P, 0), C = param<int>(P, 1);
  double *A = param<double *>(P, 2);
  bool Columns = SweepingColumns.load();
  long long Count = Columns ? C : R, Lb = 0, Ub = Count - 1;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    jacc_cuda_team T = param<jacc_cuda_team>(P, 5);
    Lb = Count * T.share_begin / T.share_scale;
    Ub = Count * T.share_end / T.share_scale - 1;
    long long Row = C * (long long)sizeof(double);
    long long Info[JACC_SPLIT_INFO_WORDS] = {
        Lb, Ub,    Columns ? (long long)sizeof(double) : Row, Columns ? Row : 0, 0, Count - 1,
        Lb, Ub + 1};
    std::memcpy(T.split_info, Info, sizeof Info);
  }
  for (long long K = Lb; K <= Ub; ++K) {
    if (Columns)
      for (int J = 1; J < R; ++J)
        A[J * C + K] = 0.5 * (A[J * C + K] + A[(J - 1) * C + K]);
    else
      for (int I = 1; I < C; ++I)
        A[K * C + I] = 0.5 * (A[K * C + I] + A[K * C + I - 1]);
  }
}

const char *const PlanesKernel = "#pragma acc parallel loop present(u, r)\n"
                                 "for (int k = 0; k < 12; k++)\n"
                                 "  for (int j = 0; j < 12; j++)\n"
                                 "    for (int m = 0; m < 2; m++)\n"
                                 "      for (int i = 0; i < 8; i++)\n"
                                 "        r[m][k][j][i] = 2 * u[m][k][j][i];\n";
const char *const BoundaryPlaneKernel =
    "#pragma acc parallel loop present(u, r)\n"
    "for (int j = 0; j < 12; j++)\n"
    "  for (int m = 0; m < 2; m++)\n"
    "    for (int i = 0; i < 8; i++)\n"
    "      r[m][kb][j][i] = r[m][kb][j][i] - u[m][kb + 1][j][i] + u[m][kb + 2][j][i];\n";

/// Which of the two kernels the next launch runs: the planes (false) or the boundary plane.
std::atomic<bool> OnBoundaryPlane{false};

/// Their entries: planes (u, r, team), boundary plane (int kb, u, r, team); split, the mapping
/// bounds of r before the team. r[2][12][12][8] is split along k (the planes) or j (the boundary
/// plane, whose writes stay within the plane kb: the window its split information reports, as
/// the generated prologue does).
void planesHook(const char *Entry, unsigned, unsigned, void **P) {
  bool Boundary = OnBoundaryPlane.load();
  int Kb = Boundary ? param<int>(P, 0) : 0;
  unsigned At = Boundary ? 1 : 0;
  const double *U = param<const double *>(P, At);
  double *R = param<double *>(P, At + 1);
  long long Lb = 0, Ub = 11;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    jacc_cuda_team T = param<jacc_cuda_team>(P, At + 4);
    Lb = 12 * T.share_begin / T.share_scale;
    Ub = 12 * T.share_end / T.share_scale - 1;
    const long long Row = 8 * sizeof(double), Plane = 12 * Row, Block = 12 * Plane;
    long long Info[JACC_SPLIT_INFO_WORDS] = {
        Lb, Ub, Boundary ? Row : Plane, Boundary ? Plane : Block, 0, 11, Lb, Ub + 1};
    if (Boundary) {
      long long Window[4] = {Plane, Block, Kb, Kb + 1};
      std::memcpy(Info + JACC_SPLIT_INFO_WINDOWS, Window, sizeof Window);
    }
    std::memcpy(T.split_info, Info, sizeof Info);
  }
  auto At4 = [](int M, int K, int J, int I) { return ((M * 12 + K) * 12 + J) * 8 + I; };
  for (long long X = Lb; X <= Ub; ++X)
    for (int M = 0; M < 2; ++M)
      for (int I = 0; I < 8; ++I) {
        if (Boundary)
          R[At4(M, Kb, X, I)] += U[At4(M, Kb + 2, X, I)] - U[At4(M, Kb + 1, X, I)];
        else
          for (int J = 0; J < 12; ++J)
            R[At4(M, X, J, I)] = 2 * U[At4(M, X, J, I)];
      }
}

// Boundary planes on GPUs: a plane split along j after the planes were split along k moves that
// plane's rows, not the band of every plane (DemandExchangeTest on host devices).
TEST_P(CudaMockTest, ABoundaryPlaneMovesThatPlaneOnly) {
  setHook(planesHook);
  std::vector<double> U(2 * 12 * 12 * 8), Rv(U.size(), 0.0);
  for (size_t I = 0; I < U.size(); ++I)
    U[I] = double((I * 13) % 29);
  double *u = U.data(), *r = Rv.data();
  int kb = 0;
  ASSERT_JACC(jacc_copyin(u, U.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(r, Rv.size() * sizeof(double)));
  jacc_arg Planes[] = {{"const double (*u)[12][12][8]", &u}, {"double (*r)[12][12][8]", &r}};
  jacc_arg Boundary[] = {{"int kb", &kb}, Planes[0], Planes[1]};
  uint64_t D = devices(), OthersRows = 2 * (12 - 12 / D) * 8 * sizeof(double);
  jacc_reset_stats();
  for (int Step = 0; Step < 3; ++Step) {
    jacc_stats S0, S1, S2;
    ASSERT_JACC(jacc_get_stats(&S0));
    OnBoundaryPlane = false;
    ASSERT_JACC(jacc_kernel_push(PlanesKernel, 2, Planes, JACC_FORCE_SPLIT));
    ASSERT_JACC(jacc_get_stats(&S1));
    OnBoundaryPlane = true;
    ASSERT_JACC(jacc_kernel_push(BoundaryPlaneKernel, 3, Boundary, JACC_FORCE_SPLIT));
    ASSERT_JACC(jacc_get_stats(&S2));
    EXPECT_EQ(S1.bytes_device_to_device - S0.bytes_device_to_device, Step == 0 ? 0 : OthersRows)
        << "planes, step " << Step;
    EXPECT_EQ(S2.bytes_device_to_device - S1.bytes_device_to_device, OthersRows)
        << "boundary plane, step " << Step;
  }
  std::vector<double> Want(U.size());
  for (size_t I = 0; I < U.size(); ++I) {
    size_t K = I / (12 * 8) % 12;
    Want[I] = 2 * U[I] - (K == 0 ? U[I + 12 * 8] - U[I + 2 * 12 * 8] : 0);
  }
  ASSERT_JACC(jacc_copyout(r, Rv.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(u, U.size() * sizeof(double)));
  EXPECT_EQ(Rv, Want);
}

/// Which of the two the next launch runs.
std::atomic<bool> CopyingBack{false};

/// The flat Jacobi's entries: (int r, int c, double *a, double *anew, team), the split one with
/// (..., long long mlo, long long mhi, team). As the generated prologue does: the device owns
/// the elements [r c begin / scale, r c end / scale) of the array it writes, runs the rows that
/// write any of them (narrowed through the stride c) and writes only those it owns.
void flatJacobiHook(const char *Entry, unsigned, unsigned, void **P) {
  int R = param<int>(P, 0), C = param<int>(P, 1);
  double *A = param<double *>(P, 2), *New = param<double *>(P, 3);
  bool Back = CopyingBack.load();
  long long Lb = 0, Ub = (long long)R * C - 1, First = 1, Last = R - 2;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    jacc_cuda_team T = param<jacc_cuda_team>(P, 6);
    Lb = (long long)R * C * T.share_begin / T.share_scale;
    Ub = (long long)R * C * T.share_end / T.share_scale - 1;
    while (First <= R - 2 && First * C + C - 2 < Lb)
      ++First;
    while (Last >= First && Last * C + 1 > Ub)
      --Last;
    long long Info[JACC_SPLIT_INFO_WORDS] = {
        Lb, Ub, sizeof(double), 0, C + 1, (R - 2LL) * C + C - 2, First - 1, Last};
    std::memcpy(T.split_info, Info, sizeof Info);
  }
  for (long long I = First; I <= Last; ++I)
    for (long long J = 1; J < C - 1; ++J) {
      long long E = I * C + J;
      if (E < Lb || E > Ub)
        continue;
      if (Back)
        A[E] = New[E];
      else
        New[E] = 0.25 * (A[E - C] + A[E + C] + A[E - 1] + A[E + 1]);
    }
}

// Linearized indices on GPUs: the sweeps move the halo rows their reads reach, as between host
// devices (DemandExchangeTest.LinearizedJacobiSweepsMoveTheHaloRowsTheirReadsReach); the read
// extents come from the probe of the generated code, the CUDA entries compile with NVRTC.
TEST_P(CudaMockTest, LinearizedJacobiFetchesTheHaloRowsBetweenGpus) {
  setHook(flatJacobiHook);
  int r = 60, c = 40;
  std::vector<double> Av(r * c), Nv(r * c, 0.0);
  for (int I = 0; I < r * c; ++I)
    Av[I] = (I * 37) % 101;
  std::vector<double> Ref = Av, RefNew = Nv;
  double *a = Av.data(), *anew = Nv.data();
  ASSERT_JACC(jacc_copyin(a, Av.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyin(anew, Nv.size() * sizeof(double)));
  jacc_arg Args[] = {{"int r", &r}, {"int c", &c}, {"double *a", &a}, {"double *anew", &anew}};
  uint64_t Halo = uint64_t(devices() - 1) * 2 * (c - 1) * sizeof(double);
  jacc_reset_stats();
  for (int Sweep = 0; Sweep < 4; ++Sweep) {
    jacc_stats Before, After;
    ASSERT_JACC(jacc_get_stats(&Before));
    CopyingBack = false;
    ASSERT_JACC(jacc_kernel_push(jacc_patterns::FlatJacobiSrc, 4, Args, JACC_FORCE_SPLIT));
    CopyingBack = true;
    ASSERT_JACC(jacc_kernel_push(jacc_patterns::FlatCopyBackSrc, 4, Args, JACC_FORCE_SPLIT));
    ASSERT_JACC(jacc_get_stats(&After));
    EXPECT_EQ(After.bytes_device_to_device - Before.bytes_device_to_device, Sweep == 0 ? 0 : Halo)
        << "sweep " << Sweep;
    for (int I = 1; I < r - 1; ++I)
      for (int J = 1; J < c - 1; ++J)
        RefNew[I * c + J] = 0.25 * (Ref[(I - 1) * c + J] + Ref[(I + 1) * c + J] +
                                    Ref[I * c + J - 1] + Ref[I * c + J + 1]);
    for (int I = 1; I < r - 1; ++I)
      for (int J = 1; J < c - 1; ++J)
        Ref[I * c + J] = RefNew[I * c + J];
  }
  ASSERT_JACC(jacc_copyout(a, Av.size() * sizeof(double)));
  ASSERT_JACC(jacc_copyout(anew, Nv.size() * sizeof(double)));
  EXPECT_EQ(Av, Ref);
  EXPECT_EQ(Nv, RefNew);
}

// JACC_MALLOC=every on GPUs: an acc_malloc block gets a copy on every device and the saxpy
// given it by deviceptr splits; what acc_memcpy_to_device wrote on device 0 is fetched by each
// other device for its rows, and acc_memcpy_from_device gathers their results back.
/// The saxpy entries over deviceptr y, their parameters in the source's order: (int n, float a,
/// const float *x, float *y, team), the split entry's (..., mlo_y, mhi_y, team).
void deviceptrSaxpyHook(const char *Entry, unsigned, unsigned, void **P) {
  int N = param<int>(P, 0);
  float A = param<float>(P, 1);
  const float *X = param<const float *>(P, 2);
  float *Y = param<float *>(P, 3);
  long long Lb = 0, Ub = N - 1;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0)
    splitRows(P, 4, sizeof(float), N, param<jacc_cuda_team>(P, 6), 0, Lb, Ub);
  for (long long I = std::max(0LL, Lb); I <= Ub && I < N; ++I)
    Y[I] = A * X[I] + Y[I];
}

/// The deviceptr saxpy on an acc_malloc block: acc_memcpy_to_device, one forced-split push,
/// acc_memcpy_from_device, results checked; the statistics of those three calls.
jacc_stats saxpyOnMallocMemory() {
  int N = 1200;
  float a = 2.0f;
  size_t Bytes = N * sizeof(float);
  std::vector<float> Xv(N), Init(N), Out(N, -1.0f);
  for (int I = 0; I < N; ++I) {
    Xv[I] = float(I);
    Init[I] = 1.0f + I % 7;
  }
  float *x = Xv.data();
  jacc_stats St{};
  EXPECT_JACC(jacc_copyin(x, Bytes));
  float *y = static_cast<float *>(acc_malloc(Bytes));
  EXPECT_NE(y, nullptr);
  if (!y)
    return St;
  jacc_reset_stats();
  acc_memcpy_to_device(y, Init.data(), Bytes);
  jacc_arg Args[] = {{"int n", &N}, {"float a", &a}, {"const float *x", &x}, {"float *y", &y}};
  EXPECT_JACC(jacc_kernel_push("#pragma acc parallel loop deviceptr(y) present(x)\n"
                               "for (int i = 0; i < n; i++)\n"
                               "  y[i] = a * x[i] + y[i];\n",
                               4, Args, JACC_FORCE_SPLIT));
  acc_memcpy_from_device(Out.data(), y, Bytes);
  EXPECT_JACC(jacc_get_stats(&St));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], a * Xv[I] + Init[I]) << I;
  acc_free(y);
  EXPECT_JACC(jacc_delete(x, Bytes));
  return St;
}

TEST_P(CudaMockTest, MallocMemoryWithCopiesSplitsDeviceptrKernels) {
  jacc::ScopedEnv Malloc("JACC_MALLOC", "every");
  restartWith(deviceptrSaxpyHook);
  jacc_stats St = saxpyOnMallocMemory();
  uint64_t Others = 1200 * sizeof(float) - uint64_t(1200 / devices()) * sizeof(float);
  EXPECT_EQ(St.bytes_device_to_device, 2 * Others)
      << "each other device fetches its rows of y, then device 0 gathers their results";
}

// JACC_MALLOC=auto, the default: blocks get copies as with every, unless a CUDA library
// (cuBLAS, cuFFT, ...) is loaded, which may write a block the program hands it behind jacc's
// back: then the block stays its GPU's alone, and its kernels run there.
TEST_P(CudaMockTest, MallocMemoryStaysOnItsGpuWhileACudaLibraryIsLoaded) {
  jacc::ScopedEnv Malloc("JACC_MALLOC", nullptr);
  restartWith(deviceptrSaxpyHook);
  uint64_t Others = 1200 * sizeof(float) - uint64_t(1200 / devices()) * sizeof(float);
  jacc_stats St = saxpyOnMallocMemory();
  EXPECT_EQ(St.bytes_device_to_device, 2 * Others) << "no CUDA library: copies";
  void *Library = dlopen(JACC_FAKE_CUDA_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(Library, nullptr) << dlerror();
  St = saxpyOnMallocMemory();
  EXPECT_EQ(St.bytes_device_to_device, 0u) << "the block's GPU alone";
  EXPECT_EQ(St.kernels_pushed, 1u);
  dlclose(Library);
  St = saxpyOnMallocMemory();
  EXPECT_EQ(St.bytes_device_to_device, 2 * Others) << "the library unloaded: copies again";
}

// The design carries to GPUs: split sweeps move exactly the part of the array that changes
// owner between the axes, as on host devices (LaunchModeTest), here between fake GPUs.
TEST_P(CudaMockTest, SplitSweepsMoveThePartThatChangesOwnerEachWay) {
  setHook(sweepHook);
  constexpr int R = 48, C = 48;
  std::vector<double> A(R * C);
  for (int I = 0; I < R * C; ++I)
    A[I] = (I * 7 % 23) / 8.0;
  std::vector<double> Ref = A;
  int r = R, c = C;
  double(*a)[C] = reinterpret_cast<double(*)[C]>(A.data());
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  jacc_arg Args[] = {{"int r", &r}, {"int c", &c}, {"double (*a)[c]", &a}};
  jacc_reset_stats();
  uint64_t D = devices(), Turn = R * C * sizeof(double) * (D - 1) / D;
  for (int Step = 0; Step < 3; ++Step) {
    jacc_stats Before, After;
    ASSERT_JACC(jacc_get_stats(&Before));
    SweepingColumns = false;
    ASSERT_JACC(jacc_kernel_push(RowSweep, 3, Args, JACC_FORCE_SPLIT));
    SweepingColumns = true;
    ASSERT_JACC(jacc_kernel_push(ColumnSweep, 3, Args, JACC_FORCE_SPLIT));
    ASSERT_JACC(jacc_get_stats(&After));
    EXPECT_EQ(After.bytes_device_to_device - Before.bytes_device_to_device,
              Step == 0 ? Turn : 2 * Turn)
        << "step " << Step;
    for (int J = 0; J < R; ++J)
      for (int I = 1; I < C; ++I)
        Ref[J * C + I] = 0.5 * (Ref[J * C + I] + Ref[J * C + I - 1]);
    for (int I = 0; I < C; ++I)
      for (int J = 1; J < R; ++J)
        Ref[J * C + I] = 0.5 * (Ref[J * C + I] + Ref[(J - 1) * C + I]);
  }
  jacc_stats St;
  ASSERT_JACC(jacc_get_stats(&St));
  EXPECT_EQ(St.split_launches, 6u) << "forced: split even on one device";
  ASSERT_JACC(jacc_copyout(A.data(), A.size() * sizeof(double)));
  EXPECT_EQ(A, Ref);
}

/// What the next launch computes: the builder by rows (0) or by columns (1, its twin), or the
/// sweep (-1). The test says which form it expects the runtime to have chosen.
std::atomic<int> BuilderForm{-1};

/// The entries of both kernels and the twin: (int r, double *a, double *l, ..., team). Split:
/// the part [r * begin / scale, r * end / scale) of the rows or the columns, in split_info.
void builderHook(const char *Entry, unsigned, unsigned, void **P) {
  int R = param<int>(P, 0);
  double *A = param<double *>(P, 1), *L = param<double *>(P, 2);
  int Form = BuilderForm.load();
  bool Columns = Form != 0;
  long long Lb = 0, Ub = R - 1;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    jacc_cuda_team T = param<jacc_cuda_team>(P, 5);
    Lb = R * T.share_begin / T.share_scale;
    Ub = R * T.share_end / T.share_scale - 1;
    long long Row = R * (long long)sizeof(double);
    long long Info[JACC_SPLIT_INFO_WORDS] = {
        Lb, Ub, Columns ? (long long)sizeof(double) : Row, Columns ? Row : 0, 0, R - 1, Lb, Ub + 1};
    std::memcpy(T.split_info, Info, sizeof Info);
  }
  for (long long K = Lb; K <= Ub; ++K)
    for (int X = 0; X < R; ++X) {
      if (Form == -1 && X > 0)
        A[X * R + K] = A[X * R + K] - L[X * R + K] * A[(X - 1) * R + K];
      else if (Form == 0)
        L[K * R + X] = 0.25 + 0.5 * A[K * R + X];
      else if (Form == 1)
        L[X * R + K] = 0.25 + 0.5 * A[X * R + K];
    }
}

// Split twins on GPUs: in a solver step (SolverStep.h) the builder comes to split by columns, as
// the sweep does, and from then on nothing moves between the devices (LaunchModeTest on host
// devices).
TEST_P(CudaMockTest, ABuilderComesToSplitAlongTheAxisItsSweepSplits) {
  setHook(builderHook);
  constexpr int N = 48;
  std::vector<double> A(N * N), L(N * N, 0.0);
  for (int I = 0; I < N * N; ++I)
    A[I] = (I * 7 % 23) / 8.0;
  std::vector<double> Ref = A;
  int r = N;
  double(*a)[N] = reinterpret_cast<double(*)[N]>(A.data());
  double(*l)[N] = reinterpret_cast<double(*)[N]>(L.data());
  ASSERT_JACC(jacc_copyin(A.data(), A.size() * sizeof(double)));
  ASSERT_JACC(jacc_create(L.data(), L.size() * sizeof(double)));
  jacc_arg Args[] = {{"int r", &r}, {"double (*a)[r]", &a}, {"double (*l)[r]", &l}};
  uint64_t D = devices(), Block = uint64_t(N - N / D) * (N / D) * sizeof(double) * D;
  for (int Step = 0; Step < 4; ++Step) {
    jacc_stats Before, After;
    ASSERT_JACC(jacc_get_stats(&Before));
    BuilderForm = Step == 0 ? 0 : 1;
    ASSERT_JACC(jacc_kernel_push(jacc_solver_step::BuildAlongRowsSrc, 3, Args, JACC_FORCE_SPLIT));
    BuilderForm = -1;
    ASSERT_JACC(jacc_kernel_push(jacc_solver_step::SweepDownColumnsSrc, 3, Args, JACC_FORCE_SPLIT));
    ASSERT_JACC(jacc_get_stats(&After));
    EXPECT_EQ(After.bytes_device_to_device - Before.bytes_device_to_device, Step == 0 ? Block : 0)
        << "step " << Step;
    jacc_solver_step::stepOnHost(Ref, N);
  }
  ASSERT_JACC(jacc_copyout(A.data(), A.size() * sizeof(double)));
  ASSERT_JACC(jacc_delete(L.data(), L.size() * sizeof(double)));
  jacc_solver_step::expectNear(A, Ref);
}

const char *const SumKernel = "#pragma acc parallel loop reduction(+:s)\n"
                              "for (int i = 0; i < n; i++) s += x[i];\n";

/// SumKernel (const double *x, int n, double s) over x[i] = i, i < 777, from s = 10.
void pushSumAndCheck() {
  int N = 777;
  std::vector<double> X(N);
  for (int I = 0; I < N; ++I)
    X[I] = I;
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(double)));
  double S = 10;
  const double *Xp = X.data();
  jacc_arg Args[] = {{"const double *x", &Xp}, {"int n", &N}, {"double s", &S}};
  ASSERT_JACC(jacc_kernel_push(SumKernel, 3, Args, JACC_DEFAULT));
  EXPECT_EQ(S, 10 + 776.0 * 777 / 2);
  ASSERT_JACC(jacc_delete(X.data(), N * sizeof(double)));
}

TEST_P(CudaMockTest, ReductionPartialsPerBlockAreCombinedOnceWithTheInitialValue) {
  setHook(reductionHook);
  ASSERT_NO_FATAL_FAILURE(pushSumAndCheck());
}

/// (int n, int j, void *h, team) for `reduction(+:h[j:3])`, `h[j + i % 3] += i`: each block
/// stores its three partial sums in slots B * 4 + 0..2 and the first index j in slot B * 4 + 3.
void arrayReductionHook(const char *, unsigned Grid, unsigned, void **P) {
  jacc_cuda_team T = param<jacc_cuda_team>(P, 3);
  int N = param<int>(P, 0);
  long long J = param<int>(P, 1);
  auto *Slots = static_cast<double *>(T.reduction);
  for (unsigned B = 0; B < Grid; ++B) {
    double Part[3] = {0, 0, 0};
    for (long long I = B; I < N; I += Grid)
      Part[I % 3] += I;
    for (int E = 0; E < 3; ++E)
      Slots[B * 4 + E] = Part[E];
    std::memcpy(&Slots[B * 4 + 3], &J, sizeof J);
  }
}

TEST_P(CudaMockTest, ArraySectionReductionCombinesEachElementsBlockPartials) {
  setHook(arrayReductionHook);
  int N = 600, J = 1;
  std::vector<double> H = {-1, 10, 20, 30, -2};
  double *Hp = H.data();
  jacc_arg Args[] = {{"int n", &N}, {"int j", &J}, {"double *h", &Hp}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop reduction(+:h[j:3])\n"
                               "for (int i = 0; i < n; i++) h[j + i % 3] += i;\n",
                               3, Args, JACC_DEFAULT))
      << jacc_last_error();
  // i % 3 == e for i = e, e + 3, ..., 200 terms each.
  EXPECT_EQ(H, (std::vector<double>{-1, 10 + 3.0 * 199 * 200 / 2, 20 + 3.0 * 199 * 200 / 2 + 200,
                                    30 + 3.0 * 199 * 200 / 2 + 400, -2}));
}

/// Saxpy's data: x and y of N ones each, mapped, and the push's arguments.
struct MappedSaxpy {
  MappedSaxpy(int N, float A) : N(N), A(A), X(N, 1), Y(N, 1) {
    EXPECT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
    EXPECT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
  }
  MappedSaxpy(const MappedSaxpy &) = delete;
  MappedSaxpy &operator=(const MappedSaxpy &) = delete;
  int N;
  float A;
  std::vector<float> X, Y;
  float *Yp = Y.data(), *Xp = X.data();
  jacc_arg Args[4] = {{"float *y", &Yp}, {"const float *x", &Xp}, {"float a", &A}, {"int n", &N}};
};

/// Map x and y (64 ones each), push saxpy with a = 3 Times asynchronously, wait, and return y.
std::vector<float> asyncSaxpy(int Times) {
  MappedSaxpy S(64, 3);
  for (int K = 0; K < Times; ++K)
    EXPECT_JACC(jacc_kernel_push(Saxpy, 4, S.Args, JACC_ASYNC));
  EXPECT_JACC(jacc_wait());
  EXPECT_JACC(jacc_copyout(S.Y.data(), S.N * sizeof(float)));
  EXPECT_JACC(jacc_delete(S.X.data(), S.N * sizeof(float)));
  return S.Y;
}

TEST_P(CudaMockTest, AsyncPushCompletesThroughTheEventPoller) {
  setHook(saxpyHook);
  EXPECT_EQ(asyncSaxpy(5)[0], 1 + 5 * 3.0f);
}

TEST_P(CudaMockTest, ManyTinyAlternatingAsyncAndSyncPushesLoseNoWakeUp) {
  // The hand-offs between this thread and the event pollers (spinning or sleeping): a lost
  // wake-up hangs (meson's timeout fails the suite), a lost or doubled push changes y.
  setHook(saxpyHook);
  const int Pushes = 2000;
  MappedSaxpy S(64, 1);
  for (int P = 0; P < Pushes; ++P) {
    unsigned Flags = (P % 2 ? JACC_ASYNC : JACC_DEFAULT) | (P % 4 < 2 ? JACC_FORCE_SPLIT : 0);
    ASSERT_JACC(jacc_kernel_push(Saxpy, 4, S.Args, Flags));
    if (P % 8 == 7) {
      ASSERT_JACC(jacc_wait());
    }
  }
  ASSERT_JACC(jacc_copyout(S.Y.data(), S.N * sizeof(float)));
  ASSERT_JACC(jacc_delete(S.X.data(), S.N * sizeof(float)));
  for (int I = 0; I < S.N; ++I)
    ASSERT_EQ(S.Y[I], 1.0f + Pushes) << "element " << I;
}

TEST_P(CudaMockTest, AKernelUnfinishedAfterJaccKernelWarnIsNamed) {
  setHook(saxpyHook);
  ASSERT_JACC(jacc_finalize());
  // Each event completes 0.4 s after its launch.
  jacc::ScopedEnv Warn("JACC_KERNEL_WARN", "0.05"), Slow("MOCKCUDA_EVENT_DELAY_US", "400000");
  ASSERT_JACC(jacc_init());
  testing::internal::CaptureStderr();
  EXPECT_EQ(asyncSaxpy(1)[0], 1 + 3.0f);
  std::string Err = testing::internal::GetCapturedStderr();
  // Named with its GPU (cuda:0, or cuda:1 in "cuda:1,host:1").
  EXPECT_NE(Err.find("jacc: warning: kernel 'for (int i = 0; i < n; i++)' on cuda:"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("has not finished"), std::string::npos) << Err;
  ASSERT_JACC(jacc_finalize());
}

// A queued kernel given the device copy of mapped data (deviceptr) uses that mapping: an update
// of it waits for the kernel's event (held pending here), also with one GPU, where the kernel
// is queued like any other.
TEST_P(CudaMockTest, UpdateSelfWaitsForPendingDeviceptrKernel) {
  setHook(saxpyHook);
  auto Hold = mockFunction<void (*)(int)>("mockcuda_hold_events");
  ASSERT_NE(Hold, nullptr);
  int N = 64;
  float A = 3;
  std::vector<float> X(N, 1), Y(N, 1);
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
  float *Yd = static_cast<float *>(acc_deviceptr(Y.data())), *Xp = X.data();
  jacc_arg Args[] = {{"float *y", &Yd}, {"const float *x", &Xp}, {"float a", &A}, {"int n", &N}};
  Hold(1);
  std::atomic<bool> Updated{false};
  // On several GPUs the kernel runs on its owner synchronously: the push itself waits.
  std::thread Update([&] {
    EXPECT_JACC(jacc_kernel_push("#pragma acc parallel loop present(x) deviceptr(y)\n"
                                 "for (int i = 0; i < n; i++)\n"
                                 "  y[i] = a * x[i] + y[i];\n",
                                 4, Args, JACC_ASYNC));
    EXPECT_JACC(jacc_update_self(Y.data(), N * sizeof(float)));
    Updated = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  bool UpdatedBeforeTheKernel = Updated;
  Hold(0);
  Update.join();
  EXPECT_FALSE(UpdatedBeforeTheKernel) << "the update did not wait for the kernel";
  EXPECT_EQ(Y[0], 4.0f);
  ASSERT_JACC(jacc_delete(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_delete(Y.data(), N * sizeof(float)));
}

TEST_P(CudaMockTest, RegionWithBarriersLaunchesCooperatively) {
  int Launches = launchCount();
  int N = 16;
  std::vector<double> A(N, 0);
  ASSERT_JACC(jacc_copyin(A.data(), N * sizeof(double)));
  double *Ap = A.data();
  jacc_arg Args[] = {{"double *a", &Ap}, {"int n", &N}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel\n{\n"
                               "  #pragma acc loop\n  for (int i = 0; i < n; i++) a[i] = i;\n"
                               "  a[0] = -1;\n}\n",
                               2, Args, JACC_DEFAULT));
  EXPECT_EQ(launchCount() - Launches, gpus());
  unsigned Grid = 0, Block = 0;
  int Coop = 0;
  lastLaunch(Grid, Block, Coop);
  EXPECT_EQ(Coop, 1);
  EXPECT_LE(Grid, 4u * (2048 / Block)); // every block resident
  ASSERT_JACC(jacc_delete(A.data(), N * sizeof(double)));
}

// Every form of atomic compiles through NVRTC: the plain entry with structured captures (one an
// exchange, one a min), and the split entry (a max among its updates) with its guards around each
// whole atomic statement. The mocked GPUs run nothing: the launches count the compiled kernels.
TEST_P(CudaMockTest, EveryAtomicFormCompiles) {
  int N = 64;
  std::vector<int> H(8, 0), Y(N, 0);
  std::vector<double> D(4, 1.0);
  for (auto *V : {&H, &Y})
    ASSERT_JACC(jacc_copyin(V->data(), V->size() * sizeof(int)));
  ASSERT_JACC(jacc_copyin(D.data(), D.size() * sizeof(double)));
  int *Hp = H.data(), *Yp = Y.data();
  double *Dp = D.data();
  jacc_arg Args[] = {{"int n", &N}, {"int *h", &Hp}, {"int *y", &Yp}, {"double *d", &Dp}};
  int Before = launchCount();
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(h, y, d)\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  int v; double w;\n"
                               "  #pragma acc atomic capture\n"
                               "  { v = h[i % 4]; h[i % 4] <<= 1; }\n"
                               "  #pragma acc atomic capture\n"
                               "  { d[0] = 2.0 / d[0]; w = d[0]; }\n"
                               "  #pragma acc atomic capture\n"
                               "  { y[i] = h[4]; h[4] = i; }\n"
                               "  #pragma acc atomic capture\n"
                               "  v = (h[5])--;\n"
                               "  #pragma acc atomic capture\n"
                               "  { w = d[1]; d[1] = fmin(0.5 * i, d[1]); }\n"
                               "  y[i] += v + (int)w;\n"
                               "}\n",
                               4, Args, JACC_DEFAULT))
      << jacc_last_error();
  EXPECT_EQ(launchCount() - Before, gpus());
  Before = launchCount();
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(h, y, d)\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  int v;\n"
                               "  #pragma acc atomic update\n"
                               "  h[i % 8] = h[i % 8] ^ i;\n"
                               "  #pragma acc atomic update\n"
                               "  h[i % 8] = h[i % 8] < i ? i : h[i % 8];\n"
                               "  #pragma acc atomic\n"
                               "  d[i % 4] *= 1.5;\n"
                               "  #pragma acc atomic write\n"
                               "  y[i] = i * 3;\n"
                               "  #pragma acc atomic read\n"
                               "  v = h[i % 8];\n"
                               "  y[i] += v;\n"
                               "}\n",
                               4, Args, JACC_FORCE_SPLIT))
      << jacc_last_error();
  EXPECT_EQ(launchCount() - Before, gpus());
  for (auto *V : {&H, &Y})
    ASSERT_JACC(jacc_delete(V->data(), V->size() * sizeof(int)));
  ASSERT_JACC(jacc_delete(D.data(), D.size() * sizeof(double)));
}

// bool, true and false need no include in a kernel; CUDA C++ has them.
TEST_P(CudaMockTest, BoolCompiles) {
  int N = 32;
  std::vector<int> V(N, 1);
  ASSERT_JACC(jacc_copyin(V.data(), N * sizeof(int)));
  int *Vp = V.data();
  bool All = true;
  jacc_arg Args[] = {{"int n", &N}, {"const int *v", &Vp}, {"bool all", &All}};
  int Before = launchCount();
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(v) reduction(&&:all)\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  bool one = v[i] == 1 ? true : false;\n"
                               "  all = all && one;\n"
                               "}\n",
                               3, Args, JACC_DEFAULT))
      << jacc_last_error();
  EXPECT_EQ(launchCount() - Before, gpus());
  ASSERT_JACC(jacc_delete(V.data(), N * sizeof(int)));
}

TEST_P(CudaMockTest, AccOnDeviceCompiles) {
  int N = 32;
  std::vector<int> V(N, 0);
  ASSERT_JACC(jacc_copyin(V.data(), N * sizeof(int)));
  int *Vp = V.data();
  jacc_arg Args[] = {{"int n", &N}, {"int *v", &Vp}};
  int Before = launchCount();
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop present(v)\n"
                               "for (int i = 0; i < n; i++) v[i] = acc_on_device(4);\n",
                               2, Args, JACC_DEFAULT))
      << jacc_last_error();
  EXPECT_EQ(launchCount() - Before, gpus());
  ASSERT_JACC(jacc_delete(V.data(), N * sizeof(int)));
}

// routine bind per device kind, as jacc-translate writes it (translate/RoutineBind.cpp): NVRTC
// compiles the text for the GPUs (CudaCodegenTest checks that it calls gpu_g there); host
// devices call host_g. Split rows: those of a host device hold host_g's values, those of a GPU,
// which runs no hook, are untouched; none holds g's or gpu_g's.
TEST_P(CudaMockTest, RoutineBindingsPerDeviceKindRunOnEachKind) {
  int N = 64;
  std::vector<int> V(N);
  for (int I = 0; I < N; ++I)
    V[I] = I;
  ASSERT_JACC(jacc_copyin(V.data(), N * sizeof(int)));
  int *Vp = V.data();
  jacc_arg Args[] = {{"int n", &N}, {"int *v", &Vp}};
  int Before = launchCount();
  ASSERT_JACC(jacc_kernel_push("#ifdef __CUDACC__ /* routine bind: NVRTC (GPUs) defines it */\n"
                               "#define g gpu_g\n"
                               "#else\n"
                               "#define g host_g\n"
                               "#endif\n"
                               "#pragma acc routine seq\n"
                               "static int host_g(int v) { return v * 104729; }\n"
                               "#pragma acc routine seq\n"
                               "static int gpu_g(int v) { return v * 7919; }\n"
                               "#pragma acc parallel loop present(v)\n"
                               "for (int i = 0; i < n; i++) v[i] = g(v[i]);\n",
                               2, Args, JACC_FORCE_SPLIT))
      << jacc_last_error();
  EXPECT_EQ(launchCount() - Before, gpus());
  ASSERT_JACC(jacc_copyout(V.data(), N * sizeof(int)));
  int OnHost = 0;
  for (int I = 1; I < N; ++I) {
    EXPECT_TRUE(V[I] == I || V[I] == I * 104729) << "v[" << I << "] = " << V[I];
    OnHost += V[I] == I * 104729;
  }
  EXPECT_EQ(OnHost > 0, gpus() < devices()) << "host_g's rows, on a host device only";
}

/// The kernel jacc-translate writes for the C++ construct of golden/cxx_kernels.cpp's math()
/// (std:: overloads as the C function of their type, std::min/max as helpers): a split launch
/// of it on a host device runs the translated C, whose rows must equal C++'s.
const char *const CxxMathKernel =
    "static inline int jacc_max_int(int a, int b) { return a < b ? b : a; }\n"
    "static inline long jacc_max_long(long a, long b) { return a < b ? b : a; }\n"
    "static inline long jacc_min_long(long a, long b) { return b < a ? b : a; }\n"
    "#pragma acc parallel loop\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    f[i] = sqrtf(f[i]) + expf(f[i] * 0.01f) + fabsf(-f[i]) + powf(f[i], 2.0f);\n"
    "    d[i] = sqrt(d[i]) + pow(d[i], 2) + fabs(-d[i]) + floor(d[i] / 3);\n"
    "    l[i] = labs(l[i]) + jacc_max_long(l[i], 3L) + jacc_min_long(l[i], k[i]);\n"
    "    k[i] = abs(k[i]) + jacc_max_int(k[i], 1) + (int)(fminf(f[i], 2.0f));\n"
    "  }\n";

/// Row I of that construct as the C++ source has it.
void cxxMathRow(int I, float *F, double *D, long *L, int *K) {
  F[I] = std::sqrt(F[I]) + std::exp(F[I] * 0.01f) + std::abs(-F[I]) + std::pow(F[I], 2.0f);
  D[I] = std::sqrt(D[I]) + std::pow(D[I], 2) + std::abs(-D[I]) + std::floor(D[I] / 3);
  L[I] = std::abs(L[I]) + std::max(L[I], 3L) + std::min<long>(L[I], K[I]);
  K[I] = std::abs(K[I]) + std::max(K[I], 1) + static_cast<int>(std::fmin(F[I], 2.0f));
}

/// Its entries: (int n, float *f, double *d, long *l, int *k, team), the split one with the
/// mapping bounds of each split array, by name (d, f, k, l), before the team: each array's owned
/// rows (all the same rows), reported in split_info in that order.
void cxxMathHook(const char *Entry, unsigned, unsigned, void **P) {
  int N = param<int>(P, 0);
  auto *F = param<float *>(P, 1);
  auto *D = param<double *>(P, 2);
  auto *L = param<long *>(P, 3);
  auto *K = param<int *>(P, 4);
  long long Lb = 0, Ub = N - 1;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    const long long Units[4] = {sizeof(double), sizeof(float), sizeof(int), sizeof(long)};
    for (int A = 0; A < 4; ++A)
      splitRows(P, 5 + 2 * A, Units[A], N, param<jacc_cuda_team>(P, 13), A, Lb, Ub);
  }
  for (long long I = std::max(0LL, Lb); I <= Ub && I < N; ++I)
    cxxMathRow(int(I), F, D, L, K);
}

// A kernel translated from C++ compiles with NVRTC, its arguments reach the GPUs' entries, and
// split with a host device (cuda:1,host:1), the host device's rows (the translated C run by the
// host JIT) equal what the C++ computes.
TEST_P(CudaMockTest, KernelsTranslatedFromCxxRunOnGpusAndHostDevicesAlike) {
  setHook(cxxMathHook);
  int N = 300;
  std::vector<float> F(N);
  std::vector<double> D(N);
  std::vector<long> L(N);
  std::vector<int> K(N);
  for (int I = 0; I < N; ++I)
    F[I] = I * 0.75f, D[I] = I * 1.5, L[I] = 100 - I, K[I] = 50 - I;
  std::vector<float> RF = F;
  std::vector<double> RD = D;
  std::vector<long> RL = L;
  std::vector<int> RK = K;
  for (int I = 0; I < N; ++I)
    cxxMathRow(I, RF.data(), RD.data(), RL.data(), RK.data());
  ASSERT_JACC(jacc_copyin(F.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(D.data(), N * sizeof(double)));
  ASSERT_JACC(jacc_copyin(L.data(), N * sizeof(long)));
  ASSERT_JACC(jacc_copyin(K.data(), N * sizeof(int)));
  float *Fp = F.data();
  double *Dp = D.data();
  long *Lp = L.data();
  int *Kp = K.data();
  jacc_arg Args[] = {{"int n", &N}, {"float *f", &Fp}, {"double *d", &Dp}, {"long *l", &Lp},
                     {"int *k", &Kp}};
  int Before = launchCount();
  ASSERT_JACC(jacc_kernel_push(CxxMathKernel, 5, Args, JACC_FORCE_SPLIT)) << jacc_last_error();
  EXPECT_EQ(launchCount() - Before, gpus());
  ASSERT_JACC(jacc_copyout(F.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyout(D.data(), N * sizeof(double)));
  ASSERT_JACC(jacc_copyout(L.data(), N * sizeof(long)));
  ASSERT_JACC(jacc_copyout(K.data(), N * sizeof(int)));
  for (int I = 0; I < N; ++I) {
    EXPECT_FLOAT_EQ(F[I], RF[I]) << I;
    EXPECT_DOUBLE_EQ(D[I], RD[I]) << I;
    EXPECT_EQ(L[I], RL[I]) << I;
    EXPECT_EQ(K[I], RK[I]) << I;
  }
}

/// The kernel jacc-translate writes for Field<float>::damp of golden/cxx_templates.cpp: the
/// class template's parameter as a typedef (as jacc.hpp spells float), its data members as
/// arguments declared with T.
const char *const CxxTemplateMemberKernel = "typedef float T;\n"
                                            "#pragma acc parallel loop\n"
                                            "    for (int i = 0; i < n; i++)\n"
                                            "      u[i] = expf(-decay * w) * u[i] + (T)(i % 2);\n";

/// Its entries: (int n, T decay, T w, T *u, team), the split one with u's mapping bounds before
/// the team.
void cxxTemplateMemberHook(const char *Entry, unsigned, unsigned, void **P) {
  int N = param<int>(P, 0);
  float Decay = param<float>(P, 1), W = param<float>(P, 2);
  auto *U = param<float *>(P, 3);
  long long Lb = 0, Ub = N - 1;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0)
    splitRows(P, 4, sizeof(float), N, param<jacc_cuda_team>(P, 6), 0, Lb, Ub);
  for (long long I = std::max(0LL, Lb); I <= Ub && I < N; ++I)
    U[I] = std::exp(-Decay * W) * U[I] + float(I % 2);
}

// A class template member's kernel: arguments declared with the template's typedef reach the
// GPUs' entries with the typedef's sizes, and a host device beside a GPU computes what C++ does.
TEST_P(CudaMockTest, ATemplatesKernelRunsWithItsParametersTypedefs) {
  setHook(cxxTemplateMemberHook);
  int N = 500;
  float Decay = 0.5f, W = 0.25f;
  std::vector<float> U(N), Ref(N);
  for (int I = 0; I < N; ++I)
    U[I] = float(I % 9), Ref[I] = std::exp(-Decay * W) * U[I] + float(I % 2);
  ASSERT_JACC(jacc_copyin(U.data(), N * sizeof(float)));
  float *Up = U.data();
  jacc_arg Args[] = {{"int n", &N}, {"T *u", &Up}, {"T decay", &Decay}, {"T w", &W}};
  int Before = launchCount();
  ASSERT_JACC(jacc_kernel_push(CxxTemplateMemberKernel, 4, Args, JACC_FORCE_SPLIT))
      << jacc_last_error();
  EXPECT_EQ(launchCount() - Before, gpus());
  ASSERT_JACC(jacc_copyout(U.data(), N * sizeof(float)));
  for (int I = 0; I < N; ++I)
    EXPECT_FLOAT_EQ(U[I], Ref[I]) << I;
}

TEST_P(CudaMockTest, CompileServerCrashFailsThePushAndTheNextPushRuns) {
  // The host code of every kernel is compiled in the server, GPUs or not; settings at init.
  jacc::ScopedEnv Fault("JACC_TEST_COMPILE_FAULT", "crash:poison_a");
  ASSERT_JACC(jacc_finalize());
  ASSERT_JACC(jacc_init());
  int N = 1000;
  float A = 2;
  std::vector<float> X(N, 1), Y(N, 1);
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
  float *Yp = Y.data(), *Xp = X.data();
  jacc_arg Poisoned[] = {{"float *y", &Yp}, {"const float *x", &Xp}, {"float poison_a", &A},
                         {"int n", &N}};
  int Before = launchCount();
  EXPECT_EQ(jacc_kernel_push("#pragma acc parallel loop present(x, y)\n"
                             "for (int i = 0; i < n; i++)\n"
                             "  y[i] = poison_a * x[i] + y[i];\n",
                             4, Poisoned, JACC_DEFAULT),
            JACC_ERROR_COMPILE);
  EXPECT_NE(std::string(jacc_last_error()).find("the compile server crashed (signal 11"),
            std::string::npos)
      << jacc_last_error();
  EXPECT_EQ(launchCount(), Before); // nothing ran
  setHook(saxpyHook);
  jacc_arg Args[] = {{"float *y", &Yp}, {"const float *x", &Xp}, {"float a", &A}, {"int n", &N}};
  ASSERT_JACC(jacc_kernel_push(Saxpy, 4, Args, JACC_DEFAULT));
  EXPECT_EQ(launchCount() - Before, gpus());
  ASSERT_JACC(jacc_copyout(Y.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_delete(X.data(), N * sizeof(float)));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Y[I], 3.0f) << I;
}

TEST_P(CudaMockTest, KernelCudaCannotExpressFailsCleanly) {
  int N = 4;
  std::vector<double> A(N, 0);
  ASSERT_JACC(jacc_copyin(A.data(), N * sizeof(double)));
  double *Ap = A.data();
  long double V = 1;
  jacc_arg Args[] = {{"double *a", &Ap}, {"int n", &N}, {"long double v", &V}};
  EXPECT_EQ(jacc_kernel_push("#pragma acc parallel loop\n"
                             "for (int i = 0; i < n; i++) a[i] = v;\n",
                             3, Args, JACC_DEFAULT),
            JACC_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(jacc_last_error()).find("long double"), std::string::npos)
      << jacc_last_error();
  ASSERT_JACC(jacc_delete(A.data(), N * sizeof(double)));
}

// NVHPC refuses long double on GPUs: the push names the workaround.
TEST_P(CudaMockTest, LongDoubleReductionsFailCleanly) {
  int N = 4;
  long double S = 1;
  jacc_arg Args[] = {{"int n", &N}, {"long double s", &S}};
  EXPECT_EQ(jacc_kernel_push(
                "#pragma acc parallel loop reduction(+:s)\nfor (int i = 0; i < n; i++) s += i;\n",
                2, Args, JACC_DEFAULT),
            JACC_ERROR_UNSUPPORTED);
  EXPECT_NE(
      std::string(jacc_last_error())
          .find("reduction(+:s): CUDA devices cannot reduce long double: reduce into a double"),
      std::string::npos)
      << jacc_last_error();
  EXPECT_EQ(S, 1.0L);
}

/// (int n, double _Complex w, double _Complex z, team) for `reduction(+:z)`, `z += i * w`: each
/// block stores its complex partial sum in its two slots, as the generated entry does.
void complexReductionHook(const char *Entry, unsigned Grid, unsigned, void **P) {
  jacc_cuda_team T = param<jacc_cuda_team>(P, 3);
  int N = param<int>(P, 0);
  auto W = param<std::complex<double>>(P, 1);
  long long Begin = 0, End = N;
  if (std::strcmp(Entry, "__jacc_entry_split") == 0) {
    Begin = N * T.share_begin / T.share_scale;
    End = N * T.share_end / T.share_scale;
  }
  auto *Slots = static_cast<std::complex<double> *>(T.reduction);
  for (unsigned B = 0; B < Grid; ++B) {
    std::complex<double> Part = 0;
    for (long long I = Begin + B; I < End; I += Grid)
      Part += double(I) * W;
    Slots[B] = Part;
  }
}

// C's complex values are a template of their layout in CUDA kernels: the arguments arrive as
// the host passes them and the blocks' complex partials combine with the initial value.
TEST_P(CudaMockTest, ComplexReductionsCombineTheBlocksComplexPartials) {
  setHook(complexReductionHook);
  int N = 1000;
  std::complex<double> W(0.5, -2), Z(1, 2);
  jacc_arg Args[] = {{"int n", &N}, {"double _Complex w", &W}, {"double _Complex z", &Z}};
  ASSERT_JACC(jacc_kernel_push("#include <complex.h>\n#pragma acc parallel loop reduction(+:z)\n"
                               "for (int i = 0; i < n; i++) z += i * w;\n",
                               3, Args, JACC_DEFAULT))
      << jacc_last_error();
  EXPECT_EQ(Z, std::complex<double>(1, 2) + 999.0 * 1000 / 2 * W);
}

// A private section of variable length (jacc-translate's `double c[jacc_private_len_c]` per
// gang-loop iteration) is a variable-length array, which NVRTC's C++ has not: a clear error.
TEST_P(CudaMockTest, PrivateSectionOfVariableLengthFailsCleanly) {
  int N = 4;
  long Len = 8;
  std::vector<double> D(N, 0);
  ASSERT_JACC(jacc_copyin(D.data(), N * sizeof(double)));
  double *Dp = D.data();
  jacc_arg Args[] = {{"long jacc_private_len_c", &Len}, {"double *d", &Dp}, {"int n", &N}};
  EXPECT_EQ(jacc_kernel_push("#pragma acc parallel loop\n"
                             "for (int x = 0; x < n; x++) { double c[jacc_private_len_c];\n"
                             "  for (long k = 0; k < jacc_private_len_c; k++) c[k] = k + x;\n"
                             "  d[x] = c[jacc_private_len_c - 1];\n"
                             "}\n",
                             3, Args, JACC_DEFAULT),
            JACC_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(jacc_last_error()).find("'c' has a variable-length array type"),
            std::string::npos)
      << jacc_last_error();
  ASSERT_JACC(jacc_delete(D.data(), N * sizeof(double)));
}

/// (float a, int n, int v, float *y, const float *x, team): saxpy with a vector_length argument
/// (v is 64: the kernel's `+ (v - 64)` adds nothing).
void saxpyVectorHook(const char *, unsigned, unsigned, void **P) {
  float A = param<float>(P, 0);
  int N = param<int>(P, 1);
  float *Y = param<float *>(P, 3);
  const float *X = param<const float *>(P, 4);
  for (int I = 0; I < N; ++I)
    Y[I] = A * X[I] + Y[I];
}

/// A saxpy with a vector_length argument on fresh devices under JACC_SPECIALIZE=Mode (a push
/// waits for its variant), x = 1 and y = 0.5 mapped, the GPUs running saxpyVectorHook.
struct SaxpyUnderSpecialize {
  jacc::ScopedEnv Spec, Wait;
  int N, V;
  float A;
  std::vector<float> X, Y;
  float *Xp, *Yp;
  std::string Src;
  /// Tag names the kernel's own text (variants outlive jacc_finalize).
  SaxpyUnderSpecialize(const char *Mode, const std::string &Tag, int N, int V, float A)
      : Spec("JACC_SPECIALIZE", Mode), Wait("JACC_SPECIALIZE_WAIT", "1"), N(N), V(V), A(A),
        X(N, 1.0f), Y(N, 0.5f), Xp(X.data()), Yp(Y.data()),
        Src("/* " + Tag + " */\n"
            "#pragma acc parallel loop present(x, y) vector_length(v)\n"
            "for (int i = 0; i < n; i++)\n"
            "  y[i] = a * x[i] + y[i];\n") { // v only sizes the blocks
    EXPECT_EQ(jacc_finalize(), JACC_SUCCESS);
    EXPECT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
    jacc_reset_stats();
    setHook(saxpyVectorHook);
    EXPECT_EQ(jacc_copyin(Xp, N * sizeof(float)), JACC_SUCCESS);
    EXPECT_EQ(jacc_copyin(Yp, N * sizeof(float)), JACC_SUCCESS);
  }
  ~SaxpyUnderSpecialize() { setHook(nullptr); }
  /// One push on every device, of Count elements from XArg and YArg (the whole arrays by
  /// default).
  void push(float *XArg = nullptr, float *YArg = nullptr, int Count = 0) {
    XArg = XArg ? XArg : Xp;
    YArg = YArg ? YArg : Yp;
    Count = Count ? Count : N;
    jacc_arg Args[] = {{"float *y", &YArg}, {"const float *x", &XArg}, {"float a", &A},
                       {"int n", &Count}, {"int v", &V}};
    ASSERT_JACC(jacc_kernel_push(Src.c_str(), 5, Args, JACC_FORCE_DUPLICATE));
  }
  /// y copied out (x deleted): every element must be Want.
  void expectY(float Want) {
    ASSERT_JACC(jacc_copyout(Yp, N * sizeof(float)));
    ASSERT_JACC(jacc_delete(Xp, N * sizeof(float)));
    for (int I = 0; I < N; ++I)
      ASSERT_EQ(Y[I], Want) << I;
  }
};

jacc_stats currentStats() {
  jacc_stats S{};
  EXPECT_EQ(jacc_get_stats(&S), JACC_SUCCESS);
  return S;
}

// A kernel the kernel cache let go (JACC_KERNELS_IN_MEMORY) and then pushed again is compiled
// anew and its new image loaded on each GPU: never the old kernel's module, whose code's address
// a new one may reuse.
TEST_P(CudaMockTest, AKernelLetGoAndPushedAgainLoadsItsNewImage) {
  jacc::ScopedEnv Bound("JACC_KERNELS_IN_MEMORY", "1");
  restartWith(saxpyHook);
  SaxpyArrays S(1000, 2, 1);
  ASSERT_JACC(S.copyin());
  std::string First = std::string("/* first */\n") + Saxpy,
              Second = std::string("/* second */\n") + Saxpy;
  ASSERT_JACC(S.push(JACC_DEFAULT, First.c_str()));
  uint64_t Evictions = currentStats().kernel_cache_evictions;
  ASSERT_JACC(S.push(JACC_DEFAULT, Second.c_str())); // First goes
  // Each push lets the other kernel go: its code is freed, and the next compile's may take its
  // place in memory.
  int Loads = mockFunction<int (*)()>("mockcuda_module_load_count")();
  constexpr int Pushes = 10;
  for (int P = 0; P < Pushes; ++P)
    ASSERT_JACC(S.push(JACC_DEFAULT, (P % 2 ? Second : First).c_str()));
  EXPECT_EQ(mockFunction<int (*)()>("mockcuda_module_load_count")() - Loads, Pushes * gpus());
  EXPECT_EQ(currentStats().kernel_cache_evictions - Evictions, 1u + Pushes);
  // The modules of the kernels let go are unloaded as new ones load: the GPUs hold the current
  // kernel's, and at most the one of the kernel before it, whose last launch may still hold it.
  EXPECT_LE(mockFunction<int (*)()>("mockcuda_loaded_module_count")(), 2 * gpus());
  EXPECT_GE(mockFunction<int (*)()>("mockcuda_loaded_module_count")(), gpus());
  ASSERT_JACC(S.copyoutY());
  for (int I = 0; I < S.N; ++I)
    ASSERT_EQ(S.Y[I], (2 + Pushes) * 2.0f * I + 1) << I;
}

// JACC_SPECIALIZE on GPUs: the variant's own image is loaded and launched, with the block size
// of the folded vector_length; without specialization the generic image and block size.
TEST_P(CudaMockTest, SpecializedVariantsLaunchTheirOwnImage) {
  for (const char *Mode : {"off", "always"}) {
    SaxpyUnderSpecialize S(Mode, Mode, 500, 64, 3);
    int Loads = mockFunction<int (*)()>("mockcuda_module_load_count")();
    for (int K = 0; K < 2; ++K)
      ASSERT_NO_FATAL_FAILURE(S.push());
    unsigned Grid = 0, Block = 0;
    int Coop = -1;
    lastLaunch(Grid, Block, Coop);
    bool Specialized = std::string(Mode) == "always";
    // Generic: the access traits' size (coalesced streaming).
    EXPECT_EQ(Block, Specialized ? 64u : 512u) << Mode;
    EXPECT_EQ(currentStats().specialized_launches, Specialized ? 2u : 0u) << Mode;
    // One module per GPU: the variant's image alone when specialized (the generic one is never
    // needed), the generic one otherwise.
    EXPECT_EQ(mockFunction<int (*)()>("mockcuda_module_load_count")() - Loads, gpus()) << Mode;
    ASSERT_NO_FATAL_FAILURE(S.expectY(6.5f)) << Mode; // 0.5 + two pushes of 3 * 1
  }
}

// On GPUs too, a variant assuming the pointers aligned (__builtin_assume_aligned, compiled by
// NVRTC) runs only the pushes whose binding proved it: pointers 4 bytes into the copies run the
// generic image, then a variant that does not assume it.
TEST_P(CudaMockTest, PointerFactVariantsRunOnlyWhatTheBindingProved) {
  SaxpyUnderSpecialize S("always", std::string("facts on ") + GetParam(), 300, 32, 2);
  ASSERT_NO_FATAL_FAILURE(S.push(S.Xp, S.Yp, 299)); // y = 2 + 0.5 but the last
  EXPECT_EQ(currentStats().specialized_launches, 1u);
  ASSERT_NO_FATAL_FAILURE(S.push(S.Xp + 1, S.Yp + 1, 299)); // the same values, y[1..] += 2
  EXPECT_EQ(currentStats().specialized_launches, 1u) << "the aligned variant must not run it";
  ASSERT_NO_FATAL_FAILURE(S.push(S.Xp + 1, S.Yp + 1, 299));
  EXPECT_EQ(currentStats().variants_compiled, 2u);
  EXPECT_EQ(currentStats().specialized_launches, 2u);
  ASSERT_JACC(jacc_copyout(S.Yp, S.N * sizeof(float)));
  EXPECT_EQ(S.Y[0], 2.5f);
  for (int I = 1; I < S.N - 1; ++I)
    ASSERT_EQ(S.Y[I], 6.5f) << I;
  EXPECT_EQ(S.Y[S.N - 1], 4.5f);
  ASSERT_JACC(jacc_delete(S.Xp, S.N * sizeof(float)));
}

struct Box {
  int *v;
  int n;
};

/// The pointer member of every struct argument the GPUs received (int n, Box b, team).
std::set<void *> BoxPointers;
void boxHook(const char *, unsigned, unsigned, void **P) {
  BoxPointers.insert(param<Box>(P, 1).v);
}

/// The pointers the GPUs received in B when a kernel writing through it runs on every device.
std::set<void *> boxPointersOfPush(Box &B, int &N) {
  BoxPointers.clear();
  setHook(boxHook);
  jacc_arg Args[] = {{"int n", &N}, {"Box b", &B}};
  EXPECT_EQ(jacc_kernel_push("typedef struct { int *v; int n; } Box;\n"
                             "#pragma acc parallel loop\n"
                             "for (int i = 0; i < n; i++) b.v[i] = 1;\n",
                             2, Args, JACC_FORCE_DUPLICATE),
            JACC_SUCCESS)
      << jacc_last_error();
  return BoxPointers;
}

/// Device Dev's address of the mapped host address P.
void *deviceAddress(int Dev, void *P) {
  acc_set_device_num(Dev, acc_device_default);
  void *A = acc_deviceptr(P);
  acc_set_device_num(0, acc_device_default);
  return A;
}

// acc_attach writes each GPU's own address of the target into its copy of the struct, a present
// struct argument reaches each GPU as that copy, and create(zero:) zeroes GPU memory.
TEST_P(CudaMockTest, AttachedPointersAndZeroedCopiesOnGpus) {
  int N = 256;
  std::vector<int> Data(N, 3);
  Box B{Data.data(), N};
  acc_copyin(Data.data(), N * sizeof(int));
  acc_copyin(&B, sizeof B);
  acc_attach(reinterpret_cast<void **>(&B.v));
  std::set<void *> Targets;
  for (int D = 0; D < devices(); ++D) {
    Box Copy{nullptr, 0};
    acc_set_device_num(D, acc_device_default);
    acc_memcpy_from_device(&Copy, acc_deviceptr(&B), sizeof Copy);
    acc_set_device_num(0, acc_device_default);
    EXPECT_EQ(Copy.v, deviceAddress(D, Data.data())) << "device " << D;
    EXPECT_EQ(Copy.n, N);
    Targets.insert(Copy.v);
  }
  std::set<void *> Got = boxPointersOfPush(B, N);
  ASSERT_EQ(Got.size(), static_cast<size_t>(gpus()));
  for (void *V : Got)
    EXPECT_EQ(Targets.count(V), 1u) << "a GPU got another device's pointer";
  acc_detach(reinterpret_cast<void **>(&B.v));
  acc_copyout(&B, sizeof B);
  EXPECT_EQ(B.v, Data.data());
  acc_delete(Data.data(), N * sizeof(int));

  std::vector<int> Z(N, 9), Out(N, 9);
  ASSERT_JACC(jacc_create_zero(Z.data(), N * sizeof(int)));
  for (int D = 0; D < devices(); ++D) {
    acc_set_device_num(D, acc_device_default);
    acc_memcpy_from_device(Out.data(), acc_deviceptr(Z.data()), N * sizeof(int));
    EXPECT_EQ(Out, std::vector<int>(N, 0)) << "device " << D;
  }
  acc_set_device_num(0, acc_device_default);
  ASSERT_JACC(jacc_exit_data(Z.data(), N * sizeof(int), 0, 1));
}

// A struct argument that is not present reaches each GPU with its pointer into mapped data
// translated to that GPU's copy (a host pointer there would fault), and the host's struct keeps
// the program's pointer.
TEST_P(CudaMockTest, NotPresentStructReachesGpusWithTranslatedPointers) {
  int N = 256;
  std::vector<int> Data(N, 3);
  Box B{Data.data(), N};
  ASSERT_JACC(jacc_copyin(Data.data(), N * sizeof(int)));
  std::set<void *> Targets;
  for (int D = 0; D < devices(); ++D)
    Targets.insert(deviceAddress(D, Data.data()));
  std::set<void *> Got = boxPointersOfPush(B, N);
  ASSERT_EQ(Got.size(), static_cast<size_t>(gpus()));
  for (void *V : Got)
    EXPECT_EQ(Targets.count(V), 1u) << "a GPU got a pointer that is not its copy's";
  EXPECT_EQ(B.v, Data.data());
  ASSERT_JACC(jacc_delete(Data.data(), N * sizeof(int)));
}

/// Every row address the GPUs read from their copy of the pointer array.
std::set<void *> RowPointers;
/// (int n, int m, double **a, double *s, team): s[i] = the sum of row i, read through the
/// device's copy of the pointer array, as the kernel does.
void rowsHook(const char *, unsigned, unsigned, void **P) {
  int N = param<int>(P, 0), M = param<int>(P, 1);
  double **A = param<double **>(P, 2);
  double *S = param<double *>(P, 3);
  for (int I = 0; I < N; ++I) {
    RowPointers.insert(A[I]);
    double T = 0;
    for (int J = 0; J < M; ++J)
      T += A[I][J];
    S[I] = T;
  }
}

// A pointer to attached rows (a translated `copyin(a[0:n][0:m])`) reaches each GPU as its copy
// of the pointer array, which holds that GPU's addresses of the rows.
TEST_P(CudaMockTest, PointerRowsReachEachGpuAsItsOwnRowAddresses) {
  const int N = 3, M = 8;
  std::vector<std::vector<double>> Rows(N, std::vector<double>(M));
  double *Ptrs[N];
  double Want[N] = {};
  for (int I = 0; I < N; ++I) {
    for (int J = 0; J < M; ++J)
      Want[I] += Rows[I][J] = I * 10 + J;
    Ptrs[I] = Rows[I].data();
  }
  ASSERT_TRUE(mapRows(Ptrs, N, M));
  std::vector<double> Sums(N, 0);
  ASSERT_JACC(jacc_create(Sums.data(), N * sizeof(double)));
  std::set<void *> Expected;
  for (int D = 0; D < devices(); ++D)
    for (double *R : Ptrs)
      Expected.insert(deviceAddress(D, R));
  RowPointers.clear();
  setHook(rowsHook);
  double **A = Ptrs, *S = Sums.data();
  int Nv = N, Mv = M;
  jacc_arg Args[] = {{"int n", &Nv}, {"int m", &Mv}, {"double **a", &A}, {"double *s", &S}};
  ASSERT_JACC(jacc_kernel_push("#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++) {\n"
                               "  double t = 0;\n"
                               "  for (int j = 0; j < m; j++) t += a[i][j];\n"
                               "  s[i] = t;\n"
                               "}\n",
                               4, Args, JACC_DEFAULT));
  EXPECT_EQ(RowPointers.size(), static_cast<size_t>(N * gpus())) << "each GPU its own rows";
  for (void *V : RowPointers)
    EXPECT_EQ(Expected.count(V), 1u) << "a GPU read a row address that is no device's";
  ASSERT_JACC(jacc_copyout(Sums.data(), N * sizeof(double)));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Sums[I], Want[I]) << I;
  ASSERT_TRUE(unmapRows(Ptrs, N, M));
}

/// JACC_CHECK=bounds: the ranges the saxpy hook found in its bounds block (y's, x's), -1 when
/// the team had none.
long long BoundsSeen[4] = {-1, -1, -1, -1};

/// Saxpy that pretends to write y[n] (as a checked kernel's __jacc_bfail would record it): the
/// violation record of the bounds block (jit/host/HostABI.h), then nothing else.
void outOfBoundsHook(const char *, unsigned, unsigned, void **P) {
  jacc_cuda_team T = param<jacc_cuda_team>(P, 4);
  if (!T.bounds)
    return;
  int N = param<int>(P, 1);
  const long long *YRange = T.bounds + JACC_BOUNDS_RECORD_WORDS + 2 * 2; // y is parameter 2
  const long long *XRange = T.bounds + JACC_BOUNDS_RECORD_WORDS + 2 * 3;
  std::copy(YRange, YRange + 2, BoundsSeen);
  std::copy(XRange, XRange + 2, BoundsSeen + 2);
  long long Record[JACC_BOUNDS_RECORD_WORDS] = {2, 3, 3, 2, 1, N * 4LL, 4, 0};
  std::memcpy(T.bounds, Record, sizeof Record);
}

TEST_P(CudaMockTest, BoundsChecksAreInTheCudaCodeAndTheirRecordFailsThePush) {
  jacc::ScopedEnv Check("JACC_CHECK", "bounds");
  restartWith(outOfBoundsHook);
  MappedSaxpy S(1000, 2);
  long long N = S.N;
  // NVRTC compiled the checked entry (its __jacc_bcheck calls) for the fake GPUs.
  EXPECT_EQ(jacc_kernel_push(Saxpy, 4, S.Args, JACC_FORCE_DUPLICATE), JACC_ERROR_BOUNDS);
  EXPECT_STREQ(jacc_last_error(),
               "kernel:3:3: write y[1000] outside its mapping [0, 1000) on device 0");
  EXPECT_EQ(BoundsSeen[0], 0);
  EXPECT_EQ(BoundsSeen[1], N * 4LL);
  EXPECT_EQ(BoundsSeen[2], 0);
  EXPECT_EQ(BoundsSeen[3], N * 4LL);
  // The record was the launch's: a push that records nothing succeeds.
  setHook(saxpyHook);
  EXPECT_JACC(jacc_kernel_push(Saxpy, 4, S.Args, JACC_FORCE_DUPLICATE));
  ASSERT_JACC(jacc_delete(S.X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_delete(S.Y.data(), N * sizeof(float)));
}

/// A histogram of 8 bins whose checked atomic pretends to write h[8] (the record a failed check in
/// its atomic's x would leave).
void atomicOutOfBoundsHook(const char *, unsigned, unsigned, void **P) {
  jacc_cuda_team T = param<jacc_cuda_team>(P, 3);
  if (!T.bounds)
    return;
  long long Record[JACC_BOUNDS_RECORD_WORDS] = {2, 4, 3, 1, 1 | 1 << 1, 8 * 4, 4};
  std::memcpy(T.bounds, Record, sizeof Record);
}

TEST_P(CudaMockTest, CheckedAtomicsCompileForTheGpuAndTheirRecordFailsThePush) {
  jacc::ScopedEnv Check("JACC_CHECK", "bounds");
  restartWith(atomicOutOfBoundsHook);
  int N = 256;
  std::vector<int> H(8, 0), Idx(N);
  for (int I = 0; I < N; ++I)
    Idx[I] = I % 8;
  ASSERT_JACC(jacc_copyin(H.data(), H.size() * sizeof(int)));
  ASSERT_JACC(jacc_copyin(Idx.data(), N * sizeof(int)));
  int *Hp = H.data(), *Ip = Idx.data();
  jacc_arg Args[] = {{"int n", &N}, {"int *h", &Hp}, {"const int *idx", &Ip}};
  // NVRTC compiled the checked atomic (JACC_CUDA_VERIFY compiles the CUDA entries: see
  // BoundsChecksTest for the text).
  EXPECT_EQ(jacc_kernel_push("#pragma acc parallel loop present(h, idx)\n"
                             "for (int i = 0; i < n; i++) {\n"
                             "  #pragma acc atomic update\n"
                             "  h[idx[i]] += 1;\n"
                             "}\n",
                             3, Args, JACC_FORCE_DUPLICATE),
            JACC_ERROR_BOUNDS);
  EXPECT_STREQ(jacc_last_error(), "kernel:4:3: write h[8] outside its mapping [0, 8) on device 0");
  ASSERT_JACC(jacc_delete(H.data(), H.size() * sizeof(int)));
  ASSERT_JACC(jacc_delete(Idx.data(), N * sizeof(int)));
}

/// Split saxpy whose GPUs but the first pretend their guard let y[0] through (the record their
/// owned-range check would leave), after computing their part.
void ownedRangeViolationHook(const char *Entry, unsigned Grid, unsigned Block, void **P) {
  saxpyHook(Entry, Grid, Block, P);
  if (std::strcmp(Entry, "__jacc_entry_split") != 0)
    return;
  jacc_cuda_team T = param<jacc_cuda_team>(P, 6);
  const long long *Info = T.split_info;
  if (!T.bounds || Info[0] <= 0)
    return;
  long long Record[JACC_BOUNDS_RECORD_WORDS] = {2, 3, 3, 2, 1 | 1 << 1 | JACC_BOUNDS_OWNED, 0, 4,
                                                Info[0], Info[1]};
  std::memcpy(T.bounds, Record, sizeof Record);
}

TEST_P(CudaMockTest, OwnedRangeViolationOfASplitLaunchIsReportedAsAJaccBug) {
  jacc::ScopedEnv Check("JACC_CHECK", "bounds");
  restartWith(ownedRangeViolationHook);
  MappedSaxpy S(1000, 2);
  jacc_status Status = jacc_kernel_push(Saxpy, 4, S.Args, JACC_FORCE_SPLIT);
  if (gpus() < 2) {
    EXPECT_JACC(Status); // the first device owns y[0]; a host device checks for real
  } else {
    EXPECT_EQ(Status, JACC_ERROR_BOUNDS);
    EXPECT_STREQ(jacc_last_error(),
                 ("kernel:3:3: write y[0] outside device 1's owned range [" +
                  std::to_string(1000 / devices()) + ", " + std::to_string(2 * 1000 / devices()) +
                  ") of y in a split launch: the split predicates failed to filter it; this is a "
                  "jacc bug, please report it (JACC_SPLIT=never avoids it)")
                     .c_str());
  }
  ASSERT_JACC(jacc_delete(S.X.data(), S.N * sizeof(float)));
  ASSERT_JACC(jacc_delete(S.Y.data(), S.N * sizeof(float)));
}

// ---- native implementations (jacc_kernel_native) on the fake GPUs ---------------------------

/// The driver calls a program's GPU wrapper makes (cuBLAS would queue its kernels likewise):
/// the mock checks that the stream belongs to the current context and the memory to its GPU.
struct DriverCalls {
  using DtoH = int (*)(void *, unsigned long long, size_t, void *);
  using HtoD = int (*)(unsigned long long, const void *, size_t, void *);
  using Sync = int (*)(void *);
  DtoH ToHost = mockFunction<DtoH>("cuMemcpyDtoHAsync_v2");
  HtoD ToDevice = mockFunction<HtoD>("cuMemcpyHtoDAsync_v2");
  Sync Synchronize = mockFunction<Sync>("cuStreamSynchronize");
};

/// An nvidia implementation of Saxpy (float *y, const float *x, float a, int n): its rows of x
/// and y come to the host through the part's stream, are computed there and go back.
int gpuSaxpy(const jacc_native_part *P, void *User) {
  static_cast<jacc_test::NativeCalls *>(User)->add(P);
  DriverCalls Cu;
  if (!P->stream || P->step != 1)
    return 1;
  long long B = P->begin, Rows = P->end - P->begin;
  if (Rows <= 0)
    return 0;
  size_t Bytes = Rows * sizeof(float);
  auto Y = JACC_NATIVE_ARG(P, 0, unsigned long long) + B * sizeof(float);
  auto X = JACC_NATIVE_ARG(P, 1, unsigned long long) + B * sizeof(float);
  float A = JACC_NATIVE_ARG(P, 2, float);
  std::vector<float> Xh(Rows), Yh(Rows);
  for (int R : {Cu.ToHost(Xh.data(), X, Bytes, P->stream),
                Cu.ToHost(Yh.data(), Y, Bytes, P->stream), Cu.Synchronize(P->stream)})
    if (R)
      return 100 + R;
  for (long long I = 0; I < Rows; ++I)
    Yh[I] = A * Xh[I] + Yh[I];
  for (int R : {Cu.ToDevice(Y, Yh.data(), Bytes, P->stream), Cu.Synchronize(P->stream)})
    if (R)
      return 200 + R;
  return 0;
}

/// A host implementation of Saxpy, for the host device beside the GPUs.
int hostSaxpy(const jacc_native_part *P, void *User) {
  static_cast<jacc_test::NativeCalls *>(User)->add(P);
  float *Y = JACC_NATIVE_ARG(P, 0, float *);
  const float *X = JACC_NATIVE_ARG(P, 1, const float *);
  float A = JACC_NATIVE_ARG(P, 2, float);
  jacc_test::eachIteration(P, [&](long long I) { Y[I] = A * X[I] + Y[I]; });
  return 0;
}

/// Registers Fn for Kind on Saxpy for the rest of a test.
class ScopedNative {
public:
  ScopedNative(const char *Src, const char *Kind, jacc_native_fn Fn, void *User)
      : Src(Src), Kind(Kind) {
    EXPECT_JACC(jacc_kernel_native(Src, Kind, Fn, User));
  }
  ~ScopedNative() { EXPECT_JACC(jacc_kernel_native(Src, Kind, nullptr, nullptr)); }

private:
  const char *Src, *Kind;
};

TEST_P(CudaMockTest, NativeGpuPartsQueueOnTheirStreamWithTheirDevicePointers) {
  // The GPUs run the program's wrapper, never a generated kernel; a host device beside them
  // runs the generated code for its share.
  setHook(saxpyHook);
  jacc_test::NativeCalls Calls;
  ScopedNative Native(Saxpy, "nvidia", gpuSaxpy, &Calls);
  int N = 1000, Before = launchCount();
  float A = 3;
  std::vector<float> X(N), Y(N, 2);
  for (int I = 0; I < N; ++I)
    X[I] = float(I);
  float *Yp = Y.data(), *Xp = X.data();
  ASSERT_JACC(jacc_copyin(Xp, N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(float)));
  jacc_arg Args[] = {{"float *y", &Yp}, {"const float *x", &Xp}, {"float a", &A}, {"int n", &N}};
  ASSERT_JACC(jacc_kernel_push(Saxpy, 4, Args, JACC_DEFAULT));
  EXPECT_EQ(launchCount(), Before);
  std::vector<jacc_test::NativeCall> Parts = Calls.take();
  // The GPUs come first in the configurations: devices 0 .. gpus() - 1.
  std::vector<long long> Cuts = jacc_test::evenCuts(N, devices());
  EXPECT_TRUE(jacc_test::partsAre(Parts, {Cuts.begin(), Cuts.begin() + gpus() + 1}));
  for (int G = 0; G < int(Parts.size()); ++G) {
    const jacc_native_part &P = Parts[G].Part;
    SCOPED_TRACE("GPU " + std::to_string(G));
    EXPECT_EQ(Parts[G].Kind, "nvidia");
    EXPECT_NE(P.stream, nullptr);
    EXPECT_EQ(P.compute_units, 4); // the mock's SMs
    acc_set_device_num(G, acc_device_nvidia);
    EXPECT_EQ(Parts[G].Pointers[0], acc_deviceptr(Yp));
    EXPECT_EQ(Parts[G].Pointers[1], acc_deviceptr(Xp));
    for (int Other = 0; Other < G; ++Other)
      EXPECT_NE(P.stream, Parts[Other].Part.stream) << "each GPU's own stream";
  }
  acc_set_device_num(0, acc_device_nvidia);
  // Asynchronous pushes: queued behind each other, completed through the event poller.
  for (int T = 0; T < 3; ++T)
    ASSERT_JACC(jacc_kernel_push(Saxpy, 4, Args, JACC_ASYNC));
  ASSERT_JACC(jacc_wait());
  EXPECT_EQ(int(Calls.take().size()), 3 * gpus());
  EXPECT_EQ(launchCount(), Before);
  ASSERT_JACC(jacc_copyout(Yp, N * sizeof(float)));
  ASSERT_JACC(jacc_delete(Xp, N * sizeof(float)));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Y[I], 2 + 4 * 3.0f * I) << I;
}

TEST_P(CudaMockTest, ANativeHostPartRunsBesideGeneratedGpuParts) {
  // The other way round: a host implementation only; the GPUs launch their generated kernels.
  setHook(saxpyHook);
  jacc_test::NativeCalls Calls;
  ScopedNative Native(Saxpy, "host", hostSaxpy, &Calls);
  int Before = launchCount();
  ASSERT_NO_FATAL_FAILURE(pushSaxpyAndCheck(999));
  EXPECT_EQ(launchCount() - Before, gpus());
  std::vector<jacc_test::NativeCall> Parts = Calls.take();
  ASSERT_EQ(int(Parts.size()), devices() - gpus());
  std::vector<long long> Cuts = jacc_test::evenCuts(999, devices());
  for (const jacc_test::NativeCall &C : Parts) {
    EXPECT_EQ(C.Kind, "host");
    EXPECT_EQ(C.Part.stream, nullptr);
    EXPECT_EQ(C.Part.begin, Cuts[C.Part.device]);
    EXPECT_EQ(C.Part.end, Cuts[C.Part.device + 1]);
  }
}

/// An nvidia implementation of `s += x[i]` (const double *x, int n, double s): its partial sum
/// of its reduction share, left in its private copy of s.
int gpuSum(const jacc_native_part *P, void *) {
  long long B = P->reduce_begin, Rows = P->reduce_end - P->reduce_begin;
  std::vector<double> Xh(std::max(0LL, Rows));
  DriverCalls Cu;
  auto X = JACC_NATIVE_ARG(P, 0, unsigned long long) + B * sizeof(double);
  if (Rows > 0 && (Cu.ToHost(Xh.data(), X, Rows * sizeof(double), P->stream) ||
                   Cu.Synchronize(P->stream)))
    return 1;
  double &S = JACC_NATIVE_ARG(P, 2, double);
  for (double V : Xh)
    S += V;
  return 0;
}

TEST_P(CudaMockTest, NativeGpuReductionPartsCombineWithTheOtherDevicesOnce) {
  setHook(reductionHook); // a host device beside the GPU runs the generated code
  ScopedNative Native(SumKernel, "nvidia", gpuSum, nullptr);
  ASSERT_NO_FATAL_FAILURE(pushSumAndCheck());
}

int gpuFailing(const jacc_native_part *, void *) { return 5; }

TEST_P(CudaMockTest, AFailingNativeGpuPartFailsThePushNamingItsGpu) {
  setHook(saxpyHook);
  ScopedNative Native(Saxpy, "nvidia", gpuFailing, nullptr);
  int N = 100;
  float A = 1;
  std::vector<float> X(N, 1), Y(N, 1);
  float *Yp = Y.data(), *Xp = X.data();
  ASSERT_JACC(jacc_copyin(Xp, N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Yp, N * sizeof(float)));
  jacc_arg Args[] = {{"float *y", &Yp}, {"const float *x", &Xp}, {"float a", &A}, {"int n", &N}};
  EXPECT_EQ(jacc_kernel_push(Saxpy, 4, Args, JACC_DEFAULT), JACC_ERROR_DEVICE);
  std::string GpuName = std::string(GetParam()).rfind("cuda:1", 0) == 0 ? "cuda:1" : "cuda:0";
  EXPECT_NE(std::string(jacc_last_error())
                .find("the nvidia native implementation of kernel 'for (int i = 0; i < n; i++)' "
                      "returned 5 on " + GpuName),
            std::string::npos)
      << jacc_last_error();
  EXPECT_JACC(jacc_kernel_push(Saxpy, 4, Args, JACC_ASYNC));
  EXPECT_EQ(jacc_wait(), JACC_ERROR_DEVICE);
  EXPECT_JACC(jacc_delete(Xp, N * sizeof(float)));
  EXPECT_JACC(jacc_delete(Yp, N * sizeof(float)));
}

TEST_P(CudaMockTest, InOneMemoryNativePartsAreDisjointOrRunOnOneGpu) {
  // JACC_MEMORY=unified: GPUs alone each take their share of the iterations; beside a host
  // device running the generated code (which splits by data), the GPU runs the whole loop.
  jacc::ScopedEnv Memory("JACC_MEMORY", "unified");
  restartWith(saxpyHook);
  jacc_test::NativeCalls Calls;
  ScopedNative Native(Saxpy, "nvidia", gpuSaxpy, &Calls);
  int N = 1000, Before = launchCount();
  ASSERT_NO_FATAL_FAILURE(pushSaxpyAndCheck(N));
  EXPECT_EQ(launchCount(), Before);
  bool Mixed = gpus() < devices();
  EXPECT_TRUE(jacc_test::partsAre(Calls.take(), Mixed ? std::vector<long long>{0, N}
                                                      : jacc_test::evenCuts(N, devices())));
}

/// In a child process (observers start once per process): saxpy split, then duplicated, over
/// both fake GPUs with JACC_TRACE=Path; exits 0 if it ran and computed y.
[[noreturn]] void tracedGpuProgram(const std::string &Path) {
  setenv("JACC_TRACE", Path.c_str(), 1);
  setenv("JACC_DEVICES", "cuda:all", 1);
  jacc_finalize();
  if (jacc_init() != JACC_SUCCESS)
    std::exit(2);
  setHook(saxpyHook);
  int N = 1000;
  float A = 1;
  std::vector<float> X(N, 1), Y(N, 1);
  float *Yp = Y.data(), *Xp = X.data();
  jacc_arg Args[] = {{"float *y", &Yp}, {"const float *x", &Xp}, {"float a", &A}, {"int n", &N}};
  bool Ran = jacc_copyin(Xp, N * sizeof(float)) == JACC_SUCCESS &&
             jacc_copyin(Yp, N * sizeof(float)) == JACC_SUCCESS &&
             jacc_kernel_push(Saxpy, 4, Args, JACC_FORCE_SPLIT) == JACC_SUCCESS &&
             jacc_kernel_push(Saxpy, 4, Args, JACC_FORCE_DUPLICATE) == JACC_SUCCESS &&
             jacc_copyout(Yp, N * sizeof(float)) == JACC_SUCCESS &&
             jacc_delete(Xp, N * sizeof(float)) == JACC_SUCCESS && jacc_finalize() == JACC_SUCCESS;
  std::exit(Ran && Y[0] == 3 && Y[N - 1] == 3 ? 0 : 3);
}

TEST(CudaMockTraceTest, EachGpuHasItsOwnKernelAndCopyTracks) {
  jacc_test::ChildTrace File("cuda");
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(tracedGpuProgram(File.Path), ::testing::ExitedWithCode(0), "");
  jacc_test::TraceFile T;
  ASSERT_TRUE(jacc_test::readTrace(File.Path, T));
  EXPECT_TRUE(jacc_test::wellFormed(T));
  for (int D : {0, 1}) {
    std::string Track = "device " + std::to_string(D) + " (cuda)";
    std::vector<jacc_test::TraceSpan> Runs = T.on(Track);
    ASSERT_EQ(Runs.size(), 2u) << Track;
    EXPECT_EQ(Runs[0].textArg("mode"), "split");
    EXPECT_EQ(Runs[1].textArg("mode"), "duplicate");
    EXPECT_FALSE(T.on(Track + " copies").empty()) << Track;
  }
  EXPECT_FALSE(T.hasTrack("device 2 (cuda)"));
}

INSTANTIATE_TEST_SUITE_P(Devices, CudaMockTest,
                         ::testing::Values("cuda:0", "cuda:all", "cuda:1,host:1"),
                         deviceConfigName);

/// JACC_PROFILE on the fake GPUs: the summary's launches and bytes equal the statistics, and each
/// GPU is a device of it (the kernels run no hook: the results are not checked).
TEST(CudaMockProfileTest, TheSummaryAgreesWithTheStatistics) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::string File = testing::TempDir() + "jacc-profile-cuda-" + std::to_string(::getpid()) +
                     ".json";
  EXPECT_EXIT(jacc::test::profiledProgram("cuda:all", File, /*CheckResults=*/false),
              ::testing::ExitedWithCode(0), "");
  std::remove(File.c_str());
}

} // namespace
