/* SPDX-License-Identifier: MIT */
/* The sweep driver: grid, passes, work units (chunks with seam overlaps,
 * rows, points, refinements) over OpenMP threads and, through a transport,
 * other processes; one writer thread; change detection and bisection
 * refinement (see sweep.h for the work split). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep, pthread_condattr_setclock */

#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error_private.h"
#include "analysis/orbit.h"
#include "integrate/flow.h"
#include "sweep/sweep.h"
#include "sweep/sweep_private.h"
#include "sweep/sweep_trace_private.h"
#include "analysis/equilibrium_private.h"
#include "analysis/orbit_private.h"

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
    [CS_BIF_UNKNOWN] = "unknown",
    [CS_BIF_TO_QUASIPERIODIC] = "onset-of-quasiperiodicity",
    [CS_BIF_LOCKING] = "quasiperiodic->periodic",
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
  void *params;            /* thread-local copy, attached */
  void *ubase;             /* the unprepared params of the point (Floquet multipliers) */
  struct cs_orbit_ws *orb; /* shooting workspace, made at the first periodic point */
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
  w->ubase = malloc(m->params_size);
  w->ws = cs_point_ws_create(m->n_state, spec->point.max_points);
  if (!w->params || !w->ws || !w->ubase)
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
  free(w->ubase);
  cs_orbit_ws_free(w->orb);
  cs_point_ws_free(w->ws);
}

/* Newton iterations allowed to the sweep's shootings: from a recorded orbit
 * Newton converges in 2-4 iterations, and a few points took 10-11; one that
 * needs more is not near a fixed point of the k-th return map (figure 5a:
 * three points near the period-6 and -7 windows spent 21-30 iterations, a
 * fifth of the diagram's CPU time, and failed). NEWTON_MAX_RESIDUAL0: a
 * guess whose k-th return misses it by more than its own size (1 / rtol
 * tolerance units) is no orbit's neighbour; those three started at
 * 1.7e9-1e10 units, every guess that converged below 5e8 (figure 5a's
 * diagram, one shooting each, whatever the tolerance). */
#define NEWTON_MAX_ITER 12

/* Newton on the section map at the point's parameters (analysis/orbit.h)
 * from a section row (t, y...) with k returns and period guess T. */
static enum cs_status orbit_at(struct worker *w, const struct cs_model *m, const void *base,
                               const struct cs_sweep_spec *spec, double p1, double p2,
                               const double *row, int k, double T, struct cs_orbit *orb, char *msg,
                               size_t len)
{
  memcpy(w->ubase, base, m->params_size);
  enum cs_status st = CS_OK;
  orb->converged = 0;
  orb->note[0] = '\0';
  if (spec->param2 >= 0)
    st = cs_model_set_param(m, w->ubase, m->param[spec->param2].name, p2);
  if (st == CS_OK && !w->orb) {
    w->orb = cs_orbit_ws_create(m, w->ubase, spec->param);
    st = w->orb ? CS_OK : CS_ERR_NOMEM;
  } else if (st == CS_OK && spec->param2 >= 0) {
    st = cs_orbit_ws_set_base(w->orb, w->ubase);
  }
  if (st == CS_OK)
    st = cs_orbit_ws_set_param(w->orb, p1);
  if (st != CS_OK) /* the point's note */
    snprintf(msg, len, "%s", cs_errmsg());
  if (st == CS_OK) {
    struct cs_orbit_opts o = cs_orbit_opts_default();
    o.solver = spec->point.solver;
    o.section = spec->point.section;
    o.returns = k > 0 ? k : 1;
    o.max_iter = NEWTON_MAX_ITER;
    o.max_residual0 = spec->point.solver.rtol > 0 ? 1.0 / spec->point.solver.rtol : 0.0;
    st = cs_orbit_find(w->orb, &o, row[0], row + 1, T, orb);
    if (st == CS_OK && !orb->converged)
      st = CS_ERR_NOCONV;
    if (st != CS_OK)
      cs_error_fill(msg, len, "%s", orb->note[0] ? orb->note : cs_strerror(st));
  }
  return st;
}

/* The Floquet multipliers of a periodic point: Newton on the section map
 * from its last section point, with its period in time and its number of
 * returns, at the point's parameters (analysis/orbit.h). A failure is noted
 * in the result, never a failed point. */
static void floquet(struct worker *w, const struct cs_model *m, const void *base,
                    const struct cs_sweep_spec *spec, double p1, double p2,
                    struct cs_point_result *res)
{
  char msg[256] = "";
  res->n_mult = 0;
  res->mult_trivial_err = NAN;
  res->mult_note[0] = '\0';
  if (res->cls != CS_CLASS_PERIODIC || res->n_section == 0 || !(res->period_time > 0)) {
    return;
  }
  struct cs_orbit orb;
  const double *row = res->section + (res->n_section - 1) * res->section_cols;
  enum cs_status st =
      orbit_at(w, m, base, spec, p1, p2, row, res->period, res->period_time, &orb, msg, sizeof msg);
  if (st != CS_OK) {
    /* the note keeps the message's start */
    snprintf(res->mult_note, sizeof res->mult_note, "%.*s", (int)sizeof res->mult_note - 1,
             msg[0] ? msg : cs_strerror(st));
    return;
  }
  res->n_mult = orb.n_mult;
  for (size_t i = 0; i < orb.n_mult && i < sizeof res->mult_re / sizeof *res->mult_re; i++)
    res->mult_re[i] = orb.mult_re[i], res->mult_im[i] = orb.mult_im[i];
  res->mult_trivial_err = orb.trivial_err;
  res->mult_unstable = orb.n_unstable;
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
  st = m->prepare(w->params);
  if (st != CS_OK) /* the point's failure note */
    snprintf(w->msg, sizeof w->msg, "%s", cs_errmsg());
  return st;
}

static int usable_for_continuation(enum cs_class c)
{
  return c != CS_CLASS_FAILED && c != CS_CLASS_ESCAPED && c != CS_CLASS_PENDING;
}

/* ------------------------------------------------------------ work units */

/* A unit of work, handed to a thread of any process: a contiguous segment of
 * a pass (a continuation chunk, a row of a 2-D map, or one independent
 * point), or the refinement of one detected change. Plain data, so that it
 * travels as bytes between processes. */
enum unit_kind { UNIT_SEGMENT, UNIT_REFINE };
struct unit {
  int kind;
  int pass;
  size_t row, q0, q1;       /* segment: positions [q0, q1) along the pass (of row) */
  size_t qs;                /* first position still to compute (resume), >= q0 */
  int have_start;           /* segment resumed at qs: start from `start` (else the initial state) */
  int start_periodic;       /* ... and the point before qs was periodic (Newton continuation) */
  int seam;                 /* segment: run the seam overlap before q0 */
  size_t bif;               /* refinement: index of the change in the outcome's table */
  struct cs_bifurcation bf; /* refinement: the change */
  struct cs_sweep_record from; /* refinement: the near side's record */
  double start[CS_FLOW_MAX_N]; /* start state (resumed segment, refinement) */
};

