/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/continuation.h. */
#ifndef CS_ANALYSIS_CONTINUATION_PRIVATE_H
#define CS_ANALYSIS_CONTINUATION_PRIVATE_H

#include "analysis/continuation.h"
#include "analysis/continuation2.h"

/* Where branch b is stable: every stretch of at least two consecutive stable
 * points (no unstable multiplier or eigenvalue, none marginal) of one
 * segment, as the interval of their parameter values widened to the special
 * points located at its ends (where the stability changes). A single stable
 * point is left out: it is the noise of a multiplier within the solver's
 * accuracy of the unit circle (e.g. the first cycles from a Hopf point).
 * Writes at most max intervals, in branch order, to out (may be NULL with
 * max 0) and returns how many there are. */
size_t cs_branch_stable_ranges(const struct cs_branch *b, struct cs_param_range *out, size_t max);

/* cs_continue_curve of a fold curve from a Bogdanov-Takens point of a Hopf
 * curve (sp: kind CS_SPECIAL_FOLD, its p1 and state; p2 set in
 * params_unprepared): J is singular there, the fold curve passes through;
 * the start's BT test function counts as 0 there, not as a crossing. (A
 * Hopf curve cannot start on the BT point itself: in two dimensions its
 * normalisation d.Jv = 0 is degenerate there.) */
enum cs_status cs_continue_curve_from_bt(struct cs_orbit_ws *ws, const void *params_unprepared,
                                         const struct cs_curve_spec *spec, enum cs_curve_kind kind,
                                         const struct cs_special *sp, struct cs_curve *out);

#endif
