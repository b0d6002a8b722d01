/* SPDX-License-Identifier: MIT */
/* Recording a trajectory on a time grid (integrate/record.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "integrate/record.h"
#include "integrate/record_private.h"
#include "integrate/flow_private.h"

#define BLOCK_ROWS 512 /* default rows per on_rows call */

enum cs_status cs_record_grid_make(double t_start, double t_end, double dt, size_t max_rows,
                                   struct cs_record_grid *g)
{
  memset(g, 0, sizeof *g);
  if (!(t_start >= 0) || !(t_end > t_start) || !isfinite(t_end) || !(dt >= 0))
    return CS_FAIL(CS_ERR_RANGE);
  g->t_start = t_start, g->t_end = t_end;
  g->dt = dt > 0 ? dt : (t_end - t_start) / 1000.0;
  double q = (t_end - t_start) / g->dt;
  if (!(q < (double)max_rows))
    return CS_ERR_RANGE;
  double k = floor(q + CS_RECORD_GRID_TOL);
  g->rows = (size_t)k + 1;
  if (t_start + k * g->dt < t_end - CS_RECORD_GRID_TOL * g->dt)
    g->rows++;
  return CS_OK;
}

enum cs_status cs_record_grid_check(double t_start, double t_end, double dt, size_t max_rows,
                                    struct cs_record_grid *g)
{
  memset(g, 0, sizeof *g);
  if (isnan(t_end))
    return cs_error_set(CS_ERR_RANGE, "t_end: missing in [output] (accepted: a number > t_start)");
  if (!(t_start >= 0))
    return cs_error_set(CS_ERR_RANGE,
                        "t_start: %g is before t = 0, where every run starts (accepted: 0 <= "
                        "t_start < t_end)",
                        t_start);
  if (!(t_end > t_start) || !isfinite(t_end))
    return cs_error_set(CS_ERR_RANGE,
                        "t_end: %g is not after t_start = %g (accepted: t_start < t_end)", t_end,
                        t_start);
  if (!(dt >= 0))
    return cs_error_set(CS_ERR_RANGE,
                        "dt: %g is negative (accepted: a number >= 0, 0: a thousandth of the "
                        "window)",
                        dt);
  if (cs_record_grid_make(t_start, t_end, dt, max_rows, g) != CS_OK)
    return cs_error_set(CS_ERR_RANGE,
                        "dt: %g gives more than %zu rows over [%g, %g] (accepted: a larger dt)", dt,
                        max_rows, t_start, t_end);
  return CS_OK;
}

enum cs_status cs_record_grid_times(const double *t, size_t n, struct cs_record_grid *g)
{
  memset(g, 0, sizeof *g);
  if (!t || n == 0)
    return CS_FAIL(CS_ERR_ARG);
  for (size_t i = 0; i < n; i++)
    if (!(t[i] >= 0) || !isfinite(t[i]) || (i && !(t[i] > t[i - 1])))
      return CS_ERR_ARG;
  g->t = t, g->rows = n;
  g->t_start = t[0], g->t_end = t[n - 1];
  g->dt = n > 1 ? t[1] - t[0] : t[0];
  return CS_OK;
}

double cs_record_grid_time(const struct cs_record_grid *g, size_t k)
{
  if (g->t)
    return g->t[k];
  return k + 1 == g->rows ? g->t_end : g->t_start + (double)k * g->dt;
}

/* Hands the switches logged since the last call to on_switch. */
static void pass_switches(const struct cs_record_spec *spec, struct cs_flow *flow,
                          struct cs_record_result *out)
{
  size_t n = cs_flow_switch_count(flow);
  for (; out->switches_logged < n; out->switches_logged++)
    if (spec->on_switch)
      spec->on_switch(spec->ctx, cs_flow_switch_get(flow, out->switches_logged));
}

/* Advances to tout (nothing to do when there); CS_OK or the failure, with
 * its message. */
