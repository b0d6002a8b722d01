/* SPDX-License-Identifier: MIT */
/* Lyapunov exponents by Benettin's method (Benettin, Galgani, Giorgilli &
 * Strelcyn, Meccanica 15 (1980); the QR form of Shimada & Nagashima, Prog.
 * Theor. Phys. 61 (1979)).
 *
 * The augmented system of N = n (1 + q) equations
 *   y' = f(t, y),  v_j' = J(t, y) v_j,  j = 1..q,
 * with J the model's analytic Jacobian, runs on its own integrator (one
 * workspace, so the orbit's flow keeps its size and allocates nothing). The
 * orbit controls the step size; the tangent vectors are in the error test
 * only loosely (see cs_lyapunov_run: their growth rate is what is measured).
 * Every
 * `renorm` time units the tangent vectors are orthonormalised by modified
 * Gram-Schmidt (a QR factorisation, V = Q R): log R_jj is the growth of the
 * j-th volume direction over the interval, and the integrator restarts from
 * (y, Q). The first tenth of the run only aligns the vectors with the
 * unstable directions and is not counted; the rest is split into B = 10
 * blocks of (nearly) equal length:
 *   lambda_j = sum of log R_jj over the counted intervals / counted time,
 *   err_j    = sqrt(sum_b (lambda_jb - lambda_j)^2 / (B (B - 1))),
 * the standard error of the mean of the block estimates lambda_jb. For a
 * chaotic orbit the finite-time exponents of blocks much longer than the
 * correlation time are nearly independent, so err_j estimates the
 * statistical uncertainty of lambda_j; for a regular orbit it measures how
 * far the estimate still moves (the 1/T bias of a zero exponent is not in it,
 * which is why the classification also has an absolute zero tolerance).
 *
 * Early stop (decide > 0): after each block from the fourth on, the run
 * ends if the largest exponent's sign is decided, |lambda| - t se > decide
 * with t the one-sided 99.9 % quantile of Student's t for the blocks so far
 * (t = 5.8 .. 4.3 for 4 .. 9 blocks, stricter than the 3 se of the final
 * classification); the result is then that of the completed blocks. A zero
 * exponent is never decided early (its interval cannot shrink below the
 * zero tolerance in a useful time), so a point that would be called
 * quasi-periodic after the whole run is still run whole: shortening can
 * only end runs whose sign is clear, never turn a chaotic point into a
 * quasi-periodic one.
 *
 * QR steps. With q > 1 vectors, the j-th carries its exponent only in its
 * part orthogonal to the ones before, which shrinks by exp(-(lambda_1 -
 * lambda_j) dt) between QR steps; once that is near the tangents'
 * integration tolerance the smaller exponents are noise (Lorenz at renorm 1:
 * lambda_3 came out -6.5 instead of -14.57). So each renormalisation
 * interval is split into nsub QR steps, nsub doubled (up to SUB_MAX) while a
 * step's log(R_11 / R_qq) exceeds SPREAD_MAX and halved when it falls below
 * a quarter of it: the residuals stay above exp(-3) = 5 % of the vectors.
 * The logs of all steps of an interval count for the interval, so the
 * blocks and the error estimate are as before.
 *
 * Event-driven models (stick-slip with switching functions): the model's
 * switching functions are the integrator's root functions and the run keeps
 * its modes on its own copy of the params (mode_init at the start). At each
 * switch the state jumps to the reset and every tangent vector by the
 * saltation matrix S (analysis/saltation.h: the same matrices that give the
 * Floquet multipliers of stick-slip orbits), and the vectors are
 * orthonormalised right there, their log R_jj counted in the interval
 * (a QR may be taken at any time; it need not wait for the interval's end).
 * Where S has rank < n (slip to stick: the velocities are reset to the
 * belt's, every perturbation of them is forgotten) a vector that S maps
 * into the span of the ones before it is lost: its residual after the
 * projections is below COLLAPSE times the norm of S (exactly 0 in exact
 * arithmetic, round-off in practice). It is dropped, the later vectors move
 * up one place, and the last exponent is -INFINITY: exactly what the
 * direction's growth is (log 0), never a large finite number that depends
 * on round-off. A direction once lost stays lost (no later map raises the
 * rank again), so `reduced` is the dimension the dynamics lost.
 *
 * Implicit stepper: its Newton matrix uses the block-diagonal approximation
 * diag(J, J, ..., J) of the augmented Jacobian (the second-derivative terms
 * d(J v)/dy are left out): a modified Newton iteration, exact in the
 * diagonal blocks, that costs one model Jacobian per evaluation instead of N
 * difference quotients. */
