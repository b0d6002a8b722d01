/* SPDX-License-Identifier: MIT */
/* Equilibria and their stability (analysis/equilibrium.h) on test-local
 * models with known answers — the Brusselator (Hopf point at b = 1 + a^2),
 * a fold x' = mu - x^2 — and on the pendulum of figure 5a, whose equilibrium
 * loses stability between omega0 = 30 (figure 6a) and 40 rad/s (figure 6b);
 * the located Hopf point is checked against short simulations on both sides. */
#include "testmodel.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/equilibrium.h"
#include "integrate/flow.h"
#include "models/model.h"
#include "analysis/equilibrium_private.h"
#include "integrate/flow_private.h"

/* Brusselator: x' = a - (b + 1) x + x^2 y, y' = b x - x^2 y; equilibrium
 * (a, b/a), Jacobian there [[b - 1, a^2], [-b, -a^2]]: trace b - 1 - a^2,
 * determinant a^2, so a Hopf point at b = 1 + a^2 with eigenvalues +-i a. */
struct bruss {
  double a, b;
};

static const struct cs_var_desc xy_state[] = {
    {"x", "1", "first concentration", 0, 0},
    {"y", "1", "second concentration", 0, 0},
};

static const struct cs_param_desc bruss_params[] = {
    {"a", "1", offsetof(struct bruss, a), 1.37, 1e-3, 1e3, NULL, "feed"},
    {"b", "1", offsetof(struct bruss, b), 2.385, 0.0, 1e3, NULL, "control parameter"},
};

static const double bruss_default[] = {1.0, 1.0};

static int bruss_rhs(double t, const double *y, double *f, const void *vp)
{
  const struct bruss *p = vp;
  (void)t;
  double x2y = y[0] * y[0] * y[1];
  f[0] = p->a - (p->b + 1) * y[0] + x2y;
  f[1] = p->b * y[0] - x2y;
  return 0;
}

static int bruss_jac(double t, const double *y, double *J, const void *vp)
{
  const struct bruss *p = vp;
  (void)t;
  J[0] = -(p->b + 1) + 2 * y[0] * y[1];
  J[1] = y[0] * y[0];
  J[2] = p->b - 2 * y[0] * y[1];
  J[3] = -y[0] * y[0];
  return 0;
}

#define BRUSS_MODEL(model_name, jac_fn)                                                       \
  {                                                                                           \
    .name = model_name, .title = "Brusselator", .reference = "test", .n_state = 2,            \
    .state = xy_state, .state_default = bruss_default, .n_param = 2, .param = bruss_params,   \
    .params_size = sizeof(struct bruss), .stick_output = -1, .rhs = bruss_rhs, .jac = jac_fn, \
  }

static const struct cs_model bruss_model = BRUSS_MODEL("brusselator", bruss_jac);
static const struct cs_model bruss_fd_model = BRUSS_MODEL("brusselator-fd", NULL);

/* Fold: x' = mu - x^2, y' = -y. Equilibria (+-sqrt(mu), 0) for mu > 0, the
 * stable one with eigenvalues -2 sqrt(mu) and -1; none for mu < 0. The rhs
 * refuses |x| > 50 (a model's domain) to exercise the restarts. */
struct fold {
  double mu;
};

static const struct cs_param_desc fold_params[] = {
    {"mu", "1", offsetof(struct fold, mu), 0.81, -10.0, 10.0, NULL, "unfolding parameter"},
};

static const double fold_default[] = {0.5, 0.1};

static int fold_rhs(double t, const double *y, double *f, const void *vp)
{
  const struct fold *p = vp;
  (void)t;
  if (fabs(y[0]) > 50)
    return 1;
  f[0] = p->mu - y[0] * y[0];
  f[1] = -y[1];
  return 0;
}

static int fold_jac(double t, const double *y, double *J, const void *vp)
{
  (void)t, (void)vp;
  J[0] = -2 * y[0];
  J[3] = -1;
  return 0;
}

static const struct cs_model fold_model = {
    .name = "fold",
    .title = "saddle-node normal form",
    .reference = "test",
    .n_state = 2,
    .state = xy_state,
    .state_default = fold_default,
    .n_param = 1,
    .param = fold_params,
    .params_size = sizeof(struct fold),
    .stick_output = -1,
    .rhs = fold_rhs,
    .jac = fold_jac,
};

