/* SPDX-License-Identifier: MIT */
/* Tables stored by columns (io/h5.h): a group of typed 1-D columns and 2-D
 * blocks, written in one go or appended to by rows of doubles. */
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/h5_private.h"

#define begin cs_h5_i_begin
#define fail cs_h5_i_fail
#define fail_h5 cs_h5_i_fail_h5

#define DEFAULT_HELD 1024 /* rows an appended table keeps before writing them */

/* What is kept of a column after creation. */
struct col {
  char name[CS_H5_MAX_LABEL]; /* for messages */
  enum cs_h5_type type;
  size_t width; /* values per row (1 for a 1-D column) */
  size_t off;   /* its first value in a row of doubles */
  int missing;
  struct cs_h5_dset *d;
};

struct cs_h5_coltab {
  char path[256]; /* the group, for messages */
  size_t ncol;
  struct col *c;
  size_t rowlen;  /* doubles per row */
  size_t written; /* rows in the file */
  size_t held;    /* rows in buf, not yet written */
  size_t cap;     /* rows buf holds at most */
  double *buf;    /* held rows, row-major */
};

static size_t width_of(const struct cs_h5_column *c)
{
  return c->width ? c->width : 1;
}

/* Checks the columns' description before anything is created. */
static enum cs_status check_specs(const char *path, size_t ncol, const struct cs_h5_column *cols)
{
  if (ncol == 0)
    return fail(CS_ERR_ARG, "table '%s' needs at least one column", path);
  for (size_t i = 0; i < ncol; i++) {
    const struct cs_h5_column *c = &cols[i];
    if (!c->name || !c->name[0] || strchr(c->name, '/') || strlen(c->name) >= CS_H5_MAX_LABEL)
      return fail(CS_ERR_ARG, "table '%s': column %zu has no usable name", path, i);
    if (c->type != CS_H5_DOUBLE && c->type != CS_H5_INT64 && c->type != CS_H5_INT32)
      return fail(CS_ERR_ARG, "table '%s': column '%s' is not numeric", path, c->name);
    if (!c->unit || !c->doc || !c->doc[0] || (c->width && !c->names))
      return fail(CS_ERR_ARG, "table '%s': column '%s' lacks its unit, doc or names", path,
                  c->name);
    for (size_t j = 0; j < i; j++)
      if (strcmp(cols[j].name, c->name) == 0)
        return fail(CS_ERR_ARG, "table '%s': two columns named '%s'", path, c->name);
  }
  return CS_OK;
}

/* Creates the group's datasets (nrows fixed rows, or extendible from 0
 * with chunks of chunk_rows) and its attributes; fills t's columns. */
