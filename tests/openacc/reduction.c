/* Reductions, a routine, a struct type, a global array (implicit copy), unstructured data,
   update, async and wait, and a return out of a data region. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  long scale;
  long offset;
} affine;

#pragma acc routine seq
static long apply(affine f, long v) { return f.scale * v + f.offset; }

#define LEN 1000
long table[LEN];

/* Index of the first negative value, found on the host inside a data region (early return). */
static int first_negative(long *v, int n) {
#pragma acc data copyin(v[0:n])
  {
    for (int i = 0; i < n; i++)
      if (v[i] < 0)
        return i;
  }
  return -1;
}

int main(void) {
  int n = 5000;
  long *v = malloc(n * sizeof *v);
  for (int i = 0; i < n; i++)
    v[i] = (i * 7919) % 1001 - 500;
  affine f = {3, -7};

#pragma acc enter data copyin(v[0:n])
  long sum = 0, prod = 1, mx = -1000000, mn = 1000000;
#pragma acc parallel loop reduction(+:sum) reduction(max:mx) reduction(min:mn)
  for (int i = 0; i < n; i++) {
    long w = apply(f, v[i]);
    sum += w;
    mx = w > mx ? w : mx;
    mn = w < mn ? w : mn;
  }
#pragma acc parallel loop reduction(*:prod)
  for (int i = 0; i < 20; i++)
    prod *= (v[i] % 3 + 3) % 3 + 1;

#pragma acc parallel loop async(1)
  for (int i = 0; i < n; i++)
    v[i] = apply(f, v[i]);
#pragma acc wait(1)
#pragma acc update self(v[0:n / 2])
  long half = 0;
  for (int i = 0; i < n / 2; i++)
    half += v[i];
#pragma acc exit data copyout(v[0:n])
  long all = 0;
  for (int i = 0; i < n; i++)
    all += v[i];

#pragma acc parallel loop
  for (int i = 0; i < LEN; i++)
    table[i] = (long)i * i;
  long tsum = 0;
  for (int i = 0; i < LEN; i++)
    tsum += table[i];

  int neg = first_negative(v, n);
  printf("reduction: sum=%ld max=%ld min=%ld prod=%ld half=%ld all=%ld table=%ld neg=%d\n", sum,
         mx, mn, prod, half, all, tsum, neg);
  free(v);
  return 0;
}
