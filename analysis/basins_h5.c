/* SPDX-License-Identifier: MIT */
/* The basins file (layout in basins_h5.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/basins_h5.h"
#include "core/error_private.h"
#include "cs_version.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "analysis/basins_private.h"
#include "io/run_h5_private.h"
#include "analysis/basins_h5_private.h"

#define CELL_COLS 6 /* cell, unit, local, settle, rhs_evals, early */
#define CAT_COLS                                                                  \
  9 /* unit, local, class, period, period_time, lyapunov, lyapunov_err, n_points, \
       cells */

struct cs_basins_h5 {
  char *path, *partial, *tmp;
  struct cs_h5_lock *lock;
  struct cs_h5 *f;
  struct cs_h5_table *cells, *cat, *pts, *units_t;
  const struct cs_config *cfg;
  const struct cs_model *m;
  struct cs_basins_spec spec;
  size_t n_units_total;
  unsigned char *done;
  size_t prior;
  struct cs_basins_unit **u; /* every finished unit (prior and new), in memory */
  size_t nu, ncells_done;
  enum cs_status st;
  char err[512];
};

static char *join(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  char *s = malloc(la + lb + 1);
  if (s)
    memcpy(s, a, la), memcpy(s + la, b, lb + 1);
  return s;
}

static void keep(struct cs_basins_h5 *w, enum cs_status st)
{
  if (st != CS_OK && w->st == CS_OK) {
    w->st = st;
    snprintf(w->err, sizeof w->err, "%s", cs_errmsg());
  }
}

static void writer_free(struct cs_basins_h5 *w)
{
  if (!w)
    return;
  for (size_t i = 0; i < w->nu; i++)
    cs_basins_unit_free(w->u[i], 1);
  free(w->u), free(w->done);
  cs_h5_lock_release(w->lock);
  free(w->path), free(w->partial), free(w->tmp);
  free(w);
}

static const char *class_codes_doc(void)
{
  return "attractor class: 0 pending, 1 equilibrium, 2 periodic, 3 quasiperiodic, 4 chaotic, 5 "
         "aperiodic, 6 no-crossings, 7 escaped, 8 failed (names in the attribute class_names of "
         "/attractors)";
}

static void write_spec_attrs(struct cs_basins_h5 *w, struct cs_writer *cw)
{
  const struct cs_basins_spec *s = &w->spec;
  const struct cs_model *m = w->m;
  const char *tu = cs_run_time_unit(m);
  cs_w_check(cw, cs_h5_write_vector(w->f, "/basins/scale", m->n_state, s->scale, "per state"));
  cs_w_string(cw, "/basins/scale", "doc",
              "per state (in the model's order): the scale distances are measured in (the box "
              "width, or max(|initial value|, atol/rtol)); units those of the states");
  cs_w_string(cw, "/basins", "doc",
              "what was computed: initial states (grid over x, y or a seeded sample), how each "
              "was analysed, and the neighbourhood radius of the attractor identity");
  cs_w_string(cw, "/basins", "mode",
              s->mode == CS_BASINS_GRID     ? "grid"
              : s->mode == CS_BASINS_SAMPLE ? "sample"
                                            : "list");
  if (s->mode == CS_BASINS_GRID) {
    cs_w_string(cw, "/basins", "x", m->state[s->ix].name);
    cs_w_string(cw, "/basins", "y", m->state[s->iy].name);
    cs_w_double(cw, "/basins", "x_min", s->x_min, m->state[s->ix].unit);
    cs_w_double(cw, "/basins", "x_max", s->x_max, m->state[s->ix].unit);
    cs_w_double(cw, "/basins", "y_min", s->y_min, m->state[s->iy].unit);
    cs_w_double(cw, "/basins", "y_max", s->y_max, m->state[s->iy].unit);
    cs_w_int(cw, "/basins", "nx", (long long)s->nx);
    cs_w_int(cw, "/basins", "ny", (long long)s->ny);
  } else {
    cs_w_int(cw, "/basins", "sample", (long long)s->sample);
    cs_w_int(cw, "/basins", "seed", (long long)s->seed);
  }
  cs_w_int(cw, "/basins", "chunk", (long long)s->chunk);
  cs_w_double(cw, "/basins", "radius", s->radius, "1");
  cs_w_double(cw, "/basins", "transient", s->point.transient, tu);
  cs_w_double(cw, "/basins", "record", s->point.record, tu);
  cs_w_int(cw, "/basins", "early", s->early);
}