static enum cs_status create_columns(struct cs_h5 *f, const char *path, size_t ncol,
                                     const struct cs_h5_column *cols, size_t nrows, int extendible,
                                     size_t chunk_rows, const char *doc, struct cs_h5_coltab *t)
{
  enum cs_status st = check_specs(path, ncol, cols);
  if (st == CS_OK && (size_t)snprintf(t->path, sizeof t->path, "%s", path) >= sizeof t->path)
    st = fail(CS_ERR_ARG, "table path '%.64s...' is too long", path);
  if (st == CS_OK)
    st = cs_h5_remove(f, path);
  if (st != CS_OK)
    return st;
  t->ncol = ncol;
  if (!(t->c = calloc(ncol, sizeof *t->c)))
    return fail(CS_ERR_NOMEM, "out of memory");
  const char **names = calloc(ncol, sizeof *names);
  if (!names)
    return fail(CS_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < ncol && st == CS_OK; i++) {
    const struct cs_h5_column *c = &cols[i];
    struct col *k = &t->c[i];
    char sub[512];
    snprintf(k->name, sizeof k->name, "%s", c->name);
    k->type = c->type, k->width = width_of(c), k->off = t->rowlen, k->missing = c->missing;
    t->rowlen += k->width;
    names[i] = c->name;
    snprintf(sub, sizeof sub, "%s/%s", path, c->name);
    /* a block has one unit per column, like every table with names */
    const char **units = c->width ? calloc(c->width, sizeof *units) : NULL;
    if (c->width && !units) {
      st = fail(CS_ERR_NOMEM, "out of memory");
      break;
    }
    for (size_t j = 0; j < c->width; j++)
      units[j] = c->unit;
    struct cs_h5_dset_spec ds = {
        .type = c->type,
        .rows = extendible ? 0 : nrows,
        .cols = c->width,
        /* a fixed dataset of no rows cannot be chunked: one of no rows yet */
        .extendible = extendible || nrows == 0,
        .chunk_rows = extendible   ? chunk_rows
                      : nrows == 0 ? 1
                                   : 0,
        .fill = c->type == CS_H5_DOUBLE ? NAN
                : c->missing            ? -1
                                        : 0,
        .names = c->width ? c->names : NULL,
        .units = units,
        .unit = c->width ? NULL : c->unit,
        .doc = c->doc,
        .missing = c->missing && c->type != CS_H5_DOUBLE,
    };
    st = cs_h5_dset_create(f, sub, &ds, &k->d);
    free(units);
  }
  if (st == CS_OK)
    st = cs_h5_attr_write_strings(f, path, "columns", ncol, names);
  if (st == CS_OK && doc)
    st = cs_h5_attr_write_string(f, path, "doc", doc);
  free(names);
  return st;
}

/* Writes n rows of doubles (rowlen each) at row first, column by column in
 * its type. An integer column takes integers its type holds (NaN: -1 in a
 * column with missing values). */
static enum cs_status put_rows(struct cs_h5_coltab *t, size_t first, size_t n, const double *rows)
{
  size_t wmax = 0;
  for (size_t i = 0; i < t->ncol; i++)
    wmax = t->c[i].width > wmax ? t->c[i].width : wmax;
  if (n == 0)
    return CS_OK;
  if (n > SIZE_MAX / 8 / wmax)
    return fail(CS_ERR_RANGE, "table '%s': %zu rows are too many", t->path, n);
  void *buf = malloc(n * wmax * 8);
  if (!buf)
    return fail(CS_ERR_NOMEM, "out of memory");
  enum cs_status st = CS_OK;
  for (size_t i = 0; i < t->ncol && st == CS_OK; i++) {
    const struct col *k = &t->c[i];
    double lo = k->type == CS_H5_INT32 ? -2147483648.0 : -9223372036854775808.0;
    double hi = k->type == CS_H5_INT32 ? 2147483647.0 : 9223372036854774784.0;
    for (size_t r = 0; r < n && st == CS_OK; r++)
      for (size_t j = 0; j < k->width; j++) {
        double v = rows[r * t->rowlen + k->off + j];
        size_t e = r * k->width + j;
        if (k->type == CS_H5_DOUBLE) {
          ((double *)buf)[e] = v;
          continue;
        }
        if (isnan(v) && k->missing)
          v = -1;
        if (!(v == floor(v) && v >= lo && v <= hi)) {
          st = fail(CS_ERR_ARG,
                    "table '%s': column '%s', row %zu: %.17g is not an integer of "
                    "its type%s",
                    t->path, k->name, first + r, v, k->missing ? "" : " (nor a missing value)");
          break;
        }
        if (k->type == CS_H5_INT32)
          ((int32_t *)buf)[e] = (int32_t)v;
        else
          ((int64_t *)buf)[e] = (int64_t)v;
      }
    if (st == CS_OK)
      st = cs_h5_dset_write(k->d, first, n, buf);
  }
  free(buf);
  return st;
}

