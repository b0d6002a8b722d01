/* SPDX-License-Identifier: MIT */
/* One run of a model from its parameter file into a trajectory file, as it
 * goes (trajectory_h5.h): what `contensou simulate` does between reading its
 * arguments and printing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error_private.h"
#include "io/run_h5.h"
#include "io/trajectory_h5.h"
#include "integrate/record_private.h"
#include "io/run_h5_private.h"
#include "io/trajectory_h5_private.h"

/* Where the recorded rows and switches go: the file, and the caller's
 * progress callback. */
struct sim_sink {
  struct cs_trajectory_h5 tw;
  const struct cs_simulate_opts *opts;
};

static int sim_rows(void *ctx, size_t first_row, size_t n, const double *rows)
{
  return cs_trajectory_h5_on_rows(&((struct sim_sink *)ctx)->tw, first_row, n, rows);
}

static void sim_switch(void *ctx, const struct cs_flow_switch *sw)
{
  cs_trajectory_h5_on_switch(&((struct sim_sink *)ctx)->tw, sw);
}

static void sim_progress(void *ctx, double t)
{
  const struct cs_simulate_opts *o = ((struct sim_sink *)ctx)->opts;
  if (o->progress)
    o->progress(o->progress_ctx, t);
}

static double wall_clock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "up to t = T" for the first n rows of grid g, "none" for no row. */
static const char *kept_span(const struct cs_record_grid *g, size_t n, char *buf, size_t len)
{
  if (!n)
    return "none";
  snprintf(buf, len, "up to t = %.10g", cs_record_grid_time(g, n - 1));
  return buf;
}

enum cs_status cs_simulate_run(const struct cs_config *cfg, const char *path,
                               const struct cs_simulate_opts *opts, struct cs_simulate_result *out)
{
  static const struct cs_simulate_opts none = {0};
  if (!out)
    return cs_error_set(CS_ERR_ARG, "cs_simulate_run: no result");
  memset(out, 0, sizeof *out);
  if (!cfg || !cfg->model || !path)
    return cs_error_set(CS_ERR_ARG, "cs_simulate_run: no parameter file or output path");
  if (!opts)
    opts = &none;
  const struct cs_model *m = cfg->model;
  struct cs_record_grid *g = &out->grid;
  enum cs_status st = cs_record_grid_check(cfg->t_start, isfinite(cfg->t_end) ? cfg->t_end : NAN,
                                           cfg->dt, CS_RECORD_MAX_ROWS, g);
  if (st != CS_OK)
    return cs_error_set(st, "%s: %s", cfg->path, cs_errmsg());
  int err = cs_make_parent_dirs(path);
  if (err != 0)
    return cs_error_set(CS_ERR_IO, "cannot create the directory of '%s': %s", path, strerror(err));
  /* OUT.partial under a lock, renamed over OUT when complete: a failed or
   * killed run never leaves a truncated OUT (a leftover partial file of an
   * earlier run is replaced) */
  struct cs_h5 *f = NULL;
  if ((st = cs_h5_output_create(path, 1, &f)) != CS_OK)
    return cs_error_set(st, "cannot create '%s': %s", path, cs_errmsg());
  struct sim_sink sk = {.tw = {.flush_every = opts->flush_every}, .opts = opts};
  struct cs_writer *w = &sk.tw.w;
  cs_trajectory_h5_create(&sk.tw, f, cfg, g, opts->sets, opts->n_set, opts->argc, opts->argv);
  struct cs_record_result *r = &out->run;
  r->status = CS_OK;
  memcpy(r->y, cfg->y0, m->n_state * sizeof *r->y);
  double t_wall = wall_clock();
  if (w->st == CS_OK) {
    struct cs_record_spec rs = {.grid = *g,
                                .solver = &cfg->solver,
                                .max_switches = sk.tw.max_switches,
                                .on_rows = sim_rows,
                                .on_switch = sim_switch,
                                .progress = sim_progress,
                                .ctx = &sk};
    cs_record_run(m, cfg->params, cfg->y0, &rs, r);
  }
  out->rows = sk.tw.rows;
  out->wall_time = wall_clock() - t_wall;
  cs_trajectory_h5_finish(&sk.tw, r, out->wall_time);
  const char *pp = cs_h5_partial_path(f);
  char *partial = malloc(strlen(pp ? pp : path) + 1);
  if (partial)
    strcpy(partial, pp ? pp : path);
  int closed = 0;
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_output_commit(f));
  else /* closed with status = failed when the space held back allows it */
    closed = cs_h5_output_fail(f, w->err);
  w->f = NULL;
  if (w->st == CS_OK) {
    free(partial);
    return CS_OK;
  }
  /* what the file on disk holds, never a count kept in memory */
  size_t kept = 0;
  char span[64];
  st = w->st;
  if (!partial)
    cs_error_set(st, "cannot write '%s': %s", path, w->err);
  else if (closed && cs_trajectory_h5_trim(partial, out->rows) == CS_OK &&
           cs_trajectory_h5_rows_on_disk(partial, &kept) == CS_OK)
    cs_error_set(st, "cannot write '%s': %s; %zu rows (%s) are in %s, closed with status = failed",
                 path, w->err, kept, kept_span(g, kept, span, sizeof span), partial);
  else if (closed)
    cs_error_set(st, "cannot write '%s': %s; %s cannot be read back: %s", path, w->err, partial,
                 cs_errmsg());
  else
    cs_error_set(st,
                 "cannot write '%s': %s; the %zu rows (%s) flushed before the failure are in "
                 "%s, which stays marked as open for writing (no room to close it): contensou "
                 "info reads it, other readers after 'h5clear -s %s'",
                 path, w->err, sk.tw.rows_flushed,
                 kept_span(g, sk.tw.rows_flushed, span, sizeof span), partial, partial);
  free(partial);
  return st;
}
