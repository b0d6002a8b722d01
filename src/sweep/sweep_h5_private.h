/* SPDX-License-Identifier: MIT */
/* The steps of a sweep file's creation and resume that struct cs_sweep_job
 * (sweep_dist.h) makes in order, over the processes of a run, and what the
 * command line reports and checks about the file (its size before the run,
 * the points on disk): shared by the library's files and the command line,
 * not installed. A program creates or resumes a sweep file with
 * cs_sweep_job_create / cs_sweep_job_resume. */
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
void cs_sweep_h5_discard(struct cs_sweep_h5 *w);

/* What the command line reports and checks about a sweep file. */
/* Bytes the partial file of a sweep of spec will take (the final file written
 * at the end takes as much again, beside it). section_rows (may be NULL): the
 * section rows a point is expected to store (a stroboscopic section: one per
 * forcing period of the recording window; record_crossings), NAN when it
 * cannot be known before the run (a hyperplane section): those rows are then
 * not counted. */
double cs_sweep_h5_size_estimate(const struct cs_config *cfg, const struct cs_sweep_spec *spec,
                                 double *section_rows);

/* Finished points in the sweep file of path ("<path>.partial" if it exists,
 * else path) as the disk holds it now, over both passes; -1 when it cannot
 * be read (the reason in cs_errmsg()). What messages about kept points say. */
long long cs_sweep_h5_points_on_disk(const char *path);

/* Points on disk (flushed), over both passes, including a resumed run's. */
size_t cs_sweep_h5_flushed(const struct cs_sweep_h5 *w);

/* Points written (on disk once the file is closed by cs_sweep_h5_finish). */
size_t cs_sweep_h5_written(const struct cs_sweep_h5 *w);

/* A flag a signal handler sets (may be NULL): the final file of a completed
 * sweep is then not written (cs_sweep_h5_finish returns CS_ERR_INTERRUPTED,
 * the partial file, which holds every point, stays marked interrupted). */
void cs_sweep_h5_set_cancel(struct cs_sweep_h5 *w, const volatile sig_atomic_t *cancel);

/* The file being written ("<path>.partial"). */
const char *cs_sweep_h5_partial(const struct cs_sweep_h5 *w);

void cs_sweep_h5_info_free(struct cs_sweep_h5_info *info);

/* Claims path (CS_ERR_BUSY if another process or another writer of this
 * process writes it; CS_ERR_EXISTS if "<path>.partial" holds an unfinished
 * sweep) and creates the partial file with everything known before the run,
 * then switches it to SWMR. sets (n_set of them, may be NULL/0) are the
 * "section.key=value" overrides applied to cfg, stored so that a resume can
 * check them; argc/argv (may be 0/NULL) the command line stored as
 * provenance. The reason of a failure (cs_errmsg()) names the file. */
enum cs_status cs_sweep_h5_create(const char *path, const struct cs_config *cfg,
                                  const char *const *sets, size_t n_set,
                                  const struct cs_sweep_spec *spec, int argc, char *const *argv,
                                  struct cs_sweep_h5 **out);

/* The sink for cs_sweep_run_ctl (ctx = the writer). */
int cs_sweep_h5_sink(void *ctx, const struct cs_sweep_point *pt);

/* The tick for cs_sweep_run_ctl: flushes if points were written and
 * CS_SWEEP_H5_FLUSH seconds have passed since the last flush. */
void cs_sweep_h5_tick(void *ctx);

/* Ends the run and frees w. o NULL: the run failed before producing an
 * outcome (the partial file is kept, status failed). A completed sweep
 * (!o->interrupted) gets its final file (see above); an interrupted one keeps
 * the partial file with status interrupted. Returns the first failure. */
enum cs_status cs_sweep_h5_finish(struct cs_sweep_h5 *w, const struct cs_sweep_outcome *o);

#endif
