/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error_private.h"
#include "io/run_h5.h"
#include "io/run_h5_private.h"

const char *cs_run_time_unit(const struct cs_model *m)
{
  return m->time_unit_si ? "s" : "1";
}

enum cs_status cs_run_h5_write_record(struct cs_h5 *f, const char *path, size_t n,
                                      const struct cs_run_field *fl)
{
  const char **names = calloc(n, sizeof *names), **units = calloc(n, sizeof *units);
  double *values = calloc(n, sizeof *values);
  struct cs_h5_column *cols = calloc(n, sizeof *cols);
  enum cs_status st = CS_ERR_NOMEM;
  if (names && units && values && cols) {
    int integers = 0;
    for (size_t i = 0; i < n; i++) {
      names[i] = fl[i].name, units[i] = fl[i].unit, values[i] = fl[i].value;
      cols[i] = (struct cs_h5_column){.name = fl[i].name,
                                      .type = fl[i].integer ? CS_H5_INT64 : CS_H5_DOUBLE,
                                      .unit = fl[i].unit,
                                      .doc = fl[i].doc};
      integers |= fl[i].integer;
    }
    st = integers ? cs_h5_write_columns(f, path, n, cols, 1, values, NULL)
                  : cs_h5_write_table(f, path, 1, n, values, names, units);
    for (size_t i = 0; i < n && st == CS_OK; i++)
      st = fl[i].integer ? cs_h5_attr_write_int(f, path, fl[i].name, (long long)fl[i].value)
                         : cs_h5_attr_write_double(f, path, fl[i].name, fl[i].value, fl[i].unit);
  }
  free(names), free(units), free(values), free(cols);
  return st;
}

enum cs_status cs_run_h5_write_header(struct cs_h5 *f, const char *kind,
                                      const struct cs_config *cfg, const char *const *sets,
                                      size_t n_set, int argc, char *const *argv)
{
  const struct cs_model *m = cfg->model;
  const char *tu = cs_run_time_unit(m);
  enum cs_status st = cs_h5_write_provenance(f, argc, argv);
  const char *strs[][2] = {{"kind", kind},
                           {"model", m->name},
                           {"model_title", m->title},
                           {"model_reference", m->reference},
                           {"time_unit", tu},
                           {"params_file", cfg->path},
                           {"params_name", cfg->name},
                           {"params_text", cfg->text ? cfg->text : ""},
                           {"status", "running"},
                           {"message", ""}};
  for (size_t i = 0; i < sizeof strs / sizeof *strs && st == CS_OK; i++)
    st = cs_h5_attr_write_string(f, "/", strs[i][0], strs[i][1]);
  for (size_t i = 0; i < m->n_choice && st == CS_OK; i++)
    st = cs_h5_attr_write_string(f, "/", m->choice[i].name,
                                 cs_model_get_choice(m, cfg->params, (int)i));
  size_t len = 1;
  for (size_t i = 0; i < n_set; i++)
    len += strlen(sets[i]) + 1;
  char *joined = calloc(len, 1);
  if (!joined)
    return CS_FAIL(CS_ERR_NOMEM);
  for (size_t i = 0; i < n_set; i++)
    strcat(strcat(joined, sets[i]), i + 1 < n_set ? "\n" : "");
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "overrides", joined);
  free(joined);

  size_t n = m->n_param > m->n_state ? m->n_param : m->n_state;
  struct cs_run_field *fl = calloc(n > 6 ? n : 6, sizeof *fl);
  if (!fl)
    return CS_FAIL(CS_ERR_NOMEM);
  for (size_t i = 0; i < m->n_param; i++)
    fl[i] = (struct cs_run_field){m->param[i].name, m->param[i].unit,
                                  cs_model_get_param(m, cfg->params, (int)i), 0, NULL};
  if (st == CS_OK)
    st = cs_run_h5_write_record(f, "/params", m->n_param, fl);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(
        f, "/params", "doc",
        "one row: every parameter of the model as resolved for the run (the file's values, the "
        "model's defaults and the values derived from others, e.g. eta and eta_prime, the law's "
        "b and m), one column each; the same values as attributes, the choices (law) as string "
        "attributes");
  for (size_t i = 0; i < m->n_choice && st == CS_OK; i++)
    st = cs_h5_attr_write_string(f, "/params", m->choice[i].name,
                                 cs_model_get_choice(m, cfg->params, (int)i));
  for (size_t i = 0; i < m->n_state; i++)
    fl[i] = (struct cs_run_field){m->state[i].name, m->state[i].unit, cfg->y0[i], 0, NULL};
  if (st == CS_OK)
    st = cs_run_h5_write_record(f, "/initial", m->n_state, fl);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/initial", "doc",
                                 "one row: the initial state at t = 0, one column per state "
                                 "variable ([initial], the model's defaults for those not "
                                 "given); the same values as attributes");
  const struct cs_integrator_opts *o = &cfg->solver;
  long max_steps = o->max_steps > 0 ? o->max_steps : CS_INTEGRATOR_MAX_STEPS_DEFAULT;
  fl[0] = (struct cs_run_field){"rtol", "1", o->rtol, 0, "relative tolerance"};
  fl[1] = (struct cs_run_field){"atol", "unit of each state variable", o->atol, 0,
                                "absolute tolerance, in the unit of each state variable"};
  fl[2] = (struct cs_run_field){"max_steps", "1", (double)max_steps, 1,
                                "internal steps allowed between two output times"};
  fl[3] = (struct cs_run_field){"h_init", tu, o->h_init, 0, "first step (0: estimated)"};
  fl[4] = (struct cs_run_field){"h_max", tu, o->h_max, 0, "largest step (0: unbounded)"};
  long max_total =
      o->max_steps_total > 0 ? o->max_steps_total : CS_INTEGRATOR_MAX_STEPS_TOTAL_DEFAULT;
  fl[5] = (struct cs_run_field){"max_steps_total", "1", (double)max_total, 1,
                                "integrator steps allowed over the whole run"};
  if (st == CS_OK)
    st = cs_run_h5_write_record(f, "/solver", 6, fl);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(
        f, "/solver", "doc",
        "one row, a column per setting of the integrator: rtol (relative tolerance), atol "
        "(absolute tolerance, in the unit of each state variable), max_steps (internal steps "
        "allowed between two output times, an integer), h_init and h_max (first and largest "
        "step, 0: estimated, unbounded), max_steps_total (steps allowed over the run, an "
        "integer); also as attributes");
  free(fl);
  int dirk = o->stepper == CS_STEPPER_DIRK, erk6 = o->stepper == CS_STEPPER_ERK6,
      erk8 = o->stepper == CS_STEPPER_ERK8;
  const char *sol[][2] = {
      {"stepper", dirk   ? "dirk"
                  : erk6 ? "erk6"
                  : erk8 ? "erk8"
                         : "erk"},
      {"method", dirk   ? "ARKODE ARKStep, SDIRK 5(3)4 (Hairer-Wanner), Newton with dense LU"
                 : erk6 ? "ARKODE ERKStep, Verner 6(5) IIIXb (9 stages, FSAL)"
                 : erk8 ? "ARKODE ERKStep, Verner 8(7) (13 stages)"
                        : "ARKODE ERKStep, Dormand-Prince 5(4)"},
      {"jacobian", !dirk    ? "none (explicit)"
                   : m->jac ? "analytic"
                            : "difference quotients"},
      {"h_init_note", "0: estimated by ARKODE"},
      {"h_max_note", "0: unbounded"}};
  for (size_t i = 0; i < sizeof sol / sizeof *sol && st == CS_OK; i++)
    st = cs_h5_attr_write_string(f, "/solver", sol[i][0], sol[i][1]);
  return st;
}

