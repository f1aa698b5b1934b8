/* Arrays linearized with run-time strides, as most C codes write them: a 2-D heat step on rows of
   a run-time length whose count no number of devices divides (the devices' parts cross rows), a
   3-D smoothing through a macro of NPB MG's shape (I3D), a row sweep that reads back what it
   just wrote (a recurrence along each row: it cannot split by elements), a collapsed nest, and a
   reversed copy. */
#include <stdio.h>

#define I3D(a, n1, n2, i3, i2, i1) a[((i3) * (n2) + (i2)) * (n1) + (i1)]

static double checksum(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * (1 + i % 7);
  return s;
}

int main(void) {
  int rows = 61, cols = 37, steps = 5;
  static double t[61 * 37], tn[61 * 37];
  for (int i = 0; i < rows * cols; i++)
    t[i] = tn[i] = (i * 13) % 17;
#pragma acc data copy(t[0:rows * cols], tn[0:rows * cols])
  for (int s = 0; s < steps; s++) {
#pragma acc parallel loop
    for (int i = 1; i < rows - 1; i++)
      for (int j = 1; j < cols - 1; j++)
        tn[i * cols + j] = t[i * cols + j] + 0.1 * (t[(i - 1) * cols + j] + t[(i + 1) * cols + j] +
                                                     t[i * cols + j - 1] + t[i * cols + j + 1] -
                                                     4 * t[i * cols + j]);
#pragma acc parallel loop
    for (int i = 1; i < rows - 1; i++)
      for (int j = 1; j < cols - 1; j++)
        t[i * cols + j] = tn[i * cols + j];
  }
  printf("heat %.6f\n", checksum(t, rows * cols));

  int n1 = 9, n2 = 7, n3 = 11;
  static double u[11 * 7 * 9], v[11 * 7 * 9];
  for (int i = 0; i < n1 * n2 * n3; i++)
    u[i] = (i * 7) % 23, v[i] = 0;
#pragma acc parallel loop copyin(u[0:n1 * n2 * n3]) copy(v[0:n1 * n2 * n3])
  for (int i3 = 1; i3 < n3 - 1; i3++)
    for (int i2 = 1; i2 < n2 - 1; i2++)
      for (int i1 = 1; i1 < n1 - 1; i1++)
        I3D(v, n1, n2, i3, i2, i1) = I3D(u, n1, n2, i3 - 1, i2, i1) + I3D(u, n1, n2, i3 + 1, i2, i1) +
                                     I3D(u, n1, n2, i3, i2 - 1, i1) + I3D(u, n1, n2, i3, i2 + 1, i1) -
                                     2 * I3D(u, n1, n2, i3, i2, i1);
  printf("smooth %.6f\n", checksum(v, n1 * n2 * n3));

#pragma acc parallel loop copy(t[0:rows * cols])
  for (int i = 0; i < rows; i++)
    for (int j = 1; j < cols; j++)
      t[i * cols + j] = 0.5 * (t[i * cols + j] + t[i * cols + j - 1]);
  printf("sweep %.6f\n", checksum(t, rows * cols));

  /* Both loops shared (collapse): each row's elements still lie in one span per i. */
#pragma acc parallel loop collapse(2) copyin(t[0:rows * cols]) copy(tn[0:rows * cols])
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      tn[i * cols + j] = t[i * cols + j] + (j > 0 ? t[i * cols + j - 1] : 0);
  printf("collapsed %.6f\n", checksum(tn, rows * cols));

  int n = rows * cols;
#pragma acc parallel loop copyin(t[0:n]) copyout(tn[0:n])
  for (int i = 0; i < n; i++)
    tn[n - 1 - i] = 2 * t[i];
  printf("reversed %.6f\n", checksum(tn, n));
  return 0;
}
