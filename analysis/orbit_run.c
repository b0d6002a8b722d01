/* SPDX-License-Identifier: MIT */
/* Orbit and continuation runs from a parameter file (orbit_h5.h): what
 * `contensou orbit` and `contensou continue` do between reading their
 * arguments and printing, so that a program gets the same run in one call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/continuation2_h5.h"
#include "analysis/continuation_private.h"
#include "analysis/orbit_h5.h"
#include "core/error_private.h"
#include "io/config_private.h"
#include "analysis/orbit_private.h"
#include "analysis/orbit_h5_private.h"

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
  struct cs_continue_config cc;
  enum cs_status st = cs_continue_config_read(cfg, 0, &cc);
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
    if (!orb->note[0]) { /* the reason, cut to the note's size */
      size_t k = strnlen(why, sizeof orb->note - 1);
      memcpy(orb->note, why, k);
      orb->note[k] = '\0';
    }
  }
  enum cs_status wst = CS_OK;
  if (opts->path)
    wst = cs_orbit_h5_write(opts->path, cfg, opts->run ? opts->run : &no_run, orb, out->trajectory,
                            out->rows, st == CS_OK ? "ok" : "failed", st == CS_OK ? "" : why);
  if (st != CS_OK)
    return cs_error_set(st, "no periodic orbit (%s): %s", cs_strerror(st), why);
  return wst;
}

/* ------------------------------------------------------- continuation */

void cs_continue_run_free(struct cs_continue_run_result *r)
{
  if (!r)
    return;
  cs_branch_free(&r->branch);
  cs_branch_free(&r->equilibria);
  cs_curve_free(&r->curve);
  memset(r, 0, sizeof *r);
}

/* Where [continuation] start is, for messages: "file:line" or the file. */
static const char *start_where(const struct cs_config *cfg)
{
  const struct cs_config_raw *r = cs_config_raw_find(cfg, "continuation", "start");
  return r ? r->where : cfg->path;
}

/* start = sweep: the point's grid values set in params (cfg's unprepared
 * parameters, a copy), its state and time as the start; cc->at the
 * parameter's value there, no transient unless the file gives one. */
static enum cs_status sweep_start(const struct cs_config *cfg, const struct cs_continue_start *s,
                                  struct cs_continue_config *cc, void *params, double *t0,
                                  double *y)
{
  const struct cs_model *m = cfg->model;
  const char *where = start_where(cfg);
  if (!s || !s->state)
    return cs_error_set(CS_ERR_ARG, "%s: start: no sweep point given", where);
  if (!s->model || strcmp(s->model, m->name) != 0)
    return cs_error_set(CS_ERR_MISMATCH, "%s: start: '%s' is a sweep of %s, not of %s", where,
                        cc->sweep_file, s->model ? s->model : "?", m->name);
  if (s->n_state != m->n_state)
    return cs_error_set(CS_ERR_MISMATCH, "%s: start: '%s' stores %zu states, %s has %zu", where,
                        cc->sweep_file, s->n_state, m->name, m->n_state);
  for (size_t j = 0; j < s->nparam; j++)
    if (cs_model_set_param(m, params, s->param[j], s->value[j]) != CS_OK)
      return cs_error_set(
          CS_ERR_RANGE,
          "%s: start: the sweep's parameter %s = %g is not a parameter of %s in range", where,
          s->param[j], s->value[j], m->name);
  for (size_t i = 0; i < m->n_state; i++) {
    y[i] = s->state[i];
    if (!isfinite(y[i]) || !isfinite(s->t))
      return cs_error_set(CS_ERR_NONFINITE,
                          "start: point %ld of the %s pass of '%s' was not computed (or failed)",
                          cc->sweep_index, cc->sweep_pass ? "backward" : "forward", cc->sweep_file);
  }
  *t0 = s->t;
  cc->at = cs_model_get_param(m, params, cc->param);
  if (!(cc->at >= cc->spec.p_min && cc->at <= cc->spec.p_max))
    return cs_error_set(
        CS_ERR_RANGE, "%s: the sweep point's %s = %.10g is outside [min, max] = [%g, %g]",
        cfg->path, m->param[cc->param].name, cc->at, cc->spec.p_min, cc->spec.p_max);
  /* its final state is on the attractor: no transient unless asked */
  if (!cs_config_raw_find(cfg, "continuation", "transient"))
    cc->transient = 0.0;
  return CS_OK;
}