#include "core/error_private.h"
#include "analysis/lyapunov.h"
#include "analysis/saltation.h"
#include "integrate/integrate_private.h"
#include "analysis/lyapunov_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#define LYAP_BLOCKS 10
#define LYAP_MIN_BLOCKS 4 /* blocks before an early stop may be decided */
#define LYAP_MAX_Q 16
#define LYAP_MAX_SW 32 /* switching functions of a model, at most */
#define COLLAPSE 1e-10 /* a residual below this times |S|: the direction is lost */
#define SPREAD_MAX 3.0 /* largest log R_11 / R_qq of one QR step (see below) */
#define SUB_MAX 256    /* QR steps per renormalisation interval, at most */

struct aug_ctx {
  const struct cs_model *m;
  const void *params;
  size_t n, q;
  double *J;   /* n x n scratch */
  double rtol; /* the run's (scaled) rtol: the saltation's state scales */
  size_t nsw;  /* switching functions (the first root functions) */
  struct cs_lyapunov_ws *w;
};

struct cs_lyapunov_ws {
  size_t n_max;
  struct cs_integrator *integ;
  double *Y;    /* n (1 + n_max) augmented state */
  double *atol; /* its absolute tolerances */
  double *J;    /* n_max x n_max */
  struct aug_ctx ctx;
  const volatile int *cancel; /* abandon the run when nonzero */
  double tangent_atol;        /* > 0: the tangents' absolute tolerance */
  void *params, *scratch;     /* event-driven runs: the params copy (modes), saltation's */
  size_t params_cap;
  /* the section whose crossings the runs record (cs_lyapunov_ws_set_section) */
  cs_root_fn sec_fn;
  const void *sec_ctx;
  int sec_dir;
  double *sec_rows;
  size_t sec_cap, sec_n;
};

void cs_lyapunov_ws_set_section(struct cs_lyapunov_ws *w, cs_root_fn g, int direction,
                                const void *ctx, double *rows, size_t cap)
{
  w->sec_fn = rows && cap ? g : NULL;
  w->sec_ctx = ctx;
  w->sec_dir = direction;
  w->sec_rows = rows;
  w->sec_cap = cap;
}

void cs_lyapunov_ws_set_tangent_atol(struct cs_lyapunov_ws *w, double atol)
{
  w->tangent_atol = atol > 0 ? atol : 0.0;
}

void cs_lyapunov_ws_set_cancel(struct cs_lyapunov_ws *w, const volatile int *cancel)
{
  w->cancel = cancel;
}

struct cs_lyapunov_ws *cs_lyapunov_ws_create(size_t n_max)
{
  if (n_max == 0 || n_max > LYAP_MAX_Q)
    return NULL;
  struct cs_lyapunov_ws *w = calloc(1, sizeof *w);
  if (!w)
    return NULL;
  size_t N = n_max * (1 + n_max);
  w->n_max = n_max;
  w->integ = cs_integrator_create(N);
  w->Y = calloc(N, sizeof *w->Y);
  w->atol = calloc(N, sizeof *w->atol);
  w->J = calloc(n_max * n_max, sizeof *w->J);
  if (!w->integ || !w->Y || !w->atol || !w->J) {
    cs_lyapunov_ws_free(w);
    return NULL;
  }
  return w;
}

void cs_lyapunov_ws_free(struct cs_lyapunov_ws *w)
{
  if (!w)
    return;
  cs_integrator_free(w->integ);
  free(w->params);
  free(w->scratch);
  free(w->Y);
  free(w->atol);
  free(w->J);
  free(w);
}

static int aug_rhs(double t, const double *Y, double *Ydot, const void *vp)
{
  const struct aug_ctx *a = vp;
  size_t n = a->n;
  memset(a->J, 0, n * n * sizeof *a->J);
  int rc;
  if (a->m->rhs_jac) {
    /* one evaluation of the law for both (the same values) */
    rc = a->m->rhs_jac(t, Y, Ydot, a->J, a->params);
    if (rc)
      return rc;
  } else {
    rc = a->m->rhs(t, Y, Ydot, a->params);
    if (rc)
      return rc;
    rc = a->m->jac(t, Y, a->J, a->params);
    if (rc)
      return rc;
  }
  for (size_t j = 0; j < a->q; j++) {
    const double *v = Y + n + j * n;
    double *vd = Ydot + n + j * n;
    for (size_t i = 0; i < n; i++) {
      double s = 0;
      for (size_t l = 0; l < n; l++)
        s += a->J[i * n + l] * v[l];
      vd[i] = s;
    }
  }
  return 0;
}

