// Kernel variants (jit/specialize/KernelVariants.h): the policy's choice at each push, compiled now
// or in the background, the variant's entry run through the generic call interface, and the
// variants' artifacts and hit counts in the kernel's disk cache entry.
#include "jit/specialize/KernelVariants.h"

#include "jit/CompiledKernel.h"
#include "jit/cache/DiskCache.h"
#include "jit/cache/KernelEntry.h"
#include "jit/cache/KernelStore.h"
#include "jit/cache/KernelSummary.h"
#include "jit/cuda/CudaCodeTarget.h"
#include "jit/host/HostABI.h"
#include "jit/specialize/BackgroundCompiler.h"
#include "tests/ScopedEnv.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace jacc::jit;

namespace {

const char *const Scale = "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) x[i] = a * x[i] + s;\n";
const std::vector<std::string> ScaleDecls = {"double *x", "int n", "double a", "double s"};

class KernelVariantsTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-variants-test", D));
    Dir = D.str().str();
    auto C = DiskCache::open(Dir, 1ull << 30);
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    Cache = std::make_shared<DiskCache>(std::move(*C));
    auto K = compileKernel(Scale, ScaleDecls, {Cache, diskCacheKey(Scale, ScaleDecls, 0)});
    ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
    Kernel = *K;
    // These pushes are bound by no plan: nothing is proven about their pointers (the entries
    // run on vectors aligned as operator new aligns them).
    Kernel->Variants.notePointers({});
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// The variant for a push of (x, n, a, s), by position (a timed push when Trial is given).
  const VariantCode *choose(int N, double A, double S, bool Wait = true,
                            TrialLaunch *Trial = nullptr) {
    double *X = nullptr;
    const void *Values[] = {&X, &N, &A, &S};
    Settings.Wait = Wait;
    auto V = Kernel->Variants.choose(Kernel, Values, Settings, BG, Trial);
    if (!V) {
      ADD_FAILURE() << llvm::toString(V.takeError());
      return nullptr;
    }
    return *V;
  }
  /// Run Entry (a variant's, or the generic one) on one thread through the generic interface.
  void run(void *Entry, std::vector<double> &X, int N, double A, double S) {
    jacc_host_team T{};
    T.tid = 0;
    T.nthreads = 1;
    const jacc_host_team *TP = &T;
    double *XP = X.data();
    // Parameters in ArgInfo::Param order (scalars first): n, a, s, x.
    void *Values[5] = {&N, &A, &S, &XP, &TP};
    Kernel->Call->call(Entry, Values);
  }
  std::optional<llvm::json::Object> specJson(const VariantCode &V) {
    std::string Warning;
    auto Text =
        Cache->readArtifact(Kernel->Disk.Key, variantArtifactStem(V.Key) + ".json", Warning);
    if (!Text)
      return std::nullopt;
    auto J = llvm::json::parse(*Text);
    if (!J || !J->getAsObject())
      return std::nullopt;
    return *J->getAsObject();
  }

  std::string Dir;
  std::shared_ptr<DiskCache> Cache;
  std::shared_ptr<const CompiledKernel> Kernel;
  SpecializeSettings Settings;
  BackgroundCompiler BG;
};

TEST_F(KernelVariantsTest, AlwaysCompilesAVariantPerValuesAndRunsIt) {
  Settings.Policy.Policy = Specializer::Mode::Always;
  const VariantCode *V = choose(6, 2.0, 0.5);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Key, "n=6;a=0x1p+1;s=0x1p-1");
  EXPECT_NE(V->HostSource.find("int n = 6;"), std::string::npos) << V->HostSource;
  EXPECT_EQ(choose(6, 2.0, 0.5), V) << "the same values: the same variant";
  EXPECT_EQ(V->Hits.load(), 2u);
  const VariantCode *W = choose(6, 3.0, 0.5);
  ASSERT_TRUE(W);
  EXPECT_NE(W, V);
  EXPECT_EQ(Kernel->Variants.compiled().size(), 2u);
  // The variant's entry computes what the generic one does, for its values.
  std::vector<double> Generic(8, 1.5), Special(8, 1.5);
  run(Kernel->Entry, Generic, 6, 3.0, 0.5);
  run(W->Entry, Special, 6, 3.0, 0.5);
  EXPECT_EQ(Special, Generic);
  EXPECT_EQ(Special[5], 5.0);
  EXPECT_EQ(Special[6], 1.5) << "n = 6 folded: index 6 untouched";
  EXPECT_TRUE(W->SplitEntry) << "the kernel splits: the variant has a split entry too";
}

