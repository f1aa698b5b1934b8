// C written as C++ (the V&V suite's C++ tests are mostly such): a struct typedef'd under its own
// name and another, new[] and delete[] in a routine (the device's heap), host_data use_device
// giving a double * of the device's copy, and acc_on_device of an acc_device_t variable in a
// construct (the type from openacc.h's extern "C" block).
// corpus: one kind of device (on a GPU and a host device the host's part of the loop is not on
// the current device type, and says so)
#include "acc_host_fallback.h"

#include <cstdio>

typedef struct point {
  double x, y;
} point;
typedef struct pair {
  double lo, hi;
} range;

#pragma acc routine seq
double spread(const point *p, int i, int m) {
  double *near = new double[m];
  for (int k = 0; k < m; k++)
    near[k] = p[(i + k) % m].x * (k + 1);
  double s = 0;
  for (int k = 0; k < m; k++)
    s += near[k];
  delete[] near;
  return s;
}

int main() {
  const int n = 1000;
  point *p = new point[n];
  range *r = new range[n];
  for (int i = 0; i < n; i++)
    p[i] = point{double(i % 7), double(i % 3)};
  int off = 0;
  acc_device_t type = acc_get_device_type();
#pragma acc parallel loop copyin(p [0:n]) copyout(r [0:n]) copy(off)
  for (int i = 0; i < n; i++) {
    range q = {p[i].x - p[i].y, spread(p, i, 8)};
    r[i] = q;
    if (!acc_on_device(type))
      off = 1;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += r[i].hi - r[i].lo;
  // host_data: the device copy's address, of the program's type.
  double *a = new double[n];
#pragma acc enter data create(a [0:n])
#pragma acc host_data use_device(a)
  {
    double *dev = a;
    std::printf("host_data address %s\n", dev ? "given" : "missing");
  }
#pragma acc exit data delete (a [0:n])
  std::printf("spread %.3f on device %d\n", s, !off);
  delete[] p;
  delete[] r;
  delete[] a;
  return 0;
}
