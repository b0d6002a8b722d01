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

/* Statistics of the run (since reset), including switches in `switches`. */
struct cs_flow_stats {
  struct cs_integrator_stats integ;
  long switches; /* mode switches applied */
};

#ifdef __cplusplus
}
#endif

#endif
