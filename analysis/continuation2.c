/* SPDX-License-Identifier: MIT */
/* Two-parameter curves (see continuation2.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>

#include "analysis/continuation2.h"
#include "analysis/continuation_private.h"
#include "analysis/continuation2_ns_private.h"
#include "analysis/continuation2_private.h"
#include "analysis/normal_form.h"
#include "core/error_private.h"
#include "core/gsl_quiet.h"
#include "analysis/orbit_private.h"

#define N_MAX CS_BRANCH_MAX_N
#define NX_MAX (2 * N_MAX + 3)
#define MAX_TURN_COS 0.866 /* a step may turn the tangent by 30 degrees at most */
#define GROW 1.5
#define SHRINK 0.7
#define EASY_ITER 3
#define HARD_ITER 6
#define LOCATE_ITER 80
#define SINGULAR_REL 1e-14

static const char *const curve_names[] = {
    "fold", "hopf", "fold-of-cycles", "period-doubling", "neimark-sacker", "grazing"};
static const char *const codim2_names[] = {
#define CS_CODIM2_NAME(id, name) name,
    CS_CODIM2_LIST(CS_CODIM2_NAME)
#undef CS_CODIM2_NAME
};

const char *cs_curve_name(enum cs_curve_kind k)
{
  return (int)k >= 0 && k <= CS_CURVE_GRAZING ? curve_names[k] : "unknown";
}

const char *cs_codim2_name(enum cs_codim2_kind k)
{
  return (int)k >= 0 && k < CS_CODIM2_COUNT ? codim2_names[k] : "unknown";
}

struct cs_curve_spec cs_curve_spec_default(void)
{
  struct cs_curve_spec s;
  memset(&s, 0, sizeof s);
  s.param2 = -1;
  s.ds = 0.01, s.ds_min = 1e-8, s.ds_max = 0.05;
  s.max_points = 200;
  s.max_iter = 10;
  s.locate_tol = 1e-10;
  s.orbit = cs_orbit_opts_default();
  return s;
}

void cs_curve_free(struct cs_curve *c)
{
  if (!c)
    return;
  free(c->points), free(c->special);
  memset(c, 0, sizeof *c);
}

/* A solved point. */
struct sol {
  double X[NX_MAX];
  double tu[NX_MAX];                 /* tangent dX/ds, scaled back to X's units */
  double v[N_MAX + 1], w[N_MAX + 1]; /* null vectors of the singular matrix */
  double test[2], user[CS_CURVE_MAX_USER];
  double omega, l1_err, period;
  size_t n_eig;
  double re[N_MAX], im[N_MAX];
  int n_unstable, iterations;
  struct cs_ns_point ns; /* Neimark-Sacker curve */
};

struct c2 {
  struct cs_orbit_ws *w;
  const struct cs_model *m;
  struct cs_curve_spec sp;
  enum cs_curve_kind kind;
  int cycles;
  int forced;      /* cycles of a forced model: T = returns Tf(p1, p2), no phase condition */
  int returns;     /* forced: forcing periods per period */
  size_t n, nx, k; /* states, unknowns, size of the singular matrix */
  int ip1, ip2;
  void *base; /* unprepared params, p2 set here */
  double cur1, cur2;
  double sigma[NX_MAX];
  double scale[N_MAX];                 /* state scales for the normal-form differences */
  double floor_[N_MAX];                /* atol / rtol: where a state counts as small */
  double bb[N_MAX + 1], cb[N_MAX + 1]; /* borders: left and right null vector guesses */
  double hc[N_MAX], hd[N_MAX];         /* Hopf normalisations c.v = 1, d.J v = 0 */
  double ctol;
  /* cycles: the difference-quotient part of G_X (the ng test functions'
   * rows, p2's column) of an earlier iteration, valid while dq_valid */
  double dq_row[2][NX_MAX], dq_col[N_MAX + 1];
  int dq_valid, ng;
  struct cs_ns_borders ns; /* Neimark-Sacker curve */
  struct cs_curve *out;
  int from_bt; /* the start is a Bogdanov-Takens point (a switch from the other curve) */
  char msg[512];
};

/* ------------------------------------------------------------ helpers */

static enum cs_status keep(struct c2 *c, enum cs_status st)
{
  if (st != CS_OK)
    snprintf(c->msg, sizeof c->msg, "%s", cs_errmsg());
  return st;
}

static enum cs_status set_pp(struct c2 *c, double p1, double p2)
{
  enum cs_status st = CS_OK;
  if (p2 != c->cur2) {
    st = cs_model_set_param(c->m, c->base, c->m->param[c->sp.param2].name, p2);
    if (st == CS_OK)
      st = cs_orbit_ws_set_base(c->w, c->base);
    if (st != CS_OK)
      return keep(c, st);
    c->cur2 = p2;
    c->cur1 = NAN;
  }
  if (p1 != c->cur1) {
    st = keep(c, cs_orbit_ws_set_param(c->w, p1));
    c->cur1 = st == CS_OK ? p1 : NAN;
  }
  return st;
}

/* Solves A x = b (k x k, row-major, A overwritten) with GSL LU; trans: A^T.
 * 0 if singular. */
static int lin_solve(size_t k, double *A, int trans, const double *b, double *x)
{
  double T[(NX_MAX + 1) * (NX_MAX + 1)];
  if (trans) {
    for (size_t i = 0; i < k; i++)
      for (size_t j = 0; j < k; j++)
        T[j * k + i] = A[i * k + j];
    memcpy(A, T, k * k * sizeof *A);
  }
  double amax = 0;
  for (size_t i = 0; i < k * k; i++)
    amax = fmax(amax, fabs(A[i]));
  gsl_matrix_view Av = gsl_matrix_view_array(A, k, k);
  size_t pdata[NX_MAX + 1];
  gsl_permutation perm = {k, pdata};
  int sign;
  if (gsl_linalg_LU_decomp(&Av.matrix, &perm, &sign) != GSL_SUCCESS)
    return 0;
  for (size_t i = 0; i < k; i++)
    if (!(fabs(A[i * k + i]) > SINGULAR_REL * amax))
      return 0;
  gsl_vector_const_view bv = gsl_vector_const_view_array(b, k);
  gsl_vector_view xv = gsl_vector_view_array(x, k);
  return gsl_linalg_LU_solve(&Av.matrix, &perm, &bv.vector, &xv.vector) == GSL_SUCCESS;
}

/* Minimally augmented test function of S (k x k): [S b; c^T 0] (v, g) =
 * (0, 1), and the left null vector from [S^T c; b^T 0] (w, h) = (0, 1). */
static int bordered_g(size_t k, const double *S, const double *b, const double *cv, double *v,
                      double *w, double *g)
{
  size_t K = k + 1;
  double A[(NX_MAX + 1) * (NX_MAX + 1)], rhs[NX_MAX + 1] = {0}, x[NX_MAX + 1];
  for (size_t i = 0; i < k; i++) {
    for (size_t j = 0; j < k; j++)
      A[i * K + j] = S[i * k + j];
    A[i * K + k] = b[i];
    A[k * K + i] = cv[i];
  }
  A[k * K + k] = 0;
  rhs[k] = 1;
  double A2[(NX_MAX + 1) * (NX_MAX + 1)];
  memcpy(A2, A, K * K * sizeof *A);
  if (!lin_solve(K, A, 0, rhs, x))
    return 0;
  if (v)
    memcpy(v, x, k * sizeof *v);
  *g = x[k];
  if (w) {
    /* [S^T c; b^T 0]: the transpose of A with b and c swapped, i.e. A^T */
    if (!lin_solve(K, A2, 1, rhs, x))
      return 0;
    memcpy(w, x, k * sizeof *w);
  }
  return 1;
}

static double norm2(size_t k, const double *v)
{
  double s = 0;
  for (size_t i = 0; i < k; i++)
    s += v[i] * v[i];
  return sqrt(s);
}

/* --------------------------------------------------------- the system */

/* J of the model at y (current params) */
static enum cs_status jac_at(struct c2 *c, const double *y, double *J)
{
  memset(J, 0, c->n * c->n * sizeof *J);
  if (!c->m->jac || c->m->jac(0.0, y, J, cs_orbit_ws_params(c->w)) != 0) {
    snprintf(c->msg, sizeof c->msg, "the Jacobian failed (or the model has none)");
    return CS_ERR_SOLVER;
  }
  return CS_OK;
}

/* A cycle's period at X (the parameters X's, already set): the unknown
 * X[n], or for a forced model returns forcing periods, which move with p1
 * and p2 when either is the forcing frequency. */
static double cycle_period(const struct c2 *c, const double *X)
{
  return c->forced ? c->returns * c->m->forcing_period(cs_orbit_ws_params(c->w)) : X[c->n];
}

/* The row of the (first) test function in G: after the shooting rows and
 * (autonomous) the section's; the Neimark-Sacker curve's two follow. */
static size_t g_row(const struct c2 *c)
{
  return c->forced ? c->n : c->n + 1;
}

