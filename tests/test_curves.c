/* SPDX-License-Identifier: MIT */
/* Two-parameter curves (analysis/continuation2.h) and the first Lyapunov
 * coefficient (analysis/normal_form.h) against closed forms:
 * - Bautin normal form: the Hopf line mu1 = 0 (every point: mu1 within
 *   1e-9, omega = 1), l1 = mu2 at every point (the formula is exact on this
 *   cubic-plus-quintic field at the origin), the Bautin point at (0, 0);
 *   the fold-of-cycles curve mu1 = -mu2^2/4 from the fold of the cycles of
 *   a one-parameter branch, every point against it, period 2 pi, fewer than
 *   3 shootings per corrector iteration (the test function's row by
 *   differences, 5 shootings, reused); on it no cusp of cycles and no
 *   fold-flip (both test functions keep their sign);
 * - Bogdanov-Takens normal form (s = +1 and -1): the fold curve beta1 =
 *   beta2^2/4 with x = -beta2/2 and the BT point at (0, 0) on it; the Hopf
 *   curve beta1 = 0, omega = sqrt(-beta2), l1 = s/(4 w^3 (1 + w^2)), ending
 *   at the BT point;
 * - cusp normal form: the fold curve 27 beta1^2 = 4 beta2^3 through the
 *   cusp point (0, 0), located with x = 0;
 * - a cycle on a Moebius band (model flip): the period doubling of the cycle
 *   branch at mu = 0 and its period-doubling curve mu = 0 in (mu, nu), every
 *   point with period 2 pi, the cycle (1, 0, 0) and the multipliers -1 and
 *   -exp(2 pi nu);
 * - a cycle with a turning transverse plane (model torus): the
 *   Neimark-Sacker point of the cycle branch at nu = 0 (argument 2 pi w),
 *   its curve nu = 0 in (nu, w) (every point: nu within 1e-8, period 2 pi,
 *   kappa = cos(2 pi w), theta = acos kappa, the pair exp(+-2 pi i w)), the
 *   strong resonances 1:4, 1:3, 1:2, 1:3, 1:4, 1:1 located at w = 1/4, 1/3,
 *   1/2, 2/3, 3/4, 1 within 1e-8 (1:2 and 1:1 where the pair turns through
 *   -1 and 1 without becoming real: branch points of the system), both ends
 *   on the box;
 * - a forced system (model foldflip: a flip in (x, y), the cusp normal form
 *   z' = mu + kappa z - z^3, period T = 2 pi/omega): the fold-of-cycles curve
 *   27 mu^2 = 4 kappa^3 with |z| = sqrt(kappa/3), its quadratic coefficient
 *   -3 z T (exact: the map's z'' over one period at a fold) and the cusp of
 *   cycles at (0, 0); the fold-of-cycles curve in (mu, nu) meeting the flip
 *   at nu = 0 (a fold-flip point), the period-doubling curve nu = 0 in (nu,
 *   mu) with fold-flip points at the folds mu = -+2/(3 sqrt 3), and in (nu,
 *   omega), where the period 2 pi/omega moves along it (multipliers -1,
 *   -exp(-T), exp(-2 T));
 * - the same forced system's Neimark-Sacker curve refused by name;
 * - an autonomous one (model cuspcycle: circles r = 1 + rho, rho' = mu +
 *   kappa rho - rho^3, period 2 pi): the fold-of-cycles curve 27 mu^2 = 4
 *   kappa^3 with mu = -2 rho^3, its quadratic coefficient 3 rho 2 pi in
 *   modulus (the phase condition and the period's row change nothing here)
 *   and the cusp of cycles at (0, 0) on the unit circle;
 * - figure 5a (pendulum): the Hopf curve in (omega0, N) at the user points
 *   N = 20 and 30 N against an independent check built here: a central
 *   finite-difference Jacobian of the right-hand side and its eigenvalues by
 *   GSL (a pair on the imaginary axis, the rest in the left half-plane);
 * - the belt's stick-slip grazing curve in (eta, vb) (params/belt_grazing.ini,
 *   event-driven, lambda_event = 1e-5), against two independent checks: the
 *   grazings of one-parameter branches in eta at two fixed vb (located by the
 *   branches' own margin extrapolation, cs_orbit_graze) equal the curve's
 *   eta there within 1e-5; the minimum of lambda_s over the slip phase of
 *   curve orbits, by a separate dense sampling of the flow (cs_orbit_sample,
 *   zoomed to 3e-8 time units, lambda_event halved so that the sampling
 *   itself makes no stick), equals lambda_event within 0.1 %. */
#include "testmodel.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>

#include "analysis/continuation2.h"
#include "analysis/normal_form.h"
#include "io/config.h"
#include "analysis/orbit_private.h"
#include "models/model_private.h"

#define FIG5A CONTENSOU_SOURCE_DIR "/params/pendulum_fig5a.ini"

static int quick(void)
{
  const char *q = getenv("CS_TEST_QUICK");
  return q && *q && strcmp(q, "0") != 0;
}

static struct cs_orbit_ws *ws_of(const struct cs_model *m, const void *params, const char *param)
{
  struct cs_orbit_ws *w = cs_orbit_ws_create(m, params, cs_model_param_index(m, param));
  if (!w)
    fail_msg("cs_orbit_ws_create: %s", cs_errmsg());
  return w;
}

static const struct cs_special *first(const struct cs_branch *b, enum cs_special_kind k)
{
  for (size_t i = 0; i < b->n_special; i++)
    if (b->special[i].kind == k)
      return &b->special[i];
  return NULL;
}

static const struct cs_curve_special *first2(const struct cs_curve *c, enum cs_codim2_kind k,
                                             size_t *count)
{
  const struct cs_curve_special *f = NULL;
  *count = 0;
  for (size_t i = 0; i < c->n_special; i++)
    if (c->special[i].kind == k) {
      f = f ? f : &c->special[i];
      ++*count;
    }
  return f;
}

