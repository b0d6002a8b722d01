/* SPDX-License-Identifier: MIT */
/* Equilibria of a model and their linear stability, independent of
 * simulation: Newton's method (GSL's scaled Powell hybrid) on f(t = 0, y) = 0,
 * the eigenvalues of the Jacobian there (GSL's non-symmetric eigensolver with
 * balancing), and, along a parameter, the values where the stability changes:
 * the largest real part of the eigenvalues, max_re(p), crosses zero (a Hopf
 * point when it belongs to a complex pair, a real eigenvalue otherwise), or
 * the equilibrium ceases to exist at a fold. The simulation side (attractor
 * classification, analysis/point.h) is independent; a sweep can run both and
 * compare.
 *
 * Units: states in the model's units; eigenvalues in 1/(model time unit)
 * (1/s for SI models, imaginary parts in rad per time unit); parameter values
 * in the parameter's unit.
 *
 * Scaled norms: a state difference d is measured as max_j |d_j| / max(|y_j|, 1)
 * and the residual of f at y as
 *   r(y) = max_i |f_i(0, y)| / sum_j |J_ij(y)| max(|y_j|, 1),
 * roughly the size of the Newton correction still needed, in the same scaled
 * state units. An equilibrium is accepted when r <= CS_EQ_RESIDUAL_TOL.
 *
 * Angles: states with struct cs_var_desc angle = 1 are wrapped into
 * (-pi, pi] when the wrapped state is an equilibrium too, i.e. when f is
 * 2 pi-periodic in them (the pendulum's phi); an angle restrained
 * elastically (the belt's phi, held by cords) is left as it is.
 *
 * Models without an analytic Jacobian (m->jac NULL) use GSL's unscaled-
 * Jacobian variant (hybrids, forward differences) for Newton and a
 * Richardson-extrapolated central difference (error O(h^4)) for the
 * eigenvalues and the residual.
 *
 * Not supported (CS_ERR_UNSUPPORTED with a note): time-periodic forcing
 * (m->forcing_period(params) > 0: there are no equilibria, look for fixed
 * points of the stroboscopic map instead).
 *
 * Event-driven models (m->n_switch > 0; e.g. the belt, whose switching
 * function is inactive for the regularized law): the equilibrium is sought
 * for the right-hand side of the mode stored in params (after prepare: the
 * model's initial mode, e.g. slip). It is accepted only where every switching
 * function is away from zero (|g_k| > CS_EQ_SWITCH_TOL): there the flow near
 * it stays in that mode, so it is an equilibrium of the hybrid system and the
 * mode's Jacobian gives its stability. Equilibria on a switching surface
 * (e.g. in stick) are not supported: they count as not found (with a note
 * that says so).
 *
 * Nothing here prints, allocates in a right-hand side or keeps static
 * mutable state: distinct calls may run on distinct threads (each crossing or
 * scan works on its own copy of the parameters). */
#ifndef CS_ANALYSIS_EQUILIBRIUM_H
#define CS_ANALYSIS_EQUILIBRIUM_H

#include <stddef.h>

#include "core/status.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_EQ_MAX_N 16           /* largest state dimension */
#define CS_EQ_RESIDUAL_TOL 1e-9  /* accepted scaled residual r(y), see above */
#define CS_EQ_MAX_ITERATIONS 200 /* Newton iterations per start */
#define CS_EQ_SWITCH_TOL 1e-12   /* |g_k| at or below this: on a switching surface */

