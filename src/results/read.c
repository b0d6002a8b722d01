/* SPDX-License-Identifier: MIT */
/* Result files read back into structs (results/read.h), on top of the
 * checked readers of io/h5.h: every object by its name, every size bounded. */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include "results/read.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "io/h5.h"

#define MAX_ATTRS 4096   /* scalar attributes of one object */
#define MAX_OBJECTS 4096 /* objects of a file read whole */
#define MAX_DEPTH 16     /* group levels of a file read whole */

/* One reading: the open file, what may still be read. */
struct rd {
  struct cs_h5 *f;
  const char *path;
  size_t budget; /* numbers that may still be read (CS_H5_MAX_ELEMENTS per file) */
  size_t text;   /* bytes of text that may still be kept (CS_H5_MAX_TEXT per file) */
  size_t objects;
};

static enum cs_status failf(struct rd *r, enum cs_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Keeps "<file>: <text>" as this thread's last error (cs_errmsg), and
 * returns st. Formatted into a buffer of its own first: an argument may be
 * the error channel's text itself. */
static enum cs_status failf(struct rd *r, enum cs_status st, const char *fmt, ...)
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
static enum cs_status fail_h5(struct rd *r, enum cs_status st, const char *obj)
{
  const char *why = cs_errmsg();
  if (st == CS_ERR_NOT_FOUND)
    return failf(r, CS_ERR_PARSE, "no object '%s' (a required part of the file)", obj);
  if (st == CS_ERR_UNSUPPORTED || st == CS_ERR_NOT_FOUND || st == CS_ERR_ARG)
    st = CS_ERR_PARSE;
  return failf(r, st, "'%s': %s", obj, why[0] ? why : cs_strerror(st));
}

/* Counts n strings against the file's text bound (one string may be
 * referenced many times by a hostile file: each reference counts). */
static enum cs_status take_text(struct rd *r, char *const *v, size_t n, const char *obj)
{
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(v[i]) + 1;
    if (len > r->text)
      return failf(r, CS_ERR_RANGE, "'%s': more than %zu bytes of text in the file", obj,
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

static void attrs_free(struct cs_result_attrs *a)
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
static enum cs_status read_attrs(struct rd *r, const char *obj, struct cs_result_attrs *out)
{
  char **names = NULL;
  size_t n = 0;
  enum cs_status st = cs_h5_attr_names(r->f, obj, MAX_ATTRS, &names, &n);
  if (st != CS_OK)
    return fail_h5(r, st, obj);
  out->v = calloc(n ? n : 1, sizeof *out->v);
  if (!out->v) {
    cs_h5_strings_free(names, n);
    return failf(r, CS_ERR_NOMEM, "'%s': out of memory", obj);
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
  attrs_free(&t->attrs);
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
static enum cs_status read_table(struct rd *r, const char *path, size_t first, size_t count,
                                 int required, struct cs_result_table *t)
{
  int rank;
  size_t nrows, ncols;
  memset(t, 0, sizeof *t);
  if (!required && !cs_h5_exists(r->f, path))
    return CS_ERR_NOT_FOUND;
  enum cs_status st = cs_h5_shape(r->f, path, &rank, &nrows, &ncols);
  if (st != CS_OK)
    return fail_h5(r, st, path);
  size_t rows = first > nrows ? 0 : count > nrows - first ? nrows - first : count;
  if (ncols == 0 || rows > r->budget / ncols)
    return failf(r, CS_ERR_RANGE, "'%s': %zu x %zu numbers (accepted: at most %zu per file)", path,
                 rows, ncols, r->budget);
  struct cs_h5_data d;
  st = cs_h5_read_rows(r->f, path, first, rows, &d); /* a table being written may grow */
  if (st ==
      CS_ERR_RANGE) /* within the bounds checked above: columns of unequal rows, a long name */
    st = CS_ERR_PARSE;
  if (st != CS_OK)
    return fail_h5(r, st, path);
  if (d.ncols != ncols || d.nrows > rows) { /* the shape changed under us */
    cs_h5_data_free(&d);
    return failf(r, CS_ERR_PARSE, "'%s': the shape changed while it was read", path);
  }
  r->budget -= d.nrows * d.ncols;
  t->nrows = d.nrows, t->ncols = d.ncols;
  t->data = d.data, t->names = d.names, t->units = d.units;
  if (!(t->path = dup(path))) {
    cs_h5_data_free(&d);
    memset(t, 0, sizeof *t);
    return failf(r, CS_ERR_NOMEM, "out of memory");
  }
  st = read_attrs(r, path, &t->attrs);
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
static enum cs_status append_columns(struct rd *r, struct cs_result_table *t,
                                     const struct cs_result_table *c, int strict)
{
  if (c->nrows != t->nrows && strict)
    return failf(r, CS_ERR_PARSE, "'%s': %zu rows for the %zu rows of '%s'", c->path, c->nrows,
                 t->nrows, t->path);
  size_t rows = c->nrows < t->nrows ? c->nrows : t->nrows, nc = t->ncols + c->ncols;
  for (size_t j = 0; j < c->ncols; j++)
    if (cs_result_column(t, c->names[j]) >= 0)
      return failf(r, CS_ERR_PARSE, "'%s': column '%s' is also one of '%s'", c->path, c->names[j],
                   t->path);
  double *data = malloc((rows ? rows : 1) * nc * sizeof *data);
  char **names = malloc(nc * sizeof *names), **units = malloc(nc * sizeof *units);
  if (!data || !names || !units) {
    free(data), free(names), free(units);
    return failf(r, CS_ERR_NOMEM, "out of memory");
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
  enum cs_status st = k < nc ? failf(r, CS_ERR_NOMEM, "out of memory") : CS_OK;
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
static int rows_complete(const struct cs_result_header *h)
{
  if (h->kind == CS_RESULT_SWEEP)
    return h->status && strcmp(h->status, "complete") == 0;
  if (h->kind == CS_RESULT_TRAJECTORY)
    return !h->status || strcmp(h->status, "running") != 0;
  return 1;
}

/* Reads the companion of the table t (rows first .. first + t->nrows - 1,
 * read from table) and appends its columns; nothing when there is none. */
static enum cs_status read_companion(struct rd *r, const char *table, size_t first, int strict,
                                     struct cs_result_table *t)
{
  char cpath[1100];
  if (cs_h5_companion_path(table, cpath, sizeof cpath) != CS_OK || !cs_h5_exists(r->f, cpath))
    return CS_OK;
  struct cs_result_table c;
  enum cs_status st = read_table(r, cpath, first, t->nrows, 1, &c);
  if (st == CS_OK)
    st = append_columns(r, t, &c, strict);
  table_free(&c);
  return st;
}

/* The string array attribute attr of obj (or the string dataset obj): absent
 * is no error (*n = 0), a damaged one is. */
static enum cs_status read_strs(struct rd *r, const char *obj, const char *attr, char ***v,
                                size_t *n)
{
  *v = NULL, *n = 0;
  if (!cs_h5_exists(r->f, obj))
    return CS_OK;
  enum cs_status st = cs_h5_read_strings(r->f, obj, attr, v, n);
  if (st == CS_ERR_NOT_FOUND && attr)
    return CS_OK;
  if (st != CS_OK)
    return failf(r, st == CS_ERR_UNSUPPORTED ? CS_ERR_PARSE : st, "'%s'%s%s: %s", obj,
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
static enum cs_status open_file(struct rd *r, const char *path)
{
  *r = (struct rd){.path = path, .budget = CS_H5_MAX_ELEMENTS, .text = CS_H5_MAX_TEXT};
  if (!path)
    return failf(r, CS_ERR_ARG, "no path");
  enum cs_status st = cs_h5_open(path, 0, &r->f);
  if (st == CS_ERR_NOT_FOUND)
    return failf(r, st, "no such file");
  if (st != CS_OK)
    return failf(r, st == CS_ERR_IO ? st : CS_ERR_HDF5, "not an HDF5 file, or a damaged one (%s)",
                 cs_errmsg());
  return CS_OK;
}

static void close_file(struct rd *r)
{
  cs_h5_close(r->f);
  r->f = NULL;
}

static enum cs_status read_kind(struct rd *r, char **kind)
{
  enum cs_status st = cs_h5_attr_read_string(r->f, "/", "kind", kind);
  if (st == CS_ERR_NOT_FOUND)
    return failf(r, CS_ERR_PARSE, "no root attribute 'kind': not a contensou result file");
  if (st != CS_OK)
    return fail_h5(r, st, "/");
  return CS_OK;
}

enum cs_status cs_result_kind(const char *path, enum cs_result_kind *kind)
{
  struct rd r;
  char *name = NULL;
  *kind = CS_RESULT_UNKNOWN;
  enum cs_status st = open_file(&r, path);
  if (st == CS_OK && (st = read_kind(&r, &name)) == CS_OK)
    *kind = kind_of(name);
  free(name);
  close_file(&r);
  return st;
}

enum cs_status cs_result_verify_values(const char *path, int *sealed, size_t *items)
{
  struct rd r;
  *sealed = 0;
  *items = 0;
  enum cs_status st = open_file(&r, path);
  if (st == CS_OK && (st = cs_h5_verify_seal(r.f, sealed, items)) != CS_OK)
    st = failf(&r, st, "%s", cs_errmsg());
  close_file(&r);
  return st;
}

/* ---------------------------------------------------------------- header */

void cs_result_header_free(struct cs_result_header *h)
{
  if (!h)
    return;
  free(h->file), free(h->kind_name), free(h->model), free(h->time_unit);
  free(h->status), free(h->message);
  attrs_free(&h->root);
  table_free(&h->params), table_free(&h->initial), table_free(&h->solver);
  memset(h, 0, sizeof *h);
}

static enum cs_status read_header(struct rd *r, struct cs_result_header *h)
{
  memset(h, 0, sizeof *h);
  enum cs_status st = read_kind(r, &h->kind_name);
  if (st != CS_OK)
    return st;
  h->kind = kind_of(h->kind_name);
  if (!(h->file = dup(r->path)))
    return failf(r, CS_ERR_NOMEM, "out of memory");
  if ((st = read_attrs(r, "/", &h->root)) != CS_OK)
    return st;
  const char *names[] = {"model", "time_unit", "status", "message"};
  char **fields[] = {&h->model, &h->time_unit, &h->status, &h->message};
  for (size_t i = 0; i < 4; i++) {
    const char *v = cs_result_attr_text(&h->root, names[i]);
    if (v && !(*fields[i] = dup(v)))
      return failf(r, CS_ERR_NOMEM, "out of memory");
  }
  const char *recs[] = {"/params", "/initial", "/solver"};
  struct cs_result_table *tabs[] = {&h->params, &h->initial, &h->solver};
  for (size_t i = 0; i < 3; i++) {
    st = read_table(r, recs[i], 0, SIZE_MAX, 0, tabs[i]);
    if (st != CS_OK && st != CS_ERR_NOT_FOUND)
      return st;
  }
  return CS_OK;
}

/* Opens path and reads its header; wanted: the kind it must be (UNKNOWN: any). */
static enum cs_status begin_read(struct rd *r, const char *path, enum cs_result_kind wanted,
                                 struct cs_result_header *h)
{
  memset(h, 0, sizeof *h);
  enum cs_status st = open_file(r, path);
  if (st == CS_OK)
    st = read_header(r, h);
  if (st == CS_OK && wanted != CS_RESULT_UNKNOWN && h->kind != wanted)
    st = failf(r, CS_ERR_PARSE, "a file of kind '%s', not %s", h->kind_name,
               cs_result_kind_name(wanted));
  return st;
}

enum cs_status cs_read_header(const char *path, struct cs_result_header *out)
{
  struct rd r;
  enum cs_status st = begin_read(&r, path, CS_RESULT_UNKNOWN, out);
  close_file(&r);
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
static enum cs_status add_object(struct rd *r, struct cs_result_file *f, const char *path)
{
  int rank;
  size_t nrows, ncols;
  enum cs_status st = cs_h5_shape(r->f, path, &rank, &nrows, &ncols);
  if (st == CS_OK) {
    struct cs_result_table *g = realloc(f->tables, (f->ntables + 1) * sizeof *g);
    if (!g)
      return failf(r, CS_ERR_NOMEM, "out of memory");
    f->tables = g;
    st = read_table(r, path, 0, SIZE_MAX, 1, &g[f->ntables]);
    if (st == CS_OK)
      f->ntables++;
    return st;
  }
  if (st != CS_ERR_UNSUPPORTED)
    return fail_h5(r, st, path);
  /* not numeric: a string dataset, or nothing this reader knows */
  char keep[512];
  snprintf(keep, sizeof keep, "%s", cs_errmsg());
  char **v = NULL;
  size_t n = 0;
  if (cs_h5_read_strings(r->f, path, NULL, &v, &n) != CS_OK)
    return failf(r, CS_ERR_PARSE, "'%s': %s", path, keep);
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
    return failf(r, CS_ERR_NOMEM, "out of memory");
  }
  f->texts = t;
  t[f->ntexts++] = (struct cs_result_texts){.path = p, .n = n, .v = v};
  return CS_OK;
}

/* Walks group (hard links only): groups with a `columns` attribute are tables. */
static enum cs_status walk(struct rd *r, struct cs_result_file *f, const char *group, int depth)
{
  char **names = NULL;
  int *kinds = NULL;
  size_t n = 0;
  if (depth > MAX_DEPTH)
    return failf(r, CS_ERR_RANGE, "'%s': more than %d levels of groups", group, MAX_DEPTH);
  enum cs_status st = cs_h5_list(r->f, group, MAX_OBJECTS, &names, &kinds, &n);
  if (st != CS_OK)
    return fail_h5(r, st, group);
  for (size_t i = 0; i < n && st == CS_OK; i++) {
    char path[1024];
    if (snprintf(path, sizeof path, "%s/%s", strcmp(group, "/") ? group : "", names[i]) >=
        (int)sizeof path) {
      st = failf(r, CS_ERR_RANGE, "'%s': a path too long below it", group);
      break;
    }
    if (++r->objects > MAX_OBJECTS) {
      st = failf(r, CS_ERR_RANGE, "more than %d objects", MAX_OBJECTS);
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
static enum cs_status merge_companions(struct rd *r, struct cs_result_file *f)
{
  const int strict = rows_complete(&f->h);
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

static enum cs_status read_whole(const char *path, enum cs_result_kind wanted,
                                 struct cs_result_file *out)
{
  struct rd r;
  memset(out, 0, sizeof *out);
  enum cs_status st = begin_read(&r, path, wanted, &out->h);
  if (st == CS_OK)
    st = walk(&r, out, "/", 0);
  if (st == CS_OK)
    st = merge_companions(&r, out);
  close_file(&r);
  if (st != CS_OK)
    cs_result_file_free(out);
  return st;
}

enum cs_status cs_read_result(const char *path, struct cs_result_file *out)
{
  return read_whole(path, CS_RESULT_UNKNOWN, out);
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

/* ------------------------------------------------------------ trajectory */

void cs_trajectory_file_free(struct cs_trajectory_file *t)
{
  if (!t)
    return;
  cs_result_header_free(&t->h);
  table_free(&t->table), table_free(&t->switches), table_free(&t->stats);
  memset(t, 0, sizeof *t);
}

enum cs_status cs_read_trajectory(const char *path, size_t first, size_t count,
                                  struct cs_trajectory_file *out)
{
  struct rd r;
  int rank;
  size_t ncols;
  memset(out, 0, sizeof *out);
  enum cs_status st = begin_read(&r, path, CS_RESULT_TRAJECTORY, &out->h);
  if (st == CS_OK &&
      (st = cs_h5_shape(r.f, "/trajectory", &rank, &out->rows_total, &ncols)) != CS_OK)
    st = fail_h5(&r, st, "/trajectory");
  if (st == CS_OK && rank != 2)
    st = failf(&r, CS_ERR_PARSE, "'/trajectory': a dataset of rank %d, expected a table", rank);
  /* the rows of the integer outputs too: a killed run may have written
   * the real columns of a block and not yet its codes */
  const int strict = st == CS_OK && rows_complete(&out->h);
  int crank;
  size_t crows, cncols;
  if (st == CS_OK && cs_h5_exists(r.f, "/trajectory_codes")) {
    if ((st = cs_h5_shape(r.f, "/trajectory_codes", &crank, &crows, &cncols)) != CS_OK)
      st = fail_h5(&r, st, "/trajectory_codes");
    else if (strict && crows != out->rows_total)
      st = failf(&r, CS_ERR_PARSE, "'/trajectory_codes': %zu rows for the %zu of '/trajectory'",
                 crows, out->rows_total);
    else if (crows < out->rows_total)
      out->rows_total = crows;
  }
  if (st == CS_OK && first > out->rows_total)
    st = failf(&r, CS_ERR_RANGE, "'/trajectory': row %zu asked, %zu in the file", first,
               out->rows_total);
  if (st == CS_OK && count > out->rows_total - first)
    count = out->rows_total - first;
  out->first_row = first;
  if (st == CS_OK)
    st = read_table(&r, "/trajectory", first, count, 1, &out->table);
  if (st == CS_OK)
    st = read_companion(&r, "/trajectory", first, strict, &out->table);
  if (st == CS_OK &&
      (st = read_table(&r, "/switches", 0, SIZE_MAX, 0, &out->switches)) == CS_ERR_NOT_FOUND)
    st = CS_OK;
  if (st == CS_OK &&
      (st = read_table(&r, "/stats", 0, SIZE_MAX, 0, &out->stats)) == CS_ERR_NOT_FOUND)
    st = CS_OK;
  close_file(&r);
  if (st != CS_OK)
    cs_trajectory_file_free(out);
  return st;
}

/* ----------------------------------------------------------------- sweep */

static const char *const pass_names[2] = {"forward", "backward"};

void cs_sweep_file_free(struct cs_sweep_file *s)
{
  if (!s)
    return;
  cs_result_header_free(&s->h);
  attrs_free(&s->settings);
  table_free(&s->grid);
  for (int p = 0; p < 2; p++) {
    struct cs_sweep_pass *ps = &s->pass[p];
    table_free(&ps->points);
    cs_h5_strings_free(ps->class_names, ps->n_class_names);
    cs_h5_strings_free(ps->messages, ps->n_messages);
    table_free(&ps->section);
    free(ps->section_point);
    table_free(&ps->final_state), table_free(&ps->floquet_re), table_free(&ps->floquet_im);
    cs_h5_strings_free(ps->floquet_note, ps->n_floquet_note);
    table_free(&ps->spectrum), table_free(&ps->spectrum_error);
  }
  table_free(&s->equilibria);
  table_free(&s->bifurcations);
  cs_h5_strings_free(s->kind_names, s->n_kind_names);
  cs_h5_strings_free(s->bif_class_names, s->n_bif_class_names);
  memset(s, 0, sizeof *s);
}

/* The section rows of pass p with the grid index of each (checked). A file
 * being written may hold more values than indices for a moment: the rows
 * without an index are left out. */
static enum cs_status read_section(struct rd *r, struct cs_sweep_file *s, int p)
{
  struct cs_sweep_pass *ps = &s->pass[p];
  char vpath[64], ipath[64];
  snprintf(vpath, sizeof vpath, "/%s/section/values", pass_names[p]);
  snprintf(ipath, sizeof ipath, "/%s/section/index", pass_names[p]);
  enum cs_status st = read_table(r, vpath, 0, SIZE_MAX, 0, &ps->section);
  if (st == CS_ERR_NOT_FOUND)
    return CS_OK;
  if (st == CS_OK) /* the integer outputs, in section/codes */
    st = read_companion(r, vpath, 0, rows_complete(&s->h), &ps->section);
  if (st != CS_OK)
    return st;
  struct cs_result_table idx;
  if ((st = read_table(r, ipath, 0, SIZE_MAX, 1, &idx)) != CS_OK)
    return st;
  if (idx.ncols != 1)
    st = failf(r, CS_ERR_PARSE, "'%s': %zu columns, expected one", ipath, idx.ncols);
  if (st == CS_OK && idx.nrows < ps->section.nrows && s->h.status &&
      strcmp(s->h.status, "complete") == 0)
    st = failf(r, CS_ERR_PARSE, "'%s': %zu rows for %zu section rows", ipath, idx.nrows,
               ps->section.nrows);
  if (st == CS_OK && idx.nrows < ps->section.nrows)
    ps->section.nrows = idx.nrows;
  if (st == CS_OK && !(ps->section_point = malloc((ps->section.nrows + 1) * sizeof(size_t))))
    st = failf(r, CS_ERR_NOMEM, "out of memory");
  for (size_t i = 0; st == CS_OK && i < ps->section.nrows; i++) {
    double k = idx.data[i];
    if (!(k >= 0 && k < (double)s->npoints && k == floor(k)))
      st = failf(r, CS_ERR_PARSE, "'%s': row %zu names grid index %g (the grid has %zu points)",
                 ipath, i, k, s->npoints);
    else
      ps->section_point[i] = (size_t)k;
  }
  table_free(&idx);
  return st;
}

enum cs_status cs_read_sweep(const char *path, unsigned flags, struct cs_sweep_file *out)
{
  struct rd r;
  memset(out, 0, sizeof *out);
  enum cs_status st = begin_read(&r, path, CS_RESULT_SWEEP, &out->h);
  if (st == CS_OK && !cs_h5_exists(r.f, "/sweep"))
    st = failf(&r, CS_ERR_PARSE, "no group '/sweep'");
  if (st == CS_OK)
    st = read_attrs(&r, "/sweep", &out->settings);
  if (st == CS_OK) {
    out->parameter = cs_result_attr_text(&out->settings, "parameter");
    out->parameter_unit = cs_result_attr_text(&out->settings, "parameter_unit");
    out->parameter2 = cs_result_attr_text(&out->settings, "parameter2");
    out->parameter2_unit = cs_result_attr_text(&out->settings, "parameter2_unit");
    if (!out->parameter)
      st = failf(&r, CS_ERR_PARSE, "'/sweep': no attribute 'parameter'");
  }
  if (st == CS_OK)
    st = read_table(&r, "/sweep/grid", 0, SIZE_MAX, 1, &out->grid);
  if (st == CS_OK) {
    out->npoints = out->grid.nrows;
    if (cs_result_column(&out->grid, out->parameter) < 0 ||
        (out->parameter2 && cs_result_column(&out->grid, out->parameter2) < 0))
      st = failf(&r, CS_ERR_PARSE, "'/sweep/grid': no column of the swept parameter");
  }
  for (int p = 0; p < 2 && st == CS_OK; p++) {
    struct cs_sweep_pass *ps = &out->pass[p];
    char pts[64], msgs[64];
    snprintf(pts, sizeof pts, "/%s/points", pass_names[p]);
    snprintf(msgs, sizeof msgs, "/%s/messages", pass_names[p]);
    st = read_table(&r, pts, 0, SIZE_MAX, 0, &ps->points);
    if (st == CS_ERR_NOT_FOUND) {
      st = CS_OK;
      continue;
    }
    ps->present = st == CS_OK;
    if (st == CS_OK && ps->points.nrows != out->npoints)
      st = failf(&r, CS_ERR_PARSE, "'%s': %zu rows for %zu grid points", pts, ps->points.nrows,
                 out->npoints);
    if (st == CS_OK && cs_result_column(&ps->points, "class") < 0)
      st = failf(&r, CS_ERR_PARSE, "'%s': no column 'class'", pts);
    if (st == CS_OK)
      st = read_strs(&r, pts, "class_names", &ps->class_names, &ps->n_class_names);
    if (st == CS_OK)
      st = read_strs(&r, msgs, NULL, &ps->messages, &ps->n_messages);
    if (st == CS_OK && !(flags & CS_READ_NO_SECTIONS))
      st = read_section(&r, out, p);
    /* spectrum, spectrum_error: layout 6, lyapunov = spectrum only */
    const char *per_point[] = {"final_state", "floquet/re", "floquet/im", "spectrum",
                               "spectrum_error"};
    struct cs_result_table *tabs[] = {&ps->final_state, &ps->floquet_re, &ps->floquet_im,
                                      &ps->spectrum, &ps->spectrum_error};
    for (size_t i = 0; i < 5 && st == CS_OK; i++) {
      char obj[64];
      snprintf(obj, sizeof obj, "/%s/%s", pass_names[p], per_point[i]);
      if ((st = read_table(&r, obj, 0, SIZE_MAX, 0, tabs[i])) == CS_ERR_NOT_FOUND)
        st = CS_OK;
      else if (st == CS_OK && tabs[i]->nrows != out->npoints)
        st = failf(&r, CS_ERR_PARSE, "'%s': %zu rows for %zu grid points", obj, tabs[i]->nrows,
                   out->npoints);
    }
    if (st == CS_OK) {
      char obj[64];
      snprintf(obj, sizeof obj, "/%s/floquet/note", pass_names[p]);
      st = read_strs(&r, obj, NULL, &ps->floquet_note, &ps->n_floquet_note);
    }
  }
  if (st == CS_OK &&
      (st = read_table(&r, "/equilibria", 0, SIZE_MAX, 0, &out->equilibria)) == CS_ERR_NOT_FOUND)
    st = CS_OK;
  if (st == CS_OK) {
    st = read_table(&r, "/bifurcations", 0, SIZE_MAX, 0, &out->bifurcations);
    out->has_bifurcations = st == CS_OK;
    if (st == CS_ERR_NOT_FOUND)
      st = CS_OK;
  }
  if (st == CS_OK && out->has_bifurcations)
    st = read_strs(&r, "/bifurcations", "kind_names", &out->kind_names, &out->n_kind_names);
  if (st == CS_OK && out->has_bifurcations)
    st = read_strs(&r, "/bifurcations", "class_names", &out->bif_class_names,
                   &out->n_bif_class_names);
  close_file(&r);
  if (st != CS_OK)
    cs_sweep_file_free(out);
  return st;
}

/* ---------------------------------------------------------- friction fit */

void cs_fit_file_free(struct cs_fit_file *f)
{
  if (!f)
    return;
  cs_result_header_free(&f->h);
  table_free(&f->curves);
  memset(f, 0, sizeof *f);
}

enum cs_status cs_read_fit(const char *path, struct cs_fit_file *out)
{
  struct rd r;
  memset(out, 0, sizeof *out);
  enum cs_status st = begin_read(&r, path, CS_RESULT_FIT, &out->h);
  if (st == CS_OK) {
    const struct cs_result_attrs *a = &out->h.root;
    out->law = cs_result_attr_text(a, "law");
    out->contact = cs_result_attr_text(a, "contact");
    const char *names[] = {"b", "m", "rms", "max_error", "points", "iterations"};
    double *v[] = {&out->b, &out->m, &out->rms, &out->max_error, &out->points, &out->iterations};
    for (size_t i = 0; i < 6 && st == CS_OK; i++)
      if (!cs_result_attr_number(a, names[i], v[i], NULL))
        st = failf(&r, CS_ERR_PARSE, "'/': no numeric attribute '%s'", names[i]);
    if (st == CS_OK && !out->law)
      st = failf(&r, CS_ERR_PARSE, "'/': no attribute 'law'");
  }
  if (st == CS_OK &&
      (st = read_table(&r, "/fit/curves", 0, SIZE_MAX, 0, &out->curves)) == CS_ERR_NOT_FOUND)
    st = CS_OK;
  close_file(&r);
  if (st != CS_OK)
    cs_fit_file_free(out);
  return st;
}

/* ------------------------------------------- eps study, orbit, continuation */

enum cs_status cs_read_eps_study(const char *path, struct cs_eps_study_file *out)
{
  memset(out, 0, sizeof *out);
  enum cs_status st = read_whole(path, CS_RESULT_EPS_STUDY, &out->all);
  if (st != CS_OK)
    return st;
  const struct cs_result_file *a = &out->all;
  out->study = cs_result_attr_text(&a->h.root, "study");
  out->eps_unit = cs_result_attr_text(&a->h.root, "eps_unit");
  out->eps = cs_result_table_at(a, "/eps/values");
  out->reference = cs_result_table_at(a, "/reference");
  out->norms = cs_result_table_at(a, "/eps/norms");
  out->runs = cs_result_table_at(a, "/eps/runs");
  out->grid = cs_result_table_at(a, "/sweep_study/grid");
  out->classes = cs_result_table_at(a, "/sweep_study/classes");
  out->periods = cs_result_table_at(a, "/sweep_study/periods");
  out->summary = cs_result_table_at(a, "/sweep_study/summary");
  out->shifts = cs_result_table_at(a, "/sweep_study/shifts");
  out->section = cs_result_table_at(a, "/sweep_study/section");
  out->bifurcations = cs_result_table_at(a, "/sweep_study/bifurcations");
  if (!out->eps || out->eps->ncols != 1) {
    struct rd r = {.path = path};
    cs_eps_study_file_free(out);
    return failf(&r, CS_ERR_PARSE, "no dataset '/eps/values' of one column");
  }
  return CS_OK;
}

const struct cs_result_table *cs_eps_study_difference(const struct cs_eps_study_file *e, size_t k)
{
  char path[64];
  snprintf(path, sizeof path, "/eps/%zu/difference", k);
  return cs_result_table_at(&e->all, path);
}

void cs_eps_study_file_free(struct cs_eps_study_file *e)
{
  if (!e)
    return;
  cs_result_file_free(&e->all);
  memset(e, 0, sizeof *e);
}

enum cs_status cs_read_orbit(const char *path, struct cs_orbit_file *out)
{
  memset(out, 0, sizeof *out);
  enum cs_status st = read_whole(path, CS_RESULT_ORBIT, &out->all);
  if (st != CS_OK)
    return st;
  out->orbit = cs_result_table_at(&out->all, "/orbit");
  out->section_point = cs_result_table_at(&out->all, "/section_point");
  out->multipliers = cs_result_table_at(&out->all, "/multipliers");
  out->monodromy = cs_result_table_at(&out->all, "/monodromy");
  out->trajectory = cs_result_table_at(&out->all, "/trajectory");
  if (!out->orbit || out->orbit->nrows != 1 || cs_result_column(out->orbit, "period") < 0) {
    struct rd r = {.path = path};
    cs_orbit_file_free(out);
    return failf(&r, CS_ERR_PARSE, "no one-row record '/orbit' with a period");
  }
  return CS_OK;
}

void cs_orbit_file_free(struct cs_orbit_file *o)
{
  if (!o)
    return;
  cs_result_file_free(&o->all);
  memset(o, 0, sizeof *o);
}

enum cs_status cs_read_continuation(const char *path, struct cs_continuation_file *out)
{
  memset(out, 0, sizeof *out);
  enum cs_status st = read_whole(path, CS_RESULT_CONTINUATION, &out->all);
  if (st != CS_OK)
    return st;
  out->branch = cs_result_table_at(&out->all, "/branch");
  out->equilibria = cs_result_table_at(&out->all, "/equilibria");
  out->special = cs_result_table_at(&out->all, "/special");
  out->special_notes = cs_result_texts_at(&out->all, "/special_notes");
  if (!out->branch) {
    struct rd r = {.path = path};
    cs_continuation_file_free(out);
    return failf(&r, CS_ERR_PARSE, "no table '/branch'");
  }
  return CS_OK;
}

void cs_continuation_file_free(struct cs_continuation_file *c)
{
  if (!c)
    return;
  cs_result_file_free(&c->all);
  memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------ one sweep point */

void cs_sweep_point_file_free(struct cs_sweep_point_file *p)
{
  if (!p)
    return;
  free(p->model);
  for (int j = 0; j < 2; j++)
    free(p->param[j]);
  free(p->final_state);
  memset(p, 0, sizeof *p);
}

enum cs_status cs_read_sweep_point(const char *path, int pass, size_t index,
                                   struct cs_sweep_point_file *out)
{
  struct cs_sweep_file s;
  memset(out, 0, sizeof *out);
  out->pass = pass;
  out->index = index;
  out->cls = -1;
  out->t_final = NAN;
  enum cs_status st = cs_read_sweep(path, CS_READ_NO_SECTIONS, &s);
  if (st != CS_OK)
    return st;
  struct rd r = {.path = path};
  const struct cs_sweep_pass *ps = pass == 0 || pass == 1 ? &s.pass[pass] : NULL;
  out->npoints = s.npoints;
  if (!ps || !ps->present)
    st = failf(&r, CS_ERR_NOT_FOUND, "no %s pass", pass == 1 ? "backward" : "forward");
  else if (index >= s.npoints)
    st = failf(&r, CS_ERR_RANGE, "index %zu is not a grid index (accepted: 0 ... %zu)", index,
               s.npoints ? s.npoints - 1 : 0);
  else if (ps->final_state.nrows == 0 || ps->final_state.ncols == 0)
    st = failf(&r, CS_ERR_PARSE, "no /%s/final_state (a sweep file of layout 2 or later has it)",
               pass_names[pass]);
  const char *names[2] = {s.parameter, s.parameter2};
  for (size_t j = 0; st == CS_OK && j < 2 && names[j]; j++) {
    if (!(out->param[j] = dup(names[j])))
      st = failf(&r, CS_ERR_NOMEM, "out of memory");
    out->value[j] = cs_result_value(&s.grid, index, names[j]);
    out->nparam = j + 1;
  }
  if (st == CS_OK && s.h.model && !(out->model = dup(s.h.model)))
    st = failf(&r, CS_ERR_NOMEM, "out of memory");
  if (st == CS_OK) {
    out->n_state = ps->final_state.ncols;
    if (!(out->final_state = malloc(out->n_state * sizeof *out->final_state)))
      st = failf(&r, CS_ERR_NOMEM, "out of memory");
    else
      memcpy(out->final_state, ps->final_state.data + index * out->n_state,
             out->n_state * sizeof *out->final_state);
    double t = cs_result_value(&ps->points, index, "t_final");
    /* a file without the column started every point at t = 0 */
    out->t_final = cs_result_column(&ps->points, "t_final") < 0 ? 0.0 : t;
    double c = cs_result_value(&ps->points, index, "class");
    out->cls = c >= 0 && c < 1024 && c == floor(c) ? (int)c : -1;
  }
  cs_sweep_file_free(&s);
  if (st != CS_OK)
    cs_sweep_point_file_free(out);
  return st;
}
