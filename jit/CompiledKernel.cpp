#include "CompiledKernel.h"

#include "Debug.h"
#include "Error.h"
#include "HostCodegen.h"
#include "HostCompiler.h"
#include "HostJIT.h"
#include "Pipeline.h"

#include <chrono>

namespace jacc::jit {

static double msSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T).count();
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
compileKernel(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls) {
  auto Start = std::chrono::steady_clock::now();
  auto Info = analysis::runAnalysis(Source, Decls);
  if (!Info)
    return Info.takeError();
  auto K = std::make_shared<CompiledKernel>();
  K->Info = std::move(*Info);
  K->AnalysisMs = msSince(Start);

  auto CompileStart = std::chrono::steady_clock::now();
  K->HostSource = generateHostSource(K->Info);
  debugLog("codegen", "host source:\n" + K->HostSource);
  auto Obj = compileHostObject(K->HostSource, K->Info.Source);
  if (!Obj)
    return Obj.takeError();
  if (!Obj->OptimizedIR.empty())
    debugLog("ir", "optimised IR:\n" + Obj->OptimizedIR);
  K->Object = std::move(Obj->Bytes);
  auto Entries = loadHostObject(K->Object, {HostEntryName});
  if (!Entries)
    return Entries.takeError();
  K->Entry = (*Entries)[0];
  auto Call = CallInterface::create(K->Info);
  if (!Call)
    return Call.takeError();
  K->Call = std::move(*Call);

  K->CompileMs = msSince(CompileStart);
  debugLog("codegen", "compiled in " + std::to_string(K->AnalysisMs) + " ms analysis + " +
                          std::to_string(K->CompileMs) + " ms code generation");
  return std::shared_ptr<const CompiledKernel>(std::move(K));
}

llvm::Expected<const SplitCode *> CompiledKernel::splitCode() const {
  std::call_once(SplitOnce, [this] {
    auto Fail = [this](llvm::Error E) { SplitError = llvm::toString(std::move(E)); };
    if (!Info.Split.Enabled) {
      SplitError = "the kernel cannot be split: " + Info.Split.Fallback;
      return;
    }
    auto Start = std::chrono::steady_clock::now();
    auto S = std::make_unique<SplitCode>();
    S->HostSource = generateHostSource(Info, /*Split=*/true);
    debugLog("codegen", "split host source:\n" + S->HostSource);
    auto Obj = compileHostObject(S->HostSource, Info.Source);
    if (!Obj)
      return Fail(Obj.takeError());
    S->Object = std::move(Obj->Bytes);
    auto Entries = loadHostObject(S->Object, {HostSplitEntryName});
    if (!Entries)
      return Fail(Entries.takeError());
    S->Entry = (*Entries)[0];
    auto Call = CallInterface::create(Info, /*Split=*/true);
    if (!Call)
      return Fail(Call.takeError());
    S->Call = std::move(*Call);
    S->CompileMs = msSince(Start);
    Split = std::move(S);
  });
  if (!Split)
    return makeError(ErrorCode::Compile, "the split variant of the kernel failed to compile: " +
                                             SplitError);
  return Split.get();
}

} // namespace jacc::jit
