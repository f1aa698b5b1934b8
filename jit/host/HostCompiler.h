// C source to a relocatable object for the host CPU: clang to LLVM IR at -O3, then
// LLVM's code generator. The object bytes are what the JIT links (and, later, what the disk
// cache keeps).
#ifndef JACC_JIT_HOST_HOSTCOMPILER_H
#define JACC_JIT_HOST_HOSTCOMPILER_H

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace jacc::jit {

struct HostObject {
  llvm::SmallVector<char, 0> Bytes; ///< an ELF relocatable object
  std::string OptimizedIR;          ///< kept only when JACC_DEBUG asks for "ir"
  /// The optimiser's remarks on loops (vectorised or not, and why; hoisting, inlining), kept
  /// only when JACC_DEBUG asks for "remarks": "kernel:4:5: remark: vectorized loop ...".
  std::string Remarks;
};

/// Compile generated host C in this process (the compile server's work; jit/server's
/// compileHost chooses where to compile). KernelSource (the pushed kernel) lets its leading
/// system includes come from a precompiled header. Errors are Compile errors carrying clang's
/// diagnostics.
llvm::Expected<HostObject> compileHostObjectInProcess(llvm::StringRef Code,
                                                      llvm::StringRef KernelSource = "");

/// The optimised LLVM IR of generated host C, as compileHostObjectInProcess optimises it
/// (what JACC_DEBUG=ir prints): for tests of what the optimiser made of the generated code.
llvm::Expected<std::string> optimizedHostIR(llvm::StringRef Code,
                                            llvm::StringRef KernelSource = "");

/// The optimiser's loop remarks on generated host C, one line each, as JACC_DEBUG=remarks
/// reports them ("<jacc>:14:6: remark: unroll and jammed loop by a factor of 4 ..."): for tests
/// of what the optimiser did, which holds on every CPU where instruction counts do not.
llvm::Expected<std::string> hostLoopRemarks(llvm::StringRef Code);

/// "x86_64-pc-linux-gnu skylake-avx512 +avx512f,...": the code target, part of cache keys.
std::string hostTargetId();

} // namespace jacc::jit

#endif
