/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond friction/law_table.h. */
#ifndef CS_FRICTION_LAW_TABLE_PRIVATE_H
#define CS_FRICTION_LAW_TABLE_PRIVATE_H

#include "friction/law_table.h"

/* Fits law (CS_LAW_I00 or CS_LAW_I11) on contact with npoints nodes from
 * (b0, m0) (NAN: the paper's pair), then the papers' pairs' errors.
 * progress(ctx, done, total) after each evaluation of the integral model,
 * total = npoints * (1 + npairs); may be NULL. */
enum cs_status cs_friction_fit_report(enum cs_law law, const struct cs_contact *contact,
                                      size_t npoints, double b0, double m0,
                                      cs_fit_progress_fn progress, void *ctx,
                                      struct cs_fit_report *out);

/* Columns of the fit's curves: theta [rad], Tsx_integral, Ms_integral,
 * Tsx_fit, Ms_fit, then Tsx_<pair>, Ms_<pair> per pair. */
size_t cs_fit_curves_cols(const struct cs_fit_report *r);

/* The curves over n uniform nodes theta in [0, pi/2] (n >= 2) into rows
 * (caller-allocated, n * cs_fit_curves_cols(r) doubles). */
enum cs_status cs_fit_curves(const struct cs_fit_report *r, size_t n, double *rows);

#endif
