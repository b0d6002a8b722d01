/* SPDX-License-Identifier: MIT */
/* Reading result files back, the part every kind shares: a file opened, its
 * kind and header, its attributes and tables, any file read whole
 * (cs_read_result). Each kind's own reader sits beside its writer and is
 * declared in the writer's header (io/trajectory_h5.h, io/fit_h5.h,
 * sweep/sweep_h5.h, study/eps_h5.h, analysis/orbit_h5.h); results/read.h
 * gathers them. Every kind of file contensou writes (trajectory,
 * sweep, eps-study, friction-fit, orbit, continuation) reads into structs, by
 * the names the file carries (root attribute `kind`, dataset paths, the
 * `names`/`units` attributes of tables, `<name>_units` companions of numeric
 * attributes), never by position. What the quantities mean: src/results/FORMAT.md
 * (every kind of file, "Reading from C") and the `doc` attributes of the file
 * itself.
 *
 * Ownership. Every reader fills a struct the caller provides (zeroed first,
 * also on failure) with memory it allocates; the matching cs_..._free frees
 * it (safe on a zeroed or half-filled struct, and twice). Strings are UTF-8,
 * NUL-terminated. Tables are row-major doubles: a table stored by columns
 * (codes and counts as int32 or int64 datasets, io/h5.h) reads as one table,
 * its integers converted (exact below 2^53), a 2-D block expanded into its
 * named columns, and the missing_value of an integer column (-1: not
 * computed) read as NaN; units are plain text ("rad/s", "1" for
 * dimensionless, "" when the file gives none). A table of a model's rows
 * (/trajectory, a sweep's section/values, an eps study's /reference and
 * differences) keeps the model's integer outputs (stick, vcase) in an int32
 * companion of the same rows (/trajectory_codes, section/codes, ...,
 * io/run_h5.h): the readers append its columns after the table's, so that
 * the table reads as the model's rows (t, the states, the derived outputs,
 * in the model's order), and do not list the companion on its own. In a
 * file still being written (a running trajectory, an unfinished sweep) the
 * table is cut to the rows both hold; in a complete one, a companion of
 * other rows is an error.
 *
 * Errors. The file is untrusted: every rank, size, count, string length and
 * code is checked before it is used, and nothing is allocated from a size the
 * file claims without a bound (CS_H5_MAX_ELEMENTS numbers per dataset and per
 * file, CS_H5_MAX_TEXT bytes of text per file, io/h5.h). Statuses:
 * CS_ERR_NOT_FOUND (no such file), CS_ERR_IO (unreadable), CS_ERR_HDF5 (not
 * an HDF5 file, or a damaged or truncated one: an object libhdf5 cannot read),
 * CS_ERR_PARSE (an object of the wrong kind, rank, size or type, a required
 * object missing, a file of another kind), CS_ERR_RANGE (more than the bounds
 * above), CS_ERR_UNSUPPORTED (a layout version this library does not read:
 * a file written by a newer contensou), CS_ERR_NOMEM.
 *
 * Layout versions. Every kind has its own layout version, the root
 * attribute layout_version (a file without it is layout 1), raised with
 * every change of that kind's layout; each reader reads the layouts from 1
 * to its own (the kind's header says which it is: CS_SWEEP_H5_LAYOUT, ...)
 * and refuses any other with a message naming both, e.g. "f.h5: sweep
 * layout version 7 is newer than this contensou reads (1-6)". On failure, cs_errmsg() holds one
 * line naming the file and the object. The readers never print. libhdf5's own reaction to some
 * damaged files is a crash or a hang: a program reading files it did not write should read in a
 * child process, as `contensou info` does.
 *
 * A sweep being written (the "<path>.partial" file in SWMR mode) is readable:
 * its points not yet computed have class 0 (pending), its bifurcations are
 * absent until the sweep completes. Set HDF5_USE_FILE_LOCKING=FALSE in the
 * environment to read a file another process holds open for writing.
 *
 * The library's HDF5 calls are not thread-safe (io/h5.h): read from one
 * thread at a time. */
#ifndef CS_IO_RESULT_H
#define CS_IO_RESULT_H

#include <stddef.h>

#include "core/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- building blocks */

/* One scalar attribute of an object: a string (text != NULL) or a number
 * (text == NULL) with the unit of its "<name>_units" companion (NULL when
 * there is none). Attributes that are neither (arrays) are not listed; an
 * array of one string or number reads as a scalar. */
struct cs_result_attr {
  char *name;
  char *text;
  double value;
  char *unit;
};

/* The scalar attributes of one object, in name order. */
struct cs_result_attrs {
  size_t n;
  struct cs_result_attr *v;
};

/* The attribute called name, or NULL. */
CS_API const struct cs_result_attr *cs_result_attr_find(const struct cs_result_attrs *a,
                                                        const char *name);
