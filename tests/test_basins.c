/* SPDX-License-Identifier: MIT */
/* Basins of attraction (analysis/basins.h) on systems whose basins are known:
 * - the unforced double-well Duffing oscillator x'' + delta x' - x + x^3 = 0:
 *   two stable equilibria (+-1, 0); over a box symmetric under (x, v) ->
 *   (-x, -v), which the equations respect exactly (also in floating point:
 *   negation is exact), the map is point-symmetric with the two ids swapped
 *   and the fractions are exactly 1/2;
 * - the subcritical Hopf normal form (subhopf) at mu = -0.2: the stable
 *   origin and the stable outer cycle r^2 = (1 + sqrt(1 + 4 mu))/2, separated
 *   by the unstable circle r^2 = (1 - sqrt(1 + 4 mu))/2: every cell is on the
 *   side of that circle its initial radius says, and the boundary
 *   sensitivity is the fraction of cells whose +x or +y neighbour lies on the
 *   other side;
 * - determinism: 1 and 2 threads, and any split of the units into a run
 *   that stopped after K units plus a resumed run, give identical results;
 * - files: 1 and 2 threads, and a run stopped after K units then resumed
 *   (twice), give the same datasets; a second run on an unfinished file is
 *   refused;
 * - early stopping: the same map as analysing every cell in full, with fewer
 *   right-hand-side evaluations. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "testutil.h"

#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/basins.h"
#include "analysis/basins_h5.h"
#include "analysis/basins_h5_private.h"
#include "analysis/orbit.h"
#include "io/config.h"

#include <gsl/gsl_complex_math.h>
#include <gsl/gsl_eigen.h>
#include "io/h5.h"
#include "analysis/basins_private.h"
#include "analysis/basins_h5_private.h"

#include <unistd.h>

static void *params_of(const struct cs_model *m, const char *const *names, const double *values,
                       size_t n)
{
  void *p = calloc(1, m->params_size);
  cs_model_params_default(m, p);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(cs_model_set_param(m, p, names[i], values[i]), CS_OK);
  assert_int_equal(m->prepare(p), CS_OK);
  return p;
}

static void duffing_spec(struct cs_basins_spec *s, const struct cs_model *m, const double *y0,
                         size_t cells)
{
  cs_basins_spec_default(s);
  s->ix = 0, s->iy = 1;
  s->x_min = -2, s->x_max = 2, s->y_min = -2, s->y_max = 2;
  s->nx = s->ny = cells;
  s->chunk = 16;
  s->point.section = (struct cs_section_spec){CS_SECTION_HYPERPLANE, "v", 0.0, -1};
  s->point.transient = 60;
  s->point.record = 20;
  s->threads = 1;
  cs_basins_spec_scales(s, m, y0);
}

static void *duffing_params(const struct cs_model *m)
{
  static const char *const names[] = {"delta", "alpha", "beta", "gamma", "omega"};
  static const double values[] = {0.5, -1.0, 1.0, 0.0, 0.0};
  return params_of(m, names, values, 5);
}

static void test_duffing_symmetric(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = duffing_params(m);
  double y0[2] = {0, 0};
  struct cs_basins_spec s;
  duffing_spec(&s, m, y0, 16);
  struct cs_basins_result r;
  assert_int_equal(cs_basins_compute(m, p, y0, &s, &r), CS_OK);
  assert_int_equal(r.n_attr, 2);
  assert_int_equal(r.failed, 0);
  assert_int_equal(r.pending, 0);
  for (size_t a = 0; a < 2; a++) {
    assert_int_equal(r.attr[a].cls, CS_CLASS_EQUILIBRIUM);
    assert_close(fabs(r.attr[a].points[0]), 1.0, 1e-3);
    assert_close(r.attr[a].points[1], 0.0, 1e-3);
  }
  /* canonical order: the smaller state first */
  assert_true(r.attr[0].points[0] < 0 && r.attr[1].points[0] > 0);
  assert_int_equal(r.attr[0].cells, 128);
  assert_int_equal(r.attr[1].cells, 128);
  for (size_t j = 0; j < 16; j++)
    for (size_t i = 0; i < 16; i++) {
      int32_t a = r.attractor[i + 16 * j], b = r.attractor[(15 - i) + 16 * (15 - j)];
      assert_int_equal(a + b, 1);
    }
  /* early stopping happened and the map agrees with full analysis */
  size_t early = 0;
  for (size_t c = 0; c < r.n_cells; c++)
    early += r.early[c] == 1;
  assert_true(early > r.n_cells / 2);
  struct cs_basins_spec full = s;
  full.early = 0;
  struct cs_basins_result rf;
  assert_int_equal(cs_basins_compute(m, p, y0, &full, &rf), CS_OK);
  assert_int_equal(rf.n_attr, 2);
  assert_memory_equal(rf.attractor, r.attractor, r.n_cells * sizeof *r.attractor);
  print_message("duffing: rhs evaluations %ld early stopping, %ld full (%.1fx)\n", r.rhs_total,
                rf.rhs_total, (double)rf.rhs_total / (double)r.rhs_total);
  assert_true(r.rhs_total < rf.rhs_total);
  cs_basins_result_free(&rf);
  cs_basins_result_free(&r);
  free(p);
}

