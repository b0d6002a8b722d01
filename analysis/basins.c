/* SPDX-License-Identifier: MIT */
/* Basins of attraction (contract in basins.h).
 *
 * Distances. States are compared component by component in units of the
 * spec's scales S_i (basins.h: the box width, or the state's own size), angle
 * states (the model's angle flags) by their difference reduced into
 * (-pi, pi]: d(a, b) = max_i |a_i - b_i| / S_i. Stored points have their
 * angles reduced into (-pi, pi].
 *
 * A cell. Its trajectory runs from the initial state over the transient
 * (rounded up to whole forcing periods for a forced model, so that the
 * analysis below starts at the forcing's phase 0), checked against the
 * catalogue of its work unit:
 * - every `check` time units: within `radius` of a stable equilibrium of the
 *   catalogue at two checks in a row -> that equilibrium;
 * - at every section point (the hyperplane's crossings, or once per forcing
 *   period): within `radius` of a section point of a periodic orbit of period
 *   k at k + 2 crossings in a row -> that orbit; in a cell occupied by the
 *   section points of a quasiperiodic, chaotic or aperiodic attractor on its
 *   coarse grid (below) at 10 crossings in a row -> that attractor.
 * The settle time is the time of the first check or crossing of that run.
 * A cell not recognised by the end of the transient is analysed by
 * cs_point_analyse from where it got (transient 0, the spec's recording
 * window, adaptive transient and exponent), its attractor described (below)
 * and looked up in the unit's catalogue by the identity rule, added if new;
 * its settle time is the transient plus the analysis' extension of it.
 * early = 0 skips the checks: every cell is analysed in full (the reference
 * for the speed-up).
 *
 * Identity of two attractors:
 * - same class (the classes of point.h); failed cells belong to none;
 * - equilibria: d(state a, state b) <= radius;
 * - periodic orbits: same period k, period times within 1e-3 relative, and
 *   every one of a's k section points within radius of one of b's;
 * - quasiperiodic, chaotic, aperiodic: their section points projected on two
 *   coordinates of the section (the grid's x and y when neither is the
 *   section variable, else the first two states that are not), a 32 x 32 grid
 *   over the bounding box of both sets; the same attractor if the cells
 *   occupied by both are at least half of the cells occupied by the smaller
 *   set, and (when both have one) the largest exponents agree within three
 *   times the larger error estimate plus 0.05 of the larger magnitude;
 * - no-crossings and escaped: the class alone.
 * A periodic attractor is stored with the k section points of its last
 * cycle, an equilibrium with its state, the others with their last section
 * points (at most CS_BASINS_MAX_POINTS). */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/basins.h"
#include "core/error_private.h"
#include "integrate/flow.h"
#include "models/model_private.h"
#include "analysis/basins_private.h"
#include "analysis/basins_along_private.h"
#include "integrate/flow_private.h"

#define EQ_CHECKS 2
#define CHAOS_CROSSINGS 10
#define OVERLAP_GRID 32

void cs_basins_spec_default(struct cs_basins_spec *spec)
{
  memset(spec, 0, sizeof *spec);
  spec->mode = CS_BASINS_GRID;
  spec->ix = spec->iy = -1;
  spec->point = cs_point_spec_default();
  spec->point.transient = 20;
  spec->point.record = 20;
  spec->chunk = 64;
  spec->radius = 0.02;
  spec->early = 1;
  spec->seed = 1;
}

size_t cs_basins_ncells(const struct cs_basins_spec *spec)
{
  return spec->mode == CS_BASINS_GRID ? spec->nx * spec->ny : spec->sample;
}

static double node(double lo, double hi, size_t n, size_t i)
{
  double c = 0.5 * (lo + hi), h = 0.5 * (hi - lo);
  if (n < 2)
    return c;
  return c + h * ((2.0 * (double)i - (double)(n - 1)) / (double)(n - 1));
}

void cs_basins_cell_state(const struct cs_basins_spec *spec, const double *y0, size_t k, double *y)
{
  (void)y0;
  if (spec->mode == CS_BASINS_GRID) {
    size_t i = k % spec->nx, j = k / spec->nx;
    y[spec->ix] = node(spec->x_min, spec->x_max, spec->nx, i);
    y[spec->iy] = node(spec->y_min, spec->y_max, spec->ny, j);
    return;
  }
  if (spec->mode == CS_BASINS_LIST) {
    memcpy(y, spec->list + k * spec->list_n, spec->list_n * sizeof *y);
    return;
  }
  /* one generator per cell, seeded from (seed, k): a cell's state does not
   * depend on which cells were drawn before it */
  gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
  if (!r)
    return;
  gsl_rng_set(r, spec->seed * 2654435761ul + k * 40503ul + 1);
  for (size_t i = 0; i < 16; i++)
    y[i] = spec->lo[i] + (spec->hi[i] - spec->lo[i]) * gsl_rng_uniform(r);
  gsl_rng_free(r);
}

