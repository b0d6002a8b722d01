/* SPDX-License-Identifier: MIT */
/* Branches of equilibria and periodic orbits in one model parameter, by
 * pseudo-arclength continuation (Keller), so that folds are passed, not
 * stopped at; special points detected by test functions and located by
 * bisection with secant steps.
 *
 * Unknowns X and equations G(X) = 0, one fewer than unknowns:
 *  - equilibria: X = (y, p), G = f(0, y; p);
 *  - cycles of an autonomous model: X = (y0, T, p), G = the shooting
 *    equations of analysis/orbit.h (phi_T(y0) - y0, s(y0) - level);
 *  - cycles of a forced model: X = (y0, p), T = k Tf(p), G = phi(y0) - y0.
 * Scaled unknowns X^_i = X_i / sigma_i: the parameter in units of the branch's
 * range (p_max - p_min), the period in units of the first one, each state in
 * units of its range over the orbits met so far (equilibria: its magnitude),
 * never below atol_i / rtol (where the tolerance treats it as small). Step ds
 * is arclength in X^; ds_min, ds_max bound it, and step_max bounds the change
 * of the parameter per step (its unit).
 *
 * A step: predictor X_k + ds t_k + ds^2/2 (t_k - t_{k-1})/ds_{k-1} (t_k the
 * unit tangent; the second term the tangent's change over the step before),
 * corrector Newton on
 *   G(X) = 0,  t_k . (X^ - X^_k) = ds
 * with the bordered Jacobian [G_X sigma; t_k^T] (GSL LU), accepted when the
 * correction is at most newton_tol tolerance units (as in orbit.h). Cycles of
 * smooth models first take chord iterations: shootings without the
 * variational equations (n instead of n (n + 2) equations) against the
 * Jacobian of the last converged point, improved by Broyden's rank-one
 * update, up to 6 while each correction shrinks by half, until one is within
 * newton_tol; the Newton iteration that follows (its monodromy matrix gives
 * the multipliers, the tangent and the test functions) checks the point. The
 * new tangent solves [G_X sigma; t_k^T] t = (0, 1) (the same matrix),
 * normalised: its orientation follows the branch through folds. A step is
 * retried with ds/2 when Newton fails within max_iter iterations or the
 * tangent turns by more than 30 degrees (or the period by more than half);
 * after 3 or fewer iterations ds grows by 1.5, after more than 5 it shrinks
 * by 0.7 (two chord iterations count as one). The branch
 * ends at p_min / p_max (landed on exactly, by a Newton step at fixed p), after
 * max_points points, when ds falls below ds_min, when the period exceeds
 * period_max (e.g. towards a homoclinic orbit), or at a special point asked
 * for (stop_after: the first fold, the second period doubling, ...).
 *
 * Cycles on a hyperplane section: the phase condition s(y0) = level does not
 * fix the crossing direction. Where the section becomes tangent to the orbit
 * (two crossings merge) the point would slide onto a crossing against the
 * section's direction and the branch would trace the same orbits back: the
 * point is re-anchored on the orbit's next crossing in the direction (Newton
 * at fixed p) and the branch goes on. Where the cycles shrink to an
 * equilibrium (their size falls below 5% of the largest met), the branch
 * ends at that equilibrium's Hopf point, located on its own equilibrium
 * branch; a flipped crossing of a small cycle (below 25%) is taken for a step
 * through that Hopf point and retried with a smaller step.
 *
 * Test functions, evaluated at every point; a sign change between two points
 * is located by regula falsi (Anderson-Bjorck; each trial at least half the
 * wanted bracket width inside the bracket) in the arclength s from the first
 * of them, each trial a corrector solve from the nearer end of the bracket
 * along its tangent, until the parameter interval is below locate_tol; the
 * located point is the bracket's end nearer the root:
 *  - fold (of equilibria or cycles): the parameter component of the tangent
 *    (ignored where it stays below 1e4 rtol on both sides: its sign is noise
 *    where the branch is perpendicular to the parameter, e.g. near a Hopf
 *    point, and on the first step from a Hopf point);
 *  - Hopf (equilibria): prod_{i<j} (l_i + l_j) over the eigenvalues (zero when
 *    a pair l, -l is on the imaginary axis); accepted when the located pair
 *    is complex (otherwise a neutral saddle, not reported);
 *  - period doubling: prod_i (m_i + 1) over the nontrivial multipliers;
 *  - Neimark-Sacker: prod_{i<j} (m_i m_j - 1); located only where the number
 *    of complex multipliers outside the unit circle (or of unstable ones by
 *    two) changes, accepted when the located pair is complex with modulus 1
 *    (otherwise a neutral saddle);
 *  - event-driven models: the sequence of mode switches along the period
 *    changes (a stick phase appears or goes: "grazing" when the number of
 *    switches changes, "sliding" when only their kinds do): bisection on where
 *    the sequence changes. The multipliers jump there: the smooth test
 *    functions are not compared across it. Where the new switch cannot be
 *    crossed (the branch ends: near a grazing the shooting becomes singular,
 *    e.g. the unregularized law near lambda_s = 0), the grazing is reported
 *    at the end when the orbit's margin to the switch (cs_orbit_graze) has
 *    fallen below 1e-2, its parameter extrapolated linearly from the margins
 *    of the last two points.
 * At a located period doubling the branch switches, on request, to the
 * doubled cycle: period 2T (or 2k forcing periods), predictor y* + h v along
 * the eigenvector v of the multiplier -1, a corrector orthogonal to the old
 * branch.
 *
 * Nothing here prints; one continuation uses one struct cs_orbit_ws. */
