// A stencil over std::vector data through .data(), with float math (std::sqrt of a float is
// sqrtf) and a struct of parameters passed by value.
#include <cmath>
#include <cstdio>
#include <vector>

struct Params {
  float alpha;
  int iters;
};

static void relax(std::vector<float> &grid, int nx, int ny, const Params &p) {
  std::vector<float> next(grid.size(), 0.0f);
  float *a = grid.data(), *b = next.data();
  const int size = nx * ny;
#pragma acc data copy(a[0:size]) create(b[0:size])
  for (int it = 0; it < p.iters; it++) {
#pragma acc parallel loop collapse(2) present(a[0:size], b[0:size])
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++) {
        float lap = a[(j - 1) * nx + i] + a[(j + 1) * nx + i] + a[j * nx + i - 1] +
                    a[j * nx + i + 1] - 4.0f * a[j * nx + i];
        b[j * nx + i] = a[j * nx + i] + p.alpha * lap + std::sqrt(0.0f * a[j * nx + i]);
      }
#pragma acc parallel loop collapse(2) present(a[0:size], b[0:size])
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        a[j * nx + i] = b[j * nx + i];
  }
}

int main() {
  const int nx = 64, ny = 48;
  std::vector<float> grid(nx * ny, 0.0f);
  for (int i = 0; i < nx; i++)
    grid[i] = 100.0f; // a hot top row
  relax(grid, nx, ny, Params{0.2f, 30});
  double sum = 0;
  for (float x : grid)
    sum += x;
  std::printf("heat %.3f\n", sum);
  return 0;
}
