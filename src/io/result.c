/* SPDX-License-Identifier: MIT */
/* The shared part of the result-file readers (io/result.h, io/result_private.h),
 * on top of the checked readers of io/h5.h: every object by its name, every
 * size bounded. Each kind's reader sits beside its writer. */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include "io/result.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "io/h5.h"
#include "io/result_private.h"

#define MAX_ATTRS 4096   /* scalar attributes of one object */
#define MAX_OBJECTS 4096 /* objects of a file read whole */
#define MAX_DEPTH 16     /* group levels of a file read whole */

/* Keeps "<file>: <text>" as this thread's last error (cs_errmsg), and
 * returns st. Formatted into a buffer of its own first: an argument may be
 * the error channel's text itself. */
enum cs_status cs_rd_fail(struct cs_rd *r, enum cs_status st, const char *fmt, ...)
{
  char line[1024];
  int k = snprintf(line, sizeof line, "%s: ", r->path);
  if (k >= 0 && (size_t)k < sizeof line) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + k, sizeof line - (size_t)k, fmt, ap);
    va_end(ap);
  }
  return cs_error_set(st, "%s", line);
}

/* A failure of io/h5.h on object obj, as a status of this interface: the
 * wrong rank or type is a parse error, a missing required object too. */
enum cs_status cs_rd_fail_h5(struct cs_rd *r, enum cs_status st, const char *obj)
{
  const char *why = cs_errmsg();
  if (st == CS_ERR_NOT_FOUND)
    return cs_rd_fail(r, CS_ERR_PARSE, "no object '%s' (a required part of the file)", obj);
  if (st == CS_ERR_UNSUPPORTED || st == CS_ERR_NOT_FOUND || st == CS_ERR_ARG)
    st = CS_ERR_PARSE;
  return cs_rd_fail(r, st, "'%s': %s", obj, why[0] ? why : cs_strerror(st));
}

/* Counts n strings against the file's text bound (one string may be
 * referenced many times by a hostile file: each reference counts). */
static enum cs_status take_text(struct cs_rd *r, char *const *v, size_t n, const char *obj)
{
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(v[i]) + 1;
    if (len > r->text)
      return cs_rd_fail(r, CS_ERR_RANGE, "'%s': more than %zu bytes of text in the file", obj,
                        (size_t)CS_H5_MAX_TEXT);
    r->text -= len;
  }
  return CS_OK;
}

static char *dup(const char *s)
{
  return s ? strdup(s) : NULL;
}

/* ------------------------------------------------------------ attributes */

void cs_rd_attrs_free(struct cs_result_attrs *a)
{
  for (size_t i = 0; a->v && i < a->n; i++) {
    free(a->v[i].name);
    free(a->v[i].text);
    free(a->v[i].unit);
  }
  free(a->v);
  a->v = NULL;
  a->n = 0;
}

const struct cs_result_attr *cs_result_attr_find(const struct cs_result_attrs *a, const char *name)
{
  for (size_t i = 0; a && name && i < a->n; i++)
    if (strcmp(a->v[i].name, name) == 0)
      return &a->v[i];
  return NULL;
}

const char *cs_result_attr_text(const struct cs_result_attrs *a, const char *name)
{
  const struct cs_result_attr *x = cs_result_attr_find(a, name);
  return x ? x->text : NULL;
}

int cs_result_attr_number(const struct cs_result_attrs *a, const char *name, double *value,
                          const char **unit)
{
  const struct cs_result_attr *x = cs_result_attr_find(a, name);
  if (!x || x->text)
    return 0;
  *value = x->value;
  if (unit)
    *unit = x->unit;
  return 1;
}

