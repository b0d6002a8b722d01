/* SPDX-License-Identifier: MIT */
/* What every result file of a run from a parameter file starts with, so that
 * simulate, sweep and eps-study files read alike: root attributes (kind,
 * model, title, reference, time_unit, the model's choices, params_file,
 * params_name, params_text, overrides, status, message, provenance) and the
 * records /params, /initial and /solver (one-row tables with names and
 * units, the same values also as attributes with <name>_units). */
#ifndef CS_RUN_H5_H
#define CS_RUN_H5_H

#include "io/config.h"
#include "io/h5.h"

/* Writes the header; returns the first failure (message in cs_h5_errmsg()). */
enum cs_status cs_run_h5_write_header(struct cs_h5 *f, const char *kind,
                                      const struct cs_config *cfg, const char *const *sets,
                                      size_t n_set, int argc, char *const *argv);

/* The time unit of the model: "s" or "1". */
const char *cs_run_time_unit(const struct cs_model *m);

/* One-row record at path (names, units, values; counts as integer attributes). */
struct cs_run_field {
  const char *name;
  const char *unit;
  double value;
  int integer;
};
enum cs_status cs_run_h5_write_record(struct cs_h5 *f, const char *path, size_t n,
                                      const struct cs_run_field *fl);

/* Creates the missing directories above a file path (mkdir -p of its
 * parent). 0 on success, else an errno value. */
int cs_make_parent_dirs(const char *path);

#endif