static struct cs_curve_spec curve_spec(const struct cs_model *m, const char *p2, double min1,
                                       double max1, double min2, double max2)
{
  struct cs_curve_spec s = cs_curve_spec_default();
  s.param2 = cs_model_param_index(m, p2);
  s.min1 = min1, s.max1 = max1, s.min2 = min2, s.max2 = max2;
  s.orbit.solver.rtol = 1e-10;
  s.orbit.solver.atol = 1e-12;
  return s;
}

/* ------------------------------------------------------------- Bautin */

static void bautin(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("bautin");
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "mu2", 0.5), CS_OK);
  struct cs_orbit_ws *w = ws_of(m, p, "mu1");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = -0.5, sp.p_max = 0.5;
  sp.stop_at_hopf = 1;
  /* a user value equal to the start's: reported at the start, once */
  sp.n_user = 1, sp.user_value[0] = -0.5;
  struct cs_branch eq;
  double origin[2] = {0.01, 0.0};
  assert_int_equal(cs_continue_equilibria(w, &sp, -0.5, origin, &eq), CS_OK);
  size_t n_eq_user = 0;
  for (size_t i = 0; i < eq.n_special; i++)
    if (eq.special[i].kind == CS_SPECIAL_USER) {
      n_eq_user++;
      assert_int_equal(eq.special[i].after, 0);
      assert_close(eq.special[i].pt.p, -0.5, 0);
    }
  assert_int_equal(n_eq_user, 1);
  sp.n_user = 0;
  const struct cs_special *h = first(&eq, CS_SPECIAL_HOPF);
  assert_non_null(h);
  struct cs_curve_spec cs = curve_spec(m, "mu2", -1, 1, -1, 1);
  /* mu2 = 0.5 is the start's own value (no step crosses it), -0.5 is crossed */
  cs.n_user = 2, cs.user_param[0] = cs.user_param[1] = 2;
  cs.user_value[0] = 0.5, cs.user_value[1] = -0.5;
  struct cs_curve c;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_HOPF, h, &c), CS_OK);
  size_t n_user, n_start_user = 0;
  first2(&c, CS_CODIM2_USER, &n_user);
  assert_int_equal(n_user, 2);
  for (size_t i = 0; i < c.n_special; i++)
    if (c.special[i].kind == CS_CODIM2_USER) {
      const struct cs_curve_special *u = &c.special[i];
      assert_close(u->pt.p1, 0.0, 1e-9);
      assert_close(fabs(u->pt.p2), 0.5, 1e-12);
      if (u->pt.p2 > 0) {
        n_start_user++;
        assert_int_equal(u->after, c.start_row);
      }
    }
  assert_int_equal(n_start_user, 1);
  print_message("Hopf curve: %zu points, %s\n", c.n_points, c.end_note);
  assert_true(c.n_points > 20);
  double worst_l1 = 0;
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    assert_close(q->p1, 0.0, 1e-9);
    assert_close(q->omega, 1.0, 1e-9);
    assert_close(q->y[0], 0.0, 1e-9);
    worst_l1 = fmax(worst_l1, fabs(q->test[1] - 2 * q->p2));
  }
  print_message("largest |l1 - 2 mu2| %.3g\n", worst_l1);
  assert_true(worst_l1 < 1e-6);
  assert_close(c.points[0].p2, -1.0, 1e-12);
  assert_close(c.points[c.n_points - 1].p2, 1.0, 1e-12);
  size_t nb;
  const struct cs_curve_special *b = first2(&c, CS_CODIM2_BAUTIN, &nb);
  assert_int_equal(nb, 1);
  print_message("Bautin at (%.3g, %.3g)\n", b->pt.p1, b->pt.p2);
  assert_close(b->pt.p1, 0.0, 1e-9);
  assert_close(b->pt.p2, 0.0, 1e-8);
  cs_curve_free(&c);

  /* the fold of cycles from a branch of cycles at mu2 = 0.5 */
  sp.stop_at_hopf = 0;
  sp.p_min = -0.2, sp.p_max = 0.5;
  sp.orbit.solver.rtol = 1e-10, sp.orbit.solver.atol = 1e-12;
  sp.max_points = 400;
  struct cs_branch cy;
  assert_int_equal(cs_continue_cycles_from_hopf(w, &sp, h, &cy), CS_OK);
  print_message("cycles: %zu points, %s\n", cy.n_points, cy.end_note);
  const struct cs_special *f = first(&cy, CS_SPECIAL_FOLD);
  assert_non_null(f);
  print_message("fold of cycles at mu1 = %.10g\n", f->pt.p);
  assert_close(f->pt.p, -0.0625, 1e-7);
  cs = curve_spec(m, "mu2", -1, 1, 0.2, 1.0);
  cs.orbit = sp.orbit;
  cs.ds_max = 0.1;
  cs.n_user = 1, cs.user_param[0] = 2, cs.user_value[0] = 0.8;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_FOLD_CYCLES, f, &c), CS_OK);
  print_message("fold-of-cycles curve: %zu points, %s\n", c.n_points, c.end_note);
  assert_true(c.n_points > 5);
  double worst = 0;
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    worst = fmax(worst, fabs(q->p1 + q->p2 * q->p2 / 4));
    assert_close(q->y[0] * q->y[0], q->p2 / 2, 1e-6);
    assert_close(q->period, 2 * M_PI, 1e-7);
    /* no cusp (r'' of r' = mu1 r + mu2 r^3 - r^5 at the fold, -4 mu2 r, is
     * < 0) and no multiplier -1 (the other one is the trivial 1) */
    assert_true(q->test[1] * c.points[0].test[1] > 0);
    assert_true(q->test[0] * c.points[0].test[0] > 0);
  }
  size_t none;
  first2(&c, CS_CODIM2_CUSP_CYCLES, &none);
  assert_int_equal(none, 0);
  first2(&c, CS_CODIM2_FOLD_FLIP, &none);
  assert_int_equal(none, 0);
  print_message("largest |mu1 + mu2^2/4| %.3g\n", worst);
  assert_true(worst < 1e-7);
  /* the test function's difference-quotient row (5 shootings here) is
   * reused by the corrector's iterations and steps, not redone at each */
  print_message("%ld shootings for %ld corrector iterations\n", c.evaluations, c.newton_iterations);
  assert_true(c.evaluations < 3 * c.newton_iterations);
  const struct cs_curve_special *u = first2(&c, CS_CODIM2_USER, &nb);
  assert_int_equal(nb, 1);
  assert_close(u->pt.p2, 0.8, 1e-9);
  assert_close(u->pt.p1, -0.16, 1e-7);
  cs_curve_free(&c);
  cs_branch_free(&cy);
  cs_branch_free(&eq);
  cs_orbit_ws_free(w);
  free(p);
}

