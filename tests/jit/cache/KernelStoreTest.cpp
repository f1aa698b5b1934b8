// Tests of compiled kernels in the disk cache: the entry key, storing a compiled kernel and
// loading it back into the JIT without analysis or code generation (its split entry and GPU
// images too), and bad entries being misses.
#include "jit/cache/KernelStore.h"
#include "jit/cuda/CudaCodeTarget.h"

#include "jit/cache/KernelSummary.h"
#include "jit/cache/StoreFormat.h"
#include "jit/host/HostABI.h"
#include "support/Error.h"
#include "tests/ScopedEnv.h"

#include <gtest/gtest.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <tuple>

#include <fstream>
#include <map>
#include <set>
#include <string>

#include <unistd.h>

using namespace jacc;
using namespace jacc::jit;

namespace {

const char *const Scale = "#pragma acc parallel loop\n"
                          "for (int i = 0; i < n; i++) x[i] = a * x[i];\n";
const std::vector<std::string> ScaleDecls = {"double *x", "int n", "double a"};

class KernelStoreTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-store-test", D));
    Dir = D.str().str();
    auto C = DiskCache::open(Dir, 1ull << 30);
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    Cache = std::make_shared<DiskCache>(std::move(*C));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  DiskSlot slot(const char *Src, const std::vector<std::string> &Decls) {
    return {Cache, diskCacheKey(Src, Decls, 0)};
  }
  std::shared_ptr<const CompiledKernel> compileInto(const DiskSlot &S, const char *Src,
                                                    const std::vector<std::string> &Decls) {
    auto K = compileKernel(Src, Decls, S);
    if (!K) {
      ADD_FAILURE() << llvm::toString(K.takeError());
      return nullptr;
    }
    return *K;
  }
  /// Run a loaded kernel's plain entry on one thread: x[i] *= a.
  static void runScale(const CompiledKernel &K, double *X, int N, double A) {
    jacc_host_team T{};
    T.tid = 0;
    T.nthreads = 1;
    const jacc_host_team *TP = &T;
    // Parameters in ArgInfo::Param order (scalars first): n, a, x.
    void *Values[4] = {&N, &A, &X, &TP};
    K.Call->call(K.Entry, Values);
  }

  std::string Dir;
  std::shared_ptr<DiskCache> Cache;
};

TEST_F(KernelStoreTest, KeyDependsOnEveryInputAndOnlyOnThem) {
  std::string K = diskCacheKey(Scale, ScaleDecls, 0);
  EXPECT_EQ(K.size(), 64u); // SHA-256, hex
  EXPECT_EQ(K, diskCacheKey(Scale, ScaleDecls, 0));
  EXPECT_NE(K, diskCacheKey(std::string(Scale) + " ", ScaleDecls, 0));
  EXPECT_NE(K, diskCacheKey(Scale, {"double *x", "int n", "float a"}, 0));
  EXPECT_NE(K, diskCacheKey(Scale, ScaleDecls, 1));
  // Length-prefixed fields: moving text between the source and a declaration changes the key.
  EXPECT_NE(diskCacheKey("ab", {"c"}, 0), diskCacheKey("a", {"bc"}, 0));
  // The CUDA block size override changes the generated code, so the key.
  {
    ScopedEnv Block("JACC_CUDA_BLOCK_SIZE", "128");
    EXPECT_NE(K, diskCacheKey(Scale, ScaleDecls, 0));
  }
  ScopedEnv Auto("JACC_CUDA_BLOCK_SIZE", "auto");
  EXPECT_EQ(K, diskCacheKey(Scale, ScaleDecls, 0));
}