TEST_F(KernelVariantsTest, WithoutWaitTheVariantIsPublishedByTheBackgroundCompiler) {
  Settings.Policy.Policy = Specializer::Mode::Always;
  EXPECT_EQ(choose(4, 1.0, 0.0, /*Wait=*/false), nullptr) << "the generic kernel meanwhile";
  BG.drain();
  const VariantCode *V = choose(4, 1.0, 0.0, false);
  ASSERT_TRUE(V);
  EXPECT_EQ(V->Key, "n=4;a=0x1p+0;s=0x0p+0");
}

TEST_F(KernelVariantsTest, AutoVariantsAreTriedAgainstTheGenericCode) {
  for (bool Faster : {true, false}) {
    SCOPED_TRACE(Faster ? "the variant is faster" : "the variant is not faster");
    Settings.Policy.Policy = Specializer::Mode::Auto;
    Settings.Policy.Repeat = 1;
    Settings.PaybackFactor = 0; // compiled at once (the payback has a test of its own)
    int N = Faster ? 5 : 7;     // one variant per case
    ASSERT_EQ(choose(N, 1.0, 0.0, /*Wait=*/false), nullptr) << "compiling";
    BG.drain();
    // Timed pushes alternate in blocks: the variant, the generic code twice, the variant.
    for (unsigned Round = 0; Round < VariantTrial::Blocks; ++Round)
      for (bool RunsVariant : {true, false, false, true}) {
        TrialLaunch T;
        const VariantCode *V = choose(N, 1.0, 0.0, false, &T);
        ASSERT_GE(T.Variant, 0) << "round " << Round;
        EXPECT_EQ(T.RunsVariant, RunsVariant);
        EXPECT_EQ(V != nullptr, RunsVariant);
        Kernel->Variants.recordTrial(T, RunsVariant ? (Faster ? 0.5 : 1.5) : 1.0);
      }
    // Decided: a faster variant runs from now on, a slower one never again.
    for (int I = 0; I < 3; ++I) {
      TrialLaunch T;
      EXPECT_EQ(choose(N, 1.0, 0.0, false, &T) != nullptr, Faster);
      EXPECT_EQ(T.Variant, -1) << "no trial after the verdict";
      EXPECT_EQ(choose(N, 1.0, 0.0, false) != nullptr, Faster) << "untimed pushes too";
    }
  }
  // Untimed pushes (asynchronous ones) run a variant on trial without taking part.
  ASSERT_EQ(choose(9, 1.0, 0.0, false), nullptr);
  BG.drain();
  EXPECT_NE(choose(9, 1.0, 0.0, false), nullptr);
  // A variant that is forced (always) or waited for is not put on trial.
  Settings.Policy.Policy = Specializer::Mode::Always;
  TrialLaunch T;
  EXPECT_NE(choose(11, 2.0, 0.0, /*Wait=*/true, &T), nullptr);
  EXPECT_EQ(T.Variant, -1);
}

// Under auto a variant not on disk compiles only once the kernel's timed generic pushes ran
// for its expected compile time; untimed (asynchronous) pushes do not count; a variant on disk
// loads at once whatever the kernel ran.
TEST_F(KernelVariantsTest, AutoCompilesAVariantOnceItsKernelRanForItsCompile) {
  Settings.Policy.Policy = Specializer::Mode::Auto;
  Settings.Policy.Repeat = 1;
  ASSERT_EQ(Settings.PaybackFactor, 1.0) << "the default";
  double Needed = expectedVariantCompileSeconds(*Kernel);
  EXPECT_EQ(Needed, 2 * Kernel->CompileMs * 1e-3) << "a kernel that splits: two entries";
  auto Push = [&](TrialLaunch *T) { return choose(3, 1.0, 0.0, /*Wait=*/false, T); };
  TrialLaunch First;
  EXPECT_EQ(Push(&First), nullptr);
  EXPECT_TRUE(First.Payback && First.Variant == 0) << "the creating push is timed for it";
  BG.drain(); // the disk lookup: not there
  Kernel->Variants.recordTrial(First, 0.6 * Needed);
  for (int I = 0; I < 20; ++I)
    EXPECT_EQ(Push(nullptr), nullptr) << "untimed pushes do not count";
  TrialLaunch Second;
  EXPECT_EQ(Push(&Second), nullptr);
  EXPECT_TRUE(Second.Payback);
  BG.drain();
  EXPECT_TRUE(Kernel->Variants.compiled().empty()) << "0.6 of the payback: not compiled";
  Kernel->Variants.recordTrial(Second, 0.6 * Needed);
  TrialLaunch Third;
  const VariantCode *Compiled = Push(&Third);
  ASSERT_TRUE(Compiled) << "due: this push compiled it, and runs it";
  EXPECT_FALSE(Compiled->FromDisk);
  EXPECT_EQ(Kernel->Variants.compiled().size(), 1u);
  EXPECT_TRUE(Third.RunsVariant && !Third.Payback) << "then tried against the generic code";

  // Another process (the kernel loaded from disk) finds it there: loaded at once.
  Kernel = loadKernel(Kernel->Disk);
  ASSERT_TRUE(Kernel);
  Kernel->Variants.notePointers({}); // as in SetUp: the same variant key
  Settings.PaybackFactor = 1e9;
  EXPECT_EQ(Push(nullptr), nullptr);
  BG.drain();
  const VariantCode *Loaded = Push(nullptr);
  ASSERT_TRUE(Loaded);
  EXPECT_TRUE(Loaded->FromDisk);
}

