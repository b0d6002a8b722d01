/* SPDX-License-Identifier: MIT */
/* Equilibria, their eigenvalues, and stability changes along a parameter
 * (see equilibrium.h). Newton: GSL's hybridsj (scaled Powell hybrid with the
 * analytic Jacobian) or hybrids (finite differences). Eigenvalues:
 * gsl_eigen_nonsymm with balancing. Crossings: Brent (gsl_root_fsolver_brent)
 * on max_re(p), or bisection on existence at a fold. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multiroots.h>
#include <gsl/gsl_roots.h>

#include "core/error_private.h"
#include "analysis/equilibrium.h"
#include "core/gsl_quiet.h"
#include "integrate/flow.h"
#include "analysis/equilibrium_private.h"

#define N_MAX CS_EQ_MAX_N
#define STOP_TOL 1e-13  /* iterate until the scaled residual or step is below this */
#define KNOWN_MAX 256   /* solved (p, y) pairs kept for continuation */
#define MARCH_STEPS 400 /* continuation steps per evaluation, at most */
#define MARCH_CUTS 12   /* step halvings per evaluation, at most */
#define ZERO_REL 1e-10  /* |max_re| <= ZERO_REL ||J||_inf counts as zero (round-off) */
#define LOCATE_ITER 300 /* Brent / bisection iterations, at most */

static const char no_eq_note[] =
    "no equilibrium found near the guess (the model may have none at these parameters)";

/* Newton and eigenvalue workspace for one model; params may change between calls. */
struct solver {
  const struct cs_model *m;
  const void *params;
  size_t n;
  gsl_multiroot_fdfsolver *fdf; /* analytic Jacobian */
  gsl_multiroot_fsolver *fs;    /* finite differences (m->jac NULL) */
  gsl_multiroot_function_fdf F_fdf;
  gsl_multiroot_function F_f;
  gsl_vector *x;
  gsl_matrix *A;
  gsl_vector_complex *eval;
  gsl_eigen_nonsymm_workspace *ew;
};

static int eval_rhs(const struct solver *s, const double *y, double *f)
{
  if (s->m->rhs(0.0, y, f, s->params) != 0)
    return -1;
  for (size_t i = 0; i < s->n; i++)
    if (!isfinite(f[i]))
      return -1;
  return 0;
}

/* J row-major at (0, y): the model's, else Richardson-extrapolated central differences. */
static int eval_jac(const struct solver *s, const double *y, double *J)
{
  size_t n = s->n;
  memset(J, 0, n * n * sizeof *J);
  if (s->m->jac) {
    if (s->m->jac(0.0, y, J, s->params) != 0)
      return -1;
  } else {
    double yy[N_MAX], fp[N_MAX], fm[N_MAX];
    memcpy(yy, y, n * sizeof *y);
    for (size_t j = 0; j < n; j++) {
      double h = 2e-4 * fmax(fabs(y[j]), 1e-2);
      for (int r = 0; r < 2; r++) {
        double hr = r ? h / 2 : h, w = r ? 4.0 / 3.0 : -1.0 / 3.0;
        yy[j] = y[j] + hr;
        int rc = eval_rhs(s, yy, fp);
        yy[j] = y[j] - hr;
        rc |= eval_rhs(s, yy, fm);
        yy[j] = y[j];
        if (rc)
          return -1;
        for (size_t i = 0; i < n; i++)
          J[i * n + j] += w * (fp[i] - fm[i]) / (2 * hr);
      }
    }
  }
  for (size_t i = 0; i < n * n; i++)
    if (!isfinite(J[i]))
      return -1;
  return 0;
}

/* Scaled residual r(y) (equilibrium.h) from f and J at y; also ||J||_inf. */
static double scaled_residual(size_t n, const double *y, const double *f, const double *J,
                              double *jnorm)
{
  double r = 0, jn = 0;
  for (size_t i = 0; i < n; i++) {
    double scale = 0, row = 0;
    for (size_t j = 0; j < n; j++) {
      scale += fabs(J[i * n + j]) * fmax(fabs(y[j]), 1.0);
      row += fabs(J[i * n + j]);
    }
    jn = fmax(jn, row);
    if (f[i] != 0)
      r = fmax(r, scale > 0 ? fabs(f[i]) / scale : INFINITY);
  }
  if (jnorm)
    *jnorm = jn;
  return r;
}

static double residual_at(const struct solver *s, const double *y, double *jnorm)
{
  double f[N_MAX], J[N_MAX * N_MAX];
  if (eval_rhs(s, y, f) || eval_jac(s, y, J))
    return NAN;
  return scaled_residual(s->n, y, f, J, jnorm);
}

static void to_array(const gsl_vector *x, double *y)
{
  for (size_t i = 0; i < x->size; i++)
    y[i] = gsl_vector_get(x, i);
}

static int gsl_f(const gsl_vector *x, void *vs, gsl_vector *f)
{
  const struct solver *s = vs;
  double y[N_MAX], fy[N_MAX];
  to_array(x, y);
  if (eval_rhs(s, y, fy))
    return GSL_EBADFUNC;
  for (size_t i = 0; i < s->n; i++)
    gsl_vector_set(f, i, fy[i]);
  return GSL_SUCCESS;
}

