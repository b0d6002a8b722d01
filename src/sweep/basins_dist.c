/* SPDX-License-Identifier: MIT */
/* Basins of attraction over MPI processes (contract in
 * basins_dist_private.h). The work units of analysis/basins.h go out through
 * the sweep's transport (struct cs_sweep_comm of sweep_dist.c): a thread of
 * any process asks rank 0 for a unit, computes it on a workspace of its own
 * and, on a process other than rank 0, sends it back whole; rank 0 passes
 * every finished unit, its own threads' and the others', one at a time to
 * the file's sink. Nothing here decides what a unit computes, so the order
 * in which units are handed out or come back changes nothing in the file. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/basins_h5_private.h"
#include "analysis/basins_private.h"
#include "core/error_private.h"
#include "sweep/basins_dist_private.h"
#include "sweep/sweep_dist_private.h"

/* ------------------------------------------------------------ messages */

enum { MSG_UNIT = 0x62617331, MSG_FAIL = 0x62617332 }; /* "bas1", "bas2" */

/* Every message starts with this; a unit follows (MSG_UNIT) or a text of
 * len bytes, the reason of a failure (MSG_FAIL). Fixed-width fields: the
 * processes run the same program, byte order and padding are theirs. */
struct wire_hdr {
  int32_t kind, status, rank, pad;
  uint64_t index, first, n, n_attr, n_state, len;
};

struct wire_attr {
  int32_t cls, period;
  double period_time, lyapunov, lyapunov_err;
  uint64_t n_points, cells;
};

static void put(char **p, const void *src, size_t bytes)
{
  if (bytes)
    memcpy(*p, src, bytes);
  *p += bytes;
}

static int get(const char **p, const char *end, void *dst, size_t bytes)
{
  if ((size_t)(end - *p) < bytes)
    return -1;
  if (bytes)
    memcpy(dst, *p, bytes);
  *p += bytes;
  return 0;
}

/* bytes per cell: local, settle, rhs_evals, early */
#define CELL_BYTES (sizeof(int32_t) + sizeof(double) + sizeof(int64_t) + sizeof(int32_t))

void *cs_basins_dist_pack(const struct cs_basins_unit *u, size_t n_state, size_t *len)
{
  size_t n = sizeof(struct wire_hdr) + u->n * CELL_BYTES;
  for (size_t a = 0; a < u->n_attr; a++)
    n += sizeof(struct wire_attr) + u->attr[a].n_points * n_state * sizeof(double);
  char *buf = malloc(n), *p = buf;
  if (!buf)
    return NULL;
  struct wire_hdr h = {.kind = MSG_UNIT,
                       .index = u->index,
                       .first = u->first,
                       .n = u->n,
                       .n_attr = u->n_attr,
                       .n_state = n_state};
  put(&p, &h, sizeof h);
  put(&p, u->local, u->n * sizeof *u->local);
  put(&p, u->settle, u->n * sizeof *u->settle);
  put(&p, u->rhs_evals, u->n * sizeof *u->rhs_evals);
  put(&p, u->early, u->n * sizeof *u->early);
  for (size_t a = 0; a < u->n_attr; a++) {
    const struct cs_basins_attractor *at = &u->attr[a];
    struct wire_attr w = {.cls = (int32_t)at->cls,
                          .period = at->period,
                          .period_time = at->period_time,
                          .lyapunov = at->lyapunov,
                          .lyapunov_err = at->lyapunov_err,
                          .n_points = at->n_points,
                          .cells = at->cells};
    put(&p, &w, sizeof w);
    put(&p, at->points, at->n_points * n_state * sizeof(double));
  }
  *len = n;
  return buf;
}

