// The present table: mappings by host address, found in O(log n).
#include "src/data/PresentTable.h"

#include "src/profile/Events.h"

#include <cstdio>

namespace jacc {

namespace {

/// A mapping's creation or deletion on each device that holds a copy, to the profiling
/// listeners.
void observeMapping(prof::MemOp Op, const Mapping &M) {
  for (size_t D = 0; D < M.DevicePtrs.size(); ++D) {
    if (!M.hasCopy(D))
      continue;
    prof::MemEvent E{Op, int(D), reinterpret_cast<const void *>(M.Begin), M.DevicePtrs[D],
                     M.bytes()};
    prof::each([&](prof::Listener &L) { L.memory(E); });
  }
}

} // namespace

PresentTable::Lookup PresentTable::lookup(const void *P, size_t Bytes) {
  uintptr_t B = reinterpret_cast<uintptr_t>(P);
  // Clamped: a range running past the end of the address space must not wrap around.
  uintptr_t Len = Bytes ? Bytes : 1;
  uintptr_t E = Len > UINTPTR_MAX - B ? UINTPTR_MAX : B + Len;
  Lookup R;
  // The mapping starting at or before B may contain or overlap [B, E) ...
  auto It = Map.upper_bound(B);
  if (It != Map.begin()) {
    Mapping &Prev = std::prev(It)->second;
    if (B < Prev.End) {
      R.M = &Prev;
      R.State = E <= Prev.End ? Presence::Contained : Presence::Partial;
      return R;
    }
  }
  // ... and so may the first mapping starting after B.
  if (It != Map.end() && It->second.Begin < E) {
    R.M = &It->second;
    R.State = Presence::Partial;
  }
  return R;
}

Mapping &PresentTable::insert(Mapping M) {
  uintptr_t B = M.Begin;
  Mapping &Inserted = Map.emplace(B, std::move(M)).first->second;
  if (prof::active())
    observeMapping(prof::MemOp::Create, Inserted);
  return Inserted;
}

void PresentTable::erase(uintptr_t Begin) {
  if (prof::active())
    if (auto It = Map.find(Begin); It != Map.end())
      observeMapping(prof::MemOp::Delete, It->second);
  Map.erase(Begin);
}

std::vector<Mapping *> PresentTable::all() {
  std::vector<Mapping *> R;
  for (auto &KV : Map)
    R.push_back(&KV.second);
  return R;
}

std::string PresentTable::describe(const void *P, size_t Bytes) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "[%p,+%zu]", P, Bytes);
  return Buf;
}

std::string PresentTable::describe(const Mapping &M) {
  return describe(reinterpret_cast<const void *>(M.Begin), M.bytes());
}

} // namespace jacc
