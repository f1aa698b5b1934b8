// End to end: distribution policies (JACC_POLICY, jacc_set_policy, `#pragma jacc policy`). A
// policy's shares are seen exactly in the bytes the next, evenly split kernel fetches: each device
// holds what it wrote (the demand exchange moves nothing after a kernel), so a device fetches the
// part of its even share another device wrote.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int N = 1000;

const char *Write = "#pragma acc parallel loop present(x)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  x[i] = 2.0f * i;\n";
const char *ReadShifted = "#pragma acc parallel loop present(x, y)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = x[i] + 1.0f;\n";
/// The same, always split evenly over the devices under the location targeted (all of them
/// without locations): its own policy wins over the process's.
const std::string ReadEvenly = std::string("#pragma jacc policy(flatten)\n") + ReadShifted;

/// Device d's written range [lb, ub] along x for share [Begin/Scale, End/Scale) of N elements,
/// as the generated code computes it.
std::pair<long long, long long> owned(long long Begin, long long End, long long Scale) {
  return {N * Begin / Scale, N * End / Scale - 1};
}

/// Bytes a split reading with boundaries (in elements) ReadCuts fetches after a split writing
/// with boundaries WriteCuts: each device fetches what it reads and did not write.
uint64_t fetchedBetween(const std::vector<long long> &WriteCuts,
                        const std::vector<long long> &ReadCuts) {
  uint64_t Elements = 0;
  for (size_t D = 0; D + 1 < WriteCuts.size(); ++D)
    for (long long I = ReadCuts[D]; I < ReadCuts[D + 1]; ++I)
      Elements += I < WriteCuts[D] || I >= WriteCuts[D + 1];
  return Elements * sizeof(float);
}

/// Element boundaries of the even split over Devs devices.
std::vector<long long> evenCuts(size_t Devs) {
  std::vector<long long> Cuts = {0};
  for (size_t D = 0; D < Devs; ++D)
    Cuts.push_back(owned(D, D + 1, Devs).second + 1);
  return Cuts;
}

/// Bytes the even split fetches after a split whose boundaries (in elements) were Cuts.
uint64_t fetchedAfter(const std::vector<long long> &Cuts) {
  return fetchedBetween(Cuts, evenCuts(Cuts.size() - 1));
}

/// Element boundaries of a policy given as weights (the runtime's whole-number scale).
std::vector<long long> cutsOf(const std::vector<long long> &Weights) {
  long long Sum = 0;
  for (long long W : Weights)
    Sum += W;
  std::vector<long long> Cuts = {0};
  long long Prefix = 0;
  for (long long W : Weights) {
    Prefix += W;
    Cuts.push_back(owned(0, Prefix, Sum).second + 1);
  }
  return Cuts;
}

class PolicyTest : public ::testing::TestWithParam<int> {
protected:
  void SetUp() override {
    ASSERT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
    setenv("JACC_DEVICES", ("host:" + std::to_string(GetParam())).c_str(), 1);
    ASSERT_EQ(jacc_init(), JACC_SUCCESS) << jacc_last_error();
    ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
    ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
  }
  void TearDown() override {
    EXPECT_EQ(jacc_delete(X.data(), N * sizeof(float)), JACC_SUCCESS);
    EXPECT_EQ(jacc_delete(Y.data(), N * sizeof(float)), JACC_SUCCESS);
    unsetenv("JACC_POLICY");
    EXPECT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
  }