static void test_threads_identical(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = duffing_params(m);
  double y0[2] = {0, 0};
  struct cs_basins_spec s;
  duffing_spec(&s, m, y0, 12);
  s.chunk = 10; /* a last unit shorter than the others */
  struct cs_basins_result r1, r2;
  assert_int_equal(cs_basins_compute(m, p, y0, &s, &r1), CS_OK);
  s.threads = 2;
  assert_int_equal(cs_basins_compute(m, p, y0, &s, &r2), CS_OK);
  assert_int_equal(r1.n_attr, r2.n_attr);
  assert_memory_equal(r1.attractor, r2.attractor, r1.n_cells * sizeof *r1.attractor);
  assert_memory_equal(r1.settle, r2.settle, r1.n_cells * sizeof *r1.settle);
  assert_memory_equal(r1.rhs_evals, r2.rhs_evals, r1.n_cells * sizeof *r1.rhs_evals);
  for (size_t a = 0; a < r1.n_attr; a++)
    assert_memory_equal(r1.attr[a].points, r2.attr[a].points, 2 * sizeof(double));
  cs_basins_result_free(&r1);
  cs_basins_result_free(&r2);
  free(p);
}

static void test_subhopf_separatrix(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("subhopf");
  static const char *const names[] = {"mu", "omega"};
  const double mu = -0.2, values[] = {mu, 1.0};
  void *p = params_of(m, names, values, 2);
  double y0[2] = {0, 0};
  struct cs_basins_spec s;
  cs_basins_spec_default(&s);
  s.ix = 0, s.iy = 1;
  s.x_min = -1.2, s.x_max = 1.2, s.y_min = -1.2, s.y_max = 1.2;
  s.nx = s.ny = getenv("CS_TEST_QUICK") ? 12 : 20;
  s.chunk = 20;
  s.point.section = (struct cs_section_spec){CS_SECTION_HYPERPLANE, "y", 0.0, +1};
  s.point.transient = 60;
  s.point.record = 40;
  s.threads = 2;
  cs_basins_spec_scales(&s, m, y0);
  struct cs_basins_result r;
  assert_int_equal(cs_basins_compute(m, p, y0, &s, &r), CS_OK);
  assert_int_equal(r.n_attr, 2);
  /* canonical order: class equilibrium before periodic */
  assert_int_equal(r.attr[0].cls, CS_CLASS_EQUILIBRIUM);
  assert_int_equal(r.attr[1].cls, CS_CLASS_PERIODIC);
  assert_int_equal(r.attr[1].period, 1);
  assert_close(r.attr[1].period_time, 2 * M_PI, 1e-4);
  double r_u = sqrt((1 - sqrt(1 + 4 * mu)) / 2), r_s = sqrt((1 + sqrt(1 + 4 * mu)) / 2);
  assert_close(hypot(r.attr[1].points[0], r.attr[1].points[1]), r_s, 1e-4);
  size_t changed = 0, judged = 0;
  for (size_t j = 0; j < s.ny; j++)
    for (size_t i = 0; i < s.nx; i++) {
      double y[2];
      cs_basins_cell_state(&s, y0, i + s.nx * j, y);
      int expect = hypot(y[0], y[1]) > r_u;
      assert_int_equal(r.attractor[i + s.nx * j], expect);
      int diff = 0;
      if (i + 1 < s.nx) {
        double z[2];
        cs_basins_cell_state(&s, y0, i + 1 + s.nx * j, z);
        diff |= (hypot(z[0], z[1]) > r_u) != expect;
      }
      if (j + 1 < s.ny) {
        double z[2];
        cs_basins_cell_state(&s, y0, i + s.nx * (j + 1), z);
        diff |= (hypot(z[0], z[1]) > r_u) != expect;
      }
      judged += i + 1 < s.nx || j + 1 < s.ny;
      changed += diff;
    }
  assert_close(r.sensitivity, (double)changed / (double)judged, 1e-15);
  cs_basins_result_free(&r);
  free(p);
}