/* Initial state of cell k of model m: y0, then the grid or sample values. */
static void initial_state(const struct cs_model *m, const struct cs_basins_spec *spec,
                          const double *y0, size_t k, double *y)
{
  memcpy(y, y0, m->n_state * sizeof *y);
  if (spec->mode == CS_BASINS_GRID) {
    cs_basins_cell_state(spec, y0, k, y);
    return;
  }
  double tmp[16] = {0};
  memcpy(tmp, y, m->n_state * sizeof *y);
  cs_basins_cell_state(spec, y0, k, tmp);
  memcpy(y, tmp, m->n_state * sizeof *y);
}

void cs_basins_spec_scales(struct cs_basins_spec *spec, const struct cs_model *m, const double *y0)
{
  double rtol = spec->point.solver.rtol > 0 ? spec->point.solver.rtol : 1e-8;
  for (size_t i = 0; i < m->n_state && i < 16; i++) {
    double atol =
        spec->point.solver.atol_vec ? spec->point.solver.atol_vec[i] : spec->point.solver.atol;
    double s = fmax(fabs(y0[i]), atol / rtol);
    if (spec->mode == CS_BASINS_SAMPLE && spec->hi[i] > spec->lo[i])
      s = spec->hi[i] - spec->lo[i];
    if (spec->mode == CS_BASINS_GRID && (int)i == spec->ix)
      s = spec->x_max - spec->x_min;
    if (spec->mode == CS_BASINS_GRID && (int)i == spec->iy)
      s = spec->y_max - spec->y_min;
    spec->scale[i] = s > 0 && isfinite(s) ? s : 1.0;
  }
}

/* ------------------------------------------------------------ distances */

static double wrap(double a)
{
  return remainder(a, 2.0 * M_PI);
}

static double dist(const struct cs_model *m, const struct cs_basins_spec *spec, const double *a,
                   const double *b)
{
  double d = 0;
  for (size_t i = 0; i < m->n_state; i++) {
    double x = a[i] - b[i];
    if (m->state[i].angle)
      x = wrap(x);
    d = fmax(d, fabs(x) / spec->scale[i]);
  }
  return d;
}

/* The section variable's state index, or -1 (derived output, stroboscopic). */
static int section_state(const struct cs_model *m, const struct cs_section_spec *s)
{
  if (s->kind != CS_SECTION_HYPERPLANE || !s->variable)
    return -1;
  return cs_model_state_index(m, s->variable);
}

static struct cs_section_spec effective_section(const struct cs_model *m,
                                                const struct cs_basins_spec *spec)
{
  struct cs_section_spec s = spec->point.section;
  if (s.kind == CS_SECTION_HYPERPLANE && (!s.variable || !*s.variable))
    s = m->section;
  return s;
}

/* The two coordinates of the section plane the overlap grid uses. */
static void plane(const struct cs_model *m, const struct cs_basins_spec *spec, int *u, int *v)
{
  struct cs_section_spec s = effective_section(m, spec);
  int skip = section_state(m, &s);
  if (spec->mode == CS_BASINS_GRID && spec->ix != skip && spec->iy != skip) {
    *u = spec->ix, *v = spec->iy;
    return;
  }
  int got = 0;
  *u = 0, *v = m->n_state > 1 ? 1 : 0;
  for (int i = 0; i < (int)m->n_state && got < 2; i++)
    if (i != skip) {
      if (got == 0)
        *u = i;
      else
        *v = i;
      got++;
    }
}

struct box {
  double u0, u1, v0, v1;
};

static void bbox(const struct cs_basins_attractor *a, int u, int v, size_t n, struct box *b)
{
  for (size_t r = 0; r < a->n_points; r++) {
    const double *p = a->points + r * n;
    b->u0 = fmin(b->u0, p[u]), b->u1 = fmax(b->u1, p[u]);
    b->v0 = fmin(b->v0, p[v]), b->v1 = fmax(b->v1, p[v]);
  }
}

static int grid_cell(const struct box *b, double pu, double pv)
{
  double wu = b->u1 - b->u0, wv = b->v1 - b->v0;
  if (pu < b->u0 || pu > b->u1 || pv < b->v0 || pv > b->v1)
    return -1;
  int i = wu > 0 ? (int)((pu - b->u0) / wu * OVERLAP_GRID) : 0;
  int j = wv > 0 ? (int)((pv - b->v0) / wv * OVERLAP_GRID) : 0;
  i = i >= OVERLAP_GRID ? OVERLAP_GRID - 1 : i;
  j = j >= OVERLAP_GRID ? OVERLAP_GRID - 1 : j;
  return i + OVERLAP_GRID * j;
}

static void occupy(const struct cs_basins_attractor *a, const struct box *b, int u, int v, size_t n,
                   unsigned char *occ)
{
  memset(occ, 0, OVERLAP_GRID * OVERLAP_GRID);
  for (size_t r = 0; r < a->n_points; r++) {
    int c = grid_cell(b, a->points[r * n + u], a->points[r * n + v]);
    if (c >= 0)
      occ[c] = 1;
  }
}

/* A box padded by the radius, so that a single point or a flat set has
 * cells of a finite size. */
static void pad(struct box *b, const struct cs_basins_spec *spec, int u, int v)
{
  double pu = spec->radius * spec->scale[u], pv = spec->radius * spec->scale[v];
  b->u0 -= pu, b->u1 += pu, b->v0 -= pv, b->v1 += pv;
}

