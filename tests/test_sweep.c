/* SPDX-License-Identifier: MIT */
/* The sweep driver: thread-count independence (bit-identical in independent
 * mode, same attractors with continuation), a point that fails is recorded
 * and the sweep goes on, change detection and bisection refinement on the
 * forced Duffing oscillator's period doubling, the equilibrium -> periodic
 * change of Van der Pol at its Hopf point mu = 0. */
#include "testutil.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"
#include "sweep/sweep_private.h"

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Collects what the sink receives, by index. */
struct collected {
  size_t n, cols;
  double *p1;
  int *cls, *period;
  double *lyap, *sect0; /* first section row's first state value */
  size_t *nsec;
  double *sect_all; /* up to 8 section rows x cols per point */
  char (*msg)[256];
};

static int collect(void *ctx, const struct cs_sweep_point *pt)
{
  struct collected *c = ctx;
  size_t k = pt->index + (size_t)pt->pass * c->n;
  c->p1[k] = pt->p1;
  c->cls[k] = pt->res->cls;
  c->period[k] = pt->res->period;
  c->lyap[k] = pt->res->lyapunov;
  c->nsec[k] = pt->res->n_section;
  size_t rows = pt->res->n_section < 8 ? pt->res->n_section : 8;
  size_t cols = pt->res->section_cols < c->cols ? pt->res->section_cols : c->cols;
  for (size_t r = 0; r < rows; r++)
    memcpy(c->sect_all + (k * 8 + r) * c->cols, pt->res->section + r * pt->res->section_cols,
           cols * sizeof(double));
  snprintf(c->msg[k], sizeof c->msg[k], "%s", pt->res->message);
  return 0;
}

static struct collected *collected_new(size_t n, size_t cols)
{
  struct collected *c = calloc(1, sizeof *c);
  c->n = n, c->cols = cols;
  c->p1 = calloc(2 * n, sizeof *c->p1);
  c->cls = calloc(2 * n, sizeof *c->cls);
  c->period = calloc(2 * n, sizeof *c->period);
  c->lyap = calloc(2 * n, sizeof *c->lyap);
  c->nsec = calloc(2 * n, sizeof *c->nsec);
  c->sect_all = calloc(2 * n * 8 * cols, sizeof *c->sect_all);
  c->msg = calloc(2 * n, sizeof *c->msg);
  return c;
}

static void collected_free(struct collected *c)
{
  free(c->p1), free(c->cls), free(c->period), free(c->lyap), free(c->nsec), free(c->sect_all);
  free(c->msg), free(c);
}

static void *params_of(const struct cs_model *m)
{
  void *p = malloc(m->params_size);
  cs_model_params_default(m, p);
  assert_int_equal(m->prepare(p), CS_OK);
  return p;
}

static struct cs_sweep_spec duffing_spec(const struct cs_model *m, double from, double to, size_t n)
{
  struct cs_sweep_spec s = {0};
  s.param = cs_model_param_index(m, "gamma");
  s.param2 = -1;
  s.from = from, s.to = to, s.points = n;
  s.continuation = 1;
  s.direction = CS_SWEEP_FORWARD;
  s.overlap = 3;
  s.point = cs_point_spec_default();
  s.point.section = m->section;
  s.point.solver.rtol = 1e-9, s.point.solver.atol = 1e-11;
  s.point.transient = 300;
  s.point.record_crossings = 32;
  s.point.record = 0;
  s.point.lyapunov = 0;
  s.refine_tol = 1e-4;
  return s;
}

static void set(const struct cs_model *m, void *p, const char *name, double v)
{
  assert_int_equal(cs_model_set_param(m, p, name, v), CS_OK);
  assert_int_equal(m->prepare(p), CS_OK);
}

/* The sweep s run with the given number of threads; what the sink received. */
static struct collected *run_threads(const struct cs_model *m, const void *p, const double *y0,
                                     struct cs_sweep_spec *s, int threads)
{
  struct collected *c = collected_new(s->points, 1 + m->n_state + m->n_derived);
  struct cs_sweep_outcome o;
  s->threads = threads;
  assert_int_equal(cs_sweep_run(m, p, y0, s, collect, c, &o), CS_OK);
  cs_sweep_outcome_free(&o);
  return c;
}

/* Independent points: the same numbers for 1 and 2 threads, bit for bit. */
static void threads_bit_identical(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  assert_non_null(m);
  void *p = params_of(m);
  double y0[2] = {0.1, 0};
  struct cs_sweep_spec s = duffing_spec(m, 0.2, 0.4, 12);
  s.continuation = 0;
  s.point.transient = 100;
  size_t cols = 1 + m->n_state + m->n_derived;
  struct collected *c[2] = {run_threads(m, p, y0, &s, 1), run_threads(m, p, y0, &s, 2)};
  for (size_t k = 0; k < s.points; k++) {
    assert_int_equal(c[0]->cls[k], c[1]->cls[k]);
    assert_int_equal(c[0]->period[k], c[1]->period[k]);
    assert_int_equal(c[0]->nsec[k], c[1]->nsec[k]);
  }
  assert_memory_equal(c[0]->sect_all, c[1]->sect_all, s.points * 8 * cols * sizeof(double));
  collected_free(c[0]), collected_free(c[1]);
  free(p);
}

