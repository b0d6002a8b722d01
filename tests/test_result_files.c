/* SPDX-License-Identifier: MIT */
/* The result files written by the library, as a C program writes them
 * without the command line: a trajectory recorded in memory and written by
 * cs_trajectory_h5_write (io/trajectory_h5.h) reads back as the closed-form
 * solution of the harmonic oscillator (Duffing with beta = delta = gamma =
 * 0: x = cos t, v = -sin t, energy 1/2) with its header, statistics (counts
 * stored as int64 columns) and doc attributes, and the same run written as
 * it goes (begin, on_rows, end) gives the same rows bit for bit; a
 * trajectory of another model is refused. An eps study written by
 * cs_eps_h5_write_series_file (study/eps_h5.h) reads back with its eps list,
 * a zero difference at t = 0 (every run starts from the same state), the
 * norms of the result (counts int64), the root attributes. The integer
 * outputs of a model (the two-mass model's vcase and stick, the pendulum's
 * stick) go to int32 companions of the tables of doubles (/trajectory_codes,
 * /reference_codes, /eps/<k>/difference_codes), in one go and streamed in
 * blocks alike, and the readers of results/read.h give back exactly the
 * rows the library computed, in the model's order; cs_codes_split refuses
 * what is not an integer output. A study written as it goes ends with
 * cs_eps_h5_finish (committed) or cs_eps_h5_discard (no partial file, the
 * older file and the path's claim released). A layout version the readers
 * do not read (newer, or 0) is refused with a message naming it and the
 * versions read; the earlier ones read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "io/config.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "io/trajectory_h5.h"
#include "results/read.h"
#include "study/eps_h5.h"
#include "models/model_private.h"
#include "analysis/eps_private.h"
#include "io/run_h5_private.h"
#include "io/trajectory_h5_private.h"
#include "study/eps_h5_private.h"

static char dir[256];

static int setup(void **state)
{
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/cs_test_result_files_XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name)
{
  static char path[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
  return path[k];
}

static const char harmonic_ini[] = "[model]\n"
                                   "name = duffing\n"
                                   "[parameters]\n"
                                   "delta = 0\n"
                                   "alpha = 1\n"
                                   "beta = 0\n"
                                   "gamma = 0\n"
                                   "[initial]\n"
                                   "x = 1\n"
                                   "v = 0\n"
                                   "[solver]\n"
                                   "rtol = 1e-11\n"
                                   "atol = 1e-13\n"
                                   "[output]\n"
                                   "t_end = 2\n"
                                   "dt = 0.1\n";

static void load(const char *name, const char *text, const char *const *sets, size_t n_set,
                 struct cs_config *cfg)
{
  const char *path = in_dir(name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  if (cs_config_load(path, sets, n_set, cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
}

static char *read_string(struct cs_h5 *f, const char *obj, const char *name)
{
  char *s = NULL;
  assert_int_equal(cs_h5_attr_read_string(f, obj, name, &s), CS_OK);
  return s;
}

/* The dataset at path has the element type want. */
static void expect_type(struct cs_h5 *f, const char *path, enum cs_h5_type want)
{
  struct cs_h5_dset *d;
  assert_int_equal(cs_h5_dset_open(f, path, &d), CS_OK);
  if (cs_h5_dset_type(d) != want)
    fail_msg("%s: element type %d, expected %d", path, (int)cs_h5_dset_type(d), (int)want);
  cs_h5_dset_close(d);
}

static void has_doc(struct cs_h5 *f, const char *obj)
{
  char *s = read_string(f, obj, "doc");
  if (strlen(s) < 20)
    fail_msg("%s: doc '%s' says nothing", obj, s);
  free(s);
}

/* The run of cfg recorded on grid g and written to path as it goes, in
 * blocks of 7 rows (cs_trajectory_h5_*); returns the writer's max_switches
 * (0 for a smooth law: no switch table). */
