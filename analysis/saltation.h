/* SPDX-License-Identifier: MIT */
/* Saltation matrices: how a perturbation of the state jumps at a mode switch
 * of an event-driven (hybrid) model, so that variational equations, and with
 * them monodromy matrices and Floquet multipliers, stay right across stick-slip
 * transitions.
 *
 * A switch happens where the switching function h(t, y) of the current mode
 * crosses zero; the reset y+ = R(t, y-) gives the state after it (the model's
 * switch_apply: e.g. the velocities of stick), then the vector field of the
 * new mode f+ applies (f- before). A perturbation dy- just before the switch
 * moves the switching time by dtau = -grad h . dy- / D, D = h_t + grad h . f-,
 * and (to first order, compared at equal times after the switch)
 *
 *   dy+ = S dy-,   S = R_y + (f+ - R_y f- - R_t) grad h^T / D
 *
 * (Aizerman & Gantmacher 1958; Leine & Nijmeijer, Dynamics and Bifurcations of
 * Non-Smooth Mechanical Systems, 2004, §7.2, with a state- and time-dependent
 * reset). With a parameter p that the switching function and the reset depend
 * on, dy+/dp jumps by s_p = R_p + (f+ - R_y f- - R_t) h_p / D (p as a state
 * with p' = 0).
 *
 * The models give h, R and f as functions only, so grad h, D, R_y, R_t, h_p
 * and R_p are difference quotients: central differences at steps h0, h0/4,
 * h0/16, ... until two successive estimates agree (at most FD_LEVELS levels;
 * the estimate of smallest change is kept). The shrinking steps matter: the
 * pendulum's slip ends where lambda_s = |z(y)| falls to lambda_event = 1e-7,
 * a kink of |z| that a fixed step larger than 1e-7 would straddle. D, the rate
 * at which h crosses zero, is the directional derivative of h along (1, f-)
 * itself (more accurate than h_t + grad h . f- summed). A non-transversal
 * crossing (|D| below CS_SALTATION_GRAZE of its typical size: grazing) has no
 * saltation matrix: CS_ERR_SINGULAR.
 *
 * R is evaluated on shallow copies of the params (scratch, params_size
 * bytes): switch_apply changes the mode stored in the params, and the copies
 * share the model's attached workspaces, which is safe on one thread. */
#ifndef CS_ANALYSIS_SALTATION_H
#define CS_ANALYSIS_SALTATION_H

#include <stddef.h>

#include "core/status.h"
#include "models/model.h"

#define CS_SALTATION_MAX_N 16
#define CS_SALTATION_GRAZE 1e-9 /* |D| t_scale / max|h| below this: grazing */

/* What a saltation needs besides the switch itself. */
struct cs_saltation_in {
  const struct cs_model *m;
  void *params;        /* the run's params in the mode before the switch; switched on return */
  void *scratch;       /* m->params_size bytes for shallow copies */
  void *params_plus;   /* the same at p + dp and p - dp, in the same mode (switched too), */
  void *params_minus;  /* or both NULL: no parameter column */
  double dp;           /* their parameter step */
  const double *scale; /* n typical magnitudes of the states (first difference steps) */
  double t_scale;      /* typical time scale, e.g. the period (first time step) */
};

/* The switch and its saltation matrix. */
struct cs_saltation {
  int kind;                                          /* index into m->switch_kinds */
  int fn;                                            /* the switching function that fired */
  double t;                                          /* time of the switch */
  double y_minus[CS_SALTATION_MAX_N];                /* state before */
  double y_plus[CS_SALTATION_MAX_N];                 /* state after (the reset) */
  double S[CS_SALTATION_MAX_N * CS_SALTATION_MAX_N]; /* dy+/dy-, row-major */
  double sp[CS_SALTATION_MAX_N];                     /* jump of dy/dp (0 without a parameter) */
  double D;                                          /* dh/dt along the flow before the switch */
};

/* Applies the switch that fired (fired[k] = +1/-1 for the switching
 * functions that crossed zero, the first such k is used) at (t, y_minus):
 * sets out->y_plus and the modes of in->params (and of params_plus/minus),
 * and computes S (and sp). CS_ERR_SINGULAR at a grazing crossing (the switch
 * is still applied), the model's status if a callback fails, CS_ERR_ARG for
 * a model without switching functions or no function fired; the reason
 * of a failure in cs_errmsg(). */
enum cs_status cs_saltation_apply(const struct cs_saltation_in *in, double t, const double *y_minus,
                                  const int *fired, struct cs_saltation *out);

#endif
