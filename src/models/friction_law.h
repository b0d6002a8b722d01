/* SPDX-License-Identifier: MIT */
/* The friction law a mechanical model uses, chosen by name in [model] law = ...:
 * one evaluator with a Jacobian for every law of the friction core, so that
 * models do not repeat the dispatch. The regularized integral model
 * ("integral-reg") scales the exact integral model's direction field the way
 * I(0,0)-reg does with D = lambda:
 *   f = f_integral(z) * lambda * (1/sqrt(lambda^2 + eps^2) + eta' eps^3/(lambda^2 + eps^2)^2),
 * so that its pure-translation peak is eta as for the other laws; its Jacobian
 * is by central differences (it is for comparison runs, not for speed). */
#ifndef CS_MODELS_FRICTION_LAW_H
#define CS_MODELS_FRICTION_LAW_H

#include "friction/friction.h"

#ifdef __cplusplus
extern "C" {
#endif

enum cs_model_law {
  CS_MLAW_I11_REG,      /* regularized I(1,1), p = 3 (Acta Mech. eq. 6) */
  CS_MLAW_I00_REG,      /* regularized I(0,0), p = 1 (JTAM eq. 4.4) */
  CS_MLAW_INTEGRAL_REG, /* integral model with the p = 1 regularization */
  CS_MLAW_I11,          /* unregularized I(1,1): singular at lambda = 0 */
  CS_MLAW_I00,          /* unregularized I(0,0): singular at lambda = 0 */
  CS_MLAW_INTEGRAL,     /* exact integral model: singular at lambda = 0 */
  CS_MLAW_COUNT
};

/* Everything a law needs, kept in a model's params. */
struct cs_model_friction {
  int law;                    /* enum cs_model_law */
  struct cs_approx approx;    /* b, m, eps, eta' (prepared) */
  struct cs_contact contact;  /* for the integral laws */
  struct cs_integral_ws *iws; /* integral laws: per-thread workspace (attach/detach) */
};

#ifdef __cplusplus
}
#endif

#endif