/* An equilibrium and its linear stability. */
struct cs_equilibrium {
  int found;              /* 1: y is an equilibrium (scaled residual <= CS_EQ_RESIDUAL_TOL) */
  size_t n;               /* state dimension, m->n_state */
  double y[CS_EQ_MAX_N];  /* the equilibrium, model units; angles wrapped (see above) */
  double re[CS_EQ_MAX_N]; /* real parts of the Jacobian's eigenvalues, 1/time unit, descending */
  double im[CS_EQ_MAX_N]; /* imaginary parts (a complex pair: +w first, then -w) */
  double max_re;          /* re[0]: < 0 linearly stable, > 0 unstable; NAN when not found */
  int max_is_complex;     /* 1 if re[0] belongs to a complex pair (im[0] != 0) */
  int iterations;         /* Newton iterations of the start that converged */
  int start;              /* which start converged: 0 the guess, > 0 a restart (see _find) */
  double residual;        /* scaled residual r(y) at y; not found: where Newton from the guess
                             ended (y holds the guess then); NAN if never evaluated */
  char note[128];         /* why not found or not supported, else "" */
};

/* Finds an equilibrium of model m with prepared (and, if the model has
 * attach, attached) params near guess (n_state values; NULL: the model's
 * state_default), then its eigenvalues.
 * Starts, in this order until one converges: the guess, the model's
 * state_default, their midpoint, the guess scaled by 0.5 and by 2, zero;
 * CS_EQ_MAX_ITERATIONS iterations each. out->start says which converged.
 * Returns CS_OK with out->found = 1; CS_ERR_NOCONV with found = 0 and the
 * note "no equilibrium found near the guess (the model may have none at these
 * parameters)" when no start converges; CS_ERR_SINGULAR (found = 1, the
 * equilibrium is kept, eigenvalues NAN) if the eigensolver fails;
 * CS_ERR_UNSUPPORTED (a forced model, see above); CS_ERR_ARG for
 * NULL arguments or a non-finite guess; CS_ERR_RANGE if n_state >
 * CS_EQ_MAX_N; CS_ERR_NOMEM. out is always filled (found = 0, max_re = NAN
 * and a note on failure). */
CS_API enum cs_status cs_equilibrium_find(const struct cs_model *m, const void *params,
                                          const double *guess, struct cs_equilibrium *out);

/* Eigenvalues of the Jacobian at a given state y (not necessarily an
 * equilibrium), sorted as in struct cs_equilibrium; fills out->y, re, im,
 * max_re, max_is_complex and residual, sets found = 0, iterations = 0.
 * CS_ERR_SINGULAR if the eigensolver fails; the model's rhs/jac failures give
 * CS_ERR_NONFINITE; CS_ERR_UNSUPPORTED, CS_ERR_ARG, CS_ERR_RANGE as above. */
CS_API enum cs_status cs_equilibrium_eigen(const struct cs_model *m, const void *params,
                                           const double *y, struct cs_equilibrium *out);

/* Kinds of stability change along a parameter. */
enum cs_eq_kind {
  CS_EQ_NONE = 0, /* not located (see the crossing's status and note) */
  CS_EQ_HOPF = 1, /* a complex pair crosses the imaginary axis: a periodic orbit is born */
  CS_EQ_FOLD = 2  /* a real eigenvalue crosses zero: a fold (saddle-node) where the branch
                     ends (branch_ends = 1), else a branch point (transcritical, pitchfork) */
};

/* A located stability change. */
struct cs_eq_crossing {
  enum cs_status status;    /* CS_OK, or why it could not be located (then kind = CS_EQ_NONE) */
  enum cs_eq_kind kind;     /* see above */
  double p;                 /* the parameter value p*, in the parameter's unit */
  double p_lo, p_hi;        /* final bracket, p_lo <= p* <= p_hi, p_hi - p_lo <= tol on success */
  int branch_ends;          /* 1: no equilibrium on one side of p* (a fold), 0: it continues */
  int stable_side;          /* -1 stable for p < p*, +1 stable for p > p*, 0 unstable on both
                               sides (a fold of an already unstable branch) */
  double omega;             /* Hopf: |im| of the critical pair, rad per time unit (the new
                               orbit's period is about 2 pi/omega near p*); fold: 0 */
  struct cs_equilibrium eq; /* the equilibrium at p* (for a fold: the last one that exists) */
  char note[128];           /* what went wrong, else "" */
};

#ifdef __cplusplus
}
#endif

#endif
