/* SPDX-License-Identifier: MIT */
/* Periodic orbits by shooting (analysis/orbit.h) against known answers:
 * - Van der Pol: the period at mu = 1 (6.6632868593231, Hairer-Norsett-Wanner
 *   I.16 and the project's reference model), and the nontrivial multiplier
 *   against exp(int_0^T div f dt) = exp(int mu (1 - x^2) dt), the integral
 *   computed by ARKODE as an extra quadrature state (Liouville), for three mu;
 * - the subcritical Hopf normal form: both cycles (stable and unstable) at
 *   their closed-form radii, period 2 pi/omega and multipliers
 *   exp(T (mu + 3 r^2 - 5 r^4));
 * - forced Duffing (stroboscopic): det M = exp(-delta T) (the divergence is
 *   -delta) and M against central differences of the flow;
 * - the trivial multiplier within 1e-6 of 1 on every autonomous cycle;
 * - figure 8a with the event-driven law (stick-slip, saltation matrices):
 *   the multipliers against (a) central differences of the Poincaré map by
 *   plain simulation, (b) their estimate from the contraction of the section
 *   points of a long simulation started off the orbit, and (c) the
 *   regularized law's multipliers for falling eps (CS_TEST_QUICK skips (c));
 *   the belt's event-driven orbit of figure 4a against differences of its
 *   Poincaré map.
 * CS_TEST_QUICK (sanitizer build) skips the regularized runs. */
#include "testmodel.h"
#include "testutil.h"

#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>

#include "analysis/orbit.h"
#include "io/config.h"
#include "integrate/flow.h"
#include "integrate/flow_private.h"
#include "analysis/orbit_private.h"

#define FIG8A CONTENSOU_SOURCE_DIR "/params/pendulum_fig8a.ini"
#define FIG4A CONTENSOU_SOURCE_DIR "/params/belt_fig4a.ini"

static int quick(void)
{
  const char *q = getenv("CS_TEST_QUICK");
  return q && *q && strcmp(q, "0") != 0;
}

static struct cs_orbit_ws *ws_of(const struct cs_model *m, const void *params, int param)
{
  struct cs_orbit_ws *w = cs_orbit_ws_create(m, params, param);
  if (!w)
    fail_msg("cs_orbit_ws_create: %s", cs_errmsg());
  return w;
}

/* Guess after a transient, then Newton; fails the test with the note. */
static void find(struct cs_orbit_ws *w, const struct cs_orbit_opts *o, const double *y0,
                 double transient, struct cs_orbit *orb)
{
  double t, y[16], T;
  enum cs_status st = cs_orbit_guess(w, o, 0.0, y0, transient, &t, y, &T);
  if (st != CS_OK)
    fail_msg("guess: %s", cs_errmsg());
  st = cs_orbit_find(w, o, t, y, T, orb);
  if (st != CS_OK)
    fail_msg("find: %s", orb->note);
  assert_true(orb->converged);
}

/* ------------------------------------------------------- Van der Pol */

struct vdpq {
  double mu;
};

/* x' = v, v' = mu (1 - x^2) v - x, q' = div f = mu (1 - x^2) */
static int vdpq_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct vdpq *p = vp;
  f[0] = y[1];
  f[1] = p->mu * (1 - y[0] * y[0]) * y[1] - y[0];
  f[2] = p->mu * (1 - y[0] * y[0]);
  return 0;
}

