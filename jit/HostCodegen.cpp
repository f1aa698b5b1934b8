#include "HostCodegen.h"

#include "HostABI.h"
#include "TextEdits.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>

namespace jacc::jit {

using namespace analysis;

static const char *HostABIText = JACC_HOST_ABI_TEXT;

std::string reductionIdentity(ReductionOp Op, ScalarType T) {
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
      return Max ? "(-__builtin_inf())" : "(__builtin_inf())";
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

namespace {

std::string lineDirective(const KernelInfo &K, unsigned Offset) {
  llvm::StringRef S = K.Source;
  unsigned Line = 1 + S.take_front(Offset).count('\n');
  size_t LineStart = S.take_front(Offset).rfind('\n');
  unsigned Col = LineStart == llvm::StringRef::npos ? Offset : Offset - LineStart - 1;
  return "\n#line " + std::to_string(Line) + " \"kernel\"\n" + std::string(Col, ' ');
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

/// `T v = (T)(lo +/- idx * st);`
std::string loopVar(const CanonicalLoop &L, unsigned I, const std::string &Idx) {
  std::string N = std::to_string(I);
  return L.VarType + " " + L.Var + " = (" + L.VarType + ")(__jacc_lo" + N +
         (L.Increasing ? " + " : " - ") + "(" + Idx + ") * __jacc_st" + N + ");";
}

/// The text replacing a nest's loop headers; the innermost body follows it, then nestTrailer().
std::string nestHeader(const ParallelNest &N) {
  std::string H = "{ /* jacc: iterations shared among the team */\n";
  unsigned D = N.Loops.size();
  for (unsigned I = 0; I < D; ++I) {
    const CanonicalLoop &L = N.Loops[I];
    std::string S = std::to_string(I);
    H += "long long __jacc_lo" + S + " = (long long)(" + L.Lower + "), __jacc_hi" + S +
         " = (long long)(" + L.Upper + "), __jacc_st" + S + " = (long long)(" + L.Step + ");\n";
    H += "long long __jacc_n" + S + " = " + tripCount(L, I) + ";\n";
  }
  // This device's share of the outermost iterations, then this thread's part of it (flattened).
  H += "long long __jacc_inner = 1";
  for (unsigned I = 1; I < D; ++I)
    H += " * __jacc_n" + std::to_string(I);
  H += ";\nlong long __jacc_b, __jacc_e;\n"
       "__jacc_share(__jacc_t, __jacc_n0, __jacc_inner, &__jacc_b, &__jacc_e);\n";
  std::string Priv;
  for (const std::string &P : N.PrivateDecls)
    Priv += P + ";\n";
  if (D == 1) {
    H += "for (long long __jacc_k = __jacc_b; __jacc_k < __jacc_e; ++__jacc_k) {\n";
    H += loopVar(N.Loops[0], 0, "__jacc_k") + "\n" + Priv;
    return H;
  }
  std::string Last = std::to_string(D - 1);
  H += "for (long long __jacc_it = __jacc_b; __jacc_it < __jacc_e;) {\n"
       "long long __jacc_row = __jacc_it / __jacc_n" + Last + ";\n"
       "long long __jacc_c0 = __jacc_it - __jacc_row * __jacc_n" + Last + ";\n"
       "long long __jacc_c1 = __jacc_c0 + (__jacc_e - __jacc_it);\n"
       "if (__jacc_c1 > __jacc_n" + Last + ") __jacc_c1 = __jacc_n" + Last + ";\n"
       "__jacc_it += __jacc_c1 - __jacc_c0;\n";
  for (int I = D - 2; I >= 0; --I) {
    std::string S = std::to_string(I);
    if (I == 0) {
      H += loopVar(N.Loops[0], 0, "__jacc_row") + "\n";
    } else {
      H += loopVar(N.Loops[I], I, "__jacc_row % __jacc_n" + S) + "\n";
      H += "__jacc_row /= __jacc_n" + S + ";\n";
    }
  }
  H += "for (long long __jacc_k = __jacc_c0; __jacc_k < __jacc_c1; ++__jacc_k) {\n";
  H += loopVar(N.Loops[D - 1], D - 1, "__jacc_k") + "\n" + Priv;
  return H;
}

std::string nestTrailer(const ParallelNest &N) {
  return N.Loops.size() == 1 ? "\n}}\n" : "\n}}}\n";
}

const char *Barrier = "\n__jacc_t->barrier(__jacc_t->team);\n";

} // namespace

std::string generateHostSource(const KernelInfo &K) {
  std::string C = HostABIText;
  C += "\n#line 1 \"kernel\"\n";
  C += K.Source.substr(0, K.ConstructOffset);
  C += "\n#line 1 \"<jacc>\"\n";
  C += "static inline void __jacc_share(const jacc_host_team *t, long long outer, long long inner,\n"
       "                                long long *b, long long *e) {\n"
       "  long long lo = t->iter_begin > 0 ? t->iter_begin : 0;\n"
       "  long long hi = t->iter_end < outer ? t->iter_end : outer;\n"
       "  if (hi < lo) hi = lo;\n"
       "  long long n = (hi - lo) * inner;\n"
       "  *b = lo * inner + n * t->tid / t->nthreads;\n"
       "  *e = lo * inner + n * (t->tid + 1) / t->nthreads;\n"
       "}\n";
  // Parameters in ArgInfo::Param order.
  std::vector<const ArgInfo *> Params(K.Args.size());
  for (const ArgInfo &A : K.Args)
    Params[A.Param] = &A;
  C += "void ";
  C += HostEntryName;
  C += "(";
  std::string Prologue;
  for (const ArgInfo *A : Params) {
    if (A->ArgKind == ArgInfo::Kind::Aggregate) {
      std::string P = "__jacc_agg" + std::to_string(A->Param);
      C += "const void *" + P + ", ";
      Prologue += A->Decl + "; __builtin_memcpy(&" + A->Name + ", " + P + ", sizeof " + A->Name +
                  ");\n";
    } else {
      C += A->Decl + ", ";
    }
  }
  C += "const jacc_host_team *__jacc_t) {\n";
  C += Prologue;
  for (const ReductionVar &R : K.Reductions)
    C += R.Name + " = " + reductionIdentity(R.Op, R.Type) + ";\n";

  TextEdits Edits;
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
        Edits.insert(S.End, std::string("\n}") + (Last ? "\n" : Barrier));
        break;
      case RegionStmt::Mode::Shared: {
        const ParallelNest &N = K.Nests[S.Nest];
        unsigned BodyBegin = N.Loops.back().BodyBegin;
        Edits.replace(N.Loops.front().ForBegin, BodyBegin,
                      nestHeader(N) + lineDirective(K, BodyBegin));
        Edits.insert(N.Loops.back().BodyEnd, nestTrailer(N) + (Last ? "" : Barrier));
        break;
      }
      }
    }
  }
  C += lineDirective(K, K.BodyBegin);
  C += Edits.apply(K.Source, K.BodyBegin, K.BodyEnd);
  C += "\n#line 1 \"<jacc>\"\n";
  for (const ReductionVar &R : K.Reductions)
    C += "__builtin_memcpy((char *)__jacc_t->reduction + " + std::to_string(8 * R.Slot) + ", &" +
         R.Name + ", sizeof " + R.Name + ");\n";
  C += "}\n";
  return C;
}

} // namespace jacc::jit
