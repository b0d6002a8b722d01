/* SPDX-License-Identifier: MIT */
/* Normal forms of the codimension-two bifurcations of equilibria, reference
 * systems with closed-form two-parameter bifurcation curves (for testing the
 * curves of analysis/curve2.h). Dimensionless, time unit "1". Kuznetsov,
 * Elements of Applied Bifurcation Theory, 3rd ed., §8.2-8.4.
 *
 * bautin (generalized Hopf), Cartesian, r^2 = x^2 + y^2:
 *   x' = (mu1 + mu2 r^2 - r^4) x - y,  y' = (mu1 + mu2 r^2 - r^4) y + x
 *   i.e. r' = mu1 r + mu2 r^3 - r^5, theta' = 1. Hopf line mu1 = 0 with the
 *   first Lyapunov coefficient l1 = mu2 (Kuznetsov's normalisation: the
 *   linear part is already a unit rotation), Bautin point at (0, 0), fold of
 *   cycles mu1 = -mu2^2/4 (mu2 > 0) at r^2 = mu2/2, period 2 pi.
 *
 * bt (Bogdanov-Takens):
 *   x' = y,  y' = beta1 + beta2 x + x^2 + s x y   (s = +1 or -1)
 *   equilibria (x, 0) with x^2 + beta2 x + beta1 = 0: fold curve
 *   beta1 = beta2^2/4 (at x = -beta2/2); Hopf curve beta1 = 0, beta2 < 0 (at
 *   the origin, frequency sqrt(-beta2)), a neutral saddle for beta2 > 0;
 *   Bogdanov-Takens point at (0, 0). On the Hopf curve l1 = s/(4 w^3 (1 + w^2)),
 *   w = sqrt(-beta2) (Guckenheimer-Holmes' a = s/(8 w^2) in the coordinates
 *   (y/w, x), rescaled to eigenvectors of unit norm in (x, y)).
 *
 * cusp:
 *   x' = beta1 + beta2 x - x^3
 *   fold curve 27 beta1^2 = 4 beta2^3 (x = +-sqrt(beta2/3)); its two branches
 *   meet at the cusp point (0, 0), where the fold's quadratic coefficient
 *   f_xx/2 = -3x changes sign.
 *
 * Cycles (Kuznetsov §7.3-7.4; both period 2 pi on the unit circle of (x, y)):
 * flip (period doubling at mu = 0, a Moebius band) and torus
 * (Neimark-Sacker at nu = 0 with the pair's argument 2 pi w; resonances at
 * w = 1, 1/2, 1/3, 1/4), described at their definitions below; foldflip (a
 * forced system with flip, fold, cusp and fold-flip of its period-1 cycles)
 * and cuspcycle (the cusp normal form across a family of circles: folds of
 * cycles and their cusp). */
#include <math.h>
#include <stddef.h>

#include "core/error_private.h"
#include "models/model.h"

static enum cs_status finite_params(const double *v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return cs_error_set(CS_ERR_RANGE, "the parameters must be finite");
  return CS_OK;
}

/* ---------------------------------------------------------------- bautin */

struct bautin {
  double mu1, mu2;
};

static const struct cs_var_desc xy_state[] = {
    {"x", "1", "first coordinate", 0, 0},
    {"y", "1", "second coordinate", 0, 0},
};

static const double bautin_default[] = {0.5, 0.0};

static const struct cs_param_desc bautin_params[] = {
    {"mu1", "1", offsetof(struct bautin, mu1), -0.05, -10.0, 10.0, NULL,
     "linear growth rate (Hopf line mu1 = 0)"},
    {"mu2", "1", offsetof(struct bautin, mu2), 0.5, -10.0, 10.0, NULL,
     "cubic coefficient: the first Lyapunov coefficient at mu1 = 0 (Bautin point at 0)"},
};

static const struct cs_var_desc r_derived[] = {
    {"r", "1", "radius sqrt(x^2 + y^2)", 0, 0},
};

static int bautin_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct bautin *p = vp;
  double r2 = y[0] * y[0] + y[1] * y[1], g = p->mu1 + p->mu2 * r2 - r2 * r2;
  f[0] = g * y[0] - y[1];
  f[1] = g * y[1] + y[0];
  return 0;
}

