/* SPDX-License-Identifier: MIT */
/* The trajectory file (see trajectory_h5.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error_private.h"
#include "io/trajectory_h5.h"
#include "models/model_private.h"
#include "io/run_h5_private.h"
#include "io/trajectory_h5_private.h"

static double monotonic_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The empty table /switches: t, kind, mode and the state after each switch,
 * stored by columns (kind and mode are codes). */
static void create_switch_table(struct cs_trajectory_h5 *tw)
{
  struct cs_writer *w = &tw->w;
  const struct cs_model *m = tw->model;
  struct cs_h5_column cols[3 + CS_FLOW_MAX_N];
  char docs[CS_FLOW_MAX_N][160];
  size_t n = m->n_state < CS_FLOW_MAX_N ? m->n_state : CS_FLOW_MAX_N;
  cs_switch_columns(m, cols, docs, n);
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_table_create_columns(
                      w->f, "/switches", 3 + n, cols, 0,
                      "one row per mode switch of the run, in order: t (the switch time), kind "
                      "(index into kind_names), mode (the model's mode after it) and the state "
                      "just after it; the first 200000 only (count: all switches, dropped: those "
                      "not stored)",
                      &tw->switches));
  size_t len = 1;
  for (size_t i = 0; m->switch_kinds && m->switch_kinds[i]; i++)
    len += strlen(m->switch_kinds[i]) + 1;
  char *kinds = calloc(len, 1);
  for (size_t i = 0; kinds && m->switch_kinds && m->switch_kinds[i]; i++)
    strcat(strcat(kinds, m->switch_kinds[i]), m->switch_kinds[i + 1] ? "\n" : "");
  cs_w_string(w, "/switches", "kind_names", kinds ? kinds : "");
  free(kinds);
  cs_w_string(w, "/switches", "kind_note", "index into kind_names (one name per line)");
  cs_w_string(w, "/switches", "mode_note",
              "the model's mode after the switch (belt, pendulum: 0 slip, 1 stick)");
}

enum cs_status cs_trajectory_h5_create(struct cs_trajectory_h5 *tw, struct cs_h5 *f,
                                       const struct cs_config *cfg, const struct cs_record_grid *g,
                                       const char *const *sets, size_t n_set, int argc,
                                       char *const *argv)
{
  const struct cs_model *m = cfg->model;
  const char *tu = cs_run_time_unit(m);
  struct cs_writer *w = &tw->w;
  w->f = f, w->st = CS_OK, w->err[0] = '\0';
  tw->model = m, tw->rows = 0, tw->rows_flushed = 0, tw->table = tw->switches = NULL;
  tw->codes = NULL, tw->reals = NULL, tw->ints = NULL, tw->block_cap = 0;
  tw->max_switches = cs_model_switches(m, cfg->params) ? CS_TRAJECTORY_H5_MAX_SWITCHES : 0;
  const size_t ns = m->n_state, nd = m->derived_fn ? m->n_derived : 0, ncols = 1 + ns + nd;
  const size_t nc = tw->ncodes = cs_model_integer_outputs(m);
  const char **names = malloc(ncols * sizeof *names), **units = malloc(ncols * sizeof *units);
  if (!names || !units) {
    cs_w_check(w, CS_ERR_NOMEM);
    free(names), free(units);
    return w->st;
  }
  names[0] = "t", units[0] = tu;
  for (size_t i = 0; i < ns; i++)
    names[1 + i] = m->state[i].name, units[1 + i] = m->state[i].unit;
  for (size_t i = 0; i < nd; i++)
    names[1 + ns + i] = m->derived[i].name, units[1 + ns + i] = m->derived[i].unit;
  cs_w_check(w, cs_run_h5_write_header(f, "trajectory", cfg, sets, n_set, argc, argv));
  cs_w_int(w, "/", "layout_version", CS_TRAJECTORY_H5_LAYOUT);
  /* the real columns, and the integer outputs (the last ones) in their
   * companion: an integer stays an integer in the file */
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_table_create(f, "/trajectory", ncols - nc, 0, names, units, &tw->table));
  if (w->st == CS_OK && nc)
    cs_w_check(w, cs_codes_create(f, "/trajectory_codes", nc, names + ncols - nc,
                                  units + ncols - nc, 0, 1, ncols - nc, 0,
                                  "the model's integer outputs (e.g. the stick indicator: 1 "
                                  "stick, 0 slip) at the rows of /trajectory, same rows in the "
                                  "same order, one int32 column each; -1: no value",
                                  &tw->codes));
  free(names), free(units);
  cs_w_double(w, "/trajectory", "t0", 0.0, tu);
  cs_w_double(w, "/trajectory", "t_start", g->t_start, tu);
  cs_w_double(w, "/trajectory", "t_end", g->t_end, tu);
  cs_w_double(w, "/trajectory", "dt", g->dt, tu);
  cs_w_int(w, "/trajectory", "rows_planned", (long long)g->rows);
  cs_w_string(w, "/trajectory", "doc",
              nc ? "one row per grid time, from t_start every dt to t_end (the last row at t_end "
                   "exactly): t, the state variables, then the model's real derived outputs, "
                   "from the integrator's dense output (its integer outputs, e.g. the stick "
                   "indicator, are in /trajectory_codes); rows_planned rows when the run "
                   "completed, fewer when it failed"
                 : "one row per grid time, from t_start every dt to t_end (the last row at t_end "
                   "exactly): t, the state variables, then the model's derived outputs, from "
                   "the integrator's dense output; rows_planned rows when the run completed, "
                   "fewer when it failed");
  if (tw->max_switches)
    create_switch_table(tw);
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_flush(f));
  tw->last_flush = monotonic_s();
  return w->st;
}