/* Event-driven variants of the fold model: a switching function away from
 * zero at the equilibria (accepted), and one that vanishes there (not). */
static int switch_far(double t, const double *y, double *g, const void *vp)
{
  (void)t, (void)vp;
  g[0] = 1 + y[1] * y[1];
  return 0;
}

static int switch_on(double t, const double *y, double *g, const void *vp)
{
  const struct fold *p = vp;
  (void)t;
  g[0] = y[0] * y[0] - p->mu;
  return 0;
}

#define HYBRID_MODEL(g)                                                                       \
  {                                                                                           \
    .name = "hybrid", .title = "an event-driven model", .reference = "test", .n_state = 2,    \
    .state = xy_state, .state_default = fold_default, .n_param = 1, .param = fold_params,     \
    .params_size = sizeof(struct fold), .stick_output = -1, .rhs = fold_rhs, .jac = fold_jac, \
    .n_switch = 1, .switch_fn = g,                                                            \
  }

static const struct cs_model hybrid_far = HYBRID_MODEL(switch_far);
static const struct cs_model hybrid_on = HYBRID_MODEL(switch_on);

static void set(const struct cs_model *m, void *p, const char *name, double v)
{
  if (cs_model_set_param(m, p, name, v) != CS_OK)
    fail_msg("cannot set %s = %g", name, v);
  if (m->prepare) {
    if (m->prepare(p) != CS_OK)
      fail_msg("%s: prepare failed: %s", m->name, cs_errmsg());
  }
}

/* Analytic eigenvalues of the Brusselator at (a, b/a), sorted as the library sorts them. */
static void bruss_eigen(double a, double b, double *re, double *im)
{
  double tr = b - 1 - a * a, disc = tr * tr / 4 - a * a;
  if (disc >= 0) {
    re[0] = tr / 2 + sqrt(disc), re[1] = tr / 2 - sqrt(disc);
    im[0] = im[1] = 0;
  } else {
    re[0] = re[1] = tr / 2;
    im[0] = sqrt(-disc), im[1] = -sqrt(-disc);
  }
}

/* Newton from a perturbed guess, the residual, and the eigenvalues against the
 * analytic ones: a complex and a real case, analytic and finite-difference Jacobian. */
static void brusselator_point(void **state)
{
  (void)state;
  const struct cs_model *models[] = {&bruss_model, &bruss_fd_model};
  const double ab[2][2] = {{1.37, 2.385}, {0.5, 0.2}};
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < 2; c++) {
      const struct cs_model *m = models[k];
      double a = ab[c][0], b = ab[c][1];
      struct bruss p = {a, b};
      double guess[2] = {a + 0.3, b / a - 0.4};
      struct cs_equilibrium e;
      assert_int_equal(cs_equilibrium_find(m, &p, guess, &e), CS_OK);
      assert_true(e.found);
      assert_int_equal(e.start, 0);
      assert_int_equal(e.n, 2);
      assert_true(e.iterations > 0);
      assert_close(e.y[0], a, 1e-12);
      assert_close(e.y[1], b / a, 1e-12);
      assert_true(e.residual <= 1e-13);
      double f[2];
      bruss_rhs(0, e.y, f, &p);
      assert_close(f[0], 0, 1e-13);
      assert_close(f[1], 0, 1e-13);
      double re[2], im[2], etol = k ? 1e-8 : 1e-13;
      bruss_eigen(a, b, re, im);
      for (int i = 0; i < 2; i++) {
        assert_close(e.re[i], re[i], etol);
        assert_close(e.im[i], im[i], etol);
      }
      assert_close(e.max_re, re[0], etol);
      assert_int_equal(e.max_is_complex, c == 0);
      assert_string_equal(e.note, "");
      /* eigenvalues at a given state */
      struct cs_equilibrium g;
      assert_int_equal(cs_equilibrium_eigen(m, &p, e.y, &g), CS_OK);
      assert_false(g.found);
      assert_close(g.re[0], e.re[0], 1e-14);
    }
}

