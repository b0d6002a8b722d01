/* SPDX-License-Identifier: MIT */
/* The normal form of a subcritical Hopf bifurcation with a quintic
 * saturation, a reference system with closed-form cycles, fold of cycles and
 * multipliers (for testing periodic orbits and their continuation).
 * Dimensionless, time unit "1". In polar coordinates
 *
 *   r' = mu r + r^3 - r^5,   theta' = omega
 *
 * and in the Cartesian state (x, y) = r (cos theta, sin theta) integrated here
 *
 *   x' = g x - omega y,  y' = g y + omega x,   g = mu + r^2 - r^4,  r^2 = x^2 + y^2.
 *
 * Known answers: the origin is an equilibrium with eigenvalues mu +- i omega
 * (Hopf point at mu = 0, subcritical: the cycle born there exists for mu < 0
 * and is unstable). Cycles are the circles r^2 = (1 +- sqrt(1 + 4 mu))/2 for
 * -1/4 < mu (the minus sign only for mu < 0), of period 2 pi/omega; they meet
 * in a fold of cycles at mu = -1/4, r^2 = 1/2. The nontrivial multiplier of a
 * cycle of radius r is exp(T d(r')/dr) = exp(2 pi (mu + 3 r^2 - 5 r^4)/omega):
 * the outer cycle is stable, the inner one unstable. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "core/error_private.h"
#include "models/model.h"

struct subhopf {
  double mu, omega;
};

static const struct cs_var_desc state[] = {
    {"x", "1", "r cos(theta)", 0, 0},
    {"y", "1", "r sin(theta)", 0, 0},
};

/* on the outer (stable) cycle's side of the unstable one for mu = -0.2 */
static const double state_default[] = {1.0, 0.0};

static const struct cs_param_desc params[] = {
    {"mu", "1", offsetof(struct subhopf, mu), -0.2, -10.0, 10.0, NULL,
     "linear growth rate (Hopf point at 0, fold of cycles at -1/4)"},
    {"omega", "1", offsetof(struct subhopf, omega), 1.0, 1e-6, 1e6, NULL,
     "angular frequency theta' (period 2 pi/omega)"},
};

static const struct cs_var_desc derived[] = {
    {"r", "1", "radius sqrt(x^2 + y^2)", 0, 0},
};

static int rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct subhopf *p = vp;
  double r2 = y[0] * y[0] + y[1] * y[1], g = p->mu + r2 - r2 * r2;
  f[0] = g * y[0] - p->omega * y[1];
  f[1] = g * y[1] + p->omega * y[0];
  return 0;
}

/* dg/dx = 2 x (1 - 2 r^2), dg/dy likewise. */
static int jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct subhopf *p = vp;
  double r2 = y[0] * y[0] + y[1] * y[1], g = p->mu + r2 - r2 * r2, gp = 2.0 * (1.0 - 2.0 * r2);
  J[0] = g + gp * y[0] * y[0];
  J[1] = gp * y[0] * y[1] - p->omega;
  J[2] = gp * y[0] * y[1] + p->omega;
  J[3] = g + gp * y[1] * y[1];
  return 0;
}

static int derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t, (void)vp;
  out[0] = sqrt(y[0] * y[0] + y[1] * y[1]);
  return 0;
}

static enum cs_status prepare(void *vp)
{
  const struct subhopf *p = vp;
  if (!isfinite(p->mu) || !isfinite(p->omega))
    return cs_error_set(CS_ERR_RANGE, "mu and omega must be finite");
  return CS_OK;
}

const struct cs_model cs_model_subhopf = {
    .name = "subhopf",
    .title = "subcritical Hopf normal form r' = mu r + r^3 - r^5 (reference: fold of cycles at "
             "mu = -1/4)",
    .reference = "r' = mu r + r^3 - r^5, theta' = omega (Kuznetsov, Elements of Applied "
                 "Bifurcation Theory, 3rd ed., §3.5 and §8.2 for the Bautin normal form)",
    .n_state = 2,
    .state = state,
    .state_default = state_default,
    .n_param = sizeof params / sizeof *params,
    .param = params,
    .params_size = sizeof(struct subhopf),
    .n_derived = sizeof derived / sizeof *derived,
    .derived = derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = prepare,
    .rhs = rhs,
    .jac = jac,
    .derived_fn = derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "y", 0.0, +1},
    .section_doc = "y = 0 increasing: once per turn, on the positive x axis (x = r), through the "
                   "equilibrium at the origin, so cycles born at the Hopf point cross it too.",
};
