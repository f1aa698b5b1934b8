/* Routines with structs and typedefs: `#pragma acc routine seq`, `routine vector` and
   `routine worker` functions, a routine calling routines (carried transitively), a routine taking
   a pointer to a struct and one returning a union, nested struct, enum and union types, typedefs
   of pointers and arrays, function-like macros used by routines, and `routine(name) seq` given
   after a prototype, and a function without a routine directive, defined after its use (an
   implicit routine seq, OpenACC 3.3 2.15.1, as with NVHPC). */
#include <stdio.h>
#include <stdlib.h>

#define SQR(x) ((x) * (x))
#define CLAMP(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

typedef enum { SHAPE_CIRCLE, SHAPE_RECT, SHAPE_TRI } shape_kind;
typedef struct {
  int x, y;
} ipoint;
typedef struct {
  shape_kind kind;
  ipoint origin;
  int dims[2];
} shape;
typedef union {
  long bits;
  double value;
} number;
typedef long counts[3];
typedef const shape *shape_ref;

#pragma acc routine seq
static long area2(shape_ref s) {
  switch (s->kind) {
  case SHAPE_CIRCLE:
    return 6L * SQR((long)s->dims[0]); /* 2 * 3 * r^2: an integer stand-in for 2 pi r^2 */
  case SHAPE_RECT:
    return 2L * s->dims[0] * s->dims[1];
  default:
    return (long)s->dims[0] * s->dims[1];
  }
}

#pragma acc routine vector
static int manhattan(ipoint a, ipoint b) {
  int dx = a.x - b.x, dy = a.y - b.y;
  return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

#pragma acc routine worker
static number score(const shape *s, ipoint ref) {
  number r;
  r.value = (double)area2(s) / (1.0 + manhattan(s->origin, ref));
  return r;
}

static int bucket(long a);
#pragma acc routine(bucket) seq

static int bucket(long a) { return (int)CLAMP(a / 100, 0, 2); }

static long perimeter2(const shape *s);

#define NSHAPES 300

int main(void) {
  int n = NSHAPES;
  shape *shapes = malloc(n * sizeof *shapes);
  for (int i = 0; i < n; i++) {
    shapes[i].kind = (shape_kind)(i % 3);
    shapes[i].origin.x = i % 17 - 8;
    shapes[i].origin.y = i % 11 - 5;
    shapes[i].dims[0] = 1 + i % 9;
    shapes[i].dims[1] = 2 + i % 5;
  }
  ipoint ref = {1, -1};
  double *scores = malloc(n * sizeof *scores);
  int *buckets = malloc(n * sizeof *buckets);
  long total = 0, perim = 0;
  counts per_kind = {0, 0, 0};

#pragma acc parallel loop copyin(shapes[0:n]) copyout(scores[0:n], buckets[0:n]) \
    reduction(+:total, perim)
  for (int i = 0; i < n; i++) {
    number s = score(&shapes[i], ref);
    scores[i] = s.value;
    buckets[i] = bucket(area2(&shapes[i]));
    total += area2(&shapes[i]);
    perim += perimeter2(&shapes[i]);
  }

#pragma acc serial copyin(shapes[0:n]) copy(per_kind)
  for (int i = 0; i < n; i++)
    per_kind[shapes[i].kind] += area2(&shapes[i]);

  double ssum = 0.0;
  int hist[3] = {0, 0, 0};
  for (int i = 0; i < n; i++) {
    ssum += scores[i];
    hist[buckets[i]]++;
  }
  number probe = {0};
  probe.value = scores[n / 2];
  printf("routines: perimeters=%ld\n", perim);
  printf("routines: total=%ld per_kind=%ld/%ld/%ld scores=%.6e probe=%.6e buckets=%d/%d/%d\n",
         total, per_kind[0], per_kind[1], per_kind[2], ssum, probe.value, hist[0], hist[1],
         hist[2]);
  free(shapes);
  free(scores);
  free(buckets);
  return 0;
}

static long perimeter2(const shape *s) { return 2L * (s->dims[0] + s->dims[1]); }
