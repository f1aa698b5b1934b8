/* 2-D heat equation on a global C array (implicit present inside a data region): a data region
   with copy of a whole array and create of a section, kernels loop with collapse(2) and
   independent, pointer swap between two mapped arrays, update self with an if clause every few
   steps, and a max reduction for the residual. Then whole arrays passed as C array parameters
   (constant and variable bounds), named bare in clauses or used implicitly. Last, sweeps split
   by columns (an inner sequential loop over the rows) and a smoothing whose reads go through an
   inner window loop: on several devices only the halo columns move between them. */
#include <math.h>
#include <stdio.h>

#define NX 40
#define NY 36
#define STEPS 30

double u[NX][NY];
double w[NX][NY];

/* The declared bounds give the section, the first one included, as NVHPC takes them. */
static void heat_edge(int ny, double a[NX][NY], const double edge[ny]) {
#pragma acc parallel loop copy(a) copyin(edge)
  for (int j = 0; j < ny; j++)
    a[NX - 1][j] += edge[j];
}

static void cool_first_column(double a[NX][NY]) {
#pragma acc parallel loop
  for (int i = 0; i < NX; i++)
    a[i][0] *= 0.5;
}

double p[NX][NY];
double q[NX][NY];

static double column_sweeps(double a[NX][NY], double b[NX][NY]) {
  double total = 0.0;
#pragma acc data copy(a[0:NX][0:NY]) copyin(b[0:NX][0:NY])
  {
    for (int s = 0; s < 8; s++) {
#pragma acc parallel loop present(a[0:NX][0:NY], b[0:NX][0:NY])
      for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX - 1; i++)
          b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
#pragma acc parallel loop present(a[0:NX][0:NY], b[0:NX][0:NY])
      for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX - 1; i++) {
          double window = 0.0;
          for (int k = j + 1; k >= j - 1; k--)
            window += b[i][k];
          a[i][j] = window / 3.0;
        }
    }
#pragma acc update self(a[0:NX][0:NY])
    for (int i = 0; i < NX; i++)
      for (int j = 0; j < NY; j++)
        total += (i + 1) * a[i][j];
  }
  return total;
}

int main(void) {
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      u[i][j] = (i == 0) ? 100.0 : (j == NY - 1 ? 50.0 : 0.0);
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      w[i][j] = u[i][j];
  double (*cur)[NY] = u, (*nxt)[NY] = w;
  double alpha = 0.2, resid = 0.0;
  int snapshots = 0;
  double probe = 0.0;

#pragma acc data copy(u) copyin(w[0:NX][0:NY])
  {
    for (int s = 0; s < STEPS; s++) {
#pragma acc kernels loop independent collapse(2) present(cur[0:NX][0:NY], nxt[0:NX][0:NY])
      for (int i = 1; i < NX - 1; i++)
        for (int j = 1; j < NY - 1; j++)
          nxt[i][j] = cur[i][j] + alpha * (cur[i - 1][j] + cur[i + 1][j] + cur[i][j - 1] +
                                           cur[i][j + 1] - 4.0 * cur[i][j]);
      resid = 0.0;
#pragma acc parallel loop collapse(2) reduction(max:resid) present(cur[0:NX][0:NY], nxt[0:NX][0:NY])
      for (int i = 1; i < NX - 1; i++)
        for (int j = 1; j < NY - 1; j++)
          resid = fmax(resid, fabs(nxt[i][j] - cur[i][j]));
      double (*t)[NY] = cur;
      cur = nxt;
      nxt = t;
#pragma acc update self(cur[NX / 2:1][0:NY]) if(s % 10 == 9)
      if (s % 10 == 9) {
        snapshots++;
        probe += cur[NX / 2][NY / 2];
      }
    }
  }
  /* STEPS is even: the last result is in u again, copied back at the end of the region; w is
     the step before (not copied back: copyin). */
  double edge[NY];
  for (int j = 0; j < NY; j++)
    edge[j] = 0.25 * j;
  heat_edge(NY, u, edge);
  cool_first_column(u);
  double sum = 0.0;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++)
      sum += u[i][j];
  printf("stencil2d: snapshots=%d probe=%.6e resid=%.6e sum=%.6e u[1][1]=%.6e\n", snapshots,
         probe, resid, sum, u[1][1]);
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      p[i][j] = (i * 7 + j * 3) % 11;
      q[i][j] = (i + j) % 5;
    }
  double columns = column_sweeps(p, q);
  printf("stencil2d columns: total=%.6e p[3][5]=%.6e\n", columns, p[3][5]);
  return 0;
}
