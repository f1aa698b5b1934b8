// C++ routines a kernel cannot carry, and calls of routines it cannot make: each is an error at
// its place (one construct each: a construct's C++ is checked before its routines).
#include <vector>

double gravity = 9.81;

#pragma acc routine seq
void add(double &sum, const double &w) { sum += w; }

#pragma acc routine seq
double twice(double x, double s = 2.0) { return s * x; }

#pragma acc routine seq
double &pick(double *a, int i) { return a[i]; }

#pragma acc routine seq
double fall(double t) { return gravity * t * t; }

#pragma acc routine seq
double half(double x) { return x / 2; }
#pragma acc routine seq
float half(float x) { return x / 2; }

#pragma acc routine seq
double first(const std::vector<double> &v) { return v[0]; }

void run(int n, double *a, const std::vector<double> &v) {
#pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0;
    add(s, a[i] * 2);
    a[i] = s;
  }
#pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = twice(a[i]);
#pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] += pick(a, i);
#pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = fall(a[i]);
#pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = half(a[i]) + half(1.0f);
#pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] = first(v);
}
