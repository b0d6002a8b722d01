/* SPDX-License-Identifier: MIT */
/* The sweep driver: grid, passes, chunks with seam overlaps, OpenMP, change
 * detection and bisection refinement (see sweep.h for the work split). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/flow.h"
#include "sweep/sweep.h"

size_t cs_sweep_npoints(const struct cs_sweep_spec *spec)
{
  return spec->points * (spec->points2 ? spec->points2 : 1);
}

static double grid_value(double from, double to, size_t n, size_t i, enum cs_sweep_spacing sp)
{
  if (n < 2)
    return from;
  double s = (double)i / (double)(n - 1);
  if (i == n - 1)
    return to;
  if (sp == CS_SPACING_LOG)
    return from * pow(to / from, s);
  return from + (to - from) * s;
}

void cs_sweep_values(const struct cs_sweep_spec *spec, size_t k, double *p1, double *p2)
{
  size_t i = k % spec->points, j = k / spec->points;
  *p1 = grid_value(spec->from, spec->to, spec->points, i, spec->spacing);
  if (p2)
    *p2 = spec->points2 ? grid_value(spec->from2, spec->to2, spec->points2, j, spec->spacing) : NAN;
}

static const char *const bif_names[CS_BIF_COUNT] = {
    [CS_BIF_EQ_TO_PERIODIC] = "equilibrium->periodic",
    [CS_BIF_PERIODIC_TO_EQ] = "periodic->equilibrium",
    [CS_BIF_PERIOD_DOUBLING] = "period-doubling",
    [CS_BIF_PERIOD_HALVING] = "period-halving",
    [CS_BIF_PERIOD_CHANGE] = "period-change",
    [CS_BIF_TO_CHAOS] = "onset-of-chaos",
    [CS_BIF_CHAOS_TO_PERIODIC] = "chaos->periodic-window",
    [CS_BIF_CLASS_CHANGE] = "class-change",
    [CS_BIF_ROTATION_ONSET] = "onset-of-full-rotations",
    [CS_BIF_ROTATION_END] = "end-of-full-rotations",
    [CS_BIF_STICK_ONSET] = "onset-of-sticking",
    [CS_BIF_STICK_END] = "end-of-sticking",
    [CS_BIF_HYSTERESIS] = "hysteresis",
    [CS_BIF_HOPF] = "hopf-eigenvalues",
    [CS_BIF_FOLD] = "fold-eigenvalues",
};

const char *cs_bifurcation_kind_name(enum cs_bifurcation_kind k)
{
  return (int)k >= 0 && k < CS_BIF_COUNT ? bif_names[k] : "unknown";
}

void cs_sweep_outcome_free(struct cs_sweep_outcome *o)
{
  if (!o)
    return;
  free(o->records[0]);
  free(o->records[1]);
  free(o->bif);
  free(o->eq);
  memset(o, 0, sizeof *o);
}

/* ------------------------------------------------------------- workers */

struct worker {
  void *params; /* thread-local copy, attached */
  struct cs_point_ws *ws;
  double y[CS_FLOW_MAX_N];
  double eq_row[1 + 2 * CS_FLOW_MAX_N + 64]; /* one section row for an equilibrium */
  char msg[256];
  int attached; /* params own per-copy resources (attach succeeded) */
};

static int worker_init(struct worker *w, const struct cs_model *m, const void *base,
                       const struct cs_sweep_spec *spec)
{
  memset(w, 0, sizeof *w);
  w->params = malloc(m->params_size);
  w->ws = cs_point_ws_create(m->n_state, spec->point.max_points);
  if (!w->params || !w->ws)
    return -1;
  memcpy(w->params, base, m->params_size);
  if (m->attach && m->attach(w->params) != CS_OK)
    return -1;
  w->attached = 1;
  return 0;
}

static void worker_free(struct worker *w, const struct cs_model *m)
{
  if (w->attached && m->detach)
    m->detach(w->params);
  free(w->params);
  cs_point_ws_free(w->ws);
}

