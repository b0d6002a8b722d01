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
 * t_{i+k} - t_i.
 *
 * Convergence (cs_sect_converge). A stable periodic orbit is approached
 * geometrically: the section points' change from one cycle to the next
 * shrinks by the orbit's leading Floquet multiplier rho per cycle (the
 * belt's stick-slip orbit of JTAM figure 4a: rho = 0.805). Passing the
 * periodicity test only says that the change per cycle is below the
 * tolerance; the orbit still has C rho / (1 - rho) to go (4 C there, 99 C
 * for rho = 0.99), and the period measured meanwhile is off by as much. So
 * the per-cycle changes C_j (normalised by tol_c) are measured over all
 * rows, rho from the ratio of their sums over the last and the first half
 * of the cycles (a ratio of sums, not of single changes, so that round-off
 * in one cycle does not decide it), and the remaining change is
 * extrapolated. Changes that do not shrink (rho >= 1) are noise when they
 * are below the tolerance (remaining = last) and a drift otherwise
 * (INFINITY). Where the contraction is measurable (rho <= 0.95 and the
 * changes well above round-off, C_last >= 1e-3) the cycle times tau_j are
 * fitted by least squares to tau_inf + a rho^j and tau_inf is the period's
 * limit: on the belt orbit it is within 1e-8 of the converged period from
 * any window of 8 cycles, where the window's mean was off by 3e-5 after 20
 * cycles. */
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

/* tol_c over all rows, as in cs_sect_period. */
static double col_limit(const struct cs_sect_cmp *c, const double *rows, size_t nrows, size_t j)
{
  double ref = col(c, rows, 0, j), lo = 0, hi = 0, mag = 0;
  for (size_t i = 0; i < nrows; i++) {
    double v = col(c, rows, i, j) - ref;
    if (c->angle[j])
      v = wrap(v);
    lo = fmin(lo, v);
    hi = fmax(hi, v);
    mag = fmax(mag, fabs(col(c, rows, i, j)));
  }
  return c->tol * (hi - lo + mag) + c->abs_tol[j];
}

#define CONV_MAX_CYCLES 4096 /* cycles measured at most (the latest) */

void cs_sect_converge(const struct cs_sect_cmp *c, const double *rows, size_t nrows, int k,
                      struct cs_sect_conv *out)
{
  *out = (struct cs_sect_conv){0, NAN, NAN, INFINITY, NAN};
  size_t kk = k > 0 ? (size_t)k : 1, m = nrows / kk;
  if (m < 2)
    return;
  m -= 1; /* cycles with a successor */
  if (m > CONV_MAX_CYCLES)
    m = CONV_MAX_CYCLES;
  size_t i0 = nrows - (m + 1) * kk; /* the latest m + 1 whole cycles */
  double lim[64], C[CONV_MAX_CYCLES], tau[CONV_MAX_CYCLES];
  size_t n = c->n < 64 ? c->n : 64;
  for (size_t j = 0; j < n; j++)
    lim[j] = col_limit(c, rows + i0 * c->cols, nrows - i0, j);
  for (size_t q = 0; q < m; q++) {
    double cm = 0;
    for (size_t i = i0 + q * kk; i < i0 + (q + 1) * kk; i++)
      for (size_t j = 0; j < n; j++) {
        if ((int)j == c->skip || !(lim[j] > 0))
          continue;
        double d = col(c, rows, i + kk, j) - col(c, rows, i, j);
        if (c->angle[j])
          d = wrap(d);
        cm = fmax(cm, fabs(d) / lim[j]);
      }
    C[q] = cm;
    tau[q] = rows[(i0 + (q + 1) * kk) * c->cols] - rows[(i0 + q * kk) * c->cols];
  }
  out->cycles = m;
  out->last = C[m - 1];
  if (m < 4) {
    /* too few cycles for a ratio: only the latest change counts */
    out->remaining = out->last;
    return;
  }
  size_t h = m / 2, shift = m - h;
  double s1 = 0, s2 = 0;
  for (size_t q = 0; q < h; q++) {
    s1 += C[q];
    s2 += C[m - h + q];
  }
  double rho = s1 > 0 ? pow(s2 / s1, 1.0 / (double)shift) : 0.0;
  out->rho = rho;
  if (!(rho < 1.0)) {
    out->remaining = out->last <= 1.0 ? out->last : INFINITY;
    return;
  }
  out->remaining = out->last * rho / (1.0 - rho);
  if (!(rho <= 0.95) || !(out->last >= 1e-3))
    return;
  /* least squares tau_q = tau_inf + a rho^q */
  double S0 = 0, Sr = 0, Srr = 0, St = 0, Srt = 0, r = 1.0;
  for (size_t q = 0; q < m; q++, r *= rho) {
    S0 += 1;
    Sr += r;
    Srr += r * r;
    St += tau[q];
    Srt += r * tau[q];
  }
  double det = S0 * Srr - Sr * Sr;
  if (det > 0)
    out->period_time = (Srr * St - Sr * Srt) / det;
}

int cs_sect_decays(const struct cs_sect_cmp *c, const double *rows, size_t nrows, int k,
                   double *rho, double *remaining)
{
  size_t kk = k > 0 ? (size_t)k : 1, m = nrows / kk;
  if (m < 9)
    return 0;
  m -= 1;
  if (m > CONV_MAX_CYCLES)
    m = CONV_MAX_CYCLES;
  size_t i0 = nrows - (m + 1) * kk;
  double lim[64];
  size_t n = c->n < 64 ? c->n : 64;
  for (size_t j = 0; j < n; j++)
    lim[j] = col_limit(c, rows + i0 * c->cols, nrows - i0, j);
  /* least squares log C_q = a + s q */
  double S0 = 0, Sq = 0, Sqq = 0, Sy = 0, Sqy = 0, Syy = 0, last = 0;
  for (size_t q = 0; q < m; q++) {
    double cm = 0;
    for (size_t i = i0 + q * kk; i < i0 + (q + 1) * kk; i++)
      for (size_t j = 0; j < n; j++) {
        if ((int)j == c->skip || !(lim[j] > 0))
          continue;
        double d = col(c, rows, i + kk, j) - col(c, rows, i, j);
        if (c->angle[j])
          d = wrap(d);
        cm = fmax(cm, fabs(d) / lim[j]);
      }
    if (!(cm > 0))
      return 0; /* a change of exactly zero: nothing left to shrink */
    double y = log(cm), x = (double)q;
    S0 += 1, Sq += x, Sqq += x * x, Sy += y, Sqy += x * y, Syy += y * y;
    last = cm;
  }
  double det = S0 * Sqq - Sq * Sq;
  if (!(det > 0))
    return 0;
  double slope = (S0 * Sqy - Sq * Sy) / det, icpt = (Sy - slope * Sq) / S0;
  double sse = Syy - icpt * Sy - slope * Sqy; /* residual sum of squares */
  double se = sqrt(fmax(sse, 0.0) / (S0 - 2.0) * S0 / det);
  /* significant, and not merely round-off: changes that repeat are equal to
   * about 1e-9 relative, so that a residual of that size alone could make a
   * slope of that size "significant"; a shrinking by 1e-4 per cycle is far
   * above it (and corresponds to a multiplier within 1e-4 of -1) */
  if (!(slope < -4.0 * se) || !(slope < -1e-4) || !(exp(icpt) > 1.0))
    return 0;
  *rho = exp(slope);
  *remaining = last * *rho / (1.0 - *rho);
  return 1;
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
