/* SPDX-License-Identifier: MIT */
/* Disk on a moving belt, held by four elastic-damped cords (Kudra & Awrejcewicz,
 * JTAM 54(3) 2016, §5, eqs. (5.1)-(5.2); src/models/README.md). Dimensionless.
 *
 *   x''     + c x' + c12 phi' + x + k12 phi = Gamma
 *   m phi'' + c12 x' + c phi' + k12 x + phi = Omega                          (5.1)
 *   Gamma = -mu Ts,  Omega = -mu Ms,  vs = x' - vb,  ws = phi'
 *
 * law = I00-reg (default): the regularized circular I(0,0), m = 2 (JTAM eq. 4.5),
 * c0 = c_{0,0,-1} = 2/3:
 *   Ts = vs L,  Ms = b c0 ws L,
 *   L = 1/sqrt(vs^2 + b^2 ws^2 + eps^2) + eta' eps^3 / (vs^2 + b^2 ws^2 + eps^2)^2.
 * (The parameter m of this model is the inertia ratio B/(m r^2) of eq. (5.2),
 * not the exponent of the friction law, which is 2 here.)
 *
 * law = event-driven: the non-smooth model of JTAM §5 (the paper's reference
 * for figure 4), integrated in modes whose switches ARKODE's root finding
 * locates (src/integrate/flow.h). Write u = (Gamma_req, Omega_req) for the
 * friction load that keeps the disk on the belt, from (5.1) with x'' = phi'' = 0:
 *   Gamma_req = c x' + c12 phi' + x + k12 phi,  Omega_req = c12 x' + c phi' + k12 x + phi.
 * - slip: (5.1) with the unregularized law, Ts = vs/D, Ms = b c0 ws/D,
 *   D = sqrt(vs^2 + b^2 ws^2); switching function g = lambda_s - lambda_event
 *   (plus the arming term below). When it falls through 0 the velocities are
 *   set to the belt's, (x', phi') = (vb, 0), and the mode becomes stick if the
 *   load u is admissible, else slip restarts at once ("reversal"). Ending the
 *   slip at lambda_s = lambda_event instead of 0 moves the positions by
 *   O(lambda_event^2 / s) only (s the deceleration): the stick that follows
 *   is the motion the slip tends to (measured: the orbit's stick plateau
 *   moves by 1.2e-10 for lambda_event = 1e-6, 1.2e-8 for 1e-5). With the
 *   explicit stepper at loose tolerances the approach to lambda_s = 0 can
 *   stall around a few 1e-7 (the unregularized law is stiff there): use
 *   rtol <= 1e-10 as JTAM §5 does, the implicit stepper, or a larger
 *   lambda_event.
 * - stick: x' = vb, phi' = 0, x'' = phi'' = 0; the friction load is u. The
 *   limit set of I(0,0) with m = 2 is the ellipse Ts^2 + (Ms/c0)^2 = 1 (b
 *   cancels: (vs, b c0 ws)/D lies on it for every direction), so the yield
 *   measure of JTAM eq. (2.5) is explicit:
 *     xi = sqrt(Gamma_req^2 + (Omega_req/c0)^2) / mu,
 *   and g = eta - xi: stick ends when xi reaches eta.
 * - restart: sliding resumes from lambda_s = 0 along the unit direction d of
 *   (vs, ws) that the equations of motion allow. With kinetic friction
 *   opposing d the relative acceleration is
 *     a(d) = diag(1, m)^-1 (-mu (Ts, Ms)(d) - u),
 *   and d is consistent when a(d) = s d with s > 0. Writing u = -mu xi F(d')
 *   (d' the yield direction), a(d') = mu (xi - 1) diag(1, m)^-1 F(d'), which
 *   is parallel to d' only when d' is an axis or b c0 = m: with m = 90 the
 *   yield direction is not where the disk goes. A solution with s > 0 always
 *   exists when xi > 1 (the vector field a(d) on the circle has winding number
 *   0, d has 1). It is found as a root of a(d) x d in the angle of d: a scan
 *   of RESTART_SCAN points from the yield direction brackets the roots with
 *   a(d).d > 0, GSL's Brent solver refines them, and the root closest to the
 *   yield direction is taken.
 * - start window: with a consistent d and a constant load the ray lambda_s d
 *   solves (5.1) exactly (the friction of d is the right-hand limit along the
 *   solution), so the slip starts exactly from lambda_s = 0 with the friction
 *   of d, kept for t - t_r < tau = START_FACTOR lambda_event / s (until
 *   lambda_s ~ 1e-4); only the slow change of u (x moves by vb tau) differs
 *   from the exact solution. This keeps the singular law (and its Jacobian
 *   ~ 1/lambda_s, which defeats the implicit stepper's Newton iteration) away
 *   from lambda_s ~ 0 while nothing is lost. lambda_restart > 0 starts the
 *   slip instead at lambda_s = lambda_restart after a Taylor step of the
 *   solution (velocity kick a tau', position step, tau' = lambda_restart /
 *   s, the time itself not advanced), the classical way, for comparison.
 *   restart = yield takes d' instead of d, without the start window (for
 *   comparison only: the dynamics turns away from d' at once; it needs
 *   lambda_restart > 0, from lambda_s = 0 the singular law grinds).
 * - arming: after a restart lambda_s starts below lambda_event; g gets the
 *   term 2 lambda_event max(0, 1 - (t - t_r)/tau), which keeps g >=
 *   lambda_event + s (t - t_r)/2 > 0 while lambda_s grows as s (t - t_r), so
 *   the start of the slip is not taken for its end.
 * In stick the derived Gamma, Omega are the static load u and stick = 1; in
 * slip the kinetic friction. Every switch is (t, kind, mode, state) in the
 * flow's log.
 *
 * Energy E = x'^2/2 + m phi'^2/2 + x^2/2 + k12 x phi + phi^2/2 obeys
 *   dE/dt = Gamma x' + Omega phi' - (c x'^2 + 2 c12 x' phi' + c phi'^2),
 * the power of friction minus that of damping: the derived outputs P_fric and
 * P_damp give both, for power-balance checks. In stick the static friction
 * does work Gamma_req vb on the disk: the belt drags it along. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "core/error_private.h"
#include "core/gsl_quiet.h"
#include "friction/friction.h"
#include "models/model.h"
#include "friction/friction_private.h"

#define C0 (2.0 / 3.0)    /* c_{0,0,-1} of the uniform unit disk */
#define RESTART_SCAN 720  /* angles scanned for the restart direction */
#define START_FACTOR 1e3  /* the start window lasts until lambda_s ~ START_FACTOR lambda_event */
#define FLOOR_FACTOR 1e-6 /* slip friction of the restart direction below this * lambda_event */

