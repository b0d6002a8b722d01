/* SPDX-License-Identifier: MIT */
/* A sweep into a file over the processes of a struct cs_dist: creating or
 * resuming it, running it, finishing it (contract in sweep_dist.h). Rank 0
 * alone touches the file; every step that can fail on one process ends in
 * an agreement, so that every process returns the same status and none
 * waits in a collective for one that gave up. */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include "core/error_private.h"
#include "io/run_h5_private.h"
#include "sweep/sweep_dist.h"
#include "sweep/sweep_dist_private.h"
#include "sweep/sweep_h5_private.h"
#include "sweep/sweep_trace_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cs_dist_verdict verdict;

static verdict ok(void)
{
  return (verdict){CS_OK, 0};
}

/* A status from reading the caller's input: every failure but memory is
 * the input's. */
static verdict input(enum cs_status st)
{
  return (verdict){st, st != CS_OK && st != CS_ERR_NOMEM};
}

static enum cs_status fail(struct cs_sweep_job *job, verdict v)
{
  job->input_error = v.input;
  return v.st;
}

/* After the parameters are loaded: the [sweep] section into job->spec. */
static verdict make_spec(struct cs_sweep_job *job, const struct cs_sweep_job_opts *opts)
{
  if (job->cfg.n_raw == 0)
    return input(cs_error_set(CS_ERR_PARSE,
                              "%s: no [sweep] section (accepted: a file with [sweep] parameter, "
                              "from, to, ...; 'contensou simulate' runs a file without one)",
                              job->cfg.path));
  verdict v = input(cs_sweep_spec_from_config(&job->cfg, &job->spec));
  if (v.st == CS_OK && opts->threads > 0)
    job->spec.threads = opts->threads;
  return v;
}

enum cs_status cs_sweep_job_create(struct cs_dist *d, const char *path,
                                   const struct cs_sweep_job_opts *opts, struct cs_sweep_job *job)
{
  memset(job, 0, sizeof *job);
  cs_trace("create_begin", -1, d->rank, 0, 0, 0);
  verdict v = ok();
  if (!opts || !opts->params_file)
    v = input(cs_error_set(CS_ERR_ARG, "cs_sweep_job_create: no parameter file"));
  else {
    v = input(cs_config_load(opts->params_file, opts->sets, opts->n_set, &job->cfg));
    job->has_cfg = v.st == CS_OK;
  }
  if (v.st == CS_OK)
    v = make_spec(job, opts);
  /* the output: as given, else the file's [output] file, else output/<name>_sweep.h5 */
  if (v.st == CS_OK) {
    const char *out = path ? path : job->cfg.output[0] ? job->cfg.output : NULL;
    size_t n = out ? strlen(out) + 1 : strlen(job->cfg.name) + sizeof "output/_sweep.h5";
    job->path = malloc(n);
    if (!job->path)
      v = (verdict){cs_error_set(CS_ERR_NOMEM, "out of memory"), 0};
    else if (out)
      memcpy(job->path, out, n);
    else
      snprintf(job->path, n, "output/%s_sweep.h5", job->cfg.name);
  }
  v = cs_dist_i_all(d, v);
  if (v.st != CS_OK)
    return fail(job, v);
  if (d->rank == 0) {
    if (opts->check)
      v = (verdict){opts->check(job->path, &job->cfg, &job->spec, opts->ctx), 0};
    if (v.st == CS_OK && cs_make_parent_dirs(job->path) != 0)
      v = (verdict){cs_error_set(CS_ERR_IO, "%s: cannot create its directory: %s", job->path,
                                 strerror(errno)),
                    0};
    if (v.st == CS_OK)
      v = (verdict){cs_sweep_h5_create_ctl(job->path, &job->cfg, opts->sets, opts->n_set,
                                           &job->spec, opts->argc, opts->argv, opts->cancel,
                                           &job->w),
                    0};
  }
  cs_trace("h5_created", -1, d->rank, 0, 0, 0);
  v = cs_dist_i_from_root(d, v);
  if (v.st != CS_OK)
    return fail(job, v);
  job->live = d->rank == 0;
  cs_trace("create_end", -1, d->rank, 0, 0, 0);
  return CS_OK;
}

/* The overrides stored one per line, as an array of lines of text (which
 * they point into). */
static const char **split_lines(char *text, size_t *n)
{
  size_t cap = 1;
  for (const char *p = text; p && *p; p++)
    cap += *p == '\n';
  const char **sets = calloc(cap, sizeof *sets);
  *n = 0;
  for (char *p = text; sets && p && *p;) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    if (*p)
      sets[(*n)++] = p;
    p = nl ? nl + 1 : NULL;
  }
  return sets;
}

/* Every process loads the parameter text and overrides stored in the file
 * (rank 0 read them; the others get copies). */
static verdict load_stored(struct cs_dist *d, const char *path, struct cs_sweep_job *job)
{
  char *text = d->rank == 0 ? job->info.params_text : NULL;
  char *file = d->rank == 0 ? job->info.params_file : NULL;
  char *sets_text = d->rank == 0 ? job->info.overrides : NULL;
  enum cs_status st = cs_dist_i_share_text(d, &text);
  enum cs_status st2 = cs_dist_i_share_text(d, &file);
  enum cs_status st3 = cs_dist_i_share_text(d, &sets_text);
  verdict v = (verdict){st != CS_OK ? st : st2 != CS_OK ? st2 : st3, 0};
  size_t ns = 0;
  char *sets_copy = v.st == CS_OK && sets_text ? strdup(sets_text) : NULL;
  const char **sets = split_lines(sets_copy, &ns);
  if (v.st == CS_OK && (!sets || (sets_text && !sets_copy)))
    v.st = cs_error_set(CS_ERR_NOMEM, "out of memory");
  if (v.st == CS_OK) {
    v = input(cs_config_load_text(file && *file ? file : path, text, sets, ns, &job->cfg));
    job->has_cfg = v.st == CS_OK;
  }
  free(sets), free(sets_copy);
  if (d->rank != 0)
    free(text), free(file), free(sets_text);
  return v;
}