static void vanderpol(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("vanderpol");
  const double mus[] = {0.5, 1.0, 2.385};
  for (int k = 0; k < 3; k++) {
    void *p = make_params(m);
    assert_int_equal(cs_model_set_param(m, p, "mu", mus[k]), CS_OK);
    struct cs_orbit_ws *w = ws_of(m, p, -1);
    struct cs_orbit_opts o = cs_orbit_opts_default();
    o.solver.rtol = 1e-10, o.solver.atol = 1e-12;
    struct cs_orbit orb;
    find(w, &o, m->state_default, 50.0, &orb);
    assert_int_equal(orb.n_mult, 1);
    if (mus[k] == 1.0)
      assert_close(orb.period, 6.6632868593231, 1e-8);
    /* the section x = 0 increasing */
    assert_close(orb.y[0], 0.0, 1e-12);
    assert_true(orb.y[1] > 0);
    assert_close(orb.trivial_err, 0.0, 1e-6);
    /* Liouville: the product of the multipliers is exp(int div f) */
    struct cs_integrator *integ = cs_integrator_create(3);
    struct vdpq q = {mus[k]};
    struct cs_ode ode = {3, vdpq_rhs, NULL, &q};
    struct cs_integrator_opts io = cs_integrator_opts_default();
    io.rtol = 1e-12, io.atol = 1e-14;
    double y[3] = {orb.y[0], orb.y[1], 0.0}, t;
    assert_int_equal(cs_integrator_reset(integ, &ode, &io, 0.0, y), CS_OK);
    assert_int_equal(cs_integrator_advance(integ, orb.period, &t, y, NULL), CS_OK);
    double expect = exp(y[2]);
    print_message("mu = %g: T = %.12g, multiplier %.12g, exp(int div) %.12g, trivial %.2g\n",
                  mus[k], orb.period, orb.mult_re[0], expect, orb.trivial_err);
    /* relative 1e-6, but M is known only to about rtol |M| */
    assert_close(orb.mult_re[0], expect, 1e-6 * expect + 1e-8);
    assert_close(orb.mult_im[0], 0.0, 0.0);
    assert_int_equal(orb.n_unstable, 0);
    cs_integrator_free(integ);
    cs_orbit_ws_free(w);
    free(p);
  }
}

/* ----------------------------------------------------- Hopf normal form */

static void subhopf_cycles(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("subhopf");
  assert_non_null(m);
  const double mu = -0.2, omega = 1.3;
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "mu", mu), CS_OK);
  assert_int_equal(cs_model_set_param(m, p, "omega", omega), CS_OK);
  struct cs_orbit_ws *w = ws_of(m, p, -1);
  struct cs_orbit_opts o = cs_orbit_opts_default();
  for (int outer = 0; outer < 2; outer++) {
    double r2 = (1 + (outer ? 1 : -1) * sqrt(1 + 4 * mu)) / 2, r = sqrt(r2);
    /* a guess off the cycle (Newton, not the flow, must get there: the
     * inner cycle is unstable) */
    double guess[2] = {1.05 * r, 0.0}, T = 2 * M_PI / omega;
    struct cs_orbit orb;
    assert_int_equal(cs_orbit_find(w, &o, 0.0, guess, 1.1 * T, &orb), CS_OK);
    double mult = exp(T * (mu + 3 * r2 - 5 * r2 * r2));
    print_message("r = %.12g (exact %.12g), T = %.12g, multiplier %.10g (exact %.10g)\n", orb.y[0],
                  r, orb.period, orb.mult_re[0], mult);
    assert_close(orb.y[0], r, 1e-8);
    assert_close(orb.y[1], 0.0, 1e-12);
    assert_close(orb.period, T, 1e-8);
    assert_rel_close(orb.mult_re[0], mult, 1e-6, 0.0);
    assert_close(orb.trivial_err, 0.0, 1e-6);
    assert_int_equal(orb.n_unstable, outer ? 0 : 1);
  }
  cs_orbit_ws_free(w);
  free(p);
}

/* --------------------------------------------------------- forced Duffing */

static void duffing_liouville(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "gamma", 0.2385), CS_OK);
  struct cs_orbit_ws *w = ws_of(m, p, -1);
  struct cs_orbit_opts o = cs_orbit_opts_default();
  o.solver.rtol = 1e-10, o.solver.atol = 1e-12;
  struct cs_orbit orb;
  double y0[2] = {1.0, 0.0};
  find(w, &o, y0, 300.0, &orb);
  const double delta = 0.3, Tf = 2 * M_PI / 1.2;
  assert_false(orb.autonomous);
  assert_close(orb.period, Tf, 1e-14);
  double phase = fmod(orb.t0, Tf);
  assert_close(fmin(phase, Tf - phase), 0.0, 1e-9);
  assert_true(isnan(orb.trivial_err));
  assert_int_equal(orb.n_mult, 2);
  double complex_det = orb.mono[0] * orb.mono[3] - orb.mono[1] * orb.mono[2];
  print_message("det M = %.12g, exp(-delta T) = %.12g\n", complex_det, exp(-delta * Tf));
  assert_rel_close(complex_det, exp(-delta * Tf), 1e-7, 0.0);
  /* M against central differences of the flow over one forcing period */
  const void *P = cs_orbit_ws_params(w);
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {2, m->rhs, m->jac, P};
  struct cs_integrator_opts io = cs_integrator_opts_default();
  io.rtol = 1e-12, io.atol = 1e-14;
  for (int j = 0; j < 2; j++) {
    double yp[2], ym[2], h = 1e-5, t;
    memcpy(yp, orb.y, sizeof yp);
    memcpy(ym, orb.y, sizeof ym);
    yp[j] += h, ym[j] -= h;
    assert_int_equal(cs_integrator_reset(integ, &ode, &io, orb.t0, yp), CS_OK);
    assert_int_equal(cs_integrator_advance(integ, orb.t0 + Tf, &t, yp, NULL), CS_OK);
    assert_int_equal(cs_integrator_reset(integ, &ode, &io, orb.t0, ym), CS_OK);
    assert_int_equal(cs_integrator_advance(integ, orb.t0 + Tf, &t, ym, NULL), CS_OK);
    for (int i = 0; i < 2; i++)
      assert_close(orb.mono[i * 2 + j], (yp[i] - ym[i]) / (2 * h), 1e-6);
  }
  cs_integrator_free(integ);
  cs_orbit_ws_free(w);
  free(p);
}

