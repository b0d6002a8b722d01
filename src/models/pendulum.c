/* SPDX-License-Identifier: MIT */
/* Pendulum driven by a rotating disk through a circular friction contact
 * (Kudra & Awrejcewicz, Acta Mech. 2016, eqs. (7)-(9); MODELS.md §3). SI units.
 *
 *   M XC'' + kX (XC - e cos phi) + cX (XC' + e phi' sin phi) + mu N Tsx = 0
 *   M YC'' + kY (YC - e sin phi) + cY (YC' - e phi' cos phi) + mu N Tsy = 0
 *   B phi'' + e [M g + kX (XC - e cos phi) + cX (XC' + e phi' sin phi) + mu N Tsx] sin phi
 *           - e [kY (YC - e sin phi) + cY (YC' - e phi' cos phi) + mu N Tsy] cos phi
 *           + cphi phi' + mu N R Ms = 0                                         (7)
 *   ws  = phi' - omega0(t)
 *   vsx = (XC' + e phi' sin phi + omega0 (YC - e sin phi - YS)) / R
 *   vsy = (YC' - e phi' cos phi - omega0 (XC - e cos phi - XS)) / R              (8)
 *   XA = XC - e cos phi,  YA = YC - e sin phi                                   (9)
 *   omega0(t) = omega0 + omega0_amp cos(omega0_freq t + omega0_phase)
 *
 * (Tsx, Tsy, Ms) is the dimensionless load of the chosen law (default: the
 * regularized I(1,1), eq. 6) at (vsx, vsy, ws): vsx, vsy in units of R per
 * second, ws in rad/s, so eps is in 1/s. The force on the pendulum is
 * -mu N (Tsx, Tsy) [N], the moment -mu N R Ms [N m].
 *
 * With FX = -kX (XC - e cos phi) - cX (XC' + e phi' sin phi) - mu N Tsx and FY
 * likewise, (7) reads M XC'' = FX, M YC'' = FY,
 *   B phi'' = -e (M g - FX) sin phi - e FY cos phi - cphi phi' - mu N R Ms.
 * Without friction and damping the energy
 *   E = M (XC'^2 + YC'^2)/2 + B phi'^2/2 + kX (XC - e cos phi)^2/2
 *       + kY (YC - e sin phi)^2/2 - e M g cos phi
 * is conserved (the gravity term of (7) acts on phi only). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "friction/friction.h"
#include "models/friction_law.h"
#include "models/model.h"

struct pendulum {
  double M, B, e, kX, kY, cX, cY, cphi, XS, YS, R, N, mu, g;
  double b, m, eps, eta, eta_prime;
  double omega0, omega0_amp, omega0_freq, omega0_phase;
  double lambda_stick;
  int law;
  struct cs_model_friction fr;
};

enum { XC, YC, PHI, DXC, DYC, DPHI };

static const struct cs_var_desc state[] = {
    {"XC", "m", "x of the mass centre C", 0},
    {"YC", "m", "y of the mass centre C", 0},
    {"phi", "rad", "angle of the pendulum (not wrapped: counts full turns)", 1},
    {"dXC", "m/s", "velocity of C along x", 0},
    {"dYC", "m/s", "velocity of C along y", 0},
    {"dphi", "rad/s", "angular velocity of the pendulum", 0},
};

static const double state_default[] = {0.1, 0.0, 0.0, 0.0, 0.0, 0.0};

/* clang-format off */
#define P(name, unit, def, lo, hi, alt, doc) \
  {#name, unit, offsetof(struct pendulum, name), def, lo, hi, alt, doc}
/* clang-format on */

static const struct cs_param_desc params[] = {
    P(M, "kg", 1.2, 1e-9, 1e9, NULL, "mass of the pendulum"),
    P(B, "kg m^2", 0.01, 1e-12, 1e9, NULL, "moment of inertia about the mass centre C"),
    P(e, "m", 0.1, 0.0, 1e3, NULL, "distance AC from the joint A to the mass centre C"),
    P(kX, "N/m", 1000.0, 0.0, 1e12, NULL, "stiffness of the joint suspension along x"),
    P(kY, "N/m", 1000.0, 0.0, 1e12, NULL, "stiffness of the joint suspension along y"),
    P(cX, "N s/m", 0.1, 0.0, 1e9, NULL, "damping of the joint suspension along x"),
    P(cY, "N s/m", 0.1, 0.0, 1e9, NULL, "damping of the joint suspension along y"),
    P(cphi, "N m s", 0.1, 0.0, 1e9, NULL, "rotational damping in the joint A"),
    P(XS, "m", 0.0, -1e3, 1e3, NULL, "x of the driving disk's centre S"),
    P(YS, "m", 0.0, -1e3, 1e3, NULL, "y of the driving disk's centre S"),
    P(R, "m", 0.02, 1e-9, 1e3, NULL, "radius of the circular contact"),
    P(N, "N", 25.0, 0.0, 1e9, NULL, "normal load of the contact"),
    P(mu, "1", 1.0, 0.0, 100.0, NULL, "kinetic friction coefficient"),
    P(g, "m/s^2", 9.81, 0.0, 1e3, NULL, "gravitational acceleration"),
    P(b, "1", NAN, 1e-6, 1e3, NULL, "b of the friction law (default: the law's fitted pair)"),
    P(m, "1", NAN, 1e-3, 1e3, NULL, "m of the friction law (default: the law's fitted pair)"),
    P(eps, "1/s", 1e-3, 0.0, 1e3, NULL, "smoothing parameter epsilon of the regularized laws"),
    P(eta, "1", 1.0, 1.0, 1e3, "eta_prime", "static/kinetic friction ratio (max force / mu N)"),
    P(eta_prime, "1", NAN, 0.0, 1e4, "eta", "eta' of the regularization (instead of eta)"),
    P(omega0, "rad/s", 40.0, -1e5, 1e5, NULL,
      "angular velocity of the driving disk (constant part C)"),
    P(omega0_amp, "rad/s", 0.0, -1e5, 1e5, NULL,
      "amplitude A of omega0(t) = A cos(Omega t + psi) + C"),
    P(omega0_freq, "rad/s", 0.0, 0.0, 1e5, NULL, "angular frequency Omega of omega0(t)"),
    P(omega0_phase, "rad", 0.0, -1e3, 1e3, NULL, "phase psi of omega0(t)"),
    P(lambda_stick, "1/s", NAN, 0.0, 1e6, NULL,
      "stick indicator threshold on lambda_s (default: eps, or 1e-6 without smoothing)"),
};

static const struct cs_choice_desc choices[] = {
    {"law", offsetof(struct pendulum, law), cs_model_law_names, CS_MLAW_I11_REG,
     "friction law of the contact"},
};

enum { O_XA, O_YA, O_VSX, O_VSY, O_WS, O_LAMBDA, O_TX, O_TY, O_MZ, O_OMEGA0, O_E, O_STICK, O_N };

static const struct cs_var_desc derived[] = {
    {"XA", "m", "x of the joint A, eq. (9)", 0},
    {"YA", "m", "y of the joint A, eq. (9)", 0},
    {"vsx", "1/s", "relative sliding velocity of the contact centre along x over R, eq. (8)", 0},
    {"vsy", "1/s", "relative sliding velocity along y over R, eq. (8)", 0},
    {"ws", "rad/s", "relative angular velocity of the contact phi' - omega0", 0},
    {"lambda_s", "1/s", "sqrt(vsx^2 + vsy^2 + ws^2)", 0},
    {"Tx", "N", "friction force on the pendulum along x, -mu N Tsx", 0},
    {"Ty", "N", "friction force on the pendulum along y, -mu N Tsy", 0},
    {"Mz", "N m", "friction moment on the pendulum, -mu N R Ms", 0},
    {"omega0_t", "rad/s", "angular velocity of the driving disk at t", 0},
    {"E", "J", "mechanical energy (kinetic + springs - e M g cos phi)", 0},
    {"stick", "1", "1 when lambda_s < lambda_stick (near stick), else 0", 0},
};

static double omega0_at(const struct pendulum *p, double t)
{
  return p->omega0 + p->omega0_amp * cos(p->omega0_freq * t + p->omega0_phase);
}

static void kinematics(const struct pendulum *p, double t, const double *y, double w0, double *vsx,
                       double *vsy, double *ws)
{
  double s = sin(y[PHI]), c = cos(y[PHI]);
  *ws = y[DPHI] - w0;
  *vsx = (y[DXC] + p->e * y[DPHI] * s + w0 * (y[YC] - p->e * s - p->YS)) / p->R;
  *vsy = (y[DYC] - p->e * y[DPHI] * c - w0 * (y[XC] - p->e * c - p->XS)) / p->R;
  (void)t;
}

static int rhs(double t, const double *y, double *ydot, const void *vp)
{
  const struct pendulum *p = vp;
  double w0 = omega0_at(p, t), vsx, vsy, ws;
  kinematics(p, t, y, w0, &vsx, &vsy, &ws);
  struct cs_friction_load f;
  int rc = cs_model_friction_eval(&p->fr, vsx, vsy, ws, &f, NULL);
  if (rc)
    return rc;
  double s = sin(y[PHI]), c = cos(y[PHI]), muN = p->mu * p->N;
  double FX = -p->kX * (y[XC] - p->e * c) - p->cX * (y[DXC] + p->e * y[DPHI] * s) - muN * f.Tsx;
  double FY = -p->kY * (y[YC] - p->e * s) - p->cY * (y[DYC] - p->e * y[DPHI] * c) - muN * f.Tsy;
  ydot[XC] = y[DXC];
  ydot[YC] = y[DYC];
  ydot[PHI] = y[DPHI];
  ydot[DXC] = FX / p->M;
  ydot[DYC] = FY / p->M;
  ydot[DPHI] =
      (-p->e * (p->M * p->g - FX) * s - p->e * FY * c - p->cphi * y[DPHI] - muN * p->R * f.Ms) /
      p->B;
  return 0;
}

/* Chain rule: d(load)/dy = J_f d(vsx, vsy, ws)/dy, then through FX, FY and the phi equation. */
static int jac(double t, const double *y, double *J, const void *vp)
{
  const struct pendulum *p = vp;
  double w0 = omega0_at(p, t), vsx, vsy, ws;
  kinematics(p, t, y, w0, &vsx, &vsy, &ws);
  struct cs_friction_load f;
  double Jf[9];
  int rc = cs_model_friction_eval(&p->fr, vsx, vsy, ws, &f, Jf);
  if (rc)
    return rc;
  const double e = p->e, R = p->R, s = sin(y[PHI]), c = cos(y[PHI]), muN = p->mu * p->N;
  /* dz/dy for z = (vsx, vsy, ws) */
  double dz[3][6] = {{0}};
  dz[0][YC] = w0 / R;
  dz[0][PHI] = e * c * (y[DPHI] - w0) / R;
  dz[0][DXC] = 1.0 / R;
  dz[0][DPHI] = e * s / R;
  dz[1][XC] = -w0 / R;
  dz[1][PHI] = e * s * (y[DPHI] - w0) / R;
  dz[1][DYC] = 1.0 / R;
  dz[1][DPHI] = -e * c / R;
  dz[2][DPHI] = 1.0;
  double dT[3][6];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 6; j++)
      dT[i][j] = Jf[3 * i] * dz[0][j] + Jf[3 * i + 1] * dz[1][j] + Jf[3 * i + 2] * dz[2][j];
  double FX = -p->kX * (y[XC] - e * c) - p->cX * (y[DXC] + e * y[DPHI] * s) - muN * f.Tsx;
  double FY = -p->kY * (y[YC] - e * s) - p->cY * (y[DYC] - e * y[DPHI] * c) - muN * f.Tsy;
  double dFX[6], dFY[6];
  for (int j = 0; j < 6; j++) {
    dFX[j] = -muN * dT[0][j];
    dFY[j] = -muN * dT[1][j];
  }
  dFX[XC] += -p->kX;
  dFX[PHI] += -p->kX * e * s - p->cX * e * y[DPHI] * c;
  dFX[DXC] += -p->cX;
  dFX[DPHI] += -p->cX * e * s;
  dFY[YC] += -p->kY;
  dFY[PHI] += p->kY * e * c - p->cY * e * y[DPHI] * s;
  dFY[DYC] += -p->cY;
  dFY[DPHI] += p->cY * e * c;
  J[XC * 6 + DXC] = 1.0;
  J[YC * 6 + DYC] = 1.0;
  J[PHI * 6 + DPHI] = 1.0;
  for (int j = 0; j < 6; j++) {
    J[DXC * 6 + j] = dFX[j] / p->M;
    J[DYC * 6 + j] = dFY[j] / p->M;
    J[DPHI * 6 + j] = (e * s * dFX[j] - e * c * dFY[j] - muN * R * dT[2][j]) / p->B;
  }
  J[DPHI * 6 + PHI] += (-e * (p->M * p->g - FX) * c + e * FY * s) / p->B;
  J[DPHI * 6 + DPHI] += -p->cphi / p->B;
  return 0;
}