/* Continuation: the same attractor (class and period) for 1 and 2 threads;
 * the seam point is continued through the overlap. */
static void threads_continuation(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = params_of(m);
  double y0[2] = {0.1, 0};
  struct cs_sweep_spec s = duffing_spec(m, 0.2, 0.4, 16);
  struct collected *c[2] = {run_threads(m, p, y0, &s, 1), run_threads(m, p, y0, &s, 2)};
  for (size_t k = 0; k < s.points; k++) {
    assert_int_equal(c[0]->cls[k], c[1]->cls[k]);
    assert_int_equal(c[0]->period[k], c[1]->period[k]);
  }
  collected_free(c[0]), collected_free(c[1]);
  free(p);
}

/* Forced Duffing: period 1 -> 2 -> 4 in order of gamma, detected as period
 * doublings, and each refined bracket is narrower than refine_tol with the two
 * classes on its two sides. */
static void duffing_period_doubling(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = params_of(m);
  double y0[2] = {1.0, 0};
  struct cs_sweep_spec s = duffing_spec(m, 0.22, 0.2895, 28);
  /* near a period doubling the multiplier is close to -1 and orbits settle
   * slowly: extend transients until the section points repeat */
  s.point.adaptive_transient = 1;
  s.point.transient_max = 6000;
  s.refine = 1;
  s.threads = 2;
  struct collected *c = collected_new(s.points, 1 + m->n_state + m->n_derived);
  struct cs_sweep_outcome o;
  assert_int_equal(cs_sweep_run(m, p, y0, &s, collect, c, &o), CS_OK);
  int seen[3] = {0, 0, 0}; /* grid index where period 1, 2, 4 first appear */
  for (size_t k = 0; k < s.points; k++) {
    print_message("gamma = %.4f class %s period %d\n", c->p1[k], cs_class_name(c->cls[k]),
                  c->period[k]);
    for (int q = 0; q < 3; q++)
      if (c->cls[k] == CS_CLASS_PERIODIC && c->period[k] == 1 << q && !seen[q])
        seen[q] = (int)k + 1;
  }
  assert_true(seen[0] && seen[1] && seen[2]);
  assert_true(seen[0] < seen[1] && seen[1] < seen[2]);
  size_t doublings = 0;
  for (size_t i = 0; i < o.n_bif; i++) {
    const struct cs_bifurcation *b = &o.bif[i];
    print_message("%s [%.6f, %.6f] estimate %.6f refined %d\n", cs_bifurcation_kind_name(b->kind),
                  b->p_left, b->p_right, b->estimate, b->refined);
    if (b->kind != CS_BIF_PERIOD_DOUBLING)
      continue;
    doublings++;
    assert_true(b->refined);
    assert_true(b->p_right - b->p_left <= s.refine_tol);
    assert_true(b->estimate > b->p_left - 1e-12 && b->estimate < b->p_right + 1e-12);
  }
  assert_true(doublings >= 2);
  cs_sweep_outcome_free(&o);
  collected_free(c);
  free(p);
}

/* A test model whose right-hand side is NaN for p < 1: those points fail,
 * with the integrator's reason, and the sweep goes on. */
struct nanp {
  double p;
};

static int nan_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct nanp *q = vp;
  f[0] = y[1];
  f[1] = -y[0] - 0.3 * y[1] + sqrt(q->p - 1.0) * cos(t);
  return 0;
}

static enum cs_status nan_prepare(void *p)
{
  (void)p;
  return CS_OK;
}

static const struct cs_var_desc nan_state[] = {{"x", "1", "position", 0, 0},
                                               {"v", "1", "velocity", 0, 0}};
static const double nan_y0[] = {0.5, 0};
static const struct cs_param_desc nan_params[] = {
    {"p", "1", offsetof(struct nanp, p), 2.0, -10, 10, NULL, "NaN below 1"}};
static double nan_period(const void *p)
{
  (void)p;
  return 2 * M_PI;
}
static const struct cs_model nan_model = {.name = "nan-test",
                                          .title = "test",
                                          .reference = "test",
                                          .n_state = 2,
                                          .state = nan_state,
                                          .state_default = nan_y0,
                                          .n_param = 1,
                                          .param = nan_params,
                                          .params_size = sizeof(struct nanp),
                                          .stick_output = -1,
                                          .prepare = nan_prepare,
                                          .rhs = nan_rhs,
                                          .forcing_period = nan_period,
                                          .section = {CS_SECTION_STROBOSCOPIC, NULL, 0, 0}};

