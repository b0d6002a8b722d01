/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond io/trajectory_h5.h. */
#ifndef CS_IO_TRAJECTORY_H5_PRIVATE_H
#define CS_IO_TRAJECTORY_H5_PRIVATE_H

#include "io/h5.h"
#include "io/run_h5.h"
#include "io/trajectory_h5.h"

/* A trajectory file being written. Zero it, set flush_every if wanted, then
 * cs_trajectory_h5_create. */
struct cs_trajectory_h5 {
  struct cs_writer w;            /* the file (w.f, the caller's) and the first failure */
  double flush_every;            /* s of wall time between two flushes (0: every block) */
  size_t max_switches;           /* set by begin: switches to log (0: the model has none) */
  size_t rows;                   /* rows written so far */
  size_t rows_flushed;           /* rows on disk: written before the last successful flush */
  const struct cs_model *model;  /* set by begin */
  struct cs_h5_table *table;     /* /trajectory */
  struct cs_h5_dset *codes;      /* /trajectory_codes, or NULL (no integer outputs) */
  size_t ncodes;                 /* set by begin: integer outputs of a row */
  double *reals;                 /* the real columns of a block of rows (with codes) */
  int32_t *ints;                 /* its integer outputs */
  size_t block_cap;              /* rows those two hold */
  struct cs_h5_table *switches;  /* /switches, or NULL */
  double last_flush;             /* monotonic clock of the last flush, s */
  double row[3 + CS_FLOW_MAX_N]; /* one row of /switches */
};

/* Rows of /trajectory in the file at path as the disk holds it now (the
 * file closed); the reason of a failure in cs_errmsg(). */
enum cs_status cs_trajectory_h5_rows_on_disk(const char *path, size_t *rows);

/* After a failed run closed its file: /trajectory and /trajectory_codes cut
 * to their first rows rows (the ones both hold: a write the disk refused may
 * have left one longer than the other, which readers refuse). */
enum cs_status cs_trajectory_h5_trim(const char *path, size_t rows);

/* Writes the header (cs_run_h5_write_header: cfg, the --set overrides
 * sets[0 .. n_set - 1], the command line argv, all may be empty), creates
 * the empty /trajectory for grid g (g from cs_record_grid_make) and, when
 * the model switches modes with cfg->params, /switches; flushes. f stays
 * open and the caller's. Returns the first failure (tw->w.err says what). */
enum cs_status cs_trajectory_h5_create(struct cs_trajectory_h5 *tw, struct cs_h5 *f,
                                       const struct cs_config *cfg, const struct cs_record_grid *g,
                                       const char *const *sets, size_t n_set, int argc,
                                       char *const *argv);

/* Appends n rows of 1 + n_state + n_derived values (the model's order) to
 * /trajectory (their real columns) and /trajectory_codes (their integer
 * outputs) and flushes the file when flush_every seconds have passed since
 * the last flush. The signature of cs_record_spec.on_rows, with ctx the writer:
 * returns nonzero (stop the run) once the file cannot be written. */
int cs_trajectory_h5_on_rows(void *tw, size_t first_row, size_t n, const double *rows);

/* Appends one switch to /switches (nothing for a model without). The
 * signature of cs_record_spec.on_switch, with ctx the writer. */
void cs_trajectory_h5_on_switch(void *tw, const struct cs_flow_switch *s);

/* Ends the content: /stats from r (the run's result) and wall_time_s, the
 * count and dropped switches, root status and message; closes /trajectory,
 * /trajectory_codes and /switches (not the file) and frees the writer's
 * buffers: call it after every begin, also after a failure. Returns the
 * first failure of the whole writing (tw->w.st). */
enum cs_status cs_trajectory_h5_finish(struct cs_trajectory_h5 *tw,
                                       const struct cs_record_result *r, double wall_time_s);

#endif