static int bautin_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct bautin *p = vp;
  double r2 = y[0] * y[0] + y[1] * y[1], g = p->mu1 + p->mu2 * r2 - r2 * r2;
  double gp = 2.0 * (p->mu2 - 2.0 * r2); /* dg/dx = gp x */
  J[0] = g + gp * y[0] * y[0];
  J[1] = gp * y[0] * y[1] - 1.0;
  J[2] = gp * y[0] * y[1] + 1.0;
  J[3] = g + gp * y[1] * y[1];
  return 0;
}

static int r_derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t, (void)vp;
  out[0] = sqrt(y[0] * y[0] + y[1] * y[1]);
  return 0;
}

static enum cs_status bautin_prepare(void *vp)
{
  return finite_params(vp, 2);
}

const struct cs_model cs_model_bautin = {
    .name = "bautin",
    .title = "Bautin (generalized Hopf) normal form r' = mu1 r + mu2 r^3 - r^5 (reference: "
             "fold of cycles mu1 = -mu2^2/4)",
    .reference = "Kuznetsov, Elements of Applied Bifurcation Theory, 3rd ed., §8.3",
    .n_state = 2,
    .state = xy_state,
    .state_default = bautin_default,
    .n_param = sizeof bautin_params / sizeof *bautin_params,
    .param = bautin_params,
    .params_size = sizeof(struct bautin),
    .n_derived = 1,
    .derived = r_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = bautin_prepare,
    .rhs = bautin_rhs,
    .jac = bautin_jac,
    .derived_fn = r_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "y", 0.0, +1},
    .section_doc = "y = 0 increasing: once per turn, on the positive x axis, through the "
                   "equilibrium at the origin (cycles born at the Hopf line cross it too).",
};

/* -------------------------------------------------------------------- bt */

struct bt {
  double beta1, beta2, s;
};

static const double bt_default[] = {0.0, 0.0};

static const struct cs_param_desc bt_params[] = {
    {"beta1", "1", offsetof(struct bt, beta1), -0.1, -10.0, 10.0, NULL,
     "constant term (fold curve beta1 = beta2^2/4, Hopf curve beta1 = 0)"},
    {"beta2", "1", offsetof(struct bt, beta2), -0.5, -10.0, 10.0, NULL,
     "linear term (Hopf for beta2 < 0, Bogdanov-Takens point at 0)"},
    {"s", "1", offsetof(struct bt, s), -1.0, -1.0, 1.0, NULL,
     "sign of the x y term (+1 or -1: the sign of the Hopf curve's l1)"},
};

static const struct cs_var_desc bt_derived[] = {
    {"E", "1", "y^2/2 - beta1 x - beta2 x^2/2 - x^3/3 (conserved without the x y term)", 0, 0},
};

static int bt_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct bt *p = vp;
  f[0] = y[1];
  f[1] = p->beta1 + p->beta2 * y[0] + y[0] * y[0] + p->s * y[0] * y[1];
  return 0;
}

static int bt_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct bt *p = vp;
  J[0] = 0.0;
  J[1] = 1.0;
  J[2] = p->beta2 + 2.0 * y[0] + p->s * y[1];
  J[3] = p->s * y[0];
  return 0;
}

static int bt_derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t;
  const struct bt *p = vp;
  double x = y[0];
  out[0] = 0.5 * y[1] * y[1] - p->beta1 * x - 0.5 * p->beta2 * x * x - x * x * x / 3.0;
  return 0;
}

static enum cs_status bt_prepare(void *vp)
{
  const struct bt *p = vp;
  enum cs_status st = finite_params(vp, 3);
  if (st == CS_OK && fabs(p->s) != 1.0)
    return cs_error_set(CS_ERR_RANGE, "s = %g must be +1 or -1", p->s);
  return st;
}

const struct cs_model cs_model_bt = {
    .name = "bt",
    .title = "Bogdanov-Takens normal form x' = y, y' = beta1 + beta2 x + x^2 + s x y (reference: "
             "fold beta1 = beta2^2/4, Hopf beta1 = 0)",
    .reference = "Kuznetsov, Elements of Applied Bifurcation Theory, 3rd ed., §8.4",
    .n_state = 2,
    .state = xy_state,
    .state_default = bt_default,
    .n_param = sizeof bt_params / sizeof *bt_params,
    .param = bt_params,
    .params_size = sizeof(struct bt),
    .n_derived = 1,
    .derived = bt_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = bt_prepare,
    .rhs = bt_rhs,
    .jac = bt_jac,
    .derived_fn = bt_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "y", 0.0, +1},
    .section_doc = "y = 0 increasing: through the equilibria, which all lie on y = 0.",
};

