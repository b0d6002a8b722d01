/* SPDX-License-Identifier: MIT */
/* Periodic orbits by single shooting: the orbit through a point of a Poincaré
 * section, its period, its monodromy matrix and Floquet multipliers, for every
 * model (smooth, or event-driven with mode switches).
 *
 * Unknowns and equations (Newton, GSL's LU):
 *  - autonomous models (forcing_period 0), hyperplane section s(y) = level
 *    (a state or a derived output; the model's default or [section]):
 *    unknowns (y0, T), equations
 *        phi_T(y0) - y0 = 0        (n; angle states modulo 2 pi)
 *        s(y0) - level   = 0        (the phase condition: y0 on the section)
 *    Jacobian [[M - I, f(phi_T(y0))], [grad s, 0]], M = d phi_T / d y0 the
 *    monodromy matrix. y0 is then a fixed point of the Poincaré map of the
 *    section, the section coordinates a sweep records.
 *  - forced models (forcing_period Tf > 0): the stroboscopic map over
 *    T = k Tf from t0 (a multiple of Tf): unknowns y0, equations
 *    phi_{t0, t0 + T}(y0) - y0 = 0, Jacobian M - I.
 * With a continuation parameter p the Jacobian gains the column d phi/dp
 * (analysis/continuation.h).
 *
 * Monodromy matrix: the variational equations Phi' = J Phi (J the model's
 * analytic Jacobian, else central differences) and, with a parameter, v' = J v
 * + f_p (f_p by central differences of the right-hand side at p +- dp,
 * dp = 1e-6 max(|p|, range/1000)), integrated with the state by ARKODE
 * (src/integrate) as one system of n (n + 2) equations: the variational
 * components are under error control too, with absolute tolerances
 * atol_i / scale_j (scale_j = max(|y0_j|, atol_j/rtol)), so that the
 * multipliers are as accurate as the orbit. Event-driven models: the
 * switching functions are the integrator's root functions; at each switch the
 * model's reset is applied and Phi and v jump by the saltation matrix
 * (analysis/saltation.h). The implicit stepper's Newton matrix of this system
 * has J on its diagonal blocks and, for event-driven models, the derivatives
 * of J Phi in y (central differences of the model's Jacobian); see
 * cs_orbit_shoot in orbit.c for why and the fallback. For event-driven laws
 * at tight tolerances the explicit stepper was measured ~50x faster (figure
 * 8's pendulum, rtol 1e-10: 2.7 s against 2 min for a 21-point branch).
 *
 * Convergence: Newton stops when the correction is at most newton_tol units
 * of the solver tolerance in every unknown (|dy_i| <= newton_tol (rtol |y_i| +
 * atol_i), |dT| <= newton_tol rtol T): the shooting map is known only to the
 * integration error, so a smaller correction would be noise. The default
 * newton_tol = 10 leaves the orbit within about 10 tolerance units of the
 * integrator's own periodic solution. The multipliers are those of the last
 * monodromy matrix (at the point before the last correction).
 *
 * Multipliers: eigenvalues of M (GSL's gsl_eigen_nonsymmv), sorted by
 * modulus, largest first. For an autonomous model one of them is 1 exactly
 * (the eigenvector f(y0): a shift along the orbit); the real eigenvalue
 * closest to 1 is reported separately as the trivial multiplier, and its
 * distance from 1 measures the accuracy of M. Stability: stable when every
 * other multiplier has modulus < 1. Stick phases of event-driven orbits make
 * M singular: their zero multipliers are genuine (stick forgets the
 * velocities).
 *
 * Units: states in the model's units, times (t0, T) in its time unit,
 * multipliers dimensionless.
 *
 * A workspace belongs to one thread; nothing here prints or keeps static
 * mutable state. */
#ifndef CS_ANALYSIS_ORBIT_H
#define CS_ANALYSIS_ORBIT_H

#include <stddef.h>

#include "core/status.h"
#include "integrate/integrate.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_ORBIT_MAX_N 16        /* largest state dimension */
#define CS_ORBIT_MAX_SWITCHES 64 /* mode switches per period kept in struct cs_orbit */

/* How to shoot; start from cs_orbit_opts_default(). */
struct cs_orbit_opts {
  struct cs_integrator_opts solver; /* stepper and tolerances of every shooting integration */
  struct cs_section_spec section;   /* autonomous: the hyperplane of the phase condition (variable
                                       NULL or "": the model's default); forced: ignored
                                       (stroboscopic) */
  int returns;       /* section returns (autonomous) or forcing periods (forced) per period, >= 1 */
  double newton_tol; /* accepted correction, in units of the solver tolerance (> 0) */
  int max_iter;      /* Newton iterations at most */
  double search;     /* time searched for section crossings after the transient (model unit) */
  double max_residual0; /* > 0: give up when the guess's first residual exceeds this, in units
                           of the solver tolerance (no orbit near it); 0: no bound */
};

/* ERK rtol 1e-9 atol 1e-11, the model's section, returns 1, newton_tol 10,
 * max_iter 30, search 1000, no bound on the first residual. */
CS_API struct cs_orbit_opts cs_orbit_opts_default(void);

