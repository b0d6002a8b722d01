/* SPDX-License-Identifier: MIT */
/* Grazing curves of event-driven cycles (continuation2.h, CS_CURVE_GRAZING):
 * the periodic orbit that touches the switching function g_k of one of its
 * modes without crossing it, in two parameters.
 *
 * Unknowns X = (y0, T, t_g, p1, p2), equations (n + 3):
 *   phi_T(y0) - y0 = 0, s(y0) = 0        (the hybrid shooting of analysis/orbit.h)
 *   g_k(t_g, phi_tg(y0)) = 0               (the orbit reaches the switching surface)
 *   d/dt g_k(t_g, phi_tg(y0)) = 0          (... tangentially: a minimum of g_k)
 * with phi the flow over the orbit's own switches (saltation matrices in its
 * derivatives). The Jacobian is exact where it comes from the shootings: the
 * monodromy matrices of the period and of the stretch [0, t_g] (with the
 * saltations of the switches before t_g), and d phi / dp of both parameters
 * from two workspaces, one differentiating in p1, one in p2, plus g_k's own
 * dependence on them (cs_orbit_switch_dp: the belt's slip function depends
 * on vb). The local gradient of g_k at phi_tg(y0) and dg_k/dt are
 * difference quotients of the model's switching function: dg_k/dt by
 * central differences along (t, y) + h (1, f), h shrunk by 4 where two
 * successive values differ least (g_k can be curved on a scale far below
 * the orbit's: the belt's slip ends at lambda_s = lambda_event), the
 * gradient with state steps h |f|.
 *
 * The touch's time: near the touch dg_k/dt changes like a step on scales
 * above the touch's duration (the belt: slopes -0.33 and +0.04 either side
 * of a corner ~lambda_event / 0.3 time units wide), which defeats Newton in
 * t_g. So t_g is solved in every evaluation (Illinois on dg_k/dt along the
 * orbit, short shootings from before the touch, to 1e-12 T): the equation
 * dg_k/dt = 0 then holds by construction and its Jacobian row is the
 * identity in t_g; g_k = 0 at that t_g is the minimum of g_k, whose
 * derivatives are those of g_k at fixed t_g (dg_k/dt = 0 there).
 *
 * Scale: Newton converges within the touch's corner only if the parameter
 * difference steps of the workspaces (f_p, g_p) are well inside it: they
 * are set to 1e-9 |p| here (the orbit code's 1e-6 |p| = 1.5e-7 at the
 * belt's vb = 0.15, as wide as the corner at lambda_event = 1e-7, gave a
 * vb column of g_k of 1.6 against -0.08 by differences of the solved
 * system, and steps of ~1e-9 only). Measured on the belt, (eta, vb), vb in
 * [0.1, 0.2]: lambda_event = 1e-5, 102 points, 0.19 s each, the whole box;
 * lambda_event = 1e-7, 282 points, 0.26 s each, the box on one side, 200
 * points reached at vb = 0.133 on the other (smaller steps).
 *
 * Disarming: at the solution g_k touches 0 from its side, and a Newton
 * iterate on the other side would make the new switch (the belt: a stick
 * phase), another system altogether. While the curve is followed, function
 * k is held at its sign on a window t_g +- w of every shooting
 * (cs_orbit_ws_disarm: no root, no switch there), w half the time from t_g
 * to the nearest switch of the orbit (located by a run of the flow at each
 * accepted point); the model's own dynamics is unchanged.
 *
 * Start: the one-parameter branch's grazing point (its orbit: the last one
 * before the grazing, the special point's y and period); the minimum of
 * |g_k| (cs_orbit_graze's margin) located by runs of the flow over the
 * period, refined by zooming, gives k, t_g and the window; then Newton at
 * fixed p2. Nothing here prints. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>

#include "analysis/continuation2.h"
#include "analysis/continuation2_private.h"
#include "core/error_private.h"
#include "core/gsl_quiet.h"
#include "integrate/flow_private.h"
#include "analysis/orbit_private.h"

#define N_MAX CS_BRANCH_MAX_N
#define NXG (N_MAX + 4)
#define SAMPLES 2001       /* flow samples of a period (and of each zoom) */
#define ZOOMS 3            /* refinements of the minimum's time */
#define MAX_TURN_COS 0.866 /* a step may turn the tangent by 30 degrees at most */
#define GROW 1.5
#define SHRINK 0.7
#define EASY_ITER 3
#define HARD_ITER 6
#define SINGULAR_REL 1e-14
#define MAX_LOG 256
#ifndef GRAZE_DP_REL
#define GRAZE_DP_REL 1e-9
#endif

struct gsol {
  double X[NXG];
  double tu[NXG];
  size_t n_eig;
  double re[N_MAX], im[N_MAX];
  int n_unstable, iterations;
};

struct gz {
  struct cs_orbit_ws *w1, *w2; /* differentiating in p1, in p2 */
  const struct cs_model *m;
  struct cs_curve_spec sp;
  size_t n, nx, ne;
  int iT, itg, ip1, ip2;
  int par1, par2; /* the model's parameter indices */
  void *base;     /* unprepared params, p1 and p2 set here */
  void *pbuf;     /* a copy of the prepared params for the flow */
  struct cs_flow *flow;
  double cur1, cur2;
  int fn;          /* the touched switching function */
  double sign;     /* its sign on the orbit away from the touch */
  double win;      /* half-width of the disarmed window */
  size_t switches; /* switches per period of the orbit (without the touch) */
  double sigma[NXG];
  double ctol;
  struct cs_curve *out;
  char msg[512];
};

/* ------------------------------------------------------------ helpers */

