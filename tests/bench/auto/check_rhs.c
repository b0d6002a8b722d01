/* SPDX-License-Identifier: MIT */
/* Checks the AUTO-07p equation file tests/bench/auto/pendulum.f90 against
 * contensou's own model: at 1000 states along a 2 s run of figure 5a (params/
 * pendulum_fig5a.ini) at each omega0 and N below, the right-hand side and the
 * Jacobian of FUNC against the library's rhs and jac (relative to the row's
 * scale), and FUNC's parameter derivatives (omega0, N) against central
 * differences of the library's rhs and against the model's analytic
 * derivative (rhs_jac_dp, the one continuation uses). Prints the largest differences and exits 1
 * if one exceeds its bound. Built and run by bench_auto.sh (linked with the
 * compiled equation file and build/libcontensou.a), from the source root. */
#include <math.h>
#include <stdio.h>

#include "integrate/integrate.h"
#include "io/config.h"
#include "models/model.h"

/* AUTO's FUNC (Fortran, column-major DFDU(NDIM,NDIM), DFDP(NDIM,*)) */
void func_(const int *ndim, const double *u, const int *icp, const double *par, const int *ijac,
           double *f, double *dfdu, double *dfdp);

static int load(double omega0, double N, struct cs_config *cfg)
{
  char s1[64], s2[64];
  snprintf(s1, sizeof s1, "parameters.omega0=%.17g", omega0);
  snprintf(s2, sizeof s2, "parameters.N=%.17g", N);
  const char *sets[] = {s1, s2};
  if (cs_config_load("params/pendulum_fig5a.ini", sets, 2, cfg) != CS_OK) {
    printf("check_rhs_error = %s\n", cs_errmsg());
    return 1;
  }
  return 0;
}

int main(void)
{
  const double cases[][2] = {{30, 25}, {37.17, 25}, {40, 10}, {59, 40}};
  double err_f = 0, err_j = 0, err_p = 0, err_pa = 0;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    double w0 = cases[c][0], N = cases[c][1];
    struct cs_config cfg, cw[2], cn[2];
    if (load(w0, N, &cfg) || load(w0 + 1e-4, N, &cw[0]) || load(w0 - 1e-4, N, &cw[1]) ||
        load(w0, N + 1e-4, &cn[0]) || load(w0, N - 1e-4, &cn[1]))
      return 1;
    const struct cs_model *m = cfg.model;
    struct cs_integrator *it = cs_integrator_create(m->n_state);
    struct cs_ode ode = {m->n_state, m->rhs, m->jac, cfg.params};
    double t = 0, y[6];
    if (cs_integrator_reset(it, &ode, &cfg.solver, 0.0, cfg.y0) != CS_OK)
      return 1;
    for (int k = 0; k < 1000; k++) {
      if (cs_integrator_advance(it, 0.002 * (k + 1), &t, y, NULL) != CS_OK)
        return 1;
      double f[6], J[36], fa[6], Ja[36], Pa[12], par[11] = {w0, N};
      int ndim = 6, icp[2] = {1, 2}, ijac = 2;
      m->rhs(t, y, f, cfg.params);
      m->jac(t, y, J, cfg.params);
      func_(&ndim, y, icp, par, &ijac, fa, Ja, Pa);
      for (int i = 0; i < 6; i++) {
        /* f relative to max(|f_i|, 1), a Jacobian row to its largest entry */
        double scale = fmax(fabs(f[i]), 1.0), jscale = 1e-300;
        for (int j = 0; j < 6; j++)
          jscale = fmax(jscale, fabs(J[6 * i + j]));
        err_f = fmax(err_f, fabs(fa[i] - f[i]) / scale);
        for (int j = 0; j < 6; j++)
          err_j = fmax(err_j, fabs(Ja[6 * j + i] - J[6 * i + j]) / jscale);
      }
      /* parameter derivatives by central differences of the library's rhs */
      double fp[6], fm[6];
      for (int q = 0; q < 2; q++) {
        struct cs_config *cp = q == 0 ? cw : cn;
        cp[0].model->rhs(t, y, fp, cp[0].params);
        cp[1].model->rhs(t, y, fm, cp[1].params);
        for (int i = 3; i < 6; i++) {
          double d = (fp[i] - fm[i]) / 2e-4;
          err_p = fmax(err_p, fabs(Pa[6 * q + i] - d) / fmax(fabs(d), 1.0));
        }
        /* the model's analytic derivative, where it gives one */
        int idx = cs_model_param_index(m, q == 0 ? "omega0" : "N");
        if (!m->rhs_jac_dp || idx < 0 || !m->rhs_dp_provided((size_t)idx, cfg.params)) {
          err_pa = INFINITY;
          continue;
        }
        double fx[6], fa6[6];
        m->rhs_jac_dp(t, y, (size_t)idx, fx, NULL, fa6, cfg.params);
        for (int i = 0; i < 6; i++)
          err_pa = fmax(err_pa, fabs(Pa[6 * q + i] - fa6[i]) / fmax(fabs(fa6[i]), 1.0));
      }
    }
    cs_integrator_free(it);
    cs_config_free(&cfg);
    for (int q = 0; q < 2; q++)
      cs_config_free(&cw[q]), cs_config_free(&cn[q]);
  }
  printf("check_rhs_max_rel_f = %.3g\n", err_f);
  printf("check_rhs_max_rel_dfdu = %.3g\n", err_j);
  printf("check_rhs_max_rel_dfdp_fd = %.3g\n", err_p);
  printf("check_rhs_max_rel_dfdp_analytic = %.3g\n", err_pa);
  int ok = err_f < 1e-12 && err_j < 1e-11 && err_p < 1e-5 && err_pa < 1e-11;
  printf("check_rhs = %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