TEST_F(KernelVariantsTest, OffAndRepeatedValues) {
  Settings.Policy.Policy = Specializer::Mode::Auto;
  Settings.Policy.Repeat = 2;
  EXPECT_EQ(choose(9, 1.0, 1.0), nullptr);
  EXPECT_TRUE(choose(9, 1.0, 1.0)) << "the second push with the same values";
}

TEST_F(KernelVariantsTest, ArtifactsAndHitsOnDisk) {
  Settings.Policy.Policy = Specializer::Mode::Always;
  const VariantCode *V = choose(7, 2.5, 1.0);
  ASSERT_TRUE(V);
  EXPECT_FALSE(V->FromDisk);
  auto J = specJson(*V);
  ASSERT_TRUE(J);
  EXPECT_EQ(J->getString("values"), llvm::StringRef(V->Key));
  EXPECT_EQ(J->getInteger("hits"), 0);
  double CompileMs = J->getNumber("compile_ms").value_or(-1);
  EXPECT_GT(CompileMs, 0);
  // Another process (a fresh compile of the variant) loads it from the entry.
  auto Again = compileVariant(*Kernel, V->Spec);
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE((*Again)->FromDisk);
  EXPECT_TRUE((*Again)->Entry && (*Again)->SplitEntry);
  std::vector<double> X(8, 2.0);
  run((*Again)->Entry, X, 7, 2.5, 1.0);
  EXPECT_EQ(X[0], 6.0);
  EXPECT_EQ(X[7], 2.0);
  // Hits are added to the entry's count at each flush; the compile time stays the compile's.
  for (int I = 0; I < 4; ++I)
    choose(7, 2.5, 1.0);
  Kernel->Variants.flushHits(*Kernel);
  EXPECT_EQ(specJson(*V)->getInteger("hits"), 5);
  choose(7, 2.5, 1.0);
  Kernel->Variants.flushHits(*Kernel);
  Kernel->Variants.flushHits(*Kernel);
  EXPECT_EQ(specJson(*V)->getInteger("hits"), 6);
  EXPECT_EQ(specJson(*V)->getNumber("compile_ms"), CompileMs);
}

/// Architectures of the CUDA target, as a runtime's GPUs give them.
static std::vector<TargetArch> cudaArchs(std::initializer_list<unsigned> Sms) {
  std::vector<TargetArch> Archs;
  for (unsigned Sm : Sms)
    Archs.push_back({&cudaCodeTarget(), Sm});
  return Archs;
}

/// V's CUDA code for Sm; fails the test when V has none.
static const CudaCode &cudaOf(const VariantCode &V, unsigned Sm, bool Split) {
  const CudaCode *C = cudaCodeOf(V, Sm, Split);
  EXPECT_TRUE(C) << "no code for sm_" << Sm << (Split ? " split" : "");
  static const CudaCode None;
  return C ? *C : None;
}

