/* SPDX-License-Identifier: MIT */
/* [sweep] keys -> struct cs_sweep_spec, with the loader's error format. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error_private.h"
#include "io/config_private.h"
#include "sweep/sweep.h"

static int parameter(struct cs_config_parse *p, const char *key, int required, int *out)
{
  const struct cs_config_raw *r = cs_config_i_get(p, key);
  const struct cs_model *m = p->cfg->model;
  if (!r) {
    if (required)
      cs_config_i_err(p, NULL, key, CS_ERR_PARSE,
                      "missing in [sweep] (accepted: a parameter of %s)", m->name);
    return 0;
  }
  int k = cs_model_param_index(m, r->value);
  if (k < 0) {
    char acc[600] = "";
    for (size_t i = 0; i < m->n_param; i++)
      snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", i ? ", " : "",
               m->param[i].name);
    return cs_config_i_err(p, r, key, CS_ERR_RANGE, "'%s' is not a parameter of %s (accepted: %s)",
                           r->value, m->name, acc);
  }
  *out = k;
  return 1;
}

/* from/to inside the parameter's range, and > 0 for log spacing. */
static void range(struct cs_config_parse *p, int param, const char *kfrom, const char *kto,
                  int logsp, int one_point, double *from, double *to)
{
  const struct cs_param_desc *d = &p->cfg->model->param[param];
  char acc[200];
  snprintf(acc, sizeof acc, "%.6g <= %s <= %.6g [%s]%s", d->min, d->name, d->max, d->unit,
           logsp ? ", > 0 for log spacing" : "");
  double lo = logsp ? fmax(d->min, 1e-300) : d->min;
  if (!cs_config_i_number(p, kfrom, lo, d->max, acc, from) && p->st == CS_OK)
    cs_config_i_err(p, NULL, kfrom, CS_ERR_PARSE, "missing in [sweep] (accepted: %s)", acc);
  int has_to = cs_config_i_number(p, kto, lo, d->max, acc, to);
  if (!has_to && one_point && p->st == CS_OK)
    *to = *from; /* one point: the range is that point */
  else if (!has_to && p->st == CS_OK)
    cs_config_i_err(p, NULL, kto, CS_ERR_PARSE, "missing in [sweep] (accepted: %s)", acc);
  if (p->st == CS_OK && *from == *to && !one_point)
    cs_config_i_err(p, cs_config_i_get(p, kto), kto, CS_ERR_RANGE,
                    "equals %s (accepted: a different value, or points = 1 for one point)", kfrom);
  if (p->st == CS_OK && *from != *to && one_point)
    cs_config_i_err(
        p, cs_config_i_get(p, kto), kto, CS_ERR_RANGE,
        "%.10g is not %s = %.10g: one point (points = 1) is no range (accepted: %s = %.10g, or "
        "no %s; on the command line --set sweep.%s=%.10g)",
        *to, kfrom, *from, kto, *from, kto, kto, *from);
  /* the grid and the pass names (forward: increasing) assume from < to */
  if (p->st == CS_OK && *to < *from)
    cs_config_i_err(
        p, cs_config_i_get(p, kto), kto, CS_ERR_RANGE,
        "%.10g is below %s = %.10g (accepted: %s > %s; a downward sweep is direction = backward)",
        *to, kfrom, *from, kto, kfrom);
}

enum cs_status cs_sweep_spec_from_config(const struct cs_config *cfg, struct cs_sweep_spec *spec)
{
  struct cs_config_parse p = {cfg, "sweep", CS_OK};
  memset(spec, 0, sizeof *spec);
  spec->param = -1;
  spec->param2 = -1;
  spec->continuation = 1;
  spec->direction = CS_SWEEP_FORWARD;
  spec->spacing = CS_SPACING_LINEAR;
  spec->overlap = 3;
  spec->point = cs_point_spec_default();
  spec->point.solver = cfg->solver;
  spec->point.section = cfg->section;
  spec->point.transient = 10.0;
  spec->point.record = 10.0;

  static const char *const spacings[] = {"linear", "log", NULL};
  static const char *const directions[] = {"forward", "backward", "both", NULL};
  static const char *const lyap[] = {"none", "largest", "spectrum", NULL};
  int sp = 0, dir = 0, ly = spec->point.lyapunov;