double cs_sweep_memory_estimate(const struct cs_model *m, const struct cs_sweep_spec *spec)
{
  double np = (double)spec->points * (double)(spec->points2 ? spec->points2 : 1);
  double passes = spec->direction == CS_SWEEP_BOTH ? 2.0 : 1.0;
  /* per point and pass: its record; 1-D sweeps also keep its final state
   * (refinement); the work units, at most one per row of 32 points */
  double per_point = (double)sizeof(struct cs_sweep_record) +
                     (spec->points2 ? 0.0 : (double)m->n_state * sizeof(double) + 1.0);
  double size = spec->points2 && spec->continuation ? (double)spec->points
                : spec->chunk                       ? (double)spec->chunk
                                                    : 32.0;
  double units = ceil(np / size) + (double)(spec->points2 ? spec->points2 : 1);
  double bifs = 4.0 * (double)spec->points + 16.0;
  return passes * (np * per_point + units * (double)sizeof(struct unit)) +
         bifs * (double)sizeof(struct cs_bifurcation);
}

/* Messages from workers to the coordinator (the result queue). */
enum msg_kind { MSG_POINT, MSG_REFINED, MSG_UNIT_DONE };

/* A finished point as one contiguous buffer: this header, then the final
 * state (n_final doubles), the equilibrium (n_eq) and the section rows
 * (n_sec doubles). res's pointers are rebuilt on arrival. */
struct msg_hdr {
  int kind;
  int pass;
  size_t index;
  double p1, p2;
  struct cs_point_result res;
  size_t n_final, n_eq, n_sec;
  size_t bif;               /* MSG_REFINED */
  struct cs_bifurcation bf; /* MSG_REFINED */
};

static void *pack_point(int pass, size_t k, double p1, double p2, const struct cs_point_result *res,
                        size_t n_state, size_t *len)
{
  struct msg_hdr h = {.kind = MSG_POINT, .pass = pass, .index = k, .p1 = p1, .p2 = p2, .res = *res};
  h.n_final = res->final_state ? n_state : 0;
  h.n_eq = res->equilibrium ? n_state : 0;
  h.n_sec = res->section ? res->n_section * res->section_cols : 0;
  h.res.final_state = NULL, h.res.equilibrium = NULL, h.res.section = NULL;
  *len = sizeof h + (h.n_final + h.n_eq + h.n_sec) * sizeof(double);
  char *buf = malloc(*len);
  if (!buf)
    return NULL;
  memcpy(buf, &h, sizeof h);
  double *d = (double *)(void *)(buf + sizeof h);
  if (h.n_final)
    memcpy(d, res->final_state, h.n_final * sizeof *d);
  if (h.n_eq)
    memcpy(d + h.n_final, res->equilibrium, h.n_eq * sizeof *d);
  if (h.n_sec)
    memcpy(d + h.n_final + h.n_eq, res->section, h.n_sec * sizeof *d);
  return buf;
}

/* Rebuilds the pointers of a received point; 0 if the buffer is consistent. */
static int unpack_point(void *buf, size_t len, struct msg_hdr **hp)
{
  struct msg_hdr *h = buf;
  if (len < sizeof *h)
    return -1;
  size_t nd = (len - sizeof *h) / sizeof(double);
  if (h->n_final + h->n_eq + h->n_sec != nd)
    return -1;
  double *d = (double *)(void *)((char *)buf + sizeof *h);
  h->res.final_state = h->n_final ? d : NULL;
  h->res.equilibrium = h->n_eq ? d + h->n_final : NULL;
  h->res.section = h->n_sec ? d + h->n_final + h->n_eq : NULL;
  if (h->n_sec && h->res.section_cols * h->res.n_section != h->n_sec)
    return -1;
  *hp = h;
  return 0;
}

/* --------------------------------------------------------- the coordinator */

struct qitem {
  struct qitem *next;
  size_t len;
  void *buf; /* a message (struct msg_hdr first) */
};

struct run {
  const struct cs_model *m;
  const void *base;
  const double *y0;
  const struct cs_sweep_spec *spec; /* with point.cancel pointing at `abort` */
  const struct cs_sweep_ctl *ctl;
  cs_sweep_sink_fn sink;
  void *sink_ctx;
  struct cs_sweep_outcome *out;
  int coordinator; /* 1: this process keeps the records and runs the writer */
  int passes[2];
  size_t np;
  /* coordinator: what is known about every grid index */
  struct cs_sweep_record *rec[2];
  double *final[2]; /* npoints x n_state final states, per pass (refinement, resume) */
  unsigned char *final_ok[2];
  /* coordinator: the units of the current phase */
  pthread_mutex_t lock;
  pthread_cond_t changed;
  struct unit *units;
  size_t n_units, next_unit, units_done;
  /* cost-aware dispatch (take_unit): which units are taken, the first one
   * that is not, and the measured cost (right-hand-side evaluations, 0: not
   * yet) of every point of each pass, while the phase runs */
  unsigned char *taken;
  double *cost[2];
  double class_cost[CS_CLASS_COUNT], class_points[CS_CLASS_COUNT]; /* sums over measured points */
  int phase_open; /* 0 between phases: workers wait */
  int finished;   /* no unit will ever come */
  /* the result queue, drained by the writer thread */
  struct qitem *qhead, *qtail;
  int writer_quit;
  int busy; /* the writer thread is applying a message it took off the queue */
  int nthreads;
  /* stopping: `abort` is what point analyses poll */
  volatile int abort;
  enum cs_sweep_stop stop;
  long rhs_evals;
  size_t computed, failed;
  int nomem;
};

static void set_stop(struct run *r, enum cs_sweep_stop why)
{
  pthread_mutex_lock(&r->lock);
  if (r->stop == CS_SWEEP_RAN)
    r->stop = why;
  r->abort = 1;
  pthread_cond_broadcast(&r->changed);
  pthread_mutex_unlock(&r->lock);
}

/* Queues a message for the writer thread (takes ownership of buf). */
static void enqueue(struct run *r, void *buf, size_t len)
{
  struct qitem *it = malloc(sizeof *it);
  if (!it) {
    free(buf);
    r->nomem = 1;
    set_stop(r, CS_SWEEP_SINK);
    return;
  }
  it->next = NULL, it->len = len, it->buf = buf;
  pthread_mutex_lock(&r->lock);
  if (r->qtail)
    r->qtail->next = it;
  else
    r->qhead = it;
  r->qtail = it;
  pthread_cond_broadcast(&r->changed);
  pthread_mutex_unlock(&r->lock);
}

static size_t pass_index(const struct cs_sweep_spec *spec, int pass, size_t q, size_t row);

/* Units looked at for each hand-out (from the first one not taken): bounds
 * the work of a hand-out on grids of many one-point units. */
enum { DISPATCH_WINDOW = 256 };

/* The measured cost per point near a segment unit: that of the measured
 * point nearest to [q0, q1) along its pass (in either pass, the same grid
 * index), within `reach` positions; 0 when none. Called with r->lock held. */
static double cost_near(const struct run *r, const struct unit *u, size_t reach)
{
  const struct cs_sweep_spec *spec = r->spec;
  size_t n = spec->points;
  for (size_t d = 0; d <= reach; d++) {
    size_t q[2] = {u->q0 >= d + 1 ? u->q0 - 1 - d : SIZE_MAX, u->q1 + d < n ? u->q1 + d : SIZE_MAX};
    if (d == 0) /* the unit's own measured points first (a resumed unit's prefix) */
      for (size_t qq = u->q0; qq < u->q1; qq++)
        for (int p = 0; p < 2; p++) {
          size_t k = pass_index(spec, u->pass, qq, u->row);
          if (r->cost[p] && r->cost[p][k] > 0)
            return r->cost[p][k];
        }
    for (int side = 0; side < 2; side++) {
      if (q[side] == SIZE_MAX)
        continue;
      size_t k = pass_index(spec, u->pass, q[side], u->row);
      for (int p = 0; p < 2; p++)
        if (r->cost[p] && r->cost[p][k] > 0)
          return r->cost[p][k];
    }
  }
  return 0;
}

