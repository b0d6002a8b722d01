/* SPDX-License-Identifier: MIT */
/* Saltation matrices by difference quotients of the model's switching
 * functions and resets (see saltation.h for the formula and why the steps
 * shrink). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error_private.h"
#include "analysis/saltation.h"

#define N_MAX CS_SALTATION_MAX_N
#define MAX_ROOTS 32  /* switching functions of a model, at most */
#define FD_FIRST 1e-3 /* first difference step, relative to the scales */
#define FD_SHRINK 4.0 /* step ratio between levels */
#define FD_LEVELS 12  /* levels at most: the last step is FD_FIRST 4^-11 ~ 2.4e-10 of the scale */
#define FD_AGREE 1e-7 /* successive estimates within this (relative): done */

/* A function of the step eps along some direction, m values. */
struct fd_fn {
  int (*f)(void *ctx, double eps, double *out);
  void *ctx;
  size_t m;
};

/* Central differences at h0, h0/4, ...: the first estimate that agrees with
 * the previous one within FD_AGREE, else the one that changed least. */
static int fd_deriv(const struct fd_fn *F, double h0, double *d)
{
  double prev[N_MAX + 1], cur[N_MAX + 1], fp[N_MAX + 1], fm[N_MAX + 1];
  double best_change = INFINITY, h = h0;
  size_t m = F->m;
  for (int level = 0; level < FD_LEVELS; level++, h /= FD_SHRINK) {
    int rc = F->f(F->ctx, h, fp);
    if (!rc)
      rc = F->f(F->ctx, -h, fm);
    if (rc)
      return rc;
    double change = 0, size = 0;
    for (size_t i = 0; i < m; i++) {
      cur[i] = (fp[i] - fm[i]) / (2.0 * h);
      if (level) {
        change = fmax(change, fabs(cur[i] - prev[i]));
        size = fmax(size, fmax(fabs(cur[i]), fabs(prev[i])));
      }
    }
    if (level == 0 || change < best_change) {
      memcpy(d, cur, m * sizeof *d);
      if (level)
        best_change = change;
    }
    if (level && change <= FD_AGREE * size)
      return 0;
    memcpy(prev, cur, m * sizeof *prev);
  }
  return 0;
}

/* h_k or the reset at (t + eps dt, y + eps dy), with the params p. */
struct probe {
  const struct cs_saltation_in *in;
  const void *params; /* for h: the params as they are */
  void *source;       /* for R: the params copied to scratch before switch_apply */
  double t, dt;
  const double *y, *dy; /* dy may be NULL with j >= 0: the unit vector e_j */
  int j;
  int k; /* switching function */
  const int *fired;
  size_t n;
};

static void probe_point(const struct probe *q, double eps, double *t, double *y)
{
  *t = q->t + eps * q->dt;
  for (size_t i = 0; i < q->n; i++)
    y[i] = q->y[i] + eps * (q->dy ? q->dy[i] : (int)i == q->j ? 1.0 : 0.0);
}

static int probe_h(void *ctx, double eps, double *out)
{
  const struct probe *q = ctx;
  double t, y[N_MAX], g[MAX_ROOTS];
  probe_point(q, eps, &t, y);
  int rc = q->in->m->switch_fn(t, y, g, q->params);
  *out = g[q->k];
  return rc;
}

static int probe_reset(void *ctx, double eps, double *out)
{
  const struct probe *q = ctx;
  double t;
  probe_point(q, eps, &t, out);
  memcpy(q->in->scratch, q->source, q->in->m->params_size);
  int kind = q->in->m->switch_apply(t, out, q->fired, q->in->scratch);
  return kind < 0 ? kind : 0;
}

/* The reset of y at t with the params src (a shallow copy is switched). */
static int reset_of(const struct cs_saltation_in *in, void *src, double t, const double *y,
                    const int *fired, double *out)
{
  memcpy(out, y, in->m->n_state * sizeof *out);
  memcpy(in->scratch, src, in->m->params_size);
  int kind = in->m->switch_apply(t, out, fired, in->scratch);
  return kind < 0 ? kind : 0;
}

static enum cs_status fail(enum cs_status st, const char *fmt, double t)
{
  char why[256];
  snprintf(why, sizeof why, fmt, t);
  return cs_error_set(st, "%s (%s)", why, cs_strerror(st));
}

