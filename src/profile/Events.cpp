// The listeners, the calling thread's constructs and the names events carry.
#include "src/profile/Events.h"

#include "support/Fork.h"
#include <cerrno>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <map>
#include <string>
#include <vector>

namespace jacc::prof {

namespace detail {
std::atomic<bool> Active{false};
std::atomic<unsigned> Count{0};
constexpr unsigned MaxListeners = 8;
Listener *Slots[MaxListeners] = {};
} // namespace detail

Listener::~Listener() = default;

Nanos now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string programName() {
  return program_invocation_short_name;
}

const char *constructName(Construct C) {
  static const char *const Names[] = {
      "parallel", "kernels",  "loop",     "data", "enter data", "exit data",
      "host_data", "atomic", "declare",  "init", "shutdown",   "set",
      "update",   "routine",  "wait",     "runtime api", "serial"};
  unsigned I = static_cast<unsigned>(C);
  return I < sizeof Names / sizeof *Names ? Names[I] : "construct";
}

const char *directionName(Direction D) {
  switch (D) {
  case Direction::HostToDevice: return "host to device";
  case Direction::DeviceToHost: return "device to host";
  case Direction::DeviceToDevice: return "device to device";
  }
  return "copy";
}

const char *modeName(Mode M) {
  switch (M) {
  case Mode::Split: return "split";
  case Mode::Duplicate: return "duplicate";
  case Mode::OnOwner: return "on owner";
  }
  return "launch";
}

const char *cacheSourceName(CacheSource S) {
  switch (S) {
  case CacheSource::Memory: return "memory";
  case CacheSource::Disk: return "disk";
  case CacheSource::Compiled: return "compiled";
  }
  return "cache";
}

void addListener(std::unique_ptr<Listener> L) {
  static std::mutex Lock;
  std::lock_guard<std::mutex> G(Lock);
  unsigned N = detail::Count.load(std::memory_order_relaxed);
  if (!L || N == detail::MaxListeners)
    return;
  // Listeners live as long as the process: events may arrive from any thread until it ends.
  detail::Slots[N] = L.release();
  detail::Count.store(N + 1, std::memory_order_release);
  detail::Active.store(true, std::memory_order_release);
  // What the listeners gathered is written when the process ends, finalized or not.
  if (N == 0)
    std::atexit([] {
      if (!forkedChild()) // the parent writes what it gathered
        finishAll(/*AtExit=*/true);
    });
}

uint64_t nextPushId() {
  static std::atomic<uint64_t> Next{1};
  return Next.fetch_add(1, std::memory_order_relaxed);
}

void finishAll(bool AtExit) {
  each([&](Listener &L) { L.finish(AtExit); });
}

namespace {

/// The calling thread's open constructs, innermost last: a fixed array, which no thread exit or
/// process exit destroys before the last event (exit-time listeners may still ask). Constructs
/// nested deeper than MaxOpen are counted, and the innermost stored one stands for them.
constexpr unsigned MaxOpen = 32;
thread_local Site Open[MaxOpen];
thread_local unsigned Depth = 0;

} // namespace

const Site *currentSite() { return Depth ? &Open[std::min(Depth, MaxOpen) - 1] : nullptr; }

void beginConstruct(const Site &S) {
  if (Depth < MaxOpen)
    Open[Depth] = S;
  ++Depth;
  if (active()) {
    Nanos T = now();
    each([&](Listener &L) { L.constructBegin(S, T); });
  }
}

void endConstruct() {
  // An end without a begin (a jump into a region) is ignored rather than trusted.
  if (Depth == 0)
    return;
  --Depth;
  Site S = Open[std::min(Depth, MaxOpen - 1)];
  if (active()) {
    Nanos T = now();
    each([&](Listener &L) { L.constructEnd(S, T); });
  }
}

bool ImplicitConstruct::begin(Construct Kind, const char *Api) {
  if (Depth)
    return false;
  Site S;
  S.Kind = Kind;
  S.Func = Api;
  S.Implicit = true;
  beginConstruct(S);
  return true;
}

void DataScope::begin() {
  Nanos T = now();
  each([&](Listener &L) { L.dataBegin(Op, Host, Bytes, T); });
}

void DataScope::end() {
  Nanos T = now();
  each([&](Listener &L) { L.dataEnd(Op, Host, Bytes, T); });
}

const KernelName *internKernelName(const std::string &Site, const std::string &FirstLine) {
  static std::mutex Lock;
  // Node-based: neither the strings nor the names ever move. Never destroyed: listeners finish
  // at exit, after static destructors may have run.
  static auto &Names = *new std::map<std::pair<std::string, bool>, KernelName>;
  bool FromSite = !Site.empty();
  std::lock_guard<std::mutex> G(Lock);
  auto [It, New] = Names.try_emplace({FromSite ? Site : FirstLine, FromSite});
  if (New)
    It->second = {It->first.first.c_str(), FromSite};
  return &It->second;
}

} // namespace jacc::prof
