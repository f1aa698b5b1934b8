// The host's side of entry generation: each thread's iteration loops (vectorisable runs, jammed
// rows), per-thread reduction slots, checked accesses, and the host EntryTarget.
#include "jit/host/HostCodegen.h"

#include "analysis/KernelSource.h"
#include "jit/BoundsChecks.h"
#include "jit/host/HostABI.h"
#include "jit/host/HostAtomics.h"

namespace jacc::jit {

using namespace analysis;

static const char *HostABIText = JACC_HOST_ABI_TEXT;

namespace {

/// Whether a loop variable of this type is stepped as an `int` of its own in the innermost loop.
bool intIterator(const CanonicalLoop &L) {
  return L.VarType == "int" || L.VarType == "signed" || L.VarType == "signed int";
}

/// The innermost loop over this thread's run [__jacc_c0, __jacc_c1) of loop I's indices (at
/// most __jacc_cap of them), then its variable. An `int` variable counts in `int` from its first
/// value: computed from a 64-bit index, each value would be a truncation LLVM cannot see
/// through, and the loop would not vectorise (gcc -O3 vectorises the source's loop).
/// With Scalar (a nest whose every access the vector loop would gather: OnlyGathers), the loop
/// is kept scalar: LLVM's cost model for some CPUs (znver4) vectorises a 5x5 block per iteration
/// with 25-element-strided gathers that run 3x slower than the scalar loop gcc keeps.
/// With Unfused (a nest that accumulates floats: AccumulatesFloats), its body's multiply-adds are
/// not contracted: `s += a[k] * b[k]` as an FMA chain runs at the FMA's latency, 1.3 - 2x slower
/// than an add's, which is what gcc -std=c99 (no contraction in ISO C mode) compiles.
std::string innermostLoop(const CanonicalLoop &L, unsigned I, bool Scalar, bool Unfused,
                          const std::string &Outer, const std::string &Share,
                          const std::string &Priv) {
  std::string N = std::to_string(I);
  std::string Hint = Scalar ? "#pragma clang loop vectorize(disable)\n" : "";
  // The pragma must open the compound statement, before its first statement.
  std::string Open = Unfused ? "{\n#pragma clang fp contract(off)\n" : "{\n";
  if (!intIterator(L))
    return Hint + "for (long long __jacc_k = __jacc_c0; __jacc_k < __jacc_c1; ++__jacc_k) " +
           Open + Outer + Share + loopVarDecl(L, I, "__jacc_k") + "\n" + Priv;
  // Every value is one of the source loop's, an int: so are the first one and each step's sum.
  std::string H = "const int __jacc_v0 = (int)(__jacc_lo" + N + (L.Increasing ? " + " : " - ") +
                  "__jacc_c0 * __jacc_st" + N + ");\n"
                  "const int __jacc_vs = " + (L.Increasing ? "" : "-") + "(int)__jacc_st" + N +
                  ";\n"
                  "const int __jacc_len = (int)(__jacc_c1 - __jacc_c0);\n" + Hint +
                  "for (int __jacc_q = 0; __jacc_q < __jacc_len; ++__jacc_q) " + Open;
  std::string K = "(__jacc_c0 + __jacc_q)";
  size_t At = Outer.find("__jacc_k");
  std::string O = At == std::string::npos ? Outer : Outer.substr(0, At) + K + Outer.substr(At + 8);
  return H + O + Share + L.VarType + " " + L.Var + " = __jacc_v0 + __jacc_q * __jacc_vs;\n" + Priv;
}

/// Runs of the innermost loop are cut at __jacc_cap indices, so that an `int` variable's steps
/// from its first value stay within int.
std::string capRun(unsigned I) {
  std::string N = std::to_string(I);
  return "if (__jacc_c1 - __jacc_c0 > 2147483647LL / __jacc_st" + N + ") __jacc_c1 = __jacc_c0 + "
         "2147483647LL / __jacc_st" + N + ";\n";
}

/// How many iterations of the innermost parallel loop a jammed pass runs side by side: four
/// chains hide an add's latency (3 - 4 cycles) on current x86 cores; eight ran no faster.
constexpr int JamCount = 4;

/// The jammed form of a nest that sums along an inner loop (EntryTarget::IterationLoop's Jam).
/// LLVM's unroll-and-jam takes only a loop whose trip count is the same on every iteration of
/// its parent loop: so this thread's part is whole rows of the innermost loop (a single loop
/// when the nest has one), and the innermost loop counts over the whole row. Its counter is
/// unsigned (a row of an `int` variable has fewer than 2^32 values) and each value is computed
/// in wrapping unsigned arithmetic, exact for every value the variable takes.
std::string jammedIterationLoop(const ParallelNest &N, const std::string &Share,
                                const std::string &Priv) {
  unsigned D = N.Loops.size();
  const CanonicalLoop &L = N.Loops[D - 1];
  std::string Last = std::to_string(D - 1);
  std::string Open = N.AccumulatesFloats ? "{\n#pragma clang fp contract(off)\n" : "{\n";
  std::string Jam = "#pragma unroll_and_jam(" + std::to_string(JamCount) + ")\n";
  if (D == 1) // the block keeps the trailer's braces
    return "long long __jacc_b, __jacc_e;\n"
           "__jacc_share(__jacc_t, __jacc_db, __jacc_de, __jacc_inner, &__jacc_b, &__jacc_e);\n"
           "{\n" + Jam +
           "for (long long __jacc_k = __jacc_b; __jacc_k < __jacc_e; ++__jacc_k) " + Open +
           "const long long __jacc_outer = __jacc_k;\n" + Share + loopVarDecl(L, 0, "__jacc_k") +
           "\n" + Priv;
  std::string Rows = "1";
  for (unsigned I = 1; I + 1 < D; ++I)
    Rows += " * __jacc_n" + std::to_string(I);
  std::string H = "long long __jacc_rb, __jacc_re;\n"
                  "__jacc_share(__jacc_t, __jacc_db, __jacc_de, " + Rows +
                  ", &__jacc_rb, &__jacc_re);\n"
                  "const unsigned __jacc_len = (unsigned)__jacc_n" + Last + ";\n"
                  "const unsigned __jacc_v0 = (unsigned)(int)__jacc_lo" + Last + ";\n"
                  "const unsigned __jacc_vs = (unsigned)__jacc_st" + Last + ";\n"
                  "for (long long __jacc_r = __jacc_rb; __jacc_r < __jacc_re; ++__jacc_r) {\n"
                  "long long __jacc_row = __jacc_r;\n";
  H += rowLoopVarDecls(N, D - 2);
  H += "const long long __jacc_outer = __jacc_row;\n" + Share + Jam +
       "for (unsigned __jacc_q = 0; __jacc_q < __jacc_len; ++__jacc_q) " + Open;
  return H + L.VarType + " " + L.Var + " = (" + L.VarType + ")(__jacc_v0 " +
         (L.Increasing ? "+" : "-") + " __jacc_q * __jacc_vs);\n" + Priv;
}

/// This thread's contiguous part of the device's iterations (`__jacc_share`), as runs of the
/// innermost loop (for collapsed loops, within one row of the loops outside it), so the
/// innermost loop stays a plain loop that LLVM vectorises. Jam: jammedIterationLoop (for
/// collapsed loops, when the innermost variable is an `int`).
std::string hostIterationLoop(const ParallelNest &N, const std::string &Share,
                              const std::string &Priv, bool Jam) {
  unsigned D = N.Loops.size();
  if (Jam && (D == 1 || intIterator(N.Loops[D - 1])))
    return jammedIterationLoop(N, Share, Priv);
  std::string H = "long long __jacc_b, __jacc_e;\n"
                  "__jacc_share(__jacc_t, __jacc_db, __jacc_de, __jacc_inner, &__jacc_b, "
                  "&__jacc_e);\n";
  if (D == 1) {
    H += "for (long long __jacc_it = __jacc_b; __jacc_it < __jacc_e;) {\n"
         "long long __jacc_c0 = __jacc_it, __jacc_c1 = __jacc_e;\n" +
         capRun(0) + "__jacc_it = __jacc_c1;\n";
    return H + innermostLoop(N.Loops[0], 0, N.OnlyGathers, N.AccumulatesFloats,
                             "const long long __jacc_outer = __jacc_k;\n", Share, Priv);
  }
  std::string Last = std::to_string(D - 1);
  H += "for (long long __jacc_it = __jacc_b; __jacc_it < __jacc_e;) {\n"
       "long long __jacc_row = __jacc_it / __jacc_n" + Last + ";\n"
       "long long __jacc_c0 = __jacc_it - __jacc_row * __jacc_n" + Last + ";\n"
       "long long __jacc_c1 = __jacc_c0 + (__jacc_e - __jacc_it);\n"
       "if (__jacc_c1 > __jacc_n" + Last + ") __jacc_c1 = __jacc_n" + Last + ";\n" +
       capRun(D - 1) + "__jacc_it += __jacc_c1 - __jacc_c0;\n";
  H += rowLoopVarDecls(N, D - 2);
  H += "const long long __jacc_outer = __jacc_row;\n" + Share;
  return H + innermostLoop(N.Loops[D - 1], D - 1, N.OnlyGathers, N.AccumulatesFloats, "",
                           "", Priv);
}

std::string hostNestTrailer(const ParallelNest &) { return "\n}}}\n"; }

/// Each thread's reduction value goes into its own slot.
std::string hostReductionWriteBack(const KernelInfo &, const ReductionVar &,
                                   const std::string &Value, const std::string &Slot) {
  return "__builtin_memcpy((char *)__jacc_t->reduction + 8 * (" + Slot + "), &" + Value +
         ", sizeof " + Value + ");\n";
}

/// A checked access: a statement expression keeps the access an lvalue of its own type, with its
/// operands evaluated once (`&(y[i++])`).
std::string hostBoundsOpen(size_t Site, const std::string &) {
  return "(*({ __auto_type __jacc_bp" + std::to_string(Site) + " = &(";
}

std::string hostBoundsClose(size_t Site, const std::string &Check, const std::string &Arg,
                            const std::string &Where) {
  std::string P = "__jacc_bp" + std::to_string(Site);
  return "); (__typeof__(" + P + "))" + Check + "(__jacc_t, " + P + ", " + Arg + ", sizeof *" +
         P + ", " + Where + "); }))";
}

/// The checks of one access (the bounds block: jit/host/HostABI.h): against its mapping, or also
/// against the device's owned range (a write outside its mapping is reported as such first); and
/// the cold path recording the first violation. NParams: the kernel's parameters, before the
/// scratch bytes.
std::string hostBoundsHelpers(unsigned NParams) {
  std::string Ranges = std::to_string(JACC_BOUNDS_RECORD_WORDS);
  return "static __attribute__((noinline, cold)) void *__jacc_bfail(\n"
         "    const jacc_host_team *t, long long off, long long size, int param, int line,\n"
         "    int col, int how, long long lb, long long ub) {\n"
         "  long long *r = t->bounds, none = 0;\n"
         "  if (__atomic_compare_exchange_n(r, &none, 1, 0, __ATOMIC_ACQ_REL,\n"
         "                                  __ATOMIC_RELAXED)) {\n"
         "    r[1] = line; r[2] = col; r[3] = param; r[4] = how; r[5] = off; r[6] = size;\n"
         "    r[7] = lb; r[8] = ub;\n"
         "    __atomic_store_n(r, 2, __ATOMIC_RELEASE);\n"
         "  }\n"
         "  return r + " + std::to_string(boundsScratchWord(NParams)) + ";\n"
         "}\n"
         "static inline void *__jacc_bcheck(const jacc_host_team *t, const void *p,\n"
         "    const void *base, long long size, int param, int line, int col, int how) {\n"
         "  long long off = (const char *)p - (const char *)base;\n"
         "  const long long *m = t->bounds + " + Ranges + " + 2 * param;\n"
         "  if (__builtin_expect(off >= m[0] && off <= m[1] - size, 1)) return (void *)p;\n"
         "  return __jacc_bfail(t, off, size, param, line, col, how, 0, 0);\n"
         "}\n"
         "static inline void *__jacc_bowned(const jacc_host_team *t, const void *p,\n"
         "    const void *base, long long size, long long lo, long long hi, long long pitch,\n"
         "    long long lb, long long ub, int param, int line, int col, int how) {\n"
         "  long long off = (const char *)p - (const char *)base;\n"
         "  long long at = pitch ? off - __jacc_floordiv(off, pitch) * pitch : off;\n"
         "  const long long *m = t->bounds + " + Ranges + " + 2 * param;\n"
         "  int mapped = off >= m[0] && off <= m[1] - size;\n"
         "  if (__builtin_expect(mapped && at >= lo && at < hi, 1)) return (void *)p;\n"
         "  if (!mapped) return __jacc_bfail(t, off, size, param, line, col, how & " +
         std::to_string(JACC_BOUNDS_OWNED - 1) + ", 0, 0);\n"
         "  return __jacc_bfail(t, off, size, param, line, col, how, lb, ub);\n"
         "}\n";
}

} // namespace

const EntryTarget &hostEntryTarget() {
  static const EntryTarget T = [] {
    EntryTarget T;
    T.EntryPrefix = "void ";
    T.TeamParam = "const jacc_host_team *__jacc_t";
    T.Barrier = "\n__jacc_t->barrier(__jacc_t->team);\n";
    T.Infinity = "__builtin_inf()";
    T.AggregatesByAddress = true;
    T.ReadProbe = true;
    T.InterchangesLoops = true;
    T.UnguardedWholeIterations = true;
    T.IterationLoop = hostIterationLoop;
    T.NestTrailer = hostNestTrailer;
    T.ReductionWriteBack = hostReductionWriteBack;
    T.AtomicText = hostAtomicText;
    T.BoundsCheckOpen = hostBoundsOpen;
    T.BoundsCheckClose = hostBoundsClose;
    return T;
  }();
  return T;
}

std::string generateHostSource(const analysis::KernelInfo &K, bool Split,
                               const Specialization *Spec) {
  std::string C = HostABIText;
  C += "\n";
  C += analysis::kernelDialectPrelude(llvm::StringRef(K.Source).take_front(K.ConstructOffset));
  C += "#line 1 \"kernel\"\n";
  C += K.Source.substr(0, K.ConstructOffset);
  C += "\n#line 1 \"<jacc>\"\n";
  // Each thread's contiguous part of the device's iterations [lo, hi) x inner.
  C += "static inline void __jacc_share(const jacc_host_team *t, long long lo, long long hi,\n"
       "                                long long inner, long long *b, long long *e) {\n"
       "  if (hi < lo) hi = lo;\n"
       "  long long n = (hi - lo) * inner;\n"
       "  *b = lo * inner + n * t->tid / t->nthreads;\n"
       "  *e = lo * inner + n * (t->tid + 1) / t->nthreads;\n"
       "}\n"
       "static inline long long __jacc_floordiv(long long a, long long b) {\n"
       "  long long q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n"
       "}\n"
       "static inline long long __jacc_ceildiv(long long a, long long b) {\n"
       "  long long q = a / b; return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;\n"
       "}\n";
  if (K.CheckBounds)
    C += hostBoundsHelpers(K.Args.size());
  C += generateEntry(K, Split && K.Split.Enabled, hostEntryTarget(), Spec);
  return C;
}

} // namespace jacc::jit
