/* SPDX-License-Identifier: MIT */
/* Pseudo-arclength continuation of equilibria and cycles (see
 * continuation.h). The shooting, the monodromy matrix with its parameter
 * column and the multipliers come from analysis/orbit.h; this file adds the
 * bordered Newton corrector, the tangent, step control, test functions,
 * location of special points and branch switching. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>

#include "core/error_private.h"
#include "analysis/continuation.h"
#include "analysis/equilibrium.h"
#include "analysis/normal_form.h"
#include "core/gsl_quiet.h"
#include "analysis/orbit_private.h"
#include "analysis/continuation_private.h"

#define N_MAX CS_BRANCH_MAX_N
#define NX_MAX (N_MAX + 2)
#define MAX_TURN_COS 0.866    /* a step may turn the tangent by 30 degrees at most */
#define MAX_PERIOD_CHANGE 0.5 /* ... and change the period by half at most */
#define GROW 1.5              /* step growth after an easy step */
#define SHRINK 0.7            /* step reduction after a hard one */
#define EASY_ITER 3           /* corrector iterations of an easy step */
#define HARD_ITER 5           /* ... of a hard one */
#define LOCATE_ITER 60        /* trials per special point */
#define SAMPLE_ROWS 101       /* samples of one period for the state ranges */
#define SINGULAR_REL 1e-14    /* LU pivot below this times the largest entry: singular */
#define FOLD_NOISE 1e4        /* |t_p| below this times rtol on both sides: no fold */
#define COLLAPSE 0.05      /* a cycle below this fraction of its largest size: at an equilibrium */
#define HOPF_NEAR 0.25     /* ... below this a flipped crossing means a Hopf point passed */
#define GRAZE_SAMPLES 2001 /* samples of a period for the grazing margin */
#define GRAZE_NEAR 1e-2    /* a margin below this at a failed end: grazing */
#define UNIT_TOL 1e-3      /* a located Neimark-Sacker pair within this of |m| = 1 */
#define CHORD_ITER 6       /* chord (Broyden) corrector iterations before full Newton */
#define CHORD_RATE 0.5     /* ... and full Newton once a correction shrinks less than this */

static const char *const special_names[] = {
#define CS_SPECIAL_NAME(id, name) name,
    CS_SPECIAL_LIST(CS_SPECIAL_NAME)
#undef CS_SPECIAL_NAME
};

const char *cs_special_name(enum cs_special_kind k)
{
  return (int)k >= 0 && k < CS_SPECIAL_COUNT ? special_names[k] : "unknown";
}

struct cs_continue_spec cs_continue_spec_default(void)
{
  struct cs_continue_spec s;
  memset(&s, 0, sizeof s);
  s.direction = 1;
  s.p_min = -INFINITY, s.p_max = INFINITY;
  s.ds = 0.01, s.ds_min = 1e-8, s.ds_max = 0.2;
  s.max_points = 200;
  s.max_iter = 8;
  s.locate = 1;
  s.hopf_amplitude = 1e-3;
  s.orbit = cs_orbit_opts_default();
  return s;
}

void cs_branch_free(struct cs_branch *b)
{
  if (!b)
    return;
  free(b->points), free(b->special);
  memset(b, 0, sizeof *b);
}

static int stable_point(const struct cs_branch_point *q)
{
  return q->n_unstable == 0 && q->n_marginal == 0;
}

size_t cs_branch_stable_ranges(const struct cs_branch *b, struct cs_param_range *out, size_t max)
{
  size_t i = 0, n = 0;
  while (i < b->n_points) {
    while (i < b->n_points && !stable_point(&b->points[i]))
      i++;
    if (i >= b->n_points)
      break;
    size_t j = i;
    while (j + 1 < b->n_points && stable_point(&b->points[j + 1]) &&
           b->points[j + 1].segment == b->points[i].segment)
      j++;
    if (j == i) {
      i++;
      continue;
    }
    double lo = b->points[i].p, hi = b->points[i].p;
    for (size_t k = i; k <= j; k++)
      lo = fmin(lo, b->points[k].p), hi = fmax(hi, b->points[k].p);
    for (size_t k = 0; k < b->n_special; k++) {
      const struct cs_special *sp = &b->special[k];
      if (sp->kind != CS_SPECIAL_END && sp->kind != CS_SPECIAL_BRANCH_SWITCH &&
          (sp->after + 1 == i || sp->after == j))
        lo = fmin(lo, sp->pt.p), hi = fmax(hi, sp->pt.p);
    }
    if (n < max)
      out[n] = (struct cs_param_range){lo, hi};
    n++;
    i = j + 1;
  }
  return n;
}

/* A solved point and what its last evaluation gave. */
struct sol {
  double X[NX_MAX];
  double tu[NX_MAX];           /* tangent dX/ds (unit in the scaled norm of its step) */
  double M[N_MAX * N_MAX];     /* cycles: monodromy matrix; equilibria: Jacobian */
  struct cs_orbit orb;         /* cycles: multipliers */
  double re[N_MAX], im[N_MAX]; /* equilibria: eigenvalues by decreasing real part */
  int n_unstable;
  size_t switches;
  int kinds[CS_ORBIT_MAX_SWITCHES];
  int iterations; /* corrector iterations: chord and Newton */
  int effort;     /* for the step control: Newton's, and half the chord's (linear convergence) */
  double ymin[N_MAX], ymax[N_MAX];
  double graze;  /* cs_orbit_graze's margin (event-driven cycles), else NAN */
  double psi[3]; /* test functions: fold, pd / hopf, ns */
};

enum { PSI_FOLD, PSI_PD, PSI_NS, PSI_HOPF = PSI_PD };

struct cont {
  struct cs_orbit_ws *w;
  struct cs_continue_spec sp;
  const struct cs_model *m;
  enum cs_branch_kind kind;
  int autonomous;
  size_t n, nx;
  int iT, ip;  /* indices of T (-1: none) and p in X */
  int returns; /* k */
  double t0;   /* cycles: start time */
  double sigma[NX_MAX];
  int hybrid;
  int segment;
  struct cs_branch *b;
  gsl_matrix *A;
  gsl_permutation *perm;
  gsl_vector *rhs, *sol;
  gsl_matrix *E;
  gsl_vector_complex *eval;
  gsl_matrix_complex *evec;
  gsl_eigen_nonsymmv_workspace *ew;
  double G[NX_MAX], GX[NX_MAX * NX_MAX];
  /* cycles: G_X of the last converged point, for the chord corrector */
  double GXref[NX_MAX * NX_MAX];
  int have_ref;
  char msg[512];
};

/* ------------------------------------------------------------- helpers */

static double atol_of(const struct cont *c, size_t i)
{
  const struct cs_integrator_opts *o = &c->sp.orbit.solver;
  return o->atol_vec ? o->atol_vec[i] : o->atol;
}

static double floor_of(const struct cont *c, size_t i)
{
  double rtol = c->sp.orbit.solver.rtol;
  return rtol > 0 ? atol_of(c, i) / rtol : fmax(atol_of(c, i), 1e-300);
}

static double pval(const struct cont *c, const double *X)
{
  return X[c->ip];
}

/* the scaled unit tangent of a stored tangent (dX/ds) in the current scales */
static void hat(const struct cont *c, const double *tu, double *th)
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

/* The continuation's own copy of a failure's reason (c->msg), which later
 * calls of the error channel would overwrite. */
static enum cs_status keep_reason(struct cont *c, enum cs_status st)
{
  if (st != CS_OK)
    snprintf(c->msg, sizeof c->msg, "%s", cs_errmsg());
  return st;
}

static enum cs_status set_p(struct cont *c, double p)
{
  return keep_reason(c, cs_orbit_ws_set_param(c->w, p));
}

static double forced_period(struct cont *c)
{
  return c->returns * c->m->forcing_period(cs_orbit_ws_params(c->w));
}

/* G and G_X ((nx - 1) x nx, row-major) at X; s keeps the evaluation's data.
 * plain (cycles): G alone, by a shooting without the variational equations
 * (G_X and s untouched). */
