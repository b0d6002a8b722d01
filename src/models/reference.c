/* SPDX-License-Identifier: MIT */
/* Reference systems with known answers, for testing the analysis layer
 * (sections, classification, Lyapunov exponents) on problems whose results
 * are in the literature or in closed form. Dimensionless, time unit "1".
 *
 * oscillator, the damped linear oscillator:
 *   x'' + 2 zeta w x' + w^2 x = 0
 *   closed form for zeta < 1: x(t) = A exp(-zeta w t) cos(w_d t + phase),
 *   w_d = w sqrt(1 - zeta^2); every derivative multiplies by w and shifts the
 *   phase by atan2(w_d, -zeta w).
 *
 * vanderpol, the Van der Pol oscillator:
 *   x'' - mu (1 - x^2) x' + x = 0
 *   the origin is stable for mu < 0, a Hopf bifurcation at mu = 0 gives the
 *   limit cycle, of period 6.66328686... at mu = 1.
 *
 * duffing, the forced Duffing oscillator:
 *   x'' + delta x' + alpha x + beta x^3 = gamma cos(omega t)
 *   with delta = 0.3, alpha = -1, beta = 1, omega = 1.2 (the double well) a
 *   period-doubling cascade in gamma (period 1, 2, 4, then chaos by 0.5).
 *
 * lorenz, the Lorenz system:
 *   x' = sigma (y - x),  y' = x (rho - z) - y,  z' = x y - beta z
 *   at sigma = 10, rho = 28, beta = 8/3 the Lyapunov spectrum is about
 *   (0.9056, 0, -14.5723); the trace of the Jacobian is -(sigma + 1 + beta),
 *   so the exponents sum to that. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "core/error_private.h"
#include "models/model.h"

/* clang-format off */
#define P(type, name, def, lo, hi, doc) \
  {#name, "1", offsetof(struct type, name), def, lo, hi, NULL, doc}
/* clang-format on */

/* Every parameter of the table is finite (the table's ranges do the rest). */
static enum cs_status prepare_finite(const struct cs_param_desc *param, size_t n, const void *vp)
{
  for (size_t i = 0; i < n; i++) {
    double v = *(const double *)((const char *)vp + param[i].offset);
    if (!isfinite(v))
      return cs_error_set(CS_ERR_RANGE, "%s must be finite", param[i].name);
  }
  return CS_OK;
}

/* ------------------------------------------------------------ oscillator */

struct oscillator {
  double w, zeta;
};

static const struct cs_var_desc osc_state[] = {
    {"x", "1", "displacement", 0, 0},
    {"v", "1", "velocity x'", 0, 0},
};

static const double osc_state_default[] = {1.0, 0.0};

static const struct cs_param_desc osc_params[] = {
    P(oscillator, w, 1.0, 1e-6, 1e6, "undamped angular frequency"),
    P(oscillator, zeta, 0.05, 0.0, 1e3, "damping ratio (critical damping at 1)"),
};

static const struct cs_var_desc osc_derived[] = {
    {"E", "1", "energy (v^2 + w^2 x^2)/2", 0, 0},
    {"a", "1", "acceleration x''", 0, 0},
};

static int osc_rhs(double t, const double *y, double *ydot, const void *vp)
{
  (void)t;
  const struct oscillator *p = vp;
  ydot[0] = y[1];
  ydot[1] = -2.0 * p->zeta * p->w * y[1] - p->w * p->w * y[0];
  return 0;
}

static int osc_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t, (void)y;
  const struct oscillator *p = vp;
  J[1] = 1.0;
  J[2] = -p->w * p->w;
  J[3] = -2.0 * p->zeta * p->w;
  return 0;
}

static int osc_derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t;
  const struct oscillator *p = vp;
  out[0] = 0.5 * (y[1] * y[1] + p->w * p->w * y[0] * y[0]);
  out[1] = -2.0 * p->zeta * p->w * y[1] - p->w * p->w * y[0];
  return 0;
}

static enum cs_status osc_prepare(void *vp)
{
  return prepare_finite(osc_params, sizeof osc_params / sizeof *osc_params, vp);
}

const struct cs_model cs_model_oscillator = {
    .name = "oscillator",
    .title = "damped linear oscillator (reference: closed-form solution)",
    .reference = "x'' + 2 zeta w x' + w^2 x = 0",
    .n_state = 2,
    .state = osc_state,
    .state_default = osc_state_default,
    .n_param = sizeof osc_params / sizeof *osc_params,
    .param = osc_params,
    .params_size = sizeof(struct oscillator),
    .n_derived = sizeof osc_derived / sizeof *osc_derived,
    .derived = osc_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = osc_prepare,
    .rhs = osc_rhs,
    .jac = osc_jac,
    .derived_fn = osc_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "x", 0.0, +1},
    .section_doc = "x = 0 increasing: once per oscillation, at the zeros of the closed-form "
                   "solution where x' > 0.",
};

