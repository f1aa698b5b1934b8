// The read probe's code: a split entry's prologue that writes each read extent for the device's
// iterations and the partitioned loop, then returns; and the size of what it writes.
#include "jit/ReadProbe.h"

#include "analysis/ScaledIndex.h"
#include "jit/EntryCodegen.h"
#include "jit/host/HostABI.h"

#include <set>

namespace jacc::jit {

using namespace analysis;

/// B as C text over the device's iterator values `__lo`, `__hi`.
static std::string boundText(const ExtentBound &B) {
  std::string T = "((" + std::to_string(B.LoCoef) + "LL * __lo + " + std::to_string(B.HiCoef) +
                  "LL * __hi) * " + scaleValue(B.Scale) + " + " + std::to_string(B.Const) + "LL";
  if (!B.Offset.empty())
    T += " + (" + B.Offset + ")";
  return T + ")";
}

std::string windowHull(const ExtentWindow &W, bool Begin) {
  // A window's bounds do not move with the iterations: constants and region invariants.
  auto Text = [](const ExtentBound &B) {
    std::string T = "(" + std::to_string(B.Const) + "LL";
    if (!B.Offset.empty())
      T += " + (" + B.Offset + ")";
    return T + ")";
  };
  std::string H = Text(Begin ? W.Ranges.front().Begin : W.Ranges.front().End);
  for (size_t I = 1; I < W.Ranges.size(); ++I) {
    std::string N = Text(Begin ? W.Ranges[I].Begin : W.Ranges[I].End);
    H = "(" + N + (Begin ? " < " : " > ") + H + " ? " + N + " : " + H + ")";
  }
  return H;
}

std::string readProbe(const KernelInfo &K, const ParallelNest &N, const EntryTarget &Target) {
  if (!Target.ReadProbe)
    return "";
  // The outermost loop variable is lo0 + k * St0 for the device's iterations k in [db, de).
  std::string St0 = N.Loops.front().Increasing ? "__jacc_st0" : "(-__jacc_st0)";
  std::string P =
      "if (__jacc_t->read_info) {\n"
      "  if (__jacc_t->tid == 0) {\n"
      "    long long *__r = __jacc_t->read_info, __lo = 0, __hi = 0;\n"
      "    if (__jacc_db < __jacc_de) {\n"
      "      long long __v0 = __jacc_lo0 + __jacc_db * " +
      St0 +
      ";\n"
      "      long long __v1 = __jacc_lo0 + (__jacc_de - 1) * " +
      St0 +
      ";\n"
      "      __lo = __v0 < __v1 ? __v0 : __v1; __hi = (__v0 < __v1 ? __v1 : __v0) + 1;\n"
      "    }\n"
      "    (void)__lo; (void)__hi;\n";
  // "__r[Slot] = First; __r[Slot + 1] = Second;"
  auto Pair = [](unsigned Slot, const std::string &First, const std::string &Second) {
    return "    __r[" + std::to_string(Slot) + "] = " + First + "; __r[" +
           std::to_string(Slot + 1) + "] = " + Second + ";\n";
  };
  // Bytes of one index step along dimension D of R's array, and of the sub-array enclosing it.
  auto UnitAndPitch = [&](unsigned Slot, const ReadExtent &R, unsigned D) {
    return Pair(Slot, sizeofSub(K, R.Name, D + 1, Target),
                D == 0 ? std::string("0") : sizeofSub(K, R.Name, D, Target));
  };
  unsigned W = 0;
  for (const ReadExtent &R : K.Split.Reads) {
    if (R.Whole) {
      P += Pair(W, "0", "0");
    } else {
      P += UnitAndPitch(W, R, R.Dim);
      // Bounds over a scale hold where it is positive: elsewhere a unit of 0, the whole mapping.
      std::set<std::string> Scales;
      for (const ExtentRange &E : R.Ranges)
        for (const ExtentBound *B : {&E.Begin, &E.End})
          if (!B->Scale.empty())
            Scales.insert(B->Scale);
      std::string Positive;
      for (const std::string &S : Scales)
        Positive += (Positive.empty() ? "" : " && ") + scaleValue(S) + " > 0";
      if (!Positive.empty())
        P += "    if (!(" + Positive + ")) __r[" + std::to_string(W) + "] = 0;\n";
      for (size_t I = 0; I < R.Ranges.size(); ++I) {
        std::string Slot = std::to_string(W + JACC_READ_INFO_RANGES + 2 * I);
        P += "    __r[" + Slot + "] = __lo < __hi ? " + boundText(R.Ranges[I].Begin) +
             " : 0;\n    __r[" + Slot + " + 1] = __lo < __hi ? " + boundText(R.Ranges[I].End) +
             " : 0;\n";
      }
      unsigned Window = W + JACC_READ_INFO_RANGES + 2 * R.Ranges.size();
      for (const ExtentWindow &Win : R.Windows) {
        P += UnitAndPitch(Window, R, Win.Dim) +
             Pair(Window + 2, windowHull(Win, true), windowHull(Win, false));
        Window += 4;
      }
    }
    W += extentWords(R);
  }
  // The partitioned loop and this device's iterations (JACC_LOOP_INFO_WORDS).
  P += "    { long long *__l = __r + " + std::to_string(W) + ";\n"
       "      __l[0] = __jacc_lo0; __l[1] = " + St0 + "; __l[2] = __jacc_n0;\n"
       "      __l[3] = __jacc_db; __l[4] = __jacc_de; __l[5] = __jacc_sb; __l[6] = __jacc_se; }\n";
  return P + "  }\n  return;\n}\n";
}

unsigned extentWords(const ReadExtent &R) {
  return R.Whole ? JACC_READ_INFO_WORDS(0, 0)
                 : JACC_READ_INFO_WORDS(R.Ranges.size(), R.Windows.size());
}

unsigned loopInfoOffset(const KernelInfo &K) {
  unsigned W = 0;
  for (const ReadExtent &R : K.Split.Reads)
    W += extentWords(R);
  return W;
}

unsigned readInfoWords(const KernelInfo &K) { return loopInfoOffset(K) + JACC_LOOP_INFO_WORDS; }

} // namespace jacc::jit