void cs_switch_columns(const struct cs_model *m, struct cs_h5_column *cols, char (*docs)[160],
                       size_t n)
{
  cols[0] = CS_H5_COLUMN("t", CS_H5_DOUBLE, cs_run_time_unit(m), "the switch time");
  cols[1] =
      CS_H5_COLUMN("kind", CS_H5_INT32, "1", "which switch: index into the table's kind_names");
  cols[2] = CS_H5_COLUMN("mode", CS_H5_INT32, "1",
                         "the model's mode after the switch (belt, pendulum: 0 slip, 1 stick)");
  for (size_t i = 0; i < n; i++) {
    snprintf(docs[i], sizeof docs[i], "state variable %s just after the switch", m->state[i].name);
    cols[3 + i] = CS_H5_COLUMN(m->state[i].name, CS_H5_DOUBLE, m->state[i].unit, docs[i]);
  }
}

int cs_make_parent_dirs(const char *path)
{
  char *buf = strdup(path); /* any length: the system says what it takes */
  if (!buf)
    return ENOMEM;
  int rc = 0;
  for (char *p = buf + 1; *p && !rc; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
      rc = errno;
    *p = '/';
  }
  free(buf);
  return rc;
}

void cs_w_check(struct cs_writer *w, enum cs_status st)
{
  if (st != CS_OK && w->st == CS_OK) {
    w->st = st;
    snprintf(w->err, sizeof w->err, "%s", st == CS_ERR_NOMEM ? cs_strerror(st) : cs_errmsg());
  }
}

void cs_w_string(struct cs_writer *w, const char *obj, const char *name, const char *value)
{
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_attr_write_string(w->f, obj, name, value));
}

void cs_w_double(struct cs_writer *w, const char *obj, const char *name, double value,
                 const char *units)
{
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_attr_write_double(w->f, obj, name, value, units));
}

void cs_w_int(struct cs_writer *w, const char *obj, const char *name, long long value)
{
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_attr_write_int(w->f, obj, name, value));
}