/* ------------------------------------------------------------- vanderpol */

struct vanderpol {
  double mu;
};

static const struct cs_var_desc vdp_state[] = {
    {"x", "1", "displacement", 0, 0},
    {"v", "1", "velocity x'", 0, 0},
};

static const double vdp_state_default[] = {2.0, 0.0};

static const struct cs_param_desc vdp_params[] = {
    P(vanderpol, mu, 1.0, -1e3, 1e3, "nonlinear damping (Hopf bifurcation at mu = 0)"),
};

static const struct cs_var_desc vdp_derived[] = {
    {"E", "1", "energy (x^2 + v^2)/2", 0, 0},
};

static int vdp_rhs(double t, const double *y, double *ydot, const void *vp)
{
  (void)t;
  const struct vanderpol *p = vp;
  ydot[0] = y[1];
  ydot[1] = p->mu * (1.0 - y[0] * y[0]) * y[1] - y[0];
  return 0;
}

static int vdp_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct vanderpol *p = vp;
  J[1] = 1.0;
  J[2] = -2.0 * p->mu * y[0] * y[1] - 1.0;
  J[3] = p->mu * (1.0 - y[0] * y[0]);
  return 0;
}

static int vdp_derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t, (void)vp;
  out[0] = 0.5 * (y[0] * y[0] + y[1] * y[1]);
  return 0;
}

static enum cs_status vdp_prepare(void *vp)
{
  return prepare_finite(vdp_params, sizeof vdp_params / sizeof *vdp_params, vp);
}

const struct cs_model cs_model_vanderpol = {
    .name = "vanderpol",
    .title = "Van der Pol oscillator (reference: limit cycle, Hopf bifurcation at mu = 0)",
    .reference = "x'' - mu (1 - x^2) x' + x = 0",
    .n_state = 2,
    .state = vdp_state,
    .state_default = vdp_state_default,
    .n_param = sizeof vdp_params / sizeof *vdp_params,
    .param = vdp_params,
    .params_size = sizeof(struct vanderpol),
    .n_derived = sizeof vdp_derived / sizeof *vdp_derived,
    .derived = vdp_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = vdp_prepare,
    .rhs = vdp_rhs,
    .jac = vdp_jac,
    .derived_fn = vdp_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "x", 0.0, +1},
    .section_doc = "x = 0 increasing: once per turn of the limit cycle, which encircles the "
                   "origin.",
};

/* --------------------------------------------------------------- duffing */

struct duffing {
  double delta, alpha, beta, gamma, omega;
};

static const struct cs_var_desc duf_state[] = {
    {"x", "1", "displacement", 0, 0},
    {"v", "1", "velocity x'", 0, 0},
};

static const double duf_state_default[] = {1.0, 0.0};

static const struct cs_param_desc duf_params[] = {
    P(duffing, delta, 0.3, 0.0, 1e3, "linear damping"),
    P(duffing, alpha, -1.0, -1e3, 1e3, "linear stiffness (negative: double well)"),
    P(duffing, beta, 1.0, -1e3, 1e3, "cubic stiffness"),
    P(duffing, gamma, 0.2, 0.0, 1e3, "forcing amplitude"),
    P(duffing, omega, 1.2, 0.0, 1e3, "forcing angular frequency (0: autonomous)"),
};

static const struct cs_var_desc duf_derived[] = {
    {"E", "1", "energy v^2/2 + alpha x^2/2 + beta x^4/4", 0, 0},
    {"F", "1", "forcing gamma cos(omega t)", 0, 0},
};

static int duf_rhs(double t, const double *y, double *ydot, const void *vp)
{
  const struct duffing *p = vp;
  double x = y[0];
  ydot[0] = y[1];
  ydot[1] = -p->delta * y[1] - p->alpha * x - p->beta * x * x * x + p->gamma * cos(p->omega * t);
  return 0;
}

static int duf_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct duffing *p = vp;
  J[1] = 1.0;
  J[2] = -p->alpha - 3.0 * p->beta * y[0] * y[0];
  J[3] = -p->delta;
  return 0;
}

