// The -Minfo=accel lines of a kernel: how each top-level statement and loop nest runs, its
// reductions, and whether it is split or why not, each at the user's file and line.
#include "analysis/ConstructReport.h"

#include "analysis/KernelSource.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/Twine.h>

namespace jacc::analysis {

namespace {

/// Kernel-source offsets as the user's "file:line": the construct's line is the site's.
class UserLines {
public:
  explicit UserLines(const KernelInfo &K)
      : K(K), ConstructLine(lineOf(K.Source, K.ConstructOffset)) {
    const std::string &Site = K.Name.Site;
    llvm::StringRef File, Line;
    std::tie(File, Line) = llvm::StringRef(Site).rsplit(':');
    if (!Site.empty() && !File.empty() && !Line.getAsInteger(10, SiteLine))
      FileName = File.str();
    else
      SiteLine = ConstructLine; // a kernel pushed as text: its own lines
  }
  /// "heat.c:42" of a kernel-source offset.
  std::string place(unsigned Offset) const { return placeOfLine(lineOf(K.Source, Offset)); }
  /// "heat.c:42: ", a line's prefix.
  std::string at(unsigned Offset) const { return place(Offset) + ": "; }
  std::string atConstruct() const { return placeOfLine(ConstructLine) + ": "; }

private:
  std::string placeOfLine(unsigned KernelLine) const {
    return FileName + ":" + std::to_string(SiteLine + KernelLine - ConstructLine);
  }
  const KernelInfo &K;
  unsigned ConstructLine; ///< in the kernel source
  std::string FileName = "kernel";
  unsigned SiteLine = 0;
};

std::string loopNames(const ParallelNest &N) {
  std::vector<std::string> Vars;
  for (const CanonicalLoop &L : N.Loops)
    Vars.push_back(L.Var);
  return (Vars.size() == 1 ? "loop " : "loops ") + llvm::join(Vars, ", ") +
         (Vars.size() > 1 ? " (collapsed)" : "");
}

/// Whether the directive at Offset is the one of loop L (nothing but blanks between them).
bool directiveOf(const KernelInfo &K, unsigned Offset, const CanonicalLoop &L) {
  if (L.ForBegin <= Offset)
    return false;
  llvm::StringRef Between = llvm::StringRef(K.Source).slice(Offset, L.ForBegin);
  return Between.split('\n').second.trim().empty();
}

/// The loops nested in a shared nest's body (beyond its collapsed loops): those a GPU shares
/// among its threads too (ParallelNest::InnerParallel), the other `loop` directives, which each
/// thread runs within its own iterations, and the loops a CPU thread runs interchanged.
void describeInnerLoops(const KernelInfo &K, const RegionStmt &S, const UserLines &At,
                        std::vector<std::string> &Out) {
  const ParallelNest &N = K.Nests[S.Nest];
  for (size_t I = 0; I < N.InnerParallel.size(); ++I) {
    const CanonicalLoop &L = N.InnerParallel[I];
    Out.push_back(At.at(L.ForBegin) + "loop " + L.Var + ": on a GPU, iterations shared among " +
                  "the threads with " + loopNames(N) + " (" +
                  (I >= N.InnerNeedsDisjointFrom
                       ? "independent once its arrays are known not to overlap, from a push "
                         "whose arrays are each in a mapping of their own"
                       : "independent iterations") +
                  "); a CPU thread runs it within each of its own iterations");
  }
  unsigned Inner = N.Loops.back().BodyBegin;
  for (const PragmaLine &P : scanPragmas(K.Source)) {
    if (P.Offset < Inner || P.Offset >= S.End)
      continue;
    llvm::StringRef Text = llvm::StringRef(P.Text).trim();
    if (!Text.startswith("loop") || llvm::any_of(N.InnerParallel, [&](const CanonicalLoop &L) {
          return directiveOf(K, P.Offset, L);
        }))
      continue;
    Out.push_back(At.at(P.Offset) + "loop: runs sequentially within each iteration of " +
                  loopNames(N) + " at " + At.place(N.Loops.front().ForBegin) +
                  " (jacc shares the iterations of the outermost nest)");
  }
  for (const LoopInterchange &X : N.Interchanges)
    Out.push_back(
        At.at(X.Outer.ForBegin) + "loop " + X.Outer.Var + ": a CPU thread runs it inside loop " +
        X.Inner.Var + " at " + At.place(X.Inner.ForBegin) +
        " (interchanged: its accesses are contiguous along " + X.Outer.Var + ", and each " +
        X.Outer.Var + " still runs the iterations of " + X.Inner.Var + " in order)");
}

/// A top-level statement of the region that is not a shared loop.
void describeStatement(const KernelInfo &K, const RegionStmt &S, const UserLines &At,
                       std::vector<std::string> &Out) {
  llvm::StringRef Text = llvm::StringRef(K.Source).substr(S.Begin, S.End - S.Begin);
  bool Loop = Text.startswith("for") || Text.startswith("while") || Text.startswith("do");
  if (Loop)
    Out.push_back(At.at(S.Begin) +
                  (S.ExecMode == RegionStmt::Mode::Master
                       ? "loop runs sequentially on one thread of each device"
                       : "loop runs sequentially, redundantly on every thread") +
                  ": it has no '#pragma acc loop' (or one with seq or auto); give it "
                  "'#pragma acc loop independent' if its iterations are independent");
  else if (S.ExecMode == RegionStmt::Mode::Master)
    Out.push_back(At.at(S.Begin) +
                  "statement runs on one thread of each device (it writes memory outside a "
                  "parallel loop)");
}

} // namespace

std::vector<std::string> describeConstruct(const KernelInfo &K) {
  UserLines At(K);
  std::vector<std::string> Out;
  if (K.Serial) {
    Out.push_back(
        At.atConstruct() + "runs sequentially on one thread of each device" +
        (K.SerialReason.empty() ? std::string(" (a serial construct)") : ": " + K.SerialReason));
  } else {
    for (const RegionStmt &S : K.Stmts) {
      if (S.ExecMode != RegionStmt::Mode::Shared) {
        describeStatement(K, S, At, Out);
        continue;
      }
      const ParallelNest &N = K.Nests[S.Nest];
      Out.push_back(At.at(N.Loops.front().ForBegin) + loopNames(N) +
                    ": iterations shared among each device's threads");
      describeInnerLoops(K, S, At, Out);
    }
  }
  for (const ReductionVar &R : K.Reductions)
    Out.push_back(At.atConstruct() + "reduction(" + reductionOpName(R.Op) + ":" + R.Name +
                  (R.isArray() ? "[" + R.Lower + ":" + std::to_string(R.Count) + "]" : "") +
                  (K.Serial ? "): computed by the one thread"
                            : "): each thread's partial result combined, then the devices'"));
  if (K.Split.Enabled) {
    std::vector<std::string> Written;
    for (const SplitArray &A : K.Split.Plan.Arrays)
      Written.push_back(A.Name);
    // Without narrowing every device runs every iteration and keeps only the writes it owns.
    const SplitPlan &Plan = K.Split.Plan;
    std::string Parts = Written.empty() ? "" : "its part of " + llvm::join(Written, ", ");
    std::string Runs = Plan.Narrowable
                           ? ": each device runs its share of the iterations" +
                                 (Parts.empty() ? "" : " and writes " + Parts)
                           : ": each device runs every iteration, not only those writing " +
                                 (Parts.empty() ? std::string("its part") : Parts) + " (" +
                                 Plan.NoNarrowing + ")";
    Out.push_back(At.atConstruct() + "split across devices along " + loopNames(K.Nests.front()) +
                  Runs +
                  "; the first launches measure whether splitting pays (JACC_SPLIT overrides)");
  } else if (K.Serial) {
    Out.push_back(At.atConstruct() +
                  "not split across devices: with several devices each runs it whole");
  } else {
    Out.push_back(At.atConstruct() + "not split across devices: " +
                  (K.Nests.empty() ? "it has no parallel loop" : K.Split.Fallback) +
                  "; with several devices each runs the whole kernel");
  }
  return Out;
}

} // namespace jacc::analysis