/* The predicted cost of a unit: its points (with the seam overlap it runs
 * first) times the measured cost of its nearest measured neighbour, else the
 * mean cost of the points measured so far of the class of the point before
 * it (a resumed run knows the classes of the points it kept), else the mean
 * of all measured points, else 1. Called with r->lock held. */
static double predict_cost(const struct run *r, const struct unit *u, const double *class_mean,
                           double mean)
{
  const struct cs_sweep_spec *spec = r->spec;
  if (u->kind != UNIT_SEGMENT)
    return 1;
  size_t len = u->q1 - u->qs + (u->seam && u->qs == u->q0 ? spec->overlap : 0);
  size_t reach = spec->chunk > 16 ? spec->chunk : 16;
  double c = cost_near(r, u, reach);
  if (c <= 0 && u->qs > 0 && r->rec[u->pass]) {
    const struct cs_sweep_record *prev =
        &r->rec[u->pass][pass_index(spec, u->pass, u->qs - 1, u->row)];
    if (prev->done && (int)prev->cls >= 0 && (int)prev->cls < CS_CLASS_COUNT)
      c = class_mean[prev->cls];
  }
  if (c <= 0)
    c = mean > 0 ? mean : 1;
  return c * (double)len;
}

/* Hands out the next unit: 1 (a unit), 0 (between phases: ask again), -1
 * (no more units for this phase (local threads) or ever, or stopped).
 * Cost-aware: of the next DISPATCH_WINDOW units not taken, the one predicted
 * to cost most (predict_cost), the first of them on a tie, so that the
 * expensive work starts first and the last units to run are short. The
 * order never changes what a unit computes: results do not depend on it. */
static int take_unit(struct run *r, struct unit *u, int local)
{
  int rc;
  pthread_mutex_lock(&r->lock);
  while (r->phase_open && r->next_unit < r->n_units && r->taken && r->taken[r->next_unit])
    r->next_unit++;
  if (r->finished || r->abort)
    rc = -1;
  else if (!r->phase_open || r->next_unit >= r->n_units)
    rc = local ? -1 : 0; /* this process's threads leave the phase; others wait for the next */
  else {
    size_t pick = r->next_unit;
    if (r->taken) {
      /* mean measured cost per point, per class and overall */
      double class_mean[CS_CLASS_COUNT], sum = 0, cnt = 0;
      for (int c = 0; c < CS_CLASS_COUNT; c++) {
        class_mean[c] = r->class_points[c] > 0 ? r->class_cost[c] / r->class_points[c] : 0;
        sum += r->class_cost[c], cnt += r->class_points[c];
      }
      double best = -1;
      size_t seen = 0;
      for (size_t i = r->next_unit; i < r->n_units && seen < DISPATCH_WINDOW; i++) {
        if (r->taken[i])
          continue;
        seen++;
        double c = predict_cost(r, &r->units[i], class_mean, cnt > 0 ? sum / cnt : 0);
        if (c > best)
          best = c, pick = i;
      }
      r->taken[pick] = 1;
    } else {
      r->next_unit++;
    }
    *u = r->units[pick];
    rc = 1;
  }
  pthread_mutex_unlock(&r->lock);
  return rc;
}

static int server_next_unit(void *ctx, void *unit, size_t size)
{
  if (size != sizeof(struct unit))
    return -1;
  return take_unit(ctx, unit, 0);
}

static void server_result(void *ctx, void *buf, size_t len)
{
  enqueue(ctx, buf, len);
}

/* The writer thread's handling of one message: bookkeeping, then the sink. */
static void apply(struct run *r, void *buf, size_t len)
{
  struct msg_hdr *h = buf;
  if (len < sizeof(int))
    return;
  if (h->kind == MSG_UNIT_DONE) {
    pthread_mutex_lock(&r->lock);
    r->units_done++;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
    return;
  }
  if (h->kind == MSG_REFINED) {
    if (len >= sizeof *h && h->bif < r->out->n_bif)
      r->out->bif[h->bif] = h->bf;
    return;
  }
  if (h->kind != MSG_POINT || unpack_point(buf, len, &h) != 0 || h->pass < 0 || h->pass > 1 ||
      !r->rec[h->pass] || h->index >= r->np)
    return;
  const struct cs_point_result *res = &h->res;
  size_t ns = r->m->n_state;
  struct cs_sweep_record *rc = &r->rec[h->pass][h->index];
  if (rc->done && rc->cls == CS_CLASS_FAILED)
    r->failed--; /* recomputed */
  rc->cls = res->cls;
  rc->period = res->period;
  rc->period_time = res->period_time;
  rc->lyapunov = res->lyapunov;
  rc->lyapunov_err = res->lyapunov_err;
  rc->rotation_number = res->rotation_number;
  rc->stick_fraction = res->stick_fraction;
  rc->done = 1;
  if (!r->final[h->pass]) {
    /* a 2-D map keeps no final states (nothing to refine) */
  } else if (res->final_state && h->n_final == ns) {
    memcpy(r->final[h->pass] + h->index * ns, res->final_state, ns * sizeof(double));
    r->final_ok[h->pass][h->index] = usable_for_continuation(res->cls);
  } else {
    r->final_ok[h->pass][h->index] = 0;
  }
  r->rhs_evals += res->rhs_evals;
  r->computed++;
  pthread_mutex_lock(&r->lock); /* the costs are read by take_unit, freed by run_phase */
  if (r->cost[h->pass] && res->rhs_evals > 0) {
    r->cost[h->pass][h->index] = (double)res->rhs_evals;
    if ((int)res->cls >= 0 && (int)res->cls < CS_CLASS_COUNT)
      r->class_cost[res->cls] += (double)res->rhs_evals, r->class_points[res->cls]++;
  }
  pthread_mutex_unlock(&r->lock);
  if (res->cls == CS_CLASS_FAILED)
    r->failed++;
  struct cs_sweep_point pt = {h->pass, h->index, h->p1, h->p2, res};
  if (r->stop != CS_SWEEP_SINK && r->sink && r->sink(r->sink_ctx, &pt))
    set_stop(r, CS_SWEEP_SINK);
}

static void *writer_main(void *arg)
{
  struct run *r = arg;
  struct timespec last;
  clock_gettime(CLOCK_MONOTONIC, &last);
  pthread_mutex_lock(&r->lock);
  for (;;) {
    while (r->qhead) {
      struct qitem *it = r->qhead;
      r->qhead = it->next;
      if (!r->qhead)
        r->qtail = NULL;
      r->busy = 1;
      pthread_mutex_unlock(&r->lock);
      apply(r, it->buf, it->len);
      free(it->buf);
      free(it);
      pthread_mutex_lock(&r->lock);
      r->busy = 0;
      pthread_cond_broadcast(&r->changed);
    }
    if (r->writer_quit)
      break;
    /* a signal handler only sets a flag: pass it on to the point analyses */
    if (r->ctl->cancel && *r->ctl->cancel && !r->abort) {
      pthread_mutex_unlock(&r->lock);
      set_stop(r, CS_SWEEP_CANCELLED);
      pthread_mutex_lock(&r->lock);
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (r->ctl->tick &&
        (now.tv_sec - last.tv_sec) + 1e-9 * (double)(now.tv_nsec - last.tv_nsec) >= 0.1) {
      pthread_mutex_unlock(&r->lock);
      r->ctl->tick(r->sink_ctx);
      pthread_mutex_lock(&r->lock);
      last = now;
      continue;
    }
    struct timespec until = now;
    until.tv_nsec += 50 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000L)
      until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&r->changed, &r->lock, &until);
  }
  pthread_mutex_unlock(&r->lock);
  if (r->ctl->tick)
    r->ctl->tick(r->sink_ctx);
  cs_trace("writer_exit", -1, cs_trace_thread_cpu(), 0, 0, 0);
  return NULL;
}

