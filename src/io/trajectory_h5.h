/* SPDX-License-Identifier: MIT */
/* The trajectory file (kind = "trajectory"), the result file of contensou
 * simulate: one run of a model from a parameter file, recorded on a time
 * grid (integrate/record.h). Layout (every dataset has a string attribute
 * `doc`; tables carry `names` and `units`, one entry per column; every
 * double attribute x has x_units):
 *   /             the header of io/run_h5.h with kind = "trajectory"
 *   /params, /initial, /solver   one-row records (io/run_h5.h)
 *   /trajectory   rows t, state variables, the real derived outputs (float64
 *                 only); attributes t0, t_start, t_end, dt (model time unit),
 *                 rows_planned
 *   /trajectory_codes   models with integer outputs (stick, vcase: model.h):
 *                 the same rows, one int32 column per integer output, with
 *                 names, units, doc and missing_value = -1 (io/run_h5.h)
 *   /switches     models that switch modes (law = event-driven), stored by
 *                 columns (io/h5.h): t, kind and mode (int32; the mode after
 *                 the switch), the state after it; attributes kind_names
 *                 (one per line), count, dropped
 *   /stats        one row stored by columns: steps, rhs_evals, jac_evals,
 *                 lin_setups, nonlin_iters, err_test_fails, conv_fails,
 *                 switches, rows (int64), t_reached, wall_time_s (also as
 *                 attributes)
 * and root attributes status ("running" until the end, then "ok" or
 * "failed") and message.
 *
 * Two ways to write it:
 * - as the run goes (so that a killed run keeps the rows flushed so far):
 *   cs_simulate_run, what contensou simulate calls (its step-by-step writer
 *   is internal, trajectory_h5_private.h);
 * - in one go from a trajectory recorded in memory (cs_trajectory_record):
 *   cs_trajectory_h5_write.
 * Nothing here prints. */
#ifndef CS_IO_TRAJECTORY_H5_H
#define CS_IO_TRAJECTORY_H5_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "integrate/flow.h"
#include "integrate/record.h"
#include "io/config.h"
#include "io/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Switches stored in /switches at most; later ones are counted only. */
#define CS_TRAJECTORY_H5_MAX_SWITCHES 200000

/* The whole file at path, written safely (a lock,
 * "<path>.partial" renamed over path when complete; missing directories
 * created) from tr, recorded by cs_trajectory_record with cfg's model,
 * parameters and initial state on grid g; sets (the --set overrides) and
 * argc, argv (the command line) go to its header;
 * wall_time_s goes to /stats. tr->rows rows are written. Returns CS_OK or
 * the first failure, with its reason in cs_errmsg(). The run's own failure
 * (tr->result.status) is not an error here: the file records it (status =
 * "failed", message). */
CS_API enum cs_status cs_trajectory_h5_write(const char *path, const struct cs_trajectory *tr,
                                             const struct cs_config *cfg,
                                             const struct cs_record_grid *g,
                                             const char *const *sets, size_t n_set, int argc,
                                             char *const *argv, double wall_time_s);

/* The layout version of this kind (root attribute layout_version; the
 * reader reads 1 .. this one). Raise it with every change of the layout. */
#define CS_TRAJECTORY_H5_LAYOUT 2

/* ------------------------------------------------------- read back (io/result.h) */

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
CS_API enum cs_status cs_read_trajectory(const char *path, size_t first, size_t count,
                                         struct cs_trajectory_file *out);
CS_API void cs_trajectory_file_free(struct cs_trajectory_file *t);

/* ------------------------------------------- a run from a parameter file */

/* What cs_simulate_run writes besides the rows; zero-initialise, every
 * field optional. */
struct cs_simulate_opts {
  const char *const *sets; /* the --set overrides, for the header */
  size_t n_set;
  int argc; /* the command line, for the header */
  char *const *argv;
  double flush_every; /* s of wall time between two flushes (0: after every block) */
  void (*progress)(void *ctx, double t); /* called with the time reached, or NULL */
  void *progress_ctx;
};

/* What the run did. */
struct cs_simulate_result {
  struct cs_record_result run; /* status (the run's own: a failure is recorded in the file),
                                  time reached, state there, statistics, message */
  struct cs_record_grid grid;  /* the time grid of cfg's [output] */
  size_t rows;                 /* rows written */
  double wall_time;            /* s of wall-clock time of the run */
};

/* One run of cfg's model from [initial] at t = 0 to [output] t_end,
 * recorded on [output]'s grid into the trajectory file at path as it goes
 * (`contensou simulate`): written as "<path>.partial" under a lock (missing
 * directories created), flushed every flush_every seconds, renamed over
 * path when complete. Returns CS_OK when the file is complete, also when
 * the run itself failed (out->run.status; the file says status = failed and
 * keeps the rows up to the failure). Otherwise, with the reason in
 * cs_errmsg(): the status of cs_record_grid_check for [output] times it
 * refuses ("file: ..."), the file's creation ("cannot create ..."), or a
 * write failure (a full disk: the message says how many rows the partial
 * file holds, read back from disk, and whether it could be closed). */
CS_API enum cs_status cs_simulate_run(const struct cs_config *cfg, const char *path,
                                      const struct cs_simulate_opts *opts,
                                      struct cs_simulate_result *out);

#ifdef __cplusplus
}
#endif

#endif
