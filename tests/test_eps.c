/* SPDX-License-Identifier: MIT */
/* The eps study (analysis/eps.h) on the pendulum of Acta Mech. 2016, figure 9
 * (omega0(t) = cos t, Y_S = -0.1 m), over short windows: identical runs give
 * differences of exactly 0, the norms are consistent with each other, the
 * difference falls as eps falls (the paper's claim) at an observed order near
 * 1, parameters derived from eps follow each run's eps, failures of the
 * arguments, an event-driven reference, and the sweep comparison (identical
 * sweeps: no mismatch, every bifurcation matched with shift 0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "study/eps_h5.h"
#include "study/eps_sweep.h"
#include "io/config.h"
#include "models/model.h"
#include "sweep/sweep.h"
#include "analysis/eps_private.h"

#define FIG9 CONTENSOU_SOURCE_DIR "/params/pendulum_fig9.ini"
#define BELT CONTENSOU_SOURCE_DIR "/params/belt_eps_study.ini"

static void load(const char *path, const char *const *sets, size_t n, struct cs_config *cfg)
{
  enum cs_status st = cs_config_load(path, sets, n, cfg);
  if (st != CS_OK)
    fail_msg("%s: %s", path, cs_errmsg());
}

/* The study of cfg on its [output] grid. */
static void study(const struct cs_config *cfg, const double *eps, size_t n_eps, int ref_ev,
                  double ref_eps, int threads, struct cs_eps_result *r)
{
  size_t n_t;
  double *t = cs_eps_grid(cfg->t_start, cfg->t_end, cfg->dt, &n_t);
  assert_non_null(t);
  struct cs_eps_spec spec = {.eps = eps,
                             .n_eps = n_eps,
                             .reference_event_driven = ref_ev,
                             .reference_eps = ref_eps,
                             .t = t,
                             .n_t = n_t,
                             .solver = cfg->solver,
                             .threads = threads};
  assert_int_equal(cs_eps_study(cfg->model, cfg->params_unprepared, cfg->y0, &spec, r), CS_OK);
  assert_int_equal(r->n_t, n_t);
  free(t);
}

static void grid(void **state)
{
  (void)state;
  size_t n;
  double *t = cs_eps_grid(0.0, 1.0, 0.3, &n);
  assert_non_null(t);
  assert_int_equal(n, 5);
  assert_close(t[3], 0.9, 1e-15);
  assert_true(t[4] == 1.0);
  free(t);
  t = cs_eps_grid(2.0, 3.0, 0.25, &n);
  assert_int_equal(n, 5);
  assert_true(t[0] == 2.0 && t[4] == 3.0);
  free(t);
  t = cs_eps_grid(0.0, 1.0, 0.0, &n); /* dt = 0: 1000 steps */
  assert_int_equal(n, 1001);
  free(t);
  assert_null(cs_eps_grid(1.0, 1.0, 0.1, &n));
  assert_null(cs_eps_grid(-1.0, 1.0, 0.1, &n));
  assert_null(cs_eps_grid(0.0, 1.0, 1e-7, &n)); /* more than CS_EPS_MAX_ROWS */
}

