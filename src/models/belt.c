/* SPDX-License-Identifier: MIT */
/* Disk on a moving belt, held by four elastic-damped cords (Kudra & Awrejcewicz,
 * JTAM 54(3) 2016, §5, eqs. (5.1)-(5.2); MODELS.md §2). Dimensionless.
 *
 *   x''     + c x' + c12 phi' + x + k12 phi = Gamma
 *   m phi'' + c12 x' + c phi' + k12 x + phi = Omega                          (5.1)
 *   Gamma = -mu Ts,  Omega = -mu Ms,  vs = x' - vb,  ws = phi'
 *
 * with the regularized circular I(0,0), m = 2 (JTAM eq. 4.5), c0 = c_{0,0,-1} = 2/3:
 *   Ts = vs L,  Ms = b c0 ws L,
 *   L = 1/sqrt(vs^2 + b^2 ws^2 + eps^2) + eta' eps^3 / (vs^2 + b^2 ws^2 + eps^2)^2.
 * (The parameter m of this model is the inertia ratio B/(m r^2) of eq. (5.2),
 * not the exponent of the friction law, which is 2 here.)
 *
 * Energy E = x'^2/2 + m phi'^2/2 + x^2/2 + k12 x phi + phi^2/2 obeys
 *   dE/dt = Gamma x' + Omega phi' - (c x'^2 + 2 c12 x' phi' + c phi'^2),
 * the power of friction minus that of damping: the derived outputs P_fric and
 * P_damp give both, for power-balance checks. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "friction/friction.h"
#include "models/model.h"

struct belt {
  double m, k12, c, c12, vb, mu, b, eps, eta, eta_prime;
  double lambda_stick;
  int law;
  struct cs_approx approx;
};

enum { X, PHI, DX, DPHI };

static const struct cs_var_desc state[] = {
    {"x", "1", "position of the disk centre, x^/r^", 0},
    {"phi", "rad", "rotation of the disk", 1},
    {"dx", "1", "velocity of the disk centre, dx/dt (t = alpha t^)", 0},
    {"dphi", "1", "angular velocity of the disk, dphi/dt (rad per unit of t)", 0},
};

static const double state_default[] = {0.0, 0.0, 0.15, 0.0};

/* clang-format off */
#define P(name, unit, def, lo, hi, alt, doc) \
  {#name, unit, offsetof(struct belt, name), def, lo, hi, alt, doc}
/* clang-format on */

static const struct cs_param_desc params[] = {
    P(m, "1", 90.0, 1e-9, 1e9, NULL, "inertia ratio B^/(m^ r^2), eq. (5.2)"),
    P(k12, "1", 0.85, -0.999999, 0.999999, NULL, "stiffness coupling (k2-k1)/(k1+k2)"),
    P(c, "1", 1e-4, 0.0, 1e3, NULL, "damping (c1+c2)/sqrt(m^ (k1+k2))"),
    P(c12, "1", 0.0, -1e3, 1e3, NULL, "damping coupling (c2-c1)/sqrt(m^ (k1+k2))"),
    P(vb, "1", 0.15, -1e3, 1e3, NULL, "belt velocity v^b/(alpha r^)"),
    P(mu, "1", 5.0, 0.0, 1e6, NULL, "friction level mu m^ g/(r^ (k1+k2))"),
    P(b, "1", 1.0, 1e-6, 1e3, NULL, "b of the circular I(0,0) law, m = 2"),
    P(eps, "1", 1e-5, 0.0, 1.0, NULL, "smoothing parameter epsilon"),
    P(eta, "1", 1.0, 1.0, 1e3, "eta_prime", "static/kinetic friction ratio"),
    P(eta_prime, "1", NAN, 0.0, 1e4, "eta", "eta' of the regularization (instead of eta)"),
    P(lambda_stick, "1", NAN, 0.0, 1.0, NULL,
      "stick indicator threshold on lambda_s (default: eps)"),
};

static const char *const law_names[] = {"I00-reg", NULL};

static const struct cs_choice_desc choices[] = {
    {"law", offsetof(struct belt, law), law_names, 0,
     "friction law: I00-reg = regularized circular I(0,0), m = 2 (JTAM eq. 4.5)"},
};

enum { O_VS, O_WS, O_LAMBDA, O_GAMMA, O_OMEGA, O_E, O_PF, O_PD, O_STICK, O_N };

static const struct cs_var_desc derived[] = {
    {"vs", "1", "sliding velocity x' - vb", 0},
    {"ws", "1", "relative angular velocity phi'", 0},
    {"lambda_s", "1", "sqrt(vs^2 + ws^2)", 0},
    {"Gamma", "1", "friction force on the disk, -mu Ts", 0},
    {"Omega", "1", "friction moment on the disk, -mu Ms", 0},
    {"E", "1", "mechanical energy", 0},
    {"P_fric", "1", "power of friction Gamma x' + Omega phi'", 0},
    {"P_damp", "1", "power dissipated by damping c x'^2 + 2 c12 x' phi' + c phi'^2", 0},
    {"stick", "1", "1 when lambda_s < lambda_stick, else 0", 0},
};

static void friction(const struct belt *p, const double *y, double *G, double *Om, double *J)
{
  struct cs_friction_load f;
  double Jf[9];
  cs_i00_reg_eval(&p->approx, y[DX] - p->vb, 0.0, y[DPHI], &f, J ? Jf : NULL);
  *G = -p->mu * f.Tsx;
  *Om = -p->mu * f.Ms;
  if (J) {
    J[0] = -p->mu * Jf[0]; /* dGamma/dx' */
    J[1] = -p->mu * Jf[2]; /* dGamma/dphi' */
    J[2] = -p->mu * Jf[6]; /* dOmega/dx' */
    J[3] = -p->mu * Jf[8]; /* dOmega/dphi' */
  }
}

static int rhs(double t, const double *y, double *ydot, const void *vp)
{
  (void)t;
  const struct belt *p = vp;
  double G, Om;
  friction(p, y, &G, &Om, NULL);
  ydot[X] = y[DX];
  ydot[PHI] = y[DPHI];
  ydot[DX] = G - p->c * y[DX] - p->c12 * y[DPHI] - y[X] - p->k12 * y[PHI];
  ydot[DPHI] = (Om - p->c12 * y[DX] - p->c * y[DPHI] - p->k12 * y[X] - y[PHI]) / p->m;
  return 0;
}

static int jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct belt *p = vp;
  double G, Om, dF[4];
  friction(p, y, &G, &Om, dF);
  J[X * 4 + DX] = 1.0;
  J[PHI * 4 + DPHI] = 1.0;
  J[DX * 4 + X] = -1.0;
  J[DX * 4 + PHI] = -p->k12;
  J[DX * 4 + DX] = dF[0] - p->c;
  J[DX * 4 + DPHI] = dF[1] - p->c12;
  J[DPHI * 4 + X] = -p->k12 / p->m;
  J[DPHI * 4 + PHI] = -1.0 / p->m;
  J[DPHI * 4 + DX] = (dF[2] - p->c12) / p->m;
  J[DPHI * 4 + DPHI] = (dF[3] - p->c) / p->m;
  return 0;
}