static enum cs_status eval(struct cont *c, const double *X, struct sol *s, int plain)
{
  const struct cs_model *m = c->m;
  size_t n = c->n, nx = c->nx;
  enum cs_status st = set_p(c, pval(c, X));
  if (st != CS_OK)
    return st;
  const void *P = cs_orbit_ws_params(c->w);
  if (!plain) {
    memset(c->GX, 0, sizeof c->GX);
    c->b->shootings++;
  }
  if (c->kind == CS_BRANCH_EQUILIBRIUM) {
    double f[N_MAX], fp[N_MAX];
    int rc = m->rhs(0.0, X, f, P);
    memset(s->M, 0, n * n * sizeof *s->M);
    if (!rc)
      rc = m->jac ? m->jac(0.0, X, s->M, P) : -1;
    if (rc || cs_orbit_rhs_dp(c->w, 0.0, X, fp) != CS_OK) {
      cs_error_fill(c->msg, sizeof c->msg,
                    "the right-hand side or its derivatives failed at p = %.17g (or the model has "
                    "no analytic Jacobian)",
                    pval(c, X));
      return CS_ERR_SOLVER;
    }
    for (size_t i = 0; i < n; i++) {
      c->G[i] = f[i];
      for (size_t j = 0; j < n; j++)
        c->GX[i * nx + j] = s->M[i * n + j];
      c->GX[i * nx + c->ip] = fp[i];
    }
    return CS_OK;
  }
  double T = c->autonomous ? X[c->iT] : forced_period(c);
  if (!(T > 0)) {
    cs_error_fill(c->msg, sizeof c->msg, "the period became %g", T);
    return CS_ERR_NOCONV;
  }
  struct cs_orbit_shot shot;
  st = keep_reason(c, plain ? cs_orbit_shoot_state(c->w, &c->sp.orbit, c->t0, X, T, &shot)
                            : cs_orbit_shoot(c->w, &c->sp.orbit, c->t0, X, T, 1, &shot));
  if (st != CS_OK)
    return st;
  if (plain) {
    /*PLAINSHOT*/
    for (size_t i = 0; i < n; i++) {
      double d = shot.y[i] - X[i];
      if (m->state[i].angle)
        d -= 2 * M_PI * round(d / (2 * M_PI));
      c->G[i] = d;
    }
    if (c->autonomous) {
      double sv;
      st = cs_orbit_section(c->w, &c->sp.orbit, c->t0, X, &sv, NULL, NULL);
      c->G[n] = sv;
    }
    return st;
  }
  /* forced: T = k Tf(p), phi moves with the end time too */
  double dTdp = c->autonomous ? 0.0 : c->returns * cs_orbit_forcing_period_dp(c->w);
  for (size_t i = 0; i < n; i++) {
    double d = shot.y[i] - X[i];
    if (m->state[i].angle)
      d -= 2 * M_PI * round(d / (2 * M_PI));
    c->G[i] = d;
    for (size_t j = 0; j < n; j++)
      c->GX[i * nx + j] = shot.M[i * n + j] - (i == j);
    c->GX[i * nx + c->ip] = shot.yp[i] + shot.f[i] * dTdp;
    if (c->autonomous)
      c->GX[i * nx + c->iT] = shot.f[i];
  }
  if (c->autonomous) {
    double sv, grad[N_MAX], s_p;
    st = cs_orbit_section(c->w, &c->sp.orbit, c->t0, X, &sv, grad, &s_p);
    if (st != CS_OK)
      return st;
    c->G[n] = sv;
    for (size_t j = 0; j < n; j++)
      c->GX[n * nx + j] = grad[j];
    c->GX[n * nx + c->ip] = s_p;
  }
  memcpy(s->M, shot.M, n * n * sizeof *s->M);
  s->switches = shot.switches;
  memcpy(s->kinds, shot.switch_kind, sizeof s->kinds);
  return CS_OK;
}

/* LU of the bordered matrix in c->A (nx x nx); 0 if singular. */
static int lu(struct cont *c)
{
  gsl_matrix_view A = gsl_matrix_submatrix(c->A, 0, 0, c->nx, c->nx);
  double amax = 0;
  for (size_t i = 0; i < c->nx; i++)
    for (size_t j = 0; j < c->nx; j++)
      amax = fmax(amax, fabs(gsl_matrix_get(&A.matrix, i, j)));
  int sign;
  gsl_permutation_init(c->perm);
  if (gsl_linalg_LU_decomp(&A.matrix, c->perm, &sign) != GSL_SUCCESS)
    return 0;
  for (size_t i = 0; i < c->nx; i++)
    if (!(fabs(gsl_matrix_get(&A.matrix, i, i)) > SINGULAR_REL * amax))
      return 0;
  return 1;
}

static void lu_solve(struct cont *c, const double *b, double *x)
{
  gsl_matrix_view A = gsl_matrix_submatrix(c->A, 0, 0, c->nx, c->nx);
  gsl_vector_view bv = gsl_vector_subvector(c->rhs, 0, c->nx),
                  xv = gsl_vector_subvector(c->sol, 0, c->nx);
  for (size_t i = 0; i < c->nx; i++)
    gsl_vector_set(&bv.vector, i, b[i]);
  gsl_linalg_LU_solve(&A.matrix, c->perm, &bv.vector, &xv.vector);
  for (size_t i = 0; i < c->nx; i++)
    x[i] = gsl_vector_get(&xv.vector, i);
}

/* A = [G_X sigma; last] with the last row given in scaled coordinates. */
static void bordered(struct cont *c, const double *last)
{
  size_t nx = c->nx;
  for (size_t i = 0; i + 1 < nx; i++)
    for (size_t j = 0; j < nx; j++)
      gsl_matrix_set(c->A, i, j, c->GX[i * nx + j] * c->sigma[j]);
  for (size_t j = 0; j < nx; j++)
    gsl_matrix_set(c->A, nx - 1, j, last[j]);
}

/* The correction in solver tolerance units. */
static double tol_units(const struct cont *c, const double *X, const double *d)
{
  double rtol = c->sp.orbit.solver.rtol, u = 0;
  for (size_t i = 0; i < c->n; i++)
    u = fmax(u, fabs(d[i]) / (rtol * fabs(X[i]) + atol_of(c, i)));
  if (c->iT >= 0)
    u = fmax(u, fabs(d[c->iT]) / (rtol * fabs(X[c->iT]) + DBL_MIN));
  u = fmax(u, fabs(d[c->ip]) / (rtol * (fabs(X[c->ip]) + c->sigma[c->ip]) + DBL_MIN));
  return u;
}

/* The last row of the bordered system and its residual at X (see correct). */
static double constraint(const struct cont *c, const double *X, const double *Xk, const double *tk,
                         double ds, int fixp, double p_target, double *last)
{
  size_t nx = c->nx;
  if (fixp) {
    for (size_t j = 0; j < nx; j++)
      last[j] = (int)j == c->ip;
    return (X[c->ip] - p_target) / c->sigma[c->ip];
  }
  memcpy(last, tk, nx * sizeof *last);
  double con = -ds;
  for (size_t j = 0; j < nx; j++)
    con += tk[j] * (X[j] - Xk[j]) / c->sigma[j];
  return con;
}

/* Cycles: the chord corrector before Newton. Shootings without the
 * variational equations (n instead of n (n + 2) equations, about a sixth of
 * the work) against the Jacobian of the last converged point, improved by
 * Broyden's rank-one update after each; stops once a correction is within
 * the Newton tolerance, or as soon as it converges slowly (then Newton takes
 * over from the point reached). Newton's first iteration, with the
 * monodromy matrix that the point needs anyway (multipliers, tangent, test
 * functions), checks the result. Returns the iterations taken (X updated). */
static int chord_iterations(struct cont *c, double *X, const double *Xk, const double *tk,
                            double ds, int fixp, double p_target)
{
  size_t nx = c->nx;
  if (c->kind != CS_BRANCH_CYCLE || !c->have_ref || c->hybrid)
    return 0;
  double B[NX_MAX * NX_MAX], last[NX_MAX], b[NX_MAX], d[NX_MAX], dprev[NX_MAX], prev = INFINITY;
  for (size_t i = 0; i + 1 < nx; i++)
    for (size_t j = 0; j < nx; j++)
      B[i * nx + j] = c->GXref[i * nx + j] * c->sigma[j];
  int it;
  for (it = 0; it < CHORD_ITER; it++) {
    if (eval(c, X, NULL, 1) != CS_OK)
      break;
    c->b->newton_iterations++;
    if (it > 0) {
      /* Broyden: B += G dx^T / dx.dx (B dx = -G_old by construction) */
      double dd = 0;
      for (size_t j = 0; j < nx; j++)
        dd += dprev[j] * dprev[j];
      for (size_t i = 0; dd > 0 && i + 1 < nx; i++)
        for (size_t j = 0; j < nx; j++)
          B[i * nx + j] += c->G[i] * dprev[j] / dd;
    }
    double con = constraint(c, X, Xk, tk, ds, fixp, p_target, last);
    for (size_t i = 0; i + 1 < nx; i++)
      for (size_t j = 0; j < nx; j++)
        gsl_matrix_set(c->A, i, j, B[i * nx + j]);
    for (size_t j = 0; j < nx; j++)
      gsl_matrix_set(c->A, nx - 1, j, last[j]);
    if (!lu(c))
      break;
    for (size_t i = 0; i + 1 < nx; i++)
      b[i] = -c->G[i];
    b[nx - 1] = -con;
    lu_solve(c, b, dprev);
    for (size_t j = 0; j < nx; j++)
      d[j] = dprev[j] * c->sigma[j];
    double u = tol_units(c, X, d);
    if (!(u < CHORD_RATE * prev) && it > 0)
      break; /* slow (the step not taken): Newton from here */
    for (size_t j = 0; j < nx; j++)
      X[j] += d[j];
    prev = u;
    if (u <= c->sp.orbit.newton_tol) {
      it++;
      break;
    }
  }
  return it;
}

/* Newton on G = 0 with one more equation: the arclength t_k . (X^ - X^_k) =
 * ds (fixp = 0) or p = p_target (fixp = 1). X holds the predictor and
 * receives the solution; s the data of the last evaluation and the tangent
 * (oriented by t_k; none with fixp and t_k NULL). */
