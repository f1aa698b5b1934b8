// The present table: a red-black tree (std::map) of mapped host ranges, each with its copy on every
// device of its location (all of them unless it was mapped at one) and its OpenACC reference
// counts. Lookups accept any sub-range (interior pointers).
#ifndef JACC_SRC_DATA_PRESENTTABLE_H
#define JACC_SRC_DATA_PRESENTTABLE_H

#include "src/data/ValidityMap.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace jacc {

/// One mapped host range [Begin, End) and its device copies.
struct Mapping {
  uintptr_t Begin = 0, End = 0;
  std::vector<void *> DevicePtrs;  ///< per device: the address of Begin's copy (null: none)
  /// The devices that hold a copy: every device, or those under the location the mapping was
  /// created at (Gecko's memory at a location, docs/locations.md). Fixed for its lifetime.
  HolderSet Home = ValidityMap::devices(ValidityMap::MaxDevices);
  /// That location's name ("": every device, no location chosen), for messages.
  std::string Location;
  uint64_t DynamicRefs = 0;        ///< enter/exit data (jacc_copyin ... jacc_copyout)
  uint64_t StructuredRefs = 0;     ///< structured data regions (used by the translator)
  std::vector<uint64_t> LastUse;   ///< per device: ticket of the last queued kernel using it
  /// acc_map_data: the device whose copy is the program's own memory (jacc never releases it), or
  /// -1. Such a mapping also holds one StructuredRefs for its lifetime, so that no exit frees it:
  /// only acc_unmap_data ends it.
  int UserDevice = -1;
  /// JACC_MEMORY=unified: every device's copy is one memory (DevicePtrs all equal), the
  /// program's own when every device can address host memory, else managed memory that device
  /// UnifiedOwner allocated (-1: jacc allocated nothing). Copies between devices move nothing.
  bool Unified = false;
  int UnifiedOwner = -1;
  /// Pointers inside this range attached to their targets (acc_attach), by host address.
  struct Attachment {
    uint64_t Count = 0;        ///< the attachment counter
    void *HostValue = nullptr; ///< the host pointer's value when it was attached
  };
  std::map<uintptr_t, Attachment> Attachments;
  /// Which devices hold a current copy of each byte range (src/data/ValidityMap.h): every
  /// device once mapped; kernels and copies change it (src/launch/DemandExchange.h).
  ValidityMap Valid{0, 0};

  size_t bytes() const { return End - Begin; }
  /// Whether device D holds a copy.
  bool hasCopy(unsigned D) const { return Home >> D & 1; }
  /// Device D's address of host address P, which must lie in [Begin, End], and D hold a copy.
  void *translate(const void *P, unsigned D) const {
    return static_cast<char *>(DevicePtrs[D]) + (reinterpret_cast<uintptr_t>(P) - Begin);
  }
};

class PresentTable {
public:
  enum class Presence { Absent, Contained, Partial };
  struct Lookup {
    Presence State = Presence::Absent;
    Mapping *M = nullptr; ///< the containing mapping, or one overlapping mapping when Partial
  };

  /// How [P, P+Bytes) relates to the mappings (Bytes 0 is looked up as 1 byte).
  Lookup lookup(const void *P, size_t Bytes);
  /// Insert a mapping whose range lookup() found Absent.
  Mapping &insert(Mapping M);
  void erase(uintptr_t Begin);
  size_t size() const { return Map.size(); }
  std::vector<Mapping *> all();

  /// The table's lock: callers hold it around each lookup-and-modify sequence.
  std::mutex &mutex() { return Mutex; }

  /// "[0x1000,+4096]", the form libgomp users know.
  static std::string describe(const void *P, size_t Bytes);
  static std::string describe(const Mapping &M);

private:
  std::mutex Mutex;
  std::map<uintptr_t, Mapping> Map; // keyed by Begin; ranges never overlap
};

} // namespace jacc

#endif
