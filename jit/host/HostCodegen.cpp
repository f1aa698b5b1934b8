#include "jit/host/HostCodegen.h"

#include "jit/host/HostABI.h"

namespace jacc::jit {

static const char *HostABIText = JACC_HOST_ABI_TEXT;

std::string generateHostSource(const analysis::KernelInfo &K, bool Split,
                               const Specialization *Spec) {
  std::string C = HostABIText;
  C += "\n#line 1 \"kernel\"\n";
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
  C += generateEntry(K, Split && K.Split.Enabled, CodegenTarget::Host, Spec);
  return C;
}

} // namespace jacc::jit
