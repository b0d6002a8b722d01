/* SPDX-License-Identifier: MIT */
/* Point analysis on systems with known answers (src/models/reference.c):
 * section crossing times of the damped oscillator against its closed form,
 * the Van der Pol period, the forced Duffing oscillator's period doubling
 * 1 -> 2 -> 4 -> chaos in gamma, the Lorenz exponent 0.906 and its spectrum's
 * trace identity; equilibria, escape, failure, adaptive transients through a
 * chaotic transient; the pendulum of figure 6b (periodic, no rotation) and
 * at omega0 = 30 (equilibrium); stick statistics of the two-mass system; an
 * event-driven model through cs_flow. */
#include "testmodel.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/classify.h"
#include "analysis/point.h"
#include "io/config.h"
#include "models/model.h"
#include "sweep/sweep.h"

extern const struct cs_model cs_model_oscillator, cs_model_vanderpol, cs_model_duffing,
    cs_model_lorenz, cs_model_pendulum, cs_model_twomass;

static void set(const struct cs_model *m, void *p, const char *name, double v)
{
  if (cs_model_set_param(m, p, name, v) != CS_OK)
    fail_msg("%s: cannot set %s = %g", m->name, name, v);
}

/* One point with a fresh workspace; fails the test on an invalid call. */
static void analyse(const struct cs_model *m, const void *p, const double *y0,
                    const struct cs_point_spec *s, struct cs_point_ws *ws,
                    struct cs_point_result *r)
{
  enum cs_status st = cs_point_analyse(m, p, y0, s, ws, r);
  if (st != CS_OK)
    fail_msg("%s: cs_point_analyse returned %s: %s", m->name, cs_strerror(st), r->message);
}

static struct cs_point_spec spec_for(const struct cs_model *m)
{
  struct cs_point_spec s = cs_point_spec_default();
  s.section = m->section;
  return s;
}

/* x(t) = A exp(-a t) cos(wd t + ph); the k-th derivative is
 * A w^k exp(-a t) cos(wd t + ph + k th), th = atan2(wd, -a). The upward zeros
 * of derivative k: wd t + ph + k th = -pi/2 (mod 2 pi). */
static double next_upward_zero(double t, double wd, double ph, double th, int k)
{
  double u = -M_PI / 2 - ph - k * th;
  double m = ceil((wd * t - u) / (2 * M_PI) - 1e-12);
  return (u + 2 * M_PI * m) / wd;
}

static void oscillator_crossing_times(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_oscillator;
  void *p = make_params(m);
  const double w = 2.385, zeta = 0.0613;
  set(m, p, "w", w);
  set(m, p, "zeta", zeta);
  prepare_ok(m, p);
  const double a = zeta * w, wd = w * sqrt(1 - zeta * zeta), th = atan2(wd, -a);
  const double x0 = 1.3, v0 = 0.4, y0[2] = {x0, v0};
  /* x0 = A cos ph, v0 = A w cos(ph + th) */
  const double ph = atan2(x0 * cos(th) - v0 / w, x0 * sin(th));
  struct cs_point_ws *ws = cs_point_ws_create(2, 100);
  assert_non_null(ws);
  struct cs_point_result r;
  for (int variant = 0; variant < 4; variant++) {
    /* state section x = 0 and derived section a = x'' = 0, at two tolerances */
    double rtol = variant % 2 ? 1e-10 : 1e-8;
    int k = variant < 2 ? 0 : 2;
    struct cs_point_spec s = spec_for(m);
    s.solver.rtol = rtol;
    s.solver.atol = 1e-2 * rtol;
    s.transient = 0.0;
    s.record = 40.0;
    if (k == 2)
      s.section = (struct cs_section_spec){CS_SECTION_HYPERPLANE, "a", 0.0, +1};
    analyse(m, p, y0, &s, ws, &r);
    assert_int_equal(r.n_section, 15);
    assert_int_equal(r.section_cols, 1 + 2 + 2);
    double emax = 0, t = 0;
    for (size_t i = 0; i < r.n_section; i++) {
      const double *row = r.section + i * r.section_cols;
      double tex = next_upward_zero(t, wd, ph, th, k);
      emax = fmax(emax, fabs(row[0] - tex));
      t = tex + 0.5 * M_PI / wd;
      assert_close(k ? row[4] : row[1], 0.0, 1e-12);
    }
    print_message("oscillator, section %s, rtol %g: max crossing-time error %.3g (%.2f rtol)\n",
                  k ? "a = 0" : "x = 0", rtol, emax, emax / rtol);
    assert_true(emax <= 2 * rtol);
    assert_true(r.cls != CS_CLASS_PERIODIC); /* a decaying oscillation */
  }
  cs_point_ws_free(ws);
  release(m, p);
}