TEST_F(KernelVariantsTest, CudaImagesOnDisk) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  Settings.Policy.Policy = Specializer::Mode::Always;
  Settings.DeviceArchs = cudaArchs({80});
  const VariantCode *V = choose(7, 2.5, 1.0);
  ASSERT_TRUE(V);
  ASSERT_EQ(V->Device.size(), 2u) << "the kernel splits: plain and split entries for sm_80";
  std::string Stem = variantArtifactStem(V->Key);
  auto Artifact = [&](const std::string &Name) {
    std::string Warning;
    return Cache->readArtifact(Kernel->Disk.Key, Name, Warning);
  };
  for (bool Split : {false, true}) {
    std::string Entry = Split ? ".sm_80-split" : ".sm_80";
    const CudaCode &C = cudaOf(*V, 80, Split);
    EXPECT_FALSE(C.Kernel.Source.empty()) << "compiled by NVRTC here";
    auto Image = Artifact(Stem + Entry + (C.Image.IsPtx ? ".ptx" : ".cubin"));
    ASSERT_TRUE(Image) << Stem << Entry;
    EXPECT_EQ(*Image, C.Image.Image);
    EXPECT_TRUE(Artifact(Stem + Entry + ".json")) << Stem << Entry;
  }
  // Another process (the kernel loaded from the entry) loads the variant and its images: no
  // NVRTC, so no CUDA source, PTX nor compile time.
  std::shared_ptr<const CompiledKernel> Loaded = loadKernel(Kernel->Disk);
  ASSERT_TRUE(Loaded);
  ASSERT_FALSE(Loaded->InfoComplete);
  auto Again = compileVariant(*Loaded, V->Spec, cudaArchs({80}));
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE((*Again)->FromDisk);
  ASSERT_EQ((*Again)->Device.size(), 2u);
  for (bool Split : {false, true}) {
    const CudaCode &C = cudaOf(**Again, 80, Split);
    const CudaCode &Compiled = cudaOf(*V, 80, Split);
    EXPECT_TRUE(C.Kernel.Source.empty()) << "loaded from disk";
    EXPECT_TRUE(C.Image.Ptx.empty() && C.Image.CompileMs == 0) << "loaded from disk";
    EXPECT_EQ(C.Image.Image, Compiled.Image.Image);
    EXPECT_EQ(C.Image.IsPtx, Compiled.Image.IsPtx);
    EXPECT_EQ(C.Image.SmVersion, 80u);
    EXPECT_EQ(llvm::json::Value(cudaLaunchToJson(C.Kernel)),
              llvm::json::Value(cudaLaunchToJson(Compiled.Kernel)));
  }
  // A new architecture: its images are compiled (the kernel analysed again) and added.
  auto More = compileVariant(*Loaded, V->Spec, cudaArchs({80, 90}));
  ASSERT_TRUE(bool(More)) << llvm::toString(More.takeError());
  ASSERT_EQ((*More)->Device.size(), 4u);
  EXPECT_TRUE(cudaOf(**More, 80, false).Kernel.Source.empty()) << "sm_80 from disk";
  EXPECT_FALSE(cudaOf(**More, 90, false).Kernel.Source.empty()) << "sm_90 compiled";
  EXPECT_FALSE(cudaOf(**More, 90, true).Kernel.Source.empty()) << "sm_90 compiled";
  EXPECT_TRUE(Artifact(Stem + ".sm_90.json"));
  EXPECT_TRUE(Artifact(Stem + ".sm_90-split.json"));
  auto Last = compileVariant(*Loaded, V->Spec, cudaArchs({90}));
  ASSERT_TRUE(bool(Last)) << llvm::toString(Last.takeError());
  EXPECT_TRUE(cudaOf(**Last, 90, true).Kernel.Source.empty()) << "sm_90 now from disk";
  EXPECT_EQ(specJson(*V)->getString("values"), llvm::StringRef(V->Key)) << "the record stays";
}

TEST_F(KernelVariantsTest, SettingsFromTheEnvironment) {
  jacc::ScopedEnv Wait("JACC_SPECIALIZE_WAIT", "yes please");
  auto S = specializeSettingsFromEnv();
  ASSERT_FALSE(bool(S));
  std::string Message = llvm::toString(S.takeError());
  EXPECT_NE(Message.find("JACC_SPECIALIZE_WAIT='yes please'"), std::string::npos) << Message;
  Wait.set("1");
  auto T = specializeSettingsFromEnv();
  ASSERT_TRUE(bool(T));
  EXPECT_TRUE(T->Wait);
  EXPECT_EQ(T->PaybackFactor, 1.0);
  for (const char *Bad : {"soon", "-1", "nan"}) {
    jacc::ScopedEnv Payback("JACC_SPECIALIZE_PAYBACK", Bad);
    auto P = specializeSettingsFromEnv();
    ASSERT_FALSE(bool(P)) << Bad;
    std::string Why = llvm::toString(P.takeError());
    EXPECT_NE(Why.find("JACC_SPECIALIZE_PAYBACK='" + std::string(Bad) + "'"), std::string::npos)
        << Why;
  }
  jacc::ScopedEnv Payback("JACC_SPECIALIZE_PAYBACK", "0.5");
  auto H = specializeSettingsFromEnv();
  ASSERT_TRUE(bool(H)) << llvm::toString(H.takeError());
  EXPECT_EQ(H->PaybackFactor, 0.5);
}

} // namespace