int cs_basins_same(const struct cs_model *m, const struct cs_basins_spec *spec,
                   const struct cs_basins_attractor *a, const struct cs_basins_attractor *b)
{
  if (a->cls != b->cls)
    return 0;
  size_t n = m->n_state;
  switch (a->cls) {
  case CS_CLASS_EQUILIBRIUM:
    return a->n_points && b->n_points && dist(m, spec, a->points, b->points) <= spec->radius;
  case CS_CLASS_PERIODIC:
    if (a->period != b->period || !(fabs(a->period_time - b->period_time) <=
                                    1e-3 * fmax(fabs(a->period_time), fabs(b->period_time))))
      return 0;
    for (size_t i = 0; i < a->n_points; i++) {
      int hit = 0;
      for (size_t j = 0; j < b->n_points && !hit; j++)
        hit = dist(m, spec, a->points + i * n, b->points + j * n) <= spec->radius;
      if (!hit)
        return 0;
    }
    return a->n_points > 0;
  case CS_CLASS_QUASIPERIODIC:
  case CS_CLASS_CHAOTIC:
  case CS_CLASS_APERIODIC: {
    if (!a->n_points || !b->n_points)
      return a->n_points == b->n_points;
    if (isfinite(a->lyapunov) && isfinite(b->lyapunov)) {
      double e = 3.0 * fmax(fmax(a->lyapunov_err, b->lyapunov_err), 0.0) +
                 0.05 * fmax(fabs(a->lyapunov), fabs(b->lyapunov));
      if (!(fabs(a->lyapunov - b->lyapunov) <= e))
        return 0;
    }
    int u, v;
    plane(m, spec, &u, &v);
    struct box bx = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    bbox(a, u, v, n, &bx);
    bbox(b, u, v, n, &bx);
    pad(&bx, spec, u, v);
    unsigned char oa[OVERLAP_GRID * OVERLAP_GRID], ob[OVERLAP_GRID * OVERLAP_GRID];
    occupy(a, &bx, u, v, n, oa);
    occupy(b, &bx, u, v, n, ob);
    size_t na = 0, nb = 0, both = 0;
    for (int c = 0; c < OVERLAP_GRID * OVERLAP_GRID; c++)
      na += oa[c], nb += ob[c], both += oa[c] && ob[c];
    size_t small = na < nb ? na : nb;
    return small > 0 && 2 * both >= small;
  }
  default:
    return 1; /* no-crossings, escaped: by class */
  }
}

/* ------------------------------------------------------------ one cell */

struct worker {
  void *params;
  int attached;
  struct cs_flow *flow;
  struct cs_point_ws *ws;
  double scratch[64];
};

struct events {
  const struct cs_model *m;
  const void *p;
  int state_idx, derived_idx;
  double level;
  double *scratch;
};

static int events_fn(double t, const double *y, double *g, const void *vp)
{
  const struct events *e = vp;
  if (e->state_idx >= 0) {
    g[0] = y[e->state_idx] - e->level;
    return 0;
  }
  int rc = e->m->derived_fn(t, y, e->scratch, e->p);
  if (rc)
    return rc;
  g[0] = e->scratch[e->derived_idx] - e->level;
  return 0;
}

struct unit_ctx {
  const struct cs_model *m;
  const struct cs_basins_spec *spec;
  const double *y0;
  const volatile int *stop;
};

/* Reduces the angles of a state into (-pi, pi]. */
static void reduce(const struct cs_model *m, double *y)
{
  for (size_t i = 0; i < m->n_state; i++)
    if (m->state[i].angle)
      y[i] = wrap(y[i]);
}

/* The attractor a point analysis found, as the catalogue keeps it. */
static enum cs_status describe(const struct cs_model *m, const struct cs_point_result *res,
                               struct cs_basins_attractor *a)
{
  size_t n = m->n_state;
  memset(a, 0, sizeof *a);
  a->cls = res->cls;
  a->period = res->period;
  a->period_time = res->period_time;
  a->lyapunov = res->lyapunov;
  a->lyapunov_err = res->lyapunov_err;
  size_t rows = 0, from = 0;
  if (res->cls == CS_CLASS_EQUILIBRIUM && res->equilibrium)
    rows = 1;
  else if (res->cls == CS_CLASS_PERIODIC)
    rows = res->n_section >= (size_t)res->period ? (size_t)res->period : res->n_section;
  else if (res->cls == CS_CLASS_QUASIPERIODIC || res->cls == CS_CLASS_CHAOTIC ||
           res->cls == CS_CLASS_APERIODIC)
    rows = res->n_section < CS_BASINS_MAX_POINTS ? res->n_section : CS_BASINS_MAX_POINTS;
  if (res->cls != CS_CLASS_EQUILIBRIUM)
    from = res->n_section - rows;
  if (!rows)
    return CS_OK;
  a->points = malloc(rows * n * sizeof *a->points);
  if (!a->points)
    return CS_ERR_NOMEM;
  a->n_points = rows;
  for (size_t r = 0; r < rows; r++) {
    const double *src = res->cls == CS_CLASS_EQUILIBRIUM
                            ? res->equilibrium
                            : res->section + (from + r) * res->section_cols + 1;
    memcpy(a->points + r * n, src, n * sizeof *src);
    reduce(m, a->points + r * n);
  }
  return CS_OK;
}

