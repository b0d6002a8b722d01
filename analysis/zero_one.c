/* SPDX-License-Identifier: MIT */
/* The 0-1 test for chaos, modified, correlation method (Gottwald & Melbourne
 * 2009, see zero_one.h).
 *
 * For a series phi_j (j = 1..N), standardised here to mean 0 and deviation 1
 * (the test is invariant under scaling, and with mean 0 the oscillatory term
 * V_osc = (E phi)^2 (1 - cos nc) / (1 - cos c) of the modified test
 * vanishes), and a frequency c:
 *   p_c(n) = sum_{j<=n} phi_j cos(jc),  q_c(n) = sum_{j<=n} phi_j sin(jc),
 *   M_c(n) = mean over j of (p_c(j+n) - p_c(j))^2 + (q_c(j+n) - q_c(j))^2,
 *   D_c(n) = M_c(n) - V_osc(c, n) + sigma eta_n,   n = 1..ncut = N/10,
 * with eta_n uniform on [-1/2, 1/2] and sigma = 1/2: the regularising term
 * of the modified test. Regular dynamics (periodic, quasiperiodic) keep
 * (p, q) bounded, so D_c(n) is bounded and oscillates, and its correlation
 * with n can come out sizeable by accident of the oscillation's phase; the
 * term decorrelates a bounded D_c from n and leaves a growing one (chaos:
 * D_c(n) ~ n, of size ncut / 2 = 100 at N = 2000 against 1/2) as it was.
 * K_c = correlation coefficient of (n, D_c(n)); K = median of K_c over
 * CS_ZERO_ONE_NC frequencies c uniform in (pi/5, 4 pi/5), away from the
 * resonances c = 0, pi (and from c = 2 pi/3 etc. only statistically: the
 * median discards the few resonant c of a periodic series, where K_c ~ 1).
 * The frequencies and eta come from GSL's MT19937 seeded with a fixed seed
 * on every call: the same data give the same K whatever the thread and the
 * order of the points.
 *
 * Data: the section points (a map, so there is no oversampling of a
 * continuous signal, the test's usual pitfall) through a generic linear
 * observable (zero_one.h). */
#include "analysis/zero_one.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#define SIGMA 0.5

double cs_zero_one_k(const double *x, size_t N)
{
  if (!x || N < CS_ZERO_ONE_MIN)
    return NAN;
  if (N > CS_ZERO_ONE_MAX) {
    x += N - CS_ZERO_ONE_MAX;
    N = CS_ZERO_ONE_MAX;
  }
  double mean = gsl_stats_mean(x, 1, N), sd = gsl_stats_sd_m(x, 1, N, mean);
  if (!(sd > 1e-300) || !isfinite(sd))
    return NAN;
  size_t ncut = N / 10;
  double *phi = malloc(N * sizeof *phi), *p = malloc((N + 1) * sizeof *p),
         *q = malloc((N + 1) * sizeof *q), *nn = malloc(ncut * sizeof *nn),
         *D = malloc(ncut * sizeof *D), *K = malloc(CS_ZERO_ONE_NC * sizeof *K);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  double k = NAN;
  if (!phi || !p || !q || !nn || !D || !K || !rng)
    goto done;
  gsl_rng_set(rng, CS_ZERO_ONE_SEED);
  for (size_t j = 0; j < N; j++)
    phi[j] = (x[j] - mean) / sd;
  for (size_t i = 0; i < ncut; i++)
    nn[i] = (double)(i + 1);
  for (size_t ic = 0; ic < CS_ZERO_ONE_NC; ic++) {
    double c = M_PI / 5.0 + gsl_rng_uniform(rng) * 3.0 * M_PI / 5.0;
    p[0] = q[0] = 0.0;
    for (size_t j = 1; j <= N; j++) {
      p[j] = p[j - 1] + phi[j - 1] * cos((double)j * c);
      q[j] = q[j - 1] + phi[j - 1] * sin((double)j * c);
    }
    for (size_t i = 0; i < ncut; i++) {
      size_t n = i + 1;
      double s = 0;
      for (size_t j = 1; j + n <= N; j++) {
        double dp = p[j + n] - p[j], dq = q[j + n] - q[j];
        s += dp * dp + dq * dq;
      }
      D[i] = s / (double)(N - n) + SIGMA * (gsl_rng_uniform(rng) - 0.5);
    }
    K[ic] = gsl_stats_correlation(nn, 1, D, 1, ncut);
  }
  gsl_sort(K, 1, CS_ZERO_ONE_NC);
  k = gsl_stats_median_from_sorted_data(K, 1, CS_ZERO_ONE_NC);
done:
  gsl_rng_free(rng);
  free(phi), free(p), free(q), free(nn), free(D), free(K);
  return k;
}

int cs_zero_one_observable(const double *rows, size_t N, size_t cols, size_t n, const int *angle,
                           double *phi)
{
  int used = 0;
  for (size_t j = 0; j < N; j++)
    phi[j] = 0.0;
  /* column parts: a state, or the sin and cos of an angle */
  for (size_t i = 0; i < n; i++) {
    for (int part = 0; part < (angle && angle[i] ? 2 : 1); part++) {
      double s = 0, s2 = 0;
      for (size_t j = 0; j < N; j++) {
        double v = rows[j * cols + 1 + i];
        v = angle && angle[i] ? (part ? cos(v) : sin(v)) : v;
        s += v;
        s2 += v * v;
      }
      double mean = s / (double)N, var = s2 / (double)N - mean * mean;
      /* constant up to round-off (the section variable's column) */
      if (!(var > 1e-24 * fmax(s2 / (double)N, 1e-300)))
        continue;
      double w = 1.0 / (1.0 + (double)i + 0.5 * part) / sqrt(var);
      for (size_t j = 0; j < N; j++) {
        double v = rows[j * cols + 1 + i];
        v = angle && angle[i] ? (part ? cos(v) : sin(v)) : v;
        phi[j] += w * (v - mean);
      }
      used = 1;
    }
  }
  return used ? 0 : -1;
}
