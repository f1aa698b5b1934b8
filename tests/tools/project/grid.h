/* A user's project in several files, shared by C and C++ sources. */
#ifndef GRID_H
#define GRID_H
#define NX 200
#define NY 150
#ifdef __cplusplus
extern "C" {
#endif
void smooth(int steps, double *u, double *v);
double weighted_sum(const double *u, double weight);
#ifdef __cplusplus
}
#endif
#endif
