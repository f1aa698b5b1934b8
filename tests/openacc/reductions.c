/* Reductions for every operator (+, *, max, min, &&, ||, &, |, ^) on int, long, float and double,
   several reductions on one loop and one clause with several variables, a reduction on an inner
   loop of a parallel region, private and firstprivate scalars and arrays, and gang/worker/vector
   levels; long double (16-byte partial results) and double _Complex reductions. Float sums use
   integer-valued data below 2^24, the wide ones multiples of 2^-60 and 1/4 (exact in any order).
   corpus: host devices only (CUDA devices cannot reduce long double or _Complex, by design) */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3000

int main(void) {
  int n = N;
  int *v = malloc(n * sizeof *v);
  for (int i = 0; i < n; i++)
    v[i] = (i * 37 + 11) % 101 - 50;

  int isum = 0, imax = -1000, imin = 1000, iprod = 1;
  long lsum = 0, lmax = -1000, lmin = 1000, lprod = 1;
  float fsum = 0.0f, fmaxv = -1000.0f, fminv = 1000.0f, fprod = 1.0f;
  double dsum = 0.0, dmax = -1000.0, dmin = 1000.0, dprod = 1.0;
  int all_small = 1, any_big = 0, iand_ = ~0, ior_ = 0, ixor = 0;
  long land = 1, lor = 0, lband = -1L, lbor = 0, lxor = 0;

#pragma acc parallel loop copyin(v[0:n]) reduction(+:isum, lsum, fsum, dsum) \
    reduction(max:imax, lmax, fmaxv, dmax) reduction(min:imin, lmin, fminv, dmin)
  for (int i = 0; i < n; i++) {
    isum += v[i];
    lsum += (long)v[i] * v[i];
    fsum += (float)v[i];
    dsum += v[i] * 0.5;
    imax = v[i] > imax ? v[i] : imax;
    lmax = (long)v[i] * 3 > lmax ? (long)v[i] * 3 : lmax;
    fmaxv = v[i] * 0.25f > fmaxv ? v[i] * 0.25f : fmaxv;
    dmax = v[i] * 1.5 > dmax ? v[i] * 1.5 : dmax;
    imin = v[i] < imin ? v[i] : imin;
    lmin = (long)v[i] - 7 < lmin ? (long)v[i] - 7 : lmin;
    fminv = v[i] * 0.25f < fminv ? v[i] * 0.25f : fminv;
    dmin = v[i] * 1.5 < dmin ? v[i] * 1.5 : dmin;
  }

#pragma acc parallel loop copyin(v[0:n]) reduction(*:iprod) reduction(*:lprod) \
    reduction(*:fprod, dprod)
  for (int i = 0; i < 24; i++) {
    int f = (v[i] % 3 + 3) % 3 + 1; /* 1, 2 or 3 */
    iprod *= f;
    lprod *= f + 1;
    fprod *= (float)f;
    dprod *= f * 0.5;
  }

#pragma acc parallel loop copyin(v[0:n]) reduction(&&:all_small) reduction(||:any_big) \
    reduction(&:iand_) reduction(|:ior_) reduction(^:ixor) reduction(&&:land) \
    reduction(||:lor) reduction(&:lband) reduction(|:lbor) reduction(^:lxor)
  for (int i = 0; i < n; i++) {
    all_small = all_small && v[i] < 60;
    any_big = any_big || v[i] > 49;
    iand_ &= v[i] | 0x100;
    ior_ |= v[i] & 0x3f;
    ixor ^= v[i] + 50;
    land = land && v[i] != 0;
    lor = lor || v[i] == -50;
    lband &= (long)(v[i] + 50) | 0x1000L;
    lbor |= (long)(v[i] + 50) << 20;
    lxor ^= (long)i * (v[i] + 50);
  }

  /* private and firstprivate: per-iteration scratch scalars and a copied offset (a private C
     array is not supported by jacc's kernels: the scratch array is declared in the loop). */
  int offset = 5;
  double t = 0.0;
  long u = 0;
  int *out = malloc(n * sizeof *out);
#pragma acc parallel loop gang worker vector copyin(v[0:n]) copyout(out[0:n]) \
    private(t, u) firstprivate(offset)
  for (int i = 0; i < n; i++) {
    int scratch[4];
    for (int k = 0; k < 4; k++)
      scratch[k] = v[i] * k + offset;
    t = scratch[3] * 0.5;
    u = (long)scratch[1] * 2;
    out[i] = scratch[0] + scratch[1] + scratch[2] + scratch[3] + (int)(t * 2.0) - (int)u;
  }

  /* A reduction on the inner loop of a parallel region, per row. */
  long rows[30];
  int tmp = 0;
#pragma acc parallel num_gangs(4) copyin(v[0:n]) copyout(rows) private(tmp)
  {
#pragma acc loop gang
    for (int r = 0; r < 30; r++) {
      long s = 0;
#pragma acc loop vector reduction(+:s) private(tmp)
      for (int c = 0; c < 100; c++) {
        tmp = v[r * 100 + c];
        s += tmp * tmp;
      }
      rows[r] = s;
    }
  }

  /* long double keeps bits a double loses (1 + k * 2^-60); complex: + and * only. */
  long double ldsum = 1.0L;
  double _Complex zsum = 1.0 + 2.0 * I, zprod = 1.0;
#pragma acc parallel loop copyin(v[0:n]) reduction(+:ldsum, zsum) reduction(*:zprod)
  for (int i = 0; i < n; i++) {
    ldsum += v[i] * v[i] * 0x1p-60L;
    zsum += v[i] * 0.25 + (v[i] % 7) * 0.5 * I;
    zprod *= (i % 500 == 3) ? I : (i % 1000 == 1 ? 2 : 1);
  }

  long osum = 0, rsum = 0;
  for (int i = 0; i < n; i++)
    osum += out[i];
  for (int r = 0; r < 30; r++)
    rsum += rows[r] * (r + 1);
  printf("reductions: int=%d/%d/%d/%d long=%ld/%ld/%ld/%ld float=%.1f/%.2f/%.2f/%.1f "
         "double=%.1f/%.1f/%.1f/%.4f\n", isum, imax, imin, iprod, lsum, lmax, lmin, lprod,
         (double)fsum, (double)fmaxv, (double)fminv, (double)fprod, dsum, dmax, dmin, dprod);
  printf("reductions: logical=%d/%d/%ld/%ld bits=%d/%d/%d/%ld/%ld/%ld private=%ld rows=%ld\n",
         all_small, any_big, land, lor, iand_, ior_, ixor, lband, lbor, lxor, osum, rsum);
  /* + 0.0: the sign of a zero part depends on the order of the products. */
  printf("reductions: long double=1+%ld*2^-60 complex sum=%.2f%+.2fi product=%.1f%+.1fi\n",
         (long)((ldsum - 1.0L) * 0x1p60L), creal(zsum), cimag(zsum), creal(zprod) + 0.0,
         cimag(zprod) + 0.0);
  free(v);
  free(out);
  return 0;
}
