/* SPDX-License-Identifier: MIT */
/* The eps study (analysis/eps.h): the runs, the differences and their norms,
 * and the sweep comparison. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/eps.h"

#define GRID_TOL 1e-9       /* relative to dt: a grid time this close to t_end is t_end */
#define MAX_SWITCHES 200000 /* default switch log of the reference */
#define STICK_LEVEL 0.5     /* the stick indicator is 0 or 1 */
#define SCALE_FLOOR 1e-300  /* a reference range below this scales by 1 */

static const char *const norm_names[CS_EPS_NORM_COUNT] = {"max",      "rms",       "max_stick",
                                                          "max_slip", "rms_stick", "rms_slip"};

const char *cs_eps_norm_name(enum cs_eps_norm k)
{
  return k < CS_EPS_NORM_COUNT ? norm_names[k] : "?";
}

double *cs_eps_grid(double t_start, double t_end, double dt, size_t *n)
{
  *n = 0;
  if (!(t_start >= 0) || !(t_end > t_start) || !isfinite(t_end) || !(dt >= 0))
    return NULL;
  if (dt == 0)
    dt = (t_end - t_start) / 1000.0;
  double q = (t_end - t_start) / dt;
  if (!(q < CS_EPS_MAX_ROWS))
    return NULL;
  double k = floor(q + GRID_TOL);
  size_t rows = (size_t)k + 1;
  if (t_start + k * dt < t_end - GRID_TOL * dt)
    rows++;
  double *t = malloc(rows * sizeof *t);
  if (!t)
    return NULL;
  for (size_t i = 0; i + 1 < rows; i++)
    t[i] = t_start + (double)i * dt;
  t[rows - 1] = t_end;
  *n = rows;
  return t;
}

enum cs_status cs_eps_make_params(const struct cs_model *m, const void *base, double eps,
                                  int event_driven, void *params, char *msg, size_t msglen)
{
  enum cs_status st;
  msg[0] = '\0';
  memcpy(params, base, m->params_size);
  if (event_driven) {
    st = cs_model_set_choice(m, params, "law", "event-driven");
    if (st != CS_OK) {
      snprintf(msg, msglen, "model %s has no law event-driven", m->name);
      return CS_ERR_NOT_FOUND;
    }
  } else {
    int k = cs_model_param_index(m, "eps");
    if (k < 0) {
      snprintf(msg, msglen, "model %s has no parameter eps", m->name);
      return CS_ERR_NOT_FOUND;
    }
    st = cs_model_set_param(m, params, "eps", eps);
    if (st != CS_OK) {
      snprintf(msg, msglen, "eps = %g is outside the accepted range %g <= eps <= %g [%s]", eps,
               m->param[k].min, m->param[k].max, m->param[k].unit);
      return st;
    }
  }
  st = m->prepare(params, msg, msglen);
  return st;
}

/* ------------------------------------------------------------ time series */

static double wrap_angle(double x)
{
  return x - 2 * M_PI * ceil((x - M_PI) / (2 * M_PI));
}

