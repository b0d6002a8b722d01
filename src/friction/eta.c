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
 * so eta -> eta' is one well-conditioned 1-D root find in u on (1/sqrt 3, u_c],
 * and the peak disappears (eta = 1) at 9u^6 = (1+u^2)(3u^2-1)^2, i.e.
 * u_c^2 = (5 + sqrt 13)/6, eta'_c = eta'(u_c) ~ 1.1503. The opposite direction,
 * eta' -> eta, maximizes g through the root of h: an independent route, which
 * the tests use to check both. */
#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "core/gsl_quiet.h"
#include "friction/friction.h"

double cs_eta_g(double eta_prime, double u)
{
  double q = 1.0 + u * u;
  return u / sqrt(q) + eta_prime * u / (q * q);
}

static double critical_u(void)
{
  return sqrt((5.0 + sqrt(13.0)) / 6.0);
}

static double eta_prime_of_u(double u)
{
  double q = 1.0 + u * u;
  return q * sqrt(q) / (3.0 * u * u - 1.0);
}

static double eta_of_u(double u)
{
  return 3.0 * u * u * u / ((3.0 * u * u - 1.0) * sqrt(1.0 + u * u));
}

double cs_eta_prime_critical(void)
{
  return eta_prime_of_u(critical_u());
}

/* Brent's method on f over [lo, hi] (f(lo), f(hi) of opposite sign). */
static enum cs_status brent(double (*f)(double, void *), void *ctx, double lo, double hi,
                            double *root)
{
  gsl_function F = {.function = f, .params = ctx};
  gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!s)
    return CS_ERR_NOMEM;
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

static double h_of_u(double u, void *ctx)
{
  double ep = *(const double *)ctx;
  double q = 1.0 + u * u;
  return ep * (3.0 * u * u - 1.0) - q * sqrt(q);
}

enum cs_status cs_eta_from_eta_prime(double eta_prime, double *eta, double *u_max)
{
  if (!(eta_prime >= 0) || !isfinite(eta_prime))
    return CS_ERR_RANGE;
  /* h'(u) = 3u (2 eta' - sqrt(1+u^2)) vanishes at u* = sqrt(4 eta'^2 - 1): h is largest
   * there, so g has a local maximum only if h(u*) > 0. */
  double us = 4.0 * eta_prime * eta_prime - 1.0;
  double lo = 1.0 / sqrt(3.0);
  if (us > lo * lo) {
    us = sqrt(us);
    if (h_of_u(us, &eta_prime) > 0) {
      double u1;
      enum cs_status st = brent(h_of_u, &eta_prime, lo, us, &u1);
      if (st != CS_OK)
        return st;
      double g1 = cs_eta_g(eta_prime, u1);
      if (g1 > 1.0) {
        *eta = g1;
        if (u_max)
          *u_max = u1;
        return CS_OK;
      }
    }
  }
  *eta = 1.0;
  if (u_max)
    *u_max = INFINITY;
  return CS_OK;
}

static double eta_residual(double u, void *ctx)
{
  return eta_of_u(u) - *(const double *)ctx;
}

enum cs_status cs_eta_prime_from_eta(double eta, double *eta_prime)
{
  if (!(eta >= 1.0) || !isfinite(eta))
    return CS_ERR_RANGE;
  if (eta == 1.0) {
    *eta_prime = 0.0;
    return CS_OK;
  }
  /* eta(u) falls from +inf at u = 1/sqrt(3) to 1 at u_c. Bracket away from the pole. */
  double uc = critical_u();
  double lo = 1.0 / sqrt(3.0);
  double d = 0.5 * (uc - lo);
  while (eta_of_u(lo + d) < eta && d > 1e-300)
    d *= 0.5;
  double u;
  enum cs_status st = brent(eta_residual, &eta, lo + d, uc, &u);
  if (st != CS_OK)
    return st;
  *eta_prime = eta_prime_of_u(u);
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
  return CS_ERR_RANGE;
}
