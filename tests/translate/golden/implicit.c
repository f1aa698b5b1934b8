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
#pragma acc parallel loop collapse(2) default(present) copyout(local)
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      real w = weights[j % 3];
      out[i][j] = m == ADD ? AT(grid, i, j) + w * p.x : AT(grid, i, j) * p.y;
      if (j == 0)
        local[i] = w;
    }
#pragma acc parallel loop
  for (int i = 0; i < ROWS; i++)
    grid[i][0] = local[i] + (real)sizeof(point);
}