/* start = branch: the special point of a continuation file, checked. */
static enum cs_status branch_start(const struct cs_config *cfg, const struct cs_continue_config *cc,
                                   const struct cs_continue_start *s, struct cs_special *sp,
                                   int *cycles)
{
  const struct cs_model *m = cfg->model;
  const char *par = m->param[cc->param].name, *where = start_where(cfg);
  if (!s)
    return cs_error_set(CS_ERR_ARG, "%s: start: no special point given", where);
  if (!s->model || strcmp(s->model, m->name) != 0 || !s->parameter ||
      strcmp(s->parameter, par) != 0)
    return cs_error_set(CS_ERR_MISMATCH, "%s: start: '%s' is a branch of %s in %s, not of %s in %s",
                        where, cc->sweep_file, s->model ? s->model : "?",
                        s->parameter ? s->parameter : "?", m->name, par);
  if (!s->special)
    return cs_error_set(CS_ERR_ARG,
                        "%s: start: '%s' has no special point %ld (accepted: 0 ... %zu)", where,
                        cc->sweep_file, cc->sweep_index, s->n_special ? s->n_special - 1 : 0);
  *sp = *s->special;
  *cycles = s->cycles;
  for (size_t i = 0; i < m->n_state; i++)
    if (!isfinite(sp->pt.y[i]))
      return cs_error_set(CS_ERR_MISMATCH, "%s: start: '%s', special point %ld: no state %s", where,
                          cc->sweep_file, cc->sweep_index, m->state[i].name);
  if (!(sp->kind == CS_SPECIAL_HOPF || sp->kind == CS_SPECIAL_FOLD ||
        ((sp->kind == CS_SPECIAL_PERIOD_DOUBLING || sp->kind == CS_SPECIAL_NEIMARK_SACKER ||
          sp->kind == CS_SPECIAL_GRAZING) &&
         *cycles)))
    return cs_error_set(CS_ERR_ARG,
                        "%s: start: special point %ld of '%s' is a %s point (accepted: hopf, fold, "
                        "period-doubling, neimark-sacker, grazing)",
                        where, cc->sweep_index, cc->sweep_file, cs_special_name(sp->kind));
  return CS_OK;
}

/* start = curve: the codimension-two point of a curve file, checked; the
 * run's params get the point's parameter2. *born: the curve it starts. */