static void failing_points_recorded(void **state)
{
  (void)state;
  struct nanp p = {2.0};
  double y0[2] = {0.5, 0};
  struct cs_sweep_spec s = {0};
  s.param = 0, s.param2 = -1, s.from = 0.3, s.to = 3.0, s.points = 10; /* avoids p = 1 */
  s.continuation = 1, s.overlap = 2, s.threads = 2;
  s.point = cs_point_spec_default();
  s.point.section = nan_model.section;
  s.point.transient = 150, s.point.record = 80, s.point.lyapunov = 0; /* decay 0.15, 12 periods */
  struct collected *c = collected_new(s.points, 3);
  struct cs_sweep_outcome o;
  assert_int_equal(cs_sweep_run(&nan_model, &p, y0, &s, collect, c, &o), CS_OK);
  size_t failed = 0;
  for (size_t k = 0; k < s.points; k++) {
    if (c->p1[k] < 1.0) {
      assert_int_equal(c->cls[k], CS_CLASS_FAILED);
      assert_true(strlen(c->msg[k]) > 0);
      failed++;
    } else {
      if (c->cls[k] != CS_CLASS_PERIODIC || c->period[k] != 1)
        fail_msg("p = %g: class %s period %d (%s)", c->p1[k], cs_class_name(c->cls[k]),
                 c->period[k], c->msg[k]);
    }
  }
  assert_int_equal(o.failed, failed);
  assert_true(failed >= 2);
  print_message("failed point message: %s\n", c->msg[0]);
  cs_sweep_outcome_free(&o);
  collected_free(c);
}

/* Per point of the subhopf sweep below: what Newton continuation decided. */
struct newton_seen {
  double mu[16], r_err[16], transient[16], mult[16];
  int cls[16], period[16];
  long evals[16];
};

static int newton_sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct newton_seen *s = ctx;
  size_t k = pt->index;
  const struct cs_point_result *res = pt->res;
  s->mu[k] = pt->p1;
  s->cls[k] = res->cls;
  s->period[k] = res->period;
  s->transient[k] = res->transient_used;
  s->evals[k] = res->rhs_evals;
  s->mult[k] = res->n_mult ? hypot(res->mult_re[0], res->mult_im[0]) : NAN;
  /* the outer cycle r^2 = (1 + sqrt(1 + 4 mu))/2; section y = 0 increasing: x = r */
  double r = sqrt(0.5 * (1.0 + sqrt(1.0 + 4.0 * pt->p1)));
  s->r_err[k] = 0;
  for (size_t i = 0; i < res->n_section; i++) {
    double e = fabs(res->section[i * res->section_cols + 1] - r);
    s->r_err[k] = e > s->r_err[k] ? e : s->r_err[k];
  }
  return 0;
}

/* Newton continuation against the closed form: along the stable outer cycle
 * of the subcritical Hopf normal form (omega = 100), a point continued from a
 * periodic neighbour starts its recording on the Newton orbit exactly when
 * that orbit's multiplier exp(2 pi (mu + 3 r^2 - 5 r^4)/omega) is at most
 * 0.95 (for mu above -0.18; towards the fold of cycles at -1/4 the
 * multiplier approaches 1 and the full transient runs); either way the
 * class, the period, the multiplier and the section points (x = r of the
 * closed form) are those of the full path, for fewer evaluations. The pass
 * runs backward, from mu = 0.55 towards the fold. */
static void newton_continuation_subhopf(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("subhopf");
  assert_non_null(m);
  void *p = params_of(m);
  assert_int_equal(cs_model_set_param(m, p, "omega", 100.0), CS_OK);
  double y0[2] = {1.0, 0.0};
  struct newton_seen seen[2];
  for (int newton = 0; newton < 2; newton++) {
    struct cs_sweep_spec s = {0};
    s.param = cs_model_param_index(m, "mu"), s.param2 = -1;
    s.from = -0.24, s.to = 0.55, s.points = 16;
    s.continuation = 1, s.direction = CS_SWEEP_BACKWARD, s.threads = 1;
    s.multipliers = 1, s.newton_continuation = newton;
    s.point = cs_point_spec_default();
    s.point.section = m->section;
    s.point.solver.rtol = 1e-9, s.point.solver.atol = 1e-11;
    s.point.transient = 30, s.point.record = 5, s.point.adaptive_transient = 1;
    s.point.transient_max = 60;
    memset(&seen[newton], 0, sizeof seen[newton]);
    struct cs_sweep_outcome o;
    assert_int_equal(cs_sweep_run(m, p, y0, &s, newton_sink, &seen[newton], &o), CS_OK);
    cs_sweep_outcome_free(&o);
  }
  long evals[2] = {0, 0};
  int fast = 0;
  for (size_t k = 0; k < 16; k++) {
    double mu = seen[1].mu[k], r2 = 0.5 * (1.0 + sqrt(1.0 + 4.0 * mu));
    double mult = exp(2.0 * M_PI * (mu + 3.0 * r2 - 5.0 * r2 * r2) / 100.0);
    print_message("mu %.3f multiplier %.4f (found %.4f) transient %g r error %.2g / %.2g evals "
                  "%ld / %ld\n",
                  mu, mult, seen[1].mult[k], seen[1].transient[k], seen[0].r_err[k],
                  seen[1].r_err[k], seen[0].evals[k], seen[1].evals[k]);
    for (int n = 0; n < 2; n++) {
      assert_int_equal(seen[n].cls[k], CS_CLASS_PERIODIC);
      assert_int_equal(seen[n].period[k], 1);
      /* the transient leaves (mult)^(transient/period) of the start's distance */
      assert_true(seen[n].r_err[k] < (mult < 0.95 ? 1e-7 : 1e-5));
      assert_true(fabs(seen[n].mult[k] - mult) < 1e-4);
      evals[n] += seen[n].evals[k];
    }
    assert_true(seen[0].transient[k] >= 30);
    if (k == 15)
      assert_true(seen[1].transient[k] >= 30); /* the first point: no periodic neighbour */
    else if (mult < 0.945)
      assert_true(seen[1].transient[k] == 0), fast++, assert_true(seen[1].r_err[k] < 1e-8);
    else if (mult > 0.955)
      assert_true(seen[1].transient[k] >= 30);
  }
  assert_true(fast >= 10);
  print_message("evaluations: full %ld, Newton continuation %ld\n", evals[0], evals[1]);
  assert_true(2 * evals[1] < evals[0]);
  free(p);
}