/* cs_equilibrium_settled, the stability of a simulation's settled state:
 * near the Brusselator's unstable focus (b = 3.2 > 1 + a^2), the returned
 * vector is an eigenvector of the Jacobian at that state for re[0] + i im[0]
 * (J v = lambda v, |v| = 1), and re_err bounds the distance of re[0] from
 * the closed-form eigenvalue of the exact equilibrium: the round-off floor
 * alone at the equilibrium, growing with the state's distance from it. */
static void settled_state(void **state)
{
  (void)state;
  struct bruss p = {1.37, 3.2};
  double a = p.a, b = p.b, re[2], im[2];
  bruss_eigen(a, b, re, im);
  assert_true(re[0] > 0 && im[0] > 0);
  const double dist[] = {0.0, 1e-7, 1e-5, 1e-3};
  for (size_t k = 0; k < sizeof dist / sizeof *dist; k++) {
    double d = dist[k], y[2] = {a + d, b / a - 0.5 * d}, vr[2], vi[2], err, J[4];
    struct cs_equilibrium e;
    assert_int_equal(cs_equilibrium_settled(&bruss_model, &p, y, &e, vr, vi, &err), CS_OK);
    assert_false(e.found);
    assert_close(e.max_re, e.re[0], 0.0);
    assert_int_equal(e.max_is_complex, 1);
    assert_close(hypot(hypot(vr[0], vi[0]), hypot(vr[1], vi[1])), 1.0, 1e-14);
    bruss_jac(0, y, J, &p);
    for (int i = 0; i < 2; i++) {
      double jr = J[2 * i] * vr[0] + J[2 * i + 1] * vr[1];
      double ji = J[2 * i] * vi[0] + J[2 * i + 1] * vi[1];
      assert_close(jr, e.re[0] * vr[i] - e.im[0] * vi[i], 1e-13);
      assert_close(ji, e.re[0] * vi[i] + e.im[0] * vr[i], 1e-13);
    }
    print_message("distance %g: re %.15f (exact %.15f), re_err %.3g\n", d, e.re[0], re[0], err);
    assert_true(fabs(e.re[0] - re[0]) <= err);
    if (d == 0)
      assert_true(err <= 1e-9); /* 1e-10 ||J||_inf, ||J||_inf = 5.1 */
    else
      assert_true(err <= 10 * fabs(e.re[0] - re[0]) + 1e-9); /* not a gross overestimate */
  }
  /* a singular Jacobian leaves the sign undecided: x' = mu - x^2 at its fold */
  struct fold f = {0.0};
  double y0[2] = {0.0, 0.0}, vr[2], vi[2], err;
  struct cs_equilibrium e;
  assert_int_equal(cs_equilibrium_settled(&fold_model, &f, y0, &e, vr, vi, &err), CS_OK);
  assert_close(e.re[0], 0.0, 0.0);
  assert_true(isinf(err));
}

static void brusselator_hopf(void **state)
{
  (void)state;
  const struct cs_model *models[] = {&bruss_model, &bruss_fd_model};
  for (int k = 0; k < 2; k++) {
    const struct cs_model *m = models[k];
    double a = 1.37, bstar = 1 + a * a;
    struct bruss base = {a, 2.0};
    double ya[2] = {a, 2.0 / a};
    struct cs_eq_crossing c;
    assert_int_equal(cs_equilibrium_crossing(m, &base, "b", 2.0, 3.5, ya, 1e-12, &c), CS_OK);
    print_message("%s: Hopf at b = %.15f (exact %.15f), omega = %.12f (exact %.2f)\n", m->name, c.p,
                  bstar, c.omega, a);
    assert_int_equal(c.status, CS_OK);
    assert_int_equal(c.kind, CS_EQ_HOPF);
    assert_close(c.p, bstar, 1e-8);
    assert_true(c.p_lo <= c.p && c.p <= c.p_hi && c.p_hi - c.p_lo <= 1e-12);
    assert_true(c.eq.found && c.eq.max_is_complex);
    assert_close(c.eq.max_re, 0, 1e-8);
    assert_close(c.omega, a, 1e-8);
    assert_false(c.branch_ends);
    assert_int_equal(c.stable_side, -1);
    /* the same from the other end, without a starting state */
    assert_int_equal(cs_equilibrium_crossing(m, &base, "b", 3.5, 2.0, NULL, 1e-12, &c), CS_OK);
    assert_close(c.p, bstar, 1e-8);
    assert_int_equal(c.stable_side, -1);
    /* base params are read, never written */
    assert_close(base.b, 2.0, 0);
  }
}