/* A seeded sample over a box symmetric under (x, v) -> (-x, -v): each
 * equilibrium's fraction within three standard errors of 1/2, every state in
 * its box, the same states for the same seed and cell whatever else was
 * drawn, other states for another seed. */
static void test_duffing_sample(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = duffing_params(m);
  double y0[2] = {0, 0};
  struct cs_basins_spec s;
  duffing_spec(&s, m, y0, 2);
  s.mode = CS_BASINS_SAMPLE;
  s.sample = 300;
  s.seed = 7;
  s.lo[0] = -2, s.hi[0] = 2, s.lo[1] = -2, s.hi[1] = 2;
  s.threads = 2;
  cs_basins_spec_scales(&s, m, y0);
  struct cs_basins_result r;
  assert_int_equal(cs_basins_compute(m, p, y0, &s, &r), CS_OK);
  assert_int_equal(r.n_attr, 2);
  double f = (double)r.attr[0].cells / 300.0, se = sqrt(0.25 / 300.0);
  assert_true(fabs(f - 0.5) <= 3 * se);
  assert_int_equal(r.attr[0].cells + r.attr[1].cells, 300);
  double a[16], b[16], c[16];
  cs_basins_cell_state(&s, y0, 123, a);
  cs_basins_cell_state(&s, y0, 123, b);
  assert_memory_equal(a, b, 2 * sizeof *a);
  assert_true(a[0] >= -2 && a[0] <= 2 && a[1] >= -2 && a[1] <= 2);
  s.seed = 8;
  cs_basins_cell_state(&s, y0, 123, c);
  assert_true(c[0] != a[0]);
  cs_basins_result_free(&r);
  free(p);
}

/* Basins along mu of the Hopf normal form: below the fold of cycles (mu <
 * -1/4) the origin alone, between fold and Hopf point both, with the
 * cycle's fraction the share of cells outside the unstable circle, above
 * the Hopf point (mu > 0) the cycle alone; the origin keeps id 0 until it
 * dies at the Hopf point, the cycle is born at the first value past the fold
 * and keeps id 1 while its radius grows. */