/* Records one run on the grid. params: prepared, not attached. */
static void run_one(const struct cs_model *m, void *params, const double *y0,
                    const struct cs_eps_spec *spec, struct cs_eps_run *r, size_t cols, int is_ref)
{
  const size_t ns = m->n_state, nd = m->derived_fn ? m->n_derived : 0;
  double t0 = omp_get_wtime();
  size_t max_log =
      m->n_switch && is_ref ? (spec->max_switches ? spec->max_switches : MAX_SWITCHES) : 0;
  struct cs_flow *flow = cs_flow_create(ns, max_log);
  int attached = 0;
  double y[CS_FLOW_MAX_N], t = 0;
  r->status = CS_OK;
  if (!flow) {
    r->status = CS_ERR_NOMEM;
    snprintf(r->message, sizeof r->message, "%s", cs_strerror(CS_ERR_NOMEM));
    goto done;
  }
  if (m->attach) {
    r->status = m->attach(params);
    if (r->status != CS_OK) {
      snprintf(r->message, sizeof r->message, "cannot attach the model: %s",
               cs_strerror(r->status));
      goto done;
    }
  }
  attached = 1;
  memcpy(y, y0, ns * sizeof *y);
  r->status = cs_flow_reset(flow, m, params, &spec->solver, 0.0, y0, 0, NULL, NULL, NULL);
  if (r->status != CS_OK) {
    snprintf(r->message, sizeof r->message, "cannot start the integrator: %s: %s",
             cs_strerror(r->status), cs_flow_last_error(flow));
    goto done;
  }
  /* the transient before the first grid time, in steps of the grid step */
  double dt = spec->n_t > 1 ? spec->t[1] - spec->t[0] : spec->t[0];
  for (double j = 1; dt > 0 && j * dt < spec->t[0] - GRID_TOL * dt && r->status == CS_OK; j++)
    r->status = cs_flow_advance(flow, j * dt, &t, y, NULL, NULL);
  for (size_t k = 0; k < spec->n_t && r->status == CS_OK; k++) {
    double tk = spec->t[k];
    if (tk != t)
      r->status = cs_flow_advance(flow, tk, &t, y, NULL, NULL);
    if (r->status != CS_OK)
      break;
    double *row = r->data + k * cols;
    row[0] = tk;
    memcpy(row + 1, y, ns * sizeof *row);
    int drc = nd ? m->derived_fn(tk, y, row + 1 + ns, params) : 0;
    if (drc != 0) {
      r->status = drc < 0 && -drc < CS_STATUS_COUNT ? (enum cs_status)(-drc) : CS_ERR_SOLVER;
      snprintf(r->message, sizeof r->message, "derived outputs at t = %.17g: %s", tk,
               cs_strerror(r->status));
      for (size_t j = 0; j < cols; j++)
        row[j] = NAN;
      break;
    }
    r->rows = k + 1;
    if (is_ref && spec->progress)
      spec->progress(spec->progress_ctx, tk);
  }
  if (r->status != CS_OK && !r->message[0])
    snprintf(r->message, sizeof r->message, "integration failed at t = %.10g: %s: %s", t,
             cs_strerror(r->status), cs_flow_last_error(flow));
  cs_flow_stats(flow, &r->stats);
  if (is_ref && m->n_switch) {
    size_t n = cs_flow_switch_count(flow);
    r->switches = n ? malloc(n * sizeof *r->switches) : NULL;
    for (size_t i = 0; r->switches && i < n; i++)
      r->switches[i] = *cs_flow_switch_get(flow, i);
    r->n_switches = r->switches ? n : 0;
  }
done:
  if (attached && m->detach)
    m->detach(params);
  cs_flow_free(flow);
  r->wall_time = omp_get_wtime() - t0;
}

static void run_free(struct cs_eps_run *r)
{
  free(r->data);
  free(r->switches);
  r->data = NULL, r->switches = NULL;
}

void cs_eps_result_free(struct cs_eps_result *r)
{
  if (!r)
    return;
  run_free(&r->reference);
  for (size_t k = 0; r->runs && k < r->n_eps; k++)
    run_free(&r->runs[k]);
  free(r->runs);
  free(r->diff);
  free(r->norms);
  free(r->compared);
  memset(r, 0, sizeof *r);
}

double cs_eps_norm_get(const struct cs_eps_result *r, size_t k, size_t var, enum cs_eps_norm norm)
{
  if (k >= r->n_eps || var >= r->n_var || norm >= CS_EPS_NORM_COUNT || !r->norms)
    return NAN;
  return r->norms[(k * r->n_var + var) * CS_EPS_NORM_COUNT + norm];
}

