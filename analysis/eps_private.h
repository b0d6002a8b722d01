/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/eps.h. */
#ifndef CS_ANALYSIS_EPS_PRIVATE_H
#define CS_ANALYSIS_EPS_PRIVATE_H

#include "analysis/eps.h"

/* The time grid of contensou simulate: t_start + k dt while below t_end, then
 * t_end itself (which replaces a grid time within 1e-9 dt of it); dt = 0:
 * (t_end - t_start) / 1000. Returns a malloc'ed array of *n times, or NULL
 * (bad window, more than CS_EPS_MAX_ROWS rows, no memory). */
double *cs_eps_grid(double t_start, double t_end, double dt, size_t *n);

/* Fills params (m->params_size bytes, not attached) for a run at eps (or,
 * with event_driven = 1, with law = event-driven and eps left as in base):
 * a copy of base (unprepared, see above) with eps set by name, then
 * prepare(). CS_ERR_NOT_FOUND (no parameter eps or no
 * law event-driven), CS_ERR_RANGE (eps outside the parameter's range) or
 * prepare's failure, with a one-line reason in cs_errmsg(). */
enum cs_status cs_eps_make_params(const struct cs_model *m, const void *base, double eps,
                                  int event_driven, void *params);

/* 1 if the max difference of every state falls strictly as eps falls (eps
 * sorted, each state's max finite), 0 if not, -1 when it cannot be said
 * (fewer than two distinct eps, a run failed). */
int cs_eps_monotone(const struct cs_eps_result *r);

#endif
