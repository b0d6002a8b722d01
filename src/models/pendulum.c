/* SPDX-License-Identifier: MIT */
/* Pendulum driven by a rotating disk through a circular friction contact
 * (Kudra & Awrejcewicz, Acta Mech. 2016, eqs. (7)-(9); src/models/README.md). SI units.
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
 * is conserved (the gravity term of (7) acts on phi only).
 *
 * law = event-driven: the non-smooth model, the eps -> 0 limit of the
 * regularized I(1,1) (figure 9's reference), integrated in modes whose
 * switches ARKODE's root finding locates (src/integrate/flow.h):
 * - slip: (7) with the unregularized I(1,1) (b, m of the pendulum);
 *   switching function g = lambda_s - lambda_event (plus the arming term of
 *   belt.c after a restart). When it falls through 0 the velocities are set
 *   to those of stick (below) and the mode becomes stick if the required
 *   load is admissible, else slip restarts at once ("reversal"). The
 *   positions then differ from the exact stop by O(lambda_event^2 / s) only.
 *   With the explicit stepper the approach to lambda_s = 0 needs tight
 *   tolerances: at rtol 1e-8 it stalls around lambda_s ~ 3e-7 (figure 9 at
 *   t = 6.90 s: too much work), at 1e-10 it does not; the implicit stepper
 *   works at the parameter files' rtol 1e-8 (or raise lambda_event).
 * - stick: the pendulum turns with the driving disk, vsx = vsy = ws = 0:
 *     phi' = omega0(t),  XC' = -omega0 (YC - YS),  YC' = omega0 (XC - XS)
 *   (C moves rigidly about S), with omega0(t) varying or not. The positions
 *   are integrated with these velocities, the velocity states with their
 *   time derivatives along the motion,
 *     XC'' = -omega0' (YC - YS) - omega0^2 (XC - XS),
 *     YC'' =  omega0' (XC - XS) - omega0^2 (YC - YS),  phi'' = omega0',
 *   and (7) gives the friction load that this motion needs:
 *     Tx = M XC'' + kX (XC - e cos phi) + cX (XC' + e phi' sin phi),  Ty likewise,
 *     Mz = B phi'' + e (M g - M XC'') sin phi + e M YC'' cos phi + cphi phi'.
 *   With u = (Tx/(mu N), Ty/(mu N), Mz/(mu N R)) and the yield measure xi(u)
 *   of I(1,1) (JTAM eq. 2.5, Newton: cs_yield_measure, started from the last
 *   direction), g = eta - xi: stick ends when xi reaches eta.
 * - restart: slip resumes from lambda_s = 0 along the direction d of z =
 *   (vsx, vsy, ws) consistent with the equations of motion: the relative
 *   acceleration is affine in the friction load, z' = z'_0 - W f (W from
 *   four evaluations), and with kinetic friction f = F(d) opposing the slip
 *   it must point along d. Its unknown is the acceleration z = s d itself:
 *     H(z) = z'_0 - W F(z) - z = 0
 *   (F is homogeneous of degree 0, so a root is a direction with s = |z| >
 *   0; solutions with s < 0 are not roots), solved by GSL's hybridsj with the
 *   law's Jacobian, started from the acceleration along the yield direction
 *   d' (then from other starts if that fails). A root exists when xi > 1:
 *   z'_0 - W F(d) is a nowhere-zero field on the sphere of degree 0, and a
 *   map of the sphere of degree 0 has a fixed point. As for the belt, the
 *   slip starts exactly from lambda_s = 0 with the friction of d, kept for a
 *   start window t - t_r < START_FACTOR lambda_event / s (until lambda_s ~
 *   1e-4 1/s; the ray along d solves (7) to first order in lambda_s and
 *   t - t_r, and the load changes little in that time), which keeps the
 *   singular law and its Jacobian ~ 1/lambda_s away from the implicit
 *   stepper's Newton iteration; below 1e-6 lambda_event the direction of z
 *   is rounding noise and d is used as well. lambda_restart > 0 steps along the Taylor
 *   expansion of the solution to lambda_s = lambda_restart instead (the time
 *   itself not advanced), the classical way, for comparison.
 * In stick the derived Tx, Ty, Mz are the static load and stick = 1.
 * The event-driven law needs attach() (workspaces of both Newton solves). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multiroots.h>

#include "core/error_private.h"
#include "core/gsl_quiet.h"
#include "friction/friction.h"
#include "models/friction_law.h"
#include "models/model.h"
#include "models/friction_law_private.h"

/* The laws: the friction core's (cs_model_law_names, same indices) and the
 * event-driven scheme after them. */
_Static_assert(CS_MLAW_COUNT == 6, "update law_names below");
enum { LAW_EVENT = CS_MLAW_COUNT };
enum { MODE_SLIP, MODE_STICK };
enum { K_SLIP_STICK, K_STICK_SLIP, K_REVERSAL };

