// Access traits from the region IR: each global access classed by its stride from one thread to
// the next, and the nests' counts graded into coalescing, arithmetic intensity and sharing.
#include "analysis/AccessTraits.h"

#include "analysis/Kernel.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringRef.h>

#include <cstdio>
#include <map>
#include <optional>
#include <set>

namespace jacc::analysis {

namespace {

/// The stride of integer variables in the innermost parallel variable V of one nest: how much a
/// variable changes from one thread to the next (V's neighbours run on neighbouring lanes).
class ThreadStrides {
public:
  explicit ThreadStrides(const ParallelNest &N) : V(N.Loops.back().Var) {
    for (const CanonicalLoop &L : N.Loops)
      LoopVars.insert(L.Var);
    for (const IRStmt &S : N.Body.Stmts)
      if (S.K == IRStmt::Kind::ScalarDef)
        Defs[S.Var].push_back(&S);
  }

  /// The stride of an expression, nullopt when it is not a constant (i * n with V = i, idx[i]).
  std::optional<long long> of(const LinearForm &F, const std::string &Skip = "") {
    long long Sum = 0;
    for (const auto &[Var, Coef] : F.Coef) {
      if (Var == Skip)
        continue;
      std::optional<long long> S = ofVar(Var);
      if (!S)
        return std::nullopt;
      Sum += Coef * *S;
    }
    for (const std::string &Var : F.Nonlinear)
      if (Var != Skip && ofVar(Var) != 0)
        return std::nullopt;
    return Sum;
  }

private:
  /// A variable's stride: 1 for V, 0 for the other loop variables and what the body does not
  /// define (arguments, region locals); a body local's from its definitions, which must agree.
  std::optional<long long> ofVar(const std::string &Var) {
    if (Var == V)
      return 1;
    auto D = Defs.find(Var);
    if (LoopVars.count(Var) || D == Defs.end())
      return 0;
    if (auto M = Memo.find(Var); M != Memo.end())
      return M->second;
    if (!Active.insert(Var).second)
      return 0; // a definition reached through itself: k = k + 1 keeps k's stride
    std::optional<std::optional<long long>> Agreed;
    bool Known = true;
    for (const IRStmt *S : D->second) {
      if (S->Compound) {
        // k += c keeps k's stride when c is the same on every thread.
        for (const std::string &U : S->Uses)
          if (U != Var && ofVar(U) != 0)
            Known = false;
        continue;
      }
      std::optional<long long> Stride = of(S->ValueLinear, Var);
      // k = k + c: like k += c. Anything else sets the stride.
      bool Keeps = S->ValueLinear.Coef.count(Var) && S->ValueLinear.Coef.at(Var) == 1;
      if (Keeps && Stride == 0)
        continue;
      if (Keeps || !Stride)
        Known = false;
      else if (Agreed && *Agreed != Stride)
        Known = false;
      else
        Agreed = Stride;
    }
    Active.erase(Var);
    std::optional<long long> R;
    if (Known)
      R = Agreed ? *Agreed : 0;
    Memo[Var] = R;
    return R;
  }

