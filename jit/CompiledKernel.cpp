#include "CompiledKernel.h"

#include "Debug.h"
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
  std::vector<std::string> Symbols = {HostEntryName};
  if (K->Info.Split.Enabled)
    Symbols.push_back(HostSplitEntryName);
  auto Entries = loadHostObject(K->Object, Symbols);
  if (!Entries)
    return Entries.takeError();
  K->Entry = (*Entries)[0];
  auto Call = CallInterface::create(K->Info);
  if (!Call)
    return Call.takeError();
  K->Call = std::move(*Call);
  if (K->Info.Split.Enabled) {
    K->SplitEntry = (*Entries)[1];
    auto SplitCall = CallInterface::create(K->Info, /*Split=*/true);
    if (!SplitCall)
      return SplitCall.takeError();
    K->SplitCall = std::move(*SplitCall);
  }
  K->CompileMs = msSince(CompileStart);
  debugLog("codegen", "compiled in " + std::to_string(K->AnalysisMs) + " ms analysis + " +
                          std::to_string(K->CompileMs) + " ms code generation");
  return std::shared_ptr<const CompiledKernel>(std::move(K));
}

} // namespace jacc::jit
