// Compiling a kernel (analysis, host code, JIT entry, disk entry, JACC_CUDA_VERIFY), and building
// its split entry and CUDA images on first use, each loaded from disk or compiled once.
#include "jit/CompiledKernel.h"

#include "analysis/KernelSource.h"
#include "analysis/Pipeline.h"
#include "jit/cache/KernelEntry.h"
#include "jit/cache/KernelStore.h"
#include "jit/cache/KernelSummary.h"
#include "jit/cuda/CudaLaunchABI.h"
#include "jit/host/HostCodegen.h"
#include "jit/host/HostJIT.h"
#include "jit/server/CompileServer.h"
#include "support/Debug.h"
#include "support/Env.h"
#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>

#include <chrono>

namespace jacc::jit {

static double msSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}

llvm::Expected<std::vector<unsigned>> cudaVerifyArchsFromEnv() {
  llvm::StringRef Env = env::text(env::Var::CudaVerify);
  if (Env.trim() == "source")
    return std::vector<unsigned>{CudaSourceOnly};
  llvm::SmallVector<llvm::StringRef, 4> Archs;
  Env.split(Archs, ',', -1, false);
  std::vector<unsigned> Sms;
  for (llvm::StringRef A : Archs) {
    unsigned Sm = 0;
    llvm::StringRef T = A.trim();
    T.consume_front("sm_");
    if (T.getAsInteger(10, Sm))
      return env::invalid(env::Var::CudaVerify, Env, "architectures such as 75,80,90, or source");
    Sms.push_back(Sm);
  }
  return Sms;
}

/// K's CUDA entry generated, not compiled (JACC_CUDA_VERIFY=source).
static llvm::Error generateCuda(const CompiledKernel &K, bool Split) {
  auto Full = K.completeInfo();
  if (!Full)
    return Full.takeError();
  return generateCudaSource(**Full, Split).takeError();
}

/// JACC_CUDA_VERIFY: every kernel is also generated for CUDA and compiled by NVRTC for its
/// architectures, both entries, with the launch-ABI check; a failure fails the push. A kernel
/// CUDA code generation refuses by design (Unsupported: a long double or complex reduction, a
/// header with no device equivalent) is host-only: a push to a CUDA device reports the same
/// error, and the host runs it.
static llvm::Error verifyCuda(const CompiledKernel &K) {
  auto Archs = cudaVerifyArchsFromEnv();
  if (!Archs)
    return Archs.takeError();
  for (unsigned Sm : *Archs) {
    for (bool Split : {false, true}) {
      if (Split && !K.Info.Split.Enabled)
        continue;
      llvm::Error E =
          Sm == CudaSourceOnly ? generateCuda(K, Split) : K.cudaCode(Sm, Split).takeError();
      if (!E)
        continue;
      std::string Msg;
      if (takeError(std::move(E), Msg) == ErrorCode::Unsupported) {
        debugLog("codegen", "JACC_CUDA_VERIFY: host-only kernel: " + Msg);
        return llvm::Error::success();
      }
      std::string Target = Sm == CudaSourceOnly ? "" : " for sm_" + std::to_string(Sm);
      return makeError(ErrorCode::Compile, "JACC_CUDA_VERIFY: the " +
                                               llvm::Twine(Split ? "split" : "plain") + " entry" +
                                               Target + ": " + Msg);
    }
  }
  return llvm::Error::success();
}

