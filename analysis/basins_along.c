/* SPDX-License-Identifier: MIT */
/* Basins along a parameter or over a plane of two (analysis/basins.h,
 * analysis/basins_along_private.h): each value's basins computed in full
 * (cs_basins_run, all threads), its merged attractors kept (per-cell arrays
 * dropped), the attractors followed from value to value once all values are
 * known; in memory (cs_basins_along_run) or value by value into a file that
 * survives kills (cs_basins_along_file_run). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/basins.h"
#include "core/error_private.h"
#include "cs_version.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "models/model_private.h"
#include "analysis/basins_along_private.h"
#include "analysis/basins_h5_private.h"
#include "analysis/basins_private.h"
#include "io/run_h5_private.h"

/* the largest distance at which an attractor continues one of the value
 * before (units of the state scales) */
#define ALONG_MATCH 0.25
#define VAL_COLS 6 /* value, p1, p2, attractors, failed, rhs_evals */
#define ATT_COLS                                                                   \
  9 /* value, local, class, period, period_time, lyapunov, lyapunov_err, n_points, \
       cells */

/* ------------------------------------------------ one value, following */

/* What a value's basins leave once merged: the attractors and the counts
 * (a struct cs_basins_result without its per-cell arrays). */
static void drop_cells(struct cs_basins_result *r)
{
  free(r->attractor), free(r->settle), free(r->rhs_evals), free(r->early);
  r->attractor = NULL, r->settle = NULL, r->rhs_evals = NULL, r->early = NULL;
}

struct collect {
  struct cs_basins_unit **u;
  size_t n, n_state;
  enum cs_status st;
};

static int collect_sink(void *vp, const struct cs_basins_unit *u)
{
  struct collect *c = vp;
  struct cs_basins_unit **g = realloc(c->u, (c->n + 1) * sizeof *g);
  if (!g) {
    c->st = CS_ERR_NOMEM;
    return 1;
  }
  c->u = g;
  if (cs_basins_unit_clone(u, c->n_state, &c->u[c->n]) != CS_OK) {
    c->st = CS_ERR_NOMEM;
    return 1;
  }
  c->n++;
  return 0;
}

/* The basins at parameter values (p1, p2) (p2 NAN: one parameter) into res
 * (attractors and counts only). *stopped: cancelled, res empty. */
static enum cs_status one_value(const struct cs_model *m, const void *params_unprepared,
                                const double *y0, const struct cs_basins_spec *spec, int param,
                                double p1, int param2, double p2,
                                const volatile sig_atomic_t *cancel, struct cs_basins_result *res,
                                int *stopped)
{
  memset(res, 0, sizeof *res);
  *stopped = 0;
  void *p = malloc(m->params_size);
  if (!p)
    return CS_FAIL(CS_ERR_NOMEM);
  memcpy(p, params_unprepared, m->params_size);
  enum cs_status st = cs_model_set_param(m, p, m->param[param].name, p1);
  if (st == CS_OK && param2 >= 0)
    st = cs_model_set_param(m, p, m->param[param2].name, p2);
  if (st == CS_OK)
    st = m->prepare(p);
  struct collect c = {NULL, 0, m->n_state, CS_OK};
  if (st == CS_OK) {
    struct cs_basins_ctl ctl = {.cancel = cancel, .done = NULL};
    st = cs_basins_run(m, p, y0, spec, collect_sink, &c, &ctl, stopped);
  }
  if (st == CS_OK && c.st != CS_OK)
    st = CS_FAIL(c.st);
  if (st == CS_OK && !*stopped) {
    st = cs_basins_merge(m, spec, (const struct cs_basins_unit *const *)c.u, c.n, res);
    if (st == CS_OK)
      drop_cells(res);
  }
  for (size_t i = 0; i < c.n; i++)
    cs_basins_unit_free(c.u[i], 1);
  free(c.u), free(p);
  return st;
}

void cs_basins_along_free(struct cs_basins_along *a)
{
  if (!a)
    return;
  free(a->values), free(a->cls), free(a->period), free(a->born), free(a->died);
  free(a->fraction), free(a->fraction_err), free(a->period_time), free(a->n_attr);
  free(a->failed);
  memset(a, 0, sizeof *a);
}

/* Follows the attractors of the n values' results v (basins.h: same class
 * and period, nearest pairs first within ALONG_MATCH) into out. */