static int gsl_df(const gsl_vector *x, void *vs, gsl_matrix *df)
{
  const struct solver *s = vs;
  double y[N_MAX], J[N_MAX * N_MAX];
  to_array(x, y);
  if (eval_jac(s, y, J))
    return GSL_EBADFUNC;
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = 0; j < s->n; j++)
      gsl_matrix_set(df, i, j, J[i * s->n + j]);
  return GSL_SUCCESS;
}

static int gsl_fdf(const gsl_vector *x, void *vs, gsl_vector *f, gsl_matrix *df)
{
  int st = gsl_f(x, vs, f);
  return st ? st : gsl_df(x, vs, df);
}

static void solver_free(struct solver *s)
{
  if (!s)
    return;
  if (s->fdf)
    gsl_multiroot_fdfsolver_free(s->fdf);
  if (s->fs)
    gsl_multiroot_fsolver_free(s->fs);
  if (s->x)
    gsl_vector_free(s->x);
  if (s->A)
    gsl_matrix_free(s->A);
  if (s->eval)
    gsl_vector_complex_free(s->eval);
  if (s->ew)
    gsl_eigen_nonsymm_free(s->ew);
  free(s);
}

static struct solver *solver_create(const struct cs_model *m)
{
  struct solver *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  size_t n = m->n_state;
  s->m = m;
  s->n = n;
  if (m->jac)
    s->fdf = gsl_multiroot_fdfsolver_alloc(gsl_multiroot_fdfsolver_hybridsj, n);
  else
    s->fs = gsl_multiroot_fsolver_alloc(gsl_multiroot_fsolver_hybrids, n);
  s->x = gsl_vector_alloc(n);
  s->A = gsl_matrix_alloc(n, n);
  s->eval = gsl_vector_complex_alloc(n);
  s->ew = gsl_eigen_nonsymm_alloc(n);
  if (!(s->fdf || s->fs) || !s->x || !s->A || !s->eval || !s->ew) {
    solver_free(s);
    return NULL;
  }
  gsl_eigen_nonsymm_params(0, 1, s->ew);
  s->F_fdf = (gsl_multiroot_function_fdf){gsl_f, gsl_df, gsl_fdf, n, s};
  s->F_f = (gsl_multiroot_function){gsl_f, n, s};
  return s;
}

static double wrap_angle(double a)
{
  double w = remainder(a, 2 * M_PI);
  return w <= -M_PI ? w + 2 * M_PI : w;
}

/* Event-driven models: 1 if a switching function is zero (or fails) at (0, y). */
static int on_switching_surface(const struct solver *s, const double *y)
{
  const struct cs_model *m = s->m;
  if (cs_model_switches(m, s->params) == 0)
    return 0;
  double g[CS_FLOW_MAX_ROOTS];
  if (!m->switch_fn || m->n_switch > CS_FLOW_MAX_ROOTS || m->switch_fn(0.0, y, g, s->params) != 0)
    return 1;
  for (size_t k = 0; k < m->n_switch; k++)
    if (!(fabs(g[k]) > CS_EQ_SWITCH_TOL))
      return 1;
  return 0;
}

/* One Newton run from y0: 1 with y, iterations and residual when converged,
 * 2 when it converged onto a switching surface of an event-driven model, 0
 * otherwise. */
static int newton(struct solver *s, const double *y0, double *y, int *iterations, double *res)
{
  size_t n = s->n;
  *iterations = 0;
  *res = NAN;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(y0[i]))
      return 0;
    gsl_vector_set(s->x, i, y0[i]);
  }
  double r = residual_at(s, y0, NULL);
  if (r <= STOP_TOL) {
    memcpy(y, y0, n * sizeof *y);
  } else {
    int st = s->fdf ? gsl_multiroot_fdfsolver_set(s->fdf, &s->F_fdf, s->x)
                    : gsl_multiroot_fsolver_set(s->fs, &s->F_f, s->x);
    if (st != GSL_SUCCESS)
      return 0;
    for (int it = 1; it <= CS_EQ_MAX_ITERATIONS; it++) {
      st = s->fdf ? gsl_multiroot_fdfsolver_iterate(s->fdf) : gsl_multiroot_fsolver_iterate(s->fs);
      *iterations = it;
      const gsl_vector *x = s->fdf ? s->fdf->x : s->fs->x;
      const gsl_vector *dx = s->fdf ? s->fdf->dx : s->fs->dx;
      to_array(x, y);
      if (st != GSL_SUCCESS)
        break; /* no progress or a failed evaluation: judge the best point */
      int small = 1;
      for (size_t j = 0; j < n; j++)
        small &= fabs(gsl_vector_get(dx, j)) <= STOP_TOL * fmax(fabs(y[j]), 1.0);
      if (small || residual_at(s, y, NULL) <= STOP_TOL)
        break;
    }
    r = residual_at(s, y, NULL);
  }
  *res = r;
  if (!(r <= CS_EQ_RESIDUAL_TOL))
    return 0;
  /* angles into (-pi, pi], where f is 2 pi-periodic in them (the wrapped state must pass too) */
  double w[N_MAX];
  int wrapped = 0;
  for (size_t j = 0; j < n; j++) {
    w[j] = s->m->state[j].angle ? wrap_angle(y[j]) : y[j];
    wrapped |= w[j] != y[j];
  }
  if (wrapped) {
    double rw = residual_at(s, w, NULL);
    if (rw <= CS_EQ_RESIDUAL_TOL) {
      memcpy(y, w, n * sizeof *y);
      *res = rw;
    }
  }
  return on_switching_surface(s, y) ? 2 : 1;
}

