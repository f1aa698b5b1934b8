#include "analysis/Accumulations.h"

#include "analysis/Kernel.h"

namespace jacc::analysis {

namespace {

/// Inner loops shorter than this (a constant trip count) make chains too short for the FMA's
/// latency to matter.
constexpr long long LongChain = 16;

/// Whether inner loop L runs long enough for its chain's latency to matter: a trip count set by
/// scalars (a dimension, n), or a constant of at least LongChain. Not a count read from an array
/// (a CSR row's few elements) nor a small constant (a 5x5 block): there the loop's iterations
/// overlap anyway, and one FMA instead of a multiply and an add is the gain.
bool longLoop(const InnerLoop &L) {
  if (L.Min.ReadsMemory || L.Max.ReadsMemory)
    return false;
  bool Constant = L.Min.Affine && L.Max.Affine && L.Min.Coeffs.empty() && L.Max.Coeffs.empty();
  return !Constant || L.Max.Const - L.Min.Const + 1 >= LongChain;
}

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
bool inLongInnerLoop(const RegionIR &IR, unsigned Id) {
  for (const InnerLoop &L : IR.InnerLoops)
    if (L.FirstStmt <= Id && Id < L.EndStmt && longLoop(L))
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

bool sumsAlongInnerLoop(const ParallelNest &N) {
  const RegionIR &IR = N.Body;
  for (unsigned Id = 0; Id < IR.Stmts.size(); ++Id)
    if (updatesByComputedValue(IR, Id) && !IR.Stmts[Id].Reduction && inLongInnerLoop(IR, Id))
      return true;
  return false;
}

} // namespace jacc::analysis