#define START_FACTOR 1e3  /* the start window lasts until lambda_s ~ START_FACTOR lambda_event */
#define FLOOR_FACTOR 1e-6 /* slip friction of the restart direction below this * lambda_event */

/* Per-copy workspace of the event-driven law (attach). */
struct pendulum_ev {
  struct cs_yield_ws *yield;        /* Newton of the yield measure */
  gsl_multiroot_fdfsolver *restart; /* Newton of the restart direction */
  gsl_vector *x;                    /* its start */
  double guess[3];                  /* last incipient-slip direction of the yield measure */
};

struct pendulum {
  double M, B, e, kX, kY, cX, cY, cphi, XS, YS, R, N, mu, g;
  double b, m, eps, eta, eta_prime;
  double omega0, omega0_amp, omega0_freq, omega0_phase;
  double lambda_stick;
  double lambda_event;   /* event-driven: slip ends when lambda_s falls below this */
  double lambda_restart; /* event-driven: slip speed at a restart (0: exact start) */
  int law;               /* index into law_names */
  struct cs_model_friction fr;
  struct pendulum_ev *ev; /* event-driven: workspaces (attach), else NULL */
  /* event-driven run state, changed by the mode switches */
  int mode;       /* MODE_SLIP or MODE_STICK */
  double dir[3];  /* unit (vsx, vsy, ws) of the last restart */
  double t_arm;   /* time of the last restart (-inf: not armed) */
  double tau_arm; /* start window START_FACTOR lambda_event / s */
  /* set by prepare: the right-hand side multiplies by these instead of
   * dividing (a division costs several multiplications' time) */
  double inv_R, inv_M, inv_B; /* 1/R, 1/M, 1/B */
  double muN, muNR, Mg;       /* mu N, mu N R, M g */
};

enum { XC, YC, PHI, DXC, DYC, DPHI };

static const struct cs_var_desc state[] = {
    {"XC", "m", "x of the mass centre C", 0, 0},
    {"YC", "m", "y of the mass centre C", 0, 0},
    {"phi", "rad", "angle of the pendulum (not wrapped: counts full turns)", 1, 0},
    {"dXC", "m/s", "velocity of C along x", 0, 0},
    {"dYC", "m/s", "velocity of C along y", 0, 0},
    {"dphi", "rad/s", "angular velocity of the pendulum", 0, 0},
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
    P(lambda_event, "1/s", 1e-7, 1e-15, 1e-2, NULL,
      "event-driven: slip ends when lambda_s falls below this"),
    P(lambda_restart, "1/s", 0.0, 0.0, 1e-2, NULL,
      "event-driven: slip speed at a restart (0: exact start from lambda_s = 0)"),
};

static const char *const law_names[] = {
    "I11-reg", "I00-reg", "integral-reg", "I11", "I00", "integral", "event-driven", NULL,
};

static const struct cs_choice_desc choices[] = {
    {"law", offsetof(struct pendulum, law), law_names, CS_MLAW_I11_REG,
     "friction law of the contact; event-driven: unregularized I(1,1) in slip, exact stick"},
};

static const char *const switch_kinds[] = {"slip->stick", "stick->slip", "reversal", NULL};

enum { O_XA, O_YA, O_VSX, O_VSY, O_WS, O_LAMBDA, O_TX, O_TY, O_MZ, O_OMEGA0, O_E, O_STICK, O_N };

static const struct cs_var_desc derived[] = {
    {"XA", "m", "x of the joint A, eq. (9)", 0, 0},
    {"YA", "m", "y of the joint A, eq. (9)", 0, 0},
    {"vsx", "1/s", "relative sliding velocity of the contact centre along x over R, eq. (8)", 0, 0},
    {"vsy", "1/s", "relative sliding velocity along y over R, eq. (8)", 0, 0},
    {"ws", "rad/s", "relative angular velocity of the contact phi' - omega0", 0, 0},
    {"lambda_s", "1/s", "sqrt(vsx^2 + vsy^2 + ws^2)", 0, 0},
    {"Tx", "N", "friction force on the pendulum along x, -mu N Tsx", 0, 0},
    {"Ty", "N", "friction force on the pendulum along y, -mu N Tsy", 0, 0},
    {"Mz", "N m", "friction moment on the pendulum, -mu N R Ms", 0, 0},
    {"omega0_t", "rad/s", "angular velocity of the driving disk at t", 0, 0},
    {"E", "J", "mechanical energy (kinetic + springs - e M g cos phi)", 0, 0},
    {"stick", "1", "1 in stick (event-driven: the mode; else lambda_s < lambda_stick)", 0, 1},
};

/* A constant omega0 (amplitude 0, the usual case) costs no cosine. */
static double omega0_at(const struct pendulum *p, double t)
{
  if (p->omega0_amp == 0.0)
    return p->omega0;
  return p->omega0 + p->omega0_amp * cos(p->omega0_freq * t + p->omega0_phase);
}

static double omega0_dot(const struct pendulum *p, double t)
{
  if (p->omega0_amp == 0.0)
    return 0.0;
  return -p->omega0_amp * p->omega0_freq * sin(p->omega0_freq * t + p->omega0_phase);
}

