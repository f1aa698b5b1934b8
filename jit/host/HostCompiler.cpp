#include "jit/host/HostCompiler.h"

#include "support/ClangInvocation.h"
#include "support/Debug.h"
#include "support/Error.h"

#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <mutex>

namespace jacc::jit {

static void initTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
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
  static std::string Id = [] {
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
  }();
  return Id;
}

llvm::Expected<HostObject> compileHostObjectInProcess(llvm::StringRef Code,
                                                      llvm::StringRef KernelSource) {
  initTargets();
  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  // The vectoriser's remarks, located through line tables (the kernel's #line directives).
  std::vector<std::string> Remarks;
  if (debugEnabled("remarks"))
    Remarks = {"-Rpass=loop-vectorize", "-Rpass-missed=loop-vectorize",
               "-Rpass-analysis=loop-vectorize", "-debug-info-kind=line-tables-only"};
  auto CI = makeCompilerInstance(ClangPurpose::HostCodegen, Code, "jacc-host.c", DiagOS,
                                 KernelSource, Remarks);
  if (!CI)
    return CI.takeError();
  llvm::LLVMContext Ctx;
  clang::EmitLLVMOnlyAction Action(&Ctx);
  if (!(*CI)->ExecuteAction(Action))
    return makeError(ErrorCode::Compile,
                     "host code generation failed (please report this with JACC_DEBUG=codegen "
                     "output):\n" + llvm::StringRef(DiagOS.str()).rtrim());
  std::unique_ptr<llvm::Module> M = Action.takeModule();
  if (!M)
    return makeError(ErrorCode::Internal, "clang produced no LLVM module");

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
  // Each remark's first line ("kernel:4:5: remark: vectorized loop ..."), not the source
  // excerpt under it.
  if (!Remarks.empty()) {
    llvm::SmallVector<llvm::StringRef, 16> Lines;
    llvm::StringRef(DiagOS.str()).split(Lines, '\n');
    for (llvm::StringRef L : Lines)
      if (L.contains(": remark: "))
        Obj.Remarks += L.str() + "\n";
  }
  return Obj;
}

} // namespace jacc::jit
