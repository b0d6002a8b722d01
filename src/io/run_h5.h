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

#include <stdint.h>

#include "io/config.h"
#include "io/h5.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* Writing many objects with only the first failure kept: every call after a
 * failure does nothing, st and err tell what went wrong first. */
struct cs_writer {
  struct cs_h5 *f;
  enum cs_status st; /* first failure, CS_OK so far */
  char err[512];     /* its message */
};

/* ------------------------------------------------------ integer outputs
 *
 * Rows of a model's outputs (t, the states, the derived outputs in the
 * model's order, as integrate/record.h makes them; a sweep's section rows
 * start with the parameter values) end with the model's integer outputs
 * (models/model.h: stick, vcase, ...). A result file keeps the real columns
 * of such rows in a 2-D table of doubles and the integer outputs in its
 * companion (cs_h5_companion_path: /trajectory_codes, section/codes, ...): a
 * 2-D int32 table of the same rows in the same order, one column per integer
 * output, with names, units, doc and missing_value = CS_CODES_MISSING where
 * a row has no value (the NaN rows after a failed run). Integers stay
 * integers for every reader (h5py, HDF5.jl, MATLAB get an integer array),
 * and the table of doubles holds real numbers only. A table of differences
 * between two runs holds differences of codes, of which -1 is one: its
 * missing value is CS_CODES_DIFF_MISSING. */
#define CS_CODES_MISSING (-1)
#define CS_CODES_DIFF_MISSING (-2147483647 - 1) /* INT32_MIN */

#ifdef __cplusplus
}
#endif

#endif