/* Is the section point p near attractor a (periodic: a point of its cycle;
 * irregular: an occupied cell of its own grid)? */
static int near_section(const struct cs_model *m, const struct cs_basins_spec *spec,
                        const struct cs_basins_attractor *a, const double *p)
{
  size_t n = m->n_state;
  if (a->cls == CS_CLASS_PERIODIC) {
    for (size_t j = 0; j < a->n_points; j++)
      if (dist(m, spec, p, a->points + j * n) <= spec->radius)
        return 1;
    return 0;
  }
  int u, v;
  plane(m, spec, &u, &v);
  struct box bx = {INFINITY, -INFINITY, INFINITY, -INFINITY};
  bbox(a, u, v, n, &bx);
  pad(&bx, spec, u, v);
  double q[16];
  memcpy(q, p, n * sizeof *p);
  reduce(m, q);
  int c = grid_cell(&bx, q[u], q[v]);
  if (c < 0)
    return 0;
  for (size_t r = 0; r < a->n_points; r++)
    if (grid_cell(&bx, a->points[r * n + u], a->points[r * n + v]) == c)
      return 1;
  return 0;
}

/* How many checks in a row make a recognition. */
static int needed(const struct cs_basins_attractor *a)
{
  switch (a->cls) {
  case CS_CLASS_EQUILIBRIUM:
    return EQ_CHECKS;
  case CS_CLASS_PERIODIC:
    return a->period + 2;
  case CS_CLASS_QUASIPERIODIC:
  case CS_CLASS_CHAOTIC:
  case CS_CLASS_APERIODIC:
    return CHAOS_CROSSINGS;
  default:
    return 0; /* never recognised early */
  }
}

/* The early phase of one cell: returns the catalogue index recognised, or -1
 * with the state at t_end in y (-2: the integration failed). */
static int early_phase(const struct unit_ctx *c, struct worker *w,
                       const struct cs_basins_attractor *cat, size_t ncat, double t_end, double *y,
                       double *settle, long *rhs)
{
  const struct cs_model *m = c->m;
  const struct cs_basins_spec *spec = c->spec;
  struct cs_section_spec s = effective_section(m, spec);
  double T = m->forcing_period ? m->forcing_period(w->params) : 0;
  struct events ev = {m, w->params, -1, -1, s.level, w->scratch};
  int dir = s.direction;
  size_t nroots = 0;
  if (s.kind == CS_SECTION_HYPERPLANE && s.variable) {
    ev.state_idx = cs_model_state_index(m, s.variable);
    if (ev.state_idx < 0 && m->derived_fn)
      ev.derived_idx = cs_model_derived_index(m, s.variable);
    nroots = ev.state_idx >= 0 || ev.derived_idx >= 0;
  }
  enum cs_status st = cs_flow_reset(w->flow, m, w->params, &spec->point.solver, 0.0, y, nroots,
                                    nroots ? events_fn : NULL, nroots ? &dir : NULL, &ev);
  if (st != CS_OK)
    return -2;
  int count[256] = {0};
  double since[256];
  size_t nc = ncat < 256 ? ncat : 256;
  double check = spec->check > 0 ? spec->check : t_end / 200.0;
  double t = 0, next_check = check;
  double next_strobe = s.kind == CS_SECTION_STROBOSCOPIC && T > 0 ? T : INFINITY;
  int found = -1;
  while (t < t_end && found < 0 && !*c->stop) {
    double tout = fmin(fmin(next_check, next_strobe), t_end);
    int at_root = 0;
    st = cs_flow_advance(w->flow, tout, &t, y, &at_root, NULL);
    if (st != CS_OK)
      return -2;
    int is_section = at_root || (t == next_strobe);
    int is_check = !at_root && t == next_check;
    if (t == next_strobe)
      next_strobe += T;
    if (is_check)
      next_check += check;
    if (!is_section && !is_check)
      continue;
    for (size_t k = 0; k < nc; k++) {
      int eq = cat[k].cls == CS_CLASS_EQUILIBRIUM;
      int need = needed(&cat[k]);
      if (!need || (eq ? !is_check : !is_section))
        continue;
      int near = eq ? cat[k].n_points && dist(m, spec, y, cat[k].points) <= spec->radius
                    : near_section(m, spec, &cat[k], y);
      if (!near) {
        count[k] = 0;
        continue;
      }
      if (count[k]++ == 0)
        since[k] = t;
      if (count[k] >= need) {
        found = (int)k;
        *settle = since[k];
        break;
      }
    }
  }
  struct cs_flow_stats fs;
  cs_flow_stats(w->flow, &fs);
  *rhs = fs.integ.rhs_evals;
  return found;
}

