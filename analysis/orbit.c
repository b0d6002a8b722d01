/* SPDX-License-Identifier: MIT */
/* Periodic orbits by single shooting (see orbit.h). The state, its monodromy
 * matrix and its parameter derivative are one ODE of n (n + 2) equations
 * integrated by ARKODE through src/integrate; event-driven models switch
 * modes here (the switching functions are the integrator's root functions)
 * with the saltation matrices of analysis/saltation.h, because the plain flow
 * (src/integrate/flow.h) knows nothing of variational equations. Plain runs
 * (guesses, samples, crossings) go through the flow. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>

#include "core/error_private.h"
#include "analysis/orbit.h"
#include "analysis/saltation.h"
#include "core/gsl_quiet.h"
#include "integrate/flow.h"
#include "models/model_private.h"
#include "integrate/integrate_private.h"
#include "integrate/flow_private.h"
#include "analysis/orbit_private.h"

#define N_MAX CS_ORBIT_MAX_N
#define DP_REL 1e-6         /* parameter difference step, relative to max(|p|, DP_FLOOR) */
#define DP_FLOOR 1e-2       /* ... in the parameter's unit */
#define MAX_DT_FRAC 0.5     /* a Newton step changes the period by at most this fraction */
#define SINGULAR_REL 1e-13  /* LU pivot below this times the largest: singular */
#define UNTESTED_ATOL 1e300 /* the absolute tolerance of a component left out of the error test */

struct aug {
  struct cs_orbit_ws *w;
};

struct cs_orbit_ws {
  const struct cs_model *m;
  size_t n, naug;
  int param;     /* continued parameter, -1 none */
  void *base;    /* unprepared params */
  void *P[3];    /* prepared and attached at p, p + dp, p - dp */
  int live[3];   /* P[i] attached */
  void *scratch; /* shallow copies for the saltation's resets */
  double p;      /* current value (NAN without a parameter) */
  double p_plus, p_minus;
  struct cs_integrator *integ; /* the augmented system */
  /* the state alone (cs_orbit_shoot_state): its own workspace, as a change
   * of n rebuilds the integrator's solvers */
  struct cs_integrator *integ_plain;
  struct cs_flow *flow; /* plain runs */
  struct aug aug;
  double *Y, *atol;
  /* state of the current shooting, read by the callbacks */
  int with_param;
  int hybrid;
  double rtol;  /* of the last shooting: the accuracy of the multipliers */
  int full_jac; /* implicit stepper: second-derivative terms in the Jacobian */
  /* a switching function held at a constant sign on a time window of the
   * shootings (cs_orbit_ws_disarm), -1 none */
  int disarm_fn;
  double disarm_lo, disarm_hi, disarm_sign;
  double dp_rel; /* parameter difference step relative to max(|p|, DP_FLOOR) */
  /* the model gives f_p analytically for the parameter at P[0]
   * (rhs_jac_dp), else central differences between P[1] and P[2] */
  int dp_analytic;
  double J[N_MAX * N_MAX], Jp[N_MAX * N_MAX], Jm[N_MAX * N_MAX], fpl[N_MAX], fmi[N_MAX];
  double *dbuf; /* derived outputs */
  /* linear algebra: Newton (up to n + 2) and eigenvalues (n) */
  gsl_matrix *A;
  gsl_permutation *perm;
  gsl_vector *b, *x;
  gsl_matrix *E;
  gsl_vector_complex *eval;
  gsl_matrix_complex *evec;
  gsl_eigen_nonsymmv_workspace *ew;
};

struct cs_orbit_opts cs_orbit_opts_default(void)
{
  struct cs_orbit_opts o;
  memset(&o, 0, sizeof o);
  o.solver = cs_integrator_opts_default();
  o.solver.rtol = 1e-9;
  o.solver.atol = 1e-11;
  o.section.kind = CS_SECTION_HYPERPLANE;
  o.returns = 1;
  o.newton_tol = 10.0;
  o.max_iter = 30;
  o.search = 1000.0;
  return o;
}

/* ------------------------------------------------------------ workspace */

static void unprep(struct cs_orbit_ws *w, int i)
{
  if (w->live[i] && w->m->detach)
    w->m->detach(w->P[i]);
  w->live[i] = 0;
}

/* P[i] = base with the parameter at value, prepared and attached. */
static enum cs_status prep(struct cs_orbit_ws *w, int i, double value, char *msg, size_t len)
{
  const struct cs_model *m = w->m;
  unprep(w, i);
  memcpy(w->P[i], w->base, m->params_size);
  enum cs_status st = CS_OK;
  if (w->param >= 0) {
    st = cs_model_set_param(m, w->P[i], m->param[w->param].name, value);
    if (st != CS_OK) {
      cs_error_fill(msg, len, "%s = %.17g: outside its range [%g, %g]", m->param[w->param].name,
                    value, m->param[w->param].min, m->param[w->param].max);
      return st;
    }
  }
  st = m->prepare(w->P[i]);
  if (st != CS_OK) {
    cs_error_fill(msg, len, "%s", cs_errmsg());
    return st;
  }
  if (m->attach && (st = m->attach(w->P[i])) != CS_OK) {
    cs_error_fill(msg, len, "cannot attach the model's workspaces: %s", cs_strerror(st));
    return st;
  }
  w->live[i] = 1;
  return CS_OK;
}

void cs_orbit_ws_free(struct cs_orbit_ws *w)
{
  if (!w)
    return;
  for (int i = 0; i < 3; i++) {
    unprep(w, i);
    free(w->P[i]);
  }
  free(w->base), free(w->scratch), free(w->Y), free(w->atol), free(w->dbuf);
  cs_integrator_free(w->integ);
  cs_integrator_free(w->integ_plain);
  cs_flow_free(w->flow);
  if (w->A)
    gsl_matrix_free(w->A);
  if (w->perm)
    gsl_permutation_free(w->perm);
  if (w->b)
    gsl_vector_free(w->b);
  if (w->x)
    gsl_vector_free(w->x);
  if (w->E)
    gsl_matrix_free(w->E);
  if (w->eval)
    gsl_vector_complex_free(w->eval);
  if (w->evec)
    gsl_matrix_complex_free(w->evec);
  if (w->ew)
    gsl_eigen_nonsymmv_free(w->ew);
  free(w);
}

