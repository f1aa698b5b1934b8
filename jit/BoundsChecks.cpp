// Inserting JACC_CHECK=bounds checks into an entry's text: each site's check opened and closed
// around the access, also against the owned range of a split write its guard keeps in range.
#include "jit/BoundsChecks.h"

#include "jit/AtomicText.h"
#include "jit/EntryTarget.h"
#include "jit/host/HostABI.h"

#include "analysis/Rewrite.h"

namespace jacc::jit {

using namespace analysis;

unsigned boundsScratchWord(unsigned NParams) { return JACC_BOUNDS_RECORD_WORDS + 2 * NParams; }

std::string ownedBytesName(const std::string &A, const char *Part) {
  return "__jacc_bown" + std::string(Part) + "_" + A;
}

bool guardsReachPastArray(const KernelInfo &K, const SplitArray &) {
  return K.CheckBounds;
}

std::string ownedIndexName(const std::string &A, const char *Part) {
  return "__jacc_own" + std::string(Part) + "_" + A;
}

/// The split array whose owned range site S writes in when K's split entry runs it: S is the
/// element a guarded write stores to, and the guard is exactly own(A, <its index>), without the
/// terms of elements needed elsewhere (a device may write those outside its range).
static const SplitArray *ownedWrite(const KernelInfo &K, const BoundsSite &S) {
  const SplitInfo &Split = K.Split;
  if (!S.Write)
    return nullptr;
  for (const IRStmt &W : Split.IR.Stmts) {
    const std::vector<IndexExpr> &Index = W.Write.Index;
    if (W.K != IRStmt::Kind::ArrayWrite || W.Write.Name != K.Args[S.Arg].Name ||
        Index.empty() || S.Begin < W.Begin || S.End > W.End || S.Begin > Index.front().Begin ||
        Index.back().End > S.End)
      continue;
    const SplitArray *A = Split.Plan.find(W.Write.Name);
    if (!A || W.Id >= Split.Preds.size() || A->Dim >= Index.size())
      return nullptr;
    const Predicate &P = Split.Preds[W.Id];
    PredTerm Own;
    Own.Array = A->Name;
    Own.Index = Index[A->Dim];
    Own.Origin = W.Id;
    bool Exact = !P.Always && P.Terms.size() == 1 &&
                 P.Terms[0].K == PredTerm::Kind::Own &&
                 P.Terms[0].key(Split.IR) == Own.key(Split.IR);
    return Exact ? A : nullptr;
  }
  return nullptr;
}

void insertBoundsChecks(const KernelInfo &K, const EntryTarget &Target, BoundsScope Scope,
                        BoundsPart Part, bool Split, TextEdits &Edits) {
  if (!K.CheckBounds)
    return;
  for (size_t I = 0; I < K.BoundsSites.size(); ++I) {
    const BoundsSite &S = K.BoundsSites[I];
    bool Atomic = insideAtomic(K, S.Begin, S.End);
    if (K.arrayReductionOf(S.Arg) || Atomic != (Scope == BoundsScope::InsideAtomics))
      continue;
    const ArgInfo &A = K.Args[S.Arg];
    // The site's constants: parameter, line, column, how (HostABI.h); before them, the owned
    // range's of a write whose check also tests it (its mapping's first, in one helper).
    unsigned How = unsigned(S.Write) | S.Subscripts << 1;
    std::string Where, Check = "__jacc_bcheck";
    if (const SplitArray *Owned = Split ? ownedWrite(K, S) : nullptr) {
      Check = "__jacc_bowned";
      How |= JACC_BOUNDS_OWNED | Owned->Dim * JACC_BOUNDS_OWNED * 2;
      // The range a failure reports: along an inner dimension, where the widened guards let
      // a subscript past the row through, the dimension's (BoundsReport); else the owned one.
      bool Widened = guardsReachPastArray(K, *Owned);
      std::string Lb = Widened ? ownedIndexName(A.Name, "lb") : lowerBoundName(A.Name);
      std::string Ub = Widened ? ownedIndexName(A.Name, "ub") : upperBoundName(A.Name);
      if (Widened && Owned->Dim > 0) {
        Lb = "0";
        Ub = ownedIndexName(A.Name, "ext") + " - 1";
      }
      for (const std::string &Name : {ownedBytesName(A.Name, "lo"), ownedBytesName(A.Name, "hi"),
                                      ownedBytesName(A.Name, "pitch"), Lb, Ub})
        Where += Name + ", ";
    }
    Where += std::to_string(A.Param) + ", " + std::to_string(S.Line) + ", " +
             std::to_string(S.Col) + ", " + std::to_string(How);
    if (Part == BoundsPart::Opens)
      Edits.insert(S.Begin, Target.BoundsCheckOpen(I, Check));
    else
      Edits.insert(S.End, Target.BoundsCheckClose(I, Check, A.Name, Where));
  }
}

std::string boundsStop(const KernelInfo &K) {
  return K.CheckBounds ? "if (*(volatile long long *)__jacc_t->bounds) break;\n" : "";
}

} // namespace jacc::jit