#ifndef CS_ANALYSIS_CONTINUATION_H
#define CS_ANALYSIS_CONTINUATION_H

#include <stddef.h>

#include "analysis/orbit.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_BRANCH_MAX_N CS_ORBIT_MAX_N
#define CS_BRANCH_MAX_USER 32

enum cs_branch_kind {
  CS_BRANCH_EQUILIBRIUM, /* X = (y, p) */
  CS_BRANCH_CYCLE        /* X = (y0, T, p) or (y0, p) */
};

/* Special points, in the order of the names cs_special_name() gives. */
#define CS_SPECIAL_LIST(X)                                                                     \
  X(CS_SPECIAL_FOLD, "fold")                       /* limit point: the branch turns back */    \
  X(CS_SPECIAL_HOPF, "hopf")                       /* equilibria: a complex pair at +-i w */   \
  X(CS_SPECIAL_PERIOD_DOUBLING, "period-doubling") /* cycles: a multiplier at -1 */            \
  X(CS_SPECIAL_NEIMARK_SACKER, "neimark-sacker")   /* cycles: a complex pair on |m| = 1 */     \
  X(CS_SPECIAL_GRAZING, "grazing")                 /* event-driven: switches appear/go */      \
  X(CS_SPECIAL_SLIDING, "sliding")                 /* event-driven: switch kinds change */     \
  X(CS_SPECIAL_BRANCH_SWITCH, "branch-switch")     /* start of the doubled cycle's branch */   \
  X(CS_SPECIAL_END, "end")                         /* where the branch ended (see end_note) */ \
  X(CS_SPECIAL_USER, "user")                       /* a user point: p at a given value */

enum cs_special_kind {
#define CS_SPECIAL_ENUM(id, name) id,
  CS_SPECIAL_LIST(CS_SPECIAL_ENUM)
#undef CS_SPECIAL_ENUM
      CS_SPECIAL_COUNT
};

CS_API const char *cs_special_name(enum cs_special_kind k);

/* What to continue and how; start from cs_continue_spec_default(). */
struct cs_continue_spec {
  int direction;              /* +1: first step towards increasing p, -1 decreasing */
  double p_min, p_max;        /* the branch ends there (parameter unit) */
  double ds, ds_min, ds_max;  /* scaled arclength steps (see above) */
  double step_max;            /* largest change of p per step, parameter unit; 0: no bound */
  size_t max_points;          /* points of the branch at most (start included) */
  int max_iter;               /* corrector iterations per step */
  double locate_tol;          /* special points located to this in p; 0: 1e-9 (p_max - p_min) */
  int locate;                 /* 1: detect and locate special points */
  int switch_pd;              /* 1: switch to the doubled cycle at each period doubling */
  double period_max;          /* end when the period exceeds this; 0: 100 times the first */
  double hopf_amplitude;      /* first cycle from a Hopf point: its size relative to the
                                 equilibrium's (max_i |dy_i| / max(|y_i|, atol_i/rtol)) */
  int stop_at_hopf;           /* equilibria: end the branch at the first Hopf point */
  struct cs_orbit_opts orbit; /* shooting: solver, section, newton_tol, returns */
  size_t n_user;              /* user points: where p takes these values (located exactly) */
  double user_value[CS_BRANCH_MAX_USER];
  /* end the branch at the stop_after[k]-th special point of kind k located
   * (0: not at any; AUTO's STOP): after the step that located it, which is
   * the branch's last point, with an "end" special point saying why */
  size_t stop_after[CS_SPECIAL_COUNT];
};

/* direction +1, ds 0.01, ds_min 1e-8, ds_max 0.2, step_max 0, 200 points,
 * max_iter 8, locate on, switch_pd off, hopf_amplitude 1e-3; p_min/p_max
 * must be set. */
