/* SPDX-License-Identifier: MIT */
/* Pseudo-arclength continuation (analysis/continuation.h) against known
 * answers:
 * - the subcritical Hopf normal form r' = mu r + r^3 - r^5: the Hopf point of
 *   the origin at mu = 0, the cycle branch started there, its fold at
 *   mu = -1/4 passed and located, every point's radius r^2 = (1 +-
 *   sqrt(1 + 4 mu))/2, multiplier exp(T (mu + 3 r^2 - 5 r^4)), stability and
 *   trivial multiplier (within 1e-6 of 1);
 * - equilibria of the autonomous Duffing oscillator (omega = 0), x^3 - x =
 *   gamma: the fold at gamma = 2/(3 sqrt 3), x = -1/sqrt 3 passed, the branch
 *   followed back to gamma = 0 (x = 0), stable below the fold, a saddle above;
 *   with stop = fold the same branch ends one step past the fold, and the
 *   [continuation] stop key's parsing and refusals;
 * - the forced Duffing oscillator's period doublings located by the multiplier
 *   crossing -1 (to 1e-6: the multiplier is on either side of -1 at
 *   p* -+ 1e-6), the switch to the doubled cycle and its own doubling; the
 *   first one inside the interval a refined sweep brackets when its transient
 *   is long enough (CS_TEST_QUICK skips that sweep, about 10 s);
 * - a Neimark-Sacker point (a cycle times a linear focus: the complex pair
 *   exp(2 pi (a +- i b)) leaves the unit circle at a = 0, argument 2 pi b);
 * - the event-driven belt of figure 4a continued down in eta: one stick
 *   phase per period, stable, to the grazing where a new stick phase appears;
 * - figure 5a (pendulum, omega0): the Hopf point of the equilibrium, the fold
 *   where the unstable cycle born there meets the stable one, the fold that
 *   ends the stable branch near 59.5 rad/s, the trivial multiplier on every
 *   cycle, and the section points of the point analysis (the sweep's) on the
 *   continued stable branch within 1e-6 at the file's tolerance
 *   (CS_TEST_QUICK skips this one);
 * - figure 5a's cycles at rtol 1e-10 with erk, erk6 and erk8: the same three
 *   folds within 1e-7 rad/s, the Verner pairs' model evaluations below 1.5
 *   times erk's, and a shooting with the parameter column dy/dp as many
 *   steps (within 25 %) as one without (CS_TEST_QUICK skips this one). */
#include "testmodel.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/continuation.h"
#include "analysis/continuation_config.h"
#include "analysis/point.h"
#include "io/config.h"
#include "sweep/sweep.h"
#include "analysis/orbit_private.h"
#include "analysis/continuation_private.h"

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

static const struct cs_special *special(const struct cs_branch *b, enum cs_special_kind k,
                                        size_t nth)
{
  for (size_t i = 0; i < b->n_special; i++)
    if (b->special[i].kind == k && nth-- == 0)
      return &b->special[i];
  return NULL;
}

static size_t count(const struct cs_branch *b, enum cs_special_kind k)
{
  size_t c = 0;
  for (size_t i = 0; i < b->n_special; i++)
    c += b->special[i].kind == k;
  return c;
}

/* ----------------------------------------------------- Hopf normal form */