static int derived_fn(double t, const double *y, double *out, const void *vp)
{
  (void)t;
  const struct belt *p = vp;
  double G, Om;
  friction(p, y, &G, &Om, NULL);
  double vs = y[DX] - p->vb, ws = y[DPHI], lam = sqrt(vs * vs + ws * ws);
  out[O_VS] = vs;
  out[O_WS] = ws;
  out[O_LAMBDA] = lam;
  out[O_GAMMA] = G;
  out[O_OMEGA] = Om;
  out[O_E] = 0.5 * y[DX] * y[DX] + 0.5 * p->m * y[DPHI] * y[DPHI] + 0.5 * y[X] * y[X] +
             p->k12 * y[X] * y[PHI] + 0.5 * y[PHI] * y[PHI];
  out[O_PF] = G * y[DX] + Om * y[DPHI];
  out[O_PD] = p->c * y[DX] * y[DX] + 2 * p->c12 * y[DX] * y[DPHI] + p->c * y[DPHI] * y[DPHI];
  out[O_STICK] = lam < p->lambda_stick ? 1.0 : 0.0;
  return 0;
}

static enum cs_status prepare(void *vp, char *msg, size_t len)
{
  struct belt *p = vp;
  enum cs_status st = isnan(p->eta_prime) ? cs_eta_prime_from_eta(p->eta, &p->eta_prime)
                                          : cs_eta_from_eta_prime(p->eta_prime, &p->eta, NULL);
  if (st != CS_OK) {
    snprintf(msg, len, "cannot convert between eta and eta_prime: %s", cs_strerror(st));
    return st;
  }
  if (!(p->eps > 0)) {
    snprintf(msg, len, "eps must be > 0 for the regularized law");
    return CS_ERR_RANGE;
  }
  if (isnan(p->lambda_stick))
    p->lambda_stick = p->eps;
  struct cs_contact_moments c = cs_contact_moments_uniform_disk();
  st = cs_approx_init(&p->approx, p->b, 2.0, p->eps, p->eta_prime, &c);
  if (st != CS_OK)
    snprintf(msg, len, "invalid friction parameters");
  return st;
}

const struct cs_model cs_model_belt = {
    .name = "belt",
    .title = "disk on a moving belt with coupled friction force and moment",
    .reference = "Kudra & Awrejcewicz, J. Theor. Appl. Mech. 54(3) (2016), eqs. (4.5), (5.1)-(5.2)",
    .n_state = 4,
    .state = state,
    .state_default = state_default,
    .n_param = sizeof params / sizeof *params,
    .param = params,
    .n_choice = 1,
    .choice = choices,
    .params_size = sizeof(struct belt),
    .n_derived = O_N,
    .derived = derived,
    .stick_output = O_STICK,
    .time_unit_si = 0,
    .prepare = prepare,
    .rhs = rhs,
    .jac = jac,
    .derived_fn = derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "dx", 0.0, -1},
    .section_doc = "dx = 0 decreasing: once per stick-slip cycle, in the slip phase where the "
                   "disk springs back against the belt; the stick phase (dx ~ vb > 0) never "
                   "touches it, so the regularized stick's tiny oscillations cause no crossings.",
};