/* (vsx, vsy, ws) at y, with s, c = sin, cos of phi (computed once per call of
 * the right-hand side or Jacobian). */
static void kinematics_sc(const struct pendulum *p, const double *y, double w0, double s, double c,
                          double *vsx, double *vsy, double *ws)
{
  *ws = y[DPHI] - w0;
  *vsx = (y[DXC] + p->e * y[DPHI] * s + w0 * (y[YC] - p->e * s - p->YS)) * p->inv_R;
  *vsy = (y[DYC] - p->e * y[DPHI] * c - w0 * (y[XC] - p->e * c - p->XS)) * p->inv_R;
}

static void kinematics(const struct pendulum *p, double t, const double *y, double w0, double *vsx,
                       double *vsy, double *ws)
{
  (void)t;
  kinematics_sc(p, y, w0, sin(y[PHI]), cos(y[PHI]), vsx, vsy, ws);
}

static int event_driven(const struct pendulum *p)
{
  return p->law == LAW_EVENT;
}

static int stick_mode(const struct pendulum *p)
{
  return event_driven(p) && p->mode == MODE_STICK;
}

/* The law's load in slip at time t. Event-driven: while armed after a
 * restart (lambda_s < ~4 lambda_event) and below the floor, the restart
 * direction's load, derivatives 0. */
static inline __attribute__((always_inline)) int slip_load(const struct pendulum *p, double t,
                                                           double vsx, double vsy, double ws,
                                                           struct cs_friction_load *f, double *Jf)
{
  double fl = FLOOR_FACTOR * p->lambda_event;
  if (event_driven(p) && (t < p->t_arm + p->tau_arm || vsx * vsx + vsy * vsy + ws * ws < fl * fl)) {
    cs_i11_eval(&p->fr.approx, p->dir[0], p->dir[1], p->dir[2], f, NULL);
    if (Jf)
      memset(Jf, 0, 9 * sizeof *Jf);
    return 0;
  }
  return cs_model_friction_eval_fast(&p->fr, vsx, vsy, ws, f, Jf);
}

/* Accelerations of (7) under the dimensionless load f (positions' rates copied). */
static void slip_accel_sc(const struct pendulum *p, const double *y,
                          const struct cs_friction_load *f, double s, double c, double *ydot)
{
  double muN = p->muN;
  double FX = -p->kX * (y[XC] - p->e * c) - p->cX * (y[DXC] + p->e * y[DPHI] * s) - muN * f->Tsx;
  double FY = -p->kY * (y[YC] - p->e * s) - p->cY * (y[DYC] - p->e * y[DPHI] * c) - muN * f->Tsy;
  ydot[XC] = y[DXC];
  ydot[YC] = y[DYC];
  ydot[PHI] = y[DPHI];
  ydot[DXC] = FX * p->inv_M;
  ydot[DYC] = FY * p->inv_M;
  ydot[DPHI] =
      (-p->e * (p->Mg - FX) * s - p->e * FY * c - p->cphi * y[DPHI] - p->muNR * f->Ms) * p->inv_B;
}

static void slip_accel(const struct pendulum *p, const double *y, const struct cs_friction_load *f,
                       double *ydot)
{
  slip_accel_sc(p, y, f, sin(y[PHI]), cos(y[PHI]), ydot);
}

/* Stick: the rigid motion with the disk (velocities from the positions). */
static void stick_rhs(const struct pendulum *p, double t, const double *y, double *ydot)
{
  double w = omega0_at(p, t), wd = omega0_dot(p, t);
  double dx = y[XC] - p->XS, dy = y[YC] - p->YS;
  ydot[XC] = -w * dy;
  ydot[YC] = w * dx;
  ydot[PHI] = w;
  ydot[DXC] = -wd * dy - w * w * dx;
  ydot[DYC] = wd * dx - w * w * dy;
  ydot[DPHI] = wd;
}

/* Sets the velocity states to those of stick at (t, y). */
static void stick_velocities(const struct pendulum *p, double t, double *y)
{
  double w = omega0_at(p, t);
  y[DXC] = -w * (y[YC] - p->YS);
  y[DYC] = w * (y[XC] - p->XS);
  y[DPHI] = w;
}

/* The load (Tx, Ty, Mz) [N, N, N m] that keeps the stick motion at (t, y). */
static void required_load(const struct pendulum *p, double t, const double *y, double L[3])
{
  double yd[6], v[6];
  memcpy(v, y, sizeof v);
  stick_velocities(p, t, v);
  stick_rhs(p, t, v, yd);
  double s = sin(y[PHI]), c = cos(y[PHI]), e = p->e;
  double ax = p->M * yd[DXC], ay = p->M * yd[DYC];
  L[0] = ax + p->kX * (y[XC] - e * c) + p->cX * (v[DXC] + e * v[DPHI] * s);
  L[1] = ay + p->kY * (y[YC] - e * s) + p->cY * (v[DYC] - e * v[DPHI] * c);
  L[2] = p->B * yd[DPHI] + e * (p->M * p->g - ax) * s + e * ay * c + p->cphi * v[DPHI];
}