static void subhopf_branch(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("subhopf");
  void *p = make_params(m);
  const double omega = 1.3;
  assert_int_equal(cs_model_set_param(m, p, "omega", omega), CS_OK);
  struct cs_orbit_ws *w = ws_of(m, p, "mu");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = -0.5, sp.p_max = 0.3;
  sp.stop_at_hopf = 1;
  struct cs_branch eq, cy;
  double origin[2] = {0.01, -0.02};
  assert_int_equal(cs_continue_equilibria(w, &sp, -0.5, origin, &eq), CS_OK);
  const struct cs_special *h = special(&eq, CS_SPECIAL_HOPF, 0);
  assert_non_null(h);
  print_message("Hopf at mu = %.3g, omega = %.12g\n", h->pt.p, h->omega);
  assert_close(h->pt.p, 0.0, 1e-9);
  assert_close(h->omega, omega, 1e-9);
  sp.stop_at_hopf = 0;
  sp.max_points = 500;
  assert_int_equal(cs_continue_cycles_from_hopf(w, &sp, h, &cy), CS_OK);
  print_message("%zu cycles, %s\n", cy.n_points, cy.end_note);
  assert_int_equal(count(&cy, CS_SPECIAL_FOLD), 1);
  const struct cs_special *f = special(&cy, CS_SPECIAL_FOLD, 0);
  print_message("fold at mu = %.12g, r = %.12g\n", f->pt.p, f->pt.y[0]);
  assert_close(f->pt.p, -0.25, 1e-9);
  assert_close(f->pt.y[0], sqrt(0.5), 1e-4);
  /* every cycle against the closed form */
  double worst_r = 0, worst_m = 0;
  int passed = 0;
  for (size_t i = 0; i < cy.n_points; i++) {
    const struct cs_branch_point *q = &cy.points[i];
    double r = q->y[0], r2 = r * r, mu = q->p, T = 2 * M_PI / omega;
    double root = sqrt(fmax(1 + 4 * mu, 0.0));
    double expect = r2 > 0.5 ? (1 + root) / 2 : (1 - root) / 2;
    worst_r = fmax(worst_r, fabs(r2 - expect));
    assert_close(q->y[1], 0.0, 1e-10);
    assert_close(q->period, T, 1e-8);
    double mult = exp(T * (mu + 3 * r2 - 5 * r2 * r2));
    worst_m = fmax(worst_m, fabs(q->re[0] - mult) / (mult + 1e-9));
    assert_close(q->re[0], mult, 1e-6 * mult + 1e-9);
    assert_close(q->trivial_err, 0.0, 1e-6);
    /* the side of the unit circle as the closed form says, except where the
     * multiplier is within the moduli's accuracy of 1 (next to the Hopf point
     * and the fold): there marginal, never the wrong side */
    if (fabs(mult - 1) > 1e-5) {
      assert_int_equal(q->n_unstable, mult > 1 ? 1 : 0);
      assert_int_equal(q->n_marginal, 0);
    } else {
      assert_true(q->n_unstable == (mult > 1 ? 1 : 0) || q->n_marginal == 1);
    }
    assert_true(q->n_marginal == 0 || fabs(mult - 1) < 1e-5);
    passed |= r2 > 0.6;
  }
  print_message("largest |r^2 - closed form| %.3g, multiplier rel. error %.3g\n", worst_r, worst_m);
  assert_true(worst_r < 1e-7);
  assert_true(passed);
  /* the branch went round the fold to the end of the range on the stable side */
  assert_close(cy.points[cy.n_points - 1].p, sp.p_max, 1e-9);
  /* stable exactly on the outer cycles: from the fold to the end */
  struct cs_param_range st[4];
  assert_int_equal(cs_branch_stable_ranges(&cy, st, 4), 1);
  assert_close(st[0].lo, -0.25, 1e-9);
  assert_close(st[0].hi, sp.p_max, 1e-12);
  cs_branch_free(&eq);
  cs_branch_free(&cy);
  cs_orbit_ws_free(w);
  free(p);
}

/* The stable stretches of a branch made by hand: a lone stable point and a
 * marginal one break nothing and count for nothing; a stretch ends at a
 * segment change and reaches to the special points located at its ends
 * (not to a branch switch or the end marker). */
static void stable_ranges(void **state)
{
  (void)state;
  /* p:      1  2  3  4  5  6  7  8  9  10
   * stable: S  U  S  S  S  M  S  S  S  S
   * segment 0 .......................  1 */
  static const int unstable[] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
  static const int marginal[] = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
  struct cs_branch_point pts[10];
  memset(pts, 0, sizeof pts);
  for (int i = 0; i < 10; i++) {
    pts[i].p = i + 1;
    pts[i].n_unstable = unstable[i];
    pts[i].n_marginal = marginal[i];
    pts[i].segment = i < 9 ? 0 : 1;
  }
  struct cs_special sp[3];
  memset(sp, 0, sizeof sp);
  sp[0].kind = CS_SPECIAL_FOLD, sp[0].after = 1, sp[0].pt.p = 2.4;            /* before 3 */
  sp[1].kind = CS_SPECIAL_PERIOD_DOUBLING, sp[1].after = 4, sp[1].pt.p = 5.5; /* after 5 */
  sp[2].kind = CS_SPECIAL_BRANCH_SWITCH, sp[2].after = 8, sp[2].pt.p = 9.5;   /* not a bound */
  struct cs_branch b = {.points = pts, .n_points = 10, .special = sp, .n_special = 3};
  struct cs_param_range r[3];
  assert_int_equal(cs_branch_stable_ranges(&b, NULL, 0), 2); /* counted without room */
  assert_int_equal(cs_branch_stable_ranges(&b, r, 1), 2);    /* at most max written */
  assert_close(r[0].lo, 2.4, 0);
  assert_close(r[0].hi, 5.5, 0);
  assert_int_equal(cs_branch_stable_ranges(&b, r, 3), 2);
  assert_close(r[1].lo, 7, 0);
  assert_close(r[1].hi, 9, 0); /* the lone point 10 is left out */
  /* a branch run backwards: the interval still reads low to high */
  for (int i = 0; i < 10; i++)
    pts[i].p = -pts[i].p;
  assert_int_equal(cs_branch_stable_ranges(&b, r, 3), 2);
  assert_close(r[1].lo, -9, 0);
  assert_close(r[1].hi, -7, 0);
}

/* ------------------------------------------------- a fold of equilibria */