static void make_params(void **state)
{
  (void)state;
  struct cs_config cfg;
  load(FIG9, NULL, 0, &cfg);
  const struct cs_model *m = cfg.model;
  void *p = malloc(m->params_size);
  int ls = cs_model_param_index(m, "lambda_stick"), ke = cs_model_param_index(m, "eps");
  assert_true(ls >= 0 && ke >= 0);
  /* from the unprepared params lambda_stick (not given) follows the run's eps */
  assert_int_equal(cs_eps_make_params(m, cfg.params_unprepared, 1e-2, 0, p), CS_OK);
  assert_true(cs_model_get_param(m, p, ke) == 1e-2);
  assert_true(cs_model_get_param(m, p, ls) == 1e-2);
  /* from prepared params the derived value (the file's eps) stays */
  assert_int_equal(cs_eps_make_params(m, cfg.params, 1e-2, 0, p), CS_OK);
  assert_true(cs_model_get_param(m, p, ls) == 1e-4);
  /* eta stays as given, eta' is derived again (the same value) */
  int ep = cs_model_param_index(m, "eta_prime");
  assert_true(cs_model_get_param(m, p, ep) == cs_model_get_param(m, cfg.params, ep));
  assert_int_equal(cs_eps_make_params(m, cfg.params_unprepared, 2e3, 0, p), CS_ERR_RANGE);
  assert_non_null(strstr(cs_errmsg(), "eps"));
  assert_int_equal(cs_eps_make_params(m, cfg.params_unprepared, NAN, 1, p), CS_OK);
  assert_string_equal(cs_model_get_choice(m, p, 0), "event-driven");
  free(p);
  cs_config_free(&cfg);
  /* the two-mass system has neither eps nor an event-driven law */
  const struct cs_model *tm = cs_model_find("twomass");
  assert_non_null(tm);
  void *base = malloc(tm->params_size), *q = malloc(tm->params_size);
  cs_model_params_default(tm, base);
  assert_int_equal(tm->prepare(base), CS_OK);
  assert_int_equal(cs_eps_make_params(tm, base, 1e-3, 0, q), CS_ERR_NOT_FOUND);
  assert_int_equal(cs_eps_make_params(tm, base, NAN, 1, q), CS_ERR_NOT_FOUND);
  free(base), free(q);
}

static void bad_arguments(void **state)
{
  (void)state;
  struct cs_config cfg;
  load(FIG9, NULL, 0, &cfg);
  double t[2] = {0.0, 0.1}, eps[1] = {1e-2}, neg[1] = {-1.0};
  struct cs_eps_spec spec = {
      .eps = eps, .n_eps = 1, .reference_eps = 1e-3, .t = t, .n_t = 2, .solver = cfg.solver};
  struct cs_eps_result r;
  spec.eps = neg;
  assert_int_equal(cs_eps_study(cfg.model, cfg.params_unprepared, cfg.y0, &spec, &r), CS_ERR_ARG);
  cs_eps_result_free(&r);
  spec.eps = eps, spec.n_eps = 0;
  assert_int_equal(cs_eps_study(cfg.model, cfg.params_unprepared, cfg.y0, &spec, &r), CS_ERR_ARG);
  cs_eps_result_free(&r);
  spec.n_eps = 1, spec.reference_eps = 0;
  assert_int_equal(cs_eps_study(cfg.model, cfg.params_unprepared, cfg.y0, &spec, &r), CS_ERR_ARG);
  cs_eps_result_free(&r);
  t[1] = 0.0; /* not increasing */
  spec.reference_eps = 1e-3;
  assert_int_equal(cs_eps_study(cfg.model, cfg.params_unprepared, cfg.y0, &spec, &r), CS_ERR_ARG);
  cs_eps_result_free(&r);
  t[1] = 0.1;
  eps[0] = 5e3; /* outside the model's range: the params cannot be made */
  assert_int_equal(cs_eps_study(cfg.model, cfg.params_unprepared, cfg.y0, &spec, &r), CS_ERR_RANGE);
  assert_non_null(strstr(r.runs[0].message, "eps"));
  cs_eps_result_free(&r);
  cs_config_free(&cfg);
}

/* eps equal to the reference's: the same computation, differences exactly 0
 * (also when the runs go on different threads). */