static void eq_clear(struct cs_equilibrium *e, size_t n)
{
  memset(e, 0, sizeof *e);
  e->n = n;
  e->max_re = NAN;
  e->residual = NAN;
  for (size_t i = 0; i < N_MAX; i++)
    e->re[i] = e->im[i] = NAN;
}

/* Copies the n eigenvalues in eval into re, im, sorted by real part
 * descending, then imaginary part descending (a complex pair: +w first);
 * returns the index in eval of the first. */
static size_t sort_eigenvalues(const gsl_vector_complex *eval, size_t n, double *re, double *im)
{
  size_t idx[N_MAX];
  for (size_t i = 0; i < n; i++) {
    gsl_complex z = gsl_vector_complex_get(eval, i);
    double a = GSL_REAL(z), b = GSL_IMAG(z);
    size_t k = i; /* insertion sort */
    while (k > 0 && (re[k - 1] < a || (re[k - 1] == a && im[k - 1] < b))) {
      re[k] = re[k - 1];
      im[k] = im[k - 1];
      idx[k] = idx[k - 1];
      k--;
    }
    re[k] = a;
    im[k] = b;
    idx[k] = i;
  }
  return idx[0];
}

/* Eigenvalues (sorted) and residual at e->y; ||J||_inf in *jnorm. */
static enum cs_status analyse(struct solver *s, struct cs_equilibrium *e, double *jnorm)
{
  size_t n = s->n;
  double f[N_MAX], J[N_MAX * N_MAX];
  if (jnorm)
    *jnorm = NAN;
  if (eval_rhs(s, e->y, f) || eval_jac(s, e->y, J)) {
    cs_error_fill(e->note, sizeof e->note, "the model's rhs or Jacobian failed at the equilibrium");
    return CS_ERR_NONFINITE;
  }
  e->residual = scaled_residual(n, e->y, f, J, jnorm);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      gsl_matrix_set(s->A, i, j, J[i * n + j]);
  if (gsl_eigen_nonsymm(s->A, s->eval, s->ew) != GSL_SUCCESS) {
    cs_error_fill(e->note, sizeof e->note, "the eigenvalue solver did not converge");
    return CS_ERR_SINGULAR;
  }
  sort_eigenvalues(s->eval, n, e->re, e->im);
  e->max_re = e->re[0];
  e->max_is_complex = e->im[0] != 0;
  return CS_OK;
}

/* Sign of max_re beyond round-off: +1, -1 or 0. */
static int re_sign(const struct cs_equilibrium *e, double jnorm)
{
  double zt = ZERO_REL * (isfinite(jnorm) ? jnorm : 0.0);
  return e->max_re > zt ? 1 : e->max_re < -zt ? -1 : 0;
}

/* Eigenvalue of smallest modulus: its modulus, and whether it is real. */
static double smallest_modulus(const struct cs_equilibrium *e, int *is_real)
{
  double best = INFINITY;
  *is_real = 0;
  for (size_t i = 0; i < e->n; i++) {
    double a = hypot(e->re[i], e->im[i]);
    if (a < best) {
      best = a;
      *is_real = e->im[i] == 0;
    }
  }
  return best;
}

static enum cs_status check_model(const struct cs_model *m, const void *params, char *note,
                                  size_t len)
{
  double T = m->forcing_period ? m->forcing_period(params) : 0.0;
  if (T > 0) {
    cs_error_fill(
        note, len,
        "%s is forced with period %g: no equilibria (fixed points of the stroboscopic map "
        "instead)",
        m->name, T);
    return CS_ERR_UNSUPPORTED;
  }
  return CS_OK;
}

/* Newton from the guess, then the deterministic restarts; analyses what converged. */
static enum cs_status find_with_restarts(struct solver *s, const double *guess,
                                         struct cs_equilibrium *out, double *jnorm)
{
  const struct cs_model *m = s->m;
  size_t n = s->n;
  const double *g = guess ? guess : m->state_default;
  double starts[6][N_MAX];
  for (size_t i = 0; i < n; i++) {
    double d = m->state_default ? m->state_default[i] : 0.0;
    starts[0][i] = g ? g[i] : 0.0;
    starts[1][i] = d;
    starts[2][i] = 0.5 * (starts[0][i] + d);
    starts[3][i] = 0.5 * starts[0][i];
    starts[4][i] = 2.0 * starts[0][i];
    starts[5][i] = 0.0;
  }
  eq_clear(out, n);
  if (jnorm)
    *jnorm = NAN;
  int on_surface = 0;
  for (int k = 0; k < 6; k++) {
    if (k > 0 && memcmp(starts[k], starts[0], n * sizeof(double)) == 0)
      continue;
    double r, y[N_MAX];
    int its, rc = newton(s, starts[k], y, &its, &r);
    if (rc == 1) {
      memcpy(out->y, y, n * sizeof *y);
      out->iterations = its;
      out->found = 1;
      out->start = k;
      return analyse(s, out, jnorm);
    }
    if (k == 0)
      out->residual = r;
    on_surface |= rc == 2;
  }
  memcpy(out->y, starts[0], n * sizeof(double));
  if (on_surface) {
    cs_error_fill(out->note, sizeof out->note,
                  "equilibria found only on a switching surface of the event-driven model (not "
                  "supported)");
    return CS_ERR_NOCONV;
  }
  cs_error_fill(out->note, sizeof out->note, "%s", no_eq_note);
  return CS_ERR_NOCONV;
}