int cs_trajectory_h5_on_rows(void *ctx, size_t first_row, size_t n, const double *rows)
{
  (void)first_row;
  struct cs_trajectory_h5 *tw = ctx;
  struct cs_writer *w = &tw->w;
  const size_t nc = tw->ncodes;
  if (w->st == CS_OK && nc && n > tw->block_cap) {
    double *nr = realloc(tw->reals, n * cs_h5_table_cols(tw->table) * sizeof *nr);
    if (nr)
      tw->reals = nr;
    int32_t *ni = nr ? realloc(tw->ints, n * nc * sizeof *ni) : NULL;
    if (ni)
      tw->ints = ni, tw->block_cap = n;
    else
      cs_w_check(w, CS_ERR_NOMEM);
  }
  if (w->st == CS_OK && nc)
    cs_w_check(w, cs_codes_split(rows, n, cs_h5_table_cols(tw->table) + nc, nc, 0, tw->reals,
                                 tw->ints, "/trajectory"));
  /* the reals first, then their codes (a reader of a killed run's file
   * takes the rows both have) */
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_table_append(tw->table, n, nc ? tw->reals : rows));
  if (w->st == CS_OK && nc)
    cs_w_check(w, cs_h5_dset_append(tw->codes, n, tw->ints));
  if (w->st == CS_OK)
    tw->rows += n;
  if (w->st == CS_OK && monotonic_s() - tw->last_flush >= tw->flush_every) {
    /* the switches held in memory go with the rows */
    cs_w_check(w, tw->switches ? cs_h5_table_flush(tw->switches) : cs_h5_flush(w->f));
    tw->last_flush = monotonic_s();
    if (w->st == CS_OK)
      tw->rows_flushed = tw->rows;
  }
  return w->st != CS_OK;
}

void cs_trajectory_h5_on_switch(void *ctx, const struct cs_flow_switch *sw)
{
  struct cs_trajectory_h5 *tw = ctx;
  if (!tw->switches || tw->w.st != CS_OK)
    return;
  size_t ns = tw->model->n_state < CS_FLOW_MAX_N ? tw->model->n_state : CS_FLOW_MAX_N;
  tw->row[0] = sw->t, tw->row[1] = sw->kind, tw->row[2] = sw->mode;
  memcpy(tw->row + 3, sw->y, ns * sizeof *tw->row);
  cs_w_check(&tw->w, cs_h5_table_append(tw->switches, 1, tw->row));
}

enum cs_status cs_trajectory_h5_finish(struct cs_trajectory_h5 *tw,
                                       const struct cs_record_result *r, double wall_time_s)
{
  struct cs_writer *w = &tw->w;
  const struct cs_integrator_stats *s = &r->stats.integ;
  struct cs_run_field fl[] = {
      {"steps", "1", (double)s->steps, 1, "integrator steps taken"},
      {"rhs_evals", "1", (double)s->rhs_evals, 1, "right-hand side evaluations"},
      {"jac_evals", "1", (double)s->jac_evals, 1, "Jacobian evaluations (implicit stepper)"},
      {"lin_setups", "1", (double)s->lin_setups, 1, "linear solver setups (implicit stepper)"},
      {"nonlin_iters", "1", (double)s->nonlin_iters, 1,
       "nonlinear solver iterations (implicit stepper)"},
      {"err_test_fails", "1", (double)s->err_test_fails, 1, "steps rejected by the error test"},
      {"conv_fails", "1", (double)s->conv_fails, 1, "nonlinear convergence failures"},
      {"switches", "1", (double)r->stats.switches, 1, "mode switches (event-driven laws)"},
      {"rows", "1", (double)tw->rows, 1, "rows written to /trajectory"},
      {"t_reached", cs_run_time_unit(tw->model), r->t, 0, "the time the run reached"},
      {"wall_time_s", "s", wall_time_s, 0, "wall-clock time of the run"},
  };
  cs_w_record(w, "/stats", sizeof fl / sizeof fl[0], fl);
  cs_w_string(w, "/stats", "doc",
              "one row of the run's statistics: the integrator's steps, right-hand side and "
              "Jacobian evaluations, linear setups, nonlinear iterations, error-test and "
              "convergence failures, mode switches and rows written (counts, int64, also "
              "integer attributes), t_reached (the time reached) and wall_time_s");
  if (tw->switches) {
    cs_w_int(w, "/switches", "count", r->stats.switches);
    cs_w_int(w, "/switches", "dropped", r->stats.switches - (long)r->switches_logged);
    if (cs_h5_table_close(tw->switches) != CS_OK)
      cs_w_check(w, CS_ERR_HDF5);
    tw->switches = NULL;
  }
  cs_w_string(w, "/", "status", r->status == CS_OK ? "ok" : "failed");
  cs_w_string(w, "/", "message", r->status == CS_OK ? "" : r->message);
  if (tw->table && cs_h5_table_close(tw->table) != CS_OK)
    cs_w_check(w, CS_ERR_HDF5);
  tw->table = NULL;
  if (tw->codes)
    cs_w_check(w, cs_h5_dset_close(tw->codes));
  tw->codes = NULL;
  free(tw->reals), free(tw->ints);
  tw->reals = NULL, tw->ints = NULL, tw->block_cap = 0;
  return w->st;
}