/* Every scalar string or number attribute of obj; arrays are left out. */
enum cs_status cs_rd_attrs(struct cs_rd *r, const char *obj, struct cs_result_attrs *out)
{
  char **names = NULL;
  size_t n = 0;
  enum cs_status st = cs_h5_attr_names(r->f, obj, MAX_ATTRS, &names, &n);
  if (st != CS_OK)
    return cs_rd_fail_h5(r, st, obj);
  out->v = calloc(n ? n : 1, sizeof *out->v);
  if (!out->v) {
    cs_h5_strings_free(names, n);
    return cs_rd_fail(r, CS_ERR_NOMEM, "'%s': out of memory", obj);
  }
  for (size_t i = 0; i < n && st == CS_OK; i++) {
    struct cs_result_attr *a = &out->v[out->n];
    char *text = NULL;
    double v;
    if (cs_h5_attr_read_string(r->f, obj, names[i], &text) == CS_OK) {
      if ((st = take_text(r, &text, 1, obj)) != CS_OK) {
        free(text);
        break;
      }
      a->text = text;
    } else if (cs_h5_attr_read_double(r->f, obj, names[i], &v) == CS_OK) {
      char uname[CS_H5_MAX_LABEL + 8];
      snprintf(uname, sizeof uname, "%s_units", names[i]);
      a->value = v;
      if (cs_h5_attr_read_string(r->f, obj, uname, &a->unit) != CS_OK)
        a->unit = NULL;
      else if ((st = take_text(r, &a->unit, 1, obj)) != CS_OK) {
        free(a->unit);
        a->unit = NULL;
        break;
      }
    } else {
      continue; /* an array, or a type neither string nor number */
    }
    a->name = names[i];
    names[i] = NULL;
    out->n++;
  }
  cs_h5_strings_free(names, n);
  return st;
}

/* ----------------------------------------------------------------- tables */

static void table_free(struct cs_result_table *t)
{
  free(t->path);
  free(t->data);
  cs_h5_strings_free(t->names, t->ncols);
  cs_h5_strings_free(t->units, t->ncols);
  cs_rd_attrs_free(&t->attrs);
  memset(t, 0, sizeof *t);
}

void cs_result_table_free(struct cs_result_table *t)
{
  if (t)
    table_free(t);
}

long cs_result_column(const struct cs_result_table *t, const char *name)
{
  for (size_t j = 0; t && name && t->names && j < t->ncols; j++)
    if (strcmp(t->names[j], name) == 0)
      return (long)j;
  return -1;
}

double cs_result_value(const struct cs_result_table *t, size_t row, const char *name)
{
  long c = cs_result_column(t, name);
  return c >= 0 && row < t->nrows ? t->data[row * t->ncols + (size_t)c] : NAN;
}

/* Reads rows first .. first + count - 1 of the table at path (count
 * SIZE_MAX: to the end) with its attributes. A missing table is
 * CS_ERR_NOT_FOUND (no message) unless required. */
enum cs_status cs_rd_table(struct cs_rd *r, const char *path, size_t first, size_t count,
                           int required, struct cs_result_table *t)
{
  int rank;
  size_t nrows, ncols;
  memset(t, 0, sizeof *t);
  if (!required && !cs_h5_exists(r->f, path))
    return CS_ERR_NOT_FOUND;
  enum cs_status st = cs_h5_shape(r->f, path, &rank, &nrows, &ncols);
  if (st != CS_OK)
    return cs_rd_fail_h5(r, st, path);
  size_t rows = first > nrows ? 0 : count > nrows - first ? nrows - first : count;
  if (ncols == 0 || rows > r->budget / ncols)
    return cs_rd_fail(r, CS_ERR_RANGE, "'%s': %zu x %zu numbers (accepted: at most %zu per file)",
                      path, rows, ncols, r->budget);
  struct cs_h5_data d;
  st = cs_h5_read_rows(r->f, path, first, rows, &d); /* a table being written may grow */
  if (st ==
      CS_ERR_RANGE) /* within the bounds checked above: columns of unequal rows, a long name */
    st = CS_ERR_PARSE;
  if (st != CS_OK)
    return cs_rd_fail_h5(r, st, path);
  if (d.ncols != ncols || d.nrows > rows) { /* the shape changed under us */
    cs_h5_data_free(&d);
    return cs_rd_fail(r, CS_ERR_PARSE, "'%s': the shape changed while it was read", path);
  }
  r->budget -= d.nrows * d.ncols;
  t->nrows = d.nrows, t->ncols = d.ncols;
  t->data = d.data, t->names = d.names, t->units = d.units;
  if (!(t->path = dup(path))) {
    cs_h5_data_free(&d);
    memset(t, 0, sizeof *t);
    return cs_rd_fail(r, CS_ERR_NOMEM, "out of memory");
  }
  st = cs_rd_attrs(r, path, &t->attrs);
  if (st != CS_OK)
    table_free(t);
  return st;
}

