/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond integrate/integrate.h. */
#ifndef CS_INTEGRATE_INTEGRATE_PRIVATE_H
#define CS_INTEGRATE_INTEGRATE_PRIVATE_H

#include <stdbool.h>

#include "integrate/integrate.h"

/* The same workspace with SUNDIALS' stock serial vector kernels instead of
 * the ones for short vectors that cs_integrator_create installs (which give
 * bit-identical results, faster): for checking and measuring those. */
struct cs_integrator *cs_integrator_create_stock(size_t n_max);

/* Convenience: resets with (ode, opts, times[0], y0) and fills the dense grid
 * Y[k*n + i] = y_i(times[k]) for k < ntimes (row 0 is y0). times must be
 * monotone (non-decreasing or non-increasing). Event functions stay active
 * but the integration steps over their roots. On failure the rows not reached
 * are left untouched; the status is that of reset or advance. */
enum cs_status cs_integrator_solve_grid(struct cs_integrator *integ, const struct cs_ode *ode,
                                        const struct cs_integrator_opts *opts, const double *y0,
                                        const double *times, size_t ntimes, double *Y);

/* Restarts the current run from a new state (t, y), keeping ODE, options,
 * event functions and statistics: for state jumps at events (impacts,
 * stick-slip transitions). ARKODE restarts its step-size selection at t (a
 * jump is a discontinuity): the first step is estimated afresh (or is the
 * run's h_init), the error history is cleared; the dense output of the
 * steps before is lost. The caller may also change
 * what the params of the run point to before calling this. CS_ERR_ARG
 * without an active run or for non-finite t / y. */
enum cs_status cs_integrator_reinit_state(struct cs_integrator *integ, double t, const double *y);

/* As cs_integrator_reinit_state, for a state on the same smooth solution
 * (renormalised tangent vectors of a Lyapunov run, a restart at a root that
 * ARKODE refused): ARKODE keeps the step size it had planned, where
 * reinit_state makes it estimate a new first step. */
enum cs_status cs_integrator_reinit_smooth(struct cs_integrator *integ, double t, const double *y);

/* As cs_integrator_reinit_state, but the run continues with another ODE of
 * the same n (a mode switch: e.g. stick equations after slip). CS_ERR_ARG
 * also when ode->n differs from the run's n. */
enum cs_status cs_integrator_reinit_ode(struct cs_integrator *integ, const struct cs_ode *ode,
                                        double t, const double *y);

/* Whether roots of event function k (of those set by cs_integrator_set_roots,
 * which marks all of them true) are located to the step's accuracy. In
 * CS_DENSE_RESTEP mode a root is polished (a restep onto the root, then
 * Newton on g_k; 1 to 4 steps' evaluations); with polish false for every
 * function that fired, the time and state returned are those of ARKODE's
 * own root search on its interpolant. For crossings that are only counted or
 * passed (a transient's sections): the steps taken, and so every later
 * result, are the same either way. CS_ERR_ARG for k >= nroots. */
enum cs_status cs_integrator_set_root_polish(struct cs_integrator *integ, size_t k, bool polish);

/* k-th derivative (0 <= k <= 3) of ARKODE's dense-output interpolant at t (a
 * Hermite polynomial whose degree ARKODE limits to the method's order minus
 * one), which must lie within the last internal step (see
 * cs_integrator_last_step); dky receives n values. For Poincaré sections and
 * other output between steps. CS_ERR_RANGE if t is outside the last step or
 * k is out of range; CS_ERR_ARG if no step was taken since the last reset or
 * reinit. */
enum cs_status cs_integrator_dky(struct cs_integrator *integ, double t, int k, double *dky);

/* Time interval [*t_start, *t_end] (ordered in the direction of integration)
 * covered by the last internal step, where cs_integrator_dky may be used.
 * CS_ERR_ARG if no step was taken yet in this run. */
enum cs_status cs_integrator_last_step(struct cs_integrator *integ, double *t_start, double *t_end);

#endif