/* A periodic orbit. */
struct cs_orbit {
  int converged;            /* 1: Newton converged (the rest is meaningful) */
  size_t n;                 /* state dimension */
  int autonomous;           /* 1: hyperplane phase condition, period unknown */
  double p;                 /* value of the workspace's parameter, NAN if none */
  double t0;                /* start time: 0, or a multiple of the forcing period */
  double y[CS_ORBIT_MAX_N]; /* the orbit's point on the section, model units */
  double period;            /* T, model time unit */
  double mono[CS_ORBIT_MAX_N * CS_ORBIT_MAX_N]; /* monodromy matrix, row-major */
  size_t n_mult;                  /* nontrivial multipliers: n - 1 (autonomous) or n */
  double mult_re[CS_ORBIT_MAX_N]; /* their real parts, by decreasing modulus */
  double mult_im[CS_ORBIT_MAX_N]; /* imaginary parts (a pair: +, then -) */
  double trivial_re, trivial_im;  /* autonomous: the multiplier identified with 1, else NAN */
  double trivial_err;             /* |trivial - 1|, NAN for forced models */
  int n_unstable;                 /* nontrivial multipliers of modulus > 1 + mult_tol */
  int n_marginal;    /* nontrivial multipliers within mult_tol of the unit circle: their side is
                      * below the monodromy matrix's accuracy (next to a Hopf point, a fold...) */
  double mult_tol;   /* max(100 rtol, 10 trivial_err): the accuracy of the moduli */
  int iterations;    /* Newton iterations (shootings) */
  double correction; /* last Newton correction, solver tolerance units */
  double residual;   /* |phi_T(y0) - y0| at the last shooting, same units */
  size_t switches;   /* mode switches per period (event-driven models) */
  int switch_kind[CS_ORBIT_MAX_SWITCHES]; /* their kinds in order (first CS_ORBIT_MAX_SWITCHES) */
  double winding[CS_ORBIT_MAX_N];         /* full turns per period of each angle state (else 0) */
  long steps;                             /* integrator steps of all shootings */
  char note[256];                         /* why not converged, else "" */
};

struct cs_orbit_ws;

/* A workspace for model m with the parameters params_unprepared (as read
 * from a file, before prepare: struct cs_config's params_unprepared; copied).
 * param: index of a parameter the orbit will be continued in
 * (cs_orbit_ws_set_param), or -1. The params are prepared (and attached) at
 * once. NULL on failure, with the reason in cs_errmsg(). */
CS_API struct cs_orbit_ws *cs_orbit_ws_create(const struct cs_model *m,
                                              const void *params_unprepared, int param);
CS_API void cs_orbit_ws_free(struct cs_orbit_ws *ws);

/* A starting guess: from (t0, y0), integrates transient time units, then, for
 * an autonomous model, on to the first crossing of the section in its
 * direction (the guess) and on to the opts->returns-th crossing after it (the
 * period guess), within opts->search; for a forced model, to the first
 * multiple of the forcing period at or after t0 + transient, and T =
 * returns Tf. CS_ERR_NOT_FOUND (the reason in cs_errmsg()) if the section is not
 * crossed often enough (e.g. the state settled to an equilibrium); integrator
 * failures as in cs_flow_advance. */
CS_API enum cs_status cs_orbit_guess(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts,
                                     double t0, const double *y0, double transient, double *t_guess,
                                     double *y_guess, double *T_guess);

/* Newton from (t0, y_guess, T_guess) (T_guess ignored for forced models)
 * at the current parameter; out is always filled (converged = 0 and a note
 * on failure). For an autonomous model with a section direction, a point on
 * the other crossing is moved to the crossing in the section's direction.
 * Returns CS_OK (converged), CS_ERR_NOCONV, CS_ERR_SINGULAR (M - I
 * bordered is singular, e.g. at an equilibrium), an integrator status, or
 * CS_ERR_ARG / CS_ERR_UNSUPPORTED (stroboscopic section of an autonomous
 * model, n_state > CS_ORBIT_MAX_N). */
CS_API enum cs_status cs_orbit_find(struct cs_orbit_ws *ws, const struct cs_orbit_opts *opts,
                                    double t0, const double *y_guess, double T_guess,
                                    struct cs_orbit *out);

/* ----------------------------------------------------- building blocks */

/* One shooting from (t0, y0) over T at the current parameter: the end state,
 * the monodromy matrix, and (with_param) d phi / dp. */
struct cs_orbit_shot {
  double y[CS_ORBIT_MAX_N];                  /* phi_T(y0) */
  double f[CS_ORBIT_MAX_N];                  /* the vector field there (mode at the end) */
  double M[CS_ORBIT_MAX_N * CS_ORBIT_MAX_N]; /* d phi_T / d y0, row-major */
  double yp[CS_ORBIT_MAX_N];                 /* d phi_T / dp (0 without with_param) */
  size_t switches;                           /* mode switches on the way */
  int switch_kind[CS_ORBIT_MAX_SWITCHES];    /* the first ones' kinds */
  long steps;                                /* integrator steps */
};

/* Multipliers of the monodromy matrix M (n x n, row-major) into out
 * (mult_*, trivial_*, n_unstable; autonomous as out->autonomous says);
 * with vec, the real eigenvector (n values) of the multiplier closest to
 * target (e.g. -1). CS_ERR_SINGULAR if the eigensolver fails. */
CS_API enum cs_status cs_orbit_multipliers(struct cs_orbit_ws *ws, const double *M,
                                           struct cs_orbit *out, double target, double *vec);

#ifdef __cplusplus
}
#endif

#endif