static enum cs_status advance(const struct cs_record_spec *spec, struct cs_flow *flow, double tout,
                              struct cs_record_result *out)
{
  if (tout == out->t)
    return CS_OK;
  double reached = out->t;
  enum cs_status st = cs_flow_advance(flow, tout, &reached, out->y, NULL, NULL);
  out->t = reached;
  pass_switches(spec, flow, out);
  if (spec->progress)
    spec->progress(spec->ctx, reached);
  if (st != CS_OK) {
    out->stop = CS_RECORD_IN_RUN;
    snprintf(out->message, sizeof out->message, "%s: %s", cs_strerror(st),
             cs_flow_last_error(flow));
  }
  return st;
}

enum cs_status cs_record_run(const struct cs_model *m, void *params, const double *y0,
                             const struct cs_record_spec *spec, struct cs_record_result *out)
{
  memset(out, 0, sizeof *out);
  const struct cs_record_grid *g = spec ? &spec->grid : NULL;
  if (!m || !params || !y0 || !spec || !spec->solver || !spec->on_rows || g->rows == 0 ||
      (!g->t && !(g->dt > 0)) || m->n_state > CS_FLOW_MAX_N) {
    cs_error_fill(out->message, sizeof out->message,
                  "cs_record_run: missing argument, empty grid or more than %d states",
                  CS_FLOW_MAX_N);
    out->stop = CS_RECORD_AT_START;
    return out->status = CS_ERR_ARG;
  }
  const size_t ns = m->n_state, nd = m->derived_fn ? m->n_derived : 0, cols = 1 + ns + nd;
  const size_t block = spec->block_rows ? spec->block_rows : BLOCK_ROWS;
  struct cs_flow *flow = cs_flow_create(ns, spec->max_switches);
  double *buf = malloc(block * cols * sizeof *buf);
  enum cs_status st = CS_OK;
  memcpy(out->y, y0, ns * sizeof *out->y);
  if (!flow || !buf) {
    st = CS_ERR_NOMEM;
    out->stop = CS_RECORD_AT_START;
    snprintf(out->message, sizeof out->message, "%s", cs_strerror(st));
    goto done;
  }
  st = cs_flow_reset(flow, m, params, spec->solver, 0.0, y0, 0, NULL, NULL, NULL);
  if (st != CS_OK) {
    out->stop = CS_RECORD_AT_START;
    snprintf(out->message, sizeof out->message, "cannot start the integrator: %s: %s",
             cs_strerror(st), cs_flow_last_error(flow));
    goto done;
  }
  const double dt = g->dt, first = cs_record_grid_time(g, 0);
  /* the transient, in steps of dt */
  for (double j = 1; st == CS_OK && dt > 0 && j * dt < first - CS_RECORD_GRID_TOL * dt; j++)
    st = advance(spec, flow, j * dt, out);
  size_t nbuf = 0;
  for (size_t k = 0; k < g->rows && st == CS_OK; k++) {
    double tk = cs_record_grid_time(g, k);
    if ((st = advance(spec, flow, tk, out)) != CS_OK)
      break;
    double *row = buf + nbuf * cols;
    row[0] = tk;
    memcpy(row + 1, out->y, ns * sizeof *row);
    int drc = nd ? m->derived_fn(tk, out->y, row + 1 + ns, params) : 0;
    if (drc != 0) {
      st = drc < 0 && -drc < CS_STATUS_COUNT ? (enum cs_status)(-drc) : CS_ERR_SOLVER;
      out->stop = CS_RECORD_DERIVED;
      snprintf(out->message, sizeof out->message, "derived outputs at t = %.17g: %s", tk,
               cs_strerror(st));
      break;
    }
    if (++nbuf == block || k + 1 == g->rows) {
      int stop = spec->on_rows(spec->ctx, out->rows, nbuf, buf);
      out->rows += nbuf, nbuf = 0;
      if (stop) {
        st = CS_ERR_INTERRUPTED;
        out->stop = CS_RECORD_BY_CALLER;
        snprintf(out->message, sizeof out->message, "recording stopped by the caller");
      }
    }
  }
  if (nbuf > 0) { /* the rows before a failure */
    spec->on_rows(spec->ctx, out->rows, nbuf, buf);
    out->rows += nbuf;
  }
done:
  if (flow)
    cs_flow_stats(flow, &out->stats);
  cs_flow_free(flow);
  free(buf);
  if (st != CS_OK) /* the run's message (a result) is also the failure's reason */
    cs_error_set(st, "%s", out->message);
  return out->status = st;
}

