// C++ templates: a kernel instantiated for float and double whose calls depend on T (std::sqrt,
// std::max of T: sqrtf for float, sqrt for double), one with a value parameter (its kernel text
// spells each instantiation's T and K), a class template whose member functions run compute
// constructs on its data members, and instances of a class template as a kernel's variables and
// a routine's parameter (each a C struct of the instance's members in the kernel).
#include <algorithm>
#include <cmath>
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
    T r = std::sqrt(x[i]);
    y[i] = std::max(t + y[i], r) + static_cast<T>(i % 2);
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

/// A 1-D diffusion on the devices from construction to destruction.
template <typename T> class Diffusion {
public:
  explicit Diffusion(int n) : n(n), u(new T[n]), v(new T[n]) {
    for (int i = 0; i < n; i++)
      u[i] = v[i] = T((i * 7) % 16);
#pragma acc enter data copyin(u[0:n], v[0:n])
  }
  ~Diffusion() {
#pragma acc exit data delete(u[0:n], v[0:n])
    delete[] u;
    delete[] v;
  }
  Diffusion(const Diffusion &) = delete;
  Diffusion &operator=(const Diffusion &) = delete;

  void step(T c, T limit) {
#pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 1; i < n - 1; i++) {
      T lap = u[i - 1] - 2 * u[i] + u[i + 1];
      T change = c * lap;
      v[i] = std::min(std::abs(u[i] + change), limit);
    }
#pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 1; i < n - 1; i++)
      u[i] = v[i];
  }
  double sum() {
#pragma acc update self(u[0:n])
    double s = 0;
    for (int i = 0; i < n; i++)
      s += u[i];
    return s;
  }

private:
  int n;
  T *u, *v;
};

/// A class template holding its elements by pointer, as the V&V suite's data_container.
template <typename T> struct Buffer {
  T *data;
  long length;
  T &operator[](long i) { return data[i]; }
};
typedef Buffer<float> Floats;

#pragma acc routine seq
double weighted(const Buffer<double> &b, const Floats *w, long i) {
  return b.data[i] * w->data[i % w->length];
}

double buffers(int n) {
  Buffer<double> a{new double[n], n}, b{new double[n], n};
  Floats w{new float[4], 4};
  for (int i = 0; i < n; i++) {
    a[i] = i % 9;
    b[i] = 1;
  }
  for (int i = 0; i < 4; i++)
    w[i] = 0.5f * i;
#pragma acc data copyin(a, a.data [0:n], w, w.data [0:4]) copy(b, b.data [0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      b.data[i] += weighted(a, &w, i) + (sizeof(Buffer<double>) == sizeof(Floats));
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += b[i];
  delete[] a.data;
  delete[] b.data;
  delete[] w.data;
  return s;
}

int main() {
  std::printf("axpy float %.3f double %.6f\n", (double)axpy<float>(1000, 2.0f),
              axpy<double>(999, 0.5));
  std::vector<double> in(500), out(500);
  for (int i = 0; i < 500; i++)
    in[i] = (i * 37) % 11;
  blur<2>(500, in.data(), out.data());
  blur<5, double>(500, in.data(), out.data());
  double s = 0;
  for (double v : out)
    s += v;
  std::printf("blur %.6f out[7] %.6f\n", s, out[7]);
  Diffusion<float> df(600);
  Diffusion<double> dd(700);
  for (int t = 0; t < 6; t++) {
    df.step(0.25f, 12.0f);
    dd.step(0.125, 10.0);
  }
  std::printf("diffusion float %.4f double %.6f\n", df.sum(), dd.sum());
  std::printf("class template instances %.3f\n", buffers(1000));
}
