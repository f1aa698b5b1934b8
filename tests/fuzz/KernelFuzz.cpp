// A standalone mutation fuzzer of the kernel frontend: whole kernels of our own, mutated (see
// Mutator.h), through the analysis (clang's parser on the wrapped kernel, then every pass:
// SSA, split plan, predicates, rewrite) and, for the kernels that analyse, the host and CUDA code
// generators. Each must return a value or an error, never crash; a mutant that analyses becomes
// a parent. Compiles are not run (a few milliseconds each; the compile server isolates them).
//   fuzz-kernels [executions] [seed]    (defaults: 2000, 1)
#include "analysis/Pipeline.h"
#include "jit/cuda/CudaCodegen.h"
#include "jit/host/HostCodegen.h"

#include "tests/fuzz/KernelArgs.h"
#include "tests/fuzz/Mutator.h"

#include <llvm/Support/Error.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace jacc;

namespace {

/// Kernels over the arguments of Decls below: loops, regions, reductions, atomics, stencils.
const char *const Seeds[] = {
    "#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n  y[i] = a * x[i] + y[i];\n",
    "#pragma acc parallel loop reduction(+:s)\nfor (int i = 0; i < n; i++)\n  s += x[i] * y[i];\n",
    "#pragma acc parallel loop collapse(2) present(x, y)\nfor (int i = 1; i < n - 1; i++)\n"
    "  for (int j = 1; j < m - 1; j++)\n"
    "    y[i * m + j] = 0.25f * (x[(i - 1) * m + j] + x[(i + 1) * m + j] + x[i * m + j - 1] +\n"
    "                            x[i * m + j + 1]);\n",
    "#pragma acc kernels\n{\n  for (int i = 0; i < n; i++) y[i] = x[i];\n"
    "  for (int i = 0; i < n; i++) x[i] = 2 * y[n - 1 - i];\n}\n",
    "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) {\n  float t = x[i];\n"
    "  if (t > a) t = a;\n#pragma acc atomic update\n  s += t;\n}\n",
    "#pragma acc parallel loop gang\nfor (int i = 0; i < n; i++) {\n"
    "#pragma acc loop vector reduction(max:a)\n  for (int j = 0; j < m; j++)\n"
    "    a = a > x[i * m + j] ? a : x[i * m + j];\n  y[i] = a;\n}\n",
    "#pragma acc serial\n{\n  for (int i = 1; i < n; i++) y[i] = y[i - 1] + x[i];\n}\n",
    "#pragma acc parallel loop private(t)\nfor (int i = 0; i < n; i += 2) {\n  t = x[i];\n"
    "  y[i / 2] = t * t;\n}\n",
};
const char *const Tokens[] = {"(", ")", "[", "]", "{", "}", ";", ",", "*", "-", "+", "0", "i",
                              "j", "n", "x[i]", "y[", "for (int k = 0; k < n; k++) ",
                              "#pragma acc loop\n", "#pragma acc atomic\n", "if (i) ", "return;",
                              "goto L;", "L: ", "while (1) ", "break;", "\n", "\\\n", "/*", "*/",
                              "//", "\"", "'", "\xe9", "99999999999", "(float)", "sizeof ",
                              "#define X\n", "#include <math.h>\n", "__builtin_trap()", "?:"};

/// Analyse one kernel and generate its code; errors are fine, crashes are not. True when the
/// kernel analysed.
bool runOne(const std::string &Source) {
  auto K = analysis::runAnalysis(Source, fuzz::kernelDecls(Source));
  if (!K) {
    llvm::consumeError(K.takeError());
    return false;
  }
  (void)jit::generateHostSource(*K);
  if (K->Split.Enabled)
    (void)jit::generateHostSource(*K, /*Split=*/true);
  for (bool Split : {false, true})
    if (auto C = jit::generateCudaSource(*K, Split); !C)
      llvm::consumeError(C.takeError());
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned long Executions = Argc > 1 ? std::strtoul(Argv[1], nullptr, 10) : 2000;
  uint64_t Seed = Argc > 2 ? std::strtoull(Argv[2], nullptr, 10) : 1;
  unsigned long Analysed =
      jacc::fuzz::runCampaign(Executions, Seed, Seeds, Tokens, 8192, 2048, runOne);
  std::printf("fuzz-kernels: %lu executions (%lu kernels analysed), no crash\n", Executions,
              Analysed);
  return 0;
}
