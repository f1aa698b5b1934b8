/* Histograms with atomics: `#pragma acc atomic update` (bare `atomic` too) on int and long
   bins, `atomic capture` to hand out slots in an output list, `atomic write` and `atomic read`,
   a copy clause on a global C array, copyin of a const table, and a data region with a
   create'd counter array reset on the device. Structured captures ({v = x; x++;}, {x += e;
   v = x;}) rank each element within its bin on a kernel that would otherwise split; a split
   kernel reads the bins atomically into a scalar and updates them with x = x op expr. The same
   histograms as reductions into arrays (OpenACC 2.7): a whole C array, a section, an element
   of a mapped array on async queues, and an inner loop's on each gang's private array. Atomic
   max and min updates through a MAX macro and fmin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NBINS 16
#define NDATA 20000
#define MAX(a, b) ((a) > (b) ? (a) : (b))

int bins[NBINS];
static const int weight[4] = {1, 2, 3, 5};

int main(void) {
  int n = NDATA;
  unsigned *data = malloc(n * sizeof *data);
  unsigned s = 12345u;
  for (int i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    data[i] = (s >> 8) % 1000u;
  }
  long wbins[NBINS];
  int count[1];
  int *picked = malloc(n * sizeof *picked);
  int flag[1] = {0};

#pragma acc parallel loop copy(bins) copyin(data[0:n])
  for (int i = 0; i < n; i++) {
    int b = data[i] % NBINS;
#pragma acc atomic update
    bins[b]++;
  }

#pragma acc data copyin(data[0:n], weight) create(wbins, count) copyout(picked[0:n]) copy(flag)
  {
#pragma acc parallel loop
    for (int b = 0; b < NBINS; b++)
      wbins[b] = 0;
#pragma acc serial
    count[0] = 0;
#pragma acc parallel loop
    for (int i = 0; i < n; i++) {
      int b = (data[i] / 7) % NBINS;
#pragma acc atomic
      wbins[b] += weight[data[i] % 4];
      if (data[i] < 50) {
        int slot;
#pragma acc atomic capture
        slot = count[0]++;
        picked[slot] = (int)data[i];
      }
      if (data[i] == 999) {
#pragma acc atomic write
        flag[0] = 1;
      }
    }
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      if (i >= count[0])
        picked[i] = -1;
#pragma acc update self(wbins, count)
  }
  int seen[1] = {0};
#pragma acc serial copyin(flag) copyout(seen)
  {
#pragma acc atomic read
    seen[0] = flag[0];
  }

  /* Each element's rank within its bin: every bin's ranks are 0 .. bins[b] - 1 in any order. */
  int *rank = malloc(n * sizeof *rank);
  int ranks[NBINS] = {0}, added[1] = {0}, scaled[NBINS], maxseen = 0;
#pragma acc parallel loop copyin(data[0:n]) copy(ranks, added) copyout(rank[0:n]) \
    reduction(max:maxseen)
  for (int i = 0; i < n; i++) {
    int b = data[i] % NBINS, r, seen;
#pragma acc atomic capture
    {
      r = ranks[b];
      ranks[b]++;
    }
    rank[i] = r;
#pragma acc atomic capture
    {
      added[0] += 2;
      seen = added[0];
    }
    maxseen = seen > maxseen ? seen : maxseen;
  }
  long ranksum = 0, rankwant = 0;
  for (int i = 0; i < n; i++)
    ranksum += rank[i];
  for (int b = 0; b < NBINS; b++)
    rankwant += (long)bins[b] * (bins[b] - 1) / 2;