static void equilibrium_fold(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "omega", 0.0), CS_OK); /* autonomous */
  struct cs_orbit_ws *w = ws_of(m, p, "gamma");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = 0.0, sp.p_max = 1.0;
  sp.max_points = 400;
  struct cs_branch eq;
  double guess[2] = {-0.95, 0.0};
  assert_int_equal(cs_continue_equilibria(w, &sp, 0.1, guess, &eq), CS_OK);
  print_message("%zu points: %s\n", eq.n_points, eq.end_note);
  assert_int_equal(count(&eq, CS_SPECIAL_FOLD), 1);
  assert_int_equal(count(&eq, CS_SPECIAL_HOPF), 0);
  const struct cs_special *f = special(&eq, CS_SPECIAL_FOLD, 0);
  print_message("fold at gamma = %.14g, x = %.12g\n", f->pt.p, f->pt.y[0]);
  assert_close(f->pt.p, 2 / (3 * sqrt(3)), 1e-9);
  assert_close(f->pt.y[0], -1 / sqrt(3), 1e-4);
  for (size_t i = 0; i < eq.n_points; i++) {
    const struct cs_branch_point *q = &eq.points[i];
    double x = q->y[0];
    assert_close(x * x * x - x, q->p, 1e-10);
    assert_close(q->y[1], 0.0, 1e-12);
    if (fabs(x * x - 1.0 / 3) > 1e-3)
      assert_int_equal(q->n_unstable, x * x > 1.0 / 3 ? 0 : 1);
  }
  /* past the fold, back to gamma = 0 at the middle equilibrium x = 0 */
  const struct cs_branch_point *last = &eq.points[eq.n_points - 1];
  assert_close(last->p, 0.0, 1e-12);
  assert_close(last->y[0], 0.0, 1e-9);
  cs_branch_free(&eq);
  cs_orbit_ws_free(w);
  free(p);
}

/* stop = fold (AUTO's STOP): the branch of equilibrium_fold ends after the
 * step that located its fold, at that fold, with an end point saying so;
 * stop = fold:2 (a second fold, which this branch has not) changes nothing. */
static void stop_at_fold(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "omega", 0.0), CS_OK);
  struct cs_orbit_ws *w = ws_of(m, p, "gamma");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = 0.0, sp.p_max = 1.0;
  sp.max_points = 400;
  double guess[2] = {-0.95, 0.0};
  struct cs_branch full, stopped, second;
  assert_int_equal(cs_continue_equilibria(w, &sp, 0.1, guess, &full), CS_OK);
  sp.stop_after[CS_SPECIAL_FOLD] = 1;
  assert_int_equal(cs_continue_equilibria(w, &sp, 0.1, guess, &stopped), CS_OK);
  sp.stop_after[CS_SPECIAL_FOLD] = 2;
  assert_int_equal(cs_continue_equilibria(w, &sp, 0.1, guess, &second), CS_OK);
  print_message("full %zu points, stopped %zu: %s\n", full.n_points, stopped.n_points,
                stopped.end_note);
  assert_int_equal(stopped.status, CS_OK);
  assert_int_equal(count(&stopped, CS_SPECIAL_FOLD), 1);
  const struct cs_special *f = special(&stopped, CS_SPECIAL_FOLD, 0);
  assert_close(f->pt.p, 2 / (3 * sqrt(3)), 1e-9);
  /* the fold's step is the last: one point after the fold, the points before
   * it those of the full branch */
  assert_int_equal(stopped.n_points, f->after + 2);
  assert_true(stopped.n_points < full.n_points);
  for (size_t i = 0; i < stopped.n_points; i++)
    assert_true(stopped.points[i].p == full.points[i].p);
  assert_non_null(strstr(stopped.end_note, "stopped at fold 1"));
  const struct cs_special *e = special(&stopped, CS_SPECIAL_END, 0);
  assert_non_null(e);
  assert_true(e->pt.p == stopped.points[stopped.n_points - 1].p);
  /* no second fold: the whole branch */
  assert_int_equal(second.n_points, full.n_points);
  assert_string_equal(second.end_note, full.end_note);
  cs_branch_free(&full), cs_branch_free(&stopped), cs_branch_free(&second);
  cs_orbit_ws_free(w);
  free(p);
}

/* [continuation] stop: kinds with an optional count, commas or spaces
 * between; an unknown kind or a count below 1 refused naming the key. */
static void stop_config(void **state)
{
  (void)state;
  static const char text[] = "[model]\nname = duffing\n[continuation]\nparameter = gamma\n"
                             "min = 0\nmax = 1\nstop = fold, period-doubling:2 hopf\n";
  struct cs_config cfg;
  struct cs_continue_config cc;
  assert_int_equal(cs_config_load_text("stop.ini", text, NULL, 0, &cfg), CS_OK);
  assert_int_equal(cs_continue_config_read(&cfg, 1, &cc), CS_OK);
  cs_config_free(&cfg);
  for (int k = 0; k < CS_SPECIAL_COUNT; k++)
    assert_int_equal(cc.spec.stop_after[k], k == CS_SPECIAL_FOLD || k == CS_SPECIAL_HOPF ? 1
                                            : k == CS_SPECIAL_PERIOD_DOUBLING            ? 2
                                                                                         : 0);
  static const char *const bad[] = {"continuation.stop=fold:0", "continuation.stop=lp",
                                    "continuation.stop=end", "continuation.stop=fold:two"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(cs_config_load_text("stop.ini", text, &bad[i], 1, &cfg), CS_OK);
    assert_int_not_equal(cs_continue_config_read(&cfg, 1, &cc), CS_OK);
    assert_non_null(strstr(cs_errmsg(), "stop: "));
    assert_non_null(strstr(cs_errmsg(), "accepted: "));
    cs_config_free(&cfg);
  }
}