static void test_subhopf_along_mu(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("subhopf");
  void *p = calloc(1, m->params_size);
  cs_model_params_default(m, p);
  double y0[2] = {0, 0};
  struct cs_basins_spec s;
  cs_basins_spec_default(&s);
  s.ix = 0, s.iy = 1;
  s.x_min = -1.2, s.x_max = 1.2, s.y_min = -1.2, s.y_max = 1.2;
  s.nx = s.ny = 12;
  s.chunk = 36;
  s.point.section = (struct cs_section_spec){CS_SECTION_HYPERPLANE, "y", 0.0, +1};
  s.point.transient = 150; /* the origin attracts at the rate |mu| = 0.1 */
  s.point.record = 40;
  s.threads = 2;
  cs_basins_spec_scales(&s, m, y0);
  const double mus[] = {-0.3, -0.2, -0.1, 0.05};
  struct cs_basins_along a;
  assert_int_equal(
      cs_basins_along_run(m, p, y0, &s, cs_model_param_index(m, "mu"), mus, 4, NULL, &a), CS_OK);
  assert_int_equal(a.n_track, 2);
  assert_int_equal(a.cls[0], CS_CLASS_EQUILIBRIUM);
  assert_int_equal(a.cls[1], CS_CLASS_PERIODIC);
  assert_int_equal(a.born[0], 0);
  assert_int_equal(a.died[0], 3);
  assert_int_equal(a.born[1], 1);
  assert_int_equal(a.died[1], 4);
  const size_t expect_attr[] = {1, 2, 2, 1};
  for (size_t k = 0; k < 4; k++) {
    assert_int_equal(a.n_attr[k], expect_attr[k]);
    double r_u = mus[k] < 0 && mus[k] > -0.25 ? sqrt((1 - sqrt(1 + 4 * mus[k])) / 2)
                 : mus[k] >= 0                ? 0
                                              : INFINITY;
    size_t outside = 0;
    for (size_t c = 0; c < 144; c++) {
      double y[2];
      cs_basins_cell_state(&s, y0, c, y);
      outside += hypot(y[0], y[1]) > r_u;
    }
    assert_close(a.fraction[k * 2 + 1], (double)outside / 144.0, 1e-15);
    assert_close(a.fraction[k * 2 + 0], 1.0 - (double)outside / 144.0, 1e-15);
    if (a.fraction[k * 2 + 1] > 0)
      assert_close(a.period_time[k * 2 + 1], 2 * M_PI, 1e-4);
  }
  cs_basins_along_free(&a);
  free(p);
}

/* A run stopped after K units (the sink says stop) plus a run of the units
 * not done gives the uninterrupted result. */
struct keep {
  size_t stop_after, got;
  struct cs_basins_unit *u[256];
  const struct cs_model *m;
};

static int keep_sink(void *ctx, const struct cs_basins_unit *u)
{
  struct keep *k = ctx;
  if (k->stop_after && k->got >= k->stop_after)
    return 1;
  struct cs_basins_unit *c = calloc(1, sizeof *c);
  *c = *u;
  size_t n = u->n;
  c->local = malloc(n * sizeof *c->local);
  c->settle = malloc(n * sizeof *c->settle);
  c->rhs_evals = malloc(n * sizeof *c->rhs_evals);
  c->early = malloc(n * sizeof *c->early);
  memcpy(c->local, u->local, n * sizeof *c->local);
  memcpy(c->settle, u->settle, n * sizeof *c->settle);
  memcpy(c->rhs_evals, u->rhs_evals, n * sizeof *c->rhs_evals);
  memcpy(c->early, u->early, n * sizeof *c->early);
  c->attr = calloc(u->n_attr + 1, sizeof *c->attr);
  for (size_t a = 0; a < u->n_attr; a++) {
    c->attr[a] = u->attr[a];
    c->attr[a].points = malloc(u->attr[a].n_points * k->m->n_state * sizeof(double));
    memcpy(c->attr[a].points, u->attr[a].points,
           u->attr[a].n_points * k->m->n_state * sizeof(double));
  }
  k->u[k->got++] = c;
  return 0;
}