static void vanderpol_period(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_vanderpol;
  void *p = make_params(m);
  set(m, p, "mu", 1.0);
  prepare_ok(m, p);
  struct cs_point_ws *ws = cs_point_ws_create(2, 200);
  struct cs_point_spec s = spec_for(m);
  s.transient = 50;
  s.record = 100;
  s.lyapunov = 1;
  s.lyapunov_always = 1;
  s.lyapunov_time = 200;
  struct cs_point_result r;
  analyse(m, p, m->state_default, &s, ws, &r);
  print_message("Van der Pol mu = 1: %s k = %d, period %.12f, exponent %.4f +- %.4f\n",
                cs_class_name(r.cls), r.period, r.period_time, r.lyapunov, r.lyapunov_err);
  assert_int_equal(r.cls, CS_CLASS_PERIODIC);
  assert_int_equal(r.period, 1);
  assert_close(r.period_time, 6.6632868593231, 1e-6);
  assert_close(r.lyapunov, 0.0, 0.02); /* the flow direction of a limit cycle */
  assert_true(isnan(r.rotation_number));
  assert_true(isnan(r.stick_fraction));
  assert_true(r.n_section >= 10);

  /* the same with the implicit stepper (its Newton matrix of the variational
   * equations is block-diagonal) */
  s.solver.stepper = CS_STEPPER_DIRK;
  s.lyapunov_time = 100;
  analyse(m, p, m->state_default, &s, ws, &r);
  assert_int_equal(r.cls, CS_CLASS_PERIODIC);
  assert_close(r.period_time, 6.6632868593231, 1e-6);
  assert_close(r.lyapunov, 0.0, 0.03);

  /* below the Hopf bifurcation: the origin */
  s.solver.stepper = CS_STEPPER_ERK;
  s.lyapunov_time = 50;
  set(m, p, "mu", -0.5);
  analyse(m, p, m->state_default, &s, ws, &r);
  assert_int_equal(r.cls, CS_CLASS_EQUILIBRIUM);
  assert_non_null(r.equilibrium);
  assert_int_equal(r.n_section, 0);
  assert_close(r.equilibrium[0], 0.0, 1e-8);
  assert_close(r.equilibrium[1], 0.0, 1e-8);
  assert_close(r.lyapunov, -0.25, 0.01); /* Re of the eigenvalues mu/2 +- i sqrt(1 - mu^2/4) */

  /* a section the orbit never reaches */
  set(m, p, "mu", 1.0);
  s.lyapunov = 0;
  s.section = (struct cs_section_spec){CS_SECTION_HYPERPLANE, "x", 5.0, 0};
  analyse(m, p, m->state_default, &s, ws, &r);
  assert_int_equal(r.cls, CS_CLASS_NO_CROSSINGS);

  /* crossing limit, and invalid sections */
  s.section = (struct cs_section_spec){CS_SECTION_HYPERPLANE, NULL, 0.0, 0};
  s.record_crossings = 5;
  analyse(m, p, m->state_default, &s, ws, &r);
  assert_int_equal(r.n_section, 5);
  assert_int_equal(r.cls, CS_CLASS_PERIODIC);
  s.section = (struct cs_section_spec){CS_SECTION_HYPERPLANE, "nonesuch", 0.0, 0};
  assert_int_equal(cs_point_analyse(m, p, m->state_default, &s, ws, &r), CS_ERR_NOT_FOUND);
  assert_true(strstr(r.message, "nonesuch") != NULL);
  s.section = (struct cs_section_spec){CS_SECTION_STROBOSCOPIC, NULL, 0.0, 0};
  assert_int_equal(cs_point_analyse(m, p, m->state_default, &s, ws, &r), CS_ERR_ARG);
  assert_int_equal(r.cls, CS_CLASS_FAILED);
  cs_point_ws_free(ws);
  release(m, p);
}

/* delta = 0.3, alpha = -1, beta = 1, omega = 1.2 from (x, v) = (1, 0). Measured
 * windows (stroboscopic section, transients 300 and 1000, 40 initial states
 * each): period 1 below gamma = 0.265, period 2 on [0.265, 0.2855], period 4
 * on [0.286, 0.2905], period 8 near 0.2915, chaos beyond 0.2925 (with
 * periodic windows, e.g. period 5 at 0.35-0.38). The gammas below sit in the
 * middle of their windows. */