static void identical_runs(void **state)
{
  (void)state;
  static const char *const sets[] = {"output.t_end=1", "output.dt=0.01"};
  struct cs_config cfg;
  load(FIG9, sets, 2, &cfg);
  double eps[2] = {1e-2, 1e-2 * 1.0};
  struct cs_eps_result r;
  study(&cfg, eps, 2, 0, 1e-2, 2, &r);
  assert_int_equal(r.reference.status, CS_OK);
  assert_int_equal(r.reference.rows, r.n_t);
  for (size_t k = 0; k < 2; k++) {
    assert_int_equal(r.runs[k].status, CS_OK);
    assert_int_equal(r.compared[k], r.n_t);
    const double *d = r.diff + k * r.n_t * r.cols;
    for (size_t i = 0; i < r.n_t; i++) {
      assert_true(d[i * r.cols] == r.reference.data[i * r.cols]);
      for (size_t j = 1; j < r.cols; j++)
        if (d[i * r.cols + j] != 0.0)
          fail_msg("eps run %zu, row %zu, column %zu: difference %g, expected exactly 0", k, i, j,
                   d[i * r.cols + j]);
    }
    for (size_t v = 0; v < r.n_var; v++) {
      assert_true(cs_eps_norm_get(&r, k, v, CS_EPS_MAX) == 0.0);
      assert_true(cs_eps_norm_get(&r, k, v, CS_EPS_RMS) == 0.0);
    }
  }
  /* equal eps cannot show a fall */
  assert_int_equal(cs_eps_monotone(&r), -1);
  cs_eps_result_free(&r);
  cs_config_free(&cfg);
}

/* eps = 1e-1, 1e-2 against 1e-3 over 2 s (a slip and a stick phase): the
 * norms agree with each other and the differences fall as eps falls. */
static void norms_and_fall(void **state)
{
  (void)state;
  static const char *const sets[] = {"output.t_end=2", "output.dt=0.01"};
  struct cs_config cfg;
  load(FIG9, sets, 2, &cfg);
  double eps[2] = {1e-2, 1e-1}; /* not sorted: the order given is kept */
  struct cs_eps_result r;
  study(&cfg, eps, 2, 0, 1e-3, 0, &r);
  assert_int_equal(r.reference.status, CS_OK);
  assert_true(r.has_stick);
  assert_true(r.stick_rows > 0 && r.stick_rows < r.n_t);
  assert_true(r.runs[0].eps == 1e-2 && r.runs[1].eps == 1e-1);
  for (size_t k = 0; k < 2; k++) {
    assert_int_equal(r.runs[k].status, CS_OK);
    for (size_t v = 0; v < r.n_var; v++) {
      double mx = cs_eps_norm_get(&r, k, v, CS_EPS_MAX),
             rms = cs_eps_norm_get(&r, k, v, CS_EPS_RMS);
      double ms = cs_eps_norm_get(&r, k, v, CS_EPS_MAX_STICK);
      double ml = cs_eps_norm_get(&r, k, v, CS_EPS_MAX_SLIP);
      double rs = cs_eps_norm_get(&r, k, v, CS_EPS_RMS_STICK);
      double rl = cs_eps_norm_get(&r, k, v, CS_EPS_RMS_SLIP);
      assert_true(isfinite(mx) && isfinite(rms) && isfinite(ms) && isfinite(ml));
      assert_true(mx >= rms);
      assert_true(ms >= rs && ml >= rl);
      assert_true(mx == fmax(ms, ml));
      /* the mean squares add up over the two phases */
      double n = (double)r.n_t, ns = (double)r.stick_rows;
      assert_rel_close(rms * rms * n, rs * rs * ns + rl * rl * (n - ns), 1e-12, 1e-300);
      /* the max is attained in the difference series */
      const double *d = r.diff + k * r.n_t * r.cols;
      double m2 = 0;
      for (size_t i = 0; i < r.n_t; i++)
        m2 = fmax(m2, fabs(d[i * r.cols + 1 + v]));
      assert_true(m2 == mx);
    }
    /* the states differ */
    for (size_t v = 0; v < r.n_state; v++)
      assert_true(cs_eps_norm_get(&r, k, v, CS_EPS_MAX) > 0);
  }
  /* the paper's claim: smaller eps, smaller difference, about linearly */
  assert_int_equal(cs_eps_monotone(&r), 1);
  for (size_t v = 0; v < r.n_state; v++) {
    double ord = cs_eps_order(&r, v);
    if (!(ord > 0.6 && ord < 1.5))
      fail_msg("observed order of %s = %g, expected about 1", cfg.model->state[v].name, ord);
  }
  cs_eps_result_free(&r);
  cs_config_free(&cfg);
}