static enum cs_status follow(const struct cs_model *m, const struct cs_basins_spec *spec,
                             const struct cs_basins_result *v, const double *values, size_t n,
                             struct cs_basins_along *out)
{
  memset(out, 0, sizeof *out);
  out->n_values = n;
  out->values = malloc(n * sizeof *out->values);
  out->n_attr = calloc(n, sizeof *out->n_attr);
  out->failed = calloc(n, sizeof *out->failed);
  if (!out->values || !out->n_attr || !out->failed) {
    cs_basins_along_free(out);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  memcpy(out->values, values, n * sizeof *values);
  enum cs_status st = CS_OK;
  size_t *prev_id = NULL, cap = 0, *cells = NULL;
  double *ptime = NULL;
  const struct cs_basins_result *prev = NULL;
  for (size_t k = 0; k < n && st == CS_OK; k++) {
    const struct cs_basins_result *cur = &v[k];
    size_t np = prev ? prev->n_attr : 0;
    out->n_attr[k] = cur->n_attr;
    out->failed[k] = cur->failed;
    size_t *cur_id = malloc((cur->n_attr + 1) * sizeof *cur_id);
    int *used = calloc(np + 1, sizeof *used);
    if (!cur_id || !used) {
      free(cur_id), free(used);
      st = CS_FAIL(CS_ERR_NOMEM);
      break;
    }
    for (size_t a = 0; a < cur->n_attr; a++)
      cur_id[a] = SIZE_MAX;
    for (;;) {
      double best = ALONG_MATCH;
      size_t ba = SIZE_MAX, bb = SIZE_MAX;
      for (size_t a = 0; a < cur->n_attr; a++) {
        if (cur_id[a] != SIZE_MAX)
          continue;
        for (size_t b = 0; b < np; b++) {
          if (used[b] || prev->attr[b].cls != cur->attr[a].cls ||
              prev->attr[b].period != cur->attr[a].period)
            continue;
          double d = cs_basins_attr_distance(m, spec, &cur->attr[a], &prev->attr[b]);
          if (d <= best)
            best = d, ba = a, bb = b;
        }
      }
      if (ba == SIZE_MAX)
        break;
      cur_id[ba] = prev_id[bb];
      used[bb] = 1;
    }
    for (size_t b = 0; b < np; b++)
      if (!used[b])
        out->died[prev_id[b]] = k;
    for (size_t a = 0; a < cur->n_attr && st == CS_OK; a++) {
      if (cur_id[a] != SIZE_MAX)
        continue;
      size_t id = out->n_track++;
      if (id >= cap) {
        cap = cap ? 2 * cap : 8;
        enum cs_class *c1 = realloc(out->cls, cap * sizeof *c1);
        if (c1)
          out->cls = c1;
        int *p1 = realloc(out->period, cap * sizeof *p1);
        if (p1)
          out->period = p1;
        size_t *b1 = realloc(out->born, cap * sizeof *b1);
        if (b1)
          out->born = b1;
        size_t *d1 = realloc(out->died, cap * sizeof *d1);
        if (d1)
          out->died = d1;
        size_t *cc = realloc(cells, cap * n * sizeof *cc);
        if (cc)
          cells = cc;
        double *pt = realloc(ptime, cap * n * sizeof *pt);
        if (pt)
          ptime = pt;
        if (!c1 || !p1 || !b1 || !d1 || !cc || !pt) {
          st = CS_FAIL(CS_ERR_NOMEM);
          break;
        }
      }
      out->cls[id] = cur->attr[a].cls;
      out->period[id] = cur->attr[a].period;
      out->born[id] = k;
      out->died[id] = n;
      for (size_t j = 0; j < n; j++)
        cells[id * n + j] = 0, ptime[id * n + j] = NAN;
      cur_id[a] = id;
    }
    for (size_t a = 0; a < cur->n_attr && st == CS_OK; a++) {
      cells[cur_id[a] * n + k] = cur->attr[a].cells;
      ptime[cur_id[a] * n + k] = cur->attr[a].period_time;
    }
    free(used);
    free(prev_id);
    prev_id = cur_id;
    prev = cur;
  }
  if (st == CS_OK) {
    size_t t = out->n_track;
    out->fraction = malloc((t * n + 1) * sizeof *out->fraction);
    out->fraction_err = malloc((t * n + 1) * sizeof *out->fraction_err);
    out->period_time = malloc((t * n + 1) * sizeof *out->period_time);
    if (!out->fraction || !out->fraction_err || !out->period_time)
      st = CS_FAIL(CS_ERR_NOMEM);
    double ncells = (double)cs_basins_ncells(spec);
    for (size_t k = 0; k < n && st == CS_OK; k++)
      for (size_t id = 0; id < t; id++) {
        double f = (double)cells[id * n + k] / ncells;
        out->fraction[k * t + id] = f;
        out->fraction_err[k * t + id] = sqrt(f * (1 - f) / ncells);
        out->period_time[k * t + id] = ptime[id * n + k];
      }
  }
  free(cells), free(ptime), free(prev_id);
  if (st != CS_OK)
    cs_basins_along_free(out);
  return st;
}

static void free_values(struct cs_basins_result *v, size_t n)
{
  for (size_t k = 0; v && k < n; k++)
    cs_basins_result_free(&v[k]);
  free(v);
}

enum cs_status cs_basins_along_run(const struct cs_model *m, const void *params_unprepared,
                                   const double *y0, const struct cs_basins_spec *spec, int param,
                                   const double *values, size_t n,
                                   const volatile sig_atomic_t *cancel, struct cs_basins_along *out)
{
  memset(out, 0, sizeof *out);
  if (param < 0 || (size_t)param >= m->n_param || n == 0)
    return cs_error_set(CS_ERR_ARG, "basins along a parameter: no parameter or no values");
  struct cs_basins_result *v = calloc(n, sizeof *v);
  if (!v)
    return CS_FAIL(CS_ERR_NOMEM);
  enum cs_status st = CS_OK;
  for (size_t k = 0; k < n && st == CS_OK; k++) {
    int stopped = 0;
    st = one_value(m, params_unprepared, y0, spec, param, values[k], -1, NAN, cancel, &v[k],
                   &stopped);
    if (st == CS_OK && stopped)
      st = cs_error_set(CS_ERR_INTERRUPTED, "basins along a parameter: interrupted");
  }
  if (st == CS_OK)
    st = follow(m, spec, v, values, n, out);
  free_values(v, n);
  return st;
}

/* ------------------------------------------------------------ the file */

struct writer {
  char *path, *partial, *tmp;
  struct cs_h5_lock *lock;
  struct cs_h5 *f;
  struct cs_h5_table *vals, *att, *pts;
  const struct cs_config *cfg;
  const struct cs_model *m;
  const struct cs_basins_spec *spec;
  const struct cs_basins_grid *g;
  size_t n;                   /* values (a plane's cells) */
  struct cs_basins_result *v; /* per value: its attractors once done */
  unsigned char *done;
  size_t n_done, prior;
};

static char *join(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  char *s = malloc(la + lb + 1);
  if (s)
    memcpy(s, a, la), memcpy(s + la, b, lb + 1);
  return s;
}

static void writer_free(struct writer *w)
{
  cs_h5_table_close(w->vals), cs_h5_table_close(w->att), cs_h5_table_close(w->pts);
  w->vals = w->att = w->pts = NULL;
  if (w->f)
    cs_h5_close(w->f);
  w->f = NULL;
  free_values(w->v, w->n);
  w->v = NULL;
  free(w->done);
  cs_h5_lock_release(w->lock);
  free(w->path), free(w->partial), free(w->tmp);
}

static void value_params(const struct cs_basins_grid *g, size_t k, double *p1, double *p2)
{
  *p1 = g->v1[k % g->n1];
  *p2 = g->param2 >= 0 ? g->v2[k / g->n1] : NAN;
}

/* Writes value k's attractors, then its row of /partial/values (what marks
 * it finished), and flushes. */
static enum cs_status write_value(struct writer *w, size_t k)
{
  const struct cs_basins_result *r = &w->v[k];
  size_t n = w->m->n_state;
  enum cs_status st = CS_OK;
  for (size_t a = 0; a < r->n_attr && st == CS_OK; a++) {
    const struct cs_basins_attractor *at = &r->attr[a];
    for (size_t q = 0; q < at->n_points && st == CS_OK; q++) {
      double row[2 + 16];
      row[0] = (double)k, row[1] = (double)a;
      memcpy(row + 2, at->points + q * n, n * sizeof *row);
      st = cs_h5_table_append(w->pts, 1, row);
    }
    double c[ATT_COLS] = {(double)k,        (double)a,    (double)at->cls,  (double)at->period,
                          at->period_time,  at->lyapunov, at->lyapunov_err, (double)at->n_points,
                          (double)at->cells};
    if (st == CS_OK)
      st = cs_h5_table_append(w->att, 1, c);
  }
  double p1, p2;
  value_params(w->g, k, &p1, &p2);
  double row[VAL_COLS] = {(double)k,           p1, p2, (double)r->n_attr, (double)r->failed,
                          (double)r->rhs_total};
  if (st == CS_OK)
    st = cs_h5_table_append(w->vals, 1, row);
  if (st == CS_OK)
    st = cs_h5_flush(w->f);
  return st;
}

/* Reads the finished values of the partial file at path into w->v. */
static enum cs_status read_prior(struct writer *w, const char *path, const char *const *sets,
                                 size_t n_set)
{
  struct cs_h5 *f;
  enum cs_status st = cs_h5_open(path, 0, &f);
  if (st != CS_OK)
    return cs_error_set(st, "%s: %s", path, cs_errmsg());
  st = cs_basins_h5_check_resume(f, path, "basins-along", "not a run of basins along a parameter",
                                 CS_ERR_MISMATCH, CS_BASINS_ALONG_H5_LAYOUT, w->cfg, sets, n_set);
  struct cs_h5_data vals = {0}, att = {0}, pts = {0};
  if (st == CS_OK)
    st = cs_h5_read(f, "/partial/values", &vals);
  if (st == CS_OK)
    st = cs_h5_read(f, "/partial/attractors", &att);
  if (st == CS_OK)
    st = cs_h5_read(f, "/partial/points", &pts);
  cs_h5_close(f);
  size_t n = w->m->n_state;
  if (st == CS_OK && (vals.ncols != VAL_COLS || att.ncols != ATT_COLS || pts.ncols != 2 + n))
    st = cs_error_set(CS_ERR_MISMATCH, "%s: tables of another shape", path);
  for (size_t r = 0; r < vals.nrows && st == CS_OK; r++) {
    const double *vr = vals.data + r * VAL_COLS;
    double p1, p2;
    if (!(vr[0] >= 0 && vr[0] < (double)w->n) || w->done[(size_t)vr[0]])
      continue;
    size_t k = (size_t)vr[0];
    value_params(w->g, k, &p1, &p2);
    if (vr[1] != p1 || !(vr[2] == p2 || (isnan(vr[2]) && isnan(p2))))
      st = cs_error_set(CS_ERR_MISMATCH, "%s: value %zu at other parameter values", path, k);
    struct cs_basins_result *res = &w->v[k];
    size_t na = (size_t)vr[3];
    res->n_cells = cs_basins_ncells(w->spec);
    res->failed = (size_t)vr[4];
    res->rhs_total = (long)vr[5];
    res->attr = calloc(na + 1, sizeof *res->attr);
    if (st == CS_OK && !res->attr)
      st = CS_FAIL(CS_ERR_NOMEM);
    for (size_t q = 0; q < att.nrows && st == CS_OK; q++) {
      const double *c = att.data + q * ATT_COLS;
      if (c[0] != vr[0])
        continue;
      if (res->n_attr >= na || c[1] != (double)res->n_attr) {
        st = cs_error_set(CS_ERR_PARSE, "%s: attractors of value %zu out of order", path, k);
        break;
      }
      struct cs_basins_attractor *a = &res->attr[res->n_attr++];
      a->cls = (enum cs_class)c[2], a->period = (int)c[3], a->period_time = c[4];
      a->lyapunov = c[5], a->lyapunov_err = c[6], a->n_points = (size_t)c[7];
      a->cells = (size_t)c[8];
      a->points = a->n_points ? malloc(a->n_points * n * sizeof *a->points) : NULL;
      if (a->n_points && !a->points) {
        st = CS_FAIL(CS_ERR_NOMEM);
        break;
      }
      size_t got = 0;
      for (size_t row = 0; row < pts.nrows && got < a->n_points; row++) {
        const double *p = pts.data + row * (2 + n);
        if (p[0] == c[0] && p[1] == c[1])
          memcpy(a->points + n * got++, p + 2, n * sizeof *p);
      }
      if (got != a->n_points)
        st = cs_error_set(CS_ERR_PARSE, "%s: points of value %zu missing", path, k);
    }
    if (st == CS_OK && res->n_attr != na)
      st = cs_error_set(CS_ERR_PARSE, "%s: attractors of value %zu missing", path, k);
    if (st == CS_OK)
      w->done[k] = 1, w->n_done++;
  }
  w->prior = w->n_done;
  cs_h5_data_free(&vals), cs_h5_data_free(&att), cs_h5_data_free(&pts);
  return st;
}

static void write_parameter_attrs(struct writer *w, struct cs_writer *cw)
{
  const struct cs_model *m = w->m;
  cs_w_string(cw, "/", "parameter", m->param[w->g->param].name);
  cs_w_string(cw, "/", "parameter_unit", m->param[w->g->param].unit);
  if (w->g->param2 >= 0) {
    cs_w_string(cw, "/", "parameter2", m->param[w->g->param2].name);
    cs_w_string(cw, "/", "parameter2_unit", m->param[w->g->param2].unit);
  }
  cs_w_int(cw, "/", "dimensions", w->g->param2 >= 0 ? 2 : 1);
  cs_w_int(cw, "/", "cells_per_value", (long long)cs_basins_ncells(w->spec));
}

/* Claims path, reads a resumed run's values, creates the partial file. */
static enum cs_status create(struct writer *w, const struct cs_run_info *run, int resume)
{
  const char *const *sets = run ? run->sets : NULL;
  size_t n_set = run ? run->n_set : 0;
  enum cs_status st = cs_h5_lock_acquire(w->path, &w->lock);
  if (st != CS_OK)
    return st;
  int have_partial = access(w->partial, F_OK) == 0;
  if (!resume && have_partial)
    return cs_error_set(CS_ERR_EXISTS,
                        "%s holds an unfinished run of basins along a parameter of %s (killed or "
                        "interrupted): continue it with --resume, or remove %s to start again",
                        w->partial, w->path, w->partial);
  if (resume && !have_partial)
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: no unfinished run to resume (no %s)", w->path,
                        w->partial);
  if (resume && (st = read_prior(w, w->partial, sets, n_set)) != CS_OK)
    return st;
  unlink(w->tmp); /* left by a killed run; we hold the lock */
  struct cs_writer cw = {0};
  cw.st = cs_h5_create_excl(w->tmp, &w->f);
  if (cw.st != CS_OK)
    snprintf(cw.err, sizeof cw.err, "%s", cs_errmsg());
  cw.f = w->f;
  const struct cs_model *m = w->m;
  const char *tu = cs_run_time_unit(m);
  if (cw.st == CS_OK) {
    cs_w_check(&cw, cs_run_h5_write_header(w->f, "basins-along", w->cfg, sets, n_set,
                                           run ? run->argc : 0, run ? run->argv : NULL));
    cs_w_int(&cw, "/", "layout_version", CS_BASINS_ALONG_H5_LAYOUT);
    cs_w_int(&cw, "/", "results_version", CS_RESULTS_VERSION);
    cs_w_string(&cw, "/", "resumed", resume ? "yes" : "");
    write_parameter_attrs(w, &cw);
    static const char *const vn[VAL_COLS] = {"value",      "p1",     "p2",
                                             "attractors", "failed", "rhs_evals"};
    const char *vu[VAL_COLS] = {"1",
                                m->param[w->g->param].unit,
                                w->g->param2 >= 0 ? m->param[w->g->param2].unit : "1",
                                "1",
                                "1",
                                "1"};
    cs_w_check(&cw, cs_h5_table_create(w->f, "/partial/values", VAL_COLS, 64, vn, vu, &w->vals));
    cs_w_string(&cw, "/partial/values", "doc",
                "finished parameter values (integers stored as doubles): index, the "
                "parameters (p2 NaN along one), attractors found, failed initial states, "
                "rhs evaluations; a value is written after its attractors, and one not "
                "listed here is computed again by a resume");
    static const char *const an[ATT_COLS] = {"value",        "local",       "class",
                                             "period",       "period_time", "lyapunov",
                                             "lyapunov_err", "n_points",    "cells"};
    const char *au[ATT_COLS] = {
        "1", "1", "1", "1", tu, tu[0] == 's' ? "1/s" : "1", tu[0] == 's' ? "1/s" : "1", "1", "1"};
    cs_w_check(&cw, cs_h5_table_create(w->f, "/partial/attractors", ATT_COLS, 64, an, au, &w->att));
    cs_w_string(&cw, "/partial/attractors", "doc",
                "the attractors of each finished value, in their canonical order (integers "
                "stored as doubles)");
    const char *pn[2 + 16], *pu[2 + 16];
    pn[0] = "value", pn[1] = "local", pu[0] = pu[1] = "1";
    for (size_t i = 0; i < m->n_state; i++)
      pn[2 + i] = m->state[i].name, pu[2 + i] = m->state[i].unit;
    cs_w_check(&cw,
               cs_h5_table_create(w->f, "/partial/points", 2 + m->n_state, 256, pn, pu, &w->pts));
    cs_w_string(&cw, "/partial/points", "doc",
                "the points of those attractors (value, local index, state)");
    cs_w_string(&cw, "/partial", "doc", "the finished parameter values of an unfinished run");
  }
  if (cw.st == CS_OK)
    cs_w_check(&cw, cs_h5_start_swmr(w->f));
  for (size_t k = 0; k < w->n && cw.st == CS_OK; k++)
    if (w->done[k])
      cs_w_check(&cw, write_value(w, k));
  if (cw.st == CS_OK && rename(w->tmp, w->partial) != 0) {
    cw.st = CS_ERR_IO;
    snprintf(cw.err, sizeof cw.err, "cannot rename %s to %s: %s", w->tmp, w->partial,
             strerror(errno));
  }
  if (cw.st != CS_OK) {
    st = cs_error_set(cw.st, "%s: cannot write: %s", w->tmp, cw.err);
    cs_h5_table_close(w->vals), cs_h5_table_close(w->att), cs_h5_table_close(w->pts);
    w->vals = w->att = w->pts = NULL;
    if (w->f)
      cs_h5_close(w->f);
    w->f = NULL;
    unlink(w->tmp);
    return st;
  }
  return CS_OK;
}