/* Yield measure of the stick load at (t, y); the incipient-slip direction in dir (may be NULL). */
static int stick_yield(const struct pendulum *p, double t, const double *y, double *xi, double *dir)
{
  if (!p->ev)
    return -CS_ERR_ARG;
  double muN = p->mu * p->N, L[3];
  if (!(muN > 0)) {
    *xi = INFINITY;
    return 0;
  }
  required_load(p, t, y, L);
  double u[3] = {L[0] / muN, L[1] / muN, L[2] / (muN * p->R)};
  struct cs_yield r;
  enum cs_status st =
      cs_yield_measure(CS_LAW_I11, &p->fr.approx, u, p->ev->guess, p->ev->yield, &r);
  if (st != CS_OK)
    return -(int)st;
  if (r.xi > 0)
    memcpy(p->ev->guess, r.dir, sizeof r.dir);
  *xi = r.xi;
  if (dir)
    memcpy(dir, r.dir, sizeof r.dir);
  return 0;
}

static int rhs(double t, const double *y, double *ydot, const void *vp)
{
  const struct pendulum *p = vp;
  if (stick_mode(p)) {
    stick_rhs(p, t, y, ydot);
    return 0;
  }
  double w0 = omega0_at(p, t), vsx, vsy, ws, s = sin(y[PHI]), c = cos(y[PHI]);
  kinematics_sc(p, y, w0, s, c, &vsx, &vsy, &ws);
  struct cs_friction_load f;
  int rc = slip_load(p, t, vsx, vsy, ws, &f, NULL);
  if (rc)
    return rc;
  slip_accel_sc(p, y, &f, s, c, ydot);
  return 0;
}

static void stick_jac(const struct pendulum *p, double t, double *J)
{
  double w = omega0_at(p, t), wd = omega0_dot(p, t);
  J[XC * 6 + YC] = -w;
  J[YC * 6 + XC] = w;
  J[DXC * 6 + XC] = -w * w;
  J[DXC * 6 + YC] = -wd;
  J[DYC * 6 + XC] = wd;
  J[DYC * 6 + YC] = -w * w;
}

/* The parameters whose derivative rhs_jac_dp gives: through omega0(t) (the
 * relative velocities) or through mu N (the load's factor). */
enum { DP_NONE, DP_OMEGA0, DP_OMEGA0_AMP, DP_N, DP_MU };

static int dp_kind(size_t param)
{
  if (param >= sizeof params / sizeof *params)
    return DP_NONE;
  size_t off = params[param].offset;
  if (off == offsetof(struct pendulum, omega0))
    return DP_OMEGA0;
  if (off == offsetof(struct pendulum, omega0_amp))
    return DP_OMEGA0_AMP;
  if (off == offsetof(struct pendulum, N))
    return DP_N;
  if (off == offsetof(struct pendulum, mu))
    return DP_MU;
  return DP_NONE;
}

/* Chain rule: d(load)/dy = J_f d(vsx, vsy, ws)/dy, then through FX, FY and
 * the phi equation. With ydot not NULL also the right-hand side, from the
 * same load (rhs_jac); J may be NULL. With dp != DP_NONE also fp = df/dp at
 * fixed y:
 * - omega0, omega0_amp: omega0(t) moves z = (vsx, vsy, ws) by dz/dp =
 *   w0' ((YC - e sin phi - YS)/R, -(XC - e cos phi - XS)/R, -1), w0' =
 *   d omega0(t)/dp (1, or cos(Omega t + psi)); the load by J_f dz/dp, and f
 *   through FX, FY and the phi equation as in J;
 * - N, mu: f is affine in mu N with the load fixed: d(mu N)/dp = mu or N.
 * (The regularized law's own parameters b, m, eps, eta are not given.) */
