// Resolving a directive's device_type groups into one clause list (one value per kind, by the
// group's priority), and the bind clause a routine gives each device kind.
#include "analysis/DeviceTypeClauses.h"

#include "analysis/DirectiveGrammar.h"

#include <llvm/ADT/StringSwitch.h>

#include <algorithm>
#include <vector>

namespace jacc::analysis {

namespace {

using CK = ClauseKind;

constexpr ClauseMask ComputeAfter =
    maskOf(CK::Async, CK::Wait, CK::NumGangs, CK::NumWorkers, CK::VectorLength);
constexpr ClauseMask LoopAfter = maskOf(CK::Collapse, CK::Gang, CK::Worker, CK::Vector, CK::Seq,
                                        CK::Independent, CK::Auto, CK::Tile);
constexpr ClauseMask RoutineAfter = maskOf(CK::Gang, CK::Worker, CK::Vector, CK::Seq, CK::Bind);
constexpr ClauseMask ParallelKinds = maskOf(CK::Gang, CK::Worker, CK::Vector, CK::Independent);

/// The clauses OpenACC allows after device_type on D (0: device_type is not resolved here).
ClauseMask allowedAfter(DirectiveKind K) {
  switch (K) {
  case DirectiveKind::Parallel:
  case DirectiveKind::Kernels:
  case DirectiveKind::Serial:
    return ComputeAfter;
  case DirectiveKind::Loop:
    return LoopAfter;
  case DirectiveKind::ParallelLoop:
  case DirectiveKind::KernelsLoop:
  case DirectiveKind::SerialLoop:
    return ComputeAfter | LoopAfter;
  case DirectiveKind::Routine:
    return RoutineAfter;
  default:
    return 0;
  }
}

/// How much a group's clauses count for a value: 0, the group does not apply.
int priorityOf(const std::vector<std::string> &Types) {
  if (Types.empty())
    return 2; // ungrouped
  int P = 0;
  for (const std::string &T : Types)
    P = std::max(P, llvm::StringSwitch<int>(T)
                        .Case("nvidia", 4)
                        .Case("*", 3)
                        .Cases("host", "multicore", "default", 1)
                        .Default(0));
  return P;
}

struct Entry {
  const Clause *C;
  int Priority;
  size_t Order;
};

} // namespace

std::optional<DeviceTypeProblem> resolveDeviceTypes(Directive &D) {
  ClauseMask After = allowedAfter(D.Kind);
  if (!After || !D.has(CK::DeviceType))
    return std::nullopt;
  std::vector<Entry> Entries;
  const std::vector<std::string> *Group = nullptr;
  for (size_t I = 0; I < D.Clauses.size(); ++I) {
    const Clause &C = D.Clauses[I];
    if (C.Kind == CK::DeviceType) {
      Group = &C.Vars;
      continue;
    }
    if (Group && !(After & clauseBit(C.Kind)))
      return DeviceTypeProblem{
          C.Column, "clause '" + C.Name + "' cannot follow device_type on '" +
                        directiveKindName(D.Kind) + "' (OpenACC allows only " +
                        (D.Kind == DirectiveKind::Routine
                             ? "gang, worker, vector, seq and bind"
                             : "the clauses that tune or shape the loops and the launch") +
                        " there); move it before the first device_type"};
    int P = Group ? priorityOf(*Group) : 2;
    if (P > 0)
      Entries.push_back({&C, P, I});
  }
  if (D.Kind == DirectiveKind::Routine)
    return std::nullopt; // one binding per device kind: routineBind reads the groups
  bool Parallel =
      llvm::any_of(Entries, [](const Entry &E) { return clauseBit(E.C->Kind) & ParallelKinds; });
  unsigned Collapse = 0;
  for (const Entry &E : Entries)
    if (E.C->Kind == CK::Collapse)
      Collapse = std::max(Collapse, unsigned(std::stoul(E.C->Argument)));
  std::vector<Entry> Kept;
  for (const Entry &E : Entries) {
    ClauseMask Bit = clauseBit(E.C->Kind);
    if (!(After & Bit)) { // only ungrouped: kept as written (several reductions, ...)
      Kept.push_back(E);
      continue;
    }
    if (Parallel && (E.C->Kind == CK::Seq || E.C->Kind == CK::Auto))
      continue;
    if (E.C->Kind == CK::Collapse && unsigned(std::stoul(E.C->Argument)) != Collapse)
      continue;
    // One per kind: the highest priority, the first written among equals.
    auto Same = std::find_if(Kept.begin(), Kept.end(),
                             [&](const Entry &K) { return K.C->Kind == E.C->Kind; });
    if (Same == Kept.end())
      Kept.push_back(E);
    else if (E.Priority > Same->Priority)
      *Same = E;
  }
  std::sort(Kept.begin(), Kept.end(),
            [](const Entry &A, const Entry &B) { return A.Order < B.Order; });
  std::vector<Clause> Resolved;
  for (const Entry &E : Kept)
    Resolved.push_back(*E.C);
  D.Clauses = std::move(Resolved);
  return std::nullopt;
}

const Clause *routineBind(const Directive &D, DeviceKind K) {
  auto Names = [K](const std::vector<std::string> &Types) {
    return llvm::any_of(Types, [K](const std::string &T) {
      return K == DeviceKind::Nvidia ? T == "nvidia"
                                     : T == "host" || T == "multicore" || T == "default";
    });
  };
  const Clause *Ungrouped = nullptr, *Named = nullptr, *Star = nullptr;
  bool KNamed = false;
  const std::vector<std::string> *Group = nullptr;
  for (const Clause &C : D.Clauses) {
    if (C.Kind == CK::DeviceType) {
      Group = &C.Vars;
      KNamed |= Names(*Group);
      continue;
    }
    if (C.Kind != CK::Bind)
      continue;
    const Clause **Slot = !Group                           ? &Ungrouped
                          : Names(*Group)                    ? &Named
                          : llvm::is_contained(*Group, "*") ? &Star
                                                             : nullptr; // another kind's
    if (Slot && !*Slot)
      *Slot = &C;
  }
  // `*` is for the kinds no group names (OpenACC 3.3 2.4).
  const Clause *Grouped = KNamed ? Named : Star;
  return Grouped ? Grouped : Ungrouped;
}

} // namespace jacc::analysis
