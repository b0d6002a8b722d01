/* SPDX-License-Identifier: MIT */
/* The sweep's HDF5 file, written as points finish (README: "HDF5 layout").
 *
 *   /                       attrs: kind = "sweep", model, law..., time_unit,
 *                           status (running | complete | interrupted),
 *                           params_file, params_text, overrides, provenance
 *   /params                 one row: every resolved parameter (names, units;
 *                           also as attributes with <name>_units)
 *   /sweep                  attrs: parameter, unit, from, to, points, spacing,
 *                           direction, continuation, transient, record, ...
 *   /sweep/grid             columns index, <parameter> [, <parameter2>]
 *   /<pass>/points          pass = forward | backward; one row per grid index
 *                           (NaN until computed): index, <parameter>[, <p2>],
 *                           class, period, period_time, lyapunov,
 *                           lyapunov_err, rotation_number, stick_fraction,
 *                           stick_phases, transient_used, drift, n_section,
 *                           steps, rhs_evals, status; attr class_names
 *   /<pass>/messages        per grid index, the failure message or ""
 *   /<pass>/section/values  section points in completion order: index, t,
 *                           states, derived outputs (equilibria: one row, the
 *                           settled state, t = NaN)
 *   /<pass>/section/offsets first row of each grid index in values (-1: none)
 *   /<pass>/section/counts  rows of each grid index
 *   /bifurcations           pass, p_left, p_right, estimate, refined, kind,
 *                           from_class, from_period, to_class, to_period;
 *                           attrs kind_names, class_names
 *   /equilibria             (when asked) per grid point: found, max_re, ...
 *
 * A killed sweep keeps every finished point: rows are flushed at most once
 * a second, and the section rows carry their grid index. */
#ifndef CS_SWEEP_H5_H
#define CS_SWEEP_H5_H

#include "io/config.h"
#include "sweep/sweep.h"

struct cs_sweep_h5;

/* Creates path and writes everything known before the run. */
enum cs_status cs_sweep_h5_create(const char *path, const struct cs_config *cfg,
                                  const char *const *sets, size_t n_set,
                                  const struct cs_sweep_spec *spec, int argc, char *const *argv,
                                  struct cs_sweep_h5 **out, char *msg, size_t msglen);

/* The sink for cs_sweep_run (ctx = the writer). */
int cs_sweep_h5_sink(void *ctx, const struct cs_sweep_point *pt);

/* Writes the offsets, messages, bifurcation table, statistics and status, and
 * closes the file. Frees w. */
enum cs_status cs_sweep_h5_finish(struct cs_sweep_h5 *w, const struct cs_sweep_outcome *o,
                                  char *msg, size_t msglen);

#endif