/* Van der Pol x'' - mu (1 - x^2) x' + x = 0: the equilibrium is stable for
 * mu < 0 and a limit cycle exists for mu > 0 (Hopf at mu = 0). The detected
 * equilibrium -> periodic change brackets 0 within one grid step. */
static void vanderpol_hopf(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("vanderpol");
  assert_non_null(m);
  void *p = params_of(m);
  double y0[2] = {0.5, 0};
  struct cs_sweep_spec s = {0};
  s.param = cs_model_param_index(m, "mu"), s.param2 = -1;
  s.from = -0.55, s.to = 0.45, s.points = 11;
  s.continuation = 0, s.threads = 2;
  s.point = cs_point_spec_default();
  s.point.section = m->section;
  s.point.transient = 600, s.point.record = 100, s.point.lyapunov = 0; /* slow near mu = 0 */
  s.refine = 0;
  s.equilibria = 1, s.refine_tol = 1e-9;
  struct cs_sweep_outcome o;
  assert_int_equal(cs_sweep_run(m, p, y0, &s, NULL, NULL, &o), CS_OK);
  int found = 0, hopf = 0;
  double lo = NAN, hi = NAN;
  for (size_t i = 0; i < o.n_bif; i++) {
    const struct cs_bifurcation *b = &o.bif[i];
    print_message("%s [%g, %g] estimate %g\n", cs_bifurcation_kind_name(b->kind), b->p_left,
                  b->p_right, b->estimate);
    if (b->kind == CS_BIF_EQ_TO_PERIODIC) {
      found++;
      lo = b->p_left, hi = b->p_right;
      assert_true(b->p_left < 0 && b->p_right > 0);
      assert_true(b->p_right - b->p_left <= 0.1 + 1e-12);
    }
    if (b->kind == CS_BIF_HOPF) {
      hopf++;
      assert_close(b->estimate, 0.0, 1e-7); /* the eigenvalues mu/2 +- i sqrt(1 - mu^2/4) */
    }
  }
  assert_int_equal(found, 1);
  assert_int_equal(hopf, 1);
  assert_true(lo < 0 && 0 < hi); /* eigenvalues and simulation agree within the grid step */
  cs_sweep_outcome_free(&o);
  free(p);
}

/* The pendulum (figure 5a parameters): the Hopf point located by the
 * eigenvalues along the grid and the equilibrium -> periodic change seen by
 * simulation fall in the same grid interval. Independent points from the
 * default state (0.29 rad from the equilibrium) and adaptive transients: near
 * omega0* the equilibrium attracts or repels at only 0.34 |omega0 - omega0*|
 * 1/s, so the transient must grow where the orbit is slow to settle. */