static enum cs_status check_args(const struct cs_model *m, const void *params,
                                 struct cs_equilibrium *out)
{
  if (!out)
    return CS_FAIL(CS_ERR_ARG);
  eq_clear(out, m ? m->n_state : 0);
  if (!m || !params || !m->rhs) {
    cs_error_fill(out->note, sizeof out->note, "missing model or params");
    return CS_ERR_ARG;
  }
  if (m->n_state == 0 || m->n_state > N_MAX) {
    cs_error_fill(out->note, sizeof out->note, "state dimension %zu outside 1..%d", m->n_state,
                  N_MAX);
    return CS_ERR_RANGE;
  }
  return check_model(m, params, out->note, sizeof out->note);
}

enum cs_status cs_equilibrium_find(const struct cs_model *m, const void *params,
                                   const double *guess, struct cs_equilibrium *out)
{
  enum cs_status st = check_args(m, params, out);
  if (st != CS_OK)
    return st;
  if (guess)
    for (size_t i = 0; i < m->n_state; i++)
      if (!isfinite(guess[i])) {
        cs_error_fill(out->note, sizeof out->note, "non-finite guess");
        return CS_ERR_ARG;
      }
  cs_gsl_quiet();
  struct solver *s = solver_create(m);
  if (!s)
    return CS_ERR_NOMEM;
  s->params = params;
  st = find_with_restarts(s, guess, out, NULL);
  solver_free(s);
  return st;
}

enum cs_status cs_equilibrium_eigen(const struct cs_model *m, const void *params, const double *y,
                                    struct cs_equilibrium *out)
{
  enum cs_status st = check_args(m, params, out);
  if (st != CS_OK)
    return st;
  if (!y)
    return CS_FAIL(CS_ERR_ARG);
  cs_gsl_quiet();
  struct solver *s = solver_create(m);
  if (!s)
    return CS_ERR_NOMEM;
  s->params = params;
  memcpy(out->y, y, m->n_state * sizeof *y);
  st = analyse(s, out, NULL);
  solver_free(s);
  return st;
}

/* Eigen-decomposition of the n x n row-major J (not written) with balancing:
 * sorted eigenvalues in re, im and, when vre is given, the eigenvector of
 * re[0] + i im[0] (unit Euclidean norm) in vre, vim. */
static enum cs_status eigen_of(size_t n, const double *J, double *re, double *im, double *vre,
                               double *vim)
{
  double A[N_MAX * N_MAX];
  memcpy(A, J, n * n * sizeof *A);
  gsl_matrix_view Av = gsl_matrix_view_array(A, n, n);
  gsl_eigen_nonsymmv_workspace *w = gsl_eigen_nonsymmv_alloc(n);
  gsl_vector_complex *eval = gsl_vector_complex_alloc(n);
  gsl_matrix_complex *evec = gsl_matrix_complex_alloc(n, n);
  enum cs_status st = CS_ERR_NOMEM;
  if (w && eval && evec) {
    gsl_eigen_nonsymmv_params(1, w);
    st = CS_ERR_SINGULAR;
    if (gsl_eigen_nonsymmv(&Av.matrix, eval, evec, w) == GSL_SUCCESS) {
      size_t j0 = sort_eigenvalues(eval, n, re, im);
      for (size_t i = 0; vre && i < n; i++) {
        gsl_complex z = gsl_matrix_complex_get(evec, i, j0);
        vre[i] = GSL_REAL(z);
        vim[i] = GSL_IMAG(z);
      }
      st = CS_OK;
    }
  }
  if (evec)
    gsl_matrix_complex_free(evec);
  if (eval)
    gsl_vector_complex_free(eval);
  if (w)
    gsl_eigen_nonsymmv_free(w);
  return st;
}

enum cs_status cs_equilibrium_settled(const struct cs_model *m, const void *params, const double *y,
                                      struct cs_equilibrium *out, double *vre, double *vim,
                                      double *re_err)
{
  enum cs_status st = check_args(m, params, out);
  if (re_err)
    *re_err = NAN;
  if (st != CS_OK)
    return st;
  if (!y || !vre || !vim || !re_err)
    return CS_FAIL(CS_ERR_ARG);
  cs_gsl_quiet();
  size_t n = m->n_state;
  const struct solver s = {.m = m, .params = params, .n = n}; /* for eval_rhs, eval_jac */
  double f[N_MAX], J[N_MAX * N_MAX], jnorm;
  memcpy(out->y, y, n * sizeof *y);
  if (eval_rhs(&s, y, f) || eval_jac(&s, y, J)) {
    cs_error_fill(out->note, sizeof out->note, "the model's rhs or Jacobian failed at the state");
    return CS_ERR_NONFINITE;
  }
  out->residual = scaled_residual(n, y, f, J, &jnorm);
  st = eigen_of(n, J, out->re, out->im, vre, vim);
  if (st != CS_OK) {
    cs_error_fill(out->note, sizeof out->note,
                  st == CS_ERR_NOMEM ? "out of memory" : "the eigenvalue solver did not converge");
    return st;
  }
  out->max_re = out->re[0];
  out->max_is_complex = out->im[0] != 0;
  /* The state's distance from the exact equilibrium: one Newton step, J dy =
   * -f. A singular J (a zero eigenvalue: a fold, a continuum of equilibria)
   * leaves the sign undecided. */
  *re_err = INFINITY;
  double A[N_MAX * N_MAX], b[N_MAX], dy[N_MAX], y1[N_MAX], J1[N_MAX * N_MAX], re1[N_MAX],
      im1[N_MAX];
  size_t pdata[N_MAX];
  gsl_permutation perm = {n, pdata};
  memcpy(A, J, n * n * sizeof *A);
  for (size_t i = 0; i < n; i++)
    b[i] = -f[i];
  gsl_matrix_view Av = gsl_matrix_view_array(A, n, n);
  gsl_vector_view bv = gsl_vector_view_array(b, n), xv = gsl_vector_view_array(dy, n);
  int sign;
  if (gsl_linalg_LU_decomp(&Av.matrix, &perm, &sign) != GSL_SUCCESS ||
      gsl_linalg_LU_solve(&Av.matrix, &perm, &bv.vector, &xv.vector) != GSL_SUCCESS)
    return CS_OK;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(dy[i]))
      return CS_OK;
    y1[i] = y[i] + dy[i];
  }
  if (eval_jac(&s, y1, J1) || eigen_of(n, J1, re1, im1, NULL, NULL) != CS_OK)
    return CS_OK;
  /* the step's change estimates the error to first order; twice it covers
   * the second-order rest (Brusselator, tests: a state 1e-3 off gives a
   * change 0.997 times the error) */
  *re_err = ZERO_REL * jnorm + 2.0 * fabs(re1[0] - out->re[0]);
  return CS_OK;
}