static inline __attribute__((always_inline)) int jac_slip_dp(const struct pendulum *p, double t,
                                                             const double *y, double *ydot,
                                                             double *J, int dp, double *fp)
{
  const double s = sin(y[PHI]), c = cos(y[PHI]);
  double w0 = omega0_at(p, t), vsx, vsy, ws;
  kinematics_sc(p, y, w0, s, c, &vsx, &vsy, &ws);
  struct cs_friction_load f;
  double Jf[9];
  int rc = slip_load(p, t, vsx, vsy, ws, &f, Jf);
  if (rc)
    return rc;
  if (ydot)
    slip_accel_sc(p, y, &f, s, c, ydot);
  const double e = p->e, iR = p->inv_R, muN = p->muN;
  if (dp == DP_OMEGA0 || dp == DP_OMEGA0_AMP) {
    double dw = dp == DP_OMEGA0 ? 1.0 : cos(p->omega0_freq * t + p->omega0_phase);
    const double dzp[3] = {dw * (y[YC] - e * s - p->YS) * iR, -dw * (y[XC] - e * c - p->XS) * iR,
                           -dw};
    double dTp[3];
    for (int i = 0; i < 3; i++)
      dTp[i] = Jf[3 * i] * dzp[0] + Jf[3 * i + 1] * dzp[1] + Jf[3 * i + 2] * dzp[2];
    double dFX = -muN * dTp[0], dFY = -muN * dTp[1];
    fp[XC] = fp[YC] = fp[PHI] = 0.0;
    fp[DXC] = dFX * p->inv_M;
    fp[DYC] = dFY * p->inv_M;
    fp[DPHI] = (e * s * dFX - e * c * dFY - p->muNR * dTp[2]) * p->inv_B;
  } else if (dp == DP_N || dp == DP_MU) {
    double dmuN = dp == DP_N ? p->mu : p->N;
    double dFX = -dmuN * f.Tsx, dFY = -dmuN * f.Tsy;
    fp[XC] = fp[YC] = fp[PHI] = 0.0;
    fp[DXC] = dFX * p->inv_M;
    fp[DYC] = dFY * p->inv_M;
    fp[DPHI] = (e * s * dFX - e * c * dFY - dmuN * p->R * f.Ms) * p->inv_B;
  }
  if (!J)
    return 0;
  /* dz/dy for z = (vsx, vsy, ws) */
  double dz[3][6] = {{0}};
  dz[0][YC] = w0 * iR;
  dz[0][PHI] = e * c * (y[DPHI] - w0) * iR;
  dz[0][DXC] = iR;
  dz[0][DPHI] = e * s * iR;
  dz[1][XC] = -w0 * iR;
  dz[1][PHI] = e * s * (y[DPHI] - w0) * iR;
  dz[1][DYC] = iR;
  dz[1][DPHI] = -e * c * iR;
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
    J[DXC * 6 + j] = dFX[j] * p->inv_M;
    J[DYC * 6 + j] = dFY[j] * p->inv_M;
    J[DPHI * 6 + j] = (e * s * dFX[j] - e * c * dFY[j] - p->muNR * dT[2][j]) * p->inv_B;
  }
  J[DPHI * 6 + PHI] += (-e * (p->Mg - FX) * c + e * FY * s) * p->inv_B;
  J[DPHI * 6 + DPHI] += -p->cphi * p->inv_B;
  return 0;
}

static int jac_slip(const struct pendulum *p, double t, const double *y, double *ydot, double *J)
{
  return jac_slip_dp(p, t, y, ydot, J, DP_NONE, NULL);
}

static int jac(double t, const double *y, double *J, const void *vp)
{
  const struct pendulum *p = vp;
  if (stick_mode(p)) {
    stick_jac(p, t, J);
    return 0;
  }
  return jac_slip(p, t, y, NULL, J);
}

static int rhs_jac(double t, const double *y, double *ydot, double *J, const void *vp)
{
  const struct pendulum *p = vp;
  if (stick_mode(p)) {
    stick_rhs(p, t, y, ydot);
    stick_jac(p, t, J);
    return 0;
  }
  return jac_slip(p, t, y, ydot, J);
}

/* Given for the smooth laws (the event-driven law's stick mode has its own
 * dependence on omega0; its continuation keeps the differences). */
static int rhs_dp_provided(size_t param, const void *vp)
{
  return !event_driven(vp) && dp_kind(param) != DP_NONE;
}

static int rhs_jac_dp(double t, const double *y, size_t param, double *ydot, double *J, double *fp,
                      const void *vp)
{
  const struct pendulum *p = vp;
  int dp = dp_kind(param);
  if (event_driven(p) || dp == DP_NONE)
    return -CS_ERR_ARG;
  return jac_slip_dp(p, t, y, ydot, J, dp, fp);
}

static int derived_fn(double t, const double *y, double *out, const void *vp)
{
  const struct pendulum *p = vp;
  double w0 = omega0_at(p, t), vsx, vsy, ws;
  kinematics(p, t, y, w0, &vsx, &vsy, &ws);
  double s = sin(y[PHI]), c = cos(y[PHI]), muN = p->mu * p->N;
  if (stick_mode(p)) {
    required_load(p, t, y, out + O_TX); /* Tx, Ty, Mz are consecutive */
  } else {
    struct cs_friction_load f;
    int rc = slip_load(p, t, vsx, vsy, ws, &f, NULL);
    if (rc)
      return rc;
    out[O_TX] = -muN * f.Tsx;
    out[O_TY] = -muN * f.Tsy;
    out[O_MZ] = -muN * p->R * f.Ms;
  }
  double lam = sqrt(vsx * vsx + vsy * vsy + ws * ws);
  double ax = y[XC] - p->e * c, ay = y[YC] - p->e * s;
  out[O_XA] = ax;
  out[O_YA] = ay;
  out[O_VSX] = vsx;
  out[O_VSY] = vsy;
  out[O_WS] = ws;
  out[O_LAMBDA] = lam;
  out[O_OMEGA0] = w0;
  out[O_E] = 0.5 * p->M * (y[DXC] * y[DXC] + y[DYC] * y[DYC]) + 0.5 * p->B * y[DPHI] * y[DPHI] +
             0.5 * p->kX * ax * ax + 0.5 * p->kY * ay * ay - p->e * p->M * p->g * c;
  out[O_STICK] =
      event_driven(p) ? (p->mode == MODE_STICK ? 1.0 : 0.0) : (lam < p->lambda_stick ? 1.0 : 0.0);
  return 0;
}