  /// Pushes Source (which writes x) then the even split reading it (on the devices under
  /// ReadAt when given: jacc_set_location first); returns the bytes the second kernel
  /// fetched, after checking both kernels' results.
  uint64_t writeThenReadEvenly(const std::string &Source, const char *ReadAt = nullptr) {
    int n = N;
    float *x = X.data(), *y = Y.data();
    jacc_arg Args[] = {{"int n", &n}, {"float *x", &x}, {"float *y", &y}};
    // y current everywhere: writing it fetches nothing, whatever wrote it before.
    EXPECT_EQ(jacc_update_device(y, N * sizeof(float)), JACC_SUCCESS);
    // Split, also when the shares are the even ones (the chooser would decide otherwise).
    EXPECT_EQ(jacc_kernel_push(Source.c_str(), 2, Args, JACC_FORCE_SPLIT), JACC_SUCCESS)
        << jacc_last_error();
    jacc_reset_stats();
    if (ReadAt) {
      EXPECT_EQ(jacc_set_location(ReadAt), JACC_SUCCESS) << jacc_last_error();
    }
    EXPECT_EQ(jacc_kernel_push(ReadEvenly.c_str(), 3, Args, JACC_FORCE_SPLIT), JACC_SUCCESS)
        << jacc_last_error();
    jacc_stats S{};
    EXPECT_EQ(jacc_get_stats(&S), JACC_SUCCESS);
    EXPECT_EQ(jacc_update_self(y, N * sizeof(float)), JACC_SUCCESS);
    for (int I = 0; I < N; ++I)
      if (Y[I] != 2.0f * I + 1) {
        ADD_FAILURE() << "y[" << I << "] = " << Y[I];
        break;
      }
    return S.bytes_device_to_device;
  }

  /// A push targeting Location, which has no device under it, fails naming it.
  void expectNoDeviceUnder(const std::string &Location) {
    int n = N;
    float *x = X.data();
    jacc_arg Args[] = {{"int n", &n}, {"float *x", &x}};
    EXPECT_EQ(jacc_kernel_push(Write, 2, Args, JACC_DEFAULT), JACC_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(jacc_last_error()).find("'" + Location + "' has no device under it"),
              std::string::npos)
        << jacc_last_error();
  }

  /// Weights for this many devices: 1, 3, 6, 10 ... (uneven, the last heaviest).
  std::vector<long long> weights() const {
    std::vector<long long> W;
    for (int D = 1; D <= GetParam(); ++D)
      W.push_back(D * (D + 1) / 2);
    return W;
  }
  static std::string list(const std::vector<long long> &V) {
    std::string T = "[";
    for (size_t I = 0; I < V.size(); ++I)
      T += (I ? "," : "") + std::to_string(V[I]);
    return T + "]";
  }

  std::vector<float> X = std::vector<float>(N, 0.0f), Y = std::vector<float>(N, 0.0f);
};

TEST_P(PolicyTest, APragmaSharesItsKernelsIterationsByWeight) {
  std::string Src = "#pragma jacc policy(weights:" + list(weights()) + ")\n" + Write;
  EXPECT_EQ(writeThenReadEvenly(Src), fetchedAfter(cutsOf(weights())));
}

TEST_P(PolicyTest, RangeGivesEachDeviceItsIterationCount) {
  std::vector<long long> Counts;
  long long Left = N;
  for (int D = 0; D + 1 < GetParam(); ++D)
    Left -= Counts.emplace_back(100 * (D + 1));
  Counts.push_back(Left);
  std::string Src = "#pragma jacc policy(range:" + list(Counts) + ")\n" + Write;
  std::vector<long long> Cuts = {0};
  for (long long C : Counts)
    Cuts.push_back(Cuts.back() + C);
  EXPECT_EQ(writeThenReadEvenly(Src), fetchedAfter(Cuts));
}

TEST_P(PolicyTest, SetPolicyAppliesUntilReset) {
  std::vector<long long> Percent(GetParam(), 0);
  Percent.back() = 100; // all to the last device
  ASSERT_JACC(jacc_set_policy(("percentage:" + list(Percent)).c_str()));
  std::vector<long long> Cuts(GetParam(), 0);
  Cuts.push_back(N);
  EXPECT_EQ(writeThenReadEvenly(Write), fetchedAfter(Cuts));
  ASSERT_JACC(jacc_set_policy(nullptr));
  EXPECT_EQ(writeThenReadEvenly(Write), 0u); // even again: each device holds its own share
}