/* ---------------------------------------------- Duffing period doubling */

struct sweep_pd {
  double lo[4], hi[4];
  size_t n;
};

/* The period-doubling brackets a refined sweep finds over [from, to]: the
 * settings of tests/test_sweep.c, adaptive transients from `transient` up to
 * 6000 time units. */
static void sweep_brackets(const struct cs_model *m, const void *p, double from, double to,
                           size_t points, double transient, struct sweep_pd *out)
{
  struct cs_sweep_spec s = {0};
  s.param = cs_model_param_index(m, "gamma");
  s.param2 = -1;
  s.from = from, s.to = to, s.points = points;
  s.continuation = 1;
  s.direction = CS_SWEEP_FORWARD;
  s.overlap = 3;
  s.point = cs_point_spec_default();
  s.point.section = m->section;
  s.point.solver.rtol = 1e-9, s.point.solver.atol = 1e-11;
  s.point.solver.max_steps = 100000000;
  s.point.transient = transient;
  s.point.adaptive_transient = 1;
  s.point.transient_max = 6000;
  s.point.record_crossings = 32;
  s.point.record = 0;
  s.refine = 1;
  s.refine_tol = 1e-4;
  s.threads = 2;
  double y0[2] = {1.0, 0.0};
  struct cs_sweep_outcome o;
  assert_int_equal(cs_sweep_run(m, p, y0, &s, NULL, NULL, &o), CS_OK);
  out->n = 0;
  for (size_t i = 0; i < o.n_bif && out->n < 4; i++)
    if (o.bif[i].kind == CS_BIF_PERIOD_DOUBLING) {
      print_message("sweep: period %d -> %d in [%.7f, %.7f]\n", o.bif[i].from_period,
                    o.bif[i].to_period, o.bif[i].p_left, o.bif[i].p_right);
      out->lo[out->n] = o.bif[i].p_left, out->hi[out->n] = o.bif[i].p_right;
      out->n++;
    }
  cs_sweep_outcome_free(&o);
}

/* The multiplier nearest -1 of the period-k orbit at gamma (Newton from y). */
static double multiplier_near_minus_one(struct cs_orbit_ws *w, double gamma, int k, const double *y,
                                        double t0)
{
  assert_int_equal(cs_orbit_ws_set_param(w, gamma), CS_OK);
  struct cs_orbit_opts o = cs_orbit_opts_default();
  o.solver.rtol = 1e-10, o.solver.atol = 1e-12;
  o.returns = k;
  struct cs_orbit orb;
  assert_int_equal(cs_orbit_find(w, &o, t0, y, 0.0, &orb), CS_OK);
  double best = orb.mult_re[0];
  for (size_t i = 0; i < orb.n_mult; i++)
    if (orb.mult_im[i] == 0 && fabs(orb.mult_re[i] + 1) < fabs(best + 1))
      best = orb.mult_re[i];
  return best;
}

static void duffing_period_doubling(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("duffing");
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "gamma", 0.22), CS_OK);
  struct cs_orbit_ws *w = ws_of(m, p, "gamma");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = 0.2, sp.p_max = 0.2895;
  sp.orbit.solver.rtol = 1e-10, sp.orbit.solver.atol = 1e-12;
  sp.switch_pd = 1;
  sp.locate_tol = 1e-9;
  double t0, y[2], T, y0[2] = {1.0, 0.0};
  assert_int_equal(cs_orbit_guess(w, &sp.orbit, 0.0, y0, 300.0, &t0, y, &T), CS_OK);
  struct cs_branch b;
  assert_int_equal(cs_continue_cycles(w, &sp, 0.22, t0, y, T, &b), CS_OK);
  print_message("%zu points: %s\n", b.n_points, b.end_note);
  assert_true(count(&b, CS_SPECIAL_PERIOD_DOUBLING) >= 2);
  assert_true(count(&b, CS_SPECIAL_BRANCH_SWITCH) >= 1);
  assert_int_equal(count(&b, CS_SPECIAL_FOLD), 0);
  double found[2];
  for (int k = 0; k < 2; k++) {
    const struct cs_special *pd = special(&b, CS_SPECIAL_PERIOD_DOUBLING, (size_t)k);
    double pstar = found[k] = pd->pt.p;
    print_message("period doubling %d -> %d at gamma = %.10f\n", 1 << k, 2 << k, pstar);
    assert_int_equal(pd->pt.returns, 1 << k);
    /* to 1e-6: the multiplier is on either side of -1 at p* -+ 1e-6 */
    double below = multiplier_near_minus_one(w, pstar - 1e-6, 1 << k, pd->pt.y, 0.0);
    double above = multiplier_near_minus_one(w, pstar + 1e-6, 1 << k, pd->pt.y, 0.0);
    print_message("  multiplier %.9f at p* - 1e-6, %.9f at p* + 1e-6\n", below, above);
    assert_true((below + 1) * (above + 1) < 0);
  }
  /* The sweep of tests/test_sweep.c (adaptive transients from 300, 28
   * points) brackets both doublings, refined, around the values located by
   * the multiplier: two independent methods. (Near a doubling the section
   * points alternate around the period-1 orbit with an amplitude decaying
   * like |mu|^j, and points two apart agree long before neighbours do; the
   * sweep recognises that approach by its geometric contraction.) */
  if (!quick()) {
    struct sweep_pd sw;
    sweep_brackets(m, p, 0.22, 0.2895, 28, 300.0, &sw);
    assert_int_equal(sw.n, 2);
    for (int k = 0; k < 2; k++)
      assert_true(found[k] >= sw.lo[k] && found[k] <= sw.hi[k]);
  }
  /* the doubled branch has twice the period */
  const struct cs_special *s1 = special(&b, CS_SPECIAL_BRANCH_SWITCH, 0);
  assert_int_equal(s1->pt.returns, 2);
  assert_close(s1->pt.period, 2 * 2 * M_PI / 1.2, 1e-12);
  cs_branch_free(&b);
  cs_orbit_ws_free(w);
  free(p);
}