/* ------------------------------------------------------------------ cusp */

struct cusp {
  double beta1, beta2;
};

static const struct cs_var_desc cusp_state[] = {
    {"x", "1", "the coordinate", 0, 0},
};

static const double cusp_default[] = {1.0};

static const struct cs_param_desc cusp_params[] = {
    {"beta1", "1", offsetof(struct cusp, beta1), 0.0, -10.0, 10.0, NULL,
     "constant term (folds where 27 beta1^2 = 4 beta2^3)"},
    {"beta2", "1", offsetof(struct cusp, beta2), 1.0, -10.0, 10.0, NULL,
     "linear term (cusp point at beta1 = beta2 = 0)"},
};

static const struct cs_var_desc cusp_derived[] = {
    {"V", "1", "potential x^4/4 - beta2 x^2/2 - beta1 x (x' = -dV/dx)", 0, 0},
};

static int cusp_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct cusp *p = vp;
  f[0] = p->beta1 + p->beta2 * y[0] - y[0] * y[0] * y[0];
  return 0;
}

static int cusp_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct cusp *p = vp;
  J[0] = p->beta2 - 3.0 * y[0] * y[0];
  return 0;
}

static int cusp_derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t;
  const struct cusp *p = vp;
  double x = y[0];
  out[0] = 0.25 * x * x * x * x - 0.5 * p->beta2 * x * x - p->beta1 * x;
  return 0;
}

static enum cs_status cusp_prepare(void *vp)
{
  return finite_params(vp, 2);
}

const struct cs_model cs_model_cusp = {
    .name = "cusp",
    .title = "cusp normal form x' = beta1 + beta2 x - x^3 (reference: folds 27 beta1^2 = 4 "
             "beta2^3)",
    .reference = "Kuznetsov, Elements of Applied Bifurcation Theory, 3rd ed., §8.2",
    .n_state = 1,
    .state = cusp_state,
    .state_default = cusp_default,
    .n_param = sizeof cusp_params / sizeof *cusp_params,
    .param = cusp_params,
    .params_size = sizeof(struct cusp),
    .n_derived = 1,
    .derived = cusp_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = cusp_prepare,
    .rhs = cusp_rhs,
    .jac = cusp_jac,
    .derived_fn = cusp_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "x", 0.0, +1},
    .section_doc = "x = 0 increasing (a one-dimensional flow has no cycles; the section exists "
                   "for uniformity).",
};

/* ------------------------------------------------------------------ flip */

/* flip, a cycle with a flip (period doubling) of known multipliers: the
 * unit circle of the (x, y) plane, theta' = 1, period 2 pi, with the
 * transverse plane (rho, z), rho = r - 1, twisted by half a turn per turn
 * (a Moebius band): (rho, z)' = (c I + d S(theta) + J/2) (rho, z), S the
 * reflection across the angle theta/2, J the quarter turn, c = (mu + nu)/2,
 * d = (mu - nu)/2. In the frame turning by theta/2 the transverse flow is
 * diag(mu, nu), so the nontrivial multipliers are -exp(2 pi mu) and
 * -exp(2 pi nu): a period doubling at mu = 0 (nu < 0), for every nu (the
 * period-doubling curve mu = 0 in (mu, nu)), and at nu = 0 likewise. */
struct flip {
  double mu, nu;
};

static const struct cs_var_desc flip_state[] = {
    {"x", "1", "r cos(theta)", 0, 0},
    {"y", "1", "r sin(theta)", 0, 0},
    {"z", "1", "height above the plane of the cycle", 0, 0},
};

static const double flip_default[] = {1.0, 0.0, 0.0};

