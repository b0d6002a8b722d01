/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "core/error_private.h"
#include "friction/defaults.h"
#include "models/friction_law.h"
#include "models/friction_law_private.h"

const char *const cs_model_law_names[] = {
    [CS_MLAW_I11_REG] = "I11-reg",
    [CS_MLAW_I00_REG] = "I00-reg",
    [CS_MLAW_INTEGRAL_REG] = "integral-reg",
    [CS_MLAW_I11] = "I11",
    [CS_MLAW_I00] = "I00",
    [CS_MLAW_INTEGRAL] = "integral",
    [CS_MLAW_COUNT] = NULL,
};

enum cs_status cs_model_friction_prepare(struct cs_model_friction *f, int law, double *b, double *m,
                                         double eps, double eta_prime)
{
  if (law < 0 || law >= CS_MLAW_COUNT)
    return CS_FAIL(CS_ERR_ARG);
  int i00 = law == CS_MLAW_I00_REG || law == CS_MLAW_I00;
  if (isnan(*b))
    *b = i00 ? CS_I00_B_DEFAULT : CS_I11_B_DEFAULT;
  if (isnan(*m))
    *m = i00 ? CS_I00_M_DEFAULT : CS_I11_M_DEFAULT;
  f->law = law;
  f->contact = cs_contact_disk(CS_PRESSURE_UNIFORM);
  return cs_approx_init(&f->approx, *b, *m, eps, eta_prime, NULL);
}

enum cs_status cs_model_friction_attach(struct cs_model_friction *f)
{
  f->iws = NULL;
  if (f->law != CS_MLAW_INTEGRAL && f->law != CS_MLAW_INTEGRAL_REG)
    return CS_OK;
  f->iws = cs_integral_ws_create(1e-11);
  return f->iws ? CS_OK : CS_ERR_NOMEM;
}

void cs_model_friction_detach(struct cs_model_friction *f)
{
  cs_integral_ws_free(f->iws);
  f->iws = NULL;
}

static int integral_eval(const struct cs_model_friction *f, double vsx, double vsy, double ws,
                         struct cs_friction_load *out)
{
  if (!f->iws)
    return -CS_ERR_ARG;
  enum cs_status st = cs_friction_integral(&f->contact, vsx, vsy, ws, f->iws, out);
  if (st != CS_OK && st != CS_ERR_QUADRATURE)
    return -(int)st;
  if (f->law == CS_MLAW_INTEGRAL_REG) {
    double l2 = vsx * vsx + vsy * vsy + ws * ws;
    double q = l2 + f->approx.eps2_p1;
    double s = sqrt(l2) * (1.0 / sqrt(q) + f->approx.eta_prime * f->approx.eps3_p1 / (q * q));
    out->Tsx *= s, out->Tsy *= s, out->Ms *= s;
  }
  return 0;
}

int cs_model_friction_eval(const struct cs_model_friction *f, double vsx, double vsy, double ws,
                           struct cs_friction_load *out, double *jac)
{
  switch (f->law) {
  case CS_MLAW_I11_REG:
    cs_i11_reg_eval(&f->approx, vsx, vsy, ws, out, jac);
    return 0;
  case CS_MLAW_I00_REG:
    cs_i00_reg_eval(&f->approx, vsx, vsy, ws, out, jac);
    return 0;
  case CS_MLAW_I11:
    cs_i11_eval(&f->approx, vsx, vsy, ws, out, jac);
    return 0;
  case CS_MLAW_I00:
    cs_i00_eval(&f->approx, vsx, vsy, ws, out, jac);
    return 0;
  default:
    break;
  }
  int rc = integral_eval(f, vsx, vsy, ws, out);
  if (rc || !jac)
    return rc;
  const double z[3] = {vsx, vsy, ws};
  double lam = sqrt(vsx * vsx + vsy * vsy + ws * ws);
  for (int j = 0; j < 3; j++) {
    double h = 1e-6 * fmax(lam, f->approx.eps > 0 ? f->approx.eps : 1e-6);
    double zp[3] = {z[0], z[1], z[2]}, zm[3] = {z[0], z[1], z[2]};
    zp[j] += h, zm[j] -= h;
    struct cs_friction_load p, q;
    if ((rc = integral_eval(f, zp[0], zp[1], zp[2], &p)) != 0 ||
        (rc = integral_eval(f, zm[0], zm[1], zm[2], &q)) != 0)
      return rc;
    jac[j] = (p.Tsx - q.Tsx) / (2 * h);
    jac[3 + j] = (p.Tsy - q.Tsy) / (2 * h);
    jac[6 + j] = (p.Ms - q.Ms) / (2 * h);
  }
  return 0;
}