static void duffing_period_doubling(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_duffing;
  void *p = make_params(m);
  prepare_ok(m, p);
  struct cs_point_ws *ws = cs_point_ws_create(2, 500);
  struct cs_point_spec s = spec_for(m);
  assert_int_equal(s.section.kind, CS_SECTION_STROBOSCOPIC);
  s.transient = 500;
  s.record = 300;
  s.lyapunov = 1;
  s.lyapunov_time = 1000;
  const double T = 2 * M_PI / 1.2, y0[2] = {1.0, 0.0};
  const double gammas[] = {0.22, 0.275, 0.2885};
  const int periods[] = {1, 2, 4};
  struct cs_point_result r;
  for (int i = 0; i < 3; i++) {
    set(m, p, "gamma", gammas[i]);
    analyse(m, p, y0, &s, ws, &r);
    print_message("Duffing gamma = %g: %s, k = %d, period %.10f\n", gammas[i], cs_class_name(r.cls),
                  r.period, r.period_time);
    assert_int_equal(r.cls, CS_CLASS_PERIODIC);
    assert_int_equal(r.period, periods[i]);
    assert_close(r.period_time, periods[i] * T, 1e-9);
    assert_true(isnan(r.lyapunov)); /* periodic: not computed */
    /* stroboscopic points at multiples of T; continuation keeps the phase */
    double k = r.section[0] / T;
    assert_close(k, round(k), 1e-9);
    k = r.t_final / T;
    assert_close(k, round(k), 1e-9);
    /* the orbit repeats: section point i and i + k agree */
    size_t n = r.n_section, c = r.section_cols, kk = (size_t)periods[i];
    assert_close(r.section[(n - 1) * c + 1], r.section[(n - 1 - kk) * c + 1], 1e-6);
    assert_true(fabs(r.section[(n - 1) * c + 1] - r.section[(n - 2) * c + 1]) > 1e-3 || kk == 1);
  }
  set(m, p, "gamma", 0.5);
  analyse(m, p, y0, &s, ws, &r);
  print_message("Duffing gamma = 0.5: %s, exponent %.4f +- %.4f\n", cs_class_name(r.cls),
                r.lyapunov, r.lyapunov_err);
  assert_int_equal(r.cls, CS_CLASS_CHAOTIC);
  assert_true(r.lyapunov > 0.05 && r.lyapunov > 3 * r.lyapunov_err);
  assert_int_equal(r.period, 0);

  /* alpha = beta = -1: x'' = x + x^3 + ... blows up in finite time */
  set(m, p, "alpha", -1);
  set(m, p, "beta", -1);
  const double y1[2] = {1.0, 1.0};
  analyse(m, p, y1, &s, ws, &r);
  assert_int_equal(r.cls, CS_CLASS_ESCAPED);
  assert_int_equal(r.status, CS_OK);
  assert_true(strstr(r.message, "escape") != NULL);
  assert_true(r.t_final < 10.0);
  assert_true(fabs(r.final_state[0]) >= 0.999e6 || fabs(r.final_state[1]) >= 0.999e6);

  /* max_steps too small: failed, with the integrator's reason */
  set(m, p, "alpha", -1);
  set(m, p, "beta", 1);
  s.solver.max_steps = 5;
  analyse(m, p, y0, &s, ws, &r);
  assert_int_equal(r.cls, CS_CLASS_FAILED);
  assert_int_equal(r.status, CS_ERR_TOO_MUCH_WORK);
  assert_true(strstr(r.message, "too much work") != NULL);
  cs_point_ws_free(ws);
  release(m, p);
}

static void lorenz_exponents(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_lorenz;
  void *p = make_params(m);
  prepare_ok(m, p);
  struct cs_point_ws *ws = cs_point_ws_create(3, 200);
  struct cs_point_spec s = spec_for(m);
  s.transient = 50;
  s.record = 50;
  s.lyapunov = 1;
  s.lyapunov_time = 1000;
  struct cs_point_result r;
  analyse(m, p, m->state_default, &s, ws, &r);
  print_message("Lorenz: %s, largest exponent %.4f +- %.4f\n", cs_class_name(r.cls), r.lyapunov,
                r.lyapunov_err);
  assert_int_equal(r.cls, CS_CLASS_CHAOTIC);
  assert_close(r.lyapunov, 0.906, 0.02);
  assert_true(r.lyapunov_err > 0 && r.lyapunov_err < 0.02);
  assert_true(isnan(r.spectrum[0]));
  assert_true(r.n_section > 20);
  for (size_t i = 0; i < r.n_section; i++) /* the section zc = z - (rho - 1) = 0 */
    assert_close(r.section[i * r.section_cols + 3], 27.0, 1e-9);

  /* full spectrum: sum = trace of the Jacobian = -(sigma + 1 + beta) */
  s.lyapunov = 2;
  s.lyapunov_time = 100;
  analyse(m, p, m->state_default, &s, ws, &r);
  double sum = r.spectrum[0] + r.spectrum[1] + r.spectrum[2];
  print_message("Lorenz spectrum %.4f %.4f %.4f, sum %.8f\n", r.spectrum[0], r.spectrum[1],
                r.spectrum[2], sum);
  assert_close(sum, -(10.0 + 1.0 + 8.0 / 3.0), 1e-2);
  assert_close(r.spectrum[0], r.lyapunov, 0.0);
  assert_close(r.spectrum[1], 0.0, 0.05);
  assert_close(r.spectrum[2], -14.572, 0.1);
  assert_true(isnan(r.spectrum[3]));

  /* no Jacobian: no exponent, the class stays undecided */
  struct cs_model nojac = cs_model_lorenz;
  nojac.jac = NULL;
  s.lyapunov = 1;
  analyse(&nojac, p, m->state_default, &s, ws, &r);
  assert_true(isnan(r.lyapunov));
  assert_int_equal(r.cls, CS_CLASS_APERIODIC);
  assert_true(strstr(r.message, "Jacobian") != NULL);
  cs_point_ws_free(ws);
  release(m, p);
}

/* Below rho = 24.06 the Lorenz system has only the stable equilibria C+ and
 * C- besides the origin, but orbits wander chaotically for a while first
 * (Kaplan & Yorke's preturbulence). A short fixed transient mistakes the
 * chaotic transient for the attractor; the adaptive one runs through it. */