static const struct cs_param_desc flip_params[] = {
    {"mu", "1", offsetof(struct flip, mu), -0.5, -10.0, 10.0, NULL,
     "first transverse rate: multiplier -exp(2 pi mu) (period doubling at mu = 0)"},
    {"nu", "1", offsetof(struct flip, nu), -1.0, -10.0, 10.0, NULL,
     "second transverse rate: multiplier -exp(2 pi nu)"},
};

static int flip_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct flip *p = vp;
  double r = hypot(y[0], y[1]);
  if (!(r > 0))
    return -1;
  double C = y[0] / r, S = y[1] / r, rho = r - 1, c = 0.5 * (p->mu + p->nu),
         d = 0.5 * (p->mu - p->nu);
  double R = (c + d * C) * rho + (d * S - 0.5) * y[2];
  f[0] = R * C - y[1];
  f[1] = R * S + y[0];
  f[2] = (d * S + 0.5) * rho + (c - d * C) * y[2];
  return 0;
}

static int flip_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct flip *p = vp;
  double r = hypot(y[0], y[1]);
  if (!(r > 0))
    return -1;
  double C = y[0] / r, S = y[1] / r, rho = r - 1, z = y[2], c = 0.5 * (p->mu + p->nu),
         d = 0.5 * (p->mu - p->nu);
  double Cx = S * S / r, Cy = -C * S / r, Sx = -C * S / r, Sy = C * C / r;
  double R = (c + d * C) * rho + (d * S - 0.5) * z;
  double Rx = d * Cx * rho + (c + d * C) * C + d * Sx * z;
  double Ry = d * Cy * rho + (c + d * C) * S + d * Sy * z;
  double Rz = d * S - 0.5;
  J[0] = Rx * C + R * Cx;
  J[1] = Ry * C + R * Cy - 1.0;
  J[2] = Rz * C;
  J[3] = Rx * S + R * Sx + 1.0;
  J[4] = Ry * S + R * Sy;
  J[5] = Rz * S;
  J[6] = d * Sx * rho + (d * S + 0.5) * C - d * Cx * z;
  J[7] = d * Sy * rho + (d * S + 0.5) * S - d * Cy * z;
  J[8] = c - d * C;
  return 0;
}

static int flip_derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t, (void)vp;
  out[0] = hypot(y[0], y[1]);
  return 0;
}

static enum cs_status flip_prepare(void *vp)
{
  return finite_params(vp, 2);
}

const struct cs_model cs_model_flip = {
    .name = "flip",
    .title = "cycle on a Moebius band (reference: period doubling at mu = 0, multipliers "
             "-exp(2 pi mu), -exp(2 pi nu))",
    .reference = "the unit circle with a transverse half twist per turn (see normal_forms.c)",
    .n_state = 3,
    .state = flip_state,
    .state_default = flip_default,
    .n_param = sizeof flip_params / sizeof *flip_params,
    .param = flip_params,
    .params_size = sizeof(struct flip),
    .n_derived = 1,
    .derived = r_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = flip_prepare,
    .rhs = flip_rhs,
    .jac = flip_jac,
    .derived_fn = flip_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "y", 0.0, +1},
    .section_doc = "y = 0 increasing: once per turn, on the positive x axis.",
};

/* ----------------------------------------------------------------- torus */

/* torus, a cycle with a Neimark-Sacker (torus) bifurcation of known
 * multipliers: the unit circle of the (x, y) plane, (x, y)' = (1 - r^2)(x,
 * y) + (-y, x), theta' = 1, period 2 pi, times a transverse plane (u, v)
 * that turns at the rate w and grows at the rate nu, with a cubic
 * saturation: (u, v)' = (nu u - w v, w u + nu v) - (u^2 + v^2)(u, v). The
 * cycle is (cos t, sin t, 0, 0) for every (nu, w); its nontrivial
 * multipliers are exp(-4 pi) (radial, rate -2) and exp(2 pi (nu +- i w)):
 * the Neimark-Sacker curve is nu = 0 for every w, the pair's argument
 * theta = 2 pi w (kappa = cos theta = cos(2 pi w)), with the strong
 * resonances 1:1, 1:2, 1:3, 1:4 at w = 1, 1/2, 1/3, 1/4 (mod 1). For nu > 0
 * the cycle is unstable and an invariant torus u^2 + v^2 = nu surrounds it
 * (supercritical). The transverse flow commutes with rotations of (u, v):
 * at w = 1/2 (1:2) the multiplier -1 is double without a Jordan block, the
 * pair passes through -1 and on around the circle (no neutral saddles). */
