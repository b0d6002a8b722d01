/* SPDX-License-Identifier: MIT */
/* Normal-form coefficients of equilibria at codimension-one bifurcations,
 * from the vector field's second and third derivatives.
 *
 * Derivatives: the multilinear forms B(u, v) = D^2 f(y)[u, v] and
 * C(u, v, w) = D^3 f(y)[u, v, w] come from the model's analytic Jacobian by
 * central differences along the directions (B: (J(y + h u) - J(y - h u)) v /
 * 2h; C: the mixed second difference of J in u and v, applied to w), each
 * direction rescaled so that its step is h times the state's scale
 * (max(|y_i|, floor_i)) in every component. The error is O(h^2) times the
 * fourth (B) or fifth (C) derivative, plus rounding eps |J| / h (B) or
 * eps |J| / h^2 (C): with h = 1e-4 (B) and 1e-3 (C) in state-scale units
 * about 1e-8 and 1e-6 relative. Exact (to rounding) where the Jacobian is
 * quadratic in y, i.e. for cubic vector fields (the Bautin, Bogdanov-Takens
 * and cusp normal forms at their equilibria: the quintic Bautin term
 * contributes O(h^2 r^...) = 0 at the origin). The coefficient is computed
 * twice, with h and 2h, and the difference is returned as its error
 * estimate.
 *
 * First Lyapunov coefficient (Kuznetsov, Elements of Applied Bifurcation
 * Theory, 3rd ed., eq. (3.20)): with A q = i w q, A^T p = -i w p,
 * <q, q> = 1, <p, q> = 1 (<a, b> = conj(a)^T b),
 *   l1 = Re[<p, C(q, q, conj q)> - 2 <p, B(q, A^-1 B(q, conj q))>
 *           + <p, B(conj q, (2 i w - A)^-1 B(q, q))>] / (2 w).
 * l1 < 0: supercritical (a stable cycle is born), l1 > 0: subcritical. It
 * depends on the coordinates' scales (it scales with 1/|q|^2), its sign
 * does not.
 *
 * Fold quadratic coefficient: a = <w, B(v, v)> / 2 with J v = 0, J^T w = 0,
 * |v| = |w| = 1 (the sign of w given by the caller: its sign decides a's);
 * a changes sign at a cusp point. */
#ifndef CS_ANALYSIS_NORMAL_FORM_H
#define CS_ANALYSIS_NORMAL_FORM_H

#include <stddef.h>

#include "core/status.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* B(u, v) at y: n values into out. scale: n state scales (> 0). */
enum cs_status cs_nf_bilinear(const struct cs_model *m, const void *params, const double *y,
                              const double *scale, const double *u, const double *v, double h,
                              double *out);

/* The first Lyapunov coefficient at the equilibrium y of m (params
 * prepared) whose Jacobian has the pair +-i omega_hint (nearest eigenvalue
 * taken). *omega receives the pair's imaginary part, *err the estimate of
 * l1's error (NULL allowed). CS_ERR_SINGULAR when A or 2 i w - A is
 * singular or no complex pair is found, CS_ERR_SOLVER when the Jacobian
 * fails. */
enum cs_status cs_hopf_l1(const struct cs_model *m, const void *params, const double *y,
                          const double *scale, double omega_hint, double *l1, double *omega,
                          double *err);

#ifdef __cplusplus
}
#endif

#endif
