#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* Added by jacc-translate: a failing jacc call ends the program with jacc's message, as a failing
   OpenACC directive would. */
static inline void jacc_translated_check(jacc_status status, const char *where) {
  if (status != JACC_SUCCESS) {
    fprintf(stderr, "%s: %s\n", where, jacc_last_error());
    exit(1);
  }
}
/* no_create: 1 when [p, p+bytes) was absent and is now mapped for the construct (copied in;
   the construct's end copies it back). */
static inline int jacc_translated_no_create(void *p, size_t bytes, const char *where) {
  if (!p || !bytes || jacc_is_present(p, bytes))
    return 0;
  jacc_translated_check(jacc_copyin(p, bytes), where);
  return 1;
}
/* firstprivate(p[0:n]): what the private copies start from: the devices' copy when present,
   else a copy of the host's bytes mapped for the construct (the host's array stays unmapped). */
static inline void *jacc_translated_firstprivate(void *p, size_t bytes, const char *where) {
  if (!bytes || jacc_is_present(p, bytes))
    return p;
  unsigned char *copy = (unsigned char *)malloc(bytes);
  if (!copy) {
    fprintf(stderr, "%s: out of memory for a firstprivate section\n", where);
    exit(1);
  }
  for (size_t i = 0; i < bytes; i++)
    copy[i] = ((const unsigned char *)p)[i];
  jacc_translated_check(jacc_copyin(copy, bytes), where);
  return copy;
}
static inline void jacc_translated_firstprivate_end(void *copy, void *p, size_t bytes,
                                                    const char *where) {
  if (copy == p)
    return;
  jacc_translated_check(jacc_delete(copy, bytes), where);
  free(copy);
}
/* An implicit copy or copyin (NVHPC's, of a pointer no clause names) of the section its
   subscripts reach, [p, p + len * size): mapped for the construct unless p is present (a mapping
   around the construct wins); the bytes mapped, or 0. */
static inline size_t jacc_translated_implicit(void *p, long len, size_t size, const char *where) {
  if (!p || len <= 0 || jacc_is_present(p, 1))
    return 0;
  jacc_translated_check(jacc_copyin(p, (size_t)len * size), where);
  return (size_t)len * size;
}
static inline void jacc_translated_present(const void *p, size_t bytes, const char *where,
                                           const char *what) {
  if (!jacc_is_present(p, bytes)) {
    fprintf(stderr, "%s: '%s' in clause 'present' is not present on the devices\n", where, what);
    exit(1);
  }
}
/* Implicit data attributes: scalars by value, C arrays present-or-copy, pointers present;
   types and macros the construct uses are carried into the kernel. */
#define ROWS 8
#define COLS 16
#define AT(g, i, j) ((g)[(i)][(j)])

typedef double real;
typedef struct point { real x, y; } point;
enum mode { ADD = 1, MUL = 2 };

static const real weights[3] = {0.25, 0.5, 0.25};
real grid[ROWS][COLS];

void step(real (*out)[COLS], point p, enum mode m) {
  real local[ROWS];
{ /* #pragma acc parallel loop collapse(2) default(present) copyout(local) */
  jacc_translated_check(jacc_create(local, sizeof local), "implicit.c:16");
  const real *jacc_ptr_weights = weights;
  real (*jacc_ptr_grid)[16] = grid;
  real *jacc_ptr_local = local;
  jacc_arg jacc_args[] = {{"const real *weights", &jacc_ptr_weights}, {"real (*out)[16]", &out}, {"enum mode m", &m}, {"real (*grid)[16]", &jacc_ptr_grid}, {"point p", &p}, {"real *local", &jacc_ptr_local}};
  jacc_translated_check(jacc_kernel_push(
      "#define ROWS 8\n"
      "#define COLS 16\n"
      "#define AT(g, i, j) ((g)[(i)][(j)])\n"
      "typedef double real;\n"
      "typedef struct point { real x, y; } point;\n"
      "enum mode { ADD = 1, MUL = 2 };\n"
      "#pragma acc parallel loop collapse(2) default(present)\n"
      "  for (int i = 0; i < ROWS; i++)\n"
      "    for (int j = 0; j < COLS; j++) {\n"
      "      real w = weights[j % 3];\n"
      "      out[i][j] = m == ADD ? AT(grid, i, j) + w * p.x : AT(grid, i, j) * p.y;\n"
      "      if (j == 0)\n"
      "        local[i] = w;\n"
      "    }\n",
      6, jacc_args, JACC_DEFAULT), "implicit.c:16");
  jacc_translated_check(jacc_copyout(local, sizeof local), "implicit.c:16");
}
{ /* #pragma acc parallel loop */
  jacc_translated_check(jacc_copyin(grid, sizeof grid), "implicit.c:24");
  jacc_translated_check(jacc_copyin(local, sizeof local), "implicit.c:24");
  real (*jacc_ptr_grid)[16] = grid;
  real *jacc_ptr_local = local;
  jacc_arg jacc_args[] = {{"real (*grid)[16]", &jacc_ptr_grid}, {"real *local", &jacc_ptr_local}};
  jacc_translated_check(jacc_kernel_push(
      "#define ROWS 8\n"
      "typedef double real;\n"
      "typedef struct point { real x, y; } point;\n"
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < ROWS; i++)\n"
      "    grid[i][0] = local[i] + (real)sizeof(point);\n",
      2, jacc_args, JACC_DEFAULT), "implicit.c:24");
  jacc_translated_check(jacc_copyout(local, sizeof local), "implicit.c:24");
  jacc_translated_check(jacc_copyout(grid, sizeof grid), "implicit.c:24");
}
}
