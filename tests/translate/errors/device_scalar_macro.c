#define LAST last
void f(const float *a, int n, float *out) {
  float last = 0;
#pragma acc kernels copyin(a[0:n])
  {
    for (int i = 0; i < n; i++) LAST = a[i];
  }
  *out = last;
}