static enum cs_status keep(struct gz *c, enum cs_status st)
{
  if (st != CS_OK && !c->msg[0])
    snprintf(c->msg, sizeof c->msg, "%s", cs_errmsg());
  return st;
}

static enum cs_status set_pp(struct gz *c, double p1, double p2)
{
  if (p1 == c->cur1 && p2 == c->cur2)
    return CS_OK;
  enum cs_status st = cs_model_set_param(c->m, c->base, c->m->param[c->par1].name, p1);
  if (st == CS_OK)
    st = cs_model_set_param(c->m, c->base, c->m->param[c->par2].name, p2);
  if (st == CS_OK)
    st = cs_orbit_ws_set_base(c->w1, c->base);
  if (st == CS_OK)
    st = cs_orbit_ws_set_param(c->w1, p1);
  if (st == CS_OK)
    st = cs_orbit_ws_set_base(c->w2, c->base);
  if (st == CS_OK)
    st = cs_orbit_ws_set_param(c->w2, p2);
  c->cur1 = st == CS_OK ? p1 : NAN;
  c->cur2 = st == CS_OK ? p2 : NAN;
  if (st != CS_OK)
    snprintf(c->msg, sizeof c->msg, "%s", cs_errmsg());
  return st;
}

static void disarm(struct gz *c, double tg)
{
  cs_orbit_ws_disarm(c->w1, c->fn, tg - c->win, tg + c->win, c->sign);
  cs_orbit_ws_disarm(c->w2, c->fn, tg - c->win, tg + c->win, c->sign);
}

static int lin_solve(size_t k, double *A, const double *b, double *x)
{
  double amax = 0;
  for (size_t i = 0; i < k * k; i++)
    amax = fmax(amax, fabs(A[i]));
  gsl_matrix_view Av = gsl_matrix_view_array(A, k, k);
  size_t pdata[NXG];
  gsl_permutation perm = {k, pdata};
  int sgn;
  if (gsl_linalg_LU_decomp(&Av.matrix, &perm, &sgn) != GSL_SUCCESS)
    return 0;
  for (size_t i = 0; i < k; i++)
    if (!(fabs(A[i * k + i]) > SINGULAR_REL * amax))
      return 0;
  gsl_vector_const_view bv = gsl_vector_const_view_array(b, k);
  gsl_vector_view xv = gsl_vector_view_array(x, k);
  return gsl_linalg_LU_solve(&Av.matrix, &perm, &bv.vector, &xv.vector) == GSL_SUCCESS;
}

/* ------------------------------------------- the switching function locally */

static int gval(const struct gz *c, const void *P, double t, const double *y, double *v)
{
  double g[CS_FLOW_MAX_ROOTS];
  int rc = c->m->switch_fn(t, y, g, P);
  *v = g[c->fn];
  return rc;
}

/* g_k along (t, y) + s (1, f) */
static int gline(const struct gz *c, const void *P, double t, const double *y, const double *f,
                 double s, double *v)
{
  double yy[N_MAX];
  for (size_t i = 0; i < c->n; i++)
    yy[i] = y[i] + s * f[i];
  return gval(c, P, t + s, yy, v);
}

/* dg_k/dt at (t, y): central differences along the flow's direction on
 * steps shrinking by 4, the value of the step where two successive values
 * differ least (truncation against rounding; *hs: that step); with hs_in > 0
 * that step, once. */
static int gdot(const struct gz *c, const void *P, double t, const double *y, double hs_in,
                double *D, double *hs)
{
  double f[N_MAX];
  if (c->m->rhs(t, y, f, P) != 0)
    return -1;
  double h = hs_in > 0 ? hs_in : 1e-6 * c->sigma[c->iT], prev = NAN, best = INFINITY;
  for (int it = 0; it < (hs_in > 0 ? 1 : 20); it++) {
    double gp, gm, g0;
    if (gline(c, P, t, y, f, h, &gp) || gline(c, P, t, y, f, -h, &gm) ||
        gline(c, P, t, y, f, 0.0, &g0))
      return -1;
    double d = (gp - gm) / (2 * h), slope = (fabs(gp - g0) + fabs(g0 - gm)) / h;
    if (it == 0)
      *D = d, *hs = h;
    double diff = fabs(d - prev);
    if (diff < best) {
      best = diff, *D = d, *hs = h;
      if (diff <= 1e-8 * slope)
        break;
    }
    prev = d;
    h *= 0.25;
  }
  return 0;
}

/* dg_k/dt at the end of a shooting from (ta, ya) to t (the sign of the
 * touched function's side folded in: > 0 after the touch) */
static enum cs_status dg_after(struct gz *c, double ta, const double *ya, double t, double *D)
{
  struct cs_orbit_shot sh;
  double yb[N_MAX], hs;
  memcpy(yb, ya, c->n * sizeof *yb);
  if (t > ta) {
    enum cs_status st = keep(c, cs_orbit_shoot(c->w1, &c->sp.orbit, ta, ya, t - ta, 0, &sh));
    if (st != CS_OK)
      return st;
    memcpy(yb, sh.y, c->n * sizeof *yb);
  }
  if (gdot(c, cs_orbit_ws_params(c->w1), t, yb, 0.0, D, &hs)) {
    snprintf(c->msg, sizeof c->msg, "the switching function failed at t = %g", t);
    return CS_ERR_SOLVER;
  }
  *D *= c->sign;
  return CS_OK;
}

/* The time of the touch near *tg on the orbit from X (disarmed there): the
 * zero of dg_k/dt by Illinois in a bracket grown around *tg (within the
 * window), from short shootings that start before it. dg_k/dt changes
 * like a step on scales above the touch's duration (the belt: ~1e-7 time
 * units, slopes -0.33 and 0.04 on either side), which defeats Newton in
 * t_g; the zero is found to 1e-12 T. */
