/* SPDX-License-Identifier: MIT */
/* The eps study (analysis/eps.h): the runs, the differences and their norms,
 * (the sweep comparison: src/study/eps_sweep.c). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "analysis/eps.h"
#include "integrate/record.h"
#include "models/model_private.h"
#include "integrate/record_private.h"
#include "analysis/eps_private.h"

#define MAX_SWITCHES 200000 /* default switch log of the reference */
#define STICK_LEVEL 0.5     /* the stick indicator is 0 or 1 */

static const char *const norm_names[CS_EPS_NORM_COUNT] = {"max",      "rms",       "max_stick",
                                                          "max_slip", "rms_stick", "rms_slip"};

const char *cs_eps_norm_name(enum cs_eps_norm k)
{
  return k < CS_EPS_NORM_COUNT ? norm_names[k] : "?";
}

double *cs_eps_grid(double t_start, double t_end, double dt, size_t *n)
{
  struct cs_record_grid g;
  *n = 0;
  if (cs_record_grid_make(t_start, t_end, dt, CS_EPS_MAX_ROWS, &g) != CS_OK)
    return NULL;
  double *t = malloc(g.rows * sizeof *t);
  if (!t)
    return NULL;
  for (size_t i = 0; i < g.rows; i++)
    t[i] = cs_record_grid_time(&g, i);
  *n = g.rows;
  return t;
}

enum cs_status cs_eps_make_params(const struct cs_model *m, const void *base, double eps,
                                  int event_driven, void *params)
{
  enum cs_status st;
  memcpy(params, base, m->params_size);
  if (event_driven) {
    st = cs_model_set_choice(m, params, "law", "event-driven");
    if (st != CS_OK)
      return cs_error_set(CS_ERR_NOT_FOUND, "model %s has no law event-driven", m->name);
  } else {
    int k = cs_model_param_index(m, "eps");
    if (k < 0)
      return cs_error_set(CS_ERR_NOT_FOUND, "model %s has no parameter eps", m->name);
    /* a law without smoothing ignores eps: every run would be the same */
    int lc = cs_model_choice_index(m, "law");
    const char *law = lc >= 0 ? cs_model_get_choice(m, base, lc) : NULL;
    if (law && strcmp(law, "event-driven") == 0)
      return cs_error_set(CS_ERR_NOT_FOUND,
                          "[model] law = event-driven does not depend on eps (accepted: a "
                          "regularized law, e.g. law = I11-reg; the event-driven run is "
                          "--reference event-driven)");
    st = cs_model_set_param(m, params, "eps", eps);
    if (st != CS_OK)
      return cs_error_set(st, "eps = %g is outside the accepted range %g <= eps <= %g [%s]", eps,
                          m->param[k].min, m->param[k].max, m->param[k].unit);
  }
  return m->prepare(params);
}

/* ------------------------------------------------------------ time series */

static double wrap_angle(double x)
{
  return x - 2 * M_PI * ceil((x - M_PI) / (2 * M_PI));
}

/* Where one run's rows and switches go. */
struct run_sink {
  struct cs_eps_run *r;
  size_t cols, max_log;
  const struct cs_eps_spec *spec;
};

static int sink_rows(void *ctx, size_t first_row, size_t n, const double *rows)
{
  struct run_sink *s = ctx;
  memcpy(s->r->data + first_row * s->cols, rows, n * s->cols * sizeof *rows);
  s->r->rows = first_row + n;
  return 0;
}

static void sink_switch(void *ctx, const struct cs_flow_switch *sw)
{
  struct run_sink *s = ctx;
  if (s->r->switches && s->r->n_switches < s->max_log)
    s->r->switches[s->r->n_switches++] = *sw;
}

static void sink_progress(void *ctx, double t)
{
  struct run_sink *s = ctx;
  s->spec->progress(s->spec->progress_ctx, t);
}

/* Records one run on the grid (integrate/record.h, as contensou simulate
 * does). params: prepared, not attached. */
static void run_one(const struct cs_model *m, void *params, const double *y0,
                    const struct cs_eps_spec *spec, struct cs_eps_run *r, size_t cols, int is_ref)
{
  double t0 = omp_get_wtime();
  size_t max_log =
      m->n_switch && is_ref ? (spec->max_switches ? spec->max_switches : MAX_SWITCHES) : 0;
  struct run_sink sink = {.r = r, .cols = cols, .max_log = max_log, .spec = spec};
  struct cs_record_spec rs = {.solver = &spec->solver,
                              .max_switches = max_log,
                              .on_rows = sink_rows,
                              .on_switch = sink_switch,
                              .progress = is_ref && spec->progress ? sink_progress : NULL,
                              .ctx = &sink};
  r->status = cs_record_grid_times(spec->t, spec->n_t, &rs.grid);
  if (r->status != CS_OK) {
    snprintf(r->message, sizeof r->message, "bad time grid");
    goto end;
  }
  if (max_log && !(r->switches = malloc(max_log * sizeof *r->switches))) {
    r->status = CS_ERR_NOMEM;
    snprintf(r->message, sizeof r->message, "%s", cs_strerror(CS_ERR_NOMEM));
    goto end;
  }
  if (m->attach) {
    r->status = m->attach(params);
    if (r->status != CS_OK) {
      snprintf(r->message, sizeof r->message, "cannot attach the model: %s",
               cs_strerror(r->status));
      goto end;
    }
  }
  struct cs_record_result res;
  r->status = cs_record_run(m, params, y0, &rs, &res);
  if (r->status != CS_OK && res.stop == CS_RECORD_IN_RUN)
    snprintf(r->message, sizeof r->message, "integration failed at t = %.10g: %.440s", res.t,
             res.message);
  else
    snprintf(r->message, sizeof r->message, "%.500s", res.message);
  r->stats = res.stats;
  if (m->detach)
    m->detach(params);
end:
  if (r->switches && r->n_switches == 0) {
    free(r->switches);
    r->switches = NULL;
  }
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
    return CS_FAIL(CS_ERR_ARG);
  for (size_t k = 0; k < spec->n_eps; k++)
    if (!(spec->eps[k] > 0))
      return CS_ERR_ARG;
  for (size_t i = 0; i < spec->n_t; i++)
    if (!(spec->t[i] >= 0) || (i && !(spec->t[i] > spec->t[i - 1])))
      return CS_ERR_ARG;
  if (!spec->reference_event_driven && !(spec->reference_eps > 0))
    return CS_FAIL(CS_ERR_ARG);
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
    return CS_FAIL(CS_ERR_NOMEM);
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
      return CS_FAIL(CS_ERR_NOMEM);
    }
    for (size_t j = 0; j < out->n_t * out->cols; j++)
      r->data[j] = NAN;
    if (st == CS_OK) {
      st = cs_eps_make_params(m, base_params, r->eps, ev, params + i * m->params_size);
      if (st != CS_OK) /* the run's failure note */
        snprintf(r->message, sizeof r->message, "%s", cs_errmsg());
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