void cs_w_table(struct cs_writer *w, const char *path, size_t rows, size_t cols, const double *data,
                const char *const *names, const char *const *units)
{
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_write_table(w->f, path, rows, cols, data, names, units));
}

void cs_w_record(struct cs_writer *w, const char *path, size_t n, const struct cs_run_field *fl)
{
  if (w->st == CS_OK)
    cs_w_check(w, cs_run_h5_write_record(w->f, path, n, fl));
}

void cs_w_columns(struct cs_writer *w, const char *path, size_t ncol,
                  const struct cs_h5_column *cols, size_t nrows, const double *rows,
                  const char *doc)
{
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_write_columns(w->f, path, ncol, cols, nrows, rows, doc));
}

/* ------------------------------------------------------ integer outputs */

enum cs_status cs_codes_create(struct cs_h5 *f, const char *path, size_t nc,
                               const char *const *names, const char *const *units, size_t rows,
                               int extendible, size_t reals, int difference, const char *doc,
                               struct cs_h5_dset **out)
{
  *out = NULL;
  if (nc == 0)
    return cs_error_set(CS_ERR_ARG, "'%s': a table of integer outputs needs one", path);
  /* the rows of a chunk of the table of doubles (cs_h5_table_create's and
   * cs_h5_dset_create's default): a 64 KiB chunk of int32 would hold 16
   * times as many, and a short run's file would carry it nearly empty */
  size_t chunk = reals && reals < 8192 ? 8192 / reals : 1;
  if (!extendible && rows > 0 && chunk > rows)
    chunk = rows;
  struct cs_h5_dset_spec s = {.type = CS_H5_INT32,
                              .rows = extendible ? 0 : rows,
                              .cols = nc,
                              /* a fixed dataset of no rows cannot be chunked */
                              .extendible = extendible || rows == 0,
                              .chunk_rows = chunk,
                              .fill = difference ? CS_CODES_DIFF_MISSING : CS_CODES_MISSING,
                              .missing = 1,
                              .names = names,
                              .units = units,
                              .doc = doc};
  return cs_h5_dset_create(f, path, &s, out);
}

enum cs_status cs_codes_split(const double *rows, size_t n, size_t cols, size_t nc, int difference,
                              double *reals, int32_t *codes, const char *path)
{
  const size_t nr = cols - nc;
  const double lo = difference ? (double)CS_CODES_DIFF_MISSING + 1 : 0.0;
  for (size_t i = 0; i < n; i++) {
    const double *r = rows + i * cols;
    for (size_t j = 0; j < nc; j++) {
      double v = r[nr + j];
      if (isnan(v)) {
        codes[i * nc + j] = difference ? CS_CODES_DIFF_MISSING : CS_CODES_MISSING;
        continue;
      }
      if (!(v == floor(v) && v >= lo && v <= 2147483647.0))
        return cs_error_set(CS_ERR_ARG,
                            "'%s': row %zu, column %zu: %.17g is not an integer output (an "
                            "integer%s)",
                            path, i, nr + j, v, difference ? "" : " >= 0");
      codes[i * nc + j] = (int32_t)v;
    }
    /* reals may be rows: row i moves down to i * nr <= i * cols, after its
     * codes were taken */
    memmove(reals + i * nr, r, nr * sizeof *reals);
  }
  return CS_OK;
}

void cs_w_split_table(struct cs_writer *w, const char *path, size_t rows, size_t cols, size_t nc,
                      const double *data, const char *const *names, const char *const *units,
                      int difference, const char *codes_doc)
{
  if (w->st != CS_OK)
    return;
  if (nc == 0 || nc >= cols) {
    if (nc)
      cs_w_check(w, cs_error_set(CS_ERR_ARG, "'%s': %zu integer columns of %zu", path, nc, cols));
    cs_w_table(w, path, rows, cols, data, names, units);
    return;
  }
  double *reals = malloc((rows ? rows : 1) * (cols - nc) * sizeof *reals);
  int32_t *codes = malloc((rows ? rows : 1) * nc * sizeof *codes);
  char cpath[512];
  if (!reals || !codes)
    cs_w_check(w, CS_ERR_NOMEM);
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_companion_path(path, cpath, sizeof cpath) == CS_OK
                      ? CS_OK
                      : cs_error_set(CS_ERR_ARG, "'%s': a path too long", path));
  if (w->st == CS_OK)
    cs_w_check(w, cs_codes_split(data, rows, cols, nc, difference, reals, codes, path));
  cs_w_table(w, path, rows, cols - nc, reals, names, units);
  struct cs_h5_dset *d = NULL;
  if (w->st == CS_OK)
    cs_w_check(w, cs_codes_create(w->f, cpath, nc, names + (cols - nc),
                                  units ? units + (cols - nc) : NULL, rows, 0, cols - nc,
                                  difference, codes_doc, &d));
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_dset_write(d, 0, rows, codes));
  if (d)
    cs_w_check(w, cs_h5_dset_close(d));
  free(reals), free(codes);
}