/* The tables of a followed parameter. */
static void write_along(struct writer *w, struct cs_writer *cw, const struct cs_basins_along *a)
{
  const struct cs_model *m = w->m;
  const struct cs_param_desc *pd = &m->param[w->g->param];
  const char *tu = cs_run_time_unit(m);
  size_t n = a->n_values, t = a->n_track;
  cs_w_check(cw, cs_h5_write_vector(cw->f, "/along/values", n, a->values, pd->unit));
  cs_w_string(cw, "/along/values", "doc", "the parameter values, rows of the tables below");
  char(*names)[32] = calloc(t + 1, sizeof *names);
  const char **np = calloc(t + 1, sizeof *np), **up = calloc(t + 1, sizeof *up),
             **tp = calloc(t + 1, sizeof *tp);
  double *rows = calloc(5 * (t + 1), sizeof *rows), *cnt = calloc(2 * n, sizeof *cnt);
  if (!names || !np || !up || !tp || !rows || !cnt)
    cs_w_check(cw, CS_FAIL(CS_ERR_NOMEM));
  for (size_t i = 0; cw->st == CS_OK && i < t; i++) {
    snprintf(names[i], sizeof names[i], "a%zu", i);
    np[i] = names[i], up[i] = "1", tp[i] = tu;
  }
  cs_w_table(cw, "/along/fraction", n, t, a->fraction, np, up);
  cs_w_string(cw, "/along/fraction", "doc",
              "per value (row) and followed attractor (column a<id>): the fraction of initial "
              "states in its basin, 0 where it does not exist");
  cs_w_table(cw, "/along/fraction_err", n, t, a->fraction_err, np, up);
  cs_w_string(cw, "/along/fraction_err", "doc",
              "standard error of each fraction as a sample estimate, sqrt(f (1 - f) / cells)");
  cs_w_table(cw, "/along/period_time", n, t, a->period_time, np, tp);
  cs_w_string(cw, "/along/period_time", "doc",
              "period in time of each periodic attractor at each value, NaN elsewhere");
  for (size_t i = 0; cw->st == CS_OK && i < t; i++) {
    double *r = rows + 5 * i;
    r[0] = (double)i, r[1] = a->cls[i], r[2] = a->period[i], r[3] = (double)a->born[i];
    r[4] = a->died[i] < n ? (double)a->died[i] : -1;
  }
  struct cs_h5_column cols[] = {
      CS_H5_COLUMN("id", CS_H5_INT32, "1", "followed attractor id: the column a<id>"),
      CS_H5_COLUMN("class", CS_H5_INT32, "1",
                   "attractor class (analysis/point.h: 1 equilibrium, 2 periodic, 3 "
                   "quasiperiodic, 4 chaotic, 5 aperiodic, 6 no-crossings, 7 escaped)"),
      CS_H5_COLUMN("period", CS_H5_INT32, "1", "section points per cycle (periodic), else 0"),
      CS_H5_COLUMN("born", CS_H5_INT64, "1", "row of /along/values where it first appears"),
      CS_H5_COLUMN("died", CS_H5_INT64, "1",
                   "row where it is no longer found, -1: alive at the last value"),
  };
  cs_w_columns(cw, "/along/attractors", 5, cols, t, rows,
               "the attractors followed from value to value (same class and period, nearest)");
  for (size_t k = 0; cw->st == CS_OK && k < n; k++)
    cnt[2 * k] = (double)a->n_attr[k], cnt[2 * k + 1] = (double)a->failed[k];
  struct cs_h5_column ccols[] = {
      CS_H5_COLUMN("attractors", CS_H5_INT64, "1",
                   "attractors found at the value: >= 2 is multistability"),
      CS_H5_COLUMN("failed", CS_H5_INT64, "1",
                   "initial states whose integration failed (in no basin)"),
  };
  cs_w_columns(cw, "/along/multistability", 2, ccols, n, cnt, "per value (rows of values)");
  cs_w_string(cw, "/along", "doc", "basins of attraction along the parameter");
  free(names), free(np), free(up), free(tp), free(rows), free(cnt);
}

