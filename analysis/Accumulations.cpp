// Which nests accumulate floats: a scalar updated by a value computed from its own, in a
// reduction or in an inner loop long enough for the chain's latency to matter.
#include "analysis/Accumulations.h"

#include "analysis/Kernel.h"

#include <llvm/ADT/STLExtras.h>

namespace jacc::analysis {

namespace {

/// Inner loops shorter than this (a constant trip count) make chains too short for the FMA's
/// latency to matter.
constexpr long long LongChain = 16;

/// Whether inner loop L runs long enough for its chain's latency to matter: a trip count set by
/// scalars (a dimension, n), or a constant of at least LongChain. Not a count read from an array
/// (a CSR row's few elements) nor a small constant (a 5x5 block): there the loop's iterations
/// overlap anyway, and one FMA instead of a multiply and an add is the gain.
/// Folded: the values a variant folds (scalars whose value is known), which may make a bound
/// constant.
bool longLoop(const InnerLoop &L, FoldedValue Folded) {
  if (L.Min.ReadsMemory || L.Max.ReadsMemory)
    return false;
  if (!L.Min.Affine || !L.Max.Affine)
    return true;
  long long Bound[2] = {L.Min.Const, L.Max.Const};
  const IndexExpr *Side[2] = {&L.Min, &L.Max};
  for (int I = 0; I < 2; ++I)
    for (const auto &[Var, Coef] : Side[I]->Coeffs) {
      std::optional<long long> V = Folded(Var);
      if (!V)
        return true; // set by a scalar: a dimension
      Bound[I] += Coef * *V;
    }
  return Bound[1] - Bound[0] + 1 >= LongChain;
}

std::optional<long long> nothingFolded(llvm::StringRef) { return std::nullopt; }

/// Whether statement Id updates a scalar by a computed value of its own old one: with Flops two
/// or more (the update and the value's operations), the compiler may fuse the two.
bool updatesByComputedValue(const RegionIR &IR, unsigned Id) {
  const IRStmt &S = IR.Stmts[Id];
  if (S.K != IRStmt::Kind::ScalarDef)
    return false;
  bool ReadsItself = S.Compound || S.Uses.count(S.Var);
  return ReadsItself && S.Flops >= 2;
}

/// Whether statement Id lies in a long inner loop of IR.
bool inLongInnerLoop(const RegionIR &IR, unsigned Id, FoldedValue Folded = nothingFolded) {
  for (const InnerLoop &L : IR.InnerLoops)
    if (L.FirstStmt <= Id && Id < L.EndStmt && longLoop(L, Folded))
      return true;
  return false;
}

} // namespace

bool accumulatesFloats(const ParallelNest &N) {
  const RegionIR &IR = N.Body;
  for (unsigned Id = 0; Id < IR.Stmts.size(); ++Id) {
    if (!updatesByComputedValue(IR, Id))
      continue;
    // A reduction variable's chain runs over the thread's iterations of the nest.
    if (IR.Stmts[Id].Reduction || inLongInnerLoop(IR, Id))
      return true;
  }
  return false;
}

bool jamCandidate(const ParallelNest &N) {
  return N.SumsAlongInnerLoop &&
         llvm::none_of(N.Body.Stmts, [](const IRStmt &S) { return S.Reduction; });
}

bool jamCandidate(const ParallelNest &N, FoldedValue Folded) {
  return jamCandidate(N) && sumsAlongInnerLoop(N, Folded);
}

bool sumsAlongInnerLoop(const ParallelNest &N, FoldedValue Folded) {
  const RegionIR &IR = N.Body;
  for (unsigned Id = 0; Id < IR.Stmts.size(); ++Id)
    if (updatesByComputedValue(IR, Id) && !IR.Stmts[Id].Reduction &&
        inLongInnerLoop(IR, Id, Folded))
      return true;
  return false;
}

bool sumsAlongInnerLoop(const ParallelNest &N) { return sumsAlongInnerLoop(N, nothingFolded); }

} // namespace jacc::analysis
