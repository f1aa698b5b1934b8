// The process's ORC JIT (LLJIT): links host kernel objects, each into its own JITDylib, against the
// process's symbols (libm, libc), and removes each when the last holder of its code lets it go.
#ifndef JACC_JIT_HOST_HOSTJIT_H
#define JACC_JIT_HOST_HOSTJIT_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <memory>
#include <string>
#include <vector>

namespace jacc::jit {

/// An object linked into the process: the addresses of the symbols asked for, valid while Code
/// (or a copy of it) lives; the last copy's release removes the code from the process.
struct LoadedObject {
  std::vector<void *> Symbols;
  std::shared_ptr<const void> Code;
};

/// Link Object (an ELF relocatable) into a fresh JITDylib and return the addresses of Symbols.
/// Thread-safe. Under JACC_PERF its functions are named PerfName in perf's map
/// (jit/host/PerfMap.h).
llvm::Expected<LoadedObject> loadHostObject(llvm::ArrayRef<char> Object,
                                            llvm::ArrayRef<std::string> Symbols,
                                            llvm::StringRef PerfName = "jacc");

/// JITDylibs of kernel code in the process now (tests: code is removed with its last holder).
size_t loadedHostObjects();

} // namespace jacc::jit

#endif