static void test_stop_and_resume(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = duffing_params(m);
  double y0[2] = {0, 0};
  struct cs_basins_spec s;
  duffing_spec(&s, m, y0, 10);
  s.chunk = 7;
  struct cs_basins_result whole;
  assert_int_equal(cs_basins_compute(m, p, y0, &s, &whole), CS_OK);
  struct keep k = {.stop_after = 5, .m = m};
  int stopped = 0;
  assert_int_equal(cs_basins_run(m, p, y0, &s, keep_sink, &k, NULL, &stopped), CS_OK);
  assert_true(stopped);
  assert_int_equal(k.got, 5);
  unsigned char done[64] = {0};
  for (size_t i = 0; i < k.got; i++)
    done[k.u[i]->index] = 1;
  struct cs_basins_result part;
  assert_int_equal(cs_basins_merge(m, &s, (const struct cs_basins_unit *const *)k.u, k.got, &part),
                   CS_OK);
  assert_int_equal(part.pending, 100 - 5 * 7);
  cs_basins_result_free(&part);
  k.stop_after = 0;
  struct cs_basins_ctl ctl = {.done = done};
  s.threads = 2;
  assert_int_equal(cs_basins_run(m, p, y0, &s, keep_sink, &k, &ctl, &stopped), CS_OK);
  assert_false(stopped);
  assert_int_equal(k.got, (100 + 6) / 7);
  struct cs_basins_result res;
  assert_int_equal(cs_basins_merge(m, &s, (const struct cs_basins_unit *const *)k.u, k.got, &res),
                   CS_OK);
  assert_memory_equal(res.attractor, whole.attractor, 100 * sizeof *res.attractor);
  assert_memory_equal(res.settle, whole.settle, 100 * sizeof *res.settle);
  for (size_t i = 0; i < k.got; i++)
    cs_basins_unit_free(k.u[i], 1);
  cs_basins_result_free(&res);
  cs_basins_result_free(&whole);
  free(p);
}

/* ------------------------------------------------------------ files */

static const char duffing_ini[] = "[model]\nname = duffing\n"
                                  "[parameters]\ndelta = 0.5\nalpha = -1\nbeta = 1\ngamma = 0\n"
                                  "omega = 0\n"
                                  "[initial]\nx = 0\nv = 0\n"
                                  "[section]\nkind = hyperplane\nvariable = v\nlevel = 0\n"
                                  "direction = -1\n"
                                  "[basins]\nx = x\ny = v\nx_min = -2\nx_max = 2\ny_min = -1.5\n"
                                  "y_max = 2.5\ncells = 12, 10\nchunk = 9\ntransient = 60\n"
                                  "record = 20\n";

struct stop_sink {
  struct cs_basins_h5 *w;
  size_t left; /* units still to write before stopping (SIZE_MAX: never) */
};

static int stopping_sink(void *ctx, const struct cs_basins_unit *u)
{
  struct stop_sink *s = ctx;
  if (s->left == 0)
    return 1;
  s->left--;
  return cs_basins_h5_sink(s->w, u);
}

/* Runs the file's basins into path: threads, stop after `units` units
 * (SIZE_MAX: never), resume. Returns the number of prior units. */
static size_t run_file(const char *path, int threads, size_t units, int resume)
{
  struct cs_config cfg;
  assert_int_equal(cs_config_load_text("duffing.ini", duffing_ini, NULL, 0, &cfg), CS_OK);
  struct cs_basins_spec s;
  assert_int_equal(cs_basins_spec_from_config(&cfg, &s), CS_OK);
  s.threads = threads;
  struct cs_basins_h5 *w;
  assert_int_equal(cs_basins_h5_create(path, &cfg, NULL, 0, &s, resume, 0, NULL, &w), CS_OK);
  size_t prior = 0;
  struct cs_basins_ctl ctl = {.done = cs_basins_h5_done(w, &prior)};
  struct stop_sink ss = {w, units};
  int stopped = 0;
  assert_int_equal(
      cs_basins_run(cfg.model, cfg.params, cfg.y0, &s, stopping_sink, &ss, &ctl, &stopped), CS_OK);
  assert_int_equal(stopped, units != SIZE_MAX);
  assert_int_equal(cs_basins_h5_finish(w, stopped, 0.0, NULL), CS_OK);
  cs_config_free(&cfg);
  return prior;
}