static void pendulum_hopf_agreement(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("pendulum");
  void *p = params_of(m);
  double y0[6] = {0.1, 0, 0, 0, 0, 0};
  struct cs_sweep_spec s = {0};
  s.param = cs_model_param_index(m, "omega0"), s.param2 = -1;
  s.from = 34.5, s.to = 40.5, s.points = 7;
  s.continuation = 0, s.threads = 2;
  s.equilibria = 1;
  s.refine_tol = 1e-6;
  s.point = cs_point_spec_default();
  s.point.section = m->section;
  s.point.solver.rtol = 1e-8, s.point.solver.atol = 1e-10;
  s.point.transient = 40, s.point.adaptive_transient = 1, s.point.transient_max = 400;
  s.point.record = 20, s.point.lyapunov = 0;
  struct cs_sweep_outcome o;
  assert_int_equal(cs_sweep_run(m, p, y0, &s, NULL, NULL, &o), CS_OK);
  double hopf = NAN, sim_lo = NAN, sim_hi = NAN;
  for (size_t i = 0; i < o.n_bif; i++) {
    const struct cs_bifurcation *b = &o.bif[i];
    print_message("%s [%.6f, %.6f] estimate %.8f\n", cs_bifurcation_kind_name(b->kind), b->p_left,
                  b->p_right, b->estimate);
    if (b->kind == CS_BIF_HOPF)
      hopf = b->estimate;
    if (b->kind == CS_BIF_EQ_TO_PERIODIC)
      sim_lo = b->p_left, sim_hi = b->p_right;
  }
  assert_non_null(o.eq);
  assert_true(o.eq[0].found && o.eq[0].max_re < 0 && o.eq[6].found && o.eq[6].max_re > 0);
  assert_close(hopf, 37.1706864, 1e-5); /* the eigenvalue crossing, refined by Brent */
  assert_true(isfinite(sim_lo) && sim_lo <= hopf && hopf <= sim_hi);
  assert_true(sim_hi - sim_lo <= 1.0 + 1e-9);
  cs_sweep_outcome_free(&o);
  free(p);
}

/* Per point of the pendulum's forward pass below: class, period, message. */
struct hopf_seen {
  int cls[16], period[16], kicked[16];
};

static int hopf_sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct hopf_seen *s = ctx;
  s->cls[pt->index] = pt->res->cls;
  s->period[pt->index] = pt->res->period;
  s->kicked[pt->index] = strstr(pt->res->message, "unstable equilibrium left") != NULL;
  return 0;
}

/* Figure 5a's forward continuation across the subcritical Hopf point
 * (omega0* = 37.1706864 rad/s, the eigenvalues' crossing): each point starts
 * from its neighbour's final state, i.e. on the equilibrium, which past
 * omega0* it leaves only at re(lambda) = 0.051 1/s at the first grid point.
 * With the file's settings the point analysis used to keep it there, or to
 * call the slow spiral out quasiperiodic, at grid points that depended on
 * the stepper's errors (Dormand-Prince: 37.32 equilibrium, 37.57
 * quasiperiodic; Verner 6(5): equilibrium to 37.57, 37.82 quasiperiodic).
 * Refusing the unstable equilibrium (point.c) makes both steppers agree with
 * the eigenvalues: equilibria up to the last grid point below omega0*, the
 * period-1 cycle from the first above it (kicked off the equilibrium), and
 * an equilibrium -> periodic change that brackets omega0*. */
static void pendulum_forward_past_hopf(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("pendulum");
  void *p = params_of(m);
  double y0[6] = {0.1, 0, 0, 0, 0, 0};
  const enum cs_stepper steppers[2] = {CS_STEPPER_ERK, CS_STEPPER_ERK6};
  for (int k = 0; k < 2; k++) {
    struct cs_sweep_spec s = {0};
    s.param = cs_model_param_index(m, "omega0"), s.param2 = -1;
    s.from = 36.3179916, s.to = 40.0836820, s.points = 16;
    s.continuation = 1, s.direction = CS_SWEEP_FORWARD, s.threads = 1;
    s.newton_continuation = 1;
    s.point = cs_point_spec_default();
    s.point.section = m->section;
    s.point.solver.stepper = steppers[k];
    s.point.solver.rtol = 1e-8, s.point.solver.atol = 1e-10;
    s.point.transient = 20, s.point.adaptive_transient = 1, s.point.transient_max = 60;
    s.point.record = 20, s.point.lyapunov = 0;
    struct hopf_seen seen;
    memset(&seen, 0, sizeof seen);
    struct cs_sweep_outcome o;
    assert_int_equal(cs_sweep_run(m, p, y0, &s, hopf_sink, &seen, &o), CS_OK);
    int changes = 0;
    for (size_t i = 0; i < o.n_bif; i++) {
      const struct cs_bifurcation *b = &o.bif[i];
      print_message("stepper %d: %s [%.6f, %.6f]\n", k, cs_bifurcation_kind_name(b->kind),
                    b->p_left, b->p_right);
      assert_int_equal(b->kind, CS_BIF_EQ_TO_PERIODIC);
      assert_true(b->p_left < 37.1706864 && 37.1706864 < b->p_right);
      changes++;
    }
    assert_int_equal(changes, 1);
    for (size_t i = 0; i < 16; i++) {
      double w = s.from + (s.to - s.from) * (double)i / 15.0;
      assert_int_equal(seen.cls[i], w < 37.1706864 ? CS_CLASS_EQUILIBRIUM : CS_CLASS_PERIODIC);
      if (w > 37.1706864)
        assert_int_equal(seen.period[i], 1);
      assert_int_equal(seen.kicked[i], i == 4); /* 37.32, the first point past omega0* */
    }
    cs_sweep_outcome_free(&o);
  }
  free(p);
}

