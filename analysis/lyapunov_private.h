/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/lyapunov.h. */
#ifndef CS_ANALYSIS_LYAPUNOV_PRIVATE_H
#define CS_ANALYSIS_LYAPUNOV_PRIVATE_H

#include "analysis/lyapunov.h"

/* A flag (set by another thread) that abandons the runs of w: they then
 * return CS_ERR_INTERRUPTED. NULL: never. */
void cs_lyapunov_ws_set_cancel(struct cs_lyapunov_ws *w, const volatile int *cancel);

/* The absolute tolerance of the tangent vectors in the following runs
 * (> 0), or 0 (default): 1e3 times the run's rtol. A caller that loosens the
 * orbit's tolerance keeps the tangents' from its own rtol this way. */
void cs_lyapunov_ws_set_tangent_atol(struct cs_lyapunov_ws *w, double atol);

/* Records the crossings of a section by the orbit of the following runs:
 * g(t, y, out, ctx) of the n states, out[0] the section's function (a
 * caller's event function may write further values, up to 4 in all, which
 * are ignored), crossed in direction (+1, -1, 0 both); each crossing's row
 * (t, the n states) goes to rows, at most cap of them (counted in
 * n_section). rows NULL or cap 0: none. The orbit is the one the exponents
 * are measured on, so the rows cost no integration of their own. */
void cs_lyapunov_ws_set_section(struct cs_lyapunov_ws *w, cs_root_fn g, int direction,
                                const void *ctx, double *rows, size_t cap);

#endif