static void adaptive_transient(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_lorenz;
  void *p = make_params(m);
  set(m, p, "rho", 23.0);
  prepare_ok(m, p);
  struct cs_point_ws *ws = cs_point_ws_create(3, 200);
  struct cs_point_spec s = spec_for(m);
  s.transient = 20;
  s.record = 50;
  const double y0[3] = {1.0, 1.0, 20.0};
  struct cs_point_result r;
  analyse(m, p, y0, &s, ws, &r);
  assert_int_not_equal(r.cls, CS_CLASS_EQUILIBRIUM);
  assert_close(r.transient_used, 20.0, 0.0);
  assert_true(isnan(r.drift));
  s.adaptive_transient = 1;
  s.transient_max = 2000;
  analyse(m, p, y0, &s, ws, &r);
  print_message("Lorenz rho = 23: fixed transient not settled, adaptive: %s after %g (drift %g)\n",
                cs_class_name(r.cls), r.transient_used, r.drift);
  assert_int_equal(r.cls, CS_CLASS_EQUILIBRIUM);
  assert_true(r.transient_used > s.transient && r.transient_used <= s.transient_max);
  double zc = 23.0 - 1.0, xc = sqrt(8.0 / 3.0 * zc);
  assert_close(fabs(r.equilibrium[0]), xc, 1e-6);
  assert_close(r.equilibrium[2], zc, 1e-6);

  /* a weakly damped oscillator: settles only after many windows */
  const struct cs_model *o = &cs_model_oscillator;
  void *po = make_params(o);
  set(o, po, "zeta", 0.01);
  prepare_ok(o, po);
  s = spec_for(o);
  s.transient = 100;
  s.record = 100;
  s.adaptive_transient = 1;
  s.transient_max = 5000;
  analyse(o, po, o->state_default, &s, ws, &r);
  assert_int_equal(r.cls, CS_CLASS_EQUILIBRIUM);
  assert_true(r.transient_used >= 1000);
  cs_point_ws_free(ws);
  release(o, po);
  release(m, p);
}

/* The contraction estimator on section points of a known geometric
 * approach to a period-2 orbit: P_j = P_inf + a_j rho^j per column, cycle
 * times tau_inf + b rho^j. It must find rho, the remaining change and the
 * period's limit; with changes at round-off (no contraction) the
 * remaining change is the latest one. */
static void contraction_estimate(void **state)
{
  (void)state;
  enum { K = 2, CYC = 9, NR = K * CYC, COLS = 4 };
  const double rho = 0.805, tau_inf = 131.1307113, b = 2.7e-4;
  double rows[NR * COLS];
  int angle[3] = {0, 0, 0};
  double abs_tol[3] = {1e-12, 1e-12, 1e-12};
  double t = 17.25;
  for (int j = 0; j < CYC; j++)
    for (int i = 0; i < K; i++) {
      double *r = rows + (j * K + i) * COLS;
      r[0] = t + i * 0.4 * tau_inf;
      r[1] = 0.0; /* the section variable */
      r[2] = (i ? -0.83 : 16.2) + (i ? 2.6e-3 : -2.4e-3) * pow(rho, j);
      r[3] = (i ? 0.761 : -0.7) + 1.7e-5 * pow(rho, j);
      if (i == K - 1)
        t += tau_inf + b * pow(rho, j);
    }
  struct cs_sect_cmp c = {
      .n = 3, .cols = COLS, .angle = angle, .abs_tol = abs_tol, .tol = 1e-5, .skip = 0};
  struct cs_sect_conv cv;
  cs_sect_converge(&c, rows, NR, K, &cv);
  print_message("contraction: rho %.6f, last %.4g, remaining %.4g, period %.10f\n", cv.rho, cv.last,
                cv.remaining, cv.period_time);
  assert_int_equal(cv.cycles, CYC - 1);
  assert_close(cv.rho, rho, 1e-9);
  assert_close(cv.remaining, cv.last * rho / (1 - rho), 1e-9);
  assert_true(cv.remaining > 1.0); /* passes the period test (last < 1), not converged */
  assert_true(cv.last < 1.0);
  assert_float_equal(cv.period_time, tau_inf, 1e-9);
  /* no contraction: a change of 1e-3 tolerances, alternating in sign */
  for (int j = 0; j < CYC; j++)
    for (int i = 0; i < K; i++)
      rows[(j * K + i) * COLS + 2] = (i ? -0.83 : 16.2) + ((j & 1) ? 1.6e-10 : -1.6e-10);
  for (int j = 0; j < CYC; j++)
    for (int i = 0; i < K; i++)
      rows[(j * K + i) * COLS + 3] = i ? 0.761 : -0.7;
  cs_sect_converge(&c, rows, NR, K, &cv);
  assert_true(cv.remaining <= 1e-2);
  assert_true(isnan(cv.period_time));
}

/* The approach to a period-1 orbit with multiplier -0.95 (points alternating
 * around it, the alternation shrinking by 0.95 per crossing) passes the
 * period-2 test long before the period-1 test; its differences one apart
 * shrink geometrically (cs_sect_decays: rho 0.95). A true period-2 orbit with
 * round-off, and a true period-6 orbit seen at half its period, do not. */