static void same_dataset(const char *a, const char *b, const char *path)
{
  struct cs_h5 *fa, *fb;
  assert_int_equal(cs_h5_open(a, 0, &fa), CS_OK);
  assert_int_equal(cs_h5_open(b, 0, &fb), CS_OK);
  struct cs_h5_data da = {0}, db = {0};
  assert_int_equal(cs_h5_read(fa, path, &da), CS_OK);
  assert_int_equal(cs_h5_read(fb, path, &db), CS_OK);
  assert_int_equal(da.nrows, db.nrows);
  assert_int_equal(da.ncols, db.ncols);
  assert_memory_equal(da.data, db.data, da.nrows * da.ncols * sizeof(double));
  cs_h5_data_free(&da), cs_h5_data_free(&db);
  cs_h5_close(fa), cs_h5_close(fb);
}

static void test_file_threads_and_resume(void **state)
{
  (void)state;
  char dir[] = "/tmp/test_basins_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char a[256], b[256], c[256], cp[300];
  snprintf(a, sizeof a, "%s/a.h5", dir);
  snprintf(b, sizeof b, "%s/b.h5", dir);
  snprintf(c, sizeof c, "%s/c.h5", dir);
  snprintf(cp, sizeof cp, "%s.partial", c);
  run_file(a, 1, SIZE_MAX, 0);
  run_file(b, 2, SIZE_MAX, 0);
  /* stopped after 4 of 14 units: the partial file stays, no final file */
  run_file(c, 2, 4, 0);
  assert_int_equal(access(c, F_OK), -1);
  assert_int_equal(access(cp, F_OK), 0);
  /* a new run on it is refused, a resume takes the 4 units */
  struct cs_config cfg;
  assert_int_equal(cs_config_load_text("duffing.ini", duffing_ini, NULL, 0, &cfg), CS_OK);
  struct cs_basins_spec s;
  assert_int_equal(cs_basins_spec_from_config(&cfg, &s), CS_OK);
  struct cs_basins_h5 *w = NULL;
  assert_int_equal(cs_basins_h5_create(c, &cfg, NULL, 0, &s, 0, 0, NULL, &w), CS_ERR_EXISTS);
  cs_config_free(&cfg);
  assert_int_equal(run_file(c, 1, 3, 1), 4);
  assert_int_equal(run_file(c, 1, SIZE_MAX, 1), 7);
  assert_int_equal(access(cp, F_OK), -1);
  static const char *const paths[] = {
      "/cells", "/map", "/attractors", "/points/values", "/points/attractor", "/initial_states"};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
    same_dataset(a, b, paths[i]);
    same_dataset(a, c, paths[i]);
  }
  unlink(a), unlink(b), unlink(c);
  char lock[300];
  snprintf(lock, sizeof lock, "%s.lock", a), unlink(lock);
  snprintf(lock, sizeof lock, "%s.lock", b), unlink(lock);
  snprintf(lock, sizeof lock, "%s.lock", c), unlink(lock);
  rmdir(dir);
}

/* Stops after `left` units are on disk (the first call is the one before
 * the run). */
struct stop_after {
  long left, calls;
  size_t last_on_disk;
};

static int stop_progress(void *ctx, size_t on_disk, size_t n_cells)
{
  struct stop_after *p = ctx;
  assert_true(on_disk <= n_cells);
  assert_true(on_disk >= p->last_on_disk); /* cells on disk only grow */
  p->last_on_disk = on_disk;
  return p->calls++ > 0 && --p->left == 0;
}

/* cs_basins_file_run, the call `contensou basins` makes: a run stopped after
 * 5 units keeps them in the partial file (no final file), a second fresh run
 * is refused without touching it, and a resume ends with the uninterrupted
 * run's datasets, bit for bit. */
