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
#pragma acc parallel loop copy(f[0:n], d[0:n], l[0:n], k[0:n])
  for (int i = 0; i < n; i++) {
    f[i] = std::sqrt(f[i]) + std::exp(f[i] * 0.01f) + std::abs(-f[i]) + std::pow(f[i], 2.0f);
    d[i] = std::sqrt(d[i]) + std::pow(d[i], 2) + std::abs(-d[i]) + std::floor(d[i] / 3);
    l[i] = std::abs(l[i]) + std::max(l[i], 3L) + std::min<long>(l[i], k[i]);
    k[i] = std::abs(k[i]) + std::max(k[i], 1) + static_cast<int>(std::fmin(f[i], 2.0f));
  }
}

void vectors(int n, Vec *v, const double &dt) {
#pragma acc parallel loop copy(v[0:n])
  for (int i = 0; i < n; i++) {
    constexpr double Half = 0.5;
    auto &p = v[i];
    const auto *q = &v[(i + 1) % n];
    double *none = nullptr;
    bool moving = p.x != q->x && none == nullptr;
    auto speed = std::hypot(p.x, p.y) * Half;
    double &y = p.y;
    y = moving ? y - phys::Drag * speed * dt : double(i);
    p.x = std::max(p.x, 0.0);
  }
}

class Particles {
public:
  void push(double dt) {
#pragma acc parallel loop present(x[0:n], u[0:n])
    for (int i = 0; i < n; i++) {
      this->x[i] += dt * u[i];
      u[i] = std::min(u[i] * (1 - phys::Drag), this->limit);
    }
  }

private:
  int n = 0;
  double *x = nullptr, *u = nullptr;
  double limit = 1;
};

template <typename T, int Width> void smooth(int n, const T *in, T *out) {
#pragma acc parallel loop copyin(in[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
    T s = 0;
    for (int k = -Width; k <= Width; k++)
      s += in[(i + k + n) % n];
    out[i] = s / static_cast<T>(2 * Width + 1);
  }
}

void use(int n, float *a, float *b, Particles &p) {
  smooth<float, 2>(n, a, b);
  p.push(0.1);
}