/* The partial file's tables (doubles; the integer columns hold integers). */
static void create_partial_tables(struct cs_basins_h5 *w, struct cs_writer *cw)
{
  const struct cs_model *m = w->m;
  static const char *const cn[CELL_COLS] = {"cell",        "unit",      "local",
                                            "settle_time", "rhs_evals", "early"};
  const char *tu = cs_run_time_unit(m);
  const char *cu[CELL_COLS] = {"1", "1", "1", tu, "1", "1"};
  cs_w_check(cw, cs_h5_table_create(w->f, "/partial/cells", CELL_COLS, 256, cn, cu, &w->cells));
  cs_w_string(cw, "/partial/cells", "doc",
              "cells of finished work units (integers stored as doubles): cell index, unit, "
              "index into that unit's own catalogue (-1 failed), settle time, rhs evaluations, "
              "1 if stopped near a known attractor");
  static const char *const an[CAT_COLS] = {"unit",         "local",       "class",
                                           "period",       "period_time", "lyapunov",
                                           "lyapunov_err", "n_points",    "cells"};
  const char *au[CAT_COLS] = {
      "1", "1", "1", "1", tu, tu[0] == 's' ? "1/s" : "1", tu[0] == 's' ? "1/s" : "1", "1", "1"};
  cs_w_check(cw, cs_h5_table_create(w->f, "/partial/catalogue", CAT_COLS, 64, an, au, &w->cat));
  cs_w_string(cw, "/partial/catalogue", "doc",
              "the attractors each finished unit found on its own, in its order (integers "
              "stored as doubles)");
  const char *pn[2 + 16], *pu[2 + 16];
  pn[0] = "unit", pn[1] = "local", pu[0] = pu[1] = "1";
  for (size_t i = 0; i < m->n_state; i++)
    pn[2 + i] = m->state[i].name, pu[2 + i] = m->state[i].unit;
  cs_w_check(cw, cs_h5_table_create(w->f, "/partial/points", 2 + m->n_state, 256, pn, pu, &w->pts));
  cs_w_string(cw, "/partial/points", "doc",
              "the points of those attractors, catalogue order (unit, local index, state)");
  static const char *const un[1] = {"unit"};
  static const char *const uu[1] = {"1"};
  cs_w_check(cw, cs_h5_table_create(w->f, "/partial/units", 1, 64, un, uu, &w->units_t));
  cs_w_string(cw, "/partial/units", "doc",
              "finished work units, each written after its cells and catalogue: a unit not "
              "listed here is computed again by a resume");
  cs_w_string(cw, "/partial", "doc", "the finished work units of an unfinished run");
}

static enum cs_status write_unit(struct cs_basins_h5 *w, const struct cs_basins_unit *u)
{
  size_t n = w->m->n_state;
  enum cs_status st = CS_OK;
  for (size_t a = 0; a < u->n_attr && st == CS_OK; a++) {
    const struct cs_basins_attractor *at = &u->attr[a];
    for (size_t r = 0; r < at->n_points && st == CS_OK; r++) {
      double row[2 + 16];
      row[0] = (double)u->index, row[1] = (double)a;
      memcpy(row + 2, at->points + r * n, n * sizeof *row);
      st = cs_h5_table_append(w->pts, 1, row);
    }
    double c[CAT_COLS] = {(double)u->index, (double)a,    (double)at->cls,  (double)at->period,
                          at->period_time,  at->lyapunov, at->lyapunov_err, (double)at->n_points,
                          (double)at->cells};
    if (st == CS_OK)
      st = cs_h5_table_append(w->cat, 1, c);
  }
  double *rows = malloc(u->n * CELL_COLS * sizeof *rows);
  if (!rows)
    return CS_FAIL(CS_ERR_NOMEM);
  for (size_t i = 0; i < u->n; i++) {
    double *r = rows + i * CELL_COLS;
    r[0] = (double)(u->first + i), r[1] = (double)u->index, r[2] = u->local[i];
    r[3] = u->settle[i], r[4] = (double)u->rhs_evals[i], r[5] = u->early[i];
  }
  if (st == CS_OK)
    st = cs_h5_table_append(w->cells, u->n, rows);
  free(rows);
  double ui = (double)u->index;
  if (st == CS_OK)
    st = cs_h5_table_append(w->units_t, 1, &ui);
  if (st == CS_OK)
    st = cs_h5_flush(w->f);
  return st;
}

