// Warm start from the disk cache against the cold compile of the same kernels, in one run (see
// docs/performance.md): for each kernel, the median time of compiling it (analysis, code
// generation, clang, linking) and of loading it from its disk cache entry (summary, object,
// checksum, JIT link, call interface). Target: a cached host kernel loads in under 2 ms.
#include "jit/CompiledKernel.h"
#include "jit/cache/DiskCache.h"
#include "jit/cache/KernelStore.h"

#include <llvm/Support/FileSystem.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace jacc::jit;

namespace {

struct Kernel {
  const char *Name;
  const char *Source;
  std::vector<std::string> Decls;
};

const Kernel Kernels[] = {
    {"saxpy",
     "#pragma acc parallel loop present(x, y)\nfor (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n",
     {"float *y", "const float *x", "float a", "int n"}},
    {"jacobi",
     "#pragma acc parallel loop collapse(2) present(in, out)\n"
     "for (int i = 1; i < n - 1; i++)\n  for (int j = 1; j < m - 1; j++)\n"
     "    out[i][j] = 0.25 * (in[i-1][j] + in[i+1][j] + in[i][j-1] + in[i][j+1]);\n",
     {"int n", "int m", "const double (*in)[m]", "double (*out)[m]"}},
    {"reduction",
     "#pragma acc parallel loop reduction(+:s) reduction(max:mx)\n"
     "for (int i = 0; i < n; i++) { s += x[i] * x[i]; mx = x[i] > mx ? x[i] : mx; }\n",
     {"const double *x", "int n", "double s", "double mx"}},
    {"mandelbrot",
     "#include <math.h>\n#pragma acc parallel loop present(out)\n"
     "for (int p = 0; p < w * h; p++) {\n"
     "  double cr = -2.0 + 3.0 * (p % w) / w, ci = -1.5 + 3.0 * (p / w) / h, zr = 0, zi = 0;\n"
     "  int k = 0;\n"
     "  while (k < iters && zr * zr + zi * zi < 4.0) {\n"
     "    double t = zr * zr - zi * zi + cr; zi = 2 * zr * zi + ci; zr = t; k++;\n"
     "  }\n  out[p] = k + sqrt((double)k);\n}\n",
     {"int w", "int h", "int iters", "int *out"}},
};

double ms(std::chrono::steady_clock::duration D) {
  return std::chrono::duration<double, std::milli>(D).count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  int ColdReps = argc > 1 ? std::atoi(argv[1]) : 5, WarmReps = argc > 2 ? std::atoi(argv[2]) : 50;
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("jacc-cache-bench", Dir)) {
    std::fprintf(stderr, "cannot create a temporary directory\n");
    return 1;
  }
  auto C = DiskCache::open(Dir.str().str(), 1ull << 30);
  if (!C) {
    std::fprintf(stderr, "%s\n", llvm::toString(C.takeError()).c_str());
    return 1;
  }
  auto Cache = std::make_shared<DiskCache>(std::move(*C));
  // Warm up the process (clang's precompiled header, the JIT) so the cold compile is a compile.
  (void)compileKernel(Kernels[0].Source, Kernels[0].Decls);

  std::printf("%-12s %14s %14s %10s %12s\n", "kernel", "cold (ms)", "warm (ms)", "ratio",
              "object (B)");
  double WorstWarm = 0;
  for (const Kernel &K : Kernels) {
    std::vector<double> Cold, Warm;
    for (int R = 0; R < ColdReps; ++R) {
      auto T = std::chrono::steady_clock::now();
      auto CK = compileKernel(K.Source, K.Decls);
      Cold.push_back(ms(std::chrono::steady_clock::now() - T));
      if (!CK) {
        std::fprintf(stderr, "%s: %s\n", K.Name, llvm::toString(CK.takeError()).c_str());
        return 1;
      }
    }
    DiskSlot Slot{Cache, diskCacheKey(K.Source, K.Decls, 0)};
    auto Stored = compileKernel(K.Source, K.Decls, Slot);
    if (!Stored) {
      std::fprintf(stderr, "%s: %s\n", K.Name, llvm::toString(Stored.takeError()).c_str());
      return 1;
    }
    for (int R = 0; R < WarmReps; ++R) {
      auto T = std::chrono::steady_clock::now();
      auto L = loadKernel(Slot);
      Warm.push_back(ms(std::chrono::steady_clock::now() - T));
      if (!L) {
        std::fprintf(stderr, "%s: not loaded from the cache\n", K.Name);
        return 1;
      }
    }
    double ColdMs = median(Cold), WarmMs = median(Warm);
    WorstWarm = std::max(WorstWarm, WarmMs);
    std::printf("%-12s %14.2f %14.3f %9.0fx %12zu\n", K.Name, ColdMs, WarmMs, ColdMs / WarmMs,
                (*Stored)->Object.size());
  }
  std::printf("slowest warm load: %.3f ms (target < 2 ms): %s\n", WorstWarm,
              WorstWarm < 2.0 ? "met" : "NOT met");
  llvm::sys::fs::remove_directories(Dir);
  return 0;
}