enum { LAW_REG, LAW_EVENT };
enum { RESTART_CONSISTENT, RESTART_YIELD };
enum { MODE_SLIP, MODE_STICK };
enum { K_SLIP_STICK, K_STICK_SLIP, K_REVERSAL };

struct belt {
  double m, k12, c, c12, vb, mu, b, eps, eta, eta_prime;
  double lambda_stick;
  double lambda_event;   /* event-driven: slip ends when lambda_s falls below this */
  double lambda_restart; /* event-driven: slip speed given at a restart (0: none) */
  int law;               /* LAW_REG or LAW_EVENT */
  int restart;           /* RESTART_CONSISTENT or RESTART_YIELD */
  struct cs_approx approx;
  gsl_root_fsolver *root; /* event-driven: Brent solver (attach), or NULL */
  /* event-driven run state, changed by the mode switches */
  int mode;         /* MODE_SLIP or MODE_STICK */
  double dir[2];    /* unit (vs, ws) of the last restart: the friction at lambda_s = 0 */
  double t_arm;     /* time of the last restart (-inf: not armed) */
  double tau_arm;   /* start window START_FACTOR lambda_event / s */
  double tau_fix;   /* friction fixed to dir for t < t_arm + tau_fix (tau_arm or 0) */
  double s_restart; /* |a(d)| at the last restart */
};

enum { X, PHI, DX, DPHI };

