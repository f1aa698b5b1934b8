// C++ a compute construct cannot hold: each is an error at its place, naming it.
#include <cmath>
#include <vector>

struct Shape {
  virtual double area() const { return 1.0; }
  virtual ~Shape() = default;
};

template <typename... Scale> void scale(int n, double *a, Scale...) {
#pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 2;
}

void run(std::vector<double> &v, Shape &s, double *p, int n) {
#pragma acc parallel loop copy(p[0:n])
  for (int i = 0; i < n; i++) {
    auto twice = [](double x) { return 2 * x; };
    p[i] = twice(p[i]) + v[i] + s.area();
  }
  scale(n, p, 1, 2.0);
}