struct torus {
  double nu, w;
};

static const struct cs_var_desc torus_state[] = {
    {"x", "1", "r cos(theta): the cycle's plane", 0, 0},
    {"y", "1", "r sin(theta)", 0, 0},
    {"u", "1", "first coordinate of the transverse plane", 0, 0},
    {"v", "1", "second coordinate of the transverse plane", 0, 0},
};

static const double torus_default[] = {1.0, 0.0, 0.0, 0.0};

static const struct cs_param_desc torus_params[] = {
    {"nu", "1", offsetof(struct torus, nu), -0.1, -10.0, 10.0, NULL,
     "growth rate of the transverse plane: multipliers exp(2 pi (nu +- i w)) (Neimark-Sacker at "
     "nu = 0)"},
    {"w", "1", offsetof(struct torus, w), 0.3, -10.0, 10.0, NULL,
     "turning rate of the transverse plane (turns per radian of the cycle): the pair's argument "
     "2 pi w"},
};

static int torus_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct torus *p = vp;
  double g = 1.0 - (y[0] * y[0] + y[1] * y[1]), h = p->nu - (y[2] * y[2] + y[3] * y[3]);
  f[0] = g * y[0] - y[1];
  f[1] = g * y[1] + y[0];
  f[2] = h * y[2] - p->w * y[3];
  f[3] = h * y[3] + p->w * y[2];
  return 0;
}

static int torus_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct torus *p = vp;
  double g = 1.0 - (y[0] * y[0] + y[1] * y[1]), h = p->nu - (y[2] * y[2] + y[3] * y[3]);
  for (int i = 0; i < 16; i++)
    J[i] = 0;
  J[0] = g - 2.0 * y[0] * y[0];
  J[1] = -2.0 * y[0] * y[1] - 1.0;
  J[4] = -2.0 * y[0] * y[1] + 1.0;
  J[5] = g - 2.0 * y[1] * y[1];
  J[10] = h - 2.0 * y[2] * y[2];
  J[11] = -2.0 * y[2] * y[3] - p->w;
  J[14] = -2.0 * y[2] * y[3] + p->w;
  J[15] = h - 2.0 * y[3] * y[3];
  return 0;
}

static enum cs_status torus_prepare(void *vp)
{
  return finite_params(vp, 2);
}

const struct cs_model cs_model_torus = {
    .name = "torus",
    .title = "cycle with a turning transverse plane (reference: Neimark-Sacker at nu = 0, "
             "multipliers exp(2 pi (nu +- i w)), exp(-4 pi))",
    .reference = "the unit circle times a transverse focus turning at rate w (see normal_forms.c)",
    .n_state = 4,
    .state = torus_state,
    .state_default = torus_default,
    .n_param = sizeof torus_params / sizeof *torus_params,
    .param = torus_params,
    .params_size = sizeof(struct torus),
    .n_derived = 1,
    .derived = r_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = torus_prepare,
    .rhs = torus_rhs,
    .jac = torus_jac,
    .derived_fn = r_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "y", 0.0, +1},
    .section_doc = "y = 0 increasing: once per turn, on the positive x axis.",
};

/* -------------------------------------------------------------- foldflip */

/* foldflip, a forced system whose stroboscopic map (period T = 2 pi/omega)
 * has a flip, a fold, a cusp and a fold-flip at known parameters. In the
 * frame turned by theta = omega t/2, u = R(-theta) (x, y), the flow is
 * autonomous:
 *   u1' = nu u1 - u1^3,  u2' = -u2,  z' = mu + kappa z - z^3,
 * and over one forcing period the frame turns by half a turn, so the map at
 * t = 0 is (u, z) -> (-phi_T(u), psi_T(z)) (phi, psi the flows of the u and z
 * equations; the u field is odd, which makes the field in (x, y) T-periodic).
 * The period-1 cycles are u = 0 and z an equilibrium of the cusp normal form,
 * with multipliers -exp(nu T), -exp(-T) and exp((kappa - 3 z^2) T): a period
 * doubling on nu = 0 (any mu, kappa), folds of cycles on 27 mu^2 = 4 kappa^3
 * (z = +-sqrt(kappa/3)) with their cusp at mu = kappa = 0, and fold-flip
 * points where both meet (nu = 0 on a fold). */
