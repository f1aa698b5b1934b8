// A libffi call interface for a generated host entry, prepared once per compiled kernel.
#ifndef JACC_JIT_HOST_CALLINTERFACE_H
#define JACC_JIT_HOST_CALLINTERFACE_H

#include "analysis/Kernel.h"

#include <llvm/Support/Error.h>

#include <memory>
#include <vector>

namespace jacc::jit {

class CallInterface {
public:
  /// Parameters in ArgInfo::Param order (scalars by value, pointers and aggregates as pointers),
  /// for the split entry two `long long` per split array, then the jacc_host_team pointer.
  static llvm::Expected<std::unique_ptr<CallInterface>> create(const analysis::KernelInfo &K,
                                                               bool Split = false);
  /// Call Fn. Values[i] points to parameter i's value; the last one to the team pointer.
  void call(void *Fn, void **Values) const;
  unsigned numParams() const { return Types.size(); }

private:
  CallInterface() = default;
  std::vector<void *> Types; // ffi_type *; void* keeps ffi.h out of this header
  std::unique_ptr<char[]> Cif; // ffi_cif storage
};

} // namespace jacc::jit

#endif
