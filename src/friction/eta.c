/* SPDX-License-Identifier: MIT */
/* eta <-> eta' of the regularization (JTAM 2016 §4, Acta Mech. 2016 §2).
 *
 * In pure translation the regularized force magnitude is, with u = lambda/eps
 * (p = 1) or u = (lambda/eps)^3 (p = 3),
 *   g(u) = u/sqrt(u^2+1) + eta' u/(u^2+1)^2,      eta = sup_{u>0} g(u).
 * g'(u) = (1+u^2)^(-3/2) + eta' (1 - 3u^2)/(1+u^2)^3 vanishes where
 *   h(u) = eta' (3u^2 - 1) - (1+u^2)^(3/2) = 0,
 * whose smaller root (u > 1/sqrt 3) is the local maximum of g. When h has no
 * root, g increases to its supremum 1 at u -> infinity.
 *
 * Eliminating eta' between g(u) = eta and h(u) = 0 gives the maximizer's
 * curve in closed form:
 *   eta'(u) = (1+u^2)^(3/2) / (3u^2 - 1),   eta(u) = 3u^3 / ((3u^2 - 1) sqrt(1+u^2)),
 * so eta -> eta' is one well-conditioned 1-D root find (in t = 3u^2 - 1, see below),
 * and the peak disappears (eta = 1) at 9u^6 = (1+u^2)(3u^2-1)^2, i.e.
 * u_c^2 = (5 + sqrt 13)/6, eta'_c = eta'(u_c) ~ 1.1503. The opposite direction,
 * eta' -> eta, maximizes g through the root of h: an independent route, which
 * the tests use to check both. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "core/error_private.h"
#include "core/gsl_quiet.h"
#include "friction/friction.h"
#include "friction/friction_private.h"

double cs_eta_g(double eta_prime, double u)
{
  /* beyond 2^500, 1 + u^2 rounds to u^2 and u/(u^2+1)^2 to 0 */
  if (fabs(u) > 0x1p500)
    return copysign(1.0, u);
  double q = 1.0 + u * u;
  return u / sqrt(q) + eta_prime * u / (q * q);
}

/* The maximizer's curve in t = 3u^2 - 1 rather than in u: the static peak
 * grows like eta ~ 1/(2t) as u -> 1/sqrt(3), so large eta (or eta') put the
 * maximizer within ~1/eta of the pole; in u that distance is lost to rounding
 * once eta exceeds ~1e3 (eta' = 1e10 gave back eta = 3.2e9 instead of 1e10),
 * in t it is a relative distance like any other. */
static double u_of_t(double t)
{
  return sqrt((1.0 + t) / 3.0);
}

/* t eta(t) = 3u^3 / sqrt(1 + u^2): smooth, 1/2 at t = 0, increasing. */
static double t_eta_of_t(double t)
{
  double u = u_of_t(t);
  return 3.0 * u * u * u / sqrt(1.0 + u * u);
}

/* t eta'(t) = (1 + u^2)^(3/2) = ((4 + t)/3)^(3/2). */
static double t_eta_prime_of_t(double t)
{
  double q = (4.0 + t) / 3.0;
  return q * sqrt(q);
}

/* t at u_c, where the peak disappears: 3 u_c^2 - 1 = (3 + sqrt 13)/2. */
static double critical_t(void)
{
  return 0.5 * (3.0 + sqrt(13.0));
}

double cs_eta_prime_critical(void)
{
  double tc = critical_t();
  return t_eta_prime_of_t(tc) / tc;
}

/* Brent's method on f over [lo, hi] (f(lo), f(hi) of opposite sign). */
static enum cs_status brent(double (*f)(double, void *), void *ctx, double lo, double hi,
                            double *root)
{
  gsl_function F = {.function = f, .params = ctx};
  gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!s)
    return CS_FAIL(CS_ERR_NOMEM);
  cs_gsl_quiet();
  enum cs_status st = CS_ERR_NOCONV;
  if (gsl_root_fsolver_set(s, &F, lo, hi) == GSL_SUCCESS) {
    for (int iter = 0; iter < 200; iter++) {
      if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
        break;
      double a = gsl_root_fsolver_x_lower(s), b = gsl_root_fsolver_x_upper(s);
      if (gsl_root_test_interval(a, b, 0.0, 4 * GSL_DBL_EPSILON) == GSL_SUCCESS) {
        st = CS_OK;
        break;
      }
    }
    *root = gsl_root_fsolver_root(s);
  }
  gsl_root_fsolver_free(s);
  return st;
}