static enum cs_status curve_start(const struct cs_config *cfg, const struct cs_continue_config *cc,
                                  const struct cs_continue_start *s, void *params,
                                  struct cs_special *sp, enum cs_curve_kind *born)
{
  const struct cs_model *m = cfg->model;
  const char *p1 = m->param[cc->param].name, *p2 = m->param[cc->param2].name;
  const char *where = start_where(cfg);
  if (!s)
    return cs_error_set(CS_ERR_ARG, "%s: start: no codimension-two point given", where);
  if (!s->model || strcmp(s->model, m->name) != 0 || !s->parameter || !s->parameter2 ||
      strcmp(s->parameter, p1) != 0 || strcmp(s->parameter2, p2) != 0)
    return cs_error_set(
        CS_ERR_MISMATCH, "%s: start: '%s' is a curve of %s in (%s, %s), not of %s in (%s, %s)",
        where, cc->sweep_file, s->model ? s->model : "?", s->parameter ? s->parameter : "?",
        s->parameter2 ? s->parameter2 : "?", m->name, p1, p2);
  if (!s->special || s->codim2 < 0)
    return cs_error_set(
        CS_ERR_ARG, "%s: start: '%s' has no row %ld in /curve_special (accepted: 0 ... %zu)", where,
        cc->sweep_file, cc->sweep_index, s->n_special ? s->n_special - 1 : 0);
  const char *on = s->curve_kind ? s->curve_kind : "?";
  enum cs_codim2_kind k = (enum cs_codim2_kind)s->codim2;
  *sp = *s->special;
  if (k == CS_CODIM2_BT && strcmp(on, "fold") == 0)
    *born = CS_CURVE_HOPF, sp->kind = CS_SPECIAL_HOPF;
  else if (k == CS_CODIM2_BT && strcmp(on, "hopf") == 0)
    *born = CS_CURVE_FOLD, sp->kind = CS_SPECIAL_FOLD;
  else if (k == CS_CODIM2_BAUTIN && strcmp(on, "hopf") == 0)
    *born = CS_CURVE_FOLD_CYCLES, sp->kind = CS_SPECIAL_HOPF;
  else
    return cs_error_set(
        CS_ERR_ARG,
        "%s: start: row %ld of '%s' is a %s point of a %s curve, where no other curve is born "
        "(accepted: bogdanov-takens of a fold or Hopf curve, bautin of a Hopf curve)",
        where, cc->sweep_index, cc->sweep_file, cs_codim2_name(k), on);
  for (size_t i = 0; i < m->n_state; i++)
    if (!isfinite(sp->pt.y[i]))
      return cs_error_set(CS_ERR_MISMATCH, "%s: start: '%s', row %ld: no state %s", where,
                          cc->sweep_file, cc->sweep_index, m->state[i].name);
  if (cs_model_set_param(m, params, p2, s->value2) != CS_OK)
    return cs_error_set(CS_ERR_RANGE, "%s: start: %s = %.10g of '%s' is out of %s's range", where,
                        p2, s->value2, cc->sweep_file, m->name);
  return CS_OK;
}

/* The curve born at a codimension-two point, started from a nearby point:
 * parameter2 shifted by 2 % of the box to one side (larger first, then
 * smaller), the equilibria from the point's state, parameter 2 % of its
 * range below (above) the point's, upwards (downwards) up to their Hopf
 * point, and then
 * - Bogdanov-Takens -> Hopf curve: that Hopf point (the Hopf curve cannot
 *   start on the BT point itself, where omega = 0; on the side of neutral
 *   saddles there is none);
 * - Bautin -> fold of cycles: l1 = 0 there, so the cycles born at the Hopf
 *   point fold at once; nearby they fold where l1 and l2 have opposite
 *   signs (on one side only): the cycles from that Hopf point up to their
 *   first fold, which starts the curve (b: that branch of cycles).
 * params gets the p2 of the side taken. */
