/* SPDX-License-Identifier: MIT */
/* The eps sweep study (study/eps_sweep.h): one sweep per eps, compared with
 * the reference's. Above the sweep layer because it runs sweeps. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "study/eps_sweep.h"
#include "analysis/eps_private.h"

#define SCALE_FLOOR 1e-300 /* a reference range below this scales by 1 */

/* Same wrapping as the time-series comparison (analysis/eps.c). */
static double wrap_angle(double x)
{
  return x - 2 * M_PI * ceil((x - M_PI) / (2 * M_PI));
}

/* ------------------------------------------------------------ sweep study */

/* Keeps the last cycle of every finished point (called one at a time). */
struct cycle_sink {
  const struct cs_model *m;
  const struct cs_sweep_spec *sw;
  struct cs_eps_sweep_run *run;
};

static int keep_cycle(void *ctx, const struct cs_sweep_point *pt)
{
  struct cycle_sink *s = ctx;
  const struct cs_point_result *res = pt->res;
  const size_t ns = s->m->n_state;
  const int kmax = s->sw->point.max_period;
  int p = pt->pass;
  if (p < 0 || p > 1 || !s->run->cycle[p] || pt->index >= cs_sweep_npoints(s->sw))
    return 0;
  double *dst = s->run->cycle[p] + pt->index * (size_t)kmax * ns;
  int len = 0;
  if (res->cls == CS_CLASS_EQUILIBRIUM && res->equilibrium) {
    memcpy(dst, res->equilibrium, ns * sizeof *dst);
    len = 1;
  } else if (res->cls == CS_CLASS_PERIODIC && res->period > 0 && res->period <= kmax &&
             res->n_section >= (size_t)res->period && res->section_cols >= 1 + ns) {
    len = res->period;
    for (int i = 0; i < len; i++) {
      const double *row =
          res->section + (res->n_section - (size_t)len + (size_t)i) * res->section_cols;
      memcpy(dst + (size_t)i * ns, row + 1, ns * sizeof *dst);
    }
  }
  s->run->cycle_len[p][pt->index] = len;
  return 0;
}

static void sweep_run_free(struct cs_eps_sweep_run *r)
{
  cs_sweep_outcome_free(&r->outcome);
  for (int p = 0; p < 2; p++)
    free(r->cycle[p]), free(r->cycle_len[p]);
  for (size_t i = 0; r->points && i < r->n_points; i++)
    free(r->points[i].diff);
  free(r->points);
  free(r->section_max);
  free(r->shifts);
  memset(r, 0, sizeof *r);
}

void cs_eps_sweep_result_free(struct cs_eps_sweep_result *r)
{
  if (!r)
    return;
  sweep_run_free(&r->reference);
  for (size_t k = 0; r->runs && k < r->n_eps; k++)
    sweep_run_free(&r->runs[k]);
  free(r->runs);
  memset(r, 0, sizeof *r);
}

/* Position of a bifurcation: the estimate, else the middle of the bracket. */
static double bif_pos(const struct cs_bifurcation *b)
{
  return isfinite(b->estimate) ? b->estimate : 0.5 * (b->p_left + b->p_right);
}

/* Compares the cycles of one grid point; fills diff (n_state). 0 if not comparable. */
static int compare_cycles(const struct cs_model *m, const double *a, const double *b, int k,
                          const double *scale, double *diff)
{
  const size_t ns = m->n_state;
  int best = 0;
  double best_cost = INFINITY;
  for (int s = 0; s < k; s++) {
    double cost = 0;
    for (int i = 0; i < k; i++)
      for (size_t j = 0; j < ns; j++) {
        double x = a[(size_t)((i + s) % k) * ns + j] - b[(size_t)i * ns + j];
        if (m->state[j].angle)
          x = wrap_angle(x);
        x /= scale[j];
        cost += x * x;
      }
    if (cost < best_cost)
      best_cost = cost, best = s;
  }
  if (!isfinite(best_cost))
    return 0;
  for (size_t j = 0; j < ns; j++) {
    double mx = 0;
    for (int i = 0; i < k; i++) {
      double x = a[(size_t)((i + best) % k) * ns + j] - b[(size_t)i * ns + j];
      if (m->state[j].angle)
        x = wrap_angle(x);
      mx = fmax(mx, fabs(x));
    }
    diff[j] = mx;
  }
  return 1;
}

