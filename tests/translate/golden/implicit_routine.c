/* A function defined in the file and called without a routine directive: implicit routine seq. */
static float twice(float x) { return 2 * x; }
void f(float *a, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++) a[i] = twice(a[i]);
}
