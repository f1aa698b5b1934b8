// The process's LLJIT: each kernel object linked into a JITDylib of its own, its entries looked
// up, and the JITDylib removed when the last holder of its code lets it go.
#include "jit/host/HostJIT.h"

#include "jit/host/PerfMap.h"

#include "support/Error.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>

#include <atomic>
#include <mutex>

namespace jacc::jit {

namespace {
struct JIT {
  std::unique_ptr<llvm::orc::LLJIT> J;
  std::string Error;
  std::mutex Mutex; // JITDylib creation and linking, kept simple and serial
  std::atomic<unsigned> Counter{0};
  size_t Loaded = 0; // JITDylibs not yet removed, under Mutex
};

JIT &theJIT() {
  static JIT *Instance = [] {
    auto *S = new JIT; // intentionally never destroyed: JIT'd code may run until exit
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // No platform: kernels have no initialisers to run, and the generic one built IR for each
    // JITDylib in a context that lives as long as the JIT (~480 bytes a kernel, never freed).
    auto J = llvm::orc::LLJITBuilder().setPlatformSetUp(llvm::orc::setUpInactivePlatform).create();
    if (!J) {
      S->Error = llvm::toString(J.takeError());
      return S;
    }
    auto Gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        (*J)->getDataLayout().getGlobalPrefix());
    if (!Gen) {
      S->Error = llvm::toString(Gen.takeError());
      return S;
    }
    (*J)->getMainJITDylib().addGenerator(std::move(*Gen));
    S->J = std::move(*J);
    return S;
  }();
  return *Instance;
}
} // namespace

/// Removes a kernel's JITDylib and frees its code, once nothing can call it any more.
static void unloadHostObject(llvm::orc::JITDylib *JD) {
  JIT &S = theJIT();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  --S.Loaded;
  // Nothing to report to: the code is unreachable either way, and a failure leaves it mapped.
  llvm::orc::ExecutionSession &ES = S.J->getExecutionSession();
  llvm::consumeError(ES.removeJITDylib(*JD));
  // The pool keeps the names of the kernel's symbols, unreferenced now, until asked to drop them.
  ES.getSymbolStringPool()->clearDeadEntries();
}

llvm::Expected<LoadedObject> loadHostObject(llvm::ArrayRef<char> Object,
                                            llvm::ArrayRef<std::string> Symbols,
                                            llvm::StringRef PerfName) {
  JIT &S = theJIT();
  if (!S.J)
    return makeError(ErrorCode::Internal, "cannot create the ORC JIT: " + S.Error);
  std::unique_lock<std::mutex> Lock(S.Mutex);
  std::string Name = "jacc-kernel-" + std::to_string(S.Counter++);
  auto JD = S.J->createJITDylib(Name);
  if (!JD)
    return JD.takeError();
  ++S.Loaded;
  LoadedObject L;
  L.Code = std::shared_ptr<const void>(&*JD, [](const void *P) {
    unloadHostObject(static_cast<llvm::orc::JITDylib *>(const_cast<void *>(P)));
  });
  JD->addToLinkOrder(S.J->getMainJITDylib());
  auto Buffer = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(Object.data(), Object.size()), Name);
  auto Fail = [&](llvm::Error E) -> llvm::Expected<LoadedObject> {
    Lock.unlock(); // L.Code's release removes the JITDylib under the lock
    return E;
  };
  if (auto E = S.J->addObjectFile(*JD, std::move(Buffer)))
    return Fail(std::move(E));
  for (const std::string &Symbol : Symbols) {
    auto Addr = S.J->lookup(*JD, Symbol);
    if (!Addr)
      return Fail(Addr.takeError());
    L.Symbols.push_back(Addr->toPtr<void *>());
  }
  addToPerfMap(Object, Symbols, L.Symbols, PerfName);
  return L;
}

size_t loadedHostObjects() {
  JIT &S = theJIT();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  return S.Loaded;
}

} // namespace jacc::jit
