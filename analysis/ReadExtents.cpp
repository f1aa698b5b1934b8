// Computing each read argument's extent along its split dimension as affine bounds in lo and hi
// (or the whole mapping, and why), and whether a probe computes them exactly (no array read).
#include "analysis/ReadExtents.h"

#include "analysis/Kernel.h"
#include "analysis/ScaledIndex.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringRef.h>

#include <cctype>
#include <map>
#include <optional>

namespace jacc::analysis {

namespace {

/// Whether index X of a read in statement Stmt varies with the split iterator Outer: it reads
/// Outer, or the variable of an inner loop whose bounds read it.
bool followsOuter(const RegionIR &IR, const IndexExpr &X, unsigned Stmt, const std::string &Outer) {
  for (const std::string &Var : X.Vars) {
    if (Var == Outer)
      return true;
    if (const InnerLoop *L = IR.innerLoopOf(Var, Stmt))
      if (L->Min.Vars.count(Outer) || L->Max.Vars.count(Outer))
        return true;
  }
  return false;
}

/// The dimension a read-only array's extent follows: the one its reads index by the split
/// iterator most often (0 when none does).
unsigned readDimension(const RegionIR &IR,
                       const std::vector<std::pair<const ArrayAccess *, const IRStmt *>> &Reads,
                       const std::string &Outer) {
  std::map<unsigned, unsigned> Votes;
  for (const auto &[A, S] : Reads)
    for (unsigned D = 0; D < A->Index.size(); ++D)
      if (followsOuter(IR, A->Index[D], S->Id, Outer))
        ++Votes[D];
  unsigned Best = 0, BestVotes = 0;
  for (auto [D, N] : Votes)
    if (N > BestVotes)
      Best = D, BestVotes = N;
  return Best;
}

/// The indices along one dimension that a split nest's reads of one array touch, as ranges
/// affine in lo and hi, or that they cannot be bounded (Whole, and why).
class ExtentBuilder {
public:
  ExtentBuilder(const RegionIR &IR, unsigned Dim, unsigned Rank)
      : IR(IR), Dim(Dim), Rank(Rank),
        Outer(IR.ParallelVars.empty() ? "" : IR.ParallelVars.front()) {}

  std::vector<ExtentRange> Ranges;
  bool Whole = false;
  std::string WholeWhy;