/* ------------------------------------------------------ event-driven hooks */

/* Relative acceleration z' = d(vsx, vsy, ws)/dt of the slip at (t, y) under
 * the dimensionless load f; ydot receives the state derivative. */
static void rel_accel(const struct pendulum *p, double t, const double *y,
                      const struct cs_friction_load *f, double *zd, double *ydot)
{
  slip_accel(p, y, f, ydot);
  double w = omega0_at(p, t), wd = omega0_dot(p, t), e = p->e, R = p->R;
  double s = sin(y[PHI]), c = cos(y[PHI]), ph = y[DPHI];
  zd[0] = (ydot[DXC] + e * ydot[DPHI] * s + e * ph * ph * c + wd * (y[YC] - e * s - p->YS) +
           w * (y[DYC] - e * ph * c)) /
          R;
  zd[1] = (ydot[DYC] - e * ydot[DPHI] * c + e * ph * ph * s - wd * (y[XC] - e * c - p->XS) -
           w * (y[DXC] + e * ph * s)) /
          R;
  zd[2] = ydot[DPHI] - wd;
}

/* H(z) = z'_0 - W F(z) - z for the restart direction. */
struct restart_problem {
  const struct pendulum *p;
  double zd0[3]; /* z' without friction */
  double W[9];   /* z' = zd0 - W f, row-major */
};

static void restart_eval(const struct restart_problem *q, const gsl_vector *x, gsl_vector *h,
                         gsl_matrix *J)
{
  double z[3] = {gsl_vector_get(x, 0), gsl_vector_get(x, 1), gsl_vector_get(x, 2)}, Jf[9];
  struct cs_friction_load f;
  cs_i11_eval(&q->p->fr.approx, z[0], z[1], z[2], &f, J ? Jf : NULL);
  const double F[3] = {f.Tsx, f.Tsy, f.Ms};
  for (int i = 0; i < 3; i++) {
    if (h)
      gsl_vector_set(h, i,
                     q->zd0[i] - q->W[3 * i] * F[0] - q->W[3 * i + 1] * F[1] -
                         q->W[3 * i + 2] * F[2] - z[i]);
    if (J)
      for (int j = 0; j < 3; j++) {
        double v = -(i == j);
        for (int k = 0; k < 3; k++)
          v -= q->W[3 * i + k] * Jf[3 * k + j];
        gsl_matrix_set(J, i, j, v);
      }
  }
}

static int restart_f(const gsl_vector *x, void *vq, gsl_vector *h)
{
  restart_eval(vq, x, h, NULL);
  return GSL_SUCCESS;
}

static int restart_df(const gsl_vector *x, void *vq, gsl_matrix *J)
{
  restart_eval(vq, x, NULL, J);
  return GSL_SUCCESS;
}

static int restart_fdf(const gsl_vector *x, void *vq, gsl_vector *h, gsl_matrix *J)
{
  restart_eval(vq, x, h, J);
  return GSL_SUCCESS;
}

/* Newton from z0; 1 with z on success. */
static int restart_newton(struct pendulum_ev *ev, struct restart_problem *q, const double z0[3],
                          double tol, double z[3])
{
  gsl_multiroot_function_fdf F = {restart_f, restart_df, restart_fdf, 3, q};
  for (int i = 0; i < 3; i++)
    gsl_vector_set(ev->x, i, z0[i]);
  if (gsl_multiroot_fdfsolver_set(ev->restart, &F, ev->x) != GSL_SUCCESS)
    return 0;
  for (int it = 0; it < 100; it++) {
    int st = gsl_multiroot_fdfsolver_iterate(ev->restart);
    if (gsl_multiroot_test_residual(ev->restart->f, tol) == GSL_SUCCESS) {
      for (int i = 0; i < 3; i++)
        z[i] = gsl_vector_get(ev->restart->x, i);
      return z[0] != 0 || z[1] != 0 || z[2] != 0;
    }
    if (st != GSL_SUCCESS)
      return 0;
  }
  return 0;
}

/* Restarts the slip at (t, y): velocities of stick, consistent direction,
 * optional Taylor step to lambda_restart, arming. */