/* ------------------------------------------------------ in memory */

struct keep {
  struct cs_trajectory *tr;
  size_t max_switches;
};

static int keep_rows(void *ctx, size_t first_row, size_t n, const double *rows)
{
  struct cs_trajectory *tr = ((struct keep *)ctx)->tr;
  memcpy(tr->data + first_row * tr->cols, rows, n * tr->cols * sizeof *rows);
  tr->rows = first_row + n;
  return 0;
}

static void keep_switch(void *ctx, const struct cs_flow_switch *s)
{
  struct keep *k = ctx;
  if (k->tr->switches && k->tr->n_switches < k->max_switches)
    k->tr->switches[k->tr->n_switches++] = *s;
}

/* the caller's progress, behind our ctx */
struct keep_progress {
  struct keep keep;
  const struct cs_record_spec *user;
};

static void keep_progress_fn(void *ctx, double t)
{
  const struct cs_record_spec *u = ((struct keep_progress *)ctx)->user;
  if (u->progress)
    u->progress(u->ctx, t);
}

enum cs_status cs_trajectory_record(const struct cs_model *m, void *params, const double *y0,
                                    const struct cs_record_spec *spec, struct cs_trajectory *tr)
{
  memset(tr, 0, sizeof *tr);
  if (!m || !spec || spec->grid.rows == 0) {
    cs_error_fill(tr->result.message, sizeof tr->result.message,
                  "cs_trajectory_record: missing argument or empty grid");
    tr->result.stop = CS_RECORD_AT_START;
    return tr->result.status = CS_ERR_ARG;
  }
  tr->n_rows = spec->grid.rows;
  tr->n_state = m->n_state;
  tr->n_derived = m->derived_fn ? m->n_derived : 0;
  tr->cols = 1 + tr->n_state + tr->n_derived;
  tr->data = tr->n_rows <= SIZE_MAX / sizeof(double) / tr->cols
                 ? malloc(tr->n_rows * tr->cols * sizeof *tr->data)
                 : NULL;
  if (spec->max_switches)
    tr->switches = malloc(spec->max_switches * sizeof *tr->switches);
  if (!tr->data || (spec->max_switches && !tr->switches)) {
    cs_error_fill(tr->result.message, sizeof tr->result.message, "%s", cs_strerror(CS_ERR_NOMEM));
    tr->result.stop = CS_RECORD_AT_START;
    return tr->result.status = CS_ERR_NOMEM;
  }
  for (size_t j = 0; j < tr->n_rows * tr->cols; j++)
    tr->data[j] = NAN;
  struct keep_progress kp = {.keep = {.tr = tr, .max_switches = spec->max_switches}, .user = spec};
  struct cs_record_spec s = *spec;
  s.on_rows = keep_rows, s.on_switch = keep_switch;
  s.progress = spec->progress ? keep_progress_fn : NULL;
  s.ctx = &kp;
  return cs_record_run(m, params, y0, &s, &tr->result);
}

void cs_trajectory_free(struct cs_trajectory *tr)
{
  if (!tr)
    return;
  free(tr->data);
  free(tr->switches);
  tr->data = NULL, tr->switches = NULL;
  tr->rows = tr->n_switches = 0;
}
