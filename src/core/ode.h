/* SPDX-License-Identifier: MIT */
/* The callbacks of an ODE y' = f(t, y): what a model provides
 * (models/model.h) and what the integrator calls (integrate/integrate.h).
 * Apart from the integrator so that the models, which the integrator's flow
 * runs, need not include it. */
#ifndef CS_CORE_ODE_H
#define CS_CORE_ODE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Right-hand side: ydot = f(t, y), n values each. Returns 0 on success, > 0 for
 * a recoverable failure (both steppers retry with a smaller step, e.g. when a
 * trial stage left the model's domain), < 0 for a fatal one; a
 * fatal return of -s, s a valid enum cs_status other than CS_OK (e.g.
 * -CS_ERR_UNBOUNDED), makes the integrator return s itself, any other negative
 * value gives CS_ERR_SOLVER. Non-finite values in ydot are caught by the
 * integrator and treated as a recoverable failure. Must be thread-safe and
 * must not allocate on the hot path. */
typedef int (*cs_rhs_fn)(double t, const double *y, double *ydot, const void *params);

/* Jacobian: jac[i*n + j] = d f_i / d y_j (row-major, all n*n entries, the
 * array comes zeroed). Same return convention as cs_rhs_fn. */
typedef int (*cs_jac_fn)(double t, const double *y, double *jac, const void *params);

/* Event (root) functions: nroots values g_k(t, y); the integrator stops where a
 * g_k changes sign. Returns 0 on success, nonzero is fatal (same -s convention
 * as cs_rhs_fn). g must be continuous in t along the solution. */
typedef int (*cs_root_fn)(double t, const double *y, double *g, const void *params);

#ifdef __cplusplus
}
#endif

#endif
