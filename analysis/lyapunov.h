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
struct cs_lyapunov_ws;
CS_API struct cs_lyapunov_ws *cs_lyapunov_ws_create(size_t n_max);
CS_API void cs_lyapunov_ws_free(struct cs_lyapunov_ws *w);

/* What one run computed. */
struct cs_lyapunov_result {
  double exponent[16]; /* the q largest exponents, descending, 1/time unit; -INFINITY for
                          the directions a mode switch annihilated (stick: see `reduced`) */
  double err[16];      /* standard error of each (block estimates), same unit; 0 for -INFINITY */
  int reduced;         /* tangent directions lost at mode switches (saltation matrices of
                          rank < n, e.g. slip to stick), the last `reduced` exponents */
  long switches;       /* mode switches crossed by the run */
  size_t n_section;    /* section crossings recorded (cs_lyapunov_ws_set_section) */
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
CS_API enum cs_status cs_lyapunov_run(struct cs_lyapunov_ws *w, const struct cs_model *m,
                                      const void *params, const struct cs_integrator_opts *opts,
                                      double t0, const double *y0, size_t q, double time,
                                      double renorm, double decide, struct cs_lyapunov_result *out);

#ifdef __cplusplus
}
#endif

#endif
