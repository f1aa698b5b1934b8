#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#include <jacc/jacc.hpp>
#line 1 "cxx_routines.cpp"
// C++ routines as kernels carry them: bodies lowered as constructs' are, a non-const reference
// parameter as a pointer (its arguments passed by address), a const reference as a value where
// the routine cannot write through its parameters and as a pointer where it can, constexpr
// globals as constants, a namespace's routine by its bare name, an auto return type deduced,
// constexpr, noexcept and default arguments dropped, std::max helpers shared with the construct;
// instances of a class template as C structs.
#include <algorithm>
#include <cmath>

struct Vec {
  double x, y;
};

namespace phys {
constexpr double G = 9.81;
constexpr float Half = 0.5f;
constexpr int Three = 3;
} // namespace phys

/* #pragma acc routine seq */
__attribute__((unused))
#line 21 "cxx_routines.cpp"
static inline double norm(const Vec &v) { return std::sqrt(v.x * v.x + v.y * v.y); }

/* #pragma acc routine seq */
void accumulate(double &sum, const double &w, double v) {
  auto t = static_cast<double>(v) * w;
  sum += std::max(t, 0.0);
}

/* #pragma acc routine seq */
constexpr double scale(double x, double s = 2.0) noexcept { return x * s * phys::G; }

namespace geo {
/* #pragma acc routine seq */
auto area(float r) { return phys::Half * r * r * phys::Three; }
} // namespace geo

/* #pragma acc routine vector */
void smooth(int n, const double *in, double &out) {
  double s = 0;
/* #pragma acc loop reduction(+:s) */
  for (int k = 0; k < n; k++)
    s += in[k];
  out = std::max(s / n, 0.0);
}

void step(int n, Vec *v, double *out, float *f) {
{ /* #pragma acc parallel loop copyin(v[0:n]) copy(out[0:n], f[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_routines.cpp", 47, "step");
  jacc_translated_check(jacc_copyin(&v[0], n * sizeof v[0]), "cxx_routines.cpp:47");
  jacc_translated_check(jacc_copyin(&out[0], n * sizeof out[0]), "cxx_routines.cpp:47");
  jacc_translated_check(jacc_copyin(&f[0], n * sizeof f[0]), "cxx_routines.cpp:47");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"Vec *v", (void *)&v}, {"double *out", (void *)&out}, {"float *f", (void *)&f}};
  jacc_translated_check(jacc_kernel_push(
      "struct Vec { double x; double y; }; typedef struct Vec Vec;\n"
      "static const double G = 9.81;\n"
      "static const float Half = 0.5f;\n"
      "static const int Three = 3LL;\n"
      "static inline double jacc_max_double(double a, double b) { return a < b ? b : a; }\n"
      "#pragma acc routine seq\n"
      "static inline double norm(const Vec v) { return sqrt(v.x * v.x + v.y * v.y); }\n"
      "#pragma acc routine seq\n"
      "static void accumulate(double *sum, const double *w, double v) {\n"
      "  double t = (double)(v) * (*w);\n"
      "  (*sum) += jacc_max_double(t, 0.0);\n"
      "}\n"
      "#pragma acc routine seq\n"
      "static inline double scale(double x, double s)  { return x * s * G; }\n"
      "#pragma acc routine seq\n"
      "static float area(float r) { return Half * r * r * Three; }\n"
      "#pragma acc routine vector\n"
      "static void smooth(int n, const double *in, double *out) {\n"
      "  double s = 0;\n"
      "/* #pragma acc loop reduction(+:s): sequential in a routine */\n"
      "  for (int k = 0; k < n; k++)\n"
      "    s += in[k];\n"
      "  (*out) = jacc_max_double(s / n, 0.0);\n"
      "}\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    double s = 0;\n"
      "    const double w = norm(v[i]), h = 0.5 * i;\n"
      "    accumulate(&(s), &(w), scale(v[i].x, 1.5));\n"
      "    accumulate(&(s), &(h), 1.0);\n"
      "    double m;\n"
      "    smooth(4, out, &(m));\n"
      "    out[i] = jacc_max_double(s, m);\n"
      "    f[i] = area(f[i]);\n"
      "  }\n"
      "// jacc-site: cxx_routines.cpp:47\n",
      4, jacc_args, JACC_DEFAULT), "cxx_routines.cpp:47");
  jacc_translated_check(jacc_delete(&v[0], n * sizeof v[0]), "cxx_routines.cpp:47");
  jacc_translated_check(jacc_copyout(&f[0], n * sizeof f[0]), "cxx_routines.cpp:47");
  jacc_translated_check(jacc_copyout(&out[0], n * sizeof out[0]), "cxx_routines.cpp:47");
  jacc_construct_end();
}
#line 58 "cxx_routines.cpp"
}

// Instances of a class template: a C struct of each instance's members, named by the instance
// (Pair__double), in the kernel's variables, its routine's parameters, a typedef and a cast.
template <typename T> struct Pair {
  T *first;
  long n;
  T &operator[](long i) { return first[i]; }
};
typedef Pair<float> FloatPair;

/* #pragma acc routine seq */
double at(const Pair<double> *p, const FloatPair &q, long i) {
  return p->first[i] + q.first[i];
}

// Lambdas variables hold: routines the kernel calls by the variable's name, each head rewritten
// as a function's (a trailing return type and specifiers gone), bound as functions are.
auto twice = [](double x) mutable -> double { return 2 * x; };
auto host_sq = [](const double &x) { return x * x; };
auto dev_sq = [](const double &x) noexcept { return x * x; };
/* #pragma acc routine(host_sq) seq bind(dev_sq) */