static void write_int_map(struct cs_writer *cw, const char *path, size_t rows, size_t cols,
                          const int32_t *data, const char *doc)
{
  if (cw->st != CS_OK)
    return;
  struct cs_h5_dset *d = NULL;
  struct cs_h5_dset_spec ds = {
      .type = CS_H5_INT32, .rows = rows, .cols = cols, .fill = -1, .doc = doc};
  cs_w_check(cw, cs_h5_dset_create(cw->f, path, &ds, &d));
  if (d) {
    cs_w_check(cw, cs_h5_dset_write(d, 0, rows, data));
    cs_w_check(cw, cs_h5_dset_close(d));
  }
  cs_w_string(cw, path, "units", "1");
}

/* The tables of a plane. */
static void write_plane(struct writer *w, struct cs_writer *cw)
{
  const struct cs_model *m = w->m;
  const struct cs_basins_grid *g = w->g;
  const char *tu = cs_run_time_unit(m);
  size_t n1 = g->n1, n2 = g->n2, n = w->n, rows = 0;
  for (size_t k = 0; k < n; k++)
    rows += w->v[k].n_attr;
  double *v1 = malloc(n1 * sizeof *v1), *v2 = malloc(n2 * sizeof *v2);
  int32_t *count = malloc(n * sizeof *count), *failed = malloc(n * sizeof *failed);
  double *tab = malloc((rows + 1) * 11 * sizeof *tab);
  if (!v1 || !v2 || !count || !failed || !tab)
    cs_w_check(cw, CS_FAIL(CS_ERR_NOMEM));
  double ncells = (double)cs_basins_ncells(w->spec);
  size_t r = 0;
  for (size_t k = 0; k < n && cw->st == CS_OK; k++) {
    double p1, p2;
    value_params(g, k, &p1, &p2);
    if (k < n1)
      v1[k] = p1;
    if (k % n1 == 0)
      v2[k / n1] = p2;
    count[k] = (int32_t)w->v[k].n_attr;
    failed[k] = (int32_t)w->v[k].failed;
    for (size_t a = 0; a < w->v[k].n_attr; a++, r++) {
      const struct cs_basins_attractor *at = &w->v[k].attr[a];
      double f = (double)at->cells / ncells;
      double row[11] = {(double)k,
                        (double)(k % n1),
                        (double)(k / n1),
                        (double)a,
                        (double)at->cls,
                        (double)at->period,
                        at->period_time,
                        at->lyapunov,
                        (double)at->cells,
                        f,
                        sqrt(f * (1 - f) / ncells)};
      memcpy(tab + 11 * r, row, sizeof row);
    }
  }
  if (cw->st == CS_OK) {
    cs_w_check(cw, cs_h5_write_vector(cw->f, "/plane/values1", n1, v1, m->param[g->param].unit));
    cs_w_string(cw, "/plane/values1", "doc",
                "values of the first parameter (attribute parameter): columns i of the maps");
    cs_w_check(cw, cs_h5_write_vector(cw->f, "/plane/values2", n2, v2, m->param[g->param2].unit));
    cs_w_string(cw, "/plane/values2", "doc",
                "values of the second parameter (attribute parameter2): rows j of the maps");
  }
  write_int_map(cw, "/plane/count", n2, n1, count,
                "the multistability map: attractors found at (values1[i], values2[j]) in row "
                "j, column i (>= 2: coexisting attractors)");
  write_int_map(cw, "/plane/failed", n2, n1, failed,
                "initial states whose integration failed (in no basin), per parameter cell, "
                "rows and columns as /plane/count");
  struct cs_h5_column cols[] = {
      CS_H5_COLUMN("cell", CS_H5_INT64, "1", "parameter cell: i + points j"),
      CS_H5_COLUMN("i", CS_H5_INT64, "1", "column: values1[i]"),
      CS_H5_COLUMN("j", CS_H5_INT64, "1", "row: values2[j]"),
      CS_H5_COLUMN("id", CS_H5_INT32, "1",
                   "the attractor's number within its cell (canonical order: class, period, "
                   "smallest point)"),
      CS_H5_COLUMN("class", CS_H5_INT32, "1",
                   "attractor class (analysis/point.h: 1 equilibrium, 2 periodic, 3 "
                   "quasiperiodic, 4 chaotic, 5 aperiodic, 6 no-crossings, 7 escaped)"),
      CS_H5_COLUMN("period", CS_H5_INT32, "1", "section points per cycle (periodic), else 0"),
      CS_H5_COLUMN("period_time", CS_H5_DOUBLE, tu, "period in time (periodic), else NaN"),
      CS_H5_COLUMN("lyapunov", CS_H5_DOUBLE, tu[0] == 's' ? "1/s" : "1",
                   "largest Lyapunov exponent, NaN if not computed"),
      CS_H5_COLUMN("cells", CS_H5_INT64, "1", "initial states in its basin"),
      CS_H5_COLUMN("fraction", CS_H5_DOUBLE, "1", "its basin's fraction of the initial states"),
      CS_H5_COLUMN("fraction_err", CS_H5_DOUBLE, "1",
                   "standard error of the fraction as a sample estimate, sqrt(f (1 - f) / N)"),
  };
  cs_w_columns(cw, "/plane/attractors", 11, cols, rows, tab,
               "one row per attractor found in each parameter cell, cells in order");
  cs_w_string(cw, "/plane", "doc",
              "basins of attraction over a plane of two parameters: the number of coexisting "
              "attractors per cell and their basins' fractions");
  free(v1), free(v2), free(count), free(failed), free(tab);
}

