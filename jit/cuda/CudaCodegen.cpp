// CUDA's side of entry generation: the device prelude (mapped headers, atomics, block reductions,
// grid barrier, bounds checks), the CUDA EntryTarget, the block size and the parameter layout.
#include "jit/cuda/CudaCodegen.h"

#include "analysis/KernelSource.h"
#include "jit/BoundsChecks.h"
#include "jit/EntryCodegen.h"
#include "jit/cuda/CudaABI.h"
#include "jit/cuda/CudaAtomics.h"
#include "jit/cuda/CudaComplex.h"
#include "jit/host/HostABI.h"
#include "jit/host/HostCodegen.h"
#include "jit/specialize/Specialization.h"
#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Regex.h>

namespace jacc::jit {

using namespace analysis;

namespace {

const char *CudaABIText = JACC_CUDA_ABI_TEXT;

/// What the C library headers a kernel may include provide, for device code. Functions (math,
/// memcpy, printf, abs) are CUDA's own device functions of the same names; the macros and types
/// are defined here.
struct HeaderMapping {
  const char *Header;
  const char *Definitions;
};

const HeaderMapping Headers[] = {
    {"math.h",
     "#define M_E 2.7182818284590452354\n#define M_LOG2E 1.4426950408889634074\n"
     "#define M_LOG10E 0.43429448190325182765\n#define M_LN2 0.69314718055994530942\n"
     "#define M_LN10 2.30258509299404568402\n#define M_PI 3.14159265358979323846\n"
     "#define M_PI_2 1.57079632679489661923\n#define M_PI_4 0.78539816339744830962\n"
     "#define M_1_PI 0.31830988618379067154\n#define M_2_PI 0.63661977236758134308\n"
     "#define M_2_SQRTPI 1.12837916709551257390\n#define M_SQRT2 1.41421356237309504880\n"
     "#define M_SQRT1_2 0.70710678118654752440\n"
     "#define INFINITY __int_as_float(0x7f800000)\n#define NAN __int_as_float(0x7fffffff)\n"
     "#define HUGE_VALF __int_as_float(0x7f800000)\n"
     "#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)\n"},
    {"stdint.h",
     "typedef signed char int8_t; typedef unsigned char uint8_t;\n"
     "typedef short int16_t; typedef unsigned short uint16_t;\n"
     "typedef int int32_t; typedef unsigned int uint32_t;\n"
     "typedef long int64_t; typedef unsigned long uint64_t;\n"
     "typedef long intptr_t; typedef unsigned long uintptr_t;\n"
     "#define INT8_MAX 127\n#define INT8_MIN (-128)\n#define UINT8_MAX 255\n"
     "#define INT16_MAX 32767\n#define INT16_MIN (-32768)\n#define UINT16_MAX 65535\n"
     "#define INT32_MAX 2147483647\n#define INT32_MIN (-2147483647-1)\n"
     "#define UINT32_MAX 4294967295U\n#define INT64_MAX 9223372036854775807L\n"
     "#define INT64_MIN (-9223372036854775807L-1)\n#define UINT64_MAX 18446744073709551615UL\n"},
    {"inttypes.h", ""},
    {"stddef.h", "#ifndef NULL\n#define NULL 0\n#endif\ntypedef long ptrdiff_t;\n"},
    {"stdbool.h", ""},
    {"stdio.h", ""},  // printf is a device function
    {"stdlib.h", ""}, // abs, labs, llabs are device functions
    {"string.h", ""}, // memcpy, memset are device functions
    {"limits.h",
     "#define CHAR_BIT 8\n#define SCHAR_MIN (-128)\n#define SCHAR_MAX 127\n#define UCHAR_MAX 255\n"
     "#define CHAR_MIN SCHAR_MIN\n#define CHAR_MAX SCHAR_MAX\n"
     "#define SHRT_MIN (-32768)\n#define SHRT_MAX 32767\n#define USHRT_MAX 65535\n"
     "#define INT_MIN (-2147483647-1)\n#define INT_MAX 2147483647\n#define UINT_MAX 4294967295U\n"
     "#define LONG_MIN (-9223372036854775807L-1)\n#define LONG_MAX 9223372036854775807L\n"
     "#define ULONG_MAX 18446744073709551615UL\n#define LLONG_MIN (-9223372036854775807LL-1)\n"
     "#define LLONG_MAX 9223372036854775807LL\n#define ULLONG_MAX 18446744073709551615ULL\n"},
    {"complex.h", // the arithmetic is JACC_CUDA_COMPLEX_TEXT; `complex` is spelled out
     "#define _Complex_I (__jacc_complex<float>(0.0f, 1.0f))\n#define I _Complex_I\n"
     "#define CMPLX(x, y) (__jacc_complex<double>((x), (y)))\n"
     "#define CMPLXF(x, y) (__jacc_complex<float>((x), (y)))\n"},
    {"float.h",
     "#define FLT_MAX 3.40282347e+38F\n#define FLT_MIN 1.17549435e-38F\n"
     "#define FLT_EPSILON 1.19209290e-07F\n#define FLT_DIG 6\n#define FLT_MANT_DIG 24\n"
     "#define DBL_MAX 1.7976931348623157e+308\n#define DBL_MIN 2.2250738585072014e-308\n"
     "#define DBL_EPSILON 2.2204460492503131e-16\n#define DBL_DIG 15\n#define DBL_MANT_DIG 53\n"},
};

/// Device-side helpers every generated kernel may use.
const char *CudaHelpers = R"(#define restrict __restrict__
/* OpenACC's acc_on_device in device code: a CUDA device is acc_device_not_host (3) and
   acc_device_nvidia (4) (include/jacc/openacc.h). */
static __device__ inline int acc_on_device(int t) { return t == 3 || t == 4; }
#define _Bool bool
/* The GNU bit builtins host kernels have (Fortran's popcnt, leadz, trailz): CUDA's intrinsics. */
#define __builtin_popcountll(x) __popcll(x)
#define __builtin_clzll(x) __clzll(x)
#define __builtin_ctzll(x) (__ffsll(x) - 1)
typedef struct jacc_team_view {
  long long tid, nthreads, share_begin, share_end, share_scale, narrow;
  long long *split_info;
  void *reduction;
  long long *bounds;
} jacc_team_view;
static inline long long __jacc_floordiv(long long a, long long b) {
  long long q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline long long __jacc_ceildiv(long long a, long long b) {
  long long q = a / b; return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}
/* Every thread of the grid waits for all others (all blocks resident: the launcher sizes the
   grid by occupancy and launches cooperatively). bar[0] counts arrivals, bar[1] the generation. */
static inline void __jacc_grid_sync(unsigned int *bar) {
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile unsigned int *gen = bar + 1;
    unsigned int g = *gen;
    __threadfence();
    if (atomicAdd(bar, 1u) == gridDim.x - 1) {
      atomicExch(bar, 0u);
      __threadfence();
      atomicAdd((unsigned int *)gen, 1u);
    } else {
      while (*gen == g) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}
/* The block's combined value (valid in thread 0): warp shuffles, then the warps' values. */
template <class W, class F> static inline W __jacc_block_reduce(W v, F op, W identity) {
  __shared__ W buf[32];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  for (int o = 16; o > 0; o >>= 1)
    v = op(v, __shfl_down_sync(0xffffffffu, v, o));
  if (lane == 0)
    buf[warp] = v;
  __syncthreads();
  v = lane < ((blockDim.x + 31u) >> 5) ? buf[lane] : identity;
  if (warp == 0)
    for (int o = 16; o > 0; o >>= 1)
      v = op(v, __shfl_down_sync(0xffffffffu, v, o));
  __syncthreads();
  return v;
}
/* OpenACC atomics: relaxed loads and stores, compare-and-swap on the word holding the value. */
template <class T> static inline T __jacc_atomic_load(const T *p) { return *(const volatile T *)p; }
template <class T, class U> static inline void __jacc_atomic_store(T *p, U v) {
  *(volatile T *)p = (T)v;
}
template <class T, class F> static inline T __jacc_atomic_rmw(T *p, F f, bool post) {
  T o, n;
  if constexpr (sizeof(T) == 8) {
    unsigned long long *w = (unsigned long long *)p, old = *(volatile unsigned long long *)w, as;
    do {
      as = old; memcpy(&o, &as, 8); n = (T)f(o);
      unsigned long long nw; memcpy(&nw, &n, 8);
      old = atomicCAS(w, as, nw);
    } while (old != as);
  } else if constexpr (sizeof(T) == 4) {
    unsigned int *w = (unsigned int *)p, old = *(volatile unsigned int *)w, as;
    do {
      as = old; memcpy(&o, &as, 4); n = (T)f(o);
      unsigned int nw; memcpy(&nw, &n, 4);
      old = atomicCAS(w, as, nw);
    } while (old != as);
  } else { /* 1 or 2 bytes: the aligned 32-bit word around it */
    static_assert(sizeof(T) <= 2, "wider values have atomics of their own: double _Complex");
    unsigned long long a = (unsigned long long)p;
    unsigned int *w = (unsigned int *)(a & ~3ULL);
    unsigned int shift = (unsigned int)(a & 3u) * 8u;
    unsigned int mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned int old = *(volatile unsigned int *)w, as;
    do {
      as = old;
      unsigned int bits = (as & mask) >> shift; memcpy(&o, &bits, sizeof(T)); n = (T)f(o);
      unsigned int nb = 0; memcpy(&nb, &n, sizeof(T));
      old = atomicCAS(w, as, (as & ~mask) | ((nb << shift) & mask));
    } while (old != as);
  }
  return post ? o : n;
}
template <class T, class U> static inline void __jacc_atomic_add(T *p, U d) {
  if constexpr (sizeof(T) == 4)
    atomicAdd((unsigned int *)p, (unsigned int)d);
  else if constexpr (sizeof(T) == 8)
    atomicAdd((unsigned long long *)p, (unsigned long long)(long long)d);
  else
    __jacc_atomic_rmw(p, [&](T o) { return (T)(o + d); }, false);
}
)";

/// A constant clause argument ("128"), or 0.
/// The value of clause Kind of D when it is a constant: a literal, or an argument that Spec folds
/// (`vector_length(v)` with v folded to 128); 0 otherwise.
unsigned constantClause(const Directive &D, ClauseKind Kind, const Specialization *Spec) {
  for (const Clause &C : D.Clauses) {
    if (C.Kind != Kind || !C.HasArgument)
      continue;
    unsigned V = 0;
    llvm::StringRef Arg = llvm::StringRef(C.Argument).trim();
    if (!Arg.getAsInteger(0, V))
      return V;
    if (Spec)
      for (const ArgSpecialization &A : Spec->Args)
        if (A.Name == Arg && !llvm::StringRef(A.Literal).getAsInteger(0, V))
          return V;
  }
  return 0;
}

/// The kernel's leading declarations with their #include lines blanked (line numbers kept), the
/// definitions of the mapped headers collected in Defs and whether <complex.h> is among them.
llvm::Expected<std::string> mapIncludes(const KernelInfo &K, std::string &Defs,
                                        bool &ComplexHeader) {
  llvm::StringRef Leading = llvm::StringRef(K.Source).take_front(K.ConstructOffset);
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Leading.split(Lines, '\n');
  llvm::Regex Include("^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]");
  std::string Out;
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::SmallVector<llvm::StringRef, 2> M;
    if (Include.match(Lines[I], &M)) {
      const HeaderMapping *H = nullptr;
      for (const HeaderMapping &X : Headers)
        if (M[1] == X.Header)
          H = &X;
      if (!H) {
        std::string Known;
        for (const HeaderMapping &X : Headers)
          Known += std::string(Known.empty() ? "" : ", ") + X.Header;
        return makeError(ErrorCode::Unsupported,
                         "kernel:" + llvm::Twine(I + 1) + ": #include <" + M[1] +
                             "> has no CUDA device equivalent (headers jacc maps for CUDA: " +
                             Known + ")");
      }
      Defs += H->Definitions;
      ComplexHeader |= M[1] == "complex.h";
    } else {
      Out += Lines[I].str();
    }
    if (I + 1 < Lines.size())
      Out += "\n";
  }
  return Out;
}

/// The flattened iterations over the whole grid, cyclically (neighbouring threads touch
/// neighbouring elements: coalesced), with the bound as the guard. (No jam: a GPU thread's
/// iterations are far apart, and its latency is hidden by the other warps.)
std::string cudaIterationLoop(const ParallelNest &N, const std::string &Share,
                              const std::string &Priv, bool /*Jam*/) {
  std::string H = "for (long long __jacc_it = __jacc_db * __jacc_inner + __jacc_t->tid;\n"
                  "     __jacc_it < __jacc_de * __jacc_inner; __jacc_it += __jacc_t->nthreads) {\n"
                  "long long __jacc_row = __jacc_it;\n";
  H += rowLoopVarDecls(N, N.Loops.size() - 1);
  H += "const long long __jacc_outer = __jacc_row;\n" + Share + "{\n" + Priv;
  return H;
}

std::string cudaNestTrailer(const ParallelNest &) { return "\n}}}\n"; }

/// The C type a reduction is combined in on CUDA: warp shuffles move 32- and 64-bit values.
const char *cudaReductionWideType(ScalarType T) {
  switch (T) {
  case ScalarType::Bool:
  case ScalarType::I8:
  case ScalarType::I16: return "int";
  case ScalarType::U8:
  case ScalarType::U16: return "unsigned int";
  default: return scalarTypeName(T);
  }
}

std::string cudaCombine(ReductionOp Op) {
  switch (Op) {
  case ReductionOp::Add: return "a + b";
  case ReductionOp::Mul: return "a * b";
  case ReductionOp::Max: return "b > a ? b : a";
  case ReductionOp::Min: return "b < a ? b : a";
  case ReductionOp::BitAnd: return "a & b";
  case ReductionOp::BitOr: return "a | b";
  case ReductionOp::BitXor: return "a ^ b";
  case ReductionOp::LogAnd: return "a && b";
  case ReductionOp::LogOr: return "a || b";
  }
  return "a";
}

/// CUDA C++ has no __builtin_inf.
const char *const CudaInfinity = "__longlong_as_double(0x7ff0000000000000LL)";

/// Each thread's reduction value is combined within the block (warp shuffles, then across
/// warps) into the block's slot.
std::string cudaReductionWriteBack(const KernelInfo &K, const ReductionVar &R,
                                   const std::string &Value, const std::string &Slot) {
  std::string W = cudaReductionWideType(R.Type);
  return "{ " + W + " __jacc_w = __jacc_block_reduce<" + W + ">((" + W + ")" + Value + ", [](" +
         W + " a, " + W + " b) { return (" + W + ")(" + cudaCombine(R.Op) + "); }, (" + W +
         ")" + reductionIdentity(R.Op, R.Type, CudaInfinity) + ");\n"
         "  if (threadIdx.x == 0) { " + std::string(scalarTypeName(R.Type)) +
         " __jacc_r = __jacc_w; memcpy((char *)__jacc_t->reduction + ((long long)blockIdx.x * " +
         std::to_string(K.reductionSlots()) + " + " + Slot +
         ") * 8, &__jacc_r, sizeof __jacc_r); } }\n";
}

/// A checked access: a template keeps the access an lvalue of its own type, with its operands
/// evaluated once (`&(y[i++])`).
std::string cudaBoundsOpen(size_t, const std::string &Check) {
  return "(*" + Check + "(__jacc_t, &(";
}

std::string cudaBoundsClose(size_t, const std::string &, const std::string &Arg,
                            const std::string &Where) {
  return "), (const void *)" + Arg + ", " + Where + "))";
}

/// The checks of one access (the bounds block: jit/host/HostABI.h): against its mapping, or also
/// against the device's owned range (a write outside its mapping is reported as such first); and
/// the path recording the first violation. NParams: the kernel's parameters, before the scratch
/// bytes.
std::string cudaBoundsHelpers(unsigned NParams) {
  return "static __device__ __noinline__ void *__jacc_bfail(const jacc_team_view *t,\n"
         "    long long off, long long size, int param, int line, int col, int how,\n"
         "    long long lb, long long ub) {\n"
         "  long long *r = t->bounds;\n"
         "  if (atomicCAS((unsigned long long *)r, 0ULL, 1ULL) == 0ULL) {\n"
         "    r[1] = line; r[2] = col; r[3] = param; r[4] = how; r[5] = off; r[6] = size;\n"
         "    r[7] = lb; r[8] = ub;\n"
         "    __threadfence();\n"
         "    atomicExch((unsigned long long *)r, 2ULL);\n"
         "  }\n"
         "  return r + " + std::to_string(boundsScratchWord(NParams)) + ";\n"
         "}\n"
         "template <class T> static __device__ inline T *__jacc_bcheck(const jacc_team_view *t,\n"
         "    T *p, const void *base, int param, int line, int col, int how) {\n"
         "  long long off = (const char *)p - (const char *)base;\n"
         "  const long long *m = t->bounds + " + std::to_string(JACC_BOUNDS_RECORD_WORDS) +
         " + 2 * param;\n"
         "  if (off >= m[0] && off <= m[1] - (long long)sizeof(T)) return p;\n"
         "  return (T *)__jacc_bfail(t, off, sizeof(T), param, line, col, how, 0, 0);\n"
         "}\n"
         "template <class T> static __device__ inline T *__jacc_bowned(const jacc_team_view *t,\n"
         "    T *p, const void *base, long long lo, long long hi, long long pitch, long long lb,\n"
         "    long long ub, int param, int line, int col, int how) {\n"
         "  long long off = (const char *)p - (const char *)base;\n"
         "  long long at = pitch ? off - __jacc_floordiv(off, pitch) * pitch : off;\n"
         "  const long long *m = t->bounds + " + std::to_string(JACC_BOUNDS_RECORD_WORDS) +
         " + 2 * param;\n"
         "  bool mapped = off >= m[0] && off <= m[1] - (long long)sizeof(T);\n"
         "  if (mapped && at >= lo && at < hi) return p;\n"
         "  if (!mapped) return (T *)__jacc_bfail(t, off, sizeof(T), param, line, col, how & " +
         std::to_string(JACC_BOUNDS_OWNED - 1) + ", 0, 0);\n"
         "  return (T *)__jacc_bfail(t, off, sizeof(T), param, line, col, how, lb, ub);\n"
         "}\n";
}

/// How CUDA entries differ from other targets' (see EntryTarget): a grid of BlockSize-thread
/// blocks over the flattened iterations, C++ without variably modified types.
EntryTarget cudaEntryTarget(unsigned BlockSize) {
  EntryTarget T;
  // The block size is fixed: __launch_bounds__ lets NVRTC budget registers for it.
  T.EntryPrefix =
      "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(BlockSize) + ") ";
  T.TeamParam = "jacc_cuda_team __jacc_team";
  T.TeamView =
      "const jacc_team_view __jacc_tv = {(long long)blockIdx.x * blockDim.x + threadIdx.x,\n"
      "  (long long)gridDim.x * blockDim.x, __jacc_team.share_begin, __jacc_team.share_end,\n"
      "  __jacc_team.share_scale, __jacc_team.narrow, __jacc_team.split_info,\n"
      "  __jacc_team.reduction, __jacc_team.bounds};\n"
      "const jacc_team_view *__jacc_t = &__jacc_tv;\n";
  T.Barrier = "\n__jacc_grid_sync(__jacc_team.barrier);\n";
  T.Infinity = CudaInfinity;
  T.FlatVlaPointers = true;
  T.CastFoldedLiterals = true;
  T.SharesInnerLoops = true;
  T.IterationLoop = cudaIterationLoop;
  T.NestTrailer = cudaNestTrailer;
  T.ReductionWriteBack = cudaReductionWriteBack;
  T.AtomicText = cudaAtomicText;
  T.BoundsCheckOpen = cudaBoundsOpen;
  T.BoundsCheckClose = cudaBoundsClose;
  return T;
}

} // namespace

