// Compute constructs in templates: calls that depend on a template parameter (std::sqrt, std::max,
// std::abs of T, a routine given a T) lowered in each instantiation, one kernel text per group of
// instantiations that lower alike, chosen by the parameters; casts to T kept as T; a member of a
// class template (its parameters and data members); a template never instantiated.
#include <algorithm>
#include <cmath>

#pragma acc routine seq
static double square(double x) { return x * x; }

template <typename T, int K> void scale(int n, T *x, T lo) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = std::max(std::sqrt(std::abs(x[i])) * K, lo) + static_cast<T>(square(x[i]));
}

template <typename T> struct Field {
  T *u;
  int n;
  T decay;
  void damp(T w) {
#pragma acc parallel loop present(u[0:n])
    for (int i = 0; i < n; i++)
      u[i] = std::exp(-decay * w) * u[i] + T(i % 2);
  }
};

template <typename T> void unused(int n, T *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = std::cos(x[i]);
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