/* ------------------------------------------------------- continuation */

/* An equilibrium branch along one parameter: scratch params and the solved points. */
struct branch {
  const struct cs_model *m;
  const void *base;
  const char *param;
  void *scratch;
  int attached;
  struct solver *s;
  size_t n_known, next;
  double kp[KNOWN_MAX];
  double ky[KNOWN_MAX][N_MAX];
  char note[128];
};

static void branch_free(struct branch *b)
{
  if (!b)
    return;
  if (b->attached && b->m->detach)
    b->m->detach(b->scratch);
  free(b->scratch);
  solver_free(b->s);
  free(b);
}

static struct branch *branch_create(const struct cs_model *m, const void *base, const char *param)
{
  struct branch *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  b->m = m;
  b->base = base;
  b->param = param;
  b->scratch = malloc(m->params_size ? m->params_size : 1);
  b->s = solver_create(m);
  if (!b->scratch || !b->s) {
    branch_free(b);
    return NULL;
  }
  b->s->params = b->scratch;
  return b;
}

/* Scratch params = base with param = p, prepared and attached. */
static enum cs_status set_point(struct branch *b, double p)
{
  const struct cs_model *m = b->m;
  if (b->attached && m->detach)
    m->detach(b->scratch);
  b->attached = 0;
  memcpy(b->scratch, b->base, m->params_size);
  enum cs_status st = cs_model_set_param(m, b->scratch, b->param, p);
  if (st != CS_OK) {
    snprintf(b->note, sizeof b->note, "%s = %.17g: %s", b->param, p, cs_strerror(st));
    return st;
  }
  if (m->prepare) {
    st = m->prepare(b->scratch);
    if (st != CS_OK) {
      snprintf(b->note, sizeof b->note, "%s = %.17g: %s", b->param, p, cs_errmsg());
      return st;
    }
  }
  if (m->attach) {
    st = m->attach(b->scratch);
    if (st != CS_OK) {
      snprintf(b->note, sizeof b->note, "%s = %.17g: attach failed: %s", b->param, p,
               cs_strerror(st));
      return st;
    }
    b->attached = 1;
  }
  return check_model(m, b->scratch, b->note, sizeof b->note);
}

static void known_reset(struct branch *b)
{
  b->n_known = b->next = 0;
}

static void known_add(struct branch *b, double p, const double *y)
{
  b->kp[b->next] = p;
  memcpy(b->ky[b->next], y, b->s->n * sizeof *y);
  b->next = (b->next + 1) % KNOWN_MAX;
  if (b->n_known < KNOWN_MAX)
    b->n_known++;
}

/* The two solved points nearest to p (-1 when missing; distinct parameter values). */
static void known_nearest(const struct branch *b, double p, int *i1, int *i2)
{
  *i1 = *i2 = -1;
  for (size_t k = 0; k < b->n_known; k++) {
    double d = fabs(b->kp[k] - p);
    if (*i1 < 0 || d < fabs(b->kp[*i1] - p)) {
      if (*i1 >= 0 && b->kp[*i1] != b->kp[k])
        *i2 = *i1;
      *i1 = (int)k;
    } else if (b->kp[k] != b->kp[*i1] && (*i2 < 0 || d < fabs(b->kp[*i2] - p))) {
      *i2 = (int)k;
    }
  }
}

/* Linear extrapolation through (p1, y1), (p2, y2) to p; angle differences taken modulo 2 pi. */
static void predict(const struct branch *b, double p1, const double *y1, double p2,
                    const double *y2, double p, double *y)
{
  for (size_t j = 0; j < b->s->n; j++) {
    double d = y1[j] - y2[j];
    if (b->m->state[j].angle)
      d = remainder(d, 2 * M_PI);
    y[j] = y1[j] + d * (p - p1) / (p1 - p2);
  }
}

/* Continues the branch from the nearest solved point to p (secant predictor,
 * step halving). CS_OK with eq analysed at p (scratch params then at p),
 * CS_ERR_NOCONV when the branch could not be followed to p, or the status
 * of set_point / analyse. */
