/* A #pragma jacc location line above a data directive must name a location. */
void f(double *a, int n) {
#pragma jacc location(Loc G)
#pragma acc enter data copyin(a[0:n])
}
