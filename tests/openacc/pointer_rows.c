/* Pointers to pointers and orphaned loops in routines: `double **a` mapped as `a[0:n][0:m]` (the
   rows and the pointer array, whose device copies hold the rows' device addresses) by data
   constructs, compute constructs and enter/exit data; kernels index `a[i][j]`, read and write;
   `update` of some rows, after an async kernel; routines (gang, worker, vector, seq) holding
   orphaned `loop` directives, with and without reductions, called from parallel loops and
   parallel regions. */
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine vector
static double row_sum(double **a, int i, int m) {
  double s = 0;
#pragma acc loop vector reduction(+:s)
  for (int j = 0; j < m; j++)
    s += a[i][j];
  return s;
}

#pragma acc routine seq
static long row_max(double *const *a, int i, int m) {
  long best = 0;
#pragma acc loop seq reduction(max:best)
  for (int j = 0; j < m; j++)
    best = (long)a[i][j] > best ? (long)a[i][j] : best;
  return best;
}

#pragma acc routine worker
static void scale_row(double **c, int i, int m, double f) {
#pragma acc loop worker
  for (int j = 0; j < m; j++)
    c[i][j] *= f;
}

#pragma acc routine gang
static void all_row_sums(double **a, double *b, int n, int m) {
  double t;
#pragma acc loop gang private(t)
  for (int i = 0; i < n; i++) {
    t = 0;
#pragma acc loop worker reduction(+:t)
    for (int j = 0; j < m; j++)
      t += a[i][j];
    b[i] = t;
  }
}

static double **rows(int n, int m) {
  double **a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++)
    a[i] = malloc(m * sizeof **a);
  return a;
}

static void release(double **a, int n) {
  for (int i = 0; i < n; i++)
    free(a[i]);
  free(a);
}

int main(void) {
  int n = 37, m = 53;
  double **a = rows(n, m), **c = rows(n, m);
  double *b = malloc(n * sizeof *b), *d = malloc(n * sizeof *d);
  long *mx = malloc(n * sizeof *mx);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) {
      a[i][j] = (i * 7 + j * 3) % 11;
      c[i][j] = -1;
    }
    b[i] = d[i] = 0;
    mx[i] = 0;
  }

  /* A data construct maps the rows; parallel loops call routines that loop over a row. */
#pragma acc data copyin(a[0:n][0:m]) copy(b[0:n], mx[0:n]) copyout(d[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++) {
      b[i] = row_sum(a, i, m);
      mx[i] = row_max(a, i, m);
    }
    /* A gang routine called from a parallel region: its gang loop runs in the call. */
#pragma acc parallel
    { all_row_sums(a, d, n, m); }
  }
  double sb = 0, sd = 0;
  long smx = 0;
  for (int i = 0; i < n; i++) {
    sb += b[i];
    sd += d[i];
    smx += mx[i] * (i + 1);
  }
  printf("row sums %.1f %.1f, maxima %ld\n", sb, sd, smx);

  /* Kernels writing through the rows: c is created on the devices, written, scaled by a worker
     routine, and some rows are updated in both directions before the exit copies them out. */
#pragma acc enter data copyin(a[0:n][0:m]) create(c[0:n][0:m])
#pragma acc parallel loop collapse(2) present(a[0:n][0:m], c[0:n][0:m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      c[i][j] = a[i][j] * 2 + i;
#pragma acc parallel loop present(c[0:n][0:m])
  for (int i = 0; i < n; i++)
    scale_row(c, i, m, i % 2 ? 3.0 : 0.5);
#pragma acc parallel loop present(c[0:n][0:m]) async(1)
  for (int i = 0; i < n; i++)
    c[i][0] += 1000;
  /* Queued after the kernel, which reaches the rows through c: the update waits for it. */
#pragma acc update self(c[3:2][0:m]) async(1)
#pragma acc wait(1)
  double s34 = 0;
  for (int j = 0; j < m; j++)
    s34 += c[3][j] + c[4][j];
  printf("rows 3 and 4 on the host: %.1f\n", s34);
  for (int j = 0; j < m; j++)
    a[5][j] = 100 + j;
#pragma acc update device(a[5:1][0:m]) if_present
#pragma acc parallel loop present(a[5:1][0:m], c[0:n][0:m])
  for (int j = 0; j < m; j++)
    c[5][j] = a[5][j] - j;
#pragma acc exit data copyout(c[0:n][0:m]) delete(a[0:n][0:m])
  double sc = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      sc += c[i][j] * ((i + j) % 5 + 1);
  printf("written rows %.1f\n", sc);

  /* A compute construct's own clause: copy of the rows around one kernel. */
#pragma acc parallel loop copy(c[0:n][0:m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      c[i][j] = c[i][j] / 2 + j;
  sc = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      sc += c[i][j] * (i % 3 + 1);
  printf("copied rows %.1f\n", sc);

  release(a, n);
  release(c, n);
  free(b);
  free(d);
  free(mx);
  return 0;
}