/* Differences and norms of eps index k. */
static void compare(const struct cs_model *m, const double *t, struct cs_eps_result *r, size_t k)
{
  const double *ref = r->reference.data, *run = r->runs[k].data;
  double *d = r->diff + k * r->n_t * r->cols;
  const size_t ns = r->n_state;
  long stick_col = r->has_stick ? (long)(1 + ns + (size_t)m->stick_output) : -1;
  size_t compared = 0;
  for (size_t i = 0; i < r->n_t; i++) {
    const double *a = run + i * r->cols, *b = ref + i * r->cols;
    double *o = d + i * r->cols;
    o[0] = t[i];
    int any = 0;
    for (size_t j = 1; j < r->cols; j++) {
      double x = a[j] - b[j];
      int angle = j <= ns ? m->state[j - 1].angle : m->derived[j - 1 - ns].angle;
      o[j] = angle && isfinite(x) ? wrap_angle(x) : x;
      any |= isfinite(o[j]);
    }
    compared += any;
  }
  r->compared[k] = compared;
  for (size_t v = 0; v < r->n_var; v++) {
    double mx[3] = {NAN, NAN, NAN}, ss[3] = {0, 0, 0};
    size_t cnt[3] = {0, 0, 0};
    for (size_t i = 0; i < r->n_t; i++) {
      double x = d[i * r->cols + 1 + v];
      if (!isfinite(x))
        continue;
      double ax = fabs(x);
      int phase = 0;
      if (stick_col >= 0) {
        double s = ref[i * r->cols + (size_t)stick_col];
        phase = s > STICK_LEVEL ? 1 : 2;
      }
      int which[2] = {0, phase};
      for (int w = 0; w < (phase ? 2 : 1); w++) {
        int p = which[w];
        mx[p] = isnan(mx[p]) || ax > mx[p] ? ax : mx[p];
        ss[p] += x * x;
        cnt[p]++;
      }
    }
    double *o = r->norms + (k * r->n_var + v) * CS_EPS_NORM_COUNT;
    o[CS_EPS_MAX] = mx[0];
    o[CS_EPS_RMS] = cnt[0] ? sqrt(ss[0] / (double)cnt[0]) : NAN;
    o[CS_EPS_MAX_STICK] = cnt[1] ? mx[1] : NAN;
    o[CS_EPS_MAX_SLIP] = cnt[2] ? mx[2] : NAN;
    o[CS_EPS_RMS_STICK] = cnt[1] ? sqrt(ss[1] / (double)cnt[1]) : NAN;
    o[CS_EPS_RMS_SLIP] = cnt[2] ? sqrt(ss[2] / (double)cnt[2]) : NAN;
  }
}

enum cs_status cs_eps_study(const struct cs_model *m, const void *base_params, const double *y0,
                            const struct cs_eps_spec *spec, struct cs_eps_result *out)
{
  memset(out, 0, sizeof *out);
  if (!m || !base_params || !y0 || !spec || !spec->eps || spec->n_eps == 0 || !spec->t ||
      spec->n_t == 0 || m->n_state > CS_FLOW_MAX_N)
    return CS_ERR_ARG;
  for (size_t k = 0; k < spec->n_eps; k++)
    if (!(spec->eps[k] > 0))
      return CS_ERR_ARG;
  for (size_t i = 0; i < spec->n_t; i++)
    if (!(spec->t[i] >= 0) || (i && !(spec->t[i] > spec->t[i - 1])))
      return CS_ERR_ARG;
  if (!spec->reference_event_driven && !(spec->reference_eps > 0))
    return CS_ERR_ARG;
  double t0 = omp_get_wtime();
  const size_t nruns = spec->n_eps + 1;
  out->n_t = spec->n_t;
  out->n_state = m->n_state;
  out->n_derived = m->derived_fn ? m->n_derived : 0;
  out->cols = 1 + out->n_state + out->n_derived;
  out->n_var = out->n_state + out->n_derived;
  out->n_eps = spec->n_eps;
  out->has_stick = m->stick_output >= 0 && (size_t)m->stick_output < out->n_derived;
  out->runs = calloc(spec->n_eps, sizeof *out->runs);
  out->diff = malloc(spec->n_eps * out->n_t * out->cols * sizeof *out->diff);
  out->norms = malloc(spec->n_eps * out->n_var * CS_EPS_NORM_COUNT * sizeof *out->norms);
  out->compared = calloc(spec->n_eps, sizeof *out->compared);
  char *params = malloc(nruns * m->params_size);
  if (!out->runs || !out->diff || !out->norms || !out->compared || !params) {
    free(params);
    return CS_ERR_NOMEM;
  }
  /* the runs and their params (all made before any run starts) */
  enum cs_status st = CS_OK;
  for (size_t i = 0; i < nruns; i++) {
    struct cs_eps_run *r = i == 0 ? &out->reference : &out->runs[i - 1];
    int ev = i == 0 && spec->reference_event_driven;
    r->event_driven = ev;
    r->eps = ev ? NAN : i == 0 ? spec->reference_eps : spec->eps[i - 1];
    r->status = CS_ERR_ARG;
    r->data = malloc(out->n_t * out->cols * sizeof *r->data);
    if (!r->data) {
      free(params);
      return CS_ERR_NOMEM;
    }
    for (size_t j = 0; j < out->n_t * out->cols; j++)
      r->data[j] = NAN;
    if (st == CS_OK) {
      st = cs_eps_make_params(m, base_params, r->eps, ev, params + i * m->params_size, r->message,
                              sizeof r->message);
      r->status = st;
    }
  }
  if (st != CS_OK) {
    free(params);
    return st;
  }
  int nthreads = spec->threads > 0 ? spec->threads : omp_get_max_threads();
  if (nthreads > (int)nruns)
    nthreads = (int)nruns;
    /* the reference first: it is usually the longest */
#pragma omp parallel for schedule(dynamic, 1) num_threads(nthreads)
  for (size_t i = 0; i < nruns; i++) {
    struct cs_eps_run *r = i == 0 ? &out->reference : &out->runs[i - 1];
    run_one(m, params + i * m->params_size, y0, spec, r, out->cols, i == 0);
  }
  free(params);
  if (out->has_stick) {
    size_t col = 1 + out->n_state + (size_t)m->stick_output;
    for (size_t i = 0; i < out->n_t; i++)
      out->stick_rows += out->reference.data[i * out->cols + col] > STICK_LEVEL;
  }
  for (size_t k = 0; k < out->n_eps; k++)
    compare(m, spec->t, out, k);
  out->wall_time = omp_get_wtime() - t0;
  return CS_OK;
}