/* ------------------------------------------------------ integer outputs */

/* Appends the columns of c, the integer companion of t (the same rows in the
 * same order, io/run_h5.h "Integer outputs"), to t as doubles (its missing
 * values NaN, as every table reads): the rows of a model's outputs come back
 * in the model's order, t, the states, the derived outputs, as the files
 * held them before the integer outputs moved to companions. strict (a
 * complete file): the two must have as many rows; else (a file being
 * written, or left by a killed run) t is cut to the rows both have. */
static enum cs_status append_columns(struct cs_rd *r, struct cs_result_table *t,
                                     const struct cs_result_table *c, int strict)
{
  if (c->nrows != t->nrows && strict)
    return cs_rd_fail(r, CS_ERR_PARSE, "'%s': %zu rows for the %zu rows of '%s'", c->path, c->nrows,
                      t->nrows, t->path);
  size_t rows = c->nrows < t->nrows ? c->nrows : t->nrows, nc = t->ncols + c->ncols;
  for (size_t j = 0; j < c->ncols; j++)
    if (cs_result_column(t, c->names[j]) >= 0)
      return cs_rd_fail(r, CS_ERR_PARSE, "'%s': column '%s' is also one of '%s'", c->path,
                        c->names[j], t->path);
  double *data = malloc((rows ? rows : 1) * nc * sizeof *data);
  char **names = malloc(nc * sizeof *names), **units = malloc(nc * sizeof *units);
  if (!data || !names || !units) {
    free(data), free(names), free(units);
    return cs_rd_fail(r, CS_ERR_NOMEM, "out of memory");
  }
  memcpy(names, t->names, t->ncols * sizeof *names);
  memcpy(units, t->units, t->ncols * sizeof *units);
  size_t k = t->ncols;
  for (; k < nc; k++) {
    names[k] = dup(c->names[k - t->ncols]);
    units[k] = dup(c->units[k - t->ncols]);
    if (!names[k] || !units[k]) {
      free(names[k]), free(units[k]);
      break;
    }
  }
  enum cs_status st = k < nc ? cs_rd_fail(r, CS_ERR_NOMEM, "out of memory") : CS_OK;
  if (st == CS_OK) /* counted again: the merged table keeps its own copies */
    st = take_text(r, names + t->ncols, c->ncols, c->path);
  if (st == CS_OK)
    st = take_text(r, units + t->ncols, c->ncols, c->path);
  if (st != CS_OK) {
    for (size_t j = t->ncols; j < k; j++)
      free(names[j]), free(units[j]);
    free(data), free(names), free(units);
    return st;
  }
  for (size_t i = 0; i < rows; i++) {
    memcpy(data + i * nc, t->data + i * t->ncols, t->ncols * sizeof *data);
    memcpy(data + i * nc + t->ncols, c->data + i * c->ncols, c->ncols * sizeof *data);
  }
  free(t->data), free(t->names), free(t->units);
  t->data = data, t->names = names, t->units = units;
  t->nrows = rows, t->ncols = nc;
  return CS_OK;
}

/* Whether the tables of the same rows are complete: a sweep is until its
 * status is "complete", a trajectory while it is "running" (being written,
 * or left by a killed run); every other file is written whole. */
