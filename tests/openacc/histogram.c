/* Histograms with atomics: `#pragma acc atomic update` (bare `atomic` too) on int and long
   bins, `atomic capture` to hand out slots in an output list, `atomic write` and `atomic read`,
   a copy clause on a global C array, copyin of a const table, and a data region with a
   create'd counter array reset on the device. */
#include <stdio.h>
#include <stdlib.h>

#define NBINS 16
#define NDATA 20000

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