/* A sweep's grid in either direction passes the Hopf point once. */
static void brusselator_scan(void **state)
{
  (void)state;
  double a = 1.37, bstar = 1 + a * a, values[31];
  struct bruss base = {a, 2.385};
  struct cs_equilibrium res[31];
  struct cs_eq_crossing c[4];
  for (int dir = 0; dir < 2; dir++) {
    for (int k = 0; k < 31; k++)
      values[dir ? 30 - k : k] = 1.5 + 0.1 * k;
    size_t nc = 99;
    assert_int_equal(
        cs_equilibrium_scan(&bruss_model, &base, "b", values, 31, NULL, 1e-12, res, c, 4, &nc),
        CS_OK);
    assert_int_equal(nc, 1);
    assert_int_equal(c[0].status, CS_OK);
    assert_int_equal(c[0].kind, CS_EQ_HOPF);
    assert_close(c[0].p, bstar, 1e-8);
    assert_int_equal(c[0].stable_side, -1);
    for (int k = 0; k < 31; k++) {
      assert_true(res[k].found);
      assert_close(res[k].y[1], values[k] / a, 1e-12);
      assert_true((res[k].max_re < 0) == (values[k] < bstar));
    }
  }
  /* only counting */
  size_t nc = 0;
  assert_int_equal(
      cs_equilibrium_scan(&bruss_model, &base, "b", values, 31, NULL, 0, NULL, NULL, 0, &nc),
      CS_OK);
  assert_int_equal(nc, 1);
}

/* No equilibrium for mu < 0; approaching the fold from mu > 0 a real eigenvalue goes to zero. */
static void fold_point(void **state)
{
  (void)state;
  struct fold p = {-0.5};
  struct cs_equilibrium e;
  double guess[2] = {0.3, 0.2};
  assert_int_equal(cs_equilibrium_find(&fold_model, &p, guess, &e), CS_ERR_NOCONV);
  assert_false(e.found);
  assert_true(isnan(e.max_re));
  assert_non_null(strstr(e.note, "no equilibrium found near the guess"));
  /* mu > 0: the stable branch from a guess near it */
  p.mu = 0.81;
  assert_int_equal(cs_equilibrium_find(&fold_model, &p, guess, &e), CS_OK);
  assert_close(e.y[0], 0.9, 1e-13);
  assert_close(e.y[1], 0, 1e-13);
  assert_close(e.re[0], -1, 1e-13);
  assert_close(e.re[1], -1.8, 1e-13);
  assert_false(e.max_is_complex);
  /* a guess outside the model's domain: the restarts (state_default first) find it */
  double bad[2] = {1000, 0};
  assert_int_equal(cs_equilibrium_find(&fold_model, &p, bad, &e), CS_OK);
  assert_int_equal(e.start, 1);
  assert_close(e.y[0], 0.9, 1e-13);
  /* non-finite guess */
  bad[0] = NAN;
  assert_int_equal(cs_equilibrium_find(&fold_model, &p, bad, &e), CS_ERR_ARG);
}

static void check_fold(const struct cs_eq_crossing *c)
{
  assert_int_equal(c->status, CS_OK);
  assert_int_equal(c->kind, CS_EQ_FOLD);
  assert_true(c->branch_ends);
  assert_true(c->p >= 0 && c->p < 1e-9);
  assert_true(c->eq.found);
  assert_close(c->eq.y[0], sqrt(c->p), 1e-12);
  assert_close(c->eq.im[0], 0, 0);
  assert_close(c->eq.max_re, 0, 1e-4);
  assert_int_equal(c->stable_side, 1);
  assert_close(c->omega, 0, 0);
}