enum cs_status cs_basins_dist_unpack(const void *buf, size_t len, size_t n_state,
                                     const struct cs_basins_spec *spec, struct cs_basins_unit *u)
{
  memset(u, 0, sizeof *u);
  const char *p = buf, *end = p + len;
  struct wire_hdr h;
  size_t ncells = cs_basins_ncells(spec), nunits = (ncells + spec->chunk - 1) / spec->chunk;
  if (!buf || get(&p, end, &h, sizeof h) != 0 || h.kind != MSG_UNIT || h.n_state != n_state ||
      h.index >= nunits || h.first != h.index * spec->chunk || h.n == 0 || h.n > spec->chunk ||
      h.first + h.n > ncells || h.n_attr > h.n || (size_t)(end - p) < h.n * CELL_BYTES)
    return cs_error_set(CS_ERR_PARSE, "basins: a unit message that is not one of this run's");
  u->index = h.index, u->first = h.first, u->n = h.n;
  u->local = malloc(h.n * sizeof *u->local);
  u->settle = malloc(h.n * sizeof *u->settle);
  u->rhs_evals = malloc(h.n * sizeof *u->rhs_evals);
  u->early = malloc(h.n * sizeof *u->early);
  u->attr = calloc(h.n_attr + 1, sizeof *u->attr);
  if (!u->local || !u->settle || !u->rhs_evals || !u->early || !u->attr) {
    cs_basins_unit_free(u, 0);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  get(&p, end, u->local, h.n * sizeof *u->local);
  get(&p, end, u->settle, h.n * sizeof *u->settle);
  get(&p, end, u->rhs_evals, h.n * sizeof *u->rhs_evals);
  get(&p, end, u->early, h.n * sizeof *u->early);
  enum cs_status st = CS_OK;
  for (size_t i = 0; i < h.n && st == CS_OK; i++)
    if (u->local[i] < -1 || u->local[i] >= (int32_t)h.n_attr)
      st = CS_ERR_PARSE;
  for (size_t a = 0; a < h.n_attr && st == CS_OK; a++) {
    struct wire_attr w;
    if (get(&p, end, &w, sizeof w) != 0 || w.cls < 0 || w.cls >= CS_CLASS_COUNT ||
        w.n_points > CS_BASINS_MAX_POINTS ||
        (size_t)(end - p) < w.n_points * n_state * sizeof(double)) {
      st = CS_ERR_PARSE;
      break;
    }
    struct cs_basins_attractor *at = &u->attr[a];
    *at = (struct cs_basins_attractor){.cls = (enum cs_class)w.cls,
                                       .period = w.period,
                                       .period_time = w.period_time,
                                       .lyapunov = w.lyapunov,
                                       .lyapunov_err = w.lyapunov_err,
                                       .cells = w.cells};
    if (w.n_points) {
      at->points = malloc(w.n_points * n_state * sizeof *at->points);
      if (!at->points) {
        st = CS_ERR_NOMEM;
        break;
      }
      at->n_points = w.n_points;
      get(&p, end, at->points, w.n_points * n_state * sizeof *at->points);
    }
    u->n_attr++;
  }
  if (st == CS_OK && p != end)
    st = CS_ERR_PARSE;
  if (st != CS_OK) {
    cs_basins_unit_free(u, 0);
    return st == CS_ERR_NOMEM
               ? CS_FAIL(st)
               : cs_error_set(st, "basins: a unit message that is not one of this run's");
  }
  return CS_OK;
}

/* ------------------------------------------------------------ the run */

struct farm {
  const struct cs_config *cfg;
  const struct cs_basins_spec *spec;
  const struct cs_sweep_comm *comm; /* NULL on rank 0 */
  int rank, size;
  size_t n_units, next;
  const unsigned char *done; /* rank 0: units finished before (resume) */
  cs_basins_sink_fn sink;    /* rank 0: the file's */
  void *sink_ctx;
  const volatile sig_atomic_t *cancel;
  volatile int stop;    /* every unit in flight is abandoned once set */
  int quit;             /* the monitor ends */
  pthread_mutex_t lock; /* next, the sink, the first failure */
  enum cs_status first_err;
  char err[1024];
};

static void nap_ms(long ms)
{
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

static void set_stop(struct farm *f)
{
  __atomic_store_n(&f->stop, 1, __ATOMIC_RELEASE);
}

static void record_failure(struct farm *f, enum cs_status st, int rank, const char *why)
{
  pthread_mutex_lock(&f->lock);
  if (f->first_err == CS_OK) {
    f->first_err = st;
    if (rank == f->rank)
      snprintf(f->err, sizeof f->err, "%s", why);
    else
      snprintf(f->err, sizeof f->err, "process %d of %d: %s", rank, f->size, why);
  }
  pthread_mutex_unlock(&f->lock);
  set_stop(f);
}

/* Rank 0: the next unit not finished before; 1, or -1 when none is left or
 * the run stopped. */
static int take(struct farm *f, size_t *k)
{
  int rc = -1;
  pthread_mutex_lock(&f->lock);
  while (f->next < f->n_units && f->done && f->done[f->next])
    f->next++;
  if (!f->stop && f->next < f->n_units) {
    *k = f->next++;
    rc = 1;
  }
  pthread_mutex_unlock(&f->lock);
  return rc;
}

/* Rank 0: a finished unit to the sink (nothing once the run stopped: after
 * a stop the sink has said its last word). */
static void deliver(struct farm *f, const struct cs_basins_unit *u)
{
  pthread_mutex_lock(&f->lock);
  if (!f->stop && f->sink && f->sink(f->sink_ctx, u))
    set_stop(f);
  pthread_mutex_unlock(&f->lock);
}

static int server_next_unit(void *ctx, void *unit, size_t size)
{
  size_t k;
  if (size != sizeof(uint64_t))
    return -1;
  int rc = take(ctx, &k);
  if (rc == 1) {
    uint64_t v = k;
    memcpy(unit, &v, sizeof v);
  }
  return rc;
}

static void server_result(void *ctx, void *buf, size_t len)
{
  struct farm *f = ctx;
  struct wire_hdr h;
  if (!buf || len < sizeof h) {
    record_failure(f, CS_ERR_IO, f->rank, "basins: a short message from a process");
  } else {
    memcpy(&h, buf, sizeof h);
    if (h.kind == MSG_FAIL) {
      char why[900];
      size_t n = len - sizeof h < sizeof why - 1 ? len - sizeof h : sizeof why - 1;
      memcpy(why, (char *)buf + sizeof h, n);
      why[n] = '\0';
      record_failure(f, (enum cs_status)h.status, h.rank, why);
    } else {
      struct cs_basins_unit u;
      if (cs_basins_dist_unpack(buf, len, f->cfg->model->n_state, f->spec, &u) == CS_OK)
        deliver(f, &u);
      else
        record_failure(f, CS_ERR_IO, f->rank, cs_errmsg());
      cs_basins_unit_free(&u, 0);
    }
  }
  free(buf);
}

/* A process other than rank 0: its failure, for rank 0 to report. */
static void send_failure(struct farm *f, enum cs_status st)
{
  const char *why = cs_errmsg();
  size_t n = strlen(why);
  char *buf = malloc(sizeof(struct wire_hdr) + n + 1);
  if (buf) {
    struct wire_hdr h = {.kind = MSG_FAIL, .status = (int32_t)st, .rank = f->rank, .len = n};
    memcpy(buf, &h, sizeof h);
    memcpy(buf + sizeof h, why, n);
    f->comm->send(f->comm->ctx, buf, sizeof h + n);
  }
  free(buf);
  set_stop(f);
}

/* Every thread of this process: units until none is left or the run stops. */
static void compute(struct farm *f, int nthreads)
{
  const struct cs_config *cfg = f->cfg;
  const struct cs_model *m = cfg->model;
#pragma omp parallel num_threads(nthreads)
  for (;;) {
    if (__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE))
      break;
    size_t k = 0;
    int rc;
    if (f->comm) {
      uint64_t v = 0;
      rc = f->comm->request(f->comm->ctx, &v, sizeof v);
      k = (size_t)v;
    } else {
      rc = take(f, &k);
    }
    if (rc == 0) { /* not from this run's server, but the transport allows it */
      nap_ms(10);
      continue;
    }
    if (rc != 1)
      break;
    struct cs_basins_unit u;
    enum cs_status st = cs_basins_unit_run(m, cfg->params, cfg->y0, f->spec, k, &f->stop, &u);
    if (st == CS_OK && !f->stop) {
      if (!f->comm) {
        deliver(f, &u);
      } else {
        size_t len = 0;
        void *buf = cs_basins_dist_pack(&u, m->n_state, &len);
        if (!buf)
          send_failure(f, cs_error_set(CS_ERR_NOMEM, "out of memory sending a unit"));
        else if (f->comm->send(f->comm->ctx, buf, len) != 0)
          set_stop(f); /* rank 0 is gone or the link broke: nothing more to do */
        free(buf);
      }
    } else if (st != CS_OK && st != CS_ERR_INTERRUPTED) {
      if (f->comm)
        send_failure(f, st);
      else
        record_failure(f, st, f->rank, cs_errmsg());
    }
    cs_basins_unit_free(&u, 0);
  }
}

/* Passes a signal (cancel) and, on the other processes, rank 0's stop on to
 * the units in flight, which check the flag between steps. */
static void *monitor(void *arg)
{
  struct farm *f = arg;
  while (!__atomic_load_n(&f->quit, __ATOMIC_ACQUIRE)) {
    if ((f->cancel && *f->cancel) || (f->comm && f->comm->stopped(f->comm->ctx)))
      set_stop(f);
    nap_ms(20);
  }
  return NULL;
}

/* Runs the units over the processes; rank 0 serves the others meanwhile. */
static void run_farm(struct cs_dist *d, struct farm *f, int nthreads)
{
  pthread_t mon;
  int have_mon = pthread_create(&mon, NULL, monitor, f) == 0;
  if (d->rank == 0) {
    struct cs_sweep_server srv = {f, server_next_unit, server_result};
    if (d->comm.serve_begin(d->comm.ctx, &srv) != 0) {
      /* without the service the others would wait for units forever: say
       * so, and let serve_end tell them that none will come */
      record_failure(f, CS_ERR_IO, f->rank, "basins: cannot start serving the other processes");
    } else {
      compute(f, nthreads);
      /* the others' last units come in (and are written) until each says
       * it has finished; after a stop they are told to abandon theirs */
      d->comm.serve_end(d->comm.ctx, f->stop);
    }
  } else {
    compute(f, nthreads);
    f->comm->done(f->comm->ctx);
  }
  __atomic_store_n(&f->quit, 1, __ATOMIC_RELEASE);
  if (have_mon)
    pthread_join(mon, NULL);
}

enum cs_status cs_basins_file_run_dist(struct cs_dist *d, const struct cs_config *cfg,
                                       const struct cs_basins_spec *spec, const char *path,
                                       const struct cs_basins_file_opts *opts,
                                       struct cs_basins_file_result *out)
{
  if (!d || d->size < 2)
    return cs_basins_file_run(cfg, spec, path, opts, out);
  static const struct cs_basins_file_opts none;
  if (!opts)
    opts = &none;
  memset(out, 0, sizeof *out);
  int rank0 = d->rank == 0;
  /* the same spec everywhere, checked everywhere: no process starts a run
   * that another refuses */
  struct cs_dist_verdict v = {cs_basins_spec_check(cfg->model, spec), 0};
  v = cs_dist_i_all(d, v);
  if (v.st != CS_OK)
    return v.st;
  const struct cs_run_info *run = opts->run;
  struct cs_basins_file_sink s = {.opts = opts, .n_cells = cs_basins_ncells(spec)};
  if (rank0)
    v.st = cs_basins_h5_create(path, cfg, run ? run->sets : NULL, run ? run->n_set : 0, spec,
                               opts->resume, run ? run->argc : 0, run ? run->argv : NULL, &s.w);
  v = cs_dist_i_from_root(d, v);
  if (v.st != CS_OK)
    return v.st;
  out->opened = 1;
  struct farm f = {.cfg = cfg,
                   .spec = spec,
                   .comm = rank0 ? NULL : &d->comm,
                   .rank = d->rank,
                   .size = d->size,
                   .n_units = (s.n_cells + spec->chunk - 1) / spec->chunk,
                   .cancel = opts->cancel};
  pthread_mutex_init(&f.lock, NULL);
  if (rank0) {
    f.done = cs_basins_h5_done(s.w, &out->resumed_units);
    f.sink = cs_basins_file_sink;
    f.sink_ctx = &s;
    if (opts->progress &&
        opts->progress(opts->progress_ctx, cs_basins_h5_cells(s.w), s.n_cells) != 0)
      f.stop = 1; /* nothing is handed out: the others finish at once */
  }
  int nthreads = spec->threads > 0 ? spec->threads : omp_get_max_threads();
  double t0 = omp_get_wtime();
  run_farm(d, &f, nthreads);
  out->wall_time = omp_get_wtime() - t0;
  out->stopped = f.stop && f.first_err == CS_OK;
  pthread_mutex_destroy(&f.lock);
  enum cs_status st = CS_OK;
  if (f.first_err != CS_OK)
    st = cs_error_set(f.first_err, "basins: %s", f.err);
  if (!rank0)
    return st;
  out->run_failed = st != CS_OK;
  out->cells_on_disk = cs_basins_h5_cells(s.w);
  enum cs_status wst =
      cs_basins_h5_finish(s.w, st != CS_OK || out->stopped, out->wall_time, &out->basins);
  return st != CS_OK ? st : wst;
}