static void test_file_run(void **state)
{
  (void)state;
  char dir[] = "/tmp/test_basins_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char a[256], c[256], cp[300];
  snprintf(a, sizeof a, "%s/a.h5", dir);
  snprintf(c, sizeof c, "%s/c.h5", dir);
  snprintf(cp, sizeof cp, "%s.partial", c);
  struct cs_config cfg;
  assert_int_equal(cs_config_load_text("duffing.ini", duffing_ini, NULL, 0, &cfg), CS_OK);
  struct cs_basins_spec s;
  assert_int_equal(cs_basins_spec_from_config(&cfg, &s), CS_OK);
  s.threads = 2;
  struct cs_basins_file_result r;
  assert_int_equal(cs_basins_file_run(&cfg, &s, a, NULL, &r), CS_OK);
  assert_int_equal(r.opened, 1);
  assert_int_equal(r.stopped, 0);
  assert_int_equal(r.cells_on_disk, r.basins.n_cells);
  assert_int_equal(r.basins.n_units, 14);
  assert_true(r.basins.n_attr >= 1);
  cs_basins_result_free(&r.basins);

  struct stop_after p = {.left = 5};
  struct cs_basins_file_opts o = {.progress = stop_progress, .progress_ctx = &p};
  assert_int_equal(cs_basins_file_run(&cfg, &s, c, &o, &r), CS_OK);
  assert_int_equal(r.stopped, 1);
  assert_int_equal(r.run_failed, 0);
  assert_int_equal(p.calls, 6);
  assert_int_equal(r.cells_on_disk, p.last_on_disk);
  assert_true(r.cells_on_disk > 0 && r.cells_on_disk < r.basins.n_cells);
  size_t kept = r.cells_on_disk;
  cs_basins_result_free(&r.basins);
  assert_int_equal(access(c, F_OK), -1);
  assert_int_equal(access(cp, F_OK), 0);

  assert_int_equal(cs_basins_file_run(&cfg, &s, c, NULL, &r), CS_ERR_EXISTS);
  assert_int_equal(r.opened, 0);
  cs_basins_result_free(&r.basins);
  assert_int_equal(access(cp, F_OK), 0);

  struct stop_after q = {.left = -1};
  o = (struct cs_basins_file_opts){.resume = 1, .progress = stop_progress, .progress_ctx = &q};
  s.threads = 1;
  assert_int_equal(cs_basins_file_run(&cfg, &s, c, &o, &r), CS_OK);
  assert_int_equal(r.resumed_units, 5);
  assert_int_equal(r.stopped, 0);
  assert_int_equal(q.calls, 1 + 14 - 5);
  assert_true(r.cells_on_disk == r.basins.n_cells && kept < r.cells_on_disk);
  cs_basins_result_free(&r.basins);
  assert_int_equal(access(cp, F_OK), -1);
  static const char *const paths[] = {
      "/cells", "/map", "/attractors", "/points/values", "/points/attractor", "/initial_states"};
  for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
    same_dataset(a, c, paths[i]);
  cs_config_free(&cfg);
  unlink(a), unlink(c);
  char lock[300];
  snprintf(lock, sizeof lock, "%s.lock", a), unlink(lock);
  snprintf(lock, sizeof lock, "%s.lock", c), unlink(lock);
  rmdir(dir);
}

/* Figure 5a at omega0 = 37.05 rad/s, inside the bistable band between the
 * fold of cycles (36.9159) and the subcritical Hopf point (37.1707): the
 * unstable cycle (Newton from the point `contensou continue
 * params/pendulum_fig5a_cycles.ini` gives at 37.0266 rad/s, its unstable
 * branch), shifted by +-delta along the eigenvector of its monodromy matrix
 * of the multiplier outside the unit circle (about 1.01: slow), goes one way
 * to the resting pendulum and the other way to the period-1 oscillation. */
