/* SPDX-License-Identifier: MIT */
/* Two-parameter curves of codimension-one points: a special point located on
 * a one-parameter branch (analysis/continuation.h) continued in the branch's
 * parameter p1 and a second parameter p2, by the same pseudo-arclength
 * scheme (predictor along the unit tangent in scaled unknowns, bordered
 * Newton corrector, GSL LU), with codimension-two points detected by test
 * functions and located (Illinois on the arclength).
 *
 * Defining systems (unknowns X, equations G(X) = 0, one fewer):
 *  - fold of equilibria: X = (y, p1, p2), G = (f(y), g), g the minimally
 *    augmented test function: [J b; c^T 0] (v, g) = (0, 1), the borders b, c
 *    the left and right null vectors of the previous point (Govaerts);
 *  - Hopf of equilibria: X = (y, v, kappa, p1, p2),
 *    G = (f(y), (J^2 + kappa I) v, c.v - 1, d.J v) (Roose & Hlavacek): kappa
 *    = omega^2 > 0 on the Hopf curve; it goes through 0 at a Bogdanov-Takens
 *    point (beyond it the curve is one of neutral saddles);
 *  - fold of cycles (autonomous models): X = (y0, T, p1, p2), G = (the
 *    shooting equations of analysis/orbit.h, g) with g minimally augmented
 *    on the shooting Jacobian in (y0, T), [M - I, f; grad s, 0], singular
 *    where a second multiplier reaches +1;
 *  - period doubling: the same with g on M + I (a multiplier at -1);
 *  - Neimark-Sacker (autonomous models): X = (y0, T, kappa, p1, p2), G =
 *    (the shooting equations, two entries of the 2 x 2 block of the doubly
 *    bordered M^2 - 2 kappa M + I), kappa = cos theta of the pair exp(+-i
 *    theta) (Govaerts; analysis/continuation2_ns.c);
 *  - fold of cycles and period doubling of forced models: X = (y0, p1, p2),
 *    the period T = k Tf(p1, p2) fixed by the forcing (k = the start's
 *    returns), no phase condition and no trivial multiplier: g on M - I
 *    (fold) or M + I (period doubling) alone. The section is at forcing
 *    phase 0 (t = 0). When p1 or p2 is the forcing frequency, T moves along
 *    the curve: the p1 column of the shooting rows is d phi/dp1 + f dT/dp1.
 *    (Neimark-Sacker curves of forced models are not followed.);
 *  - grazing (event-driven autonomous models): X = (y0, T, t_g, p1, p2),
 *    G = (the hybrid shooting equations, g_k(phi_tg(y0)), d/dt g_k(phi_tg(y0)))
 *    for the switching function k the orbit touches without crossing
 *    (analysis/continuation2_graze.c: the touched function disarmed near
 *    t_g during Newton, the derivatives); it starts at a grazing point of a
 *    one-parameter cycle branch; test1 = t_g (the time from the section
 *    point to the touch), test2 NaN; no codimension-two or user points.
 * The Jacobian of G: the shooting rows (monodromy matrix, parameter column
 * of p1) exactly, everything else by central (equilibria) or forward
 * (cycles: one variational shooting per column) differences of G.
 *
 * Test functions stored at every point and located where they change sign:
 *  - fold curve: test1 = <w, v> (unit null vectors): zero at a
 *    Bogdanov-Takens point; test2 = <w, B(v, v)>/2, the quadratic normal-form
 *    coefficient: zero at a cusp (analysis/normal_form.h for B);
 *  - Hopf curve: test1 = kappa = omega^2: zero at a Bogdanov-Takens point,
 *    where the curve ends; test2 = l1, the first Lyapunov coefficient: zero
 *    at a Bautin (generalized Hopf) point;
 *  - Neimark-Sacker curve: test1 = kappa = cos theta, test2 = theta (rad,
 *    NaN where |kappa| > 1: a neutral saddle); the strong resonances 1:1,
 *    1:2, 1:3, 1:4 where kappa = 1, -1, -1/2, 0 (1:1 and 1:2 also where the
 *    pair turns through 1 or -1 without becoming real);
 *  - fold-of-cycles curve: test1 = det(M + I): zero at a fold-flip point (a
 *    multiplier passes -1); test2 = <w, D^2F(v, v)>/2, F the shooting
 *    equations (with the phase condition), v, w the unit null vectors of its
 *    Jacobian, by differences of two shootings: zero at a cusp of cycles;
 *  - period-doubling curve: test1 = det of the fold's matrix (M - I,
 *    bordered by f and the section when autonomous): zero at a fold-flip
 *    point (a multiplier +1 beside the -1); test2 NaN.
 * User points: where p1 or p2 takes a given value.
 *
 * The curve is followed from the start in both directions (or one) until
 * it leaves the box [min1, max1] x [min2, max2] (the end landed on exactly),
 * after max_points points each way, when the step falls below ds_min, or at
 * a Bogdanov-Takens point (Hopf curve). Nothing here prints. */
