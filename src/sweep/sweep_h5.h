/* SPDX-License-Identifier: MIT */
/* The sweep's HDF5 file (src/results/FORMAT.md, "Sweep files"), layout 6.
 *
 *   /                       attrs: kind = "sweep", layout_version = 6,
 *                           results_version, model, law..., time_unit,
 *                           status (running | complete | interrupted | failed),
 *                           message, params_file, params_text, overrides,
 *                           provenance, resumed (command lines of resumes);
 *                           at the end: wall_time, rhs_evals, failed_points
 *   /params, /initial, /solver   one-row records (names, units; /solver, with
 *                           integer settings, stored by columns)
 *   /sweep                  attrs: parameter, unit, from, to, points, ...
 *   /sweep/grid             one row per grid index: <parameter>[, <parameter2>]
 *   /<pass>/points/<column> pass = forward | backward; one 1-D dataset per
 *                           column, one element per grid index, each with
 *                           units and doc: index, <parameter>[, <p2>], class
 *                           (int, 0 = pending: not computed), period, period_time,
 *                           lyapunov, lyapunov_err, rotation_number,
 *                           stick_fraction, stick_phases, transient_used, drift,
 *                           n_section, steps, rhs_evals, status, t_final,
 *                           floquet_max, floquet_trivial_err, floquet_unstable,
 *                           kaplan_yorke, reduced_dimension (int),
 *                           zero_one, zero_one_points (int),
 *                           chaos_disagree (int)
 *   /<pass>/final_state     per grid index, the state the point ended in (what
 *                           continuation starts the next point from; a point
 *                           re-runs as a trajectory from it)
 *   /<pass>/messages        per grid index, the failure message or ""
 *   /<pass>/floquet/re, im  per grid index, the nontrivial Floquet multipliers
 *                           of a periodic point (by shooting), NaN elsewhere;
 *                           floquet/note: why they are missing
 *   /<pass>/spectrum        (lyapunov = spectrum) per grid index, the Lyapunov
 *                           exponents, descending (-inf: lost in stick);
 *                           spectrum_error: their standard errors
 *   /<pass>/section/values  section points: <parameter>[, <p2>], t, states,
 *                           the real derived outputs (float64 only;
 *                           equilibria: one row, the settled state, t = NaN)
 *   /<pass>/section/codes   models with integer outputs (stick, vcase):
 *                           those outputs at the rows of values, row for
 *                           row, int32, missing_value = -1 (io/run_h5.h)
 *   /<pass>/section/index   the grid index of each row (int)
 *   /<pass>/section/offsets first row of each grid index (-1: none); counts
 *   /bifurcations/<column>  pass, p_left, p_right, estimate, refined, kind,
 *                           from_class, from_period, to_class, to_period
 *   /equilibria             (when asked) per grid point, stored by columns
 *                           (io/h5.h): index, <parameter>, found,
 *                           max_re, max_is_complex, residual, the state,
 *                           re<i>, im<i>
 * Every dataset and group has a string attribute doc (what it holds, its
 * rows and columns) and every dataset units: tables with names have one unit
 * per column, 1-D datasets and floquet/re, im one string ("1" dimensionless,
 * "" for the text datasets messages and floquet/note).
 *
 * Safety. The results are written to "<path>.partial" under a lock on path
 * (a second run on the same output is refused before it touches anything),
 * in HDF5's SWMR mode: the file on disk is consistent at every moment, and
 * every point finished is on disk within CS_SWEEP_H5_FLUSH seconds (the
 * writer flushes from cs_sweep_h5_tick). When the sweep completes, the final
 * file is written anew beside it (section rows in grid order, so that a
 * resumed or distributed sweep gives the same file as one uninterrupted run)
 * and renamed over path; the partial file is removed. An interrupted sweep
 * (signal) keeps the partial file with status = interrupted; a killed one
 * keeps it with status = running; both continue with cs_sweep_job_resume
 * (sweep_dist.h).
 * While it runs, the lock file holds CS_SWEEP_H5_MARGIN bytes of disk back:
 * when another process fills the disk, the writer gives them back to close
 * the partial file cleanly with status = failed (plain readers open it);
 * what was kept is then counted from the file.
 *
 * A sweep into this file from a program: struct cs_sweep_job
 * (sweep/sweep_dist.h) creates or resumes it, runs the sweep over one
 * process or many with a callback per written point, and finishes it
 * (tests/examples/sweep_callback.c). What is declared here reads it back. */
#ifndef CS_SWEEP_H5_H
#define CS_SWEEP_H5_H

#include <signal.h>

#include "io/config.h"
#include "io/result.h"
#include "sweep/sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 6: the Lyapunov spectrum (spectrum, spectrum_error), kaplan_yorke,
 * reduced_dimension, zero_one, zero_one_points, chaos_disagree, and checksums on every
 * stored value (small datasets chunked, values_crc32 in final files); 5: the integer outputs in
 * section/codes (4: in section/values, as doubles); a resume refuses a file
 * of another layout; cs_read_sweep (below) reads every layout from 1 to this one */
#define CS_SWEEP_H5_LAYOUT 6
#define CS_SWEEP_H5_FLUSH 0.25 /* s: longest time a finished point waits to be on disk */
#define CS_SWEEP_H5_MARGIN 1e6 /* bytes kept free on disk for a clean close */

struct cs_sweep_h5;

/* What an unfinished (or finished) sweep file says about itself. */
struct cs_sweep_h5_info {
  char *source;         /* the file found: "<path>.partial" or path (malloc) */
  char status[32];      /* running (killed), interrupted, failed, complete */
  char *params_text;    /* the parameter file's text (malloc) */
  char *params_file;    /* its path when the sweep started (malloc) */
  char *overrides;      /* the --set overrides, one per line (malloc) */
  char *version;        /* program version that started it (malloc) */
  long results_version; /* CS_RESULTS_VERSION of that program */
  long layout_version;
  size_t done[2]; /* points finished per pass */
  size_t npoints; /* grid points per pass */
};

/* ------------------------------------------------------- read back (io/result.h) */

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
CS_API enum cs_status cs_read_sweep(const char *path, unsigned flags, struct cs_sweep_file *out);
CS_API void cs_sweep_file_free(struct cs_sweep_file *s);

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
CS_API enum cs_status cs_read_sweep_point(const char *path, int pass, size_t index,
                                          struct cs_sweep_point_file *out);
CS_API void cs_sweep_point_file_free(struct cs_sweep_point_file *p);

#ifdef __cplusplus
}
#endif

#endif
