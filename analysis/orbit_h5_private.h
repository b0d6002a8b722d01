/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/orbit_h5.h. */
#ifndef CS_ANALYSIS_ORBIT_H5_PRIVATE_H
#define CS_ANALYSIS_ORBIT_H5_PRIVATE_H

#include "analysis/orbit_h5.h"

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
                                  const struct cs_run_info *run,
                                  const struct cs_continue_config *cc, const struct cs_branch *b,
                                  const struct cs_branch *eq, const char *status,
                                  const char *message);

/* The same, and what extra(writer, ctx) adds before the file is committed
 * (e.g. a two-parameter curve: analysis/continuation2_h5.h). */
enum cs_status cs_branch_h5_write_with(const char *path, const struct cs_config *cfg,
                                       const struct cs_run_info *run,
                                       const struct cs_continue_config *cc,
                                       const struct cs_branch *b, const struct cs_branch *eq,
                                       void (*extra)(struct cs_writer *, const void *),
                                       const void *ctx, const char *status, const char *message);

#endif