/* ------------------------------------------------------------- the work */

/* Where this process's threads get units and send results. */
struct exec {
  struct run *r;
  const struct cs_sweep_comm *comm; /* NULL on the coordinator */
};

static int exec_take(struct exec *e, struct unit *u)
{
  if (!e->comm)
    return take_unit(e->r, u, 1);
  if (e->r->abort)
    return -1;
  return e->comm->request(e->comm->ctx, u, sizeof *u);
}

static void exec_emit(struct exec *e, void *buf, size_t len)
{
  if (!buf) {
    e->r->nomem = 1;
    set_stop(e->r, CS_SWEEP_SINK);
    return;
  }
  if (!e->comm) {
    enqueue(e->r, buf, len);
    return;
  }
  if (e->comm->send(e->comm->ctx, buf, len) != 0)
    set_stop(e->r, CS_SWEEP_REMOTE);
  free(buf);
}

static void emit_simple(struct exec *e, int kind, size_t bif, const struct cs_bifurcation *bf)
{
  struct msg_hdr *h = calloc(1, sizeof *h);
  if (h) {
    h->kind = kind;
    h->bif = bif;
    if (bf)
      h->bf = *bf;
  }
  exec_emit(e, h, sizeof *h);
}

/* Largest modulus of an orbit's nontrivial multipliers accepted by the
 * Newton continuation of a periodic point: a distance from the start state
 * to the orbit shrinks at least 5 % per period, so the orbit attracts its
 * neighbourhood robustly (folds and period doublings, where a modulus
 * reaches 1, take the full path). */
#define NEWTON_CONT_MAX_MULT 0.95

/* Newton continuation of a point whose neighbour was periodic
 * (spec->newton_continuation): instead of the fixed transient, a short run
 * from the neighbour's final state (no transient; adaptive windows, at most
 * `transient` time units of extensions, ending once three cycles repeat
 * within 100 periodicity tolerances: record_early = 2) must find a periodic
 * orbit; Newton from its last section point must converge to an orbit with
 * every nontrivial multiplier of modulus <= NEWTON_CONT_MAX_MULT and none
 * marginal; then the recording starts on that orbit (its section points
 * exact to the solver tolerance, where a transient leaves the remaining
 * contraction), ends once three cycles confirm it at the spec's tolerance
 * (at most 2k + 16 crossings), and must give the same period. Returns 1 with res filled
 * (transient_used = 0), else 0: the caller runs the full analysis from the same start. *evals and
 * *steps receive the integrator work spent either way. */
static int newton_continued(struct exec *e, struct worker *w, double p1, double p2,
                            const double *start, struct cs_point_result *res, long *steps,
                            long *evals)
{
  const struct cs_sweep_spec *spec = e->r->spec;
  const struct cs_model *m = e->r->m;
  struct cs_point_spec ps = spec->point;
  ps.transient = 0.0;
  ps.adaptive_transient = 1;
  ps.transient_max = spec->point.transient;
  ps.record_early = 2;
  ps.lyapunov = 0;
  /* the run only has to bring Newton near the orbit: periodic at 100 times
   * the periodicity tolerance (max(1e3 rtol, 1e-6) when derived) ends it
   * some 20 cycles sooner; the recording below checks the period at the
   * spec's tolerance */
  double ptol = spec->point.period_tol > 0 ? spec->point.period_tol
                                           : fmax(1e3 * spec->point.solver.rtol, 1e-6);
  ps.period_tol = fmin(100.0 * ptol, 1e-2);
  *steps = *evals = 0;
  if (cs_point_analyse(m, w->params, start, &ps, w->ws, res) != CS_OK)
    return 0;
  *steps += res->steps, *evals += res->rhs_evals;
  if (res->status != CS_OK || res->cls != CS_CLASS_PERIODIC || res->n_section == 0 ||
      !(res->period_time > 0) || res->section_cols > 1 + CS_FLOW_MAX_N + 64)
    return 0;
  int k = res->period;
  double row[1 + CS_FLOW_MAX_N + 64];
  memcpy(row, res->section + (res->n_section - 1) * res->section_cols,
         res->section_cols * sizeof(double));
  struct cs_orbit orb;
  char msg[256];
  if (orbit_at(w, m, e->r->base, spec, p1, p2, row, k, res->period_time, &orb, msg, sizeof msg) !=
          CS_OK ||
      orb.n_unstable > 0 || orb.n_marginal > 0 || orb.n_mult == 0 ||
      !(hypot(orb.mult_re[0], orb.mult_im[0]) <= NEWTON_CONT_MAX_MULT))
    return 0;
  /* the recording from the orbit's point, at the same time (the forcing
   * phase of a forced model's stroboscopic section) */
  double y0[CS_FLOW_MAX_N];
  memcpy(y0, orb.y, m->n_state * sizeof(double));
  ps.transient = 0.0;
  ps.period_tol = spec->point.period_tol;
  /* on the orbit, a few cycles confirm it (the same early end, now at the
   * spec's tolerance); at most 2k + 16 crossings */
  ps.record_crossings = 2 * (size_t)k + 16;
  if (cs_point_analyse(m, w->params, y0, &ps, w->ws, res) != CS_OK)
    return 0;
  *steps += res->steps, *evals += res->rhs_evals;
  if (res->status != CS_OK || res->cls != CS_CLASS_PERIODIC || res->period != k)
    return 0;
  res->transient_used = 0.0;
  res->drift = NAN;
  res->steps = *steps;
  res->rhs_evals = *evals;
  /* the multipliers of the orbit the recording started on */
  res->n_mult = orb.n_mult;
  for (size_t i = 0; i < orb.n_mult && i < sizeof res->mult_re / sizeof *res->mult_re; i++)
    res->mult_re[i] = orb.mult_re[i], res->mult_im[i] = orb.mult_im[i];
  res->mult_trivial_err = orb.trivial_err;
  res->mult_unstable = orb.n_unstable;
  res->mult_note[0] = '\0';
  return 1;
}

/* Analyses one grid point; delivers it unless `silent` (seam overlap) or
 * abandoned (interrupted). */