static enum cs_status touch_time(struct gz *c, const double *X, double *tg)
{
  double T = X[c->iT], W = fmin(1e-4 * T, 0.5 * c->win), ya[N_MAX], ta, Da = 0, Db = 0, tb;
  enum cs_status st = CS_OK;
  for (;;) {
    ta = fmax(*tg - W, 0.5 * (*tg - c->win)), tb = *tg + W;
    struct cs_orbit_shot sh;
    st = keep(c, cs_orbit_shoot(c->w1, &c->sp.orbit, 0.0, X, ta, 0, &sh));
    if (st != CS_OK)
      return st;
    memcpy(ya, sh.y, c->n * sizeof *ya);
    st = dg_after(c, ta, ya, ta, &Da);
    if (st == CS_OK)
      st = dg_after(c, ta, ya, tb, &Db);
    if (st != CS_OK)
      return st;
    if (Da < 0 && Db > 0)
      break;
    if (W >= 0.5 * c->win) {
      snprintf(c->msg, sizeof c->msg,
               "no touch of switching function %d within %.3g of t = %.10g (dg/dt %.3g, %.3g)",
               c->fn, W, *tg, Da, Db);
      return CS_ERR_NOCONV;
    }
    W = fmin(4 * W, 0.5 * c->win);
  }
  double a = ta, b = tb, fa = Da, fb = Db;
  int side = 0;
  for (int it = 0; it < 200 && b - a > 1e-12 * T; it++) {
    double t = (a * fb - b * fa) / (fb - fa), lo = a + 0.01 * (b - a), hi = b - 0.01 * (b - a);
    if (!(t > lo && t < hi))
      t = 0.5 * (a + b);
    double ft;
    st = dg_after(c, ta, ya, t, &ft);
    if (st != CS_OK)
      return st;
    if (ft == 0) {
      a = b = t;
      break;
    }
    if (ft > 0) {
      b = t, fb = ft;
      if (side == 1)
        fa /= 2;
      side = 1;
    } else {
      a = t, fa = ft;
      if (side == -1)
        fb /= 2;
      side = -1;
    }
  }
  *tg = 0.5 * (a + b);
  return CS_OK;
}

/* ------------------------------------------------------------ the system */

/* G (ne values) and, with GX, its Jacobian (ne x nx, row-major) at X. */
static enum cs_status system_at(struct gz *c, double *X, double *G, double *GX)
{
  size_t n = c->n, nx = c->nx;
  double T = X[c->iT], tg = X[c->itg];
  if (!(T > 0) || !(tg > 0) || !(tg < T)) {
    snprintf(c->msg, sizeof c->msg, "the period (%g) or the grazing time (%g) left (0, T)", T, tg);
    return CS_ERR_NOCONV;
  }
  enum cs_status st = set_pp(c, X[c->ip1], X[c->ip2]);
  if (st != CS_OK)
    return st;
  c->out->evaluations++;
  disarm(c, tg);
  st = touch_time(c, X, &tg);
  if (st != CS_OK)
    return st;
  X[c->itg] = tg;
  int jac = GX != NULL;
  struct cs_orbit_shot s1, s2, g1, g2;
  st = keep(c, cs_orbit_shoot(c->w1, &c->sp.orbit, 0.0, X, T, jac, &s1));
  if (st == CS_OK && jac)
    st = keep(c, cs_orbit_shoot(c->w2, &c->sp.orbit, 0.0, X, T, 1, &s2));
  if (st == CS_OK && jac)
    st = keep(c, cs_orbit_shoot(c->w2, &c->sp.orbit, 0.0, X, tg, 1, &g2));
  /* last: w1's params are left in the mode at t_g for g_k below */
  if (st == CS_OK)
    st = keep(c, cs_orbit_shoot(c->w1, &c->sp.orbit, 0.0, X, tg, jac, &g1));
  if (st != CS_OK)
    return st;
  if (s1.switches != c->switches) {
    snprintf(c->msg, sizeof c->msg, "the orbit's switches changed (%zu instead of %zu)",
             s1.switches, c->switches);
    return CS_ERR_NOCONV;
  }
  for (size_t i = 0; i < n; i++) {
    double d = s1.y[i] - X[i];
    if (c->m->state[i].angle)
      d -= 2 * M_PI * round(d / (2 * M_PI));
    G[i] = d;
  }
  double grad[N_MAX], sv, sp1 = 0, sp2 = 0;
  st = keep(c, cs_orbit_section(c->w1, &c->sp.orbit, 0.0, X, &sv, grad, &sp1));
  if (st == CS_OK && jac)
    st = keep(c, cs_orbit_section(c->w2, &c->sp.orbit, 0.0, X, &sv, NULL, &sp2));
  if (st != CS_OK)
    return st;
  G[n] = sv;
  const void *P = cs_orbit_ws_params(c->w1);
  double ga, D, hs;
  if (gval(c, P, tg, g1.y, &ga) || gdot(c, P, tg, g1.y, 0.0, &D, &hs)) {
    snprintf(c->msg, sizeof c->msg, "the switching function failed at t_g = %g", tg);
    return CS_ERR_SOLVER;
  }
  G[n + 1] = ga;
  G[n + 2] = 0.0; /* solved by touch_time; D here differs by this shooting's own error */
  (void)D;
  if (!jac)
    return CS_OK;
  memset(GX, 0, c->ne * nx * sizeof *GX);
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++)
      GX[i * nx + j] = s1.M[i * n + j] - (i == j);
    GX[i * nx + c->iT] = s1.f[i];
    GX[i * nx + c->ip1] = s1.yp[i];
    GX[i * nx + c->ip2] = s2.yp[i];
  }
  for (size_t j = 0; j < n; j++)
    GX[n * nx + j] = grad[j];
  GX[n * nx + c->ip1] = sp1;
  GX[n * nx + c->ip2] = sp2;
  /* the local gradient of g_k at y_g, steps h |f| */
  double f[N_MAX], fn2 = 0, gg[N_MAX], gn2 = 0, yy[N_MAX];
  if (c->m->rhs(tg, g1.y, f, P) != 0)
    return CS_ERR_SOLVER;
  for (size_t i = 0; i < n; i++)
    fn2 += f[i] * f[i];
  double hy = hs * sqrt(fn2);
  memcpy(yy, g1.y, n * sizeof *yy);
  for (size_t j = 0; j < n; j++) {
    double gp, gm;
    yy[j] = g1.y[j] + hy;
    int rc = gval(c, P, tg, yy, &gp);
    yy[j] = g1.y[j] - hy;
    rc |= gval(c, P, tg, yy, &gm);
    yy[j] = g1.y[j];
    if (rc)
      return CS_ERR_SOLVER;
    gg[j] = (gp - gm) / (2 * hy);
    gn2 += gg[j] * gg[j];
  }
  double *ra = GX + (n + 1) * nx, *rb = GX + (n + 2) * nx;
  for (size_t k = 0; k < n; k++) {
    for (size_t j = 0; j < n; j++)
      ra[j] += gg[k] * g1.M[k * n + j];
    ra[c->ip1] += gg[k] * g1.yp[k];
    ra[c->ip2] += gg[k] * g2.yp[k];
  }
  /* g_k's own dependence on the parameters (the belt's slip: on vb) */
  double gp1[CS_FLOW_MAX_ROOTS], gp2[CS_FLOW_MAX_ROOTS];
  st = keep(c, cs_orbit_switch_dp(c->w1, tg, g1.y, gp1));
  if (st == CS_OK)
    st = keep(c, cs_orbit_switch_dp(c->w2, tg, g1.y, gp2));
  if (st != CS_OK)
    return st;
  ra[c->ip1] += gp1[c->fn];
  ra[c->ip2] += gp2[c->fn];
  ra[c->itg] = D;
  /* t_g solves dg_k/dt = 0 in every evaluation (touch_time): its row is
   * the identity in t_g */
  rb[c->itg] = 1.0;
  return CS_OK;
}

