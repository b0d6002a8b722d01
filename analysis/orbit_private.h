/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/orbit.h. */
#ifndef CS_ANALYSIS_ORBIT_PRIVATE_H
#define CS_ANALYSIS_ORBIT_PRIVATE_H

#include "analysis/orbit.h"

/* Sets the workspace's parameter to value (range-checked, prepared,
 * attached). CS_ERR_ARG without a parameter; the status of
 * cs_model_set_param or prepare with the reason in cs_errmsg(). */
enum cs_status cs_orbit_ws_set_param(struct cs_orbit_ws *ws, double value);

/* Replaces the parameters the workspace starts from (unprepared, copied) and
 * prepares them, keeping the current value of its parameter if it has one
 * (e.g. a sweep's second parameter changed). Same failures as
 * cs_orbit_ws_set_param. */
enum cs_status cs_orbit_ws_set_base(struct cs_orbit_ws *ws, const void *params_unprepared);

/* The prepared params of the current parameter value (read-only use; a
 * hybrid model's mode in it changes during runs). */
const void *cs_orbit_ws_params(const struct cs_orbit_ws *ws);

const struct cs_model *cs_orbit_ws_model(const struct cs_orbit_ws *ws);

int cs_orbit_ws_autonomous(const struct cs_orbit_ws *ws);

int cs_orbit_ws_param(const struct cs_orbit_ws *ws); /* the parameter's index, or -1 */

/* d f / dp at (t, y) by central differences at p +- dp/2 (n values into fp);
 * d Tf / dp of the forcing period likewise. CS_ERR_ARG without a parameter. */
enum cs_status cs_orbit_rhs_dp(struct cs_orbit_ws *ws, double t, const double *y, double *fp);

double cs_orbit_forcing_period_dp(const struct cs_orbit_ws *ws);

/* Event-driven models: d g / dp of the switching functions at (t, y) by
 * central differences at p +- dp/2, in the modes the last shooting left
 * (gp: one value per function). CS_ERR_ARG without a parameter. */
enum cs_status cs_orbit_switch_dp(struct cs_orbit_ws *ws, double t, const double *y, double *gp);

/* The relative step of the parameter's difference quotients (f_p, g_p,
 * the section's s_p), from the next cs_orbit_ws_set_param on; rel <= 0: the
 * default 1e-6. */
void cs_orbit_ws_set_dp_rel(struct cs_orbit_ws *ws, double rel);

/* Event-driven models: switching function fn of the following shootings
 * (cs_orbit_shoot) is held at the constant sign `sign` for t_lo <= t <= t_hi,
 * so that it makes no switch there (a grazing curve's Newton iterates pass a
 * touched switch on either side); fn < 0: none (the default). */
void cs_orbit_ws_disarm(struct cs_orbit_ws *ws, int fn, double t_lo, double t_hi, double sign);

/* CS_OK, or the integrator's / saltation's status with the reason in
 * cs_errmsg(). */
enum cs_status cs_orbit_shoot(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts, double t0,
                              const double *y0, double T, int with_param,
                              struct cs_orbit_shot *out);

/* As cs_orbit_shoot without the variational equations (n equations instead
 * of n (n + 2)): out's y, f, switches, switch_kind and steps; M and yp are
 * left as they were. The same integrator, tolerances on y, end state and
 * switches, so its y agrees with cs_orbit_shoot's to the solver's accuracy
 * (that one's steps also control the error of M). For the corrector
 * iterations of a chord method, which reuse an earlier M. */
enum cs_status cs_orbit_shoot_state(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts,
                                    double t0, const double *y0, double T,
                                    struct cs_orbit_shot *out);

/* The section's value s(y) - level at (t, y), its gradient in y (n values,
 * may be NULL) and its derivative in the parameter (may be NULL; 0 without
 * one). CS_ERR_ARG for an unknown variable. */
enum cs_status cs_orbit_section(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts, double t,
                                const double *y, double *s, double *grad, double *s_p);

/* The crossing direction of the section at (t, y) along the flow: +1 in the
 * section's direction (or any, for a section without direction or a forced
 * model), -1 against it. */
int cs_orbit_crossing_sign(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts, double t,
                           const double *y);

/* Moves (t, y) along the flow to the next crossing of the section in its
 * direction, within tmax time units (autonomous models). CS_ERR_NOT_FOUND if
 * there is none; integrator statuses. */
enum cs_status cs_orbit_next_crossing(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts,
                                      double t, double *y, double tmax);

/* One period of the orbit on rows equidistant times t0 + T k/(rows - 1):
 * columns t, the states, the derived outputs (1 + n + n_derived per row,
 * row-major into table); rows >= 2. Also the extremes of each state over those
 * rows (ymin, ymax, may be NULL). */
enum cs_status cs_orbit_sample(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts,
                               const struct cs_orbit *orb, size_t rows, double *table, double *ymin,
                               double *ymax);

/* Event-driven models: how close the orbit comes to a switch it does not
 * make. Over `samples` equidistant times of one period, every switching
 * function g_k is followed within each mode (a stretch between two
 * switches); its smallest interior local minimum of |g_k| (not at the ends of
 * the stretch, where g_k crosses zero by design), relative to the largest
 * |g_k| of the stretch, is *margin (NAN if there is none, or for a smooth
 * model), with the function's index in *fn. A margin tending to 0 along a
 * branch is a grazing: a new switch (e.g. a stick phase) is about to appear. */
enum cs_status cs_orbit_graze(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts,
                              const struct cs_orbit *orb, size_t samples, double *margin, int *fn);

#endif