TEST_P(PolicyTest, AnyRunsEverythingOnAnIdleDevice) {
  std::string Src = std::string("#pragma jacc policy(any)\n") + Write;
  std::vector<long long> Cuts(GetParam() + 1, N);
  Cuts[0] = 0; // device 0, the first idle one, wrote everything
  EXPECT_EQ(writeThenReadEvenly(Src), fetchedAfter(Cuts));
}

TEST_P(PolicyTest, ReductionsAddEveryIterationOnceUnderUnevenShares) {
  ASSERT_JACC(jacc_set_policy(("weights:" + list(weights())).c_str()));
  int n = N;
  float *x = X.data();
  long long Sum = 0;
  jacc_arg Args[] = {{"int n", &n}, {"float *x", &x}, {"long long s", &Sum}};
  const char *Src = "#pragma acc parallel loop present(x) reduction(+:s)\n"
                    "for (int i = 0; i < n; i++) {\n"
                    "  x[i] = i;\n"
                    "  s += i;\n"
                    "}\n";
  ASSERT_JACC(jacc_kernel_push(Src, 3, Args, JACC_DEFAULT));
  EXPECT_EQ(Sum, (long long)N * (N - 1) / 2);
}

TEST_P(PolicyTest, ABadPolicyIsAnErrorThatChangesNothing) {
  std::vector<long long> TooMany(GetParam() + 1, 1);
  struct Case {
    std::string Policy, Says;
  } Cases[] = {{"weights:" + list(TooMany), "for " + std::to_string(GetParam()) + " devices"},
               {"percentage:[50,20]", "add up to 70"},
               {"fastest", "unknown policy 'fastest'"},
               {"weights:[1,-2]", "'-2' is negative"},
               {"range:[0,0]", "add up to zero"},
               {"any:[1]", "takes no values"},
               {"weights", "needs one value per device"}};
  ASSERT_JACC(jacc_set_policy(("weights:" + list(weights())).c_str()));
  for (const Case &C : Cases) {
    EXPECT_EQ(jacc_set_policy(C.Policy.c_str()), JACC_ERROR_INVALID_ARGUMENT) << C.Policy;
    std::string Message = jacc_last_error();
    EXPECT_NE(Message.find("jacc_set_policy"), std::string::npos) << Message;
    EXPECT_NE(Message.find(C.Says), std::string::npos) << Message;
  }
  // Still the weights.
  EXPECT_EQ(writeThenReadEvenly(Write), fetchedAfter(cutsOf(weights())));
  // A kernel's bad pragma fails its push, naming the devices.
  std::string Src = "#pragma jacc policy(weights:" + list(TooMany) + ")\n" + Write;
  int n = N;
  float *x = X.data();
  jacc_arg Args[] = {{"int n", &n}, {"float *x", &x}};
  EXPECT_EQ(jacc_kernel_push(Src.c_str(), 2, Args, JACC_DEFAULT), JACC_ERROR_INVALID_ARGUMENT);
  std::string Message = jacc_last_error();
  EXPECT_NE(Message.find("#pragma jacc policy"), std::string::npos) << Message;
  EXPECT_NE(Message.find("host:0"), std::string::npos) << Message;
}