/* The final file at w->tmp, renamed over w->path. */
static enum cs_status write_final(struct writer *w, const struct cs_basins_along *a,
                                  double wall_time)
{
  unlink(w->tmp);
  struct cs_writer cw = {0};
  cw.st = cs_h5_create_excl(w->tmp, &cw.f);
  if (cw.st != CS_OK)
    return cw.st;
  cs_w_check(&cw, cs_run_h5_write_header(cw.f, "basins-along", w->cfg, NULL, 0, 0, NULL));
  /* the partial file's header (provenance, overrides, resumed) carried over */
  cs_w_check(&cw, cs_h5_copy_attrs(w->f, "/", cw.f));
  cs_w_string(&cw, "/", "status", "complete");
  cs_w_string(&cw, "/", "message", "");
  cs_w_int(&cw, "/", "values", (long long)w->n);
  cs_w_double(&cw, "/", "wall_time", wall_time, "s");
  if (w->g->param2 >= 0)
    write_plane(w, &cw);
  else
    write_along(w, &cw, a);
  if (cw.st == CS_OK)
    cs_w_check(&cw, cs_h5_seal(cw.f)); /* the last write: values_crc32 over what is final */
  enum cs_status cst = cs_h5_close(cw.f);
  if (cw.st == CS_OK && cst != CS_OK)
    cs_w_check(&cw, cst);
  if (cw.st != CS_OK) {
    unlink(w->tmp);
    return cs_error_set(cw.st, "%s: cannot write: %s", w->tmp, cw.err);
  }
  return cs_h5_rename_durable(w->tmp, w->path);
}