static enum cs_status correct(struct cont *c, double *X, const double *Xk, const double *tk,
                              double ds, int fixp, double p_target, struct sol *s)
{
  size_t nx = c->nx;
  double last[NX_MAX], b[NX_MAX], d[NX_MAX], prev = INFINITY;
  int chord = chord_iterations(c, X, Xk, tk, ds, fixp, p_target);
  for (int it = 0; it < c->sp.max_iter; it++) {
    enum cs_status st = eval(c, X, s, 0);
    c->b->newton_iterations++;
    if (st != CS_OK)
      return st;
    double con = constraint(c, X, Xk, tk, ds, fixp, p_target, last);
    bordered(c, last);
    if (!lu(c)) {
      cs_error_fill(c->msg, sizeof c->msg, "singular bordered Jacobian at p = %.10g", pval(c, X));
      return CS_ERR_SINGULAR;
    }
    for (size_t i = 0; i + 1 < nx; i++)
      b[i] = -c->G[i];
    b[nx - 1] = -con;
    lu_solve(c, b, d);
    for (size_t j = 0; j < nx; j++)
      d[j] *= c->sigma[j];
    double u = tol_units(c, X, d);
    for (size_t j = 0; j < nx; j++)
      X[j] += d[j];
    s->iterations = chord + it + 1;
    s->effort = it + 1 + (chord + 1) / 2;
    if (u <= c->sp.orbit.newton_tol) {
      memcpy(s->X, X, nx * sizeof *X);
      if (c->kind == CS_BRANCH_CYCLE) {
        memcpy(c->GXref, c->GX, sizeof c->GX);
        c->have_ref = 1;
      }
      if (!tk) {
        memset(s->tu, 0, nx * sizeof *s->tu);
        return CS_OK;
      }
      /* the tangent: G_X t = 0 with the step's direction row (= 1) */
      if (fixp) {
        bordered(c, tk);
        if (!lu(c)) {
          cs_error_fill(c->msg, sizeof c->msg, "singular bordered Jacobian at p = %.10g", X[c->ip]);
          return CS_ERR_SINGULAR;
        }
      }
      double e[NX_MAX] = {0}, z[NX_MAX];
      e[nx - 1] = 1.0;
      lu_solve(c, e, z);
      double norm = 0;
      for (size_t j = 0; j < nx; j++)
        norm += z[j] * z[j];
      norm = sqrt(norm);
      for (size_t j = 0; j < nx; j++)
        s->tu[j] = z[j] / norm * c->sigma[j];
      return CS_OK;
    }
    if (it > 1 && u > 2 * prev) {
      cs_error_fill(c->msg, sizeof c->msg, "Newton diverges (correction %.3g tolerance units)", u);
      return CS_ERR_NOCONV;
    }
    prev = u;
  }
  cs_error_fill(c->msg, sizeof c->msg, "Newton did not converge in %d iterations", c->sp.max_iter);
  return CS_ERR_NOCONV;
}

/* Eigenvalues of the equilibrium's Jacobian s->M, by decreasing real part. */
static enum cs_status eq_eigen(struct cont *c, struct sol *s, double *vre, double *vim,
                               double target_im)
{
  size_t n = c->n;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      gsl_matrix_set(c->E, i, j, s->M[i * n + j]);
  if (gsl_eigen_nonsymmv(c->E, c->eval, c->evec, c->ew) != GSL_SUCCESS)
    return CS_FAIL(CS_ERR_SINGULAR);
  size_t order[N_MAX];
  double re[N_MAX], im[N_MAX];
  for (size_t i = 0; i < n; i++) {
    gsl_complex z = gsl_vector_complex_get(c->eval, i);
    re[i] = GSL_REAL(z), im[i] = GSL_IMAG(z), order[i] = i;
  }
  for (size_t a = 1; a < n; a++)
    for (size_t k = a; k > 0; k--) {
      size_t i = order[k - 1], j = order[k];
      if (re[j] > re[i] || (re[j] == re[i] && im[j] > im[i]))
        order[k - 1] = j, order[k] = i;
    }
  s->n_unstable = 0;
  for (size_t a = 0; a < n; a++) {
    s->re[a] = re[order[a]], s->im[a] = im[order[a]];
    s->n_unstable += s->re[a] > 0;
  }
  if (vre) {
    /* the eigenvector of the eigenvalue nearest the imaginary axis at +i target_im */
    size_t best = 0;
    double bd = INFINITY;
    for (size_t i = 0; i < n; i++)
      if (im[i] > 0 && hypot(re[i], im[i] - target_im) < bd)
        bd = hypot(re[i], im[i] - target_im), best = i;
    for (size_t k = 0; k < n; k++) {
      gsl_complex z = gsl_matrix_complex_get(c->evec, k, best);
      vre[k] = GSL_REAL(z), vim[k] = GSL_IMAG(z);
    }
  }
  return CS_OK;
}

/* Test functions and stability of a solved point. */
static enum cs_status analyse(struct cont *c, struct sol *s)
{
  size_t n = c->n;
  double th[NX_MAX];
  hat(c, s->tu, th);
  s->psi[PSI_FOLD] = th[c->ip];
  if (c->kind == CS_BRANCH_EQUILIBRIUM) {
    enum cs_status st = eq_eigen(c, s, NULL, NULL, 0);
    if (st != CS_OK)
      return st;
    double complex h = 1;
    for (size_t i = 0; i < n; i++)
      for (size_t j = i + 1; j < n; j++)
        h *= (s->re[i] + s->re[j]) + I * (s->im[i] + s->im[j]);
    s->psi[PSI_HOPF] = creal(h);
    s->psi[PSI_NS] = 0;
    memcpy(s->ymin, s->X, n * sizeof *s->X);
    memcpy(s->ymax, s->X, n * sizeof *s->X);
    return CS_OK;
  }
  memset(&s->orb, 0, sizeof s->orb);
  s->orb.n = n;
  s->orb.autonomous = c->autonomous;
  s->orb.p = pval(c, s->X);
  s->orb.t0 = c->t0;
  memcpy(s->orb.y, s->X, n * sizeof *s->X);
  s->orb.period = c->autonomous ? s->X[c->iT] : forced_period(c);
  memcpy(s->orb.mono, s->M, n * n * sizeof *s->M);
  s->orb.switches = s->switches;
  s->orb.converged = 1;
  enum cs_status st = cs_orbit_multipliers(c->w, s->M, &s->orb, 1.0, NULL);
  if (st != CS_OK)
    return st;
  s->n_unstable = s->orb.n_unstable;
  double complex pd = 1, ns = 1, mu[N_MAX];
  for (size_t i = 0; i < s->orb.n_mult; i++) {
    mu[i] = s->orb.mult_re[i] + I * s->orb.mult_im[i];
    pd *= mu[i] + 1;
  }
  for (size_t i = 0; i < s->orb.n_mult; i++)
    for (size_t j = i + 1; j < s->orb.n_mult; j++)
      ns *= mu[i] * mu[j] - 1;
  s->psi[PSI_PD] = creal(pd);
  s->psi[PSI_NS] = creal(ns);
  return CS_OK;
}

/* The state ranges over one period (cycles), for the scales and the output. */
static void ranges(struct cont *c, struct sol *s)
{
  size_t n = c->n, cols = 1 + n + c->m->n_derived;
  s->graze = NAN;
  if (c->kind == CS_BRANCH_EQUILIBRIUM)
    return;
  if (c->hybrid) {
    int fn;
    if (cs_orbit_graze(c->w, &c->sp.orbit, &s->orb, GRAZE_SAMPLES, &s->graze, &fn) != CS_OK)
      s->graze = NAN;
  }
  double *tab = malloc(SAMPLE_ROWS * cols * sizeof *tab);
  if (!tab ||
      cs_orbit_sample(c->w, &c->sp.orbit, &s->orb, SAMPLE_ROWS, tab, s->ymin, s->ymax) != CS_OK) {
    memcpy(s->ymin, s->X, n * sizeof *s->X);
    memcpy(s->ymax, s->X, n * sizeof *s->X);
  }
  free(tab);
}

static void update_scales(struct cont *c, const struct sol *s)
{
  for (size_t i = 0; i < c->n; i++) {
    double r = c->kind == CS_BRANCH_EQUILIBRIUM ? fabs(s->X[i]) : s->ymax[i] - s->ymin[i];
    c->sigma[i] = fmax(c->sigma[i], fmax(r, floor_of(c, i)));
  }
}