static const struct cs_var_desc state[] = {
    {"x", "1", "position of the disk centre, x^/r^", 0, 0},
    {"phi", "rad", "rotation of the disk", 1, 0},
    {"dx", "1", "velocity of the disk centre, dx/dt (t = alpha t^)", 0, 0},
    {"dphi", "1", "angular velocity of the disk, dphi/dt (rad per unit of t)", 0, 0},
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
    P(eps, "1", 1e-5, 0.0, 1.0, NULL, "smoothing parameter epsilon (I00-reg)"),
    P(eta, "1", 1.0, 1.0, 1e3, "eta_prime", "static/kinetic friction ratio"),
    P(eta_prime, "1", NAN, 0.0, 1e4, "eta", "eta' of the regularization (instead of eta)"),
    P(lambda_stick, "1", NAN, 0.0, 1.0, NULL,
      "stick indicator threshold on lambda_s, I00-reg (default: eps)"),
    P(lambda_event, "1", 1e-7, 1e-15, 1e-2, NULL,
      "event-driven: slip ends when lambda_s falls below this (JTAM §5: 1e-7)"),
    P(lambda_restart, "1", 0.0, 0.0, 1e-2, NULL,
      "event-driven: slip speed given along d at a restart (0: exact start from lambda_s = 0)"),
};

static const char *const law_names[] = {"I00-reg", "event-driven", NULL};
static const char *const restart_names[] = {"consistent", "yield", NULL};

static const struct cs_choice_desc choices[] = {
    {"law", offsetof(struct belt, law), law_names, LAW_REG,
     "friction law: I00-reg = regularized circular I(0,0), m = 2 (JTAM eq. 4.5); event-driven = "
     "unregularized I(0,0) in slip, exact stick (JTAM §5)"},
    {"restart", offsetof(struct belt, restart), restart_names, RESTART_CONSISTENT,
     "event-driven: direction of slip after stick: consistent with the equations of motion, or "
     "the yield measure's (theta', phi') (inconsistent when m != b c0; for comparison)"},
};

enum { O_VS, O_WS, O_LAMBDA, O_GAMMA, O_OMEGA, O_E, O_PF, O_PD, O_STICK, O_N };

static const struct cs_var_desc derived[] = {
    {"vs", "1", "sliding velocity x' - vb", 0, 0},
    {"ws", "1", "relative angular velocity phi'", 0, 0},
    {"lambda_s", "1", "sqrt(vs^2 + ws^2)", 0, 0},
    {"Gamma", "1", "friction force on the disk, -mu Ts (stick: the static load)", 0, 0},
    {"Omega", "1", "friction moment on the disk, -mu Ms (stick: the static load)", 0, 0},
    {"E", "1", "mechanical energy", 0, 0},
    {"P_fric", "1", "power of friction Gamma x' + Omega phi'", 0, 0},
    {"P_damp", "1", "power dissipated by damping c x'^2 + 2 c12 x' phi' + c phi'^2", 0, 0},
    {"stick", "1", "1 in stick (event-driven: the mode; I00-reg: lambda_s < lambda_stick)", 0, 1},
};

static const char *const switch_kinds[] = {"slip->stick", "stick->slip", "reversal", NULL};

static int event_driven(const struct belt *p)
{
  return p->law == LAW_EVENT;
}

/* Friction load on the disk (Gamma, Omega) in slip at time t and, if J is not
 * NULL, its derivatives by (x', phi'). Event-driven, in the start window after
 * a restart and below the floor: the restart direction's friction,
 * derivatives 0. */
static void friction(const struct belt *p, double t, const double *y, double *G, double *Om,
                     double *J)
{
  struct cs_friction_load f;
  double Jf[9];
  double vs = y[DX] - p->vb, ws = y[DPHI];
  if (!event_driven(p)) {
    cs_i00_reg_eval(&p->approx, vs, 0.0, ws, &f, J ? Jf : NULL);
  } else if (t < p->t_arm + p->tau_fix ||
             vs * vs + ws * ws <
                 (FLOOR_FACTOR * p->lambda_event) * (FLOOR_FACTOR * p->lambda_event)) {
    cs_i00_eval(&p->approx, p->dir[0], 0.0, p->dir[1], &f, NULL);
    for (int i = 0; i < 9; i++)
      Jf[i] = 0;
  } else {
    cs_i00_eval(&p->approx, vs, 0.0, ws, &f, J ? Jf : NULL);
  }
  *G = -p->mu * f.Tsx;
  *Om = -p->mu * f.Ms;
  if (J) {
    J[0] = -p->mu * Jf[0]; /* dGamma/dx' */
    J[1] = -p->mu * Jf[2]; /* dGamma/dphi' */
    J[2] = -p->mu * Jf[6]; /* dOmega/dx' */
    J[3] = -p->mu * Jf[8]; /* dOmega/dphi' */
  }
}

