/* SPDX-License-Identifier: MIT */
/* The whole Lyapunov spectrum (analysis/lyapunov.h), the Kaplan-Yorke
 * dimension and the 0-1 test for chaos (analysis/zero_one.h) against known
 * answers:
 * - Lorenz (sigma 10, rho 28, beta 8/3): (0.9056, 0, -14.5723) within their
 *   standard errors, their sum the constant trace -(sigma + 1 + beta) to
 *   1e-3, Kaplan-Yorke dimension 2.062;
 * - a linear system x' = A x: the exponents are the real parts of A's
 *   eigenvalues, exactly;
 * - periodic orbits: the exponents tend to ln|mu|/T of the Floquet
 *   multipliers as the run lengthens (the error is the alignment's
 *   transient over the counted time): Van der Pol (smooth; strongly
 *   attracting, at the integration's floor from 40 periods on) and the belt
 *   of figure 4a with the event-driven law (error 2.2e-5, 7.9e-6, 2.1e-7
 *   after 10, 40, 160 periods), where
 *   the tangent vectors cross every stick-slip switch through the saltation
 *   matrix (ln 0.805357621 / 131.1307113 = -1.6506e-3) and the stick forgets
 *   both velocities: two exponents -inf, reduced = 2;
 * - Kaplan-Yorke of spectra with known dimension;
 * - a chaotic point of figure 5a: the sum of the exponents against the time
 *   mean of the divergence of the vector field along an independent run;
 * - the 0-1 test: K near 0 for periodic and quasiperiodic series, near 1 for
 *   chaotic ones (logistic map, 2000 values; Lorenz's section points, about
 *   2000; figure 5a's, at least 200).
 * CS_TEST_QUICK (sanitizer build) shortens the runs. */
#include "testmodel.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/lyapunov.h"
#include "analysis/orbit.h"
#include "analysis/point.h"
#include "analysis/zero_one.h"
#include "io/config.h"
#include "models/model.h"
#include "analysis/lyapunov_private.h"
#include "analysis/point_private.h"

#define FIG4A CONTENSOU_SOURCE_DIR "/params/belt_fig4a.ini"

extern const struct cs_model cs_model_lorenz, cs_model_vanderpol;

static int quick(void)
{
  const char *q = getenv("CS_TEST_QUICK");
  return q && *q && strcmp(q, "0") != 0;
}

static void *params_of(const struct cs_model *m)
{
  void *p = make_params(m);
  prepare_ok(m, p);
  return p;
}