/* The belt against its event-driven scheme over the first slip phase (t in
 * [57.6, 75.5]): the reference switches modes, its switches are logged, and
 * the difference falls from eps = 1e-3 to 1e-4. */
static void event_driven_reference(void **state)
{
  (void)state;
  static const char *const sets[] = {"output.t_end=80", "output.dt=0.1"};
  struct cs_config cfg;
  load(BELT, sets, 2, &cfg);
  double eps[2] = {1e-3, 1e-4};
  struct cs_eps_result r;
  study(&cfg, eps, 2, 1, NAN, 0, &r);
  if (r.reference.status != CS_OK)
    fail_msg("event-driven reference: %s", r.reference.message);
  assert_true(r.reference.event_driven && isnan(r.reference.eps));
  assert_true(r.reference.stats.switches >= 2);
  assert_int_equal(r.reference.n_switches, (size_t)r.reference.stats.switches);
  assert_true(r.stick_rows > 0 && r.stick_rows < r.n_t);
  for (size_t k = 0; k < 2; k++)
    assert_int_equal(r.runs[k].status, CS_OK);
  assert_int_equal(cs_eps_monotone(&r), 1);
  cs_eps_result_free(&r);
  cs_config_free(&cfg);
}

/* Identical sweeps (eps = the reference's): no class mismatch, every
 * bifurcation matched with shift 0, section differences 0. */
static void sweep_identical(void **state)
{
  (void)state;
  static const char *const sets[] = {"sweep.parameter=omega0", "sweep.from=0.1",
                                     "sweep.to=1.0",           "sweep.points=3",
                                     "sweep.transient=10",     "sweep.record=10",
                                     "sweep.spacing=linear",   "sweep.adaptive_transient=false"};
  struct cs_config cfg;
  load(CONTENSOU_SOURCE_DIR "/params/pendulum_eps_sweep.ini", sets, 8, &cfg);
  struct cs_sweep_spec sw;
  assert_int_equal(cs_sweep_spec_from_config(&cfg, &sw), CS_OK);
  sw.threads = 2;
  double eps[1] = {1e-1};
  struct cs_eps_sweep_spec spec = {.eps = eps, .n_eps = 1, .reference_eps = 1e-1, .sweep = &sw};
  struct cs_eps_sweep_result r;
  assert_int_equal(cs_eps_sweep_study(cfg.model, cfg.params_unprepared, cfg.y0, &spec, &r), CS_OK);
  assert_int_equal(r.reference.status, CS_OK);
  const struct cs_eps_sweep_run *e = &r.runs[0];
  assert_int_equal(e->status, CS_OK);
  assert_int_equal(e->compared, 3);
  assert_int_equal(e->class_mismatches, 0);
  assert_true(r.reference.outcome.n_bif >= 1);
  assert_int_equal(e->n_shifts, r.reference.outcome.n_bif);
  assert_int_equal(e->matched, e->n_shifts);
  for (size_t i = 0; i < e->n_shifts; i++)
    assert_true(e->shifts[i].shift == 0.0);
  assert_true(e->shift_max == 0.0);
  assert_true(e->n_points >= 1);
  for (size_t i = 0; i < e->n_points; i++)
    for (size_t j = 0; j < r.n_state; j++)
      assert_true(e->points[i].diff[j] == 0.0);
  cs_eps_sweep_result_free(&r);
  /* the sweep's parameter may not be eps */
  struct cs_sweep_spec sw2 = sw;
  sw2.param = cs_model_param_index(cfg.model, "eps");
  spec.sweep = &sw2;
  assert_int_equal(cs_eps_sweep_study(cfg.model, cfg.params_unprepared, cfg.y0, &spec, &r),
                   CS_ERR_ARG);
  cs_eps_sweep_result_free(&r);
  cs_config_free(&cfg);
}