  /// Adds the indices the read A of statement Stmt touches, or makes the extent whole.
  void add(const ArrayAccess &A, unsigned Stmt, unsigned Line) {
    if (Whole)
      return;
    std::string Where = "'" + A.text() + "' at line " + std::to_string(Line);
    if (A.Index.size() != Rank || (A.Index.size() == 1 && A.Index[0].Text == "?"))
      return whole(Where + " reads the array in a form the analysis does not bound");
    const IndexExpr &X = A.Index[Dim];
    if (X.ReadsMemory)
      return whole(Where + ": the index is data-dependent");
    if (!X.Affine)
      return addScaled(X, Stmt, Where);
    // The least and the greatest value of the index for one value of the split iterator: an
    // inner loop's variable k in [Min, Max] contributes c * Min to one and c * Max to the other.
    Form Least{0, X.Const, {}}, Greatest{0, X.Const, {}};
    for (const auto &[Var, C] : X.Coeffs) {
      // A loop collapsed into the split one (a[4 * i + j]) spans its bounds.
      if (std::string Why = addTerm(Var, C, Least, Greatest); !Why.empty())
        return addScaled(X, Stmt, Where);
      if (Var == Outer || IR.invariant(Var))
        continue;
      const InnerLoop *L = IR.innerLoopOf(Var, Stmt);
      if (!L)
        return whole(Where + ": the index reads '" + Var + "', which the region computes");
      const IndexExpr &Lo = C > 0 ? L->Min : L->Max, &Hi = C > 0 ? L->Max : L->Min;
      for (const IndexExpr *B : {&L->Min, &L->Max}) {
        if (B->ReadsMemory || !B->Affine)
          return whole(Where + ": the inner loop over '" + Var + "' at line " +
                       std::to_string(L->Line) + " has a bound '" + B->Text + "' that is " +
                       (B->ReadsMemory ? "data-dependent" : "not affine"));
      }
      Least.Const += C * Lo.Const;
      Greatest.Const += C * Hi.Const;
      for (const auto &[V, D] : Lo.Coeffs)
        if (std::string Why = addTerm(V, C * D, Least, Least); !Why.empty() || !boundVar(V))
          return whole(Where + ": the inner loop over '" + Var + "' has a bound '" + Lo.Text +
                       "' that reads '" + V + "', which the region computes");
      for (const auto &[V, D] : Hi.Coeffs)
        if (std::string Why = addTerm(V, C * D, Greatest, Greatest); !Why.empty() || !boundVar(V))
          return whole(Where + ": the inner loop over '" + Var + "' has a bound '" + Hi.Text +
                       "' that reads '" + V + "', which the region computes");
    }
    // i runs over [lo, hi - 1]: the least value spans from its smaller end, the greatest to its
    // larger end.
    ExtentRange E;
    E.Begin.Offset = offsetText(Least.Terms);
    E.End.Offset = offsetText(Greatest.Terms);
    if (Least.Coef >= 0) {
      E.Begin.LoCoef = Least.Coef;
      E.Begin.Const = Least.Const;
    } else {
      E.Begin.HiCoef = Least.Coef;
      E.Begin.Const = Least.Const - Least.Coef;
    }
    if (Greatest.Coef >= 0) {
      E.End.HiCoef = Greatest.Coef;
      E.End.Const = Greatest.Const - Greatest.Coef + 1;
    } else {
      E.End.LoCoef = Greatest.Coef;
      E.End.Const = Greatest.Const + 1;
    }
    merge(E);
  }

private:
  /// Adds the indices of a read linearized with run-time strides (a[(i - 1) * n + j]), or makes
  /// the extent whole. The bounds assume a positive scale, which the probe checks.
  void addScaled(const IndexExpr &X, unsigned Stmt, const std::string &Where) {
    std::string Why;
    auto S = scaledIndex(IR, X, Stmt, Outer, Why);
    if (!S)
      return whole(Where + ": " + Why);
    // The least value at the smaller end of [lo, hi - 1], the greatest at the larger one:
    // Coef * Scale * (hi - 1) is Coef * Scale * hi minus Step.
    InvariantValue Begin = S->Offset, End = S->Offset, Back;
    Begin.add(S->Least);
    End.add(S->Greatest);
    for (const auto &[M, C] : S->Step)
      Back.Poly[M] = -C;
    (S->Coef >= 0 ? End : Begin).add(Back);
    ExtentRange E;
    E.Begin.Scale = E.End.Scale = S->Scale;
    E.Begin.Const = Begin.constant();
    E.Begin.Offset = Begin.termsText();
    E.End.Const = End.constant() + 1;
    E.End.Offset = End.termsText();
    if (S->Coef >= 0)
      E.Begin.LoCoef = E.End.HiCoef = S->Coef;
    else
      E.Begin.HiCoef = E.End.LoCoef = S->Coef;
    merge(E);
  }

  void whole(std::string Why) {
    Whole = true;
    WholeWhy = std::move(Why);
    Ranges.clear();
  }

  void merge(const ExtentRange &E) {
    for (ExtentRange &Old : Ranges)
      if (Old.Begin.sameShape(E.Begin) && Old.End.sameShape(E.End)) {
        Old.Begin.Const = std::min(Old.Begin.Const, E.Begin.Const);
        Old.End.Const = std::max(Old.End.Const, E.End.Const);
        return;
      }
    Ranges.push_back(E);
  }

  /// Coef * i + Const + the region-invariant Terms (variable -> coefficient).
  struct Form {
    long long Coef = 0, Const = 0;
    std::map<std::string, long long> Terms;
  };

  /// Adds C * Var to the forms when Var is the split iterator or region-invariant (to both:
  /// Least and Greatest may be one form); "" also for an inner loop's variable, which the caller
  /// substitutes. Else why the index cannot be bounded.
  std::string addTerm(const std::string &Var, long long C, Form &Least, Form &Greatest) {
    if (Var == Outer) {
      Least.Coef += C;
      if (&Greatest != &Least)
        Greatest.Coef += C;
      return "";
    }
    if (llvm::is_contained(IR.ParallelVars, Var))
      return "the index varies with the inner parallel loop's '" + Var + "'";
    if (IR.invariant(Var)) {
      Least.Terms[Var] += C;
      if (&Greatest != &Least)
        Greatest.Terms[Var] += C;
    }
    return "";
  }

