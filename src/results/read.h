/* SPDX-License-Identifier: MIT */
/* Reading result files back: every kind of file contensou writes (trajectory,
 * sweep, eps-study, friction-fit, orbit, continuation) read into structs, by
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
 * above), CS_ERR_NOMEM. On failure, cs_errmsg() holds one line naming the
 * file and the object. The readers never print. libhdf5's
 * own reaction to some damaged files is a crash or a hang: a program reading
 * files it did not write should read in a child process, as `contensou info`
 * does.
 *
 * A sweep being written (the "<path>.partial" file in SWMR mode) is readable:
 * its points not yet computed have class 0 (pending), its bifurcations are
 * absent until the sweep completes. Set HDF5_USE_FILE_LOCKING=FALSE in the
 * environment to read a file another process holds open for writing.
 *
 * The library's HDF5 calls are not thread-safe (io/h5.h): read from one
 * thread at a time. */
#ifndef CS_RESULTS_READ_H
#define CS_RESULTS_READ_H

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
const struct cs_result_attr *cs_result_attr_find(const struct cs_result_attrs *a, const char *name);
/* The string attribute called name, or NULL (absent, or a number). */
const char *cs_result_attr_text(const struct cs_result_attrs *a, const char *name);
/* 1 and *value (and *unit, when unit is not NULL: NULL if none) when the
 * numeric attribute name exists; else 0. */
