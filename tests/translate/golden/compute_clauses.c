/* Data clauses, if, async and wait on compute constructs; every compute construct kind. */
void work(int n, int lo, int len, float *a, const float *b, float *d, float s) {
  #pragma acc parallel loop copy(a[0:n]) copyin(b[lo:len]) if(n > 100) async(2) wait num_gangs(4)
  for (int i = lo; i < lo + len; i++)
    a[i] += s * b[i];
  #pragma acc kernels create(d[:n]) present(a[0:n])
  {
    #pragma acc loop independent
    for (int i = 0; i < n; i++)
      d[i] = a[i];
  }
  #pragma acc serial deviceptr(d)
  d[0] = 1.0f;
}
