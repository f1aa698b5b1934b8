// A kernel entry's text for one target: its parameters, a split entry's owned ranges and narrowed
// iterations, the nests' loop headers, reductions, and a variant's folded values and pointer facts.
#include "jit/EntryCodegen.h"

#include "analysis/Accumulations.h"
#include "analysis/FlatVla.h"
#include "analysis/KernelSource.h"
#include "analysis/RestrictArgs.h"
#include "analysis/ScaledIndex.h"
#include "jit/AtomicText.h"
#include "jit/BoundsChecks.h"
#include "jit/ReadProbe.h"
#include "jit/host/HostABI.h"
#include "jit/specialize/Specialization.h"
#include "support/TextEdits.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>

namespace jacc::jit {

using namespace analysis;

std::string reductionIdentity(ReductionOp Op, ScalarType T, const std::string &Infinity) {
  bool Float = T == ScalarType::F32 || T == ScalarType::F64 || T == ScalarType::F80;
  switch (Op) {
  case ReductionOp::Add:
  case ReductionOp::BitOr:
  case ReductionOp::BitXor:
  case ReductionOp::LogOr:
    return "0";
  case ReductionOp::Mul:
  case ReductionOp::LogAnd:
    return "1";
  case ReductionOp::BitAnd:
    return "(~0ULL)";
  case ReductionOp::Max:
  case ReductionOp::Min: {
    bool Max = Op == ReductionOp::Max; // identity of max is the lowest value
    if (Float)
      return Max ? "(-" + Infinity + ")" : "(" + Infinity + ")";
    switch (T) {
    case ScalarType::Bool: return Max ? "0" : "1";
    case ScalarType::I8: return Max ? "(-127-1)" : "127";
    case ScalarType::U8: return Max ? "0" : "255";
    case ScalarType::I16: return Max ? "(-32767-1)" : "32767";
    case ScalarType::U16: return Max ? "0" : "65535";
    case ScalarType::I32: return Max ? "(-2147483647-1)" : "2147483647";
    case ScalarType::U32: return Max ? "0U" : "4294967295U";
    case ScalarType::I64: return Max ? "(-9223372036854775807LL-1)" : "9223372036854775807LL";
    case ScalarType::U64: return Max ? "0ULL" : "18446744073709551615ULL";
    default: break;
    }
    return "0";
  }
  }
  return "0";
}

std::string loopVarDecl(const CanonicalLoop &L, unsigned I, const std::string &Idx) {
  std::string N = std::to_string(I);
  return L.VarType + " " + L.Var + " = (" + L.VarType + ")(__jacc_lo" + N +
         (L.Increasing ? " + " : " - ") + "(" + Idx + ") * __jacc_st" + N + ");";
}

std::string rowLoopVarDecls(const ParallelNest &N, unsigned Last) {
  std::string H;
  for (unsigned I = Last; I >= 1; --I) {
    std::string S = std::to_string(I);
    H += loopVarDecl(N.Loops[I], I, "__jacc_row % __jacc_n" + S) + "\n";
    H += "__jacc_row /= __jacc_n" + S + ";\n";
  }
  return H + loopVarDecl(N.Loops[0], 0, "__jacc_row") + "\n";
}

std::string lineDirective(const KernelInfo &K, unsigned Offset) {
  llvm::StringRef S = K.Source;
  unsigned Line = 1 + S.take_front(Offset).count('\n');
  size_t LineStart = S.take_front(Offset).rfind('\n');
  unsigned Col = LineStart == llvm::StringRef::npos ? Offset : Offset - LineStart - 1;
  return "\n#line " + std::to_string(Line) + " \"kernel\"\n" + std::string(Col, ' ');
}

namespace {

/// The argument named Name, if any.
const ArgInfo *argNamed(const KernelInfo &K, const std::string &Name) {
  for (const ArgInfo &A : K.Args)
    if (A.Name == Name)
      return &A;
  return nullptr;
}

std::string tripCount(const CanonicalLoop &L, unsigned I) {
  std::string N = std::to_string(I);
  std::string Lo = "__jacc_lo" + N, Hi = "__jacc_hi" + N, St = "__jacc_st" + N;
  switch (L.Compare) {
  case CanonicalLoop::Cmp::LT: return Hi + " > " + Lo + " ? (" + Hi + " - " + Lo + " + " + St +
                                      " - 1) / " + St + " : 0";
  case CanonicalLoop::Cmp::LE: return Hi + " >= " + Lo + " ? (" + Hi + " - " + Lo + ") / " + St +
                                      " + 1 : 0";
  case CanonicalLoop::Cmp::GT: return Lo + " > " + Hi + " ? (" + Lo + " - " + Hi + " + " + St +
                                      " - 1) / " + St + " : 0";
  case CanonicalLoop::Cmp::GE: return Lo + " >= " + Hi + " ? (" + Lo + " - " + Hi + ") / " + St +
                                      " + 1 : 0";
  case CanonicalLoop::Cmp::NE:
    return L.Increasing ? Hi + " > " + Lo + " ? " + Hi + " - " + Lo + " : 0"
                        : Lo + " > " + Hi + " ? " + Lo + " - " + Hi + " : 0";
  }
  return "0";
}

} // namespace

std::string sizeofSub(const KernelInfo &K, const std::string &A, unsigned Subscripts,
                      const EntryTarget &Target) {
  const ArgInfo *Arg = argNamed(K, A);
  if (Target.FlatVlaPointers && Arg && Arg->Vla) {
    if (Subscripts > Arg->Dims.size())
      return "(long long)sizeof(*" + A + ")";
    return "((long long)sizeof(*" + A + ") * " + vlaStrideName(A, Subscripts) + ")";
  }
  std::string E = A;
  for (unsigned I = 0; I < Subscripts; ++I)
    E += "[0]";
  return "(long long)sizeof(" + E + ")";
}

namespace {

/// An inner loops' span of a write (AffineWrite::Least, Greatest) as C text, "0LL" for none.
std::string spanText(const std::string &Span) {
  return Span.empty() ? "0LL" : "(" + Span + ")";
}

/// Whether a split array's owned ranges follow its writes rather than its whole mapping: every
/// write is affine in the outer iterator, so what the launch writes is known once the trip counts
/// are. A kernel writing a part of a bigger mapping (one level of a multigrid hierarchy in one
/// allocation) then splits that part among the devices, not the mapping.
bool ownedByWrites(const SplitArray &A) {
  return A.Affine && !A.Writes.empty();
}

/// Split entries: the declarations of each split array's owned range [A__lb, A__ub] along its
/// split dimension, unbounded until ownedRange sets them (the bytes the owned-range checks use
/// too, jit/BoundsChecks.h).
std::string ownedRangeDecls(const KernelInfo &K, const SplitArray &A, const EntryTarget &Target) {
  std::string Lb = lowerBoundName(A.Name), Ub = upperBoundName(A.Name);
  std::string P =
      "long long " + Lb + " = (-9223372036854775807LL-1), " + Ub + " = 9223372036854775807LL;\n";
  if (guardsReachPastArray(K, A)) {
    P += "long long " + ownedIndexName(A.Name, "lb") + " = " + Lb + ", " +
         ownedIndexName(A.Name, "ub") + " = " + Ub + ";\n";
    if (A.Dim > 0)
      P += "const long long " + ownedIndexName(A.Name, "ext") + " = " +
           sizeofSub(K, A.Name, A.Dim, Target) + " / " + sizeofSub(K, A.Name, A.Dim + 1, Target) +
           ";\n(void)" + ownedIndexName(A.Name, "ext") + ";\n";
  }
  if (K.CheckBounds) {
    std::string Lo = ownedBytesName(A.Name, "lo"), Hi = ownedBytesName(A.Name, "hi");
    std::string Pitch = ownedBytesName(A.Name, "pitch");
    P += "long long " + Lo + " = (-9223372036854775807LL-1), " + Hi +
         " = 9223372036854775807LL;\nconst long long " + Pitch + " = " +
         (A.Dim == 0 ? std::string("0") : sizeofSub(K, A.Name, A.Dim, Target)) + ";\n(void)" + Lo +
         "; (void)" + Hi + "; (void)" + Pitch + ";\n";
  }
  return P;
}

/// The statements narrowing a device's owned range of A to what the launch writes (ownedBy
/// Writes, in the nest header, the mapping's indices along the split dimension [__first,
/// __last] known). Where the writes' index ranges share an index and move the same way along the
/// outer iterations (a[i], or a[2i] and a[2i + 1], or the rows of b[i * n + j]), the boundaries
/// follow the iterations: a device whose share is the iterations [sb, se) owns from the least
/// index iteration sb writes to before the least index iteration se writes (moving down: from
/// the greatest index se writes, exclusive, to the greatest index sb writes), so its owned rows
/// are its iterations' and agree with its reduction share. Otherwise (writes in separate places,
/// as the first and last planes of a grid) it owns its share of their hull. The first and last
/// devices own up to the mapping's ends.
std::string rangeOfWrites(const SplitArray &A, const std::string &St0) {
  std::string Hulls, Edges;
  for (const AffineWrite &W : A.Writes) {
    std::string Times = std::to_string(W.Coef) + "LL * " + scaleValue(W.Scale) + " * ";
    std::string Head = "    { long long __a = " + Times + St0 + ", __c = " + Times +
                       "__jacc_lo0 + (" + W.Offset + ");\n";
    Hulls +=
        Head +
        "      if (__a <= 0) __up = 0; if (__a >= 0) __down = 0;\n"
        "      long long __v0 = __c + (__a < 0 ? __a * (__jacc_n0 - 1) : 0) + " +
        spanText(W.Least) + ", __v1 = __c + (__a > 0 ? __a * (__jacc_n0 - 1) : 0) + " +
        spanText(W.Greatest) +
        ";\n"
        "      if (__v0 > __common0) __common0 = __v0; if (__v1 < __common1) __common1 = __v1;\n"
        "      if (__v0 < __hull0) __hull0 = __v0; if (__v1 > __hull1) __hull1 = __v1; }\n";
    Edges += Head + "      long long __b = __a * __jacc_sb + __c + (__up ? " + spanText(W.Least) +
             " : " + spanText(W.Greatest) + "), __e = __a * __jacc_se + __c + (__up ? " +
             spanText(W.Least) + " : " + spanText(W.Greatest) +
             ");\n"
             "      if (__up ? __b < __fb : __b > __fb) __fb = __b;\n"
             "      if (__up ? __e < __fe : __e > __fe) __fe = __e; }\n";
  }
  std::string Lb = lowerBoundName(A.Name), Ub = upperBoundName(A.Name);
  std::string Max = "9223372036854775807LL", Min = "(-9223372036854775807LL-1)";
  return "  if (__jacc_n0 > 0) {\n"
         "    int __up = 1, __down = 1;\n"
         "    long long __common0 = " +
         Min + ", __common1 = " + Max + ", __hull0 = " + Max + ", __hull1 = " + Min + ";\n" +
         Hulls +
         "    int __begins = __jacc_t->share_begin == 0, __ends = __jacc_t->share_end == "
         "__jacc_t->share_scale;\n"
         "    if ((__up || __down) && __common0 <= __common1) {\n"
         "      long long __fb = __up ? " +
         Max + " : " + Min + ", __fe = __fb;\n" + Edges +
         "      long long __lo = __first - 1, __hi = __last + 1;\n"
         "      if (__fb < __lo) __fb = __lo; if (__fb > __hi) __fb = __hi;\n"
         "      if (__fe < __lo) __fe = __lo; if (__fe > __hi) __fe = __hi;\n"
         "      if (__up) { " +
         Lb + " = __begins ? __first : __fb; " + Ub +
         " = __ends ? __last : __fe - 1; }\n"
         "      else { " +
         Ub + " = __begins ? __last : __fb; " + Lb +
         " = __ends ? __first : __fe + 1; }\n"
         "    } else if (__hull0 <= __last && __hull1 >= __first) {\n"
         "      if (__hull0 < __first) __hull0 = __first; if (__hull1 > __last) __hull1 = __last;\n"
         "      long long __n = __hull1 - __hull0 + 1;\n"
         "      " +
         Lb +
         " = __begins ? __first : __hull0 + __n * __jacc_t->share_begin / "
         "__jacc_t->share_scale;\n"
         "      " +
         Ub +
         " = __ends ? __last : __hull0 + __n * __jacc_t->share_end / __jacc_t->share_scale - "
         "1;\n"
         "    }\n"
         "  }\n";
}

/// Split entries: the statements setting this device's owned range of A, its share of the
/// mapping's indices along the split dimension (from the mapping's byte range relative to the
/// pointer, [mlo, mhi); mlo > mhi: the runtime does not split this array), narrowed to what the
/// launch writes when St0 (the outer loop's signed step; ownedByWrites, in the nest header).
std::string ownedRange(const KernelInfo &K, const SplitArray &A, const EntryTarget &Target,
                       const std::string &St0 = "") {
  std::string Lb = lowerBoundName(A.Name), Ub = upperBoundName(A.Name);
  std::string Mlo = "__jacc_mlo_" + A.Name, Mhi = "__jacc_mhi_" + A.Name;
  std::string Unit = sizeofSub(K, A.Name, A.Dim + 1, Target);
  std::string P = "if (" + Mlo + " <= " + Mhi + ") {\n";
  if (A.Dim == 0)
    P += "  long long __u = " + Unit +
         ";\n"
         "  long long __first = " +
         Mlo + " >= 0 ? (" + Mlo + " + __u - 1) / __u : -((-" + Mlo +
         ") / __u);\n"
         "  long long __last = (" +
         Mhi + " >= 0 ? " + Mhi + " / __u : -((-" + Mhi + " + __u - 1) / __u)) - 1;\n";
  else
    P += "  long long __first = 0, __last = " + sizeofSub(K, A.Name, A.Dim, Target) + " / " + Unit +
         " - 1;\n";
  P += "  long long __cnt = __last - __first + 1;\n"
       "  " +
       Lb +
       " = __first + __cnt * __jacc_t->share_begin / __jacc_t->share_scale;\n"
       "  " +
       Ub + " = __first + __cnt * __jacc_t->share_end / __jacc_t->share_scale - 1;\n";
  if (!St0.empty())
    P += rangeOfWrites(A, St0);
  if (K.CheckBounds)
    P += "  " + ownedBytesName(A.Name, "lo") + " = " + Lb + " * " + Unit + "; " +
         ownedBytesName(A.Name, "hi") + " = (" + Ub + " + 1) * " + Unit + ";\n";
  if (guardsReachPastArray(K, A))
    // The first and last devices also own every index before and after the mapping (along
    // an inner dimension, the row): the guards let a write outside it through to its bounds
    // check, which reports it (outside the array, as one device would), instead of no device
    // writing it. The runtime is told the true range.
    // (Far from the extremes: the narrowing subtracts a write's offset from them.)
    P += "  " + ownedIndexName(A.Name, "lb") + " = " + Lb + "; " + ownedIndexName(A.Name, "ub") +
         " = " + Ub +
         ";\n"
         "  if (__jacc_t->share_begin == 0) " +
         Lb +
         " = -(1LL << 62);\n"
         "  if (__jacc_t->share_end == __jacc_t->share_scale) " +
         Ub + " = 1LL << 62;\n";
  return P + "}\n";
}

/// Split entries: each split array's owned range declared, and set where it does not follow the
/// writes (those are set in the nest header, splitHeader).
std::string boundsPrologue(const KernelInfo &K, const EntryTarget &Target) {
  std::string P;
  for (const SplitArray &A : K.Split.Plan.Arrays) {
    P += ownedRangeDecls(K, A, Target);
    if (!ownedByWrites(A))
      P += ownedRange(K, A, Target);
  }
  return P;
}

/// C statements that set __k0 and __k1 to the first and last iterations k whose write W of
/// Array (alpha k + beta plus the span [least, greatest]; St0: the outer loop's signed step)
/// meets the owned range [lb, ub], or lies inside it (Inside). None: __k0 > __k1.
std::string iterationsOfSpan(const AffineWrite &W, const std::string &St0, const std::string &Array,
                             bool Inside) {
  std::string Times = std::to_string(W.Coef) + "LL * " + scaleValue(W.Scale) + " * ";
  std::string Lb = lowerBoundName(Array), Ub = upperBoundName(Array);
  // The span's end that must be at or above lb, and the one that must be at or below ub.
  std::string Low = spanText(Inside ? W.Least : W.Greatest),
              High = spanText(Inside ? W.Greatest : W.Least);
  return "    long long __a = " + Times + St0 + ", __c = " + Times + "__jacc_lo0 + (" + W.Offset +
         "), __lo = " + Low + ", __hi = " + High +
         ", __k0, __k1;\n"
         "    if (__a > 0) { __k0 = __jacc_ceildiv(" +
         Lb +
         " - __c - __lo, __a); __k1 = "
         "__jacc_floordiv(" +
         Ub +
         " - __c - __hi, __a); }\n"
         "    else if (__a < 0) { __k0 = __jacc_ceildiv(" +
         Ub +
         " - __c - __hi, __a); __k1 = "
         "__jacc_floordiv(" +
         Lb +
         " - __c - __lo, __a); }\n"
         // A scale of 0 (known when the kernel runs): every iteration writes the same span.
         "    else if (__c + __lo >= " +
         Lb + " && __c + __hi <= " + Ub +
         ") { __k0 = 0; __k1 = __jacc_n0 - 1; }\n"
         "    else { __k0 = 1; __k1 = 0; }\n";
}

/// Split entries, in the nest header once the trip counts are known: the reduction share, the
/// narrowed iteration range, and the split information thread 0 reports to the runtime.
std::string splitHeader(const KernelInfo &K, const ParallelNest &N,
                        const EntryTarget &Target) {
  const SplitPlan &Plan = K.Split.Plan;
  // The outermost loop variable is lo0 + k * St0 (St0 negative for a decreasing loop).
  std::string St0 = N.Loops.front().Increasing ? "__jacc_st0" : "(-__jacc_st0)";
  std::string H = "__jacc_sb = __jacc_n0 * __jacc_t->share_begin / __jacc_t->share_scale;\n"
                  "__jacc_se = __jacc_n0 * __jacc_t->share_end / __jacc_t->share_scale;\n";
  for (const SplitArray &A : Plan.Arrays)
    if (ownedByWrites(A))
      H += ownedRange(K, A, Target, St0);
  // Iteration k writes index Coef * Scale * (lo0 + k * St0) + Offset = alpha * k + beta, plus
  // the span of its inner loops: the device runs the iterations whose writes meet its range.
  if (Plan.Narrowable) {
    H += "if (__jacc_t->narrow) {\n"
         "  long long __hb = __jacc_n0, __he = 0;\n";
    if (Plan.HasShareTerms)
      H += "  __hb = __jacc_sb; __he = __jacc_se;\n";
    for (const SplitArray &A : Plan.Arrays)
      for (const AffineWrite &W : A.Writes) {
        H += "  {\n" + iterationsOfSpan(W, St0, A.Name, false) +
             "    if (__k0 < 0) __k0 = 0;\n"
             "    if (__k1 > __jacc_n0 - 1) __k1 = __jacc_n0 - 1;\n"
             "    if (__k0 <= __k1) { if (__k0 < __hb) __hb = __k0; if (__k1 + 1 > __he) __he = "
             "__k1 + 1; }\n"
             "  }\n";
      }
    H += "  if (__hb >= __he) __hb = __he = 0;\n"
         "  __jacc_db = __hb; __jacc_de = __he;\n"
         "}\n";
  }
  // The iterations whose writes of an array all lie in the owned range, where its guards test a
  // flag only (analysis::ownedIterationName): every write's span inside [lb, ub].
  for (const SplitArray &A : Plan.Arrays) {
    if (!A.testsWholeIterations())
      continue;
    std::string First = ownedIterationsName(A.Name, "first"),
                End = ownedIterationsName(A.Name, "end");
    H += "long long " + First + " = 0, " + End + " = __jacc_n0;\n";
    for (const AffineWrite &W : A.Writes)
      H += "{\n" + iterationsOfSpan(W, St0, A.Name, true) + "  if (__k0 > " + First + ") " + First +
           " = __k0;\n  if (__k1 + 1 < " + End + ") " + End + " = __k1 + 1;\n}\n";
  }
  H += "if (__jacc_t->tid == 0) {\n";
  for (size_t I = 0; I < Plan.Arrays.size(); ++I) {
    const SplitArray &A = Plan.Arrays[I];
    std::string Info = "__jacc_t->split_info + " + std::to_string(I * JACC_SPLIT_INFO_WORDS);
    H += "  { long long *__i = " + Info + ";\n";
    bool Widened = guardsReachPastArray(K, A);
    H += "    __i[0] = " + (Widened ? ownedIndexName(A.Name, "lb") : lowerBoundName(A.Name)) +
         "; __i[1] = " + (Widened ? ownedIndexName(A.Name, "ub") : upperBoundName(A.Name)) + ";\n";
    H += "    __i[2] = " + sizeofSub(K, A.Name, A.Dim + 1, Target) + "; __i[3] = " +
         (A.Dim == 0 ? std::string("0") : sizeofSub(K, A.Name, A.Dim, Target)) + ";\n";
    if (ownedByWrites(A)) {
      H += "    __i[4] = 9223372036854775807LL; __i[5] = (-9223372036854775807LL-1);\n"
           "    if (__jacc_n0 > 0) {\n";
      for (const AffineWrite &W : A.Writes) {
        std::string Times = std::to_string(W.Coef) + "LL * " + scaleValue(W.Scale) + " * ";
        H += "      { long long __v0 = " + Times + "__jacc_lo0 + (" + W.Offset +
             "), __v1 = " + Times + "(__jacc_lo0 + (__jacc_n0 - 1) * " + St0 + ") + (" + W.Offset +
             ");\n"
             "        if (__v1 < __v0) { long long __s = __v0; __v0 = __v1; __v1 = __s; }\n"
             "        __v0 += " +
             spanText(W.Least) + "; __v1 += " + spanText(W.Greatest) +
             ";\n"
             "        if (__v0 < __i[4]) __i[4] = __v0; if (__v1 > __i[5]) __i[5] = __v1; }\n";
      }
      H += "    }\n";
    } else {
      H += "    __i[4] = (-9223372036854775807LL-1); __i[5] = 9223372036854775807LL;\n";
    }
    H += "    __i[6] = __jacc_db; __i[7] = __jacc_de;\n";
    // The windows of the writes: where along other dimensions the device's writes may land.
    for (unsigned W = 0; W < JACC_SPLIT_WINDOWS; ++W) {
      std::string At = "__i[" + std::to_string(JACC_SPLIT_INFO_WINDOWS + 4 * W);
      if (W >= A.Windows.size()) {
        H +=
            "    " + At + "] = 0; " + At + " + 1] = 0; " + At + " + 2] = 0; " + At + " + 3] = 0;\n";
        continue;
      }
      const ExtentWindow &Win = A.Windows[W];
      H += "    " + At + "] = " + sizeofSub(K, A.Name, Win.Dim + 1, Target) + "; " + At +
           " + 1] = " + (Win.Dim == 0 ? std::string("0") : sizeofSub(K, A.Name, Win.Dim, Target)) +
           "; " + At + " + 2] = " + windowHull(Win, true) + "; " + At +
           " + 3] = " + windowHull(Win, false) + ";\n";
    }
    H += "  }\n";
  }
  H += "}\n";
  return H + readProbe(K, N, Target);
}

/// Whether a variant of Spec, its pointers restrict, jams nest N: one whose sum along an inner
/// loop stays long with the values it folds.
bool jamsIn(const ParallelNest &N, const Specialization &Spec) {
  return jamCandidate(N, [&](llvm::StringRef Name) { return foldedInteger(Spec, Name); });
}

/// The text replacing a nest's loop headers; the innermost body follows it, then the target's
/// NestTrailer.
std::string nestHeader(const KernelInfo &K, const ParallelNest &N, bool Split,
                       const EntryTarget &Target, const Specialization *Spec) {
  std::string H = "{ /* jacc: iterations shared among the team */\n";
  unsigned D = N.Loops.size();
  for (unsigned I = 0; I < D; ++I) {
    const CanonicalLoop &L = N.Loops[I];
    std::string S = std::to_string(I);
    H += "long long __jacc_lo" + S + " = (long long)(" + L.Lower + "), __jacc_hi" + S +
         " = (long long)(" + L.Upper + "), __jacc_st" + S + " = (long long)(" + L.Step + ");\n";
    H += "long long __jacc_n" + S + " = " + tripCount(L, I) + ";\n";
  }
  H += "long long __jacc_inner = 1";
  for (unsigned I = 1; I < D; ++I)
    H += " * __jacc_n" + std::to_string(I);
  // This device's outermost iterations [db, de), its reduction share [sb, se), then this
  // thread's part of the device's iterations (flattened with the collapsed loops).
  H += ";\nlong long __jacc_db = 0, __jacc_de = __jacc_n0, __jacc_sb = 0, __jacc_se = __jacc_n0;\n";
  if (Split)
    H += splitHeader(K, N, Target);
  std::string Priv;
  for (const std::string &P : N.PrivateDecls)
    Priv += P + ";\n";
  std::string Share =
      "const int __jacc_in_share = __jacc_outer >= __jacc_sb && __jacc_outer < __jacc_se;\n"
      "(void)__jacc_in_share;\n" +
      boundsStop(K);
  if (Split)
    for (const SplitArray &A : K.Split.Plan.Arrays)
      if (A.testsWholeIterations())
        Share += "const int " + ownedIterationName(A.Name) +
                 " = __jacc_outer >= " + ownedIterationsName(A.Name, "first") +
                 " && __jacc_outer < " + ownedIterationsName(A.Name, "end") + ";\n";
  // Jammed iterations keep each one's chain in order (the results are the generic code's).
  bool Jam = Spec && Spec->Pointers.Disjoint && jamsIn(N, *Spec);
  return H + Target.IterationLoop(N, Share, Priv, Jam);
}

/// How many of N's inner loops (ParallelNest::InnerParallel) Target shares as if collapsed:
/// none on a target that keeps rows; those proven independent only for disjoint pointers in a
/// variant whose pointers are restrict.
unsigned sharedInnerLevels(const ParallelNest &N, const EntryTarget &Target,
                           const Specialization *Spec) {
  if (!Target.SharesInnerLoops)
    return 0;
  return Spec && Spec->Pointers.Disjoint ? N.InnerParallel.size() : N.InnerNeedsDisjointFrom;
}

/// Whether the split entry's guards leave X's headers in place: none lies between the outer
/// loop's `for` and the inner loop's body, where it would stay while the headers swap.
bool guardsAllowInterchange(const KernelInfo &K, bool Split, const LoopInterchange &X) {
  return !Split || llvm::none_of(K.Split.Guards, [&](const auto &G) {
    return G.first > X.Outer.ForBegin && G.first < X.Inner.BodyBegin;
  });
}

/// Run X.Outer inside X.Inner: each loop's header in the other's place.
void interchange(const KernelInfo &K, const LoopInterchange &X, TextEdits &Edits) {
  llvm::StringRef S = K.Source;
  auto Header = [&](const CanonicalLoop &L) { return S.slice(L.ForBegin, L.BodyBegin).str(); };
  Edits.replace(X.Outer.ForBegin, X.Outer.BodyBegin,
                Header(X.Inner) + lineDirective(K, X.Outer.BodyBegin));
  Edits.replace(X.Inner.ForBegin, X.Inner.BodyBegin,
                Header(X.Outer) + lineDirective(K, X.Inner.BodyBegin));
}

/// How a specialization changes the entry: by parameter index, the literal of each folded
/// scalar, and the host pointers whose declarations name one of them.
struct FoldedArgs {
  std::vector<const ArgSpecialization *> Literal;
  std::vector<bool> MovedPointer;
};

/// The arguments of Spec that can be folded (checkSpecialization rejects the others).
FoldedArgs foldedArgs(const KernelInfo &K, const Specialization *Spec,
                      const EntryTarget &Target) {
  FoldedArgs F;
  F.Literal.assign(K.Args.size(), nullptr);
  F.MovedPointer.assign(K.Args.size(), false);
  if (!Spec)
    return F;
  std::vector<std::string> Names;
  for (const ArgSpecialization &S : Spec->Args)
    for (const ArgInfo &A : K.Args) {
      if (A.Param != S.Param || A.ArgKind != ArgInfo::Kind::Scalar || !isFoldable(A.Scalar) ||
          S.Literal.empty() || F.Literal[A.Param])
        continue;
      bool Reduction = false;
      for (const ReductionVar &R : K.Reductions)
        Reduction |= R.Name == A.Name;
      if (Reduction)
        continue;
      F.Literal[A.Param] = &S;
      Names.push_back(A.Name);
    }
  // Flat variable-length array pointers are element pointers: no dimension in sight.
  if (!Target.FlatVlaPointers)
    for (const ArgInfo &A : K.Args)
      if (A.ArgKind == ArgInfo::Kind::Pointer)
        for (const std::string &N : Names)
          if (mentionsIdentifier(A.Decl, N))
            F.MovedPointer[A.Param] = true;
  return F;
}

/// The edits inside K's atomic statements, which each target's atomic text applies to the parts
/// it spells (EntryTarget::AtomicText): checks of the accesses, flattened subscripts.
TextEdits atomicPartEdits(const KernelInfo &K, const EntryTarget &Target, bool Split) {
  TextEdits Parts;
  insertBoundsChecks(K, Target, BoundsScope::InsideAtomics, BoundsPart::Closes, Split, Parts);
  insertBoundsChecks(K, Target, BoundsScope::InsideAtomics, BoundsPart::Opens, Split, Parts);
  if (Target.FlatVlaPointers)
    for (const SourceEdit &E : K.FlatVla.Edits)
      if (insideAtomic(K, E.Begin, E.End))
        Parts.replace(E.Begin, E.End, E.Text);
  return Parts;
}

std::string reductionBuffer(const ReductionVar &R) { return "__jacc_rbuf_" + R.Name; }
std::string reductionLower(const ReductionVar &R) { return "__jacc_rlo_" + R.Name; }

/// An array reduction's private copy: Count elements from the operator's identity, and the
/// pointer the kernel's text uses in place of the argument, so that `c[lower + i]` is element
/// i of the copy. The copy's address goes through a volatile pointer first: the compiler then
/// knows neither where the shifted pointer points nor that it lies outside the copy (folding
/// `(copy - lower)[lower + i]` through the integer or out-of-bounds arithmetic lost the stores
/// when lower was a folded constant).
std::string arrayReductionPrologue(const KernelInfo &K, const ReductionVar &R,
                                   const EntryTarget &Target) {
  std::string T = scalarTypeName(R.Type), Buf = reductionBuffer(R), N = std::to_string(R.Count);
  std::string Lower = reductionLower(R), Opaque = "__jacc_rptr_" + R.Name;
  return T + " " + Buf + "[" + N + "];\n" +
         "for (int __jacc_ri = 0; __jacc_ri < " + N + "; ++__jacc_ri) " + Buf +
         "[__jacc_ri] = " + reductionIdentity(R.Op, R.Type, Target.Infinity) + ";\n" +
         "const long long " + Lower + " = (long long)(" + R.Lower + ");\n" + T +
         " *volatile " + Opaque + " = " + Buf + ";\n" + T + " *const " + R.Name + " = " +
         Opaque + " - " + Lower + ";\n" + "(void)" + R.Name + "; (void)__jacc_rarg_" +
         std::to_string(K.Args[R.Arg].Param) + ";\n";
}

/// How each reduction's values leave the entry: a scalar's, or an array reduction's elements
/// (R.words() slots each) and the index of its first element (every thread has the same: max
/// keeps it).
std::string reductionWriteBacks(const KernelInfo &K, const EntryTarget &Target) {
  std::string C;
  for (const ReductionVar &R : K.Reductions) {
    std::string Slot = std::to_string(R.Slot);
    if (!R.isArray()) {
      C += Target.ReductionWriteBack(K, R, R.Name, Slot);
      continue;
    }
    unsigned W = R.words();
    std::string Element = W == 1 ? "__jacc_ri" : "__jacc_ri * " + std::to_string(W);
    C += "for (int __jacc_ri = 0; __jacc_ri < " + std::to_string(R.Count) + "; ++__jacc_ri) {\n" +
         Target.ReductionWriteBack(K, R, reductionBuffer(R) + "[__jacc_ri]",
                                   Slot + " + " + Element) +
         "}\n";
    ReductionVar Lower;
    Lower.Op = ReductionOp::Max;
    Lower.Type = ScalarType::I64;
    C += Target.ReductionWriteBack(K, Lower, reductionLower(R),
                                   std::to_string(R.Slot + R.Count * R.words()));
  }
  return C;
}

/// The parameter list's declaration of one argument.
std::string paramDecl(const KernelInfo &K, const ArgInfo &A, const EntryTarget &Target,
                      const FoldedArgs &F) {
  std::string P = std::to_string(A.Param);
  if (K.arrayReductionOf(&A - K.Args.data())) // the kernel uses its private copy instead
    return "void *__jacc_rarg_" + P;
  if (F.Literal[A.Param]) // the type's canonical spelling: the same ABI
    return std::string(scalarTypeName(A.Scalar)) + " __jacc_spec_unused_" + P;
  if (F.MovedPointer[A.Param])
    return "void *__jacc_spec_ptr_" + P;
  if (Target.FlatVlaPointers && A.Vla)
    return A.ElemType + " *" + A.Name;
  if (Target.AggregatesByAddress && A.ArgKind == ArgInfo::Kind::Aggregate)
    return "const void *__jacc_agg" + std::to_string(A.Param);
  return A.Decl;
}

/// Whether the entry of a variant of Spec declares its pointers restrict: it may, and it jams a
/// nest with it or has a nest indexed through memory (which LLVM keeps scalar, reloading every
/// value after each store, without it). Elsewhere restrict was measured to cost (LLVM 16 on x86
/// made stencils 1.5 times slower), so a variant whose folded values leave nothing to jam does
/// not declare it.
bool declaresRestrict(const KernelInfo &K, const Specialization *Spec) {
  return Spec && Spec->Pointers.Disjoint && llvm::any_of(K.Nests, [&](const ParallelNest &N) {
           return jamsIn(N, *Spec) || N.IndexedThroughMemory;
         });
}

/// paramDecl, its pointer declared restrict when the variant does (noalias: only parameters
/// carry it to the optimiser, so a moved pointer's `void *` parameter is the one qualified, and
/// the pointer declared from it is based on it).
std::string restrictParamDecl(const KernelInfo &K, const ArgInfo &A, const EntryTarget &Target,
                              const FoldedArgs &F, const Specialization *Spec) {
  std::string D = paramDecl(K, A, Target, F);
  if (!declaresRestrict(K, Spec) || A.ArgKind != ArgInfo::Kind::Pointer ||
      K.arrayReductionOf(&A - K.Args.data()))
    return D;
  if (F.MovedPointer[A.Param])
    return "void *restrict __jacc_spec_ptr_" + std::to_string(A.Param);
  if (Target.FlatVlaPointers && A.Vla)
    return A.ElemType + " *restrict " + A.Name;
  return restrictDecl(A);
}

/// A variant assuming its pointers aligned: each pointer's alignment declared on entry (LLVM
/// keeps it for every use of the pointer; NVRTC has the same builtin).
std::string alignedPointers(const KernelInfo &K, const Specialization *Spec) {
  if (!Spec || !Spec->Pointers.Aligned)
    return "";
  std::string C;
  for (unsigned I = 0; I < K.Args.size(); ++I)
    if (K.Args[I].ArgKind == ArgInfo::Kind::Pointer && !K.arrayReductionOf(I))
      C += "(void)__builtin_assume_aligned(" + K.Args[I].Name + ", " +
           std::to_string(AssumedPointerAlignment) + ");\n";
  return C;
}

} // namespace

bool entryHasBarrier(const KernelInfo &K) {
  if (K.Serial)
    return false;
  for (size_t I = 0; I + 1 < K.Stmts.size(); ++I)
    if (K.Stmts[I].ExecMode != RegionStmt::Mode::Redundant)
      return true;
  return false;
}

namespace {

/// The condition under which a split entry's iteration runs its body unguarded (every split
/// array's writes of the iteration owned, SplitArray::testsWholeIterations), or "" where the body
/// keeps its guards only: a reduction's share, bounds checks, or a guard at the body's ends.
std::string wholeIterationTest(const KernelInfo &K, bool Guards, const EntryTarget &Target,
                               unsigned BodyBegin, unsigned BodyEnd) {
  const SplitPlan &Plan = K.Split.Plan;
  if (!Guards || !Target.UnguardedWholeIterations || K.CheckBounds || Plan.HasShareTerms ||
      Plan.Arrays.empty() ||
      !llvm::all_of(Plan.Arrays, [](const SplitArray &A) { return A.testsWholeIterations(); }) ||
      llvm::any_of(K.Split.Guards,
                   [&](const auto &G) { return G.first == BodyBegin || G.first == BodyEnd; }) ||
      llvm::StringRef(K.Source).slice(BodyBegin, BodyEnd).contains("goto"))
    return "";
  std::string Test;
  for (const SplitArray &A : Plan.Arrays)
    Test += (Test.empty() ? "" : " && ") + ownedIterationName(A.Name);
  return Test;
}

/// The edits of the kernel's body into an entry's: the nests' headers, the atomics, the bounds
/// checks, and the split guards (Guards).
TextEdits bodyEdits(const KernelInfo &K, bool Split, bool Guards, const EntryTarget &Target,
                    const Specialization *Spec) {
  TextEdits Edits;
  // Insertions at one offset keep their order, outermost first: a split guard, the thread-0
  // wrapper of a statement, a bounds check, a flattened VLA subscript; the closing texts of the
  // checks come before the guards'.
  insertBoundsChecks(K, Target, BoundsScope::OutsideAtomics, BoundsPart::Closes, Split, Edits);
  if (Guards)
    for (const auto &[Offset, Text] : K.Split.Guards)
      Edits.insert(Offset, Text);
  // After the guards: at one offset insertions come first, so a guard wraps the atomic.
  TextEdits Parts = atomicPartEdits(K, Target, Split);
  for (const AtomicOp &A : K.Atomics) {
    std::string Operation = Target.AtomicText(A, K, Parts);
    Edits.replace(A.Begin, A.End, A.Block ? "{ " + Operation + "; }" : Operation);
  }
  if (K.Serial) {
    Edits.insert(K.BodyBegin, "if (__jacc_t->tid == 0) {" + lineDirective(K, K.BodyBegin));
    Edits.insert(K.BodyEnd, "\n}\n");
  } else {
    for (size_t I = 0; I < K.Stmts.size(); ++I) {
      const RegionStmt &S = K.Stmts[I];
      bool Last = I + 1 == K.Stmts.size();
      switch (S.ExecMode) {
      case RegionStmt::Mode::Redundant:
        break;
      case RegionStmt::Mode::Master:
        Edits.insert(S.Begin, "if (__jacc_t->tid == 0) {" + lineDirective(K, S.Begin));
        Edits.insert(S.End, "\n}" + (Last ? "\n" : Target.Barrier));
        break;
      case RegionStmt::Mode::Shared: {
        const ParallelNest *Nest = &K.Nests[S.Nest];
        ParallelNest Extended; // the nest with the inner loops the target shares, if any
        if (unsigned Levels = sharedInnerLevels(*Nest, Target, Spec)) {
          Extended = *Nest;
          Extended.Loops.insert(Extended.Loops.end(), Nest->InnerParallel.begin(),
                                Nest->InnerParallel.begin() + Levels);
          Nest = &Extended;
        }
        const ParallelNest &N = *Nest;
        unsigned BodyBegin = N.Loops.back().BodyBegin, BodyEnd = N.Loops.back().BodyEnd;
        Edits.replace(N.Loops.front().ForBegin, BodyBegin,
                      nestHeader(K, N, Split, Target, Spec) + lineDirective(K, BodyBegin));
        if (std::string Whole = wholeIterationTest(K, Guards, Target, BodyBegin, BodyEnd);
            !Whole.empty()) {
          // The iterations whose writes the device owns whole run the body without its guards.
          TextEdits Plain = bodyEdits(K, Split, false, Target, Spec);
          Edits.insert(BodyBegin, "if (" + Whole + ") {" + lineDirective(K, BodyBegin) +
                                      Plain.apply(K.Source, BodyBegin, BodyEnd, false) +
                                      "\n} else {" + lineDirective(K, BodyBegin));
          Edits.insert(BodyEnd, "\n}");
        }
        // The header replaced the outer loops' headers and the '{' of their bodies when braced
        // (collapse); their closing '}' go too, up to the end of the outermost body.
        Edits.replace(BodyEnd, N.Loops.front().BodyEnd,
                      Target.NestTrailer(N) + (Last ? "" : Target.Barrier));
        if (Target.InterchangesLoops)
          for (const LoopInterchange &X : N.Interchanges)
            if (guardsAllowInterchange(K, Split, X))
              interchange(K, X, Edits);
        break;
      }
      }
    }
  }
  insertBoundsChecks(K, Target, BoundsScope::OutsideAtomics, BoundsPart::Opens, Split, Edits);
  if (Target.FlatVlaPointers)
    for (const SourceEdit &E : K.FlatVla.Edits)
      if (!insideAtomic(K, E.Begin, E.End)) // else the atomic's text has them (Parts)
        Edits.replace(E.Begin, E.End, E.Text);
  return Edits;
}

} // namespace

std::string generateEntry(const KernelInfo &K, bool Split, const EntryTarget &Target,
                          const Specialization *Spec) {
  std::vector<const ArgInfo *> Params(K.Args.size());
  for (const ArgInfo &A : K.Args)
    Params[A.Param] = &A;
  FoldedArgs Folded = foldedArgs(K, Spec, Target);
  std::string C = Target.EntryPrefix;
  C += Split ? SplitEntryName : EntryName;
  C += "(";
  // The folded scalars first: every other use of them, the pointers' types included, follows.
  std::string Constants, Prologue;
  for (const ArgInfo *A : Params)
    if (const ArgSpecialization *S = Folded.Literal[A->Param]) {
      std::string P = std::to_string(A->Param);
      // C++ does not convert an integer to an enumeration implicitly: cast to the declared type.
      Constants +=
          A->Decl + " = " +
          (Target.CastFoldedLiterals ? "(decltype(" + A->Name + "))" + S->Literal : S->Literal) +
          ";\n";
      Constants += "(void)__jacc_spec_unused_" + P + ";\n";
    }
  for (const ArgInfo *A : Params)
    if (Folded.MovedPointer[A->Param])
      Constants += A->Decl + " = __jacc_spec_ptr_" + std::to_string(A->Param) + ";\n";
  for (const ArgInfo *A : Params) {
    C += restrictParamDecl(K, *A, Target, Folded, Spec) + ", ";
    if (Target.AggregatesByAddress && A->ArgKind == ArgInfo::Kind::Aggregate)
      Prologue += A->Decl + "; __builtin_memcpy(&" + A->Name + ", __jacc_agg" +
                  std::to_string(A->Param) + ", sizeof " + A->Name + ");\n";
    if (Target.FlatVlaPointers && A->Vla) // row strides in elements, evaluated once as C does
      for (unsigned L = A->Dims.size(); L >= 1; --L)
        Prologue += "const long long " + vlaStrideName(A->Name, L) + " = (long long)(" +
                    A->Dims[L - 1] + ")" +
                    (L == A->Dims.size() ? "" : " * " + vlaStrideName(A->Name, L + 1)) + ";\n";
  }
  if (Split)
    for (const SplitArray &A : K.Split.Plan.Arrays)
      C += "long long __jacc_mlo_" + A.Name + ", long long __jacc_mhi_" + A.Name + ", ";
  C += Target.TeamParam + ") {\n" + Constants + Target.TeamView;
  C += Prologue + alignedPointers(K, Spec);
  if (Split)
    C += boundsPrologue(K, Target);
  for (const ReductionVar &R : K.Reductions)
    C += R.isArray() ? arrayReductionPrologue(K, R, Target)
                     : R.Name + " = " + reductionIdentity(R.Op, R.Type, Target.Infinity) + ";\n";

  TextEdits Edits = bodyEdits(K, Split, Split, Target, Spec);
  C += lineDirective(K, K.BodyBegin);
  C += Edits.apply(K.Source, K.BodyBegin, K.BodyEnd);
  C += "\n#line 1 \"<jacc>\"\n";
  C += reductionWriteBacks(K, Target);
  C += "}\n";
  return C;
}

} // namespace jacc::jit
