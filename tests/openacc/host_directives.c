/* The host directives and clause forms: init / set / shutdown with device_type, device_num,
   default_async and if; enter data attach of a struct's pointer members and exit data detach
   (and acc_attach / acc_detach); copyout(zero:) and create(zero:); async on data, enter data,
   exit data and update; exit data of data no longer present; a data construct whose section
   bounds change inside it; acc_wait_any and the deprecated present_or names; declare of globals
   (mapped at program start, found present by kernels and update) and in functions (a data region
   to the end of the block, ended by return and break). The output does not depend on the device
   count. corpus: needs a host device (device_type(host) directives) */
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENACC
#include <openacc.h>
#else
#include "acc_host_fallback.h"
#endif

#define N 3000
/* What only the directives do (plain cc ignores them) is checked in the jaccc build alone. */
#ifdef _OPENACC
#define DIRECTIVES 1
#else
#define DIRECTIVES 0
#endif

typedef struct {
  double *a, *b;
  int n;
} pair;

double gtable[16];
int gscale = 3, gcount;
#pragma acc declare copyin(gtable) create(gscale)
#pragma acc declare device_resident(gcount)

/* v[i] * gscale + gtable[i % 16] on the devices; the declare's exit copies v back at each
   return, before stage 1 or after stage 2. */
static int declared_stages(double *v, int n, int stages) {
#pragma acc declare copy(v[0:n])
#pragma acc parallel loop present(v[0:n])
  for (int i = 0; i < n; i++)
    v[i] = v[i] * gscale + gtable[i % 16];
  if (stages == 1)
    return 1;
  for (int k = 0; k < 3; k++) {
    double w[16];
#pragma acc declare create(w)
    if (k == 2)
      break; /* leaves the inner declare: its exit runs first */
#pragma acc parallel loop
    for (int i = 0; i < 16; i++)
      w[i] = k + i;
#pragma acc parallel loop present(v[0:n], w)
    for (int i = 0; i < n; i++)
      v[i] += w[i % 16];
  }
  return 2;
}

int main(void) {
  int checks = 0, passed = 0;
#define CHECK(c) (checks++, passed += (c) ? 1 : 0)
  int ndev = acc_get_num_devices(acc_device_host), on = 1, last = ndev - 1;
#pragma acc init device_type(host) device_num(last) if(on)
#pragma acc set device_type(host) device_num(last)
  CHECK(!DIRECTIVES || acc_get_device_num(acc_device_host) == last);
#pragma acc set device_num(0) default_async(2)
  CHECK(!DIRECTIVES ||
        (acc_get_device_num(acc_device_host) == 0 && acc_get_default_async() == 2));
#pragma acc set default_async(acc_async_noval)
  CHECK(acc_get_default_async() == 0);

  /* A struct's pointer members, attached by the enter data that maps their targets. */
  pair p;
  p.n = N;
  p.a = malloc(N * sizeof *p.a);
  p.b = malloc(N * sizeof *p.b);
  for (int i = 0; i < N; i++) {
    p.a[i] = i % 17;
    p.b[i] = 0;
  }
#pragma acc enter data copyin(p) async(1)
#pragma acc enter data copyin(p.a[0:N]) create(p.b[0:N]) async(1)
#pragma acc parallel loop present(p) async(1)
  for (int i = 0; i < N; i++)
    p.b[i] = 2 * p.a[i] + 1;
#pragma acc wait(1)
#pragma acc update self(p.b[0:N]) async(1)
  double sb = 0;
  for (int i = 0; i < N; i++)
    sb += p.b[i];
#pragma acc exit data copyout(p.b[0:N]) delete(p.a[0:N]) async(1)
#pragma acc exit data copyout(p) finalize
  CHECK(p.a != NULL && p.b != NULL && p.n == N);

  /* The same through the clauses and the routines: attach / detach of a mapped struct. */
  pair q = p;
#pragma acc enter data copyin(q, q.a[0:N])
  acc_detach((void **)&q.a);
#pragma acc enter data attach(q.a)
#pragma acc parallel loop
  for (int i = 0; i < N; i++)
    q.a[i] = q.a[i] * 3;
#pragma acc exit data detach(q.a)
  acc_attach((void **)&q.a);
#pragma acc exit data copyout(q.a[0:N]) delete(q)
  double sa = 0;
  for (int i = 0; i < N; i++)
    sa += p.a[i];
  CHECK(q.a == p.a);

  /* zero: the device copies start at 0, whatever the host holds. */
  double *c = malloc(N * sizeof *c), *t = malloc(N * sizeof *t);
  for (int i = 0; i < N; i++)
    c[i] = t[i] = 0;
#pragma acc data copyin(p.a[0:N]) create(zero: t[0:N]) copyout(zero: c[0:N]) async(3)
  {
#pragma acc parallel loop present(t[0:N], c[0:N])
    for (int i = 0; i < N; i++)
      c[i] += p.a[i] + t[i];
  }
  double sc = 0;
  for (int i = 0; i < N; i++)
    sc += c[i];

  /* Exit data of data no longer present does nothing (OpenACC 3.x). */
#pragma acc exit data copyout(c[0:N]) delete(t[0:N])
#pragma acc enter data create(t[0:N])
#pragma acc exit data delete(t[0:N]) finalize
#pragma acc exit data delete(t[0:N]) finalize
  CHECK(!DIRECTIVES || !acc_is_present(t, N * sizeof *t));

  /* The exit of a data construct copies out the section its entry mapped. */
  int len = N;
#pragma acc data copy(c[0:len])
  {
#pragma acc parallel loop
    for (int i = 0; i < N; i++)
      c[i] = c[i] + 1;
    len = 10;
  }
  double sd = 0;
  for (int i = 0; i < N; i++)
    sd += c[i];

  /* declare: globals on the devices since the start; a function's declare region. */
  for (int i = 0; i < 16; i++)
    gtable[i] = i; /* after the start-up copyin: the devices keep the zeros until the update */
  CHECK(!DIRECTIVES || acc_is_present(gtable, sizeof gtable));
#pragma acc update device(gtable, gscale)
#pragma acc serial
  gcount = gscale + 4;
#pragma acc update self(gcount)
  CHECK(gcount == 7);
  double se = declared_stages(c, N, 1);
  se += declared_stages(c, N, 2);
  for (int i = 0; i < N; i++)
    se += c[i];

  /* Queues all complete together; the deprecated names map like copyin / create. */
  int queues[3] = {acc_async_sync, 5, 6};
  CHECK(acc_wait_any(3, queues) == 1);
  queues[1] = queues[2] = acc_async_sync;
  CHECK(acc_wait_any(3, queues) == -1);
  CHECK(acc_pcopyin(c, N * sizeof *c) != NULL && acc_present_or_create(t, 8) != NULL);
  acc_delete(c, N * sizeof *c);
  acc_delete(t, 8);
#pragma acc shutdown device_type(host) if(on)
  printf("host_directives: checks=%d/%d sa=%.0f sb=%.0f sc=%.0f sd=%.0f se=%.0f\n", passed,
         checks, sa, sb, sc, sd, se);
  free(p.a);
  free(p.b);
  free(c);
  free(t);
  return 0;
}