/* ------------------------------------------------------ corrector, tangent */

static void hat(const struct gz *c, const double *tu, double *th)
{
  double s = 0;
  for (size_t i = 0; i < c->nx; i++) {
    th[i] = tu[i] / c->sigma[i];
    s += th[i] * th[i];
  }
  s = sqrt(s);
  for (size_t i = 0; i < c->nx; i++)
    th[i] /= s;
}

static int tangent(struct gz *c, const double *GX, const double *last, double *tu)
{
  size_t nx = c->nx;
  double A[NXG * NXG], e[NXG] = {0}, z[NXG], nr = 0;
  for (size_t i = 0; i + 1 < nx; i++)
    for (size_t j = 0; j < nx; j++)
      A[i * nx + j] = GX[i * nx + j] * c->sigma[j];
  for (size_t j = 0; j < nx; j++)
    A[(nx - 1) * nx + j] = last[j];
  e[nx - 1] = 1;
  if (!lin_solve(nx, A, e, z))
    return 0;
  for (size_t j = 0; j < nx; j++)
    nr += z[j] * z[j];
  nr = sqrt(nr);
  for (size_t j = 0; j < nx; j++)
    tu[j] = z[j] / nr * c->sigma[j];
  return 1;
}

/* Newton on G = 0 and tk . (X^ - X^k) = ds (fix < 0) or X[fix] = fixval. */
static enum cs_status newton(struct gz *c, double *X, const double *Xk, const double *tk, double ds,
                             int fix, double fixval, struct gsol *s)
{
  size_t nx = c->nx;
  double G[NXG], GX[NXG * NXG], A[NXG * NXG], b[NXG], d[NXG], prev = INFINITY;
  for (int it = 0; it < c->sp.max_iter; it++) {
    c->msg[0] = '\0';
    enum cs_status st = system_at(c, X, G, GX);
    c->out->newton_iterations++;
    if (st != CS_OK)
      return st;
    double last[NXG] = {0}, con;
    if (fix >= 0) {
      last[fix] = 1;
      con = (X[fix] - fixval) / c->sigma[fix];
    } else {
      memcpy(last, tk, nx * sizeof *last);
      con = -ds;
      for (size_t j = 0; j < nx; j++)
        con += tk[j] * (X[j] - Xk[j]) / c->sigma[j];
    }
    for (size_t i = 0; i + 1 < nx; i++) {
      for (size_t j = 0; j < nx; j++)
        A[i * nx + j] = GX[i * nx + j] * c->sigma[j];
      b[i] = -G[i];
    }
    for (size_t j = 0; j < nx; j++)
      A[(nx - 1) * nx + j] = last[j];
    b[nx - 1] = -con;
    if (!lin_solve(nx, A, b, d)) {
      snprintf(c->msg, sizeof c->msg, "singular Jacobian of the grazing system at (%.10g, %.10g)",
               X[c->ip1], X[c->ip2]);
      return CS_ERR_SINGULAR;
    }
    double u = 0;
    for (size_t j = 0; j < nx; j++) {
      u = fmax(u, fabs(d[j]));
      X[j] += d[j] * c->sigma[j];
    }
    s->iterations = it + 1;
    if (u <= c->ctol) {
      memcpy(s->X, X, nx * sizeof *X);
      double tl[NXG] = {0};
      if (tk)
        memcpy(tl, tk, nx * sizeof *tl);
      else
        tl[c->ip2] = 1;
      if (!tangent(c, GX, tl, s->tu)) {
        snprintf(c->msg, sizeof c->msg, "singular tangent system at (%.10g, %.10g)", X[c->ip1],
                 X[c->ip2]);
        return CS_ERR_SINGULAR;
      }
      return CS_OK;
    }
    if (it > 2 && u > 2 * prev && u > 100 * c->ctol) {
      snprintf(c->msg, sizeof c->msg, "Newton diverges (correction %.3g)", u);
      return CS_ERR_NOCONV;
    }
    prev = u;
  }
  snprintf(c->msg, sizeof c->msg, "Newton did not converge in %d iterations", c->sp.max_iter);
  return CS_ERR_NOCONV;
}

