/* Routines (and the routines they call) are carried into kernels; atomic and cache pass through. */
#pragma acc routine seq
static inline int sq(int x) { return x * x; }

#pragma acc routine seq
int sum_sq(int a, int b) { return sq(a) + sq(b); }

void histogram(const int *v, int n, int *bins, int nbins) {
#pragma acc parallel loop present(v[0:n], bins[0:nbins])
  for (int i = 0; i < n; i++) {
#pragma acc cache(v[i:1])
    int b = sum_sq(v[i], i) % nbins;
#pragma acc atomic update
    bins[b]++;
  }
}
