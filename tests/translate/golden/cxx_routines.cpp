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

#pragma acc routine seq
static inline double norm(const Vec &v) { return std::sqrt(v.x * v.x + v.y * v.y); }

#pragma acc routine seq
void accumulate(double &sum, const double &w, double v) {
  auto t = static_cast<double>(v) * w;
  sum += std::max(t, 0.0);
}

#pragma acc routine seq
constexpr double scale(double x, double s = 2.0) noexcept { return x * s * phys::G; }

namespace geo {
#pragma acc routine seq
auto area(float r) { return phys::Half * r * r * phys::Three; }
} // namespace geo

#pragma acc routine vector
void smooth(int n, const double *in, double &out) {
  double s = 0;
#pragma acc loop reduction(+:s)
  for (int k = 0; k < n; k++)
    s += in[k];
  out = std::max(s / n, 0.0);
}

void step(int n, Vec *v, double *out, float *f) {
#pragma acc parallel loop copyin(v[0:n]) copy(out[0:n], f[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0;
    const double w = norm(v[i]), h = 0.5 * i;
    accumulate(s, w, scale(v[i].x, 1.5));
    accumulate(s, h, 1.0);
    double m;
    smooth(4, out, m);
    out[i] = std::max(s, m);
    f[i] = geo::area(f[i]);
  }
}

// Instances of a class template: a C struct of each instance's members, named by the instance
// (Pair__double), in the kernel's variables, its routine's parameters, a typedef and a cast.
template <typename T> struct Pair {
  T *first;
  long n;
  T &operator[](long i) { return first[i]; }
};
typedef Pair<float> FloatPair;

#pragma acc routine seq
double at(const Pair<double> *p, const FloatPair &q, long i) {
  return p->first[i] + q.first[i];
}

// Lambdas variables hold: routines the kernel calls by the variable's name, each head rewritten
// as a function's (a trailing return type and specifiers gone), bound as functions are.
auto twice = [](double x) mutable -> double { return 2 * x; };
auto host_sq = [](const double &x) { return x * x; };
auto dev_sq = [](const double &x) noexcept { return x * x; };
#pragma acc routine(host_sq) seq bind(dev_sq)

void pairs(Pair<double> p, FloatPair q, double *out) {
#pragma acc parallel loop copyin(p, p.first [0:p.n], q, q.first [0:q.n]) copyout(out [0:p.n])
  for (long i = 0; i < p.n; i++)
    out[i] = at(&p, q, i) + ((Pair<double> *)&p)->n + twice(host_sq(p.first[i]));
}
