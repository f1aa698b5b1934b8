// Native implementations per device kind (the Multi-Device Controllers'
// specialised kernels and library wrappers): jacc_kernel_native registers, per kernel source text
// and OpenACC device type, a function of the program's that devices of that type call for their
// part of the kernel instead of the generated code (src/launch/NativeLaunch.h runs it). The
// registry belongs to the process, like the kernel cache: jacc_finalize keeps it.
#ifndef JACC_SRC_LAUNCH_NATIVEKERNELS_H
#define JACC_SRC_LAUNCH_NATIVEKERNELS_H

#include "jacc/jacc.h"
#include "jacc/openacc.h"
#include "support/Error.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>

#include <atomic>
#include <map>
#include <shared_mutex>
#include <string>
#include <vector>

namespace jacc {

/// One registered implementation: the function, its user pointer, and the device type it is for.
struct NativeImpl {
  jacc_native_fn Fn = nullptr;
  void *User = nullptr;
  acc_device_t Type = acc_device_none;
};

/// The device type jacc_kernel_native's kind names: "host" and "multicore" are host devices,
/// "nvidia" CUDA GPUs (OpenACC's device_type names). InvalidArgument for others, listing these.
llvm::Expected<acc_device_t> nativeDeviceType(const char *Kind);
/// The kind a native part reports for a device type: "host", "nvidia".
const char *nativeKindName(acc_device_t Type);

/// Each device's implementation for one push, by device index (Fn null: the generated code).
using NativeChoice = llvm::SmallVector<NativeImpl, 4>;

class NativeKernels {
public:
  /// jacc_kernel_native: Fn for Source on devices of Kind from now on; a null Fn removes it.
  /// A null Source or an unknown Kind is InvalidArgument, and nothing changes.
  llvm::Error set(const char *Source, const char *Kind, jacc_native_fn Fn, void *User);
  /// The implementation each device of Types (the runtime's, in device order) runs for a push
  /// of Source; empty when none of them has one. One relaxed load while nothing is registered.
  NativeChoice choose(const char *Source, llvm::ArrayRef<acc_device_t> Types) const;

private:
  mutable std::shared_mutex M;
  std::map<std::string, std::vector<NativeImpl>, std::less<>> BySource;
  std::atomic<bool> Empty{true}; ///< BySource is empty (read by pushes without the lock)
};

/// "nvidia devices" / "host and nvidia devices": the kinds of C's implementations, for messages.
std::string nativeKinds(llvm::ArrayRef<NativeImpl> C);

} // namespace jacc

#endif
