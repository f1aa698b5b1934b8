/* Types, macros and C arrays carried into kernels: typedefs, a struct passed by value, enum
   constants, function-like macros, global 2-D and const arrays (implicit copy), kernels and
   serial constructs, an if clause, enter/exit data with finalize and update device, and a bool
   the program declares itself, C89 style (as Rodinia's bfs does; no <stdbool.h>). */
#include <stdio.h>

#define ROWS 48
#define COLS 40
#define AT(g, i, j) ((g)[(i)][(j)])

typedef double real;
typedef int bool;
#define true 1
#define false 0
typedef struct point {
  real x, y;
} point;
enum mode { ADD = 1, MUL = 2 };

static const real weights[3] = {0.25, 0.5, 0.25};
real grid[ROWS][COLS];

static void fill(real (*out)[COLS], point p, enum mode m) {
#pragma acc parallel loop collapse(2)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      real w = weights[j % 3];
      out[i][j] = m == ADD ? AT(grid, i, j) + w * p.x : AT(grid, i, j) * p.y;
    }
}

int main(void) {
  static real out[ROWS][COLS];
  real first[ROWS];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      grid[i][j] = i * 0.5 + j;
  point p = {2.0, 3.0};
  int n = ROWS;

#pragma acc enter data copyin(out) copyin(out)
  fill(out, p, ADD);
#pragma acc update self(out[0:ROWS][0:COLS])
  real s1 = 0;
  for (int i = 0; i < ROWS; i++)
    s1 += out[i][COLS - 1];
  fill(out, p, MUL);
#pragma acc exit data copyout(out) finalize

#pragma acc kernels if(n > 10)
  {
#pragma acc loop
    for (int i = 0; i < ROWS; i++)
      first[i] = AT(out, i, 0) + (real)sizeof(point);
  }
  real one[1] = {0};
#pragma acc serial copy(one[0:1])
  one[0] = 1;
  real total = one[0];

  for (int i = 0; i < ROWS; i++)
    total += first[i];

  bool big[ROWS];
#pragma acc parallel loop copyin(first) copyout(big)
  for (int i = 0; i < ROWS; i++) {
    bool over = first[i] > 50.0;
    big[i] = over ? true : false;
  }
  int nbig = 0;
  for (int i = 0; i < ROWS; i++)
    nbig += big[i] == true;
  printf("types: s1=%.3f out[5][7]=%.3f total=%.3f big=%d\n", s1, out[5][7], total, nbig);
  return 0;
}