void cs_basins_along_file_result_free(struct cs_basins_along_file_result *r)
{
  if (!r)
    return;
  cs_basins_along_free(&r->along);
  free(r->values2);
  r->values2 = NULL;
}

enum cs_status cs_basins_along_file_run(const struct cs_config *cfg,
                                        const struct cs_basins_spec *spec,
                                        const struct cs_basins_grid *g, const char *path,
                                        const struct cs_basins_along_file_opts *opts,
                                        struct cs_basins_along_file_result *out)
{
  static const struct cs_basins_along_file_opts none;
  if (!opts)
    opts = &none;
  memset(out, 0, sizeof *out);
  const struct cs_model *m = cfg->model;
  struct writer w = {.cfg = cfg, .m = m, .spec = spec, .g = g};
  w.n = g->n1 * (g->param2 >= 0 ? g->n2 : 1);
  out->plane = g->param2 >= 0;
  if (g->param < 0 || (size_t)g->param >= m->n_param || g->param2 >= (int)m->n_param || w.n == 0)
    return cs_error_set(CS_ERR_ARG, "basins along a parameter: no parameter or no values");
  w.path = strdup(path);
  w.partial = join(path, ".partial");
  w.tmp = join(path, ".tmp");
  w.v = calloc(w.n, sizeof *w.v);
  w.done = calloc(w.n, 1);
  enum cs_status st = CS_OK;
  if (!w.path || !w.partial || !w.tmp || !w.v || !w.done)
    st = CS_FAIL(CS_ERR_NOMEM);
  if (st == CS_OK)
    st = create(&w, opts->run, opts->resume);
  if (st != CS_OK) {
    writer_free(&w);
    return st;
  }
  out->opened = 1;
  out->resumed_values = w.prior;
  int stopped = 0;
  if (opts->progress)
    stopped = opts->progress(opts->progress_ctx, w.n_done, w.n) != 0;
  double t0 = omp_get_wtime();
  int run_failed = 0;
  for (size_t k = 0; k < w.n && st == CS_OK && !stopped; k++) {
    if (w.done[k])
      continue;
    if (opts->cancel && *opts->cancel) {
      stopped = 1;
      break;
    }
    double p1, p2;
    value_params(g, k, &p1, &p2);
    st = one_value(m, cfg->params_unprepared, cfg->y0, spec, g->param, p1, g->param2, p2,
                   opts->cancel, &w.v[k], &stopped);
    if (st != CS_OK) {
      run_failed = 1;
      break;
    }
    if (stopped)
      break;
    st = write_value(&w, k);
    if (st != CS_OK)
      break;
    w.done[k] = 1, w.n_done++;
    if (opts->progress)
      stopped = opts->progress(opts->progress_ctx, w.n_done, w.n) != 0;
  }
  out->run_failed = run_failed;
  out->stopped = stopped;
  out->values_on_disk = w.n_done;
  cs_h5_table_close(w.vals), cs_h5_table_close(w.att), cs_h5_table_close(w.pts);
  w.vals = w.att = w.pts = NULL;
  if (st == CS_OK && !stopped && w.n_done == w.n) {
    /* every value known: follow (or tabulate) them, the final file */
    double *values = malloc(w.n * sizeof *values);
    out->values2 = malloc(w.n * sizeof *out->values2);
    if (!values || !out->values2)
      st = CS_FAIL(CS_ERR_NOMEM);
    for (size_t k = 0; st == CS_OK && k < w.n; k++)
      value_params(g, k, &values[k], &out->values2[k]);
    if (st == CS_OK && !out->plane)
      st = follow(m, spec, w.v, values, w.n, &out->along);
    if (st == CS_OK && out->plane) {
      /* no following over a plane: the counts per cell */
      struct cs_basins_along *a = &out->along;
      a->n_values = w.n;
      a->values = values, values = NULL;
      a->n_attr = calloc(w.n, sizeof *a->n_attr);
      a->failed = calloc(w.n, sizeof *a->failed);
      if (!a->n_attr || !a->failed)
        st = CS_FAIL(CS_ERR_NOMEM);
      for (size_t k = 0; st == CS_OK && k < w.n; k++)
        a->n_attr[k] = w.v[k].n_attr, a->failed[k] = w.v[k].failed;
    }
    free(values);
    if (st == CS_OK)
      st = write_final(&w, &out->along, omp_get_wtime() - t0);
    if (st == CS_OK) {
      cs_h5_close(w.f), w.f = NULL;
      unlink(w.partial);
    }
  }
  writer_free(&w); /* an unfinished run's partial file stays as it is on disk */
  return st;
}