TEST_P(PolicyTest, JaccPolicyIsTheProcesssDefault) {
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS);
  setenv("JACC_POLICY", ("weights:" + list(weights())).c_str(), 1);
  ASSERT_JACC(jacc_init());
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
  // The reading kernel is under the policy too: nothing to fetch.
  int n = N;
  float *x = X.data(), *y = Y.data();
  jacc_arg Args[] = {{"int n", &n}, {"float *x", &x}, {"float *y", &y}};
  ASSERT_JACC(jacc_kernel_push(Write, 2, Args, JACC_DEFAULT));
  jacc_reset_stats();
  ASSERT_JACC(jacc_kernel_push(ReadShifted, 3, Args, JACC_DEFAULT));
  jacc_stats S{};
  ASSERT_JACC(jacc_get_stats(&S));
  EXPECT_EQ(S.bytes_device_to_device, 0u);
  ASSERT_JACC(jacc_set_policy("static"));
  EXPECT_EQ(writeThenReadEvenly(Write), 0u);
  ASSERT_JACC(jacc_set_policy(nullptr)); // JACC_POLICY's again
  EXPECT_EQ(writeThenReadEvenly(Write), fetchedAfter(cutsOf(weights())));
  // A JACC_POLICY for other devices fails jacc_init, naming them.
  ASSERT_EQ(jacc_delete(X.data(), N * sizeof(float)), JACC_SUCCESS);
  ASSERT_EQ(jacc_delete(Y.data(), N * sizeof(float)), JACC_SUCCESS);
  ASSERT_EQ(jacc_finalize(), JACC_SUCCESS);
  std::vector<long long> TooMany(GetParam() + 1, 1);
  setenv("JACC_POLICY", ("weights:" + list(TooMany)).c_str(), 1);
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  std::string Message = jacc_last_error();
  EXPECT_NE(Message.find("JACC_POLICY"), std::string::npos) << Message;
  EXPECT_NE(Message.find("host:" + std::to_string(GetParam() - 1)), std::string::npos) << Message;
  unsetenv("JACC_POLICY");
  ASSERT_JACC(jacc_init());
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
}

