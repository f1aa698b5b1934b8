// The list of device targets built in, and the identities of their code.
#include "jit/CodeTarget.h"

#include "jacc_code_targets.h" // JACC_CODE_TARGETS: JACC_CODE_TARGET(name) per target

#include <atomic>
#include <mutex>
#include <unordered_set>

namespace jacc::jit {

// Each target's folder defines `const CodeTarget &<name>CodeTarget()`.
#define JACC_CODE_TARGET(Name) const CodeTarget &Name##CodeTarget();
JACC_CODE_TARGETS
#undef JACC_CODE_TARGET

llvm::ArrayRef<const CodeTarget *> codeTargets() {
#define JACC_CODE_TARGET(Name) &Name##CodeTarget(),
  static const CodeTarget *const All[] = {JACC_CODE_TARGETS nullptr};
#undef JACC_CODE_TARGET
  return llvm::ArrayRef(All).drop_back();
}

namespace {
/// The Ids of the DeviceCodes that exist.
struct LiveCodes {
  std::mutex M;
  std::unordered_set<uint64_t> Ids;
};
LiveCodes &liveCodes() {
  static auto *L = new LiveCodes; // never destroyed: codes may outlive static destructors
  return *L;
}
uint64_t newId() {
  static std::atomic<uint64_t> Next{1};
  uint64_t Id = Next.fetch_add(1, std::memory_order_relaxed);
  LiveCodes &L = liveCodes();
  std::lock_guard<std::mutex> Lock(L.M);
  L.Ids.insert(Id);
  return Id;
}
} // namespace

DeviceCode::DeviceCode() : Id(newId()) {}

DeviceCode::~DeviceCode() {
  LiveCodes &L = liveCodes();
  std::lock_guard<std::mutex> Lock(L.M);
  L.Ids.erase(Id);
}

bool DeviceCode::alive(uint64_t Id) {
  LiveCodes &L = liveCodes();
  std::lock_guard<std::mutex> Lock(L.M);
  return L.Ids.count(Id) != 0;
}

} // namespace jacc::jit
