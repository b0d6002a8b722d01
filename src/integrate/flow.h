/* SPDX-License-Identifier: MIT */
/* The flow of a model: a model, its params and an integrator, advanced in
 * time with optional user event functions (Poincaré sections), handling the
 * mode switches of event-driven models on the way. Everything that runs a
 * model — simulate, point analysis, the eps study — goes through this, so a
 * hybrid model (e.g. the belt with law = event-driven) works everywhere a
 * smooth one does.
 *
 * For a plain ODE model this is a thin pass-through to cs_integrator. For a
 * hybrid model the switching functions are appended after the user's event
 * functions; when one fires, the model's switch_apply picks the next mode,
 * the integrator restarts from the (possibly changed) state, the switch is
 * logged, and advancing continues transparently unless a user event fired at
 * the same time. */
#ifndef CS_INTEGRATE_FLOW_H
#define CS_INTEGRATE_FLOW_H

#include <stddef.h>

#include "integrate/integrate.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_FLOW_MAX_N 16     /* largest state dimension */
#define CS_FLOW_MAX_ROOTS 32 /* user roots + switching functions */

/* One logged mode switch. */
struct cs_flow_switch {
  double t;                /* time of the switch */
  int kind;                /* index into model->switch_kinds */
  int mode;                /* mode after the switch (model->mode_of), or -1 */
  double y[CS_FLOW_MAX_N]; /* state after the switch */
};

struct cs_flow;

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

/* Restarts the current run from (t, y) (e.g. Lyapunov renormalisation);
 * re-runs mode_init for hybrid models. */
enum cs_status cs_flow_set_state(struct cs_flow *f, double t, const double *y);

/* Statistics of the run (since reset), including switches in `switches`. */
struct cs_flow_stats {
  struct cs_integrator_stats integ;
  long switches; /* mode switches applied */
};
void cs_flow_stats(struct cs_flow *f, struct cs_flow_stats *s);

/* The switch log: count (<= max_log) and entries. */
size_t cs_flow_switch_count(const struct cs_flow *f);
const struct cs_flow_switch *cs_flow_switch_get(const struct cs_flow *f, size_t i);

/* The last failure's message (the flow's own, else its integrator's). */
const char *cs_flow_last_error(const struct cs_flow *f);

#ifdef __cplusplus
}
#endif

#endif