#ifndef CS_ANALYSIS_CONTINUATION2_H
#define CS_ANALYSIS_CONTINUATION2_H

#include <stddef.h>

#include "analysis/continuation.h"

#ifdef __cplusplus
extern "C" {
#endif

enum cs_curve_kind {
  CS_CURVE_FOLD,            /* fold of equilibria */
  CS_CURVE_HOPF,            /* Hopf of equilibria */
  CS_CURVE_FOLD_CYCLES,     /* fold of cycles (LPC) */
  CS_CURVE_PERIOD_DOUBLING, /* period doubling (PD) */
  CS_CURVE_NEIMARK_SACKER,  /* Neimark-Sacker (torus, NS) of cycles */
  CS_CURVE_GRAZING          /* event-driven cycles: a switching function touched (grazing) */
};

/* "fold", "hopf", "fold-of-cycles", "period-doubling", "neimark-sacker",
 * "grazing" */
CS_API const char *cs_curve_name(enum cs_curve_kind k);

#define CS_CODIM2_LIST(X)                                                               \
  X(CS_CODIM2_BT, "bogdanov-takens")         /* fold meets Hopf: omega -> 0 */          \
  X(CS_CODIM2_CUSP, "cusp")                  /* fold: quadratic coefficient 0 */        \
  X(CS_CODIM2_BAUTIN, "bautin")              /* Hopf: first Lyapunov coefficient 0 */   \
  X(CS_CODIM2_USER, "user")                  /* a user point: p1 or p2 at a value */    \
  X(CS_CODIM2_START, "start")                /* the special point the curve began at */ \
  X(CS_CODIM2_END, "end")                    /* where the curve ended (see the note) */ \
  X(CS_CODIM2_R1, "resonance-1:1")           /* NS: theta = 0, meets a fold (LPC) */    \
  X(CS_CODIM2_R2, "resonance-1:2")           /* NS: theta = pi, meets a PD */           \
  X(CS_CODIM2_R3, "resonance-1:3")           /* NS: theta = 2 pi/3 */                   \
  X(CS_CODIM2_R4, "resonance-1:4")           /* NS: theta = pi/2 */                     \
  X(CS_CODIM2_FOLD_FLIP, "fold-flip")        /* cycles: multipliers +1 and -1 */        \
  X(CS_CODIM2_CUSP_CYCLES, "cusp-of-cycles") /* fold of cycles: quadratic coefficient 0 */

enum cs_codim2_kind {
#define CS_CODIM2_ENUM(id, name) id,
  CS_CODIM2_LIST(CS_CODIM2_ENUM)
#undef CS_CODIM2_ENUM
      CS_CODIM2_COUNT
};

CS_API const char *cs_codim2_name(enum cs_codim2_kind k);

#define CS_CURVE_MAX_USER 32

struct cs_curve_spec {
  int param2;                /* index of p2 (p1: the workspace's parameter) */
  double min1, max1;         /* the box, units of p1 */
  double min2, max2;         /* units of p2 */
  double ds, ds_min, ds_max; /* scaled arclength: parameters in units of the box */
  size_t max_points;         /* points each way at most */
  int max_iter;              /* corrector iterations per step */
  int direction;             /* 0 both ways; +1 (-1): p2 increasing (decreasing) first only */
  double locate_tol;         /* codim-2 and user points: arclength interval (scaled) */
  struct cs_orbit_opts orbit;
  size_t n_user;
  int user_param[CS_CURVE_MAX_USER]; /* 1: p1, 2: p2 */
  double user_value[CS_CURVE_MAX_USER];
};

/* ds 0.01, ds_min 1e-8, ds_max 0.05, 200 points each way, max_iter 10, both
 * directions, locate_tol 1e-10; the box and param2 must be set. */
CS_API struct cs_curve_spec cs_curve_spec_default(void);

struct cs_curve_point {
  double p1, p2;
  double y[CS_BRANCH_MAX_N]; /* equilibrium, or the cycle's section point */
  double period;             /* cycles; NaN for equilibria */
  double omega;              /* Hopf: sqrt(kappa) (rad per time unit); else NaN */
  double test[2];            /* the curve's test functions (see above) */
  double l1_err;             /* Hopf: error estimate of test[1] = l1; else NaN */
  size_t n_eig;              /* eigenvalues (by real part) or nontrivial multipliers */
  double re[CS_BRANCH_MAX_N], im[CS_BRANCH_MAX_N];
  int n_unstable;
  int iterations; /* corrector iterations */
  double ds;      /* the step that led here (negative: traced backwards from the start) */
};

struct cs_curve_special {
  enum cs_codim2_kind kind;
  size_t after; /* the curve row before it */
  struct cs_curve_point pt;
  char note[200];
};

/* A curve, from one end to the other; free with cs_curve_free. */
struct cs_curve {
  enum cs_curve_kind kind;
  size_t n; /* state dimension */
  size_t n_points, cap_points;
  struct cs_curve_point *points;
  size_t n_special, cap_special;
  struct cs_curve_special *special;
  size_t start_row;       /* the row of the starting point */
  enum cs_status status;  /* CS_OK when both ends are normal (box, points, BT) */
  char end_note[600];     /* why each end ended */
  long evaluations;       /* evaluations of G (each a shooting for cycles; not counted: a
                             point's analysis, one shooting, and on fold-of-cycles curves
                             two more for the cusp test) */
  long newton_iterations; /* corrector iterations */
};

CS_API void cs_curve_free(struct cs_curve *c);

/* Continues the special point sp of a one-parameter branch (kind fold or
 * hopf of an equilibrium branch for CS_CURVE_FOLD / CS_CURVE_HOPF; fold,
 * period-doubling or neimark-sacker of a cycle branch for the cycle curves,
 * neimark-sacker of an autonomous model only; a forced model's cycle point
 * is its state at t = 0, a whole number of forcing periods) in (p1, p2).
 * ws: the workspace of the branch (p1 its parameter); params_unprepared:
 * the model's parameters as read, p2 at its starting value (copied; p2 is
 * set in a copy). Returns CS_OK (the curve may have ended early:
 * end_note), CS_ERR_ARG for a wrong start or spec, CS_ERR_UNSUPPORTED
 * (event-driven model for cycle curves, a Neimark-Sacker curve of a forced
 * model, no analytic Jacobian), CS_ERR_NOCONV when the start does not
 * converge, CS_ERR_NOMEM. */
CS_API enum cs_status cs_continue_curve(struct cs_orbit_ws *ws, const void *params_unprepared,
                                        const struct cs_curve_spec *spec, enum cs_curve_kind kind,
                                        const struct cs_special *sp, struct cs_curve *out);

#ifdef __cplusplus
}
#endif

#endif