/* --------------------------------------------------- Bogdanov-Takens */

static void bogdanov_takens(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("bt");
  for (int k = 0; k < 2; k++) {
    double s = k ? 1.0 : -1.0;
    void *p = make_params(m);
    assert_int_equal(cs_model_set_param(m, p, "s", s), CS_OK);
    assert_int_equal(cs_model_set_param(m, p, "beta2", -0.5), CS_OK);
    struct cs_orbit_ws *w = ws_of(m, p, "beta1");
    struct cs_continue_spec sp = cs_continue_spec_default();
    sp.p_min = -0.5, sp.p_max = 0.5;
    struct cs_branch eq;
    double guess[2] = {-0.1, 0.0};
    assert_int_equal(cs_continue_equilibria(w, &sp, -0.1, guess, &eq), CS_OK);
    const struct cs_special *h = first(&eq, CS_SPECIAL_HOPF), *f = first(&eq, CS_SPECIAL_FOLD);
    assert_non_null(h);
    assert_non_null(f);
    assert_close(f->pt.p, 0.0625, 1e-9);
    /* the Hopf curve: beta1 = 0, omega^2 = -beta2, l1 closed form; it ends at BT */
    struct cs_curve_spec cs = curve_spec(m, "beta2", -1, 1, -1, 1);
    struct cs_curve c;
    assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_HOPF, h, &c), CS_OK);
    print_message("s = %+g: Hopf curve %zu points, %s\n", s, c.n_points, c.end_note);
    double worst = 0;
    for (size_t i = 0; i < c.n_points; i++) {
      const struct cs_curve_point *q = &c.points[i];
      assert_close(q->p1, 0.0, 1e-9);
      assert_close(q->test[0], -q->p2, 1e-9);
      double om = sqrt(-q->p2);
      if (om > 0.05) {
        double l1 = s / (2 * om * om * om * (1 + om * om));
        worst = fmax(worst, fabs(q->test[1] - l1) / fabs(l1));
      }
    }
    print_message("largest relative error of l1 %.3g\n", worst);
    assert_true(worst < 1e-6);
    size_t nbt;
    const struct cs_curve_special *bt = first2(&c, CS_CODIM2_BT, &nbt);
    assert_int_equal(nbt, 1);
    assert_close(bt->pt.p1, 0.0, 1e-9);
    assert_close(bt->pt.p2, 0.0, 1e-8);
    assert_close(c.points[0].p2, -1.0, 1e-12);
    cs_curve_free(&c);
    /* the fold curve beta1 = beta2^2/4, x = -beta2/2, BT on it */
    assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_FOLD, f, &c), CS_OK);
    print_message("s = %+g: fold curve %zu points, %s\n", s, c.n_points, c.end_note);
    for (size_t i = 0; i < c.n_points; i++) {
      const struct cs_curve_point *q = &c.points[i];
      assert_close(q->p1, q->p2 * q->p2 / 4, 1e-10);
      assert_close(q->y[0], -q->p2 / 2, 1e-9);
    }
    bt = first2(&c, CS_CODIM2_BT, &nbt);
    assert_int_equal(nbt, 1);
    assert_close(bt->pt.p1, 0.0, 1e-9);
    assert_close(bt->pt.p2, 0.0, 1e-8);
    first2(&c, CS_CODIM2_CUSP, &nbt);
    assert_int_equal(nbt, 0);
    cs_curve_free(&c);
    cs_branch_free(&eq);
    cs_orbit_ws_free(w);
    free(p);
  }
}

/* ---------------------------------------------------------------- cusp */

static void cusp(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("cusp");
  void *p = make_params(m);
  struct cs_orbit_ws *w = ws_of(m, p, "beta1");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = -1, sp.p_max = 1;
  sp.direction = -1;
  struct cs_branch eq;
  double guess[1] = {1.0};
  assert_int_equal(cs_continue_equilibria(w, &sp, 0.0, guess, &eq), CS_OK);
  const struct cs_special *f = first(&eq, CS_SPECIAL_FOLD);
  assert_non_null(f);
  assert_close(f->pt.p, -2 / (3 * sqrt(3.0)), 1e-9);
  struct cs_curve_spec cs = curve_spec(m, "beta2", -1, 1, -0.5, 1.5);
  struct cs_curve c;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_FOLD, f, &c), CS_OK);
  print_message("fold curve %zu points, %s\n", c.n_points, c.end_note);
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    double x = q->y[0];
    assert_close(q->p2, 3 * x * x, 1e-10);
    assert_close(q->p1, -2 * x * x * x, 1e-10);
    assert_close(27 * q->p1 * q->p1, 4 * q->p2 * q->p2 * q->p2, 1e-9);
    assert_close(q->test[1], -3 * x, 1e-6);
  }
  size_t n;
  const struct cs_curve_special *cu = first2(&c, CS_CODIM2_CUSP, &n);
  assert_int_equal(n, 1);
  assert_close(cu->pt.p1, 0.0, 1e-9);
  assert_close(cu->pt.p2, 0.0, 1e-8);
  assert_close(cu->pt.y[0], 0.0, 1e-8);
  cs_curve_free(&c);
  cs_branch_free(&eq);
  cs_orbit_ws_free(w);
  free(p);
}

/* ------------------------------------------------------- period doubling */

