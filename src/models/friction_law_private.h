/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond models/friction_law.h. */
#ifndef CS_MODELS_FRICTION_LAW_PRIVATE_H
#define CS_MODELS_FRICTION_LAW_PRIVATE_H

#include "models/friction_law.h"

/* NULL-terminated names, in enum order, for struct cs_choice_desc. */
extern const char *const cs_model_law_names[];

/* Prepares f for law with (b, m, eps, eta'); b or m NAN takes the fitted pair
 * of the law (I(1,1)'s for the integral laws, where they are unused). */
enum cs_status cs_model_friction_prepare(struct cs_model_friction *f, int law, double *b, double *m,
                                         double eps, double eta_prime);

enum cs_status cs_model_friction_attach(struct cs_model_friction *f);

void cs_model_friction_detach(struct cs_model_friction *f);

/* Load (Tsx, Tsy, Ms) at (vsx, vsy, ws) and, if jac is not NULL, its Jacobian
 * (row-major 3x3). Returns 0, or a negative status if the quadrature failed. */
int cs_model_friction_eval(const struct cs_model_friction *f, double vsx, double vsy, double ws,
                           struct cs_friction_load *out, double *jac);

#endif