static int restart_slip(struct pendulum *p, double t, double *y)
{
  if (!p->ev)
    return -CS_ERR_ARG;
  stick_velocities(p, t, y);
  double xi, dy[3];
  int rc = stick_yield(p, t, y, &xi, dy);
  if (rc)
    return rc;
  struct restart_problem q = {.p = p};
  struct cs_friction_load f0 = {0, 0, 0};
  double yd[6], zd[3];
  rel_accel(p, t, y, &f0, q.zd0, yd);
  for (int j = 0; j < 3; j++) {
    struct cs_friction_load fj = {j == 0, j == 1, j == 2};
    rel_accel(p, t, y, &fj, zd, yd);
    for (int i = 0; i < 3; i++)
      q.W[3 * i + j] = q.zd0[i] - zd[i];
  }
  double scale = fabs(q.zd0[0]) + fabs(q.zd0[1]) + fabs(q.zd0[2]);
  for (int i = 0; i < 9; i++)
    scale += fabs(q.W[i]);
  /* starts: the acceleration along the yield direction, then along the free acceleration, then
   * along the axes */
  double starts[8][3];
  int ns = 0;
  struct cs_friction_load fy;
  cs_i11_eval(&p->fr.approx, dy[0], dy[1], dy[2], &fy, NULL);
  rel_accel(p, t, y, &fy, starts[ns++], yd);
  memcpy(starts[ns++], q.zd0, sizeof q.zd0);
  for (int k = 0; k < 6; k++, ns++)
    for (int i = 0; i < 3; i++)
      starts[ns][i] = i == k / 2 ? (k % 2 ? -scale : scale) : 0.0;
  cs_gsl_quiet();
  double z[3];
  int ok = 0;
  for (int k = 0; k < ns && !ok; k++)
    ok = restart_newton(p->ev, &q, starts[k], 1e-13 * scale, z);
  if (!ok)
    return -CS_ERR_NOCONV;
  double sa = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  for (int i = 0; i < 3; i++)
    p->dir[i] = z[i] / sa;
  p->mode = MODE_SLIP;
  p->t_arm = t;
  p->tau_arm = START_FACTOR * p->lambda_event / sa;
  if (p->lambda_restart > 0) {
    struct cs_friction_load fd;
    cs_i11_eval(&p->fr.approx, p->dir[0], p->dir[1], p->dir[2], &fd, NULL);
    slip_accel(p, y, &fd, yd);
    double tau = p->lambda_restart / sa;
    for (int i = 0; i < 3; i++) {
      y[i] += y[3 + i] * tau + 0.5 * yd[3 + i] * tau * tau;
      y[3 + i] += yd[3 + i] * tau;
    }
  }
  return 0;
}

static int switch_fn(double t, const double *y, double *g, const void *vp)
{
  const struct pendulum *p = vp;
  if (!event_driven(p)) {
    g[0] = 1.0;
    return 0;
  }
  if (p->mode == MODE_STICK) {
    double xi;
    int rc = stick_yield(p, t, y, &xi, NULL);
    g[0] = p->eta - xi;
    return rc;
  }
  double w0 = omega0_at(p, t), vsx, vsy, ws;
  kinematics(p, t, y, w0, &vsx, &vsy, &ws);
  double arm = t < p->t_arm + p->tau_arm ? 2.0 * (1.0 - (t - p->t_arm) / p->tau_arm) : 0.0;
  g[0] = sqrt(vsx * vsx + vsy * vsy + ws * ws) - p->lambda_event * (1.0 - arm);
  return 0;
}

static int switch_apply(double t, double *y, const int *fired, void *vp)
{
  struct pendulum *p = vp;
  (void)fired;
  if (!event_driven(p))
    return -CS_ERR_ARG;
  if (p->mode == MODE_STICK) {
    int rc = restart_slip(p, t, y);
    return rc < 0 ? rc : K_STICK_SLIP;
  }
  stick_velocities(p, t, y);
  double xi;
  int rc = stick_yield(p, t, y, &xi, NULL);
  if (rc)
    return rc;
  if (xi < p->eta) {
    p->mode = MODE_STICK;
    return K_SLIP_STICK;
  }
  rc = restart_slip(p, t, y);
  return rc < 0 ? rc : K_REVERSAL;
}

static int mode_init(double t, double *y, void *vp)
{
  struct pendulum *p = vp;
  p->mode = MODE_SLIP;
  p->t_arm = -INFINITY;
  p->tau_arm = 0.0;
  if (!event_driven(p))
    return 0;
  double w0 = omega0_at(p, t), vsx, vsy, ws;
  kinematics(p, t, y, w0, &vsx, &vsy, &ws);
  if (sqrt(vsx * vsx + vsy * vsy + ws * ws) > p->lambda_event)
    return 0;
  stick_velocities(p, t, y);
  double xi;
  int rc = stick_yield(p, t, y, &xi, NULL);
  if (rc)
    return rc;
  if (xi < p->eta) {
    p->mode = MODE_STICK;
    return 0;
  }
  rc = restart_slip(p, t, y);
  return rc < 0 ? rc : 0;
}

/* Only the event-driven law switches modes: the others are plain ODEs. */
static int is_hybrid(const void *vp)
{
  return event_driven(vp);
}

