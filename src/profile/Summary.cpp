// The JACC_PROFILE summary: events folded into per-region and per-construct totals as they come,
// printed as aligned text or JSON at finalize and at exit.
#include "src/profile/Summary.h"

#include "support/Format.h"
#include "support/Stats.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <unistd.h>

namespace jacc::prof {

// Named, not anonymous: Summary::State, a type with linkage, holds these (gcc warns of a
// type of an anonymous namespace inside one, as a unity build shows).
namespace summary {

/// One compute region: the launches of one kernel.
struct Region {
  std::string Name;
  uint64_t Launches = 0, ByMode[3] = {}, Async = 0, Variant = 0;
  unsigned Devices = 0;
  /// Launch times, first device's start to last device's end (launches whose every part ran).
  uint64_t Timed = 0;
  double Total = 0, Max = 0;
  double CompileSeconds = 0;
  uint64_t BySource[3] = {};
};

/// One construct's data movement (a data region's entry, an update, an API call, a compute
/// construct's fetches).
struct DataRow {
  uint64_t Count = 0;
  uint64_t Bytes[3] = {}, Copies[3] = {};
  double Seconds[3] = {};
  bool DataKind = false; ///< a data construct or routine: listed even when it moved nothing
};

/// A push whose device parts are still running.
struct Pending {
  const char *Kernel = nullptr;
  unsigned Expected = 0, Done = 0;
  bool Pushed = false;
  Nanos First = std::numeric_limits<Nanos>::max(), Last = 0;
};

} // namespace summary

namespace {

/// How the summary names a construct: "heat.c:42 update", "heat.c:30 data end", "acc_copyin".
std::string siteLabel(const Site *S) {
  if (!S)
    return "(device threads: exchanges)";
  if (S->Implicit || !S->File)
    return S->Func ? S->Func : constructName(S->Kind);
  return std::string(S->File) + ":" + std::to_string(S->Line) + " " + constructName(S->Kind) +
         (S->ExitPart ? " end" : "");
}

bool isDataKind(Construct K) {
  return K == Construct::Data || K == Construct::EnterData || K == Construct::ExitData ||
         K == Construct::Update;
}

double seconds(Nanos Begin, Nanos End) { return End > Begin ? (End - Begin) * 1e-9 : 0; }

/// "12.5 ms", or "-" for nothing.
std::string timeOrDash(double S, bool Any) { return Any ? formatSeconds(S) : "-"; }
std::string bytesOrDash(uint64_t B, bool Any) { return Any ? formatBytes(B) : "-"; }

/// Columns of text, each right-aligned but the first; widths from the widest cell.
class Table {
public:
  explicit Table(std::vector<std::string> Header) { Rows.push_back(std::move(Header)); }
  void add(std::vector<std::string> Row) { Rows.push_back(std::move(Row)); }
  void print(llvm::raw_ostream &OS) const {
    std::vector<size_t> W(Rows[0].size(), 0);
    for (const auto &R : Rows)
      for (size_t C = 0; C < R.size(); ++C)
        W[C] = std::max(W[C], R[C].size());
    for (const auto &R : Rows) {
      std::string Line;
      for (size_t C = 0; C < R.size(); ++C) {
        std::string Pad(W[C] - R[C].size(), ' ');
        Line += C == 0 ? "  " + R[C] + Pad : "  " + Pad + R[C];
      }
      OS << llvm::StringRef(Line).rtrim() << "\n";
    }
  }

private:
  std::vector<std::vector<std::string>> Rows;
};

constexpr const char *DirectionColumns[3] = {"host->device", "device->host", "device<->device"};
constexpr const char *DirectionKeys[3] = {"host_to_device", "device_to_host", "device_to_device"};

} // namespace

struct Summary::State {
  std::mutex M;
  std::map<const char *, summary::Region> Regions; // by interned kernel name
  std::map<std::string, summary::DataRow> Data;
  std::unordered_map<uint64_t, summary::Pending> Launches;
  std::vector<std::string> DeviceKinds;
  uint64_t Waits = 0;
  double WaitSeconds = 0;
  uint64_t CompileCount[3] = {};
  double CompileSeconds = 0;
  /// Kernel variants by source (compiled in the background, loaded from the disk cache) and
  /// their time, off the program's path.
  uint64_t VariantCount[3] = {};
  double VariantSeconds = 0;
  Nanos First = 0, Last = 0;
  uint64_t NewEvents = 0; ///< since the last write

