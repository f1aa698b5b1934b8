// Compiling a kernel (analysis, host code, JIT entry, disk entry, the device targets'
// verification), and building its split entry and device code on first use, each loaded from
// disk or compiled once.
#include "jit/CompiledKernel.h"

#include "analysis/KernelSource.h"
#include "analysis/Pipeline.h"
#include "jit/cache/KernelEntry.h"
#include "jit/cache/KernelStore.h"
#include "jit/cache/KernelSummary.h"
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

/// Each device target's verification (CodeTarget::verifyArchs: the test suites set it): the
/// kernel is also built for those architectures, both entries; a failure fails the push. A
/// kernel a target refuses by design (Unsupported: a long double or complex reduction, a header
/// with no device equivalent) is host-only there: a push to such a device reports the same
/// error, and the host runs it. Architecture 0 generates the entries without compiling them.
static llvm::Error verifyDeviceCode(const CompiledKernel &K, const CodeTarget &T) {
  auto Archs = T.verifyArchs();
  if (!Archs)
    return Archs.takeError();
  for (unsigned Arch : *Archs) {
    for (bool Split : {false, true}) {
      if (Split && !K.Info.Split.Enabled)
        continue;
      llvm::Error E = llvm::Error::success();
      if (Arch != 0)
        E = K.deviceCode(T, Arch, Split).takeError();
      else if (auto Full = K.completeInfo())
        E = T.build(**Full, Arch, Split).takeError();
      else
        E = Full.takeError();
      if (!E)
        continue;
      std::string Msg;
      if (takeError(std::move(E), Msg) == ErrorCode::Unsupported) {
        debugLog("codegen", T.verifyVariable().str() + ": host-only kernel: " + Msg);
        return llvm::Error::success();
      }
      std::string For = Arch == 0 ? "" : " for " + T.archName(Arch);
      return makeError(ErrorCode::Compile, T.verifyVariable().str() + ": the " +
                                               (Split ? "split" : "plain") + " entry" + For + ": " +
                                               Msg);
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
  if (Disk.Cache) { // before the device code of verifyDeviceCode, which is added to this entry
    K->Disk = Disk;
    storeKernel(Disk, *K);
  }

  for (const CodeTarget *T : codeTargets())
    if (auto E = verifyDeviceCode(*K, *T))
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

llvm::Expected<const DeviceCode *> CompiledKernel::deviceCode(const CodeTarget &Target,
                                                              unsigned Arch, bool Split) const {
  std::lock_guard<std::mutex> Lock(DeviceMutex);
  CodeKey Key{&Target, Arch, Split && Info.Split.Enabled};
  if (auto It = DeviceCodes.find(Key); It != DeviceCodes.end())
    return It->second.get();
  if (auto It = DeviceFailures.find(Key); It != DeviceFailures.end())
    return It->second.error();
  std::string Stem = Target.stem(Arch, Key.Split);
  auto Start = std::chrono::steady_clock::now();
  if (std::unique_ptr<DeviceCode> C = Target.load(Disk, Stem)) {
    const DeviceCode *P = C.get();
    DeviceCodes[Key] = std::move(C);
    reportLateCode(this, Target.part(Key.Split), /*FromDisk=*/true, Start);
    return P;
  }
  auto Full = completeInfo();
  if (!Full) {
    SavedError &Failure = DeviceFailures[Key];
    Failure.keep(Full.takeError());
    return Failure.error();
  }
  auto C = Target.build(**Full, Arch, Key.Split);
  if (!C) {
    SavedError &Failure = DeviceFailures[Key];
    Failure.keep(C.takeError());
    return Failure.error();
  }
  const DeviceCode *P = C->get();
  Target.store(Disk, Stem, *P);
  DeviceCodes[Key] = std::move(*C);
  reportLateCode(this, Target.part(Key.Split), /*FromDisk=*/false, Start);
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
