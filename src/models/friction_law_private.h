/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond models/friction_law.h. */
#ifndef CS_MODELS_FRICTION_LAW_PRIVATE_H
#define CS_MODELS_FRICTION_LAW_PRIVATE_H

#include "friction/approx_inline.h"
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

/* The same, with the regularized I(1,1) (the models' default law) inlined
 * into the caller: a right-hand side evaluated a million times a run then
 * makes no calls for its law (the other laws go through
 * cs_model_friction_eval). Results are those of cs_model_friction_eval, bit
 * for bit. */
static inline __attribute__((always_inline)) int
cs_model_friction_eval_fast(const struct cs_model_friction *f, double vsx, double vsy, double ws,
                            struct cs_friction_load *out, double *jac)
{
  if (f->law == CS_MLAW_I11_REG) {
    if (jac)
      cs_i11_inline(&f->approx, 1, vsx, vsy, ws, out, jac);
    else
      cs_i11_inline(&f->approx, 1, vsx, vsy, ws, out, NULL);
    return 0;
  }
  return cs_model_friction_eval(f, vsx, vsy, ws, out, jac);
}

#endif