/* The friction load (Gamma_req, Omega_req) for x'' = phi'' = 0 at y. */
static void required_load(const struct belt *p, const double *y, double u[2])
{
  u[0] = p->c * y[DX] + p->c12 * y[DPHI] + y[X] + p->k12 * y[PHI];
  u[1] = p->c12 * y[DX] + p->c * y[DPHI] + p->k12 * y[X] + y[PHI];
}

/* Yield measure of the load u on the ellipse Ts^2 + (Ms/c0)^2 = 1. */
static double yield_measure(const struct belt *p, const double u[2])
{
  return p->mu > 0 ? hypot(u[0], u[1] / C0) / p->mu : INFINITY;
}

static int stick_mode(const struct belt *p)
{
  return event_driven(p) && p->mode == MODE_STICK;
}

static int rhs(double t, const double *y, double *ydot, const void *vp)
{
  const struct belt *p = vp;
  ydot[X] = y[DX];
  ydot[PHI] = y[DPHI];
  if (stick_mode(p)) {
    ydot[DX] = ydot[DPHI] = 0.0;
    return 0;
  }
  double G, Om;
  friction(p, t, y, &G, &Om, NULL);
  ydot[DX] = G - p->c * y[DX] - p->c12 * y[DPHI] - y[X] - p->k12 * y[PHI];
  ydot[DPHI] = (Om - p->c12 * y[DX] - p->c * y[DPHI] - p->k12 * y[X] - y[PHI]) / p->m;
  return 0;
}

static int jac(double t, const double *y, double *J, const void *vp)
{
  const struct belt *p = vp;
  J[X * 4 + DX] = 1.0;
  J[PHI * 4 + DPHI] = 1.0;
  if (stick_mode(p))
    return 0;
  double G, Om, dF[4];
  friction(p, t, y, &G, &Om, dF);
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
  const struct belt *p = vp;
  double G, Om;
  if (stick_mode(p)) {
    double u[2];
    required_load(p, y, u);
    G = u[0], Om = u[1];
  } else {
    friction(p, t, y, &G, &Om, NULL);
  }
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
  out[O_STICK] =
      event_driven(p) ? (p->mode == MODE_STICK ? 1.0 : 0.0) : (lam < p->lambda_stick ? 1.0 : 0.0);
  return 0;
}

/* ------------------------------------------------------ event-driven hooks */

/* Relative acceleration of the slip along the unit direction (cos th, sin th)
 * from the load u: a = diag(1, m)^-1 (-mu F(d) - u). */
static void slip_accel(const struct belt *p, const double u[2], double th, double a[2])
{
  struct cs_friction_load f;
  cs_i00_eval(&p->approx, cos(th), 0.0, sin(th), &f, NULL);
  a[0] = -p->mu * f.Tsx - u[0];
  a[1] = (-p->mu * f.Ms - u[1]) / p->m;
}

struct dir_problem {
  const struct belt *p;
  const double *u;
};

/* a(d) x d: zero where the acceleration is parallel to d. */
static double cross_fn(double th, void *vctx)
{
  const struct dir_problem *q = vctx;
  double a[2];
  slip_accel(q->p, q->u, th, a);
  return a[0] * sin(th) - a[1] * cos(th);
}

static double dot_fn(const struct belt *p, const double u[2], double th)
{
  double a[2];
  slip_accel(p, u, th, a);
  return a[0] * cos(th) + a[1] * sin(th);
}

/* The consistent restart angle nearest to the yield angle th0 (see the top of
 * the file). CS_ERR_NOCONV if no root with a(d).d > 0 was found. */