static enum cs_status continue_to(struct branch *b, double p, struct cs_equilibrium *eq,
                                  double *jnorm)
{
  size_t n = b->s->n;
  int i1, i2;
  known_nearest(b, p, &i1, &i2);
  eq_clear(eq, n);
  if (i1 < 0) {
    cs_error_fill(eq->note, sizeof eq->note, "no solved point to continue from");
    return CS_ERR_NOCONV;
  }
  double pc = b->kp[i1], yc[N_MAX], pq = 0, yq[N_MAX], y[N_MAX];
  int have_q = i2 >= 0;
  memcpy(yc, b->ky[i1], n * sizeof *yc);
  if (have_q) {
    pq = b->kp[i2];
    memcpy(yq, b->ky[i2], n * sizeof *yq);
  }
  double h = p - pc;
  int cuts = 0, streak = 0;
  for (int step = 0; step < MARCH_STEPS; step++) {
    double pn = fabs(p - pc) <= fabs(h) ? p : pc + h;
    enum cs_status st = set_point(b, pn);
    if (st != CS_OK) {
      snprintf(eq->note, sizeof eq->note, "%s", b->note);
      return st;
    }
    int ok = 0, its = 0;
    double r = NAN, ypred[N_MAX];
    if (pn == pc) {
      ok = newton(b->s, yc, y, &its, &r) == 1;
    } else {
      if (have_q && pq != pc) {
        predict(b, pc, yc, pq, yq, pn, ypred);
        ok = newton(b->s, ypred, y, &its, &r) == 1;
      }
      if (!ok)
        ok = newton(b->s, yc, y, &its, &r) == 1;
    }
    if (ok) {
      known_add(b, pn, y);
      if (pn == p) {
        memcpy(eq->y, y, n * sizeof *y);
        eq->found = 1;
        eq->iterations = its;
        return analyse(b->s, eq, jnorm);
      }
      pq = pc;
      memcpy(yq, yc, n * sizeof *yq);
      have_q = 1;
      pc = pn;
      memcpy(yc, y, n * sizeof *yc);
      if (++streak >= 2 && cuts > 0) {
        h *= 2;
        cuts--;
        streak = 0;
      }
    } else {
      streak = 0;
      if (++cuts > MARCH_CUTS)
        break;
      h /= 2;
    }
  }
  memcpy(eq->y, yc, n * sizeof *yc);
  cs_error_fill(eq->note, sizeof eq->note, "%s = %.10g: %s", b->param, p, no_eq_note);
  return CS_ERR_NOCONV;
}

static void crossing_clear(struct cs_eq_crossing *c, size_t n)
{
  memset(c, 0, sizeof *c);
  c->status = CS_ERR_NOCONV;
  c->kind = CS_EQ_NONE;
  c->p = c->p_lo = c->p_hi = NAN;
  c->omega = NAN;
  eq_clear(&c->eq, n);
}

static void fail_crossing(struct cs_eq_crossing *c, enum cs_status st, const char *note)
{
  c->status = st;
  c->kind = CS_EQ_NONE;
  snprintf(c->note, sizeof c->note, "%s", note);
}

/* The equilibrium exists at pa (ea, in the known list) but not at pb:
 * bisection on existence, then a fold if the smallest eigenvalue is real and
 * tends to zero. */
static void locate_end(struct branch *b, double pa, const struct cs_equilibrium *ea, double pb,
                       double tol, struct cs_eq_crossing *out)
{
  struct cs_equilibrium e, last = *ea;
  double a = pa, z = pb;
  for (int it = 0; it < LOCATE_ITER && fabs(z - a) > tol; it++) {
    double mid = a + 0.5 * (z - a);
    if (mid == a || mid == z)
      break;
    enum cs_status st = continue_to(b, mid, &e, NULL);
    if (st == CS_OK) {
      a = mid;
      last = e;
    } else if (st == CS_ERR_NOCONV) {
      z = mid;
    } else {
      fail_crossing(out, st, e.note);
      return;
    }
  }
  out->p = a;
  out->p_lo = fmin(a, z);
  out->p_hi = fmax(a, z);
  out->eq = last;
  out->branch_ends = 1;
  int real0, real1;
  double lam0 = smallest_modulus(ea, &real0), lam1 = smallest_modulus(&last, &real1);
  double jn = 0;
  for (size_t i = 0; i < last.n; i++)
    jn = fmax(jn, hypot(last.re[i], last.im[i]));
  if (!(real1 && (lam1 <= 0.1 * lam0 || lam1 <= 1e-6 * jn))) {
    char note[128];
    snprintf(note, sizeof note,
             "equilibrium lost near %s = %.10g without a fold (smallest |eigenvalue| %.3g)",
             b->param, a, lam1);
    fail_crossing(out, CS_ERR_NOCONV, note);
    return;
  }
  out->status = CS_OK;
  out->kind = CS_EQ_FOLD;
  out->omega = 0;
  out->stable_side = last.max_re < 0 ? (pa > pb ? 1 : -1) : 0;
}

struct brent_ctx {
  struct branch *b;
  enum cs_status st;
  char note[128];
};