static void run_point(struct exec *e, struct worker *w, int pass, size_t k, const double *start,
                      int silent, int continued_periodic, struct cs_point_result *res)
{
  struct run *r = e->r;
  const struct cs_model *m = r->m;
  double p1, p2, tc0 = cs_trace_thread_cpu();
  int done = 0; /* by Newton continuation, with the multipliers */
  cs_sweep_values(r->spec, k, &p1, &p2);
  enum cs_status st = set_point(w, m, r->spec, p1, p2);
  if (st != CS_OK) {
    memset(res, 0, sizeof *res);
    res->status = st;
    res->cls = CS_CLASS_FAILED;
    snprintf(res->message, sizeof res->message, "%s", w->msg);
    res->period_time = res->lyapunov = res->lyapunov_err = res->rotation_number = NAN;
    res->stick_fraction = res->stick_phases = res->transient_used = res->drift = NAN;
    res->t_final = NAN;
    for (size_t j = 0; j < sizeof res->spectrum / sizeof *res->spectrum; j++)
      res->spectrum[j] = res->spectrum_err[j] = NAN;
    res->reduced_dimension = res->chaos_disagree = -1;
    res->kaplan_yorke = res->zero_one = NAN;
    res->final_state = NULL;
  } else {
    long steps = 0, evals = 0;
    done = continued_periodic && r->spec->newton_continuation && !r->spec->point.lyapunov_always &&
           newton_continued(e, w, p1, p2, start, res, &steps, &evals);
    if (!done) {
      /* a seam point is discarded: only its final state and whether it is
       * periodic carry on, and the Lyapunov run starts after the final
       * state is taken, so it is left out (the chunk's points are the same
       * bit for bit; figure 5a: 21 seam points, a tenth of the run) */
      struct cs_point_spec ps = r->spec->point;
      if (silent)
        ps.lyapunov = 0;
      cs_point_analyse(m, w->params, start, &ps, w->ws, res);
      res->steps += steps, res->rhs_evals += evals; /* the work of a refused attempt */
    }
  }
  if (silent || res->status == CS_ERR_INTERRUPTED) {
    cs_trace("point", omp_get_thread_num(), (double)k, 1, cs_trace_thread_cpu() - tc0,
             (double)res->rhs_evals);
    return;
  }
  if (r->spec->multipliers && !done)
    floquet(w, m, r->base, r->spec, p1, p2, res);
  else if (!r->spec->multipliers)
    res->n_mult = 0, res->mult_trivial_err = NAN, res->mult_note[0] = '\0';
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
  size_t len;
  void *buf = pack_point(pass, k, p1, p2, &out, m->n_state, &len);
  cs_trace("point", omp_get_thread_num(), (double)k, 0, cs_trace_thread_cpu() - tc0,
           (double)res->rhs_evals);
  exec_emit(e, buf, len);
}

/* Index of the q-th point of a 1-D pass (row `row` for 2-D). */
static size_t pass_index(const struct cs_sweep_spec *spec, int pass, size_t q, size_t row)
{
  size_t n = spec->points;
  size_t i = pass == 0 ? q : n - 1 - q;
  return i + row * n;
}

static int interrupted(const struct exec *e)
{
  return e->r->abort || (e->comm && e->comm->stopped(e->comm->ctx));
}

/* A segment [q0, q1) of a pass (of one row), with continuation: from the
 * seam overlap (the `overlap` points before q0, re-run from the initial state
 * and discarded) or, resumed, from its first missing point. */
static void run_segment(struct exec *e, struct worker *w, const struct unit *u)
{
  const struct cs_model *m = e->r->m;
  const struct cs_sweep_spec *spec = e->r->spec;
  struct cs_point_result res;
  int have = 0, periodic = 0; /* a start state, and from a periodic neighbour */
  size_t first = u->qs;
  if (u->qs > u->q0) {
    have = u->have_start;
    periodic = have && u->start_periodic;
    if (have)
      memcpy(w->y, u->start, m->n_state * sizeof(double));
  } else if (u->seam) {
    first = u->q0 > spec->overlap ? u->q0 - spec->overlap : 0;
  }
  for (size_t q = first; q < u->q1 && !interrupted(e); q++) {
    size_t k = pass_index(spec, u->pass, q, u->row);
    const double *start = spec->continuation && have ? w->y : e->r->y0;
    run_point(e, w, u->pass, k, start, q < u->q0, spec->continuation && have && periodic, &res);
    have = spec->continuation && res.final_state && usable_for_continuation(res.cls);
    periodic = res.cls == CS_CLASS_PERIODIC;
    if (have)
      memcpy(w->y, res.final_state, m->n_state * sizeof(double));
  }
}

static void refine_one(struct exec *e, struct worker *w, struct unit *u);