static void test_fig5a_unstable_cycle(void **state)
{
  (void)state;
  if (getenv("CS_TEST_QUICK")) {
    print_message("figure 5a: skipped (CS_TEST_QUICK)\n");
    return;
  }
  const char *sets[] = {"parameters.omega0=37.05"};
  struct cs_config cfg;
  assert_int_equal(
      cs_config_load(CONTENSOU_SOURCE_DIR "/params/pendulum_fig5a_cycles.ini", sets, 1, &cfg),
      CS_OK);
  const struct cs_model *m = cfg.model;
  size_t n = m->n_state;
  struct cs_orbit_ws *ows = cs_orbit_ws_create(m, cfg.params_unprepared, -1);
  assert_non_null(ows);
  struct cs_orbit_opts oo = cs_orbit_opts_default();
  oo.solver = cfg.solver;
  oo.section = cfg.section;
  const double guess[6] = {0.10499697401109633, 0.03228785555303651, 0.2802197059381595, 0.0,
                           0.14728613706796445, -1.731947875210186};
  struct cs_orbit orb;
  assert_int_equal(cs_orbit_find(ows, &oo, 0.0, guess, 0.1862995404502582, &orb), CS_OK);
  assert_int_equal(orb.n_unstable, 1);
  /* the unstable eigenvector of the monodromy matrix (GSL) */
  gsl_matrix *M = gsl_matrix_alloc(n, n);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      gsl_matrix_set(M, i, j, orb.mono[i * n + j]);
  gsl_vector_complex *ev = gsl_vector_complex_alloc(n);
  gsl_matrix_complex *V = gsl_matrix_complex_alloc(n, n);
  gsl_eigen_nonsymmv_workspace *ew = gsl_eigen_nonsymmv_alloc(n);
  assert_int_equal(gsl_eigen_nonsymmv(M, ev, V, ew), 0);
  size_t ku = n;
  for (size_t k = 0; k < n; k++) {
    gsl_complex z = gsl_vector_complex_get(ev, k);
    if (gsl_complex_abs(z) > 1.001 && fabs(GSL_IMAG(z)) < 1e-9)
      ku = k;
  }
  assert_true(ku < n);
  double v[6], vmax = 0;
  for (size_t i = 0; i < n; i++)
    v[i] = GSL_REAL(gsl_matrix_complex_get(V, i, ku));
  struct cs_basins_spec s;
  cs_basins_spec_default(&s);
  s.point.solver = cfg.solver;
  s.point.section = cfg.section;
  s.point.transient = 100;
  s.point.adaptive_transient = 1;
  s.point.transient_max = 400;
  s.point.record = 20;
  s.radius = 0.05;
  s.mode = CS_BASINS_LIST;
  s.threads = 2;
  cs_basins_spec_scales(&s, m, orb.y);
  for (size_t i = 0; i < n; i++)
    vmax = fmax(vmax, fabs(v[i]) / s.scale[i]);
  /* delta: 0.05 of the state scales along v; the section variable stays 0 */
  double list[2 * 6];
  for (int sgn = 0; sgn < 2; sgn++)
    for (size_t i = 0; i < n; i++)
      list[sgn * n + i] = orb.y[i] + (sgn ? -1 : 1) * 0.05 * v[i] / vmax;
  s.list = list, s.list_n = n, s.sample = 2, s.chunk = 1;
  struct cs_basins_result r;
  assert_int_equal(cs_basins_compute(m, cfg.params, cfg.y0, &s, &r), CS_OK);
  assert_int_equal(r.n_attr, 2);
  assert_int_equal(r.attr[0].cls, CS_CLASS_EQUILIBRIUM);
  assert_int_equal(r.attr[1].cls, CS_CLASS_PERIODIC);
  assert_int_equal(r.attr[1].period, 1);
  assert_int_equal(r.attractor[0] + r.attractor[1], 1);
  print_message("figure 5a at 37.05 rad/s: +delta -> %s, -delta -> %s, settle %.1f / %.1f s\n",
                cs_class_name(r.attr[r.attractor[0]].cls),
                cs_class_name(r.attr[r.attractor[1]].cls), r.settle[0], r.settle[1]);
  cs_basins_result_free(&r);
  gsl_eigen_nonsymmv_free(ew);
  gsl_matrix_complex_free(V);
  gsl_vector_complex_free(ev);
  gsl_matrix_free(M);
  cs_orbit_ws_free(ows);
  cs_config_free(&cfg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_duffing_symmetric),  cmocka_unit_test(test_threads_identical),
      cmocka_unit_test(test_subhopf_separatrix), cmocka_unit_test(test_stop_and_resume),
      cmocka_unit_test(test_subhopf_along_mu),   cmocka_unit_test(test_file_threads_and_resume),
      cmocka_unit_test(test_file_run),           cmocka_unit_test(test_fig5a_unstable_cycle),
      cmocka_unit_test(test_duffing_sample),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
