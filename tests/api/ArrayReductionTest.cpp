// End to end: reductions on array sections and elements (OpenACC 3.3 §2.5.15). Each element
// starts from the host array's value, takes every iteration's contribution once on any number
// of devices, and the elements outside the section are left alone.
#include "tests/api/Fixture.h"
#include "tests/api/Helpers.h"

#include "jacc/jacc.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

class ArrayReductionTest : public DeviceTest {};

// ---- + max min on a section of an unmapped array ----------------------------------------------

const char *SectionSrc = "#pragma acc parallel loop present(x) reduction(+:s[1:4]) "
                         "reduction(max:mx[0:4]) reduction(min:mn[0:4])\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  s[1 + i % 4] += x[i];\n"
                         "  mx[i % 4] = x[i] > mx[i % 4] ? x[i] : mx[i % 4];\n"
                         "  mn[i % 4] = x[i] < mn[i % 4] ? x[i] : mn[i % 4];\n"
                         "}\n";

TEST_P(ArrayReductionTest, SectionsOfUnmappedArrays) {
  int n = 5003;
  std::vector<double> xv(n);
  for (int i = 0; i < n; i++)
    xv[i] = ((i * 37) % 201 - 100) * 0.25; // exact partial sums in any order
  double s[6] = {-1, 10, 20, 30, 40, -2}, mx[4] = {0, 0, 0, 100}, mn[4] = {0, 0, 0, -100};
  double rs[6] = {-1, 10, 20, 30, 40, -2}, rmx[4] = {0, 0, 0, 100}, rmn[4] = {0, 0, 0, -100};
  for (int i = 0; i < n; i++) {
    rs[1 + i % 4] += xv[i];
    rmx[i % 4] = xv[i] > rmx[i % 4] ? xv[i] : rmx[i % 4];
    rmn[i % 4] = xv[i] < rmn[i % 4] ? xv[i] : rmn[i % 4];
  }
  double *x = xv.data(), *ps = s, *pmx = mx, *pmn = mn;
  ASSERT_JACC(jacc_copyin(x, n * sizeof(double)));
  jacc_arg args[] = {{"int n", &n},
                     {"const double *x", &x},
                     {"double *s", &ps},
                     {"double *mx", &pmx},
                     {"double *mn", &pmn}};
  ASSERT_JACC(jacc_kernel_push(SectionSrc, 5, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(x, n * sizeof(double)));
  for (int k = 0; k < 6; k++)
    EXPECT_EQ(s[k], rs[k]) << k;
  for (int k = 0; k < 4; k++) {
    EXPECT_EQ(mx[k], rmx[k]) << k;
    EXPECT_EQ(mn[k], rmn[k]) << k;
  }
}

// ---- * & | ^ && || on int elements, the element's index an argument ----------------------------

const char *ElementSrc = "#pragma acc parallel loop reduction(*:m[j]) reduction(&:a[j]) "
                         "reduction(|:o[j]) reduction(^:x[j]) reduction(&&:l[j]) "
                         "reduction(||:g[j])\n"
                         "for (int i = 0; i < n; i++) {\n"
                         "  m[j] *= (i % 1000 == 1) ? 3 : 1;\n"
                         "  a[j] &= ~(1 << (i % 7));\n"
                         "  o[j] |= 1 << (i % 9);\n"
                         "  x[j] ^= i;\n"
                         "  l[j] = l[j] && i >= 0;\n"
                         "  g[j] = g[j] || i == n - 1;\n"
                         "}\n";

TEST_P(ArrayReductionTest, ElementsWithEveryOtherOperator) {
  int n = 4001, j = 2;
  int m[3] = {7, 7, 2}, a[3] = {7, 7, -1}, o[3] = {7, 7, 1 << 20}, x[3] = {7, 7, 5};
  long long l[3] = {0, 0, 1}, g[3] = {1, 1, 0};
  int rm = 2, ra = -1, ro = 1 << 20, rx = 5;
  for (int i = 0; i < n; i++) {
    rm *= (i % 1000 == 1) ? 3 : 1;
    ra &= ~(1 << (i % 7));
    ro |= 1 << (i % 9);
    rx ^= i;
  }
  int *pm = m, *pa = a, *po = o, *px = x;
  long long *pl = l, *pg = g;
  jacc_arg args[] = {{"int n", &n},         {"int j", &j},        {"int *m", &pm},
                     {"int *a", &pa},       {"int *o", &po},      {"int *x", &px},
                     {"long long *l", &pl}, {"long long *g", &pg}};
  ASSERT_JACC(jacc_kernel_push(ElementSrc, 8, args, JACC_DEFAULT));
  EXPECT_EQ(m[2], rm);
  EXPECT_EQ(a[2], ra);
  EXPECT_EQ(o[2], ro);
  EXPECT_EQ(x[2], rx);
  EXPECT_EQ(l[2], 1);
  EXPECT_EQ(g[2], 1);
  for (int k = 0; k < 2; k++) { // outside the element: untouched
    EXPECT_EQ(m[k], 7);
    EXPECT_EQ(a[k], 7);
    EXPECT_EQ(o[k], 7);
    EXPECT_EQ(x[k], 7);
    EXPECT_EQ(l[k], 0);
    EXPECT_EQ(g[k], 1);
  }
}

// ---- float elements, repeated pushes, and an inner loop's reduction on per-iteration data -----

const char *RepeatedSrc = "#pragma acc parallel loop present(w) reduction(+:h[0:8])\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  h[i % 8] += w[i];\n";

TEST_P(ArrayReductionTest, RepeatedPushesStartFromTheCurrentHostValues) {
  int n = 3000;
  std::vector<float> wv(n, 0.5f);
  float h[8] = {0};
  float *w = wv.data(), *ph = h;
  ASSERT_JACC(jacc_copyin(w, n * sizeof(float)));
  jacc_arg args[] = {{"int n", &n}, {"const float *w", &w}, {"float *h", &ph}};
  for (int r = 1; r <= 3; r++) {
    ASSERT_JACC(jacc_kernel_push(RepeatedSrc, 3, args, JACC_DEFAULT));
    for (int k = 0; k < 8; k++)
      EXPECT_EQ(h[k], r * 0.5f * (n / 8 + (k < n % 8 ? 1 : 0))) << r << " " << k;
  }
  ASSERT_JACC(jacc_delete(w, n * sizeof(float)));
}

const char *InnerLoopSrc = "#pragma acc parallel loop gang private(t) present(x, out)\n"
                           "for (int r = 0; r < rows; r++) {\n"
                           "  for (int k = 0; k < 4; k++) t[k] = 0;\n"
                           "#pragma acc loop vector reduction(+:t)\n"
                           "  for (int c = 0; c < cols; c++) t[c % 4] += x[r * cols + c];\n"
                           "  for (int k = 0; k < 4; k++) out[r * 4 + k] = t[k];\n"
                           "}\n";

TEST_P(ArrayReductionTest, InnerLoopReducesPerIterationData) {
  int rows = 37, cols = 101;
  std::vector<long long> xv(rows * cols), outv(rows * 4, -1), ref(rows * 4, 0);
  for (int i = 0; i < rows * cols; i++)
    xv[i] = i % 13;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      ref[r * 4 + c % 4] += xv[r * cols + c];
  long long *x = xv.data(), *out = outv.data();
  ASSERT_JACC(jacc_copyin(x, xv.size() * sizeof(long long)));
  ASSERT_JACC(jacc_create(out, outv.size() * sizeof(long long)));
  jacc_arg args[] = {{"int rows", &rows},
                     {"int cols", &cols},
                     {"long long t[4]", nullptr},
                     {"const long long *x", &x},
                     {"long long *out", &out}};
  void *none = nullptr;
  args[2].value = &none;
  ASSERT_JACC(jacc_kernel_push(InnerLoopSrc, 5, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_copyout(out, outv.size() * sizeof(long long)));
  ASSERT_JACC(jacc_delete(x, xv.size() * sizeof(long long)));
  EXPECT_EQ(outv, ref);
}

// ---- a mapped array: the result goes where the pointer points -----------------------------------

TEST_P(ArrayReductionTest, MappedArrayGetsTheResultInItsHostCopy) {
  int n = 1000;
  int c[4] = {1, 2, 3, 4};
  int *pc = c;
  ASSERT_JACC(jacc_copyin(c, sizeof c));
  const char *Src = "#pragma acc parallel loop reduction(+:c[0:4])\n"
                    "for (int i = 0; i < n; i++) c[i % 4] += 1;\n";
  jacc_arg args[] = {{"int n", &n}, {"int *c", &pc}};
  ASSERT_JACC(jacc_kernel_push(Src, 2, args, JACC_DEFAULT));
  ASSERT_JACC(jacc_delete(c, sizeof c));
  for (int k = 0; k < 4; k++)
    EXPECT_EQ(c[k], k + 1 + n / 4) << k;
}

JACC_DEVICE_CONFIGS(ArrayReductionTest);

} // namespace