static void decaying_alternation(void **state)
{
  (void)state;
  enum { NR = 40, COLS = 3 };
  double rows[NR * COLS];
  int angle[2] = {0, 0};
  double abs_tol[2] = {1e-11, 1e-11};
  struct cs_sect_cmp c = {
      .n = 2, .cols = COLS, .angle = angle, .abs_tol = abs_tol, .tol = 1e-5, .skip = 0};
  for (int i = 0; i < NR; i++) {
    double *r = rows + i * COLS;
    r[0] = 5.2359877559829887 * i; /* crossing times */
    r[1] = 0.0;                    /* the section variable */
    r[2] = 0.4128583 + 1.2e-5 * pow(-0.95, i);
  }
  double pt, rho = 0, rem = 0;
  size_t first;
  assert_int_equal(cs_sect_period(&c, rows, NR, 8, &pt, &first), 2);
  assert_int_equal(cs_sect_decays(&c, rows, NR, 1, &rho, &rem), 1);
  assert_close(rho, 0.95, 1e-9);
  assert_true(rem > 1.0); /* not converged: the transient must go on */
  /* a true period 2 (multiplier +0.3 of the 2-cycle), round-off 1e-15 */
  for (int i = 0; i < NR; i++)
    rows[i * COLS + 2] = (i & 1 ? 0.40 : 0.43) + 1e-15 * sin(3.7 * i);
  assert_int_equal(cs_sect_period(&c, rows, NR, 8, &pt, &first), 2);
  assert_int_equal(cs_sect_decays(&c, rows, NR, 1, &rho, &rem), 0);
  /* a true period 6 seen at period 3 */
  const double six[6] = {-0.046052347, 0.135246362,  -0.008862437,
                         0.172933711,  -0.046118739, 0.088698738};
  for (int i = 0; i < NR; i++)
    rows[i * COLS + 2] = six[i % 6] * (1 + 1e-13 * cos(1.3 * i));
  assert_int_equal(cs_sect_period(&c, rows, NR, 8, &pt, &first), 6);
  assert_int_equal(cs_sect_decays(&c, rows, NR, 3, &rho, &rem), 0);
  assert_int_equal(cs_sect_decays(&c, rows, NR, 2, &rho, &rem), 0);
}

/* JTAM figure 4a, event-driven, with params/belt_fig4a.ini's own sweep
 * settings at eta = 4.98: the stick-slip orbit contracts by 0.805 per
 * cycle, so passing the periodicity test (period_tol 1e-5) left the period
 * at 131.1306967; the converged orbit's is 131.13071130 (a run of 60 cycles:
 * the cycle times converge geometrically to it, see classify.c). */