static enum cs_status close_columns(struct cs_h5_coltab *t)
{
  enum cs_status st = CS_OK;
  for (size_t i = 0; t->c && i < t->ncol; i++) {
    enum cs_status s = cs_h5_dset_close(t->c[i].d);
    if (st == CS_OK)
      st = s;
  }
  free(t->c);
  free(t->buf);
  t->c = NULL, t->buf = NULL;
  return st;
}

enum cs_status cs_h5_write_columns(struct cs_h5 *f, const char *path, size_t ncol,
                                   const struct cs_h5_column *cols, size_t nrows,
                                   const double *rows, const char *doc)
{
  begin();
  struct cs_h5_coltab t = {0};
  enum cs_status st = create_columns(f, path, ncol, cols, nrows, 0, 0, doc, &t);
  if (st == CS_OK && nrows > 0)
    st = put_rows(&t, 0, nrows, rows);
  enum cs_status cst = close_columns(&t);
  return st != CS_OK ? st : cst;
}

/* ------------------------------------------------------- appended tables */

enum cs_status cs_h5_table_create_columns(struct cs_h5 *f, const char *path, size_t ncol,
                                          const struct cs_h5_column *cols, size_t chunk_rows,
                                          const char *doc, struct cs_h5_table **out)
{
  begin();
  *out = NULL;
  struct cs_h5_table *t = calloc(1, sizeof *t);
  struct cs_h5_coltab *ct = calloc(1, sizeof *ct);
  if (!t || !ct) {
    free(t), free(ct);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  ct->cap = chunk_rows ? chunk_rows : DEFAULT_HELD;
  enum cs_status st = create_columns(f, path, ncol, cols, 0, 1, ct->cap, doc, ct);
  if (st == CS_OK && ct->rowlen > SIZE_MAX / sizeof(double) / ct->cap)
    st = fail(CS_ERR_RANGE, "table '%s': rows too long", path);
  if (st == CS_OK && !(ct->buf = malloc(ct->cap * ct->rowlen * sizeof *ct->buf)))
    st = fail(CS_ERR_NOMEM, "out of memory");
  if (st != CS_OK) {
    close_columns(ct);
    free(ct), free(t);
    return st;
  }
  t->f = f;
  t->dset = -1;
  t->cols = ct->rowlen;
  t->by_columns = ct;
  *out = t;
  return CS_OK;
}

/* Writes the rows held. */
static enum cs_status write_held(struct cs_h5_table *t)
{
  struct cs_h5_coltab *ct = t->by_columns;
  enum cs_status st = put_rows(ct, ct->written, ct->held, ct->buf);
  if (st == CS_OK)
    ct->written += ct->held, ct->held = 0;
  return st;
}

enum cs_status cs_h5_i_coltab_write(struct cs_h5_table *t, size_t first, size_t n,
                                    const double *rows)
{
  struct cs_h5_coltab *ct = t->by_columns;
  enum cs_status st = CS_OK;
  if (first != ct->written + ct->held) { /* not an append: what is held first, then these */
    if ((st = write_held(t)) == CS_OK)
      st = put_rows(ct, first, n, rows);
    if (st == CS_OK && first + n > ct->written)
      ct->written = first + n;
  } else {
    while (n > 0 && st == CS_OK) {
      size_t k = ct->cap - ct->held < n ? ct->cap - ct->held : n;
      memcpy(ct->buf + ct->held * ct->rowlen, rows, k * ct->rowlen * sizeof *rows);
      ct->held += k, rows += k * ct->rowlen, n -= k;
      if (ct->held == ct->cap)
        st = write_held(t);
    }
  }
  t->rows = ct->written + ct->held;
  return st;
}

enum cs_status cs_h5_i_coltab_flush(struct cs_h5_table *t)
{
  return write_held(t);
}

enum cs_status cs_h5_i_coltab_close(struct cs_h5_table *t)
{
  enum cs_status st = write_held(t);
  enum cs_status cst = close_columns(t->by_columns);
  free(t->by_columns);
  t->by_columns = NULL;
  return st != CS_OK ? st : cst;
}