/* Compares eps run e with the reference ref. */
static enum cs_status sweep_compare(const struct cs_model *m, const struct cs_sweep_spec *sw,
                                    const struct cs_eps_sweep_run *ref, struct cs_eps_sweep_run *e)
{
  const size_t ns = m->n_state, np = cs_sweep_npoints(sw);
  const int kmax = sw->point.max_period;
  e->section_max = malloc(ns * sizeof *e->section_max);
  e->points = calloc(2 * np, sizeof *e->points);
  e->shifts = calloc(ref->outcome.n_bif ? ref->outcome.n_bif : 1, sizeof *e->shifts);
  double *scale = malloc(ns * sizeof *scale), *lo = malloc(ns * sizeof *lo),
         *hi = malloc(ns * sizeof *hi);
  if (!e->section_max || !e->points || !e->shifts || !scale || !lo || !hi) {
    free(scale), free(lo), free(hi);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  for (size_t j = 0; j < ns; j++)
    e->section_max[j] = NAN;
  for (int p = 0; p < 2; p++) {
    const struct cs_sweep_record *ra = ref->outcome.records[p], *rb = e->outcome.records[p];
    if (!ra || !rb)
      continue;
    /* the ranges of the reference's cycles of this pass */
    for (size_t j = 0; j < ns; j++)
      lo[j] = INFINITY, hi[j] = -INFINITY;
    for (size_t i = 0; i < np; i++)
      for (int c = 0; c < ref->cycle_len[p][i]; c++)
        for (size_t j = 0; j < ns; j++) {
          double x = ref->cycle[p][(i * (size_t)kmax + (size_t)c) * ns + j];
          lo[j] = fmin(lo[j], x), hi[j] = fmax(hi[j], x);
        }
    for (size_t j = 0; j < ns; j++) {
      double rg = hi[j] - lo[j];
      scale[j] = isfinite(rg) && rg > SCALE_FLOOR ? rg : 1.0;
    }
    for (size_t i = 0; i < np; i++) {
      if (!ra[i].done || !rb[i].done)
        continue;
      e->compared++;
      int same = ra[i].cls == rb[i].cls && ra[i].period == rb[i].period;
      e->class_mismatches += !same;
      int la = ref->cycle_len[p][i], lb = e->cycle_len[p][i];
      if (!same || la == 0 || la != lb)
        continue;
      struct cs_eps_sweep_point *pt = &e->points[e->n_points];
      pt->diff = malloc(ns * sizeof *pt->diff);
      if (!pt->diff) {
        free(scale), free(lo), free(hi);
        return CS_FAIL(CS_ERR_NOMEM);
      }
      if (!compare_cycles(m, e->cycle[p] + i * (size_t)kmax * ns,
                          ref->cycle[p] + i * (size_t)kmax * ns, la, scale, pt->diff)) {
        free(pt->diff);
        pt->diff = NULL;
        continue;
      }
      pt->pass = p;
      pt->index = i;
      cs_sweep_values(sw, i, &pt->p, NULL);
      pt->period = ra[i].cls == CS_CLASS_PERIODIC ? ra[i].period : 0;
      for (size_t j = 0; j < ns; j++)
        e->section_max[j] =
            isnan(e->section_max[j]) ? pt->diff[j] : fmax(e->section_max[j], pt->diff[j]);
      e->n_points++;
    }
  }
  free(scale), free(lo), free(hi);
  /* the bifurcations */
  e->shift_max = NAN;
  for (size_t i = 0; i < ref->outcome.n_bif; i++) {
    const struct cs_bifurcation *b = &ref->outcome.bif[i];
    struct cs_eps_shift *s = &e->shifts[e->n_shifts++];
    s->pass = b->pass;
    s->kind = b->kind;
    s->p_ref = bif_pos(b);
    s->p_eps = s->shift = NAN;
    double best = INFINITY;
    for (size_t j = 0; j < e->outcome.n_bif; j++) {
      const struct cs_bifurcation *c = &e->outcome.bif[j];
      if (c->kind != b->kind || c->pass != b->pass)
        continue;
      double d = fabs(bif_pos(c) - s->p_ref);
      if (d < best)
        best = d, s->p_eps = bif_pos(c);
    }
    if (isfinite(s->p_eps)) {
      s->shift = s->p_eps - s->p_ref;
      e->matched++;
      e->shift_max = isnan(e->shift_max) ? fabs(s->shift) : fmax(e->shift_max, fabs(s->shift));
    }
  }
  return CS_OK;
}

enum cs_status cs_eps_sweep_study(const struct cs_model *m, const void *base_params,
                                  const double *y0, const struct cs_eps_sweep_spec *spec,
                                  struct cs_eps_sweep_result *out)
{
  memset(out, 0, sizeof *out);
  if (!m || !base_params || !y0 || !spec || !spec->eps || spec->n_eps == 0 || !spec->sweep ||
      spec->sweep->point.max_period < 1)
    return CS_FAIL(CS_ERR_ARG);
  const struct cs_sweep_spec *sw = spec->sweep;
  if (strcmp(m->param[sw->param].name, "eps") == 0 ||
      (sw->param2 >= 0 && strcmp(m->param[sw->param2].name, "eps") == 0))
    return CS_ERR_ARG;
  for (size_t k = 0; k < spec->n_eps; k++)
    if (!(spec->eps[k] > 0))
      return CS_FAIL(CS_ERR_ARG);
  if (!spec->reference_event_driven && !(spec->reference_eps > 0))
    return CS_ERR_ARG;
  double t0 = omp_get_wtime();
  const size_t ns = m->n_state, np = cs_sweep_npoints(sw), nruns = spec->n_eps + 1;
  const size_t kmax = (size_t)sw->point.max_period;
  out->n_state = ns;
  out->npoints = np;
  out->n_eps = spec->n_eps;
  out->passes[0] = sw->direction != CS_SWEEP_BACKWARD;
  out->passes[1] = sw->direction != CS_SWEEP_FORWARD;
  out->runs = calloc(spec->n_eps, sizeof *out->runs);
  void *params = malloc(m->params_size);
  if (!out->runs || !params) {
    free(params);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  enum cs_status st = CS_OK;
  for (size_t i = 0; i < nruns && st == CS_OK; i++) {
    struct cs_eps_sweep_run *r = i == 0 ? &out->reference : &out->runs[i - 1];
    int ev = i == 0 && spec->reference_event_driven;
    r->event_driven = ev;
    r->eps = ev ? NAN : i == 0 ? spec->reference_eps : spec->eps[i - 1];
    for (int p = 0; p < 2; p++) {
      r->cycle[p] = malloc(np * kmax * ns * sizeof *r->cycle[p]);
      r->cycle_len[p] = calloc(np, sizeof *r->cycle_len[p]);
      if (!r->cycle[p] || !r->cycle_len[p])
        st = CS_ERR_NOMEM;
    }
    if (st != CS_OK)
      break;
    if (spec->progress)
      spec->progress(spec->progress_ctx, i, nruns);
    r->status = cs_eps_make_params(m, base_params, r->eps, ev, params);
    if (r->status != CS_OK) { /* the run's failure note */
      snprintf(r->message, sizeof r->message, "%s", cs_errmsg());
      continue;
    }
    struct cycle_sink sink = {m, sw, r};
    r->status = cs_sweep_run(m, params, y0, sw, keep_cycle, &sink, &r->outcome);
    if (r->status != CS_OK)
      snprintf(r->message, sizeof r->message, "the sweep failed: %s", cs_strerror(r->status));
    else if (r->outcome.interrupted)
      snprintf(r->message, sizeof r->message, "the sweep was interrupted");
  }
  free(params);
  for (size_t k = 0; k < spec->n_eps && st == CS_OK; k++)
    if (out->reference.status == CS_OK && out->runs[k].status == CS_OK)
      st = sweep_compare(m, sw, &out->reference, &out->runs[k]);
  out->wall_time = omp_get_wtime() - t0;
  return st;
}