#pragma acc parallel loop copy(ranks) copyout(scaled)
  for (int b = 0; b < NBINS; b++) {
    int v;
#pragma acc atomic read
    v = ranks[b];
    scaled[b] = v * 3;
#pragma acc atomic update
    ranks[b] = ranks[b] - v;
  }
  long scaledsum = 0, left = 0;
  for (int b = 0; b < NBINS; b++) {
    scaledsum += scaled[b];
    left += ranks[b];
  }
  printf("ranks: sum=%ld want=%ld added=%d maxseen=%d scaled=%ld left=%ld\n", ranksum,
         rankwant, added[0], maxseen, scaledsum, left);
  free(rank);

  long rbins[NBINS], top[NBINS], parity[2] = {5, 0}, rtotal = 0, toptotal = 0;
  unsigned part[4], rowmax[8];
  for (int b = 0; b < NBINS; b++) {
    rbins[b] = 0;
    top[b] = -1;
  }
#pragma acc parallel loop copyin(data[0:n]) reduction(+:rbins)
  for (int i = 0; i < n; i++)
    rbins[data[i] % NBINS]++;
#pragma acc parallel loop copyin(data[0:n]) reduction(max:top[4:8])
  for (int i = 0; i < n; i++) {
    int b = data[i] % NBINS;
    if (b >= 4 && b < 12)
      top[b] = (long)data[i] > top[b] ? (long)data[i] : top[b];
  }
#pragma acc data copyin(data[0:n]) copy(parity)
  {
    for (int k = 0; k < 2; k++) {
#pragma acc parallel loop async(k) reduction(+:parity[k])
      for (int i = 0; i < n; i++)
        parity[k] += data[i] % 2 == (unsigned)k;
    }
#pragma acc wait
  }
#pragma acc parallel loop gang copyin(data[0:n]) copyout(rowmax) private(part)
  for (int r = 0; r < 8; r++) {
    for (int k = 0; k < 4; k++)
      part[k] = 0;
#pragma acc loop vector reduction(max:part)
    for (int i = r; i < n; i += 8)
      part[i / 8 % 4] = data[i] % 500 > part[i / 8 % 4] ? data[i] % 500 : part[i / 8 % 4];
    rowmax[r] = part[0] + part[1] + part[2] + part[3];
  }
  for (int b = 0; b < NBINS; b++) {
    rtotal += rbins[b] == bins[b] ? rbins[b] : -100000;
    toptotal += top[b];
  }
  printf("array reductions: total=%ld top=%ld top[3]=%ld parity=%ld,%ld rowmax=%u,%u\n", rtotal,
         toptotal, top[3], parity[0], parity[1], rowmax[0], rowmax[7]);

  /* Each bin's largest and smallest datum by atomic max and min updates, which binop lacks:
     C's MAX macro (a conditional) on ints, fmin on doubles. */
  int hi[NBINS];
  double lo[NBINS];
  for (int b = 0; b < NBINS; b++) {
    hi[b] = -1;
    lo[b] = 1e9;
  }
#pragma acc parallel loop copyin(data[0:n]) copy(hi, lo)
  for (int i = 0; i < n; i++) {
    int b = data[i] % NBINS, v = (int)(data[i] * 7 % 1000);
#pragma acc atomic update
    hi[b] = MAX(hi[b], v);
#pragma acc atomic
    lo[b] = fmin(0.5 * data[i] + b, lo[b]);
  }
  long hisum = 0;
  double losum = 0;
  for (int b = 0; b < NBINS; b++) {
    hisum += hi[b] * (b + 1);
    losum += lo[b] * (b + 1);
  }
  printf("extrema: hi=%ld lo=%.1f\n", hisum, losum);

  long total = 0, wtotal = 0, psum = 0;
  for (int b = 0; b < NBINS; b++) {
    total += bins[b];
    wtotal += wbins[b] * (b + 1);
  }
  for (int i = 0; i < count[0]; i++)
    psum += picked[i];
  printf("histogram: total=%ld bins[0]=%d bins[15]=%d weighted=%ld picked=%d psum=%ld flag=%d\n",
         total, bins[0], bins[15], wtotal, count[0], psum, seen[0]);
  free(data);
  free(picked);
  return 0;
}