/* h in t: eta' t - ((4 + t)/3)^(3/2), whose smaller root is the maximizer. */
static double h_of_t(double t, void *ctx)
{
  double ep = *(const double *)ctx;
  return ep * t - t_eta_prime_of_t(t);
}

enum cs_status cs_eta_from_eta_prime(double eta_prime, double *eta, double *u_max)
{
  if (!(eta_prime >= 0 && eta_prime <= CS_ETA_PRIME_MAX))
    return CS_FAIL(CS_ERR_RANGE);
  /* h(t) is largest at t* = 12 eta'^2 - 4 (where sqrt((4+t)/3) = 2 eta'), so g
   * has a local maximum only if t* > 0 and h(t*) > 0; then the root lies in
   * (0, t*). Beyond eta' = 10, [c0/eta', 4/eta'] with c0 = (4/3)^(3/2)
   * brackets it (h < 0 at the left end, > 0 at the right) whatever eta' is,
   * which keeps t* from overflowing and Brent from bisecting 1e300 down. */
  double c0 = t_eta_prime_of_t(0.0);
  double lo = 0.0, hi = 12.0 * eta_prime * eta_prime - 4.0;
  if (eta_prime >= 10.0)
    lo = c0 / eta_prime, hi = 4.0 / eta_prime;
  else if (hi > 0 && c0 / eta_prime < hi)
    lo = c0 / eta_prime;
  if (hi > 0 && h_of_t(hi, &eta_prime) > 0) {
    double t1;
    enum cs_status st = brent(h_of_t, &eta_prime, lo, hi, &t1);
    if (st != CS_OK)
      return st;
    double u1 = u_of_t(t1);
    double g1 = cs_eta_g(eta_prime, u1);
    if (g1 > 1.0) {
      *eta = g1;
      if (u_max)
        *u_max = u1;
      return CS_OK;
    }
  }
  *eta = 1.0;
  if (u_max)
    *u_max = INFINITY;
  return CS_OK;
}

/* t eta(t) - eta t: the residual without the pole of eta(t) at t = 0. */
static double eta_residual(double t, void *ctx)
{
  return t_eta_of_t(t) - *(const double *)ctx * t;
}

enum cs_status cs_eta_prime_from_eta(double eta, double *eta_prime)
{
  if (!(eta >= 1.0 && eta <= CS_ETA_MAX))
    return CS_FAIL(CS_ERR_RANGE);
  if (eta == 1.0) {
    *eta_prime = 0.0;
    return CS_OK;
  }
  /* eta(t) falls from +inf at t = 0 to 1 at t_c. t eta(t) lies in [1/2, t_c],
   * so the residual is > 0 at t = 1/(4 eta); it is < 0 at t_c (eta > 1) and,
   * once eta >= 2, already at t = 1/eta (t eta(t) < 1 there): a bracket whose
   * ends differ by a factor 4 for any large eta. */
  double tc = critical_t();
  double lo = 0.25 / eta, hi = eta >= 2.0 ? 1.0 / eta : tc;
  double t;
  enum cs_status st = brent(eta_residual, &eta, lo, hi, &t);
  if (st != CS_OK)
    return st;
  *eta_prime = t_eta_prime_of_t(t) / t;
  return CS_OK;
}

enum cs_status cs_eta_prime_cubic_fit(double eta, double *eta_prime)
{
  if (eta >= 1.0 && eta <= 1.3) {
    *eta_prime = -13.607 + eta * (30.893 + eta * (-22.01 + eta * 5.878));
    return CS_OK;
  }
  if (eta > 1.3 && eta <= 2.7) {
    *eta_prime = -2.41 + eta * (3.985 + eta * (-0.3581 + eta * 0.0493));
    return CS_OK;
  }
  return CS_FAIL(CS_ERR_RANGE);
}