/* ------------------------------------------- the orbit run by the flow */

/* Runs the flow from y0 over [t_lo, t_hi] (from t = t_lo, state y0) on
 * SAMPLES equidistant times: the smallest interior local minimum of |g_k|
 * relative to its stretch's largest (k = c->fn, or any when c->fn < 0), the
 * samples before and after it (times, state before), and the switches. */
struct run_min {
  double rel, t_before, t_after, y_before[N_MAX], sign;
  int fn;
  size_t switches;
  double t_sw[MAX_LOG];
  size_t n_sw;
};

static enum cs_status flow_run(struct gz *c, double t_lo, double t_hi, const double *y0, int fn,
                               struct run_min *r)
{
  const struct cs_model *m = c->m;
  memcpy(c->pbuf, cs_orbit_ws_params(c->w1), m->params_size);
  size_t n = c->n, nsw = cs_model_switches(m, c->pbuf);
  double y[N_MAX], t = t_lo, g[CS_FLOW_MAX_ROOTS], prev[CS_FLOW_MAX_ROOTS],
                   prev2[CS_FLOW_MAX_ROOTS];
  double gmax[CS_FLOW_MAX_ROOTS], cand[CS_FLOW_MAX_ROOTS], ct[CS_FLOW_MAX_ROOTS][3];
  double cy[CS_FLOW_MAX_ROOTS][N_MAX], cs[CS_FLOW_MAX_ROOTS];
  double tp = t, tp2 = t, yp[N_MAX], yp2[N_MAX];
  memcpy(y, y0, n * sizeof *y);
  memcpy(yp, y0, n * sizeof *y), memcpy(yp2, y0, n * sizeof *y);
  r->rel = INFINITY, r->fn = -1;
  enum cs_status st =
      cs_flow_reset(c->flow, m, c->pbuf, &c->sp.orbit.solver, t_lo, y, 0, NULL, NULL, NULL);
  int mode = -2, count = 0;
  for (size_t k = 0; k < SAMPLES && st == CS_OK; k++) {
    double tk = t_lo + (t_hi - t_lo) * (double)k / (double)(SAMPLES - 1);
    if (k > 0)
      st = cs_flow_advance(c->flow, tk, &t, y, NULL, NULL);
    if (st != CS_OK || m->switch_fn(tk, y, g, c->pbuf) != 0)
      break;
    int md = m->mode_of ? m->mode_of(c->pbuf) : 0;
    if (md != mode) {
      for (size_t i = 0; mode > -2 && i < nsw; i++)
        if (isfinite(cand[i]) && gmax[i] > 0 && cand[i] / gmax[i] < r->rel) {
          r->rel = cand[i] / gmax[i], r->fn = (int)i, r->sign = cs[i];
          r->t_before = ct[i][0], r->t_after = ct[i][2];
          memcpy(r->y_before, cy[i], n * sizeof *y);
        }
      mode = md, count = 0;
      for (size_t i = 0; i < nsw; i++)
        gmax[i] = 0, cand[i] = NAN;
    }
    for (size_t i = 0; i < nsw; i++) {
      gmax[i] = fmax(gmax[i], fabs(g[i]));
      if ((fn < 0 || (int)i == fn) && count >= 2 && fabs(prev[i]) < fabs(prev2[i]) &&
          fabs(prev[i]) <= fabs(g[i]) && !(fabs(prev[i]) >= cand[i])) {
        cand[i] = fabs(prev[i]), cs[i] = prev[i] < 0 ? -1.0 : 1.0;
        ct[i][0] = tp2, ct[i][1] = tp, ct[i][2] = tk;
        memcpy(cy[i], yp2, n * sizeof *y);
      }
      prev2[i] = prev[i], prev[i] = g[i];
    }
    memcpy(yp2, yp, n * sizeof *y), memcpy(yp, y, n * sizeof *y);
    tp2 = tp, tp = tk;
    count++;
  }
  if (st != CS_OK)
    return cs_error_set(st, "the flow failed: %s", cs_flow_last_error(c->flow));
  for (size_t i = 0; mode > -2 && i < nsw; i++)
    if (isfinite(cand[i]) && gmax[i] > 0 && cand[i] / gmax[i] < r->rel) {
      r->rel = cand[i] / gmax[i], r->fn = (int)i, r->sign = cs[i];
      r->t_before = ct[i][0], r->t_after = ct[i][2];
      memcpy(r->y_before, cy[i], n * sizeof *y);
    }
  struct cs_flow_stats fs;
  cs_flow_stats(c->flow, &fs);
  r->switches = (size_t)fs.switches;
  r->n_sw = cs_flow_switch_count(c->flow);
  for (size_t i = 0; i < r->n_sw; i++)
    r->t_sw[i] = cs_flow_switch_get(c->flow, i)->t;
  return CS_OK;
}

