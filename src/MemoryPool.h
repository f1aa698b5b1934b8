// Freed device blocks kept for the next allocation of the same size: a data region entered
// every time step (`create` of work arrays in a solver's sweep) allocates and frees the same
// arrays each time, which costs freshly faulted pages (and unmapping) on host devices and a
// synchronizing cuMemFree on GPUs.
#ifndef JACC_SRC_MEMORYPOOL_H
#define JACC_SRC_MEMORYPOOL_H

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace jacc {

class MemoryPool {
public:
  /// Blocks smaller than this are not kept: allocators reuse small blocks themselves. Larger
  /// ones they give back to the system (glibc trims the top of its heap beyond 128 KiB and
  /// unmaps blocks it mapped), and the next allocation faults fresh pages again.
  static constexpr size_t MinBytes = size_t(64) << 10;

  /// The pool keeps at most Limit bytes (0: nothing).
  void setLimit(size_t Limit);
  /// A kept block of exactly Bytes, or null.
  void *take(size_t Bytes);
  /// Note a block the device allocated, so that its release may keep it (Bytes >= MinBytes).
  void allocated(void *P, size_t Bytes);
  /// Keep the released block P when it may be kept and the pool has room: true then (the
  /// caller frees nothing); false when the caller must free it.
  bool keep(void *P);
  /// The kept blocks, no longer kept: the caller frees them.
  std::vector<void *> drain();
  /// Bytes kept, free for the program though still the device's.
  size_t keptBytes() const;

private:
  mutable std::mutex M;
  size_t Limit = 0, Kept = 0;
  std::multimap<size_t, void *> Free;       ///< kept blocks by size
  std::unordered_map<void *, size_t> Sizes; ///< blocks in use that may be kept, by address
};

} // namespace jacc

#endif
