#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#include <jacc/jacc.hpp>
#line 1 "cxx_kernels.cpp"
// C++ in compute constructs, rewritten into C kernels: std:: math of the overload clang resolved,
// std::min/max helpers, casts, nullptr and bool literals, constexpr, auto (plain, pointer and
// reference), local references, data members through this, classes as C structs, a function
// template's parameters. tests/translate/CxxKernelTest.cpp compiles every kernel with NVRTC.
#include <algorithm>
#include <cmath>
#include <cstdlib>

struct Vec {
  double x, y;
};

namespace phys {
constexpr double Drag = 0.25;
}

void math(int n, float *f, double *d, long *l, int *k) {
{ /* #pragma acc parallel loop copy(f[0:n], d[0:n], l[0:n], k[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_kernels.cpp", 18, "math");
  jacc_translated_check(jacc_copyin(&f[0], n * sizeof f[0]), "cxx_kernels.cpp:18");
  jacc_translated_check(jacc_copyin(&d[0], n * sizeof d[0]), "cxx_kernels.cpp:18");
  jacc_translated_check(jacc_copyin(&l[0], n * sizeof l[0]), "cxx_kernels.cpp:18");
  jacc_translated_check(jacc_copyin(&k[0], n * sizeof k[0]), "cxx_kernels.cpp:18");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *f", (void *)&f}, {"double *d", (void *)&d}, {"long *l", (void *)&l}, {"int *k", (void *)&k}};
  jacc_translated_check(jacc_kernel_push(
      "static inline int jacc_max_int(int a, int b) { return a < b ? b : a; }\n"
      "static inline long jacc_max_long(long a, long b) { return a < b ? b : a; }\n"
      "static inline long jacc_min_long(long a, long b) { return b < a ? b : a; }\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    f[i] = sqrtf(f[i]) + expf(f[i] * 0.01f) + fabsf(-f[i]) + powf(f[i], 2.0f);\n"
      "    d[i] = sqrt(d[i]) + pow(d[i], 2) + fabs(-d[i]) + floor(d[i] / 3);\n"
      "    l[i] = labs(l[i]) + jacc_max_long(l[i], 3L) + jacc_min_long(l[i], k[i]);\n"
      "    k[i] = abs(k[i]) + jacc_max_int(k[i], 1) + (int)(fminf(f[i], 2.0f));\n"
      "  }\n"
      "// jacc-site: cxx_kernels.cpp:18\n",
      5, jacc_args, JACC_DEFAULT), "cxx_kernels.cpp:18");
  jacc_translated_check(jacc_copyout(&k[0], n * sizeof k[0]), "cxx_kernels.cpp:18");
  jacc_translated_check(jacc_copyout(&l[0], n * sizeof l[0]), "cxx_kernels.cpp:18");
  jacc_translated_check(jacc_copyout(&d[0], n * sizeof d[0]), "cxx_kernels.cpp:18");
  jacc_translated_check(jacc_copyout(&f[0], n * sizeof f[0]), "cxx_kernels.cpp:18");
  jacc_construct_end();
}
#line 25 "cxx_kernels.cpp"
}

void vectors(int n, Vec *v, const double &dt) {
{ /* #pragma acc parallel loop copy(v[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_kernels.cpp", 28, "vectors");
  jacc_translated_check(jacc_copyin(&v[0], n * sizeof v[0]), "cxx_kernels.cpp:28");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"Vec *v", (void *)&v}, {"const double Drag", (void *)&phys::Drag}, {"const double dt", (void *)&dt}};
  jacc_translated_check(jacc_kernel_push(
      "struct Vec { double x; double y; }; typedef struct Vec Vec;\n"
      "static inline double jacc_max_double(double a, double b) { return a < b ? b : a; }\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    const double Half = 0.5;\n"
      "    Vec *const p = &(v[i]);\n"
      "    const Vec *q = &v[(i + 1) % n];\n"
      "    double *none = 0;\n"
      "    bool moving = (*p).x != q->x && none == 0;\n"
      "    double speed = hypot((*p).x, (*p).y) * Half;\n"
      "    double *const y = &((*p).y);\n"
      "    (*y) = moving ? (*y) - Drag * speed * dt : (double)(i);\n"
      "    (*p).x = jacc_max_double((*p).x, 0.0);\n"
      "  }\n"
      "// jacc-site: cxx_kernels.cpp:28\n",
      4, jacc_args, JACC_DEFAULT), "cxx_kernels.cpp:28");
  jacc_translated_check(jacc_copyout(&v[0], n * sizeof v[0]), "cxx_kernels.cpp:28");
  jacc_construct_end();
}
#line 40 "cxx_kernels.cpp"
}

class Particles {
public:
  void push(double dt) {
{ /* #pragma acc parallel loop present(x[0:n], u[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_kernels.cpp", 45, "push");
  jacc_translated_present((void *)&x[0], n * sizeof x[0], "cxx_kernels.cpp:45", "x[0:n]");
  jacc_translated_present((void *)&u[0], n * sizeof u[0], "cxx_kernels.cpp:45", "u[0:n]");
  jacc_arg jacc_args[] = {{"int n", (void *)&this->n}, {"double *x", (void *)&this->x}, {"double *u", (void *)&this->u}, {"double limit", (void *)&this->limit}, {"double dt", (void *)&dt}, {"const double Drag", (void *)&phys::Drag}};
  jacc_translated_check(jacc_kernel_push(
      "static inline double jacc_min_double(double a, double b) { return b < a ? b : a; }\n"
      "#pragma acc parallel loop\n"
      "    for (int i = 0; i < n; i++) {\n"
      "      x[i] += dt * u[i];\n"
      "      u[i] = jacc_min_double(u[i] * (1 - Drag), limit);\n"
      "    }\n"
      "// jacc-site: cxx_kernels.cpp:45\n",
      6, jacc_args, JACC_DEFAULT), "cxx_kernels.cpp:45");
  jacc_construct_end();
}
#line 50 "cxx_kernels.cpp"
  }

private:
  int n = 0;
  double *x = nullptr, *u = nullptr;
  double limit = 1;
};

template <typename T, int Width> void smooth(int n, const T *in, T *out) {
{ /* #pragma acc parallel loop copyin(in[0:n]) copyout(out[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_kernels.cpp", 59, "smooth");
  jacc_translated_check(jacc_copyin((void *)&in[0], n * sizeof in[0]), "cxx_kernels.cpp:59");
  jacc_translated_check(jacc_create(&out[0], n * sizeof out[0]), "cxx_kernels.cpp:59");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"const T *in", (void *)&in}, {"T *out", (void *)&out}};
  static const std::string jacc_kernel_source = std::string() + "typedef " + jacc::detail::declare<T>("T") + ";\n" + "enum { Width = " + std::to_string((long long)(Width)) + " };\n" + std::string(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    T s = 0;\n"
      "    for (int k = -Width; k <= Width; k++)\n"
      "      s += in[(i + k + n) % n];\n"
      "    out[i] = s / (T)(2 * Width + 1);\n"
      "  }\n"
      "// jacc-site: cxx_kernels.cpp:59\n");
  jacc_translated_check(jacc_kernel_push(jacc_kernel_source.c_str(),
      3, jacc_args, JACC_DEFAULT), "cxx_kernels.cpp:59");
  jacc_translated_check(jacc_delete((void *)&in[0], n * sizeof in[0]), "cxx_kernels.cpp:59");
  jacc_translated_check(jacc_copyout(&out[0], n * sizeof out[0]), "cxx_kernels.cpp:59");
  jacc_construct_end();
}
#line 66 "cxx_kernels.cpp"
}

void use(int n, float *a, float *b, Particles &p) {
  smooth<float, 2>(n, a, b);
  p.push(0.1);
}