std::vector<unsigned> cudaParamOffsets(const std::vector<CudaParam> &Params, unsigned &Size) {
  std::vector<unsigned> Offsets;
  unsigned Off = 0;
  for (const CudaParam &P : Params) {
    unsigned A = P.Align ? P.Align : 1;
    Off = (Off + A - 1) / A * A;
    Offsets.push_back(Off);
    Off += P.Size;
  }
  Size = Off;
  return Offsets;
}

BlockGeometry cudaBlockGeometry(const KernelInfo &K, const Specialization *Spec) {
  if (unsigned V = constantClause(K.Construct, ClauseKind::VectorLength, Spec))
    // Whole warps: the reductions need them.
    return {std::min(1024u, (V + 31) / 32 * 32), "vector_length(" + std::to_string(V) + ")"};
  if (unsigned N = blockSizeOverride())
    return {N, "JACC_CUDA_BLOCK_SIZE"};
  return chooseBlockGeometry(K.Traits);
}

llvm::Expected<CudaKernelSource> generateCudaSource(const KernelInfo &K, bool Split,
                                                    const Specialization *Spec) {
  if (!K.FlatVla.Unsupported.empty())
    return makeError(ErrorCode::Unsupported,
                     "the kernel cannot run on a CUDA device: " + K.FlatVla.Unsupported);
  if (Spec)
    if (auto E = checkSpecialization(K, *Spec))
      return E;
  Split = Split && K.Split.Enabled;
  CudaKernelSource S;
  S.Entry = Split ? SplitEntryName : EntryName;
  std::vector<const ArgInfo *> Params(K.Args.size());
  for (const ArgInfo &A : K.Args)
    Params[A.Param] = &A;
  // NVHPC refuses long double on GPUs too.
  for (const ReductionVar &R : K.Reductions)
    if (R.Type == ScalarType::F80 || R.Type == ScalarType::C80)
      return makeError(ErrorCode::Unsupported, "reduction(" + std::string(reductionOpName(R.Op)) +
                                                   ":" + R.Name + "): CUDA devices cannot reduce " +
                                                   scalarTypeName(R.Type) + ": " +
                                                   "reduce into a double");
  for (const ArgInfo *A : Params) {
    // An array of long double _Complex too: the template has no long double.
    llvm::StringRef Decl(A->Decl);
    if ((A->ArgKind == ArgInfo::Kind::Scalar &&
         (A->Scalar == ScalarType::F80 || A->Scalar == ScalarType::C80)) ||
        (Decl.contains("long double") && Decl.contains("_Complex")))
      return makeError(ErrorCode::Unsupported, "argument '" + A->Decl +
                                                   "': CUDA devices have no long double; pass a "
                                                   "double");
    S.Params.push_back({A->Name, unsigned(A->Size), unsigned(A->Align)});
  }
  if (Split)
    for (const SplitArray &A : K.Split.Plan.Arrays) {
      S.Params.push_back({"__jacc_mlo_" + A.Name, 8, 8});
      S.Params.push_back({"__jacc_mhi_" + A.Name, 8, 8});
    }
  S.Params.push_back({"__jacc_team", sizeof(jacc_cuda_team), alignof(jacc_cuda_team)});

  std::string Defs;
  bool ComplexHeader = false;
  auto Leading = mapIncludes(K, Defs, ComplexHeader);
  if (!Leading)
    return Leading.takeError();
  S.GridSync = !K.Serial && entryHasBarrier(K);
  BlockGeometry Block = cudaBlockGeometry(K, Spec);
  S.BlockSize = Block.BlockSize;
  S.NumGangs = constantClause(K.Construct, ClauseKind::NumGangs, Spec);

  // NVRTC's C++ has no _Complex: C's complex types become a template of the same layout.
  bool UsesComplex = ComplexHeader;
  std::string Kernel = spellComplexForCuda(*Leading, ComplexHeader, UsesComplex);
  std::string Entry = spellComplexForCuda(
      generateEntry(K, Split, cudaEntryTarget(S.BlockSize), Spec), ComplexHeader, UsesComplex);

  std::string &C = S.Source;
  C = "#line 1 \"<jacc>\"\n";
  C += CudaABIText;
  C += "\n";
  C += CudaHelpers;
  if (UsesComplex)
    C += JACC_CUDA_COMPLEX_TEXT "\n";
  C += Defs;
  // C89 code declares its own bool, a keyword in CUDA C++: theirs is renamed (_Bool stays C++'s).
  if (analysis::definesBool(*Leading))
    C += "typedef bool __jacc_cxx_bool;\n#undef _Bool\n#define _Bool __jacc_cxx_bool\n"
         "#define bool __jacc_kernel_bool\n";
  C += "#line 1 \"kernel\"\n";
  C += Kernel;
  C += "\n#line 1 \"<jacc>\"\n";
  if (K.CheckBounds)
    C += cudaBoundsHelpers(K.Args.size());
  C += "/* jacc: " + std::to_string(S.BlockSize) + " threads per block (" + Block.Why +
       "); access traits: " + analysis::describeTraits(K.Traits) + " */\n";
  C += Entry;
  return S;
}

} // namespace jacc::jit