/* Sets the grid values on the worker's params and prepares them. */
static enum cs_status set_point(struct worker *w, const struct cs_model *m,
                                const struct cs_sweep_spec *spec, double p1, double p2)
{
  enum cs_status st = cs_model_set_param(m, w->params, m->param[spec->param].name, p1);
  if (st == CS_OK && spec->param2 >= 0)
    st = cs_model_set_param(m, w->params, m->param[spec->param2].name, p2);
  if (st != CS_OK) {
    snprintf(w->msg, sizeof w->msg, "parameter value out of the model's range");
    return st;
  }
  w->msg[0] = '\0';
  return m->prepare(w->params, w->msg, sizeof w->msg);
}

struct run {
  const struct cs_model *m;
  const void *base;
  const double *y0;
  const struct cs_sweep_spec *spec;
  cs_sweep_sink_fn sink;
  void *sink_ctx;
  struct cs_sweep_record *rec[2];
  double *final[2]; /* npoints x n_state final states, per pass (for refinement) */
  unsigned char *final_ok[2];
  volatile int stop;
  long rhs_evals;
  size_t failed;
};

static int usable_for_continuation(enum cs_class c)
{
  return c != CS_CLASS_FAILED && c != CS_CLASS_ESCAPED && c != CS_CLASS_PENDING;
}

/* Analyses one grid point; delivers it unless `silent` (seam overlap). */
static void run_point(struct run *r, struct worker *w, int pass, size_t k, const double *start,
                      int silent, struct cs_point_result *res)
{
  const struct cs_model *m = r->m;
  double p1, p2;
  cs_sweep_values(r->spec, k, &p1, &p2);
  enum cs_status st = set_point(w, m, r->spec, p1, p2);
  if (st != CS_OK) {
    memset(res, 0, sizeof *res);
    res->status = st;
    res->cls = CS_CLASS_FAILED;
    snprintf(res->message, sizeof res->message, "%s", w->msg);
    res->period_time = res->lyapunov = res->lyapunov_err = res->rotation_number = NAN;
    res->stick_fraction = res->stick_phases = res->transient_used = res->drift = NAN;
    res->final_state = NULL;
  } else {
    cs_point_analyse(m, w->params, start, &r->spec->point, w->ws, res);
  }
  if (silent)
    return;
  /* an equilibrium has no section points: deliver its settled state as one row */
  struct cs_point_result out = *res;
  if (res->cls == CS_CLASS_EQUILIBRIUM && res->n_section == 0 && res->equilibrium) {
    size_t ns = m->n_state;
    w->eq_row[0] = NAN;
    memcpy(w->eq_row + 1, res->equilibrium, ns * sizeof(double));
    if (m->derived_fn)
      m->derived_fn(0.0, res->equilibrium, w->eq_row + 1 + ns, w->params);
    out.section = w->eq_row;
    out.n_section = 1;
    out.section_cols = 1 + ns + m->n_derived;
  }
  struct cs_sweep_point pt = {pass, k, p1, p2, &out};
  struct cs_sweep_record *rc = &r->rec[pass][k];
  rc->cls = res->cls;
  rc->period = res->period;
  rc->period_time = res->period_time;
  rc->lyapunov = res->lyapunov;
  rc->rotation_number = res->rotation_number;
  rc->stick_fraction = res->stick_fraction;
  rc->done = 1;
  if (res->final_state) {
    memcpy(r->final[pass] + k * m->n_state, res->final_state, m->n_state * sizeof(double));
    r->final_ok[pass][k] = usable_for_continuation(res->cls);
  }
#pragma omp critical(cs_sweep_sink)
  {
    r->rhs_evals += res->rhs_evals;
    if (res->cls == CS_CLASS_FAILED)
      r->failed++;
    if (!r->stop && r->sink && r->sink(r->sink_ctx, &pt))
      r->stop = 1;
  }
}

/* Index of the q-th point of a 1-D pass (row `row` for 2-D). */
static size_t pass_index(const struct cs_sweep_spec *spec, int pass, size_t q, size_t row)
{
  size_t n = spec->points;
  size_t i = pass == 0 ? q : n - 1 - q;
  return i + row * n;
}