TEST_F(KernelStoreTest, CompiledKernelIsStoredAndLoadsBackWithoutAnalysis) {
  DiskSlot S = slot(Scale, ScaleDecls);
  auto Compiled = compileInto(S, Scale, ScaleDecls);
  ASSERT_TRUE(Compiled);
  std::string Warning;
  auto Summary = Cache->lookup(S.Key, Warning);
  ASSERT_TRUE(Summary) << Warning;
  EXPECT_EQ(Summary->getString("name").value_or(""), "for (int i = 0; i < n; i++) x[i] = a * x[i];");
  EXPECT_EQ(Summary->getString("source").value_or(""), Scale);

  auto Loaded = loadKernel(S);
  ASSERT_TRUE(Loaded);
  EXPECT_FALSE(Loaded->InfoComplete);
  EXPECT_TRUE(Loaded->HostSource.empty()); // nothing was generated
  ASSERT_EQ(Loaded->Info.Args.size(), 3u);
  for (size_t I = 0; I < 3; ++I) {
    EXPECT_EQ(Loaded->Info.Args[I].Name, Compiled->Info.Args[I].Name);
    EXPECT_EQ(Loaded->Info.Args[I].Param, Compiled->Info.Args[I].Param);
    EXPECT_EQ(Loaded->Info.Args[I].Size, Compiled->Info.Args[I].Size);
    EXPECT_EQ(static_cast<int>(Loaded->Info.Args[I].ArgKind),
              static_cast<int>(Compiled->Info.Args[I].ArgKind));
  }
  EXPECT_EQ(Loaded->Info.Split.Enabled, Compiled->Info.Split.Enabled);
  ASSERT_EQ(Loaded->Info.Split.Plan.Arrays.size(), 1u);
  EXPECT_EQ(Loaded->Info.Split.Plan.Arrays[0].Name, "x");
  double X[5] = {1, 2, 3, 4, 5};
  runScale(*Loaded, X, 5, 3.0);
  EXPECT_EQ(X[4], 15.0);
  // A hit counts.
  auto Entry = Cache->find(S.Key.substr(0, 10));
  ASSERT_TRUE(bool(Entry)) << llvm::toString(Entry.takeError());
  EXPECT_EQ(Entry->Hits, 1u);
}

TEST_F(KernelStoreTest, TextThatIsNotUtf8IsStoredAndLoadsBackByteForByte) {
  // Latin-1 bytes in comments of the kernel and of a declaration: JSON text must be UTF-8, so
  // these go in as bytes and come back unchanged.
  const char *Src = "/* caf\xe9 */\n#pragma acc parallel loop\n"
                    "for (int i = 0; i < n; i++) x[i] = a * x[i]; // \xff\n";
  const std::vector<std::string> Decls = {"double *x /* \xe9t\xe9 */", "int n", "double a"};
  DiskSlot S = slot(Src, Decls);
  ASSERT_TRUE(compileInto(S, Src, Decls));
  std::string Warning;
  auto Summary = Cache->lookup(S.Key, Warning);
  ASSERT_TRUE(Summary) << Warning;
  EXPECT_EQ(diskcache::textOf(Summary->get("source")), std::optional<std::string>(Src));
  auto Loaded = loadKernel(S);
  ASSERT_TRUE(Loaded);
  EXPECT_EQ(Loaded->Info.Source, Src);
  EXPECT_EQ(Loaded->Info.Decls, Decls);
  double X[3] = {1, 2, 3};
  runScale(*Loaded, X, 3, 2.0);
  EXPECT_EQ(X[2], 6.0);
}

