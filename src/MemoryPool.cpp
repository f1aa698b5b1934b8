// Freed device blocks kept for reuse (see MemoryPool.h).
#include "src/MemoryPool.h"

namespace jacc {

void MemoryPool::setLimit(size_t L) {
  std::lock_guard<std::mutex> G(M);
  Limit = L;
}

void *MemoryPool::take(size_t Bytes) {
  std::lock_guard<std::mutex> G(M);
  auto It = Free.find(Bytes);
  if (It == Free.end())
    return nullptr;
  void *P = It->second;
  Free.erase(It);
  Kept -= Bytes;
  Sizes[P] = Bytes;
  return P;
}

void MemoryPool::allocated(void *P, size_t Bytes) {
  std::lock_guard<std::mutex> G(M);
  Sizes[P] = Bytes;
}

bool MemoryPool::keep(void *P) {
  std::lock_guard<std::mutex> G(M);
  auto It = Sizes.find(P);
  if (It == Sizes.end())
    return false;
  size_t Bytes = It->second;
  Sizes.erase(It);
  if (Kept + Bytes > Limit)
    return false;
  Free.emplace(Bytes, P);
  Kept += Bytes;
  return true;
}

std::vector<void *> MemoryPool::drain() {
  std::lock_guard<std::mutex> G(M);
  std::vector<void *> Out;
  for (auto &[Bytes, P] : Free)
    Out.push_back(P);
  Free.clear();
  Kept = 0;
  return Out;
}

size_t MemoryPool::keptBytes() const {
  std::lock_guard<std::mutex> G(M);
  return Kept;
}

} // namespace jacc