CS_API struct cs_continue_spec cs_continue_spec_default(void);

/* One point of a branch. */
struct cs_branch_point {
  int segment;                  /* 0, then 1, 2, ... after each branch switch */
  double p;                     /* parameter value, parameter unit */
  double period;                /* cycles: T (model time unit); equilibria: NAN */
  int returns;                  /* cycles: section returns / forcing periods per period */
  double y[CS_BRANCH_MAX_N];    /* cycles: the point on the section; equilibria: the state */
  double ymin[CS_BRANCH_MAX_N]; /* cycles: extremes over one period; equilibria: y */
  double ymax[CS_BRANCH_MAX_N];
  size_t n_eig;               /* nontrivial multipliers, or eigenvalues */
  double re[CS_BRANCH_MAX_N]; /* multipliers (by modulus) or eigenvalues (by real part, */
  double im[CS_BRANCH_MAX_N]; /* 1/time unit), largest first */
  double trivial_err;         /* autonomous cycles: |trivial multiplier - 1|, else NAN */
  int n_unstable;             /* |m| > 1 (beyond the accuracy of the moduli), or Re l > 0 */
  int n_marginal;             /* cycles: |m| within that accuracy of 1: no side (stable = 0) */
  double tangent_p;           /* parameter component of the unit tangent (scaled) */
  size_t switches;            /* event-driven cycles: mode switches per period */
  double graze;   /* event-driven cycles: how close a switch not made comes (cs_orbit_graze's
                     margin, relative); else NAN */
  int iterations; /* corrector iterations of this point */
  double ds;      /* the step that led here */
};

/* A special point. */
struct cs_special {
  enum cs_special_kind kind;
  size_t after;              /* index of the branch point before it */
  struct cs_branch_point pt; /* the located point (its multipliers / eigenvalues) */
  double omega;              /* Hopf: imaginary part of the critical pair (rad per time
                                unit); Neimark-Sacker: argument of the pair (rad); else 0 */
  double l1;                 /* Hopf: the first Lyapunov coefficient (analysis/normal_form.h;
                                < 0 supercritical, > 0 subcritical); else NaN */
  double l1_err;             /* Hopf: its error estimate; else NaN */
  char note[160];            /* e.g. "neutral saddle", how it was located */
};

/* A branch; free with cs_branch_free. */
struct cs_branch {
  enum cs_branch_kind kind;
  int autonomous;
  size_t n; /* state dimension */
  size_t n_points, cap_points;
  struct cs_branch_point *points;
  size_t n_special, cap_special;
  struct cs_special *special;
  enum cs_status status;  /* CS_OK when it ended normally (range, points) */
  char end_note[256];     /* why it ended */
  long shootings;         /* shootings with the variational equations (cycles) or Jacobian
                             evaluations (equilibria) */
  long newton_iterations; /* corrector iterations over the whole branch (chord and Newton) */
};

CS_API void cs_branch_free(struct cs_branch *b);

/* An interval of the parameter, lo <= hi (parameter unit). */
struct cs_param_range {
  double lo, hi;
};

/* Equilibria from (p0, y_guess): Newton at p0 first (GSL, as
 * cs_equilibrium_find), then the branch. Returns CS_OK (the branch may have
 * ended early: see end_note), CS_ERR_NOCONV when no equilibrium is found at
 * p0, CS_ERR_UNSUPPORTED for a forced model, CS_ERR_NOMEM, CS_ERR_ARG. */
CS_API enum cs_status cs_continue_equilibria(struct cs_orbit_ws *ws,
                                             const struct cs_continue_spec *spec, double p0,
                                             const double *y_guess, struct cs_branch *out);

/* Cycles from a state: the orbit through (t0, y_guess) with period guess
 * T_guess at p0 (cs_orbit_find), then the branch. */
CS_API enum cs_status cs_continue_cycles(struct cs_orbit_ws *ws,
                                         const struct cs_continue_spec *spec, double p0, double t0,
                                         const double *y_guess, double T_guess,
                                         struct cs_branch *out);

/* Cycles from a Hopf point (a special point of an equilibrium branch): the
 * first cycle from the eigenvector of the critical pair, small amplitude
 * (hopf_amplitude), period 2 pi/omega; then the branch, in the direction in
 * which the amplitude grows. The section must pass through the equilibrium
 * (its level at the section variable's value there), else CS_ERR_ARG with a
 * note saying which level would. */
CS_API enum cs_status cs_continue_cycles_from_hopf(struct cs_orbit_ws *ws,
                                                   const struct cs_continue_spec *spec,
                                                   const struct cs_special *hopf,
                                                   struct cs_branch *out);

#ifdef __cplusplus
}
#endif

#endif