static void to_point(const struct cont *c, const struct sol *s, double ds,
                     struct cs_branch_point *pt)
{
  size_t n = c->n;
  memset(pt, 0, sizeof *pt);
  pt->segment = c->segment;
  pt->p = pval(c, s->X);
  pt->returns = c->returns;
  memcpy(pt->y, s->X, n * sizeof *s->X);
  memcpy(pt->ymin, s->ymin, n * sizeof *s->ymin);
  memcpy(pt->ymax, s->ymax, n * sizeof *s->ymax);
  double th[NX_MAX];
  hat(c, s->tu, th);
  pt->tangent_p = th[c->ip];
  pt->iterations = s->iterations;
  pt->ds = ds;
  pt->n_unstable = s->n_unstable;
  pt->n_marginal = c->kind == CS_BRANCH_EQUILIBRIUM ? 0 : s->orb.n_marginal;
  pt->graze = NAN;
  if (c->kind == CS_BRANCH_EQUILIBRIUM) {
    pt->period = NAN;
    pt->n_eig = n;
    memcpy(pt->re, s->re, n * sizeof *s->re);
    memcpy(pt->im, s->im, n * sizeof *s->im);
    pt->trivial_err = NAN;
  } else {
    pt->period = s->orb.period;
    pt->n_eig = s->orb.n_mult;
    memcpy(pt->re, s->orb.mult_re, s->orb.n_mult * sizeof *pt->re);
    memcpy(pt->im, s->orb.mult_im, s->orb.n_mult * sizeof *pt->im);
    pt->trivial_err = s->orb.trivial_err;
    pt->switches = s->switches;
    pt->graze = s->graze;
  }
}

static enum cs_status push_point(struct cont *c, const struct sol *s, double ds)
{
  struct cs_branch *b = c->b;
  if (b->n_points == b->cap_points) {
    size_t cap = b->cap_points ? 2 * b->cap_points : 64;
    struct cs_branch_point *p = realloc(b->points, cap * sizeof *p);
    if (!p)
      return CS_FAIL(CS_ERR_NOMEM);
    b->points = p, b->cap_points = cap;
  }
  to_point(c, s, ds, &b->points[b->n_points++]);
  return CS_OK;
}

static enum cs_status push_special(struct cont *c, enum cs_special_kind k, const struct sol *s,
                                   double omega, const char *note)
{
  struct cs_branch *b = c->b;
  if (b->n_special == b->cap_special) {
    size_t cap = b->cap_special ? 2 * b->cap_special : 16;
    struct cs_special *p = realloc(b->special, cap * sizeof *p);
    if (!p)
      return CS_FAIL(CS_ERR_NOMEM);
    b->special = p, b->cap_special = cap;
  }
  struct cs_special *sp = &b->special[b->n_special++];
  memset(sp, 0, sizeof *sp);
  sp->kind = k;
  sp->after = b->n_points ? b->n_points - 1 : 0;
  to_point(c, s, 0.0, &sp->pt);
  sp->omega = omega;
  sp->l1 = sp->l1_err = NAN;
  snprintf(sp->note, sizeof sp->note, "%s", note ? note : "");
  return CS_OK;
}

/* ------------------------------------------------------ special points */

static int sign_of(double v)
{
  return (v > 0) - (v < 0);
}

static int same_switches(const struct sol *a, const struct sol *b)
{
  if (a->switches != b->switches)
    return 0;
  size_t k = a->switches < CS_ORBIT_MAX_SWITCHES ? a->switches : CS_ORBIT_MAX_SWITCHES;
  /* the same cyclic sequence, whatever switch comes first */
  for (size_t r = 0; r < (k ? k : 1); r++) {
    size_t i = 0;
    while (i < k && a->kinds[i] == b->kinds[(i + r) % k])
      i++;
    if (i == k)
      return 1;
  }
  return 0;
}

/* The solution at arclength s from (Xk, tk) with its test functions. */
static enum cs_status at_s(struct cont *c, const double *Xk, const double *tk, double s,
                           struct sol *out)
{
  double X[NX_MAX];
  for (size_t j = 0; j < c->nx; j++)
    X[j] = Xk[j] + s * tk[j] * c->sigma[j];
  enum cs_status st = correct(c, X, Xk, tk, s, 0, 0, out);
  if (st == CS_OK)
    st = analyse(c, out);
  return st;
}

/* The predictor of a trial at arclength s (along tk from Xk) from a solved
 * point e at arclength se with its tangent: X_e + (s - se) dX/ds, the tangent
 * scaled to unit speed along tk; from Xk along tk where the tangent is far
 * from tk. */
static void predict_from(const struct cont *c, const double *Xk, const double *tk, const double *Xe,
                         const double *tue, double se, double s, double *X)
{
  double te[NX_MAX], dot = 0;
  hat(c, tue, te);
  for (size_t j = 0; j < c->nx; j++)
    dot += te[j] * tk[j];
  for (size_t j = 0; j < c->nx; j++)
    X[j] =
        dot > 0.5 ? Xe[j] + (s - se) * te[j] / dot * c->sigma[j] : Xk[j] + s * tk[j] * c->sigma[j];
}

/* Anderson-Bjorck regula falsi on test function `which` between the solved
 * points a (s = 0) and b (s = ds); *found on success. Each trial starts from
 * the nearer end of the bracket along its tangent (the bracket shrinks, so
 * that predictor converges in about one corrector iteration), and steps at
 * least half the wanted bracket width inside the bracket: a root that close
 * to an end is then bracketed at once, where plain regula falsi approaches
 * it from one side only. *found: the end of the last bracket with the
 * smaller |test function| (also after a failed trial). */
