// Templates whose constructs cannot become kernels: what an instantiation resolves a dependent
// call to (a template of the program, a library function that is not C's math) is an error at
// the call, once for every instantiation; a template template parameter cannot be spelt.
#include <algorithm>

template <typename T> T twice(T x) { return 2 * x; }

template <typename T> void scale(int n, T *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = twice(x[i]) + std::clamp(x[i], T(0), T(1));
}

template <typename T> struct Box {
  T value;
};

template <template <typename> class Holder> void fill(int n, double *x) {
#pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++)
    x[i] = sizeof(Holder<double>);
}

void run(int n, float *f, double *d) {
  scale(n, f);
  scale(n, d);
  fill<Box>(n, d);
}