/* One thread's loop: units until none is left. */
static void work(struct exec *e, struct worker *w)
{
  struct unit u;
  int tid = omp_get_thread_num();
  for (;;) {
    double tw0 = omp_get_wtime();
    int rc = exec_take(e, &u);
    cs_trace("take", tid, rc, rc > 0 ? (double)u.q0 : -1, rc > 0 ? (double)u.q1 : -1,
             omp_get_wtime() - tw0);
    if (rc < 0)
      return;
    if (rc == 0) {
      struct timespec ts = {0, 2 * 1000 * 1000};
      nanosleep(&ts, NULL);
      continue;
    }
    double tc0 = cs_trace_thread_cpu(), tw1 = omp_get_wtime();
    if (u.kind == UNIT_REFINE)
      refine_one(e, w, &u);
    else
      run_segment(e, w, &u);
    cs_trace("unit", tid, u.kind == UNIT_REFINE ? -1 : (double)u.q0, (double)u.q1,
             cs_trace_thread_cpu() - tc0, omp_get_wtime() - tw1);
    if (interrupted(e))
      return; /* an abandoned unit is not done: a resume computes it */
    emit_simple(e, MSG_UNIT_DONE, 0, NULL);
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

static int irregular(enum cs_class c)
{
  return c == CS_CLASS_CHAOTIC || c == CS_CLASS_QUASIPERIODIC;
}

/* Chaotic and quasiperiodic neighbours whose largest exponents do not differ
 * significantly (by more than 3 standard errors of the difference) are one
 * irregular band: the class of a point near zero exponent flickers with the
 * exponent's noise, which is no bifurcation. */
static int same_band(const struct cs_sweep_record *a, const struct cs_sweep_record *b)
{
  if (!irregular(a->cls) || !irregular(b->cls))
    return 0;
  double la = a->lyapunov, lb = b->lyapunov, ea = a->lyapunov_err, eb = b->lyapunov_err;
  if (!isfinite(la) || !isfinite(lb) || !isfinite(ea) || !isfinite(eb))
    return 0;
  return fabs(la - lb) <= 3.0 * sqrt(ea * ea + eb * eb);
}

static int same_regime(const struct cs_sweep_record *a, const struct cs_sweep_record *b)
{
  if (a->cls != b->cls)
    return same_band(a, b);
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
  if (x != CS_CLASS_CHAOTIC && y == CS_CLASS_CHAOTIC)
    return CS_BIF_TO_CHAOS;
  if ((x == CS_CLASS_PERIODIC || x == CS_CLASS_EQUILIBRIUM) && y == CS_CLASS_QUASIPERIODIC)
    return CS_BIF_TO_QUASIPERIODIC;
  if (x == CS_CLASS_QUASIPERIODIC && y == CS_CLASS_PERIODIC)
    return CS_BIF_LOCKING;
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

/* A point that says something about the regime: computed and not failed. */
static int informative(const struct cs_sweep_record *a)
{
  return a->done && a->cls != CS_CLASS_PENDING && a->cls != CS_CLASS_FAILED;
}

size_t cs_sweep_detect(const struct cs_sweep_spec *spec, int pass,
                       const struct cs_sweep_record *rec, struct cs_bifurcation *out,
                       size_t max_out)
{
  size_t n = 0;
  if (spec->points2)
    return 0;
  /* neighbours among the informative points: failed points between two of
   * them hide where (and whether) something changed */
  size_t i = 0;
  while (i < spec->points && !informative(&rec[i]))
    i++;
  for (size_t j = i + 1; j < spec->points; j++) {
    if (!informative(&rec[j]))
      continue;
    const struct cs_sweep_record *a = &rec[i], *b = &rec[j];
    /* inside an irregular band, one point of the other irregular class
     * between two of the same class is the exponent's noise, not two
     * bifurcations: it belongs to the band */
    size_t l = j + 1;
    while (l < spec->points && !informative(&rec[l]))
      l++;
    if (l < spec->points && irregular(a->cls) && irregular(b->cls) && irregular(rec[l].cls) &&
        b->cls != a->cls && rec[l].cls == a->cls)
      continue;
    struct cs_bifurcation bf = {.pass = pass, .left = i, .right = j};
    cs_sweep_values(spec, i, &bf.p_left, NULL);
    cs_sweep_values(spec, j, &bf.p_right, NULL);
    bf.estimate = 0.5 * (bf.p_left + bf.p_right);
    bf.from_cls = a->cls, bf.to_cls = b->cls;
    bf.from_period = a->period, bf.to_period = b->period;
    int regime = !same_regime(a, b);
    int rot = rotating(spec, a->rotation_number) != rotating(spec, b->rotation_number);
    int stick = sticking(a->stick_fraction) != sticking(b->stick_fraction);
    if (j > i + 1) {
      if (regime || rot || stick) {
        bf.kind = CS_BIF_UNKNOWN;
        bf.estimate = NAN;
        add(out, max_out, &n, &bf);
      }
      i = j;
      continue;
    }
    if (regime) {
      bf.kind = classify_change(a, b);
      add(out, max_out, &n, &bf);
    }
    if (rot) {
      bf.kind = rotating(spec, b->rotation_number) ? CS_BIF_ROTATION_ONSET : CS_BIF_ROTATION_END;
      add(out, max_out, &n, &bf);
    }
    if (stick) {
      bf.kind = sticking(b->stick_fraction) ? CS_BIF_STICK_ONSET : CS_BIF_STICK_END;
      add(out, max_out, &n, &bf);
    }
    i = j;
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
    int differ = informative(&f[i]) && informative(&b[i]) && !same_regime(&f[i], &b[i]);
    if (!differ) {
      i++;
      continue;
    }
    size_t j = i;
    while (j + 1 < np && informative(&f[j + 1]) && informative(&b[j + 1]) &&
           !same_regime(&f[j + 1], &b[j + 1]))
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
static void refine_one(struct exec *e, struct worker *w, struct unit *u)
{
  const struct cs_model *m = e->r->m;
  const struct cs_sweep_spec *spec = e->r->spec;
  struct cs_bifurcation *bf = &u->bf;
  int pass = bf->pass;
  double p_near = pass == 0 ? bf->p_left : bf->p_right;
  double p_far = pass == 0 ? bf->p_right : bf->p_left;
  double ystart[CS_FLOW_MAX_N];
  memcpy(ystart, u->start, m->n_state * sizeof(double));
  struct cs_point_result res;
  int guard = 0;
  while (fabs(p_far - p_near) > spec->refine_tol && guard++ < 60 && !interrupted(e)) {
    double mid = 0.5 * (p_near + p_far);
    if (set_point(w, m, spec, mid, NAN) != CS_OK)
      break;
    cs_point_analyse(m, w->params, ystart, &spec->point, w->ws, &res);
    if (res.cls == CS_CLASS_FAILED)
      break;
    if (on_from_side(spec, bf, &u->from, &res)) {
      p_near = mid;
      if (res.final_state && usable_for_continuation(res.cls))
        memcpy(ystart, res.final_state, m->n_state * sizeof(double));
    } else {
      p_far = mid;
    }
  }
  if (interrupted(e))
    return;
  bf->estimate = 0.5 * (p_near + p_far);
  bf->refined = fabs(p_far - p_near) <= spec->refine_tol;
  if (pass == 0)
    bf->p_left = p_near, bf->p_right = p_far;
  else
    bf->p_left = p_far, bf->p_right = p_near;
  emit_simple(e, MSG_REFINED, u->bif, bf);
}

/* ------------------------------------------------------ equilibria */

/* Equilibria and eigenvalues at every grid point, continued along the grid,
 * and the parameter values where the largest real part crosses zero (Hopf
 * for a complex pair, fold for a real eigenvalue), added to the change list. */
static void equilibria_along(const struct cs_model *m, const void *base, const double *y0,
                             const struct cs_sweep_spec *spec, struct cs_sweep_outcome *out,
                             size_t cap)
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

/* Points of the chunk that starts at position q0 of a pass of np1 points
 * (continuation, 1-D, chunk > 0): `chunk`, as in the layout before results
 * version 6, until at most `chunk` points are left; that last chunk is split
 * in halves, none below four seam overlaps (a seam's overlap stays within a
 * quarter of its chunk's work) nor chunk / 4. The last units handed out are
 * then short, so that no thread runs long alone at the end (figure 5a: the
 * last 16 points carry 30 % of the work), and every seam of the old layout
 * is kept: a seam restarts from the initial state and can land on a
 * coexisting attractor, so a seam moved into a branch that continuation
 * follows changes the diagram (a quarter-of-what-is-left rule put one at
 * 59.2 rad/s in figure 5a, taking 59.2-59.5 off the period-1 branch). A fixed
 * function of the grid and the spec, never of the thread or rank count: the
 * seams, and with them the results, are the same for any. */
static size_t chunk_at(const struct cs_sweep_spec *spec, size_t np1, size_t q0)
{
  size_t left = np1 - q0, size = (left + 1) / 2, least = 4 * spec->overlap;
  if (left > spec->chunk)
    return spec->chunk;
  if (least < spec->chunk / 4)
    least = spec->chunk / 4;
  if (size < least)
    size = least;
  if (size > spec->chunk)
    size = spec->chunk;
  return size > 0 ? size : 1;
}

/* The units of the points phase: every segment, from its first missing
 * point (all of them on a fresh run). */
/* The final state of grid index k of a pass, to continue from it: 1 and the
 * state in y when it is usable. A 2-D map keeps no final states of its own:
 * a resumed one reads them from the file's (the prior). */
static int resume_start(const struct run *r, int pass, size_t k, double *y)
{
  size_t ns = r->m->n_state;
  if (r->final[pass]) {
    if (!r->final_ok[pass][k])
      return 0;
    memcpy(y, r->final[pass] + k * ns, ns * sizeof(double));
    return 1;
  }
  const struct cs_sweep_prior *pr = r->ctl->prior;
  if (!pr || !pr->final[pass] || !pr->rec[pass] || !usable_for_continuation(pr->rec[pass][k].cls))
    return 0;
  const double *src = pr->final[pass] + k * ns;
  for (size_t i = 0; i < ns; i++)
    if (!isfinite(src[i]))
      return 0;
  memcpy(y, src, ns * sizeof(double));
  return 1;
}

static size_t plan_points(struct run *r, struct unit *units)
{
  const struct cs_sweep_spec *spec = r->spec;
  size_t n = 0, np1 = spec->points, rows = spec->points2 ? spec->points2 : 1;
  size_t size = np1;
  int shrink = 0;          /* chunk_at */
  if (!spec->continuation) /* independent points: any grouping gives the same results */
    size = spec->chunk ? spec->chunk : 32;
  else if (!spec->points2 && !spec->chunk)
    size = (np1 + (size_t)r->nthreads - 1) / (size_t)r->nthreads;
  else if (!spec->points2 && spec->chunk < np1)
    shrink = 1;
  if (size == 0)
    size = 1;
  for (int pass = 0; pass < 2; pass++) {
    if (!r->passes[pass])
      continue;
    for (size_t row = 0; row < rows; row++) {
      for (size_t q0 = 0; q0 < np1; q0 += size) {
        struct unit u = {.kind = UNIT_SEGMENT, .pass = pass, .row = row, .q0 = q0};
        if (shrink)
          size = chunk_at(spec, np1, q0);
        u.q1 = q0 + size < np1 ? q0 + size : np1;
        u.seam = spec->continuation && !spec->points2 && q0 > 0;
        /* points of a segment finish in order: the done ones are a prefix */
        size_t qs = q0;
        while (qs < u.q1 && r->rec[pass][pass_index(spec, pass, qs, row)].done)
          qs++;
        if (qs == u.q1)
          continue;
        u.qs = qs;
        if (qs > q0 && spec->continuation) {
          size_t kp = pass_index(spec, pass, qs - 1, row);
          u.start_periodic = r->rec[pass][kp].cls == CS_CLASS_PERIODIC;
          u.have_start = resume_start(r, pass, kp, u.start);
        }
        if (units)
          units[n] = u;
        n++;
      }
    }
  }
  return n;
}

/* Opens a phase with n units and runs it on this process's threads (the
 * other processes take units through the transport meanwhile); returns when
 * every unit is done (or the sweep stopped). */
static void run_phase(struct run *r, struct unit *units, size_t n, int nthreads)
{
  /* cost-aware dispatch; without the memory for it, units go in order */
  unsigned char *taken = calloc(n ? n : 1, 1);
  double *cost[2] = {NULL, NULL};
  for (int p = 0; p < 2 && taken; p++)
    if (r->passes[p] && !(cost[p] = calloc(r->np, sizeof(double)))) {
      free(cost[0]), cost[0] = NULL;
      free(taken), taken = NULL;
    }
  pthread_mutex_lock(&r->lock);
  r->units = units;
  r->n_units = n;
  r->next_unit = 0;
  r->units_done = 0;
  r->taken = taken;
  r->cost[0] = cost[0], r->cost[1] = cost[1];
  for (int c = 0; c < CS_CLASS_COUNT; c++)
    r->class_cost[c] = r->class_points[c] = 0;
  r->phase_open = 1;
  pthread_mutex_unlock(&r->lock);
  struct exec e = {r, NULL};
  int init_failed = 0;
#pragma omp parallel num_threads(nthreads)
  {
    struct worker w;
    if (worker_init(&w, r->m, r->base, r->spec) == 0) {
      work(&e, &w);
    } else {
#pragma omp atomic write
      init_failed = 1;
    }
    worker_free(&w, r->m);
  }
  if (init_failed) {
    r->nomem = 1;
    set_stop(r, CS_SWEEP_SINK);
  }
  /* units taken by other processes may still be running */
  pthread_mutex_lock(&r->lock);
  while (r->units_done < r->n_units && !r->abort)
    pthread_cond_wait(&r->changed, &r->lock);
  r->phase_open = 0;
  r->taken = NULL;
  r->cost[0] = r->cost[1] = NULL;
  pthread_mutex_unlock(&r->lock);
  free(taken), free(cost[0]), free(cost[1]);
}

/* Waits until the writer thread has applied everything queued so far. */
static void drain(struct run *r)
{
  pthread_mutex_lock(&r->lock);
  while (r->qhead || r->busy) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 10 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000L)
      ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&r->changed, &r->lock, &ts);
  }
  pthread_mutex_unlock(&r->lock);
}

static void *monitor_main(void *arg)
{
  struct exec *e = arg;
  struct run *r = e->r;
  for (;;) {
    pthread_mutex_lock(&r->lock);
    int quit = r->writer_quit;
    pthread_mutex_unlock(&r->lock);
    if (quit) {
      cs_trace("monitor_exit", -1, cs_trace_thread_cpu(), 0, 0, 0);
      return NULL;
    }
    if (!r->abort && r->ctl->cancel && *r->ctl->cancel)
      set_stop(r, CS_SWEEP_CANCELLED);
    if (!r->abort && e->comm->stopped(e->comm->ctx))
      set_stop(r, CS_SWEEP_REMOTE);
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

/* A worker process: units from the coordinator until none is left. */
static void run_worker(struct run *r, int nthreads)
{
  struct exec e = {r, r->ctl->comm};
  pthread_t mon;
  int have_mon = pthread_create(&mon, NULL, monitor_main, &e) == 0;
#pragma omp parallel num_threads(nthreads)
  {
    struct worker w;
    if (worker_init(&w, r->m, r->base, r->spec) == 0)
      work(&e, &w);
    else
      set_stop(r, CS_SWEEP_SINK);
    worker_free(&w, r->m);
  }
  pthread_mutex_lock(&r->lock);
  r->writer_quit = 1;
  pthread_mutex_unlock(&r->lock);
  if (have_mon)
    pthread_join(mon, NULL);
  e.comm->done(e.comm->ctx);
}

/* The spec's refusals, each with its reason in cs_errmsg(). */
static enum cs_status check_spec(const struct cs_model *m, const void *base_params,
                                 const double *y0, const struct cs_sweep_spec *spec)
{
  if (!m || !base_params || !y0 || !spec)
    return cs_error_set(CS_ERR_ARG, "sweep: missing model, parameters, initial state or spec");
  if (m->n_state > CS_FLOW_MAX_N)
    return cs_error_set(CS_ERR_ARG, "sweep: model %s has %zu states (at most %d)", m->name,
                        m->n_state, CS_FLOW_MAX_N);
  if (spec->param < 0 || (size_t)spec->param >= m->n_param)
    return cs_error_set(CS_ERR_ARG, "sweep: parameter index %d is not one of model %s's (0..%zu)",
                        spec->param, m->name, m->n_param - 1);
  if (spec->points < 1)
    return cs_error_set(CS_ERR_ARG, "sweep: points = 0 (at least 1)");
  const struct cs_param_desc *p = &m->param[spec->param];
  if (!isfinite(spec->from) || !isfinite(spec->to) || spec->from < p->min || spec->from > p->max ||
      spec->to < p->min || spec->to > p->max)
    return cs_error_set(CS_ERR_RANGE, "sweep: %s from %g to %g leaves the accepted range [%g, %g]",
                        p->name, spec->from, spec->to, p->min, p->max);
  if (spec->points2 && (spec->points > CS_SWEEP_MAX_POINTS / spec->points2 ||
                        spec->points * spec->points2 > CS_SWEEP_MAX_POINTS))
    return cs_error_set(CS_ERR_RANGE, "sweep: points x points2 = %zu x %zu is more than %d",
                        spec->points, spec->points2, CS_SWEEP_MAX_POINTS);
  if (spec->param2 >= 0 && (size_t)spec->param2 >= m->n_param)
    return cs_error_set(CS_ERR_ARG, "sweep: second parameter index %d is not one of model %s's",
                        spec->param2, m->name);
  return CS_OK;
}

enum cs_status cs_sweep_run_ctl(const struct cs_model *m, const void *base_params, const double *y0,
                                const struct cs_sweep_spec *spec_in, cs_sweep_sink_fn sink,
                                void *sink_ctx, const struct cs_sweep_ctl *ctl_in,
                                struct cs_sweep_outcome *out)
{
  memset(out, 0, sizeof *out);
  enum cs_status bad = check_spec(m, base_params, y0, spec_in);
  if (bad != CS_OK)
    return bad;
  static const struct cs_sweep_ctl no_ctl;
  const struct cs_sweep_ctl *ctl = ctl_in ? ctl_in : &no_ctl;
  struct cs_sweep_spec spec = *spec_in;
  struct run r = {.m = m,
                  .base = base_params,
                  .y0 = y0,
                  .spec = &spec,
                  .ctl = ctl,
                  .sink = sink,
                  .sink_ctx = sink_ctx,
                  .out = out,
                  .np = cs_sweep_npoints(spec_in)};
  spec.point.cancel = &r.abort;
  r.passes[0] = spec.direction != CS_SWEEP_BACKWARD;
  r.passes[1] = spec.direction != CS_SWEEP_FORWARD;
  r.coordinator = !ctl->comm || ctl->comm->rank == 0;
  int nthreads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  double t0 = omp_get_wtime();
  cs_trace("run_begin", -1, r.coordinator, nthreads, 0, 0);
  r.nthreads = nthreads;
  pthread_mutex_init(&r.lock, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* the timed waits use CLOCK_MONOTONIC */
  pthread_cond_init(&r.changed, &ca);
  pthread_condattr_destroy(&ca);

  if (!r.coordinator) {
    run_worker(&r, nthreads);
    cs_trace("run_end", -1, 0, 0, 0, 0);
    out->worker = 1;
    out->wall_time = omp_get_wtime() - t0;
    out->interrupted = r.stop == CS_SWEEP_CANCELLED;
    out->stop = r.stop;
    pthread_cond_destroy(&r.changed);
    pthread_mutex_destroy(&r.lock);
    return r.nomem ? CS_ERR_NOMEM : CS_OK;
  }

  size_t ns = m->n_state, cap = 4 * spec.points + 16;
  enum cs_status st = CS_OK;
  out->bif = calloc(cap, sizeof *out->bif);
  if (!out->bif)
    st = CS_ERR_NOMEM;
  for (int p = 0; p < 2 && st == CS_OK; p++) {
    if (!r.passes[p])
      continue;
    r.rec[p] = calloc(r.np, sizeof *r.rec[p]);
    /* final states: what a refinement starts from (1-D only); a 2-D map's
     * would be most of its memory, for nothing */
    if (!spec.points2) {
      r.final[p] = calloc(r.np * ns, sizeof(double));
      r.final_ok[p] = calloc(r.np, 1);
    }
    if (!r.rec[p] || (!spec.points2 && (!r.final[p] || !r.final_ok[p]))) {
      st = CS_ERR_NOMEM;
      break;
    }
    const struct cs_sweep_prior *pr = ctl->prior;
    if (pr && pr->rec[p]) {
      memcpy(r.rec[p], pr->rec[p], r.np * sizeof *r.rec[p]);
      for (size_t k = 0; k < r.np; k++) {
        if (!r.rec[p][k].done)
          continue;
        out->prior++;
        if (r.rec[p][k].cls == CS_CLASS_FAILED)
          r.failed++;
        if (r.final[p] && pr->final[p] && usable_for_continuation(r.rec[p][k].cls)) {
          const double *y = pr->final[p] + k * ns;
          int finite = 1;
          for (size_t i = 0; i < ns; i++)
            finite &= isfinite(y[i]) != 0;
          memcpy(r.final[p] + k * ns, y, ns * sizeof(double));
          r.final_ok[p][k] = (unsigned char)finite;
        }
      }
    }
  }
  size_t n_units = st == CS_OK ? plan_points(&r, NULL) : 0;
  struct unit *units = st == CS_OK ? malloc((n_units ? n_units : 1) * sizeof *units) : NULL;
  if (st == CS_OK && !units)
    st = CS_ERR_NOMEM;
  if (st != CS_OK) {
    for (int p = 0; p < 2; p++)
      free(r.rec[p]), free(r.final[p]), free(r.final_ok[p]);
    free(units);
    free(out->bif), out->bif = NULL;
    pthread_cond_destroy(&r.changed);
    pthread_mutex_destroy(&r.lock);
    return st;
  }
  plan_points(&r, units);

  pthread_t writer;
  int have_writer = pthread_create(&writer, NULL, writer_main, &r) == 0;
  struct cs_sweep_server srv = {&r, server_next_unit, server_result};
  int serving = ctl->comm && ctl->comm->serve_begin(ctl->comm->ctx, &srv) == 0;
  if (!have_writer || (ctl->comm && !serving)) {
    r.nomem = !have_writer;
    set_stop(&r, CS_SWEEP_SINK);
  }

  /* 1. the points */
  cs_trace("points_begin", -1, (double)n_units, 0, 0, 0);
  if (!r.abort)
    run_phase(&r, units, n_units, nthreads);
  drain(&r);
  cs_trace("points_end", -1, 0, 0, 0, 0);

  /* 2. changes between neighbours, refined by bisection (1-D) */
  if (!r.abort && !spec.points2) {
    for (int pass = 0; pass < 2; pass++)
      if (r.passes[pass])
        out->n_bif +=
            cs_sweep_detect(&spec, pass, r.rec[pass], out->bif + out->n_bif, cap - out->n_bif);
    if (out->n_bif > cap)
      out->n_bif = cap;
    if (spec.refine) {
      free(units);
      units = malloc((out->n_bif ? out->n_bif : 1) * sizeof *units);
      size_t nr = 0;
      for (size_t b = 0; units && b < out->n_bif; b++) {
        const struct cs_bifurcation *bf = &out->bif[b];
        if (bf->pass < 0 || bf->kind == CS_BIF_UNKNOWN)
          continue;
        size_t near = bf->pass == 0 ? bf->left : bf->right;
        if (!r.final_ok[bf->pass][near])
          continue;
        struct unit u = {.kind = UNIT_REFINE, .pass = bf->pass, .bif = b, .bf = *bf};
        u.from = r.rec[bf->pass][near];
        memcpy(u.start, r.final[bf->pass] + near * ns, ns * sizeof(double));
        units[nr++] = u;
      }
      if (units)
        run_phase(&r, units, nr, nthreads);
      drain(&r);
    }
    if (!r.abort && r.passes[0] && r.passes[1])
      out->n_bif +=
          detect_hysteresis(&spec, r.rec[0], r.rec[1], out->bif + out->n_bif, cap - out->n_bif);
  }
  pthread_mutex_lock(&r.lock);
  r.finished = 1;
  pthread_mutex_unlock(&r.lock);
  cs_trace("refine_end", -1, 0, 0, 0, 0);
  if (serving)
    ctl->comm->serve_end(ctl->comm->ctx, r.abort);
  cs_trace("serve_end", -1, 0, 0, 0, 0);
  pthread_mutex_lock(&r.lock);
  r.writer_quit = 1;
  pthread_cond_broadcast(&r.changed);
  pthread_mutex_unlock(&r.lock);
  if (have_writer)
    pthread_join(writer, NULL);
  free(units);

  cs_trace("eq_begin", -1, 0, 0, 0, 0);
  if (!r.abort && spec.equilibria && !spec.points2)
    equilibria_along(m, base_params, y0, &spec, out, cap);
  cs_trace("run_end", -1, 0, 0, 0, 0);
  out->wall_time = omp_get_wtime() - t0;
  out->rhs_evals = r.rhs_evals;
  out->failed = r.failed;
  out->computed = r.computed;
  out->stop = r.stop;
  out->interrupted = r.stop != CS_SWEEP_RAN;
  out->records[0] = r.rec[0];
  out->records[1] = r.rec[1];
  for (int p = 0; p < 2; p++)
    free(r.final[p]), free(r.final_ok[p]);
  pthread_cond_destroy(&r.changed);
  pthread_mutex_destroy(&r.lock);
  return r.nomem ? CS_ERR_NOMEM : CS_OK;
}

enum cs_status cs_sweep_run(const struct cs_model *m, const void *base_params, const double *y0,
                            const struct cs_sweep_spec *spec, cs_sweep_sink_fn sink, void *sink_ctx,
                            struct cs_sweep_outcome *out)
{
  return cs_sweep_run_ctl(m, base_params, y0, spec, sink, sink_ctx, NULL, out);
}