struct foldflip {
  double mu, kappa, nu, omega;
};

static const struct cs_var_desc foldflip_state[] = {
    {"x", "1", "flip plane, first coordinate", 0, 0},
    {"y", "1", "flip plane, second coordinate", 0, 0},
    {"z", "1", "cusp coordinate", 0, 0},
};

static const double foldflip_default[] = {0.0, 0.0, 1.0};

static const struct cs_param_desc foldflip_params[] = {
    {"mu", "1", offsetof(struct foldflip, mu), 0.0, -10.0, 10.0, NULL,
     "cusp unfolding, constant term (folds of cycles on 27 mu^2 = 4 kappa^3)"},
    {"kappa", "1", offsetof(struct foldflip, kappa), 1.0, -10.0, 10.0, NULL,
     "cusp unfolding, linear term"},
    {"nu", "1", offsetof(struct foldflip, nu), -0.5, -10.0, 10.0, NULL,
     "flip rate: multiplier -exp(2 pi nu/omega) (period doubling at nu = 0)"},
    {"omega", "1", offsetof(struct foldflip, omega), 1.0, 1e-3, 1e3, NULL,
     "forcing angular frequency: period 2 pi/omega"},
};

static const struct cs_var_desc foldflip_derived[] = {
    {"u1", "1", "flip coordinate in the turning frame, cos(omega t/2) x + sin(omega t/2) y", 0, 0},
};

static int foldflip_rhs(double t, const double *y, double *f, const void *vp)
{
  const struct foldflip *p = vp;
  double c = cos(0.5 * p->omega * t), s = sin(0.5 * p->omega * t);
  double u1 = c * y[0] + s * y[1], u2 = -s * y[0] + c * y[1];
  double g1 = p->nu * u1 - u1 * u1 * u1, g2 = -u2;
  f[0] = -0.5 * p->omega * y[1] + c * g1 - s * g2;
  f[1] = 0.5 * p->omega * y[0] + s * g1 + c * g2;
  f[2] = p->mu + p->kappa * y[2] - y[2] * y[2] * y[2];
  return 0;
}

static int foldflip_jac(double t, const double *y, double *J, const void *vp)
{
  const struct foldflip *p = vp;
  double c = cos(0.5 * p->omega * t), s = sin(0.5 * p->omega * t);
  double u1 = c * y[0] + s * y[1], a = p->nu - 3 * u1 * u1;
  /* R diag(a, -1) R^T plus the frame's rotation */
  J[0] = a * c * c - s * s;
  J[1] = -0.5 * p->omega + (a + 1) * c * s;
  J[2] = 0;
  J[3] = 0.5 * p->omega + (a + 1) * c * s;
  J[4] = a * s * s - c * c;
  J[5] = 0;
  J[6] = J[7] = 0;
  J[8] = p->kappa - 3 * y[2] * y[2];
  return 0;
}

static int foldflip_derived_fn(double t, const double *y, double *out, const void *vp)
{
  const struct foldflip *p = vp;
  out[0] = cos(0.5 * p->omega * t) * y[0] + sin(0.5 * p->omega * t) * y[1];
  return 0;
}

static double foldflip_forcing_period(const void *vp)
{
  const struct foldflip *p = vp;
  return 2 * M_PI / p->omega;
}

static enum cs_status foldflip_prepare(void *vp)
{
  const struct foldflip *p = vp;
  if (!(p->omega > 0))
    return cs_error_set(CS_ERR_RANGE, "omega must be > 0");
  return finite_params(vp, 4);
}

const struct cs_model cs_model_foldflip = {
    .name = "foldflip",
    .title = "forced cycle with a flip and a cusp (reference: period doubling at nu = 0, folds "
             "of cycles 27 mu^2 = 4 kappa^3)",
    .reference = "normal forms in a frame turning by half a turn per forcing period (see "
                 "normal_forms.c)",
    .n_state = 3,
    .state = foldflip_state,
    .state_default = foldflip_default,
    .n_param = sizeof foldflip_params / sizeof *foldflip_params,
    .param = foldflip_params,
    .params_size = sizeof(struct foldflip),
    .n_derived = 1,
    .derived = foldflip_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = foldflip_prepare,
    .rhs = foldflip_rhs,
    .jac = foldflip_jac,
    .derived_fn = foldflip_derived_fn,
    .forcing_period = foldflip_forcing_period,
    .section = {CS_SECTION_STROBOSCOPIC, NULL, 0.0, 0},
    .section_doc = "stroboscopic, once per forcing period 2 pi/omega (at t = 0 the turning frame "
                   "coincides with (x, y)).",
};

