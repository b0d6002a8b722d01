/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond integrate/flow.h. */
#ifndef CS_INTEGRATE_FLOW_PRIVATE_H
#define CS_INTEGRATE_FLOW_PRIVATE_H

#include <stdbool.h>

#include "integrate/flow.h"

/* A flow for models of up to n_max states, logging at most max_log switches
 * (older ones are kept, later ones counted but dropped). NULL on failure. */
struct cs_flow *cs_flow_create(size_t n_max, size_t max_log);

void cs_flow_free(struct cs_flow *f);

/* Starts a run of model m with params (mutable for hybrid models: their mode
 * lives there; must stay valid during the run) from (t0, y0). User events:
 * n_roots functions g (with directions, NULL: both) evaluated with ctx (NULL:
 * params); 0 / NULL for none. Clears the switch log and the statistics.
 * Calls mode_init for hybrid models. */
enum cs_status cs_flow_reset(struct cs_flow *f, const struct cs_model *m, void *params,
                             const struct cs_integrator_opts *opts, double t0, const double *y0,
                             size_t n_roots, cs_root_fn g, const int *direction, const void *ctx);

/* Advances towards tout; stops at a user event (then *at_root = 1 and
 * fired[k] = +1/-1/0 for the n_roots user functions) or at tout (*at_root =
 * 0). Mode switches on the way are applied and logged. t, y, at_root, fired
 * may be NULL. Same failure statuses as cs_integrator_advance. */
enum cs_status cs_flow_advance(struct cs_flow *f, double tout, double *t, double *y, int *at_root,
                               int *fired);

/* As cs_flow_advance, but a state at tout is the integrator's interpolated
 * value (cs_integrator_advance_interp): for samples that do not feed back. */
enum cs_status cs_flow_advance_interp(struct cs_flow *f, double tout, double *t, double *y,
                                      int *at_root, int *fired);

/* Whether the roots of user event function k are located to the step's
 * accuracy (cs_integrator_set_root_polish; cs_flow_reset makes all true).
 * The model's switching functions are always polished. CS_ERR_ARG for
 * k >= n_roots. */
enum cs_status cs_flow_set_root_polish(struct cs_flow *f, size_t k, bool polish);

/* Restarts the current run from (t, y) (e.g. Lyapunov renormalisation);
 * re-runs mode_init for hybrid models. */
enum cs_status cs_flow_set_state(struct cs_flow *f, double t, const double *y);

void cs_flow_stats(struct cs_flow *f, struct cs_flow_stats *s);

/* The switch log: count (<= max_log) and entries. */
size_t cs_flow_switch_count(const struct cs_flow *f);

const struct cs_flow_switch *cs_flow_switch_get(const struct cs_flow *f, size_t i);

/* The last failure's message (the flow's own, else its integrator's). */
const char *cs_flow_last_error(const struct cs_flow *f);

#endif