/* -------------------------------------------------- event-driven orbits */

static void load(const char *path, const char *const *sets, size_t n, struct cs_config *cfg)
{
  if (cs_config_load(path, sets, n, cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
}

/* The section variable as a root function. */
static int section_root(double t, const double *y, double *g, const void *ctx)
{
  (void)t;
  g[0] = y[*(const int *)ctx];
  return 0;
}

/* The first return to the section (a state variable at level 0) from y. */
static void poincare(const struct cs_model *m, void *params, const struct cs_integrator_opts *so,
                     int idx, int dir, const double *y, double *out)
{
  struct cs_flow *f = cs_flow_create(m->n_state, 0);
  double t;
  int at = 0;
  memcpy(out, y, m->n_state * sizeof *y);
  assert_int_equal(cs_flow_reset(f, m, params, so, 0.0, out, 1, section_root, &dir, &idx), CS_OK);
  assert_int_equal(cs_flow_advance(f, 1e4, &t, out, &at, NULL), CS_OK);
  assert_true(at);
  cs_flow_free(f);
}

/* Eigenvalues (by decreasing modulus) of the Poincaré map's Jacobian from
 * central differences of plain simulations, in the coordinates other than
 * the section variable idx. */
static size_t fd_multipliers(const struct cs_model *m, void *params,
                             const struct cs_integrator_opts *so, int idx, int dir,
                             const double *y0, double h_rel, double *re, double *im)
{
  size_t n = m->n_state, k = n - 1;
  gsl_matrix *A = gsl_matrix_alloc(k, k);
  for (size_t j = 0, b = 0; j < n; j++) {
    if ((int)j == idx)
      continue;
    double yp[16], ym[16], pp[16], pm[16], h = h_rel * fmax(fabs(y0[j]), 1e-2);
    memcpy(yp, y0, n * sizeof *y0);
    memcpy(ym, y0, n * sizeof *y0);
    yp[j] += h, ym[j] -= h;
    poincare(m, params, so, idx, dir, yp, pp);
    poincare(m, params, so, idx, dir, ym, pm);
    for (size_t i = 0, a = 0; i < n; i++)
      if ((int)i != idx)
        gsl_matrix_set(A, a++, b, (pp[i] - pm[i]) / (2 * h));
    b++;
  }
  gsl_vector_complex *ev = gsl_vector_complex_alloc(k);
  gsl_eigen_nonsymm_workspace *ew = gsl_eigen_nonsymm_alloc(k);
  assert_int_equal(gsl_eigen_nonsymm(A, ev, ew), 0);
  gsl_eigen_nonsymmv_sort(ev, NULL, GSL_EIGEN_SORT_ABS_DESC);
  for (size_t i = 0; i < k; i++) {
    gsl_complex z = gsl_vector_complex_get(ev, i);
    re[i] = GSL_REAL(z), im[i] = GSL_IMAG(z);
  }
  gsl_eigen_nonsymm_free(ew);
  gsl_vector_complex_free(ev);
  gsl_matrix_free(A);
  return k;
}

/* The two leading multipliers from the section points of one long run
 * started off the orbit: deviations e_k from the fixed point, projected on
 * their two principal directions (SVD), e_{k+1} = B e_k by least squares. */
static void contraction_multipliers(const struct cs_model *m, void *params,
                                    const struct cs_integrator_opts *so, int idx, int dir,
                                    const double *y0, double eps, int K, double complex *mu)
{
  size_t n = m->n_state;
  double y[16], e[16][16];
  memcpy(y, y0, n * sizeof *y);
  uint64_t rng = 2385;
  for (size_t j = 0; j < n; j++)
    if ((int)j != idx)
      y[j] += eps * fmax(fabs(y0[j]), 1e-2) * test_uniform(&rng, -1, 1);
  struct cs_flow *f = cs_flow_create(n, 0);
  assert_int_equal(cs_flow_reset(f, m, params, so, 0.0, y, 1, section_root, &dir, &idx), CS_OK);
  for (int k = 0; k < K; k++) {
    double t;
    int at = 0;
    assert_int_equal(cs_flow_advance(f, 1e4, &t, y, &at, NULL), CS_OK);
    assert_true(at);
    for (size_t j = 0; j < n; j++)
      e[k][j] = y[j] - y0[j];
  }
  cs_flow_free(f);
  gsl_matrix *U = gsl_matrix_alloc(n, (size_t)K - 1), *V = gsl_matrix_alloc(K - 1, K - 1);
  gsl_vector *S = gsl_vector_alloc(K - 1), *work = gsl_vector_alloc(K - 1);
  for (size_t j = 0; j < n; j++)
    for (int k = 0; k < K - 1; k++)
      gsl_matrix_set(U, j, (size_t)k, e[k][j]);
  assert_int_equal(gsl_linalg_SV_decomp(U, V, S, work), 0);
  double z[16][2], P[2][2] = {{0}}, Q[2][2] = {{0}};
  for (int k = 0; k < K; k++)
    for (int a = 0; a < 2; a++) {
      z[k][a] = 0;
      for (size_t j = 0; j < n; j++)
        z[k][a] += gsl_matrix_get(U, j, (size_t)a) * e[k][j];
    }
  for (int k = 0; k + 1 < K; k++)
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++)
        P[a][b] += z[k + 1][a] * z[k][b], Q[a][b] += z[k][a] * z[k][b];
  double det = Q[0][0] * Q[1][1] - Q[0][1] * Q[1][0];
  double Qi[2][2] = {{Q[1][1] / det, -Q[0][1] / det}, {-Q[1][0] / det, Q[0][0] / det}}, B[2][2];
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++)
      B[a][b] = P[a][0] * Qi[0][b] + P[a][1] * Qi[1][b];
  double tr = B[0][0] + B[1][1], dt = B[0][0] * B[1][1] - B[0][1] * B[1][0];
  double complex root = csqrt(tr * tr / 4 - dt);
  mu[0] = tr / 2 + root, mu[1] = tr / 2 - root;
  if (cabs(mu[1]) > cabs(mu[0])) {
    double complex x = mu[0];
    mu[0] = mu[1], mu[1] = x;
  }
  gsl_matrix_free(U), gsl_matrix_free(V), gsl_vector_free(S), gsl_vector_free(work);
}