/* The singular matrix of a cycle curve from a shooting. */
static void cycle_matrix(const struct c2 *c, const struct cs_orbit_shot *shot, const double *grad,
                         double *S)
{
  size_t n = c->n, k = c->k;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      S[i * k + j] =
          shot->M[i * n + j] + (c->kind == CS_CURVE_PERIOD_DOUBLING ? 1.0 : -1.0) * (i == j);
  if (c->kind == CS_CURVE_FOLD_CYCLES && !c->forced) {
    for (size_t i = 0; i < n; i++)
      S[i * k + n] = shot->f[i], S[n * k + i] = grad[i];
    S[n * k + n] = 0;
  }
}

/* G(X) (nx - 1 values). With shot/grad/s_p (cycles) the shooting's data
 * (for the exact rows), with s the null vectors. */
static enum cs_status resid(struct c2 *c, const double *X, double *G, struct cs_orbit_shot *shot,
                            double *grad, double *s_p, struct sol *s)
{
  size_t n = c->n;
  enum cs_status st = set_pp(c, X[c->ip1], X[c->ip2]);
  if (st != CS_OK)
    return st;
  c->out->evaluations++;
  const void *P = cs_orbit_ws_params(c->w);
  double J[N_MAX * N_MAX], S[(N_MAX + 1) * (N_MAX + 1)], g;
  if (!c->cycles) {
    if (c->m->rhs(0.0, X, G, P) != 0) {
      snprintf(c->msg, sizeof c->msg, "the right-hand side failed");
      return CS_ERR_SOLVER;
    }
    if ((st = jac_at(c, X, J)) != CS_OK)
      return st;
    if (c->kind == CS_CURVE_FOLD) {
      if (!bordered_g(n, J, c->bb, c->cb, s ? s->v : NULL, s ? s->w : NULL, &g)) {
        snprintf(c->msg, sizeof c->msg, "singular bordered matrix of the fold test function");
        return CS_ERR_SINGULAR;
      }
      G[n] = g;
      return CS_OK;
    }
    /* Hopf: (J^2 + kappa) v, c.v - 1, d.J v */
    const double *v = X + n;
    double kappa = X[2 * n], Jv[N_MAX];
    for (size_t i = 0; i < n; i++) {
      Jv[i] = 0;
      for (size_t j = 0; j < n; j++)
        Jv[i] += J[i * n + j] * v[j];
    }
    double cv = 0, dJv = 0;
    for (size_t i = 0; i < n; i++) {
      double r = kappa * v[i];
      for (size_t j = 0; j < n; j++)
        r += J[i * n + j] * Jv[j];
      G[n + i] = r;
      cv += c->hc[i] * v[i], dJv += c->hd[i] * Jv[i];
    }
    G[2 * n] = cv - 1.0;
    G[2 * n + 1] = dJv;
    return CS_OK;
  }
  double T = cycle_period(c, X);
  if (!(T > 0)) {
    snprintf(c->msg, sizeof c->msg, "the period became %g", T);
    return CS_ERR_NOCONV;
  }
  struct cs_orbit_shot tmp;
  struct cs_orbit_shot *sh = shot ? shot : &tmp;
  st = keep(c, cs_orbit_shoot(c->w, &c->sp.orbit, 0.0, X, T, shot != NULL, sh));
  if (st != CS_OK)
    return st;
  for (size_t i = 0; i < n; i++) {
    double d = sh->y[i] - X[i];
    if (c->m->state[i].angle)
      d -= 2 * M_PI * round(d / (2 * M_PI));
    G[i] = d;
  }
  double gr[N_MAX] = {0}, sv, spv = 0;
  if (!c->forced) {
    st = keep(c, cs_orbit_section(c->w, &c->sp.orbit, 0.0, X, &sv, gr, &spv));
    if (st != CS_OK)
      return st;
    G[n] = sv;
  }
  if (grad)
    memcpy(grad, gr, n * sizeof *gr);
  if (s_p)
    *s_p = spv;
  if (c->kind == CS_CURVE_NEIMARK_SACKER) {
    /* kappa the unknown after T, its two rows after the section's (NS
     * curves are autonomous only) */
    if (!cs_ns_g(&c->ns, sh->M, sh->f, gr, X[n + 1], G + g_row(c), s ? &s->ns : NULL)) {
      snprintf(c->msg, sizeof c->msg, "singular bordered matrix of the test function");
      return CS_ERR_SINGULAR;
    }
    return CS_OK;
  }
  cycle_matrix(c, sh, gr, S);
  if (!bordered_g(c->k, S, c->bb, c->cb, s ? s->v : NULL, s ? s->w : NULL, &g)) {
    snprintf(c->msg, sizeof c->msg, "singular bordered matrix of the test function");
    return CS_ERR_SINGULAR;
  }
  G[g_row(c)] = g;
  return CS_OK;
}

/* G and G_X ((nx - 1) x nx, row-major) at X; s receives the null vectors. */
static enum cs_status system_at(struct c2 *c, const double *X, double *G, double *GX, struct sol *s)
{
  size_t nx = c->nx, ne = nx - 1, n = c->n;
  double Xh[NX_MAX], Gp[NX_MAX], Gm[NX_MAX];
  if (!c->cycles) {
    enum cs_status st = resid(c, X, G, NULL, NULL, NULL, s);
    for (size_t j = 0; st == CS_OK && j < nx; j++) {
      double h = 1e-6 * c->sigma[j];
      memcpy(Xh, X, nx * sizeof *X);
      Xh[j] = X[j] + h;
      st = resid(c, Xh, Gp, NULL, NULL, NULL, NULL);
      Xh[j] = X[j] - h;
      if (st == CS_OK)
        st = resid(c, Xh, Gm, NULL, NULL, NULL, NULL);
      for (size_t i = 0; st == CS_OK && i < ne; i++)
        GX[i * nx + j] = (Gp[i] - Gm[i]) / (2 * h);
    }
    return st;
  }
  struct cs_orbit_shot shot;
  double grad[N_MAX], s_p;
  enum cs_status st = resid(c, X, G, &shot, grad, &s_p, s);
  if (st != CS_OK)
    return st;
  /* the shooting rows exactly in y0, T, p1 (0 in kappa: all rows before the
   * test functions' cleared first); forced: the end time T = k Tf(p1) moves
   * with p1 too (the flow's end point by f dT/dp1) */
  size_t gr = g_row(c);
  memset(GX, 0, gr * nx * sizeof *GX);
  double dTdp1 = c->forced ? c->returns * cs_orbit_forcing_period_dp(c->w) : 0.0;
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++)
      GX[i * nx + j] = shot.M[i * n + j] - (i == j);
    if (!c->forced)
      GX[i * nx + n] = shot.f[i];
    GX[i * nx + c->ip1] = shot.yp[i] + shot.f[i] * dTdp1;
  }
  if (!c->forced) {
    for (size_t j = 0; j < n; j++)
      GX[n * nx + j] = grad[j];
    GX[n * nx + n] = 0;
    GX[n * nx + c->ip1] = s_p;
  }
  /* the test functions' rows and p2's column by forward differences: nx
   * shootings with the monodromy matrix, 90 % of a curve's time if done at
   * every iteration. Later iterations and solves reuse them (correct()
   * says when): a chord method in that row and column, the rows of the
   * shooting stay exact, and the solution is G = 0 all the same. */
  if (c->dq_valid) {
    for (int r = 0; r < c->ng; r++)
      for (size_t j = 0; j < nx; j++)
        GX[(gr + r) * nx + j] = c->dq_row[r][j];
    for (size_t i = 0; i < gr; i++)
      GX[i * nx + c->ip2] = c->dq_col[i];
    return CS_OK;
  }
  double rtol = c->sp.orbit.solver.rtol > 0 ? c->sp.orbit.solver.rtol : 1e-8;
  for (size_t j = 0; j < nx; j++) {
    double h = fmax(sqrt(rtol), 1e-7) * c->sigma[j];
    memcpy(Xh, X, nx * sizeof *X);
    Xh[j] = X[j] + h;
    struct cs_orbit_shot sh2;
    st = resid(c, Xh, Gp, &sh2, NULL, NULL, NULL);
    if (st != CS_OK)
      return st;
    for (int r = 0; r < c->ng; r++)
      GX[(gr + r) * nx + j] = c->dq_row[r][j] = (Gp[gr + r] - G[gr + r]) / h;
    if ((int)j == c->ip2)
      for (size_t i = 0; i < gr; i++)
        GX[i * nx + j] = c->dq_col[i] = (Gp[i] - G[i]) / h;
  }
  c->dq_valid = 1;
  return set_pp(c, X[c->ip1], X[c->ip2]);
}

/* ------------------------------------------------------ corrector, tangent */

/* the scaled unit tangent of tu */
static void hat(const struct c2 *c, const double *tu, double *th)
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

/* The tangent from G_X (in GX) with the last row `last` (scaled), oriented
 * so that last . t > 0. 0 if singular. */
