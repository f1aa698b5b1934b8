// A standalone mutation fuzzer of the text parsers every kernel and translated program goes
// through before clang sees it: the OpenACC directive grammar (parseDirective), the pragma
// scanner and the kernel wrapper (scanPragmas, wrapKernel), and reduction items. Each input is
// a seed of our own mutated by byte flips, insertions of grammar tokens, deletions and splices;
// every parser must return a value or an error, never crash (the sanitized CI pass runs it under
// ASan and UBSan too).
//   fuzz-directives [executions] [seed]    (defaults: 20000, 1)
#include "analysis/Directive.h"
#include "analysis/KernelSource.h"
#include "analysis/ReductionItem.h"

#include "tests/fuzz/Mutator.h"

#include <llvm/Support/Error.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace jacc::analysis;

namespace {

const char *const Seeds[] = {
    "parallel loop gang vector_length(128) copyin(a[0:n]) copyout(b[0:n]) reduction(+:s)",
    "kernels loop collapse(2) present(a, b) async(1) wait(2, 3)",
    "loop tile(8, *) reduction(max:m) private(t, u[0:4])",
    "serial firstprivate(p[lo:len]) default(none) if(n > 10) self(flag)",
    "data copy(c[0:n][0:m]) create(zero: d[0:k]) attach(p) no_create(q)",
    "enter data copyin(readonly: x[1:n-1]) async",
    "exit data copyout(y[0:n]) delete(z) finalize if_present",
    "update host(a[0:n]) device(b[i:2]) if_present",
    "atomic capture",
    "routine gang bind(\"f\") nohost",
    "loop collapse(force:3) independent seq auto worker(4) vector(32)",
    "parallel num_gangs(n, 2, 1) num_workers(w) device_type(nvidia) reduction(&&:ok)",
    "host_data use_device(a, b) if(use)",
    "declare create(g) copyin(h[0:4]) device_resident(r) link(l)",
    "set device_num(1) device_type(host) default_async(3)",
    "wait(1, 2) async(3)",
    "cache(a[i:3], b[j])",
};

const char *const Tokens[] = {"(", ")", "[", "]", ":", ",", " ", "\\\n", "*", "-", "+", "0",
                              "99999999999", "force:", "zero:", "readonly:", "reduction(", "&&",
                              "||", "^", "max", "copy(", "a[", "\"", "'", "/*", "*/", "//",
                              "\n", "\r\n", "\t", "\xe9", "\xff", "#pragma acc ", "acc"};

/// Run every parser on one input; errors are fine, crashes are not. True when the directive
/// parsed (the count says the mutants still reach past the grammar's first checks).
bool runOne(const std::string &Text) {
  llvm::Expected<Directive> D = parseDirective(Text, 1);
  bool Parsed = bool(D);
  if (!D)
    llvm::consumeError(D.takeError());
  llvm::consumeError(parseReductionItem(Text).takeError());
  std::string Source = "#pragma acc " + Text + "\nfor (int i = 0; i < n; i++) x[i] = 0;\n";
  for (const PragmaLine &P : scanPragmas(Source))
    llvm::consumeError(parseDirective(P.Text, P.Line).takeError());
  llvm::Expected<WrappedKernel> W = wrapKernel(Source, {"int *x", Text});
  if (!W)
    llvm::consumeError(W.takeError());
  return Parsed;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned long Executions = Argc > 1 ? std::strtoul(Argv[1], nullptr, 10) : 20000;
  uint64_t Seed = Argc > 2 ? std::strtoull(Argv[2], nullptr, 10) : 1;
  unsigned long Parsed =
      jacc::fuzz::runCampaign(Executions, Seed, Seeds, Tokens, 4096, 4096, runOne);
  std::printf("fuzz-directives: %lu executions (%lu valid directives), no crash\n", Executions,
              Parsed);
  return 0;
}
