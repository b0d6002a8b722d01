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
enum cs_status cs_equilibrium_find(const struct cs_model *m, const void *params,
                                   const double *guess, struct cs_equilibrium *out);

/* Eigenvalues of the Jacobian at a given state y (not necessarily an
 * equilibrium), sorted as in struct cs_equilibrium; fills out->y, re, im,
 * max_re, max_is_complex and residual, sets found = 0, iterations = 0.
 * CS_ERR_SINGULAR if the eigensolver fails; the model's rhs/jac failures give
 * CS_ERR_NONFINITE; CS_ERR_UNSUPPORTED, CS_ERR_ARG, CS_ERR_RANGE as above. */
enum cs_status cs_equilibrium_eigen(const struct cs_model *m, const void *params, const double *y,
                                    struct cs_equilibrium *out);

/* The linear stability of a state y that a simulation found settled (f(y)
 * small to the integrator's accuracy, not to Newton's; analysis/point.c):
 * the eigenvalues of the Jacobian at y, filled into out as by
 * cs_equilibrium_eigen; the eigenvector of re[0] + i im[0] (the +w member of
 * a pair) in vre, vim (n_state values each, unit Euclidean norm, phase as GSL
 * leaves it); and *re_err, the accuracy of re[0] as the eigenvalue of the
 * equilibrium y approximates: the eigensolver's round-off, 1e-10 ||J||_inf
 * (the zero of the scan's sign test), plus twice the change of re[0] over
 * one Newton step from y towards the exact equilibrium (y's distance from
 * it, which the eigenvalues inherit at first order; the factor 2 covers the
 * second-order rest). INFINITY when that step
 * cannot be taken (J singular: a fold or a continuum of equilibria, whose
 * stability the eigenvalues do not decide). Statuses as cs_equilibrium_eigen. */
enum cs_status cs_equilibrium_settled(const struct cs_model *m, const void *params, const double *y,
                                      struct cs_equilibrium *out, double *vre, double *vim,
                                      double *re_err);

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

/* Locates the stability change of the equilibrium branch between p_a and
 * p_b (either order) of the parameter named param. y_a is the equilibrium
 * (or a guess of it) at p_a; NULL: the model's state_default.
 * Each evaluation copies base_params into a scratch buffer (m->params_size
 * bytes), sets param with cs_model_set_param, runs m->prepare and m->attach
 * (detach afterwards), and continues the equilibrium by Newton from the
 * nearest parameter value already solved (a secant predictor, halving the
 * step on failure). base_params need not be prepared; it is never written.
 * Cases:
 *  - the equilibrium exists at both ends and max_re changes sign: Brent's
 *    method (GSL) on max_re(p) to an absolute tolerance tol in p; kind
 *    CS_EQ_HOPF if the critical eigenvalue is a complex pair at p*, else
 *    CS_EQ_FOLD with branch_ends = 0;
 *  - it exists at one end only: bisection on existence to tol; when the
 *    eigenvalue of smallest modulus is real and tends to zero there, a fold
 *    (CS_EQ_FOLD, branch_ends = 1, p* the last value where it exists);
 *    otherwise Newton merely lost the branch: CS_ERR_NOCONV, kind CS_EQ_NONE.
 * tol <= 0 means 1e-10 max(|p_a|, |p_b|, |p_b - p_a|). Returns the status also
 * stored in out->status: CS_OK; CS_ERR_RANGE when max_re has the same sign at
 * both ends (or is zero within round-off at one), or a parameter value is
 * outside param's range; CS_ERR_NOCONV when no equilibrium exists at either
 * end or the branch was lost; CS_ERR_NOT_FOUND for an unknown param; the
 * status of prepare or attach (with its message in out->note);
 * CS_ERR_UNSUPPORTED, CS_ERR_ARG, CS_ERR_NOMEM as for cs_equilibrium_find. */
enum cs_status cs_equilibrium_crossing(const struct cs_model *m, const void *base_params,
                                       const char *param, double p_a, double p_b, const double *y_a,
                                       double tol, struct cs_eq_crossing *out);

/* Continues the equilibrium along the parameter values values[0..npoints-1]
 * (monotone, any spacing: pass the sweep's own grid) and locates every
 * stability change between neighbouring values with cs_equilibrium_crossing's
 * methods (tol as there, per interval):
 *  - max_re changes sign between two points of a continued branch (values
 *    where |max_re| is round-off are skipped when comparing signs);
 *  - the branch ends (found at one point, not at the next, or the reverse)
 *    at a fold; branch losses that are not folds are not reported.
 * The first point starts from guess (NULL: state_default), later ones from
 * the previous equilibrium (secant predictor, step halving); after a point
 * without equilibrium the next one starts again from guess, with the
 * restarts of cs_equilibrium_find. Parameters are handled as in
 * cs_equilibrium_crossing (base_params is never written).
 * results: npoints entries (may be NULL), results[k] the equilibrium at
 * values[k] (found = 0 and a note where none was found). crossings: room for
 * max_crossings entries in increasing order of the scan; *n_crossings
 * receives the number located (may exceed max_crossings: the rest are
 * dropped); a crossing that could not be located is stored with its status
 * and kind CS_EQ_NONE. Returns CS_OK even when points have no equilibrium or
 * a crossing failed (that is data); CS_ERR_ARG (NULL model, param, values,
 * n_crossings, npoints == 0, non-monotone values), CS_ERR_RANGE (a value
 * outside param's range, n_state > CS_EQ_MAX_N), CS_ERR_NOT_FOUND (unknown
 * param), CS_ERR_UNSUPPORTED (forced at some value; the results up to
 * there are filled), the status of prepare or attach,
 * CS_ERR_NOMEM. */
enum cs_status cs_equilibrium_scan(const struct cs_model *m, const void *base_params,
                                   const char *param, const double *values, size_t npoints,
                                   const double *guess, double tol, struct cs_equilibrium *results,
                                   struct cs_eq_crossing *crossings, size_t max_crossings,
                                   size_t *n_crossings);

#ifdef __cplusplus
}
#endif

#endif