static int aug_jac(double t, const double *Y, double *JA, const void *vp)
{
  const struct aug_ctx *a = vp;
  size_t n = a->n, N = n * (1 + a->q);
  memset(a->J, 0, n * n * sizeof *a->J);
  int rc = a->m->jac(t, Y, a->J, a->params);
  if (rc)
    return rc;
  for (size_t b = 0; b <= a->q; b++)
    for (size_t i = 0; i < n; i++)
      memcpy(JA + (b * n + i) * N + b * n, a->J + i * n, n * sizeof *JA);
  return 0;
}

/* Whether the largest exponent's sign is decided after nb blocks: the mean
 * of the block estimates is beyond +-decide by more than the one-sided
 * 99.9 % quantile of Student's t (nb - 1 degrees of freedom) times its
 * standard error. */
static int decided(double sums[][LYAP_MAX_Q], const long *counts, long nb, double renorm,
                   double decide)
{
  double total = 0, time = 0;
  for (long b = 0; b < nb; b++)
    total += sums[b][0], time += (double)counts[b] * renorm;
  double lam = total / time, var = 0;
  for (long b = 0; b < nb; b++) {
    double d = sums[b][0] / ((double)counts[b] * renorm) - lam;
    var += d * d;
  }
  double se = sqrt(var / (double)(nb * (nb - 1)));
  double tq = gsl_cdf_tdist_Pinv(0.999, (double)(nb - 1));
  return lam - tq * se > decide || lam + tq * se < -decide;
}

/* Modified Gram-Schmidt on the q columns of V (n values each): logs of the
 * diagonal of R into lr. Returns 0, or -1 if a vector collapsed. */
static int orthonormalise(double *V, size_t n, size_t q, double *lr)
{
  for (size_t j = 0; j < q; j++) {
    double *v = V + j * n;
    for (size_t l = 0; l < j; l++) {
      const double *u = V + l * n;
      double d = 0;
      for (size_t i = 0; i < n; i++)
        d += u[i] * v[i];
      for (size_t i = 0; i < n; i++)
        v[i] -= d * u[i];
    }
    double r = 0;
    for (size_t i = 0; i < n; i++)
      r += v[i] * v[i];
    r = sqrt(r);
    if (!(r > 0) || !isfinite(r))
      return -1;
    for (size_t i = 0; i < n; i++)
      v[i] /= r;
    lr[j] = log(r);
  }
  return 0;
}

/* After a saltation: modified Gram-Schmidt on the *qa active columns of V,
 * dropping those whose residual is below COLLAPSE snorm (lost: the columns
 * after move up, the last one is zeroed and *qa shrinks). lr[j] gets log R_jj
 * of the columns that stay (in their new places). */
static void orthonormalise_lossy(double *V, size_t n, size_t *qa, double snorm, double *lr)
{
  size_t j = 0;
  while (j < *qa) {
    double *v = V + j * n;
    for (size_t l = 0; l < j; l++) {
      const double *u = V + l * n;
      double d = 0;
      for (size_t i = 0; i < n; i++)
        d += u[i] * v[i];
      for (size_t i = 0; i < n; i++)
        v[i] -= d * u[i];
    }
    double r = 0;
    for (size_t i = 0; i < n; i++)
      r += v[i] * v[i];
    r = sqrt(r);
    if (!(r > COLLAPSE * snorm) || !isfinite(r)) {
      memmove(v, v + n, (*qa - 1 - j) * n * sizeof *v);
      (*qa)--;
      memset(V + *qa * n, 0, n * sizeof *V);
      continue;
    }
    for (size_t i = 0; i < n; i++)
      v[i] /= r;
    lr[j] = log(r);
    j++;
  }
}

/* The switching functions (nsw of them), then the section's. */
static int aug_roots(double t, const double *Y, double *g, const void *vp)
{
  const struct aug_ctx *a = vp;
  int rc = a->nsw ? a->m->switch_fn(t, Y, g, a->params) : 0;
  if (!rc && a->w->sec_fn) {
    double gs[4]; /* room for a caller's further event functions, which are ignored */
    rc = a->w->sec_fn(t, Y, gs, a->w->sec_ctx);
    g[a->nsw] = gs[0];
  }
  return rc;
}