static enum cs_status near_start(const struct cs_config *cfg, struct cs_orbit_ws *w,
                                 const struct cs_continue_config *cc, void *params,
                                 enum cs_curve_kind born, double value2,
                                 const struct cs_special *at, struct cs_branch *b,
                                 struct cs_special *out, char *why, size_t len)
{
  const struct cs_model *m = cfg->model;
  const char *p2 = m->param[cc->param2].name;
  double width = cc->curve.max2 - cc->curve.min2;
  enum cs_status st = CS_ERR_NOT_FOUND;
  char tried[600] = "";
  for (int side = +1; side >= -1 && st == CS_ERR_NOT_FOUND; side -= 2) {
    double v2 = value2 + side * 0.02 * width;
    if (!(v2 >= cc->curve.min2 && v2 <= cc->curve.max2))
      continue;
    st = cs_model_set_param(m, params, p2, v2);
    if (st == CS_OK)
      st = cs_orbit_ws_set_base(w, params);
    if (st != CS_OK)
      return st;
    const struct cs_special *hopf = NULL, *fold = NULL;
    struct cs_branch eq[2];
    memset(eq, 0, sizeof eq);
    /* from a little below the point's parameter upwards, then from above
     * downwards (a branch does not report the point it starts on) */
    double d1 = 0.02 * (cc->spec.p_max - cc->spec.p_min);
    for (int d = 0; d < 2 && !hopf; d++) {
      struct cs_continue_spec es = cc->spec;
      es.stop_at_hopf = 1;
      es.direction = d ? -1 : +1;
      memset(es.stop_after, 0, sizeof es.stop_after);
      double p0 = at->pt.p - es.direction * d1;
      if (!(p0 >= es.p_min && p0 <= es.p_max) ||
          cs_continue_equilibria(w, &es, p0, at->pt.y, &eq[d]) != CS_OK)
        continue;
      for (size_t i = 0; i < eq[d].n_special && !hopf; i++)
        if (eq[d].special[i].kind == CS_SPECIAL_HOPF)
          hopf = &eq[d].special[i];
    }
    if (hopf && born == CS_CURVE_FOLD_CYCLES) {
      struct cs_continue_spec cs = cc->spec;
      memset(cs.stop_after, 0, sizeof cs.stop_after);
      cs_branch_free(b);
      if (cs_continue_cycles_from_hopf(w, &cs, hopf, b) == CS_OK)
        for (size_t i = 0; i < b->n_special && !fold; i++)
          if (b->special[i].kind == CS_SPECIAL_FOLD)
            fold = &b->special[i];
    }
    size_t k = strlen(tried);
    snprintf(tried + k, sizeof tried - k, "%s%s = %.10g: %s", k ? "; " : "", p2, v2,
             !hopf                                   ? "no Hopf point near"
             : born == CS_CURVE_FOLD_CYCLES && !fold ? "its cycles do not fold"
                                                     : "found");
    if (born == CS_CURVE_HOPF && hopf)
      *out = *hopf, st = CS_OK;
    else if (fold)
      *out = *fold, st = CS_OK;
    else
      st = CS_ERR_NOT_FOUND;
    cs_branch_free(&eq[0]), cs_branch_free(&eq[1]);
  }
  if (st == CS_ERR_NOT_FOUND)
    snprintf(why, len, "no %s near the %s point (%s)",
             born == CS_CURVE_HOPF ? "Hopf point" : "fold of cycles",
             born == CS_CURVE_HOPF ? "Bogdanov-Takens" : "Bautin", tried);
  return st;
}

/* With parameter2: the one-parameter branch to the first special point
 * `start` names (or the file's point), then its curve in (parameter,
 * parameter2). why: the reason when there is none. */
