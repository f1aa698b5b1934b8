// C++ routines called from compute constructs: reference parameters (an out-parameter, a const
// reference of a struct), constexpr constants of a namespace, std:: math and std::max inside,
// an auto return type, a namespace's routine, a default argument passed explicitly, an orphaned
// loop, routines calling routines, and lambdas that variables hold as routines (by a directive
// before them, by name with a bind to another lambda, or implicitly).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

struct Body {
  double x, v, m;
};

namespace units {
constexpr double Dt = 0.125;
constexpr double Floor = -4.0;
constexpr int Substeps = 3;
} // namespace units

#pragma acc routine seq
static double kinetic(const Body &b) { return 0.5 * b.m * b.v * b.v; }

#pragma acc routine seq
static void advance(Body &b, const double &force) {
  for (int s = 0; s < units::Substeps; s++) {
    b.v += force / b.m * units::Dt;
    b.x = std::max(b.x + b.v * units::Dt, units::Floor);
  }
}

namespace shape {
#pragma acc routine seq
inline auto spring(double x, double k = 2.0) { return -k * x; }
} // namespace shape

#pragma acc routine vector
static void window(int n, int i, const double *e, double &mean) {
  double s = 0;
#pragma acc loop reduction(+:s)
  for (int k = -2; k <= 2; k++)
    s += e[std::min(std::max(i + k, 0), n - 1)];
  mean = s / 5;
}

#pragma acc routine seq
auto damp = [](double v, double by) { return v * (1 - by); };
auto host_clip = [](double &x, double limit) { x = std::min(x, limit); };
auto device_clip = [](double &x, double limit) mutable -> void { x = x < limit ? x : limit; };
#pragma acc routine(host_clip) seq bind(device_clip)
auto square = [](double x) { return x * x; };

int main() {
  const int n = 2000;
  std::vector<Body> bodies(n);
  std::vector<double> energy(n), smooth(n);
  for (int i = 0; i < n; i++)
    bodies[i] = Body{double(i % 17) - 8, double(i % 5) - 2, 1.0 + i % 3};
  Body *b = bodies.data();
  double *e = energy.data(), *sm = smooth.data();
#pragma acc data copy(b[0:n]) create(e[0:n]) copyout(sm[0:n])
  {
    for (int step = 0; step < 4; step++) {
#pragma acc parallel loop present(b[0:n], e[0:n])
      for (int i = 0; i < n; i++) {
        const double f = shape::spring(b[i].x, 2.0);
        advance(b[i], f);
        e[i] = kinetic(b[i]);
      }
    }
#pragma acc parallel loop present(b [0:n])
    for (int i = 0; i < n; i++) {
      b[i].v = damp(b[i].v, 0.25) + square(b[i].m) / 16;
      host_clip(b[i].x, 6.0);
    }
#pragma acc parallel loop present(e[0:n], sm[0:n])
    for (int i = 0; i < n; i++) {
      double m = 0;
      window(n, i, e, m);
      sm[i] = m;
    }
  }
  double x = 0, v = 0, s = 0;
  for (int i = 0; i < n; i++) {
    x += b[i].x;
    v += b[i].v;
    s += sm[i];
  }
  std::printf("x %.6f v %.6f smooth %.6f\n", x, v, s);
  return 0;
}