/* A contiguous part [q0, q1) of a pass (of one row), with continuation. */
static void run_segment(struct run *r, struct worker *w, int pass, size_t row, size_t q0, size_t q1)
{
  const struct cs_model *m = r->m;
  const struct cs_sweep_spec *spec = r->spec;
  struct cs_point_result res;
  int have = 0;
  size_t first = q0;
  if (spec->continuation && q0 > 0)
    first = q0 > spec->overlap ? q0 - spec->overlap : 0;
  for (size_t q = first; q < q1 && !r->stop; q++) {
    size_t k = pass_index(spec, pass, q, row);
    const double *start = spec->continuation && have ? w->y : r->y0;
    run_point(r, w, pass, k, start, q < q0, &res);
    have = spec->continuation && res.final_state && usable_for_continuation(res.cls);
    if (have)
      memcpy(w->y, res.final_state, m->n_state * sizeof(double));
  }
}

/* ------------------------------------------------------ change detection */

static int rotating(const struct cs_sweep_spec *spec, double rot)
{
  /* at least one net full turn over the recording window */
  double window = spec->point.record > 0 ? spec->point.record : 100.0;
  return isfinite(rot) && fabs(rot) * window >= 1.0;
}

static int sticking(double f)
{
  return isfinite(f) && f > 0;
}

static int same_regime(const struct cs_sweep_record *a, const struct cs_sweep_record *b)
{
  if (a->cls != b->cls)
    return 0;
  return a->cls != CS_CLASS_PERIODIC || a->period == b->period;
}

static enum cs_bifurcation_kind classify_change(const struct cs_sweep_record *a,
                                                const struct cs_sweep_record *b)
{
  enum cs_class x = a->cls, y = b->cls;
  if (x == CS_CLASS_EQUILIBRIUM && y == CS_CLASS_PERIODIC)
    return CS_BIF_EQ_TO_PERIODIC;
  if (x == CS_CLASS_PERIODIC && y == CS_CLASS_EQUILIBRIUM)
    return CS_BIF_PERIODIC_TO_EQ;
  if (x == CS_CLASS_PERIODIC && y == CS_CLASS_PERIODIC) {
    if (b->period == 2 * a->period)
      return CS_BIF_PERIOD_DOUBLING;
    if (a->period == 2 * b->period)
      return CS_BIF_PERIOD_HALVING;
    return CS_BIF_PERIOD_CHANGE;
  }
  if ((x == CS_CLASS_PERIODIC || x == CS_CLASS_EQUILIBRIUM) && y == CS_CLASS_CHAOTIC)
    return CS_BIF_TO_CHAOS;
  if (x == CS_CLASS_CHAOTIC && (y == CS_CLASS_PERIODIC || y == CS_CLASS_EQUILIBRIUM))
    return CS_BIF_CHAOS_TO_PERIODIC;
  return CS_BIF_CLASS_CHANGE;
}

static void add(struct cs_bifurcation *out, size_t max_out, size_t *n,
                const struct cs_bifurcation *b)
{
  if (*n < max_out)
    out[*n] = *b;
  (*n)++;
}