/* Grid values: linear and log spacing hit both ends exactly. */
static void grid_values(void **state)
{
  (void)state;
  struct cs_sweep_spec s = {0};
  s.from = 1e-7, s.to = 1e-3, s.points = 5, s.spacing = CS_SPACING_LOG, s.param2 = -1;
  double p;
  cs_sweep_values(&s, 0, &p, NULL);
  assert_true(p == 1e-7);
  cs_sweep_values(&s, 4, &p, NULL);
  assert_true(p == 1e-3);
  cs_sweep_values(&s, 2, &p, NULL);
  assert_close(p, 1e-5, 1e-18);
  s.spacing = CS_SPACING_LINEAR, s.from = 20, s.to = 80, s.points = 61;
  cs_sweep_values(&s, 15, &p, NULL);
  assert_close(p, 35, 1e-12);
  (void)set;
}

/* Records and final states of a run, as a resume needs them. */
struct kept {
  size_t n, ns;
  struct cs_sweep_record *rec;
  double *final;
  size_t delivered;
  size_t stop_after; /* the sink asks to stop after this many points (0: never) */
  const struct cs_model *m;
};

static int keep_sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct kept *k = ctx;
  const struct cs_point_result *r = pt->res;
  struct cs_sweep_record *rc = &k->rec[pt->index];
  rc->cls = r->cls, rc->period = r->period, rc->period_time = r->period_time;
  rc->lyapunov = r->lyapunov, rc->lyapunov_err = r->lyapunov_err;
  rc->rotation_number = r->rotation_number, rc->stick_fraction = r->stick_fraction;
  rc->done = 1;
  assert_non_null(r->final_state);
  memcpy(k->final + pt->index * k->ns, r->final_state, k->ns * sizeof(double));
  k->delivered++;
  return k->stop_after && k->delivered >= k->stop_after;
}

static struct kept *kept_new(const struct cs_model *m, size_t n)
{
  struct kept *k = calloc(1, sizeof *k);
  k->n = n, k->ns = m->n_state, k->m = m;
  k->rec = calloc(n, sizeof *k->rec);
  k->final = calloc(n * m->n_state, sizeof *k->final);
  return k;
}

static void kept_free(struct kept *k)
{
  free(k->rec), free(k->final), free(k);
}

/* A sweep stopped part way (the sink asks to stop) and resumed from what it
 * delivered gives every point exactly as one uninterrupted run does, in
 * continuation mode (segments restart at their first missing point from the
 * stored final state) and with independent points; the resumed run computes
 * only the missing points, and change detection runs over the whole grid. */
static void resume_equals_uninterrupted(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = params_of(m);
  double y0[2] = {0.1, 0};
  for (int cont = 0; cont < 2; cont++) {
    struct cs_sweep_spec s = duffing_spec(m, 0.2, 0.4, 20);
    s.continuation = cont;
    s.chunk = 6;
    s.threads = 2;
    s.point.transient = 100;
    struct kept *full = kept_new(m, s.points), *part = kept_new(m, s.points);
    struct cs_sweep_outcome o1, o2, o3;
    assert_int_equal(cs_sweep_run(m, p, y0, &s, keep_sink, full, &o1), CS_OK);
    assert_false(o1.interrupted);
    part->stop_after = 7;
    assert_int_equal(cs_sweep_run(m, p, y0, &s, keep_sink, part, &o2), CS_OK);
    assert_true(o2.interrupted);
    assert_int_equal(o2.stop, CS_SWEEP_SINK);
    size_t had = part->delivered;
    assert_true(had >= 7 && had < s.points);
    struct cs_sweep_prior prior = {.rec = {part->rec, NULL}, .final = {part->final, NULL}};
    struct cs_sweep_ctl ctl = {.prior = &prior};
    part->stop_after = 0;
    assert_int_equal(cs_sweep_run_ctl(m, p, y0, &s, keep_sink, part, &ctl, &o3), CS_OK);
    assert_false(o3.interrupted);
    assert_int_equal(o3.prior, had);
    assert_int_equal(o3.computed + had, s.points);
    for (size_t k = 0; k < s.points; k++) {
      assert_int_equal(part->rec[k].cls, full->rec[k].cls);
      assert_int_equal(part->rec[k].period, full->rec[k].period);
      assert_memory_equal(part->final + k * m->n_state, full->final + k * m->n_state,
                          m->n_state * sizeof(double));
    }
    assert_int_equal(o3.n_bif, o1.n_bif);
    for (size_t b = 0; b < o1.n_bif; b++) {
      assert_int_equal(o3.bif[b].kind, o1.bif[b].kind);
      assert_true(o3.bif[b].p_left == o1.bif[b].p_left);
    }
    cs_sweep_outcome_free(&o1), cs_sweep_outcome_free(&o2), cs_sweep_outcome_free(&o3);
    kept_free(full), kept_free(part);
  }
  free(p);
}

/* A cancel flag (what a signal handler sets) stops the sweep soon: the
 * points in flight are abandoned, nothing after is delivered. */