static double brent_fn(double p, void *vc)
{
  struct brent_ctx *c = vc;
  struct cs_equilibrium e;
  enum cs_status st = continue_to(c->b, p, &e, NULL);
  if (st != CS_OK) {
    if (c->st == CS_OK) {
      c->st = st;
      snprintf(c->note, sizeof c->note, "equilibrium lost inside the bracket: %.88s", e.note);
    }
    return NAN;
  }
  return e.max_re;
}

/* max_re has opposite signs at pa and pb, both solved (in the known list). */
static void locate_sign(struct branch *b, double pa, const struct cs_equilibrium *ea, double pb,
                        double tol, struct cs_eq_crossing *out)
{
  double lo = fmin(pa, pb), hi = fmax(pa, pb);
  double re_lo = pa < pb ? ea->max_re : -ea->max_re;
  gsl_root_fsolver *rs = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!rs) {
    fail_crossing(out, CS_ERR_NOMEM, "out of memory");
    return;
  }
  struct brent_ctx c = {b, CS_OK, ""};
  gsl_function F = {brent_fn, &c};
  int st = gsl_root_fsolver_set(rs, &F, lo, hi);
  for (int it = 0; st == GSL_SUCCESS && it < LOCATE_ITER; it++) {
    st = gsl_root_fsolver_iterate(rs);
    lo = gsl_root_fsolver_x_lower(rs);
    hi = gsl_root_fsolver_x_upper(rs);
    if (st == GSL_SUCCESS && gsl_root_test_interval(lo, hi, tol, 0) == GSL_SUCCESS)
      break;
  }
  double root = st == GSL_SUCCESS ? gsl_root_fsolver_root(rs) : NAN;
  gsl_root_fsolver_free(rs);
  if (st != GSL_SUCCESS) {
    fail_crossing(out, c.st != CS_OK ? c.st : CS_ERR_NOCONV,
                  c.st != CS_OK ? c.note : "Brent's method failed on max_re");
    return;
  }
  struct cs_equilibrium e;
  enum cs_status es = continue_to(b, root, &e, NULL);
  if (es != CS_OK) {
    fail_crossing(out, es, e.note);
    return;
  }
  out->p = root;
  out->p_lo = lo;
  out->p_hi = hi;
  out->eq = e;
  out->branch_ends = 0;
  out->kind = e.max_is_complex ? CS_EQ_HOPF : CS_EQ_FOLD;
  out->omega = e.max_is_complex ? fabs(e.im[0]) : 0.0;
  out->stable_side = re_lo < 0 ? -1 : 1;
  out->status = CS_OK;
}

static double default_tol(double pa, double pb, double tol)
{
  return tol > 0 ? tol : 1e-10 * fmax(fmax(fabs(pa), fabs(pb)), fabs(pb - pa));
}

/* Equilibrium at p, from y (newton, then restarts); known list gets it. */
static enum cs_status solve_at(struct branch *b, double p, const double *y,
                               struct cs_equilibrium *e, double *jnorm)
{
  enum cs_status st = set_point(b, p);
  if (st != CS_OK) {
    eq_clear(e, b->s->n);
    snprintf(e->note, sizeof e->note, "%s", b->note);
    return st;
  }
  st = find_with_restarts(b->s, y, e, jnorm);
  if (e->found)
    known_add(b, p, e->y);
  return st;
}

static enum cs_status check_branch_args(const struct cs_model *m, const void *base,
                                        const char *param, char *note, size_t len)
{
  if (!m || !base || !param || !m->rhs) {
    cs_error_fill(note, len, "missing model, params or parameter name");
    return CS_ERR_ARG;
  }
  if (m->n_state == 0 || m->n_state > N_MAX) {
    cs_error_fill(note, len, "state dimension %zu outside 1..%d", m->n_state, N_MAX);
    return CS_ERR_RANGE;
  }
  if (cs_model_param_index(m, param) < 0) {
    cs_error_fill(note, len, "%s: no such parameter of %s", param, m->name);
    return CS_ERR_NOT_FOUND;
  }
  return CS_OK;
}

/* Locates between (pa, ea) and (pb, eb) after their signs / existence were found. */
static void locate(struct branch *b, double pa, const struct cs_equilibrium *ea, double pb,
                   const struct cs_equilibrium *eb, double tol, struct cs_eq_crossing *out)
{
  known_reset(b);
  if (ea->found)
    known_add(b, pa, ea->y);
  if (eb->found)
    known_add(b, pb, eb->y);
  if (ea->found && eb->found)
    locate_sign(b, pa, ea, pb, tol, out);
  else if (ea->found)
    locate_end(b, pa, ea, pb, tol, out);
  else
    locate_end(b, pb, eb, pa, tol, out);
}