static enum cs_status locate(struct cont *c, int which, const struct sol *a, const struct sol *b,
                             const double *tk, double ds, struct sol *found)
{
  double sa = 0, sb = ds, fa = a->psi[which], fb = b->psi[which];
  double pa = pval(c, a->X), pb = pval(c, b->X);
  double tol = c->sp.locate_tol;
  /* the bracket's ends (the result: the one nearer the root) */
  struct sol *ea = malloc(sizeof *ea), *eb = malloc(sizeof *eb);
  if (!ea || !eb) {
    free(ea), free(eb);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  *ea = *a, *eb = *b;
  /* the trials keep the state ranges (and grazing margin) of an end */
  *found = fabs(fa) < fabs(fb) ? *a : *b;
  int side = 0;
  enum cs_status st = CS_ERR_NOCONV;
  for (int it = 0; it < LOCATE_ITER && st == CS_ERR_NOCONV; it++) {
    double s = (sa * fb - sb * fa) / (fb - fa);
    if (!isfinite(s) || s <= sa || s >= sb)
      s = 0.5 * (sa + sb);
    /* the bracket width in s that meets the tolerance: a fold's parameter
     * is insensitive to s, there the arclength must close too */
    double width =
        which == PSI_FOLD ? 1e-6 * ds : (pb != pa ? tol * (sb - sa) / fabs(pb - pa) : 0.0);
    double inside = fmin(0.45 * width, 0.25 * (sb - sa));
    s = fmin(fmax(s, sa + inside), sb - inside);
    double X[NX_MAX];
    if (s - sa <= sb - s)
      predict_from(c, a->X, tk, ea->X, ea->tu, sa, s, X);
    else
      predict_from(c, a->X, tk, eb->X, eb->tu, sb, s, X);
    enum cs_status cst = correct(c, X, a->X, tk, s, 0, 0, found);
    if (cst == CS_OK)
      cst = analyse(c, found);
    if (cst != CS_OK) {
      st = cst;
      break;
    }
    double fs = found->psi[which], ps = pval(c, found->X);
    if (fs == 0) {
      *ea = *found;
      st = CS_OK;
      break;
    }
    if (sign_of(fs) == sign_of(fb)) {
      if (side == 1) {
        double m = 1 - fs / fb;
        fa *= m > 0 ? m : 0.5;
      }
      sb = s, fb = fs, pb = ps, side = 1;
      *eb = *found;
    } else {
      if (side == -1) {
        double m = 1 - fs / fa;
        fb *= m > 0 ? m : 0.5;
      }
      sa = s, fa = fs, pa = ps, side = -1;
      *ea = *found;
    }
    if (fabs(pb - pa) <= tol && (which != PSI_FOLD || sb - sa <= 1e-6 * ds))
      st = CS_OK;
  }
  *found = fabs(ea->psi[which]) <= fabs(eb->psi[which]) ? *ea : *eb;
  if (st == CS_ERR_NOCONV)
    cs_error_fill(c->msg, sizeof c->msg, "not located to %.3g in %d trials", tol, LOCATE_ITER);
  free(ea), free(eb);
  return st;
}

/* Bisection on where the switch sequence changes between a and b. */
static enum cs_status locate_nonsmooth(struct cont *c, const struct sol *a, const struct sol *b,
                                       const double *tk, double ds, struct sol *found)
{
  double sa = 0, sb = ds, pa = pval(c, a->X), pb = pval(c, b->X);
  struct sol mid;
  *found = *a;
  for (int it = 0; it < LOCATE_ITER && fabs(pb - pa) > c->sp.locate_tol; it++) {
    double s = 0.5 * (sa + sb);
    enum cs_status st = at_s(c, a->X, tk, s, &mid);
    if (st == CS_OK && same_switches(&mid, a)) {
      sa = s, pa = pval(c, mid.X);
      *found = mid;
    } else {
      sb = s;
      pb = st == CS_OK ? pval(c, mid.X) : pb;
    }
  }
  return CS_OK;
}

static void stability_note(const struct sol *s, char *buf, size_t len)
{
  snprintf(buf, len, "%d unstable", s->n_unstable);
}

/* How many multipliers of complex pairs lie outside the unit circle. */
static int complex_outside(const struct sol *s)
{
  int k = 0;
  for (size_t i = 0; i < s->orb.n_mult; i++)
    k += s->orb.mult_im[i] != 0 && hypot(s->orb.mult_re[i], s->orb.mult_im[i]) > 1;
  return k;
}

/* The first Lyapunov coefficient of the located Hopf point f (sp): NaN
 * where it cannot be computed (e.g. no analytic Jacobian). */
static void hopf_l1(struct cont *c, const struct sol *f, struct cs_special *sp)
{
  double scale[N_MAX];
  for (size_t i = 0; i < c->n; i++)
    scale[i] = fmax(fabs(f->X[i]), floor_of(c, i));
  if (set_p(c, pval(c, f->X)) != CS_OK ||
      cs_hopf_l1(c->m, cs_orbit_ws_params(c->w), f->X, scale, sp->omega, &sp->l1, NULL,
                 &sp->l1_err) != CS_OK)
    sp->l1 = sp->l1_err = NAN;
}

/* Locates the special points between the solved points a and b (step ds
 * along tk) and records them. *pd receives the located period doubling, if
 * any (for branch switching). */
static enum cs_status specials(struct cont *c, const struct sol *a, const struct sol *b,
                               const double *tk, double ds, struct sol *pd, int *have_pd)
{
  struct sol f;
  char note[160];
  *have_pd = 0;
  if (!c->sp.locate)
    return CS_OK;
  if (c->kind == CS_BRANCH_CYCLE && c->hybrid && !same_switches(a, b)) {
    locate_nonsmooth(c, a, b, tk, ds, &f);
    enum cs_special_kind k = a->switches != b->switches ? CS_SPECIAL_GRAZING : CS_SPECIAL_SLIDING;
    snprintf(note, sizeof note, "mode switches per period %zu -> %zu", a->switches, b->switches);
    return push_special(c, k, &f, 0.0, note);
  }
  /* user points: the corrector at the given p from the interpolated point */
  for (size_t u = 0; u < c->sp.n_user; u++) {
    double v = c->sp.user_value[u], pa = pval(c, a->X), pb = pval(c, b->X);
    if (!((pa - v) * (pb - v) < 0 || (pb == v && pa != v)))
      continue;
    double X[NX_MAX], fr = (v - pa) / (pb - pa);
    for (size_t j = 0; j < c->nx; j++)
      X[j] = a->X[j] + fr * (b->X[j] - a->X[j]);
    enum cs_status st = correct(c, X, a->X, tk, fr * ds, 1, v, &f);
    if (st == CS_OK)
      st = analyse(c, &f);
    if (st == CS_OK) {
      ranges(c, &f);
      snprintf(note, sizeof note, "user point");
      st = push_special(c, CS_SPECIAL_USER, &f, 0.0, note);
    }
    if (st == CS_ERR_NOMEM)
      return st;
  }
  int n_tests = c->kind == CS_BRANCH_CYCLE ? 3 : 2;
  for (int which = 0; which < n_tests; which++) {
    if (sign_of(a->psi[which]) * sign_of(b->psi[which]) >= 0)
      continue;
    /* the tangent's parameter component is known to about the solver
     * tolerance: where the branch is nearly perpendicular to the parameter
     * (e.g. leaving a Hopf point, p - p_H ~ amplitude^2) its sign is noise */
    if (which == PSI_FOLD &&
        fmax(fabs(a->psi[which]), fabs(b->psi[which])) < FOLD_NOISE * c->sp.orbit.solver.rtol)
      continue;
    /* the Neimark-Sacker test also vanishes where two real multipliers'
     * product passes 1 (a neutral saddle, no special point): a complex pair
     * crossing the unit circle changes how many lie outside it */
    if (which == PSI_NS && complex_outside(a) == complex_outside(b) &&
        abs(a->n_unstable - b->n_unstable) < 2)
      continue;
    enum cs_status st = locate(c, which, a, b, tk, ds, &f);
    if (st == CS_ERR_NOMEM)
      return st;
    const char *how = st == CS_OK ? "" : "approximate: ";
    enum cs_special_kind k = CS_SPECIAL_FOLD;
    double omega = 0;
    if (which == PSI_FOLD) {
      stability_note(&f, note, sizeof note);
    } else if (c->kind == CS_BRANCH_EQUILIBRIUM) {
      /* the pair whose sum vanishes: complex (Hopf) or real (neutral saddle) */
      double best = INFINITY;
      size_t bi = 0;
      for (size_t i = 0; i < c->n; i++)
        if (fabs(f.re[i]) < best && f.im[i] > 0)
          best = fabs(f.re[i]), bi = i;
      if (!isfinite(best) || f.im[bi] <= 0)
        continue; /* neutral saddle: no Hopf */
      k = CS_SPECIAL_HOPF;
      omega = f.im[bi];
      snprintf(note, sizeof note, "%seigenvalues %.6g +- %.6g i", how, f.re[bi], omega);
    } else if (which == PSI_PD) {
      k = CS_SPECIAL_PERIOD_DOUBLING;
      snprintf(note, sizeof note, "%smultiplier -1", how);
      if (st == CS_OK) {
        *pd = f;
        *have_pd = 1;
      }
    } else {
      double best = INFINITY;
      size_t bi = 0;
      for (size_t i = 0; i < f.orb.n_mult; i++)
        if (f.orb.mult_im[i] > 0 && fabs(hypot(f.orb.mult_re[i], f.orb.mult_im[i]) - 1) < best)
          best = fabs(hypot(f.orb.mult_re[i], f.orb.mult_im[i]) - 1), bi = i;
      if (!(best < UNIT_TOL))
        continue; /* a real pair with product 1: neutral saddle */
      k = CS_SPECIAL_NEIMARK_SACKER;
      omega = atan2(f.orb.mult_im[bi], f.orb.mult_re[bi]);
      snprintf(note, sizeof note, "%scomplex pair on the unit circle, argument %.6g rad", how,
               omega);
    }
    if (which == PSI_FOLD)
      snprintf(note + strlen(note), sizeof note - strlen(note), "%s",
               st == CS_OK ? "" : " (approximate)");
    st = push_special(c, k, &f, omega, note);
    if (st != CS_OK)
      return st;
    if (k == CS_SPECIAL_HOPF)
      hopf_l1(c, &f, &c->b->special[c->b->n_special - 1]);
  }
  return CS_OK;
}

/* ---------------------------------------------------------- the branch */

static enum cs_status setup(struct cont *c, struct cs_orbit_ws *w,
                            const struct cs_continue_spec *spec, enum cs_branch_kind kind,
                            struct cs_branch *out)
{
  cs_gsl_quiet();
  memset(c, 0, sizeof *c);
  memset(out, 0, sizeof *out);
  c->w = w;
  c->sp = *spec;
  c->m = cs_orbit_ws_model(w);
  c->kind = kind;
  c->n = c->m->n_state;
  c->autonomous = cs_orbit_ws_autonomous(w);
  c->iT = kind == CS_BRANCH_CYCLE && c->autonomous ? (int)c->n : -1;
  c->nx = c->n + 1 + (c->iT >= 0);
  c->ip = (int)c->nx - 1;
  c->returns = spec->orbit.returns > 0 ? spec->orbit.returns : 1;
  c->hybrid = cs_model_switches(c->m, cs_orbit_ws_params(w)) > 0;
  c->b = out;
  out->kind = kind;
  out->autonomous = c->autonomous;
  out->n = c->n;
  if (!(spec->p_max > spec->p_min) || !(spec->ds > 0) || !(spec->ds_min > 0) ||
      !(spec->ds_max >= spec->ds_min) || spec->max_points < 1 || spec->max_iter < 1)
    return CS_FAIL(CS_ERR_ARG);
  if (cs_orbit_ws_param(w) >= 0) {
    const struct cs_param_desc *d = &c->m->param[cs_orbit_ws_param(w)];
    c->sp.p_min = fmax(c->sp.p_min, d->min);
    c->sp.p_max = fmin(c->sp.p_max, d->max);
  }
  if (!(c->sp.locate_tol > 0))
    c->sp.locate_tol = 1e-9 * (spec->p_max - spec->p_min);
  c->A = gsl_matrix_alloc(c->nx, c->nx);
  c->perm = gsl_permutation_alloc(c->nx);
  c->rhs = gsl_vector_alloc(c->nx);
  c->sol = gsl_vector_alloc(c->nx);
  c->E = gsl_matrix_alloc(c->n, c->n);
  c->eval = gsl_vector_complex_alloc(c->n);
  c->evec = gsl_matrix_complex_alloc(c->n, c->n);
  c->ew = gsl_eigen_nonsymmv_alloc(c->n);
  if (!c->A || !c->perm || !c->rhs || !c->sol || !c->E || !c->eval || !c->evec || !c->ew)
    return CS_FAIL(CS_ERR_NOMEM);
  for (size_t i = 0; i < c->n; i++)
    c->sigma[i] = floor_of(c, i);
  c->sigma[c->ip] = spec->p_max - spec->p_min;
  if (!isfinite(c->sigma[c->ip]))
    c->sigma[c->ip] = 1.0;
  return CS_OK;
}

static void teardown(struct cont *c)
{
  if (c->A)
    gsl_matrix_free(c->A);
  if (c->perm)
    gsl_permutation_free(c->perm);
  if (c->rhs)
    gsl_vector_free(c->rhs);
  if (c->sol)
    gsl_vector_free(c->sol);
  if (c->E)
    gsl_matrix_free(c->E);
  if (c->eval)
    gsl_vector_complex_free(c->eval);
  if (c->evec)
    gsl_matrix_complex_free(c->evec);
  if (c->ew)
    gsl_eigen_nonsymmv_free(c->ew);
}

/* An event-driven branch that cannot go on: a grazing if the last orbit
 * almost makes a switch it does not make; its parameter extrapolated from
 * the margins of the last two points (the margin is linear in p near it). */
static void graze_end(struct cont *c, const struct sol *last)
{
  struct cs_branch *b = c->b;
  if (c->kind != CS_BRANCH_CYCLE || !c->hybrid || !(last->graze < GRAZE_NEAR) || b->n_points < 2)
    return;
  const struct cs_branch_point *q = &b->points[b->n_points - 2];
  double p1 = pval(c, last->X), g1 = last->graze, p0 = q->p, g0 = q->graze, pg = p1;
  if (isfinite(g0) && g0 > g1 && p1 != p0) {
    pg = p1 - g1 * (p1 - p0) / (g1 - g0);
    if (fabs(pg - p1) > 10 * fabs(p1 - p0) + c->sp.locate_tol)
      pg = p1;
  }
  char note[160];
  snprintf(note, sizeof note,
           "a switch not made comes within %.2g (relative) at p = %.10g: a new switch (stick "
           "phase) appears%s",
           g1, p1, pg != p1 ? "; p extrapolated" : "");
  if (push_special(c, CS_SPECIAL_GRAZING, last, 0.0, note) == CS_OK)
    b->special[b->n_special - 1].pt.p = pg;
}

/* Records why the branch ended (note: printf-style with one number). */
static enum cs_status end_branch(struct cont *c, enum cs_status st, const struct sol *last,
                                 const char *fmt, double v)
{
  if (st != CS_OK && last)
    graze_end(c, last);
  snprintf(c->b->end_note, sizeof c->b->end_note, fmt, v);
  c->b->status = st;
  if (last)
    push_special(c, CS_SPECIAL_END, last, 0.0, c->b->end_note);
  return CS_OK;
}

/* The period-doubled cycle from the located period doubling f: returns
 * doubled, first point along the eigenvector of the multiplier -1. */
static enum cs_status switch_branch(struct cont *c, const struct sol *f, double ds, struct sol *out)
{
  size_t n = c->n, nx = c->nx;
  double v[N_MAX], X0[NX_MAX], X[NX_MAX], tk[NX_MAX] = {0};
  struct cs_orbit tmp = f->orb;
  enum cs_status st = cs_orbit_multipliers(c->w, f->M, &tmp, -1.0, v);
  if (st != CS_OK)
    return st;
  c->returns *= 2;
  c->have_ref = 0; /* the doubled cycle's Jacobian */
  memcpy(X0, f->X, nx * sizeof *X0);
  if (c->iT >= 0)
    X0[c->iT] *= 2;
  double norm = 0;
  for (size_t i = 0; i < n; i++) {
    tk[i] = v[i] / c->sigma[i];
    norm += tk[i] * tk[i];
  }
  norm = sqrt(norm);
  for (size_t i = 0; i < n; i++)
    tk[i] /= norm;
  for (size_t j = 0; j < nx; j++)
    X[j] = X0[j] + ds * tk[j] * c->sigma[j];
  st = correct(c, X, X0, tk, ds, 0, 0, out);
  if (st == CS_OK)
    st = analyse(c, out);
  if (st != CS_OK) {
    c->returns /= 2;
    return st;
  }
  c->segment++;
  return CS_OK;
}

static enum cs_status first_tangent(struct cont *c, struct sol *s, int direction);

/* A section tangency: the point went round the orbit onto a crossing against
 * the section's direction (two crossings merged), and continuing would trace
 * the same orbits back (a fold of the representation, not of the orbits).
 * The same orbit from its next crossing in the section's direction, at the
 * same p, with the tangent still oriented towards the side of p it went. */
static enum cs_status reanchor(struct cont *c, struct sol *s, int p_sign)
{
  double X[NX_MAX], p = pval(c, s->X);
  memcpy(X, s->X, c->nx * sizeof *X);
  enum cs_status st = set_p(c, p);
  c->have_ref = 0; /* another point of the orbit */
  if (st == CS_OK)
    st = cs_orbit_next_crossing(c->w, &c->sp.orbit, c->t0, X, 1.5 * X[c->iT]);
  if (st == CS_OK)
    st = correct(c, X, X, NULL, 0, 1, p, s);
  if (st == CS_OK)
    st = first_tangent(c, s, p_sign);
  if (st == CS_OK)
    st = analyse(c, s);
  if (st != CS_OK)
    snprintf(c->msg, sizeof c->msg,
             "the section became tangent to the orbit near p = %.10g and "
             "no crossing in its direction continues the branch",
             p);
  return st;
}

/* The size of a cycle relative to the largest met on the branch (the scales). */
static double amplitude(const struct cont *c, const struct sol *s)
{
  double a = 0;
  for (size_t i = 0; i < c->n; i++)
    a = fmax(a, (s->ymax[i] - s->ymin[i]) / c->sigma[i]);
  return a;
}

/* The cycles shrink to an equilibrium: the branch ends at its Hopf point,
 * located on the equilibrium's own branch started from the cycle's centre
 * (first towards where the cycles went, then back). */
static void hopf_end(struct cont *c, const struct sol *s, int p_sign, double reach)
{
  double y[N_MAX], p = pval(c, s->X), T = s->orb.period;
  for (size_t i = 0; i < c->n; i++)
    y[i] = 0.5 * (s->ymin[i] + s->ymax[i]);
  const struct cs_special *best = NULL;
  struct cs_branch eb[2];
  memset(eb, 0, sizeof eb);
  for (int k = 0; k < 2 && !best; k++) {
    struct cs_continue_spec sp = c->sp;
    sp.direction = k ? -p_sign : p_sign;
    sp.p_min = fmax(p - reach, c->sp.p_min);
    sp.p_max = fmin(p + reach, c->sp.p_max);
    sp.ds = sp.ds_max = 0.05;
    sp.max_points = 100;
    sp.stop_at_hopf = 1;
    memset(sp.stop_after, 0, sizeof sp.stop_after); /* the user's stops are the cycles' */
    sp.locate_tol = c->sp.locate_tol;
    if (cs_continue_equilibria(c->w, &sp, p, y, &eb[k]) != CS_OK)
      continue;
    for (size_t i = 0; i < eb[k].n_special; i++) {
      const struct cs_special *h = &eb[k].special[i];
      if (h->kind == CS_SPECIAL_HOPF &&
          (!best || fabs(h->omega - 2 * M_PI / T) < fabs(best->omega - 2 * M_PI / T)))
        best = h;
    }
  }
  struct cs_branch *b = c->b;
  if (best && push_special(c, CS_SPECIAL_HOPF, s, best->omega, "") == CS_OK) {
    struct cs_special *sp = &b->special[b->n_special - 1];
    sp->pt = best->pt;
    sp->pt.segment = c->segment;
    sp->l1 = best->l1, sp->l1_err = best->l1_err;
    snprintf(sp->note, sizeof sp->note,
             "the cycles shrink to an equilibrium: its Hopf point, eigenvalues +- %.6g i",
             best->omega);
    snprintf(b->end_note, sizeof b->end_note,
             "the cycles end at a Hopf point of an equilibrium, p = %.10g", best->pt.p);
  } else {
    snprintf(b->end_note, sizeof b->end_note,
             "the cycles shrink to an equilibrium near p = %.10g (its Hopf point not located)", p);
  }
  cs_branch_free(&eb[0]);
  cs_branch_free(&eb[1]);
  b->status = CS_OK;
  push_special(c, CS_SPECIAL_END, s, 0.0, b->end_note);
}

/* The kind whose stop_after count the located special points have reached
 * (the first such kind), or -1. */
static int stop_reached(const struct cont *c)
{
  size_t seen[CS_SPECIAL_COUNT] = {0};
  for (size_t i = 0; i < c->b->n_special; i++)
    if (c->b->special[i].kind < CS_SPECIAL_COUNT)
      seen[c->b->special[i].kind]++;
  for (int k = 0; k < CS_SPECIAL_COUNT; k++)
    if (k != CS_SPECIAL_END && c->sp.stop_after[k] && seen[k] >= c->sp.stop_after[k])
      return k;
  return -1;
}

/* Continues from the solved point cur (tangent set, analysed) until an end. */
static enum cs_status run(struct cont *c, struct sol *cur)
{
  struct sol *next = malloc(sizeof *next), *pd = malloc(sizeof *pd);
  if (!next || !pd) {
    free(next), free(pd);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  enum cs_status st = CS_OK;
  ranges(c, cur);
  update_scales(c, cur);
  st = push_point(c, cur, 0.0);
  /* a user value the start already has: no step crosses it (specials()
   * counts a zero at a step's end, never at its start) */
  for (size_t u = 0; st == CS_OK && c->sp.locate && u < c->sp.n_user; u++)
    if (pval(c, cur->X) == c->sp.user_value[u])
      st = push_special(c, CS_SPECIAL_USER, cur, 0.0, "user point (the start)");
  double ds = c->sp.ds, T0 = c->iT >= 0 ? cur->X[c->iT] : 0;
  int grown = c->kind == CS_BRANCH_CYCLE && amplitude(c, cur) >= 0.5;
  /* the tangent before cur and the step between (for the predictor) */
  double tprev[NX_MAX], ds_prev = 0;
  int have_prev = 0;
  double period_max = c->sp.period_max > 0 ? c->sp.period_max : 100 * (T0 > 0 ? T0 : 1);
  while (st == CS_OK) {
    if (c->b->n_points >= c->sp.max_points) {
      end_branch(c, CS_OK, cur, "%g points reached", (double)c->b->n_points);
      break;
    }
    double tk[NX_MAX], X[NX_MAX];
    hat(c, cur->tu, tk);
    if (c->sp.step_max > 0 && fabs(tk[c->ip]) * ds * c->sigma[c->ip] > c->sp.step_max)
      ds = c->sp.step_max / (fabs(tk[c->ip]) * c->sigma[c->ip]);
    /* the predictor: along the tangent, bent by the tangent's change over the
     * step before (second order: fewer corrector iterations; the solution
     * is the same, on the hyperplane ds along tk) */
    double th[NX_MAX];
    if (have_prev > 0)
      hat(c, tprev, th);
    for (size_t j = 0; j < c->nx; j++)
      X[j] = cur->X[j] +
             (ds * tk[j] + (have_prev > 0 ? 0.5 * ds * ds * (tk[j] - th[j]) / ds_prev : 0.0)) *
                 c->sigma[j];
    /* a predictor beyond the range: land on its end (the parameter may not be
     * defined beyond, e.g. gamma < 0) */
    double pp = pval(c, X), pc = pval(c, cur->X);
    int land = pp > c->sp.p_max || pp < c->sp.p_min;
    enum cs_status cst;
    if (land) {
      double pb = pp > c->sp.p_max ? c->sp.p_max : c->sp.p_min, frac = (pb - pc) / (pp - pc);
      for (size_t j = 0; j < c->nx; j++)
        X[j] = cur->X[j] + frac * ds * tk[j] * c->sigma[j];
      cst = correct(c, X, cur->X, tk, frac * ds, 1, pb, next);
    } else {
      cst = correct(c, X, cur->X, tk, ds, 0, 0, next);
    }
    if (cst == CS_OK)
      cst = analyse(c, next);
    int ok = cst == CS_OK;
    if (ok && c->kind == CS_BRANCH_CYCLE &&
        cs_orbit_crossing_sign(c->w, &c->sp.orbit, c->t0, next->X) < 0) {
      /* a small cycle may have gone through zero amplitude (a Hopf point)
       * onto its own other crossing: approach it in smaller steps instead;
       * otherwise the section became tangent to the orbit: the same orbit
       * from its next crossing in the section's direction (else smaller
       * steps too) */
      int near_hopf = grown && amplitude(c, cur) < HOPF_NEAR;
      have_prev = -1;
      if (near_hopf || reanchor(c, next, tk[c->ip] >= 0 ? 1 : -1) != CS_OK) {
        if (near_hopf)
          snprintf(c->msg, sizeof c->msg, "the step passed a Hopf point");
        ds *= 0.5;
        if (ds < c->sp.ds_min) {
          char note[600];
          snprintf(note, sizeof note, "step size below ds_min after p = %%.10g: %s", c->msg);
          end_branch(c, CS_ERR_NOCONV, cur, note, pval(c, cur->X));
          break;
        }
        continue;
      }
    } else if (ok) {
      double tn[NX_MAX], dot = 0;
      hat(c, next->tu, tn);
      for (size_t j = 0; j < c->nx; j++)
        dot += tn[j] * tk[j];
      if (dot < MAX_TURN_COS) {
        ok = 0;
        snprintf(c->msg, sizeof c->msg, "the tangent turns by %.0f degrees",
                 acos(fmax(-1, fmin(1, dot))) * 180 / M_PI);
      }
      if (c->iT >= 0 && fabs(next->X[c->iT] - cur->X[c->iT]) > MAX_PERIOD_CHANGE * cur->X[c->iT]) {
        ok = 0;
        snprintf(c->msg, sizeof c->msg, "the period changes by more than half");
      }
    }
    if (cst == CS_ERR_NOMEM) {
      st = cst;
      break;
    }
    if (!ok) {
      ds *= 0.5;
      if (ds < c->sp.ds_min) {
        char note[600];
        snprintf(note, sizeof note, "step size below ds_min after p = %%.10g: %s", c->msg);
        end_branch(c, cst == CS_OK ? CS_ERR_NOCONV : cst, cur, note, pval(c, cur->X));
        break;
      }
      continue;
    }
    /* beyond the range: land on its end */
    double p = pval(c, next->X);
    int out_of_range = land || p > c->sp.p_max || p < c->sp.p_min;
    if (out_of_range && !land) {
      double pt = p > c->sp.p_max ? c->sp.p_max : c->sp.p_min;
      memcpy(X, next->X, c->nx * sizeof *X);
      if (correct(c, X, cur->X, tk, ds, 1, pt, next) != CS_OK || analyse(c, next) != CS_OK) {
        end_branch(c, CS_OK, cur, "left the range after p = %.10g", pval(c, cur->X));
        break;
      }
      /* the arclength of the landed point along tk, for locating */
      double s = 0;
      for (size_t j = 0; j < c->nx; j++)
        s += tk[j] * (next->X[j] - cur->X[j]) / c->sigma[j];
      ds = s > 0 ? s : ds;
    } else if (land) {
      double s = 0;
      for (size_t j = 0; j < c->nx; j++)
        s += tk[j] * (next->X[j] - cur->X[j]) / c->sigma[j];
      ds = s > 0 ? s : ds;
    }
    ranges(c, next);
    if (c->kind == CS_BRANCH_CYCLE && grown && amplitude(c, next) < COLLAPSE) {
      push_point(c, next, ds);
      hopf_end(c, next, tk[c->ip] >= 0 ? 1 : -1,
               fmax(50 * fabs(pval(c, next->X) - pval(c, cur->X)), 1e-3 * c->sigma[c->ip]));
      break;
    }
    int have_pd = 0;
    st = specials(c, cur, next, tk, ds, pd, &have_pd);
    if (st != CS_OK)
      break;
    int stop = stop_reached(c);
    if (have_pd && c->sp.switch_pd && !out_of_range && stop < 0) {
      struct sol *sw = malloc(sizeof *sw);
      if (!sw) {
        st = CS_ERR_NOMEM;
        break;
      }
      if (switch_branch(c, pd, c->sp.ds, sw) == CS_OK) {
        ranges(c, sw);
        push_special(c, CS_SPECIAL_BRANCH_SWITCH, sw, 0.0, "first point of the doubled cycle");
        *next = *sw;
        have_prev = -1;
      }
      free(sw);
    }
    update_scales(c, next);
    grown |= c->kind == CS_BRANCH_CYCLE && amplitude(c, next) >= 0.5;
    st = push_point(c, next, ds);
    memcpy(tprev, cur->tu, sizeof tprev);
    ds_prev = ds;
    have_prev = have_prev >= 0 && ds > 0;
    *cur = *next;
    if (out_of_range) {
      end_branch(c, CS_OK, cur, "reached the end of the range, p = %.10g", pval(c, cur->X));
      break;
    }
    if (c->iT >= 0 && cur->X[c->iT] > period_max) {
      end_branch(c, CS_OK, cur, "the period exceeds period_max = %g", period_max);
      break;
    }
    if (stop >= 0) {
      const struct cs_special *last = NULL;
      for (size_t i = c->b->n_special; i-- > 0 && !last;)
        if ((int)c->b->special[i].kind == stop)
          last = &c->b->special[i];
      char note[200];
      snprintf(note, sizeof note, "stopped at %s %zu (stop), located at p = %%.10g",
               cs_special_name((enum cs_special_kind)stop), c->sp.stop_after[stop]);
      end_branch(c, CS_OK, cur, note, last ? last->pt.p : pval(c, cur->X));
      break;
    }
    if (c->kind == CS_BRANCH_EQUILIBRIUM && c->sp.stop_at_hopf && c->b->n_special &&
        c->b->special[c->b->n_special - 1].kind == CS_SPECIAL_HOPF) {
      end_branch(c, CS_OK, NULL, "stopped at the Hopf point p = %.10g",
                 c->b->special[c->b->n_special - 1].pt.p);
      break;
    }
    if (cur->effort <= EASY_ITER)
      ds = fmin(ds * GROW, c->sp.ds_max);
    else if (cur->effort > HARD_ITER)
      ds = fmax(ds * SHRINK, c->sp.ds_min);
  }
  free(next), free(pd);
  return st;
}

/* The first tangent at a solved point: G_X t = 0 with t_p of the sign of
 * direction (needs c->GX of the point). */
static enum cs_status first_tangent(struct cont *c, struct sol *s, int direction)
{
  double last[NX_MAX] = {0}, e[NX_MAX] = {0}, z[NX_MAX];
  last[c->ip] = 1.0;
  bordered(c, last);
  if (!lu(c)) {
    cs_error_fill(c->msg, sizeof c->msg, "the start is singular (at a fold?)");
    return CS_ERR_SINGULAR;
  }
  e[c->nx - 1] = direction >= 0 ? 1.0 : -1.0;
  lu_solve(c, e, z);
  double norm = 0;
  for (size_t j = 0; j < c->nx; j++)
    norm += z[j] * z[j];
  norm = sqrt(norm);
  for (size_t j = 0; j < c->nx; j++)
    s->tu[j] = z[j] / norm * c->sigma[j];
  return CS_OK;
}

enum cs_status cs_continue_equilibria(struct cs_orbit_ws *w, const struct cs_continue_spec *spec,
                                      double p0, const double *y_guess, struct cs_branch *out)
{
  struct cont c;
  struct sol *s = calloc(1, sizeof *s);
  enum cs_status st = s ? setup(&c, w, spec, CS_BRANCH_EQUILIBRIUM, out) : CS_ERR_NOMEM;
  if (st == CS_OK && !c.autonomous) {
    snprintf(c.msg, sizeof c.msg, "a forced model has no equilibria");
    st = CS_ERR_UNSUPPORTED;
  }
  if (st == CS_OK)
    st = set_p(&c, p0);
  struct cs_equilibrium eq;
  if (st == CS_OK) {
    st = cs_equilibrium_find(c.m, cs_orbit_ws_params(w), y_guess, &eq);
    if (st != CS_OK && st != CS_ERR_SINGULAR)
      snprintf(c.msg, sizeof c.msg, "%s at %s = %.10g", eq.note,
               c.m->param[cs_orbit_ws_param(w)].name, p0);
    else
      st = CS_OK;
  }
  if (st == CS_OK) {
    memcpy(s->X, eq.y, c.n * sizeof *s->X);
    s->X[c.ip] = p0;
    st = eval(&c, s->X, s, 0);
  }
  if (st == CS_OK)
    st = first_tangent(&c, s, spec->direction);
  if (st == CS_OK)
    st = analyse(&c, s);
  if (st == CS_OK)
    st = run(&c, s);
  if (st != CS_OK)
    cs_error_set(st, "%s", c.msg);
  teardown(&c);
  free(s);
  return st;
}

enum cs_status cs_continue_cycles(struct cs_orbit_ws *w, const struct cs_continue_spec *spec,
                                  double p0, double t0, const double *y_guess, double T_guess,
                                  struct cs_branch *out)
{
  struct cont c;
  struct sol *s = calloc(1, sizeof *s);
  enum cs_status st = s ? setup(&c, w, spec, CS_BRANCH_CYCLE, out) : CS_ERR_NOMEM;
  if (st == CS_OK)
    st = set_p(&c, p0);
  if (st == CS_OK) {
    st = cs_orbit_find(w, &spec->orbit, c.autonomous ? 0.0 : t0, y_guess, T_guess, &s->orb);
    if (st != CS_OK)
      snprintf(c.msg, sizeof c.msg, "no periodic orbit at the start: %s", s->orb.note);
  }
  if (st == CS_OK) {
    c.t0 = s->orb.t0;
    memcpy(s->X, s->orb.y, c.n * sizeof *s->X);
    if (c.iT >= 0)
      s->X[c.iT] = s->orb.period;
    s->X[c.ip] = p0;
    if (c.iT >= 0)
      c.sigma[c.iT] = s->orb.period;
    st = eval(&c, s->X, s, 0);
  }
  if (st == CS_OK)
    st = first_tangent(&c, s, spec->direction);
  if (st == CS_OK)
    st = analyse(&c, s);
  if (st == CS_OK)
    st = run(&c, s);
  if (st != CS_OK)
    cs_error_set(st, "%s", c.msg);
  teardown(&c);
  free(s);
  return st;
}

enum cs_status cs_continue_cycles_from_hopf(struct cs_orbit_ws *w,
                                            const struct cs_continue_spec *spec,
                                            const struct cs_special *hopf, struct cs_branch *out)
{
  struct cont c;
  struct sol *s = calloc(1, sizeof *s);
  enum cs_status st = s ? setup(&c, w, spec, CS_BRANCH_CYCLE, out) : CS_ERR_NOMEM;
  size_t n = c.n;
  if (st == CS_OK && (!c.autonomous || hopf->kind != CS_SPECIAL_HOPF || !(hopf->omega > 0))) {
    snprintf(c.msg, sizeof c.msg, "not a Hopf point of an autonomous model");
    st = CS_ERR_ARG;
  }
  double p = hopf->pt.p, a[N_MAX], bv[N_MAX], u[N_MAX];
  if (st == CS_OK)
    st = set_p(&c, p);
  if (st == CS_OK) {
    const void *P = cs_orbit_ws_params(w);
    memset(s->M, 0, sizeof s->M);
    if (c.m->jac(0.0, hopf->pt.y, s->M, P) != 0)
      st = CS_ERR_SOLVER;
    else
      st = eq_eigen(&c, s, a, bv, hopf->omega);
  }
  double omega = hopf->omega;
  if (st == CS_OK) {
    /* the cycle near the Hopf point: y_H + eps (a cos(w t) - b sin(w t)), started
     * where it crosses the section (which must pass through y_H) in its direction */
    double sv, grad[N_MAX], ga = 0, gb = 0;
    st = cs_orbit_section(w, &spec->orbit, 0.0, hopf->pt.y, &sv, grad, NULL);
    double ysc = 0;
    for (size_t i = 0; i < n; i++) {
      ga += grad[i] * a[i], gb += grad[i] * bv[i];
      ysc = fmax(ysc, fabs(hopf->pt.y[i]) * fabs(grad[i]));
    }
    if (st == CS_OK && fabs(sv) > 1e-6 * fmax(ysc, 1e-12)) {
      snprintf(c.msg, sizeof c.msg,
               "the section misses the equilibrium at the Hopf point by %.6g: give [section] "
               "level = %.10g",
               sv,
               sv + (spec->orbit.section.variable && spec->orbit.section.variable[0]
                         ? spec->orbit.section.level
                         : c.m->section.level));
      st = CS_ERR_ARG;
    }
    if (st == CS_OK) {
      /* grad.u(th) = ga cos th - gb sin th = 0; ds/dt = -w eps (ga sin th + gb cos th) */
      double th = atan2(ga, gb);
      int dir = spec->orbit.section.variable && spec->orbit.section.variable[0]
                    ? spec->orbit.section.direction
                    : c.m->section.direction;
      if (dir && -(ga * sin(th) + gb * cos(th)) * dir < 0)
        th += M_PI;
      double amp = 0;
      for (size_t i = 0; i < n; i++) {
        u[i] = a[i] * cos(th) - bv[i] * sin(th);
        amp = fmax(amp, fabs(u[i]) / fmax(fabs(hopf->pt.y[i]), floor_of(&c, i)));
      }
      /* The first cycle's parameter is fixed by the shooting's residual only
       * to its error over the cycle's size: where that error is too large
       * for the Newton test (the Verner pairs near their accuracy floor,
       * rtol 1e-10 and below), a ten times larger first cycle, once. */
      double rel = spec->hopf_amplitude;
      for (int attempt = 0; attempt < 2; attempt++, rel = fmin(10 * rel, 0.5)) {
        double eps = rel / amp;
        /* scales: the states by the first cycle's size, the period by 2 pi/w */
        for (size_t i = 0; i < n; i++)
          c.sigma[i] = fmax(eps * fabs(u[i]), floor_of(&c, i));
        c.sigma[c.iT] = 2 * M_PI / omega;
        double tk[NX_MAX] = {0}, X0[NX_MAX], X[NX_MAX], norm = 0;
        for (size_t i = 0; i < n; i++) {
          tk[i] = u[i] / c.sigma[i];
          norm += tk[i] * tk[i];
        }
        norm = sqrt(norm);
        for (size_t i = 0; i < n; i++)
          tk[i] /= norm;
        memcpy(X0, hopf->pt.y, n * sizeof *X0);
        X0[c.iT] = 2 * M_PI / omega;
        X0[c.ip] = p;
        double ds0 = eps * norm;
        for (size_t j = 0; j < c.nx; j++)
          X[j] = X0[j] + ds0 * tk[j] * c.sigma[j];
        st = correct(&c, X, X0, tk, ds0, 0, 0, s);
        if (st != CS_ERR_NOCONV || rel >= 0.5)
          break;
      }
      if (st != CS_OK)
        snprintf(c.msg + strlen(c.msg), sizeof c.msg - strlen(c.msg),
                 " (the first cycle from the Hopf point)");
    }
  }
  if (st == CS_OK)
    st = analyse(&c, s);
  /* the branch leaves the Hopf point perpendicular to the parameter (p - p_H
   * ~ amplitude^2), and the first cycle's p is known only to its error over
   * the cycle's size: the sign of its tangent's p component is noise
   * (measured: 1e4 rtol with erk6 at rtol 1e-10), no fold test at the start */
  s->psi[PSI_FOLD] = 0;
  if (st == CS_OK)
    st = run(&c, s);
  if (st != CS_OK)
    cs_error_set(st, "%s", c.msg);
  teardown(&c);
  free(s);
  return st;
}