static enum cs_status consistent_angle(const struct belt *p, gsl_root_fsolver *s, const double u[2],
                                       double th0, double *th)
{
  struct dir_problem q = {p, u};
  gsl_function F = {cross_fn, &q};
  const double h = 2 * M_PI / RESTART_SCAN;
  double best = NAN, best_dist = INFINITY;
  /* scan outwards from th0 so that the first roots found are the nearest */
  double lo = th0 - M_PI, flo = cross_fn(lo, &q);
  for (int k = 1; k <= RESTART_SCAN; k++) {
    double hi = th0 - M_PI + k * h, fhi = cross_fn(hi, &q);
    double root = NAN;
    if (flo == 0) {
      root = lo;
    } else if ((flo < 0) != (fhi < 0) && fhi != 0) {
      if (gsl_root_fsolver_set(s, &F, lo, hi) == GSL_SUCCESS) {
        for (int it = 0; it < 100; it++) {
          if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
            break;
          double a = gsl_root_fsolver_x_lower(s), b = gsl_root_fsolver_x_upper(s);
          root = gsl_root_fsolver_root(s);
          if (gsl_root_test_interval(a, b, 0.0, 4e-16) == GSL_SUCCESS)
            break;
        }
      }
    }
    if (isfinite(root) && dot_fn(p, u, root) > 0 && fabs(root - th0) < best_dist)
      best = root, best_dist = fabs(root - th0);
    lo = hi, flo = fhi;
  }
  if (!isfinite(best))
    return CS_FAIL(CS_ERR_NOCONV);
  *th = best;
  return CS_OK;
}

/* Restarts the slip from (t, y) with the velocities on the belt: the
 * direction, the optional kick, the arming of the switching function. */
static int restart_slip(struct belt *p, double t, double *y)
{
  double u[2];
  y[DX] = p->vb, y[DPHI] = 0.0;
  required_load(p, y, u);
  /* yield direction: -u/mu = xi F(d') with F(d) = (dv, b c0 dw)/D, so d' ~ (-u0, -u1/(b c0)) */
  double th = atan2(-u[1] / (p->b * C0), -u[0]);
  if (p->restart == RESTART_CONSISTENT) {
    gsl_root_fsolver *s = p->root ? p->root : gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!s)
      return -CS_ERR_NOMEM;
    cs_gsl_quiet();
    enum cs_status st = consistent_angle(p, s, u, th, &th);
    if (s != p->root)
      gsl_root_fsolver_free(s);
    if (st != CS_OK)
      return -(int)st;
  }
  double a[2];
  slip_accel(p, u, th, a);
  double sa = a[0] * cos(th) + a[1] * sin(th);
  p->dir[0] = cos(th), p->dir[1] = sin(th);
  p->mode = MODE_SLIP;
  p->s_restart = sa > 0 ? sa : hypot(a[0], a[1]);
  p->t_arm = t;
  p->tau_arm = p->s_restart > 0 ? START_FACTOR * p->lambda_event / p->s_restart : INFINITY;
  /* an inconsistent direction is left to the dynamics at once */
  p->tau_fix = p->restart == RESTART_CONSISTENT ? p->tau_arm : 0.0;
  if (p->lambda_restart > 0) {
    /* Taylor step of the solution to lambda_s = lambda_restart (time tau, not advanced) */
    double tau = p->lambda_restart / p->s_restart;
    y[X] += y[DX] * tau + 0.5 * a[0] * tau * tau;
    y[PHI] += 0.5 * a[1] * tau * tau;
    y[DX] += a[0] * tau;
    y[DPHI] += a[1] * tau;
  }
  return 0;
}

static int switch_fn(double t, const double *y, double *g, const void *vp)
{
  const struct belt *p = vp;
  if (!event_driven(p)) {
    g[0] = 1.0;
    return 0;
  }
  if (p->mode == MODE_STICK) {
    double u[2];
    required_load(p, y, u);
    g[0] = p->eta - yield_measure(p, u);
    return 0;
  }
  double vs = y[DX] - p->vb, ws = y[DPHI];
  double arm = t < p->t_arm + p->tau_arm ? 2.0 * (1.0 - (t - p->t_arm) / p->tau_arm) : 0.0;
  g[0] = sqrt(vs * vs + ws * ws) - p->lambda_event * (1.0 - arm);
  return 0;
}

static int switch_apply(double t, double *y, const int *fired, void *vp)
{
  struct belt *p = vp;
  (void)fired;
  if (!event_driven(p))
    return -CS_ERR_ARG;
  if (p->mode == MODE_STICK) {
    int rc = restart_slip(p, t, y);
    return rc < 0 ? rc : K_STICK_SLIP;
  }
  double u[2];
  y[DX] = p->vb, y[DPHI] = 0.0;
  required_load(p, y, u);
  if (yield_measure(p, u) < p->eta) {
    p->mode = MODE_STICK;
    return K_SLIP_STICK;
  }
  int rc = restart_slip(p, t, y);
  return rc < 0 ? rc : K_REVERSAL;
}

