/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond study/eps_h5.h. */
#ifndef CS_STUDY_EPS_H5_PRIVATE_H
#define CS_STUDY_EPS_H5_PRIVATE_H

#include "io/h5.h"
#include "io/run_h5.h"
#include "study/eps_h5.h"

/* Claims path for writing as the study goes: missing directories created,
 * a lock, "<path>.partial" (one left by a killed run replaced). The reason
 * of a failure, "cannot create ...", in cs_errmsg() and w->st. */
enum cs_status cs_eps_h5_open(const char *path, struct cs_writer *w);

/* The header: the common one of io/run_h5.h (cfg; run: the --set overrides
 * and the command line, may be NULL) with kind = "eps-study", and study
 * ("time-series" or "sweep"), reference ("eps" or "event-driven"),
 * reference_eps (NaN for event-driven, in the unit of eps), eps_unit, the
 * list /eps/values (eps[0 .. n_eps - 1]); flushes the file. */
enum cs_status cs_eps_h5_create(struct cs_writer *w, const struct cs_config *cfg,
                                const struct cs_run_info *run, const char *study, const double *eps,
                                size_t n_eps, int ref_event_driven, double ref_eps);

/* The results of a time-series study r, run by cs_eps_study with spec (its
 * time grid spec->t) on cfg's model: /reference, /reference_switches
 * (event-driven reference), /eps/<k>/difference, /eps/norms, /eps/runs, and
 * the root attributes status ("ok", or "failed" when a run failed), message
 * and wall_time_s. dt (an attribute of /reference) is cfg's [output] dt, or
 * (t_end - t_start) / 1000 when 0. */
enum cs_status cs_eps_h5_write_series(struct cs_writer *w, const struct cs_config *cfg,
                                      const struct cs_eps_spec *spec,
                                      const struct cs_eps_result *r);

/* The results of a sweep study r, run by cs_eps_sweep_study over the sweep
 * sw: /sweep_study/grid, classes, periods, summary, shifts, section,
 * bifurcations, and the root attributes status, message and wall_time_s. */
enum cs_status cs_eps_h5_write_sweep(struct cs_writer *w, const struct cs_config *cfg,
                                     const struct cs_sweep_spec *sw,
                                     const struct cs_eps_sweep_result *r);

/* Ends a file written as the study goes (w->f, from cs_h5_output_create):
 * committed, renamed over its path, when everything was written; after a
 * write failure (w->st: a full disk) let go as of its last flush
 * (cs_h5_abandon: closing would write metadata the disk refuses and leave a
 * file no reader opens), "<path>.partial" keeping what was flushed. For a
 * program on its way to exit after a failure: the abandoned file stays open
 * in HDF5 until then. w->f is NULL after (nothing done when it was NULL).
 * Returns w->st, the commit's failure included (message in w->err). */
enum cs_status cs_eps_h5_finish(struct cs_writer *w);

/* Gives up the file of a study that produced no result (the study itself
 * failed: nothing to record): closes w->f and removes "<path>.partial",
 * releasing the claim on path; an older file at path is untouched. w->f is
 * NULL after (nothing done when it was NULL). */
void cs_eps_h5_discard(struct cs_writer *w);

/* The whole file at path, written safely (missing directories created, a
 * lock, "<path>.partial" renamed over path when complete; after a failure
 * the partial file stays): header and results of a finished study. Returns
 * CS_OK or the first failure, with its reason in cs_errmsg(). A run of the
 * study that failed is not an error here: the file records it (status =
 * "failed"). */
enum cs_status cs_eps_h5_write_series_file(const char *path, const struct cs_config *cfg,
                                           const struct cs_run_info *run,
                                           const struct cs_eps_spec *spec,
                                           const struct cs_eps_result *r);

enum cs_status cs_eps_h5_write_sweep_file(const char *path, const struct cs_config *cfg,
                                          const struct cs_run_info *run,
                                          const struct cs_eps_sweep_spec *spec,
                                          const struct cs_eps_sweep_result *r);

#endif