static size_t write_streamed(const char *path, const struct cs_config *cfg,
                             const struct cs_record_grid *g, const char *const *sets, size_t n_set,
                             double wall_time)
{
  struct cs_h5 *out;
  assert_int_equal(cs_h5_output_create(path, 1, &out), CS_OK);
  struct cs_trajectory_h5 tw = {.flush_every = 0};
  assert_int_equal(cs_trajectory_h5_create(&tw, out, cfg, g, sets, n_set, 0, NULL), CS_OK);
  size_t max_switches = tw.max_switches;
  struct cs_record_spec rs = {.grid = *g,
                              .solver = &cfg->solver,
                              .block_rows = 7,
                              .on_rows = cs_trajectory_h5_on_rows,
                              .on_switch = cs_trajectory_h5_on_switch,
                              .ctx = &tw};
  struct cs_record_result r;
  assert_int_equal(cs_record_run(cfg->model, cfg->params, cfg->y0, &rs, &r), CS_OK);
  assert_int_equal(cs_trajectory_h5_finish(&tw, &r, wall_time), CS_OK);
  assert_int_equal(cs_h5_output_commit(out), CS_OK);
  return max_switches;
}

static void trajectory_file(void **state)
{
  (void)state;
  const char *sets[] = {"parameters.omega=1.5"};
  struct cs_config cfg;
  load("harmonic.ini", harmonic_ini, sets, 1, &cfg);
  const struct cs_model *m = cfg.model;
  struct cs_record_grid g;
  assert_int_equal(cs_record_grid_make(cfg.t_start, cfg.t_end, cfg.dt, 1000, &g), CS_OK);
  assert_int_equal(g.rows, 21);
  struct cs_record_spec rs = {.grid = g, .solver = &cfg.solver};
  struct cs_trajectory tr;
  assert_int_equal(cs_trajectory_record(m, cfg.params, cfg.y0, &rs, &tr), CS_OK);
  const char *path = in_dir("memory.h5");
  assert_int_equal(cs_trajectory_h5_write(path, &tr, &cfg, &g, sets, 1, 0, NULL, 0.25), CS_OK);

  struct cs_h5 *f;
  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  struct cs_h5_data d = {0};
  assert_int_equal(cs_h5_read(f, "/trajectory", &d), CS_OK);
  assert_int_equal(d.nrows, 21);
  long ct = cs_h5_data_column(&d, "t"), cx = cs_h5_data_column(&d, "x"),
       cv = cs_h5_data_column(&d, "v"), ce = cs_h5_data_column(&d, "E");
  assert_true(ct == 0 && cx > 0 && cv > 0 && ce > 0);
  for (size_t k = 0; k < d.nrows; k++) {
    const double *row = d.data + k * d.ncols;
    assert_close(row[ct], 0.1 * (double)k, 1e-12);
    assert_close(row[cx], cos(row[ct]), 1e-8);
    assert_close(row[cv], -sin(row[ct]), 1e-8);
    assert_close(row[ce], 0.5, 1e-8);
  }
  assert_string_equal(d.units[ct], "1");
  char *s = read_string(f, "/", "kind");
  assert_string_equal(s, "trajectory");
  free(s);
  s = read_string(f, "/", "status");
  assert_string_equal(s, "ok");
  free(s);
  s = read_string(f, "/", "overrides");
  assert_string_equal(s, "parameters.omega=1.5");
  free(s);
  size_t rows;
  assert_int_equal(cs_h5_attr_read_count(f, "/stats", "rows", 1000, &rows), CS_OK);
  assert_int_equal(rows, 21);
  assert_int_equal(cs_h5_attr_read_count(f, "/trajectory", "rows_planned", 1000, &rows), CS_OK);
  assert_int_equal(rows, 21);
  double v;
  assert_int_equal(cs_h5_attr_read_double(f, "/stats", "wall_time_s", &v), CS_OK);
  assert_true(v == 0.25);
  assert_int_equal(cs_h5_attr_read_double(f, "/stats", "t_reached", &v), CS_OK);
  assert_true(v == 2.0);
  assert_int_equal(cs_h5_attr_read_double(f, "/params", "omega", &v), CS_OK);
  assert_true(v == 1.5);
  assert_false(cs_h5_exists(f, "/switches")); /* duffing has no mode switches */
  /* /stats is stored by columns: the counts as int64, the times as doubles */
  expect_type(f, "/stats/rows", CS_H5_INT64);
  expect_type(f, "/stats/steps", CS_H5_INT64);
  expect_type(f, "/stats/t_reached", CS_H5_DOUBLE);
  expect_type(f, "/solver/max_steps", CS_H5_INT64);
  struct cs_h5_data st;
  assert_int_equal(cs_h5_read(f, "/stats", &st), CS_OK);
  assert_true(st.nrows == 1 && cs_h5_data_column(&st, "rows") >= 0);
  assert_true(st.data[cs_h5_data_column(&st, "rows")] == 21);
  cs_h5_data_free(&st);
  const char *objs[] = {"/trajectory", "/stats", "/params", "/initial", "/solver"};
  for (size_t i = 0; i < sizeof objs / sizeof *objs; i++)
    has_doc(f, objs[i]);
  cs_h5_close(f);

  /* the same run written as it goes: the same rows, bit for bit */
  const char *path2 = in_dir("streamed.h5");
  assert_int_equal(write_streamed(path2, &cfg, &g, sets, 1, 0.5), 0);
  assert_int_equal(cs_h5_open(path2, 0, &f), CS_OK);
  struct cs_h5_data d2 = {0};
  assert_int_equal(cs_h5_read(f, "/trajectory", &d2), CS_OK);
  assert_int_equal(d2.nrows, d.nrows);
  assert_int_equal(d2.ncols, d.ncols);
  assert_memory_equal(d2.data, d.data, d.nrows * d.ncols * sizeof *d.data);
  cs_h5_close(f);
  cs_h5_data_free(&d2);
  cs_h5_data_free(&d);

  /* a trajectory with other columns than the model's is refused */
  tr.cols++;
  assert_int_equal(cs_trajectory_h5_write(in_dir("bad.h5"), &tr, &cfg, &g, NULL, 0, 0, NULL, 0),
                   CS_ERR_ARG);
  assert_true(access(in_dir("bad.h5"), F_OK) != 0);
  tr.cols--;
  cs_trajectory_free(&tr);
  cs_config_free(&cfg);
}