static int derived_fn(double t, const double *y, double *out, const void *vp)
{
  const struct pendulum *p = vp;
  double w0 = omega0_at(p, t), vsx, vsy, ws;
  kinematics(p, t, y, w0, &vsx, &vsy, &ws);
  struct cs_friction_load f;
  int rc = cs_model_friction_eval(&p->fr, vsx, vsy, ws, &f, NULL);
  if (rc)
    return rc;
  double s = sin(y[PHI]), c = cos(y[PHI]), muN = p->mu * p->N;
  double lam = sqrt(vsx * vsx + vsy * vsy + ws * ws);
  double ax = y[XC] - p->e * c, ay = y[YC] - p->e * s;
  out[O_XA] = ax;
  out[O_YA] = ay;
  out[O_VSX] = vsx;
  out[O_VSY] = vsy;
  out[O_WS] = ws;
  out[O_LAMBDA] = lam;
  out[O_TX] = -muN * f.Tsx;
  out[O_TY] = -muN * f.Tsy;
  out[O_MZ] = -muN * p->R * f.Ms;
  out[O_OMEGA0] = w0;
  out[O_E] = 0.5 * p->M * (y[DXC] * y[DXC] + y[DYC] * y[DYC]) + 0.5 * p->B * y[DPHI] * y[DPHI] +
             0.5 * p->kX * ax * ax + 0.5 * p->kY * ay * ay - p->e * p->M * p->g * c;
  out[O_STICK] = lam < p->lambda_stick ? 1.0 : 0.0;
  return 0;
}