struct cs_orbit_ws *cs_orbit_ws_create(const struct cs_model *m, const void *params_unprepared,
                                       int param)
{
  char buf[CS_ERROR_LEN], *msg = buf; /* for the helpers, which keep it in cs_errmsg() too */
  const size_t len = sizeof buf;
  cs_gsl_quiet();
  if (!m || !params_unprepared || m->n_state == 0 || m->n_state > N_MAX ||
      param >= (int)m->n_param) {
    cs_error_fill(msg, len, "invalid model, parameter or state dimension (at most %d states)",
                  N_MAX);
    return NULL;
  }
  struct cs_orbit_ws *w = calloc(1, sizeof *w);
  if (!w) {
    cs_error_fill(msg, len, "%s", cs_strerror(CS_ERR_NOMEM));
    return NULL;
  }
  size_t n = m->n_state;
  w->m = m;
  w->n = n;
  w->naug = n * (n + 2);
  w->param = param;
  w->disarm_fn = -1;
  w->dp_rel = DP_REL;
  w->aug.w = w;
  w->base = malloc(m->params_size);
  w->scratch = malloc(m->params_size);
  for (int i = 0; i < 3; i++)
    w->P[i] = calloc(1, m->params_size);
  w->Y = calloc(w->naug, sizeof *w->Y);
  w->atol = calloc(w->naug, sizeof *w->atol);
  w->dbuf = calloc(m->n_derived + 1, sizeof *w->dbuf);
  w->integ = cs_integrator_create(w->naug);
  w->integ_plain = cs_integrator_create(n);
  w->flow = cs_flow_create(n, 0);
  w->A = gsl_matrix_alloc(n + 2, n + 2);
  w->perm = gsl_permutation_alloc(n + 2);
  w->b = gsl_vector_alloc(n + 2);
  w->x = gsl_vector_alloc(n + 2);
  w->E = gsl_matrix_alloc(n, n);
  w->eval = gsl_vector_complex_alloc(n);
  w->evec = gsl_matrix_complex_alloc(n, n);
  w->ew = gsl_eigen_nonsymmv_alloc(n);
  if (!w->base || !w->scratch || !w->P[0] || !w->P[1] || !w->P[2] || !w->Y || !w->atol ||
      !w->dbuf || !w->integ || !w->integ_plain || !w->flow || !w->A || !w->perm || !w->b || !w->x ||
      !w->E || !w->eval || !w->evec || !w->ew) {
    cs_error_fill(msg, len, "%s", cs_strerror(CS_ERR_NOMEM));
    cs_orbit_ws_free(w);
    return NULL;
  }
  memcpy(w->base, params_unprepared, m->params_size);
  double p = NAN;
  if (param >= 0) {
    p = cs_model_get_param(m, params_unprepared, param);
    if (!isfinite(p))
      p = m->param[param].def;
  }
  if ((param >= 0 ? cs_orbit_ws_set_param(w, p) : prep(w, 0, 0.0, msg, len)) != CS_OK) {
    cs_orbit_ws_free(w);
    return NULL;
  }
  return w;
}

enum cs_status cs_orbit_ws_set_param(struct cs_orbit_ws *w, double value)
{
  char buf[CS_ERROR_LEN], *msg = buf; /* for the helpers, which keep it in cs_errmsg() too */
  const size_t len = sizeof buf;
  if (w->param < 0) {
    cs_error_fill(msg, len, "the workspace has no parameter");
    return CS_ERR_ARG;
  }
  const struct cs_param_desc *d = &w->m->param[w->param];
  double dp = w->dp_rel * fmax(fabs(value), DP_FLOOR);
  enum cs_status st = prep(w, 0, value, msg, len);
  if (st != CS_OK)
    return st;
  w->p = value;
  w->dp_analytic =
      w->m->rhs_jac_dp && w->m->rhs_dp_provided && w->m->rhs_dp_provided((size_t)w->param, w->P[0]);
  w->p_plus = fmin(value + dp, d->max);
  w->p_minus = fmax(value - dp, d->min);
  st = prep(w, 1, w->p_plus, msg, len);
  if (st == CS_OK)
    st = prep(w, 2, w->p_minus, msg, len);
  return st;
}

enum cs_status cs_orbit_ws_set_base(struct cs_orbit_ws *w, const void *params_unprepared)
{
  char buf[CS_ERROR_LEN], *msg = buf; /* for the helpers, which keep it in cs_errmsg() too */
  const size_t len = sizeof buf;
  memcpy(w->base, params_unprepared, w->m->params_size);
  if (w->param >= 0)
    return cs_orbit_ws_set_param(w, w->p);
  return prep(w, 0, 0.0, msg, len);
}

const void *cs_orbit_ws_params(const struct cs_orbit_ws *w)
{
  return w->P[0];
}

const struct cs_model *cs_orbit_ws_model(const struct cs_orbit_ws *w)
{
  return w->m;
}

static double forcing_period(const struct cs_orbit_ws *w, const void *params)
{
  return w->m->forcing_period ? w->m->forcing_period(params) : 0.0;
}

int cs_orbit_ws_autonomous(const struct cs_orbit_ws *w)
{
  return !(forcing_period(w, w->P[0]) > 0);
}

int cs_orbit_ws_param(const struct cs_orbit_ws *w)
{
  return w->param;
}

enum cs_status cs_orbit_rhs_dp(struct cs_orbit_ws *w, double t, const double *y, double *fp)
{
  if (w->param < 0)
    return CS_FAIL(CS_ERR_ARG);
  if (w->dp_analytic) {
    int rc = w->m->rhs_jac_dp(t, y, (size_t)w->param, w->fpl, NULL, fp, w->P[0]);
    return rc ? (rc < 0 ? (enum cs_status)(-rc) : CS_ERR_SOLVER) : CS_OK;
  }
  int rc = w->m->rhs(t, y, w->fpl, w->P[1]);
  if (!rc)
    rc = w->m->rhs(t, y, w->fmi, w->P[2]);
  if (rc)
    return rc < 0 ? (enum cs_status)(-rc) : CS_ERR_SOLVER;
  for (size_t i = 0; i < w->n; i++)
    fp[i] = (w->fpl[i] - w->fmi[i]) / (w->p_plus - w->p_minus);
  return CS_OK;
}

enum cs_status cs_orbit_switch_dp(struct cs_orbit_ws *w, double t, const double *y, double *gp)
{
  size_t nsw = cs_model_switches(w->m, w->P[0]);
  double gpl[32], gmi[32];
  if (w->param < 0 || nsw == 0 || nsw > 32)
    return CS_FAIL(CS_ERR_ARG);
  int rc = w->m->switch_fn(t, y, gpl, w->P[1]);
  if (!rc)
    rc = w->m->switch_fn(t, y, gmi, w->P[2]);
  if (rc)
    return rc < 0 ? (enum cs_status)(-rc) : CS_ERR_SOLVER;
  for (size_t i = 0; i < nsw; i++)
    gp[i] = (gpl[i] - gmi[i]) / (w->p_plus - w->p_minus);
  return CS_OK;
}

double cs_orbit_forcing_period_dp(const struct cs_orbit_ws *w)
{
  if (w->param < 0)
    return 0.0;
  return (forcing_period(w, w->P[1]) - forcing_period(w, w->P[2])) / (w->p_plus - w->p_minus);
}

/* ---------------------------------------------------- the augmented ODE */