size_t cs_sweep_detect(const struct cs_sweep_spec *spec, int pass,
                       const struct cs_sweep_record *rec, struct cs_bifurcation *out,
                       size_t max_out)
{
  size_t n = 0;
  if (spec->points2)
    return 0;
  for (size_t i = 0; i + 1 < spec->points; i++) {
    const struct cs_sweep_record *a = &rec[i], *b = &rec[i + 1];
    if (!a->done || !b->done || a->cls == CS_CLASS_PENDING || b->cls == CS_CLASS_PENDING)
      continue;
    struct cs_bifurcation bf = {.pass = pass, .left = i, .right = i + 1};
    cs_sweep_values(spec, i, &bf.p_left, NULL);
    cs_sweep_values(spec, i + 1, &bf.p_right, NULL);
    bf.estimate = 0.5 * (bf.p_left + bf.p_right);
    bf.from_cls = a->cls, bf.to_cls = b->cls;
    bf.from_period = a->period, bf.to_period = b->period;
    if (!same_regime(a, b)) {
      bf.kind = classify_change(a, b);
      add(out, max_out, &n, &bf);
    }
    if (rotating(spec, a->rotation_number) != rotating(spec, b->rotation_number)) {
      bf.kind = rotating(spec, b->rotation_number) ? CS_BIF_ROTATION_ONSET : CS_BIF_ROTATION_END;
      add(out, max_out, &n, &bf);
    }
    if (sticking(a->stick_fraction) != sticking(b->stick_fraction)) {
      bf.kind = sticking(b->stick_fraction) ? CS_BIF_STICK_ONSET : CS_BIF_STICK_END;
      add(out, max_out, &n, &bf);
    }
  }
  return n;
}

/* Where the forward and backward passes disagree: contiguous intervals. */
static size_t detect_hysteresis(const struct cs_sweep_spec *spec, struct cs_sweep_record *f,
                                struct cs_sweep_record *b, struct cs_bifurcation *out,
                                size_t max_out)
{
  size_t n = 0, i = 0, np = spec->points;
  while (i < np) {
    int differ = f[i].done && b[i].done && !same_regime(&f[i], &b[i]);
    if (!differ) {
      i++;
      continue;
    }
    size_t j = i;
    while (j + 1 < np && f[j + 1].done && b[j + 1].done && !same_regime(&f[j + 1], &b[j + 1]))
      j++;
    struct cs_bifurcation bf = {.pass = -1, .left = i, .right = j, .kind = CS_BIF_HYSTERESIS};
    cs_sweep_values(spec, i, &bf.p_left, NULL);
    cs_sweep_values(spec, j, &bf.p_right, NULL);
    bf.estimate = NAN;
    bf.from_cls = f[i].cls, bf.to_cls = b[i].cls;
    bf.from_period = f[i].period, bf.to_period = b[i].period;
    add(out, max_out, &n, &bf);
    i = j + 1;
  }
  return n;
}

/* --------------------------------------------------------- refinement */

/* Does the record r still show the "from" side of bifurcation bf? */
static int on_from_side(const struct cs_sweep_spec *spec, const struct cs_bifurcation *bf,
                        const struct cs_sweep_record *from, const struct cs_point_result *r)
{
  struct cs_sweep_record x = {.cls = r->cls,
                              .period = r->period,
                              .rotation_number = r->rotation_number,
                              .stick_fraction = r->stick_fraction};
  switch (bf->kind) {
  case CS_BIF_ROTATION_ONSET:
  case CS_BIF_ROTATION_END:
    return rotating(spec, x.rotation_number) == rotating(spec, from->rotation_number);
  case CS_BIF_STICK_ONSET:
  case CS_BIF_STICK_END:
    return sticking(x.stick_fraction) == sticking(from->stick_fraction);
  default:
    return same_regime(&x, from);
  }
}

/* Bisection in the pass direction: the bracket's near end is the point the
 * pass reached first, and every trial continues from its final state. */
static void refine_one(struct run *r, struct worker *w, struct cs_bifurcation *bf)
{
  const struct cs_model *m = r->m;
  const struct cs_sweep_spec *spec = r->spec;
  int pass = bf->pass;
  size_t near = pass == 0 ? bf->left : bf->right;
  if (!r->final_ok[pass][near])
    return;
  struct cs_sweep_record from = r->rec[pass][near];
  double p_near = pass == 0 ? bf->p_left : bf->p_right;
  double p_far = pass == 0 ? bf->p_right : bf->p_left;
  double ystart[CS_FLOW_MAX_N];
  memcpy(ystart, r->final[pass] + near * m->n_state, m->n_state * sizeof(double));
  struct cs_point_result res;
  int guard = 0;
  while (fabs(p_far - p_near) > spec->refine_tol && guard++ < 60 && !r->stop) {
    double mid = 0.5 * (p_near + p_far);
    if (set_point(w, m, spec, mid, NAN) != CS_OK)
      return;
    cs_point_analyse(m, w->params, ystart, &spec->point, w->ws, &res);
    if (res.cls == CS_CLASS_FAILED)
      return;
    if (on_from_side(spec, bf, &from, &res)) {
      p_near = mid;
      if (res.final_state && usable_for_continuation(res.cls))
        memcpy(ystart, res.final_state, m->n_state * sizeof(double));
    } else {
      p_far = mid;
    }
  }
  bf->estimate = 0.5 * (p_near + p_far);
  bf->refined = fabs(p_far - p_near) <= spec->refine_tol;
  if (pass == 0)
    bf->p_left = p_near, bf->p_right = p_far;
  else
    bf->p_left = p_far, bf->p_right = p_near;
}