TEST_F(KernelStoreTest, AReadOnlyCacheServesHitsAndWritesNothing) {
  DiskSlot S = slot(Scale, ScaleDecls);
  ASSERT_TRUE(compileInto(S, Scale, ScaleDecls));
  std::string EntryJson = Cache->entryDir(S.Key) + "/entry.json";
  llvm::sys::fs::file_status Before;
  ASSERT_FALSE(llvm::sys::fs::status(EntryJson, Before));
  // A directory without write permission opens read-only (root ignores permissions: then it
  // stays writable), and JACC_CACHE=readonly asks for it.
  ASSERT_FALSE(llvm::sys::fs::setPermissions(Dir, llvm::sys::fs::perms(0555)));
  auto ByMode = DiskCache::open(Dir, 1ull << 30);
  llvm::sys::fs::setPermissions(Dir, llvm::sys::fs::all_all); // restored before any assertion
  ASSERT_TRUE(bool(ByMode)) << llvm::toString(ByMode.takeError());
  EXPECT_EQ(ByMode->readOnly(), geteuid() != 0);
  auto RO = DiskCache::open(Dir, 1ull << 30, /*ReadOnly=*/true);
  ASSERT_TRUE(bool(RO)) << llvm::toString(RO.takeError());
  auto ROCache = std::make_shared<DiskCache>(std::move(*RO));
  ASSERT_TRUE(ROCache->readOnly());
  auto Loaded = loadKernel({ROCache, S.Key});
  ASSERT_TRUE(Loaded) << "a read-only cache serves its entries";
  EXPECT_FALSE(bool(ROCache->recordHit(S.Key))); // success: nothing recorded
  EXPECT_FALSE(bool(ROCache->store("ab", llvm::json::Object{}, {})));
  llvm::Error Clear = ROCache->clear();
  ASSERT_TRUE(bool(Clear));
  EXPECT_NE(llvm::toString(std::move(Clear)).find("is read-only"), std::string::npos);
  llvm::sys::fs::file_status After;
  ASSERT_FALSE(llvm::sys::fs::status(EntryJson, After));
  EXPECT_EQ(After.getLastModificationTime(), Before.getLastModificationTime());
  EXPECT_FALSE(llvm::sys::fs::exists(Cache->entryDir("ab")));
  // Read-only needs a cache to read.
  auto None = DiskCache::open(Dir + "/none", 1ull << 30, /*ReadOnly=*/true);
  ASSERT_FALSE(bool(None));
  EXPECT_NE(llvm::toString(None.takeError()).find("is not a jacc kernel cache"),
            std::string::npos);
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/none"));
}

TEST_F(KernelStoreTest, SplitEntryIsCompiledOnceThenLoadedFromTheEntry) {
  DiskSlot S = slot(Scale, ScaleDecls);
  auto Compiled = compileInto(S, Scale, ScaleDecls);
  ASSERT_TRUE(Compiled);
  auto Split = Compiled->splitCode();
  ASSERT_TRUE(bool(Split)) << llvm::toString(Split.takeError());
  EXPECT_FALSE((*Split)->HostSource.empty()); // generated and compiled here
  auto Loaded = loadKernel(S);
  ASSERT_TRUE(Loaded);
  auto Again = Loaded->splitCode();
  ASSERT_TRUE(bool(Again)) << llvm::toString(Again.takeError());
  EXPECT_TRUE((*Again)->HostSource.empty()); // from the entry: nothing generated
  EXPECT_NE((*Again)->Entry, nullptr);
}

TEST_F(KernelStoreTest, LoadedKernelAnalysesAgainOnlyToGenerateNewCode) {
  DiskSlot S = slot(Scale, ScaleDecls);
  ASSERT_TRUE(compileInto(S, Scale, ScaleDecls));
  auto Loaded = loadKernel(S);
  ASSERT_TRUE(Loaded);
  // No split entry on disk yet: generating it needs the whole analysis again.
  auto Split = Loaded->splitCode();
  ASSERT_TRUE(bool(Split)) << llvm::toString(Split.takeError());
  EXPECT_FALSE((*Split)->HostSource.empty());
  auto Full = Loaded->completeInfo();
  ASSERT_TRUE(bool(Full));
  EXPECT_FALSE((*Full)->Stmts.empty());
}

TEST_F(KernelStoreTest, GpuImagesAreStoredAndLoadedWithoutNvrtc) {
  if (!nvrtcAvailable())
    GTEST_SKIP() << "this build has no NVRTC";
  ScopedEnv NoVerify("JACC_CUDA_VERIFY", nullptr);
  DiskSlot S = slot(Scale, ScaleDecls);
  auto Compiled = compileInto(S, Scale, ScaleDecls);
  ASSERT_TRUE(Compiled);
  auto C = cudaCodeOf(*Compiled, 80, false);
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_FALSE((*C)->Kernel.Source.empty());
  auto Loaded = loadKernel(S);
  ASSERT_TRUE(Loaded);
  auto D = cudaCodeOf(*Loaded, 80, false);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_TRUE((*D)->Kernel.Source.empty()); // from the entry
  EXPECT_EQ((*D)->Image.Image, (*C)->Image.Image);
  EXPECT_EQ((*D)->Kernel.Entry, (*C)->Kernel.Entry);
  EXPECT_EQ((*D)->Kernel.Params.size(), (*C)->Kernel.Params.size());
  EXPECT_EQ((*D)->Kernel.BlockSize, (*C)->Kernel.BlockSize);
  EXPECT_EQ((*D)->Image.SmVersion, 80u);
}