/* J at (t, y) with params: the model's, else central differences. */
static int eval_jac(struct cs_orbit_ws *w, double t, const double *y, const void *params, double *J)
{
  const struct cs_model *m = w->m;
  size_t n = w->n;
  memset(J, 0, n * n * sizeof *J);
  if (m->jac)
    return m->jac(t, y, J, params);
  double yy[N_MAX];
  memcpy(yy, y, n * sizeof *y);
  for (size_t j = 0; j < n; j++) {
    double h = 1e-7 * fmax(fabs(y[j]), 1e-3);
    yy[j] = y[j] + h;
    int rc = m->rhs(t, yy, w->fpl, params);
    yy[j] = y[j] - h;
    if (!rc)
      rc = m->rhs(t, yy, w->fmi, params);
    yy[j] = y[j];
    if (rc)
      return rc;
    for (size_t i = 0; i < n; i++)
      J[i * n + j] = (w->fpl[i] - w->fmi[i]) / (2.0 * h);
  }
  return 0;
}

/* Y = [y | Phi column by column | v]: y' = f, Phi' = J Phi, v' = J v + f_p. */
static int rhs_aug(double t, const double *Y, double *Yd, const void *ctx)
{
  struct cs_orbit_ws *w = ((const struct aug *)ctx)->w;
  const struct cs_model *m = w->m;
  size_t n = w->n;
  int rc;
  double *vd = Yd + n + n * n;
  if (w->with_param && w->dp_analytic) {
    /* f, J and f_p from one evaluation of the law (f_p kept in fpl) */
    memset(w->J, 0, n * n * sizeof *w->J);
    rc = m->rhs_jac_dp(t, Y, (size_t)w->param, Yd, w->J, w->fpl, w->P[0]);
  } else if (m->rhs_jac) {
    /* one evaluation of the law for both (the values rhs and jac give) */
    memset(w->J, 0, n * n * sizeof *w->J);
    rc = m->rhs_jac(t, Y, Yd, w->J, w->P[0]);
  } else {
    rc = m->rhs(t, Y, Yd, w->P[0]);
    if (!rc)
      rc = eval_jac(w, t, Y, w->P[0], w->J);
  }
  if (rc)
    return rc;
  for (size_t j = 0; j <= n; j++) {
    const double *c = Y + n + j * n;
    double *cd = Yd + n + j * n;
    for (size_t i = 0; i < n; i++) {
      double s = 0;
      const double *Ji = w->J + i * n;
      for (size_t k = 0; k < n; k++)
        s += Ji[k] * c[k];
      cd[i] = s;
    }
  }
  if (w->with_param && w->dp_analytic) {
    for (size_t i = 0; i < n; i++)
      vd[i] += w->fpl[i];
  } else if (w->with_param) {
    rc = m->rhs(t, Y, w->fpl, w->P[1]);
    if (!rc)
      rc = m->rhs(t, Y, w->fmi, w->P[2]);
    if (rc)
      return rc;
    double h = w->p_plus - w->p_minus;
    for (size_t i = 0; i < n; i++)
      vd[i] += (w->fpl[i] - w->fmi[i]) / h;
  }
  return 0;
}

/* For the implicit stepper, the Jacobian of the whole system: J on every
 * diagonal block, and in the state's columns the derivative of J Phi (and of
 * J v + f_p) in y, from central differences of the model's Jacobian. Without
 * these second-derivative terms the Newton iteration of the implicit stepper
 * fails where J changes fast (the unregularized friction law near
 * lambda_s = 0 of the event-driven models). */
static int jac_aug(double t, const double *Y, double *JA, const void *ctx)
{
  struct cs_orbit_ws *w = ((const struct aug *)ctx)->w;
  size_t n = w->n, na = w->naug;
  int rc = n <= N_MAX ? eval_jac(w, t, Y, w->P[0], w->J) : -1;
  if (rc)
    return rc;
  for (size_t b = 0; b < n + 2; b++)
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < n; k++)
        JA[(b * n + i) * na + b * n + k] = w->J[i * n + k];
  if (!w->full_jac)
    return 0;
  double yy[N_MAX];
  memcpy(yy, Y, n * sizeof *yy);
  for (size_t k = 0; k < n; k++) {
    double h = 1e-6 * fmax(fabs(Y[k]), 1e-3);
    yy[k] = Y[k] + h;
    rc = eval_jac(w, t, yy, w->P[0], w->Jp);
    yy[k] = Y[k] - h;
    if (!rc)
      rc = eval_jac(w, t, yy, w->P[0], w->Jm);
    yy[k] = Y[k];
    if (rc)
      return rc;
    for (size_t b = 1; b < n + 2; b++) {
      const double *c = Y + b * n;
      for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t j = 0; j < n; j++)
          s += (w->Jp[i * n + j] - w->Jm[i * n + j]) * c[j];
        JA[(b * n + i) * na + k] = s / (2.0 * h);
      }
    }
  }
  if (w->with_param) {
    /* d f_p / dy = dJ/dp */
    rc = eval_jac(w, t, Y, w->P[1], w->Jp);
    if (!rc)
      rc = eval_jac(w, t, Y, w->P[2], w->Jm);
    if (rc)
      return rc;
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < n; k++)
        JA[((n + 1) * n + i) * na + k] +=
            (w->Jp[i * n + k] - w->Jm[i * n + k]) / (w->p_plus - w->p_minus);
  }
  return 0;
}

/* The state alone (cs_orbit_shoot_state). */
static int rhs_plain(double t, const double *Y, double *Yd, const void *ctx)
{
  struct cs_orbit_ws *w = ((const struct aug *)ctx)->w;
  return w->m->rhs(t, Y, Yd, w->P[0]);
}

static int jac_plain(double t, const double *Y, double *J, const void *ctx)
{
  struct cs_orbit_ws *w = ((const struct aug *)ctx)->w;
  return eval_jac(w, t, Y, w->P[0], J);
}

static int roots_aug(double t, const double *Y, double *g, const void *ctx)
{
  struct cs_orbit_ws *w = ((const struct aug *)ctx)->w;
  int rc = w->m->switch_fn(t, Y, g, w->P[0]);
  if (w->disarm_fn >= 0 && t >= w->disarm_lo && t <= w->disarm_hi)
    g[w->disarm_fn] = w->disarm_sign; /* no sign change: no root, no switch */
  return rc;
}

void cs_orbit_ws_set_dp_rel(struct cs_orbit_ws *w, double rel)
{
  w->dp_rel = rel > 0 ? rel : DP_REL;
}

void cs_orbit_ws_disarm(struct cs_orbit_ws *w, int fn, double t_lo, double t_hi, double sign)
{
  w->disarm_fn = fn >= 0 && (size_t)fn < cs_model_switches(w->m, w->P[0]) ? fn : -1;
  w->disarm_lo = t_lo, w->disarm_hi = t_hi;
  w->disarm_sign = sign < 0 ? -1.0 : 1.0;
}

static double atol_of(const struct cs_orbit_opts *o, size_t i)
{
  return o->solver.atol_vec ? o->solver.atol_vec[i] : o->solver.atol;
}