static void flip(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("flip");
  void *p = make_params(m);
  struct cs_orbit_ws *w = ws_of(m, p, "mu");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = -0.5, sp.p_max = 0.5;
  sp.orbit.solver.rtol = 1e-10, sp.orbit.solver.atol = 1e-12;
  struct cs_branch cy;
  double y0[3] = {1.0, 0.0, 0.0};
  assert_int_equal(cs_continue_cycles(w, &sp, -0.5, 0.0, y0, 2 * M_PI, &cy), CS_OK);
  const struct cs_special *pd = first(&cy, CS_SPECIAL_PERIOD_DOUBLING);
  assert_non_null(pd);
  print_message("period doubling at mu = %.3g\n", pd->pt.p);
  assert_close(pd->pt.p, 0.0, 1e-8);
  struct cs_curve_spec cs = curve_spec(m, "nu", -1, 1, -2, -0.25);
  cs.orbit = sp.orbit;
  cs.ds_max = 0.2;
  struct cs_curve c;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_PERIOD_DOUBLING, pd, &c), CS_OK);
  print_message("period-doubling curve: %zu points, %s\n", c.n_points, c.end_note);
  assert_true(c.n_points > 5);
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    assert_close(q->p1, 0.0, 1e-8);
    assert_close(q->period, 2 * M_PI, 1e-8);
    assert_close(q->y[0], 1.0, 1e-8);
    assert_close(q->y[2], 0.0, 1e-8);
    /* the multipliers -1 and -exp(2 pi nu) */
    assert_close(q->re[0], -1.0, 1e-6);
    assert_close(q->re[1], -exp(2 * M_PI * q->p2), 1e-6);
  }
  assert_close(c.points[0].p2, -2.0, 1e-12);
  assert_close(c.points[c.n_points - 1].p2, -0.25, 1e-12);
  cs_curve_free(&c);
  cs_branch_free(&cy);
  cs_orbit_ws_free(w);
  free(p);
}

/* -------------------------------------------------------- Neimark-Sacker */

static void torus(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("torus");
  assert_non_null(m);
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "w", 0.3), CS_OK);
  struct cs_orbit_ws *w = ws_of(m, p, "nu");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = -0.2, sp.p_max = 0.2;
  sp.orbit.solver.rtol = 1e-10, sp.orbit.solver.atol = 1e-12;
  struct cs_branch cy;
  double y0[4] = {1.0, 0.0, 0.0, 0.0};
  assert_int_equal(cs_continue_cycles(w, &sp, -0.2, 0.0, y0, 2 * M_PI, &cy), CS_OK);
  const struct cs_special *ns = first(&cy, CS_SPECIAL_NEIMARK_SACKER);
  assert_non_null(ns);
  print_message("Neimark-Sacker at nu = %.3g, argument %.8g\n", ns->pt.p, ns->omega);
  assert_close(ns->pt.p, 0.0, 1e-8);
  assert_close(ns->omega, 2 * M_PI * 0.3, 1e-6);
  struct cs_curve_spec cs = curve_spec(m, "w", -1, 1, 0.1, 1.1);
  cs.orbit = sp.orbit;
  cs.ds_max = 0.1;
  struct cs_curve c;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_NEIMARK_SACKER, ns, &c), CS_OK);
  print_message("Neimark-Sacker curve: %zu points, %s; %ld shootings\n", c.n_points, c.end_note,
                c.evaluations);
  assert_true(c.n_points > 5);
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    double th = 2 * M_PI * q->p2;
    assert_close(q->p1, 0.0, 1e-8);
    assert_close(q->period, 2 * M_PI, 1e-8);
    assert_close(q->y[0], 1.0, 1e-8);
    assert_close(q->y[2], 0.0, 1e-8);
    assert_close(q->y[3], 0.0, 1e-8);
    assert_close(q->test[0], cos(th), 1e-8);
    assert_close(q->test[1], acos(cos(th)), 1e-6);
    /* the pair exp(+-i th) (by modulus: first two) and exp(-4 pi) */
    assert_int_equal(q->n_eig, 3);
    assert_close(hypot(q->re[0], q->im[0]), 1.0, 1e-7);
    assert_close(q->re[0], cos(th), 1e-7);
    assert_close(fabs(q->im[0]), fabs(sin(th)), 1e-7);
    assert_close(q->re[2], exp(-4 * M_PI), 1e-9);
  }
  assert_close(c.points[0].p2, 0.1, 1e-12);
  assert_close(c.points[c.n_points - 1].p2, 1.1, 1e-12);
  /* in curve order (w increasing): 1:4, 1:3, 1:2, 1:3, 1:4, 1:1 */
  static const enum cs_codim2_kind want[] = {CS_CODIM2_R4, CS_CODIM2_R3, CS_CODIM2_R2,
                                             CS_CODIM2_R3, CS_CODIM2_R4, CS_CODIM2_R1};
  static const double at[] = {0.25, 1.0 / 3, 0.5, 2.0 / 3, 0.75, 1.0};
  size_t seen = 0;
  for (size_t i = 0; i < c.n_special; i++) {
    const struct cs_curve_special *r = &c.special[i];
    print_message("  %s at (%.3g, %.12g): %s\n", cs_codim2_name(r->kind), r->pt.p1, r->pt.p2,
                  r->note);
    if (r->kind < CS_CODIM2_R1)
      continue;
    assert_true(seen < 6);
    assert_int_equal(r->kind, want[seen]);
    assert_close(r->pt.p2, at[seen], 1e-8);
    assert_close(r->pt.p1, 0.0, 1e-8);
    assert_close(r->pt.test[0], cos(2 * M_PI * at[seen]), 1e-8);
    assert_true(strstr(r->note, "approximate") == NULL);
    seen++;
  }
  assert_int_equal(seen, 6);
  cs_curve_free(&c);
  cs_branch_free(&cy);
  cs_orbit_ws_free(w);
  free(p);
}

/* ------------------------------------------------ forced: fold, cusp, flip */