static void stick_slip_fig8a(void **state)
{
  (void)state;
  const char *sets[] = {"model.law=event-driven", "solver.rtol=1e-10", "solver.atol=1e-12"};
  struct cs_config cfg;
  load(FIG8A, sets, 3, &cfg);
  const struct cs_model *m = cfg.model;
  struct cs_orbit_ws *w = ws_of(m, cfg.params_unprepared, -1);
  struct cs_orbit_opts o = cs_orbit_opts_default();
  o.solver = cfg.solver;
  o.section = cfg.section;
  struct cs_orbit orb;
  find(w, &o, cfg.y0, 60.0, &orb);
  /* one stick phase per period: slip -> stick, stick -> slip */
  assert_int_equal(orb.switches, 2);
  assert_close(orb.period, 1.5070050, 1e-6);
  assert_close(orb.trivial_err, 0.0, 1e-6);
  /* stick forgets the three velocities: three zero multipliers */
  assert_int_equal(orb.n_mult, 5);
  for (size_t i = 2; i < 5; i++)
    assert_close(hypot(orb.mult_re[i], orb.mult_im[i]), 0.0, 1e-9);
  print_message("saltation: %.10g, %.10g\n", orb.mult_re[0], orb.mult_re[1]);
  int idx = cs_model_state_index(m, cfg.section.variable);
  void *P = (void *)cs_orbit_ws_params(w);
  /* (a) differences of the Poincaré map */
  double re[16], im[16];
  fd_multipliers(m, P, &o.solver, idx, cfg.section.direction, orb.y, 1e-5, re, im);
  print_message("section-map differences: %.10g, %.10g\n", re[0], re[1]);
  for (int i = 0; i < 2; i++) {
    assert_close(re[i], orb.mult_re[i], 1e-4);
    assert_close(im[i], orb.mult_im[i], 1e-4);
  }
  /* (b) the contraction of a long run's section points */
  double complex mu[2];
  contraction_multipliers(m, P, &o.solver, idx, cfg.section.direction, orb.y, 1e-4, 5, mu);
  print_message("contraction of the section points: %.10g, %.10g\n", creal(mu[0]), creal(mu[1]));
  for (int i = 0; i < 2; i++)
    assert_close(cabs(mu[i] - (orb.mult_re[i] + I * orb.mult_im[i])), 0.0, 1e-3);
  double ed[2] = {orb.mult_re[0], orb.mult_re[1]};
  cs_orbit_ws_free(w);
  cs_config_free(&cfg);
  if (quick()) {
    print_message("regularized law: skipped (CS_TEST_QUICK)\n");
    return;
  }
  /* (c) the regularized I(1,1): multipliers tend to the event-driven ones,
   * the difference falling with eps (about as eps^0.7, like the period) */
  const double eps[] = {1e-3, 1e-4};
  double dev[2];
  for (int k = 0; k < 2; k++) {
    char e[64];
    snprintf(e, sizeof e, "parameters.eps=%g", eps[k]);
    const char *s2[] = {e};
    load(FIG8A, s2, 1, &cfg);
    w = ws_of(cfg.model, cfg.params_unprepared, -1);
    o.solver = cfg.solver;
    find(w, &o, cfg.y0, 60.0, &orb);
    dev[k] = fmax(fabs(orb.mult_re[0] - ed[0]), fabs(orb.mult_re[1] - ed[1]));
    print_message("eps = %g: %.10g, %.10g (largest difference %.3g)\n", eps[k], orb.mult_re[0],
                  orb.mult_re[1], dev[k]);
    assert_close(orb.trivial_err, 0.0, 1e-6);
    cs_orbit_ws_free(w);
    cs_config_free(&cfg);
  }
  assert_true(dev[1] < 0.5 * dev[0]);
  assert_true(dev[1] < 3e-4);
}

