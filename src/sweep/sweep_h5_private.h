/* SPDX-License-Identifier: MIT */
/* The steps of a sweep file's creation and resume that struct cs_sweep_job
 * (sweep_dist.h) makes in order, over the processes of a run: shared by the
 * library's files, not installed. A program creates or resumes a sweep file
 * with cs_sweep_job_create / cs_sweep_job_resume. */
#ifndef CS_SWEEP_H5_PRIVATE_H
#define CS_SWEEP_H5_PRIVATE_H

#include "sweep/sweep_h5.h"

/* cs_sweep_h5_create with a flag a signal handler sets: writing the grid of
 * a large map (written in blocks) stops within a block when *cancel becomes
 * nonzero, with CS_ERR_INTERRUPTED (nothing is kept: no point was
 * computed). path is refused (CS_ERR_ARG) when it ends in a name contensou
 * derives from an output (".partial", ".tmp", ".lock"): that name belongs
 * to the run writing the shorter one. */
enum cs_status cs_sweep_h5_create_ctl(const char *path, const struct cs_config *cfg,
                                      const char *const *sets, size_t n_set,
                                      const struct cs_sweep_spec *spec, int argc, char *const *argv,
                                      const volatile sig_atomic_t *cancel,
                                      struct cs_sweep_h5 **out);

/* Claims path and reads what the unfinished sweep of path holds ("<path>.partial"
 * if it exists, else path). Nothing is modified. CS_ERR_NOT_FOUND when neither
 * exists; CS_ERR_BUSY when another process writes it. */
enum cs_status cs_sweep_h5_open_resume(const char *path, struct cs_sweep_h5 **out,
                                       struct cs_sweep_h5_info *info);
/* The same, calling verify(source, ctx) once the file is claimed and before
 * anything of it is read: a status other than CS_OK (its message set) is
 * returned as it is. The command line verifies the file there in a child
 * process (a damaged file can make libhdf5 loop or crash). */
enum cs_status
cs_sweep_h5_open_resume_verified(const char *path,
                                 enum cs_status (*verify)(const char *source, void *ctx), void *ctx,
                                 struct cs_sweep_h5 **out, struct cs_sweep_h5_info *info);

/* After cs_sweep_h5_open_resume of path: is a resume with the parameter file
 * params_file (NULL: the one the sweep started from, if it is still where it
 * was) and the overrides sets consistent with what the file was started
 * with? CS_OK; CS_ERR_MISMATCH for another results version (another
 * program computes differently), a parameter file whose text changed, other
 * overrides (with the first line that differs); CS_ERR_IO when params_file
 * cannot be read. The reason in cs_errmsg(). */
enum cs_status cs_sweep_h5_check_resume(const char *path, const struct cs_sweep_h5_info *info,
                                        const char *params_file, const char *const *sets,
                                        size_t n_set);

/* After cs_sweep_h5_open_resume (and the caller's checks that the stored
 * parameters are the ones it will use): checks the file against spec and
 * the model, fills prior (records and final states of the finished points;
 * free with cs_sweep_h5_prior_free), moves a final file back to
 * "<path>.partial", marks the run as running again (appending the command
 * line to `resumed`) and switches to SWMR. */
enum cs_status cs_sweep_h5_resume(struct cs_sweep_h5 *w, const struct cs_config *cfg,
                                  const struct cs_sweep_spec *spec, int argc, char *const *argv,
                                  struct cs_sweep_prior *prior);
void cs_sweep_h5_prior_free(struct cs_sweep_prior *prior);

/* Gives up a file opened with cs_sweep_h5_open_resume without changing it. */
void cs_sweep_h5_abandon(struct cs_sweep_h5 *w);

#endif
