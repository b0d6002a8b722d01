/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "integrate/flow.h"
#include "integrate/integrate_private.h"
#include "integrate/flow_private.h"

struct cs_flow {
  struct cs_integrator *integ;
  size_t n_max;
  const struct cs_model *m;
  void *params;
  size_t n_user; /* user event functions */
  size_t n_sw;   /* active switching functions of this run */
  cs_root_fn user_g;
  const void *user_ctx;
  int dir[CS_FLOW_MAX_ROOTS];
  int found[CS_FLOW_MAX_ROOTS];
  long switches;
  double restarted; /* time of the last restart after ARKODE refused a root */
  size_t max_log, n_log;
  struct cs_flow_switch *log;
  char msg[512];
};

struct cs_flow *cs_flow_create(size_t n_max, size_t max_log)
{
  if (n_max == 0 || n_max > CS_FLOW_MAX_N)
    return NULL;
  struct cs_flow *f = calloc(1, sizeof *f);
  if (!f)
    return NULL;
  f->integ = cs_integrator_create(n_max);
  f->log = max_log ? calloc(max_log, sizeof *f->log) : NULL;
  if (!f->integ || (max_log && !f->log)) {
    cs_flow_free(f);
    return NULL;
  }
  f->n_max = n_max;
  f->max_log = max_log;
  return f;
}

void cs_flow_free(struct cs_flow *f)
{
  if (!f)
    return;
  cs_integrator_free(f->integ);
  free(f->log);
  free(f);
}

/* User event functions first, then the model's switching functions. */
static int combined_roots(double t, const double *y, double *g, const void *ctx)
{
  const struct cs_flow *f = ctx;
  int rc = 0;
  if (f->n_user) {
    rc = f->user_g(t, y, g, f->user_ctx ? f->user_ctx : f->params);
    if (rc)
      return rc;
  }
  if (f->n_sw)
    rc = f->m->switch_fn(t, y, g + f->n_user, f->params);
  return rc;
}

enum cs_status cs_flow_reset(struct cs_flow *f, const struct cs_model *m, void *params,
                             const struct cs_integrator_opts *opts, double t0, const double *y0,
                             size_t n_roots, cs_root_fn g, const int *direction, const void *ctx)
{
  if (!f || !m || !params || !y0 || m->n_state > f->n_max || (n_roots && !g) ||
      n_roots + cs_model_switches(m, params) > CS_FLOW_MAX_ROOTS)
    return CS_FAIL(CS_ERR_ARG);
  f->m = m;
  f->params = params;
  f->n_user = n_roots;
  f->user_g = g;
  f->user_ctx = ctx;
  f->switches = 0;
  f->restarted = -INFINITY;
  f->n_log = 0;
  f->msg[0] = '\0';
  f->n_sw = cs_model_switches(m, params);
  size_t nr = n_roots + f->n_sw;
  for (size_t k = 0; k < nr; k++)
    f->dir[k] = k < n_roots && direction ? direction[k] : 0;
  double y[CS_FLOW_MAX_N];
  memcpy(y, y0, m->n_state * sizeof *y);
  if (f->n_sw && m->mode_init) {
    int rc = m->mode_init(t0, y, params);
    if (rc < 0)
      return (enum cs_status)(-rc);
  }
  enum cs_status st = cs_integrator_set_roots(f->integ, nr, nr ? combined_roots : NULL, f->dir, f);
  if (st != CS_OK)
    return st;
  struct cs_ode ode = {m->n_state, m->rhs, m->jac, params};
  return cs_integrator_reset(f->integ, &ode, opts, t0, y);
}

static void log_switch(struct cs_flow *f, double t, int kind, const double *y)
{
  f->switches++;
  if (f->n_log >= f->max_log)
    return;
  struct cs_flow_switch *s = &f->log[f->n_log++];
  s->t = t;
  s->kind = kind;
  s->mode = f->m->mode_of ? f->m->mode_of(f->params) : -1;
  memset(s->y, 0, sizeof s->y);
  memcpy(s->y, y, f->m->n_state * sizeof *y);
}

