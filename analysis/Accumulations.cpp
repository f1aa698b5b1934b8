#include "analysis/Accumulations.h"

#include "analysis/Kernel.h"

namespace jacc::analysis {

bool accumulatesFloats(const ParallelNest &N) {
  for (const IRStmt &S : N.Body.Stmts) {
    if (S.K != IRStmt::Kind::ScalarDef)
      continue;
    bool ReadsItself = S.Compound || S.Uses.count(S.Var);
    // Flops counts the update itself and the operations of the value: two or more is an
    // update by a computed value, which the compiler may fuse with it.
    if (ReadsItself && S.Flops >= 2)
      return true;
  }
  return false;
}

} // namespace jacc::analysis