/* The window's half-width: half the time from t_g to the nearest switch of
 * the orbit (the period wrapped round), other than one at the touch. */
static double window_of(const struct gz *c, const struct run_min *r, double tg, double T)
{
  double d = 0.5 * T;
  for (size_t i = 0; i < r->n_sw; i++) {
    double e = fabs(r->t_sw[i] - tg);
    e = fmin(e, T - e);
    if (e > 1e-6 * T)
      d = fmin(d, e);
  }
  (void)c;
  return 0.5 * d;
}

/* k, t_g, the sign and the window from the orbit X (start: any function). */
static enum cs_status locate_touch(struct gz *c, const double *X, int any, double *tg)
{
  struct run_min r, z;
  double T = X[c->iT];
  enum cs_status st = set_pp(c, X[c->ip1], X[c->ip2]);
  if (st == CS_OK)
    st = flow_run(c, 0.0, T, X, any ? -1 : c->fn, &r);
  if (st != CS_OK)
    return keep(c, st);
  if (r.fn < 0) {
    snprintf(c->msg, sizeof c->msg, "no switching function has an interior minimum on the orbit");
    return CS_ERR_NOT_FOUND;
  }
  if (any) {
    c->fn = r.fn, c->sign = r.sign, c->switches = r.switches;
  }
  z = r;
  for (int k = 0; k < ZOOMS; k++) {
    struct run_min q;
    st = flow_run(c, z.t_before, z.t_after, z.y_before, c->fn, &q);
    if (st != CS_OK)
      return keep(c, st);
    if (q.fn < 0)
      break; /* no interior minimum at this resolution: keep the last bracket */
    z = q;
  }
  *tg = 0.5 * (z.t_before + z.t_after);
  c->win = window_of(c, &r, *tg, T);
  return CS_OK;
}

/* ------------------------------------------------------------ output */

static enum cs_status analyse(struct gz *c, struct gsol *s)
{
  size_t n = c->n;
  struct cs_orbit_shot shot;
  enum cs_status st = set_pp(c, s->X[c->ip1], s->X[c->ip2]);
  if (st == CS_OK) {
    disarm(c, s->X[c->itg]);
    st = keep(c, cs_orbit_shoot(c->w1, &c->sp.orbit, 0.0, s->X, s->X[c->iT], 0, &shot));
  }
  if (st != CS_OK)
    return st;
  struct cs_orbit orb;
  memset(&orb, 0, sizeof orb);
  orb.n = n;
  orb.autonomous = 1;
  orb.p = s->X[c->ip1];
  memcpy(orb.y, s->X, n * sizeof *s->X);
  orb.period = s->X[c->iT];
  memcpy(orb.mono, shot.M, n * n * sizeof *shot.M);
  orb.converged = 1;
  st = keep(c, cs_orbit_multipliers(c->w1, shot.M, &orb, 1.0, NULL));
  if (st != CS_OK)
    return st;
  s->n_eig = orb.n_mult;
  memcpy(s->re, orb.mult_re, orb.n_mult * sizeof *s->re);
  memcpy(s->im, orb.mult_im, orb.n_mult * sizeof *s->im);
  s->n_unstable = orb.n_unstable;
  /* the window for the next steps from this orbit's switches */
  double tg;
  struct gz save = *c;
  if (locate_touch(c, s->X, 0, &tg) != CS_OK) {
    c->win = save.win;
    c->msg[0] = '\0';
  }
  return CS_OK;
}

static void to_point(const struct gz *c, const struct gsol *s, double ds, struct cs_curve_point *q)
{
  memset(q, 0, sizeof *q);
  q->p1 = s->X[c->ip1], q->p2 = s->X[c->ip2];
  memcpy(q->y, s->X, c->n * sizeof *q->y);
  q->period = s->X[c->iT];
  q->omega = NAN;
  q->test[0] = s->X[c->itg];
  q->test[1] = NAN;
  q->l1_err = NAN;
  q->n_eig = s->n_eig;
  memcpy(q->re, s->re, s->n_eig * sizeof *q->re);
  memcpy(q->im, s->im, s->n_eig * sizeof *q->im);
  q->n_unstable = s->n_unstable;
  q->iterations = s->iterations;
  q->ds = ds;
}