static enum cs_status flow_advance(struct cs_flow *f, double tout, bool interp, double *t,
                                   double *y, int *at_root, int *fired)
{
  double yy[CS_FLOW_MAX_N], tr = 0;
  double *yv = y ? y : yy;
  if (at_root)
    *at_root = 0;
  for (;;) {
    enum cs_stop_reason stop;
    enum cs_status st = interp ? cs_integrator_advance_interp(f->integ, tout, &tr, yv, &stop)
                               : cs_integrator_advance(f->integ, tout, &tr, yv, &stop);
    if (t)
      *t = tr;
    if (st == CS_ERR_ARG && tr > f->restarted) {
      /* ARKODE refuses to go on when an event function is exactly 0 at a
       * root and just after it ("root found at and very near t"): an orbit
       * that settled on a section plane, or a mode whose switching function
       * stays at 0. A restart from the last good state makes ARKODE treat
       * that function as inactive until it moves; once per time reached. */
      f->restarted = tr;
      if (cs_integrator_reinit_smooth(f->integ, tr, yv) == CS_OK)
        continue;
    }
    if (st != CS_OK)
      return st;
    if (stop == CS_STOP_TOUT)
      return CS_OK;
    cs_integrator_roots_found(f->integ, f->found);
    int user = 0, sw = 0;
    for (size_t k = 0; k < f->n_user; k++)
      user |= f->found[k] != 0;
    for (size_t k = 0; k < f->n_sw; k++)
      sw |= f->found[f->n_user + k] != 0;
    if (sw) {
      int kind = f->m->switch_apply(tr, yv, f->found + f->n_user, f->params);
      if (kind < 0) {
        cs_error_fill(f->msg, sizeof f->msg, "mode switch at t = %.17g failed: %s", tr,
                      cs_strerror((enum cs_status)(-kind)));
        return (enum cs_status)(-kind);
      }
      log_switch(f, tr, kind, yv);
      st = cs_integrator_reinit_state(f->integ, tr, yv);
      if (st != CS_OK)
        return st;
    }
    if (user) {
      if (at_root)
        *at_root = 1;
      if (fired)
        memcpy(fired, f->found, f->n_user * sizeof *fired);
      return CS_OK;
    }
  }
}

enum cs_status cs_flow_advance(struct cs_flow *f, double tout, double *t, double *y, int *at_root,
                               int *fired)
{
  return flow_advance(f, tout, false, t, y, at_root, fired);
}

enum cs_status cs_flow_advance_interp(struct cs_flow *f, double tout, double *t, double *y,
                                      int *at_root, int *fired)
{
  return flow_advance(f, tout, true, t, y, at_root, fired);
}

enum cs_status cs_flow_set_root_polish(struct cs_flow *f, size_t k, bool polish)
{
  if (!f || k >= f->n_user)
    return CS_FAIL(CS_ERR_ARG);
  return cs_integrator_set_root_polish(f->integ, k, polish);
}

enum cs_status cs_flow_set_state(struct cs_flow *f, double t, const double *y)
{
  double yy[CS_FLOW_MAX_N];
  memcpy(yy, y, f->m->n_state * sizeof *yy);
  if (f->n_sw && f->m->mode_init) {
    int rc = f->m->mode_init(t, yy, f->params);
    if (rc < 0)
      return (enum cs_status)(-rc);
  }
  return cs_integrator_reinit_state(f->integ, t, yy);
}

void cs_flow_stats(struct cs_flow *f, struct cs_flow_stats *s)
{
  cs_integrator_get_stats(f->integ, &s->integ);
  s->switches = f->switches;
}

size_t cs_flow_switch_count(const struct cs_flow *f)
{
  return f->n_log;
}

const struct cs_flow_switch *cs_flow_switch_get(const struct cs_flow *f, size_t i)
{
  return i < f->n_log ? &f->log[i] : NULL;
}

const char *cs_flow_last_error(const struct cs_flow *f)
{
  return f->msg[0] ? f->msg : cs_integrator_last_error(f->integ);
}