static enum cs_status remember(struct cs_basins_h5 *w, const struct cs_basins_unit *u)
{
  struct cs_basins_unit **g = realloc(w->u, (w->nu + 1) * sizeof *g);
  if (!g)
    return CS_FAIL(CS_ERR_NOMEM);
  w->u = g;
  enum cs_status st = cs_basins_unit_clone(u, w->m->n_state, &w->u[w->nu]);
  if (st != CS_OK)
    return CS_FAIL(st);
  w->nu++;
  w->ncells_done += u->n;
  if (u->index < w->n_units_total)
    w->done[u->index] = 1;
  return CS_OK;
}

/* The header checks of a resume (basins maps and basins along a parameter):
 * the file's kind (else not_kind_st with "PATH: not_kind"), its layout and
 * results version, the parameter text and the --set overrides. */
enum cs_status cs_basins_h5_check_resume(struct cs_h5 *f, const char *path, const char *kind_want,
                                         const char *not_kind, enum cs_status not_kind_st,
                                         size_t layout_want, const struct cs_config *cfg,
                                         const char *const *sets, size_t n_set)
{
  char *kind = NULL, *text = NULL, *ov = NULL;
  size_t layout = 0, rv = 0;
  enum cs_status st = CS_OK;
  if (cs_h5_attr_read_string(f, "/", "kind", &kind) != CS_OK || strcmp(kind, kind_want) != 0)
    st = cs_error_set(not_kind_st, "%s: %s", path, not_kind);
  if (st == CS_OK && (cs_h5_attr_read_count(f, "/", "layout_version", 1000, &layout) != CS_OK ||
                      layout != layout_want ||
                      cs_h5_attr_read_count(f, "/", "results_version", 1000000, &rv) != CS_OK ||
                      rv != CS_RESULTS_VERSION))
    st = cs_error_set(CS_ERR_MISMATCH,
                      "%s: written by another contensou (layout or results version): start the "
                      "run again",
                      path);
  if (st == CS_OK && (cs_h5_attr_read_string(f, "/", "params_text", &text) != CS_OK ||
                      strcmp(text, cfg->text ? cfg->text : "") != 0))
    st = cs_error_set(CS_ERR_MISMATCH,
                      "%s: started from another parameter file text: resume with the same file "
                      "(or remove %s to start again)",
                      path, path);
  if (st == CS_OK && cs_h5_attr_read_string(f, "/", "overrides", &ov) != CS_OK)
    st = cs_error_set(CS_ERR_PARSE, "%s: no overrides attribute", path);
  if (st == CS_OK) {
    /* joined as the run header joins them: one per line */
    size_t len = 1;
    for (size_t i = 0; i < n_set; i++)
      len += strlen(sets[i]) + 1;
    char *joined = calloc(len, 1);
    if (!joined)
      st = CS_FAIL(CS_ERR_NOMEM);
    for (size_t i = 0; joined && i < n_set; i++)
      strcat(strcat(joined, sets[i]), i + 1 < n_set ? "\n" : "");
    if (joined && strcmp(joined, ov) != 0)
      st = cs_error_set(CS_ERR_MISMATCH,
                        "%s: started with other --set overrides ('%s'): resume with the same "
                        "ones",
                        path, ov);
    free(joined);
  }
  free(kind), free(text), free(ov);
  return st;
}