static enum cs_status run_half(struct gz *c, const struct gsol *start, int dir,
                               struct cs_curve_half *h)
{
  struct gsol cur = *start, next;
  double tk0[NXG];
  hat(c, cur.tu, tk0);
  if ((tk0[c->ip2] > 0 ? 1 : -1) != dir)
    for (size_t j = 0; j < c->nx; j++)
      cur.tu[j] = -cur.tu[j];
  double ds = c->sp.ds, win0 = c->win;
  enum cs_status st = CS_OK;
  h->ok = 1;
  const double lo[2] = {c->sp.min1, c->sp.min2}, hi[2] = {c->sp.max1, c->sp.max2};
  const int ip[2] = {c->ip1, c->ip2};
  for (;;) {
    if (h->n >= c->sp.max_points) {
      snprintf(h->end, sizeof h->end, "%zu points reached", c->sp.max_points);
      break;
    }
    double tk[NXG], X[NXG];
    hat(c, cur.tu, tk);
    for (size_t j = 0; j < c->nx; j++)
      X[j] = cur.X[j] + ds * tk[j] * c->sigma[j];
    int fix = -1;
    double fixval = 0, frac = 1;
    for (int q = 0; q < 2; q++) {
      double pp = X[ip[q]], pc = cur.X[ip[q]];
      double edge = pp > hi[q] ? hi[q] : pp < lo[q] ? lo[q] : NAN;
      if (isfinite(edge) && pp != pc && (edge - pc) / (pp - pc) < frac)
        frac = (edge - pc) / (pp - pc), fix = ip[q], fixval = edge;
    }
    if (fix >= 0)
      for (size_t j = 0; j < c->nx; j++)
        X[j] = cur.X[j] + frac * ds * tk[j] * c->sigma[j];
    enum cs_status cst = newton(c, X, cur.X, tk, ds, fix, fixval, &next);
    if (cst == CS_OK)
      cst = analyse(c, &next);
    int ok = cst == CS_OK;
    if (ok) {
      double tn[NXG], dot = 0;
      hat(c, next.tu, tn);
      for (size_t j = 0; j < c->nx; j++)
        dot += tn[j] * tk[j];
      if (dot < 0)
        for (size_t j = 0; j < c->nx; j++)
          next.tu[j] = -next.tu[j], dot = -dot;
      if (dot < MAX_TURN_COS) {
        ok = 0;
        snprintf(c->msg, sizeof c->msg, "the tangent turns by %.0f degrees",
                 acos(fmax(-1, fmin(1, dot))) * 180 / M_PI);
      }
    }
    if (cst == CS_ERR_NOMEM) {
      st = cst;
      break;
    }
    if (!ok) {
      c->win = win0;
      ds *= 0.5;
      if (ds < c->sp.ds_min) {
        snprintf(h->end, sizeof h->end, "step below ds_min after (%.10g, %.10g): %.200s",
                 cur.X[c->ip1], cur.X[c->ip2], c->msg);
        h->ok = 0;
        break;
      }
      continue;
    }
    win0 = c->win;
    struct cs_curve_point q;
    double sarc = 0;
    for (size_t j = 0; j < c->nx; j++)
      sarc += tk[j] * (next.X[j] - cur.X[j]) / c->sigma[j];
    to_point(c, &next, dir * (fix >= 0 ? sarc : ds), &q);
    st = cs_curve_half_point(h, &q);
    cur = next;
    if (st != CS_OK)
      break;
    if (fix >= 0) {
      snprintf(h->end, sizeof h->end, "reached the edge of the box, %s = %.10g",
               c->m->param[fix == c->ip1 ? c->par1 : c->par2].name, fixval);
      break;
    }
    if (cur.iterations <= EASY_ITER)
      ds = fmin(ds * GROW, c->sp.ds_max);
    else if (cur.iterations > HARD_ITER)
      ds = fmax(ds * SHRINK, c->sp.ds_min);
  }
  return st;
}

static enum cs_status add_special(struct cs_curve *out, enum cs_codim2_kind k, size_t after,
                                  const struct cs_curve_point *q, const char *note)
{
  struct cs_curve_special *s = &out->special[out->n_special++];
  memset(s, 0, sizeof *s);
  s->kind = k;
  s->after = after;
  s->pt = *q;
  snprintf(s->note, sizeof s->note, "%.199s", note);
  return CS_OK;
}

/* ------------------------------------------------------------- entry */

