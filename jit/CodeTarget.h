// A device target's code for kernels, behind one interface: each target (a GPU architecture
// family) keeps its code generation, compiler, image format and disk artifacts in its own
// folder (jit/cuda/), and the kernel, its variants and the disk cache hold its code only as a
// DeviceCode, as LLVM Offload's plugins do behind GenericKernelTy.
#ifndef JACC_JIT_CODETARGET_H
#define JACC_JIT_CODETARGET_H

#include "analysis/Kernel.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/JSON.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace jacc::jit {

class DiskCache;
struct Specialization;

/// Where a kernel's disk cache entry is (a null Cache: the kernel is not on disk).
struct DiskSlot {
  std::shared_ptr<DiskCache> Cache;
  std::string Key;
};

/// One entry of a kernel compiled for one architecture of a device target. Each target derives
/// its own (its image and launch metadata).
struct DeviceCode {
  DeviceCode();
  DeviceCode(const DeviceCode &) = delete;
  DeviceCode &operator=(const DeviceCode &) = delete;
  virtual ~DeviceCode();
  /// Never the same for two DeviceCodes of a process, unlike their addresses once the kernel
  /// cache lets kernels go: what devices key their loaded modules by.
  const uint64_t Id;
  /// Whether the DeviceCode of this Id still exists: a device unloads the modules of those gone
  /// (their kernel was let go by the kernel cache and by every launch).
  static bool alive(uint64_t Id);
};

/// A device target: how a kernel's entries become its code, and how that code is kept in a
/// kernel's disk cache entry. Architectures are the target's own numbers (a CUDA compute
/// capability); architecture 0 means "generate the source only, compile nothing" (verification
/// where the compiler cannot run).
class CodeTarget {
public:
  virtual ~CodeTarget() = default;
  /// The target's name ("cuda"): late-code reports, messages.
  virtual llvm::StringRef name() const = 0;
  /// How messages name Arch ("sm_80").
  virtual std::string archName(unsigned Arch) const = 0;
  /// The late-code report of an entry's code ("cuda", "cuda split"): a string that lives as
  /// long as the process (observers may keep it).
  virtual const char *part(bool Split) const = 0;
  /// Generate and compile K's plain or split entry for Arch, specialized by Spec when given,
  /// its launch interface checked. Unsupported: the target cannot run this kernel by design.
  virtual llvm::Expected<std::unique_ptr<DeviceCode>>
  build(const analysis::KernelInfo &K, unsigned Arch, bool Split,
        const Specialization *Spec = nullptr) const = 0;
  /// The stem of Arch's entry in a kernel's disk cache entry ("sm_80-split"): its artifacts
  /// are named from it.
  virtual std::string stem(unsigned Arch, bool Split) const = 0;
  /// The code of stem Stem in Slot's entry; null on a miss (a bad artifact: one cache warning).
  virtual std::unique_ptr<DeviceCode> load(const DiskSlot &Slot, const std::string &Stem) const = 0;
  /// Add C to Slot's entry under stem Stem; a failure stops the disk cache, never the push.
  virtual void store(const DiskSlot &Slot, const std::string &Stem, const DeviceCode &C) const = 0;
  /// What the target's code depends on besides the kernel (its compiler's version, settings
  /// read from the environment): part of every disk cache key, read per key.
  virtual std::string cacheKeyPart() const = 0;
  /// Its compilers' versions by name, for a kernel's summary ({"nvrtc", "13.0"}).
  virtual std::vector<std::pair<std::string, std::string>> compilers() const = 0;
  /// Add what the target decides for K from its analysis to K's summary (`jacc-cache show`).
  virtual void describe(const analysis::KernelInfo &K, llvm::json::Object &Summary) const = 0;
  /// The architectures every kernel is also built for at its compile, both entries (the test
  /// suites verify the target on machines without its devices this way); read at each compile.
  /// InvalidArgument naming the variable when the environment asks wrongly.
  virtual llvm::Expected<std::vector<unsigned>> verifyArchs() const = 0;
  /// The environment variable verifyArchs() reads ("JACC_CUDA_VERIFY"), for messages.
  virtual llvm::StringRef verifyVariable() const = 0;
  /// Check the target's environment variables at jacc_init (InvalidArgument naming the bad one).
  virtual llvm::Error checkEnvironment() const = 0;
};

/// The device targets built into this jacc (the build's list: meson's `code_targets`).
llvm::ArrayRef<const CodeTarget *> codeTargets();

/// Which code of a kernel: a target's architecture and entry.
struct CodeKey {
  const CodeTarget *Target = nullptr;
  unsigned Arch = 0;
  bool Split = false;
  bool operator<(const CodeKey &O) const {
    return std::tie(Target, Arch, Split) < std::tie(O.Target, O.Arch, O.Split);
  }
};

/// A target and one of its architectures: the devices of a runtime, for which variants are
/// compiled.
struct TargetArch {
  const CodeTarget *Target = nullptr;
  unsigned Arch = 0;
  bool operator==(const TargetArch &O) const { return Target == O.Target && Arch == O.Arch; }
};

} // namespace jacc::jit

#endif