/* typical magnitude of y_j: |y_j|, not below where atol takes over */
static double scale_of(const struct cs_orbit_opts *o, const double *y, size_t j)
{
  double floor = o->solver.rtol > 0 ? atol_of(o, j) / o->solver.rtol : atol_of(o, j);
  return fmax(fmax(fabs(y[j]), floor), 1e-300);
}

static enum cs_status failed(char *msg, size_t len, enum cs_status st, const char *what,
                             const char *why)
{
  if (msg && len)
    cs_error_fill(msg, len, "%s: %s", what, why);
  return st;
}

/* vars: with the variational equations (M, and yp with with_param), else
 * the state alone. */
static enum cs_status shoot_once(struct cs_orbit_ws *w, const struct cs_orbit_opts *o, double t0,
                                 const double *y0, double T, int vars, int with_param,
                                 struct cs_orbit_shot *out, char *msg, size_t len)
{
  const struct cs_model *m = w->m;
  size_t n = w->n, na = vars ? w->naug : n;
  struct cs_integrator *integ = vars ? w->integ : w->integ_plain;
  if (msg && len)
    msg[0] = '\0';
  out->steps = 0;
  out->switches = 0;
  w->rtol = o->solver.rtol;
  if (!(T > 0) || !isfinite(T))
    return failed(msg, len, CS_ERR_ARG, "shooting", "the period is not positive");
  if (with_param && w->param < 0)
    return failed(msg, len, CS_ERR_ARG, "shooting", "no parameter to differentiate in");
  w->with_param = with_param;
  size_t nsw = cs_model_switches(m, w->P[0]);
  w->hybrid = nsw > 0;
  memset(w->Y, 0, na * sizeof *w->Y);
  memcpy(w->Y, y0, n * sizeof *y0);
  if (w->hybrid && m->mode_init) {
    for (int i = with_param ? 2 : 0; i >= 0; i--) {
      double yy[N_MAX];
      memcpy(yy, y0, n * sizeof *y0);
      int rc = m->mode_init(t0, yy, w->P[i]);
      if (rc < 0)
        return failed(msg, len, (enum cs_status)(-rc), "shooting", "the model's mode_init failed");
      if (i == 0)
        memcpy(w->Y, yy, n * sizeof *yy);
    }
  }
  for (size_t j = 0; vars && j < n; j++)
    w->Y[n + j * n + j] = 1.0;
  /* tolerances: Phi_ij in units of y_i per unit of y_j. v = dy/dp is left
   * out of the error test (UNTESTED_ATOL): its forcing f_p is a difference
   * quotient whose rounding noise (about 1e-16 / DP_REL relative) the Verner
   * pairs' error estimates amplify by their weights (b - d = -176, 173 on
   * stages 7, 8 of erk6): at rtol 1e-10 that noise alone held erk6 to 280
   * times the steps of the same shooting without v (37,800 against 133 a
   * period). v only serves the Newton matrices and tangents (a branch's
   * points and folds do not depend on it), and follows the same linear flow
   * as Phi, which the test does control. */
  double sc[N_MAX];
  for (size_t j = 0; j < n; j++)
    sc[j] = scale_of(o, y0, j);
  for (size_t i = 0; i < n; i++) {
    w->atol[i] = atol_of(o, i);
    for (size_t j = 0; vars && j < n; j++)
      w->atol[n + j * n + i] = atol_of(o, i) / sc[j];
    if (vars)
      w->atol[n + n * n + i] = UNTESTED_ATOL;
  }
  struct cs_integrator_opts io = o->solver;
  io.atol_vec = w->atol;
  /* the end state by a step of the method itself from the last step's
   * start (and so the switches' states), not from ARKODE's Hermite
   * interpolant: that one's error, O(h^6) at degree 5, is far above the
   * Verner pairs' local errors at their step sizes (O(h^7), O(h^9)), and
   * erk8's first cycle from a Hopf point did not converge with it */
  io.dense = CS_DENSE_RESTEP;
  struct cs_ode ode = {na, vars ? rhs_aug : rhs_plain, vars ? jac_aug : jac_plain, &w->aug};
  enum cs_status st = cs_integrator_set_roots(integ, nsw, nsw ? roots_aug : NULL, NULL, &w->aug);
  if (st == CS_OK)
    st = cs_integrator_reset(integ, &ode, &io, t0, w->Y);
  if (st != CS_OK)
    return failed(msg, len, st, "shooting", cs_integrator_last_error(integ));

  struct cs_saltation_in sin = {.m = m,
                                .params = w->P[0],
                                .scratch = w->scratch,
                                .params_plus = with_param ? w->P[1] : NULL,
                                .params_minus = with_param ? w->P[2] : NULL,
                                .dp = 0.5 * (w->p_plus - w->p_minus),
                                .scale = sc,
                                .t_scale = T};
  struct cs_saltation salt;
  double t = t0, tend = t0 + T, restarted = -INFINITY;
  int fired[32];
  out->switches = 0;
  for (;;) {
    enum cs_stop_reason stop;
    st = cs_integrator_advance(integ, tend, &t, w->Y, &stop);
    if (st == CS_ERR_ARG && t > restarted) {
      /* ARKODE refuses a switching function that stays at zero after a
       * root; a restart makes it inactive until it moves (as cs_flow does) */
      restarted = t;
      if (cs_integrator_reinit_smooth(integ, t, w->Y) == CS_OK)
        continue;
    }
    if (st != CS_OK) {
      struct cs_integrator_stats is;
      cs_integrator_get_stats(integ, &is);
      out->steps = is.steps;

      return failed(msg, len, st, "shooting", cs_integrator_last_error(integ));
    }
    if (stop == CS_STOP_TOUT)
      break;
    cs_integrator_roots_found(integ, fired);
    st = cs_saltation_apply(&sin, t, w->Y, fired, &salt);
    if (st != CS_OK)
      return failed(msg, len, st, "shooting", cs_errmsg());
    if (out->switches < CS_ORBIT_MAX_SWITCHES)
      out->switch_kind[out->switches] = salt.kind;
    out->switches++;
    /* y jumps to the reset, Phi and v by the saltation matrix */
    double tmp[N_MAX];
    memcpy(w->Y, salt.y_plus, n * sizeof *w->Y);
    for (size_t j = 0; vars && j <= n; j++) {
      double *c = w->Y + n + j * n;
      for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t k = 0; k < n; k++)
          s += salt.S[i * n + k] * c[k];
        tmp[i] = s + (j == n ? salt.sp[i] : 0.0);
      }
      memcpy(c, tmp, n * sizeof *c);
    }
    st = cs_integrator_reinit_state(integ, t, w->Y);
    if (st != CS_OK)
      return failed(msg, len, st, "shooting", cs_integrator_last_error(integ));
  }
  memcpy(out->y, w->Y, n * sizeof *out->y);
  for (size_t i = 0; vars && i < n; i++) {
    for (size_t j = 0; j < n; j++)
      out->M[i * n + j] = w->Y[n + j * n + i];
    out->yp[i] = with_param ? w->Y[n + n * n + i] : 0.0;
  }
  int rc = m->rhs(tend, out->y, out->f, w->P[0]);
  if (rc)
    return failed(msg, len, rc < 0 ? (enum cs_status)(-rc) : CS_ERR_SOLVER, "shooting",
                  "the right-hand side failed at the end of the period");
  struct cs_integrator_stats s;
  cs_integrator_get_stats(integ, &s);
  out->steps = s.steps;

  return CS_OK;
}

