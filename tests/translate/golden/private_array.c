/* private arrays declared outside the construct: on a combined construct, and on a loop that is
   a top-level statement of a parallel construct. */
void f(int n, double *out) {
  double scratch[8];
  int hist[2][4];
#pragma acc parallel loop private(scratch, hist) present(out[0:n])
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 8; k++) scratch[k] = i + k;
    hist[1][3] = i;
    out[i] = scratch[n % 8] + hist[1][3];
  }
#pragma acc parallel present(out[0:n])
  {
#pragma acc loop private(scratch)
    for (int i = 0; i < n; i++) {
      scratch[0] = i;
      out[i] += scratch[0];
    }
  }
}