static enum cs_status prepare(void *vp, char *msg, size_t len)
{
  struct pendulum *p = vp;
  enum cs_status st;
  if (isnan(p->eta_prime)) {
    st = cs_eta_prime_from_eta(p->eta, &p->eta_prime);
  } else {
    st = cs_eta_from_eta_prime(p->eta_prime, &p->eta, NULL);
  }
  if (st != CS_OK) {
    snprintf(msg, len, "cannot convert between eta and eta_prime: %s", cs_strerror(st));
    return st;
  }
  int regularized =
      p->law == CS_MLAW_I11_REG || p->law == CS_MLAW_I00_REG || p->law == CS_MLAW_INTEGRAL_REG;
  if (regularized && !(p->eps > 0)) {
    snprintf(msg, len, "eps must be > 0 for the regularized law %s", cs_model_law_names[p->law]);
    return CS_ERR_RANGE;
  }
  if (isnan(p->lambda_stick))
    p->lambda_stick = p->eps > 0 ? p->eps : 1e-6;
  st = cs_model_friction_prepare(&p->fr, p->law, &p->b, &p->m, regularized ? p->eps : 0.0,
                                 regularized ? p->eta_prime : 0.0);
  if (st != CS_OK)
    snprintf(msg, len, "invalid friction parameters b = %g, m = %g", p->b, p->m);
  return st;
}