/* The implicit stepper's Newton matrix: with the second-derivative terms for
 * event-driven models (without them Newton fails in the slip phases of the
 * unregularized law, e.g. the belt of figure 4a), without them for smooth
 * ones (measured: with them the regularized stick-slip orbit of figure 8a at
 * eps = 1e-4 takes over 100000 steps instead of 32000); after a failure the
 * other choice is tried once. */
enum cs_status cs_orbit_shoot(struct cs_orbit_ws *w, const struct cs_orbit_opts *o, double t0,
                              const double *y0, double T, int with_param, struct cs_orbit_shot *out)
{
  char buf[CS_ERROR_LEN], *msg = buf; /* for the helpers, which keep it in cs_errmsg() too */
  const size_t len = sizeof buf;
  w->full_jac = cs_model_switches(w->m, w->P[0]) > 0;
  enum cs_status st = shoot_once(w, o, t0, y0, T, 1, with_param, out, msg, len);
  if (o->solver.stepper == CS_STEPPER_DIRK && (st == CS_ERR_SOLVER || st == CS_ERR_TOO_MUCH_WORK)) {
    long steps = out->steps;
    w->full_jac = !w->full_jac;
    st = shoot_once(w, o, t0, y0, T, 1, with_param, out, msg, len);
    out->steps += steps;
  }
  return st;
}

enum cs_status cs_orbit_shoot_state(struct cs_orbit_ws *w, const struct cs_orbit_opts *o, double t0,
                                    const double *y0, double T, struct cs_orbit_shot *out)
{
  char buf[CS_ERROR_LEN];
  return shoot_once(w, o, t0, y0, T, 0, 0, out, buf, sizeof buf);
}

/* ---------------------------------------------------------- the section */

/* Resolves the section variable: *idx a state (derived = 0) or derived output. */
static enum cs_status section_var(const struct cs_orbit_ws *w, const struct cs_orbit_opts *o,
                                  int *idx, int *derived)
{
  const char *v =
      o->section.variable && o->section.variable[0] ? o->section.variable : w->m->section.variable;
  if (!v)
    return CS_FAIL(CS_ERR_ARG);
  *derived = 0;
  *idx = cs_model_state_index(w->m, v);
  if (*idx < 0) {
    *derived = 1;
    *idx = cs_model_derived_index(w->m, v);
  }
  return *idx >= 0 && (!*derived || w->m->derived_fn) ? CS_OK : CS_ERR_ARG;
}

static double section_level(const struct cs_orbit_ws *w, const struct cs_orbit_opts *o)
{
  return o->section.variable && o->section.variable[0] ? o->section.level : w->m->section.level;
}

static int section_direction(const struct cs_orbit_ws *w, const struct cs_orbit_opts *o)
{
  return o->section.variable && o->section.variable[0] ? o->section.direction
                                                       : w->m->section.direction;
}

static int derived_at(struct cs_orbit_ws *w, const void *params, int idx, double t, const double *y,
                      double *v)
{
  int rc = w->m->derived_fn(t, y, w->dbuf, params);
  *v = w->dbuf[idx];
  return rc;
}

enum cs_status cs_orbit_section(struct cs_orbit_ws *w, const struct cs_orbit_opts *o, double t,
                                const double *y, double *s, double *grad, double *s_p)
{
  int idx, der;
  size_t n = w->n;
  if (section_var(w, o, &idx, &der) != CS_OK)
    return CS_FAIL(CS_ERR_ARG);
  double level = section_level(w, o);
  if (!der) {
    *s = y[idx] - level;
    if (grad)
      for (size_t j = 0; j < n; j++)
        grad[j] = (int)j == idx;
    if (s_p)
      *s_p = 0.0;
    return CS_OK;
  }
  double v, vp, vm;
  if (derived_at(w, w->P[0], idx, t, y, &v))
    return CS_FAIL(CS_ERR_SOLVER);
  *s = v - level;
  if (grad) {
    double yy[N_MAX];
    memcpy(yy, y, n * sizeof *y);
    for (size_t j = 0; j < n; j++) {
      double h = 1e-7 * fmax(fabs(y[j]), 1e-3);
      yy[j] = y[j] + h;
      int rc = derived_at(w, w->P[0], idx, t, yy, &vp);
      yy[j] = y[j] - h;
      rc |= derived_at(w, w->P[0], idx, t, yy, &vm);
      yy[j] = y[j];
      if (rc)
        return CS_FAIL(CS_ERR_SOLVER);
      grad[j] = (vp - vm) / (2.0 * h);
    }
  }
  if (s_p) {
    *s_p = 0.0;
    if (w->param >= 0) {
      int rc = derived_at(w, w->P[1], idx, t, y, &vp);
      rc |= derived_at(w, w->P[2], idx, t, y, &vm);
      if (rc)
        return CS_FAIL(CS_ERR_SOLVER);
      *s_p = (vp - vm) / (w->p_plus - w->p_minus);
    }
  }
  return CS_OK;
}

/* The section as a root function of the flow. */
struct sec_root {
  struct cs_orbit_ws *w;
  int idx, derived;
  double level;
};

static int sec_root_fn(double t, const double *y, double *g, const void *ctx)
{
  const struct sec_root *r = ctx;
  if (!r->derived) {
    g[0] = y[r->idx] - r->level;
    return 0;
  }
  double v;
  int rc = derived_at(r->w, r->w->P[0], r->idx, t, y, &v);
  g[0] = v - r->level;
  return rc;
}

/* ------------------------------------------------------------- plain runs */

/* One advance that goes on past the per-call step limit (max_steps bounds a
 * call, as between two output times of a recorded run; a long transient is
 * many such intervals): retried while it makes progress, so only the run's
 * budget (max_steps_total) or a real failure stops it. */
static enum cs_status advance_on(struct cs_flow *f, double tout, double *t, double *y, int *at_root)
{
  for (;;) {
    double t_before = *t;
    enum cs_status st = cs_flow_advance(f, tout, t, y, at_root, NULL);
    if (st != CS_ERR_TOO_MUCH_WORK || !(*t > t_before))
      return st;
  }
}

/* Advances the flow to tout, stepping over section roots; *t, y updated. */
static enum cs_status flow_to(struct cs_flow *f, double tout, double *t, double *y)
{
  int at_root = 1;
  while (at_root) {
    enum cs_status st = advance_on(f, tout, t, y, &at_root);
    if (st != CS_OK)
      return st;
  }
  return CS_OK;
}