/* Reads the finished units of the partial file at path into w->u. */
static enum cs_status read_prior(struct cs_basins_h5 *w, const char *path, const char *const *sets,
                                 size_t n_set)
{
  struct cs_h5 *f;
  enum cs_status st = cs_h5_open(path, 0, &f);
  if (st != CS_OK)
    return cs_error_set(st, "%s: %s", path, cs_errmsg());
  st = cs_basins_h5_check_resume(f, path, "basins", "not a basins file (root attribute kind)",
                                 CS_ERR_PARSE, CS_BASINS_H5_LAYOUT, w->cfg, sets, n_set);
  struct cs_h5_data cells = {0}, cat = {0}, pts = {0}, units = {0};
  if (st == CS_OK)
    st = cs_h5_read(f, "/partial/units", &units);
  if (st == CS_OK)
    st = cs_h5_read(f, "/partial/cells", &cells);
  if (st == CS_OK)
    st = cs_h5_read(f, "/partial/catalogue", &cat);
  if (st == CS_OK)
    st = cs_h5_read(f, "/partial/points", &pts);
  cs_h5_close(f);
  size_t n = w->m->n_state, ncells = cs_basins_ncells(&w->spec);
  if (st == CS_OK && (cells.ncols != CELL_COLS || cat.ncols != CAT_COLS || pts.ncols != 2 + n))
    st = cs_error_set(CS_ERR_MISMATCH, "%s: tables of another shape", path);
  for (size_t k = 0; k < units.nrows && st == CS_OK; k++) {
    double ud = units.data[k];
    if (!(ud >= 0 && ud < (double)w->n_units_total) || w->done[(size_t)ud])
      continue;
    size_t ui = (size_t)ud;
    struct cs_basins_unit u = {0};
    u.index = ui;
    u.first = ui * w->spec.chunk;
    u.n = u.first + w->spec.chunk <= ncells ? w->spec.chunk : ncells - u.first;
    u.local = calloc(u.n, sizeof *u.local);
    u.settle = calloc(u.n, sizeof *u.settle);
    u.rhs_evals = calloc(u.n, sizeof *u.rhs_evals);
    u.early = calloc(u.n, sizeof *u.early);
    size_t n_cat = 0;
    for (size_t r = 0; r < cat.nrows; r++)
      n_cat += cat.data[r * CAT_COLS] == ud;
    u.attr = calloc(n_cat + 1, sizeof *u.attr);
    if (!u.local || !u.settle || !u.rhs_evals || !u.early || !u.attr)
      st = CS_FAIL(CS_ERR_NOMEM);
    size_t got = 0;
    for (size_t r = 0; r < cells.nrows && st == CS_OK; r++) {
      const double *c = cells.data + r * CELL_COLS;
      if (c[1] != ud || c[0] < (double)u.first || c[0] >= (double)(u.first + u.n))
        continue;
      size_t i = (size_t)c[0] - u.first;
      u.local[i] = (int32_t)c[2], u.settle[i] = c[3], u.rhs_evals[i] = (int64_t)c[4];
      u.early[i] = (int32_t)c[5];
      got++;
    }
    for (size_t r = 0; r < cat.nrows && st == CS_OK; r++) {
      const double *c = cat.data + r * CAT_COLS;
      if (c[0] != ud)
        continue;
      if (u.n_attr >= n_cat || c[1] != (double)u.n_attr) {
        st = cs_error_set(CS_ERR_PARSE, "%s: catalogue of unit %zu out of order", path, ui);
        break;
      }
      struct cs_basins_attractor *a = &u.attr[u.n_attr++];
      a->cls = (enum cs_class)c[2], a->period = (int)c[3], a->period_time = c[4];
      a->lyapunov = c[5], a->lyapunov_err = c[6], a->n_points = (size_t)c[7];
      a->cells = (size_t)c[8];
      a->points = a->n_points ? malloc(a->n_points * n * sizeof *a->points) : NULL;
      size_t pr = 0;
      for (size_t q = 0; q < pts.nrows && pr < a->n_points; q++) {
        const double *p = pts.data + q * (2 + n);
        if (p[0] == ud && p[1] == c[1])
          memcpy(a->points + n * pr++, p + 2, n * sizeof *p);
      }
      if (pr != a->n_points)
        st = cs_error_set(CS_ERR_PARSE, "%s: points of unit %zu missing", path, ui);
    }
    if (st == CS_OK && got != u.n)
      st = cs_error_set(CS_ERR_PARSE, "%s: cells of unit %zu missing", path, ui);
    if (st == CS_OK)
      st = remember(w, &u);
    cs_basins_unit_free(&u, 0);
  }
  w->prior = w->nu;
  cs_h5_data_free(&cells), cs_h5_data_free(&cat), cs_h5_data_free(&pts);
  cs_h5_data_free(&units);
  return st;
}

