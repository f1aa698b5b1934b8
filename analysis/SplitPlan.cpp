// Planning a nest's split: each written array's dimension by the parallel iterators that index it,
// its writes affine in the split iterator, and why the nest cannot be narrowed or split.
#include "analysis/SplitPlan.h"

#include "analysis/ScaledIndex.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <map>
#include <optional>

namespace jacc::analysis {

/// Whether index R is index W shifted by a constant ("x * n + y - 1" of "x * n + y").
static bool shifted(llvm::StringRef R, llvm::StringRef W) {
  if (!R.consume_front(W))
    return false;
  R = R.trim();
  if (!R.consume_front("+") && !R.consume_front("-"))
    return false;
  R = R.trim();
  return !R.empty() && llvm::all_of(R, llvm::isDigit);
}

/// Why a read of a split array sees an element of it that an earlier iteration of an inner
/// loop wrote (a recurrence: the read spells a write's subscripts shifted by a constant), or ""
/// when none does.
static std::string readsOtherWrittenElement(const RegionIR &IR, const SplitPlan &P) {
  std::vector<const ArrayAccess *> Writes;
  for (const IRStmt &S : IR.Stmts)
    if (S.K == IRStmt::Kind::ArrayWrite && P.find(S.Write.Name))
      Writes.push_back(&S.Write);
  for (const IRStmt &S : IR.Stmts)
    for (const ArrayAccess &R : S.Reads)
      for (const ArrayAccess *W : Writes) {
        if (W->Name != R.Name || W->Index.size() != R.Index.size())
          continue;
        bool Shift = false, Same = true;
        for (size_t D = 0; D < R.Index.size() && Same; ++D) {
          // Shifted along an inner loop's variable: a parallel iterator's shift is a race
          // OpenACC leaves to the program, a region invariant's no recurrence.
          bool Sh = shifted(R.Index[D].Text, W->Index[D].Text) &&
                    llvm::any_of(W->Index[D].Vars, [&](const std::string &V) {
                      return !IR.invariant(V) && !llvm::is_contained(IR.ParallelVars, V);
                    });
          Shift |= Sh;
          Same = Sh || R.Index[D].Text == W->Index[D].Text;
        }
        if (Same && Shift)
          return "'" + R.text() + "' at line " + std::to_string(S.Line) +
                 " reads an element a previous iteration wrote as '" + W->text() +
                 "', which another device may own";
      }
  return "";
}

/// The pointer arguments read after a write of the iteration: in a later statement than one
/// writing an array, or in a sequential loop whose body writes one (its next trip). OwnElement:
/// of those, the ones only read at the element their own statement writes, with the arguments
/// so written (SplitPlan::ReadsOwnElement).
static std::set<unsigned> readsAfterWrites(const RegionIR &IR,
                                           std::map<unsigned, std::set<unsigned>> &OwnElement) {
  std::set<unsigned> Out, Elsewhere;
  std::optional<size_t> FirstWrite;
  std::vector<bool> InWritingLoop(IR.Stmts.size(), false);
  for (size_t I = 0; I < IR.Stmts.size(); ++I) {
    if (IR.Stmts[I].K != IRStmt::Kind::ArrayWrite)
      continue;
    FirstWrite = FirstWrite.value_or(I);
    for (const InnerLoop &L : IR.InnerLoops)
      if (L.FirstStmt <= I && I < L.EndStmt)
        for (size_t J = L.FirstStmt; J < L.EndStmt && J < IR.Stmts.size(); ++J)
          InWritingLoop[J] = true;
  }
  for (size_t I = 0; I < IR.Stmts.size(); ++I) {
    if (!(FirstWrite && I > *FirstWrite) && !InWritingLoop[I])
      continue; // a statement's own reads come before its store
    const IRStmt &S = IR.Stmts[I];
    for (const auto *List : {&S.Reads, &S.IndexReads})
      for (const ArrayAccess &R : *List) {
        if (R.Arg < 0)
          continue;
        Out.insert(R.Arg);
        bool Own = List == &S.Reads && S.K == IRStmt::Kind::ArrayWrite && S.Write.Arg >= 0 &&
                   R.Index.size() == S.Write.Index.size() &&
                   std::equal(R.Index.begin(), R.Index.end(), S.Write.Index.begin(),
                              [](const IndexExpr &A, const IndexExpr &B) {
                                return A.Text == B.Text && !A.ReadsMemory;
                              });
        if (!Own) {
          Elsewhere.insert(R.Arg);
          continue;
        }
        auto [It, New] = OwnElement.try_emplace(R.Arg, std::set<unsigned>{unsigned(S.Write.Arg)});
        if (!New && !It->second.count(S.Write.Arg))
          It->second.clear(); // read at the elements of several arrays: none is its own
      }
  }
  for (unsigned A : Elsewhere)
    OwnElement.erase(A);
  for (auto It = OwnElement.begin(); It != OwnElement.end();)
    It = It->second.empty() ? OwnElement.erase(It) : std::next(It);
  return Out;
}

SplitPlan planSplit(const RegionIR &IR) {
  SplitPlan P;
  P.ReadAfterWrite = readsAfterWrites(IR, P.ReadsOwnElement);
  if (!IR.Unattributable.empty()) {
    P.Splittable = false;
    P.Fallback = IR.Unattributable;
  }
  const std::string Outer = IR.ParallelVars.empty() ? "" : IR.ParallelVars.front();
  // Per array: how often each dimension is indexed by each parallel iterator (outermost counts
  // most), as JACC picks the split dimension.
  std::map<std::string, std::map<unsigned, unsigned>> Votes;
  std::map<std::string, const IRStmt *> FirstWrite;
  for (const IRStmt &S : IR.Stmts) {
    for (const auto *List : {&S.Reads, &S.IndexReads})
      for (const ArrayAccess &R : *List)
        if (R.Arg >= 0)
          P.ReadArgs.insert(R.Arg);
    if (S.K == IRStmt::Kind::ScalarDef && S.Reduction)
      P.HasShareTerms = true;
    if (S.K != IRStmt::Kind::ArrayWrite || S.Write.Arg < 0)
      continue;
    FirstWrite.try_emplace(S.Write.Name, &S);
    auto &V = Votes[S.Write.Name];
    for (unsigned D = 0; D < S.Write.Index.size(); ++D)
      for (size_t K = 0; K < IR.ParallelVars.size(); ++K)
        if (S.Write.Index[D].Vars.count(IR.ParallelVars[K]))
          V[D] += K == 0 ? 4 : 1;
  }
  for (auto &[Name, First] : FirstWrite) {
    SplitArray A;
    A.Name = Name;
    A.Arg = First->Write.Arg;
    A.Rank = First->Write.Index.size();
    unsigned Best = 0, BestVotes = 0;
    for (auto [D, N] : Votes[Name])
      if (N > BestVotes)
        Best = D, BestVotes = N;
    A.Dim = Best;
    P.Arrays.push_back(A);
  }
  for (const IRStmt &S : IR.Stmts) {
    if (S.K != IRStmt::Kind::ArrayWrite || S.Write.Arg < 0)
      continue;
    SplitArray &A = *const_cast<SplitArray *>(P.find(S.Write.Name));
    if (S.Write.Index.size() != A.Rank) {
      P.Splittable = false;
      P.Fallback = "'" + A.Name + "' is written with different numbers of subscripts";
      continue;
    }
    const IndexExpr &X = S.Write.Index[A.Dim];
    AffineWrite W;
    bool Ok = X.Affine && !Outer.empty() && X.Coeffs.count(Outer) && !S.Atomic;
    std::string Offset = std::to_string(X.Const);
    for (const auto &[Var, Coeff] : X.Coeffs) {
      if (Var == Outer) {
        W.Coef = Coeff;
        continue;
      }
      if (!IR.invariant(Var) ||
          std::find(IR.ParallelVars.begin(), IR.ParallelVars.end(), Var) !=
              IR.ParallelVars.end())
        Ok = false;
      Offset += " + " + std::to_string(Coeff) + "LL * (" + Var + ")";
    }
    W.Offset = Offset;
    // Linearized with run-time strides (b[i * n + j]): the scale and the inner loops' span are
    // known when the kernel runs.
    if (!Ok && !S.Atomic && !Outer.empty()) {
      std::string Why;
      if (auto Scaled = scaledIndex(IR, X, S.Id, Outer, Why); Scaled && Scaled->Coef != 0) {
        W = {Scaled->Coef, Scaled->offsetText(), Scaled->Scale, Scaled->Least.text(),
             Scaled->Greatest.text()};
        Ok = true;
      }
    }
    if (!Ok) {
      A.Affine = false;
      if (P.Narrowable) {
        P.Narrowable = false;
        P.NoNarrowing = S.Atomic ? "an atomic update of '" + A.Name + "'"
                                 : "the write '" + A.Name + "[...]' at line " +
                                       std::to_string(S.Line) +
                                       " is not affine in the parallel iterator";
      }
      continue;
    }
    A.Writes.push_back(W);
  }
  // Without narrowing, a device runs iterations whose writes it does not own (they are
  // guarded), and so it does with a write an inner loop spreads over a row that crosses the
  // devices' ranges (c[x * n + y]): a recurrence reading back the element an inner loop's
  // previous iteration wrote would read its own stale copy where another device owns that
  // element. Such a nest runs duplicated instead.
  if (P.Splittable && (!P.Narrowable || P.spansWrites()))
    if (std::string Why = readsOtherWrittenElement(IR, P); !Why.empty()) {
      P.Splittable = false;
      P.Fallback = Why;
    }
  if (!P.Splittable) {
    P.Narrowable = false;
    if (P.NoNarrowing.empty())
      P.NoNarrowing = "the nest is not split";
  }
  return P;
}

} // namespace jacc::analysis