/* The k-th crossing of the section after the current time, before tmax. */
static enum cs_status flow_crossing(struct cs_flow *f, double tmax, int k, double *t, double *y)
{
  for (int c = 0; c < k; c++) {
    int at_root = 0;
    enum cs_status st = advance_on(f, tmax, t, y, &at_root);
    if (st != CS_OK)
      return st;
    if (!at_root)
      return CS_FAIL(CS_ERR_NOT_FOUND);
  }
  return CS_OK;
}

/* Starts the flow at (t0, y0), with the section's roots for autonomous models. */
static enum cs_status flow_start(struct cs_orbit_ws *w, const struct cs_orbit_opts *o,
                                 struct sec_root *r, double t0, const double *y0)
{
  int dir = 0, autonomous = cs_orbit_ws_autonomous(w);
  if (autonomous) {
    if (section_var(w, o, &r->idx, &r->derived) != CS_OK)
      return CS_FAIL(CS_ERR_ARG);
    r->w = w;
    r->level = section_level(w, o);
    dir = section_direction(w, o);
  }
  return cs_flow_reset(w->flow, w->m, w->P[0], &o->solver, t0, y0, autonomous ? 1 : 0,
                       autonomous ? sec_root_fn : NULL, autonomous ? &dir : NULL, r);
}

enum cs_status cs_orbit_guess(struct cs_orbit_ws *w, const struct cs_orbit_opts *o, double t0,
                              const double *y0, double transient, double *t_guess, double *y_guess,
                              double *T_guess)
{
  char buf[CS_ERROR_LEN], *msg = buf; /* for the helpers, which keep it in cs_errmsg() too */
  const size_t len = sizeof buf;
  struct sec_root r;
  double t = t0, y[N_MAX];
  int k = o->returns > 0 ? o->returns : 1;
  if (msg && len)
    msg[0] = '\0';
  memcpy(y, y0, w->n * sizeof *y);
  enum cs_status st = flow_start(w, o, &r, t0, y);
  if (st == CS_ERR_ARG)
    return failed(msg, len, st, "guess", "the section variable is neither a state nor an output");
  if (st == CS_OK && transient > 0)
    st = flow_to(w->flow, t0 + transient, &t, y);
  if (st != CS_OK)
    return failed(msg, len, st, "transient", cs_flow_last_error(w->flow));
  if (!cs_orbit_ws_autonomous(w)) {
    double Tf = forcing_period(w, w->P[0]);
    double t1 = Tf * ceil((t - 1e-9 * Tf) / Tf);
    st = flow_to(w->flow, t1, &t, y);
    if (st != CS_OK)
      return failed(msg, len, st, "transient", cs_flow_last_error(w->flow));
    *t_guess = t1;
    *T_guess = k * Tf;
    memcpy(y_guess, y, w->n * sizeof *y);
    return CS_OK;
  }
  double tmax = t + o->search, t1;
  st = flow_crossing(w->flow, tmax, 1, &t, y);
  if (st == CS_OK) {
    t1 = t;
    memcpy(y_guess, y, w->n * sizeof *y);
    st = flow_crossing(w->flow, tmax, k, &t, y);
  }
  if (st == CS_ERR_NOT_FOUND)
    return failed(msg, len, st, "guess",
                  "the orbit does not cross the section often enough within the search time "
                  "(an equilibrium? another section?)");
  if (st != CS_OK)
    return failed(msg, len, st, "guess", cs_flow_last_error(w->flow));
  *t_guess = t1;
  *T_guess = t - t1;
  return CS_OK;
}

/* --------------------------------------------------------- multipliers */

enum cs_status cs_orbit_multipliers(struct cs_orbit_ws *w, const double *M, struct cs_orbit *out,
                                    double target, double *vec)
{
  size_t n = w->n;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      gsl_matrix_set(w->E, i, j, M[i * n + j]);
  if (gsl_eigen_nonsymmv(w->E, w->eval, w->evec, w->ew) != GSL_SUCCESS)
    return CS_FAIL(CS_ERR_SINGULAR);
  double re[N_MAX], im[N_MAX];
  size_t order[N_MAX];
  for (size_t i = 0; i < n; i++) {
    gsl_complex z = gsl_vector_complex_get(w->eval, i);
    re[i] = GSL_REAL(z), im[i] = GSL_IMAG(z);
    order[i] = i;
  }
  /* by modulus, then the positive imaginary part first */
  for (size_t a = 1; a < n; a++)
    for (size_t b = a; b > 0; b--) {
      size_t i = order[b - 1], j = order[b];
      double mi = hypot(re[i], im[i]), mj = hypot(re[j], im[j]);
      if (mj > mi * (1 + 1e-14) || (fabs(mj - mi) <= 1e-14 * mi && im[j] > im[i])) {
        order[b - 1] = j;
        order[b] = i;
      }
    }
  int triv = -1;
  if (out->autonomous) {
    double best = INFINITY;
    for (size_t i = 0; i < n; i++)
      if (hypot(re[i] - 1.0, im[i]) < best)
        best = hypot(re[i] - 1.0, im[i]), triv = (int)i;
    out->trivial_re = re[triv], out->trivial_im = im[triv];
    out->trivial_err = best;
  } else {
    out->trivial_re = out->trivial_im = out->trivial_err = NAN;
  }
  out->n_mult = 0;
  out->n_unstable = 0;
  out->n_marginal = 0;
  /* the monodromy matrix is known to about the solver's tolerance, and the
   * trivial multiplier's distance from 1 measures it: a modulus closer to 1
   * than that has no side (the first cycles from a Hopf point flicker) */
  out->mult_tol = fmax(100 * w->rtol, out->autonomous ? 10 * out->trivial_err : 0);
  for (size_t a = 0; a < n; a++) {
    size_t i = order[a];
    if ((int)i == triv)
      continue;
    out->mult_re[out->n_mult] = re[i];
    out->mult_im[out->n_mult] = im[i];
    out->n_mult++;
    double mod = hypot(re[i], im[i]);
    if (mod > 1.0 + out->mult_tol)
      out->n_unstable++;
    else if (mod >= 1.0 - out->mult_tol)
      out->n_marginal++;
  }
  if (vec) {
    double best = INFINITY;
    size_t bi = 0;
    for (size_t i = 0; i < n; i++)
      if ((int)i != triv && hypot(re[i] - target, im[i]) < best)
        best = hypot(re[i] - target, im[i]), bi = i;
    double norm = 0;
    for (size_t k = 0; k < n; k++) {
      vec[k] = GSL_REAL(gsl_matrix_complex_get(w->evec, k, bi));
      norm += vec[k] * vec[k];
    }
    norm = sqrt(norm);
    for (size_t k = 0; k < n && norm > 0; k++)
      vec[k] /= norm;
  }
  return CS_OK;
}