static void belt_fig4a(void **state)
{
  (void)state;
  const char *sets[] = {"model.law=event-driven"};
  struct cs_config cfg;
  load(FIG4A, sets, 1, &cfg);
  const struct cs_model *m = cfg.model;
  struct cs_orbit_ws *w = ws_of(m, cfg.params_unprepared, -1);
  struct cs_orbit_opts o = cs_orbit_opts_default();
  o.solver = cfg.solver;
  o.section = cfg.section;
  struct cs_orbit orb;
  find(w, &o, cfg.y0, 0.0, &orb);
  assert_int_equal(orb.switches, 2);
  assert_close(orb.period, 131.1307113, 1e-6);
  assert_close(orb.trivial_err, 0.0, 1e-6);
  /* stick forgets both velocities; one multiplier is left */
  assert_close(hypot(orb.mult_re[1], orb.mult_im[1]), 0.0, 1e-9);
  assert_close(hypot(orb.mult_re[2], orb.mult_im[2]), 0.0, 1e-9);
  double re[16], im[16];
  int idx = cs_model_state_index(m, cfg.section.variable);
  fd_multipliers(m, (void *)cs_orbit_ws_params(w), &o.solver, idx, cfg.section.direction, orb.y,
                 1e-5, re, im);
  print_message("belt 4a: saltation %.10g, section-map differences %.10g\n", orb.mult_re[0], re[0]);
  assert_close(re[0], orb.mult_re[0], 1e-4);
  assert_true(orb.mult_re[0] > 0.7 && orb.mult_re[0] < 0.9);
  cs_orbit_ws_free(w);
  cs_config_free(&cfg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(vanderpol),         cmocka_unit_test(subhopf_cycles),
      cmocka_unit_test(duffing_liouville), cmocka_unit_test(stick_slip_fig8a),
      cmocka_unit_test(belt_fig4a),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