void pairs(Pair<double> p, FloatPair q, double *out) {
{ /* #pragma acc parallel loop copyin(p, p.first [0:p.n], q, q.first [0:q.n]) copyout(out [0:p.n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "cxx_routines.cpp", 82, "pairs");
  jacc_translated_check(jacc_copyin(&p, sizeof p), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_copyin((void *)&p.first[0], (p.n) * sizeof p.first[0]), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_attach((void **)&(p.first)), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_copyin(&q, sizeof q), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_copyin((void *)&q.first[0], (q.n) * sizeof q.first[0]), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_attach((void **)&(q.first)), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_create(&out[0], (p.n) * sizeof out[0]), "cxx_routines.cpp:82");
  jacc_arg jacc_args[] = {{"Pair__double p", (void *)&p}, {"double *out", (void *)&out}, {"FloatPair q", (void *)&q}};
  jacc_translated_check(jacc_kernel_push(
      "struct Pair__float { float *first; long n; }; typedef struct Pair__float Pair__float;\n"
      "struct Pair__double { double *first; long n; }; typedef struct Pair__double Pair__double;\n"
      "typedef Pair__float FloatPair;\n"
      "#define host_sq dev_sq /* routine bind */\n"
      "#pragma acc routine seq\n"
      "static double at(const Pair__double *p, const FloatPair *q, long i) {\n"
      "  return p->first[i] + (*q).first[i];\n"
      "}\n"
      "#pragma acc routine seq\n"
      "static double twice(double x) { return 2 * x; }\n"
      "#pragma acc routine seq\n"
      "static double dev_sq(const double x) { return x * x; }\n"
      "#pragma acc parallel loop\n"
      "  for (long i = 0; i < p.n; i++)\n"
      "    out[i] = at(&p, &(q), i) + ((Pair__double *)&p)->n + twice(host_sq(p.first[i]));\n"
      "// jacc-site: cxx_routines.cpp:82\n",
      3, jacc_args, JACC_DEFAULT), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_detach((void **)&(q.first), 0), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_detach((void **)&(p.first), 0), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_delete((void *)&q.first[0], (q.n) * sizeof q.first[0]), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_delete(&q, sizeof q), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_delete((void *)&p.first[0], (p.n) * sizeof p.first[0]), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_delete(&p, sizeof p), "cxx_routines.cpp:82");
  jacc_translated_check(jacc_copyout(&out[0], (p.n) * sizeof out[0]), "cxx_routines.cpp:82");
  jacc_construct_end();
}
#line 85 "cxx_routines.cpp"
}

/* The routines of this file, for the kernels of other files. */
__attribute__((constructor)) static void jacc_define_routines(void) {
  jacc_translated_check(jacc_define_routine("accumulate",
      "static inline double jacc_max_double(double a, double b) { return a < b ? b : a; }\n"
      "// jacc-item\n"
      "#pragma acc routine seq\n"
      "static void accumulate(double *sum, const double *w, double v) {\n"
      "  double t = (double)(v) * (*w);\n"
      "  (*sum) += jacc_max_double(t, 0.0);\n"
      "}\n"
      "// jacc-item\n"
      "// jacc-site: cxx_routines.cpp:24\n"), "cxx_routines.cpp:24");
  jacc_translated_check(jacc_define_routine("area",
      "static const float Half = 0.5f;\n"
      "// jacc-item\n"
      "static const int Three = 3LL;\n"
      "// jacc-item\n"
      "#pragma acc routine seq\n"
      "static float area(float r) { return Half * r * r * Three; }\n"
      "// jacc-item\n"
      "// jacc-site: cxx_routines.cpp:34\n"), "cxx_routines.cpp:34");
  jacc_translated_check(jacc_define_routine("at",
      "struct Pair__float { float *first; long n; }; typedef struct Pair__float Pair__float;\n"
      "// jacc-item\n"
      "struct Pair__double { double *first; long n; }; typedef struct Pair__double Pair__double;\n"
      "// jacc-item\n"
      "typedef Pair__float FloatPair;\n"
      "// jacc-item\n"
      "#pragma acc routine seq\n"
      "static double at(const Pair__double *p, const FloatPair *q, long i) {\n"
      "  return p->first[i] + (*q).first[i];\n"
      "}\n"
      "// jacc-item\n"
      "// jacc-site: cxx_routines.cpp:70\n"), "cxx_routines.cpp:70");
  jacc_translated_check(jacc_define_routine("scale",
      "static const double G = 9.81;\n"
      "// jacc-item\n"
      "#pragma acc routine seq\n"
      "static inline double scale(double x, double s)  { return x * s * G; }\n"
      "// jacc-item\n"
      "// jacc-site: cxx_routines.cpp:30\n"), "cxx_routines.cpp:30");
  jacc_translated_check(jacc_define_routine("smooth",
      "static inline double jacc_max_double(double a, double b) { return a < b ? b : a; }\n"
      "// jacc-item\n"
      "#pragma acc routine vector\n"
      "static void smooth(int n, const double *in, double *out) {\n"
      "  double s = 0;\n"
      "/* #pragma acc loop reduction(+:s): sequential in a routine */\n"
      "  for (int k = 0; k < n; k++)\n"
      "    s += in[k];\n"
      "  (*out) = jacc_max_double(s / n, 0.0);\n"
      "}\n"
      "// jacc-item\n"
      "// jacc-site: cxx_routines.cpp:38\n"), "cxx_routines.cpp:38");
}
#line 86 "cxx_routines.cpp"
