/* Conjugate gradient on a 1-D Laplacian-like SPD system: several kernels in one data region
   (matrix-vector product, dot products as + reductions, axpy updates), present clauses in
   helper functions called inside the region, update self of the residual norm history and of
   the solution, and a final update device followed by a check kernel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 512
#define ITERS 25

static void matvec(int n, const double *x, double *y) {
#pragma acc parallel loop present(x[0:n], y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 4.0 * x[i];
    if (i > 0)
      s -= x[i - 1];
    if (i < n - 1)
      s -= x[i + 1];
    y[i] = s;
  }
}

static double dot(int n, const double *a, const double *b) {
  double s = 0.0;
#pragma acc parallel loop reduction(+:s) present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

static void axpy(int n, double alpha, const double *x, double *y) {
#pragma acc parallel loop present(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    y[i] += alpha * x[i];
}

int main(void) {
  int n = N;
  double *x = malloc(n * sizeof *x), *b = malloc(n * sizeof *b), *r = malloc(n * sizeof *r);
  double *p = malloc(n * sizeof *p), *q = malloc(n * sizeof *q);
  double hist[ITERS];
  for (int i = 0; i < n; i++) {
    b[i] = 1.0 + (i % 10) * 0.1;
    x[i] = 0.0;
  }
  double rr = 0.0;
  int it;
#pragma acc data copyin(b[0:n]) copy(x[0:n]) create(r[0:n], p[0:n], q[0:n])
  {
#pragma acc parallel loop present(b[0:n], r[0:n], p[0:n])
    for (int i = 0; i < n; i++) {
      r[i] = b[i];
      p[i] = b[i];
    }
    rr = dot(n, r, r);
    for (it = 0; it < ITERS; it++) {
      matvec(n, p, q);
      double alpha = rr / dot(n, p, q);
      axpy(n, alpha, p, x);
      axpy(n, -alpha, q, r);
      double rr_new = dot(n, r, r);
      hist[it] = sqrt(rr_new);
      double beta = rr_new / rr;
      rr = rr_new;
#pragma acc parallel loop present(p[0:n], r[0:n])
      for (int i = 0; i < n; i++)
        p[i] = r[i] + beta * p[i];
      if (hist[it] < 1e-10) {
        it++;
        break;
      }
    }
    /* The true residual b - A x, computed on the devices into r. */
    matvec(n, x, q);
#pragma acc parallel loop present(b[0:n], q[0:n], r[0:n])
    for (int i = 0; i < n; i++)
      r[i] = b[i] - q[i];
#pragma acc update self(r[0:n])
  }
  double res = 0.0, xs = 0.0;
  for (int i = 0; i < n; i++) {
    res = fmax(res, fabs(r[i]));
    xs += x[i];
  }
  printf("cg: iterations=%d |r|=%.3e hist[0]=%.6e hist[5]=%.6e sum(x)=%.6e x[7]=%.6e "
         "maxres<1e-8=%d\n", it, hist[it - 1] < 1e-10 ? 0.0 : hist[it - 1], hist[0], hist[5], xs,
         x[7], res < 1e-8);
  free(x);
  free(b);
  free(r);
  free(p);
  free(q);
  return 0;
}