int cs_rd_rows_complete(const struct cs_result_header *h)
{
  if (h->kind == CS_RESULT_SWEEP)
    return h->status && strcmp(h->status, "complete") == 0;
  if (h->kind == CS_RESULT_TRAJECTORY)
    return !h->status || strcmp(h->status, "running") != 0;
  return 1;
}

/* Reads the companion of the table t (rows first .. first + t->nrows - 1,
 * read from table) and appends its columns; nothing when there is none. */
enum cs_status cs_rd_companion(struct cs_rd *r, const char *table, size_t first, int strict,
                               struct cs_result_table *t)
{
  char cpath[1100];
  if (cs_h5_companion_path(table, cpath, sizeof cpath) != CS_OK || !cs_h5_exists(r->f, cpath))
    return CS_OK;
  struct cs_result_table c;
  enum cs_status st = cs_rd_table(r, cpath, first, t->nrows, 1, &c);
  if (st == CS_OK)
    st = append_columns(r, t, &c, strict);
  table_free(&c);
  return st;
}

/* The string array attribute attr of obj (or the string dataset obj): absent
 * is no error (*n = 0), a damaged one is. */
enum cs_status cs_rd_strings(struct cs_rd *r, const char *obj, const char *attr, char ***v,
                             size_t *n)
{
  *v = NULL, *n = 0;
  if (!cs_h5_exists(r->f, obj))
    return CS_OK;
  enum cs_status st = cs_h5_read_strings(r->f, obj, attr, v, n);
  if (st == CS_ERR_NOT_FOUND && attr)
    return CS_OK;
  if (st != CS_OK)
    return cs_rd_fail(r, st == CS_ERR_UNSUPPORTED ? CS_ERR_PARSE : st, "'%s'%s%s: %s", obj,
                      attr ? " attribute " : "", attr ? attr : "", cs_errmsg());
  if ((st = take_text(r, *v, *n, obj)) != CS_OK) {
    cs_h5_strings_free(*v, *n);
    *v = NULL, *n = 0;
  }
  return st;
}

/* ----------------------------------------------------------------- kinds */

static const char *const kind_names[] = {
    [CS_RESULT_UNKNOWN] = "unknown",
    [CS_RESULT_TRAJECTORY] = "trajectory",
    [CS_RESULT_SWEEP] = "sweep",
    [CS_RESULT_EPS_STUDY] = "eps-study",
    [CS_RESULT_FIT] = "friction-fit",
    [CS_RESULT_ORBIT] = "orbit",
    [CS_RESULT_CONTINUATION] = "continuation",
};

const char *cs_result_kind_name(enum cs_result_kind kind)
{
  return (size_t)kind < sizeof kind_names / sizeof *kind_names ? kind_names[kind] : "unknown";
}

static enum cs_result_kind kind_of(const char *name)
{
  for (size_t k = 1; name && k < sizeof kind_names / sizeof *kind_names; k++)
    if (strcmp(name, kind_names[k]) == 0)
      return (enum cs_result_kind)k;
  return CS_RESULT_UNKNOWN;
}

/* Opens path for reading. */
static enum cs_status open_file(struct cs_rd *r, const char *path)
{
  *r = (struct cs_rd){.path = path, .budget = CS_H5_MAX_ELEMENTS, .text = CS_H5_MAX_TEXT};
  if (!path)
    return cs_rd_fail(r, CS_ERR_ARG, "no path");
  enum cs_status st = cs_h5_open(path, 0, &r->f);
  if (st == CS_ERR_NOT_FOUND)
    return cs_rd_fail(r, st, "no such file");
  if (st != CS_OK)
    return cs_rd_fail(r, st == CS_ERR_IO ? st : CS_ERR_HDF5,
                      "not an HDF5 file, or a damaged one (%s)", cs_errmsg());
  return CS_OK;
}

void cs_rd_close(struct cs_rd *r)
{
  cs_h5_close(r->f);
  r->f = NULL;
}