enum cs_status cs_sweep_job_resume(struct cs_dist *d, const char *path,
                                   const struct cs_sweep_job_opts *opts, struct cs_sweep_job *job)
{
  static const struct cs_sweep_job_opts none;
  memset(job, 0, sizeof *job);
  job->resumed = 1;
  if (!opts)
    opts = &none;
  verdict v = ok();
  job->path = path ? strdup(path) : NULL;
  if (!job->path)
    v = path ? (verdict){cs_error_set(CS_ERR_NOMEM, "out of memory"), 0}
             : input(cs_error_set(CS_ERR_ARG, "cs_sweep_job_resume: no file"));
  if (v.st == CS_OK && d->rank == 0) {
    if (opts->check)
      v = (verdict){opts->check(path, NULL, NULL, opts->ctx), 0};
    if (v.st == CS_OK)
      v = (verdict){
          cs_sweep_h5_open_resume_verified(path, opts->verify, opts->ctx, &job->w, &job->info), 0};
    if (v.st == CS_OK && strcmp(job->info.status, "complete") == 0) {
      job->complete = 1;
      cs_sweep_h5_discard(job->w);
      job->w = NULL;
    } else if (v.st == CS_OK)
      v = input(
          cs_sweep_h5_check_resume(path, &job->info, opts->params_file, opts->sets, opts->n_set));
  }
  v = cs_dist_i_from_root(d, v);
  /* rank 0's finding that the file is complete, for everyone */
  job->complete = cs_dist_i_from_root(d, (verdict){CS_OK, job->complete}).input;
  if (v.st != CS_OK || job->complete)
    return fail(job, v);
  v = load_stored(d, path, job);
  if (v.st == CS_OK)
    v = make_spec(job, opts);
  v = cs_dist_i_all(d, v);
  if (v.st == CS_OK && d->rank == 0) {
    v = (verdict){
        cs_sweep_h5_resume(job->w, &job->cfg, &job->spec, opts->argc, opts->argv, &job->prior), 0};
    if (v.st != CS_OK) {
      cs_sweep_h5_discard(job->w);
      job->w = NULL;
    }
  }
  v = cs_dist_i_from_root(d, v);
  if (v.st != CS_OK)
    return fail(job, v);
  job->live = d->rank == 0;
  return CS_OK;
}

/* Rank 0's sink and tick: the file first, then the caller's. */
struct run_ctx {
  struct cs_sweep_job *job;
  cs_sweep_sink_fn sink;
  void *sink_ctx;
  void (*tick)(void *);
};

static int run_sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct run_ctx *r = ctx;
  int rc = cs_sweep_h5_sink(r->job->w, pt);
  if (rc == 0 && r->sink)
    rc = r->sink(r->sink_ctx, pt);
  return rc;
}

static void run_tick(void *ctx)
{
  struct run_ctx *r = ctx;
  cs_sweep_h5_tick(r->job->w);
  if (r->tick)
    r->tick(r->sink_ctx);
}

enum cs_status cs_sweep_job_run(struct cs_dist *d, struct cs_sweep_job *job, cs_sweep_sink_fn sink,
                                void *sink_ctx, const struct cs_sweep_ctl *ctl,
                                struct cs_sweep_outcome *out)
{
  int rank0 = d->rank == 0;
  if (!job->has_cfg || (rank0 && !job->w)) {
    memset(out, 0, sizeof *out);
    return cs_error_set(CS_ERR_ARG, "cs_sweep_job_run: the job was not created or resumed");
  }
  struct run_ctx r = {job, sink, sink_ctx, ctl ? ctl->tick : NULL};
  struct cs_sweep_ctl c = {.prior = job->resumed && rank0 ? &job->prior : NULL,
                           .cancel = ctl ? ctl->cancel : NULL,
                           .tick = rank0 ? run_tick : NULL,
                           .comm = d->size > 1 ? &d->comm : NULL};
  return cs_sweep_run_ctl(job->cfg.model, job->cfg.params_unprepared, job->cfg.y0, &job->spec,
                          rank0 ? run_sink : NULL, rank0 ? &r : NULL, &c, out);
}

enum cs_status cs_sweep_job_finish(struct cs_sweep_job *job, const struct cs_sweep_outcome *out)
{
  if (!job->w)
    return CS_OK;
  cs_trace("finish_begin", -1, 0, 0, 0, 0);
  enum cs_status st = cs_sweep_h5_finish(job->w, out);
  cs_trace("finish_end", -1, 0, 0, 0, 0);
  job->w = NULL;
  job->live = 0;
  return st;
}

void cs_sweep_job_free(struct cs_sweep_job *job)
{
  if (job->w) {
    /* not finished: the partial file stays resumable */
    if (job->live)
      cs_sweep_h5_finish(job->w, NULL);
    else
      cs_sweep_h5_discard(job->w);
  }
  if (job->has_cfg)
    cs_config_free(&job->cfg);
  cs_sweep_h5_prior_free(&job->prior);
  cs_sweep_h5_info_free(&job->info);
  free(job->path);
  memset(job, 0, sizeof *job);
}
