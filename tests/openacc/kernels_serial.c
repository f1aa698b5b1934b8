/* kernels and serial constructs: a kernels region with several loops (loop independent, loop
   seq, a reduction), kernels loop with an if clause (false: runs on the host), serial with a
   sequential recurrence, serial loop, parallel with num_gangs/num_workers/vector_length and
   inner loop gang/worker/vector, default(none) and default(present), and the async/wait
   clauses on kernels and serial constructs. Pointers no clause maps, read and written in
   parallel, serial and kernels constructs, get NVHPC's implicit copy/copyin of the sections their
   loops reach (in a data region mapping another array too; in a function called inside and
   outside a data region mapping them; partly present: the present mapping wins). */
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define W 25

/* Implicit copies: present (the caller's data region) or not. */
static long rows(const long *m, long *out, int h) {
#pragma acc parallel loop
  for (int i = 0; i < h; i++) {
    long s = 0;
#pragma acc loop reduction(+:s)
    for (int j = 0; j < W; j++)
      s += m[i * W + j] * (j + 1);
    out[i] = s;
  }
  long t = 0;
  for (int i = 0; i < h; i++)
    t += out[i];
  return t;
}

/* Writes only e[0:n/2] though its subscripts reach e[0:n]: a caller mapping that half makes the
   implicit section partly present, and the present mapping wins. */
static void half(long *e, int n) {
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    if (i < n / 2)
      e[i] = 2 * i;
}

static long implicit_copies(int n) {
  long *a = malloc(n * sizeof *a), *c = malloc(n * sizeof *c), *d = malloc(n * sizeof *d);
  for (int i = 0; i < n; i++) {
    a[i] = i % 17;
    c[i] = d[i] = -1;
  }
#pragma acc parallel loop
  for (int i = 1; i < n - 1; i++)
    c[i] = a[i - 1] + 2 * a[i + 1];
#pragma acc serial
  {
    d[0] = c[1];
    for (int i = 1; i < n / 2; i++)
      d[i] = d[i - 1] + c[2 * i - 1];
  }
#pragma acc kernels
  for (int i = n - 1; i >= 0; --i)
    a[n - 1 - i] += i;
#pragma acc data copyin(a[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      d[i] += a[i];
  }
  long *out = malloc(n / W * sizeof *out);
  long t = rows(d, out, n / W);
#pragma acc data copyin(d[0:n]) copyout(out[0:n / W])
  t += rows(d, out, n / W - 1); /* sections inside the larger mappings: present */
  long *e = calloc(n, sizeof *e);
#pragma acc data copy(e[0:n / 2])
  half(e, n);
  long s = t;
  for (int i = 0; i < n; i++)
    s += (i + 1) * (a[i] + c[i] + d[i] + e[i]);
  free(a);
  free(c);
  free(d);
  free(e);
  free(out);
  return s;
}

int main(void) {
  int n = N;
  long *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  long fib[40];
  long total = 0, odd = 0;

#pragma acc kernels copyout(a[0:n], b[0:n])
  {
#pragma acc loop independent
    for (int i = 0; i < n; i++)
      a[i] = i * 2L;
#pragma acc loop independent
    for (int i = 0; i < n; i++)
      b[i] = a[i] + 1;
#pragma acc loop reduction(+:total)
    for (int i = 0; i < n; i++)
      total += b[i];
  }

  /* A prefix sum: sequential by nature, in a serial construct. */
#pragma acc serial copy(a[0:n])
  {
    for (int i = 1; i < n; i++)
      a[i] += a[i - 1];
  }

#pragma acc serial copyout(fib) async(1)
  {
    fib[0] = 0;
    fib[1] = 1;
#pragma acc loop seq
    for (int i = 2; i < 40; i++)
      fib[i] = fib[i - 1] + fib[i - 2];
  }

#pragma acc serial loop copy(b[0:n]) reduction(+:odd) wait(1)
  for (int i = 0; i < n; i++) {
    b[i] = b[i] * 3;
    odd += b[i] % 2;
  }

  int use_device = n > 5000; /* false: the host runs it */
#pragma acc kernels loop copy(b[0:n]) if(use_device)
  for (int i = 0; i < n; i++)
    b[i] -= 1;

#pragma acc data copy(a[0:n], b[0:n])
  {
#pragma acc parallel num_gangs(8) num_workers(2) vector_length(32) default(present)
    {
#pragma acc loop gang
      for (int blk = 0; blk < n / 100; blk++) {
#pragma acc loop worker vector
        for (int k = 0; k < 100; k++)
          b[blk * 100 + k] += blk;
      }
    }
#pragma acc kernels default(none) present(a[0:n]) async(2)
    {
#pragma acc loop
      for (int i = 0; i < n; i++)
        a[i] = a[i] % 1000003;
    }
#pragma acc wait(2)
  }

  long sa = 0, sb = 0;
  for (int i = 0; i < n; i++) {
    sa += a[i];
    sb += b[i];
  }
  printf("kernels_serial: total=%ld a[n-1]=%ld fib[39]=%ld odd=%ld sa=%ld sb=%ld\n", total,
         a[n - 1], fib[39], odd, sa, sb);
  printf("kernels_serial: implicit copies %ld\n", implicit_copies(n));
  free(a);
  free(b);
  return 0;
}