static enum cs_status read_kind(struct cs_rd *r, char **kind)
{
  enum cs_status st = cs_h5_attr_read_string(r->f, "/", "kind", kind);
  if (st == CS_ERR_NOT_FOUND)
    return cs_rd_fail(r, CS_ERR_PARSE, "no root attribute 'kind': not a contensou result file");
  if (st != CS_OK)
    return cs_rd_fail_h5(r, st, "/");
  return CS_OK;
}

enum cs_status cs_result_kind(const char *path, enum cs_result_kind *kind)
{
  struct cs_rd r;
  char *name = NULL;
  *kind = CS_RESULT_UNKNOWN;
  enum cs_status st = open_file(&r, path);
  if (st == CS_OK && (st = read_kind(&r, &name)) == CS_OK)
    *kind = kind_of(name);
  free(name);
  cs_rd_close(&r);
  return st;
}

enum cs_status cs_result_verify_values(const char *path, int *sealed, size_t *items)
{
  struct cs_rd r;
  *sealed = 0;
  *items = 0;
  enum cs_status st = open_file(&r, path);
  if (st == CS_OK && (st = cs_h5_verify_seal(r.f, sealed, items)) != CS_OK)
    st = cs_rd_fail(&r, st, "%s", cs_errmsg());
  cs_rd_close(&r);
  return st;
}

/* ---------------------------------------------------------------- header */

void cs_result_header_free(struct cs_result_header *h)
{
  if (!h)
    return;
  free(h->file), free(h->kind_name), free(h->model), free(h->time_unit);
  free(h->status), free(h->message);
  cs_rd_attrs_free(&h->root);
  table_free(&h->params), table_free(&h->initial), table_free(&h->solver);
  memset(h, 0, sizeof *h);
}

static enum cs_status read_header(struct cs_rd *r, struct cs_result_header *h)
{
  memset(h, 0, sizeof *h);
  enum cs_status st = read_kind(r, &h->kind_name);
  if (st != CS_OK)
    return st;
  h->kind = kind_of(h->kind_name);
  if (!(h->file = dup(r->path)))
    return cs_rd_fail(r, CS_ERR_NOMEM, "out of memory");
  if ((st = cs_rd_attrs(r, "/", &h->root)) != CS_OK)
    return st;
  const char *names[] = {"model", "time_unit", "status", "message"};
  char **fields[] = {&h->model, &h->time_unit, &h->status, &h->message};
  for (size_t i = 0; i < 4; i++) {
    const char *v = cs_result_attr_text(&h->root, names[i]);
    if (v && !(*fields[i] = dup(v)))
      return cs_rd_fail(r, CS_ERR_NOMEM, "out of memory");
  }
  const char *recs[] = {"/params", "/initial", "/solver"};
  struct cs_result_table *tabs[] = {&h->params, &h->initial, &h->solver};
  for (size_t i = 0; i < 3; i++) {
    st = cs_rd_table(r, recs[i], 0, SIZE_MAX, 0, tabs[i]);
    if (st != CS_OK && st != CS_ERR_NOT_FOUND)
      return st;
  }
  return CS_OK;
}

enum cs_status cs_rd_check_layout(struct cs_rd *r, const char *obj, const char *what,
                                  const struct cs_result_attrs *attrs, long first, long last)
{
  double v = 1; /* the kinds that had no layout number were layout 1 */
  char where[300] = "";
  if (strcmp(obj, "/") != 0)
    snprintf(where, sizeof where, "'%s': ", obj);
  const struct cs_result_attr *a = cs_result_attr_find(attrs, "layout_version");
  if (a && a->text)
    return cs_rd_fail(r, CS_ERR_PARSE, "%sattribute 'layout_version' is not a number ('%s')", where,
                      a->text);
  if (a)
    v = a->value;
  if (v >= (double)first && v <= (double)last && v == floor(v))
    return CS_OK;
  char range[64];
  if (first == last)
    snprintf(range, sizeof range, "%ld", first);
  else
    snprintf(range, sizeof range, "%ld\u2013%ld", first, last);
  return cs_rd_fail(r, CS_ERR_UNSUPPORTED, "%s%s layout version %g is %s this contensou reads (%s)",
                    where, what, v, v > (double)last ? "newer than" : "not one", range);
}