static int mode_init(double t, double *y, void *vp)
{
  struct belt *p = vp;
  p->mode = MODE_SLIP;
  p->t_arm = -INFINITY;
  p->tau_arm = p->tau_fix = 0.0;
  if (!event_driven(p))
    return 0;
  double vs = y[DX] - p->vb, ws = y[DPHI];
  if (sqrt(vs * vs + ws * ws) > p->lambda_event)
    return 0;
  double u[2];
  y[DX] = p->vb, y[DPHI] = 0.0;
  required_load(p, y, u);
  if (yield_measure(p, u) < p->eta) {
    p->mode = MODE_STICK;
    return 0;
  }
  int rc = restart_slip(p, t, y);
  return rc < 0 ? rc : 0;
}

/* Only the event-driven law switches modes: the others are plain ODEs. */
static int is_hybrid(const void *vp)
{
  return event_driven(vp);
}

static int mode_of(const void *vp)
{
  return ((const struct belt *)vp)->mode;
}

static enum cs_status prepare(void *vp)
{
  struct belt *p = vp;
  enum cs_status st = isnan(p->eta_prime) ? cs_eta_prime_from_eta(p->eta, &p->eta_prime)
                                          : cs_eta_from_eta_prime(p->eta_prime, &p->eta, NULL);
  if (st != CS_OK)
    return cs_error_set(st, "cannot convert between eta and eta_prime: %s", cs_strerror(st));
  if (!event_driven(p) && !(p->eps > 0))
    return cs_error_set(CS_ERR_RANGE, "eps must be > 0 for the regularized law (accepted: "
                                      "[parameters] eps > 0, or [model] law = event-driven)");
  if (isnan(p->lambda_stick))
    p->lambda_stick = p->eps;
  p->mode = MODE_SLIP;
  p->dir[0] = -1.0, p->dir[1] = 0.0;
  p->t_arm = -INFINITY;
  p->tau_arm = p->tau_fix = 0.0;
  p->s_restart = 0.0;
  struct cs_contact_moments c = cs_contact_moments_uniform_disk();
  st = cs_approx_init(&p->approx, p->b, 2.0, p->eps, p->eta_prime, &c);
  if (st != CS_OK)
    cs_error_set(st, "invalid friction parameters");
  return st;
}

static enum cs_status attach(void *vp)
{
  struct belt *p = vp;
  p->root = NULL;
  if (!event_driven(p))
    return CS_OK;
  p->root = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  return p->root ? CS_OK : CS_ERR_NOMEM;
}

static void detach(void *vp)
{
  struct belt *p = vp;
  if (p->root)
    gsl_root_fsolver_free(p->root);
  p->root = NULL;
}

const struct cs_model cs_model_belt = {
    .name = "belt",
    .title = "disk on a moving belt with coupled friction force and moment",
    .reference =
        "Kudra & Awrejcewicz, J. Theor. Appl. Mech. 54(3) (2016), eqs. (4.5), (5.1)-(5.2); "
        "event-driven: §5",
    .n_state = 4,
    .state = state,
    .state_default = state_default,
    .n_param = sizeof params / sizeof *params,
    .param = params,
    .n_choice = sizeof choices / sizeof *choices,
    .choice = choices,
    .params_size = sizeof(struct belt),
    .n_derived = O_N,
    .derived = derived,
    .stick_output = O_STICK,
    .time_unit_si = 0,
    .prepare = prepare,
    .attach = attach,
    .detach = detach,
    .rhs = rhs,
    .jac = jac,
    .derived_fn = derived_fn,
    .section = {CS_SECTION_HYPERPLANE, "dx", 0.0, -1},
    .section_doc = "dx = 0 decreasing: once per stick-slip cycle, in the slip phase where the "
                   "disk springs back against the belt; the stick phase (dx ~ vb > 0) never "
                   "touches it, so the regularized stick's tiny oscillations cause no crossings.",
    .n_switch = 1,
    .switch_fn = switch_fn,
    .switch_apply = switch_apply,
    .mode_init = mode_init,
    .switch_kinds = switch_kinds,
    .mode_of = mode_of,
    .is_hybrid = is_hybrid,
};