/* ---------------------------------------------------- Neimark-Sacker */

/* A stable circle r = 1 of r' = r (1 - r^2), theta' = 1 (period 2 pi),
 * times a linear focus (u, v) with rates a +- i b: on the cycle u = v = 0
 * the nontrivial multipliers are exp(-4 pi) (radial) and exp(2 pi (a +- i
 * b)), a complex pair that leaves the unit circle at a = 0 with the argument
 * 2 pi b (a Neimark-Sacker point, degenerate: the focus is linear). */
struct ns_params {
  double a, b;
};

static int ns_rhs(double t, const double *y, double *f, const void *vp)
{
  (void)t;
  const struct ns_params *p = vp;
  double g = 1 - y[0] * y[0] - y[1] * y[1];
  f[0] = g * y[0] - y[1];
  f[1] = g * y[1] + y[0];
  f[2] = p->a * y[2] - p->b * y[3];
  f[3] = p->b * y[2] + p->a * y[3];
  return 0;
}

static int ns_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t;
  const struct ns_params *p = vp;
  double g = 1 - y[0] * y[0] - y[1] * y[1];
  J[0] = g - 2 * y[0] * y[0], J[1] = -2 * y[0] * y[1] - 1;
  J[4] = -2 * y[0] * y[1] + 1, J[5] = g - 2 * y[1] * y[1];
  J[10] = p->a, J[11] = -p->b;
  J[14] = p->b, J[15] = p->a;
  return 0;
}

static enum cs_status ns_prepare(void *p)
{
  (void)p;
  return CS_OK;
}

static const struct cs_var_desc ns_state[] = {{"x", "1", "circle", 0, 0},
                                              {"y", "1", "circle", 0, 0},
                                              {"u", "1", "focus", 0, 0},
                                              {"v", "1", "focus", 0, 0}};
static const double ns_y0[] = {1.0, 0.0, 0.0, 0.0};
static const struct cs_param_desc ns_params_desc[] = {
    {"a", "1", offsetof(struct ns_params, a), -0.2, -1, 1, NULL, "focus rate"},
    {"b", "1", offsetof(struct ns_params, b), 0.2385, -10, 10, NULL, "focus frequency"}};
static const struct cs_model ns_model = {.name = "ns-test",
                                         .title = "test",
                                         .reference = "test",
                                         .n_state = 4,
                                         .state = ns_state,
                                         .state_default = ns_y0,
                                         .n_param = 2,
                                         .param = ns_params_desc,
                                         .params_size = sizeof(struct ns_params),
                                         .stick_output = -1,
                                         .prepare = ns_prepare,
                                         .rhs = ns_rhs,
                                         .jac = ns_jac,
                                         .section = {CS_SECTION_HYPERPLANE, "y", 0.0, +1}};