enum cs_status cs_rd_begin(struct cs_rd *r, const char *path, enum cs_result_kind wanted,
                           const struct cs_rd_layout *layouts, struct cs_result_header *h)
{
  memset(h, 0, sizeof *h);
  enum cs_status st = open_file(r, path);
  if (st == CS_OK)
    st = read_header(r, h);
  if (st == CS_OK && wanted != CS_RESULT_UNKNOWN && h->kind != wanted)
    st = cs_rd_fail(r, CS_ERR_PARSE, "a file of kind '%s', not %s", h->kind_name,
                    cs_result_kind_name(wanted));
  for (size_t i = 0; st == CS_OK && layouts && layouts[i].kind; i++)
    if (strcmp(layouts[i].kind, h->kind_name) == 0) {
      st = cs_rd_check_layout(r, "/", h->kind_name, &h->root, layouts[i].first, layouts[i].last);
      break;
    }
  return st;
}

enum cs_status cs_read_header(const char *path, struct cs_result_header *out)
{
  struct cs_rd r;
  enum cs_status st = cs_rd_begin(&r, path, CS_RESULT_UNKNOWN, NULL, out);
  cs_rd_close(&r);
  if (st != CS_OK)
    cs_result_header_free(out);
  return st;
}

/* ------------------------------------------------------------- whole file */

void cs_result_file_free(struct cs_result_file *f)
{
  if (!f)
    return;
  cs_result_header_free(&f->h);
  for (size_t i = 0; f->tables && i < f->ntables; i++)
    table_free(&f->tables[i]);
  free(f->tables);
  for (size_t i = 0; f->texts && i < f->ntexts; i++) {
    free(f->texts[i].path);
    cs_h5_strings_free(f->texts[i].v, f->texts[i].n);
  }
  free(f->texts);
  memset(f, 0, sizeof *f);
}

/* Adds the dataset (or group of columns) at path as a table or a text list. */
static enum cs_status add_object(struct cs_rd *r, struct cs_result_file *f, const char *path)
{
  int rank;
  size_t nrows, ncols;
  enum cs_status st = cs_h5_shape(r->f, path, &rank, &nrows, &ncols);
  if (st == CS_OK) {
    struct cs_result_table *g = realloc(f->tables, (f->ntables + 1) * sizeof *g);
    if (!g)
      return cs_rd_fail(r, CS_ERR_NOMEM, "out of memory");
    f->tables = g;
    st = cs_rd_table(r, path, 0, SIZE_MAX, 1, &g[f->ntables]);
    if (st == CS_OK)
      f->ntables++;
    return st;
  }
  if (st != CS_ERR_UNSUPPORTED)
    return cs_rd_fail_h5(r, st, path);
  /* not numeric: a string dataset, or nothing this reader knows */
  char keep[512];
  snprintf(keep, sizeof keep, "%s", cs_errmsg());
  char **v = NULL;
  size_t n = 0;
  if (cs_h5_read_strings(r->f, path, NULL, &v, &n) != CS_OK)
    return cs_rd_fail(r, CS_ERR_PARSE, "'%s': %s", path, keep);
  if ((st = take_text(r, v, n, path)) != CS_OK) {
    cs_h5_strings_free(v, n);
    return st;
  }
  struct cs_result_texts *t = realloc(f->texts, (f->ntexts + 1) * sizeof *t);
  char *p = dup(path);
  if (!t || !p) {
    if (t)
      f->texts = t;
    free(p);
    cs_h5_strings_free(v, n);
    return cs_rd_fail(r, CS_ERR_NOMEM, "out of memory");
  }
  f->texts = t;
  t[f->ntexts++] = (struct cs_result_texts){.path = p, .n = n, .v = v};
  return CS_OK;
}

