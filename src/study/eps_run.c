/* SPDX-License-Identifier: MIT */
/* An eps study into its file (cs_eps_study_run, study/eps_h5.h): the checks,
 * the claim of the file, the study (analysis/eps.c or study/eps_sweep.c) and
 * the writer of study/eps_h5.c, so that a program gets `contensou
 * eps-study` in one call. Nothing here prints. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "study/eps_h5.h"
#include "analysis/eps_private.h"
#include "integrate/record_private.h"
#include "study/eps_h5_private.h"

/* Every run's params can be made (eps in range, the laws exist) before
 * anything is created. */
static enum cs_status check_runs(const struct cs_config *cfg, const struct cs_eps_study_opts *o)
{
  const struct cs_model *m = cfg->model;
  void *probe = malloc(m->params_size);
  if (!probe)
    return cs_error_set(CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM));
  enum cs_status st = CS_OK;
  for (size_t i = 0; i <= o->n_eps && st == CS_OK; i++) {
    int ev = i == 0 && o->reference_event_driven;
    double e = i == 0 ? o->reference_eps : o->eps[i - 1];
    st = cs_eps_make_params(m, cfg->params_unprepared, e, ev, probe);
    if (st == CS_ERR_NOT_FOUND) /* the model or the file lacks what a study needs */
      cs_error_set(st, "%s: %s", cfg->path, cs_errmsg());
    else if (st != CS_OK && st != CS_ERR_NOMEM && i == 0)
      cs_error_set(st, "reference: %s", cs_errmsg());
  }
  free(probe);
  return st;
}

struct progress_fwd {
  const struct cs_eps_study_opts *o;
  double total;
};

static void progress_time(void *ctx, double t)
{
  struct progress_fwd *p = ctx;
  p->o->progress(p->o->progress_ctx, t, p->total);
}

static void progress_count(void *ctx, size_t run, size_t n_runs)
{
  struct progress_fwd *p = ctx;
  p->o->progress(p->o->progress_ctx, (double)run, (double)n_runs);
}

/* Records the study, or gives up the file of a study that produced nothing. */
static enum cs_status end_file(struct cs_writer *w, enum cs_status study_st,
                               struct cs_eps_study_run_result *out)
{
  if (study_st != CS_OK) {
    /* nothing to record: the partial file goes (its status would be lost with it) */
    cs_eps_h5_discard(w);
    return cs_error_set(study_st, "%s", cs_strerror(study_st));
  }
  out->studied = 1;
  if (cs_eps_h5_finish(w) != CS_OK)
    return cs_error_set(w->st, "%s", w->err);
  return CS_OK;
}

static enum cs_status run_series(const struct cs_config *cfg, const char *path,
                                 const struct cs_eps_study_opts *o,
                                 struct cs_eps_study_run_result *out)
{
  struct cs_record_grid g;
  enum cs_status st = cs_record_grid_check(cfg->t_start, isfinite(cfg->t_end) ? cfg->t_end : NAN,
                                           cfg->dt, CS_EPS_MAX_ROWS, &g);
  if (st != CS_OK)
    return cs_error_set(st, "%s: %s", cfg->path, cs_errmsg());
  size_t n_t = 0;
  double *t = cs_eps_grid(cfg->t_start, cfg->t_end, cfg->dt, &n_t);
  if (!t)
    return cs_error_set(CS_ERR_NOMEM, "out of memory");
  struct cs_writer w = {.st = CS_OK};
  if ((st = cs_eps_h5_open(path, &w)) != CS_OK) {
    free(t);
    return st;
  }
  cs_eps_h5_create(&w, cfg, o->run, "time-series", o->eps, o->n_eps, o->reference_event_driven,
                   o->reference_eps);
  struct progress_fwd fwd = {o, cfg->t_end};
  struct cs_eps_spec spec = {
      .eps = o->eps,
      .n_eps = o->n_eps,
      .reference_event_driven = o->reference_event_driven,
      .reference_eps = o->reference_eps,
      .t = t,
      .n_t = n_t,
      .solver = cfg->solver,
      .threads = o->threads,
      .progress = o->progress ? progress_time : NULL,
      .progress_ctx = &fwd,
  };
  st = cs_eps_study(cfg->model, cfg->params_unprepared, cfg->y0, &spec, &out->series);
  if (st == CS_OK)
    cs_eps_h5_write_series(&w, cfg, &spec, &out->series);
  st = end_file(&w, st, out);
  free(t);
  return st;
}

static enum cs_status run_sweep(const struct cs_config *cfg, const char *path,
                                const struct cs_eps_study_opts *o,
                                struct cs_eps_study_run_result *out)
{
  const struct cs_model *m = cfg->model;
  struct cs_sweep_spec *sw = &out->sweep_spec;
  if (cfg->n_raw == 0)
    return cs_error_set(CS_ERR_ARG,
                        "%s: no [sweep] section (accepted: a file with [sweep] "
                        "parameter, from, to, ...)",
                        cfg->path);
  enum cs_status st = cs_sweep_spec_from_config(cfg, sw);
  if (st != CS_OK)
    return st;
  if (strcmp(m->param[sw->param].name, "eps") == 0 ||
      (sw->param2 >= 0 && strcmp(m->param[sw->param2].name, "eps") == 0))
    return cs_error_set(CS_ERR_ARG,
                        "%s: the sweep's parameter is eps itself (accepted: any other "
                        "parameter)",
                        cfg->path);
  if (o->threads > 0)
    sw->threads = o->threads;
  struct cs_writer w = {.st = CS_OK};
  if ((st = cs_eps_h5_open(path, &w)) != CS_OK)
    return st;
  cs_eps_h5_create(&w, cfg, o->run, "sweep", o->eps, o->n_eps, o->reference_event_driven,
                   o->reference_eps);
  struct progress_fwd fwd = {o, 0};
  struct cs_eps_sweep_spec spec = {
      .eps = o->eps,
      .n_eps = o->n_eps,
      .reference_event_driven = o->reference_event_driven,
      .reference_eps = o->reference_eps,
      .sweep = sw,
      .progress = o->progress ? progress_count : NULL,
      .progress_ctx = &fwd,
  };
  st = cs_eps_sweep_study(m, cfg->params_unprepared, cfg->y0, &spec, &out->sweep);
  if (st == CS_OK)
    cs_eps_h5_write_sweep(&w, cfg, sw, &out->sweep);
  return end_file(&w, st, out);
}

enum cs_status cs_eps_study_run(const struct cs_config *cfg, const char *path,
                                const struct cs_eps_study_opts *opts,
                                struct cs_eps_study_run_result *out)
{
  memset(out, 0, sizeof *out);
  if (!cfg || !path || !opts || !opts->eps || opts->n_eps == 0 ||
      (opts->kind != CS_EPS_STUDY_SERIES && opts->kind != CS_EPS_STUDY_SWEEP))
    return cs_error_set(CS_ERR_ARG, "cs_eps_study_run: no eps, file or configuration");
  enum cs_status st = check_runs(cfg, opts);
  if (st != CS_OK)
    return st;
  return opts->kind == CS_EPS_STUDY_SWEEP ? run_sweep(cfg, path, opts, out)
                                          : run_series(cfg, path, opts, out);
}

void cs_eps_study_run_free(struct cs_eps_study_run_result *r)
{
  if (!r)
    return;
  cs_eps_result_free(&r->series);
  cs_eps_sweep_result_free(&r->sweep);
  memset(r, 0, sizeof *r);
}