static void neimark_sacker(void **state)
{
  (void)state;
  struct ns_params p = {-0.2, 0.2385};
  struct cs_orbit_ws *w = ws_of(&ns_model, &p, "a");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = -0.2, sp.p_max = 0.15;
  sp.ds = sp.ds_max = 0.1;
  struct cs_branch b;
  assert_int_equal(cs_continue_cycles(w, &sp, -0.2, 0.0, ns_y0, 2 * M_PI, &b), CS_OK);
  assert_int_equal(count(&b, CS_SPECIAL_NEIMARK_SACKER), 1);
  assert_int_equal(count(&b, CS_SPECIAL_PERIOD_DOUBLING), 0);
  assert_int_equal(count(&b, CS_SPECIAL_FOLD), 0);
  const struct cs_special *ns = special(&b, CS_SPECIAL_NEIMARK_SACKER, 0);
  print_message("Neimark-Sacker at a = %.3g, argument %.10f (2 pi b = %.10f)\n", ns->pt.p,
                ns->omega, 2 * M_PI * 0.2385);
  assert_close(ns->pt.p, 0.0, 1e-9);
  assert_close(ns->omega, 2 * M_PI * 0.2385, 1e-7);
  for (size_t i = 0; i < b.n_points; i++) {
    const struct cs_branch_point *q = &b.points[i];
    assert_close(hypot(q->re[0], q->im[0]), exp(2 * M_PI * q->p), 1e-7 * exp(2 * M_PI * q->p));
    assert_int_equal(q->n_unstable, q->p > 1e-9 ? 2 : 0);
  }
  cs_branch_free(&b);
  cs_orbit_ws_free(w);
}

/* ------------------------------------------ event-driven: the belt */

/* The belt's stick-slip orbit of figure 4a (event-driven law) continued
 * down in eta: one stick phase per period all along (2 switches), stable
 * (multiplier ~0.805, the other two zero: stick forgets the velocities),
 * until the slip phase's relative speed dips to the stick threshold (a new
 * stick phase): the branch ends there with a grazing, the margin to the
 * switch having fallen by a factor of five. Cross-checked against
 * differences of the section map in test_orbit.c. */