static volatile sig_atomic_t cancel_flag;
static int cancel_after_three(void *ctx, const struct cs_sweep_point *pt)
{
  size_t *n = ctx;
  (void)pt;
  if (++*n == 3)
    cancel_flag = 1;
  return 0;
}

static void cancel_stops(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = params_of(m);
  double y0[2] = {0.1, 0};
  struct cs_sweep_spec s = duffing_spec(m, 0.2, 0.4, 40);
  s.threads = 2;
  s.chunk = 4;
  s.point.transient = 2000; /* long points: the cancel must interrupt them */
  size_t n = 0;
  cancel_flag = 0;
  struct cs_sweep_ctl ctl = {.cancel = &cancel_flag};
  struct cs_sweep_outcome o;
  double t0 = now_s();
  assert_int_equal(cs_sweep_run_ctl(m, p, y0, &s, cancel_after_three, &n, &ctl, &o), CS_OK);
  assert_true(o.interrupted);
  assert_int_equal(o.stop, CS_SWEEP_CANCELLED);
  assert_true(n >= 3 && n < 10);
  assert_int_equal(o.computed, n);
  assert_int_equal(o.n_bif, 0); /* nothing is concluded from a part of the grid */
  print_message("cancelled after %zu points in %.2f s\n", n, now_s() - t0);
  cs_sweep_outcome_free(&o);
  free(p);
}

/* Failed points say nothing about the regime: neighbours of a run of them
 * in different regimes give one change of kind unknown over the run, the
 * same regimes give none, and a failed point never makes a class change. */
static void failed_points_give_unknown(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  struct cs_sweep_spec s = duffing_spec(m, 0.0, 1.0, 9);
  struct cs_sweep_record r[9];
  enum cs_class cls[9] = {CS_CLASS_PERIODIC, CS_CLASS_FAILED, CS_CLASS_PERIODIC,
                          CS_CLASS_FAILED,   CS_CLASS_FAILED, CS_CLASS_CHAOTIC,
                          CS_CLASS_CHAOTIC,  CS_CLASS_FAILED, CS_CLASS_PERIODIC};
  for (int k = 0; k < 9; k++)
    r[k] = (struct cs_sweep_record){.cls = cls[k],
                                    .period = cls[k] == CS_CLASS_PERIODIC,
                                    .rotation_number = NAN,
                                    .stick_fraction = NAN,
                                    .done = 1};
  struct cs_bifurcation b[8];
  size_t n = cs_sweep_detect(&s, 0, r, b, 8);
  assert_int_equal(n, 2);
  /* 2 -> 5 across the failed 3, 4: periodic -> chaotic, unknown where */
  assert_int_equal(b[0].kind, CS_BIF_UNKNOWN);
  assert_int_equal(b[0].left, 2);
  assert_int_equal(b[0].right, 5);
  assert_true(isnan(b[0].estimate));
  /* 6 -> 8 across 7: chaotic -> periodic */
  assert_int_equal(b[1].kind, CS_BIF_UNKNOWN);
  assert_int_equal(b[1].left, 6);
  assert_int_equal(b[1].right, 8);
  /* 0 -> 2 across 1: the same regime, nothing */
}

/* A transport in one process: worker "processes" are threads that take
 * units and hand results back through the server calls, as MPI ranks do.
 * The file of units must not depend on who computes what. */
struct fake {
  const struct cs_sweep_server *srv;
  pthread_t thread;
  volatile int stop;
};

static int fake_request(void *ctx, void *unit, size_t size)
{
  struct fake *f = ctx;
  return f->srv ? f->srv->next_unit(f->srv->ctx, unit, size) : 0;
}

static int fake_send(void *ctx, const void *buf, size_t len)
{
  struct fake *f = ctx;
  void *copy = malloc(len);
  memcpy(copy, buf, len);
  f->srv->result(f->srv->ctx, copy, len);
  return 0;
}

static int fake_stopped(void *ctx)
{
  struct fake *f = ctx;
  return f->stop;
}

static void fake_done(void *ctx)
{
  (void)ctx;
}

struct worker_args {
  const struct cs_model *m;
  const void *p;
  const double *y0;
  const struct cs_sweep_spec *s;
  struct cs_sweep_comm comm;
};

static void *fake_worker(void *arg)
{
  struct worker_args *a = arg;
  struct cs_sweep_ctl ctl = {.comm = &a->comm};
  struct cs_sweep_outcome o;
  assert_int_equal(cs_sweep_run_ctl(a->m, a->p, a->y0, a->s, NULL, NULL, &ctl, &o), CS_OK);
  assert_true(o.worker);
  cs_sweep_outcome_free(&o);
  return NULL;
}

static int fake_begin(void *ctx, const struct cs_sweep_server *srv)
{
  struct fake *f = ctx;
  f->srv = srv;
  return 0;
}

static void fake_end(void *ctx, int abort)
{
  struct fake *f = ctx;
  f->stop = abort;
}

