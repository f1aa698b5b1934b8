// What a device is handed to build a kernel's launch: which code runs (LaunchCode) and the
// arguments it runs with (ArgCells, AggregateArgs). The Device front declares its launch hooks
// with these alone; the launch itself is src/launch/KernelLaunch.h.
#ifndef JACC_SRC_LAUNCHCODE_H
#define JACC_SRC_LAUNCHCODE_H

#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace jacc {

namespace jit {
struct VariantCode;
} // namespace jit

struct NativeImpl;

/// Argument cells, inline for up to 16 parameters: no allocation on the push path.
using ArgCells = llvm::SmallVector<uint64_t, 32>;
/// Bytes of one parameter's cell (two words). A wider scalar (long double _Complex, 32 bytes)
/// travels in the AggregateArgs instead, and the launch passes it by value from there.
constexpr unsigned ArgCellBytes = 16;
/// The bytes of each struct parameter and of each scalar wider than a cell (by ArgInfo::Param;
/// empty for the others), or null.
using AggregateArgs = std::shared_ptr<const std::vector<std::vector<char>>>;

/// Which code a launch runs: the split entry or the plain one, a specialized variant or the
/// generic kernel; on one device, a native implementation instead (src/launch/NativeKernels.h).
struct LaunchCode {
  bool Split = false;
  const jit::VariantCode *Variant = nullptr;
  const NativeImpl *Native = nullptr;
  /// The other devices run nothing meanwhile (a kernel on one device): one that shares its
  /// cores with them (a host device) may compute on theirs too.
  bool Alone = false;
};

} // namespace jacc

#endif