enum cs_status cs_basins_h5_create(const char *path, const struct cs_config *cfg,
                                   const char *const *sets, size_t n_set,
                                   const struct cs_basins_spec *spec, int resume, int argc,
                                   char *const *argv, struct cs_basins_h5 **out)
{
  *out = NULL;
  struct cs_basins_h5 *w = calloc(1, sizeof *w);
  if (!w)
    return CS_FAIL(CS_ERR_NOMEM);
  w->cfg = cfg, w->m = cfg->model, w->spec = *spec;
  w->n_units_total = (cs_basins_ncells(spec) + spec->chunk - 1) / spec->chunk;
  w->path = strdup(path);
  w->partial = join(path, ".partial");
  w->tmp = join(path, ".tmp");
  w->done = calloc(w->n_units_total + 1, 1);
  if (!w->path || !w->partial || !w->tmp || !w->done) {
    writer_free(w);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  enum cs_status st = cs_h5_lock_acquire(path, &w->lock);
  if (st != CS_OK) {
    writer_free(w);
    return st;
  }
  int have_partial = access(w->partial, F_OK) == 0;
  if (!resume && have_partial) {
    st = cs_error_set(CS_ERR_EXISTS,
                      "%s holds an unfinished basins run of %s (killed or interrupted): continue "
                      "it with --resume, or remove %s to start again",
                      w->partial, path, w->partial);
    writer_free(w);
    return st;
  }
  if (resume && !have_partial) {
    st =
        cs_error_set(CS_ERR_NOT_FOUND, "%s: no unfinished run to resume (no %s)", path, w->partial);
    writer_free(w);
    return st;
  }
  if (resume && (st = read_prior(w, w->partial, sets, n_set)) != CS_OK) {
    writer_free(w);
    return st;
  }
  unlink(w->tmp); /* left by a killed run; we hold the lock */
  struct cs_writer cw = {0};
  cw.st = cs_h5_create_excl(w->tmp, &w->f);
  if (cw.st != CS_OK)
    snprintf(cw.err, sizeof cw.err, "%s", cs_errmsg());
  cw.f = w->f;
  if (cw.st == CS_OK) {
    cs_w_check(&cw, cs_run_h5_write_header(w->f, "basins", cfg, sets, n_set, argc, argv));
    cs_w_int(&cw, "/", "layout_version", CS_BASINS_H5_LAYOUT);
    cs_w_int(&cw, "/", "results_version", CS_RESULTS_VERSION);
    cs_w_string(&cw, "/", "resumed", resume ? "yes" : "");
    write_spec_attrs(w, &cw);
    create_partial_tables(w, &cw);
  }
  if (cw.st == CS_OK)
    cs_w_check(&cw, cs_h5_start_swmr(w->f));
  for (size_t i = 0; i < w->nu && cw.st == CS_OK; i++)
    cs_w_check(&cw, write_unit(w, w->u[i]));
  if (cw.st == CS_OK && rename(w->tmp, w->partial) != 0) {
    cw.st = CS_ERR_IO;
    snprintf(cw.err, sizeof cw.err, "cannot rename %s to %s: %s", w->tmp, w->partial,
             strerror(errno));
  }
  if (cw.st != CS_OK) {
    st = cs_error_set(cw.st, "%s: cannot write: %s", w->tmp, cw.err);
    cs_h5_table_close(w->cells), cs_h5_table_close(w->cat), cs_h5_table_close(w->pts);
    cs_h5_table_close(w->units_t);
    cs_h5_close(w->f);
    unlink(w->tmp);
    writer_free(w);
    return st;
  }
  *out = w;
  return CS_OK;
}

const unsigned char *cs_basins_h5_done(const struct cs_basins_h5 *w, size_t *prior)
{
  if (prior)
    *prior = w->prior;
  return w->done;
}

size_t cs_basins_h5_units(const struct cs_basins_h5 *w)
{
  return w->nu;
}

size_t cs_basins_h5_cells(const struct cs_basins_h5 *w)
{
  return w->ncells_done;
}

const char *cs_basins_h5_partial(const struct cs_basins_h5 *w)
{
  return w->partial;
}

int cs_basins_h5_sink(void *ctx, const struct cs_basins_unit *u)
{
  struct cs_basins_h5 *w = ctx;
  if (w->st != CS_OK)
    return 1;
  keep(w, write_unit(w, u));
  if (w->st == CS_OK)
    keep(w, remember(w, u));
  return w->st != CS_OK;
}

/* The final file at w->tmp from the merged result. */
static enum cs_status write_final(struct cs_basins_h5 *w, const struct cs_basins_result *r,
                                  double wall_time)
{
  const struct cs_model *m = w->m;
  const struct cs_basins_spec *s = &w->spec;
  size_t n = m->n_state, nc = r->n_cells;
  const char *tu = cs_run_time_unit(m);
  unlink(w->tmp);
  struct cs_writer cw = {0};
  cw.st = cs_h5_create_excl(w->tmp, &cw.f);
  if (cw.st != CS_OK)
    return cw.st;
  struct cs_h5 *f = cw.f;
  struct cs_h5 *keep_f = w->f;
  w->f = f;
  cs_w_check(&cw, cs_run_h5_write_header(f, "basins", w->cfg, NULL, 0, 0, NULL));
  /* the header of the partial file (provenance, overrides, resumed) carried over */
  cs_w_check(&cw, cs_h5_copy_attrs(keep_f, "/", f));
  cs_w_string(&cw, "/", "status", "complete");
  cs_w_string(&cw, "/", "message", "");
  cs_w_int(&cw, "/", "attractors", (long long)r->n_attr);
  cs_w_int(&cw, "/", "cells", (long long)nc);
  cs_w_int(&cw, "/", "failed_cells", (long long)r->failed);
  cs_w_double(&cw, "/", "sensitivity", r->sensitivity, "1");
  cs_w_double(&cw, "/", "wall_time", wall_time, "s");
  cs_w_int(&cw, "/", "rhs_evals", (long long)r->rhs_total);
  write_spec_attrs(w, &cw);
  /* cells */
  int grid = s->mode == CS_BASINS_GRID;
  struct cs_h5_column cc[7];
  size_t ncol = 0;
  cc[ncol++] = CS_H5_COLUMN("index", CS_H5_INT64, "1", "cell index (grid: i + nx j)");
  if (grid) {
    cc[ncol++] = CS_H5_COLUMN("i", CS_H5_INT64, "1", "grid column: x_i");
    cc[ncol++] = CS_H5_COLUMN("j", CS_H5_INT64, "1", "grid row: y_j");
  }
  cc[ncol++] = CS_H5_COLUMN("attractor", CS_H5_INT32, "1",
                            "id of the attractor reached (a row of /attractors), -1: the "
                            "integration failed");
  cc[ncol++] = CS_H5_COLUMN("settle_time", CS_H5_DOUBLE, tu,
                            "time integrated before the attractor was known: where the "
                            "trajectory entered its neighbourhood, or the transient plus its "
                            "adaptive extension for a cell analysed in full");
  cc[ncol++] =
      CS_H5_COLUMN("rhs_evals", CS_H5_INT64, "1", "right-hand-side evaluations spent on the cell");
  cc[ncol++] = CS_H5_COLUMN("early", CS_H5_INT32, "1",
                            "1: stopped in the neighbourhood of an attractor its work unit knew; "
                            "0: analysed in full");
  double *rows = malloc(nc * 7 * sizeof *rows);
  double *init = malloc(nc * n * sizeof *init);
  if (!rows || !init) {
    free(rows), free(init);
    cs_h5_close(f);
    w->f = keep_f;
    return CS_FAIL(CS_ERR_NOMEM);
  }
  for (size_t c = 0; c < nc; c++) {
    double *row = rows + c * ncol;
    size_t k = 0;
    row[k++] = (double)c;
    if (grid)
      row[k++] = (double)(c % s->nx), row[k++] = (double)(c / s->nx);
    row[k++] = r->attractor[c], row[k++] = r->settle[c], row[k++] = (double)r->rhs_evals[c];
    row[k++] = r->early[c];
    double y[16];
    memcpy(y, w->cfg->y0, n * sizeof *y);
    cs_basins_cell_state(s, w->cfg->y0, c, y);
    memcpy(init + c * n, y, n * sizeof *y);
  }
  cs_w_columns(&cw, "/cells", ncol, cc, nc, rows, "one row per initial state (cell)");
  const char *names[16], *units[16];
  for (size_t i = 0; i < n; i++)
    names[i] = m->state[i].name, units[i] = m->state[i].unit;
  cs_w_table(&cw, "/initial_states", nc, n, init, names, units);
  cs_w_string(&cw, "/initial_states", "doc", "the initial state of every cell, rows as /cells");
  free(init);
  if (grid && cw.st == CS_OK) {
    struct cs_h5_dset *d = NULL;
    struct cs_h5_dset_spec ds = {.type = CS_H5_INT32,
                                 .rows = s->ny,
                                 .cols = s->nx,
                                 .fill = -2,
                                 .doc = "the basin map: attractor id of the cell at (x_i, y_j) "
                                        "in row j, column i (-1 failed)"};
    cs_w_check(&cw, cs_h5_dset_create(f, "/map", &ds, &d));
    if (d) {
      cs_w_check(&cw, cs_h5_dset_write(d, 0, s->ny, r->attractor));
      cs_w_check(&cw, cs_h5_dset_close(d));
    }
    cs_w_string(&cw, "/map", "units", "1");
  }
  /* attractors */
  struct cs_h5_column ac[] = {
      CS_H5_COLUMN("id", CS_H5_INT32, "1",
                   "attractor id (canonical: sorted by class, period, "
                   "then the lexicographically smallest point)"),
      CS_H5_COLUMN("class", CS_H5_INT32, "1", class_codes_doc()),
      CS_H5_COLUMN("period", CS_H5_INT32, "1", "section points per cycle (periodic), else 0"),
      CS_H5_COLUMN("period_time", CS_H5_DOUBLE, tu, "period in time (periodic), else NaN"),
      CS_H5_COLUMN("lyapunov", CS_H5_DOUBLE, tu[0] == 's' ? "1/s" : "1",
                   "largest Lyapunov exponent, NaN if not computed"),
      CS_H5_COLUMN("lyapunov_err", CS_H5_DOUBLE, tu[0] == 's' ? "1/s" : "1",
                   "its error estimate, NaN if none"),
      CS_H5_COLUMN("cells", CS_H5_INT64, "1", "cells in its basin"),
      CS_H5_COLUMN("fraction", CS_H5_DOUBLE, "1", "cells / all cells: the basin's fraction"),
      CS_H5_COLUMN("fraction_err", CS_H5_DOUBLE, "1",
                   "standard error of the fraction as a sample estimate, sqrt(f (1 - f) / N)"),
      CS_H5_COLUMN("n_points", CS_H5_INT64, "1", "its rows in /points/values"),
      CS_H5_COLUMN("first_point", CS_H5_INT64, "1", "its first row in /points/values"),
  };
  size_t na = r->n_attr, npts = 0;
  for (size_t a = 0; a < na; a++)
    npts += r->attr[a].n_points;
  double *arow = malloc((na + 1) * 11 * sizeof *arow);
  double *pv = malloc((npts + 1) * n * sizeof *pv);
  int32_t *pid = malloc((npts + 1) * sizeof *pid);
  if (!arow || !pv || !pid)
    cs_w_check(&cw, CS_FAIL(CS_ERR_NOMEM));
  size_t row = 0;
  for (size_t a = 0; a < na && cw.st == CS_OK; a++) {
    const struct cs_basins_attractor *at = &r->attr[a];
    double fr = (double)at->cells / (double)nc;
    double v[11] = {(double)a,
                    (double)at->cls,
                    (double)at->period,
                    at->period_time,
                    at->lyapunov,
                    at->lyapunov_err,
                    (double)at->cells,
                    fr,
                    sqrt(fr * (1 - fr) / (double)nc),
                    (double)at->n_points,
                    (double)row};
    memcpy(arow + a * 11, v, sizeof v);
    for (size_t p = 0; p < at->n_points; p++, row++) {
      memcpy(pv + row * n, at->points + p * n, n * sizeof *pv);
      pid[row] = (int32_t)a;
    }
  }
  cs_w_columns(&cw, "/attractors", 11, ac, na, arow, "one row per attractor found");
  const char *cls_names[CS_CLASS_COUNT];
  for (int c = 0; c < CS_CLASS_COUNT; c++)
    cls_names[c] = cs_class_name((enum cs_class)c);
  if (cw.st == CS_OK)
    cs_w_check(
        &cw, cs_h5_attr_write_strings(f, "/attractors", "class_names", CS_CLASS_COUNT, cls_names));
  cs_w_table(&cw, "/points/values", npts, n, pv, names, units);
  cs_w_string(&cw, "/points/values", "doc",
              "the attractors' points: an equilibrium's state, one cycle's section points of a "
              "periodic orbit, section points of the others (angles in (-pi, pi])");
  if (cw.st == CS_OK) {
    struct cs_h5_dset *d = NULL;
    struct cs_h5_dset_spec ds = {.type = CS_H5_INT32,
                                 .rows = npts,
                                 .unit = "1",
                                 .doc = "the attractor id of each row of /points/values"};
    cs_w_check(&cw, cs_h5_dset_create(f, "/points/attractor", &ds, &d));
    if (d && npts)
      cs_w_check(&cw, cs_h5_dset_write(d, 0, npts, pid));
    cs_w_check(&cw, cs_h5_dset_close(d));
  }
  cs_w_string(&cw, "/points", "doc", "where the attractors lie in state space");
  free(rows), free(arow), free(pv), free(pid);
  w->f = keep_f;
  if (cw.st == CS_OK)
    cs_w_check(&cw, cs_h5_seal(f)); /* the last write: values_crc32 over what is final */
  enum cs_status cst = cs_h5_close(f);
  if (cw.st == CS_OK && cst != CS_OK)
    cs_w_check(&cw, cst);
  if (cw.st != CS_OK) {
    unlink(w->tmp);
    return cs_error_set(cw.st, "%s: cannot write: %s", w->tmp, cw.err);
  }
  return CS_OK;
}

enum cs_status cs_basins_h5_finish(struct cs_basins_h5 *w, int failed, double wall_time,
                                   struct cs_basins_result *res)
{
  struct cs_basins_result local;
  struct cs_basins_result *r = res ? res : &local;
  memset(r, 0, sizeof *r);
  enum cs_status st = w->st;
  cs_h5_table_close(w->cells), cs_h5_table_close(w->cat), cs_h5_table_close(w->pts);
  cs_h5_table_close(w->units_t);
  w->cells = w->cat = w->pts = w->units_t = NULL;
  enum cs_status mst =
      cs_basins_merge(w->m, &w->spec, (const struct cs_basins_unit *const *)w->u, w->nu, r);
  if (st == CS_OK)
    st = mst;
  int complete = st == CS_OK && !failed && w->nu == w->n_units_total;
  if (complete) {
    st = write_final(w, r, wall_time);
    if (st == CS_OK) {
      cs_h5_close(w->f), w->f = NULL;
      st = cs_h5_rename_durable(w->tmp, w->path);
      if (st == CS_OK)
        unlink(w->partial);
    }
  }
  if (w->f) {
    /* SWMR forbids new attributes: the status of an unfinished run is what
     * it says on resume (units done), and the file is kept as it is */
    cs_h5_close(w->f);
    w->f = NULL;
  }
  if (!res)
    cs_basins_result_free(&local);
  writer_free(w);
  return st;
}

enum cs_status cs_basins_h5_summary(const char *path, struct cs_basins_summary *out)
{
  memset(out, 0, sizeof *out);
  out->sensitivity = out->wall_time = NAN;
  struct cs_h5 *f;
  enum cs_status st = cs_h5_open(path, 0, &f);
  if (st != CS_OK)
    return st;
  char *kind = NULL, *status = NULL, *mode = NULL;
  if (cs_h5_attr_read_string(f, "/", "kind", &kind) != CS_OK || strcmp(kind, "basins") != 0)
    st = cs_error_set(CS_ERR_PARSE, "%s: not a basins file", path);
  if (st == CS_OK && cs_h5_attr_read_string(f, "/", "status", &status) == CS_OK)
    out->complete = strcmp(status, "complete") == 0;
  if (st == CS_OK && cs_h5_attr_read_string(f, "/basins", "mode", &mode) == CS_OK)
    snprintf(out->mode, sizeof out->mode, "%s", mode);
  free(kind), free(status), free(mode);
  if (st == CS_OK && out->complete) {
    double v;
    if (cs_h5_attr_read_double(f, "/", "sensitivity", &v) == CS_OK)
      out->sensitivity = v;
    if (cs_h5_attr_read_double(f, "/", "wall_time", &v) == CS_OK)
      out->wall_time = v;
    if (cs_h5_attr_read_double(f, "/", "rhs_evals", &v) == CS_OK)
      out->rhs_evals = (long long)v;
    struct cs_h5_data a = {0};
    st = cs_h5_read(f, "/attractors", &a);
    size_t cells = 0;
    if (st == CS_OK && cs_h5_attr_read_count(f, "/", "cells", (size_t)1 << 40, &cells) == CS_OK)
      out->cells = cells;
    long c_cls = cs_h5_data_column(&a, "class"), c_per = cs_h5_data_column(&a, "period"),
         c_pt = cs_h5_data_column(&a, "period_time"), c_ly = cs_h5_data_column(&a, "lyapunov"),
         c_fr = cs_h5_data_column(&a, "fraction"), c_fe = cs_h5_data_column(&a, "fraction_err");
    if (st == CS_OK && (c_cls < 0 || c_per < 0 || c_pt < 0 || c_ly < 0 || c_fr < 0 || c_fe < 0))
      st = cs_error_set(CS_ERR_PARSE, "%s: /attractors lacks a column", path);
    for (size_t i = 0; st == CS_OK && i < a.nrows && i < 64; i++) {
      const double *r = a.data + i * a.ncols;
      out->cls[i] = (int)r[c_cls], out->period[i] = (int)r[c_per];
      out->period_time[i] = r[c_pt], out->lyapunov[i] = r[c_ly];
      out->fraction[i] = r[c_fr], out->fraction_err[i] = r[c_fe];
      out->n_attr++;
    }
    cs_h5_data_free(&a);
  } else if (st == CS_OK) {
    struct cs_h5_data u = {0}, c = {0};
    if (cs_h5_read(f, "/partial/units", &u) == CS_OK)
      out->units_done = u.nrows;
    if (cs_h5_read(f, "/partial/cells", &c) == CS_OK)
      out->cells = c.nrows;
    cs_h5_data_free(&u), cs_h5_data_free(&c);
  }
  cs_h5_close(f);
  return st;
}
