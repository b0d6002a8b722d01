/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond friction/friction.h. */
#ifndef CS_FRICTION_FRICTION_PRIVATE_H
#define CS_FRICTION_FRICTION_PRIVATE_H

#include "friction/friction.h"

/* Moments of the uniform unit disk, exact: c00m1 = 2/3, the odd ones 0. */
struct cs_contact_moments cs_contact_moments_uniform_disk(void);

/* c_{i,j,k} of a contact by GSL quadrature (k < 2 so the integral exists). */
enum cs_status cs_contact_moment(const struct cs_contact *contact, int i, int j, int k,
                                 struct cs_integral_ws *work, double *value);

/* In pure translation the regularized force magnitude is
 *   g(u) = u/sqrt(u^2+1) + eta' u/(u^2+1)^2,  u = lambda/eps (p = 1) or (lambda/eps)^3 (p = 3),
 * and the static-to-kinetic ratio is eta = sup_u g(u) (src/friction/README.md). */
double cs_eta_g(double eta_prime, double u);

/* The papers' cubic fits (JTAM §4, Acta Mech. §2): defined on [1, 1.3] and
 * [1.3, 2.7] only; CS_ERR_RANGE outside. */
enum cs_status cs_eta_prime_cubic_fit(double eta, double *eta_prime);

enum cs_status cs_friction_fit_monitored(enum cs_law law, const struct cs_contact *contact,
                                         size_t npoints, double b0, double m0,
                                         struct cs_fit_result *out, cs_fit_progress_fn progress,
                                         void *ctx);

enum cs_status cs_friction_fit_error_monitored(enum cs_law law, const struct cs_contact *contact,
                                               size_t npoints, double b, double m, double *rms,
                                               double *max_error, cs_fit_progress_fn progress,
                                               void *ctx);

#endif
