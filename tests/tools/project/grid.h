/* A user's project in several files, shared by C and C++ sources. */
#ifndef GRID_H
#define GRID_H
#define NX 200
#define NY 150
#ifdef __cplusplus
extern "C" {
#endif
void smooth(int steps, double *u, double *v);
/* A routine another file defines (main.c), called from smooth.c's kernels. */
#pragma acc routine seq
double relax(double centre, double around);
/* The weight of the centre: one copy on the devices for the whole program. */
extern double omega;
#pragma acc declare copyin(omega)
double weighted_sum(const double *u, double weight);
#ifdef __cplusplus
}
#endif
/* A header's own routine, with a loop of its own. */
#pragma acc routine seq
static inline double quarter(double x) {
  double r = x;
#pragma acc loop seq
  for (int k = 0; k < 2; k++)
    r *= 0.5;
  return r;
}
#endif