static enum cs_status run_curve(const struct cs_config *cfg, struct cs_orbit_ws *w, double t_start,
                                const double *y_start, void *params, enum cs_curve_kind born,
                                struct cs_continue_run_result *out, char *why, size_t len)
{
  const struct cs_model *m = cfg->model;
  const struct cs_continue_config *cc = &out->settings;
  struct cs_branch *b = &out->branch;
  enum cs_special_kind want;
  enum cs_status st;
  int cycles = cc->branch == CS_BRANCH_CYCLE && cc->start != CS_CONTINUE_FROM_HOPF;
  if (cc->start == CS_CONTINUE_FROM_CURVE) {
    /* a codimension-two point: the curve born there */
    out->curve_kind = born;
    clock_t c0 = clock();
    if (born != CS_CURVE_FOLD) {
      struct cs_special at = out->curve_start;
      double v2 = cs_model_get_param(m, params, cc->param2);
      b->kind = born == CS_CURVE_FOLD_CYCLES ? CS_BRANCH_CYCLE : CS_BRANCH_EQUILIBRIUM;
      b->autonomous = 1;
      b->n = m->n_state;
      st = near_start(cfg, w, cc, params, born, v2, &at, b, &out->curve_start, why, len);
      out->curve_start_cycles = born == CS_CURVE_FOLD_CYCLES;
      if (st == CS_OK)
        st = cs_continue_curve(w, params, &cc->curve, born, &out->curve_start, &out->curve);
    } else {
      b->kind = CS_BRANCH_EQUILIBRIUM;
      b->autonomous = 1;
      b->n = m->n_state;
      st = cs_continue_curve_from_bt(w, params, &cc->curve, born, &out->curve_start, &out->curve);
    }
    out->cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (st != CS_OK && !why[0])
      snprintf(why, len, "%s", cs_errmsg());
    return st;
  }
  if (cc->start == CS_CONTINUE_FROM_BRANCH) {
    /* no branch: the point comes from the file */
    const struct cs_special *f = &out->curve_start;
    cycles = out->curve_start_cycles;
    out->curve_kind = f->kind == CS_SPECIAL_HOPF              ? CS_CURVE_HOPF
                      : f->kind == CS_SPECIAL_PERIOD_DOUBLING ? CS_CURVE_PERIOD_DOUBLING
                      : f->kind == CS_SPECIAL_NEIMARK_SACKER  ? CS_CURVE_NEIMARK_SACKER
                      : f->kind == CS_SPECIAL_GRAZING         ? CS_CURVE_GRAZING
                      : cycles                                ? CS_CURVE_FOLD_CYCLES
                                                              : CS_CURVE_FOLD;
    b->kind = cycles ? CS_BRANCH_CYCLE : CS_BRANCH_EQUILIBRIUM;
    b->autonomous = 1;
    b->n = m->n_state;
  } else {
    if (cc->start == CS_CONTINUE_FROM_SWEEP) /* curve = KIND: from the sweep point's branch */
      want = cc->curve_at,
      out->curve_kind = want == CS_SPECIAL_HOPF              ? CS_CURVE_HOPF
                        : want == CS_SPECIAL_PERIOD_DOUBLING ? CS_CURVE_PERIOD_DOUBLING
                        : want == CS_SPECIAL_NEIMARK_SACKER  ? CS_CURVE_NEIMARK_SACKER
                        : cycles                             ? CS_CURVE_FOLD_CYCLES
                                                             : CS_CURVE_FOLD;
    else if (cc->start == CS_CONTINUE_FROM_HOPF)
      out->curve_kind = CS_CURVE_HOPF, want = CS_SPECIAL_HOPF;
    else if (cc->start == CS_CONTINUE_FROM_PD)
      out->curve_kind = CS_CURVE_PERIOD_DOUBLING, want = CS_SPECIAL_PERIOD_DOUBLING;
    else if (cc->start == CS_CONTINUE_FROM_NS)
      out->curve_kind = CS_CURVE_NEIMARK_SACKER, want = CS_SPECIAL_NEIMARK_SACKER;
    else if (cc->start == CS_CONTINUE_FROM_GRAZING)
      out->curve_kind = CS_CURVE_GRAZING, want = CS_SPECIAL_GRAZING;
    else
      out->curve_kind = cycles ? CS_CURVE_FOLD_CYCLES : CS_CURVE_FOLD, want = CS_SPECIAL_FOLD;
    if (!cycles) {
      struct cs_continue_spec es = cc->spec;
      es.stop_at_hopf = out->curve_kind == CS_CURVE_HOPF;
      st = cs_continue_equilibria(w, &es, cc->at, y_start, b);
    } else {
      double t1, y[CS_ORBIT_MAX_N], T;
      st = cs_orbit_ws_set_param(w, cc->at);
      if (st == CS_OK)
        st = cs_orbit_guess(w, &cc->spec.orbit, t_start, y_start, cc->transient, &t1, y, &T);
      /* forced: the guess at t1 (whole forcing periods) is the cycle's point
       * at t = 0 too; from 0 the curve's points stay at forcing phase 0
       * when p1 is the forcing frequency (t1 Tf(p)/Tf(at) would not) */
      if (st == CS_OK)
        st =
            cs_continue_cycles(w, &cc->spec, cc->at, cs_orbit_ws_autonomous(w) ? t1 : 0.0, y, T, b);
    }
    if (st != CS_OK) {
      snprintf(why, len, "no branch: %s", cs_errmsg());
      return st;
    }
    const struct cs_special *sp = NULL;
    for (size_t i = 0; i < b->n_special && !sp; i++)
      if (b->special[i].kind == want)
        sp = &b->special[i];
    if (!sp) {
      snprintf(why, len, "no %s point on the %s branch from %s = %.10g (%s)", cs_special_name(want),
               cycles ? "cycle" : "equilibrium", m->param[cc->param].name, cc->at, b->end_note);
      return CS_ERR_NOT_FOUND;
    }
    out->curve_start = *sp;
    out->curve_start_cycles = cycles;
    /* a grazing's p was extrapolated from the last orbit's margin: the
     * curve starts from that orbit at its own p (Newton moves p onto the
     * grazing) */
    if (sp->kind == CS_SPECIAL_GRAZING && sp->after < b->n_points)
      out->curve_start.pt.p = b->points[sp->after].p;
  }
  clock_t c0 = clock();
  st = cs_continue_curve(w, cfg->params_unprepared, &cc->curve, out->curve_kind, &out->curve_start,
                         &out->curve);
  out->cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
  if (st != CS_OK)
    snprintf(why, len, "%s", cs_errmsg());
  return st;
}