/* The eps indices sorted by decreasing eps. */
static void sort_desc(const struct cs_eps_result *r, size_t *idx)
{
  for (size_t k = 0; k < r->n_eps; k++)
    idx[k] = k;
  for (size_t a = 1; a < r->n_eps; a++)
    for (size_t b = a; b > 0 && r->runs[idx[b]].eps > r->runs[idx[b - 1]].eps; b--) {
      size_t s = idx[b];
      idx[b] = idx[b - 1], idx[b - 1] = s;
    }
}

int cs_eps_monotone(const struct cs_eps_result *r)
{
  if (!r || r->n_eps < 2)
    return -1;
  size_t *idx = malloc(r->n_eps * sizeof *idx);
  if (!idx)
    return -1;
  sort_desc(r, idx);
  int ans = 1;
  for (size_t k = 0; k < r->n_eps && ans >= 0; k++)
    if (r->runs[idx[k]].status != CS_OK)
      ans = -1;
  if (ans >= 0 && r->reference.status != CS_OK)
    ans = -1;
  for (size_t k = 1; k < r->n_eps && ans >= 0; k++) {
    if (!(r->runs[idx[k]].eps < r->runs[idx[k - 1]].eps)) {
      ans = -1;
      break;
    }
    for (size_t v = 0; v < r->n_state; v++) {
      double hi = cs_eps_norm_get(r, idx[k - 1], v, CS_EPS_MAX);
      double lo = cs_eps_norm_get(r, idx[k], v, CS_EPS_MAX);
      if (!isfinite(hi) || !isfinite(lo)) {
        ans = -1;
        break;
      }
      if (!(lo < hi))
        ans = 0;
    }
  }
  free(idx);
  return ans;
}

double cs_eps_order(const struct cs_eps_result *r, size_t var)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  size_t n = 0;
  for (size_t k = 0; r && k < r->n_eps; k++) {
    double v = cs_eps_norm_get(r, k, var, CS_EPS_MAX), e = r->runs[k].eps;
    if (!(v > 0) || !isfinite(v) || !(e > 0))
      continue;
    double x = log(e), y = log(v);
    sx += x, sy += y, sxx += x * x, sxy += x * y, n++;
  }
  double den = (double)n * sxx - sx * sx;
  if (n < 2 || !(fabs(den) > 0))
    return NAN;
  return ((double)n * sxy - sx * sy) / den;
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
    return CS_ERR_NOMEM;
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
        return CS_ERR_NOMEM;
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
    return CS_ERR_ARG;
  const struct cs_sweep_spec *sw = spec->sweep;
  if (strcmp(m->param[sw->param].name, "eps") == 0 ||
      (sw->param2 >= 0 && strcmp(m->param[sw->param2].name, "eps") == 0))
    return CS_ERR_ARG;
  for (size_t k = 0; k < spec->n_eps; k++)
    if (!(spec->eps[k] > 0))
      return CS_ERR_ARG;
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
    return CS_ERR_NOMEM;
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
    r->status =
        cs_eps_make_params(m, base_params, r->eps, ev, params, r->message, sizeof r->message);
    if (r->status != CS_OK)
      continue;
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
