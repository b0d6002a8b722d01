/* SPDX-License-Identifier: MIT */
/* Orbit and continuation runs from a parameter file (orbit_h5.h): what
 * `contensou orbit` and `contensou continue` do between reading their
 * arguments and printing, so that a program gets the same run in one call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/orbit_h5.h"
#include "core/error_private.h"

/* The forced model's stroboscopic section and the autonomous model's
 * hyperplane are the only ones the shooting knows: refuse the other. */
static enum cs_status check_section(const struct cs_config *cfg)
{
  const struct cs_model *m = cfg->model;
  int forced = m->forcing_period && m->forcing_period(cfg->params) > 0;
  if (forced && cfg->section_given && cfg->section.kind == CS_SECTION_HYPERPLANE)
    return cs_error_set(CS_ERR_ARG,
                        "%s: [section] kind = hyperplane: a forced model's orbit is sought on the "
                        "stroboscopic section (accepted: kind = stroboscopic, or no [section])",
                        cfg->path);
  if (!forced && cfg->section.kind == CS_SECTION_STROBOSCOPIC)
    return cs_error_set(CS_ERR_ARG,
                        "%s: [section] kind = stroboscopic: %s is not forced at these parameters "
                        "(accepted: kind = hyperplane)",
                        cfg->path, m->name);
  return CS_OK;
}

void cs_orbit_run_free(struct cs_orbit_run_result *r)
{
  if (!r)
    return;
  free(r->trajectory);
  memset(r, 0, sizeof *r);
}

enum cs_status cs_orbit_run(const struct cs_config *cfg, const struct cs_orbit_run_opts *opts,
                            struct cs_orbit_run_result *out)
{
  static const struct cs_orbit_run_opts none = {0};
  static const struct cs_run_info no_run = {0};
  if (!out)
    return cs_error_set(CS_ERR_ARG, "cs_orbit_run: no result");
  memset(out, 0, sizeof *out);
  if (!cfg || !cfg->model)
    return cs_error_set(CS_ERR_ARG, "cs_orbit_run: no parameter file");
  if (!opts)
    opts = &none;
  size_t rows = opts->rows ? opts->rows : 1001;
  if (rows < 2)
    return cs_error_set(CS_ERR_ARG, "rows = %zu: too few (accepted: at least 2)", rows);
  struct cs_cont_config cc;
  enum cs_status st = cs_cont_config_read(cfg, 0, &cc);
  if (st == CS_OK)
    st = check_section(cfg);
  if (st != CS_OK)
    return st;
  const struct cs_model *m = cfg->model;
  struct cs_orbit_ws *w = cs_orbit_ws_create(m, cfg->params_unprepared, -1);
  if (!w)
    return CS_ERR_NOMEM; /* the reason is in cs_errmsg() */
  out->searched = 1;
  struct cs_orbit *orb = &out->orbit;
  double t0, y[CS_ORBIT_MAX_N], T;
  char why[512] = ""; /* why there is no orbit: returned, and stored in the file */
  st = cs_orbit_guess(w, &cc.spec.orbit, 0.0, cfg->y0, cc.transient, &t0, y, &T);
  if (st != CS_OK)
    snprintf(why, sizeof why, "%s", cs_errmsg());
  else if ((st = cs_orbit_find(w, &cc.spec.orbit, t0, y, T, orb)) != CS_OK)
    snprintf(why, sizeof why, "%s", orb->note);
  size_t cols = 1 + m->n_state + (m->derived_fn ? m->n_derived : 0);
  if (st == CS_OK && !(out->trajectory = malloc(rows * cols * sizeof *out->trajectory)))
    snprintf(why, sizeof why, "%s", cs_strerror(st = CS_ERR_NOMEM));
  if (st == CS_OK) {
    st = cs_orbit_sample(w, &cc.spec.orbit, orb, rows, out->trajectory, NULL, NULL);
    if (st != CS_OK)
      snprintf(why, sizeof why, "%s", cs_errmsg());
  }
  cs_orbit_ws_free(w);
  if (st == CS_OK)
    out->rows = rows, out->cols = cols;
  else {
    free(out->trajectory);
    out->trajectory = NULL;
    if (!orb->note[0])
      snprintf(orb->note, sizeof orb->note, "%s", why);
  }
  enum cs_status wst = CS_OK;
  if (opts->path)
    wst = cs_orbit_h5_write(opts->path, cfg, opts->run ? opts->run : &no_run, orb, out->trajectory,
                            out->rows, st == CS_OK ? "ok" : "failed", st == CS_OK ? "" : why);
  if (st != CS_OK)
    return cs_error_set(st, "no periodic orbit (%s): %s", cs_strerror(st), why);
  return wst;
}