  parameter(&p, "parameter", 1, &spec->param);
  cs_config_i_choice(&p, "spacing", spacings, &sp);
  spec->spacing = (enum cs_sweep_spacing)sp;
  double step = 0;
  int has_points = cs_config_i_size(&p, "points", 1, 10000000, &spec->points);
  if (p.st == CS_OK)
    range(&p, spec->param, "from", "to", sp == CS_SPACING_LOG, has_points && spec->points == 1,
          &spec->from, &spec->to);
  int has_step =
      cs_config_i_number(&p, "step", 1e-300, 1e300, "a number > 0 in the parameter's unit", &step);
  if (p.st == CS_OK) {
    if (has_points && has_step)
      cs_config_i_err(&p, cs_config_i_get(&p, "step"), "step", CS_ERR_PARSE,
                      "points and step are alternatives: give one");
    else if (has_step && sp == CS_SPACING_LOG)
      cs_config_i_err(&p, cs_config_i_get(&p, "step"), "step", CS_ERR_PARSE,
                      "not with log spacing (accepted: points)");
    else if (has_step)
      spec->points = (size_t)floor(fabs(spec->to - spec->from) / step + 1e-9) + 1;
    else if (!has_points)
      spec->points = 100;
    if (p.st == CS_OK && has_step && spec->points < 2)
      cs_config_i_err(&p, cs_config_i_get(&p, "step"), "step", CS_ERR_RANGE,
                      "larger than the range (accepted: a step "
                      "giving at least 2 points)");
  }
  cs_config_i_choice(&p, "direction", directions, &dir);
  spec->direction = (enum cs_sweep_direction)dir;
  cs_config_i_bool(&p, "continuation", &spec->continuation);
  cs_config_i_number(&p, "transient", 0, 1e12, "a time >= 0 in the model's time unit",
                     &spec->point.transient);
  cs_config_i_number(&p, "record", 0, 1e12,
                     "a time >= 0 in the model's time unit (0: crossings only)",
                     &spec->point.record);
  cs_config_i_size(&p, "record_crossings", 0, 100000000, &spec->point.record_crossings);
  if (p.st == CS_OK && spec->point.record <= 0 && spec->point.record_crossings == 0)
    cs_config_i_err(&p, cs_config_i_get(&p, "record"), "record", CS_ERR_RANGE,
                    "the recording window is empty (accepted: record > 0 or record_crossings > 0)");
  cs_config_i_bool(&p, "adaptive_transient", &spec->point.adaptive_transient);
  spec->point.transient_max = 10 * spec->point.transient;
  cs_config_i_number(&p, "transient_max", 0, 1e12, "a time >= transient",
                     &spec->point.transient_max);
  if (p.st == CS_OK && spec->point.transient_max < spec->point.transient)
    spec->point.transient_max = spec->point.transient;
  size_t mp = (size_t)spec->point.max_period;
  if (cs_config_i_size(&p, "max_period", 1, 1024, &mp))
    spec->point.max_period = (int)mp;
  ly = 1;
  cs_config_i_choice(&p, "lyapunov", lyap, &ly);
  spec->point.lyapunov = ly;
  /* the exponent over five recording windows (or 100 forcing periods / time
   * units with a crossings-only window), renormalised 200 times: its
   * standard error then separates chaos from quasi-periodicity */
  double Tf = cfg->model->forcing_period ? cfg->model->forcing_period(cfg->params) : 0.0;
  spec->point.lyapunov_time =
      spec->point.record > 0 ? 5.0 * spec->point.record : 100.0 * (Tf > 0 ? Tf : 1.0);
  cs_config_i_number(&p, "lyapunov_time", 1e-9, 1e12, "a time > 0 in the model's time unit",
                     &spec->point.lyapunov_time);
  spec->point.lyapunov_renorm = spec->point.lyapunov_time / 200.0;
  cs_config_i_number(&p, "lyapunov_rtol", 0, 0.1,
                     "a relative tolerance in [0, 0.1], 0: the solver's rtol",
                     &spec->point.lyapunov_rtol);
  cs_config_i_number(&p, "period_tol", 0, 0.1, "a relative tolerance in [0, 0.1], 0: 1e3 rtol",
                     &spec->point.period_tol);
  spec->chunk = 32;
  cs_config_i_size(&p, "chunk", 0, 100000000, &spec->chunk);
  cs_config_i_size(&p, "overlap", 0, 1000, &spec->overlap);
  if (parameter(&p, "parameter2", 0, &spec->param2) && p.st == CS_OK) {
    range(&p, spec->param2, "from2", "to2", sp == CS_SPACING_LOG, 0, &spec->from2, &spec->to2);
    spec->points2 = 20;
    cs_config_i_size(&p, "points2", 2, 100000, &spec->points2);
    if (p.st == CS_OK && spec->param2 == spec->param)
      cs_config_i_err(&p, cs_config_i_get(&p, "parameter2"), "parameter2", CS_ERR_RANGE,
                      "same as parameter (accepted: another parameter)");
  } else if (p.st == CS_OK) {
    const char *k2[] = {"from2", "to2", "points2"};
    for (int i = 0; i < 3; i++)
      if (cs_config_i_get(&p, k2[i]))
        cs_config_i_err(&p, cs_config_i_get(&p, k2[i]), k2[i], CS_ERR_PARSE, "needs parameter2");
  }
  /* the grid a file and a resume hold (cs_sweep_h5_open_resume's limit) */
  if (p.st == CS_OK && spec->points2 &&
      (spec->points > CS_SWEEP_MAX_POINTS / spec->points2 ||
       spec->points * spec->points2 > CS_SWEEP_MAX_POINTS))
    cs_config_i_err(
        &p, cs_config_i_get(&p, "points2"), "points2", CS_ERR_RANGE,
        "points x points2 = %zu x %zu is more than %d grid points (accepted: a product of at "
        "most %d)",
        spec->points, spec->points2, CS_SWEEP_MAX_POINTS, CS_SWEEP_MAX_POINTS);
  cs_config_i_bool(&p, "refine", &spec->refine);
  /* a 2-D map detects no changes between neighbours and computes no
   * equilibria: asking for them would be ignored */
  if (p.st == CS_OK && spec->points2 && spec->refine)
    cs_config_i_err(
        &p, cs_config_i_get(&p, "refine"), "refine", CS_ERR_RANGE,
        "true is for 1-D sweeps: a 2-D map (parameter2) has no changes to refine (accepted: "
        "false, or no parameter2)");
  spec->refine_tol =
      spec->points > 1 ? fabs(spec->to - spec->from) / (double)(spec->points - 1) / 1000.0 : 1e-9;
  cs_config_i_number(&p, "refine_tol", 1e-300, 1e300, "a number > 0 in the parameter's unit",
                     &spec->refine_tol);
  cs_config_i_bool(&p, "equilibria", &spec->equilibria);
  if (p.st == CS_OK && spec->points2 && spec->equilibria)
    cs_config_i_err(
        &p, cs_config_i_get(&p, "equilibria"), "equilibria", CS_ERR_RANGE,
        "true is for 1-D sweeps: a 2-D map (parameter2) computes no equilibria (accepted: "
        "false, or no parameter2)");
  spec->multipliers = 1;
  cs_config_i_bool(&p, "multipliers", &spec->multipliers);
  spec->newton_continuation = 1;
  cs_config_i_bool(&p, "newton_continuation", &spec->newton_continuation);
  if (p.st == CS_OK && spec->points2 && spec->direction == CS_SWEEP_BOTH)
    cs_config_i_err(&p, cs_config_i_get(&p, "direction"), "direction", CS_ERR_RANGE,
                    "both is for 1-D sweeps (accepted: forward, backward)");
  return p.st;
}

