/* Scalars with a copy on the devices: assigned in a kernels construct (implicit copy), in a copy
   or copyout clause, present from a data construct, and a reduction into a data construct's
   copy. A loop's private scalar in kernels stays private. */
void f(const float *a, int n, float *out) {
  float last = 0;
  int t;
#pragma acc kernels copyin(a[0:n])
  {
    for (int i = 0; i < n; i++) last = a[i];
  }
  int count = 3, flag;
#pragma acc parallel copy(count) copyout(flag)
  {
    count += n;
    flag = 1;
  }
  double total = 0;
#pragma acc data copy(total) copyin(a[0:n])
  {
#pragma acc parallel loop reduction(+:total)
    for (int i = 0; i < n; i++) total += a[i];
#pragma acc serial
    total *= 2;
  }
#pragma acc kernels loop private(t) copyin(a[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
    t = i;
    out[i] = a[t] + last + count + flag + total;
  }
}