static int tangent(struct c2 *c, const double *GX, const double *last, double *tu)
{
  size_t nx = c->nx;
  double A[NX_MAX * NX_MAX], e[NX_MAX] = {0}, z[NX_MAX];
  for (size_t i = 0; i + 1 < nx; i++)
    for (size_t j = 0; j < nx; j++)
      A[i * nx + j] = GX[i * nx + j] * c->sigma[j];
  for (size_t j = 0; j < nx; j++)
    A[(nx - 1) * nx + j] = last[j];
  e[nx - 1] = 1;
  if (!lin_solve(nx, A, 0, e, z))
    return 0;
  double nr = norm2(nx, z);
  for (size_t j = 0; j < nx; j++)
    tu[j] = z[j] / nr * c->sigma[j];
  return 1;
}

/* Newton on G = 0 and tk . (X^ - X^k) = ds (fix < 0) or X[fix] = fixval. */
static enum cs_status newton(struct c2 *c, double *X, const double *Xk, const double *tk, double ds,
                             int fix, double fixval, struct sol *s)
{
  size_t nx = c->nx;
  double G[NX_MAX], GX[NX_MAX * NX_MAX], A[NX_MAX * NX_MAX], b[NX_MAX], d[NX_MAX];
  double prev = INFINITY;
  for (int it = 0; it < c->sp.max_iter; it++) {
    enum cs_status st = system_at(c, X, G, GX, s);
    c->out->newton_iterations++;
    if (st != CS_OK)
      return st;
    double last[NX_MAX] = {0}, con;
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
    if (!lin_solve(nx, A, 0, b, d)) {
      snprintf(c->msg, sizeof c->msg, "singular Jacobian of the curve's system at (%.10g, %.10g)",
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
      /* the tangent at the solution (Jacobian of the last iterate) */
      double tl[NX_MAX] = {0};
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
    /* Neimark-Sacker: a chord that contracts slowly (its rows stale: near a
     * branch point of the system, a resonance 1:1 or 1:2 without a Jordan
     * block) becomes Newton again */
    if (c->ng == 2 && it > 0 && u > 0.25 * prev)
      c->dq_valid = 0;
    if (it > 2 && u > 2 * prev) {
      snprintf(c->msg, sizeof c->msg, "Newton diverges (correction %.3g)", u);
      return CS_ERR_NOCONV;
    }
    prev = u;
  }
  snprintf(c->msg, sizeof c->msg, "Newton did not converge in %d iterations", c->sp.max_iter);
  return CS_ERR_NOCONV;
}

/* newton() with the difference-quotient row of an earlier solve while the
 * solves stay easy (the borders change a little between steps, the row's
 * direction less); a solve that fails with it is redone with a fresh one,
 * and one that needs more than EASY_ITER iterations drops it. */
static enum cs_status correct(struct c2 *c, double *X, const double *Xk, const double *tk,
                              double ds, int fix, double fixval, struct sol *s)
{
  double X0[NX_MAX];
  memcpy(X0, X, c->nx * sizeof *X);
  int reused = c->dq_valid;
  enum cs_status st = newton(c, X, Xk, tk, ds, fix, fixval, s);
  if (reused && (st == CS_ERR_NOCONV || st == CS_ERR_SINGULAR)) {
    c->dq_valid = 0;
    memcpy(X, X0, c->nx * sizeof *X);
    st = newton(c, X, Xk, tk, ds, fix, fixval, s);
  }
  if (st != CS_OK || s->iterations > EASY_ITER)
    c->dq_valid = 0;
  return st;
}

/* ------------------------------------------------------------ analysis */

static void sort_eig(size_t n, double *re, double *im)
{
  for (size_t a = 1; a < n; a++)
    for (size_t k = a; k > 0; k--)
      if (re[k] > re[k - 1] || (re[k] == re[k - 1] && im[k] > im[k - 1])) {
        double t = re[k];
        re[k] = re[k - 1], re[k - 1] = t;
        t = im[k], im[k] = im[k - 1], im[k - 1] = t;
      }
}

static enum cs_status eigen(size_t n, const double *J, double *re, double *im)
{
  double A[N_MAX * N_MAX];
  memcpy(A, J, n * n * sizeof *A);
  gsl_matrix_view Av = gsl_matrix_view_array(A, n, n);
  gsl_vector_complex *ev = gsl_vector_complex_alloc(n);
  gsl_eigen_nonsymm_workspace *ws = gsl_eigen_nonsymm_alloc(n);
  enum cs_status st = CS_OK;
  if (!ev || !ws)
    st = CS_ERR_NOMEM;
  else if (gsl_eigen_nonsymm(&Av.matrix, ev, ws) != GSL_SUCCESS)
    st = CS_ERR_SINGULAR;
  for (size_t i = 0; st == CS_OK && i < n; i++) {
    gsl_complex z = gsl_vector_complex_get(ev, i);
    re[i] = GSL_REAL(z), im[i] = GSL_IMAG(z);
  }
  if (ev)
    gsl_vector_complex_free(ev);
  if (ws)
    gsl_eigen_nonsymm_free(ws);
  if (st == CS_OK)
    sort_eig(n, re, im);
  return st;
}

/* The determinant of a k x k matrix (copied) by GSL's LU; NaN if it fails. */
static double det_of(size_t k, const double *S)
{
  double A[(N_MAX + 1) * (N_MAX + 1)];
  memcpy(A, S, k * k * sizeof *A);
  gsl_matrix_view Av = gsl_matrix_view_array(A, k, k);
  size_t pdata[N_MAX + 1];
  gsl_permutation perm = {k, pdata};
  int sign;
  if (gsl_linalg_LU_decomp(&Av.matrix, &perm, &sign) != GSL_SUCCESS)
    return NAN;
  return gsl_linalg_LU_det(&Av.matrix, sign);
}

/* The fold's matrix (autonomous: [M - I, f; grad s, 0], forced: M - I) or
 * the flip's (M + I) at the shooting `shot` from X; k its size. */
static enum cs_status cycle_singular(struct c2 *c, const double *X,
                                     const struct cs_orbit_shot *shot, int flip, double *S,
                                     size_t *k)
{
  size_t n = c->n;
  double grad[N_MAX] = {0}, sv;
  *k = flip || c->forced ? n : n + 1;
  if (*k > n) {
    enum cs_status st = keep(c, cs_orbit_section(c->w, &c->sp.orbit, 0.0, X, &sv, grad, NULL));
    if (st != CS_OK)
      return st;
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      S[i * *k + j] = shot->M[i * n + j] + (flip ? 1.0 : -1.0) * (i == j);
  if (*k > n) {
    for (size_t i = 0; i < n; i++)
      S[i * *k + n] = shot->f[i], S[n * *k + i] = grad[i];
    S[n * *k + n] = 0;
  }
  return CS_OK;
}

/* The fold's derivative along v (k = n or n + 1 values, y then T): M v_y + f
 * v_T and the section's grad s . v_y (autonomous), from a shooting at Xv. */
static enum cs_status fold_dv(struct c2 *c, const double *Xv, const double *v, size_t k,
                              double *out)
{
  size_t n = c->n;
  struct cs_orbit_shot sh;
  enum cs_status st =
      keep(c, cs_orbit_shoot(c->w, &c->sp.orbit, 0.0, Xv, cycle_period(c, Xv), 0, &sh));
  if (st != CS_OK)
    return st;
  for (size_t i = 0; i < n; i++) {
    out[i] = k > n ? sh.f[i] * v[n] : 0.0;
    for (size_t j = 0; j < n; j++)
      out[i] += sh.M[i * n + j] * v[j];
  }
  if (k > n) {
    double grad[N_MAX], sv;
    st = keep(c, cs_orbit_section(c->w, &c->sp.orbit, 0.0, Xv, &sv, grad, NULL));
    if (st != CS_OK)
      return st;
    out[n] = 0;
    for (size_t j = 0; j < n; j++)
      out[n] += grad[j] * v[j];
  }
  return CS_OK;
}

/* Codimension-two test functions of cycle curves (the multipliers' matrix
 * from the shooting at s->X):
 *  - fold of cycles: test1 = det(M + I), 0 where a multiplier passes -1
 *    (fold-flip); test2 = <w, D^2F(v, v)>/2, the fold's quadratic
 *    normal-form coefficient, F(y, T) the shooting equations (autonomous:
 *    with the phase condition), v, w the unit right and left null vectors of
 *    F's Jacobian, D^2F(v, v) by central differences of D F v along v (two
 *    shootings with the monodromy matrix): 0 at a cusp of cycles;
 *  - period doubling: test1 = det of the fold's matrix (M - I, bordered by f
 *    and the section for an autonomous model), 0 where a multiplier +1
 *    appears beside the -1 (fold-flip); test2 NaN. */
static enum cs_status cycle_tests(struct c2 *c, struct sol *s, const struct cs_orbit_shot *shot)
{
  size_t k;
  double S[(N_MAX + 1) * (N_MAX + 1)];
  int pd = c->kind == CS_CURVE_PERIOD_DOUBLING;
  enum cs_status st = cycle_singular(c, s->X, shot, !pd, S, &k);
  if (st != CS_OK)
    return st;
  s->test[0] = det_of(k, S);
  if (pd)
    return CS_OK;
  double v[N_MAX + 1], w[N_MAX + 1], g;
  if ((st = cycle_singular(c, s->X, shot, 0, S, &k)) != CS_OK)
    return st;
  if (!bordered_g(k, S, c->bb, c->cb, v, w, &g))
    return CS_OK; /* no coefficient here: test2 stays NaN */
  double nv = norm2(k, v), nw = norm2(k, w), vs = 0;
  for (size_t i = 0; i < k; i++) {
    v[i] /= nv, w[i] /= nw;
    vs += (v[i] / c->sigma[i]) * (v[i] / c->sigma[i]);
  }
  /* a step of 1e-4 of the state (and period) scales along v: the truncation
   * error (its square times the fourth derivative) and the integration
   * noise (rtol over it) both small */
  double eps = 1e-4 / sqrt(vs), Xp[NX_MAX], Xm[NX_MAX], dp[N_MAX + 1], dm[N_MAX + 1];
  memcpy(Xp, s->X, c->nx * sizeof *Xp);
  memcpy(Xm, s->X, c->nx * sizeof *Xm);
  for (size_t i = 0; i < k; i++)
    Xp[i] += eps * v[i], Xm[i] -= eps * v[i];
  if ((st = fold_dv(c, Xp, v, k, dp)) != CS_OK || (st = fold_dv(c, Xm, v, k, dm)) != CS_OK)
    return st;
  double a = 0;
  for (size_t i = 0; i < k; i++)
    a += w[i] * (dp[i] - dm[i]) / (2 * eps);
  s->test[1] = 0.5 * a;
  return CS_OK;
}

/* Test functions, stability and the user functions of a solved point. */
static enum cs_status analyse(struct c2 *c, struct sol *s)
{
  size_t n = c->n;
  const double *X = s->X;
  enum cs_status st = set_pp(c, X[c->ip1], X[c->ip2]);
  if (st != CS_OK)
    return st;
  const void *P = cs_orbit_ws_params(c->w);
  s->test[0] = s->test[1] = s->omega = s->l1_err = s->period = NAN;
  s->n_unstable = 0;
  for (size_t u = 0; u < c->sp.n_user; u++)
    s->user[u] = X[c->sp.user_param[u] == 1 ? c->ip1 : c->ip2] - c->sp.user_value[u];
  if (!c->cycles) {
    double J[N_MAX * N_MAX];
    if ((st = jac_at(c, X, J)) != CS_OK)
      return st;
    if ((st = eigen(n, J, s->re, s->im)) != CS_OK)
      return st;
    s->n_eig = n;
    for (size_t i = 0; i < n; i++)
      s->n_unstable += s->re[i] > 0;
    for (size_t i = 0; i < n; i++)
      c->scale[i] = fmax(fabs(X[i]), c->floor_[i]);
    if (c->kind == CS_CURVE_FOLD) {
      double v[N_MAX], w[N_MAX], g, Bvv[N_MAX];
      if (!bordered_g(n, J, c->bb, c->cb, v, w, &g))
        return CS_ERR_SINGULAR;
      double nv = norm2(n, v), nw = norm2(n, w), vw = 0, a = 0;
      for (size_t i = 0; i < n; i++)
        v[i] /= nv, w[i] /= nw, vw += v[i] * w[i];
      memcpy(s->v, v, n * sizeof *v), memcpy(s->w, w, n * sizeof *w);
      st = keep(c, cs_nf_bilinear(c->m, P, X, c->scale, v, v, 1e-4, Bvv));
      if (st != CS_OK)
        return st;
      for (size_t i = 0; i < n; i++)
        a += w[i] * Bvv[i];
      s->test[0] = vw;
      s->test[1] = 0.5 * a;
      return CS_OK;
    }
    double kappa = X[2 * n];
    s->test[0] = kappa;
    if (kappa > 0) {
      double l1, om, err;
      s->omega = sqrt(kappa);
      if (cs_hopf_l1(c->m, P, X, c->scale, s->omega, &l1, &om, &err) == CS_OK)
        s->test[1] = l1, s->l1_err = err;
    }
    return CS_OK;
  }
  /* cycles: the multipliers of a shooting with the monodromy matrix */
  struct cs_orbit_shot shot;
  double T = cycle_period(c, X);
  st = keep(c, cs_orbit_shoot(c->w, &c->sp.orbit, 0.0, X, T, 0, &shot));
  if (st != CS_OK)
    return st;
  struct cs_orbit orb;
  memset(&orb, 0, sizeof orb);
  orb.n = n;
  orb.autonomous = !c->forced;
  orb.p = X[c->ip1];
  memcpy(orb.y, X, n * sizeof *X);
  orb.period = T;
  memcpy(orb.mono, shot.M, n * n * sizeof *shot.M);
  orb.converged = 1;
  st = keep(c, cs_orbit_multipliers(c->w, shot.M, &orb, 1.0, NULL));
  if (st != CS_OK)
    return st;
  s->period = T;
  s->n_eig = orb.n_mult;
  memcpy(s->re, orb.mult_re, orb.n_mult * sizeof *s->re);
  memcpy(s->im, orb.mult_im, orb.n_mult * sizeof *s->im);
  s->n_unstable = orb.n_unstable;
  if (c->kind == CS_CURVE_NEIMARK_SACKER) {
    double sv, grad[N_MAX];
    if ((st = keep(c, cs_orbit_section(c->w, &c->sp.orbit, 0.0, X, &sv, grad, NULL))) != CS_OK)
      return st;
    if (!cs_ns_analyse(&c->ns, shot.M, shot.f, grad, X[n + 1], &s->ns)) {
      snprintf(c->msg, sizeof c->msg, "singular bordered matrix of the test function");
      return CS_ERR_SINGULAR;
    }
    s->test[0] = s->ns.kappa, s->test[1] = s->ns.theta;
    return CS_OK;
  }
  return cycle_tests(c, s, &shot);
}

/* After an accepted point: the borders follow its null vectors, the Hopf
 * normalisation its eigenvector (the point still satisfies the new ones). */
static void update_borders(struct c2 *c, const struct sol *s)
{
  size_t n = c->n;
  if (c->kind == CS_CURVE_HOPF) {
    const double *v = s->X + n;
    double J[N_MAX * N_MAX], Jv[N_MAX], vv = 0, vu = 0, uu = 0;
    if (jac_at(c, s->X, J) != CS_OK)
      return;
    for (size_t i = 0; i < n; i++) {
      Jv[i] = 0;
      for (size_t j = 0; j < n; j++)
        Jv[i] += J[i * n + j] * v[j];
      vv += v[i] * v[i], vu += v[i] * Jv[i], uu += Jv[i] * Jv[i];
    }
    if (!(uu > 0) || !(vv > 0))
      return;
    for (size_t i = 0; i < n; i++) {
      c->hc[i] = v[i] / vv;
      c->hd[i] = v[i] - vu / uu * Jv[i];
    }
    double nd = norm2(n, c->hd);
    for (size_t i = 0; i < n; i++)
      c->hd[i] /= nd;
    return;
  }
  if (c->kind == CS_CURVE_FOLD)
    return; /* analyse keeps v, w: set below */
}

static void update_nullvec_borders(struct c2 *c, const struct sol *s)
{
  if (c->kind == CS_CURVE_HOPF)
    return;
  if (c->kind == CS_CURVE_NEIMARK_SACKER) {
    cs_ns_update(&c->ns, &s->ns);
    return;
  }
  size_t k = c->k;
  double nv = norm2(k, s->v), nw = norm2(k, s->w);
  if (!(nv > 0) || !(nw > 0))
    return;
  for (size_t i = 0; i < k; i++)
    c->cb[i] = s->v[i] / nv, c->bb[i] = s->w[i] / nw;
}

/* --------------------------------------------------------- the output */

static void to_point(const struct c2 *c, const struct sol *s, double ds, struct cs_curve_point *q)
{
  memset(q, 0, sizeof *q);
  q->p1 = s->X[c->ip1], q->p2 = s->X[c->ip2];
  memcpy(q->y, s->X, c->n * sizeof *q->y);
  q->period = !c->cycles ? NAN : c->forced ? s->period : s->X[c->n];
  q->omega = s->omega;
  q->test[0] = s->test[0], q->test[1] = s->test[1];
  q->l1_err = s->l1_err;
  q->n_eig = s->n_eig;
  memcpy(q->re, s->re, s->n_eig * sizeof *q->re);
  memcpy(q->im, s->im, s->n_eig * sizeof *q->im);
  q->n_unstable = s->n_unstable;
  q->iterations = s->iterations;
  q->ds = ds;
}

enum cs_status cs_curve_half_point(struct cs_curve_half *h, const struct cs_curve_point *q)
{
  if (h->n == h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 64;
    void *p = realloc(h->pt, cap * sizeof *h->pt);
    if (!p)
      return CS_FAIL(CS_ERR_NOMEM);
    h->pt = p, h->cap = cap;
  }
  h->pt[h->n++] = *q;
  return CS_OK;
}

static enum cs_status half_special(struct cs_curve_half *h, enum cs_codim2_kind k,
                                   const struct cs_curve_point *q, const char *note)
{
  if (h->ns == h->caps) {
    size_t cap = h->caps ? 2 * h->caps : 16;
    void *p = realloc(h->sp, cap * sizeof *h->sp);
    if (!p)
      return CS_FAIL(CS_ERR_NOMEM);
    h->sp = p, h->caps = cap;
  }
  struct cs_curve_special *s = &h->sp[h->ns++];
  memset(s, 0, sizeof *s);
  s->kind = k;
  s->after = h->n; /* points of this way before it */
  s->pt = *q;
  snprintf(s->note, sizeof s->note, "%s", note);
  return CS_OK;
}

/* ------------------------------------------------------------ locating */

static int sgn(double v)
{
  return (v > 0) - (v < 0);
}

/* which: 0, 1 the tests, 2... the user functions, -1... the Neimark-Sacker
 * functions (enum cs_ns_fn) */
static double fn_of(const struct sol *s, int which)
{
  return which < 0 ? s->ns.fn[-which - 1] : which < 2 ? s->test[which] : s->user[which - 2];
}

/* The solution at arclength s from a along tk; the corrector starts from
 * guess (NULL: the predictor a + s tk) and, with fix >= 0, keeps X[fix] at
 * the guess's value instead of the arclength. */
static enum cs_status at_s(struct c2 *c, const struct sol *a, const double *tk, double s,
                           const double *guess, int fix, struct sol *out)
{
  double X[NX_MAX];
  for (size_t j = 0; j < c->nx; j++)
    X[j] = guess ? guess[j] : a->X[j] + s * tk[j] * c->sigma[j];
  enum cs_status st = correct(c, X, a->X, tk, s, fix, fix >= 0 ? X[fix] : 0, out);
  if (st == CS_OK)
    st = analyse(c, out);
  return st;
}

/* Illinois on function `which` between a (s = 0) and b (s = ds).
 * Neimark-Sacker curves: a resonance 1:1 or 1:2 without a Jordan block is
 * a branch point of the curve's system (a line of double real multipliers
 * crosses the curve there) whose Newton basin shrinks with the distance to
 * it, and the tangent of a chord step (stale difference rows) misses it:
 * the trials start from the chord between the bracket's two solved ends
 * instead (on the curve to second order, whatever the tangent). The turn's
 * zero is that branch point: its trials stay a third of the bracket away
 * from the ends (the chord's error, quadratic in the bracket, falls faster
 * than the basin, linear), and the point is the chord's zero between the
 * ends once they are BP_CLOSE apart, or where a trial fails with them
 * BP_WIDTH apart (*width: how far apart, else 0): nearer, the corrector
 * leaves the direction across the crossing line undetermined. */
#define BP_WIDTH 1e-3
#define BP_CLOSE 1e-4

/* The zero of function `which` on the chord between the solved ends e[0],
 * e[1] of a bracket, analysed there. */
static enum cs_status analyse(struct c2 *c, struct sol *s);
static enum cs_status chord_zero(struct c2 *c, const struct sol *e, int which, struct sol *found)
{
  double ta = fn_of(&e[0], which), tb = fn_of(&e[1], which), t = ta / (ta - tb);
  *found = t < 0.5 ? e[0] : e[1];
  for (size_t j = 0; j < c->nx; j++)
    found->X[j] = e[0].X[j] + t * (e[1].X[j] - e[0].X[j]);
  return analyse(c, found);
}
static enum cs_status locate(struct c2 *c, int which, const struct sol *a, const struct sol *b,
                             const double *tk, double ds, struct sol *found, double *width)
{
  double sa = 0, sb = ds, fa = fn_of(a, which), fb = fn_of(b, which);
  int side = 0, chord = c->kind == CS_CURVE_NEIMARK_SACKER;
  int bp = chord && which == -(CS_NS_FN_TURN + 1);
  /* the branch point's trials at a fixed value of the parameter that moves
   * most along the curve (the crossing line of a rotation-symmetric field
   * is one of constant turning rate: none of its points is then near) */
  int fix = fabs(tk[c->ip1]) > fabs(tk[c->ip2]) ? c->ip1 : c->ip2;
  *width = 0;
  struct sol *ends = chord ? malloc(2 * sizeof *ends) : NULL;
  if (chord && !ends)
    return CS_FAIL(CS_ERR_NOMEM);
  if (chord)
    ends[0] = *a, ends[1] = *b;
  *found = fabs(fa) < fabs(fb) ? *a : *b;
  enum cs_status st = CS_OK;
  int it;
  for (it = 0; it < LOCATE_ITER; it++) {
    double s = (sa * fb - sb * fa) / (fb - fa);
    double lo = sa + 0.01 * (sb - sa), hi = sb - 0.01 * (sb - sa);
    if (!isfinite(s) || s < lo || s > hi)
      s = 0.5 * (sa + sb);
    if (bp) /* the secant's root is the branch point: a third of the way at least */
      s = fmin(fmax(s, sa + (sb - sa) / 3), sb - (sb - sa) / 3);
    double guess[NX_MAX];
    for (size_t j = 0; chord && j < c->nx; j++)
      guess[j] = ends[0].X[j] + (s - sa) / (sb - sa) * (ends[1].X[j] - ends[0].X[j]);
    if (bp) /* rows from afar would stop the corrector early: the derivative
             * across the crossing line falls with the distance to it */
      c->dq_valid = 0;
    st = at_s(c, a, tk, s, chord ? guess : NULL, bp ? fix : -1, found);
    if (st != CS_OK && st != CS_ERR_NOMEM && bp && fabs(sb - sa) > BP_WIDTH) {
      /* the branch point near s (its basin shrinks there): once more at the
       * other third of the bracket */
      s = sa + sb - s;
      for (size_t j = 0; j < c->nx; j++)
        guess[j] = ends[0].X[j] + (s - sa) / (sb - sa) * (ends[1].X[j] - ends[0].X[j]);
      st = at_s(c, a, tk, s, guess, fix, found);
    }
    if (st == CS_OK && bp) { /* where the solution is along the tangent */
      s = 0;
      for (size_t j = 0; j < c->nx; j++)
        s += tk[j] * (found->X[j] - a->X[j]) / c->sigma[j];
    }
    if (st != CS_OK && bp && fabs(sb - sa) <= BP_WIDTH) {
      st = chord_zero(c, ends, which, found);
      *width = fabs(sb - sa);
      break;
    }
    if (st != CS_OK)
      break;
    double fs = fn_of(found, which);
    if (fs == 0 || !isfinite(fs)) {
      st = isfinite(fs) ? CS_OK : CS_ERR_NOCONV;
      break;
    }
    if (sgn(fs) == sgn(fb)) {
      sb = s, fb = fs;
      if (chord)
        ends[1] = *found;
      if (side == 1)
        fa /= 2;
      side = 1;
    } else {
      sa = s, fa = fs;
      if (chord)
        ends[0] = *found;
      if (side == -1)
        fb /= 2;
      side = -1;
    }
    if (bp && fabs(sb - sa) <= BP_CLOSE) {
      st = chord_zero(c, ends, which, found);
      *width = fabs(sb - sa);
      break;
    }
    if (fabs(sb - sa) <= c->sp.locate_tol)
      break;
  }
  free(ends);
  if (it == LOCATE_ITER) {
    snprintf(c->msg, sizeof c->msg, "not located in %d trials", LOCATE_ITER);
    return CS_ERR_NOCONV;
  }
  return st;
}

/* Codim-2 and user points between a and b; *stop when the curve ends there
 * (a Bogdanov-Takens point of a Hopf curve). */
static enum cs_status specials(struct c2 *c, struct cs_curve_half *h, const struct sol *a,
                               const struct sol *b, const double *tk, double ds, int *stop,
                               struct sol *bt)
{
  struct sol f;
  char note[200];
  *stop = 0;
  /* Neimark-Sacker: its own functions (resonances, the pair's turn); the
   * other curves: their two test functions (cycle curves: fold-flip and cusp
   * of cycles) */
  int ns = c->kind == CS_CURVE_NEIMARK_SACKER;
  int n_tests = ns ? CS_NS_N_FN : 2;
  for (int which = 0; which < n_tests + (int)c->sp.n_user; which++) {
    int w = which >= n_tests ? 2 + (which - n_tests) : ns ? -(which + 1) : which;
    double fa = fn_of(a, w), fb = fn_of(b, w);
    /* a zero exactly at b counts here (a at the start is the start's own
     * row; later a is the previous b): none lost, none twice */
    if (!isfinite(fa) || !isfinite(fb) || !(sgn(fa) * sgn(fb) < 0 || (fb == 0 && fa != 0)))
      continue;
    double width = 0;
    enum cs_status st = fb == 0 ? (f = *b, CS_OK) : locate(c, w, a, b, tk, ds, &f, &width);
    if (st == CS_ERR_NOMEM)
      return st;
    if (w >= 2) {
      /* a user point exactly at its value: the corrector at that parameter */
      int u = w - 2, ix = c->sp.user_param[u] == 1 ? c->ip1 : c->ip2;
      double X[NX_MAX];
      memcpy(X, f.X, c->nx * sizeof *X);
      struct sol g = f;
      if (correct(c, X, f.X, tk, 0, ix, c->sp.user_value[u], &g) == CS_OK &&
          analyse(c, &g) == CS_OK)
        f = g, st = CS_OK;
    }
    const char *how = st == CS_OK ? "" : " (approximate)";
    enum cs_codim2_kind k;
    struct cs_curve_point q;
    to_point(c, &f, 0, &q);
    if (w >= 2) {
      int u = w - 2;
      k = CS_CODIM2_USER;
      snprintf(note, sizeof note, "%s = %.10g%s",
               c->m->param[c->sp.user_param[u] == 1 ? cs_orbit_ws_param(c->w) : c->sp.param2].name,
               c->sp.user_value[u], how);
    } else if (ns) {
      if (!cs_ns_codim2(-w - 1, f.test[0], &k, note, sizeof note))
        continue; /* the turn's sign away from +-1: a neutral saddle's */
      if (width > 0)
        snprintf(note + strlen(note), sizeof note - strlen(note),
                 "; a branch point: the chord between solved points %.1e apart", width);
      snprintf(note + strlen(note), sizeof note - strlen(note), "%s", how);
    } else if (c->cycles) {
      k = w == 0 ? CS_CODIM2_FOLD_FLIP : CS_CODIM2_CUSP_CYCLES;
      if (w == 1)
        snprintf(note, sizeof note, "the fold of cycles' quadratic coefficient vanishes%s", how);
      else if (c->kind == CS_CURVE_FOLD_CYCLES)
        snprintf(note, sizeof note, "a multiplier passes -1 on the fold of cycles%s", how);
      else
        snprintf(note, sizeof note, "a multiplier passes +1 on the period doubling%s", how);
    } else if (c->kind == CS_CURVE_FOLD) {
      k = w == 0 ? CS_CODIM2_BT : CS_CODIM2_CUSP;
      if (w == 0)
        snprintf(note, sizeof note, "the fold's null vectors become orthogonal (<w, v> = 0)%s",
                 how);
      else
        snprintf(note, sizeof note, "the fold's quadratic coefficient vanishes (<w, v> = %.6g)%s",
                 f.test[0], how);
    } else {
      k = w == 0 ? CS_CODIM2_BT : CS_CODIM2_BAUTIN;
      if (w == 0) {
        snprintf(note, sizeof note, "the Hopf frequency goes to 0 (omega^2 = %.3g)%s", f.test[0],
                 how);
        *stop = 1;
        *bt = f;
      } else {
        /* l1 there is 0 to within its error estimate by construction; an
         * estimate that is not small against l1 nearby says that l1 depends
         * on the difference step (a field not three times differentiable) */
        double near = fmax(fabs(fa), fabs(fb));
        if (f.l1_err > 0.01 * near)
          snprintf(note, sizeof note,
                   "l1 changes sign (omega = %.8g), doubtful: l1 changes by %.2g with the "
                   "difference step (nearby |l1| %.2g)%s",
                   f.omega, f.l1_err, near, how);
        else
          snprintf(note, sizeof note,
                   "the first Lyapunov coefficient changes sign (omega = %.8g)%s", f.omega, how);
      }
    }
    st = half_special(h, k, &q, note);
    if (st != CS_OK)
      return st;
  }
  return CS_OK;
}

/* ------------------------------------------------------------ one way */

static enum cs_status run_half(struct c2 *c, const struct sol *start, int dir,
                               struct cs_curve_half *h)
{
  struct sol *cur = malloc(sizeof *cur), *next = malloc(sizeof *next), *bt = malloc(sizeof *bt);
  if (!cur || !next || !bt) {
    free(cur), free(next), free(bt);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  *cur = *start;
  /* the tangent oriented by dir along p2 (or p1 where the curve is vertical) */
  double tk0[NX_MAX];
  hat(c, cur->tu, tk0);
  if (sgn(tk0[c->ip2]) != dir && !(fabs(tk0[c->ip2]) < 1e-12 && tk0[c->ip1] * dir > 0))
    for (size_t j = 0; j < c->nx; j++)
      cur->tu[j] = -cur->tu[j];
  update_borders(c, cur);
  update_nullvec_borders(c, cur);
  double ds = c->sp.ds;
  enum cs_status st = CS_OK;
  h->ok = 1;
  const double lo[2] = {c->sp.min1, c->sp.min2}, hi[2] = {c->sp.max1, c->sp.max2};
  const int ip[2] = {c->ip1, c->ip2};
  for (;;) {
    if (h->n >= c->sp.max_points) {
      snprintf(h->end, sizeof h->end, "%zu points reached", c->sp.max_points);
      break;
    }
    double tk[NX_MAX], X[NX_MAX];
    hat(c, cur->tu, tk);
    for (size_t j = 0; j < c->nx; j++)
      X[j] = cur->X[j] + ds * tk[j] * c->sigma[j];
    /* a predictor outside the box: land on its edge */
    int fix = -1;
    double fixval = 0, frac = 1;
    for (int q = 0; q < 2; q++) {
      double pp = X[ip[q]], pc = cur->X[ip[q]];
      double edge = pp > hi[q] ? hi[q] : pp < lo[q] ? lo[q] : NAN;
      if (isfinite(edge) && pp != pc && (edge - pc) / (pp - pc) < frac)
        frac = (edge - pc) / (pp - pc), fix = ip[q], fixval = edge;
    }
    enum cs_status cst;
    if (fix >= 0) {
      for (size_t j = 0; j < c->nx; j++)
        X[j] = cur->X[j] + frac * ds * tk[j] * c->sigma[j];
      cst = correct(c, X, cur->X, tk, 0, fix, fixval, next);
    } else {
      cst = correct(c, X, cur->X, tk, ds, -1, 0, next);
    }
    if (cst == CS_OK)
      cst = analyse(c, next);
    int ok = cst == CS_OK;
    if (ok) {
      double tn[NX_MAX], dot = 0;
      hat(c, next->tu, tn);
      for (size_t j = 0; j < c->nx; j++)
        dot += tn[j] * tk[j];
      if (dot < 0) /* the tangent of the fixed-parameter solve may point back */
        for (size_t j = 0; j < c->nx; j++)
          next->tu[j] = -next->tu[j], dot = -dot;
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
      ds *= 0.5;
      if (ds < c->sp.ds_min) {
        snprintf(h->end, sizeof h->end, "step below ds_min after (%.10g, %.10g): %.200s",
                 cur->X[c->ip1], cur->X[c->ip2], c->msg);
        h->ok = 0;
        break;
      }
      continue;
    }
    double sarc = 0;
    for (size_t j = 0; j < c->nx; j++)
      sarc += tk[j] * (next->X[j] - cur->X[j]) / c->sigma[j];
    int stop;
    st = specials(c, h, cur, next, tk, fix >= 0 ? sarc : ds, &stop, bt);
    if (st != CS_OK)
      break;
    struct cs_curve_point q;
    if (stop) {
      to_point(c, bt, dir * ds, &q);
      st = cs_curve_half_point(h, &q);
      snprintf(h->end, sizeof h->end,
               "a Bogdanov-Takens point at (%.10g, %.10g): the Hopf curve ends (beyond it: "
               "neutral saddles)",
               bt->X[c->ip1], bt->X[c->ip2]);
      break;
    }
    update_borders(c, next);
    update_nullvec_borders(c, next);
    to_point(c, next, dir * (fix >= 0 ? sarc : ds), &q);
    st = cs_curve_half_point(h, &q);
    *cur = *next;
    if (st != CS_OK)
      break;
    if (fix >= 0) {
      snprintf(h->end, sizeof h->end, "reached the edge of the box, %s = %.10g",
               c->m->param[fix == c->ip1 ? cs_orbit_ws_param(c->w) : c->sp.param2].name, fixval);
      break;
    }
    if (cur->iterations <= EASY_ITER)
      ds = fmin(ds * GROW, c->sp.ds_max);
    else if (cur->iterations > HARD_ITER)
      ds = fmax(ds * SHRINK, c->sp.ds_min);
  }
  if (st == CS_OK && h->n) {
    struct cs_curve_point q = h->pt[h->n - 1];
    st = half_special(h, CS_CODIM2_END, &q, h->end);
  }
  free(cur), free(next), free(bt);
  return st;
}

/* ------------------------------------------------------------- the start */

/* The null vectors of S (k x k) by GSL's SVD: v the right, w the left
 * singular vector of the smallest singular value. */
static enum cs_status svd_null(size_t k, const double *S, double *v, double *w)
{
  gsl_matrix *U = gsl_matrix_alloc(k, k), *V = gsl_matrix_alloc(k, k);
  gsl_vector *sv = gsl_vector_alloc(k), *work = gsl_vector_alloc(k);
  enum cs_status st = CS_OK;
  if (!U || !V || !sv || !work) {
    st = CS_ERR_NOMEM;
  } else {
    for (size_t i = 0; i < k; i++)
      for (size_t j = 0; j < k; j++)
        gsl_matrix_set(U, i, j, S[i * k + j]);
    if (gsl_linalg_SV_decomp(U, V, sv, work) != GSL_SUCCESS)
      st = CS_ERR_SINGULAR;
    for (size_t i = 0; st == CS_OK && i < k; i++)
      v[i] = gsl_matrix_get(V, i, k - 1), w[i] = gsl_matrix_get(U, i, k - 1);
  }
  if (U)
    gsl_matrix_free(U);
  if (V)
    gsl_matrix_free(V);
  if (sv)
    gsl_vector_free(sv);
  if (work)
    gsl_vector_free(work);
  return st;
}

static enum cs_status start_point(struct c2 *c, const struct cs_special *sp, double p2,
                                  struct sol *s)
{
  size_t n = c->n, nx = c->nx;
  double X[NX_MAX] = {0};
  memcpy(X, sp->pt.y, n * sizeof *X);
  X[c->ip1] = sp->pt.p, X[c->ip2] = p2;
  enum cs_status st = set_pp(c, sp->pt.p, p2);
  if (st != CS_OK)
    return st;
  double J[N_MAX * N_MAX], S[(N_MAX + 1) * (N_MAX + 1)];
  if (!c->cycles) {
    if ((st = jac_at(c, X, J)) != CS_OK)
      return st;
    for (size_t i = 0; i < n; i++)
      c->sigma[i] = fmax(fabs(X[i]), c->sigma[i]);
    if (c->kind == CS_CURVE_FOLD) {
      if ((st = svd_null(n, J, c->cb, c->bb)) != CS_OK)
        return st;
      /* <w, v> >= 0 at the start, so that the quadratic coefficient's sign
       * is that of the normal form's with <w, v> = 1 there */
      double wv = 0;
      for (size_t i = 0; i < n; i++)
        wv += c->bb[i] * c->cb[i];
      for (size_t i = 0; wv < 0 && i < n; i++)
        c->bb[i] = -c->bb[i];
    } else {
      /* v = Re q, q the eigenvector of +i omega; kappa = omega^2 */
      double A[N_MAX * N_MAX];
      memcpy(A, J, n * n * sizeof *A);
      gsl_matrix_view Av = gsl_matrix_view_array(A, n, n);
      gsl_vector_complex *ev = gsl_vector_complex_alloc(n);
      gsl_matrix_complex *V = gsl_matrix_complex_alloc(n, n);
      gsl_eigen_nonsymmv_workspace *ws = gsl_eigen_nonsymmv_alloc(n);
      if (!ev || !V || !ws || gsl_eigen_nonsymmv(&Av.matrix, ev, V, ws) != GSL_SUCCESS)
        st = CS_ERR_SINGULAR;
      size_t best = 0;
      double bd = INFINITY;
      for (size_t i = 0; st == CS_OK && i < n; i++) {
        gsl_complex z = gsl_vector_complex_get(ev, i);
        double d = hypot(GSL_REAL(z), GSL_IMAG(z) - sp->omega);
        if (GSL_IMAG(z) > 0 && d < bd)
          bd = d, best = i;
      }
      double v[N_MAX], vi[N_MAX], om = 0;
      if (st == CS_OK && isfinite(bd)) {
        om = GSL_IMAG(gsl_vector_complex_get(ev, best));
        for (size_t i = 0; i < n; i++)
          v[i] = GSL_REAL(gsl_matrix_complex_get(V, i, best)),
          vi[i] = GSL_IMAG(gsl_matrix_complex_get(V, i, best));
        /* the larger of the real and imaginary parts (neither vanishes generically) */
        if (norm2(n, vi) > norm2(n, v))
          memcpy(v, vi, n * sizeof *v);
      } else if (st == CS_OK) {
        st = CS_ERR_SINGULAR;
      }
      if (ev)
        gsl_vector_complex_free(ev);
      if (V)
        gsl_matrix_complex_free(V);
      if (ws)
        gsl_eigen_nonsymmv_free(ws);
      if (st != CS_OK) {
        snprintf(c->msg, sizeof c->msg, "no complex pair at the Hopf point");
        return st;
      }
      double nv = norm2(n, v);
      for (size_t i = 0; i < n; i++)
        X[n + i] = v[i] / nv, c->sigma[n + i] = 1;
      X[2 * n] = om * om;
      c->sigma[2 * n] = om * om;
      struct sol tmp;
      memcpy(tmp.X, X, nx * sizeof *X);
      update_borders(c, &tmp);
    }
  } else {
    if (!c->forced)
      X[n] = sp->pt.period, c->sigma[n] = sp->pt.period;
    else if (sp->pt.returns < 1 && isfinite(sp->pt.period))
      /* a point read from a file has its period, not its returns */
      c->returns =
          (int)fmax(1.0, round(sp->pt.period / c->m->forcing_period(cs_orbit_ws_params(c->w))));
    for (size_t i = 0; i < n; i++)
      c->sigma[i] = fmax(sp->pt.ymax[i] - sp->pt.ymin[i], c->sigma[i]);
    struct cs_orbit_shot shot;
    double sv, grad[N_MAX] = {0};
    st = keep(c, cs_orbit_shoot(c->w, &c->sp.orbit, 0.0, X, cycle_period(c, X), 0, &shot));
    if (st == CS_OK && !c->forced)
      st = keep(c, cs_orbit_section(c->w, &c->sp.orbit, 0.0, X, &sv, grad, NULL));
    if (st != CS_OK)
      return st;
    if (c->kind == CS_CURVE_NEIMARK_SACKER) {
      st = keep(c, cs_ns_start(c->w, &c->sp.orbit, X, X[n], sp->pt.p, 1e-6 * c->sigma[c->ip1],
                               shot.M, shot.f, grad, sp->omega, &c->ns, &X[n + 1]));
      c->sigma[n + 1] = 1; /* kappa = cos theta */
      c->cur1 = NAN;       /* cs_ns_start shot at p1 + h */
      if (st != CS_OK)
        return st;
    } else {
      cycle_matrix(c, &shot, grad, S);
      if ((st = svd_null(c->k, S, c->cb, c->bb)) != CS_OK)
        return st;
    }
  }
  /* converge onto the curve at fixed p2, then the tangent */
  st = correct(c, X, X, NULL, 0, c->ip2, p2, s);
  if (st == CS_OK)
    st = analyse(c, s);
  /* started on the BT point: its own zero of the BT test, not a crossing */
  if (st == CS_OK && c->from_bt)
    s->test[0] = 0;
  if (st == CS_OK)
    update_nullvec_borders(c, s);
  return st;
}

/* ------------------------------------------------------------- entry */

static enum cs_status continue_curve(struct cs_orbit_ws *ws, const void *params_unprepared,
                                     const struct cs_curve_spec *spec, enum cs_curve_kind kind,
                                     const struct cs_special *sp, int from_bt,
                                     struct cs_curve *out);

enum cs_status cs_continue_curve(struct cs_orbit_ws *ws, const void *params_unprepared,
                                 const struct cs_curve_spec *spec, enum cs_curve_kind kind,
                                 const struct cs_special *sp, struct cs_curve *out)
{
  if (kind == CS_CURVE_GRAZING) /* its own system: continuation2_graze.c */
    return cs_graze_curve(ws, params_unprepared, spec, sp, out);
  return continue_curve(ws, params_unprepared, spec, kind, sp, 0, out);
}

enum cs_status cs_continue_curve_from_bt(struct cs_orbit_ws *ws, const void *params_unprepared,
                                         const struct cs_curve_spec *spec, enum cs_curve_kind kind,
                                         const struct cs_special *sp, struct cs_curve *out)
{
  if (kind != CS_CURVE_FOLD)
    return cs_error_set(CS_ERR_ARG, "only a fold curve starts on a Bogdanov-Takens point");
  return continue_curve(ws, params_unprepared, spec, kind, sp, 1, out);
}

static enum cs_status continue_curve(struct cs_orbit_ws *ws, const void *params_unprepared,
                                     const struct cs_curve_spec *spec, enum cs_curve_kind kind,
                                     const struct cs_special *sp, int from_bt, struct cs_curve *out)
{
  cs_gsl_quiet();
  memset(out, 0, sizeof *out);
  struct c2 c;
  memset(&c, 0, sizeof c);
  c.w = ws;
  c.m = cs_orbit_ws_model(ws);
  c.sp = *spec;
  c.kind = kind;
  c.from_bt = from_bt;
  c.cycles = kind == CS_CURVE_FOLD_CYCLES || kind == CS_CURVE_PERIOD_DOUBLING ||
             kind == CS_CURVE_NEIMARK_SACKER;
  c.ng = kind == CS_CURVE_NEIMARK_SACKER ? 2 : 1;
  c.n = c.m->n_state;
  c.out = out;
  out->kind = kind;
  out->n = c.n;
  size_t n = c.n;
  static const enum cs_special_kind need[] = {CS_SPECIAL_FOLD, CS_SPECIAL_HOPF, CS_SPECIAL_FOLD,
                                              CS_SPECIAL_PERIOD_DOUBLING,
                                              CS_SPECIAL_NEIMARK_SACKER};
  if (cs_orbit_ws_param(ws) < 0 || spec->param2 < 0 || spec->param2 == cs_orbit_ws_param(ws) ||
      !(spec->max1 > spec->min1) || !(spec->max2 > spec->min2) || !(spec->ds > 0) ||
      !(spec->ds_min > 0) || spec->max_points < 1 || spec->n_user > CS_CURVE_MAX_USER ||
      (int)kind < 0 || kind > CS_CURVE_NEIMARK_SACKER || sp->kind != need[kind])
    return cs_error_set(CS_ERR_ARG, "a %s curve cannot start at a %s point (or a bad spec)",
                        cs_curve_name(kind), cs_special_name(sp->kind));
  /* the deflation of the trivial multiplier needs the section (autonomous);
   * forced fold and period-doubling curves have no trivial multiplier */
  if (kind == CS_CURVE_NEIMARK_SACKER && !cs_orbit_ws_autonomous(ws))
    return cs_error_set(CS_ERR_UNSUPPORTED,
                        "Neimark-Sacker curves of a forced model are not supported");
  c.forced = c.cycles && !cs_orbit_ws_autonomous(ws);
  c.returns = sp->pt.returns > 0        ? sp->pt.returns
              : spec->orbit.returns > 0 ? spec->orbit.returns
                                        : 1;
  if (!c.m->jac)
    return cs_error_set(CS_ERR_UNSUPPORTED, "%s has no analytic Jacobian", c.m->name);
  c.base = malloc(c.m->params_size);
  struct sol *s = calloc(1, sizeof *s);
  if (!c.base || !s) {
    free(c.base), free(s);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  memcpy(c.base, params_unprepared, c.m->params_size);
  double p2 = cs_model_get_param(c.m, c.base, spec->param2);
  c.cur1 = c.cur2 = NAN;
  switch (kind) {
  case CS_CURVE_FOLD:
    c.nx = n + 2, c.k = n;
    break;
  case CS_CURVE_HOPF:
    c.nx = 2 * n + 3, c.k = n;
    break;
  case CS_CURVE_NEIMARK_SACKER:
    c.nx = n + 4, c.k = n;
    break;
  default:
    /* (y0, T, p1, p2), the fold's matrix bordered by f and the section;
     * forced: (y0, p1, p2), M -+ I alone (no trivial multiplier) */
    c.nx = c.forced ? n + 2 : n + 3;
    c.k = kind == CS_CURVE_FOLD_CYCLES && !c.forced ? n + 1 : n;
  }
  c.ip1 = (int)c.nx - 2, c.ip2 = (int)c.nx - 1;
  double rtol = spec->orbit.solver.rtol > 0 ? spec->orbit.solver.rtol : 1e-8;
  for (size_t i = 0; i < n; i++) {
    double atol =
        spec->orbit.solver.atol_vec ? spec->orbit.solver.atol_vec[i] : spec->orbit.solver.atol;
    c.sigma[i] = atol > 0 ? atol / rtol : 1e-3;
    c.scale[i] = c.floor_[i] = c.sigma[i];
  }
  c.sigma[c.ip1] = spec->max1 - spec->min1;
  c.sigma[c.ip2] = spec->max2 - spec->min2;
  c.ctol = c.cycles ? fmax(rtol * spec->orbit.newton_tol, 1e-10) : 1e-11;
  enum cs_status st = CS_OK;
  if (!(p2 >= spec->min2 && p2 <= spec->max2) ||
      !(sp->pt.p >= spec->min1 && sp->pt.p <= spec->max1))
    st = cs_error_set(CS_ERR_ARG, "the start (%.10g, %.10g) is outside the box", sp->pt.p, p2);
  if (st == CS_OK)
    st = start_point(&c, sp, p2, s);
  if (st != CS_OK) {
    if (!c.msg[0])
      snprintf(c.msg, sizeof c.msg, "%s", cs_errmsg());
    st = cs_error_set(st == CS_ERR_NOMEM ? st : CS_ERR_NOCONV,
                      "the %s curve does not start: %.200s", cs_curve_name(kind), c.msg);
    free(c.base), free(s);
    return st;
  }
  struct cs_curve_half h[2];
  memset(h, 0, sizeof h);
  int dirs[2] = {-1, +1}, nd = 2;
  if (spec->direction)
    dirs[0] = spec->direction, nd = 1;
  /* the start's null vectors and normalisation again for each way */
  double bb[N_MAX + 1], cb[N_MAX + 1], hc[N_MAX], hd[N_MAX];
  memcpy(bb, c.bb, sizeof bb), memcpy(cb, c.cb, sizeof cb);
  memcpy(hc, c.hc, sizeof hc), memcpy(hd, c.hd, sizeof hd);
  struct cs_ns_borders ns0 = c.ns;
  for (int k = 0; k < nd && st == CS_OK; k++) {
    memcpy(c.bb, bb, sizeof bb), memcpy(c.cb, cb, sizeof cb);
    memcpy(c.hc, hc, sizeof hc), memcpy(c.hd, hd, sizeof hd);
    c.ns = ns0;
    st = run_half(&c, s, dirs[k], &h[k]);
  }
  /* the curve: the first way reversed (nd == 2), the start, the second way */
  struct cs_curve_point q0;
  to_point(&c, s, 0, &q0);
  size_t nb = nd == 2 ? h[0].n : 0, total = nb + 1 + h[nd - 1].n;
  out->points = malloc(total * sizeof *out->points);
  size_t ns = h[0].ns + (nd == 2 ? h[1].ns : 0) + 1 + c.sp.n_user;
  out->special = malloc(ns * sizeof *out->special);
  if (st == CS_OK && (!out->points || !out->special))
    st = CS_FAIL(CS_ERR_NOMEM);
  if (st == CS_OK) {
    for (size_t i = 0; i < nb; i++)
      out->points[i] = h[0].pt[nb - 1 - i];
    out->points[nb] = q0;
    const struct cs_curve_half *f = &h[nd - 1];
    for (size_t i = 0; i < f->n; i++)
      out->points[nb + 1 + i] = f->pt[i];
    out->n_points = out->cap_points = total;
    out->start_row = nb;
    size_t r = 0;
    /* the first way's specials in curve order; `after` counted the way's
     * points before each, now the curve row before it */
    for (size_t i = nd == 2 ? h[0].ns : 0; i-- > 0;) {
      struct cs_curve_special sp2 = h[0].sp[i];
      /* its point i is row nb - 1 - i; "after" the row before it in curve order */
      sp2.after = sp2.kind == CS_CODIM2_END ? 0 : nb - 1 - sp2.after;
      out->special[r++] = sp2;
    }
    out->special[r].kind = CS_CODIM2_START;
    out->special[r].after = nb;
    out->special[r].pt = q0;
    if (from_bt)
      snprintf(out->special[r].note, sizeof out->special[r].note,
               "the Bogdanov-Takens point of the Hopf curve");
    else
      snprintf(out->special[r].note, sizeof out->special[r].note, "the %s point of the branch",
               cs_special_name(sp->kind));
    r++;
    /* a user value the start already has: no step crosses it, so it is
     * reported here (the start's p2 is the caller's, exactly) */
    for (size_t u = 0; u < c.sp.n_user; u++) {
      if (s->user[u] != 0)
        continue;
      out->special[r].kind = CS_CODIM2_USER;
      out->special[r].after = nb;
      out->special[r].pt = q0;
      snprintf(out->special[r].note, sizeof out->special[r].note, "%s = %.10g (the start)",
               c.m->param[c.sp.user_param[u] == 1 ? cs_orbit_ws_param(c.w) : c.sp.param2].name,
               c.sp.user_value[u]);
      r++;
    }
    for (size_t i = 0; i < f->ns; i++) {
      struct cs_curve_special sp2 = f->sp[i];
      sp2.after = sp2.kind == CS_CODIM2_END ? total - 1 : nb + sp2.after;
      out->special[r++] = sp2;
    }
    out->n_special = out->cap_special = r;
    out->status = h[0].ok && (nd == 1 || h[1].ok) ? CS_OK : CS_ERR_NOCONV;
    if (nd == 2)
      snprintf(out->end_note, sizeof out->end_note, "one way: %s; the other: %s", h[0].end,
               h[1].end);
    else
      snprintf(out->end_note, sizeof out->end_note, "%s", h[0].end);
  }
  for (int k = 0; k < 2; k++)
    free(h[k].pt), free(h[k].sp);
  free(c.base), free(s);
  /* the workspace as it came: the caller's p2 and the start's p1 */
  enum cs_status rst = cs_orbit_ws_set_base(ws, params_unprepared);
  if (rst == CS_OK)
    rst = cs_orbit_ws_set_param(ws, sp->pt.p);
  if (st == CS_OK && rst != CS_OK)
    st = rst, snprintf(c.msg, sizeof c.msg, "%s", cs_errmsg());
  if (st != CS_OK) {
    cs_curve_free(out);
    return cs_error_set(st, "%s", c.msg[0] ? c.msg : cs_errmsg());
  }
  return CS_OK;
}