static void fold_crossing(void **state)
{
  (void)state;
  struct fold base = {0.81};
  double ya[2] = {0.9, 0};
  struct cs_eq_crossing c;
  assert_int_equal(cs_equilibrium_crossing(&fold_model, &base, "mu", 0.81, -0.5, ya, 0, &c), CS_OK);
  print_message("fold at mu = %.3g, eigenvalues %.3g, %.3g\n", c.p, c.eq.re[0], c.eq.re[1]);
  check_fold(&c);
  /* from the side without equilibrium: the branch is found at the other end */
  assert_int_equal(cs_equilibrium_crossing(&fold_model, &base, "mu", -0.5, 0.81, ya, 0, &c), CS_OK);
  check_fold(&c);
  /* scans in both directions: the branch begins / ends between grid points */
  double values[14];
  struct cs_equilibrium res[14];
  struct cs_eq_crossing cs[3];
  for (int dir = 0; dir < 2; dir++) {
    for (int k = 0; k < 14; k++)
      values[dir ? 13 - k : k] = -0.35 + 0.1 * k;
    size_t nc = 0;
    assert_int_equal(
        cs_equilibrium_scan(&fold_model, &base, "mu", values, 14, ya, 0, res, cs, 3, &nc), CS_OK);
    assert_int_equal(nc, 1);
    check_fold(&cs[0]);
    for (int k = 0; k < 14; k++) {
      assert_int_equal(res[k].found, values[k] > 0);
      if (values[k] > 0)
        assert_close(res[k].y[0], sqrt(values[k]), 1e-12);
      else
        assert_non_null(strstr(res[k].note, "no equilibrium"));
    }
  }
}

static void errors(void **state)
{
  (void)state;
  struct fold p = {0.81};
  struct cs_equilibrium e;
  struct cs_eq_crossing c;
  size_t nc;
  double values[3] = {0.1, 0.2, 0.3};
  /* event-driven: accepted away from the switching surfaces only */
  assert_int_equal(cs_equilibrium_find(&hybrid_far, &p, NULL, &e), CS_OK);
  assert_close(e.y[0], 0.9, 1e-13);
  assert_int_equal(cs_equilibrium_find(&hybrid_on, &p, NULL, &e), CS_ERR_NOCONV);
  assert_false(e.found);
  assert_non_null(strstr(e.note, "switching surface"));
  struct cs_equilibrium res[3];
  assert_int_equal(cs_equilibrium_scan(&hybrid_on, &p, "mu", values, 3, NULL, 0, res, NULL, 0, &nc),
                   CS_OK);
  assert_false(res[0].found || res[1].found || res[2].found);
  assert_int_equal(nc, 0);
  assert_int_equal(cs_equilibrium_find(NULL, &p, NULL, &e), CS_ERR_ARG);
  assert_int_equal(cs_equilibrium_crossing(&fold_model, &p, "nu", 0.1, 0.2, NULL, 0, &c),
                   CS_ERR_NOT_FOUND);
  /* no sign change */
  struct bruss b = {1.37, 2.0};
  assert_int_equal(cs_equilibrium_crossing(&bruss_model, &b, "b", 1.5, 2.5, NULL, 0, &c),
                   CS_ERR_RANGE);
  assert_int_equal(c.kind, CS_EQ_NONE);
  assert_non_null(strstr(c.note, "does not change sign"));
  /* outside the parameter's range */
  assert_int_equal(cs_equilibrium_crossing(&bruss_model, &b, "b", 2.0, -1.0, NULL, 0, &c),
                   CS_ERR_RANGE);
  assert_int_equal(
      cs_equilibrium_scan(&bruss_model, &b, "b", values, 3, NULL, 0, NULL, NULL, 0, NULL),
      CS_ERR_ARG);
  double bad[3] = {0.1, 0.3, 0.2};
  assert_int_equal(cs_equilibrium_scan(&bruss_model, &b, "b", bad, 3, NULL, 0, NULL, NULL, 0, &nc),
                   CS_ERR_ARG);
  /* forced models have no equilibria */
  const struct cs_model *tm = cs_model_find("twomass");
  assert_non_null(tm);
  void *tp = make_params(tm);
  set(tm, tp, "Omega", 6.0);
  assert_int_equal(cs_equilibrium_find(tm, tp, NULL, &e), CS_ERR_UNSUPPORTED);
  assert_non_null(strstr(e.note, "forced"));
  free(tp);
  const struct cs_model *pm = cs_model_find("pendulum");
  void *pp = make_params(pm);
  set(pm, pp, "omega0_amp", 1.0);
  set(pm, pp, "omega0_freq", 2.0);
  assert_int_equal(cs_equilibrium_find(pm, pp, NULL, &e), CS_ERR_UNSUPPORTED);
  free(pp);
}

