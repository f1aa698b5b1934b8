// Opening perf's map file, and its lines for a loaded host kernel: each function in its entry's
// section at its JIT address, named after the kernel.
#include "jit/host/PerfMap.h"

#include "support/Error.h"

#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdio>
#include <mutex>
#include <unistd.h>

namespace jacc::jit {

namespace {
struct PerfMap {
  std::mutex M;
  std::FILE *File = nullptr; // never closed: perf reads it after the process exits
};
PerfMap &theMap() {
  static PerfMap *Map = new PerfMap; // outlives every static destructor that may load code
  return *Map;
}
} // namespace

std::string perfMapPath() { return "/tmp/perf-" + std::to_string(::getpid()) + ".map"; }

llvm::Error enablePerfMap() {
  PerfMap &Map = theMap();
  std::lock_guard<std::mutex> L(Map.M);
  if (Map.File)
    return llvm::Error::success();
  std::string Path = perfMapPath();
  Map.File = std::fopen(Path.c_str(), "a");
  if (!Map.File)
    return makeError(ErrorCode::InvalidArgument, "JACC_PERF: cannot write the perf map " + Path +
                                             ": unset JACC_PERF, or make /tmp writable");
  return llvm::Error::success();
}

void addToPerfMap(llvm::ArrayRef<char> Object, llvm::ArrayRef<std::string> Symbols,
                  llvm::ArrayRef<void *> Addrs, llvm::StringRef Prefix) {
  PerfMap &Map = theMap();
  {
    std::lock_guard<std::mutex> L(Map.M);
    if (!Map.File)
      return;
  }
  auto Obj = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(llvm::StringRef(Object.data(), Object.size()), "kernel"));
  if (!Obj) {
    llvm::consumeError(Obj.takeError());
    return;
  }
  auto *Elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(Obj->get());
  if (!Elf)
    return;
  struct Function {
    std::string Name;
    uint64_t Value, Size;
    llvm::object::section_iterator Section;
  };
  // The defined functions and their sizes (what perf needs), by name.
  std::vector<Function> Functions;
  for (const llvm::object::ELFSymbolRef &S : Elf->symbols()) {
    auto Type = S.getType();
    auto Name = S.getName();
    auto Value = S.getValue();
    auto Section = S.getSection();
    if (!Type || !Name || !Value || !Section) {
      llvm::consumeError(Type.takeError());
      llvm::consumeError(Name.takeError());
      llvm::consumeError(Value.takeError());
      llvm::consumeError(Section.takeError());
      continue;
    }
    if (*Type == llvm::object::SymbolRef::ST_Function && *Section != Elf->section_end() &&
        S.getSize() > 0)
      Functions.push_back({Name->str(), *Value, S.getSize(), *Section});
  }
  // The first symbol anchors its section: the linker moves a section as a whole.
  if (Symbols.empty() || Addrs.empty())
    return;
  const Function *Anchor = nullptr;
  for (const Function &F : Functions)
    if (F.Name == Symbols.front())
      Anchor = &F;
  if (!Anchor)
    return;
  uintptr_t Base = reinterpret_cast<uintptr_t>(Addrs.front());
  std::string Lines;
  for (const Function &F : Functions) {
    if (F.Section != Anchor->Section)
      continue;
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%llx %llx ",
                  static_cast<unsigned long long>(Base + F.Value - Anchor->Value),
                  static_cast<unsigned long long>(F.Size));
    Lines += Buf + Prefix.str() + (&F == Anchor ? "" : ":" + F.Name) + "\n";
  }
  std::lock_guard<std::mutex> L(Map.M);
  std::fputs(Lines.c_str(), Map.File);
  std::fflush(Map.File);
}

} // namespace jacc::jit