  void touch(Nanos T) {
    if (!First || T < First)
      First = T;
    Last = std::max(Last, T);
    ++NewEvents;
  }
  void settle(uint64_t Id) {
    auto It = Launches.find(Id);
    if (It == Launches.end())
      return;
    summary::Pending &P = It->second;
    if (!P.Pushed || P.Done < P.Expected)
      return;
    summary::Region &R = Regions[P.Kernel];
    if (P.Done > 0) {
      double T = seconds(P.First, P.Last);
      ++R.Timed;
      R.Total += T;
      R.Max = std::max(R.Max, T);
    }
    Launches.erase(It);
  }
};

namespace {
thread_local Nanos WaitStart = 0;
} // namespace

Summary::Summary(bool Json, std::string File)
    : S(std::make_unique<State>()), Json(Json), File(std::move(File)) {}

Summary::~Summary() = default;

void Summary::constructBegin(const Site &Si, Nanos T) {
  std::lock_guard<std::mutex> G(S->M);
  S->touch(T);
  summary::DataRow &R = S->Data[siteLabel(&Si)];
  ++R.Count;
  R.DataKind |= isDataKind(Si.Kind);
}

void Summary::copyEnd(const CopyEvent &E) {
  std::string Label = siteLabel(currentSite());
  unsigned D = static_cast<unsigned>(E.Dir);
  std::lock_guard<std::mutex> G(S->M);
  S->touch(E.End);
  summary::DataRow &R = S->Data[Label];
  R.Bytes[D] += E.Bytes;
  R.Copies[D] += 1;
  R.Seconds[D] += seconds(E.Start, E.End);
}

void Summary::launchBegin(const LaunchEvent &E) {
  std::lock_guard<std::mutex> G(S->M);
  summary::Pending &P = S->Launches[E.Push];
  P.Kernel = E.Kernel.Name;
  ++P.Expected;
}

void Summary::kernelRun(const LaunchEvent &E) {
  std::lock_guard<std::mutex> G(S->M);
  S->touch(E.End);
  summary::Pending &P = S->Launches[E.Push];
  P.Kernel = E.Kernel.Name;
  ++P.Done;
  P.First = std::min(P.First, E.Start);
  P.Last = std::max(P.Last, E.End);
  S->settle(E.Push);
}

void Summary::push(const PushEvent &E) {
  std::lock_guard<std::mutex> G(S->M);
  S->touch(E.End);
  summary::Region &R = S->Regions[E.Kernel.Name];
  if (R.Name.empty())
    R.Name = E.Kernel.Name;
  ++R.Launches;
  ++R.ByMode[static_cast<unsigned>(E.How)];
  R.Async += E.Async;
  R.Variant += E.Variant;
  R.Devices = std::max(R.Devices, E.How == Mode::OnOwner ? 1u : E.Devices);
  R.CompileSeconds += E.CompileSeconds;
  ++R.BySource[static_cast<unsigned>(E.Source)];
  summary::Pending &P = S->Launches[E.Id];
  P.Kernel = E.Kernel.Name;
  P.Pushed = true;
  S->settle(E.Id);
}

void Summary::compile(const CompileEvent &E) {
  std::lock_guard<std::mutex> G(S->M);
  S->touch(E.End);
  if (E.Variant) {
    ++S->VariantCount[static_cast<unsigned>(E.Source)];
    S->VariantSeconds += seconds(E.Start, E.End);
    return;
  }
  ++S->CompileCount[static_cast<unsigned>(E.Source)];
  S->CompileSeconds += seconds(E.Start, E.End);
  // Code built on first use (the split entry, a GPU image) is the region's compile time too; the
  // kernel's own compile comes with its push.
  if (E.Part) {
    summary::Region &R = S->Regions[E.Kernel.Name];
    if (R.Name.empty())
      R.Name = E.Kernel.Name;
    R.CompileSeconds += seconds(E.Start, E.End);
  }
}

void Summary::waitBegin(Nanos T) { WaitStart = T; }

void Summary::waitEnd(Nanos T) {
  std::lock_guard<std::mutex> G(S->M);
  S->touch(T);
  ++S->Waits;
  S->WaitSeconds += seconds(WaitStart, T);
}

void Summary::deviceInit(int Index, const DeviceKind &Kind, bool Begin, Nanos T) {
  if (Begin || Index < 0)
    return;
  std::lock_guard<std::mutex> G(S->M);
  S->touch(T);
  if (S->DeviceKinds.size() <= size_t(Index))
    S->DeviceKinds.resize(Index + 1);
  S->DeviceKinds[Index] = Kind.Name;
}

void Summary::finish(bool AtExit) {
  {
    std::lock_guard<std::mutex> G(S->M);
    // A finalize then the exit: print again only what is new.
    if (S->NewEvents == 0)
      return;
  }
  (void)AtExit;
  if (File.empty()) {
    write(llvm::errs(), Json);
    llvm::errs().flush();
    // A closed or full stderr loses the summary, never the program's exit status.
    llvm::errs().clear_error();
    return;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(File, EC, llvm::sys::fs::OF_Text);
  if (!EC) {
    write(OS, Json);
    OS.close();
    // Checked and cleared here: an error left in the stream is fatal when it is destroyed.
    EC = OS.error();
    OS.clear_error();
  }
  if (EC) {
    llvm::errs() << "jacc: JACC_PROFILE: cannot write '" << File << "': " << EC.message()
                 << " (set JACC_PROFILE to a writable file, or to 1 for stderr)\n";
    llvm::errs().clear_error();
  }
}

void Summary::write(llvm::raw_ostream &OS, bool AsJson) {
  std::lock_guard<std::mutex> G(S->M);
  S->NewEvents = 0;
  // Regions by total time, then launches; data rows by bytes moved.
  std::vector<const summary::Region *> Regions;
  for (auto &KV : S->Regions)
    Regions.push_back(&KV.second);
  llvm::sort(Regions, [](const summary::Region *A, const summary::Region *B) {
    return std::tie(B->Total, B->Launches, A->Name) < std::tie(A->Total, A->Launches, B->Name);
  });
  std::vector<std::pair<const std::string *, const summary::DataRow *>> Rows;
  auto Moved = [](const summary::DataRow &R) { return R.Bytes[0] + R.Bytes[1] + R.Bytes[2]; };
  for (auto &KV : S->Data)
    if (Moved(KV.second) || KV.second.DataKind)
      Rows.push_back({&KV.first, &KV.second});
  llvm::sort(Rows, [&](auto &A, auto &B) {
    return std::make_pair(Moved(*B.second), *A.first) < std::make_pair(Moved(*A.second), *B.first);
  });
  uint64_t Launches = 0, ByMode[3] = {}, Bytes[3] = {};
  double KernelSeconds = 0, CopySeconds[3] = {};
  // Variants the spent budget stopped are no event: the process's counter says.
  uint64_t OverBudget = stats().VariantsOverBudget.load(std::memory_order_relaxed);
  for (const summary::Region *R : Regions) {
    Launches += R->Launches;
    for (unsigned M = 0; M < 3; ++M)
      ByMode[M] += R->ByMode[M];
    KernelSeconds += R->Total;
  }
  for (auto &[Label, R] : Rows)
    for (unsigned D = 0; D < 3; ++D) {
      Bytes[D] += R->Bytes[D];
      CopySeconds[D] += R->Seconds[D];
    }
  double Span = seconds(S->First, S->Last);

  if (AsJson) {
    llvm::json::Array Compute, Data, Devices;
    for (const std::string &K : S->DeviceKinds)
      Devices.push_back(K);
    for (const summary::Region *R : Regions)
      Compute.push_back(llvm::json::Object{
          {"region", R->Name},
          {"launches", int64_t(R->Launches)},
          {"split", int64_t(R->ByMode[0])},
          {"duplicate", int64_t(R->ByMode[1])},
          {"on_owner", int64_t(R->ByMode[2])},
          {"async", int64_t(R->Async)},
          {"specialized", int64_t(R->Variant)},
          {"devices", int64_t(R->Devices)},
          {"timed_launches", int64_t(R->Timed)},
          {"total_seconds", R->Total},
          {"mean_seconds", R->Timed ? R->Total / R->Timed : 0.0},
          {"max_seconds", R->Max},
          {"compile_seconds", R->CompileSeconds},
          {"cache", llvm::json::Object{{"memory", int64_t(R->BySource[0])},
                                       {"disk", int64_t(R->BySource[1])},
                                       {"compiled", int64_t(R->BySource[2])}}}});
    for (auto &[Label, R] : Rows) {
      llvm::json::Object O{{"construct", *Label}, {"count", int64_t(R->Count)}};
      for (unsigned D = 0; D < 3; ++D)
        O[DirectionKeys[D]] = llvm::json::Object{{"bytes", int64_t(R->Bytes[D])},
                                                 {"copies", int64_t(R->Copies[D])},
                                                 {"seconds", R->Seconds[D]}};
      Data.push_back(std::move(O));
    }
    llvm::json::Object Totals{{"launches", int64_t(Launches)},
                              {"split", int64_t(ByMode[0])},
                              {"duplicate", int64_t(ByMode[1])},
                              {"on_owner", int64_t(ByMode[2])},
                              {"kernel_seconds", KernelSeconds},
                              {"compiled", int64_t(S->CompileCount[2])},
                              {"loaded_from_disk", int64_t(S->CompileCount[1])},
                              {"compile_seconds", S->CompileSeconds},
                              {"variants",
                               llvm::json::Object{{"compiled", int64_t(S->VariantCount[2])},
                                                  {"loaded_from_disk", int64_t(S->VariantCount[1])},
                                                  {"seconds", S->VariantSeconds},
                                                  {"over_budget", int64_t(OverBudget)}}},
                              {"waits", int64_t(S->Waits)},
                              {"wait_seconds", S->WaitSeconds},
                              {"span_seconds", Span}};
    for (unsigned D = 0; D < 3; ++D)
      Totals[DirectionKeys[D]] = llvm::json::Object{{"bytes", int64_t(Bytes[D])},
                                                    {"seconds", CopySeconds[D]}};
    OS << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                     {"program", programName()},
                                     {"devices", std::move(Devices)},
                                     {"compute", std::move(Compute)},
                                     {"data", std::move(Data)},
                                     {"totals", std::move(Totals)}}))
       << "\n";
    return;
  }

  std::string DeviceList;
  for (size_t I = 0; I < S->DeviceKinds.size(); ++I)
    DeviceList += (I ? ", " : "") + S->DeviceKinds[I] + ":" + std::to_string(I);
  OS << "\njacc profile: " << programName() << ", " << S->DeviceKinds.size() << " device"
     << (S->DeviceKinds.size() == 1 ? "" : "s") << " (" << DeviceList << "), "
     << formatSeconds(Span) << " from the first event to the last\n";
  if (!Regions.empty()) {
    OS << "\nCompute regions (launch: first device's start to last device's end)\n";
    Table T({"region", "launches", "split", "duplicate", "on owner", "devices", "total", "mean",
             "max", "compile", "kernel from"});
    for (const summary::Region *R : Regions) {
      std::string From;
      const char *Names[3] = {"memory", "disk", "compiled"};
      for (unsigned C = 0; C < 3; ++C)
        if (R->BySource[C])
          From += (From.empty() ? "" : ", ") + std::string(Names[C]) + " " +
                  std::to_string(R->BySource[C]);
      if (R->Variant)
        From += ", " + std::to_string(R->Variant) + " specialized";
      T.add({R->Name, std::to_string(R->Launches), std::to_string(R->ByMode[0]),
             std::to_string(R->ByMode[1]), std::to_string(R->ByMode[2]),
             std::to_string(R->Devices), timeOrDash(R->Total, R->Timed),
             timeOrDash(R->Timed ? R->Total / R->Timed : 0, R->Timed),
             timeOrDash(R->Max, R->Timed), timeOrDash(R->CompileSeconds, R->CompileSeconds > 0),
             From});
    }
    T.print(OS);
  }
  if (!Rows.empty()) {
    OS << "\nData (bytes moved, and the copies' time, by construct)\n";
    std::vector<std::string> Header{"construct", "count"};
    for (const char *D : DirectionColumns) {
      Header.push_back(D);
      Header.push_back("time");
    }
    Table T(std::move(Header));
    for (auto &[Label, R] : Rows) {
      std::vector<std::string> Row{*Label, std::to_string(R->Count)};
      for (unsigned D = 0; D < 3; ++D) {
        Row.push_back(bytesOrDash(R->Bytes[D], R->Copies[D]));
        Row.push_back(timeOrDash(R->Seconds[D], R->Copies[D]));
      }
      T.add(std::move(Row));
    }
    T.print(OS);
  }
  OS << "\nTotals\n";
  OS << "  launches: " << Launches << " (" << ByMode[0] << " split, " << ByMode[1]
     << " duplicate, " << ByMode[2] << " on owner), " << formatSeconds(KernelSeconds) << "\n";
  for (unsigned D = 0; D < 3; ++D)
    OS << "  " << DirectionColumns[D] << ": " << formatBytes(Bytes[D]) << " in "
       << formatSeconds(CopySeconds[D]) << "\n";
  OS << "  compiles: " << S->CompileCount[2] << " compiled, " << S->CompileCount[1]
     << " loaded from the disk cache, " << formatSeconds(S->CompileSeconds) << "\n";
  if (S->VariantCount[2] || S->VariantCount[1] || OverBudget)
    OS << "  variants: " << S->VariantCount[2] << " compiled in the background, "
       << S->VariantCount[1] << " loaded from the disk cache, "
       << (S->VariantSeconds > 0 ? formatSeconds(S->VariantSeconds) : std::string("0 s"))
       << (OverBudget ? ", " + std::to_string(OverBudget) +
                            " not compiled (JACC_SPECIALIZE_BUDGET spent)"
                      : std::string())
       << "\n";
  OS << "  waits: "
     << (S->Waits ? std::to_string(S->Waits) + ", " + formatSeconds(S->WaitSeconds) : "none")
     << "\n";
}

} // namespace jacc::prof