static enum cs_status run_unit(const struct unit_ctx *c, struct worker *w, size_t index,
                               struct cs_basins_unit *u)
{
  const struct cs_model *m = c->m;
  const struct cs_basins_spec *spec = c->spec;
  size_t ncells = cs_basins_ncells(spec);
  memset(u, 0, sizeof *u);
  u->index = index;
  u->first = index * spec->chunk;
  u->n = u->first + spec->chunk <= ncells ? spec->chunk : ncells - u->first;
  u->local = malloc(u->n * sizeof *u->local);
  u->settle = malloc(u->n * sizeof *u->settle);
  u->rhs_evals = malloc(u->n * sizeof *u->rhs_evals);
  u->early = malloc(u->n * sizeof *u->early);
  if (!u->local || !u->settle || !u->rhs_evals || !u->early)
    return CS_ERR_NOMEM;
  double T = m->forcing_period ? m->forcing_period(w->params) : 0;
  double t_end = spec->point.transient;
  if (T > 0)
    t_end = ceil(t_end / T - 1e-9) * T;
  for (size_t i = 0; i < u->n; i++) {
    if (*c->stop)
      return CS_ERR_INTERRUPTED;
    double y[CS_FLOW_MAX_N];
    initial_state(m, spec, c->y0, u->first + i, y);
    double settle = NAN;
    long rhs = 0;
    int k = -1;
    /* the analysis goes on from where the early phase got, or (no early
     * phase, or a failed one) runs in full from the initial state */
    struct cs_point_spec ps = spec->point;
    ps.cancel = c->stop;
    double t_done = 0;
    if (spec->early && t_end > 0) {
      k = early_phase(c, w, u->attr, u->n_attr, t_end, y, &settle, &rhs);
      if (k == -2)
        initial_state(m, spec, c->y0, u->first + i, y);
      else
        ps.transient = 0, t_done = t_end;
    }
    if (*c->stop)
      return CS_ERR_INTERRUPTED;
    u->early[i] = k >= 0;
    if (k < 0) {
      struct cs_point_result res;
      enum cs_status st = cs_point_analyse(m, w->params, y, &ps, w->ws, &res);
      if (st != CS_OK)
        return st;
      if (res.status == CS_ERR_INTERRUPTED || *c->stop)
        return CS_ERR_INTERRUPTED;
      rhs += res.rhs_evals;
      settle = t_done + res.transient_used;
      k = -1;
      if (res.cls != CS_CLASS_FAILED && res.cls != CS_CLASS_PENDING) {
        struct cs_basins_attractor a;
        if (describe(m, &res, &a) != CS_OK)
          return CS_ERR_NOMEM;
        for (size_t j = 0; j < u->n_attr && k < 0; j++)
          if (cs_basins_same(m, spec, &a, &u->attr[j]))
            k = (int)j;
        if (k >= 0) {
          free(a.points);
        } else {
          struct cs_basins_attractor *g = realloc(u->attr, (u->n_attr + 1) * sizeof *g);
          if (!g) {
            free(a.points);
            return CS_ERR_NOMEM;
          }
          u->attr = g;
          u->attr[u->n_attr] = a;
          k = (int)u->n_attr++;
        }
      }
    }
    u->local[i] = k;
    u->settle[i] = settle;
    u->rhs_evals[i] = rhs;
    if (k >= 0)
      u->attr[k].cells++;
  }
  return CS_OK;
}

void cs_basins_unit_free(struct cs_basins_unit *u, int free_struct)
{
  if (!u)
    return;
  for (size_t i = 0; i < u->n_attr; i++)
    free(u->attr[i].points);
  free(u->attr), free(u->local), free(u->settle), free(u->rhs_evals), free(u->early);
  if (free_struct)
    free(u);
  else
    memset(u, 0, sizeof *u);
}

static int worker_init(struct worker *w, const struct cs_model *m, const void *params,
                       const struct cs_basins_spec *spec)
{
  memset(w, 0, sizeof *w);
  w->params = malloc(m->params_size);
  w->flow = cs_flow_create(m->n_state, 0);
  w->ws = cs_point_ws_create(m->n_state, spec->point.max_points);
  if (!w->params || !w->flow || !w->ws)
    return -1;
  memcpy(w->params, params, m->params_size);
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
  cs_flow_free(w->flow);
  cs_point_ws_free(w->ws);
}

enum cs_status cs_basins_unit_run(const struct cs_model *m, const void *params, const double *y0,
                                  const struct cs_basins_spec *spec, size_t index,
                                  const volatile int *stop, struct cs_basins_unit *u)
{
  /* a fresh workspace per unit: the integrators' workspaces keep traces
   * of earlier runs (measured: a unit's first cell took a different
   * number of evaluations after another unit on the same thread), and
   * what a unit computes may depend on nothing but the unit */
  struct unit_ctx c = {m, spec, y0, stop};
  struct worker w;
  memset(u, 0, sizeof *u);
  enum cs_status st =
      worker_init(&w, m, params, spec) == 0 ? run_unit(&c, &w, index, u) : CS_ERR_NOMEM;
  worker_free(&w, m);
  return st;
}