static int mode_of(const void *vp)
{
  return ((const struct pendulum *)vp)->mode;
}

static enum cs_status prepare(void *vp)
{
  struct pendulum *p = vp;
  for (int i = 0; i < CS_MLAW_COUNT; i++)
    if (strcmp(law_names[i], cs_model_law_names[i]) != 0)
      return cs_error_set(CS_ERR_ARG,
                          "internal: the pendulum's law names differ from the friction core's");
  enum cs_status st;
  if (isnan(p->eta_prime)) {
    st = cs_eta_prime_from_eta(p->eta, &p->eta_prime);
  } else {
    st = cs_eta_from_eta_prime(p->eta_prime, &p->eta, NULL);
  }
  if (st != CS_OK)
    return cs_error_set(st, "cannot convert between eta and eta_prime: %s", cs_strerror(st));
  int regularized =
      p->law == CS_MLAW_I11_REG || p->law == CS_MLAW_I00_REG || p->law == CS_MLAW_INTEGRAL_REG;
  if (regularized && !(p->eps > 0))
    return cs_error_set(CS_ERR_RANGE,
                        "eps must be > 0 for the regularized law %s (accepted: [parameters] "
                        "eps > 0, or [model] law = I11, I00, integral or event-driven for eps = 0)",
                        law_names[p->law]);
  if (isnan(p->lambda_stick))
    p->lambda_stick = p->eps > 0 ? p->eps : 1e-6;
  p->inv_R = 1.0 / p->R;
  p->inv_M = 1.0 / p->M;
  p->inv_B = 1.0 / p->B;
  p->muN = p->mu * p->N;
  p->muNR = p->muN * p->R;
  p->Mg = p->M * p->g;
  p->mode = MODE_SLIP;
  p->dir[0] = p->dir[1] = 0.0, p->dir[2] = -1.0;
  p->t_arm = -INFINITY;
  p->tau_arm = 0.0;
  int law = event_driven(p) ? CS_MLAW_I11 : p->law;
  st = cs_model_friction_prepare(&p->fr, law, &p->b, &p->m, regularized ? p->eps : 0.0,
                                 regularized ? p->eta_prime : 0.0);
  if (st != CS_OK)
    cs_error_set(st, "invalid friction parameters b = %g, m = %g", p->b, p->m);
  return st;
}

static void ev_free(struct pendulum_ev *ev)
{
  if (!ev)
    return;
  cs_yield_ws_free(ev->yield);
  if (ev->restart)
    gsl_multiroot_fdfsolver_free(ev->restart);
  if (ev->x)
    gsl_vector_free(ev->x);
  free(ev);
}

static enum cs_status attach(void *vp)
{
  struct pendulum *p = vp;
  p->ev = NULL;
  enum cs_status st = cs_model_friction_attach(&p->fr);
  if (st != CS_OK || !event_driven(p))
    return st;
  struct pendulum_ev *ev = calloc(1, sizeof *ev);
  if (ev) {
    ev->yield = cs_yield_ws_create();
    ev->restart = gsl_multiroot_fdfsolver_alloc(gsl_multiroot_fdfsolver_hybridsj, 3);
    ev->x = gsl_vector_alloc(3);
  }
  if (!ev || !ev->yield || !ev->restart || !ev->x) {
    ev_free(ev);
    cs_model_friction_detach(&p->fr);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  p->ev = ev;
  return CS_OK;
}

static void detach(void *vp)
{
  struct pendulum *p = vp;
  cs_model_friction_detach(&p->fr);
  ev_free(p->ev);
  p->ev = NULL;
}

static double forcing_period(const void *vp)
{
  const struct pendulum *p = vp;
  return p->omega0_amp != 0 && p->omega0_freq > 0 ? 2 * M_PI / p->omega0_freq : 0.0;
}

const struct cs_model cs_model_pendulum = {
    .name = "pendulum",
    .title = "pendulum elastically suspended, driven by a rotating disk through friction",
    .reference = "Kudra & Awrejcewicz, Acta Mech. 227 (2016), eqs. (6)-(9); event-driven: as "
                 "JTAM 54(3) (2016) §5",
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
    .rhs_jac = rhs_jac,
    .derived_fn = derived_fn,
    .forcing_period = forcing_period,
    .section = {CS_SECTION_HYPERPLANE, "dXC", 0.0, -1},
    .section_doc = "dXC = 0 decreasing: the maxima of XC. The suspension oscillates in x in "
                   "every regime (swinging, full rotations, stick-slip), so every non-equilibrium "
                   "attractor crosses it; equilibria are recognised before sections are taken.",
    .n_switch = 1,
    .switch_fn = switch_fn,
    .switch_apply = switch_apply,
    .mode_init = mode_init,
    .switch_kinds = switch_kinds,
    .mode_of = mode_of,
    .is_hybrid = is_hybrid,
    .rhs_dp_provided = rhs_dp_provided,
    .rhs_jac_dp = rhs_jac_dp,
};