enum cs_status cs_saltation_apply(const struct cs_saltation_in *in, double t, const double *y_minus,
                                  const int *fired, struct cs_saltation *out)
{
  const struct cs_model *m = in->m;
  size_t n = m->n_state, nsw = m->n_switch;
  if (!m->switch_fn || !m->switch_apply || nsw == 0 || nsw > MAX_ROOTS || n > N_MAX)
    return fail(CS_ERR_ARG, "saltation at t = %.17g: the model has no switches", t);
  int k = -1;
  for (size_t i = 0; i < nsw && k < 0; i++)
    if (fired[i])
      k = (int)i;
  if (k < 0)
    return fail(CS_ERR_ARG, "saltation at t = %.17g: no switching function fired", t);
  out->fn = k;
  out->t = t;
  memcpy(out->y_minus, y_minus, n * sizeof *y_minus);

  double fm[N_MAX], fp[N_MAX], grad[N_MAX], Ry[N_MAX * N_MAX], Rt[N_MAX], v[N_MAX];
  int rc = m->rhs(t, y_minus, fm, in->params);
  struct probe q = {
      .in = in, .params = in->params, .t = t, .y = y_minus, .k = k, .fired = fired, .n = n};
  struct fd_fn Fh = {probe_h, &q, 1};
  /* D: along (1, f-) */
  q.dt = 1.0, q.dy = fm, q.j = -1;
  double D = 0;
  if (!rc)
    rc = fd_deriv(&Fh, FD_FIRST * in->t_scale, &D);
  /* grad h, and the size of h's change over the scales for the grazing test */
  double hsize = 0;
  q.dt = 0.0, q.dy = NULL;
  for (size_t j = 0; j < n && !rc; j++) {
    q.j = (int)j;
    rc = fd_deriv(&Fh, FD_FIRST * in->scale[j], &grad[j]);
    hsize = fmax(hsize, fabs(grad[j] * in->scale[j]));
  }
  /* R_y column by column, R_t */
  struct fd_fn FR = {probe_reset, &q, n};
  q.source = in->params;
  double col[N_MAX];
  for (size_t j = 0; j < n && !rc; j++) {
    q.j = (int)j;
    rc = fd_deriv(&FR, FD_FIRST * in->scale[j], col);
    for (size_t i = 0; i < n; i++)
      Ry[i * n + j] = col[i];
  }
  q.dt = 1.0, q.j = -1;
  double zero[N_MAX] = {0};
  q.dy = zero;
  if (!rc)
    rc = fd_deriv(&FR, FD_FIRST * in->t_scale, Rt);
  if (rc)
    return fail(rc < 0 ? (enum cs_status)(-rc) : CS_ERR_SOLVER,
                "saltation at t = %.17g: the model's switching function or reset failed", t);

  /* the parameter: h_p and R_p from the neighbouring params, before they switch */
  double hp = 0, Rp[N_MAX] = {0};
  if (in->params_plus && in->params_minus) {
    double g[MAX_ROOTS], gm, gpl, yp[N_MAX], ym[N_MAX];
    rc = m->switch_fn(t, y_minus, g, in->params_plus);
    gpl = g[k];
    if (!rc)
      rc = m->switch_fn(t, y_minus, g, in->params_minus);
    gm = g[k];
    if (!rc)
      rc = reset_of(in, in->params_plus, t, y_minus, fired, yp);
    if (!rc)
      rc = reset_of(in, in->params_minus, t, y_minus, fired, ym);
    if (rc)
      return fail(rc < 0 ? (enum cs_status)(-rc) : CS_ERR_SOLVER,
                  "saltation at t = %.17g: the switch failed at a neighbouring parameter", t);
    hp = (gpl - gm) / (2.0 * in->dp);
    for (size_t i = 0; i < n; i++)
      Rp[i] = (yp[i] - ym[i]) / (2.0 * in->dp);
    /* the neighbours follow the run into the new mode */
    memcpy(yp, y_minus, n * sizeof *yp);
    memcpy(ym, y_minus, n * sizeof *ym);
    int k1 = m->switch_apply(t, yp, fired, in->params_plus);
    int k2 = m->switch_apply(t, ym, fired, in->params_minus);
    if (k1 < 0 || k2 < 0)
      return fail((enum cs_status)(k1 < 0 ? -k1 : -k2),
                  "saltation at t = %.17g: the switch failed at a neighbouring parameter", t);
  }

  /* the switch itself */
  memcpy(out->y_plus, y_minus, n * sizeof *y_minus);
  out->kind = m->switch_apply(t, out->y_plus, fired, in->params);
  if (out->kind < 0)
    return fail((enum cs_status)(-out->kind), "mode switch at t = %.17g failed", t);
  rc = m->rhs(t, out->y_plus, fp, in->params);
  if (rc)
    return fail(rc < 0 ? (enum cs_status)(-rc) : CS_ERR_SOLVER,
                "saltation at t = %.17g: the right-hand side after the switch failed", t);

  out->D = D;
  for (size_t i = 0; i < n; i++) {
    double Rf = 0;
    for (size_t j = 0; j < n; j++)
      Rf += Ry[i * n + j] * fm[j];
    v[i] = fp[i] - Rf - Rt[i];
  }
  /* grazing: h hardly moves along the flow compared with across it */
  if (!(fabs(D) * in->t_scale > CS_SALTATION_GRAZE * hsize)) {
    memcpy(out->S, Ry, n * n * sizeof *Ry);
    memset(out->sp, 0, n * sizeof *out->sp);
    return fail(CS_ERR_SINGULAR,
                "saltation at t = %.17g: the switching function crosses zero tangentially "
                "(grazing)",
                t);
  }
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++)
      out->S[i * n + j] = Ry[i * n + j] + v[i] * grad[j] / D;
    out->sp[i] = Rp[i] + v[i] * hp / D;
  }
  return CS_OK;
}