enum cs_status cs_basins_spec_check(const struct cs_model *m, const struct cs_basins_spec *spec)
{
  if (m->n_state > 16 || m->n_state > CS_FLOW_MAX_N)
    return cs_error_set(CS_ERR_RANGE, "basins: model %s has too many states", m->name);
  if (spec->mode == CS_BASINS_LIST && (!spec->list || spec->list_n != m->n_state))
    return cs_error_set(CS_ERR_ARG, "basins: a list of initial states of %zu values each",
                        m->n_state);
  if (spec->chunk == 0 || cs_basins_ncells(spec) == 0 || !(spec->radius > 0))
    return cs_error_set(CS_ERR_ARG, "basins: chunk, cells and radius must be > 0");
  if (spec->mode == CS_BASINS_GRID &&
      (spec->ix < 0 || spec->iy < 0 || spec->ix >= (int)m->n_state || spec->iy >= (int)m->n_state ||
       spec->ix == spec->iy || spec->nx < 2 || spec->ny < 2))
    return cs_error_set(CS_ERR_ARG, "basins: a grid needs two distinct states and >= 2 cells "
                                    "along each");
  for (size_t i = 0; i < m->n_state; i++)
    if (!(spec->scale[i] > 0))
      return cs_error_set(CS_ERR_ARG, "basins: state scales not set (cs_basins_spec_scales)");
  return CS_OK;
}

enum cs_status cs_basins_run(const struct cs_model *m, const void *params, const double *y0,
                             const struct cs_basins_spec *spec, cs_basins_sink_fn sink,
                             void *sink_ctx, const struct cs_basins_ctl *ctl, int *stopped)
{
  enum cs_status st = cs_basins_spec_check(m, spec);
  if (stopped)
    *stopped = 0;
  if (st != CS_OK)
    return st;
  size_t ncells = cs_basins_ncells(spec);
  size_t nunits = (ncells + spec->chunk - 1) / spec->chunk;
  volatile int stop = 0;
  enum cs_status first_err = CS_OK;
  int nthreads = spec->threads > 0 ? spec->threads : omp_get_max_threads();
  const volatile sig_atomic_t *cancel = ctl ? ctl->cancel : NULL;
  /* a lock of this call's own (a named critical section would be a global
   * symbol of the library, shared with every other call) */
  omp_lock_t sink_lock;
  omp_init_lock(&sink_lock);
#pragma omp parallel num_threads(nthreads)
  {
#pragma omp for schedule(dynamic, 1)
    for (size_t k = 0; k < nunits; k++) {
      if (stop || (cancel && *cancel) || (ctl && ctl->done && ctl->done[k])) {
        if (cancel && *cancel)
          stop = 1;
        continue;
      }
      struct cs_basins_unit u;
      enum cs_status ust = cs_basins_unit_run(m, params, y0, spec, k, &stop, &u);
      if (cancel && *cancel)
        stop = 1;
      omp_set_lock(&sink_lock);
      if (ust == CS_OK && !stop) {
        if (sink && sink(sink_ctx, &u))
          stop = 1;
      } else if (ust != CS_OK && ust != CS_ERR_INTERRUPTED && first_err == CS_OK) {
        first_err = ust;
        stop = 1;
      }
      omp_unset_lock(&sink_lock);
      cs_basins_unit_free(&u, 0);
    }
  }
  omp_destroy_lock(&sink_lock);
  if (stopped)
    *stopped = stop != 0;
  if (first_err != CS_OK)
    return cs_error_set(first_err, "basins: %s", cs_strerror(first_err));
  return CS_OK;
}

/* ------------------------------------------------------------ merging */