TEST_F(KernelStoreTest, CorruptHostObjectIsAMissAndTheNextStoreReplacesIt) {
  DiskSlot S = slot(Scale, ScaleDecls);
  ASSERT_TRUE(compileInto(S, Scale, ScaleDecls));
  // Flip a byte of the stored object.
  std::string Path = Dir + "/" + S.Key.substr(0, 2) + "/" + S.Key + "/host.o";
  std::fstream F(Path, std::ios::in | std::ios::out | std::ios::binary);
  ASSERT_TRUE(F.good()) << Path;
  F.seekg(100);
  char C = 0;
  F.read(&C, 1);
  C ^= 0x5a;
  F.seekp(100);
  F.write(&C, 1);
  F.close();
  EXPECT_EQ(loadKernel(S), nullptr);
  // Compiling again replaces the entry; then it loads.
  ASSERT_TRUE(compileInto(S, Scale, ScaleDecls));
  EXPECT_NE(loadKernel(S), nullptr);
}

TEST_F(KernelStoreTest, SummaryRoundTripsTheRuntimePartOfTheAnalysis) {
  auto K = compileKernel("#pragma acc parallel loop reduction(+:s) reduction(max:m)\n"
                         "for (int i = 0; i < n; i++) { y[i] = x[i]; s += x[i]; "
                         "m = x[i] > m ? x[i] : m; }\n",
                         {"const double *x", "double *y", "int n", "double s", "double m"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  const analysis::KernelInfo &I = (*K)->Info;
  llvm::json::Object Summary = kernelSummary(I, "test-target", 1.5, 2.5);
  EXPECT_EQ(Summary.getString("target").value_or(""), "test-target");
  const llvm::json::Object *Split = Summary.getObject("split");
  ASSERT_NE(Split, nullptr);
  ASSERT_NE(Split->getArray("predicates"), nullptr);
  EXPECT_FALSE(Split->getArray("predicates")->empty());
  // What jacc-cache shows of the GPU entries: the access traits and the block size they give.
  const llvm::json::Object *Gpu = Summary.getObject("gpu");
  ASSERT_NE(Gpu, nullptr);
  EXPECT_EQ(Gpu->getInteger("block_size"), 256) << "2 flops for 2 accesses: medium intensity";
  EXPECT_EQ(Gpu->getString("traits").value_or(""),
            "coalescing full (2 of 2 accesses unit-stride or uniform), intensity medium (1.0 "
            "flops/access), sharing low (0 of 1 reads)");
  EXPECT_EQ(Gpu->getString("block_why").value_or(""),
            "no trait favours another size: the default");
  auto Back = runtimeInfoFromSummary(Summary);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  ASSERT_EQ(Back->Reductions.size(), 2u);
  EXPECT_EQ(Back->Reductions[1].Op, analysis::ReductionOp::Max);
  EXPECT_EQ(Back->Reductions[1].Slot, 1u);
  EXPECT_EQ(Back->Split.Plan.ReadArgs, I.Split.Plan.ReadArgs);
  EXPECT_EQ(Back->Split.Plan.Narrowable, I.Split.Plan.Narrowable);
  EXPECT_EQ(Back->Split.Plan.HasShareTerms, I.Split.Plan.HasShareTerms);
  // The pointer facts the kernel's variants may assume (x and y: plain pointers; no nest that
  // restrict lets the host code jam).
  EXPECT_TRUE(!I.MayRestrict && I.MayAlign);
  EXPECT_EQ(Back->MayRestrict, I.MayRestrict);
  EXPECT_EQ(Back->MayAlign, I.MayAlign);
  // A kernel from the disk cache has the name the analysis gave it, though its nests are not in
  // the summary (from the construct alone this one would be "#pragma acc parallel").
  auto Region = compileKernel("#pragma acc parallel present(y)\n"
                              "{\n"
                              "  #pragma acc loop\n"
                              "  for (int i = 0; i < n; i++) y[i] = 0;\n"
                              "}\n"
                              "// jacc-site: heat.c:42\n",
                              {"int n", "double *y"});
  ASSERT_TRUE(bool(Region)) << llvm::toString(Region.takeError());
  auto RegionBack = runtimeInfoFromSummary(kernelSummary((*Region)->Info, "t", 0, 0));
  ASSERT_TRUE(bool(RegionBack)) << llvm::toString(RegionBack.takeError());
  EXPECT_EQ((*Region)->Info.Name.Display, "for (int i = 0; i < n; i++) y[i] = 0;");
  EXPECT_EQ(RegionBack->Name.Display, (*Region)->Info.Name.Display);
  EXPECT_EQ(RegionBack->Name.Site, "heat.c:42");
  auto MatVec = compileKernel("#pragma acc parallel loop\n"
                              "for (int i = 0; i < n; i++) {\n"
                              "  double s = 0;\n"
                              "  for (int j = 0; j < n; j++) s += a[i * n + j] * x[j];\n"
                              "  y[i] = s;\n"
                              "}\n",
                              {"int n", "const double *a", "const double *x", "double *y"});
  ASSERT_TRUE(bool(MatVec)) << llvm::toString(MatVec.takeError());
  ASSERT_TRUE((*MatVec)->Info.MayRestrict);
  auto MatVecBack = runtimeInfoFromSummary(kernelSummary((*MatVec)->Info, "t", 0, 0));
  ASSERT_TRUE(bool(MatVecBack)) << llvm::toString(MatVecBack.takeError());
  EXPECT_TRUE(MatVecBack->MayRestrict);
  // Whether the kernel's writes are known: a launch on one device of a kernel whose are not
  // takes every mapping it uses as written there.
  EXPECT_TRUE(Back->Split.Plan.Splittable);
  auto Unknown = compileKernel("#pragma acc parallel loop\n"
                               "for (int i = 0; i < n; i++) { double *p = y + i; *p = x[i]; }\n",
                               {"int n", "const double *x", "double *y"});
  ASSERT_TRUE(bool(Unknown)) << llvm::toString(Unknown.takeError());
  ASSERT_FALSE((*Unknown)->Info.Split.Plan.Splittable);
  auto UnknownBack = runtimeInfoFromSummary(kernelSummary((*Unknown)->Info, "t", 0, 0));
  ASSERT_TRUE(bool(UnknownBack)) << llvm::toString(UnknownBack.takeError());
  EXPECT_FALSE(UnknownBack->Split.Plan.Splittable);
  ASSERT_EQ(Back->Split.Plan.Arrays.size(), I.Split.Plan.Arrays.size());
  EXPECT_EQ(Back->Split.Plan.Arrays[0].Writes.size(), I.Split.Plan.Arrays[0].Writes.size());
  // A summary with a field missing, or out of range, is an error (a miss for the cache).
  llvm::json::Object Broken = kernelSummary(I, "t", 0, 0);
  Broken.getObject("kernel")->erase("reductions");
  EXPECT_FALSE(bool(runtimeInfoFromSummary(Broken)));
  consumeError(runtimeInfoFromSummary(Broken).takeError());
  llvm::json::Object OutOfRange = kernelSummary(I, "t", 0, 0);
  (*OutOfRange.getObject("kernel")->getArray("reductions"))[0].getAsObject()->insert(
      {"arg", 99});
  (*OutOfRange.getObject("kernel")->getArray("reductions"))[0].getAsObject()->operator[]("arg") =
      99;
  EXPECT_FALSE(bool(runtimeInfoFromSummary(OutOfRange)));
  consumeError(runtimeInfoFromSummary(OutOfRange).takeError());
}

TEST_F(KernelStoreTest, SummaryRoundTripsTheReadExtents) {
  // A kernel loaded from the disk cache must fetch what its probe reports: the extents' layout
  // (whole or ranges) and their bounds come back as analysed.
  auto K =
      compileKernel("#pragma acc parallel loop\n"
                    "for (int i = 1; i < n - 1; i++)\n"
                    "  y[i] = x[i - 1] + x[i + 1] + z[idx[i]];\n",
                    {"const double *x", "double *y", "const double *z", "const int *idx", "int n"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  const analysis::KernelInfo &I = (*K)->Info;
  ASSERT_TRUE(I.Split.Enabled) << I.Split.Fallback;
  EXPECT_TRUE(I.Split.ProbeExact);
  auto Back = runtimeInfoFromSummary(kernelSummary(I, "t", 0, 0));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_TRUE(Back->Split.ProbeExact);
  ASSERT_EQ(Back->Split.Reads.size(), I.Split.Reads.size());
  for (size_t R = 0; R < I.Split.Reads.size(); ++R)
    EXPECT_EQ(analysis::describeReadExtent(Back->Split.Reads[R]),
              analysis::describeReadExtent(I.Split.Reads[R]));
  llvm::json::Object Bad = kernelSummary(I, "t", 0, 0);
  (*Bad.getObject("kernel")->getArray("reads"))[0].getAsObject()->operator[]("arg") = 99;
  EXPECT_FALSE(bool(runtimeInfoFromSummary(Bad)));
  consumeError(runtimeInfoFromSummary(Bad).takeError());
}

TEST_F(KernelStoreTest, SummaryRoundTripsLinearizedWritesAndReads) {
  // Rows of a run-time length c: the writes' scale and span narrow a loaded kernel as they did
  // the analysed one, its reads' bounds scale as analysed.
  auto K = compileKernel("#pragma acc parallel loop\n"
                         "for (int i = 1; i < r - 1; i++)\n"
                         "  for (int j = 1; j < c - 1; j++)\n"
                         "    a[i * c + j] = b[(i - 1) * c + j] + b[(i + 1) * c + j];\n",
                         {"int r", "int c", "double *a", "const double *b"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  const analysis::KernelInfo &I = (*K)->Info;
  ASSERT_TRUE(I.Split.Plan.Narrowable) << I.Split.Plan.NoNarrowing;
  auto Back = runtimeInfoFromSummary(kernelSummary(I, "t", 0, 0));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  const analysis::AffineWrite &A = I.Split.Plan.Arrays[0].Writes[0],
                              &B = Back->Split.Plan.Arrays[0].Writes[0];
  EXPECT_EQ(std::tie(B.Coef, B.Offset, B.Scale, B.Least, B.Greatest),
            std::tie(A.Coef, A.Offset, A.Scale, A.Least, A.Greatest));
  EXPECT_EQ(A.Scale, "(c)");
  ASSERT_EQ(Back->Split.Reads.size(), 1u);
  EXPECT_EQ(analysis::describeReadExtent(Back->Split.Reads[0]),
            analysis::describeReadExtent(I.Split.Reads[0]));
  EXPECT_EQ(Back->Split.Reads[0].Ranges[0].Begin.Scale, "(c)");
  // b is read in the loop that writes a: after a write, for the aliasing check.
  EXPECT_EQ(I.Split.Plan.ReadAfterWrite, std::set<unsigned>{3});
  EXPECT_EQ(Back->Split.Plan.ReadAfterWrite, I.Split.Plan.ReadAfterWrite);
  // v is read only at the element its statement writes through r.
  auto R = compileKernel("#pragma acc parallel loop\n"
                         "for (int i = 0; i < n; i++)\n"
                         "  for (int j = 0; j < m; j++)\n"
                         "    r[i * m + j] = v[i * m + j] + 1;\n",
                         {"int n", "int m", "double *r", "const double *v"});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  const analysis::KernelInfo &RI = (*R)->Info;
  auto RBack = runtimeInfoFromSummary(kernelSummary(RI, "t", 0, 0));
  ASSERT_TRUE(bool(RBack)) << llvm::toString(RBack.takeError());
  EXPECT_EQ(RI.Split.Plan.ReadsOwnElement, (std::map<unsigned, std::set<unsigned>>{{3, {2}}}));
  EXPECT_EQ(RBack->Split.Plan.ReadsOwnElement, RI.Split.Plan.ReadsOwnElement);
}

TEST_F(KernelStoreTest, SummaryRoundTripsTheWindows) {
  // A boundary plane loaded from the disk cache fetches and records only its planes.
  auto K = compileKernel("#pragma acc parallel loop\n"
                         "for (int j = 0; j < 16; j++)\n"
                         "  for (int m = 0; m < 2; m++)\n"
                         "    r[m][k][j] = r[m][k][j] + u[m][k + 1][j];\n",
                         {"int k", "double (*r)[8][16]", "const double (*u)[8][16]"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  const analysis::KernelInfo &I = (*K)->Info;
  ASSERT_TRUE(I.Split.Enabled) << I.Split.Fallback;
  ASSERT_EQ(I.Split.Plan.Arrays.size(), 1u);
  ASSERT_EQ(I.Split.Plan.Arrays[0].Windows.size(), 2u);
  auto Back = runtimeInfoFromSummary(kernelSummary(I, "t", 0, 0));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  for (size_t R = 0; R < I.Split.Reads.size(); ++R) {
    EXPECT_FALSE(I.Split.Reads[R].Windows.empty());
    EXPECT_EQ(analysis::describeReadExtent(Back->Split.Reads[R]),
              analysis::describeReadExtent(I.Split.Reads[R]));
  }
  const analysis::SplitArray &A = I.Split.Plan.Arrays[0], &B = Back->Split.Plan.Arrays[0];
  ASSERT_EQ(B.Windows.size(), A.Windows.size());
  for (size_t W = 0; W < A.Windows.size(); ++W) {
    EXPECT_EQ(B.Windows[W].Dim, A.Windows[W].Dim);
    ASSERT_EQ(B.Windows[W].Ranges.size(), A.Windows[W].Ranges.size());
    EXPECT_EQ(analysis::describeBound(B.Windows[W].Ranges[0].End),
              analysis::describeBound(A.Windows[W].Ranges[0].End));
  }
  // A window along the split dimension itself is refused (a miss for the cache).
  llvm::json::Object Bad = kernelSummary(I, "t", 0, 0);
  auto &Arrays = *Bad.getObject("kernel")->getArray("arrays");
  (*Arrays[0].getAsObject()->getArray("windows"))[0].getAsObject()->operator[]("dim") =
      int64_t(A.Dim);
  EXPECT_FALSE(bool(runtimeInfoFromSummary(Bad)));
  consumeError(runtimeInfoFromSummary(Bad).takeError());
}

TEST_F(KernelStoreTest, SummaryRoundTripsTheSplitTwin) {
  // A kernel loaded from the disk cache chooses between its forms as one just analysed does.
  auto K = compileKernel("#pragma acc parallel loop gang\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  #pragma acc loop worker\n"
                         "  for (int j = 0; j < n; j++)\n"
                         "    b[i][j] = 2 * a[i][j];\n"
                         "}\n",
                         {"int n", "const double (*a)[n]", "double (*b)[n]"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  const analysis::KernelInfo &I = (*K)->Info;
  ASSERT_FALSE(I.Split.Twin.empty());
  ASSERT_FALSE(I.Split.TwinAxes.empty());
  auto Back = runtimeInfoFromSummary(kernelSummary(I, "t", 0, 0));
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Split.Twin, I.Split.Twin);
  EXPECT_EQ(Back->Split.TwinAxes, I.Split.TwinAxes);
  llvm::json::Object Bad = kernelSummary(I, "t", 0, 0);
  (*Bad.getObject("kernel")->getArray("twin_axes"))[0] = llvm::json::Array{1, 2};
  EXPECT_FALSE(bool(runtimeInfoFromSummary(Bad)));
  consumeError(runtimeInfoFromSummary(Bad).takeError());
  // An axis of an argument the kernel does not have.
  llvm::json::Object Outside = kernelSummary(I, "t", 0, 0);
  (*Outside.getObject("kernel")->getArray("twin_axes"))[0] = llvm::json::Array{99, 0, 2};
  EXPECT_FALSE(bool(runtimeInfoFromSummary(Outside)));
  consumeError(runtimeInfoFromSummary(Outside).takeError());
}

} // namespace