/* ---------------------------------------------------------------- Newton */

/* Solves A x = b for the first m unknowns (A, b set in the workspace). */
static enum cs_status lu_solve(struct cs_orbit_ws *w, size_t m, double *x)
{
  gsl_matrix_view A = gsl_matrix_submatrix(w->A, 0, 0, m, m);
  gsl_vector_view b = gsl_vector_subvector(w->b, 0, m), xv = gsl_vector_subvector(w->x, 0, m);
  gsl_permutation *perm = gsl_permutation_alloc(m);
  if (!perm)
    return CS_FAIL(CS_ERR_NOMEM);
  int sign;
  double amax = 0;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < m; j++)
      amax = fmax(amax, fabs(gsl_matrix_get(&A.matrix, i, j)));
  enum cs_status st = CS_OK;
  if (gsl_linalg_LU_decomp(&A.matrix, perm, &sign) != GSL_SUCCESS)
    st = CS_ERR_SINGULAR;
  for (size_t i = 0; i < m && st == CS_OK; i++)
    if (!(fabs(gsl_matrix_get(&A.matrix, i, i)) > SINGULAR_REL * amax))
      st = CS_ERR_SINGULAR;
  if (st == CS_OK && gsl_linalg_LU_solve(&A.matrix, perm, &b.vector, &xv.vector) != GSL_SUCCESS)
    st = CS_ERR_SINGULAR;
  for (size_t i = 0; i < m && st == CS_OK; i++)
    x[i] = gsl_vector_get(&xv.vector, i);
  gsl_permutation_free(perm);
  return st;
}

/* phi_T(y0) - y0 with whole turns of angle states taken out. */
static void residual(const struct cs_orbit_ws *w, const double *y0, const double *yT, double *r,
                     double *winding)
{
  for (size_t i = 0; i < w->n; i++) {
    double d = yT[i] - y0[i], k = 0;
    if (w->m->state[i].angle)
      k = round(d / (2 * M_PI));
    r[i] = d - 2 * M_PI * k;
    if (winding)
      winding[i] = k;
  }
}

/* max over the unknowns of |d_i| / (rtol |x_i| + atol_i) */
static double tol_units(const struct cs_orbit_opts *o, size_t n, const double *x, const double *d)
{
  double u = 0;
  for (size_t i = 0; i < n; i++)
    u = fmax(u, fabs(d[i]) / (o->solver.rtol * fabs(x[i]) + atol_of(o, i)));
  return u;
}

enum cs_status cs_orbit_next_crossing(struct cs_orbit_ws *w, const struct cs_orbit_opts *o,
                                      double t0, double *y, double tmax)
{
  struct sec_root r;
  double t = t0;
  enum cs_status st = flow_start(w, o, &r, t0, y);
  if (st == CS_OK)
    st = flow_crossing(w->flow, t0 + tmax, 1, &t, y);
  return st;
}

int cs_orbit_crossing_sign(struct cs_orbit_ws *w, const struct cs_orbit_opts *o, double t,
                           const double *y)
{
  int dir = cs_orbit_ws_autonomous(w) ? section_direction(w, o) : 0;
  double s, grad[N_MAX], f[N_MAX], ds = 0;
  if (!dir || cs_orbit_section(w, o, t, y, &s, grad, NULL) != CS_OK ||
      w->m->rhs(t, y, f, w->P[0]) != 0)
    return 1;
  for (size_t i = 0; i < w->n; i++)
    ds += grad[i] * f[i];
  return ds * dir < 0 ? -1 : 1;
}

enum cs_status cs_orbit_find(struct cs_orbit_ws *w, const struct cs_orbit_opts *o, double t0,
                             const double *y_guess, double T_guess, struct cs_orbit *out)
{
  size_t n = w->n;
  memset(out, 0, sizeof *out);
  out->n = n;
  out->p = w->param >= 0 ? w->p : NAN;
  out->autonomous = cs_orbit_ws_autonomous(w);
  out->t0 = t0;
  out->trivial_re = out->trivial_im = out->trivial_err = NAN;
  memcpy(out->y, y_guess, n * sizeof *y_guess);
  int k = o->returns > 0 ? o->returns : 1;
  out->period = out->autonomous ? T_guess : k * forcing_period(w, w->P[0]);
  int idx, der;
  if (out->autonomous &&
      (o->section.kind == CS_SECTION_STROBOSCOPIC || section_var(w, o, &idx, &der) != CS_OK)) {
    cs_error_fill(
        out->note, sizeof out->note,
        "an autonomous model needs a hyperplane section through a state or derived output");
    return CS_ERR_UNSUPPORTED;
  }
  if (!(out->period > 0)) {
    cs_error_fill(out->note, sizeof out->note, "the period guess %g is not positive", out->period);
    return CS_ERR_ARG;
  }
  struct cs_orbit_shot shot;
  double r[N_MAX + 1], d[N_MAX + 1], x[N_MAX + 1];
  size_t nu = n + (size_t)out->autonomous;
  int moved = 0;
  enum cs_status st = CS_OK;
  for (int it = 0;; it++) {
    if (it >= o->max_iter) {
      cs_error_fill(
          out->note, sizeof out->note,
          "Newton did not converge in %d iterations (last correction %.3g tolerance units)",
          o->max_iter, out->correction);
      return CS_ERR_NOCONV;
    }
    st = cs_orbit_shoot(w, o, t0, out->y, out->period, 0, &shot);
    out->iterations++;
    out->steps += shot.steps;
    if (st != CS_OK) {
      snprintf(out->note, sizeof out->note, "%s", cs_errmsg());
      return st;
    }
    residual(w, out->y, shot.y, r, out->winding);
    out->residual = tol_units(o, n, out->y, r);
    if (it == 0 && o->max_residual0 > 0 && !(out->residual <= o->max_residual0)) {
      cs_error_fill(out->note, sizeof out->note,
                    "the guess returns %.3g tolerance units away from itself (more than %g): no "
                    "orbit near it",
                    out->residual, o->max_residual0);
      return CS_ERR_NOCONV;
    }
    for (size_t i = 0; i < n; i++) {
      for (size_t j = 0; j < n; j++)
        gsl_matrix_set(w->A, i, j, shot.M[i * n + j] - (i == j));
      gsl_vector_set(w->b, i, -r[i]);
    }
    if (out->autonomous) {
      double s, grad[N_MAX];
      cs_orbit_section(w, o, t0, out->y, &s, grad, NULL);
      for (size_t i = 0; i < n; i++) {
        gsl_matrix_set(w->A, i, n, shot.f[i]);
        gsl_matrix_set(w->A, n, i, grad[i]);
      }
      gsl_matrix_set(w->A, n, n, 0.0);
      gsl_vector_set(w->b, n, -s);
    }
    st = lu_solve(w, nu, d);
    if (st != CS_OK) {
      snprintf(out->note, sizeof out->note,
               "the shooting Jacobian is singular %s %.3g tolerance units from closing (an "
               "equilibrium, a multiplier at 1, or no periodic orbit near the guess: the "
               "transient may have ended on a non-periodic attractor)",
               it == 0 ? "at the guess," : "after Newton steps,", out->residual);
      return st;
    }
    if (out->autonomous && fabs(d[n]) > MAX_DT_FRAC * out->period) {
      double s = MAX_DT_FRAC * out->period / fabs(d[n]);
      for (size_t i = 0; i <= n; i++)
        d[i] *= s;
    }
    memcpy(x, out->y, n * sizeof *x);
    x[n] = out->period;
    out->correction = tol_units(o, n, x, d);
    if (out->autonomous)
      out->correction =
          fmax(out->correction, fabs(d[n]) / (o->solver.rtol * out->period + DBL_MIN));
    for (size_t i = 0; i < n; i++)
      out->y[i] += d[i];
    if (out->autonomous)
      out->period += d[n];
    if (!(out->period > 0)) {
      cs_error_fill(out->note, sizeof out->note, "Newton drove the period to %g", out->period);
      return CS_ERR_NOCONV;
    }
    if (out->correction > o->newton_tol)
      continue;
    /* converged; with a direction, the point must be the crossing in it */
    if (!moved && cs_orbit_crossing_sign(w, o, t0, out->y) < 0) {
      moved = 1;
      st = cs_orbit_next_crossing(w, o, t0, out->y, 1.5 * out->period);
      if (st != CS_OK) {
        snprintf(out->note, sizeof out->note,
                 "the orbit crosses the section only against its direction");
        return st;
      }
      continue;
    }
    break;
  }
  memcpy(out->mono, shot.M, n * n * sizeof *shot.M);
  out->switches = shot.switches;
  memcpy(out->switch_kind, shot.switch_kind, sizeof shot.switch_kind);
  st = cs_orbit_multipliers(w, shot.M, out, 1.0, NULL);
  if (st != CS_OK) {
    snprintf(out->note, sizeof out->note, "the eigenvalue solver failed on the monodromy matrix");
    return st;
  }
  out->converged = 1;
  return CS_OK;
}

