// The process's ORC JIT (LLJIT): links host kernel objects, each into its own JITDylib, against the
// process's symbols (libm, libc).
#ifndef JACC_JIT_HOST_HOSTJIT_H
#define JACC_JIT_HOST_HOSTJIT_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace jacc::jit {

/// Link Object (an ELF relocatable) into a fresh JITDylib and return the addresses of Symbols.
/// Thread-safe. The code stays loaded until the process exits. Under JACC_PERF its functions
/// are named PerfName in perf's map (jit/host/PerfMap.h).
llvm::Expected<std::vector<void *>> loadHostObject(llvm::ArrayRef<char> Object,
                                                   llvm::ArrayRef<std::string> Symbols,
                                                   llvm::StringRef PerfName = "jacc");

} // namespace jacc::jit

#endif