/* Progress of cs_eps_study_run: the reference's time, rising, never past
 * the total. */
struct progress_seen {
  size_t calls;
  double last, total;
};

static void seen_progress(void *ctx, double done, double total)
{
  struct progress_seen *p = ctx;
  assert_true(done >= p->last && done <= total);
  p->last = done, p->total = total, p->calls++;
}

/* cs_eps_study_run, the call of contensou eps-study: a refused eps writes
 * nothing (not even the directory); a study writes the file whose norms are
 * the in-memory study's, bit for bit, with no partial file left. */
static void study_run_file(void **state)
{
  (void)state;
  static const char *const sets[] = {"output.t_end=0.5", "output.dt=0.01"};
  struct cs_config cfg;
  load(FIG9, sets, 2, &cfg);
  char dir[] = "/tmp/test_eps_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char sub[256], path[300], partial[320];
  snprintf(sub, sizeof sub, "%s/sub", dir);
  snprintf(path, sizeof path, "%s/e.h5", sub);
  snprintf(partial, sizeof partial, "%s.partial", path);

  double bad[2] = {1e-1, 2e3};
  struct cs_eps_study_opts o = {.eps = bad, .n_eps = 2, .reference_eps = 1e-3};
  struct cs_eps_study_run_result r;
  assert_int_equal(cs_eps_study_run(&cfg, path, &o, &r), CS_ERR_RANGE);
  assert_int_equal(r.studied, 0);
  assert_non_null(strstr(cs_errmsg(), "eps = 2000"));
  cs_eps_study_run_free(&r);
  assert_int_equal(access(sub, F_OK), -1);

  double eps[2] = {1e-1, 1e-2};
  struct progress_seen seen = {0};
  o = (struct cs_eps_study_opts){.eps = eps,
                                 .n_eps = 2,
                                 .reference_eps = 1e-3,
                                 .progress = seen_progress,
                                 .progress_ctx = &seen};
  assert_int_equal(cs_eps_study_run(&cfg, path, &o, &r), CS_OK);
  assert_int_equal(r.studied, 1);
  assert_int_equal(r.series.n_t, 51);
  assert_true(seen.calls > 0 && seen.total == 0.5 && seen.last == 0.5);
  assert_int_equal(access(partial, F_OK), -1);
  struct cs_eps_result mem;
  study(&cfg, eps, 2, 0, 1e-3, 0, &mem);
  struct cs_eps_study_file f;
  assert_int_equal(cs_read_eps_study(path, &f), CS_OK);
  assert_non_null(f.norms);
  assert_int_equal(f.norms->nrows, 2);
  for (size_t k = 0; k < 2; k++)
    for (size_t v = 0; v < mem.n_state; v++) {
      char col[128];
      snprintf(col, sizeof col, "%s_max", cfg.model->state[v].name);
      double on_disk = cs_result_value(f.norms, k, col);
      assert_true(on_disk == cs_eps_norm_get(&mem, k, v, CS_EPS_MAX));
      assert_true(on_disk == cs_eps_norm_get(&r.series, k, v, CS_EPS_MAX));
    }
  assert_string_equal(f.all.h.status, "ok");
  cs_eps_study_file_free(&f);
  cs_eps_result_free(&mem);
  cs_eps_study_run_free(&r);

  cs_config_free(&cfg);
  char lock[320];
  snprintf(lock, sizeof lock, "%s.lock", path);
  unlink(path), unlink(lock), rmdir(sub), rmdir(dir);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grid),
      cmocka_unit_test(make_params),
      cmocka_unit_test(bad_arguments),
      cmocka_unit_test(identical_runs),
      cmocka_unit_test(norms_and_fall),
      cmocka_unit_test(event_driven_reference),
      cmocka_unit_test(sweep_identical),
      cmocka_unit_test(study_run_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
