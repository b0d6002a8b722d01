/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/equilibrium.h. */
#ifndef CS_ANALYSIS_EQUILIBRIUM_PRIVATE_H
#define CS_ANALYSIS_EQUILIBRIUM_PRIVATE_H

#include "analysis/equilibrium.h"

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

#endif