/* The hybrid run's state between stops. */
struct hybrid {
  struct cs_saltation_in in;
  double scale[LYAP_MAX_Q];
  size_t qa; /* tangent vectors not lost */
  long switches;
  double restarted; /* the last time ARKODE's refusal of a zero root restarted the run */
};

/* Advances a run with root functions to tk: section crossings recorded,
 * mode switches applied (their QR logs added to acc, the interval's). */
static enum cs_status hybrid_advance(struct cs_lyapunov_ws *w, struct hybrid *h, double tk,
                                     double *acc, char *msg, size_t msglen)
{
  size_t n = w->ctx.n;
  double *Y = w->Y, t = 0;
  int fired[LYAP_MAX_SW + 1];
  for (;;) {
    enum cs_stop_reason stop;
    enum cs_status st = cs_integrator_advance(w->integ, tk, &t, Y, &stop);
    if (st == CS_ERR_ARG && t > h->restarted) {
      /* ARKODE refuses a switching function that stays at zero after a
       * root; a restart makes it inactive until it moves (as cs_flow does) */
      h->restarted = t;
      if (cs_integrator_reinit_smooth(w->integ, t, Y) == CS_OK)
        continue;
    }
    if (st != CS_OK || stop == CS_STOP_TOUT)
      return st;
    cs_integrator_roots_found(w->integ, fired);
    size_t nsw = w->ctx.nsw;
    if (w->sec_fn && fired[nsw] && w->sec_n < w->sec_cap) {
      double *row = w->sec_rows + w->sec_n++ * (1 + n);
      row[0] = t;
      memcpy(row + 1, Y, n * sizeof *row);
    }
    int switched = 0;
    for (size_t k = 0; k < nsw; k++)
      switched |= fired[k] != 0;
    if (!switched)
      continue;
    for (size_t j = 0; j < n; j++)
      h->scale[j] = fmax(fmax(fabs(Y[j]), w->atol[j] / fmax(w->ctx.rtol, 1e-300)), 1e-300);
    struct cs_saltation salt;
    st = cs_saltation_apply(&h->in, t, Y, fired, &salt);
    if (st != CS_OK) {
      cs_error_fill(msg, msglen, "Lyapunov run: %s", cs_errmsg());
      return st;
    }
    h->switches++;
    memcpy(Y, salt.y_plus, n * sizeof *Y);
    /* unit vectors first, so that a residual after S compares with |S|
     * alone (a strongly contracted vector is not a lost one) */
    double snorm = 0, tmp[LYAP_MAX_Q], lr[LYAP_MAX_Q];
    if (orthonormalise(Y + n, n, h->qa, lr) != 0) {
      cs_error_fill(msg, msglen, "Lyapunov run: a tangent vector collapsed at t = %.17g", t);
      return CS_ERR_NONFINITE;
    }
    for (size_t j = 0; j < h->qa; j++)
      acc[j] += lr[j];
    for (size_t i = 0; i < n * n; i++)
      snorm += salt.S[i] * salt.S[i];
    snorm = sqrt(snorm);
    for (size_t j = 0; j < h->qa; j++) {
      double *c = Y + n + j * n;
      for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t k = 0; k < n; k++)
          s += salt.S[i * n + k] * c[k];
        tmp[i] = s;
      }
      memcpy(c, tmp, n * sizeof *c);
    }
    orthonormalise_lossy(Y + n, n, &h->qa, snorm, lr);
    for (size_t j = 0; j < h->qa; j++)
      acc[j] += lr[j];
    st = cs_integrator_reinit_state(w->integ, t, Y);
    if (st != CS_OK)
      return st;
  }
}