/* ------------------------------------------------------ equilibria */

/* Equilibria and eigenvalues at every grid point, continued along the grid,
 * and the parameter values where the largest real part crosses zero (Hopf
 * for a complex pair, fold for a real eigenvalue), added to the change list. */
static void equilibria_along(const struct cs_model *m, const void *base, const double *y0,
                             const struct cs_sweep_spec *spec, struct cs_sweep_outcome *out)
{
  size_t n = spec->points;
  double *values = malloc(n * sizeof *values);
  struct cs_eq_crossing cross[32];
  out->eq = calloc(n, sizeof *out->eq);
  if (!values || !out->eq) {
    free(values);
    free(out->eq), out->eq = NULL;
    snprintf(out->eq_note, sizeof out->eq_note, "out of memory");
    return;
  }
  for (size_t i = 0; i < n; i++)
    cs_sweep_values(spec, i, &values[i], NULL);
  size_t nc = 0;
  double tol = spec->refine_tol > 0 ? spec->refine_tol : 1e-8 * fabs(spec->to - spec->from);
  enum cs_status st = cs_equilibrium_scan(m, base, m->param[spec->param].name, values, n, y0, tol,
                                          out->eq, cross, 32, &nc);
  free(values);
  if (st != CS_OK) {
    snprintf(out->eq_note, sizeof out->eq_note, "equilibria not computed: %s", cs_strerror(st));
    free(out->eq), out->eq = NULL;
    return;
  }
  out->n_eq = n;
  size_t cap = 4 * spec->points + 16;
  for (size_t c = 0; c < nc && c < 32 && out->n_bif < cap; c++) {
    if (cross[c].kind == CS_EQ_NONE || cross[c].status != CS_OK)
      continue;
    struct cs_bifurcation bf = {.pass = -1,
                                .kind = cross[c].kind == CS_EQ_HOPF ? CS_BIF_HOPF : CS_BIF_FOLD};
    bf.p_left = fmin(cross[c].p_lo, cross[c].p_hi);
    bf.p_right = fmax(cross[c].p_lo, cross[c].p_hi);
    bf.estimate = cross[c].p;
    bf.refined = 1;
    bf.from_cls = bf.to_cls = CS_CLASS_EQUILIBRIUM;
    out->bif[out->n_bif++] = bf;
  }
}

/* ------------------------------------------------------------- driver */