enum cs_status cs_graze_curve(struct cs_orbit_ws *ws, const void *params_unprepared,
                              const struct cs_curve_spec *spec, const struct cs_special *sp,
                              struct cs_curve *out)
{
  cs_gsl_quiet();
  memset(out, 0, sizeof *out);
  struct gz c;
  memset(&c, 0, sizeof c);
  c.m = cs_orbit_ws_model(ws);
  c.sp = *spec;
  c.n = c.m->n_state;
  c.nx = c.n + 4, c.ne = c.n + 3;
  c.iT = (int)c.n, c.itg = (int)c.n + 1, c.ip1 = (int)c.n + 2, c.ip2 = (int)c.n + 3;
  c.par1 = cs_orbit_ws_param(ws), c.par2 = spec->param2;
  c.out = out;
  c.fn = -1;
  out->kind = CS_CURVE_GRAZING;
  out->n = c.n;
  if (sp->kind != CS_SPECIAL_GRAZING || c.par1 < 0 || c.par2 < 0 || c.par1 == c.par2 ||
      !(spec->max1 > spec->min1) || !(spec->max2 > spec->min2) || !(spec->ds > 0) ||
      !(spec->ds_min > 0) || spec->max_points < 1)
    return cs_error_set(CS_ERR_ARG, "a grazing curve cannot start at a %s point (or a bad spec)",
                        cs_special_name(sp->kind));
  c.base = malloc(c.m->params_size);
  if (!c.base)
    return CS_FAIL(CS_ERR_NOMEM);
  memcpy(c.base, params_unprepared, c.m->params_size);
  if (!cs_orbit_ws_autonomous(ws) || cs_model_switches(c.m, cs_orbit_ws_params(ws)) == 0) {
    free(c.base);
    return cs_error_set(CS_ERR_UNSUPPORTED,
                        "grazing curves need an autonomous event-driven model (%s is not)",
                        c.m->name);
  }
  double p2 = cs_model_get_param(c.m, c.base, c.par2);
  c.w1 = ws;
  c.w2 = cs_orbit_ws_create(c.m, c.base, c.par2);
  /* parameter steps well inside the touch's corner (see the top) */
  cs_orbit_ws_set_dp_rel(c.w1, GRAZE_DP_REL);
  if (c.w2)
    cs_orbit_ws_set_dp_rel(c.w2, GRAZE_DP_REL);
  c.pbuf = malloc(c.m->params_size);
  c.flow = cs_flow_create(c.n, MAX_LOG);
  struct cs_curve_half h[2];
  memset(h, 0, sizeof h);
  enum cs_status st = c.w2 && c.pbuf && c.flow ? CS_OK : CS_FAIL(CS_ERR_NOMEM);
  c.cur1 = c.cur2 = NAN;
  double rtol = spec->orbit.solver.rtol > 0 ? spec->orbit.solver.rtol : 1e-8;
  size_t n = c.n;
  for (size_t i = 0; i < n; i++) {
    double atol =
        spec->orbit.solver.atol_vec ? spec->orbit.solver.atol_vec[i] : spec->orbit.solver.atol;
    c.sigma[i] = fmax(sp->pt.ymax[i] - sp->pt.ymin[i], atol > 0 ? atol / rtol : 1e-3);
  }
  c.sigma[c.iT] = c.sigma[c.itg] = sp->pt.period;
  c.sigma[c.ip1] = spec->max1 - spec->min1;
  c.sigma[c.ip2] = spec->max2 - spec->min2;
  /* g_k = 0 is known to ~1e-9 at the belt's touch (lambda_s ~ 1e-7 after
   * 5 time units at rtol 1e-10): a tenth of the cycle curves' tolerance */
  c.ctol = fmax(10 * rtol * spec->orbit.newton_tol, 1e-9);
  if (st == CS_OK && (!(p2 >= spec->min2 && p2 <= spec->max2) ||
                      !(sp->pt.p >= spec->min1 && sp->pt.p <= spec->max1)))
    st = cs_error_set(CS_ERR_ARG, "the start (%.10g, %.10g) is outside the box", sp->pt.p, p2);
  struct gsol s;
  memset(&s, 0, sizeof s);
  if (st == CS_OK) {
    double X[NXG], tg;
    memcpy(X, sp->pt.y, n * sizeof *X);
    X[c.iT] = sp->pt.period, X[c.ip1] = sp->pt.p, X[c.ip2] = p2;
    st = locate_touch(&c, X, 1, &tg);
    if (st == CS_OK && sp->pt.switches && c.switches != sp->pt.switches) {
      snprintf(c.msg, sizeof c.msg,
               "the orbit of the start makes %zu switches, the branch's %zu: start from an orbit "
               "before the grazing",
               c.switches, sp->pt.switches);
      st = CS_ERR_NOCONV;
    }
    if (st == CS_OK) {
      X[c.itg] = tg;
      st = newton(&c, X, X, NULL, 0, c.ip2, p2, &s);
    }
    if (st == CS_OK)
      st = analyse(&c, &s);
    if (st != CS_OK && st != CS_ERR_NOMEM) {
      st = cs_error_set(CS_ERR_NOCONV, "the grazing curve does not start: %.300s",
                        c.msg[0] ? c.msg : cs_errmsg());
      c.msg[0] = '\0';
    }
  }
  int dirs[2] = {-1, +1}, nd = spec->direction ? 1 : 2;
  if (spec->direction)
    dirs[0] = spec->direction;
  double win = c.win;
  for (int k = 0; k < nd && st == CS_OK; k++) {
    c.win = win;
    st = run_half(&c, &s, dirs[k], &h[k]);
  }
  if (st == CS_OK) {
    struct cs_curve_point q0;
    to_point(&c, &s, 0, &q0);
    size_t nb = nd == 2 ? h[0].n : 0, total = nb + 1 + h[nd - 1].n;
    out->points = malloc(total * sizeof *out->points);
    out->special = malloc(3 * sizeof *out->special);
    if (!out->points || !out->special)
      st = CS_FAIL(CS_ERR_NOMEM);
    if (st == CS_OK) {
      for (size_t i = 0; i < nb; i++)
        out->points[i] = h[0].pt[nb - 1 - i];
      out->points[nb] = q0;
      for (size_t i = 0; i < h[nd - 1].n; i++)
        out->points[nb + 1 + i] = h[nd - 1].pt[i];
      out->n_points = out->cap_points = total;
      out->start_row = nb;
      out->cap_special = 3;
      if (nd == 2)
        add_special(out, CS_CODIM2_END, 0, &out->points[0], h[0].end);
      char note[sizeof out->special->note];
      snprintf(note, sizeof note,
               "the grazing point of the branch: switching function %d touched at t_g = %.10g",
               c.fn, q0.test[0]);
      add_special(out, CS_CODIM2_START, nb, &q0, note);
      add_special(out, CS_CODIM2_END, total - 1, &out->points[total - 1], h[nd - 1].end);
      out->status = h[0].ok && (nd == 1 || h[1].ok) ? CS_OK : CS_ERR_NOCONV;
      if (nd == 2)
        snprintf(out->end_note, sizeof out->end_note, "one way: %s; the other: %s", h[0].end,
                 h[1].end);
      else
        snprintf(out->end_note, sizeof out->end_note, "%s", h[0].end);
    }
  }
  for (int k = 0; k < 2; k++)
    free(h[k].pt);
  char msg[CS_ERROR_LEN];
  snprintf(msg, sizeof msg, "%s", st == CS_OK ? "" : cs_errmsg());
  cs_orbit_ws_disarm(ws, -1, 0, 0, 1);
  cs_orbit_ws_set_dp_rel(ws, 0);
  cs_orbit_ws_free(c.w2);
  cs_flow_free(c.flow);
  free(c.pbuf);
  free(c.base);
  enum cs_status rst = cs_orbit_ws_set_base(ws, params_unprepared);
  if (rst == CS_OK)
    rst = cs_orbit_ws_set_param(ws, sp->pt.p);
  if (st == CS_OK && rst != CS_OK)
    st = rst, snprintf(msg, sizeof msg, "%s", cs_errmsg());
  if (st != CS_OK) {
    cs_curve_free(out);
    return cs_error_set(st, "%s", msg);
  }
  return CS_OK;
}