enum cs_status cs_trajectory_h5_rows_on_disk(const char *path, size_t *rows)
{
  struct cs_h5 *f = NULL;
  struct cs_h5_dset *d = NULL;
  *rows = 0;
  enum cs_status st = cs_h5_open(path, 0, &f);
  if (st == CS_OK)
    st = cs_h5_dset_open(f, "/trajectory", &d);
  if (st == CS_OK)
    *rows = cs_h5_dset_rows(d);
  cs_h5_dset_close(d);
  cs_h5_close(f);
  return st;
}

enum cs_status cs_trajectory_h5_trim(const char *path, size_t rows)
{
  struct cs_h5 *f = NULL;
  enum cs_status st = cs_h5_open(path, 1, &f);
  const char *names[] = {"/trajectory", "/trajectory_codes"};
  for (int i = 0; i < 2 && st == CS_OK; i++) {
    struct cs_h5_dset *d = NULL;
    enum cs_status so = cs_h5_dset_open(f, names[i], &d);
    if (so == CS_ERR_NOT_FOUND)
      continue;
    st = so;
    if (st == CS_OK && cs_h5_dset_rows(d) > rows)
      st = cs_h5_dset_resize(d, rows);
    if (d)
      cs_h5_dset_close(d);
  }
  if (f) {
    enum cs_status sc = cs_h5_close(f);
    if (st == CS_OK)
      st = sc;
  }
  return st;
}

enum cs_status cs_trajectory_h5_write(const char *path, const struct cs_trajectory *tr,
                                      const struct cs_config *cfg, const struct cs_record_grid *g,
                                      const char *const *sets, size_t n_set, int argc,
                                      char *const *argv, double wall_time_s)
{
  if (!path || !tr || !cfg || !g || (tr->rows && !tr->data))
    return cs_error_set(CS_ERR_ARG, "cs_trajectory_h5_write: missing argument");
  if (tr->cols != 1 + cfg->model->n_state + (cfg->model->derived_fn ? cfg->model->n_derived : 0))
    return cs_error_set(CS_ERR_ARG, "cs_trajectory_h5_write: %zu columns, the model '%s' has other",
                        tr->cols, cfg->model->name);
  int err = cs_make_parent_dirs(path);
  if (err != 0)
    return cs_error_set(CS_ERR_IO, "cannot create the directory of '%s': %s", path, strerror(err));
  struct cs_h5 *f = NULL;
  enum cs_status st = cs_h5_output_create(path, 1, &f);
  if (st != CS_OK)
    return cs_error_set(st, "cannot create '%s': %s", path, cs_errmsg());
  struct cs_trajectory_h5 tw = {.flush_every = 1e300};
  cs_trajectory_h5_create(&tw, f, cfg, g, sets, n_set, argc, argv);
  if (tr->rows)
    cs_trajectory_h5_on_rows(&tw, 0, tr->rows, tr->data);
  for (size_t i = 0; i < tr->n_switches; i++)
    cs_trajectory_h5_on_switch(&tw, &tr->switches[i]);
  struct cs_record_result r = tr->result;
  r.switches_logged = tw.switches ? tr->n_switches : r.switches_logged;
  cs_trajectory_h5_finish(&tw, &r, wall_time_s);
  if (tw.w.st == CS_OK)
    cs_w_check(&tw.w, cs_h5_output_commit(f));
  else
    cs_h5_close(f); /* the partial file stays, with what was written */
  if (tw.w.st != CS_OK)
    cs_error_set(tw.w.st, "cannot write '%s': %s", path, tw.w.err);
  return tw.w.st;
}
