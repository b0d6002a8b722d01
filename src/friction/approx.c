/* SPDX-License-Identifier: MIT */
/* Approximations I(0,0) and I(1,1) of the integral friction model and their
 * regularized forms, with analytic Jacobians.
 *
 * I(0,0), JTAM 2016 eq. (3.4); regularized, eq. (4.4), p = 1:
 *   S  = |v|^m + b^m |ws|^m,            Q = S^(2/m) = D0^2
 *   (Tsx, Tsy, Ms) = A (vsx, vsy, ws) * L(Q)
 *   A = [[1, 0, -b c011], [0, 1, b c101], [-c010, c100, b c00m1]]
 * I(1,1), Acta Mech. 2016 eq. (3); regularized, eq. (6), p = 3:
 *   S  = (v^2)^(3m/2) + b^m |ws|^(3m),  Q = S^(2/m) = D1^2
 *   Tsx = (v^2 + b ws^2) vsx L,  Tsy = (v^2 + b ws^2) vsy L,
 *   Ms  = ((2/3) b ws^3 + (1/4) ws v^2) L
 * with L = Q^(-1/2) unregularized and
 *   L = (Q + eps^(2p))^(-1/2) + eta' eps^(3p) (Q + eps^(2p))^(-2)
 * regularized. Both laws are "numerator times L(Q)", so one routine computes
 * L, dL/dQ and grad Q, and each law adds its numerator. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error_private.h"
#include "friction/friction.h"
#include "friction/approx_inline.h"
#include "friction/friction_private.h"

enum cs_status cs_approx_init(struct cs_approx *a, double b, double m, double eps, double eta_prime,
                              const struct cs_contact_moments *moments)
{
  if (!a || !(b > 0) || !(m > 0) || !(eps >= 0) || !(eta_prime >= 0) || !isfinite(b) ||
      !isfinite(m) || !isfinite(eps) || !isfinite(eta_prime))
    return CS_FAIL(CS_ERR_RANGE);
  memset(a, 0, sizeof *a);
  a->b = b;
  a->m = m;
  a->eps = eps;
  a->eta_prime = eta_prime;
  a->c = moments ? *moments : cs_contact_moments_uniform_disk();
  a->b_m = pow(b, m);
  a->inv_m = 1.0 / m;
  a->eps2_p1 = eps * eps;
  a->eps3_p1 = eps * eps * eps;
  a->eps2_p3 = a->eps3_p1 * a->eps3_p1;
  a->eps3_p3 = a->eps2_p3 * a->eps3_p1;
  return CS_OK;
}

/* Each entry point inlines its law twice, with and without the Jacobian: the
 * right-hand side (no Jacobian) then computes nothing the Jacobian alone needs. */
#define LAW_ENTRY(name, common, regularized)                              \
  void name(const struct cs_approx *a, double vsx, double vsy, double ws, \
            struct cs_friction_load *out, double *jac)                    \
  {                                                                       \
    if (jac)                                                              \
      common(a, regularized, vsx, vsy, ws, out, jac);                     \
    else                                                                  \
      common(a, regularized, vsx, vsy, ws, out, NULL);                    \
  }

LAW_ENTRY(cs_i00_eval, cs_i00_inline, 0)
LAW_ENTRY(cs_i00_reg_eval, cs_i00_inline, 1)
LAW_ENTRY(cs_i11_eval, cs_i11_inline, 0)
LAW_ENTRY(cs_i11_reg_eval, cs_i11_inline, 1)

static const char *const law_names[CS_LAW_COUNT] = {
    [CS_LAW_INTEGRAL] = "integral", [CS_LAW_I00] = "I00",         [CS_LAW_I11] = "I11",
    [CS_LAW_I00_REG] = "I00-reg",   [CS_LAW_I11_REG] = "I11-reg",
};

const char *cs_law_name(enum cs_law law)
{
  if ((int)law < 0 || law >= CS_LAW_COUNT)
    return "unknown";
  return law_names[law];
}

enum cs_status cs_law_from_name(const char *name, enum cs_law *law)
{
  if (!name)
    return CS_FAIL(CS_ERR_ARG);
  for (int i = 0; i < CS_LAW_COUNT; i++)
    if (strcmp(name, law_names[i]) == 0) {
      *law = (enum cs_law)i;
      return CS_OK;
    }
  char accepted[64] = "";
  for (int i = 0; i < CS_LAW_COUNT; i++)
    snprintf(accepted + strlen(accepted), sizeof accepted - strlen(accepted), "%s%s", i ? ", " : "",
             law_names[i]);
  return cs_error_set(CS_ERR_NOT_FOUND, "unknown friction law '%s' (accepted: %s)", name, accepted);
}