static void transport_independent_of_workers(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = params_of(m);
  double y0[2] = {0.1, 0};
  struct cs_sweep_spec s = duffing_spec(m, 0.2, 0.4, 18);
  s.chunk = 5;
  s.threads = 1;
  s.refine = 1;
  s.refine_tol = 1e-3;
  struct kept *one = kept_new(m, s.points), *dist = kept_new(m, s.points);
  struct cs_sweep_outcome o1, o2;
  assert_int_equal(cs_sweep_run(m, p, y0, &s, keep_sink, one, &o1), CS_OK);

  struct fake f = {0};
  struct worker_args wa[2];
  pthread_t th[2];
  for (int i = 0; i < 2; i++) {
    wa[i] = (struct worker_args){m,
                                 p,
                                 y0,
                                 &s,
                                 {.rank = i + 1,
                                  .size = 3,
                                  .ctx = &f,
                                  .request = fake_request,
                                  .send = fake_send,
                                  .stopped = fake_stopped,
                                  .done = fake_done}};
  }
  struct cs_sweep_comm coord = {
      .rank = 0, .size = 3, .ctx = &f, .serve_begin = fake_begin, .serve_end = fake_end};
  struct cs_sweep_ctl ctl = {.comm = &coord};
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&th[i], NULL, fake_worker, &wa[i]), 0);
  assert_int_equal(cs_sweep_run_ctl(m, p, y0, &s, keep_sink, dist, &ctl, &o2), CS_OK);
  for (int i = 0; i < 2; i++)
    pthread_join(th[i], NULL);
  for (size_t k = 0; k < s.points; k++) {
    assert_int_equal(dist->rec[k].cls, one->rec[k].cls);
    assert_memory_equal(dist->final + k * m->n_state, one->final + k * m->n_state,
                        m->n_state * sizeof(double));
  }
  assert_int_equal(o2.n_bif, o1.n_bif);
  for (size_t b = 0; b < o1.n_bif; b++) {
    assert_true(o2.bif[b].p_left == o1.bif[b].p_left && o2.bif[b].p_right == o1.bif[b].p_right);
    assert_int_equal(o2.bif[b].refined, o1.bif[b].refined);
  }
  cs_sweep_outcome_free(&o1), cs_sweep_outcome_free(&o2);
  kept_free(one), kept_free(dist);
  free(p);
}

/* Chunks whose pass's last one is split (chunk 8, overlap 1: 8, 8, 8, 4, 2
 * points) handed out by predicted cost, both passes at once: every
 * point of both passes the same bit for bit with 1 and with 3 threads, the
 * order in which units run (it depends on timing) changing nothing. */
static int keep_pass_sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct kept **k = ctx;
  return keep_sink(k[pt->pass], pt);
}

static void shrinking_chunks_independent_of_threads(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = params_of(m);
  double y0[2] = {0.1, 0};
  struct cs_sweep_spec s = duffing_spec(m, 0.2, 0.4, 30);
  s.direction = CS_SWEEP_BOTH;
  s.chunk = 8, s.overlap = 1;
  s.point.transient = 100;
  struct kept *k[2][2];
  for (int t = 0; t < 2; t++) {
    struct cs_sweep_outcome o;
    k[t][0] = kept_new(m, s.points), k[t][1] = kept_new(m, s.points);
    s.threads = t == 0 ? 1 : 3;
    assert_int_equal(cs_sweep_run(m, p, y0, &s, keep_pass_sink, k[t], &o), CS_OK);
    assert_false(o.interrupted);
    assert_int_equal(o.computed, 2 * s.points);
    cs_sweep_outcome_free(&o);
  }
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < s.points; i++) {
      assert_true(k[0][pass]->rec[i].done && k[1][pass]->rec[i].done);
      assert_int_equal(k[0][pass]->rec[i].cls, k[1][pass]->rec[i].cls);
      assert_int_equal(k[0][pass]->rec[i].period, k[1][pass]->rec[i].period);
    }
    assert_memory_equal(k[0][pass]->final, k[1][pass]->final,
                        s.points * m->n_state * sizeof(double));
  }
  for (int t = 0; t < 2; t++)
    kept_free(k[t][0]), kept_free(k[t][1]);
  free(p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grid_values),
      cmocka_unit_test(threads_bit_identical),
      cmocka_unit_test(threads_continuation),
      cmocka_unit_test(shrinking_chunks_independent_of_threads),
      cmocka_unit_test(failing_points_recorded),
      cmocka_unit_test(resume_equals_uninterrupted),
      cmocka_unit_test(cancel_stops),
      cmocka_unit_test(failed_points_give_unknown),
      cmocka_unit_test(transport_independent_of_workers),
      cmocka_unit_test(vanderpol_hopf),
      cmocka_unit_test(newton_continuation_subhopf),
      cmocka_unit_test(duffing_period_doubling),
      cmocka_unit_test(pendulum_hopf_agreement),
      cmocka_unit_test(pendulum_forward_past_hopf),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