enum cs_status cs_sweep_run(const struct cs_model *m, const void *base_params, const double *y0,
                            const struct cs_sweep_spec *spec, cs_sweep_sink_fn sink, void *sink_ctx,
                            struct cs_sweep_outcome *out)
{
  memset(out, 0, sizeof *out);
  if (!m || !base_params || !y0 || !spec || spec->points < 2 || spec->param < 0 ||
      m->n_state > CS_FLOW_MAX_N)
    return CS_ERR_ARG;
  size_t np = cs_sweep_npoints(spec);
  struct run r = {
      .m = m, .base = base_params, .y0 = y0, .spec = spec, .sink = sink, .sink_ctx = sink_ctx};
  int passes[2] = {spec->direction != CS_SWEEP_BACKWARD, spec->direction != CS_SWEEP_FORWARD};
  for (int p = 0; p < 2; p++) {
    if (!passes[p])
      continue;
    r.rec[p] = calloc(np, sizeof *r.rec[p]);
    r.final[p] = calloc(np * m->n_state, sizeof(double));
    r.final_ok[p] = calloc(np, 1);
    if (!r.rec[p] || !r.final[p] || !r.final_ok[p]) {
      for (int q = 0; q < 2; q++)
        free(r.rec[q]), free(r.final[q]), free(r.final_ok[q]);
      return CS_ERR_NOMEM;
    }
  }
  int nthreads = spec->threads > 0 ? spec->threads : omp_get_max_threads();
  double t0 = omp_get_wtime();
  int init_failed = 0;

#pragma omp parallel num_threads(nthreads)
  {
    struct worker w;
    int ok = worker_init(&w, m, base_params, spec) == 0;
    if (!ok) {
#pragma omp atomic write
      init_failed = 1;
    }
#pragma omp barrier
    if (!init_failed) {
      int T = omp_get_num_threads();
      for (int pass = 0; pass < 2; pass++) {
        if (!passes[pass])
          continue;
        if (spec->points2) {
          /* 2-D: rows over threads, continuation along each row */
#pragma omp for schedule(dynamic, 1)
          for (size_t row = 0; row < spec->points2; row++)
            run_segment(&r, &w, pass, row, 0, spec->points);
        } else if (spec->continuation) {
          /* 1-D continuation: contiguous chunks with seam overlaps */
          size_t np1 = spec->points;
          size_t size = spec->chunk ? spec->chunk : (np1 + (size_t)T - 1) / (size_t)T;
          size_t nchunks = (np1 + size - 1) / size;
#pragma omp for schedule(dynamic, 1)
          for (size_t c = 0; c < nchunks; c++) {
            size_t q0 = c * size, q1 = q0 + size < np1 ? q0 + size : np1;
            run_segment(&r, &w, pass, 0, q0, q1);
          }
        } else {
          /* independent points: any order, bit-identical results */
#pragma omp for schedule(dynamic, 1)
          for (size_t q = 0; q < spec->points; q++) {
            struct cs_point_result res;
            if (!r.stop)
              run_point(&r, &w, pass, pass_index(spec, pass, q, 0), y0, 0, &res);
          }
        }
      }
    }
    /* detection (serial) then refinement (parallel over intervals) */
#pragma omp single
    {
      size_t cap = 4 * spec->points + 16;
      out->bif = calloc(cap, sizeof *out->bif);
      if (out->bif && !init_failed) {
        for (int pass = 0; pass < 2; pass++)
          if (passes[pass])
            out->n_bif +=
                cs_sweep_detect(spec, pass, r.rec[pass], out->bif + out->n_bif, cap - out->n_bif);
        if (out->n_bif > cap)
          out->n_bif = cap;
      }
    }
    if (spec->refine && out->bif && !init_failed && !spec->points2) {
#pragma omp for schedule(dynamic, 1)
      for (size_t b = 0; b < out->n_bif; b++)
        refine_one(&r, &w, &out->bif[b]);
    }
#pragma omp single
    {
      if (out->bif && passes[0] && passes[1] && !spec->points2) {
        size_t cap = 4 * spec->points + 16;
        out->n_bif +=
            detect_hysteresis(spec, r.rec[0], r.rec[1], out->bif + out->n_bif, cap - out->n_bif);
      }
    }
    worker_free(&w, m);
  }
  if (spec->equilibria && !init_failed && out->bif && !spec->points2)
    equilibria_along(m, base_params, y0, spec, out);
  out->wall_time = omp_get_wtime() - t0;
  out->rhs_evals = r.rhs_evals;
  out->failed = r.failed;
  out->interrupted = r.stop;
  out->records[0] = r.rec[0];
  out->records[1] = r.rec[1];
  for (int p = 0; p < 2; p++)
    free(r.final[p]), free(r.final_ok[p]);
  if (init_failed || !out->bif) {
    cs_sweep_outcome_free(out);
    return CS_ERR_NOMEM;
  }
  return CS_OK;
}
