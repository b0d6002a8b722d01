/* SPDX-License-Identifier: MIT */
/* Result files of periodic orbits and branches (HDF5, the conventions of
 * src/io/h5.h: tables of doubles with `names` and `units`; /orbit,
 * /multipliers, /branch, /equilibria and /special, which hold codes and
 * counts, stored by columns, those as int32 or int64; a `doc` attribute on
 * every dataset), after the header every run file starts with
 * (src/io/run_h5.h).
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

/* Writes an orbit file: orb and one period sampled by cs_orbit_sample (rows
 * of 1 + n_state + n_derived values; table may be NULL with rows 0). status
 * "ok" or "failed", with message (the run's, stored in the file). Returns
 * the first failure with its reason in cs_errmsg(). */
enum cs_status cs_orbit_h5_write(const char *path, const struct cs_config *cfg,
                                 const struct cs_run_info *run, const struct cs_orbit *orb,
                                 const double *table, size_t rows, const char *status,
                                 const char *message);

/* Writes a continuation file: the branch b (cycles or equilibria) and, for a
 * start at a Hopf point, the equilibrium branch eq (may be NULL). */
enum cs_status cs_branch_h5_write(const char *path, const struct cs_config *cfg,
                                  const struct cs_run_info *run, const struct cs_cont_config *cc,
                                  const struct cs_branch *b, const struct cs_branch *eq,
                                  const char *status, const char *message);

/* The same, and what extra(writer, ctx) adds before the file is committed
 * (e.g. a two-parameter curve: analysis/continuation2_h5.h). */
enum cs_status cs_branch_h5_write_with(const char *path, const struct cs_config *cfg,
                                       const struct cs_run_info *run,
                                       const struct cs_cont_config *cc, const struct cs_branch *b,
                                       const struct cs_branch *eq,
                                       void (*extra)(struct cs_writer *, const void *),
                                       const void *ctx, const char *status, const char *message);

/* The layout versions of these kinds (root attribute layout_version; the
 * readers read 1 .. these). Raise one with every change of its layout. */
#define CS_ORBIT_H5_LAYOUT 2
#define CS_CONTINUATION_H5_LAYOUT 2

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

#ifdef __cplusplus
}
#endif

#endif
