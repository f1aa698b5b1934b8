// Hostile input for the tests of jacc's limits: macros that double an expression Levels times.
#ifndef JACC_TESTS_DOUBLINGMACROS_H
#define JACC_TESTS_DOUBLINGMACROS_H

#include <string>

namespace jacc_test {

/// `#define A0 1`, `#define A1 (A0+A0)`, ... up to A<Levels>: A<Levels> is 2^Levels terms once
/// expanded.
inline std::string doublingMacros(int Levels) {
  std::string Text = "#define A0 1\n";
  for (int I = 1; I <= Levels; ++I)
    Text += "#define A" + std::to_string(I) + " (A" + std::to_string(I - 1) + "+A" +
            std::to_string(I - 1) + ")\n";
  return Text;
}

} // namespace jacc_test

#endif
