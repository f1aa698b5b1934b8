// The parameter list of a kernel entry in PTX text: what the compiled kernel really expects, to
// check the launch ABI jacc builds against it.
#ifndef JACC_JIT_CUDA_PTXENTRY_H
#define JACC_JIT_CUDA_PTXENTRY_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace jacc::jit {

struct PtxParam {
  std::string Name;   ///< "k_param_0"
  std::string Type;   ///< the PTX type as written: ".u32", ".b8" (the element type of an array)
  unsigned Size = 0;  ///< bytes: the type's size times the array length
  unsigned Align = 0; ///< the explicit .align, else the type's size
};

/// The parameters of `.entry Entry(...)`, in order: `.param .u32 k_param_0` (Size 4, Align 4),
/// `.param .align 8 .b8 k_param_3[24]` (Size 24, Align 8); .u8/.s8/.b8 are 1 byte,
/// .u16/.s16/.f16/.bf16/.b16 2, .u32/.s32/.f32/.b32 4, .u64/.s64/.f64/.b64 8. In
/// `.param .u64 .ptr .global .align 8 name` the .align is the pointee's, so the parameter keeps its
/// type's alignment. An entry without a parameter list has none. Internal errors when the entry is
/// missing or a parameter cannot be parsed.
llvm::Expected<std::vector<PtxParam>> parsePtxEntryParams(llvm::StringRef Ptx,
                                                          llvm::StringRef Entry);

} // namespace jacc::jit

#endif
