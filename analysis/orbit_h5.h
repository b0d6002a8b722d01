/* SPDX-License-Identifier: MIT */
/* Result files of periodic orbits and branches (HDF5, the conventions of
 * src/io/h5.h: tables of doubles with `names` and `units`; /orbit,
 * /multipliers, /branch, /equilibria and /special, which hold codes and
 * counts, stored by columns, those as int32 or int64; a `doc` attribute on
 * every dataset), after the header every run file starts with
 * (src/io/run_h5.h), and the runs that make them from a parameter file in
 * one call: cs_orbit_run (`contensou orbit`: the orbit, its period and
 * Floquet multipliers, one sampled period, the file) and cs_continue_run
 * (`contensou continue`: the branch or two-parameter curve, the file).
 *
 * `contensou orbit` (root kind = "orbit"):
 *   /orbit         one row: period, t0, n_unstable, stable, trivial_re,
 *                  trivial_im, trivial_err, iterations, correction, residual,
 *                  switches; attributes stability, note
 *   /section_point one row: the orbit's point on the section (the states)
 *   /multipliers   one row per nontrivial multiplier: k (1, 2, ...), re, im,
 *                  modulus, argument
 *   /monodromy     the monodromy matrix, row i = d phi_i, column j = d y0_j
 *   /trajectory    one period: t, states, the real derived outputs (as
 *                  simulate writes; the integer outputs in /trajectory_codes)
 * `contensou continue` (root kind = "continuation"):
 *   /branch        one row per point of the continued branch; attributes: kind
 *                  (cycles, equilibria), end, shootings, newton_iterations, and
 *                  the settings (parameter, parameter_unit, start, at, min, max,
 *                  direction, transient, returns, ds..., section_variable ...)
 *   /equilibria    start = hopf: the equilibrium branch up to its Hopf point
 *   /special       one row per special point of either: branch (0 /branch,
 *                  1 /equilibria), kind (attribute kind_names), row (of the
 *                  point before it), parameter, period, omega, n_unstable,
 *                  states, and the multipliers or eigenvalues; /special_notes */
#ifndef CS_ANALYSIS_ORBIT_H5_H
#define CS_ANALYSIS_ORBIT_H5_H

#include <stddef.h>

#include "analysis/continuation.h"
#include "analysis/continuation_config.h"
#include "io/config.h"
#include "io/result.h"

struct cs_writer; /* io/run_h5.h */