/* Without parameter2: the branch of equilibria, of cycles from a state, or
 * of cycles from the first Hopf point of the equilibria. */
static enum cs_status run_branch(const struct cs_config *cfg, struct cs_orbit_ws *w, double t_start,
                                 const double *y_start, struct cs_continue_run_result *out,
                                 char *why, size_t len)
{
  const struct cs_continue_config *cc = &out->settings;
  enum cs_status st;
  if (cc->branch == CS_BRANCH_EQUILIBRIUM)
    st = cs_continue_equilibria(w, &cc->spec, cc->at, y_start, &out->branch);
  else if (cc->start == CS_CONTINUE_FROM_HOPF) {
    struct cs_continue_spec es = cc->spec;
    es.stop_at_hopf = 1;
    memset(es.stop_after, 0, sizeof es.stop_after); /* the user's stops are the cycles' */
    struct cs_branch *eq = &out->equilibria;
    st = cs_continue_equilibria(w, &es, cc->at, cfg->y0, eq);
    for (size_t i = 0; st == CS_OK && i < eq->n_special && !out->hopf; i++)
      if (eq->special[i].kind == CS_SPECIAL_HOPF)
        out->hopf = &eq->special[i];
    if (st == CS_OK && !out->hopf) {
      snprintf(why, len, "no Hopf point on the equilibrium branch from %s = %.10g %s (%s)",
               cfg->model->param[cc->param].name, cc->at,
               cc->spec.direction > 0 ? "upwards" : "downwards", eq->end_note);
      return CS_ERR_NOT_FOUND;
    }
    if (st == CS_OK)
      st = cs_continue_cycles_from_hopf(w, &cc->spec, out->hopf, &out->branch);
  } else {
    double t0, y[CS_ORBIT_MAX_N], T;
    st = cs_orbit_ws_set_param(w, cc->at);
    if (st == CS_OK)
      st = cs_orbit_guess(w, &cc->spec.orbit, t_start, y_start, cc->transient, &t0, y, &T);
    /* forced: from t = 0 (t0 is whole forcing periods), so that every
     * point's section is at forcing phase 0 also when p is the frequency */
    if (st == CS_OK)
      st = cs_continue_cycles(w, &cc->spec, cc->at, cs_orbit_ws_autonomous(w) ? t0 : 0.0, y, T,
                              &out->branch);
  }
  if (st != CS_OK)
    snprintf(why, len, "%s", cs_errmsg());
  return st;
}