/* a == b element by element, NaN equal to NaN */
static void same_values(const double *a, const double *b, size_t n, const char *what)
{
  for (size_t i = 0; i < n; i++)
    if (!(a[i] == b[i] || (isnan(a[i]) && isnan(b[i]))))
      fail_msg("%s: element %zu is %.17g, expected %.17g", what, i, a[i], b[i]);
}

/* The two-mass model's trajectory: t, 4 states, 4 real outputs in
 * /trajectory; vcase and stick, int32, in /trajectory_codes; written in one
 * go and in blocks of 7 rows, the same; read back as the recorded rows. */
static void trajectory_integer_outputs(void **state)
{
  (void)state;
  char ini[512];
  snprintf(ini, sizeof ini, "%s/params/twomass_stickslip.ini", CONTENSOU_SOURCE_DIR);
  const char *sets[] = {"output.t_end=1", "output.dt=0.01"};
  struct cs_config cfg;
  if (cs_config_load(ini, sets, 2, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const struct cs_model *m = cfg.model;
  assert_int_equal(cs_model_integer_outputs(m), 2);
  struct cs_record_grid g;
  assert_int_equal(cs_record_grid_make(cfg.t_start, cfg.t_end, cfg.dt, 1000, &g), CS_OK);
  struct cs_record_spec rs = {.grid = g, .solver = &cfg.solver};
  struct cs_trajectory tr;
  assert_int_equal(cs_trajectory_record(m, cfg.params, cfg.y0, &rs, &tr), CS_OK);
  assert_int_equal(tr.cols, 11);
  const char *path = in_dir("twomass.h5");
  assert_int_equal(cs_trajectory_h5_write(path, &tr, &cfg, &g, sets, 2, 0, NULL, 0), CS_OK);

  /* streamed in blocks of 7 rows */
  const char *path2 = in_dir("twomass_streamed.h5");
  write_streamed(path2, &cfg, &g, sets, 2, 0);

  const char *paths[] = {path, path2};
  for (int k = 0; k < 2; k++) {
    struct cs_h5 *f;
    assert_int_equal(cs_h5_open(paths[k], 0, &f), CS_OK);
    struct cs_h5_dset *reals, *codes;
    assert_int_equal(cs_h5_dset_open(f, "/trajectory", &reals), CS_OK);
    assert_int_equal(cs_h5_dset_open(f, "/trajectory_codes", &codes), CS_OK);
    assert_int_equal(cs_h5_dset_type(reals), CS_H5_DOUBLE);
    assert_int_equal(cs_h5_dset_type(codes), CS_H5_INT32);
    assert_int_equal(cs_h5_dset_cols(reals), 9);
    assert_int_equal(cs_h5_dset_cols(codes), 2);
    assert_int_equal(cs_h5_dset_rows(codes), tr.rows);
    double *x = malloc(tr.rows * 9 * sizeof *x);
    int32_t *c = malloc(tr.rows * 2 * sizeof *c);
    assert_true(x && c);
    assert_int_equal(cs_h5_dset_read(reals, 0, tr.rows, x), CS_OK);
    assert_int_equal(cs_h5_dset_read(codes, 0, tr.rows, c), CS_OK);
    int sticks = 0;
    for (size_t i = 0; i < tr.rows; i++) {
      same_values(x + i * 9, tr.data + i * 11, 9, "the real columns");
      assert_true(c[2 * i] == tr.data[i * 11 + 9] && c[2 * i + 1] == tr.data[i * 11 + 10]);
      sticks += c[2 * i + 1];
    }
    assert_true(sticks > 0 && sticks < (int)tr.rows); /* stick-slip */
    double mv;
    assert_int_equal(cs_h5_attr_read_double(f, "/trajectory_codes", "missing_value", &mv), CS_OK);
    assert_true(mv == -1);
    has_doc(f, "/trajectory_codes");
    free(x), free(c);
    cs_h5_dset_close(reals), cs_h5_dset_close(codes);
    cs_h5_close(f);

    /* the reader: the recorded rows, in the model's order */
    struct cs_trajectory_file rf;
    assert_int_equal(cs_read_trajectory(paths[k], 0, SIZE_MAX, &rf), CS_OK);
    assert_int_equal(rf.table.nrows, tr.rows);
    assert_int_equal(rf.table.ncols, tr.cols);
    for (size_t j = 0; j < m->n_derived; j++)
      assert_string_equal(rf.table.names[1 + m->n_state + j], m->derived[j].name);
    same_values(rf.table.data, tr.data, tr.rows * tr.cols, "cs_read_trajectory");
    cs_trajectory_file_free(&rf);
  }
  cs_trajectory_free(&tr);
  cs_config_free(&cfg);
}

/* cs_codes_split: NaN is the missing value, anything but an integer output
 * is refused naming where, a table of differences takes negative ones, and
 * the real columns compact in place. */
static void codes_split(void **state)
{
  (void)state;
  double rows[] = {0.5, 1.0, 0.0, 2.5, NAN, 3.0};
  int32_t codes[4];
  assert_int_equal(cs_codes_split(rows, 2, 3, 2, 0, rows, codes, "/x"), CS_OK);
  assert_true(rows[0] == 0.5 && rows[1] == 2.5); /* the reals, compacted */
  assert_true(codes[0] == 1 && codes[1] == 0 && codes[2] == CS_CODES_MISSING && codes[3] == 3);
  double bad[] = {0.0, 1.5};
  assert_int_equal(cs_codes_split(bad, 1, 2, 1, 0, bad, codes, "/t"), CS_ERR_ARG);
  assert_non_null(strstr(cs_errmsg(), "'/t': row 0, column 1: 1.5 is not an integer output"));
  double neg[] = {0.0, -1.0, 0.0, NAN};
  assert_int_equal(cs_codes_split(neg, 2, 2, 1, 0, neg, codes, "/t"), CS_ERR_ARG);
  assert_int_equal(cs_codes_split(neg, 2, 2, 1, 1, neg, codes, "/t"), CS_OK);
  assert_true(codes[0] == -1 && codes[1] == CS_CODES_DIFF_MISSING);
  double big[] = {0.0, 3e9};
  assert_int_equal(cs_codes_split(big, 1, 2, 1, 0, big, codes, "/t"), CS_ERR_ARG);
}

static void eps_series_file(void **state)
{
  (void)state;
  char ini[512];
  snprintf(ini, sizeof ini, "%s/params/pendulum_fig9.ini", CONTENSOU_SOURCE_DIR);
  const char *sets[] = {"output.t_end=0.2", "output.dt=0.01"};
  struct cs_config cfg;
  if (cs_config_load(ini, sets, 2, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  size_t n_t = 0;
  double *t = cs_eps_grid(cfg.t_start, cfg.t_end, cfg.dt, &n_t);
  assert_non_null(t);
  const double eps[] = {1e-1, 1e-2};
  struct cs_eps_spec spec = {.eps = eps,
                             .n_eps = 2,
                             .reference_eps = 1e-3,
                             .t = t,
                             .n_t = n_t,
                             .solver = cfg.solver,
                             .threads = 1};
  struct cs_eps_result r;
  assert_int_equal(cs_eps_study(cfg.model, cfg.params_unprepared, cfg.y0, &spec, &r), CS_OK);
  const struct cs_run_info run = {sets, 2, 0, NULL};
  const char *path = in_dir("eps.h5");
  assert_int_equal(cs_eps_h5_write_series_file(path, &cfg, &run, &spec, &r), CS_OK);

  struct cs_h5 *f;
  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  char *s = read_string(f, "/", "kind");
  assert_string_equal(s, "eps-study");
  free(s);
  s = read_string(f, "/", "study");
  assert_string_equal(s, "time-series");
  free(s);
  s = read_string(f, "/", "status");
  assert_string_equal(s, "ok");
  free(s);
  struct cs_h5_data d = {0};
  assert_int_equal(cs_h5_read(f, "/eps/values", &d), CS_OK);
  assert_int_equal(d.nrows, 2);
  assert_true(d.data[0] == 1e-1 && d.data[1] == 1e-2);
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_read(f, "/reference", &d), CS_OK);
  assert_int_equal(d.nrows, n_t);
  assert_int_equal(d.ncols, r.cols - 1); /* the stick indicator is in /reference_codes */
  assert_int_equal(cs_h5_data_column(&d, "stick"), -1);
  cs_h5_data_free(&d);
  expect_type(f, "/reference_codes", CS_H5_INT32);
  expect_type(f, "/eps/0/difference_codes", CS_H5_INT32);
  has_doc(f, "/reference_codes");
  has_doc(f, "/eps/1/difference_codes");
  for (size_t k = 0; k < 2; k++) {
    char p[64];
    snprintf(p, sizeof p, "/eps/%zu/difference", k);
    assert_int_equal(cs_h5_read(f, p, &d), CS_OK);
    assert_int_equal(d.nrows, n_t);
    assert_true(d.data[0] == 0.0); /* t = 0 */
    for (size_t j = 1; j <= cfg.model->n_state; j++)
      assert_true(d.data[j] == 0.0); /* the same initial state */
    cs_h5_data_free(&d);
    has_doc(f, p);
  }
  assert_int_equal(cs_h5_read(f, "/eps/norms", &d), CS_OK);
  assert_int_equal(d.nrows, 2);
  for (size_t v = 0; v < cfg.model->n_state; v++) {
    char name[160];
    snprintf(name, sizeof name, "%s_max", cfg.model->state[v].name);
    long c = cs_h5_data_column(&d, name);
    assert_true(c > 0);
    for (size_t k = 0; k < 2; k++)
      assert_true(d.data[k * d.ncols + (size_t)c] == cs_eps_norm_get(&r, k, v, CS_EPS_MAX));
  }
  cs_h5_data_free(&d);
  expect_type(f, "/eps/norms/rows", CS_H5_INT64);
  expect_type(f, "/eps/runs/ok", CS_H5_INT32);
  expect_type(f, "/eps/runs/steps", CS_H5_INT64);
  expect_type(f, "/eps/runs/wall_time_s", CS_H5_DOUBLE);
  const char *objs[] = {"/reference", "/eps/values", "/eps/norms", "/eps/runs", "/eps"};
  for (size_t i = 0; i < sizeof objs / sizeof *objs; i++)
    has_doc(f, objs[i]);
  cs_h5_close(f);
  /* the reader: the reference and the differences the study computed,
   * column for column (the stick indicator last) */
  struct cs_eps_study_file e;
  assert_int_equal(cs_read_eps_study(path, &e), CS_OK);
  assert_int_equal(e.reference->ncols, r.cols);
  assert_int_equal(cs_result_column(e.reference, "stick"), (long)r.cols - 1);
  same_values(e.reference->data, r.reference.data, n_t * r.cols, "/reference");
  for (size_t k = 0; k < 2; k++)
    same_values(cs_eps_study_difference(&e, k)->data, r.diff + k * n_t * r.cols, n_t * r.cols,
                "a difference");
  cs_eps_study_file_free(&e);
  cs_eps_result_free(&r);
  free(t);
  cs_config_free(&cfg);
}

/* cs_eps_h5_finish commits; cs_eps_h5_discard leaves no partial file, the
 * older file at the path as it was, and the path free for the next run. */
static void eps_finish_discard(void **state)
{
  (void)state;
  char ini[512];
  snprintf(ini, sizeof ini, "%s/params/pendulum_fig9.ini", CONTENSOU_SOURCE_DIR);
  const char *sets[] = {"output.t_end=0.05", "output.dt=0.01"};
  struct cs_config cfg;
  if (cs_config_load(ini, sets, 2, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const double eps[] = {1e-1};
  const char *path = in_dir("finish.h5");
  char partial[600];
  snprintf(partial, sizeof partial, "%s.partial", path);

  /* a header only, finished: the file is there, committed */
  struct cs_writer w = {.st = CS_OK};
  assert_int_equal(cs_h5_output_create(path, 1, &w.f), CS_OK);
  assert_int_equal(cs_eps_h5_create(&w, &cfg, NULL, "time-series", eps, 1, 0, 1e-3), CS_OK);
  assert_int_equal(cs_eps_h5_finish(&w), CS_OK);
  assert_null(w.f);
  assert_int_equal(cs_eps_h5_finish(&w), CS_OK); /* nothing left to do */
  assert_true(access(path, F_OK) == 0 && access(partial, F_OK) != 0);

  /* a second run that produced nothing: discarded, the first file kept */
  assert_int_equal(cs_h5_output_create(path, 1, &w.f), CS_OK);
  assert_true(access(partial, F_OK) == 0);
  cs_eps_h5_create(&w, &cfg, NULL, "time-series", eps, 1, 1, NAN);
  cs_eps_h5_discard(&w);
  assert_null(w.f);
  cs_eps_h5_discard(&w); /* harmless */
  assert_true(access(partial, F_OK) != 0);
  struct cs_h5 *f;
  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  char *s = read_string(f, "/", "reference"); /* the first run's: eps, not event-driven */
  assert_string_equal(s, "eps");
  free(s);
  cs_h5_close(f);
  /* the claim on the path is released */
  assert_int_equal(cs_h5_output_create(path, 1, &w.f), CS_OK);
  cs_eps_h5_discard(&w);
  cs_config_free(&cfg);
}

/* Layout versions, without h5py: a trajectory written by the library
 * carries its kind's layout version; the same file with the attribute
 * rewritten (through the HDF5 layer) to a newer version, or to 0, is refused
 * by the kind's reader and by the reader of any file, naming the version
 * found and the versions read; every earlier version, and none (layout 1),
 * reads. */
static void layout_versions(void **state)
{
  (void)state;
  struct cs_config cfg;
  load("harmonic.ini", harmonic_ini, NULL, 0, &cfg);
  struct cs_record_grid g;
  assert_int_equal(cs_record_grid_make(cfg.t_start, cfg.t_end, cfg.dt, 1000, &g), CS_OK);
  struct cs_record_spec rs = {.grid = g, .solver = &cfg.solver};
  struct cs_trajectory tr;
  assert_int_equal(cs_trajectory_record(cfg.model, cfg.params, cfg.y0, &rs, &tr), CS_OK);
  const char *path = in_dir("layout.h5");
  assert_int_equal(cs_trajectory_h5_write(path, &tr, &cfg, &g, NULL, 0, 0, NULL, 0), CS_OK);
  cs_trajectory_free(&tr);
  cs_config_free(&cfg);

  struct cs_trajectory_file t;
  struct cs_result_file any;
  assert_int_equal(cs_read_trajectory(path, 0, SIZE_MAX, &t), CS_OK);
  double v = 0;
  assert_true(cs_result_attr_number(&t.h.root, "layout_version", &v, NULL));
  assert_true(v == CS_TRAJECTORY_H5_LAYOUT);
  cs_trajectory_file_free(&t);

  const long versions[] = {CS_TRAJECTORY_H5_LAYOUT + 1, 0, 1, CS_TRAJECTORY_H5_LAYOUT};
  for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
    struct cs_h5 *f;
    assert_int_equal(cs_h5_open(path, 1, &f), CS_OK);
    assert_int_equal(cs_h5_attr_write_int(f, "/", "layout_version", versions[i]), CS_OK);
    assert_int_equal(cs_h5_close(f), CS_OK);
    enum cs_status st = cs_read_trajectory(path, 0, SIZE_MAX, &t);
    if (versions[i] >= 1 && versions[i] <= CS_TRAJECTORY_H5_LAYOUT) {
      if (st != CS_OK)
        fail_msg("layout %ld: %s", versions[i], cs_errmsg());
      assert_int_equal(t.table.nrows, 21);
      cs_trajectory_file_free(&t);
      assert_int_equal(cs_read_result(path, &any), CS_OK);
      cs_result_file_free(&any);
      continue;
    }
    char want[600];
    snprintf(want, sizeof want,
             "%s: trajectory layout version %ld is %s this contensou reads (1\u2013%d)", path,
             versions[i], versions[i] > 0 ? "newer than" : "not one", CS_TRAJECTORY_H5_LAYOUT);
    assert_int_equal(st, CS_ERR_UNSUPPORTED);
    assert_string_equal(cs_errmsg(), want);
    assert_null(t.table.data); /* zeroed on failure */
    assert_int_equal(cs_read_result(path, &any), CS_ERR_UNSUPPORTED);
    assert_string_equal(cs_errmsg(), want);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(trajectory_file),    cmocka_unit_test(trajectory_integer_outputs),
      cmocka_unit_test(codes_split),        cmocka_unit_test(eps_series_file),
      cmocka_unit_test(eps_finish_discard), cmocka_unit_test(layout_versions),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