  std::string V;
  std::set<std::string> LoopVars;
  std::map<std::string, std::vector<const IRStmt *>> Defs;
  std::map<std::string, std::optional<long long>> Memo;
  std::set<std::string> Active;
};

/// The step of the innermost parallel loop when it is a literal (0: unknown).
long long literalStep(const CanonicalLoop &L) {
  long long Step = 0;
  if (llvm::StringRef(L.Step).trim().getAsInteger(10, Step))
    return 0;
  return Step;
}

AccessPattern classify(const ArrayAccess &A, ThreadStrides &T, long long Step) {
  std::vector<long long> Strides;
  for (const IndexExpr &X : A.Index) {
    std::optional<long long> S = T.of(X.Linear);
    if (!S)
      return AccessPattern::Scatter;
    Strides.push_back(*S);
  }
  for (size_t D = 0; D + 1 < Strides.size(); ++D)
    if (Strides[D] != 0)
      return AccessPattern::Scatter; // a row or more apart
  long long Last = Strides.back();
  if (Last == 0)
    return AccessPattern::Uniform;
  if (Step == 0)
    return AccessPattern::Strided; // a step that is not a literal: at least not scattered
  long long Elems = Last * Step < 0 ? -Last * Step : Last * Step;
  if (Elems == 1)
    return AccessPattern::Unit;
  return Elems <= 4 ? AccessPattern::Strided : AccessPattern::Scatter;
}

/// Accesses whose indices vary alike on every variable (a[i - 1], a[i + 1]) differ by terms
/// the same on every thread: neighbouring threads read each other's elements.
std::string neighbourKey(const ArrayAccess &A) {
  std::string S = A.Name;
  for (const IndexExpr &X : A.Index) {
    S += "[";
    for (const auto &[Var, Coef] : X.Linear.Coef)
      S += Var + "*" + std::to_string(Coef) + ",";
    for (const std::string &Var : X.Linear.Nonlinear)
      S += Var + "?,";
    S += X.Linear.ReadsMemory ? "mem]" : "]";
  }
  return S;
}

/// Adds the global accesses of nest N to T's counts.
void countNest(const KernelInfo &K, const ParallelNest &N, AccessTraits &T) {
  if (N.Loops.empty())
    return;
  std::set<std::string> Global;
  for (const ArgInfo &A : K.Args)
    if (A.ArgKind == ArgInfo::Kind::Pointer)
      Global.insert(A.Name);
  auto IsGlobal = [&](const ArrayAccess &A) {
    llvm::StringRef Name(A.Name);
    Name.consume_front("*"); // a deviceptr argument is not a split pointer argument
    bool AnyElement = A.Index.size() == 1 && A.Index[0].Text == "?";
    return Global.count(Name.str()) && !AnyElement;
  };
  T.Known = true;
  ThreadStrides Strides(N);
  long long Step = literalStep(N.Loops.back());
  std::map<std::string, std::pair<const ArrayAccess *, AccessPattern>> Reads, Writes;
  // Equal texts are one access (the compiler reuses the value).
  auto Add = [&](auto &Set, const ArrayAccess &A) {
    if (IsGlobal(A))
      Set.emplace(A.text(), std::make_pair(&A, classify(A, Strides, Step)));
  };
  for (const IRStmt &S : N.Body.Stmts) {
    T.Flops += S.Flops;
    if (S.K == IRStmt::Kind::ArrayWrite)
      Add(Writes, S.Write);
    for (const ArrayAccess &A : S.Reads)
      Add(Reads, A);
    for (const ArrayAccess &A : S.IndexReads)
      Add(Reads, A);
  }
  std::map<std::string, unsigned> Neighbours;
  for (const auto &[Text, R] : Reads)
    if (R.second != AccessPattern::Scatter)
      ++Neighbours[neighbourKey(*R.first)];
  for (auto *Set : {&Reads, &Writes})
    for (const auto &[Text, R] : *Set) {
      ++T.Accesses;
      switch (R.second) {
      case AccessPattern::Unit: ++T.Unit; break;
      case AccessPattern::Uniform: ++T.Uniform; break;
      case AccessPattern::Strided: ++T.Strided; break;
      case AccessPattern::Scatter: ++T.Scattered; break;
      }
    }
  for (const auto &[Text, R] : Reads) {
    ++T.Reads;
    if (R.second == AccessPattern::Uniform ||
        (R.second != AccessPattern::Scatter && Neighbours[neighbourKey(*R.first)] > 1))
      ++T.SharedReads;
  }
}

} // namespace

bool innermostLoopOnlyGathers(const KernelInfo &K, const ParallelNest &N) {
  AccessTraits T;
  countNest(K, N, T);
  return T.Unit == 0 && T.Scattered > 0;
}

bool indexedThroughMemory(const ParallelNest &N) {
  // The scalars the body assigns from memory, directly or from another such scalar.
  std::set<std::string> Loaded;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const IRStmt &S : N.Body.Stmts)
      if (S.K == IRStmt::Kind::ScalarDef && !Loaded.count(S.Var) &&
          (!S.Reads.empty() || !S.IndexReads.empty() ||
           llvm::any_of(S.Uses, [&](const std::string &U) { return Loaded.count(U); })))
        Grew = Loaded.insert(S.Var).second;
  }
  auto Through = [&](const ArrayAccess &A) {
    // Arrays of pointer arguments: a local array is the thread's own.
    return A.Arg >= 0 && llvm::any_of(A.Index, [&](const IndexExpr &X) {
             return X.ReadsMemory || X.Linear.ReadsMemory ||
                    llvm::any_of(X.Vars, [&](const std::string &V) { return Loaded.count(V); });
           });
  };
  for (const IRStmt &S : N.Body.Stmts)
    if ((S.K == IRStmt::Kind::ArrayWrite && Through(S.Write)) || llvm::any_of(S.Reads, Through) ||
        llvm::any_of(S.IndexReads, Through))
      return true;
  return false;
}

AccessTraits computeAccessTraits(const KernelInfo &K) {
  AccessTraits T;
  for (const ParallelNest &N : K.Nests)
    countNest(K, N, T);
  if (T.Scattered > 0 && 2 * T.Scattered >= T.Accesses)
    T.Coalesce = Coalescing::Scatter;
  else if (T.Scattered + T.Strided > 0)
    T.Coalesce = Coalescing::Partial;
  if (T.Accesses == 0)
    T.Intensity = T.Flops > 0 ? Level::High : Level::Low;
  else if (T.Flops >= 4 * T.Accesses)
    T.Intensity = Level::High;
  else if (T.Flops >= T.Accesses)
    T.Intensity = Level::Medium;
  if (T.Reads > 0 && 2 * T.SharedReads >= T.Reads)
    T.Sharing = Level::High;
  else if (T.Reads > 0 && 4 * T.SharedReads >= T.Reads)
    T.Sharing = Level::Medium;
  return T;
}

const char *coalescingName(Coalescing C) {
  switch (C) {
  case Coalescing::Full: return "full";
  case Coalescing::Partial: return "partial";
  case Coalescing::Scatter: return "scatter";
  }
  return "?";
}

const char *levelName(Level L) {
  switch (L) {
  case Level::Low: return "low";
  case Level::Medium: return "medium";
  case Level::High: return "high";
  }
  return "?";
}

std::string describeTraits(const AccessTraits &T) {
  if (!T.Known)
    return "no parallel loop";
  double PerAccess = T.Accesses ? double(T.Flops) / T.Accesses : double(T.Flops);
  char Ratio[32];
  std::snprintf(Ratio, sizeof Ratio, "%.1f", PerAccess);
  return std::string("coalescing ") + coalescingName(T.Coalesce) + " (" +
         std::to_string(T.Unit + T.Uniform) + " of " + std::to_string(T.Accesses) +
         " accesses unit-stride or uniform), intensity " + levelName(T.Intensity) + " (" + Ratio +
         " flops/access), sharing " + levelName(T.Sharing) + " (" +
         std::to_string(T.SharedReads) + " of " + std::to_string(T.Reads) + " reads)";
}

} // namespace jacc::analysis