static enum cs_status attach(void *vp)
{
  return cs_model_friction_attach(&((struct pendulum *)vp)->fr);
}

static void detach(void *vp)
{
  cs_model_friction_detach(&((struct pendulum *)vp)->fr);
}

static double forcing_period(const void *vp)
{
  const struct pendulum *p = vp;
  return p->omega0_amp != 0 && p->omega0_freq > 0 ? 2 * M_PI / p->omega0_freq : 0.0;
}

const struct cs_model cs_model_pendulum = {
    .name = "pendulum",
    .title = "pendulum elastically suspended, driven by a rotating disk through friction",
    .reference = "Kudra & Awrejcewicz, Acta Mech. 227 (2016), eqs. (6)-(9)",
    .n_state = 6,
    .state = state,
    .state_default = state_default,
    .n_param = sizeof params / sizeof *params,
    .param = params,
    .n_choice = 1,
    .choice = choices,
    .params_size = sizeof(struct pendulum),
    .n_derived = O_N,
    .derived = derived,
    .stick_output = O_STICK,
    .time_unit_si = 1,
    .prepare = prepare,
    .attach = attach,
    .detach = detach,
    .rhs = rhs,
    .jac = jac,
    .derived_fn = derived_fn,
    .forcing_period = forcing_period,
    .section = {CS_SECTION_HYPERPLANE, "dXC", 0.0, -1},
    .section_doc = "dXC = 0 decreasing: the maxima of XC. The suspension oscillates in x in "
                   "every regime (swinging, full rotations, stick-slip), so every non-equilibrium "
                   "attractor crosses it; equilibria are recognised before sections are taken.",
};
