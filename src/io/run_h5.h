/* SPDX-License-Identifier: MIT */
/* What every result file of a run from a parameter file starts with, so that
 * simulate, sweep and eps-study files read alike: root attributes (kind,
 * model, title, reference, time_unit, the model's choices, params_file,
 * params_name, params_text, overrides, status, message, provenance) and the
 * records /params, /initial and /solver (one-row tables with names and
 * units, the same values also as attributes with <name>_units, and a
 * string attribute doc saying what the record holds). */
#ifndef CS_RUN_H5_H
#define CS_RUN_H5_H

#include "io/config.h"
#include "io/h5.h"

/* Writes the header; returns the first failure (message in cs_errmsg()). */
enum cs_status cs_run_h5_write_header(struct cs_h5 *f, const char *kind,
                                      const struct cs_config *cfg, const char *const *sets,
                                      size_t n_set, int argc, char *const *argv);

/* The time unit of the model: "s" or "1". */
const char *cs_run_time_unit(const struct cs_model *m);

/* One-row record at path: a table of one row (names, units), every value
 * also as an attribute of the record (counts as integer attributes). A
 * record with an integer field is stored by columns (io/h5.h), the integers
 * as int64, and each field needs its doc; one of real numbers only is a
 * 2-D table of doubles. */
struct cs_run_field {
  const char *name;
  const char *unit;
  double value;
  int integer;     /* 1: a count or code, stored as an integer */
  const char *doc; /* what it is (records stored by columns) */
};
enum cs_status cs_run_h5_write_record(struct cs_h5 *f, const char *path, size_t n,
                                      const struct cs_run_field *fl);

/* Writing many objects with only the first failure kept: every call after a
 * failure does nothing, st and err tell what went wrong first. */
struct cs_writer {
  struct cs_h5 *f;
  enum cs_status st; /* first failure, CS_OK so far */
  char err[512];     /* its message */
};
void cs_w_check(struct cs_writer *w, enum cs_status st);
void cs_w_string(struct cs_writer *w, const char *obj, const char *name, const char *value);
void cs_w_double(struct cs_writer *w, const char *obj, const char *name, double value,
                 const char *units);
void cs_w_int(struct cs_writer *w, const char *obj, const char *name, long long value);
void cs_w_table(struct cs_writer *w, const char *path, size_t rows, size_t cols, const double *data,
                const char *const *names, const char *const *units);
void cs_w_record(struct cs_writer *w, const char *path, size_t n, const struct cs_run_field *fl);
void cs_w_columns(struct cs_writer *w, const char *path, size_t ncol,
                  const struct cs_h5_column *cols, size_t nrows, const double *rows,
                  const char *doc);

/* The columns of a table of mode switches (/switches of a trajectory,
 * /reference_switches of an eps study): t, kind and mode (int32 codes), then
 * the n state variables after the switch, whose docs go to docs[0 .. n-1]. */
void cs_switch_columns(const struct cs_model *m, struct cs_h5_column *cols, char (*docs)[160],
                       size_t n);

/* Creates the missing directories above a file path (mkdir -p of its
 * parent). 0 on success, else an errno value. */
int cs_make_parent_dirs(const char *path);

#endif
