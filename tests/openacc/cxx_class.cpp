// A class holding arrays on the devices from its constructor to its destructor (enter/exit data),
// its member functions running compute constructs on its data members; C++ in the kernels:
// std:: math, std::max, static_cast, constexpr (in a namespace), auto, auto & to an element,
// nullptr, this->.
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <vector>

constexpr int Steps = 4;
namespace tuning {
constexpr double Decay = 0.5;
}

class Field {
public:
  explicit Field(int n) : n(n), u(new double[n]), v(new double[n]) {
    for (int i = 0; i < n; i++)
      u[i] = static_cast<double>(i % 7);
#pragma acc enter data copyin(u[0:n]) create(v[0:n])
  }
  ~Field() {
#pragma acc exit data delete(u[0:n], v[0:n])
    delete[] u;
    delete[] v;
  }
  Field(const Field &) = delete;
  Field &operator=(const Field &) = delete;

  void step(double scale) {
#pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 0; i < n; i++) {
      auto x = this->u[i] * scale;
      auto &out = v[i];
      const double *none = nullptr;
      out = std::max(std::sqrt(x * x), tuning::Decay) + std::abs(-1.0) + static_cast<int>(x) % 3 +
            (none == nullptr ? 0 : 1);
    }
#pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 0; i < n; i++)
      u[i] = std::floor(v[i] * 4.0) / 4.0;
  }
  double sum() {
    double s = 0;
#pragma acc parallel loop present(u[0:n]) reduction(+:s)
    for (int i = 0; i < n; i++)
      s += u[i];
    return s;
  }
  void fetch(std::vector<double> &out) {
#pragma acc update self(u[0:n])
    out.assign(u, u + n);
  }

private:
  int n;
  double *u, *v;
};

int main() {
  Field f(1000);
  for (int s = 0; s < Steps; s++)
    f.step(1.0 + s * 0.25);
  std::vector<double> host;
  f.fetch(host);
  double check = 0;
  for (double x : host)
    check += x;
  std::printf("sum %.2f check %.2f\n", f.sum(), check);
  return 0;
}
