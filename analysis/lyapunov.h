/* SPDX-License-Identifier: MIT */
/* Lyapunov exponents (internal to analysis/): Benettin's method on the
 * variational equations built from the model's analytic Jacobian; for
 * event-driven models the tangent vectors jump by the saltation matrix at
 * every mode switch. See lyapunov.c for the algorithm and the error estimate. */
#ifndef CS_ANALYSIS_LYAPUNOV_H
#define CS_ANALYSIS_LYAPUNOV_H

#include <stddef.h>

#include "core/status.h"
#include "integrate/integrate.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Workspace for models of up to n_max states (the augmented system has up
 * to n_max (1 + n_max) equations). NULL on failure. */
struct cs_lyap_ws;
struct cs_lyap_ws *cs_lyap_ws_create(size_t n_max);
void cs_lyap_ws_free(struct cs_lyap_ws *w);

/* A flag (set by another thread) that abandons the runs of w: they then
 * return CS_ERR_INTERRUPTED. NULL: never. */
void cs_lyap_ws_set_cancel(struct cs_lyap_ws *w, const volatile int *cancel);
/* The absolute tolerance of the tangent vectors in the following runs
 * (> 0), or 0 (default): 1e3 times the run's rtol. A caller that loosens the
 * orbit's tolerance keeps the tangents' from its own rtol this way. */
void cs_lyap_ws_set_tangent_atol(struct cs_lyap_ws *w, double atol);

/* Records the crossings of a section by the orbit of the following runs:
 * g(t, y, out, ctx) of the n states, out[0] the section's function (a
 * caller's event function may write further values, up to 4 in all, which
 * are ignored), crossed in direction (+1, -1, 0 both); each crossing's row
 * (t, the n states) goes to rows, at most cap of them (counted in
 * n_section). rows NULL or cap 0: none. The orbit is the one the exponents
 * are measured on, so the rows cost no integration of their own. */
void cs_lyap_ws_set_section(struct cs_lyap_ws *w, cs_root_fn g, int direction, const void *ctx,
                            double *rows, size_t cap);

/* What one run computed. */
struct cs_lyap_result {
  double exponent[16]; /* the q largest exponents, descending, 1/time unit; -INFINITY for
                          the directions a mode switch annihilated (stick: see `reduced`) */
  double err[16];      /* standard error of each (block estimates), same unit; 0 for -INFINITY */
  int reduced;         /* tangent directions lost at mode switches (saltation matrices of
                          rank < n, e.g. slip to stick), the last `reduced` exponents */
  long switches;       /* mode switches crossed by the run */
  size_t n_section;    /* section crossings recorded (cs_lyap_ws_set_section) */
  long steps, rhs_evals;
  double time_used; /* time integrated (less than asked when the run stopped early) */
};

/* Runs the model from (t0, y0) with q tangent vectors (1 <= q <= n) for
 * `time` time units, renormalising every `renorm`; opts as for the orbit
 * (atol_vec, if any, covers the n states; the tangent components are
 * controlled only loosely, at 1e3 rtol). Event-driven models (switching
 * functions active with params) run their modes from mode_init at (t0, y0) on
 * a copy of params. CS_ERR_UNSUPPORTED without a Jacobian; CS_ERR_SINGULAR at
 * a grazing switch (no saltation matrix); an integrator failure returns its status with
 * the message in cs_errmsg(). The exponents are NAN on failure. decide > 0: the run
 * may stop early once the largest exponent is decided beyond +-decide (see
 * lyapunov.c); 0: always the whole time. */
enum cs_status cs_lyap_run(struct cs_lyap_ws *w, const struct cs_model *m, const void *params,
                           const struct cs_integrator_opts *opts, double t0, const double *y0,
                           size_t q, double time, double renorm, double decide,
                           struct cs_lyap_result *out);

#ifdef __cplusplus
}
#endif

#endif