enum cs_status cs_sweep_spec_init(const struct cs_model *m, const char *parameter, double from,
                                  double to, size_t points, struct cs_sweep_spec *spec)
{
  if (!m || !parameter || !spec)
    return cs_error_set(CS_ERR_ARG, "cs_sweep_spec_init: missing model, parameter or spec");
  memset(spec, 0, sizeof *spec);
  spec->param = cs_model_param_index(m, parameter);
  if (spec->param < 0)
    return cs_error_set(CS_ERR_NOT_FOUND, "sweep: model %s has no parameter '%s'", m->name,
                        parameter);
  const struct cs_param_desc *d = &m->param[spec->param];
  if (!isfinite(from) || !isfinite(to) || from < d->min || from > d->max || to < d->min ||
      to > d->max)
    return cs_error_set(CS_ERR_RANGE, "sweep: %s from %g to %g leaves the accepted range [%g, %g]",
                        d->name, from, to, d->min, d->max);
  if (to < from) /* the grid and the pass names (forward: increasing) assume from <= to */
    return cs_error_set(CS_ERR_RANGE,
                        "sweep: %s to = %g is below from = %g (accepted: to > from; a downward "
                        "sweep is direction = backward)",
                        d->name, to, from);
  if (points < 1 || (points == 1 && from != to))
    return cs_error_set(CS_ERR_RANGE, "sweep: points = %zu (accepted: >= 2, or 1 with from = to)",
                        points);
  spec->from = from, spec->to = to, spec->points = points;
  spec->param2 = -1;
  spec->continuation = 1;
  spec->direction = CS_SWEEP_FORWARD;
  spec->spacing = CS_SPACING_LINEAR;
  spec->overlap = 3;
  spec->chunk = 32;
  spec->point = cs_point_spec_default();
  spec->point.solver = cs_integrator_opts_default();
  spec->point.section = m->section;
  spec->point.transient = 10.0;
  spec->point.transient_max = 100.0;
  spec->point.record = 10.0;
  spec->point.lyapunov = 1;
  spec->point.lyapunov_time = 5.0 * spec->point.record;
  spec->point.lyapunov_renorm = spec->point.lyapunov_time / 200.0;
  spec->refine_tol = points > 1 ? fabs(to - from) / (double)(points - 1) / 1000.0 : 1e-9;
  spec->multipliers = 1;
  spec->newton_continuation = 1;
  return CS_OK;
}