/* Figure 5a parameters: stable equilibrium at omega0 = 30 rad/s (figure 6a),
 * unstable at 40 (figure 6b), a Hopf point between. */
static double pendulum_hopf(void)
{
  const struct cs_model *m = cs_model_find("pendulum");
  void *p = make_params(m);
  struct cs_equilibrium e30, e40;
  set(m, p, "omega0", 30);
  assert_int_equal(cs_equilibrium_find(m, p, NULL, &e30), CS_OK);
  set(m, p, "omega0", 40);
  assert_int_equal(cs_equilibrium_find(m, p, NULL, &e40), CS_OK);
  assert_true(e30.max_re < 0);
  assert_true(e40.max_re > 0);
  /* the residual: f(y*) = 0 to round-off, at rest */
  double f[6];
  assert_int_equal(m->rhs(0, e40.y, f, p), 0);
  for (int i = 0; i < 6; i++)
    assert_close(f[i], 0, 1e-10);
  for (int i = 3; i < 6; i++)
    assert_close(e40.y[i], 0, 1e-12);
  assert_true(e40.residual < 1e-14);
  /* angles wrapped: a guess two turns away gives the same equilibrium */
  double guess[6];
  memcpy(guess, e40.y, sizeof guess);
  guess[2] += 4 * M_PI + 0.01;
  struct cs_equilibrium w;
  assert_int_equal(cs_equilibrium_find(m, p, guess, &w), CS_OK);
  assert_true(w.y[2] > -M_PI && w.y[2] <= M_PI);
  assert_close(w.y[2], e40.y[2], 1e-12);

  cs_model_params_default(m, p);
  struct cs_eq_crossing c;
  assert_int_equal(cs_equilibrium_crossing(m, p, "omega0", 30, 40, e30.y, 1e-10, &c), CS_OK);
  print_message("pendulum (fig. 5a): equilibrium XC = %.6f m, YC = %.6f m, phi = %.6f rad\n",
                c.eq.y[0], c.eq.y[1], c.eq.y[2]);
  print_message("max_re = %.4f 1/s at omega0 = 30, %.4f 1/s at 40; Hopf at omega0* = %.10f rad/s\n",
                e30.max_re, e40.max_re, c.p);
  for (size_t i = 0; i < 6; i++)
    print_message("  eigenvalue %zu at omega0*: %+.6e %+.8f i\n", i, c.eq.re[i], c.eq.im[i]);
  assert_int_equal(c.kind, CS_EQ_HOPF);
  assert_true(c.p > 30 && c.p < 40);
  assert_true(c.eq.max_is_complex);
  assert_close(c.eq.im[0], -c.eq.im[1], 0);
  assert_close(c.eq.re[0], c.eq.re[1], 0);
  assert_close(c.eq.max_re, 0, 1e-9);
  assert_int_equal(c.stable_side, -1);
  assert_true(c.omega > 0);

  /* the scan a sweep would run (figure 5a's range at 0.25 rad/s) finds the same point */
  double values[41];
  for (int k = 0; k < 41; k++)
    values[k] = 30 + 0.25 * k;
  struct cs_eq_crossing cs[4];
  struct cs_equilibrium res[41];
  size_t nc = 0;
  assert_int_equal(cs_equilibrium_scan(m, p, "omega0", values, 41, NULL, 1e-10, res, cs, 4, &nc),
                   CS_OK);
  assert_int_equal(nc, 1);
  assert_int_equal(cs[0].kind, CS_EQ_HOPF);
  assert_close(cs[0].p, c.p, 1e-8);
  for (int k = 0; k < 41; k++) {
    assert_true(res[k].found);
    assert_true((res[k].max_re < 0) == (values[k] < c.p));
  }
  free(p);
  return c.p;
}

/* The belt (an event-driven model whose switching function is inactive for
 * the regularized law) slides at rest with vs = -vb: x + k12 phi = -mu Ts,
 * k12 x + phi = 0. Its phi, held by cords, is not wrapped. The unregularized
 * event-driven law gives the same equilibrium and nearly the same
 * eigenvalues (|vs| = vb >> eps). */