/* The string attribute called name, or NULL (absent, or a number). */
CS_API const char *cs_result_attr_text(const struct cs_result_attrs *a, const char *name);
/* 1 and *value (and *unit, when unit is not NULL: NULL if none) when the
 * numeric attribute name exists; else 0. */
CS_API int cs_result_attr_number(const struct cs_result_attrs *a, const char *name, double *value,
                                 const char **unit);

/* A table: a 2-D dataset (names/units attributes), a group of equal-length
 * columns (attribute `columns`: sweep points, bifurcations, /stats, /eps/runs,
 * /branch, every table with codes or counts), or a 1-D dataset (one column
 * named after the last component of its path). */
struct cs_result_table {
  char *path;                   /* where it is in the file ("/forward/points") */
  size_t nrows;                 /* rows read */
  size_t ncols;                 /* columns */
  double *data;                 /* nrows * ncols, row-major */
  char **names;                 /* ncols column names */
  char **units;                 /* ncols column units ("" when not given) */
  struct cs_result_attrs attrs; /* the scalar attributes of the dataset or group */
};

/* Index of the column called name, or -1. */
CS_API long cs_result_column(const struct cs_result_table *t, const char *name);
/* Frees what t holds and zeroes it: for a table taken out of the struct a
 * reader filled (the others go with that struct's cs_..._free). */
CS_API void cs_result_table_free(struct cs_result_table *t);
/* The value at (row, column name), or NaN when either is missing. */
CS_API double cs_result_value(const struct cs_result_table *t, size_t row, const char *name);

/* ------------------------------------------------------------- what a file is */

enum cs_result_kind {
  CS_RESULT_UNKNOWN,     /* a `kind` this library does not know (read with cs_read_result) */
  CS_RESULT_TRAJECTORY,  /* contensou simulate */
  CS_RESULT_SWEEP,       /* contensou sweep */
  CS_RESULT_EPS_STUDY,   /* contensou eps-study */
  CS_RESULT_FIT,         /* contensou friction fit -o ("friction-fit") */
  CS_RESULT_ORBIT,       /* contensou orbit */
  CS_RESULT_CONTINUATION /* contensou continue */
};

/* The kind's name as files carry it ("trajectory", "sweep", "eps-study",
 * "friction-fit", "orbit", "continuation"; "unknown"). */
CS_API const char *cs_result_kind_name(enum cs_result_kind kind);

/* Which kind the file at path is (its root attribute `kind`). CS_ERR_PARSE
 * when it has no such attribute (not a contensou result file). */
CS_API enum cs_status cs_result_kind(const char *path, enum cs_result_kind *kind);

/* What every result file starts with. Absent strings are NULL. */
struct cs_result_header {
  char *file;      /* the path read */
  char *kind_name; /* root attribute kind, as written */
  enum cs_result_kind kind;
  char *model;     /* model name (files of a parameter file), else NULL */
  char *time_unit; /* "s" or "1" */
  char *status;    /* trajectory, eps-study, orbit, continuation: ok | failed ...;
                      sweep: running | complete | interrupted | failed */
  char *message;   /* why a run failed, or "" */
  /* every scalar root attribute: provenance (program, version, git_describe,
   * hdf5_version, sundials_version, sundials_build, date, command_line),
   * model_title, the model's choices (law, ...), params_file, params_text,
   * overrides, wall_time ... */
  struct cs_result_attrs root;
  /* one-row records (nrows 0 when absent): the resolved parameters, the
   * initial state, the solver settings (its attrs: stepper, method, jacobian) */
  struct cs_result_table params, initial, solver;
};

/* Reads the header of any result file, of any layout version (the root
 * attribute layout_version is among h.root). */
CS_API enum cs_status cs_read_header(const char *path, struct cs_result_header *out);
CS_API void cs_result_header_free(struct cs_result_header *h);

/* --------------------------------------------------------------- any file */

/* A whole file: its header and every numeric dataset (or group of columns)
 * as a table, every string dataset as a list, found by walking the groups
 * (hard links only; at most 4096 objects, 16 levels, CS_H5_MAX_ELEMENTS
 * numbers in all). Read by cs_read_result (results/read.h), which knows
 * every kind's layout versions, and by the readers of the kinds read whole
 * (eps study, orbit, continuation). */
struct cs_result_texts {
  char *path;
  size_t n;
  char **v;
};
struct cs_result_file {
  struct cs_result_header h;
  size_t ntables;
  struct cs_result_table *tables; /* in path order */
  size_t ntexts;
  struct cs_result_texts *texts;
};
CS_API void cs_result_file_free(struct cs_result_file *f);

/* The table or text list at path, or NULL. */
CS_API const struct cs_result_table *cs_result_table_at(const struct cs_result_file *f,
                                                        const char *path);
CS_API const struct cs_result_texts *cs_result_texts_at(const struct cs_result_file *f,
                                                        const char *path);

#ifdef __cplusplus
}
#endif

#endif