/* ------------------------------------------------------- sample, crossings */

enum cs_status cs_orbit_sample(struct cs_orbit_ws *w, const struct cs_orbit_opts *o,
                               const struct cs_orbit *orb, size_t rows, double *table, double *ymin,
                               double *ymax)
{
  char buf[CS_ERROR_LEN], *msg = buf; /* for the helpers, which keep it in cs_errmsg() too */
  const size_t len = sizeof buf;
  const struct cs_model *m = w->m;
  size_t n = w->n, nd = m->derived_fn ? m->n_derived : 0, cols = 1 + n + nd;
  if (rows < 2)
    return failed(msg, len, CS_ERR_ARG, "sample", "at least two rows");
  double y[N_MAX], t = orb->t0;
  memcpy(y, orb->y, n * sizeof *y);
  enum cs_status st =
      cs_flow_reset(w->flow, m, w->P[0], &o->solver, orb->t0, y, 0, NULL, NULL, NULL);
  for (size_t k = 0; k < rows && st == CS_OK; k++) {
    double tk = k + 1 == rows ? orb->t0 + orb->period
                              : orb->t0 + orb->period * (double)k / (double)(rows - 1);
    if (k > 0)
      st = flow_to(w->flow, tk, &t, y);
    if (st != CS_OK)
      break;
    double *row = table + k * cols;
    row[0] = tk;
    memcpy(row + 1, y, n * sizeof *y);
    if (nd && m->derived_fn(tk, y, row + 1 + n, w->P[0]) != 0)
      st = CS_ERR_SOLVER;
    for (size_t i = 0; i < n; i++) {
      if (ymin)
        ymin[i] = k ? fmin(ymin[i], y[i]) : y[i];
      if (ymax)
        ymax[i] = k ? fmax(ymax[i], y[i]) : y[i];
    }
  }
  if (st != CS_OK)
    return failed(msg, len, st, "sample", cs_flow_last_error(w->flow));
  return CS_OK;
}

enum cs_status cs_orbit_graze(struct cs_orbit_ws *w, const struct cs_orbit_opts *o,
                              const struct cs_orbit *orb, size_t samples, double *margin, int *fn)
{
  char buf[CS_ERROR_LEN], *msg = buf; /* for the helpers, which keep it in cs_errmsg() too */
  const size_t len = sizeof buf;
  const struct cs_model *m = w->m;
  size_t nsw = cs_model_switches(m, w->P[0]);
  *margin = NAN;
  *fn = -1;
  if (nsw == 0 || !m->mode_of)
    return CS_OK;
  if (samples < 3 || nsw > 32)
    return failed(msg, len, CS_ERR_ARG, "graze", "at least 3 samples, at most 32 functions");
  double y[N_MAX], t = orb->t0, g[32], prev[32], prev2[32], gmax[32] = {0}, cand[32];
  int mode = -1, count = 0;
  memcpy(y, orb->y, w->n * sizeof *y);
  enum cs_status st =
      cs_flow_reset(w->flow, m, w->P[0], &o->solver, orb->t0, y, 0, NULL, NULL, NULL);
  for (size_t k = 0; k < samples && st == CS_OK; k++) {
    double tk = orb->t0 + orb->period * (double)k / (double)(samples - 1);
    if (k > 0)
      st = flow_to(w->flow, tk, &t, y);
    if (st != CS_OK || m->switch_fn(tk, y, g, w->P[0]) != 0)
      break;
    int md = m->mode_of(w->P[0]);
    if (md != mode) {
      /* a new stretch: the minima of the last one count against its largest |g| */
      for (size_t i = 0; mode >= 0 && i < nsw; i++)
        if (isfinite(cand[i]) && gmax[i] > 0 && !(cand[i] / gmax[i] >= *margin))
          *margin = cand[i] / gmax[i], *fn = (int)i;
      mode = md, count = 0;
      for (size_t i = 0; i < nsw; i++)
        gmax[i] = 0, cand[i] = NAN;
    }
    for (size_t i = 0; i < nsw; i++) {
      gmax[i] = fmax(gmax[i], fabs(g[i]));
      /* an interior local minimum of |g|: the middle of three samples of the stretch */
      if (count >= 2 && fabs(prev[i]) < fabs(prev2[i]) && fabs(prev[i]) <= fabs(g[i]) &&
          !(fabs(prev[i]) >= cand[i]))
        cand[i] = fabs(prev[i]);
      prev2[i] = prev[i], prev[i] = g[i];
    }
    count++;
  }
  for (size_t i = 0; mode >= 0 && i < nsw; i++)
    if (isfinite(cand[i]) && gmax[i] > 0 && !(cand[i] / gmax[i] >= *margin))
      *margin = cand[i] / gmax[i], *fn = (int)i;
  return st == CS_OK ? CS_OK : failed(msg, len, st, "graze", cs_flow_last_error(w->flow));
}