enum cs_status cs_lyapunov_run(struct cs_lyapunov_ws *w, const struct cs_model *m,
                               const void *params, const struct cs_integrator_opts *opts, double t0,
                               const double *y0, size_t q, double time, double renorm,
                               double decide, struct cs_lyapunov_result *out)
{
  char msg[CS_ERROR_LEN]; /* for the steps below, which also keep it in cs_errmsg() */
  const size_t msglen = sizeof msg;
  for (size_t j = 0; j < LYAP_MAX_Q; j++)
    out->exponent[j] = out->err[j] = NAN;
  out->steps = out->rhs_evals = 0;
  out->reduced = 0;
  out->switches = 0;
  out->n_section = 0;
  if (msglen)
    msg[0] = '\0';
  size_t nsw = m ? cs_model_switches(m, params) : 0;
  if (!m->jac) {
    cs_error_fill(msg, msglen, "%s", "Lyapunov exponents need the model's analytic Jacobian");
    return CS_ERR_UNSUPPORTED;
  }
  size_t n = m->n_state;
  if (n > w->n_max || q < 1 || q > n || !(time > 0) || !(renorm > 0) || !(renorm <= time)) {
    cs_error_fill(msg, msglen, "invalid Lyapunov run (n = %zu, q = %zu, time %g, renorm %g)", n, q,
                  time, renorm);
    return CS_ERR_ARG;
  }
  if (nsw && (!m->switch_fn || !m->switch_apply || nsw > LYAP_MAX_SW || n > CS_SALTATION_MAX_N)) {
    cs_error_fill(msg, msglen, "%s", "Lyapunov run: the model's switches cannot be followed");
    return CS_ERR_UNSUPPORTED;
  }
  size_t N = n * (1 + q);
  double *Y = w->Y, *V = w->Y + n;
  memcpy(Y, y0, n * sizeof *Y);
  const void *run_params = params;
  if (nsw) {
    /* the modes live in the params: a copy of the caller's, and scratch for
     * the saltation's resets */
    if (w->params_cap < m->params_size) {
      void *a = realloc(w->params, m->params_size),
           *b = a ? realloc(w->scratch, m->params_size) : NULL;
      if (a)
        w->params = a;
      if (!b) {
        cs_error_fill(msg, msglen, "out of memory");
        return CS_ERR_NOMEM;
      }
      w->scratch = b;
      w->params_cap = m->params_size;
    }
    memcpy(w->params, params, m->params_size);
    run_params = w->params;
    int rc = m->mode_init ? m->mode_init(t0, Y, w->params) : 0;
    if (rc < 0) {
      cs_error_fill(msg, msglen, "%s", "Lyapunov run: the model's mode_init failed");
      return (enum cs_status)(-rc);
    }
  }
  /* A generic start: e_j plus a small common part, then orthonormalised. */
  for (size_t j = 0; j < q; j++)
    for (size_t i = 0; i < n; i++)
      V[j * n + i] = (i == j ? 1.0 : 0.0) + 0.1 / (1.0 + (double)i);
  double lr[LYAP_MAX_Q];
  orthonormalise(V, n, q, lr);

  /* The orbit controls the step: the tangent vectors (unit length after
   * each renormalisation) get an absolute tolerance of 1e3 rtol, so their
   * error weights are 1e3 times looser than the orbit's, enough for a growth
   * rate (a relative error of 1e-5 per renormalisation at rtol 1e-8 moves
   * the exponent by 1e-5 / renorm) and still a bound on the step where the
   * orbit itself does not move (at an equilibrium the orbit's error is 0
   * and without it the steps grew until the tangent integration was
   * unstable: Van der Pol's -0.25 came out +0.02). ARKODE's norm is a root
   * mean square over all N components, so the orbit's tolerances are scaled
   * by sqrt(n / N) to keep its error control that of the plain flow. */
  double shrink = sqrt((double)n / (double)N);
  for (size_t i = 0; i < n; i++)
    w->atol[i] = shrink * (opts->atol_vec ? opts->atol_vec[i] : opts->atol);
  for (size_t i = n; i < N; i++)
    w->atol[i] = w->tangent_atol > 0 ? w->tangent_atol : 1e3 * opts->rtol;
  struct cs_integrator_opts o = *opts;
  o.rtol = shrink * opts->rtol;
  o.atol_vec = w->atol;
  w->ctx = (struct aug_ctx){m, run_params, n, q, w->J, o.rtol, nsw, w};
  struct cs_ode ode = {N, aug_rhs, aug_jac, &w->ctx};
  int dirs[LYAP_MAX_SW + 1] = {0};
  size_t nroots = nsw + (w->sec_fn ? 1 : 0);
  dirs[nsw] = w->sec_dir;
  w->sec_n = 0;
  enum cs_status st =
      cs_integrator_set_roots(w->integ, nroots, nroots ? aug_roots : NULL, dirs, &w->ctx);
  if (st == CS_OK)
    st = cs_integrator_reset(w->integ, &ode, &o, t0, Y);
  struct hybrid hy = {.in = {.m = m, .params = w->params, .scratch = w->scratch, .t_scale = renorm},
                      .qa = q,
                      .restarted = -INFINITY};
  hy.in.scale = hy.scale;

  long nren = lround(time / renorm);
  if (nren < 1)
    nren = 1;
  long nalign = nren / 10, ncount = nren - nalign;
  long nb = ncount < LYAP_BLOCKS ? ncount : LYAP_BLOCKS;
  double sums[LYAP_BLOCKS][LYAP_MAX_Q] = {{0}};
  long counts[LYAP_BLOCKS] = {0};
  long done = 0; /* completed blocks when the run stopped early, else 0 */
  int nsub = 1;  /* QR steps per renormalisation interval */
  out->time_used = (double)nren * renorm;
  for (long k = 1; st == CS_OK && k <= nren; k++) {
    double tk = t0 + (double)k * renorm;
    if (w->cancel && *w->cancel) {
      cs_error_fill(msg, msglen, "interrupted");
      st = CS_ERR_INTERRUPTED;
      break;
    }
    double acc[LYAP_MAX_Q] = {0}, spread = 0;
    for (int sub = 1; sub <= nsub && st == CS_OK; sub++) {
      double ts = sub == nsub ? tk : tk - renorm + (double)sub * renorm / (double)nsub;
      if (nroots)
        st = hybrid_advance(w, &hy, ts, acc, msg, msglen);
      else
        st = cs_integrator_advance(w->integ, ts, NULL, Y, NULL);
      if (st == CS_OK && orthonormalise(V, n, hy.qa, lr) != 0) {
        cs_error_fill(msg, msglen, "Lyapunov run: a tangent vector collapsed at t = %.17g", ts);
        st = CS_ERR_NONFINITE;
      }
      if (st != CS_OK)
        break;
      for (size_t j = 0; j < hy.qa; j++)
        acc[j] += lr[j];
      if (hy.qa > 1)
        spread = fmax(spread, lr[0] - lr[hy.qa - 1]);
      if (sub < nsub)
        st = cs_integrator_reinit_smooth(w->integ, ts, Y);
    }
    if (st != CS_OK)
      break;
    /* the next interval's QR steps: keep each step's spread below SPREAD_MAX */
    if (spread > SPREAD_MAX && nsub < SUB_MAX)
      nsub *= 2;
    else if (spread < SPREAD_MAX / 4 && nsub > 1)
      nsub /= 2;
    if (k > nalign) {
      long b = (k - nalign - 1) * nb / ncount;
      counts[b]++;
      for (size_t j = 0; j < q; j++)
        sums[b][j] += acc[j];
      int last_of_block = k == nren || (k - nalign) * nb / ncount != b;
      if (decide > 0 && last_of_block && b + 1 >= LYAP_MIN_BLOCKS && k < nren && hy.qa > 0 &&
          decided(sums, counts, b + 1, renorm, decide)) {
        done = b + 1;
        out->time_used = (double)k * renorm;
        break;
      }
    }
    st = cs_integrator_reinit_smooth(w->integ, tk, Y);
  }
  out->switches = hy.switches;
  out->n_section = w->sec_n;
  struct cs_integrator_stats s;
  if (cs_integrator_get_stats(w->integ, &s) == CS_OK) {
    out->steps = s.steps;
    out->rhs_evals = s.rhs_evals;
  }
  if (st != CS_OK) {
    if (!msg[0])
      cs_error_fill(msg, msglen, "Lyapunov run: %s", cs_integrator_last_error(w->integ));
    return st;
  }
  if (done) {
    /* the blocks completed so far */
    nb = done;
    ncount = 0;
    for (long b = 0; b < nb; b++)
      ncount += counts[b];
  }
  out->reduced = (int)(q - hy.qa);
  for (size_t j = 0; j < q; j++) {
    if (j >= hy.qa) {
      out->exponent[j] = -INFINITY;
      out->err[j] = 0.0;
      continue;
    }
    double total = 0;
    for (long b = 0; b < nb; b++)
      total += sums[b][j];
    double lam = total / ((double)ncount * renorm);
    double var = 0;
    for (long b = 0; b < nb; b++) {
      double d = sums[b][j] / ((double)counts[b] * renorm) - lam;
      var += d * d;
    }
    out->exponent[j] = lam;
    out->err[j] = nb > 1 ? sqrt(var / (double)(nb * (nb - 1))) : NAN;
  }
  /* descending: the QR order is that of the expected values, and two close
   * exponents (a complex pair of multipliers) may come out swapped */
  for (size_t j = 1; j < q; j++)
    for (size_t i = j; i > 0 && out->exponent[i] > out->exponent[i - 1]; i--) {
      double e = out->exponent[i], d = out->err[i];
      out->exponent[i] = out->exponent[i - 1], out->err[i] = out->err[i - 1];
      out->exponent[i - 1] = e, out->err[i - 1] = d;
    }
  return CS_OK;
}