static const struct cs_special *foldflip_start(const struct cs_model *m, void *p, const char *param,
                                               double p0, int dir, enum cs_special_kind kind,
                                               struct cs_orbit_ws **w, struct cs_branch *b)
{
  *w = ws_of(m, p, param);
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = -1, sp.p_max = 1;
  sp.direction = dir;
  sp.max_points = 2000;
  sp.orbit.solver.rtol = 1e-10, sp.orbit.solver.atol = 1e-10;
  double y0[3] = {0.0, 0.0, 1.0};
  assert_int_equal(cs_continue_cycles(*w, &sp, p0, 0.0, y0, 2 * M_PI, b), CS_OK);
  const struct cs_special *s = first(b, kind);
  assert_non_null(s);
  return s;
}

static void foldflip(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("foldflip");
  assert_non_null(m);
  void *p = make_params(m); /* mu 0, kappa 1, nu -0.5, omega 1: z = 1 */
  const double T = 2 * M_PI, zf = 1 / sqrt(3.0), muf = 2 / (3 * sqrt(3.0));
  struct cs_orbit_ws *w;
  struct cs_branch b;
  const struct cs_special *f = foldflip_start(m, p, "mu", 0.0, -1, CS_SPECIAL_FOLD, &w, &b);
  assert_close(f->pt.p, -muf, 1e-8);
  assert_close(f->pt.y[2], zf, 1e-6);

  /* the fold of cycles in (mu, kappa) through the cusp */
  struct cs_curve_spec cs = curve_spec(m, "kappa", -1, 1, -0.5, 1.5);
  cs.orbit.solver.atol = 1e-10;
  struct cs_curve c;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_FOLD_CYCLES, f, &c), CS_OK);
  print_message("fold of cycles in (mu, kappa): %zu points, %s\n", c.n_points, c.end_note);
  assert_true(c.n_points > 20);
  int zsign = 0;
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    double z = q->y[2];
    assert_close(27 * q->p1 * q->p1, 4 * q->p2 * q->p2 * q->p2, 1e-8);
    assert_close(q->p1, -2 * z * z * z, 1e-8);
    assert_close(q->y[0], 0.0, 1e-8);
    assert_close(q->y[1], 0.0, 1e-8);
    assert_close(q->period, T, 1e-12);
    /* -3 z T up to the orientation of w, the same all along */
    assert_close(fabs(q->test[1]), 3 * fabs(z) * T, 1e-4 * T);
    if (fabs(z) > 0.05) {
      int sg = (q->test[1] > 0) == (z < 0) ? 1 : -1;
      assert_true(zsign == 0 || sg == zsign);
      zsign = sg;
    }
    /* det(M + I) = 2 (1 + -exp(nu T)) (1 + -exp(-T)) */
    assert_close(q->test[0], 2 * (1 - exp(-0.5 * T)) * (1 - exp(-T)), 1e-6);
  }
  size_t n;
  const struct cs_curve_special *cu = first2(&c, CS_CODIM2_CUSP_CYCLES, &n);
  assert_int_equal(n, 1);
  print_message("cusp of cycles at (%.3g, %.3g), z = %.3g\n", cu->pt.p1, cu->pt.p2, cu->pt.y[2]);
  assert_close(cu->pt.p1, 0.0, 1e-8);
  assert_close(cu->pt.p2, 0.0, 1e-8);
  assert_close(cu->pt.y[2], 0.0, 1e-5);
  first2(&c, CS_CODIM2_FOLD_FLIP, &n);
  assert_int_equal(n, 0);
  cs_curve_free(&c);

  /* the same fold in (mu, nu): the flip's multiplier -exp(nu T) passes -1 at nu = 0 */
  cs = curve_spec(m, "nu", -1, 1, -0.5, 0.5);
  cs.orbit.solver.atol = 1e-10;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_FOLD_CYCLES, f, &c), CS_OK);
  print_message("fold of cycles in (mu, nu): %zu points, %s\n", c.n_points, c.end_note);
  const struct cs_curve_special *ff = first2(&c, CS_CODIM2_FOLD_FLIP, &n);
  assert_int_equal(n, 1);
  assert_close(ff->pt.p1, -muf, 1e-8);
  assert_close(ff->pt.p2, 0.0, 1e-8);
  first2(&c, CS_CODIM2_CUSP_CYCLES, &n);
  assert_int_equal(n, 0);
  cs_curve_free(&c);
  cs_branch_free(&b);
  cs_orbit_ws_free(w);

  /* the period doubling at nu = 0 continued in (nu, mu): the upper and the
   * middle branch of z, fold-flip points at both folds */
  const struct cs_special *pd =
      foldflip_start(m, p, "nu", -0.5, +1, CS_SPECIAL_PERIOD_DOUBLING, &w, &b);
  assert_close(pd->pt.p, 0.0, 1e-8);
  cs = curve_spec(m, "mu", -1, 1, -1, 1);
  cs.orbit.solver.atol = 1e-10;
  cs.max_points = 400;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_PERIOD_DOUBLING, pd, &c), CS_OK);
  print_message("period doubling in (nu, mu): %zu points, %s\n", c.n_points, c.end_note);
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    double z = q->y[2];
    assert_close(q->p1, 0.0, 1e-8);
    assert_close(q->p2 + z - z * z * z, 0.0, 1e-8);
    assert_true(isnan(q->test[1]));
  }
  size_t nff = 0;
  for (size_t i = 0; i < c.n_special; i++) {
    const struct cs_curve_special *q = &c.special[i];
    if (q->kind != CS_CODIM2_FOLD_FLIP)
      continue;
    print_message("fold-flip at (%.10g, %.10g), z = %.8g\n", q->pt.p1, q->pt.p2, q->pt.y[2]);
    assert_close(q->pt.p1, 0.0, 1e-8);
    assert_close(fabs(q->pt.p2), muf, 1e-8);
    assert_close(q->pt.y[2], q->pt.p2 > 0 ? -zf : zf, 1e-5);
    nff++;
  }
  assert_int_equal(nff, 2);
  cs_curve_free(&c);

  /* a Neimark-Sacker curve of a forced model is refused by name (its
   * trivial multiplier's deflation needs an autonomous model's section),
   * where the period-doubling curve from the same point runs */
  struct cs_special nsp = *pd;
  nsp.kind = CS_SPECIAL_NEIMARK_SACKER;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_NEIMARK_SACKER, &nsp, &c),
                   CS_ERR_UNSUPPORTED);
  assert_non_null(strstr(cs_errmsg(), "Neimark-Sacker curves of a forced model"));

  /* in (nu, omega): the period 2 pi/omega moves along the curve */
  cs = curve_spec(m, "omega", -1, 1, 0.5, 2);
  cs.orbit.solver.atol = 1e-10;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_PERIOD_DOUBLING, pd, &c), CS_OK);
  print_message("period doubling in (nu, omega): %zu points, %s\n", c.n_points, c.end_note);
  assert_close(c.points[0].p2, 0.5, 1e-12);
  assert_close(c.points[c.n_points - 1].p2, 2, 1e-12);
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    double Tq = 2 * M_PI / q->p2;
    assert_close(q->p1, 0.0, 1e-8);
    assert_close(q->period, Tq, 1e-12 * Tq);
    assert_close(q->y[2], 1.0, 1e-8);
    assert_int_equal(q->n_eig, 3);
    double want[3] = {-1, -exp(-Tq), exp(-2 * Tq)};
    for (int k = 0; k < 3; k++) {
      assert_close(q->re[k], want[k], 1e-6);
      assert_close(q->im[k], 0.0, 1e-6);
    }
  }
  cs_curve_free(&c);
  cs_branch_free(&b);
  cs_orbit_ws_free(w);
  free(p);
}