static void belt_grazing(void **state)
{
  (void)state;
  const char *sets[] = {"model.law=event-driven", "solver.stepper=erk", "solver.rtol=1e-10",
                        "solver.atol=1e-12"};
  struct cs_config cfg;
  if (cs_config_load(CONTENSOU_SOURCE_DIR "/params/belt_fig4a.ini", sets, 4, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  struct cs_orbit_ws *w = ws_of(cfg.model, cfg.params_unprepared, "eta");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = 4.5, sp.p_max = 5.5;
  sp.direction = -1;
  sp.orbit.solver = cfg.solver;
  sp.orbit.section = cfg.section;
  double t0, y[4], T;
  assert_int_equal(cs_orbit_guess(w, &sp.orbit, 0.0, cfg.y0, 0.0, &t0, y, &T), CS_OK);
  struct cs_branch b;
  assert_int_equal(cs_continue_cycles(w, &sp, 4.98, t0, y, T, &b), CS_OK);
  print_message("%zu points: %s\n", b.n_points, b.end_note);
  const struct cs_special *g = special(&b, CS_SPECIAL_GRAZING, 0);
  assert_non_null(g);
  print_message("grazing at eta = %.9f (%s)\n", g->pt.p, g->note);
  assert_true(g->pt.p > 4.96 && g->pt.p < 4.97);
  for (size_t i = 0; i < b.n_points; i++) {
    const struct cs_branch_point *q = &b.points[i];
    assert_int_equal(q->switches, 2);
    assert_int_equal(q->n_unstable, 0);
    assert_true(q->re[0] > 0.8 && q->re[0] < 0.85);
    assert_close(hypot(q->re[1], q->im[1]), 0.0, 1e-9);
    assert_close(q->trivial_err, 0.0, 1e-6);
  }
  assert_true(b.points[b.n_points - 1].graze < 0.2 * b.points[0].graze);
  cs_branch_free(&b);
  cs_orbit_ws_free(w);
  cs_config_free(&cfg);
}

/* --------------------------------------------------------- figure 5a */

static void fig5a(void **state)
{
  (void)state;
  if (quick()) {
    print_message("figure 5a: skipped (CS_TEST_QUICK)\n");
    return;
  }
  struct cs_config cfg;
  if (cs_config_load(FIG5A, NULL, 0, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const struct cs_model *m = cfg.model;
  struct cs_orbit_ws *w = ws_of(m, cfg.params_unprepared, "omega0");
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = 20, sp.p_max = 80;
  sp.orbit.solver = cfg.solver;
  sp.orbit.section = cfg.section;
  sp.stop_at_hopf = 1;
  sp.max_points = 400;
  struct cs_branch eq, cy;
  assert_int_equal(cs_continue_equilibria(w, &sp, 30.0, cfg.y0, &eq), CS_OK);
  const struct cs_special *h = special(&eq, CS_SPECIAL_HOPF, 0);
  assert_non_null(h);
  print_message("Hopf at omega0 = %.8f rad/s, omega %.6f rad/s\n", h->pt.p, h->omega);
  assert_close(h->pt.p, 37.1707, 1e-4);
  sp.stop_at_hopf = 0;
  assert_int_equal(cs_continue_cycles_from_hopf(w, &sp, h, &cy), CS_OK);
  print_message("%zu cycles: %s\n", cy.n_points, cy.end_note);
  for (size_t i = 0; i < cy.n_special; i++)
    print_message("  %s at %.8f (period %.8f s)\n", cs_special_name(cy.special[i].kind),
                  cy.special[i].pt.p, cy.special[i].pt.period);
  const struct cs_special *f1 = special(&cy, CS_SPECIAL_FOLD, 0);
  const struct cs_special *f2 = special(&cy, CS_SPECIAL_FOLD, 1);
  assert_non_null(f1);
  assert_non_null(f2);
  /* subcritical: the unstable cycle goes down in omega0 to the fold with the stable one */
  assert_true(f1->pt.p < h->pt.p && f1->pt.p > 36.5);
  /* the stable branch ends at a fold (multiplier +1) near 59.5 */
  assert_true(f2->pt.p > 59.0 && f2->pt.p < 59.6);
  size_t n_stable = 0;
  for (size_t i = 0; i < cy.n_points; i++) {
    assert_close(cy.points[i].trivial_err, 0.0, 1e-6);
    const struct cs_branch_point *q = &cy.points[i];
    if (i > f1->after && i <= f2->after) {
      assert_int_equal(q->n_unstable, 0);
      n_stable++;
    }
  }
  assert_true(n_stable > 10);
  /* the point analysis of a sweep lands on the continued stable branch */
  struct cs_point_ws *pws = cs_point_ws_create(m->n_state, 1000);
  struct cs_point_spec ps = cs_point_spec_default();
  ps.solver = cfg.solver;
  ps.section = cfg.section;
  ps.transient = 20, ps.adaptive_transient = 1, ps.transient_max = 60, ps.record = 5;
  const double probes[] = {40.0, 47.5, 55.0};
  for (int k = 0; k < 3; k++) {
    /* the branch's orbit at exactly this omega0: Newton from the nearest stable point */
    size_t best = f1->after + 1;
    for (size_t i = f1->after + 1; i <= f2->after; i++)
      if (fabs(cy.points[i].p - probes[k]) < fabs(cy.points[best].p - probes[k]))
        best = i;
    assert_int_equal(cs_orbit_ws_set_param(w, probes[k]), CS_OK);
    struct cs_orbit orb;
    assert_int_equal(
        cs_orbit_find(w, &sp.orbit, 0.0, cy.points[best].y, cy.points[best].period, &orb), CS_OK);
    struct cs_point_result res;
    assert_int_equal(cs_point_analyse(m, cs_orbit_ws_params(w), cfg.y0, &ps, pws, &res), CS_OK);
    assert_int_equal(res.cls, CS_CLASS_PERIODIC);
    assert_int_equal(res.period, 1);
    double worst = 0;
    for (size_t r = 0; r < res.n_section; r++)
      for (size_t j = 0; j < m->n_state; j++)
        worst = fmax(worst, fabs(res.section[r * res.section_cols + 1 + j] - orb.y[j]));
    print_message("omega0 = %g: %zu section points within %.3g of the branch's orbit\n", probes[k],
                  res.n_section, worst);
    assert_true(worst < 1e-6);
    assert_close(res.period_time, orb.period, 1e-6);
  }
  cs_point_ws_free(pws);
  cs_branch_free(&eq);
  cs_branch_free(&cy);
  cs_orbit_ws_free(w);
  cs_config_free(&cfg);
}

/* ------------------------------------------- higher-order steppers */

/* The model's evaluations, counted through a copy of the model whose rhs,
 * jac and rhs_jac call the real ones. */
static const struct cs_model *counted_model;
static long counted_evals;

static int count_rhs(double t, const double *y, double *ydot, const void *p)
{
  counted_evals++;
  return counted_model->rhs(t, y, ydot, p);
}

static int count_jac(double t, const double *y, double *J, const void *p)
{
  return counted_model->jac(t, y, J, p);
}

static int count_rhs_jac(double t, const double *y, double *ydot, double *J, const void *p)
{
  counted_evals++;
  return counted_model->rhs_jac(t, y, ydot, J, p);
}

/* Figure 5a's cycles at rtol 1e-10 with the default stepper and the Verner
 * pairs: the same folds, and the Verner pairs' evaluations not above the
 * default's by more than half. Before the parameter column v left the error
 * test, the rounding noise of its difference quotient, amplified by the
 * Verner weights, held erk6 to 280 times the steps of a shooting without v
 * (erk6's branch: 30 times erk's evaluations), and with ARKODE's
 * interpolant for the end state erk8's first cycle from the Hopf point did
 * not converge; erk6's did not at this rtol until a failed first cycle was
 * retried ten times larger. */
static void verner_steppers(void **state)
{
  (void)state;
  if (quick()) {
    print_message("Verner steppers: skipped (CS_TEST_QUICK)\n");
    return;
  }
  const char *sets[] = {"solver.rtol=1e-10", "solver.atol=1e-12"};
  struct cs_config cfg;
  if (cs_config_load(CONTENSOU_SOURCE_DIR "/params/pendulum_fig5a_cycles.ini", sets, 2, &cfg) !=
      CS_OK)
    fail_msg("%s", cs_errmsg());
  counted_model = cfg.model;
  struct cs_model cm = *cfg.model;
  cm.rhs = count_rhs;
  cm.jac = cfg.model->jac ? count_jac : NULL;
  cm.rhs_jac = cfg.model->rhs_jac ? count_rhs_jac : NULL;
  const enum cs_stepper steppers[] = {CS_STEPPER_ERK, CS_STEPPER_ERK6, CS_STEPPER_ERK8};
  const char *names[] = {"erk", "erk6", "erk8"};
  double folds[3][3];
  long evals[3];
  for (int k = 0; k < 3; k++) {
    struct cs_orbit_ws *w = ws_of(&cm, cfg.params_unprepared, "omega0");
    struct cs_continue_spec sp = cs_continue_spec_default();
    sp.p_min = 20, sp.p_max = 80;
    sp.orbit.solver = cfg.solver;
    sp.orbit.solver.stepper = steppers[k];
    sp.orbit.section = cfg.section;
    sp.locate_tol = 1e-10;
    sp.stop_at_hopf = 1;
    sp.max_points = 400;
    struct cs_branch eq, cy;
    assert_int_equal(cs_continue_equilibria(w, &sp, 30.0, cfg.y0, &eq), CS_OK);
    const struct cs_special *h = special(&eq, CS_SPECIAL_HOPF, 0);
    assert_non_null(h);
    sp.stop_at_hopf = 0;
    counted_evals = 0;
    enum cs_status st = cs_continue_cycles_from_hopf(w, &sp, h, &cy);
    evals[k] = counted_evals;
    if (st != CS_OK)
      fail_msg("%s: %s", names[k], cs_errmsg());
    assert_int_equal(count(&cy, CS_SPECIAL_FOLD), 3);
    for (int f = 0; f < 3; f++)
      folds[k][f] = special(&cy, CS_SPECIAL_FOLD, (size_t)f)->pt.p;
    print_message("%s: folds at %.10f, %.10f, %.10f rad/s; %ld evaluations, %ld shootings, "
                  "%ld corrector iterations, %zu points\n",
                  names[k], folds[k][0], folds[k][1], folds[k][2], evals[k], cy.shootings,
                  cy.newton_iterations, cy.n_points);
    /* the folds of AUTO-07p (tests/bench/bench_auto.sh, NTST 100, EPSS 1e-10) */
    const double auto_folds[3] = {36.9159446960, 59.4577007430, 35.7833824700};
    for (int f = 0; f < 3; f++)
      assert_close(folds[k][f], auto_folds[f], 2e-9);
    /* the chord corrector and the location: variational shootings (with the
     * monodromy matrix) about one per point, the corrector's other
     * iterations without the variational equations (before: 7.7 shootings
     * per point, 4 per location trial, 20 trials per fold) */
    assert_true(cy.shootings <= 5 * (long)cy.n_points / 2);

    /* one shooting with and without the parameter column: the same steps */
    const struct cs_branch_point *q = &cy.points[cy.n_points / 2];
    assert_int_equal(cs_orbit_ws_set_param(w, q->p), CS_OK);
    struct cs_orbit_shot with, without;
    assert_int_equal(cs_orbit_shoot(w, &sp.orbit, 0.0, q->y, q->period, 1, &with), CS_OK);
    assert_int_equal(cs_orbit_shoot(w, &sp.orbit, 0.0, q->y, q->period, 0, &without), CS_OK);
    print_message("%s: one shooting takes %ld steps with dy/dp, %ld without\n", names[k],
                  with.steps, without.steps);
    assert_true(with.steps <= without.steps + without.steps / 4);
    /* the state alone: the same end state to the solver's accuracy */
    struct cs_orbit_shot plain;
    assert_int_equal(cs_orbit_shoot_state(w, &sp.orbit, 0.0, q->y, q->period, &plain), CS_OK);
    double worst = 0;
    for (size_t i = 0; i < cfg.model->n_state; i++)
      worst = fmax(worst, fabs(plain.y[i] - with.y[i]) /
                              (sp.orbit.solver.rtol * fabs(with.y[i]) + sp.orbit.solver.atol));
    print_message("%s: the state alone in %ld steps, within %.3g tolerance units\n", names[k],
                  plain.steps, worst);
    assert_true(worst < 100);
    assert_true(plain.steps <= with.steps);
    cs_branch_free(&eq);
    cs_branch_free(&cy);
    cs_orbit_ws_free(w);
  }
  for (int k = 1; k < 3; k++) {
    for (int f = 0; f < 3; f++)
      assert_close(folds[k][f], folds[0][f], 1e-7);
    assert_true(evals[k] < evals[0] * 3 / 2);
  }
  cs_config_free(&cfg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stable_ranges),
      cmocka_unit_test(subhopf_branch),
      cmocka_unit_test(equilibrium_fold),
      cmocka_unit_test(stop_at_fold),
      cmocka_unit_test(stop_config),
      cmocka_unit_test(duffing_period_doubling),
      cmocka_unit_test(neimark_sacker),
      cmocka_unit_test(belt_grazing),
      cmocka_unit_test(fig5a),
      cmocka_unit_test(verner_steppers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