/* ------------------------------------------------------------- cuspcycle */

/* cuspcycle, cycles with the cusp normal form across them: circles r = 1 +
 * rho, theta' = 1 (period 2 pi), rho' = mu + kappa rho - rho^3, i.e.
 *   x' = R x/r - y,  y' = R y/r + x,  R = mu + kappa (r - 1) - (r - 1)^3.
 * A cycle for each equilibrium rho of the radial law, multiplier
 * exp(2 pi (kappa - 3 rho^2)): folds of cycles on 27 mu^2 = 4 kappa^3 (rho =
 * +-sqrt(kappa/3), mu = -2 rho^3) meeting at the cusp of cycles (0, 0) on
 * the unit circle. */
struct cuspcycle {
  double mu, kappa;
};

static const struct cs_var_desc cuspcycle_state[] = {
    {"x", "1", "r cos(theta)", 0, 0},
    {"y", "1", "r sin(theta)", 0, 0},
};

static const double cuspcycle_default[] = {2.0, 0.0};

static const struct cs_param_desc cuspcycle_params[] = {
    {"mu", "1", offsetof(struct cuspcycle, mu), 0.0, -10.0, 10.0, NULL,
     "radial law, constant term (folds of cycles on 27 mu^2 = 4 kappa^3)"},
    {"kappa", "1", offsetof(struct cuspcycle, kappa), 1.0, -10.0, 10.0, NULL,
     "radial law, linear term in r - 1"},
};

static int cuspcycle_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct cuspcycle *p = vp;
  double r = hypot(y[0], y[1]);
  if (!(r > 0))
    return -1;
  double rho = r - 1, R = p->mu + p->kappa * rho - rho * rho * rho;
  f[0] = R * y[0] / r - y[1];
  f[1] = R * y[1] / r + y[0];
  return 0;
}

static int cuspcycle_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct cuspcycle *p = vp;
  double r = hypot(y[0], y[1]);
  if (!(r > 0))
    return -1;
  double C = y[0] / r, S = y[1] / r, rho = r - 1;
  double R = p->mu + p->kappa * rho - rho * rho * rho, Rr = p->kappa - 3 * rho * rho;
  /* d(R C)/dx = Rr C C + R S^2/r, d(R C)/dy = Rr C S - R C S/r, ... */
  J[0] = Rr * C * C + R * S * S / r;
  J[1] = (Rr - R / r) * C * S - 1.0;
  J[2] = (Rr - R / r) * C * S + 1.0;
  J[3] = Rr * S * S + R * C * C / r;
  return 0;
}

static enum cs_status cuspcycle_prepare(void *vp)
{
  return finite_params(vp, 2);
}

const struct cs_model cs_model_cuspcycle = {
    .name = "cuspcycle",
    .title = "circles r = 1 + rho with rho' = mu + kappa rho - rho^3 (reference: folds of cycles "
             "27 mu^2 = 4 kappa^3, cusp of cycles at (0, 0))",
    .reference = "the cusp normal form across a family of circles (see normal_forms.c)",
    .n_state = 2,
    .state = cuspcycle_state,
    .state_default = cuspcycle_default,
    .n_param = sizeof cuspcycle_params / sizeof *cuspcycle_params,
    .param = cuspcycle_params,
    .params_size = sizeof(struct cuspcycle),
    .n_derived = 1,
    .derived = r_derived,
    .stick_output = -1,
    .time_unit_si = 0,
    .prepare = cuspcycle_prepare,
    .rhs = cuspcycle_rhs,
    .jac = cuspcycle_jac,
    .derived_fn = r_derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "y", 0.0, +1},
    .section_doc = "y = 0 increasing: once per turn, on the positive x axis.",
};
