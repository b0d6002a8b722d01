/* SPDX-License-Identifier: MIT */
/* Periodicity of section points and block statistics.
 *
 * Periodicity: for k = 1, 2, ..., max_period, the trailing window is the
 * last half of the rows (at least 3k rows, so that a period repeats at least
 * twice; a k with fewer rows cannot be decided and ends the search). Each
 * state column c gets the tolerance
 *   tol_c = tol (spread_c + max |P_c|) + abs_tol_c,
 * spread_c = max - min of the column over the window (an angle column is
 * first taken relative to the window's first row, wrapped into (-pi, pi]),
 * max |P_c| its largest magnitude (unwrapped: the integrator's error in an
 * angle that counts turns grows with it). This mirrors the integrator's
 * error weight rtol |y| + atol: a converged orbit repeats to the global error
 * of one revolution, which is relative to the values, and abs_tol only keeps
 * columns near zero from demanding exact repeats. It must stay small (the
 * point analysis uses 10 atol_c): an absolute tolerance comparable to a
 * small orbit would call the section points of a slowly decaying oscillation
 * periodic. k is the period if
 *   |P_{i+k,c} - P_{i,c}| <= tol_c   (angles: the difference mod 2 pi)
 * for every compared c and every i with i, i + k in the window, and, if
 * speeds are given, |s_{i+k} - s_i| <= speed_tol max(s_i, s_{i+k}). The
 * speed (the point analysis passes the residual rate |f| / (|y| + scale))
 * is what tells a periodic orbit from an orbit spiralling into an
 * equilibrium: there the section points also converge, and once their
 * steps fall below tol_c they pass the state test, but the speed keeps
 * shrinking by the same factor at every turn, while on a periodic orbit it
 * repeats. Compared relatively, it has no offset to hide in. The section
 * variable's own column (constant up to the root finder's precision) and the
 * time column are not compared; the period in time is the mean of
 * t_{i+k} - t_i. */
#include "analysis/classify.h"

#include <math.h>

static double wrap(double a)
{
  return remainder(a, 2.0 * M_PI);
}

static double col(const struct cs_sect_cmp *c, const double *rows, size_t i, size_t j)
{
  return rows[i * c->cols + 1 + j];
}

int cs_sect_period(const struct cs_sect_cmp *c, const double *rows, size_t nrows, int max_period,
                   double *period_time, size_t *first)
{
  for (int k = 1; k <= max_period; k++) {
    size_t kk = (size_t)k;
    if (nrows < 3 * kk)
      break;
    size_t w = nrows / 2 > 3 * kk ? nrows / 2 : 3 * kk, i0 = nrows - w;
    int ok = 1;
    for (size_t j = 0; j < c->n && ok; j++) {
      if ((int)j == c->skip)
        continue;
      double ref = col(c, rows, i0, j), lo = 0, hi = 0, mag = 0;
      for (size_t i = i0; i < nrows; i++) {
        double v = col(c, rows, i, j) - ref;
        if (c->angle[j])
          v = wrap(v);
        lo = fmin(lo, v);
        hi = fmax(hi, v);
        mag = fmax(mag, fabs(col(c, rows, i, j)));
      }
      double lim = c->tol * (hi - lo + mag) + c->abs_tol[j];
      for (size_t i = i0; i + kk < nrows && ok; i++) {
        double d = col(c, rows, i + kk, j) - col(c, rows, i, j);
        if (c->angle[j])
          d = wrap(d);
        ok = fabs(d) <= lim;
      }
    }
    for (size_t i = i0; c->speed && i + kk < nrows && ok; i++) {
      double a = c->speed[i], b = c->speed[i + kk];
      ok = fabs(b - a) <= c->speed_tol * fmax(a, b);
    }
    if (!ok)
      continue;
    double sum = 0;
    for (size_t i = i0; i + kk < nrows; i++)
      sum += rows[(i + kk) * c->cols] - rows[i * c->cols];
    *period_time = sum / (double)(nrows - kk - i0);
    *first = i0;
    return k;
  }
  return 0;
}

void cs_sect_stats(const struct cs_sect_cmp *c, const double *rows, size_t nrows, const double *ref,
                   double *stats)
{
  size_t n = c->n;
  for (size_t j = 0; j < n; j++) {
    double s = 0, s2 = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < nrows; i++) {
      double v = col(c, rows, i, j);
      if (c->angle[j])
        v = wrap(v - ref[j]);
      s += v;
      s2 += v * v;
      lo = fmin(lo, v);
      hi = fmax(hi, v);
    }
    double mean = s / (double)nrows, var = s2 / (double)nrows - mean * mean;
    stats[j] = mean;
    stats[n + j] = sqrt(fmax(var, 0.0));
    stats[2 * n + j] = hi - lo;
  }
}

double cs_sect_drift(const struct cs_sect_cmp *c, const double *a, const double *b,
                     const double *scale)
{
  size_t n = c->n;
  double d = 0;
  for (size_t j = 0; j < n; j++) {
    if ((int)j == c->skip)
      continue;
    double s = fmax(a[2 * n + j], b[2 * n + j]) + scale[j];
    d = fmax(d, (fabs(b[j] - a[j]) + fabs(b[n + j] - a[n + j])) / s);
  }
  return d;
}
