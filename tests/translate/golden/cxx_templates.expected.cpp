#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#include <jacc/jacc.hpp>
#line 1 "cxx_templates.cpp"
// Compute constructs in templates: calls that depend on a template parameter (std::sqrt, std::max,
// std::abs of T, a routine given a T) lowered in each instantiation, one kernel text per group of
// instantiations that lower alike, chosen by the parameters; casts to T kept as T; a member of a
// class template (its parameters and data members); a template never instantiated.
#include <algorithm>
#include <cmath>

/* #pragma acc routine seq */
__attribute__((unused))
#line 9 "cxx_templates.cpp"
static double square(double x) { return x * x; }

template <typename T, int K> void scale(int n, T *x, T lo) {
{ /* #pragma acc parallel loop copy(x[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_templates.cpp", 12, "scale");
  jacc_translated_check(jacc_copyin(&x[0], n * sizeof x[0]), "cxx_templates.cpp:12");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"T *x", (void *)&x}, {"T lo", (void *)&lo}};
  static const std::string jacc_kernel_source = std::string() + "typedef " + jacc::detail::declare<T>("T") + ";\n" + "enum { K = " + std::to_string((long long)(K)) + " };\n" + ((std::is_same<T, float>::value && (long long)(K) == 2LL)
      ? std::string(
      "static inline float jacc_max_float(float a, float b) { return a < b ? b : a; }\n"
      "#pragma acc routine seq\n"
      "static double square(double x) { return x * x; }\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    x[i] = jacc_max_float(sqrtf(fabsf(x[i])) * K, lo) + (T)(square(x[i]));\n"
      "// jacc-site: cxx_templates.cpp:12\n")
      : std::string(
      "static inline double jacc_max_double(double a, double b) { return a < b ? b : a; }\n"
      "#pragma acc routine seq\n"
      "static double square(double x) { return x * x; }\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    x[i] = jacc_max_double(sqrt(fabs(x[i])) * K, lo) + (T)(square(x[i]));\n"
      "// jacc-site: cxx_templates.cpp:12\n"));
  jacc_translated_check(jacc_kernel_push(jacc_kernel_source.c_str(),
      3, jacc_args, JACC_DEFAULT), "cxx_templates.cpp:12");
  jacc_translated_check(jacc_copyout(&x[0], n * sizeof x[0]), "cxx_templates.cpp:12");
  jacc_construct_end();
}
#line 15 "cxx_templates.cpp"
}

template <typename T> struct Field {
  T *u;
  int n;
  T decay;
  void damp(T w) {
{ /* #pragma acc parallel loop present(u[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_templates.cpp", 22, "damp");
  jacc_translated_present((void *)&u[0], n * sizeof u[0], "cxx_templates.cpp:22", "u[0:n]");
  jacc_arg jacc_args[] = {{"int n", (void *)&this->n}, {"T *u", (void *)&this->u}, {"T decay", (void *)&this->decay}, {"T w", (void *)&w}};
  static const std::string jacc_kernel_source = std::string() + "typedef " + jacc::detail::declare<T>("T") + ";\n" + ((std::is_same<T, float>::value)
      ? std::string(
      "#pragma acc parallel loop\n"
      "    for (int i = 0; i < n; i++)\n"
      "      u[i] = expf(-decay * w) * u[i] + (T)(i % 2);\n"
      "// jacc-site: cxx_templates.cpp:22\n")
      : std::string(
      "#pragma acc parallel loop\n"
      "    for (int i = 0; i < n; i++)\n"
      "      u[i] = exp(-decay * w) * u[i] + (T)(i % 2);\n"
      "// jacc-site: cxx_templates.cpp:22\n"));
  jacc_translated_check(jacc_kernel_push(jacc_kernel_source.c_str(),
      4, jacc_args, JACC_DEFAULT), "cxx_templates.cpp:22");
  jacc_construct_end();
}
#line 25 "cxx_templates.cpp"
  }
};

template <typename T> void unused(int n, T *x) {
{ /* #pragma acc parallel loop copy(x[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_templates.cpp", 29, "unused");
  jacc_translated_check(jacc_copyin(&x[0], n * sizeof x[0]), "cxx_templates.cpp:29");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"T *x", (void *)&x}};
  static const std::string jacc_kernel_source = std::string() + "typedef " + jacc::detail::declare<T>("T") + ";\n" + std::string(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    x[i] = std::cos(x[i]);\n"
      "// jacc-site: cxx_templates.cpp:29\n");
  jacc_translated_check(jacc_kernel_push(jacc_kernel_source.c_str(),
      2, jacc_args, JACC_DEFAULT), "cxx_templates.cpp:29");
  jacc_translated_check(jacc_copyout(&x[0], n * sizeof x[0]), "cxx_templates.cpp:29");
  jacc_construct_end();
}
#line 32 "cxx_templates.cpp"
}

void run(int n, float *f, double *d) {
  scale<float, 2>(n, f, 0.5f);
  scale<double, 2>(n, d, 0.5);
  scale<double, 3>(n, d, 0.25);
  Field<float> a{f, n, 0.5f};
  Field<double> b{d, n, 0.25};
  a.damp(2);
  b.damp(4);
}
