/* Black-Scholes option pricing in float and double: math library functions in kernels (expf,
   logf, sqrtf, fabsf, exp, log, sqrt, erfc), routines (seq) for the cumulative normal
   distribution, macros carried into the kernel, copyin/copyout of several arrays on one
   parallel loop, async(2) with a wait(2) clause on the next construct, and a + reduction of
   prices rounded to cents (integers: exact). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NOPT 2000
#define RISKFREE 0.02f
#define VOLATILITY 0.30f
#define INV_SQRT2 0.70710678118654752440

#pragma acc routine seq
static float cndf(float d) {
  const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
              a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
  float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float c = rsqrt2pi * expf(-0.5f * d * d) *
            (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0f - c : c;
}

#pragma acc routine seq
static double cnd(double d) { return 0.5 * erfc(-d * INV_SQRT2); }

int main(void) {
  int n = NOPT;
  float *S = malloc(n * sizeof *S), *X = malloc(n * sizeof *X), *T = malloc(n * sizeof *T);
  float *call = malloc(n * sizeof *call), *put = malloc(n * sizeof *put);
  double *dcall = malloc(n * sizeof *dcall);
  for (int i = 0; i < n; i++) {
    S[i] = 5.0f + (i % 25);
    X[i] = 1.0f + (i % 30);
    T[i] = 0.25f + (i % 10) * 0.25f;
  }

#pragma acc parallel loop copyin(S[0:n], X[0:n], T[0:n]) copyout(call[0:n], put[0:n]) async(2)
  for (int i = 0; i < n; i++) {
    float sqrtT = sqrtf(T[i]);
    float d1 = (logf(S[i] / X[i]) + (RISKFREE + 0.5f * VOLATILITY * VOLATILITY) * T[i]) /
               (VOLATILITY * sqrtT);
    float d2 = d1 - VOLATILITY * sqrtT;
    float expRT = expf(-RISKFREE * T[i]);
    call[i] = S[i] * cndf(d1) - X[i] * expRT * cndf(d2);
    put[i] = X[i] * expRT * (1.0f - cndf(d2)) - S[i] * (1.0f - cndf(d1));
  }

  long cents = 0;
  double r = RISKFREE, v = VOLATILITY;
#pragma acc parallel loop wait(2) copyin(S[0:n], X[0:n], T[0:n]) copyout(dcall[0:n]) \
    reduction(+:cents)
  for (int i = 0; i < n; i++) {
    double s = S[i], x = X[i], t = T[i];
    double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrt(t));
    double d2 = d1 - v * sqrt(t);
    dcall[i] = s * cnd(d1) - x * exp(-r * t) * cnd(d2);
    cents += (long)floor(dcall[i] * 100.0 + 0.5);
  }

  double sc = 0.0, sp = 0.0, maxdiff = 0.0;
  for (int i = 0; i < n; i++) {
    sc += call[i];
    sp += put[i];
    maxdiff = fmax(maxdiff, fabs(call[i] - dcall[i]));
  }
  printf("blackscholes: calls=%.4e puts=%.4e call[7]=%.4e cents=%ld float-vs-double<1e-3=%d\n", sc,
         sp, call[7], cents, maxdiff < 1e-3);
  free(S);
  free(X);
  free(T);
  free(call);
  free(put);
  free(dcall);
  return 0;
}