/* Walks group (hard links only): groups with a `columns` attribute are tables. */
static enum cs_status walk(struct cs_rd *r, struct cs_result_file *f, const char *group, int depth)
{
  char **names = NULL;
  int *kinds = NULL;
  size_t n = 0;
  if (depth > MAX_DEPTH)
    return cs_rd_fail(r, CS_ERR_RANGE, "'%s': more than %d levels of groups", group, MAX_DEPTH);
  enum cs_status st = cs_h5_list(r->f, group, MAX_OBJECTS, &names, &kinds, &n);
  if (st != CS_OK)
    return cs_rd_fail_h5(r, st, group);
  for (size_t i = 0; i < n && st == CS_OK; i++) {
    char path[1024];
    if (snprintf(path, sizeof path, "%s/%s", strcmp(group, "/") ? group : "", names[i]) >=
        (int)sizeof path) {
      st = cs_rd_fail(r, CS_ERR_RANGE, "'%s': a path too long below it", group);
      break;
    }
    if (++r->objects > MAX_OBJECTS) {
      st = cs_rd_fail(r, CS_ERR_RANGE, "more than %d objects", MAX_OBJECTS);
      break;
    }
    if (kinds[i] == 2) {
      st = add_object(r, f, path);
    } else if (kinds[i] == 1) {
      char **cols = NULL;
      size_t nc = 0;
      if (cs_h5_read_strings(r->f, path, "columns", &cols, &nc) == CS_OK)
        st = add_object(r, f, path);
      else
        st = walk(r, f, path, depth + 1);
      cs_h5_strings_free(cols, nc);
    } /* links of other kinds (soft, external) are not followed */
  }
  cs_h5_strings_free(names, n);
  free(kinds);
  return st;
}

/* Every table with an integer companion gets its columns, and the
 * companion leaves the list: the tables read as the model's rows. */
static enum cs_status merge_companions(struct cs_rd *r, struct cs_result_file *f)
{
  const int strict = cs_rd_rows_complete(&f->h);
  for (size_t i = 0; i < f->ntables; i++) {
    char cpath[1100];
    if (cs_h5_companion_path(f->tables[i].path, cpath, sizeof cpath) != CS_OK)
      continue;
    size_t j = 0;
    while (j < f->ntables && strcmp(f->tables[j].path, cpath) != 0)
      j++;
    if (j == f->ntables || j == i)
      continue;
    enum cs_status st = append_columns(r, &f->tables[i], &f->tables[j], strict);
    if (st != CS_OK)
      return st;
    table_free(&f->tables[j]);
    memmove(f->tables + j, f->tables + j + 1, (f->ntables - j - 1) * sizeof *f->tables);
    f->ntables--;
    if (j < i) /* the table merged into moved down */
      i--;
  }
  return CS_OK;
}

enum cs_status cs_rd_whole(const char *path, enum cs_result_kind wanted,
                           const struct cs_rd_layout *layouts, struct cs_result_file *out)
{
  struct cs_rd r;
  memset(out, 0, sizeof *out);
  enum cs_status st = cs_rd_begin(&r, path, wanted, layouts, &out->h);
  if (st == CS_OK)
    st = walk(&r, out, "/", 0);
  if (st == CS_OK)
    st = merge_companions(&r, out);
  cs_rd_close(&r);
  if (st != CS_OK)
    cs_result_file_free(out);
  return st;
}

const struct cs_result_table *cs_result_table_at(const struct cs_result_file *f, const char *path)
{
  for (size_t i = 0; f && path && i < f->ntables; i++)
    if (strcmp(f->tables[i].path, path) == 0)
      return &f->tables[i];
  return NULL;
}

const struct cs_result_texts *cs_result_texts_at(const struct cs_result_file *f, const char *path)
{
  for (size_t i = 0; f && path && i < f->ntexts; i++)
    if (strcmp(f->texts[i].path, path) == 0)
      return &f->texts[i];
  return NULL;
}