// Gecko's locations without JACC_CONFIG (one per device, under "devices"): a kernel that
// targets a location runs on the devices under it, shared by the policy over them; the
// hierarchy changes at run time; bad names change nothing.
TEST_P(PolicyTest, AKernelTargetingALocationRunsOnItsDevicesOnly) {
  int Devs = GetParam();
  ASSERT_JACC(jacc_location_add("tail")); // every device but the first, under the root
  ASSERT_JACC(jacc_location_add_child("devices", "tail"));
  for (int D = 1; D < Devs; ++D)
    ASSERT_JACC(jacc_location_add_child("tail", ("host:" + std::to_string(D)).c_str()));
  ASSERT_JACC(jacc_set_location("tail"));
  std::vector<long long> Tail(Devs, 1);
  Tail[0] = 0;
  EXPECT_EQ(writeThenReadEvenly(Write, "devices"), fetchedAfter(cutsOf(Tail)));
  // A listed policy gives one value per device under the target.
  ASSERT_JACC(jacc_set_location("tail"));
  std::vector<long long> W = weights();
  W.pop_back();
  ASSERT_JACC(jacc_set_policy(("weights:" + list(W)).c_str()));
  W.insert(W.begin(), 0);
  EXPECT_EQ(writeThenReadEvenly(Write, "devices"), fetchedAfter(cutsOf(W)));
  ASSERT_JACC(jacc_set_location("tail"));
  std::vector<long long> AllOfThem(Devs, 1);
  EXPECT_EQ(jacc_set_policy(("weights:" + list(AllOfThem)).c_str()), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(jacc_last_error()).find("under location 'tail'"), std::string::npos)
      << jacc_last_error();
  ASSERT_JACC(jacc_set_policy(nullptr));
  // Bad changes are errors that change nothing.
  EXPECT_EQ(jacc_set_location("nowhere"), JACC_ERROR_INVALID_ARGUMENT);
  std::string Message = jacc_last_error();
  EXPECT_NE(Message.find("no location is named 'nowhere'"), std::string::npos) << Message;
  EXPECT_NE(Message.find("devices(virtual)"), std::string::npos) << "the hierarchy: " << Message;
  EXPECT_EQ(jacc_location_add_child("host:0", "tail"), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(jacc_location_add_child("tail", "devices"), JACC_ERROR_INVALID_ARGUMENT)
      << "a cycle";
  EXPECT_EQ(writeThenReadEvenly(Write, "devices"), fetchedAfter(cutsOf(Tail)))
      << "still targeting 'tail', as it was";
  // A device removed from the location no longer takes part; none left is an error.
  ASSERT_JACC(jacc_set_location("tail"));
  ASSERT_JACC(jacc_location_remove_child("tail", "host:1"));
  if (Devs == 2) {
    expectNoDeviceUnder("tail");
  } else {
    ASSERT_JACC(jacc_location_add_child("devices", "host:1")); // back under the root
    Tail[1] = 0;
    EXPECT_EQ(writeThenReadEvenly(Write, "devices"), fetchedAfter(cutsOf(Tail)));
  }
  ASSERT_JACC(jacc_set_location(nullptr));
}

// A kernel's own `#pragma jacc location(...)` line sends it to that location, whatever
// jacc_set_location chose; an unknown one fails the push naming it.
TEST_P(PolicyTest, AKernelsLocationPragmaSendsItThere) {
  int Devs = GetParam();
  // Without any hierarchy yet: the pragma builds the devices' own (a location per device).
  std::vector<long long> Last(Devs, 0);
  Last[Devs - 1] = 1;
  std::string OnLast = "#pragma jacc location(host:" + std::to_string(Devs - 1) + ")\n" + Write;
  EXPECT_EQ(writeThenReadEvenly(OnLast), fetchedAfter(cutsOf(Last)));
  // Its own location wins over the one targeted: written evenly, read evenly, nothing moves.
  ASSERT_JACC(jacc_set_location("host:0"));
  EXPECT_EQ(writeThenReadEvenly("#pragma jacc location(devices)\n" + std::string(Write),
                                "devices"),
            0u);
  // A policy line beside it shares the work over that location's devices.
  std::vector<long long> W = weights();
  std::string Weighted = "#pragma jacc policy(weights:" + list(W) + ")\n" +
                         "#pragma jacc location(devices)\n" + Write;
  ASSERT_JACC(jacc_set_location("host:0"));
  EXPECT_EQ(writeThenReadEvenly(Weighted, "devices"), fetchedAfter(cutsOf(W)));
  int n = N;
  float *x = X.data();
  jacc_arg Args[] = {{"int n", &n}, {"float *x", &x}};
  std::string Nowhere = "#pragma jacc location(nowhere)\n" + std::string(Write);
  EXPECT_EQ(jacc_kernel_push(Nowhere.c_str(), 2, Args, JACC_DEFAULT), JACC_ERROR_INVALID_ARGUMENT);
  std::string Message = jacc_last_error();
  EXPECT_NE(Message.find("#pragma jacc location of the kernel"), std::string::npos) << Message;
  EXPECT_NE(Message.find("no location is named 'nowhere'"), std::string::npos) << Message;
  ASSERT_JACC(jacc_set_location(nullptr));
}

// JACC_CONFIG: the paper's Figure 4 on host devices. host:0 and host:1 are the two sockets
// (LocN, not under the root at first); the others are the GPUs (LocGs, `all`) under LocG
// under LocB under the root LocA, which kernels target by default.
TEST_P(PolicyTest, JaccConfigDescribesTheHierarchy) {
  int Devs = GetParam();
  std::string File = ::testing::TempDir() + "jacc-figure4-" + std::to_string(Devs) + ".conf";
  {
    std::FILE *F = std::fopen(File.c_str(), "w");
    ASSERT_TRUE(F);
    std::fputs(jacc_test::Figure4Config, F);
    std::fclose(F);
  }
  ASSERT_JACC(jacc_delete(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_delete(Y.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_finalize());
  setenv("JACC_CONFIG", File.c_str(), 1);
  ASSERT_JACC(jacc_init());
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
  std::vector<long long> Sockets(Devs, 0), Root(Devs, 0);
  Sockets[0] = Sockets[1] = 1;
  if (Devs == 2) { // no GPU: the root has no device
    expectNoDeviceUnder("LocA");
  } else { // the GPUs write, the sockets read: everything crosses
    for (int D = 2; D < Devs; ++D)
      Root[D] = 1;
    EXPECT_EQ(writeThenReadEvenly(Write, "LocN"), fetchedBetween(cutsOf(Root), cutsOf(Sockets)));
  }
  // The host joins the GPUs (the paper's 3e): LocB's two children, LocG and LocN, get half each.
  ASSERT_JACC(jacc_location_add_child("LocB", "LocN"));
  ASSERT_JACC(jacc_set_location("LocA"));
  std::vector<long long> Joined(Devs, 0);
  Joined[0] = Joined[1] = Devs == 2 ? 1 : Devs - 2; // a quarter each, the GPUs half in all
  for (int D = 2; D < Devs; ++D)
    Joined[D] = 2;
  EXPECT_EQ(writeThenReadEvenly(Write, "LocN"), fetchedBetween(cutsOf(Joined), cutsOf(Sockets)));
  // A file that cannot be read, or a bad line, fails jacc_init naming it.
  ASSERT_JACC(jacc_delete(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_delete(Y.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_finalize());
  setenv("JACC_CONFIG", (File + ".missing").c_str(), 1);
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(jacc_last_error()).find("JACC_CONFIG='" + File + ".missing'"),
            std::string::npos)
      << jacc_last_error();
  {
    std::FILE *F = std::fopen(File.c_str(), "w");
    ASSERT_TRUE(F);
    std::fputs("location LocA memory\nhierarchy LocA + LocZ\n", F);
    std::fclose(F);
  }
  setenv("JACC_CONFIG", File.c_str(), 1);
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(jacc_last_error()).find(File + ":2: no location is named 'LocZ'"),
            std::string::npos)
      << jacc_last_error();
  // Neither a device read forever, nor a FIFO that would block the start, nor a huge file.
  std::string Fifo = File + ".fifo";
  ASSERT_EQ(::mkfifo(Fifo.c_str(), 0600), 0);
  for (const std::string &Bad : {std::string("/dev/zero"), Fifo}) {
    setenv("JACC_CONFIG", Bad.c_str(), 1);
    EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(jacc_last_error()),
              "JACC_CONFIG='" + Bad + "' is not a regular file: give the path of a location file");
  }
  std::remove(Fifo.c_str());
  ASSERT_EQ(::truncate(File.c_str(), 2 << 20), 0);
  setenv("JACC_CONFIG", File.c_str(), 1);
  EXPECT_EQ(jacc_init(), JACC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(jacc_last_error()).find("holds 2097152 bytes; a location file is at most"),
            std::string::npos)
      << jacc_last_error();
  unsetenv("JACC_CONFIG");
  std::remove(File.c_str());
  ASSERT_JACC(jacc_init());
  ASSERT_JACC(jacc_copyin(X.data(), N * sizeof(float)));
  ASSERT_JACC(jacc_copyin(Y.data(), N * sizeof(float)));
}

/// JACC_POLICY=auto on host devices, one of them made slower (JACC_TEST_SLOWDOWN), over an array
/// x that a compute-heavy kernel rewrites and y that a read then writes.
class AutoPolicyTest : public ::testing::Test {
protected:
  static constexpr int n = 200000;
  void start(const char *Devices, const char *Slowdown) {
    ASSERT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
    setenv("JACC_DEVICES", Devices, 1);
    setenv("JACC_POLICY", "auto", 1);
    setenv("JACC_TEST_SLOWDOWN", Slowdown, 1);
    ASSERT_JACC(jacc_init());
    ASSERT_JACC(jacc_copyin(x, n * sizeof(float)));
    ASSERT_JACC(jacc_copyin(y, n * sizeof(float)));
  }
  void TearDown() override {
    EXPECT_JACC(jacc_delete(x, n * sizeof(float)));
    EXPECT_JACC(jacc_delete(y, n * sizeof(float)));
    unsetenv("JACC_POLICY");
    unsetenv("JACC_TEST_SLOWDOWN");
    EXPECT_EQ(jacc_finalize(), JACC_SUCCESS) << jacc_last_error();
  }
  /// Forty pushes of the compute-heavy kernel, its line Location (if any) above it.
  void work(const std::string &Location = "") {
    std::string Src = "#include <math.h>\n" + Location +
                      "#pragma acc parallel loop present(x)\n"
                      "for (int i = 0; i < n; i++)\n"
                      "  x[i] = sqrtf(x[i] + i) * 0.5f + sinf(0.001f * i);\n";
    for (int Push = 0; Push < 40; ++Push)
      ASSERT_JACC(jacc_kernel_push(Src.c_str(), 2, Args, JACC_DEFAULT));
  }
  /// The elements of x a forced-split read of it (Src) fetches, over n.
  double fetched(const std::string &Src) {
    EXPECT_EQ(jacc_update_device(y, n * sizeof(float)), JACC_SUCCESS);
    jacc_reset_stats();
    EXPECT_EQ(jacc_kernel_push(Src.c_str(), 3, Args, JACC_FORCE_SPLIT), JACC_SUCCESS)
        << jacc_last_error();
    jacc_stats S{};
    EXPECT_EQ(jacc_get_stats(&S), JACC_SUCCESS);
    return double(S.bytes_device_to_device) / sizeof(float) / n;
  }

  std::vector<float> Xv = std::vector<float>(n, 1.0f), Yv = std::vector<float>(n, 0.0f);
  float *x = Xv.data(), *y = Yv.data();
  int N_ = n;
  jacc_arg Args[3] = {{"int n", &N_}, {"float *x", &x}, {"float *y", &y}};
};

// Two host devices, the second 3 times slower: the balance moves about three quarters of the
// work to the first. Its share is read from the bytes an even split then fetches: |share - 1/2|
// of the elements.
TEST_F(AutoPolicyTest, TheFasterDeviceGetsMoreOfTheWork) {
  ASSERT_NO_FATAL_FAILURE(start("host:2", "1:3"));
  ASSERT_NO_FATAL_FAILURE(work());
  // About 0.75 on an idle machine. On a busy one the slow device's thread also waits for a core,
  // so it is slower still and the balance rightly gives it less, down to its floor (2 %).
  double FirstShare = 0.5 + fetched(ReadEvenly);
  EXPECT_GT(FirstShare, 0.62);
  EXPECT_LE(FirstShare, 0.985); // the slow device's floor: 2 % of the work
}

// Over a location: the balance shares the work of the devices under it only. host:3, device 2
// three times slower; the kernel targets "tail" (devices 1 and 2): device 1 gets about three
// quarters (read on it alone, it fetches what device 2 wrote), and device 0 never writes.
TEST_F(AutoPolicyTest, ItBalancesOverTheTargetedLocationsDevicesOnly) {
  ASSERT_NO_FATAL_FAILURE(start("host:3", "2:3"));
  ASSERT_JACC(jacc_location_add("tail"));
  ASSERT_JACC(jacc_location_add_child("devices", "tail"));
  ASSERT_JACC(jacc_location_add_child("tail", "host:1"));
  ASSERT_JACC(jacc_location_add_child("tail", "host:2"));
  ASSERT_NO_FATAL_FAILURE(work("#pragma jacc location(tail)\n"));
  auto ReadOn = [](const char *Device) {
    return "#pragma jacc location(" + std::string(Device) + ")\n" + ReadShifted;
  };
  double SecondShare = 1 - fetched(ReadOn("host:1"));
  EXPECT_GT(SecondShare, 0.62);
  EXPECT_LE(SecondShare, 0.985);
  // (After that read, device 1 holds x whole: device 0 fetches it all from there.)
  EXPECT_EQ(fetched(ReadOn("host:0")), 1.0) << "device 0 is outside 'tail': it wrote nothing";
}

INSTANTIATE_TEST_SUITE_P(Devices, PolicyTest, ::testing::Values(2, 3, 4),
                         [](const ::testing::TestParamInfo<int> &I) {
                           return "host" + std::to_string(I.param);
                         });

} // namespace