static void cuspcycle(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("cuspcycle");
  assert_non_null(m);
  void *p = make_params(m); /* mu 0, kappa 1: the cycle r = 2 */
  struct cs_orbit_ws *w = ws_of(m, p, "mu");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = -1, sp.p_max = 1;
  sp.direction = -1;
  sp.max_points = 1000;
  sp.orbit.solver.rtol = 1e-10, sp.orbit.solver.atol = 1e-10;
  struct cs_branch b;
  double y0[2] = {2.0, 0.0};
  assert_int_equal(cs_continue_cycles(w, &sp, 0.0, 0.0, y0, 2 * M_PI, &b), CS_OK);
  const struct cs_special *f = first(&b, CS_SPECIAL_FOLD);
  assert_non_null(f);
  assert_close(f->pt.p, -2 / (3 * sqrt(3.0)), 1e-8);
  struct cs_curve_spec cs = curve_spec(m, "kappa", -1, 1, -0.5, 1.5);
  cs.orbit = sp.orbit;
  struct cs_curve c;
  assert_int_equal(cs_continue_curve(w, p, &cs, CS_CURVE_FOLD_CYCLES, f, &c), CS_OK);
  print_message("fold of cycles in (mu, kappa): %zu points, %s\n", c.n_points, c.end_note);
  assert_true(c.n_points > 20);
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    double rho = hypot(q->y[0], q->y[1]) - 1;
    assert_close(27 * q->p1 * q->p1, 4 * q->p2 * q->p2 * q->p2, 1e-8);
    assert_close(q->p1, -2 * rho * rho * rho, 1e-8);
    assert_close(q->period, 2 * M_PI, 1e-8);
    assert_close(fabs(q->test[1]), 6 * M_PI * fabs(rho), 1e-4 * 6 * M_PI * fabs(rho) + 1e-6);
  }
  size_t n;
  const struct cs_curve_special *cu = first2(&c, CS_CODIM2_CUSP_CYCLES, &n);
  assert_int_equal(n, 1);
  print_message("cusp of cycles at (%.3g, %.3g), r = %.10g\n", cu->pt.p1, cu->pt.p2,
                hypot(cu->pt.y[0], cu->pt.y[1]));
  assert_close(cu->pt.p1, 0.0, 1e-8);
  assert_close(cu->pt.p2, 0.0, 1e-8);
  assert_close(hypot(cu->pt.y[0], cu->pt.y[1]), 1.0, 1e-5);
  first2(&c, CS_CODIM2_FOLD_FLIP, &n);
  assert_int_equal(n, 0);
  cs_curve_free(&c);
  cs_branch_free(&b);
  cs_orbit_ws_free(w);
  free(p);
}

/* ------------------------------------------------------------ figure 5a */

/* central finite-difference Jacobian of the right-hand side */
static void fd_jacobian(const struct cs_model *m, const void *P, const double *y, double *J)
{
  size_t n = m->n_state;
  double yp[16], fp[16], fm[16];
  for (size_t j = 0; j < n; j++) {
    double h = 1e-6 * fmax(fabs(y[j]), 1e-2);
    memcpy(yp, y, n * sizeof *y);
    yp[j] = y[j] + h;
    assert_int_equal(m->rhs(0, yp, fp, P), 0);
    yp[j] = y[j] - h;
    assert_int_equal(m->rhs(0, yp, fm, P), 0);
    for (size_t i = 0; i < n; i++)
      J[i * n + j] = (fp[i] - fm[i]) / (2 * h);
  }
}

