// JACC_DEVICES and friends: which devices to create and how many threads each host device gets.
#ifndef JACC_SRC_DEVICECONFIG_H
#define JACC_SRC_DEVICECONFIG_H

#include "src/LocalRank.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <chrono>
#include <string>
#include <vector>

namespace jacc {

struct DeviceSpec {
  std::string Kind;     ///< "host" or "cuda"
  unsigned Threads = 1; ///< host: team size
  int Ordinal = -1;     ///< cuda: the driver's GPU number
  bool ThreadsGiven = false; ///< host: set by `host:NxT` (JACC_HOST_THREADS does not apply)
  /// host: each run takes this many times as long (JACC_TEST_SLOWDOWN, tests of the balance).
  double Slowdown = 1;
  /// host: the team size of a launch that has the cores to itself, the other host devices idle
  /// (a kernel run on one device): the cores their default teams divide, else Threads.
  unsigned AloneThreads = 1;
};

struct DeviceConfig {
  std::vector<DeviceSpec> Devices;
  std::chrono::microseconds SpinTime{1000};
  /// JACC_CHECK=bounds: host devices put guard pages around their allocations
  /// (src/host/GuardedMemory.h).
  bool GuardPages = false;
  /// JACC_HUGE_PAGES: host devices keep their large copies on transparent huge pages
  /// (src/host/HostMemory.h).
  bool HugePages = true;
  /// JACC_MEMORY_POOL: devices keep released blocks for reuse (src/MemoryPool.h).
  bool MemoryPool = true;
  /// The OpenACC current device when the program starts: an index into Devices
  /// (ACC_DEVICE_TYPE, ACC_DEVICE_NUM: src/AccDeviceVars.h).
  unsigned CurrentDevice = 0;
};

/// How many GPUs the CUDA driver sees, or why it cannot be used (an ErrorCode::Device error whose
/// text names the library, the loader's reason and the fix). Called at most once per parse, and
/// only when the configuration depends on it.
using CudaCountFn = llvm::function_ref<llvm::Expected<int>()>;
/// This process's local rank and the node's number of ranks (src/LocalRank.h), or why they are
/// unknown. Called at most once per parse, and only for a `local-rank` configuration.
using LocalRankFn = llvm::function_ref<llvm::Expected<LocalRank>()>;

/// Parse a JACC_DEVICES value: a comma-separated list of `host` (one host device), `host:N`,
/// `host:NxT` (N host devices of T threads each; several such entries may be listed, for host
/// devices of unequal strength), `cuda:K` (GPU K) and `cuda:all`, devices numbered in the order
/// listed; empty means the default: every GPU if the driver finds any, else one host device.
/// HostThreads is JACC_HOST_THREADS (threads per host device without a T; default: the Cores
/// divided evenly among the host devices, at least one each; a launch on one of them while the
/// others idle may then use all the Cores), SpinUs is JACC_SPIN_US.
///
/// `local-rank` or `local-rank:<list>` (MPI: one process per rank): the list's devices (the
/// default's when it is empty) are dealt among the node's ranks, rank r of n taking the entries i
/// with i % n == r, or, when there are more ranks than devices, entry r % count alone; the Cores
/// are divided among the ranks first. LocalRankOf gives r and n.
llvm::Expected<DeviceConfig> parseDeviceConfig(llvm::StringRef Devices, llvm::StringRef HostThreads,
                                               llvm::StringRef SpinUs, unsigned Cores,
                                               CudaCountFn CudaCount, LocalRankFn LocalRankOf);

/// Applies a JACC_TEST_SLOWDOWN value, `D:F[,D:F...]` (host device D's runs take F >= 1 times as
/// long; tests only), to C. InvalidArgument naming the entry.
llvm::Error applySlowdown(DeviceConfig &C, llvm::StringRef Text);

/// The configuration from the environment (the CUDA driver is loaded only if it matters).
llvm::Expected<DeviceConfig> deviceConfigFromEnv();

} // namespace jacc

#endif
