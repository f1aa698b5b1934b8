#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "implicit.c"
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
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "implicit.c", 16, "step");
  jacc_translated_check(jacc_create(local, sizeof local), "implicit.c:16");
  const real *jacc_ptr_weights = weights;
  real (*jacc_ptr_grid)[16] = grid;
  real *jacc_ptr_local = local;
  jacc_arg jacc_args[] = {{"const real *weights", &jacc_ptr_weights}, {"real (*out)[16]", (void *)&out}, {"enum mode m", (void *)&m}, {"real (*grid)[16]", &jacc_ptr_grid}, {"point p", (void *)&p}, {"real *local", &jacc_ptr_local}};
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
      "    }\n"
      "// jacc-site: implicit.c:16\n",
      6, jacc_args, JACC_DEFAULT), "implicit.c:16");
  jacc_translated_check(jacc_copyout(local, sizeof local), "implicit.c:16");
  jacc_construct_end();
}
{ /* #pragma acc parallel loop */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "implicit.c", 24, "step");
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
      "    grid[i][0] = local[i] + (real)sizeof(point);\n"
      "// jacc-site: implicit.c:24\n",
      2, jacc_args, JACC_DEFAULT), "implicit.c:24");
  jacc_translated_check(jacc_copyout(local, sizeof local), "implicit.c:24");
  jacc_translated_check(jacc_copyout(grid, sizeof grid), "implicit.c:24");
  jacc_construct_end();
}
#line 27 "implicit.c"
}