/// A kernel not analysed yet, in errors: where its construct is, else its first line of code.
static std::string describeSource(llvm::StringRef Source) {
  std::string Site = analysis::kernelSite(Source);
  if (!Site.empty())
    return "the kernel at " + Site;
  llvm::StringRef Rest = Source, Line;
  do
    std::tie(Line, Rest) = Rest.split('\n');
  while ((Line.trim().empty() || Line.trim().startswith("#")) && !Rest.empty());
  Line = Line.trim();
  return "kernel '" + (Line.size() > 80 ? Line.take_front(77).str() + "..." : Line.str()) + "'";
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
compileKernel(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls, const DiskSlot &Disk,
              unsigned CodeFlags) {
  auto Start = std::chrono::steady_clock::now();
  if (auto E = analyseWhereCompilesRun(Source, Decls, describeSource(Source)))
    return E;
  auto Info = analysis::runAnalysis(Source, Decls);
  if (!Info)
    return Info.takeError();
  auto K = std::make_shared<CompiledKernel>();
  K->Info = std::move(*Info);
  K->Info.CheckBounds = CodeFlags & CodeCheckBounds;
  K->AnalysisMs = msSince(Start);

  auto CompileStart = std::chrono::steady_clock::now();
  K->HostSource = generateHostSource(K->Info);
  debugLog("codegen", "host source:\n" + K->HostSource);
  auto Obj = compileHost(K->HostSource, K->Info.Source, K->Info.Name.described());
  if (!Obj)
    return Obj.takeError();
  if (!Obj->OptimizedIR.empty())
    debugLog("ir", "optimised IR:\n" + Obj->OptimizedIR);
  K->Object = std::move(Obj->Bytes);
  auto Entries = loadHostObject(K->Object, {EntryName}, K->Info.Name.symbol(false));
  if (!Entries)
    return Entries.takeError();
  K->Entry = Entries->Symbols[0];
  K->Code = std::move(Entries->Code);
  auto Call = CallInterface::create(K->Info);
  if (!Call)
    return Call.takeError();
  K->Call = std::move(*Call);
  K->CompileMs = msSince(CompileStart);
  if (Disk.Cache) { // before the GPU images of verifyCuda, which are added to this entry
    K->Disk = Disk;
    storeKernel(Disk, *K);
  }

  if (auto E = verifyCuda(*K))
    return E;
  debugLog("codegen", "compiled in " + std::to_string(K->AnalysisMs) + " ms analysis + " +
                          std::to_string(K->CompileMs) + " ms code generation");
  return std::shared_ptr<const CompiledKernel>(std::move(K));
}

namespace {
std::atomic<LateCodeObserver> Observer{nullptr};

void reportLateCode(const CompiledKernel *K, const char *Part, bool FromDisk,
                    std::chrono::steady_clock::time_point Start) {
  if (LateCodeObserver O = Observer.load(std::memory_order_acquire))
    O({K, Part, FromDisk, Start, std::chrono::steady_clock::now()});
}
} // namespace

namespace {
/// The Ids of the CudaCodes that exist.
struct LiveCudaCodes {
  std::mutex M;
  std::unordered_set<uint64_t> Ids;
};
LiveCudaCodes &liveCudaCodes() {
  static auto *L = new LiveCudaCodes; // never destroyed: CudaCodes may outlive static destructors
  return *L;
}
} // namespace

uint64_t CudaCode::newId() {
  static std::atomic<uint64_t> Next{1};
  uint64_t Id = Next.fetch_add(1, std::memory_order_relaxed);
  LiveCudaCodes &L = liveCudaCodes();
  std::lock_guard<std::mutex> Lock(L.M);
  L.Ids.insert(Id);
  return Id;
}

CudaCode::~CudaCode() {
  LiveCudaCodes &L = liveCudaCodes();
  std::lock_guard<std::mutex> Lock(L.M);
  L.Ids.erase(Id);
}

bool CudaCode::alive(uint64_t Id) {
  LiveCudaCodes &L = liveCudaCodes();
  std::lock_guard<std::mutex> Lock(L.M);
  return L.Ids.count(Id) != 0;
}

void setLateCodeObserver(LateCodeObserver O) { Observer.store(O, std::memory_order_release); }

llvm::Expected<const SplitCode *> CompiledKernel::splitCode() const {
  std::call_once(SplitOnce, [this] {
    auto Fail = [this](llvm::Error E) { SplitFailure.keep(std::move(E)); };
    if (!Info.Split.Enabled)
      return Fail(makeError(ErrorCode::Compile,
                            "the kernel cannot be split: " + Info.Split.Fallback));
    auto Start = std::chrono::steady_clock::now();
    auto S = std::make_unique<SplitCode>();
    std::string Warning;
    std::optional<std::string> Cached;
    if (Disk.Cache)
      Cached = Disk.Cache->readArtifact(Disk.Key, hostObjectArtifact(/*Split=*/true), Warning);
    if (!Warning.empty())
      cacheWarning("entry " + Disk.Key.substr(0, 12) + ": " + Warning + " (recompiling)");
    if (Cached) {
      S->Object.assign(Cached->begin(), Cached->end());
      debugLog("cache", "disk hit " + Disk.Key.substr(0, 12) + " " + hostObjectArtifact(true));
    } else {
      auto Full = completeInfo();
      if (!Full)
        return Fail(Full.takeError());
      S->HostSource = generateHostSource(**Full, /*Split=*/true);
      debugLog("codegen", "split host source:\n" + S->HostSource);
      auto Obj = compileHost(S->HostSource, Info.Source, Info.Name.described("split entry"));
      if (!Obj)
        return Fail(Obj.takeError());
      S->Object = std::move(Obj->Bytes);
      if (Disk.Cache)
        if (auto E = Disk.Cache->addArtifact(Disk.Key, hostObjectArtifact(/*Split=*/true),
                                             llvm::StringRef(S->Object.data(), S->Object.size())))
          stopUsingDiskCache(llvm::toString(std::move(E)));
    }
    auto Entries = loadHostObject(S->Object, {SplitEntryName}, Info.Name.symbol(true));
    if (!Entries)
      return Fail(Entries.takeError());
    S->Entry = Entries->Symbols[0];
    S->Code = std::move(Entries->Code);
    auto Call = CallInterface::create(Info, /*Split=*/true);
    if (!Call)
      return Fail(Call.takeError());
    S->Call = std::move(*Call);
    S->CompileMs = msSince(Start);
    Split = std::move(S);
    reportLateCode(this, "split entry", Cached.has_value(), Start);
  });
  if (!Split)
    return makeError(ErrorCode::Compile, "the split variant of the kernel failed to compile: " +
                                             SplitFailure.message());
  return Split.get();
}

llvm::Expected<const CudaCode *> CompiledKernel::cudaCode(unsigned Sm, bool Split) const {
  std::lock_guard<std::mutex> Lock(CudaMutex);
  std::pair<unsigned, bool> Key{Sm, Split && Info.Split.Enabled};
  if (auto It = CudaCodes.find(Key); It != CudaCodes.end())
    return It->second.get();
  if (auto It = CudaFailures.find(Key); It != CudaFailures.end())
    return It->second.error();
  std::string Name = cudaImageStem(Sm, Key.second);
  auto Start = std::chrono::steady_clock::now();
  // The part's name outlives the call (observers may keep it): one string per target and form.
  static const char *const Parts[2] = {"cuda", "cuda split"};
  if (auto C = loadCudaCode(Disk, Name)) {
    const CudaCode *P = C.get();
    CudaCodes[Key] = std::move(C);
    reportLateCode(this, Parts[Key.second], /*FromDisk=*/true, Start);
    return P;
  }
  auto Build = [&]() -> llvm::Expected<std::unique_ptr<CudaCode>> {
    auto C = std::make_unique<CudaCode>();
    auto Full = completeInfo();
    if (!Full)
      return Full.takeError();
    auto Src = generateCudaSource(**Full, Key.second);
    if (!Src)
      return Src.takeError();
    C->Kernel = std::move(*Src);
    debugLog("codegen", "CUDA source (sm_" + std::to_string(Sm) + "):\n" + C->Kernel.Source);
    auto Img = compileCuda(C->Kernel.Source, Sm);
    if (!Img)
      return Img.takeError();
    C->Image = std::move(*Img);
    if (!C->Image.Log.empty())
      debugLog("codegen", "NVRTC: " + C->Image.Log);
    if (auto E = checkCudaLaunchABI(C->Kernel, C->Image.IsPtx ? C->Image.Image : C->Image.Ptx))
      return E;
    return C;
  };
  auto C = Build();
  if (!C) {
    SavedError &Failure = CudaFailures[Key];
    Failure.keep(C.takeError());
    return Failure.error();
  }
  const CudaCode *P = C->get();
  storeCudaCode(Disk, Name, *P);
  CudaCodes[Key] = std::move(*C);
  reportLateCode(this, Parts[Key.second], /*FromDisk=*/false, Start);
  return P;
}

llvm::Expected<const analysis::KernelInfo *> CompiledKernel::completeInfo() const {
  if (InfoComplete)
    return &Info;
  std::call_once(CompleteOnce, [this] {
    debugLog("cache", "analysing a cached kernel again to generate new code");
    auto K = analysis::runAnalysis(Info.Source, Info.Decls);
    if (K) {
      Complete = std::make_unique<analysis::KernelInfo>(std::move(*K));
      Complete->CheckBounds = Info.CheckBounds; // the code's flag, from the cache key
    }
    else
      CompleteFailure.keep(K.takeError());
  });
  if (!Complete)
    return makeError(ErrorCode::Compile,
                     "analysing the cached kernel again: " + CompleteFailure.message());
  return Complete.get();
}

} // namespace jacc::jit
