// C++ templates: a kernel instantiated for float and double, and one with a value parameter
// (its kernel text spells each instantiation's T and K).
#include <cstdio>
#include <vector>

template <typename T> T axpy(int n, T a) {
  std::vector<T> xv(n), yv(n);
  T *x = xv.data(), *y = yv.data();
  for (int i = 0; i < n; i++) {
    x[i] = T(i) / 4;
    y[i] = 1;
  }
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++) {
    T t = a * x[i];
    y[i] = t + y[i];
  }
  T s = 0;
  for (int i = 0; i < n; i++)
    s += y[i];
  return s;
}

template <int K, typename T> void blur(int n, const T *in, T *out) {
#pragma acc parallel loop copyin(in[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
    T s = 0;
    for (int k = -K; k <= K; k++)
      s += in[(i + k + n) % n];
    out[i] = s / (2 * K + 1);
  }
}

int main() {
  std::printf("axpy float %.3f double %.6f\n", (double)axpy<float>(1000, 2.0f), axpy<double>(999, 0.5));
  std::vector<double> in(500), out(500);
  for (int i = 0; i < 500; i++)
    in[i] = (i * 37) % 11;
  blur<2>(500, in.data(), out.data());
  blur<5, double>(500, in.data(), out.data());
  double s = 0;
  for (double v : out)
    s += v;
  std::printf("blur %.6f out[7] %.6f\n", s, out[7]);
}
