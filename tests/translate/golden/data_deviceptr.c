/* deviceptr on a data construct: every compute construct inside passes the pointer untranslated;
   a clause of the construct's own wins, and a shadowing local is not the data clause's variable. */
void f(float *d, float *e, int n) {
  #pragma acc data deviceptr(d) copy(e[0:n])
  {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++)
      d[i] = e[i];
    #pragma acc parallel loop present(e[0:n]) deviceptr(d)
    for (int i = 0; i < n; i++)
      e[i] += d[i];
    {
      float *d = e;
      #pragma acc parallel loop present(d[0:n])
      for (int i = 0; i < n; i++)
        d[i] *= 2;
    }
  }
}