static void belt(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("belt");
  assert_non_null(m);
  struct cs_equilibrium e[2];
  int nlaw = 1;
  for (int law = 0; law < 2; law++) {
    void *p = make_params(m);
    if (law && cs_model_set_choice(m, p, "law", "event-driven") != CS_OK) {
      free(p);
      break;
    }
    set(m, p, "vb", 0.15);
    if (m->attach)
      assert_int_equal(m->attach(p), CS_OK);
    assert_int_equal(cs_equilibrium_find(m, p, NULL, &e[law]), CS_OK);
    double k12 = cs_model_get_param(m, p, cs_model_param_index(m, "k12")), f[4];
    assert_close(e[law].y[1], -k12 * e[law].y[0], 1e-9 * fabs(e[law].y[0]));
    assert_int_equal(m->rhs(0, e[law].y, f, p), 0);
    for (int i = 0; i < 4; i++)
      assert_close(f[i], 0, 1e-12);
    if (m->detach)
      m->detach(p);
    free(p);
    nlaw = law + 1;
  }
  print_message("belt: x* = %.6f, phi* = %.6f, max_re = %.6g +- %.6f i (%d laws)\n", e[0].y[0],
                e[0].y[1], e[0].max_re, e[0].im[0], nlaw);
  if (nlaw == 2)
    for (int i = 0; i < 4; i++) {
      double mod = hypot(e[0].re[i], e[0].im[i]);
      assert_close(e[1].re[i], e[0].re[i], 1e-6 * mod);
      assert_close(e[1].im[i], e[0].im[i], 1e-6 * mod);
    }
}

/* A run of T seconds from the equilibrium kicked by 1e-4 rad in phi: the largest
 * |phi - phi*| over [6, 8] s and over the last 2 s. */
static void kicked_run(const struct cs_model *m, void *p, const double *yeq, double T,
                       double *amp_early, double *amp_late)
{
  struct cs_flow *f = cs_flow_create(6, 0);
  assert_non_null(f);
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.rtol = 1e-9, o.atol = 1e-12;
  double y[6];
  memcpy(y, yeq, sizeof y);
  y[2] += 1e-4;
  assert_int_equal(cs_flow_reset(f, m, p, &o, 0, y, 0, NULL, NULL, NULL), CS_OK);
  *amp_early = *amp_late = 0;
  for (int k = 1; k <= (int)(T * 200 + 0.5); k++) {
    double t = k * 0.005;
    assert_int_equal(cs_flow_advance(f, t, NULL, y, NULL, NULL), CS_OK);
    if (t > 6 && t <= 8)
      *amp_early = fmax(*amp_early, fabs(y[2] - yeq[2]));
    if (t > T - 2)
      *amp_late = fmax(*amp_late, fabs(y[2] - yeq[2]));
  }
  cs_flow_free(f);
}

/* Simulation just below and above omega0*: a kick decays / grows at the rate max_re. */
static void pendulum_hopf_vs_simulation(void **state)
{
  (void)state;
  double pstar = pendulum_hopf();
  const struct cs_model *m = cs_model_find("pendulum");
  for (int side = -1; side <= 1; side += 2) {
    void *p = make_params(m);
    set(m, p, "omega0", pstar + 0.5 * side);
    struct cs_equilibrium e;
    assert_int_equal(cs_equilibrium_find(m, p, NULL, &e), CS_OK);
    double early, late, T = 20;
    kicked_run(m, p, e.y, T, &early, &late);
    double rate = log(late / early) / (T - 8);
    print_message("omega0* %+.1f: max_re = %+.4f 1/s, simulated growth rate %+.4f 1/s "
                  "(amplitude %.3g -> %.3g rad)\n",
                  0.5 * side, e.max_re, rate, early, late);
    assert_true(side < 0 ? late < 0.2 * early : late > 5 * early);
    assert_close(rate, e.max_re, 0.01);
    free(p);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(brusselator_point),
      cmocka_unit_test(settled_state),
      cmocka_unit_test(brusselator_hopf),
      cmocka_unit_test(brusselator_scan),
      cmocka_unit_test(fold_point),
      cmocka_unit_test(fold_crossing),
      cmocka_unit_test(errors),
      cmocka_unit_test(belt),
      cmocka_unit_test(pendulum_hopf_vs_simulation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
