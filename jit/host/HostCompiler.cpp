// Compiling generated host C in process: clang at -O3 for this CPU (unroll-and-jam enabled,
// vectoriser remarks on request), then LLVM's code generator to object bytes.
#include "jit/host/HostCompiler.h"

#include "support/ClangInvocation.h"
#include "support/ClangUse.h"
#include "support/Debug.h"
#include "support/Error.h"

#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <mutex>

namespace jacc::jit {

/// LLVM's unroll-and-jam pass is in the -O3 pipeline only behind this option (its heuristics are
/// off on x86): enabled, it jams just the loops that ask for it (`#pragma unroll_and_jam`, which
/// jacc writes for nests that sum along an inner loop, jit/host/HostCodegen.cpp).
static void enableUnrollAndJam() {
  auto &Options = llvm::cl::getRegisteredOptions();
  auto It = Options.find("enable-unroll-and-jam");
  if (It == Options.end())
    return; // another LLVM: the pragma is then ignored, the code stays correct
  if (auto *Opt = static_cast<llvm::cl::opt<bool> *>(It->second))
    *Opt = true;
}

static void initTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    enableUnrollAndJam();
  });
}

static llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostMachineBuilder() {
  initTargets();
  auto JTMB = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  JTMB->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
  JTMB->setRelocationModel(llvm::Reloc::PIC_);
  return JTMB;
}

std::string hostTargetId() {
  static const std::string &Id = *new std::string([] { // outlives static dtors
    std::string S = llvm::sys::getProcessTriple() + " " + llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> Features;
    if (llvm::sys::getHostCPUFeatures(Features)) {
      std::vector<std::string> On;
      for (auto &F : Features)
        if (F.second)
          On.push_back(F.first().str());
      std::sort(On.begin(), On.end());
      for (const std::string &F : On)
        S += " +" + F;
    }
    return S;
  }());
  return Id;
}

namespace {

/// A module clang optimised, with the context that owns it.
struct OptimizedModule {
  std::unique_ptr<llvm::LLVMContext> Ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> M;
};

/// Generated host C to its module, optimised at -O3 for this CPU; clang's diagnostics (and the
/// remarks asked for by the flags Remarks) go to DiagOS.
llvm::Expected<OptimizedModule> optimizeHostCode(llvm::StringRef Code, llvm::StringRef KernelSource,
                                                 const std::vector<std::string> &Remarks,
                                                 llvm::raw_string_ostream &DiagOS) {
  initTargets();
  ClangUse Use;
  if (!Use)
    return ClangUse::refused("host code generation");
  auto CI = makeCompilerInstance(ClangPurpose::HostCodegen, Code, "jacc-host.c", DiagOS,
                                 KernelSource, Remarks);
  if (!CI)
    return CI.takeError();
  OptimizedModule Out;
  clang::EmitLLVMOnlyAction Action(Out.Ctx.get());
  if (!(*CI)->ExecuteAction(Action))
    return makeError(ErrorCode::Compile,
                     "host code generation failed (please report this with JACC_DEBUG=codegen "
                     "output):\n" + llvm::StringRef(DiagOS.str()).rtrim());
  Out.M = Action.takeModule();
  if (!Out.M)
    return makeError(ErrorCode::Internal, "clang produced no LLVM module");
  return Out;
}

/// The flags that make clang report the vectoriser's and the jam's loop remarks, located
/// through line tables (the kernel's #line directives).
const std::vector<std::string> LoopRemarkFlags = {
    "-Rpass=loop-vectorize|loop-unroll-and-jam", "-Rpass-missed=loop-vectorize",
    "-Rpass-analysis=loop-vectorize", "-debug-info-kind=line-tables-only"};

/// Each remark's first line ("kernel:4:5: remark: vectorized loop ..."), not the source excerpt
/// under it.
std::string remarkLines(llvm::StringRef Diagnostics) {
  std::string Out;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Diagnostics.split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    if (L.contains(": remark: "))
      Out += L.str() + "\n";
  return Out;
}

} // namespace

llvm::Expected<std::string> hostLoopRemarks(llvm::StringRef Code) {
  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  auto Opt = optimizeHostCode(Code, "", LoopRemarkFlags, DiagOS);
  if (!Opt)
    return Opt.takeError();
  return remarkLines(DiagOS.str());
}

llvm::Expected<std::string> optimizedHostIR(llvm::StringRef Code, llvm::StringRef KernelSource) {
  std::string DiagText, IR;
  llvm::raw_string_ostream DiagOS(DiagText);
  auto Opt = optimizeHostCode(Code, KernelSource, {}, DiagOS);
  if (!Opt)
    return Opt.takeError();
  llvm::raw_string_ostream IROS(IR);
  Opt->M->print(IROS, nullptr);
  return IROS.str();
}

llvm::Expected<HostObject> compileHostObjectInProcess(llvm::StringRef Code,
                                                      llvm::StringRef KernelSource) {
  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  std::vector<std::string> Remarks;
  if (debugEnabled("remarks"))
    Remarks = LoopRemarkFlags;
  auto Opt = optimizeHostCode(Code, KernelSource, Remarks, DiagOS);
  if (!Opt)
    return Opt.takeError();
  std::unique_ptr<llvm::Module> &M = Opt->M;

  auto JTMB = hostMachineBuilder();
  if (!JTMB)
    return JTMB.takeError();
  auto TM = JTMB->createTargetMachine();
  if (!TM)
    return TM.takeError();
  M->setDataLayout((*TM)->createDataLayout());
  M->setTargetTriple((*TM)->getTargetTriple().str());

  HostObject Obj;
  if (debugEnabled("ir")) {
    llvm::raw_string_ostream IROS(Obj.OptimizedIR);
    M->print(IROS, nullptr);
  }
  llvm::raw_svector_ostream OS(Obj.Bytes);
  llvm::legacy::PassManager PM;
  if ((*TM)->addPassesToEmitFile(PM, OS, nullptr, llvm::CGFT_ObjectFile))
    return makeError(ErrorCode::Internal, "the host target cannot emit object files");
  PM.run(*M);
  if (!Remarks.empty())
    Obj.Remarks = remarkLines(DiagOS.str());
  return Obj;
}

} // namespace jacc::jit