enum cs_status cs_continue_run(const struct cs_config *cfg, const struct cs_continue_run_opts *opts,
                               struct cs_continue_run_result *out)
{
  static const struct cs_continue_run_opts none = {0};
  static const struct cs_run_info no_run = {0};
  if (!out)
    return cs_error_set(CS_ERR_ARG, "cs_continue_run: no result");
  memset(out, 0, sizeof *out);
  if (!cfg || !cfg->model)
    return cs_error_set(CS_ERR_ARG, "cs_continue_run: no parameter file");
  if (!opts)
    opts = &none;
  struct cs_continue_config *cc = &out->settings;
  enum cs_status st = CS_OK;
  if (opts->settings)
    *cc = *opts->settings;
  else if ((st = cs_continue_config_read(cfg, 1, cc)) != CS_OK)
    return st;
  const struct cs_model *m = cfg->model;
  /* the run's parameters: cfg's, with a sweep point's grid values */
  struct cs_config run_cfg = *cfg; /* shares cfg's allocations: never freed */
  void *params = malloc(m->params_size);
  if (!params)
    return cs_error_set(CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM));
  memcpy(params, cfg->params_unprepared, m->params_size);
  run_cfg.params_unprepared = params;
  double t_start = 0.0, y_start[CS_ORBIT_MAX_N];
  memcpy(y_start, cfg->y0, m->n_state * sizeof *y_start);
  if (cc->start == CS_CONTINUE_FROM_SWEEP)
    st = sweep_start(cfg, opts->start, cc, params, &t_start, y_start);
  else if (cc->start == CS_CONTINUE_FROM_BRANCH && cc->param2 >= 0)
    st = branch_start(cfg, cc, opts->start, &out->curve_start, &out->curve_start_cycles);
  enum cs_curve_kind born = CS_CURVE_FOLD;
  if (cc->start == CS_CONTINUE_FROM_CURVE && cc->param2 >= 0)
    st = curve_start(cfg, cc, opts->start, params, &out->curve_start, &born);
  struct cs_orbit_ws *w = NULL;
  if (st == CS_OK && !(w = cs_orbit_ws_create(m, params, cc->param)))
    st = CS_ERR_NOMEM; /* the reason is in cs_errmsg() */
  if (st != CS_OK) {
    free(params);
    return st;
  }
  out->searched = 1;
  out->two_parameter = cc->param2 >= 0;
  char why[1024] = ""; /* why there is no branch */
  st = out->two_parameter
           ? run_curve(&run_cfg, w, t_start, y_start, params, born, out, why, sizeof why)
           : run_branch(&run_cfg, w, t_start, y_start, out, why, sizeof why);
  cs_orbit_ws_free(w);
  const struct cs_run_info *run = opts->run ? opts->run : &no_run;
  enum cs_status wst = CS_OK;
  if (st == CS_OK && opts->path && out->two_parameter) {
    struct cs_curve_h5 ch = {m, cc->param, cc->param2, &cc->curve, &out->curve, out->cpu_seconds};
    wst = cs_branch_h5_write_with(opts->path, &run_cfg, run, cc, &out->branch, NULL,
                                  cs_curve_h5_add, &ch, "ok", out->curve.end_note);
  } else if (st == CS_OK && opts->path)
    wst = cs_branch_h5_write(opts->path, &run_cfg, run, cc, &out->branch,
                             out->hopf ? &out->equilibria : NULL, "ok", out->branch.end_note);
  free(params);
  if (st != CS_OK)
    return cs_error_set(st, "no %s (%s): %s", out->two_parameter ? "curve" : "branch",
                        cs_strerror(st), why);
  return wst;
}