static void belt_converged_period(void **state)
{
  (void)state;
  struct cs_config cfg;
  const char *sets[] = {"model.law=event-driven"};
  if (cs_config_load(CONTENSOU_SOURCE_DIR "/params/belt_fig4a.ini", sets, 1, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  struct cs_sweep_spec sw;
  if (cs_sweep_spec_from_config(&cfg, &sw) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const struct cs_model *m = cfg.model;
  struct cs_point_ws *ws = cs_point_ws_create(m->n_state, 1000);
  struct cs_point_result r;
  analyse(m, cfg.params, cfg.y0, &sw.point, ws, &r);
  print_message("belt 4a event-driven, eta 4.98: %s, period %d, %.10f after a transient of %g\n",
                cs_class_name(r.cls), r.period, r.period_time, r.transient_used);
  assert_int_equal(r.cls, CS_CLASS_PERIODIC);
  assert_int_equal(r.period, 1);
  assert_float_equal(r.period_time, 131.13071130, 1e-7);
  cs_point_ws_free(ws);
  cs_config_free(&cfg);
}

static void pendulum_fig6b(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_pendulum;
  void *p = make_params(m);
  prepare_ok(m, p);
  assert_close(cs_model_get_param(m, p, cs_model_param_index(m, "omega0")), 40.0, 0.0);
  struct cs_point_ws *ws = cs_point_ws_create(6, 200);
  struct cs_point_spec s = spec_for(m);
  s.transient = 20;
  s.record = 10;
  struct cs_point_result r;
  analyse(m, p, m->state_default, &s, ws, &r);
  print_message("pendulum omega0 = 40: %s, k = %d, period %.8f s, rotation number %.3g\n",
                cs_class_name(r.cls), r.period, r.period_time, r.rotation_number);
  assert_int_equal(r.cls, CS_CLASS_PERIODIC);
  assert_int_equal(r.period, 1);
  assert_close(r.rotation_number, 0.0, 1e-6);
  assert_close(r.stick_fraction, 0.0, 0.0);
  assert_true(r.period_time > 0.1 && r.period_time < 0.3);

  release(m, p);
  p = make_params(m);
  set(m, p, "omega0", 30.0);
  prepare_ok(m, p);
  analyse(m, p, m->state_default, &s, ws, &r);
  assert_int_equal(r.cls, CS_CLASS_EQUILIBRIUM);
  assert_close(r.rotation_number, 0.0, 0.0);
  for (int i = 3; i < 6; i++)
    assert_close(r.equilibrium[i], 0.0, 1e-8);
  cs_point_ws_free(ws);
  release(m, p);
}

/* The default two-mass system has a periodic stick-slip orbit with four
 * stick phases per forcing period and 22.45 % of the time in stick (counted
 * with 1e5 samples of one period); with strong forcing it slides throughout. */
static void twomass_stick_statistics(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_twomass;
  void *p = make_params(m);
  prepare_ok(m, p);
  struct cs_point_ws *ws = cs_point_ws_create(4, 200);
  struct cs_point_spec s = spec_for(m);
  s.transient = 20;
  s.record = 10 * 2 * M_PI / 6.0;
  s.stick_samples = 4000;
  struct cs_point_result r;
  analyse(m, p, m->state_default, &s, ws, &r);
  print_message("two-mass: %s k = %d, stick fraction %.4f, %.3f stick phases per period\n",
                cs_class_name(r.cls), r.period, r.stick_fraction, r.stick_phases);
  assert_int_equal(r.cls, CS_CLASS_PERIODIC);
  assert_int_equal(r.period, 1);
  assert_close(r.stick_fraction, 0.2245, 0.005);
  assert_close(r.stick_phases, 4.0, 0.05);
  assert_true(isnan(r.rotation_number));

  set(m, p, "A1", 40);
  set(m, p, "A2", 40);
  prepare_ok(m, p);
  analyse(m, p, m->state_default, &s, ws, &r);
  assert_close(r.stick_fraction, 0.0, 0.0);
  assert_close(r.stick_phases, 0.0, 0.0);
  cs_point_ws_free(ws);
  release(m, p);
}

/* An event-driven model: the oscillator with Coulomb friction x'' + x =
 * -F sgn x', modes slip+ / slip- / stick, switching where x' = 0. Each half
 * swing loses 2F of amplitude; from x = 3.7 with F = 0.25 it sticks at
 * x = -0.2 after seven half swings (t = 7 pi). */
struct coulomb {
  double F;
  int mode; /* +1, -1 slipping in that direction, 0 stuck */
};

static const struct cs_var_desc coulomb_state[] = {{"x", "1", "position", 0, 0},
                                                   {"v", "1", "velocity", 0, 0}};
static const struct cs_var_desc coulomb_outputs[] = {{"stick", "1", "1 when stuck", 0, 1}};
static const double coulomb_y0[] = {3.7, 0.0};

static int coulomb_rhs(double t, const double *y, double *ydot, const void *vp)
{
  (void)t;
  const struct coulomb *c = vp;
  ydot[0] = c->mode ? y[1] : 0.0;
  ydot[1] = c->mode ? -y[0] - c->F * c->mode : 0.0;
  return 0;
}

static int coulomb_derived(double t, const double *y, double *out, const void *vp)
{
  (void)t, (void)y;
  out[0] = ((const struct coulomb *)vp)->mode == 0;
  return 0;
}

static int coulomb_switch(double t, const double *y, double *g, const void *vp)
{
  (void)t;
  g[0] = ((const struct coulomb *)vp)->mode ? y[1] : 1.0;
  return 0;
}

static int coulomb_mode_init(double t, double *y, void *vp)
{
  (void)t;
  struct coulomb *c = vp;
  if (y[1] != 0)
    c->mode = y[1] > 0 ? 1 : -1;
  else if (fabs(y[0]) <= c->F)
    c->mode = 0;
  else
    c->mode = y[0] > 0 ? -1 : 1;
  return 0;
}

static int coulomb_apply(double t, double *y, const int *fired, void *vp)
{
  (void)fired;
  y[1] = 0.0;
  coulomb_mode_init(t, y, vp);
  return ((struct coulomb *)vp)->mode == 0;
}

static int coulomb_mode_of(const void *vp)
{
  return ((const struct coulomb *)vp)->mode;
}

static const char *const coulomb_kinds[] = {"reversal", "stick", NULL};

static enum cs_status coulomb_prepare(void *vp)
{
  (void)vp;
  return CS_OK;
}

static const struct cs_model coulomb_model = {
    .name = "coulomb",
    .n_state = 2,
    .state = coulomb_state,
    .state_default = coulomb_y0,
    .params_size = sizeof(struct coulomb),
    .n_derived = 1,
    .derived = coulomb_outputs,
    .stick_output = 0,
    .prepare = coulomb_prepare,
    .rhs = coulomb_rhs,
    .derived_fn = coulomb_derived,
    .section = {CS_SECTION_HYPERPLANE, "x", 0.0, +1},
    .n_switch = 1,
    .switch_fn = coulomb_switch,
    .switch_apply = coulomb_apply,
    .mode_init = coulomb_mode_init,
    .switch_kinds = coulomb_kinds,
    .mode_of = coulomb_mode_of,
};

static void event_driven_model(void **state)
{
  (void)state;
  const struct coulomb params = {0.25, 0};
  struct cs_point_ws *ws = cs_point_ws_create(2, 100);
  struct cs_point_spec s = spec_for(&coulomb_model);
  s.transient = 5.0; /* still swinging: crossings recorded */
  s.record = 40.0;
  s.stick_samples = 400;
  s.lyapunov = 1;
  s.lyapunov_always = 1;
  struct cs_point_result r;
  analyse(&coulomb_model, &params, coulomb_y0, &s, ws, &r);
  assert_int_equal(params.mode, 0); /* the caller's params are not touched */
  /* settled in the window's first half (at 7 pi = 22.0 < 25): an equilibrium */
  assert_int_equal(r.cls, CS_CLASS_EQUILIBRIUM);
  assert_close(r.equilibrium[0], -0.2, 1e-7);
  assert_close(r.equilibrium[1], 0.0, 0.0);
  assert_close(r.stick_fraction, 1.0 - (7 * M_PI - 5.0) / 40.0, 0.01);
  assert_close(r.stick_phases * 40.0, 1.0, 1e-12);
  /* no Jacobian: no exponent (event-driven laws with one: test_lyapunov.c) */
  assert_true(isnan(r.lyapunov));
  assert_true(strstr(r.message, "Jacobian") != NULL);
  cs_point_ws_free(ws);
}

/* An unstable equilibrium is not a verdict (point.c, "Unstable equilibria").
 * The subcritical Hopf normal form r' = mu r + r^3 - r^5, theta' = omega
 * started exactly at its equilibrium, the origin, where f = 0 to the last
 * bit, so only the kick can move it. For mu = 0.1 > 0 (eigenvalues mu +- i
 * omega) the point is the outer cycle, r^2 = (1 + sqrt(1 + 4 mu))/2 with
 * period 2 pi/omega (section y = 0 increasing: x = r), with and without
 * adaptive transients, and the windows follow the schedule of a kick: the
 * first window [200, 300] settles, the kick's growth time is ln(1e3)/mu;
 * without adaptive transients the recording starts two growth times and a
 * transient after the kick (mu = 1e-3: see below). For mu = -0.1 the origin
 * attracts: started on it
 * or inside the unstable cycle (r^2 = (1 - sqrt(1 + 4 mu))/2, r = 0.336),
 * the point stays the equilibrium, without a note. */
static void unstable_equilibrium(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("subhopf");
  assert_non_null(m);
  void *p = make_params(m);
  const double omega = 2 * M_PI, origin[2] = {0.0, 0.0};
  set(m, p, "omega", omega);
  struct cs_point_ws *ws = cs_point_ws_create(2, 1000);
  assert_non_null(ws);
  struct cs_point_result r;
  set(m, p, "mu", 0.1);
  prepare_ok(m, p);
  const double r_cycle = sqrt(0.5 * (1.0 + sqrt(1.4))), grow = log(1e3) / 0.1;
  for (int adaptive = 0; adaptive < 2; adaptive++) {
    struct cs_point_spec s = spec_for(m);
    s.adaptive_transient = adaptive;
    analyse(m, p, origin, &s, ws, &r);
    print_message("mu = 0.1, adaptive %d: %s, period %d, T %.12f, transient %g; %s\n", adaptive,
                  cs_class_name(r.cls), r.period, r.period_time, r.transient_used, r.message);
    assert_int_equal(r.cls, CS_CLASS_PERIODIC);
    assert_int_equal(r.period, 1);
    assert_close(r.period_time, 1.0, 1e-7);
    /* the last half of the window: the adaptive one may start on the way out */
    assert_true(r.n_section > 10);
    for (size_t i = r.n_section / 2; i < r.n_section; i++)
      assert_close(r.section[i * r.section_cols + 1], r_cycle, 1e-6);
    assert_non_null(strstr(r.message, "unstable equilibrium left at t = 300"));
    double re;
    const char *e = strstr(r.message, "eigenvalue ");
    assert_non_null(e);
    assert_int_equal(sscanf(e, "eigenvalue %lf", &re), 1);
    assert_close(re, 0.1, 1e-6); /* the message's %.6g of mu */
    if (adaptive)
      assert_true(r.transient_used >= 300 + grow);
    else
      assert_close(r.transient_used, 300 + 2 * grow + s.transient, 1e-9);
  }
  /* mu = 1e-3: a kick would take ln(1e3)/mu = 6908 to grow, beyond 25
   * transients (5000): the point is left undecided, aperiodic, its final
   * state the equilibrium, so that a continuation's next point starts there */
  set(m, p, "mu", 1e-3);
  prepare_ok(m, p);
  struct cs_point_spec slow = spec_for(m);
  analyse(m, p, origin, &slow, ws, &r);
  print_message("mu = 1e-3: %s; %s\n", cs_class_name(r.cls), r.message);
  assert_int_equal(r.cls, CS_CLASS_APERIODIC);
  assert_int_equal(r.n_section, 0);
  assert_null(r.equilibrium);
  assert_close(r.final_state[0], 0.0, 0.0);
  assert_close(r.final_state[1], 0.0, 0.0);
  assert_non_null(strstr(r.message, "a kick would need 6.91e+03 to grow, more than the 5e+03"));

  set(m, p, "mu", -0.1);
  prepare_ok(m, p);
  const double inside[2] = {0.2, 0.0};
  for (int adaptive = 0; adaptive < 2; adaptive++)
    for (int start = 0; start < 2; start++) {
      struct cs_point_spec s = spec_for(m);
      s.adaptive_transient = adaptive;
      analyse(m, p, start ? inside : origin, &s, ws, &r);
      assert_int_equal(r.cls, CS_CLASS_EQUILIBRIUM);
      assert_string_equal(r.message, "");
      assert_close(r.transient_used, s.transient, 0.0);
      assert_close(r.equilibrium[0], 0.0, start ? 1e-8 : 0.0);
      assert_close(r.equilibrium[1], 0.0, start ? 1e-8 : 0.0);
    }
  cs_point_ws_free(ws);
  free(p);
}

/* A saddle: Lorenz's origin has the real eigenvalues (-(sigma + 1) +-
 * sqrt((sigma + 1)^2 + 4 sigma (rho - 1)))/2 and -beta, and C+- = (+-c, +-c,
 * rho - 1), c = sqrt(beta (rho - 1)), are stable foci below rho = 24.74.
 * Started exactly at the origin, the point is kicked along the unstable
 * eigenvector (1, 1 + lambda/sigma, 0), signed so that its component largest
 * against the scales (y) is positive, and settles where that branch of the
 * unstable manifold goes: C+ below the homoclinic explosion at rho = 13.926,
 * C- above it (Sparrow, The Lorenz Equations, 1982, ch. 3; an RK4 run from
 * 1e-6 (1, 1 + lambda/sigma, 0) agrees at rho = 10 and 20). */
static void saddle_left(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_lorenz;
  void *p = make_params(m);
  struct cs_point_ws *ws = cs_point_ws_create(3, 1000);
  struct cs_point_spec s = spec_for(m);
  s.transient = 20, s.record = 20, s.adaptive_transient = 1, s.transient_max = 200;
  const double origin[3] = {0.0, 0.0, 0.0}, beta = 8.0 / 3.0;
  const double rhos[2] = {10.0, 20.0};
  for (int k = 0; k < 2; k++) {
    double rho = rhos[k], c = (k ? -1 : 1) * sqrt(beta * (rho - 1));
    double lambda = 0.5 * (-11.0 + sqrt(121.0 + 40.0 * (rho - 1)));
    set(m, p, "rho", rho);
    prepare_ok(m, p);
    struct cs_point_result r;
    analyse(m, p, origin, &s, ws, &r);
    print_message("Lorenz rho = %g from the origin: %s at (%.9f, %.9f, %.9f); %s\n", rho,
                  cs_class_name(r.cls), r.equilibrium ? r.equilibrium[0] : NAN,
                  r.equilibrium ? r.equilibrium[1] : NAN, r.equilibrium ? r.equilibrium[2] : NAN,
                  r.message);
    assert_int_equal(r.cls, CS_CLASS_EQUILIBRIUM);
    assert_close(r.equilibrium[0], c, 1e-5);
    assert_close(r.equilibrium[1], c, 1e-5);
    assert_close(r.equilibrium[2], rho - 1, 1e-5);
    double re, im;
    const char *e = strstr(r.message, "eigenvalue ");
    assert_non_null(e);
    assert_int_equal(sscanf(e, "eigenvalue %lf %lfi", &re, &im), 2);
    assert_close(re, lambda, 1e-5 * lambda);
    assert_close(im, 0.0, 0.0);
  }
  cs_point_ws_free(ws);
  free(p);
}

static void names_and_arguments(void **state)
{
  (void)state;
  assert_string_equal(cs_class_name(CS_CLASS_PERIODIC), "periodic");
  assert_string_equal(cs_class_name(CS_CLASS_QUASIPERIODIC), "quasiperiodic");
  assert_string_equal(cs_class_name(CS_CLASS_COUNT), "unknown");
  assert_null(cs_point_ws_create(0, 10));
  assert_null(cs_point_ws_create(17, 10));
  struct cs_point_ws *ws = cs_point_ws_create(2, 10);
  const struct cs_model *m = &cs_model_oscillator;
  void *p = make_params(m);
  prepare_ok(m, p);
  struct cs_point_spec s = spec_for(m);
  struct cs_point_result r;
  s.record = 0;
  s.record_crossings = 0;
  assert_int_equal(cs_point_analyse(m, p, m->state_default, &s, ws, &r), CS_ERR_ARG);
  s = spec_for(m);
  s.max_period = 0;
  assert_int_equal(cs_point_analyse(m, p, m->state_default, &s, ws, &r), CS_ERR_ARG);
  assert_int_equal(cs_point_analyse(m, NULL, m->state_default, &s, ws, &r), CS_ERR_ARG);
  assert_int_equal(cs_point_analyse(m, p, m->state_default, &s, ws, NULL), CS_ERR_ARG);
  cs_point_ws_free(ws);
  ws = cs_point_ws_create(1, 10);
  s = spec_for(m);
  assert_int_equal(cs_point_analyse(m, p, m->state_default, &s, ws, &r), CS_ERR_RANGE);
  cs_point_ws_free(ws);
  cs_point_ws_free(NULL);
  release(m, p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(names_and_arguments),      cmocka_unit_test(oscillator_crossing_times),
      cmocka_unit_test(vanderpol_period),         cmocka_unit_test(duffing_period_doubling),
      cmocka_unit_test(lorenz_exponents),         cmocka_unit_test(adaptive_transient),
      cmocka_unit_test(contraction_estimate),     cmocka_unit_test(decaying_alternation),
      cmocka_unit_test(belt_converged_period),    cmocka_unit_test(pendulum_fig6b),
      cmocka_unit_test(twomass_stick_statistics), cmocka_unit_test(event_driven_model),
      cmocka_unit_test(unstable_equilibrium),     cmocka_unit_test(saddle_left),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
