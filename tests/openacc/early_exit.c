/* Early exits from data regions: return from inside a region (and from a nested pair of
   regions), break and continue out of a region inside a loop, goto out of nested regions,
   a data region with an if clause, and a check after each exit that the data was unmapped
   (a fresh enter data/copyout round trip sees the host's values). */
#include <stdio.h>
#include <stdlib.h>

#define N 256

/* Doubles v on the devices; returns the index of the first element above limit (from the
   device results), leaving the region early. */
static int double_and_find(int *v, int n, int limit) {
#pragma acc data copy(v[0:n])
  {
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
      v[i] *= 2;
#pragma acc update self(v[0:n])
    for (int i = 0; i < n; i++)
      if (v[i] > limit)
        return i;
  }
  return -1;
}

/* Nested regions, left by a return from the inner one. */
static long nested_return(int *a, int *b, int n) {
#pragma acc data copyin(a[0:n])
  {
#pragma acc data copy(b[0:n])
    {
#pragma acc parallel loop
      for (int i = 0; i < n; i++)
        b[i] += a[i];
      if (n > 0)
        return 1;
    }
  }
  return 0;
}

/* goto out of two regions. */
static int goto_out(int *a, int n, int threshold) {
  int found = 0;
#pragma acc data copy(a[0:n])
  {
#pragma acc data create(found)
    {
#pragma acc parallel loop
      for (int i = 0; i < n; i++)
        a[i] = a[i] * 3 + 1;
#pragma acc update self(a[0:1])
      if (a[0] > threshold)
        goto done;
      found = 1;
    }
  }
done:
  return found;
}

int main(void) {
  int n = N;
  int *v = malloc(n * sizeof *v), *w = malloc(n * sizeof *w);
  for (int i = 0; i < n; i++) {
    v[i] = i % 50;
    w[i] = 1;
  }
  int at = double_and_find(v, n, 90);
  /* v was copied back by the early return; v[at] is the device's doubled value. */
  int after_return = v[at];

  long nr = nested_return(v, w, n);

  /* break and continue out of a region in a loop. */
  long rounds = 0, skipped = 0;
  for (int r = 0; r < 10; r++) {
#pragma acc data copy(w[0:n])
    {
#pragma acc parallel loop
      for (int i = 0; i < n; i++)
        w[i] += r;
      if (r % 3 == 1) {
        skipped++;
        continue;
      }
      if (r == 7)
        break;
      rounds++;
    }
  }

  int g1 = goto_out(v, n, 1000);
  int g2 = goto_out(v, n, 0);

  /* if clause: only the even passes map a; the odd ones run on the host. */
  int *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++)
    a[i] = i;
  for (int pass = 0; pass < 4; pass++) {
#pragma acc data copy(a[0:n]) if(pass % 2 == 0)
    {
#pragma acc parallel loop if(pass % 2 == 0)
      for (int i = 0; i < n; i++)
        a[i] += pass + 1;
    }
  }

  /* Everything is unmapped again: a fresh round trip sees the host's values. */
#pragma acc enter data copyin(v[0:n], w[0:n])
#pragma acc parallel loop present(v[0:n], w[0:n])
  for (int i = 0; i < n; i++)
    v[i] += w[i];
#pragma acc exit data copyout(v[0:n]) delete(w[0:n])

  long sv = 0, sw = 0, sa = 0;
  for (int i = 0; i < n; i++) {
    sv += v[i];
    sw += w[i];
    sa += a[i];
  }
  printf("early_exit: at=%d v[at]=%d nested=%ld rounds=%ld skipped=%ld goto=%d,%d sv=%ld sw=%ld "
         "sa=%ld\n", at, after_return, nr, rounds, skipped, g1, g2, sv, sw, sa);
  free(v);
  free(w);
  free(a);
  return 0;
}