int cs_result_attr_number(const struct cs_result_attrs *a, const char *name, double *value,
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
long cs_result_column(const struct cs_result_table *t, const char *name);
/* Frees what t holds and zeroes it: for a table taken out of the struct a
 * reader filled (the others go with that struct's cs_..._free). */
void cs_result_table_free(struct cs_result_table *t);
/* The value at (row, column name), or NaN when either is missing. */
double cs_result_value(const struct cs_result_table *t, size_t row, const char *name);

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
const char *cs_result_kind_name(enum cs_result_kind kind);

/* Which kind the file at path is (its root attribute `kind`). CS_ERR_PARSE
 * when it has no such attribute (not a contensou result file). */
enum cs_status cs_result_kind(const char *path, enum cs_result_kind *kind);

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

/* Reads the header of any result file. */
enum cs_status cs_read_header(const char *path, struct cs_result_header *out);
void cs_result_header_free(struct cs_result_header *h);

/* --------------------------------------------------------------- any file */

/* A whole file: its header and every numeric dataset (or group of columns)
 * as a table, every string dataset as a list, found by walking the groups
 * (hard links only; at most 4096 objects, 16 levels, CS_H5_MAX_ELEMENTS
 * numbers in all). */
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
enum cs_status cs_read_result(const char *path, struct cs_result_file *out);
void cs_result_file_free(struct cs_result_file *f);
/* The values checksum (io/h5.h, "Checksums"): every attribute, string and
 * unchunked dataset of path summed again and compared with the file's
 * values_crc32. CS_OK with *sealed 1 when they agree, CS_OK with *sealed 0
 * for a file without it (written before the checksums, or not finished),
 * CS_ERR_HDF5 when a value changed. *items: the attributes and datasets
 * summed. Together with cs_read_result (which makes HDF5 verify every
 * chunk's Fletcher32 checksum) this verifies every stored value. */
enum cs_status cs_result_verify_values(const char *path, int *sealed, size_t *items);

/* The table or text list at path, or NULL. */
const struct cs_result_table *cs_result_table_at(const struct cs_result_file *f, const char *path);
const struct cs_result_texts *cs_result_texts_at(const struct cs_result_file *f, const char *path);

/* --------------------------------------------------------------- trajectory */

struct cs_trajectory_file {
  struct cs_result_header h;
  size_t rows_total; /* rows of /trajectory in the file (still being written: those
                        /trajectory_codes holds too) */
  size_t first_row;  /* the first row read into table */
  /* /trajectory: t, the states, derived outputs (names and units by column;
   * the integer ones from /trajectory_codes, last); attrs: t0, t_start,
   * t_end, dt (with units), rows_planned */
  struct cs_result_table table;
  /* /switches (event-driven laws; nrows 0 when absent): one row per mode
   * switch; attrs: kind_names (one name per line), count, dropped */
  struct cs_result_table switches;
  /* /stats: one-row record of the run's counters (steps, rhs_evals, ...) */
  struct cs_result_table stats;
};

/* Reads the trajectory file at path with rows first .. first + count - 1 of
 * its table, fewer where the table ends before (count SIZE_MAX: to the end;
 * count 0: none, rows_total still given). CS_ERR_RANGE if first is past the
 * last row + 1. A trajectory may hold 1e8 rows: read it in slices. */
enum cs_status cs_read_trajectory(const char *path, size_t first, size_t count,
                                  struct cs_trajectory_file *out);
void cs_trajectory_file_free(struct cs_trajectory_file *t);

/* -------------------------------------------------------------------- sweep */

/* One pass of a sweep (0 forward, 1 backward). */
struct cs_sweep_pass {
  int present; /* the pass is in the file */
  /* /<pass>/points: one row per grid index; columns by name: index, the
   * parameter(s), class (a code: class_names[code]; 0 pending), period,
   * period_time, lyapunov, lyapunov_err, rotation_number, stick_fraction,
   * status (0 ok, -1 not computed, else failed), t_final, floquet_max ... */
  struct cs_result_table points;
  char **class_names; /* the names of the class codes */
  size_t n_class_names;
  char **messages; /* per grid index: why the point failed, a note (point.h), or "" */
  size_t n_messages;
  /* /<pass>/section/values (not read with CS_READ_NO_SECTIONS): section
   * points: the parameter(s), t, the states, derived outputs (the integer
   * ones from /<pass>/section/codes, last) */
  struct cs_result_table section;
  size_t *section_point; /* section.nrows grid indices (< npoints), one per row */
  /* per grid index (nrows 0 when absent): /<pass>/final_state, the state the
   * point ended in; /<pass>/floquet/re and im, the nontrivial Floquet
   * multipliers of a periodic point (NaN elsewhere) */
  struct cs_result_table final_state, floquet_re, floquet_im;
  char **floquet_note; /* per grid index: why the multipliers are missing, or "" */
  size_t n_floquet_note;
  /* per grid index (nrows 0 when absent: lyapunov other than spectrum, or a
   * file of layout 5 or older): /<pass>/spectrum, the Lyapunov exponents in
   * descending order (-inf: a direction lost in stick), and
   * /<pass>/spectrum_error, their standard errors; the points table of
   * layout 6 also has kaplan_yorke, reduced_dimension, zero_one and
   * chaos_disagree */
  struct cs_result_table spectrum, spectrum_error;
};

struct cs_sweep_file {
  struct cs_result_header h;
  struct cs_result_attrs settings;          /* every scalar attribute of /sweep (from, to,
                                               points, spacing, direction, transient, ...) */
  const char *parameter, *parameter_unit;   /* the swept parameter (in settings) */
  const char *parameter2, *parameter2_unit; /* a 2-D sweep's second one, else NULL */
  size_t npoints;                           /* grid points (rows of grid) */
  struct cs_result_table grid;              /* /sweep/grid: the parameter value(s) by index */
  struct cs_sweep_pass pass[2];
  int has_bifurcations; /* 0 while the sweep runs */
  /* /bifurcations: pass (0, 1, 2 both), p_left, p_right, estimate, refined,
   * kind (kind_names[code]), from_class, from_period, to_class, to_period */
  struct cs_result_table bifurcations;
  char **kind_names, **bif_class_names;
  size_t n_kind_names, n_bif_class_names;
  /* /equilibria (sweeps with equilibria = true, once complete; nrows 0 when
   * absent): per grid point, the equilibrium found and its stability */
  struct cs_result_table equilibria;
};

#define CS_READ_NO_SECTIONS 1u /* flag: skip the section rows (the bulk of a sweep) */

/* Reads the sweep file at path (final or partial). flags: 0 or CS_READ_NO_SECTIONS. */
enum cs_status cs_read_sweep(const char *path, unsigned flags, struct cs_sweep_file *out);
void cs_sweep_file_free(struct cs_sweep_file *s);

/* One grid point of a sweep file, what a run started from it needs (e.g. a
 * branch continued from a point of a diagram: `contensou continue` with
 * start = sweep:FILE:INDEX). */
struct cs_sweep_point_file {
  char *model;         /* the sweep's model (root attribute), NULL when absent */
  size_t npoints;      /* grid points of the sweep */
  int pass;            /* 0 forward, 1 backward */
  size_t index;        /* the grid index */
  size_t nparam;       /* swept parameters: 1, or 2 for a 2-D sweep */
  char *param[2];      /* their names */
  double value[2];     /* their values at the point */
  size_t n_state;      /* states of final_state */
  double *final_state; /* the state the point ended in (NaN: not computed, or failed) */
  double t_final;      /* the time it ended at (NaN likewise; 0 when the file has no
                          t_final: its points all started at t = 0) */
  int cls;             /* its class code (enum cs_class of analysis/point.h; 0 pending),
                          -1 when the file has none */
};

/* Reads grid point index of pass (0 forward, 1 backward) of the sweep file
 * at path (final or partial). Besides the statuses of cs_read_sweep:
 * CS_ERR_NOT_FOUND when the pass is not in the file, CS_ERR_RANGE for an
 * index past the grid, CS_ERR_PARSE for a file without final states
 * (layout 1). */
enum cs_status cs_read_sweep_point(const char *path, int pass, size_t index,
                                   struct cs_sweep_point_file *out);
void cs_sweep_point_file_free(struct cs_sweep_point_file *p);

/* ---------------------------------------------------------- friction fit */

struct cs_fit_file {
  struct cs_result_header h; /* no model, params or status: a fit is of a law */
  const char *law, *contact; /* in h.root */
  double b, m;               /* fitted coefficients of the Pade form (dimensionless) */
  double rms, max_error;     /* residuals over the points */
  double points, iterations; /* counts */
  /* /fit/curves: the exact and fitted curves (names and units by column) */
  struct cs_result_table curves;
};
enum cs_status cs_read_fit(const char *path, struct cs_fit_file *out);
void cs_fit_file_free(struct cs_fit_file *f);

/* ----------------------------------------------- eps study, orbit, continuation
 *
 * These are read whole (cs_read_result); the structs name their parts. A
 * pointer is NULL when the file lacks the object. */

struct cs_eps_study_file {
  struct cs_result_file all;
  const char *study;                 /* "trajectory" or "sweep" (root attribute study) */
  const char *eps_unit;              /* unit of eps */
  const struct cs_result_table *eps; /* /eps/values: the eps of each run */
  const struct cs_result_table *reference, *norms, *runs; /* trajectory study */
  /* sweep study: /sweep_study/grid, classes, periods, summary, shifts, section, bifurcations */
  const struct cs_result_table *grid, *classes, *periods, *summary, *shifts, *section,
      *bifurcations;
};
enum cs_status cs_read_eps_study(const char *path, struct cs_eps_study_file *out);
/* /eps/<k>/difference of a trajectory study, or NULL. */
const struct cs_result_table *cs_eps_study_difference(const struct cs_eps_study_file *e, size_t k);
void cs_eps_study_file_free(struct cs_eps_study_file *e);

struct cs_orbit_file {
  struct cs_result_file all;
  /* /orbit (one row: period, t0, n_unstable, stable, ...; attrs: stability,
   * note), /section_point, /multipliers (k, re, im, modulus, argument),
   * /monodromy, /trajectory (one period; may be absent) */
  const struct cs_result_table *orbit, *section_point, *multipliers, *monodromy, *trajectory;
};
enum cs_status cs_read_orbit(const char *path, struct cs_orbit_file *out);
void cs_orbit_file_free(struct cs_orbit_file *o);

struct cs_continuation_file {
  struct cs_result_file all;
  /* /branch (rows of the branch; attrs: kind, end, parameter, settings),
   * /equilibria (may be absent), /special (kind_names), /special_notes */
  const struct cs_result_table *branch, *equilibria, *special;
  const struct cs_result_texts *special_notes;
};
enum cs_status cs_read_continuation(const char *path, struct cs_continuation_file *out);
void cs_continuation_file_free(struct cs_continuation_file *c);

#ifdef __cplusplus
}
#endif

#endif
