/* SPDX-License-Identifier: MIT */
/* A basins run into its file (cs_basins_file_run, analysis/basins_h5.h):
 * the writer of analysis/basins_h5.c around cs_basins_run, so that a program
 * gets `contensou basins` (claim, resume, flush per unit, final file) in one
 * call. */
#include <omp.h>
#include <string.h>

#include "analysis/basins_h5.h"
#include "analysis/basins_h5_private.h"
#include "analysis/basins_private.h"

/* Writes the unit, then tells the caller how many cells are on disk; the
 * caller's nonzero stops the run (only after the unit is safe). */
int cs_basins_file_sink(void *ctx, const struct cs_basins_unit *u)
{
  struct cs_basins_file_sink *s = ctx;
  int rc = cs_basins_h5_sink(s->w, u);
  if (rc == 0 && s->opts->progress)
    rc = s->opts->progress(s->opts->progress_ctx, cs_basins_h5_cells(s->w), s->n_cells);
  return rc;
}

enum cs_status cs_basins_file_run(const struct cs_config *cfg, const struct cs_basins_spec *spec,
                                  const char *path, const struct cs_basins_file_opts *opts,
                                  struct cs_basins_file_result *out)
{
  static const struct cs_basins_file_opts none;
  if (!opts)
    opts = &none;
  memset(out, 0, sizeof *out);
  const struct cs_run_info *run = opts->run;
  struct cs_basins_file_sink s = {.opts = opts, .n_cells = cs_basins_ncells(spec)};
  enum cs_status st =
      cs_basins_h5_create(path, cfg, run ? run->sets : NULL, run ? run->n_set : 0, spec,
                          opts->resume, run ? run->argc : 0, run ? run->argv : NULL, &s.w);
  if (st != CS_OK)
    return st;
  out->opened = 1;
  const unsigned char *done = cs_basins_h5_done(s.w, &out->resumed_units);
  int stopped = 0;
  if (opts->progress)
    stopped = opts->progress(opts->progress_ctx, cs_basins_h5_cells(s.w), s.n_cells) != 0;
  double t0 = omp_get_wtime();
  if (!stopped) {
    struct cs_basins_ctl ctl = {.cancel = opts->cancel, .done = done};
    st = cs_basins_run(cfg->model, cfg->params, cfg->y0, spec, cs_basins_file_sink, &s, &ctl,
                       &stopped);
  }
  out->wall_time = omp_get_wtime() - t0;
  out->run_failed = st != CS_OK;
  out->stopped = stopped;
  out->cells_on_disk = cs_basins_h5_cells(s.w);
  enum cs_status wst =
      cs_basins_h5_finish(s.w, st != CS_OK || stopped, out->wall_time, &out->basins);
  return st != CS_OK ? st : wst;
}
