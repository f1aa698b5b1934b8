// The declarations the kernel fuzzers give a kernel: those of a fixed set of arguments (scalars
// and arrays) that its text names, as a translated program declares only what a kernel uses.
#ifndef JACC_TESTS_FUZZ_KERNELARGS_H
#define JACC_TESTS_FUZZ_KERNELARGS_H

#include "support/CText.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace jacc::fuzz {

/// The declarations of the arguments among n, m, a, s, t, x and y that Source names.
inline std::vector<std::string> kernelDecls(const std::string &Source) {
  static const std::pair<const char *, const char *> Args[] = {
      {"n", "int n"},   {"m", "int m"},    {"a", "float a"}, {"s", "float s"},
      {"t", "float t"}, {"x", "float *x"}, {"y", "float *y"}};
  std::vector<std::string> Names = identifiersIn(Source), Decls;
  for (const auto &[Name, Decl] : Args)
    if (std::find(Names.begin(), Names.end(), Name) != Names.end())
      Decls.push_back(Decl);
  return Decls;
}

} // namespace jacc::fuzz

#endif