static int duf_derived_fn(double t, const double *y, double *out, const void *vp)
{
  const struct duffing *p = vp;
  double x2 = y[0] * y[0];
  out[0] = 0.5 * y[1] * y[1] + 0.5 * p->alpha * x2 + 0.25 * p->beta * x2 * x2;
  out[1] = p->gamma * cos(p->omega * t);
  return 0;
}

static double duf_forcing_period(const void *vp)
{
  const struct duffing *p = vp;
  return p->omega > 0 ? 2.0 * M_PI / p->omega : 0.0;
}

static enum cs_status duf_prepare(void *vp)
{
  return prepare_finite(duf_params, sizeof duf_params / sizeof *duf_params, vp);
}

const struct cs_model cs_model_duffing = {
    .name = "duffing",
    .title = "forced Duffing oscillator (reference: period-doubling cascade to chaos)",
    .reference = "x'' + delta x' + alpha x + beta x^3 = gamma cos(omega t)",
    .n_state = 2,
    .state = duf_state,
    .state_default = duf_state_default,
    .n_param = sizeof duf_params / sizeof *duf_params,
    .param = duf_params,
    .params_size = sizeof(struct duffing),
    .n_derived = sizeof duf_derived / sizeof *duf_derived,
    .derived = duf_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = duf_prepare,
    .rhs = duf_rhs,
    .jac = duf_jac,
    .derived_fn = duf_derived_fn,
    .forcing_period = duf_forcing_period,
    .section = {CS_SECTION_STROBOSCOPIC, NULL, 0.0, 0},
    .section_doc = "stroboscopic, once per forcing period 2 pi/omega: the classical Poincare "
                   "map of a periodically forced oscillator (a period-k orbit gives k points).",
};

/* ---------------------------------------------------------------- lorenz */

struct lorenz {
  double sigma, rho, beta;
};

static const struct cs_var_desc lor_state[] = {
    {"x", "1", "convective intensity", 0, 0},
    {"y", "1", "temperature difference, rising vs falling currents", 0, 0},
    {"z", "1", "distortion of the vertical temperature profile", 0, 0},
};

static const double lor_state_default[] = {1.0, 1.0, 20.0};

static const struct cs_param_desc lor_params[] = {
    P(lorenz, sigma, 10.0, 0.0, 1e4, "Prandtl number"),
    P(lorenz, rho, 28.0, 0.0, 1e4, "Rayleigh number over its critical value"),
    P(lorenz, beta, 8.0 / 3.0, 0.0, 1e4, "aspect-ratio factor"),
};

static const struct cs_var_desc lor_derived[] = {
    {"zc", "1", "z - (rho - 1): height above the equilibria C+ and C-", 0, 0},
};

static int lor_rhs(double t, const double *y, double *ydot, const void *vp)
{
  (void)t;
  const struct lorenz *p = vp;
  ydot[0] = p->sigma * (y[1] - y[0]);
  ydot[1] = y[0] * (p->rho - y[2]) - y[1];
  ydot[2] = y[0] * y[1] - p->beta * y[2];
  return 0;
}

static int lor_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct lorenz *p = vp;
  J[0] = -p->sigma;
  J[1] = p->sigma;
  J[3] = p->rho - y[2];
  J[4] = -1.0;
  J[5] = -y[0];
  J[6] = y[1];
  J[7] = y[0];
  J[8] = -p->beta;
  return 0;
}

static int lor_derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t;
  const struct lorenz *p = vp;
  out[0] = y[2] - (p->rho - 1.0);
  return 0;
}

static enum cs_status lor_prepare(void *vp)
{
  return prepare_finite(lor_params, sizeof lor_params / sizeof *lor_params, vp);
}

const struct cs_model cs_model_lorenz = {
    .name = "lorenz",
    .title = "Lorenz system (reference: chaotic attractor, largest exponent 0.906)",
    .reference = "E. N. Lorenz, J. Atmos. Sci. 20 (1963) 130-141",
    .n_state = 3,
    .state = lor_state,
    .state_default = lor_state_default,
    .n_param = sizeof lor_params / sizeof *lor_params,
    .param = lor_params,
    .params_size = sizeof(struct lorenz),
    .n_derived = sizeof lor_derived / sizeof *lor_derived,
    .derived = lor_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = lor_prepare,
    .rhs = lor_rhs,
    .jac = lor_jac,
    .derived_fn = lor_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "zc", 0.0, +1},
    .section_doc = "zc = z - (rho - 1) = 0 increasing: the plane of the equilibria C+ and C-, "
                   "which every loop around either wing crosses; it follows rho.",
};