#ifdef __cplusplus
extern "C" {
#endif

/* The command line and overrides of the run, for the header. */
struct cs_run_info {
  const char *const *sets; /* --set overrides */
  size_t n_set;
  int argc;
  char *const *argv;
};

/* The layout versions of these kinds (root attribute layout_version; the
 * readers read 1 .. these). Raise one with every change of its layout. */
#define CS_ORBIT_H5_LAYOUT 2
/* continuation 3: /special's critical frequency is omega_critical (was
 * omega, which clashed with a continued parameter named omega) */
#define CS_CONTINUATION_H5_LAYOUT 3

/* ------------------------------------------------------- read back (io/result.h)
 *
 * Read whole (io/result.h); the structs name their parts. A pointer is NULL
 * when the file lacks the object. */

struct cs_orbit_file {
  struct cs_result_file all;
  /* /orbit (one row: period, t0, n_unstable, stable, ...; attrs: stability,
   * note), /section_point, /multipliers (k, re, im, modulus, argument),
   * /monodromy, /trajectory (one period; may be absent) */
  const struct cs_result_table *orbit, *section_point, *multipliers, *monodromy, *trajectory;
};
CS_API enum cs_status cs_read_orbit(const char *path, struct cs_orbit_file *out);
CS_API void cs_orbit_file_free(struct cs_orbit_file *o);

struct cs_continuation_file {
  struct cs_result_file all;
  /* /branch (rows of the branch; attrs: kind, end, parameter, settings),
   * /equilibria (may be absent), /special (kind_names), /special_notes */
  const struct cs_result_table *branch, *equilibria, *special;
  const struct cs_result_texts *special_notes;
};
CS_API enum cs_status cs_read_continuation(const char *path, struct cs_continuation_file *out);
CS_API void cs_continuation_file_free(struct cs_continuation_file *c);

/* ------------------------------------------- runs from a parameter file */

/* What cs_orbit_run stores besides the orbit; zero-initialise, every field
 * optional. */
struct cs_orbit_run_opts {
  const char *path;              /* the result file (kind "orbit") to write; NULL: none */
  const struct cs_run_info *run; /* the command line for its header; NULL: none */
  size_t rows;                   /* samples of one period, >= 2 (0: 1001) */
};

/* What cs_orbit_run found; free with cs_orbit_run_free. */
struct cs_orbit_run_result {
  struct cs_orbit orbit; /* the orbit (converged) or how far Newton got (its note) */
  int searched;          /* 1: the input was accepted and the search ran (the file, if asked, was
                            written whatever it found: status "ok" or "failed"); 0: the input was
                            refused, nothing was run or written */
  size_t rows;           /* the sampled period: rows of cols values (0 without an orbit) */
  size_t cols;           /* 1 + n_state + n_derived: t, the states, the derived outputs */
  double *trajectory;    /* rows x cols, row-major, model units; NULL without an orbit */
};

/* The periodic orbit of cfg's model at its parameters, as `contensou orbit`
 * finds it: from cfg's [initial], [continuation] transient (default [output]
 * t_end), on to the section ([section], or the model's default; forced
 * models: stroboscopic), Newton with the monodromy matrix (cs_orbit_guess,
 * cs_orbit_find); then one period sampled (cs_orbit_sample) and, with
 * opts->path, the orbit file written (cs_orbit_h5_write). opts may be NULL.
 * out is always filled (free it even on failure).
 * Returns CS_OK when the orbit was found (and written). Otherwise, with the
 * reason in cs_errmsg(): with out->searched = 0, CS_ERR_PARSE / CS_ERR_RANGE
 * for [continuation] keys, CS_ERR_ARG for a [section] kind the model cannot
 * take (hyperplane for a forced model, stroboscopic for an autonomous one)
 * or rows < 2, CS_ERR_NOMEM; with out->searched = 1, the search's status
 * (no orbit: CS_ERR_NOT_FOUND when the section was not crossed, e.g. the
 * state settled; CS_ERR_NOCONV, CS_ERR_SINGULAR, an integrator status;
 * cs_errmsg() "no periodic orbit (...): why", out->orbit.note why) or the
 * file's. */
CS_API enum cs_status cs_orbit_run(const struct cs_config *cfg,
                                   const struct cs_orbit_run_opts *opts,
                                   struct cs_orbit_run_result *out);

/* Frees what cs_orbit_run allocated in r (not r itself); r is zeroed. */
CS_API void cs_orbit_run_free(struct cs_orbit_run_result *r);

/* A start a caller read from a result file, for [continuation] start =
 * sweep:FILE.h5:INDEX, branch:FILE.h5:K or curve:FILE.h5:K (the analysis layer reads no
 * result files: the caller does, e.g. with cs_read_sweep_point or
 * cs_read_continuation, and cs_continue_run checks what it got). */
struct cs_continue_start {
  const char *model; /* the model of the file (checked against cfg's) */
  /* start = sweep: the grid point */
  size_t nparam;            /* its grid parameters (set in cfg's parameters) */
  const char *const *param; /* their names */
  const double *value;      /* their values, parameter units */
  size_t n_state;           /* states stored (checked against the model's) */
  const double *state;      /* the state the point ended in, model units */
  double t;                 /* at this time (forced models keep their phase) */
  /* start = branch: the special point, as the file stores it (kind, pt.p,
   * pt.period, pt.y, omega, l1, l1_err) */
  const char *parameter;            /* the branch's parameter (checked against cfg's) */
  const struct cs_special *special; /* the point; NULL: the file has no such row */
  size_t n_special;                 /* the rows of the file's /special (for the message) */
  int cycles;                       /* 1: a point of a branch of cycles */
  /* start = curve: the codimension-two point (special: its p1 in pt.p, its
   * state; kind ignored), on a curve of kind curve_kind in (parameter,
   * parameter2) with parameter2 = value2 there */
  const char *parameter2;
  double value2;
  const char *curve_kind; /* "fold", "hopf", ... (cs_curve_name) */
  int codim2;             /* its enum cs_codim2_kind; -1: the file has no such row */
};

/* What cs_continue_run stores besides the branch; zero-initialise, every
 * field optional except start where [continuation] start needs it. */
struct cs_continue_run_opts {
  const char *path;                          /* the result file (kind "continuation"); NULL: none */
  const struct cs_run_info *run;             /* the command line for its header; NULL: none */
  const struct cs_continue_config *settings; /* cfg's [continuation] as cs_continue_config_read
                                            (need_param 1) read it; NULL: read here */
  const struct cs_continue_start *start;     /* start = sweep or branch: the point (required) */
};

/* What cs_continue_run computed; free with cs_continue_run_free. */
struct cs_continue_run_result {
  struct cs_continue_config settings; /* the settings run (start = sweep: at the point's parameter
                                     value, no transient unless the file gives one) */
  struct cs_branch branch;            /* the branch (with parameter2: the one-parameter branch
                                         the curve started from; empty for start = branch) */
  struct cs_branch equilibria;        /* start = hopf: the equilibria up to the Hopf point */
  const struct cs_special *hopf;      /* start = hopf: that Hopf point (in equilibria), else NULL */
  int two_parameter;                  /* 1: a curve in (parameter, parameter2) was continued */
  enum cs_curve_kind curve_kind;      /* its kind */
  struct cs_special curve_start;      /* the special point it started from */
  int curve_start_cycles;             /* 1: a point of a branch of cycles */
  struct cs_curve curve;              /* the curve */
  double cpu_seconds;                 /* CPU time of the curve (processor time of this process) */
  int searched; /* 1: the input was accepted and the continuation ran (as cs_orbit_run) */
};

/* The branch (or two-parameter curve) that `contensou continue` computes
 * from cfg's [continuation]: equilibria or cycles from the state of
 * [initial] (cycles after the transient), cycles from the first Hopf point
 * of the equilibria, from a point of a sweep file, or, with parameter2, the
 * curve of the first fold, Hopf or period-doubling point of that branch (or
 * a special point of a continuation file); with opts->path the continuation
 * file written (cs_branch_h5_write, with /curve for a curve). out is always
 * filled (free it even on failure).
 * Returns CS_OK when the branch or curve was computed (it may have ended
 * early: its end_note). Otherwise, with the reason in cs_errmsg(): with
 * out->searched = 0, the status of cs_continue_config_read, CS_ERR_ARG (no start
 * point given for start = sweep or branch, a special point that starts no
 * curve), CS_ERR_MISMATCH (a start of another model or parameter, another
 * number of states), CS_ERR_RANGE (the sweep point's parameters outside the
 * model's or [min, max]), CS_ERR_NONFINITE (the sweep point was not
 * computed), CS_ERR_NOMEM; with out->searched = 1, the continuation's status
 * (no start: no orbit or equilibrium, no Hopf point; cs_errmsg() "no branch
 * (...): why" or "no curve (...): why") or the file's. */
CS_API enum cs_status cs_continue_run(const struct cs_config *cfg,
                                      const struct cs_continue_run_opts *opts,
                                      struct cs_continue_run_result *out);

/* Frees what cs_continue_run allocated in r (not r itself); r is zeroed. */
CS_API void cs_continue_run_free(struct cs_continue_run_result *r);

#ifdef __cplusplus
}
#endif

#endif