static void fig5a_hopf_curve(void **state)
{
  (void)state;
  struct cs_config cfg;
  if (cs_config_load(FIG5A, NULL, 0, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const struct cs_model *m = cfg.model;
  struct cs_orbit_ws *w = ws_of(m, cfg.params_unprepared, "omega0");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = 20, sp.p_max = 80;
  sp.orbit.solver = cfg.solver;
  sp.stop_at_hopf = 1;
  struct cs_branch eq;
  assert_int_equal(cs_continue_equilibria(w, &sp, 30.0, cfg.y0, &eq), CS_OK);
  const struct cs_special *h = first(&eq, CS_SPECIAL_HOPF);
  assert_non_null(h);
  struct cs_curve_spec cs = curve_spec(m, "N", 20, 80, quick() ? 22 : 15, quick() ? 28 : 35);
  cs.orbit.solver = cfg.solver;
  cs.n_user = 2;
  cs.user_param[0] = cs.user_param[1] = 2;
  cs.user_value[0] = quick() ? 23 : 20, cs.user_value[1] = quick() ? 27 : 30;
  struct cs_curve c;
  assert_int_equal(cs_continue_curve(w, cfg.params_unprepared, &cs, CS_CURVE_HOPF, h, &c), CS_OK);
  print_message("Hopf curve in (omega0, N): %zu points, %s\n", c.n_points, c.end_note);
  size_t nu = 0;
  void *P = malloc(m->params_size);
  assert_non_null(P);
  gsl_eigen_nonsymm_workspace *ews = gsl_eigen_nonsymm_alloc(m->n_state);
  gsl_vector_complex *ev = gsl_vector_complex_alloc(m->n_state);
  for (size_t i = 0; i < c.n_special; i++) {
    const struct cs_curve_special *u = &c.special[i];
    if (u->kind != CS_CODIM2_USER)
      continue;
    nu++;
    memcpy(P, cfg.params_unprepared, m->params_size);
    assert_int_equal(cs_model_set_param(m, P, "omega0", u->pt.p1), CS_OK);
    assert_int_equal(cs_model_set_param(m, P, "N", u->pt.p2), CS_OK);
    prepare_ok(m, P);
    double f[16], J[256];
    assert_int_equal(m->rhs(0, u->pt.y, f, P), 0);
    for (size_t k = 0; k < m->n_state; k++)
      assert_true(fabs(f[k]) < 1e-7);
    fd_jacobian(m, P, u->pt.y, J);
    gsl_matrix_view Jv = gsl_matrix_view_array(J, m->n_state, m->n_state);
    assert_int_equal(gsl_eigen_nonsymm(&Jv.matrix, ev, ews), 0);
    double crit = INFINITY, other = -INFINITY, om = 0;
    for (size_t k = 0; k < m->n_state; k++) {
      gsl_complex z = gsl_vector_complex_get(ev, k);
      if (fabs(GSL_IMAG(z) - u->pt.omega) < 1e-3 * u->pt.omega)
        crit = GSL_REAL(z), om = GSL_IMAG(z);
      else if (fabs(GSL_IMAG(z) + u->pt.omega) >= 1e-3 * u->pt.omega)
        other = fmax(other, GSL_REAL(z));
    }
    print_message("user N = %.6g: omega0 = %.10g rad/s, Re = %.3g, omega = %.8g (curve %.8g), "
                  "largest other Re %.3g, l1 = %.4g\n",
                  u->pt.p2, u->pt.p1, crit, om, u->pt.omega, other, u->pt.test[1]);
    assert_true(fabs(crit) < 1e-5 * om);
    assert_close(om, u->pt.omega, 1e-6 * om);
    assert_true(other < 0);
    if (m->detach)
      m->detach(P);
  }
  assert_int_equal(nu, 2);
  gsl_eigen_nonsymm_free(ews);
  gsl_vector_complex_free(ev);
  free(P);
  cs_curve_free(&c);
  cs_branch_free(&eq);
  cs_orbit_ws_free(w);
  cs_config_free(&cfg);
}

/* ------------------------------------------------ the belt's grazing curve */

#define GRAZE_INI CONTENSOU_SOURCE_DIR "/params/belt_grazing.ini"

/* The first grazing of the cycle branch in eta down from eta0 at vb, from
 * the orbit (y, T) (a guess at eta0). */
static struct cs_special branch_grazing(const struct cs_config *cfg, double vb, double eta0,
                                        const double *y, double T, struct cs_branch *b)
{
  void *base = malloc(cfg->model->params_size);
  assert_non_null(base);
  memcpy(base, cfg->params_unprepared, cfg->model->params_size);
  assert_int_equal(cs_model_set_param(cfg->model, base, "vb", vb), CS_OK);
  struct cs_orbit_ws *w = ws_of(cfg->model, base, "eta");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = 4.5, sp.p_max = 5.5;
  sp.direction = -1;
  sp.orbit.solver = cfg->solver;
  sp.orbit.section = cfg->section;
  /* onto the attractor at eta0 first: (y, T) may be an orbit that grazes */
  double t1, y1[4], T1;
  (void)T;
  assert_int_equal(cs_orbit_ws_set_param(w, eta0), CS_OK);
  assert_int_equal(cs_orbit_guess(w, &sp.orbit, 0.0, y, 1000.0, &t1, y1, &T1), CS_OK);
  if (cs_continue_cycles(w, &sp, eta0, t1, y1, T1, b) != CS_OK)
    fail_msg("branch at vb = %g: %s", vb, cs_errmsg());
  const struct cs_special *g = first(b, CS_SPECIAL_GRAZING);
  assert_non_null(g);
  struct cs_special out = *g;
  cs_orbit_ws_free(w);
  free(base);
  return out;
}

/* min lambda_s over the slip phase of the orbit (y, T) at (eta, vb), by
 * samples of the flow zoomed three times onto the smallest; the first pass
 * within a time unit of the curve's t_g (the slip's start after a restart,
 * lambda_s from 0, is elsewhere) */
static double min_slip_speed(const struct cs_config *cfg, double eta, double vb, const double *y,
                             double T, double tg)
{
  const struct cs_model *m = cfg->model;
  void *base = malloc(m->params_size);
  assert_non_null(base);
  memcpy(base, cfg->params_unprepared, m->params_size);
  double le = cs_model_get_param(m, base, cs_model_param_index(m, "lambda_event"));
  assert_int_equal(cs_model_set_param(m, base, "vb", vb), CS_OK);
  assert_int_equal(cs_model_set_param(m, base, "eta", eta), CS_OK);
  assert_int_equal(cs_model_set_param(m, base, "lambda_event", 0.5 * le), CS_OK);
  struct cs_orbit_ws *w = ws_of(m, base, "eta");
  struct cs_orbit_opts o = cs_orbit_opts_default();
  o.solver = cfg->solver;
  o.section = cfg->section;
  size_t rows = 1001, cols = 1 + m->n_state + m->n_derived;
  int il = cs_model_derived_index(m, "lambda_s"), is = cs_model_derived_index(m, "stick");
  double *tab = malloc(rows * cols * sizeof *tab), best = INFINITY;
  assert_non_null(tab);
  struct cs_orbit orb;
  memset(&orb, 0, sizeof orb);
  orb.n = m->n_state, orb.autonomous = 1, orb.converged = 1;
  memcpy(orb.y, y, m->n_state * sizeof *y);
  orb.period = T;
  for (int zoom = 0; zoom < 4; zoom++) {
    assert_int_equal(cs_orbit_sample(w, &o, &orb, rows, tab, NULL, NULL), CS_OK);
    size_t k = rows;
    best = INFINITY;
    for (size_t r = 1; r + 1 < rows; r++) {
      const double *q = tab + r * cols;
      if (q[1 + m->n_state + is] == 0 && q[1 + m->n_state + il] < best &&
          (zoom > 0 || fabs(q[0] - tg) < 1.0))
        best = q[1 + m->n_state + il], k = r;
    }
    assert_true(k < rows);
    /* the next zoom: between the samples either side of the smallest */
    const double *q = tab + (k - 1) * cols;
    orb.t0 = q[0];
    memcpy(orb.y, q + 1, m->n_state * sizeof *q);
    orb.period = tab[(k + 1) * cols] - q[0];
  }
  free(tab);
  cs_orbit_ws_free(w);
  free(base);
  return best;
}

static void belt_grazing_curve(void **state)
{
  (void)state;
  if (quick()) {
    /* ~17 s under the sanitizers; cli_curves runs a short grazing curve there */
    print_message("belt grazing curve: skipped (CS_TEST_QUICK)\n");
    return;
  }
  struct cs_config cfg;
  if (cs_config_load(GRAZE_INI, NULL, 0, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const struct cs_model *m = cfg.model;
  double le = cs_model_get_param(m, cfg.params_unprepared, cs_model_param_index(m, "lambda_event"));
  /* the attractor at (4.98, 0.15) from rest, then the one-parameter branch */
  struct cs_orbit_ws *w = ws_of(m, cfg.params_unprepared, "eta");
  struct cs_orbit_opts o = cs_orbit_opts_default();
  o.solver = cfg.solver;
  o.section = cfg.section;
  double t0, y[4], T;
  assert_int_equal(cs_orbit_guess(w, &o, 0.0, cfg.y0, 2000.0, &t0, y, &T), CS_OK);
  struct cs_orbit orb;
  assert_int_equal(cs_orbit_find(w, &o, t0, y, T, &orb), CS_OK);
  struct cs_branch b;
  struct cs_special g = branch_grazing(&cfg, 0.15, 4.98, orb.y, orb.period, &b);
  print_message("branch grazing at eta = %.9f (%s)\n", g.pt.p, g.note);
  /* the curve starts from the last orbit of the branch at its own eta */
  g.pt.p = b.points[g.after].p;
  cs_branch_free(&b);
  struct cs_curve_spec cs = cs_curve_spec_default();
  cs.param2 = cs_model_param_index(m, "vb");
  cs.min1 = 4.5, cs.max1 = 5.5;
  cs.min2 = 0.14, cs.max2 = 0.16;
  cs.ds = cs.ds_max = 0.05;
  cs.max_points = quick() ? 2 : 4;
  cs.orbit = o;
  struct cs_curve c;
  assert_int_equal(cs_continue_curve(w, cfg.params_unprepared, &cs, CS_CURVE_GRAZING, &g, &c),
                   CS_OK);
  print_message("%zu points, %ld evaluations: %s\n", c.n_points, c.evaluations, c.end_note);
  assert_int_equal(c.status, CS_OK);
  assert_true(c.n_points >= 3);
  const struct cs_curve_point *q0 = &c.points[c.start_row];
  assert_true(fabs(q0->p2 - 0.15) < 1e-12);
  for (size_t i = 0; i < c.n_points; i++) {
    const struct cs_curve_point *q = &c.points[i];
    print_message("  eta %.9f vb %.9f T %.6f t_g %.6f\n", q->p1, q->p2, q->period, q->test[0]);
    assert_int_equal(q->n_unstable, 0);
    assert_true(q->test[0] > 0 && q->test[0] < q->period);
    if (i > 0) /* the boundary falls in eta as vb grows */
      assert_true((q->p1 - c.points[i - 1].p1) * (q->p2 - c.points[i - 1].p2) < 0);
  }
  /* 1: the one-parameter branches' grazings (margin extrapolation, 1e-5) */
  size_t check[2] = {c.start_row, c.n_points - 1};
  for (int k = 0; k < (quick() ? 1 : 2); k++) {
    const struct cs_curve_point *q = &c.points[check[k]];
    struct cs_special gk = branch_grazing(&cfg, q->p2, q->p1 + 0.002, q->y, q->period, &b);
    print_message("vb = %.9f: branch grazing at eta = %.9f, curve %.9f\n", q->p2, gk.pt.p, q->p1);
    assert_true(fabs(gk.pt.p - q->p1) < 1e-5);
    cs_branch_free(&b);
  }
  /* 2: lambda_s's minimum over the slip phase by dense samples */
  for (int k = 0; k < 2; k++) {
    const struct cs_curve_point *q = &c.points[check[k]];
    double lmin = min_slip_speed(&cfg, q->p1, q->p2, q->y, q->period, q->test[0]);
    print_message("vb = %.9f: min lambda_s = %.6e (lambda_event %.1e)\n", q->p2, lmin, le);
    assert_true(fabs(lmin - le) < 1e-3 * le);
  }
  cs_curve_free(&c);
  cs_orbit_ws_free(w);
  cs_config_free(&cfg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bautin),
      cmocka_unit_test(bogdanov_takens),
      cmocka_unit_test(cusp),
      cmocka_unit_test(flip),
      cmocka_unit_test(torus),
      cmocka_unit_test(foldflip),
      cmocka_unit_test(cuspcycle),
      cmocka_unit_test(fig5a_hopf_curve),
      cmocka_unit_test(belt_grazing_curve),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