static int lexi(const double *a, const double *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* The canonical representative row of an attractor: its lexicographically
 * smallest point (a cycle's points in any phase give the same one). */
static const double *rep(const struct cs_basins_attractor *a, size_t n)
{
  const double *best = NULL;
  for (size_t r = 0; r < a->n_points; r++)
    if (!best || lexi(a->points + r * n, best, n) < 0)
      best = a->points + r * n;
  return best;
}

/* An attractor to sort with the state dimension beside it (no global that
 * concurrent calls would share). */
struct sort_item {
  struct cs_basins_attractor *a;
  size_t n;
};

static int cmp_attr(const void *pa, const void *pb)
{
  size_t sort_n = ((const struct sort_item *)pa)->n;
  const struct cs_basins_attractor *a = ((const struct sort_item *)pa)->a;
  const struct cs_basins_attractor *b = ((const struct sort_item *)pb)->a;
  if (a->cls != b->cls)
    return a->cls < b->cls ? -1 : 1;
  if (a->period != b->period)
    return a->period < b->period ? -1 : 1;
  const double *ra = rep(a, sort_n), *rb = rep(b, sort_n);
  if (ra && rb) {
    int c = lexi(ra, rb, sort_n);
    if (c)
      return c;
  }
  if (a->n_points != b->n_points)
    return a->n_points < b->n_points ? -1 : 1;
  return 0;
}

void cs_basins_result_free(struct cs_basins_result *r)
{
  if (!r)
    return;
  for (size_t i = 0; i < r->n_attr; i++)
    free(r->attr[i].points);
  free(r->attr), free(r->attractor), free(r->settle), free(r->rhs_evals), free(r->early);
  memset(r, 0, sizeof *r);
}

static enum cs_status copy_attr(const struct cs_basins_attractor *a, size_t n,
                                struct cs_basins_attractor *out)
{
  *out = *a;
  out->cells = 0;
  out->points = NULL;
  if (a->n_points) {
    out->points = malloc(a->n_points * n * sizeof *out->points);
    if (!out->points)
      return CS_ERR_NOMEM;
    memcpy(out->points, a->points, a->n_points * n * sizeof *out->points);
  }
  return CS_OK;
}

static int cmp_unit(const void *pa, const void *pb)
{
  const struct cs_basins_unit *a = *(const struct cs_basins_unit *const *)pa;
  const struct cs_basins_unit *b = *(const struct cs_basins_unit *const *)pb;
  return a->index < b->index ? -1 : a->index > b->index;
}

enum cs_status cs_basins_merge(const struct cs_model *m, const struct cs_basins_spec *spec,
                               const struct cs_basins_unit *const *units_in, size_t n_units,
                               struct cs_basins_result *res)
{
  memset(res, 0, sizeof *res);
  size_t n = m->n_state, ncells = cs_basins_ncells(spec);
  res->n_cells = ncells;
  res->n_units = (ncells + spec->chunk - 1) / spec->chunk;
  res->attractor = malloc(ncells * sizeof *res->attractor);
  res->settle = malloc(ncells * sizeof *res->settle);
  res->rhs_evals = malloc(ncells * sizeof *res->rhs_evals);
  res->early = malloc(ncells * sizeof *res->early);
  const struct cs_basins_unit **units = malloc((n_units + 1) * sizeof *units);
  if (!res->attractor || !res->settle || !res->rhs_evals || !res->early || !units) {
    free(units);
    cs_basins_result_free(res);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  memcpy(units, units_in, n_units * sizeof *units);
  qsort(units, n_units, sizeof *units, cmp_unit);
  for (size_t i = 0; i < ncells; i++) {
    res->attractor[i] = -2;
    res->settle[i] = NAN;
    res->rhs_evals[i] = 0;
    res->early[i] = -1;
  }
  /* global catalogue, in unit order */
  int32_t **map = calloc(n_units + 1, sizeof *map);
  enum cs_status st = map ? CS_OK : CS_ERR_NOMEM;
  for (size_t k = 0; k < n_units && st == CS_OK; k++) {
    const struct cs_basins_unit *u = units[k];
    map[k] = malloc((u->n_attr + 1) * sizeof **map);
    if (!map[k]) {
      st = CS_ERR_NOMEM;
      break;
    }
    for (size_t a = 0; a < u->n_attr && st == CS_OK; a++) {
      size_t g = 0;
      while (g < res->n_attr && !cs_basins_same(m, spec, &u->attr[a], &res->attr[g]))
        g++;
      if (g == res->n_attr) {
        struct cs_basins_attractor *na = realloc(res->attr, (g + 1) * sizeof *na);
        if (!na) {
          st = CS_ERR_NOMEM;
          break;
        }
        res->attr = na;
        st = copy_attr(&u->attr[a], n, &res->attr[g]);
        if (st == CS_OK)
          res->n_attr++;
      }
      map[k][a] = (int32_t)g;
    }
  }
  /* canonical order */
  struct sort_item *order = NULL;
  int32_t *rank = NULL;
  if (st == CS_OK) {
    order = malloc((res->n_attr + 1) * sizeof *order);
    rank = malloc((res->n_attr + 1) * sizeof *rank);
    st = order && rank ? CS_OK : CS_ERR_NOMEM;
  }
  if (st == CS_OK) {
    for (size_t g = 0; g < res->n_attr; g++)
      order[g] = (struct sort_item){&res->attr[g], n};
    qsort(order, res->n_attr, sizeof *order, cmp_attr);
    struct cs_basins_attractor *sorted = malloc((res->n_attr + 1) * sizeof *sorted);
    if (!sorted) {
      st = CS_ERR_NOMEM;
    } else {
      for (size_t g = 0; g < res->n_attr; g++) {
        sorted[g] = *order[g].a;
        rank[order[g].a - res->attr] = (int32_t)g;
      }
      free(res->attr);
      res->attr = sorted;
    }
  }
  if (st == CS_OK) {
    for (size_t k = 0; k < n_units; k++) {
      const struct cs_basins_unit *u = units[k];
      for (size_t i = 0; i < u->n && u->first + i < ncells; i++) {
        size_t c = u->first + i;
        int32_t l = u->local[i];
        res->attractor[c] = l >= 0 && (size_t)l < u->n_attr ? rank[map[k][l]] : -1;
        res->settle[c] = u->settle[i];
        res->rhs_evals[c] = u->rhs_evals[i];
        res->early[c] = u->early[i];
      }
    }
    for (size_t c = 0; c < ncells; c++) {
      if (res->attractor[c] >= 0)
        res->attr[res->attractor[c]].cells++;
      else if (res->attractor[c] == -1)
        res->failed++;
      else
        res->pending++;
      res->rhs_total += (long)res->rhs_evals[c];
    }
    res->sensitivity = NAN;
    if (spec->mode == CS_BASINS_GRID) {
      size_t changed = 0, judged = 0;
      for (size_t j = 0; j < spec->ny; j++)
        for (size_t i = 0; i < spec->nx; i++) {
          int32_t a = res->attractor[i + spec->nx * j];
          if (a == -2)
            continue;
          int diff = 0, any = 0;
          if (i + 1 < spec->nx && res->attractor[i + 1 + spec->nx * j] != -2)
            any = 1, diff |= res->attractor[i + 1 + spec->nx * j] != a;
          if (j + 1 < spec->ny && res->attractor[i + spec->nx * (j + 1)] != -2)
            any = 1, diff |= res->attractor[i + spec->nx * (j + 1)] != a;
          judged += any;
          changed += any && diff;
        }
      res->sensitivity = judged ? (double)changed / (double)judged : NAN;
    }
  }
  for (size_t k = 0; map && k < n_units; k++)
    free(map[k]);
  free(map), free(order), free(rank), free(units);
  if (st != CS_OK) {
    cs_basins_result_free(res);
    return CS_FAIL(st);
  }
  return CS_OK;
}

/* ------------------------------------------------------------ in memory */

struct collect {
  struct cs_basins_unit **u;
  size_t n;
  enum cs_status st;
};

enum cs_status cs_basins_unit_clone(const struct cs_basins_unit *u, size_t n,
                                    struct cs_basins_unit **out)
{
  struct cs_basins_unit *c = calloc(1, sizeof *c);
  if (!c)
    return CS_ERR_NOMEM;
  *c = *u;
  c->local = malloc(u->n * sizeof *c->local);
  c->settle = malloc(u->n * sizeof *c->settle);
  c->rhs_evals = malloc(u->n * sizeof *c->rhs_evals);
  c->early = malloc(u->n * sizeof *c->early);
  c->attr = calloc(u->n_attr + 1, sizeof *c->attr);
  c->n_attr = 0;
  if (!c->local || !c->settle || !c->rhs_evals || !c->early || !c->attr) {
    cs_basins_unit_free(c, 1);
    return CS_ERR_NOMEM;
  }
  memcpy(c->local, u->local, u->n * sizeof *c->local);
  memcpy(c->settle, u->settle, u->n * sizeof *c->settle);
  memcpy(c->rhs_evals, u->rhs_evals, u->n * sizeof *c->rhs_evals);
  memcpy(c->early, u->early, u->n * sizeof *c->early);
  for (size_t a = 0; a < u->n_attr; a++) {
    if (copy_attr(&u->attr[a], n, &c->attr[a]) != CS_OK) {
      cs_basins_unit_free(c, 1);
      return CS_ERR_NOMEM;
    }
    c->attr[a].cells = u->attr[a].cells;
    c->n_attr++;
  }
  *out = c;
  return CS_OK;
}

struct collect_ctx {
  struct collect col;
  size_t n_state;
};

static int collect_sink(void *vp, const struct cs_basins_unit *u)
{
  struct collect_ctx *c = vp;
  struct cs_basins_unit **g = realloc(c->col.u, (c->col.n + 1) * sizeof *g);
  if (!g) {
    c->col.st = CS_ERR_NOMEM;
    return 1;
  }
  c->col.u = g;
  if (cs_basins_unit_clone(u, c->n_state, &c->col.u[c->col.n]) != CS_OK) {
    c->col.st = CS_ERR_NOMEM;
    return 1;
  }
  c->col.n++;
  return 0;
}

enum cs_status cs_basins_compute(const struct cs_model *m, const void *params, const double *y0,
                                 const struct cs_basins_spec *spec, struct cs_basins_result *res)
{
  memset(res, 0, sizeof *res);
  struct collect_ctx c = {{NULL, 0, CS_OK}, m->n_state};
  double t0 = omp_get_wtime();
  int stopped = 0;
  enum cs_status st = cs_basins_run(m, params, y0, spec, collect_sink, &c, NULL, &stopped);
  if (st == CS_OK && c.col.st != CS_OK)
    st = CS_FAIL(c.col.st);
  if (st == CS_OK)
    st = cs_basins_merge(m, spec, (const struct cs_basins_unit *const *)c.col.u, c.col.n, res);
  for (size_t i = 0; i < c.col.n; i++)
    cs_basins_unit_free(c.col.u[i], 1);
  free(c.col.u);
  if (st == CS_OK)
    res->wall_time = omp_get_wtime() - t0;
  return st;
}

/* ------------------------------------------- basins along a parameter */

/* The distance between two attractors of the same class and period, in
 * units of the state scales (see cs_basins_along_run, analysis/basins_along.c). */
double cs_basins_attr_distance(const struct cs_model *m, const struct cs_basins_spec *spec,
                               const struct cs_basins_attractor *a,
                               const struct cs_basins_attractor *b)
{
  size_t n = m->n_state;
  if (!a->n_points || !b->n_points)
    return a->n_points == b->n_points ? 0 : INFINITY;
  if (a->cls == CS_CLASS_EQUILIBRIUM || a->cls == CS_CLASS_PERIODIC) {
    double best = INFINITY;
    for (size_t i = 0; i < a->n_points; i++)
      for (size_t j = 0; j < b->n_points; j++)
        best = fmin(best, dist(m, spec, a->points + i * n, b->points + j * n));
    return best;
  }
  double ma[16] = {0}, mb[16] = {0};
  for (size_t i = 0; i < a->n_points; i++)
    for (size_t k = 0; k < n; k++)
      ma[k] += a->points[i * n + k] / (double)a->n_points;
  for (size_t i = 0; i < b->n_points; i++)
    for (size_t k = 0; k < n; k++)
      mb[k] += b->points[i * n + k] / (double)b->n_points;
  return dist(m, spec, ma, mb);
}