enum cs_status cs_equilibrium_crossing(const struct cs_model *m, const void *base_params,
                                       const char *param, double p_a, double p_b, const double *y_a,
                                       double tol, struct cs_eq_crossing *out)
{
  if (!out)
    return CS_FAIL(CS_ERR_ARG);
  crossing_clear(out, m ? m->n_state : 0);
  char note[128] = "";
  enum cs_status st = check_branch_args(m, base_params, param, note, sizeof note);
  if (st == CS_OK && (!isfinite(p_a) || !isfinite(p_b) || p_a == p_b)) {
    snprintf(note, sizeof note, "the bracket [%g, %g] is empty or not finite", p_a, p_b);
    st = CS_ERR_ARG;
  }
  if (st != CS_OK) {
    fail_crossing(out, st, note);
    return st;
  }
  cs_gsl_quiet();
  struct branch *b = branch_create(m, base_params, param);
  if (!b) {
    fail_crossing(out, CS_ERR_NOMEM, "out of memory");
    return CS_FAIL(CS_ERR_NOMEM);
  }
  tol = default_tol(p_a, p_b, tol);
  struct cs_equilibrium ea, eb;
  double jna = NAN, jnb = NAN;
  eq_clear(&eb, m->n_state);
  st = solve_at(b, p_a, y_a, &ea, &jna);
  if (st == CS_OK)
    st = continue_to(b, p_b, &eb, &jnb);
  else if (st == CS_ERR_NOCONV) /* nothing at p_a: perhaps the branch exists at p_b only */
    st = solve_at(b, p_b, y_a, &eb, &jnb);
  else
    snprintf(eb.note, sizeof eb.note, "%s", ea.note);
  if (st != CS_OK && st != CS_ERR_NOCONV) {
    fail_crossing(out, st, eb.note);
  } else if (!ea.found && !eb.found) {
    snprintf(note, sizeof note, "no equilibrium at %s = %g nor at %g", param, p_a, p_b);
    fail_crossing(out, CS_ERR_NOCONV, note);
  } else if (ea.found && eb.found && !(re_sign(&ea, jna) * re_sign(&eb, jnb) < 0)) {
    snprintf(note, sizeof note, "max_re does not change sign: %.6g at %s = %g, %.6g at %g",
             ea.max_re, param, p_a, eb.max_re, p_b);
    fail_crossing(out, CS_ERR_RANGE, note);
  } else {
    locate(b, p_a, &ea, p_b, &eb, tol, out);
  }
  branch_free(b);
  return out->status;
}

enum cs_status cs_equilibrium_scan(const struct cs_model *m, const void *base_params,
                                   const char *param, const double *values, size_t npoints,
                                   const double *guess, double tol, struct cs_equilibrium *results,
                                   struct cs_eq_crossing *crossings, size_t max_crossings,
                                   size_t *n_crossings)
{
  char note[128] = "";
  if (!n_crossings || !values || npoints == 0 || (max_crossings && !crossings))
    return CS_FAIL(CS_ERR_ARG);
  *n_crossings = 0;
  enum cs_status st = check_branch_args(m, base_params, param, note, sizeof note);
  if (st != CS_OK)
    return st;
  int dir = 0;
  for (size_t k = 0; k < npoints; k++) {
    if (!isfinite(values[k]))
      return CS_FAIL(CS_ERR_ARG);
    if (k > 0) {
      int d = values[k] > values[k - 1] ? 1 : values[k] < values[k - 1] ? -1 : 0;
      if (d == 0 || (dir && d != dir))
        return CS_FAIL(CS_ERR_ARG);
      dir = d;
    }
  }
  if (results)
    for (size_t k = 0; k < npoints; k++)
      eq_clear(&results[k], m->n_state);
  cs_gsl_quiet();
  struct branch *b = branch_create(m, base_params, param);
  if (!b)
    return CS_FAIL(CS_ERR_NOMEM);
  struct cs_equilibrium prev, cur, signed_eq;
  double p_signed = NAN;
  int sign_prev = 0, prev_found = 0;
  eq_clear(&prev, m->n_state);
  for (size_t k = 0; k < npoints; k++) {
    double p = values[k], jn = NAN;
    if (prev_found) {
      st = continue_to(b, p, &cur, &jn); /* the known list holds this branch */
    } else {
      known_reset(b);
      st = solve_at(b, p, guess, &cur, &jn);
    }
    struct cs_eq_crossing c;
    int located = 0;
    if (st == CS_ERR_NOCONV && prev_found) {
      /* the branch ends between values[k-1] and p (a lost branch that is no fold is not
       * reported); then perhaps another branch exists at p */
      crossing_clear(&c, m->n_state);
      locate(b, values[k - 1], &prev, p, &cur, default_tol(values[k - 1], p, tol), &c);
      located = c.status != CS_ERR_NOCONV;
      known_reset(b);
      st = solve_at(b, p, guess, &cur, &jn);
    } else if (st == CS_OK && !prev_found && k > 0) {
      /* a branch begins between values[k-1] and p */
      struct cs_equilibrium here = cur;
      crossing_clear(&c, m->n_state);
      locate(b, p, &here, values[k - 1], &prev, default_tol(values[k - 1], p, tol), &c);
      located = c.status != CS_ERR_NOCONV;
    }
    if (st != CS_OK && st != CS_ERR_NOCONV) {
      if (results)
        results[k] = cur;
      break;
    }
    st = CS_OK;
    if (located) {
      if (*n_crossings < max_crossings)
        crossings[*n_crossings] = c;
      (*n_crossings)++;
      sign_prev = 0;
    }
    if (cur.found) {
      int sg = re_sign(&cur, jn);
      if (sg != 0 && sign_prev != 0 && sg != sign_prev) {
        crossing_clear(&c, m->n_state);
        locate(b, p_signed, &signed_eq, p, &cur, default_tol(p_signed, p, tol), &c);
        if (*n_crossings < max_crossings)
          crossings[*n_crossings] = c;
        (*n_crossings)++;
      }
      if (sg != 0) {
        sign_prev = sg;
        signed_eq = cur;
        p_signed = p;
      }
    } else {
      sign_prev = 0;
    }
    if (results)
      results[k] = cur;
    prev = cur;
    prev_found = cur.found;
  }
  branch_free(b);
  return st;
}