static struct cs_integrator_opts opts_of(double rtol, double atol)
{
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

/* ------------------------------------------------------------- Lorenz */

static void lorenz(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_lorenz;
  void *p = params_of(m);
  struct cs_integrator_opts o = opts_of(1e-9, 1e-9);
  /* onto the attractor */
  struct cs_integrator *in = cs_integrator_create(3);
  struct cs_ode ode = {3, m->rhs, NULL, p};
  double y[3] = {1, 1, 1};
  assert_int_equal(cs_integrator_reset(in, &ode, &o, 0.0, y), CS_OK);
  assert_int_equal(cs_integrator_advance(in, 50.0, NULL, y, NULL), CS_OK);
  cs_integrator_free(in);
  struct cs_lyapunov_ws *w = cs_lyapunov_ws_create(3);
  /* the tangents at the orbit's tolerance: the sum is then the trace to
   * the integration error */
  cs_lyapunov_ws_set_tangent_atol(w, 1e-9);
  struct cs_lyapunov_result r;
  double T = quick() ? 500.0 : 5000.0;
  assert_int_equal(cs_lyapunov_run(w, m, p, &o, 50.0, y, 3, T, 0.5, 0.0, &r), CS_OK);
  double sum = r.exponent[0] + r.exponent[1] + r.exponent[2];
  double ky = cs_kaplan_yorke(r.exponent, 3);
  /* its error from the exponents' by first order propagation */
  double l3 = fabs(r.exponent[2]);
  double ky_err = sqrt((r.err[0] * r.err[0] + r.err[1] * r.err[1]) / (l3 * l3) +
                       pow((r.exponent[0] + r.exponent[1]) / (l3 * l3) * r.err[2], 2));
  print_message("Lorenz, T = %g: %.5f +- %.5f, %.5f +- %.5f, %.5f +- %.5f; sum %.6f; "
                "Kaplan-Yorke %.5f +- %.5f\n",
                T, r.exponent[0], r.err[0], r.exponent[1], r.err[1], r.exponent[2], r.err[2], sum,
                ky, ky_err);
  assert_int_equal(r.reduced, 0);
  /* reference values with 4 decimals (Sprott, Chaos and Time-Series
   * Analysis, 2003): their rounding, 5e-5, plus 4 standard errors */
  assert_close(r.exponent[0], 0.9056, 4 * r.err[0] + 5e-5);
  assert_close(r.exponent[1], 0.0, 4 * r.err[1] + 5e-5);
  assert_close(r.exponent[2], -14.5723, 4 * r.err[2] + 5e-5);
  assert_close(sum, -(10.0 + 1.0 + 8.0 / 3.0), 1e-3);
  /* 2.062: three digits, 5e-4, plus 4 standard errors of ours */
  assert_close(ky, 2.062, 4 * ky_err + 5e-4);
  assert_true(ky_err < (quick() ? 0.01 : 1e-3));
  cs_lyapunov_ws_free(w);
  release(m, p);
}

/* ------------------------------------------------------- linear system */

/* x' = A x, A block upper triangular: eigenvalues 0.3, -0.5 +- 2i, -2 */
static const double lin_A[16] = {0.3, 1, 0, 2, 0, -0.5, 2, 1, 0, -2, -0.5, 3, 0, 0, 0, -2};

static int lin_rhs(double t, const double *y, double *f, const void *p)
{
  (void)t, (void)p;
  for (int i = 0; i < 4; i++) {
    f[i] = 0;
    for (int j = 0; j < 4; j++)
      f[i] += lin_A[i * 4 + j] * y[j];
  }
  return 0;
}

static int lin_jac(double t, const double *y, double *J, const void *p)
{
  (void)t, (void)y, (void)p;
  memcpy(J, lin_A, sizeof lin_A);
  return 0;
}

static void linear(void **state)
{
  (void)state;
  static const struct cs_var_desc st[4] = {
      {"a", "1", "", 0, 0}, {"b", "1", "", 0, 0}, {"c", "1", "", 0, 0}, {"d", "1", "", 0, 0}};
  struct cs_model m = {.name = "linear",
                       .n_state = 4,
                       .state = st,
                       .rhs = lin_rhs,
                       .jac = lin_jac,
                       .params_size = 1};
  char p = 0;
  struct cs_integrator_opts o = opts_of(1e-10, 1e-12);
  struct cs_lyapunov_ws *w = cs_lyapunov_ws_create(4);
  cs_lyapunov_ws_set_tangent_atol(w, 1e-10);
  double y0[4] = {0};
  struct cs_lyapunov_result r;
  assert_int_equal(cs_lyapunov_run(w, &m, &p, &o, 0.0, y0, 4, 400.0, 1.0, 0.0, &r), CS_OK);
  print_message("linear: %.6f %.6f %.6f %.6f\n", r.exponent[0], r.exponent[1], r.exponent[2],
                r.exponent[3]);
  /* the alignment of the first tenth leaves a transient of order
   * ln(condition of the eigenvectors) / T */
  const double want[4] = {0.3, -0.5, -0.5, -2.0};
  for (int i = 0; i < 4; i++)
    assert_close(r.exponent[i], want[i], 5e-3);
  /* the sum is the trace over the counted time exactly */
  assert_close(r.exponent[0] + r.exponent[1] + r.exponent[2] + r.exponent[3], -2.7, 1e-7);
  cs_lyapunov_ws_free(w);
}

/* ------------------------------------------------ periodic orbits */

static void belt_event_driven(void **state)
{
  (void)state;
  const char *sets[] = {"model.law=event-driven"};
  struct cs_config cfg;
  if (cs_config_load(FIG4A, sets, 1, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const struct cs_model *m = cfg.model;
  void *p = cfg.params;
  const double T = 131.1307113, mu = 0.805357621, want = log(mu) / T;
  struct cs_lyapunov_ws *w = cs_lyapunov_ws_create(4);
  const int periods[] = {10, 40, 160};
  int nrun = quick() ? 1 : 3;
  double prev = INFINITY;
  for (int i = 0; i < nrun; i++) {
    struct cs_lyapunov_result r;
    /* renormalised 8 times a period: the counted time is whole periods */
    enum cs_status st =
        cs_lyapunov_run(w, m, p, &cfg.solver, 0.0, cfg.y0, 4, periods[i] * T, T / 8, 0.0, &r);
    if (st != CS_OK)
      fail_msg("%s", cs_errmsg());
    double err = fabs(r.exponent[1] - want);
    print_message("belt 4a event-driven, %4d periods: %.6e %.6e %g %g (reduced %d, %ld switches), "
                  "lambda2 - ln(mu)/T = %.3e, sum %.8e vs %.8e\n",
                  periods[i], r.exponent[0], r.exponent[1], r.exponent[2], r.exponent[3], r.reduced,
                  r.switches, r.exponent[1] - want, r.exponent[0] + r.exponent[1], want);
    assert_int_equal(r.reduced, 2);
    assert_true(r.exponent[2] == -INFINITY && r.exponent[3] == -INFINITY);
    assert_true(r.err[2] == 0.0);
    /* 2-volumes in the invariant plane grow by |det| = mu per period */
    assert_close(r.exponent[0] + r.exponent[1], want, 1e-6);
    assert_true(err < prev);
    prev = err;
  }
  cs_lyapunov_ws_free(w);
  cs_config_free(&cfg);
}

/* Van der Pol mu = 1: the exponents of the limit cycle are 0 (the flow
 * direction) and ln|mu_2| / T. The error of a run is the alignment's
 * transient spread over the counted time; with mu_2 = 0.00086 the vectors
 * align within the uncounted first tenth, so the error falls to the
 * integration's floor at once (the belt below, mu_2 = 0.805, shows 1/L). */
static void vanderpol_cycle(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_vanderpol;
  void *pu = make_params(m);
  struct cs_orbit_ws *ow = cs_orbit_ws_create(m, pu, -1);
  assert_non_null(ow);
  struct cs_orbit_opts oo = cs_orbit_opts_default();
  oo.solver = opts_of(1e-10, 1e-12);
  double y0[2] = {2, 0}, t, y[16], T;
  assert_int_equal(cs_orbit_guess(ow, &oo, 0.0, y0, 50.0, &t, y, &T), CS_OK);
  struct cs_orbit orb;
  assert_int_equal(cs_orbit_find(ow, &oo, t, y, T, &orb), CS_OK);
  assert_true(orb.converged);
  double want = log(fabs(orb.mult_re[0])) / orb.period;
  void *p = params_of(m);
  struct cs_lyapunov_ws *w = cs_lyapunov_ws_create(2);
  cs_lyapunov_ws_set_tangent_atol(w, 1e-10);
  struct cs_integrator_opts o = opts_of(1e-10, 1e-12);
  const int periods[] = {10, 40, 160};
  double err[3];
  for (int i = 0; i < 3; i++) {
    struct cs_lyapunov_result r;
    assert_int_equal(cs_lyapunov_run(w, m, p, &o, 0.0, orb.y, 2, periods[i] * orb.period,
                                     orb.period / 8, 0.0, &r),
                     CS_OK);
    err[i] = fmax(fabs(r.exponent[0]), fabs(r.exponent[1] - want));
    print_message("Van der Pol cycle (T %.6f, ln|mu|/T %.6f), %3d periods: %.3e %.6f, "
                  "error %.2e\n",
                  orb.period, want, periods[i], r.exponent[0], r.exponent[1], err[i]);
    /* 2-volumes grow by det M = mu_2 per period, whatever the alignment */
    assert_close(r.exponent[0] + r.exponent[1], want, 1e-6);
  }
  assert_true(err[0] < 1e-4 && err[1] <= err[0] && err[2] < 1e-9);
  cs_lyapunov_ws_free(w);
  cs_orbit_ws_free(ow);
  release(m, p);
  free(pu);
}

/* ------------------------------------------------------- Kaplan-Yorke */

static void kaplan_yorke(void **state)
{
  (void)state;
  const double a[] = {1, 0, -2}, b[] = {-1, -2}, c[] = {0.5, 0.2}, d[] = {1, -INFINITY},
               e[] = {0.3, 0.1, -0.2, -1}, f[] = {1, NAN};
  assert_close(cs_kaplan_yorke(a, 3), 2.5, 1e-15);
  assert_close(cs_kaplan_yorke(b, 2), 0.0, 0.0);
  assert_close(cs_kaplan_yorke(c, 2), 2.0, 0.0);
  assert_close(cs_kaplan_yorke(d, 2), 1.0, 0.0);   /* a lost direction: nothing of it */
  assert_close(cs_kaplan_yorke(e, 4), 3.2, 1e-15); /* hyperchaos: 0.2 / 1 of the fourth */
  assert_true(isnan(cs_kaplan_yorke(f, 2)));
}

/* ------------------------------------------------------------ 0-1 test */

#define N01 2000 /* values per series: the test's sample size */

static double logistic_k(double r)
{
  double x[N01], v = 0.3;
  for (int i = 0; i < 1000; i++) /* onto the attractor */
    v = r * v * (1 - v);
  for (int i = 0; i < N01; i++)
    x[i] = v = r * v * (1 - v);
  return cs_zero_one_k(x, N01);
}

static void zero_one_series(void **state)
{
  (void)state;
  double k_chaos = logistic_k(3.97), k_per = logistic_k(3.5), k_per3 = logistic_k(3.83);
  /* a quasiperiodic series: two incommensurate frequencies (golden mean,
   * sqrt 2), the data of a torus */
  double x[N01];
  for (int i = 0; i < N01; i++)
    x[i] = cos(2 * M_PI * 0.5 * (sqrt(5.0) - 1) * i) + 0.5 * cos(2 * M_PI * (sqrt(2.0) - 1) * i);
  double k_qp = cs_zero_one_k(x, N01);
  print_message("0-1 test, N = %d: logistic 3.97 (chaotic) K = %.4f, 3.5 (period 4) %.4f, 3.83 "
                "(period 3) %.4f, quasiperiodic %.4f\n",
                N01, k_chaos, k_per, k_per3, k_qp);
  assert_true(k_chaos > 0.9);
  assert_true(fabs(k_per) < 0.1 && fabs(k_per3) < 0.1);
  assert_true(fabs(k_qp) < 0.1);
  /* the same data, the same K (fixed seed) */
  assert_true(cs_zero_one_k(x, N01) == k_qp);
  /* too short, constant: no verdict */
  assert_true(isnan(cs_zero_one_k(x, CS_ZERO_ONE_MIN - 1)));
  for (int i = 0; i < N01; i++)
    x[i] = 1.5;
  assert_true(isnan(cs_zero_one_k(x, N01)));
}

/* The point analysis runs it on the section points: Lorenz's are chaotic,
 * and the exponent agrees (chaos_disagree 0). */
static void zero_one_lorenz(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_lorenz;
  void *p = params_of(m);
  struct cs_point_ws *ws = cs_point_ws_create(3, 4000);
  struct cs_point_spec s = cs_point_spec_default();
  s.solver = opts_of(1e-8, 1e-10);
  s.transient = 50;
  s.record = 1700; /* 1.2 crossings per time unit: about 2000 section points */
  s.max_points = 4000;
  s.lyapunov = 2;
  s.lyapunov_time = quick() ? 100 : 300;
  struct cs_point_result r;
  assert_int_equal(cs_point_analyse(m, p, m->state_default, &s, ws, &r), CS_OK);
  print_message("Lorenz point: %s, %zu section points, K = %.4f, spectrum %.4f %.4f %.4f, "
                "Kaplan-Yorke %.4f, reduced %d, disagree %d\n",
                cs_class_name(r.cls), r.n_section, r.zero_one, r.spectrum[0], r.spectrum[1],
                r.spectrum[2], r.kaplan_yorke, r.reduced_dimension, r.chaos_disagree);
  assert_int_equal(r.cls, CS_CLASS_CHAOTIC);
  assert_true(r.n_section >= 1500);
  assert_true(r.zero_one > 0.9);
  assert_int_equal(r.chaos_disagree, 0);
  assert_int_equal(r.reduced_dimension, 0);
  assert_close(r.kaplan_yorke, 2.062, 0.02);
  for (int j = 0; j < 3; j++)
    assert_true(isfinite(r.spectrum_err[j]) && r.spectrum_err[j] >= 0);
  cs_point_ws_free(ws);
  release(m, p);
}

/* ------------------------------------------------ figure 5a, chaotic */

#define FIG5A CONTENSOU_SOURCE_DIR "/params/pendulum_fig5a.ini"

/* The pendulum with one more state: q' = div f = trace of the Jacobian. */
struct divq {
  const struct cs_model *m;
  const void *p;
  double J[64];
};

static int divq_rhs(double t, const double *y, double *f, const void *vp)
{
  struct divq *d = (struct divq *)vp;
  size_t n = d->m->n_state;
  memset(d->J, 0, sizeof d->J);
  int rc = d->m->rhs(t, y, f, d->p);
  if (!rc)
    rc = d->m->jac(t, y, d->J, d->p);
  double tr = 0;
  for (size_t i = 0; i < n; i++)
    tr += d->J[i * n + i];
  f[n] = tr;
  return rc;
}

/* A chaotic point of figure 5a (omega0 = 73.724 rad/s, on the band 73.2 ..
 * 75.2 of the 240-point sweep): the sum of the six exponents against the
 * time mean of the divergence along an independent run of the orbit (the
 * trace of the Jacobian integrated by ARKODE as a seventh state): Liouville,
 * the phase-space volume contracts at the mean divergence. And the 0-1 test
 * on its section points: chaotic, as the exponent says. */
static void fig5a_chaotic(void **state)
{
  (void)state;
  const char *sets[] = {"parameters.omega0=73.724"};
  struct cs_config cfg;
  if (cs_config_load(FIG5A, sets, 1, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const struct cs_model *m = cfg.model;
  size_t n = m->n_state;
  struct cs_point_ws *ws = cs_point_ws_create(n, 2000);
  struct cs_point_spec s = cs_point_spec_default();
  s.solver = cfg.solver;
  s.section = cfg.section;
  s.transient = 20;
  s.adaptive_transient = 1;
  s.transient_max = 60;
  s.record = 20;
  s.lyapunov = 2;
  s.lyapunov_full = 1;
  /* quick: 80 s, not 40: over 40 s the largest exponent's standard error
   * (about 0.08 1/s) can make 3 err, the chaos threshold, cover it (0.24
   * after the friction law's rounding changed: "quasi-periodic") */
  double T = quick() ? 80 : 200;
  s.lyapunov_time = T;
  struct cs_point_result r;
  assert_int_equal(cs_point_analyse(m, cfg.params, cfg.y0, &s, ws, &r), CS_OK);
  double sum = 0, var = 0;
  for (size_t j = 0; j < n; j++)
    sum += r.spectrum[j], var += r.spectrum_err[j] * r.spectrum_err[j];
  /* the divergence's mean over as long a run, in 10 blocks for its error */
  struct divq d = {m, cfg.params, {0}};
  struct cs_integrator *in = cs_integrator_create(n + 1);
  struct cs_ode ode = {n + 1, divq_rhs, NULL, &d};
  double y[16] = {0}, blocks[10];
  memcpy(y, r.final_state, n * sizeof *y);
  struct cs_integrator_opts o = cfg.solver;
  o.atol = 1e-10, o.atol_vec = NULL;
  assert_int_equal(cs_integrator_reset(in, &ode, &o, r.t_final, y), CS_OK);
  double q0 = 0, mean = 0, bvar = 0;
  for (int b = 0; b < 10; b++) {
    assert_int_equal(cs_integrator_advance(in, r.t_final + (b + 1) * T / 10, NULL, y, NULL), CS_OK);
    blocks[b] = (y[n] - q0) / (T / 10), q0 = y[n];
    mean += blocks[b] / 10;
  }
  for (int b = 0; b < 10; b++)
    bvar += (blocks[b] - mean) * (blocks[b] - mean) / 90;
  cs_integrator_free(in);
  print_message("figure 5a, omega0 73.724 rad/s, T = %g s: %s, spectrum %.4f %.4f %.4f %.4f %.4f "
                "%.4f 1/s, sum %.4f (+- %.3f), mean divergence %.4f +- %.4f 1/s; Kaplan-Yorke "
                "%.3f; 0-1 K = %.4f on %ld section points\n",
                T, cs_class_name(r.cls), r.spectrum[0], r.spectrum[1], r.spectrum[2], r.spectrum[3],
                r.spectrum[4], r.spectrum[5], sum, sqrt(var), mean, sqrt(bvar), r.kaplan_yorke,
                r.zero_one, r.zero_one_points);
  assert_int_equal(r.cls, CS_CLASS_CHAOTIC);
  /* two estimates of one mean, each with its standard error (the sum's
   * taken as if the exponents' errors were independent) */
  assert_close(sum, mean, 4 * sqrt(var + bvar));
  assert_true(r.kaplan_yorke > 2 && r.kaplan_yorke < 3);
  assert_true(r.zero_one > 0.8);
  assert_true(r.zero_one_points >= 200);
  assert_int_equal(r.chaos_disagree, 0);
  cs_point_ws_free(ws);
  cs_config_free(&cfg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lorenz),
      cmocka_unit_test(linear),
      cmocka_unit_test(belt_event_driven),
      cmocka_unit_test(vanderpol_cycle),
      cmocka_unit_test(kaplan_yorke),
      cmocka_unit_test(zero_one_series),
      cmocka_unit_test(zero_one_lorenz),
      cmocka_unit_test(fig5a_chaotic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