  /// Whether an inner loop's bound may read Var: the split iterator or a region invariant.
  bool boundVar(const std::string &Var) const { return Var == Outer || IR.invariant(Var); }

  /// "1LL * (n) + -1LL * (w)", "" for none.
  static std::string offsetText(const std::map<std::string, long long> &Terms) {
    std::string Offset;
    for (const auto &[Var, C] : Terms)
      if (C != 0)
        Offset += (Offset.empty() ? "" : " + ") + std::to_string(C) + "LL * (" + Var + ")";
    return Offset;
  }

  const RegionIR &IR;
  unsigned Dim, Rank;
  std::string Outer;
};

/// The width of ranges that do not move with the iterations and span a fixed number of indices
/// ([k, k + 3), [0, 5)): their hull's; nullopt for any other.
std::optional<long long> fixedWidth(const std::vector<ExtentRange> &Ranges) {
  if (Ranges.empty())
    return std::nullopt;
  long long Least = Ranges.front().Begin.Const, Greatest = Ranges.front().End.Const;
  for (const ExtentRange &E : Ranges) {
    for (const ExtentBound *B : {&E.Begin, &E.End})
      if (B->LoCoef || B->HiCoef || B->Offset != Ranges.front().Begin.Offset)
        return std::nullopt;
    Least = std::min(Least, E.Begin.Const);
    Greatest = std::max(Greatest, E.End.Const);
  }
  return Greatest - Least;
}

using Accesses = std::vector<std::pair<const ArrayAccess *, const IRStmt *>>;

/// The windows of accesses of Rank subscripts: every dimension but Dim along which they stay
/// within a fixed width.
std::vector<ExtentWindow> windowsOf(const RegionIR &IR, const Accesses &List, unsigned Dim,
                                    unsigned Rank) {
  std::vector<ExtentWindow> Windows;
  for (unsigned D = 0; D < Rank; ++D) {
    if (D == Dim)
      continue;
    ExtentBuilder B(IR, D, Rank);
    for (const auto &[A, S] : List)
      B.add(*A, S->Id, S->Line);
    if (!B.Whole && fixedWidth(B.Ranges))
      Windows.push_back({D, std::move(B.Ranges)});
  }
  return Windows;
}

} // namespace

std::vector<ReadExtent> computeReadExtents(const RegionIR &IR, const SplitPlan &P) {
  // The reads of each argument, in order of first appearance.
  std::map<int, std::vector<std::pair<const ArrayAccess *, const IRStmt *>>> ByArg;
  std::vector<int> Order;
  for (const IRStmt &S : IR.Stmts)
    for (const auto *List : {&S.Reads, &S.IndexReads})
      for (const ArrayAccess &A : *List) {
        if (A.Arg < 0 || A.ThroughLoadedPointer || llvm::StringRef(A.Name).starts_with("*"))
          continue;
        auto &V = ByArg[A.Arg];
        if (V.empty())
          Order.push_back(A.Arg);
        V.push_back({&A, &S});
      }
  const std::string Outer = IR.ParallelVars.empty() ? "" : IR.ParallelVars.front();
  std::vector<ReadExtent> Result;
  for (int Arg : Order) {
    const auto &Reads = ByArg[Arg];
    ReadExtent R;
    R.Arg = Arg;
    R.Name = Reads.front().first->Name;
    R.Rank = Reads.front().first->Index.size();
    if (const SplitArray *A = P.find(R.Name)) {
      R.Written = true;
      R.Dim = A->Dim;
      R.Rank = A->Rank;
    } else {
      R.Dim = readDimension(IR, Reads, Outer);
    }
    ExtentBuilder B(IR, R.Dim, R.Rank);
    for (const auto &[A, S] : Reads)
      B.add(*A, S->Id, S->Line);
    R.Whole = B.Whole;
    R.WholeWhy = std::move(B.WholeWhy);
    R.Ranges = std::move(B.Ranges);
    if (!R.Whole)
      R.Windows = windowsOf(IR, Reads, R.Dim, R.Rank);
    Result.push_back(std::move(R));
  }
  return Result;
}

void findWriteWindows(const RegionIR &IR, SplitPlan &P) {
  for (SplitArray &A : P.Arrays) {
    Accesses Writes;
    for (const IRStmt &S : IR.Stmts)
      if (S.K == IRStmt::Kind::ArrayWrite && S.Write.Arg == static_cast<int>(A.Arg))
        Writes.push_back({&S.Write, &S});
    A.Windows = windowsOf(IR, Writes, A.Dim, A.Rank);
  }
}

/// " + 3", " - 1", "" for 0.
static std::string signedTerm(long long C, const std::string &What, bool First) {
  if (C == 0)
    return "";
  std::string Mag = What.empty() ? std::to_string(C < 0 ? -C : C)
                    : (C == 1 || C == -1) ? What
                                          : std::to_string(C < 0 ? -C : C) + " * " + What;
  if (First)
    return (C < 0 ? "-" : "") + Mag;
  return (C < 0 ? " - " : " + ") + Mag;
}

std::string describeBound(const ExtentBound &B) {
  std::string Times = B.Scale.empty() ? "" : " * " + B.Scale;
  std::string S = signedTerm(B.LoCoef, "lo" + Times, true);
  S += signedTerm(B.HiCoef, "hi" + Times, S.empty());
  S += signedTerm(B.Const, "", S.empty());
  if (!B.Offset.empty())
    S += (S.empty() ? "(" : " + (") + B.Offset + ")";
  return S.empty() ? "0" : S;
}

std::string describeReadExtent(const ReadExtent &R) {
  std::string S = R.Name + (R.Written ? " (read and written)" : "");
  if (R.Whole)
    return S + ": whole mapping (" + R.WholeWhy + ")";
  S += " along dimension " + std::to_string(R.Dim) + ":";
  for (size_t I = 0; I < R.Ranges.size(); ++I)
    S += (I ? " u [" : " [") + describeBound(R.Ranges[I].Begin) + ", " +
         describeBound(R.Ranges[I].End) + ")";
  for (const ExtentWindow &W : R.Windows) {
    S += ", within dimension " + std::to_string(W.Dim) + ":";
    for (size_t I = 0; I < W.Ranges.size(); ++I)
      S += (I ? " u [" : " [") + describeBound(W.Ranges[I].Begin) + ", " +
           describeBound(W.Ranges[I].End) + ")";
  }
  return S;
}

/// Whether Text names identifier Name (a whole word).
static bool names(llvm::StringRef Text, llvm::StringRef Name) {
  auto IsWord = [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; };
  for (size_t At = Text.find(Name); At != llvm::StringRef::npos; At = Text.find(Name, At + 1)) {
    size_t End = At + Name.size();
    if ((At == 0 || !IsWord(Text[At - 1])) && (End == Text.size() || !IsWord(Text[End])))
      return true;
  }
  return false;
}

bool boundsReadNoArray(const KernelInfo &K) {
  if (K.Nests.size() != 1)
    return false;
  std::vector<std::string> Texts;
  for (const CanonicalLoop &L : K.Nests.front().Loops)
    Texts.insert(Texts.end(), {L.Lower, L.Upper, L.Step});
  for (const SplitArray &A : K.Split.Plan.Arrays)
    for (const AffineWrite &W : A.Writes)
      Texts.insert(Texts.end(), {W.Offset, W.Scale, W.Least, W.Greatest});
  for (const ReadExtent &R : K.Split.Reads) {
    std::vector<const std::vector<ExtentRange> *> Lists{&R.Ranges};
    for (const ExtentWindow &W : R.Windows)
      Lists.push_back(&W.Ranges);
    for (const auto *List : Lists)
      for (const ExtentRange &E : *List)
        Texts.insert(Texts.end(), {E.Begin.Offset, E.End.Offset, E.Begin.Scale, E.End.Scale});
  }
  // The statements before and after the nest compute the scalars the bounds may use.
  for (const RegionStmt &S : K.Stmts)
    if (S.ExecMode != RegionStmt::Mode::Shared && S.Begin < S.End && S.End <= K.Source.size())
      Texts.push_back(K.Source.substr(S.Begin, S.End - S.Begin));
  for (const ArgInfo &A : K.Args)
    if (A.ArgKind != ArgInfo::Kind::Scalar)
      for (const std::string &T : Texts)
        if (names(T, A.Name))
          return false;
  return true;
}

} // namespace jacc::analysis
