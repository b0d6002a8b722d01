/* SPDX-License-Identifier: MIT */
/* Analysis of one parameter point (contract in point.h). Everything runs
 * through cs_flow, so event-driven models work as smooth ones do; the
 * Lyapunov run has its own integrator (lyapunov.c).
 *
 * The params are copied into the workspace (model->params_size bytes) and the
 * run uses the copy: cs_flow needs them mutable for hybrid models (the mode
 * lives there). The copy is shallow: pointers inside (the integral law's
 * quadrature workspace) stay shared with the caller's params, which a sweep
 * keeps per thread.
 *
 * Sections. Hyperplane: the user event g = v - level, v a state variable or a
 * derived output (resolved by name once per call; variable NULL or "" means
 * the model's default section), crossings in the spec's direction, located
 * by ARKODE's root finding: a section point is (t, y, derived outputs) at the
 * root cs_flow_advance returns. Stroboscopic: advancing exactly to t = k T,
 * T = model->forcing_period(params) (an error if the model has none or it is
 * 0). A second user event, g = escape_norm - max |y_i| over the non-angle
 * states, stops an orbit that leaves the bounded region (also in finite-time
 * blow-up, before the integrator gives up).
 *
 * The run: [0, transient] unrecorded, then a recording window [w0, w1] that
 * ends after `record` time units, `record_crossings` crossings or when the
 * section buffer is full (min(spec->max_points, the workspace's)), whichever
 * comes first; record = 0 caps the window at max(10 transient, 1000 forcing
 * periods or time units). Inside the window the flow also stops at the stick
 * samples and at 24 equilibrium checks (jittered times, so that they cannot
 * alias with a forcing period: a two-mass system sticking at every forcing
 * phase 0 has f = 0 there); section roots between those stops are recorded
 * as they come. An orbit that settles on the hyperplane (an equilibrium
 * in it: Lorenz's C+- lie in its default section) makes the event function
 * exactly 0 at a root and just after it, which ARKODE refuses ("root found
 * at and very near t", an argument error); cs_flow then restarts from the
 * current state, which makes ARKODE set that function inactive until it
 * moves again (one restart per time reached).
 *
 * Scales. Each state gets an absolute scale s_i = atol_i / rtol: the size
 * below which the integrator controls the component's absolute error (1e-2
 * at the default 1e-10 / 1e-8). It sets what "small" means for the
 * equilibrium test and the drift.
 *
 * Equilibrium: the residual rate r(t, y) = max_i |f_i| / (|y_i| + s_i)
 * (angle states: |f_i| / (1 + s_i), an angle has no relative size) times the
 * window length L is the relative change the state would make over the whole
 * window at its current speed. The point is an equilibrium if r L <=
 * equilibrium_tol (default 1e-3) at the window's end and at every check time
 * and every section point in the window's second half. So an orbit that
 * settles during the first half of the window is an equilibrium; one that
 * settles later is classified by its crossings (usually not periodic: the
 * transient was too short, see adaptive transients). Equilibria keep no
 * section points (n_section = 0); res->equilibrium is the state at the
 * window's end. A settled state that is an unstable equilibrium is not a
 * verdict: see unstable equilibria.
 *
 * Unstable equilibria. For a smooth autonomous model with an analytic
 * Jacobian (left as they were: models without m->jac, event-driven models
 * in a hybrid mode, whose equilibrium may sit on a switching surface, and
 * forced models, whose frozen-time Jacobian does not decide stability),
 * every window judged settled gets the eigenvalues of the Jacobian at its
 * end state (cs_equilibrium_settled: GSL's nonsymmetric eigensolver). The
 * state is unstable if re(lambda_max) > re_err, the eigenvalue's accuracy:
 * round-off, 1e-10 ||J||_inf, plus twice the change of re(lambda_max) over
 * one Newton step from the state to the exact equilibrium. The settled state
 * is off the equilibrium by what the equilibrium test lets pass, and the
 * eigenvalues inherit that at first order (figure 5a at 37.32 rad/s:
 * re lambda = 0.0514 1/s, re_err 2.3e-6). Such a state stays put only until
 * the integrator's errors push it off, at the rate re(lambda), which tends
 * to 0 at a Hopf point: the verdict was a transient's, and which one
 * depended on the stepper (figure 5a, forward continuation past the
 * subcritical Hopf point at 37.1707 rad/s: Dormand-Prince equilibrium at
 * 37.32 and quasiperiodic at 37.57, Verner 6(5) equilibrium to 37.57 and
 * quasiperiodic at 37.82, where the attractor is the period-1 cycle). So the
 * state is kicked along the unstable eigenvector v, with the phase that
 * makes its component k largest against w_k = |y_k| + s_k (angles 1 + s_k)
 * real and positive (deterministic; for a complex pair the real part lies
 * in the pair's plane): y_i += KICK w_k Re(v_i conj(v_k)) / |v_k|^2, at
 * most KICK w_i in each component. KICK = 1e-3: the integrator's error
 * weight of component i is rtol |y_i| + atol_i = rtol w_i, so the kick is
 * 1e-3/rtol error weights (1e5 at rtol 1e-8) and the direction of departure
 * is the kick's, not the stepper's errors'; and it is 1e-3 of the state's
 * scale, where the linearisation holds, so the orbit follows the unstable
 * manifold instead of jumping into another basin. The time to leave depends
 * on it only through grow = ln(1/KICK)/re(lambda), the time the kick takes
 * to grow to the scale w. The run then goes on as from a new start: grow
 * unrecorded, then adaptive windows until 2 grow + transient_max after the
 * kick (without adaptive transients: a transient of 2 grow + transient, then
 * the recording). Figure 5a's kicked orbits reached the cycle and converged
 * 1.5-2.4 grow after the kick for re(lambda) from 0.003 to 0.136 1/s: the
 * way from the scale w to the cycle is about as slow again. Where grow
 * exceeds KICK_GROW_MAX = 25 budgets (transient_max; transient without
 * adaptive transients), which bounds a kicked point's cost at about 50
 * budgets (figure 5a: re(lambda) >= 0.0046 1/s, 0.014 rad/s past the Hopf
 * point), or after MAX_KICKS kicks, the state is left as it is and the
 * point is aperiodic, undecided, with the equilibrium as its final state:
 * the next point of a continuation, where re(lambda) is larger, starts on
 * it and is kicked, not from a slow spiral half way out, which no window
 * can classify (a torus to the Lyapunov exponent). The message says what
 * happened (eigenvalue, its accuracy, the time of the kick). Stable
 * equilibria cost one eigen-decomposition and keep their results bit for
 * bit.
 *
 * Periodicity (classify.c): the smallest k <= max_period with P_{i+k} = P_i
 * over the last half of the crossings: each state column c within
 *   period_tol (spread_c + max |P_c|) + 10 atol_c
 * (angles modulo 2 pi; the section variable's own column is skipped), and
 * the residual rate at the points within speed_tol = min(0.1, 100
 * period_tol) relatively. period_tol = 0 means max(1e3 rtol, 1e-6): a
 * converged stable orbit repeats to the global error of one revolution,
 * which follows the integrator's error weight rtol |y| + atol times a
 * modest growth factor (integrate.h measures ERK's global error at about
 * 0.5 tol); 1e3 rtol leaves room for the remaining exponential approach to
 * the orbit without accepting chaos, whose points do not repeat to 1e-5 of
 * their size over half a window; below 1e-6, round-off in t and in the
 * section times would dominate. The absolute part is only 10 atol: an
 * absolute tolerance near the size of a small orbit made the section points
 * of a weakly damped oscillation (amplitude 2e-6, 6 % smaller at each
 * crossing) "repeat". The speed test rejects the other impostor, an orbit
 * spiralling into an equilibrium (Lorenz below rho = 24.06 towards C+-):
 * its section points converge and eventually pass the state test, but its
 * speed at them shrinks by the same factor every turn, where a periodic
 * orbit's repeats (to about period_tol relatively, hence the factor 100).
 * period_time = mean of t_{i+k} - t_i, or, where the approach to the orbit
 * is measurably geometric, the limit of the cycle times fitted to it
 * (classify.c).
 *
 * Rotation number: (phi_b - phi_a) / (2 pi (t_b - t_a)) of the first angle
 * state, over an integer number of periods of the section points for
 * periodic orbits (exact), over the window's ends otherwise; 0 for
 * equilibria, NAN without an angle state.
 *
 * Lyapunov exponents (lyapunov.c, Benettin with QR): from the window's end,
 * for the points that are not equilibria or periodic (or for all with
 * lyapunov_always), over lyapunov_time, or less: unless lyapunov_full, the
 * run stops once the largest exponent's sign is decided (beyond
 * +-lyapunov_zero_tol by the 99.9 % Student-t bound of its block
 * estimates); zero exponents always run the whole time, so shortening
 * never turns a chaotic point quasi-periodic. lyapunov_err is the standard error
 * of the mean of 10 block estimates. A non-periodic point is chaotic if
 * lambda > thr, quasi-periodic if |lambda| <= thr, with thr =
 * max(lyapunov_zero_tol, 3 lyapunov_err); with lambda < -thr it is
 * "aperiodic": attracting but not periodic within max_period in the window,
 * i.e. a periodic orbit of longer period or an approach not finished; the
 * negative exponent is stored. Without an exponent (not asked, no Jacobian,
 * event-driven model: NAN with a note in message) it is aperiodic too.
 *
 * Stick statistics: the model's stick indicator (derived output
 * model->stick_output, 1 stick / 0 slip) at stick_samples times of the
 * window, one in each of stick_samples equal cells (stratified, see
 * cell_time: equidistant samples alias when the window is a whole number of
 * forcing periods, and a 4000-sample fraction of the two-mass orbit came out
 * 0.2200 instead of 0.2245): stick_fraction = fraction of samples in
 * stick, stick_phases = 0 -> 1 transitions per period (periodic) or per time
 * unit (otherwise), over the sampled time.
 *
 * Adaptive transient: after the fixed transient, windows are run one after
 * another; a window that is neither settled nor periodic, or periodic but
 * not converged, becomes transient and the next one starts, until one is
 * settled or converged, or until the next would start after transient_max;
 * the last window is the recording. Converged: the change of the section
 * points still to come, extrapolated from the geometric contraction
 * measured over the window (cs_sect_converge), is within the periodicity
 * tolerance; passing the periodicity test alone stopped the belt's
 * stick-slip orbit (contraction 0.805 per cycle) 20 cycles early, with the
 * period off by 1.5e-5. Once a period is known the windows last whole
 * periods. transient_used is its start, drift the change of the section
 * points' statistics between the last two windows (mean and deviation of
 * each state column over its range plus s_i; NAN if either has no
 * crossings). Non-periodic windows never stop the extension early: a
 * chaotic transient has statistics as stationary as a chaotic attractor's,
 * so only time tells them apart (figure 5a: the period-16 point at 76.23
 * rad/s is found only in its window 60..80, its drift at 60, 0.031, within
 * the 0.006..0.07 of settled chaotic points), and a chaotic point whose
 * transient_used is within one window of transient_max says that its chaos
 * outlived transient_max.
 * Without adaptive transients, transient_used = transient and drift = NAN.
 *
 * Early end of a window (record_early; off by default): after EARLY_FIRST
 * crossings and every EARLY_EVERY more, the window is judged; once it is
 * periodic and converged to EARLY_REMAINING tolerances (over at least
 * EARLY_CYCLES cycles) it ends there, with the verdict (class, k, period)
 * of the whole window. Figure 5a: 15 % fewer evaluations, the same periods;
 * but the section points of the last half of a shortened window are less
 * converged: tests/bench/bench_xppaut.sh measured the section error at rtol
 * 1e-8 against an rtol 1e-11 reference 4.5e-5 with it, 3.7e-6 without,
 * hence not the default. record_early = 2 is the sweep's start for Newton
 * (sweep.c): judged from 8 crossings on, every 4, it ends once 3 cycles
 * repeat within the periodicity tolerance.
 *
 * final_state: the state at the window's end, carried on to the next
 * multiple of the forcing period for forced models (t_final), so that a
 * continuation restarting at t = 0 keeps the forcing phase; the equilibrium
 * for equilibria and for points left undecided on an unstable one; for
 * escaped and failed points the last state reached (not fit for
 * continuation). */
#include "analysis/point.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "analysis/classify.h"
#include "analysis/equilibrium.h"
#include "analysis/lyapunov.h"
#include "analysis/zero_one.h"
#include "integrate/flow.h"
#include "models/model_private.h"
#include "analysis/equilibrium_private.h"
#include "analysis/lyapunov_private.h"
#include "integrate/flow_private.h"
#include "analysis/point_private.h"

#define CHECKS 24      /* equilibrium checks per window */
#define ZO_TARGET 1000 /* section points the 0-1 test uses at most */
#define NVEC 10        /* state-sized vectors in the workspace */
#define EARLY_FIRST 24 /* crossings before a window is first judged for an early end */
#define EARLY_EVERY 8  /* crossings between those judgements */
#define EARLY_CYCLES 8 /* cycles the convergence of an early end is measured over */
/* change still to come at an early end, in periodicity tolerances: the
 * points then carry the integration's accuracy, not the tolerance's (with
 * 1, figure 5a's section error at rtol 1e-8 grew from 3.7e-6 to 7.2e-5
 * against an rtol 1e-11 reference, tests/bench/bench_xppaut.sh) */
#define EARLY_REMAINING 1e-2
/* unstable equilibria (see above): the kick, relative to |y_i| + s_i; kicks
 * per point at most (an orbit that keeps coming back); the longest growth
 * time allowed, in transient budgets */
#define KICK 1e-3
#define MAX_KICKS 3
#define KICK_GROW_MAX 25.0

static const char *const class_names[] = {
#define CS_CLASS_NAME(id, name) name,
    CS_CLASS_LIST(CS_CLASS_NAME)
#undef CS_CLASS_NAME
};

const char *cs_class_name(enum cs_class c)
{
  return (unsigned)c < CS_CLASS_COUNT ? class_names[c] : "unknown";
}

struct cs_point_spec cs_point_spec_default(void)
{
  return (struct cs_point_spec){
      .solver = cs_integrator_opts_default(),
      .section = {CS_SECTION_HYPERPLANE, NULL, 0.0, 0},
      .transient = 200.0,
      .adaptive_transient = 0,
      .transient_max = 2000.0,
      .record = 100.0,
      .record_crossings = 0,
      .max_points = 1000,
      .max_period = 16,
      .period_tol = 0.0,
      .equilibrium_tol = 0.0,
      .lyapunov = 0,
      .lyapunov_time = 1000.0,
      .lyapunov_renorm = 1.0,
      .lyapunov_zero_tol = 1e-2,
      .escape_norm = 1e6,
      .stick_samples = 1000,
      .lyapunov_always = 0,
  };
}

struct cs_point_ws {
  size_t n_max, max_points;
  struct cs_flow *flow;
  struct cs_lyapunov_ws *lyap;
  double *zo_rows; /* section rows of the Lyapunov run for the 0-1 test (ZO_TARGET x (1 + n_max)) */
  size_t zo_n;     /* rows in it */
  void *params;    /* the run's copy of the model params */
  size_t params_cap;
  size_t nd_cap;   /* derived outputs a row can hold */
  double *rows;    /* max_points x (1 + n_max + nd_cap) */
  double *rate;    /* residual rate at each row */
  double *scratch; /* nd_cap derived outputs */
  double *vec;     /* NVEC x n_max, sliced in struct run */
  double *stats;   /* 6 n_max: section statistics of two windows */
  int *angle;      /* n_max flags */
};

/* Buffers for up to nd derived outputs and params of `size` bytes. */
static enum cs_status ws_reserve(struct cs_point_ws *ws, size_t nd, size_t size)
{
  if (size > ws->params_cap) {
    void *p = realloc(ws->params, size);
    if (!p)
      return CS_FAIL(CS_ERR_NOMEM);
    ws->params = p;
    ws->params_cap = size;
  }
  if (nd > ws->nd_cap || !ws->rows) {
    size_t cols = 1 + ws->n_max + nd;
    double *rows = realloc(ws->rows, ws->max_points * cols * sizeof *rows);
    if (!rows)
      return CS_FAIL(CS_ERR_NOMEM);
    ws->rows = rows;
    double *s = realloc(ws->scratch, (nd ? nd : 1) * sizeof *s);
    if (!s)
      return CS_ERR_NOMEM;
    ws->scratch = s;
    ws->nd_cap = nd;
  }
  return CS_OK;
}

struct cs_point_ws *cs_point_ws_create(size_t n_max, size_t max_points)
{
  if (n_max == 0 || n_max > CS_FLOW_MAX_N || max_points == 0)
    return NULL;
  struct cs_point_ws *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  ws->n_max = n_max;
  ws->max_points = max_points;
  ws->flow = cs_flow_create(n_max, 0);
  ws->lyap = cs_lyapunov_ws_create(n_max);
  ws->rate = calloc(max_points, sizeof *ws->rate);
  ws->vec = calloc(NVEC * n_max, sizeof *ws->vec);
  ws->stats = calloc(6 * n_max, sizeof *ws->stats);
  ws->angle = calloc(n_max, sizeof *ws->angle);
  /* Sized for every registered model, so that a sweep never reallocates. */
  size_t nd = 0, size = 1;
  for (size_t k = 0; cs_models[k]; k++) {
    if (cs_models[k]->n_state > n_max)
      continue;
    nd = cs_models[k]->n_derived > nd ? cs_models[k]->n_derived : nd;
    size = cs_models[k]->params_size > size ? cs_models[k]->params_size : size;
  }
  if (!ws->flow || !ws->lyap || !ws->rate || !ws->vec || !ws->stats || !ws->angle ||
      ws_reserve(ws, nd, size) != CS_OK) {
    cs_point_ws_free(ws);
    return NULL;
  }
  return ws;
}

void cs_point_ws_free(struct cs_point_ws *ws)
{
  if (!ws)
    return;
  cs_flow_free(ws->flow);
  cs_lyapunov_ws_free(ws->lyap);
  free(ws->zo_rows);
  free(ws->params);
  free(ws->rows);
  free(ws->rate);
  free(ws->scratch);
  free(ws->vec);
  free(ws->stats);
  free(ws->angle);
  free(ws);
}

/* ------------------------------------------------------------- the run */

/* The user events: the section (hyperplane) and the escape. */
struct events {
  const struct cs_model *m;
  const void *p;
  int state_idx, derived_idx; /* the hyperplane's variable, -1 if not that kind */
  double level;
  double escape; /* INFINITY: no escape event */
  double *scratch;
  double *amp; /* max |y_i| met by the event evaluations (every step): the orbit's size */
};

/* RUN_DONE: the window ended early, its periodic orbit confirmed */
enum outcome { RUN_OK, RUN_FULL, RUN_DONE, RUN_ESCAPED, RUN_FAILED };

struct run {
  const struct cs_model *m;
  const struct cs_point_spec *spec;
  struct cs_point_ws *ws;
  void *p;
  size_t n, nd, cols;
  struct events ev;
  int sec_root, esc_root; /* indices among the user events, -1 none */
  int dirs[2];            /* their directions */
  double T;               /* stroboscopic period, 0 for a hyperplane */
  double t;
  double *y, *yw0, *yend, *f, *scale, *abs_tol, *ref;
  double amp[CS_FLOW_MAX_N]; /* size of each state along the recording window */
  enum cs_status st;         /* why the run stopped (RUN_FAILED, RUN_ESCAPED) */
  char msg[sizeof((struct cs_point_result *)0)->message];
  /* the recording window */
  int rec;
  double w0, len;    /* start, nominal length */
  size_t next_judge; /* crossings at which the window is judged next (0: never) */
  size_t cap, nrows;
  double kstrobe; /* index of the next stroboscopic time */
  size_t S, js, s_taken, s_ones, s_trans;
  int s_prev;
  size_t jc;
  double chk_t[CHECKS], chk_r[CHECKS];
  int kicks;    /* kicks off unstable equilibria so far */
  int unstable; /* the last window settled on an unstable equilibrium not kicked off */
};

/* fmax(s, a) for s, a >= 0 or NaN, inline: events_fn runs once per step, and
 * fmax is a call into libm there (C's NaN rules keep the compiler from
 * inlining it). */
static inline double max_nonneg(double s, double a)
{
  return a > s || isnan(s) ? a : s;
}

static double state_norm(const struct cs_model *m, const double *y)
{
  double s = 0;
  for (size_t i = 0; i < m->n_state; i++)
    if (!m->state[i].angle)
      s = max_nonneg(s, fabs(y[i]));
  return s;
}

static int events_fn(double t, const double *y, double *g, const void *vp)
{
  const struct events *e = vp;
  size_t k = 0;
  if (e->state_idx >= 0) {
    g[k++] = y[e->state_idx] - e->level;
  } else if (e->derived_idx >= 0) {
    int rc = e->m->derived_fn(t, y, e->scratch, e->p);
    if (rc)
      return rc;
    g[k++] = e->scratch[e->derived_idx] - e->level;
  }
  if (isfinite(e->escape))
    g[k] = e->escape - state_norm(e->m, y);
  for (size_t i = 0; i < e->m->n_state; i++)
    e->amp[i] = max_nonneg(e->amp[i], fabs(y[i]));
  return 0;
}

static enum outcome stop_failed(struct run *r, enum cs_status st, const char *why)
{
  r->st = st;
  snprintf(r->msg, sizeof r->msg, "%s", why);
  return st == CS_ERR_UNBOUNDED ? RUN_ESCAPED : RUN_FAILED;
}

static enum outcome stop_escaped(struct run *r)
{
  r->st = CS_OK;
  snprintf(r->msg, sizeof r->msg, "escaped: max |y_i| = %.6g > escape_norm = %g at t = %.17g",
           state_norm(r->m, r->y), r->spec->escape_norm, r->t);
  return RUN_ESCAPED;
}

static enum outcome derived_at(struct run *r, double *out)
{
  int rc = r->m->derived_fn(r->t, r->y, out, r->p);
  if (rc) {
    char why[128];
    snprintf(why, sizeof why, "the model's derived outputs failed (%d) at t = %.17g", rc, r->t);
    return stop_failed(r, rc < 0 ? (enum cs_status)(-rc) : CS_ERR_SOLVER, why);
  }
  return RUN_OK;
}

/* max_i |f_i| / (|y_i| + s_i) at (t, y): the relative speed of the state. */
/* The solver's noise in f: state errors of rtol |y_j| + atol_j mapped
 * through the Jacobian (x 10). At an equilibrium the integrated state
 * wanders within its tolerance, and a stiff system turns that into
 * velocities and accelerations far above tol (|y| + s)/L; without this floor
 * an equilibrium reached by continuation (start within 1e-10 of it) would
 * fail the test by noise alone and be called aperiodic. 0 without a Jacobian. */
static void noise_floor(struct run *r, double *noise)
{
  double J[CS_FLOW_MAX_N * CS_FLOW_MAX_N];
  const struct cs_integrator_opts *o = &r->spec->solver;
  size_t n = r->n;
  for (size_t i = 0; i < n; i++)
    noise[i] = 0;
  if (!r->m->jac)
    return;
  memset(J, 0, n * n * sizeof *J);
  if (r->m->jac(r->t, r->y, J, r->p) != 0)
    return;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      double atol = o->atol_vec ? o->atol_vec[j] : o->atol;
      noise[i] += 10.0 * fabs(J[i * n + j]) * (o->rtol * fabs(r->y[j]) + atol);
    }
}

static double residual_rate(struct run *r)
{
  if (r->m->rhs(r->t, r->y, r->f, r->p) != 0)
    return INFINITY;
  double noise[CS_FLOW_MAX_N];
  noise_floor(r, noise);
  double q = 0;
  for (size_t i = 0; i < r->n; i++) {
    double scale = (r->ws->angle[i] ? 1.0 : fabs(r->y[i])) + r->scale[i];
    q = fmax(q, fmax(fabs(r->f[i]) - noise[i], 0.0) / scale);
  }
  return isnan(q) ? INFINITY : q;
}

static enum cs_class judge(struct run *r, int *k, double *period_time, size_t *first,
                           struct cs_sect_conv *conv);

/* A periodic orbit that is confirmed and converged (the change still to come
 * within the tolerance, measured over at least EARLY_CYCLES cycles) gains
 * nothing from more crossings: the window ends there. */
static int confirmed(struct run *r)
{
  int k;
  double pt;
  size_t first;
  struct cs_sect_conv conv;
  if (r->spec->record_early == 2) /* a start for Newton: periodic, roughly converged */
    return judge(r, &k, &pt, &first, &conv) == CS_CLASS_PERIODIC && conv.cycles >= 3 &&
           conv.remaining <= 1.0;
  return judge(r, &k, &pt, &first, &conv) == CS_CLASS_PERIODIC && conv.cycles >= EARLY_CYCLES &&
         conv.remaining <= EARLY_REMAINING;
}

static enum outcome record(struct run *r)
{
  double *row = r->ws->rows + r->nrows * r->cols;
  row[0] = r->t;
  memcpy(row + 1, r->y, r->n * sizeof *row);
  if (r->nd) {
    enum outcome o = derived_at(r, row + 1 + r->n);
    if (o != RUN_OK)
      return o;
  }
  r->ws->rate[r->nrows] = residual_rate(r);
  r->nrows++;
  if (r->nrows >= r->cap)
    return RUN_FULL;
  if (r->next_judge && r->nrows >= r->next_judge) {
    r->next_judge += r->spec->record_early == 2 ? 4 : EARLY_EVERY;
    if (confirmed(r))
      return RUN_DONE;
  }
  return RUN_OK;
}

/* The j-th of m times stratified over the window: one in each of m equal
 * cells, at a fraction of the cell from the golden-ratio sequence. Unlike
 * cell midpoints they cannot alias with a forcing period (windows are often
 * whole numbers of periods): the samples' phases spread over the period. */
static double cell_time(const struct run *r, size_t j, size_t m)
{
  double u = fmod((double)(j + 1) * 0.6180339887498949, 1.0);
  return r->w0 + r->len * ((double)j + u) / (double)m;
}

static double stick_time(const struct run *r, size_t j)
{
  return cell_time(r, j, r->S);
}

static double check_time(const struct run *r, size_t j)
{
  return cell_time(r, j, CHECKS);
}

/* Samples, checks and stroboscopic points due at r->t. */
static enum outcome due(struct run *r)
{
  if (!r->rec)
    return RUN_OK;
  while (r->js < r->S && stick_time(r, r->js) <= r->t) {
    enum outcome o = derived_at(r, r->ws->scratch);
    if (o != RUN_OK)
      return o;
    int s = r->ws->scratch[r->m->stick_output] > 0.5;
    r->s_taken++;
    r->s_ones += (size_t)s;
    r->s_trans += r->s_prev == 0 && s == 1;
    r->s_prev = s;
    r->js++;
  }
  while (r->jc < CHECKS && check_time(r, r->jc) <= r->t) {
    r->chk_t[r->jc] = r->t;
    r->chk_r[r->jc] = residual_rate(r);
    r->jc++;
  }
  if (r->T > 0 && r->kstrobe * r->T <= r->t) {
    r->kstrobe += 1.0;
    return record(r);
  }
  return RUN_OK;
}

/* The next stop towards tend; *sample says it is a stick sample or an
 * equilibrium check only, whose state does not feed back into the run (the
 * interpolant's accuracy is enough there). */
static double next_time(const struct run *r, double tend, bool *sample)
{
  double t = tend;
  *sample = false;
  if (!r->rec)
    return t;
  if (r->T > 0)
    t = fmin(t, r->kstrobe * r->T);
  double ts = tend;
  if (r->js < r->S)
    ts = fmin(ts, stick_time(r, r->js));
  if (r->jc < CHECKS)
    ts = fmin(ts, check_time(r, r->jc));
  if (ts < t) {
    *sample = true;
    t = ts;
  }
  return t;
}

/* Advances to tend, recording while r->rec. Section crossings that are not
 * recorded only pass: their roots are left where ARKODE's search puts them
 * (no restep onto them; the steps, and so the results, do not change). */
static enum outcome advance_to(struct run *r, double tend)
{
  if (r->sec_root >= 0)
    cs_flow_set_root_polish(r->ws->flow, (size_t)r->sec_root, r->rec != 0);
  for (;;) {
    enum outcome o = due(r);
    if (o != RUN_OK)
      return o;
    if (r->t >= tend)
      return RUN_OK;
    if (r->spec->cancel && *r->spec->cancel)
      return stop_failed(r, CS_ERR_INTERRUPTED, "interrupted");
    int at_root = 0, fired[2] = {0, 0};
    bool sample;
    double tn = next_time(r, tend, &sample);
    enum cs_status st = sample
                            ? cs_flow_advance_interp(r->ws->flow, tn, &r->t, r->y, &at_root, fired)
                            : cs_flow_advance(r->ws->flow, tn, &r->t, r->y, &at_root, fired);
    if (st != CS_OK)
      return stop_failed(r, st, cs_flow_last_error(r->ws->flow));
    if (state_norm(r->m, r->y) > r->spec->escape_norm ||
        (at_root && r->esc_root >= 0 && fired[r->esc_root]))
      return stop_escaped(r);
    if (at_root && r->rec && r->sec_root >= 0 && fired[r->sec_root]) {
      o = record(r);
      if (o != RUN_OK)
        return o;
    }
  }
}

static enum outcome run_window(struct run *r, double len)
{
  r->rec = 1;
  r->w0 = r->t;
  for (size_t i = 0; i < r->n; i++)
    r->amp[i] = fabs(r->y[i]);
  r->len = len;
  r->nrows = 0;
  memcpy(r->yw0, r->y, r->n * sizeof *r->y);
  r->kstrobe = r->T > 0 ? floor(r->w0 / r->T + 1e-9) + 1.0 : 0.0;
  r->js = r->s_taken = r->s_ones = r->s_trans = 0;
  r->s_prev = -1;
  r->jc = 0;
  r->next_judge = r->spec->record_early == 2 ? 8 : r->spec->record_early ? EARLY_FIRST : 0;
  enum outcome o = advance_to(r, r->w0 + len);
  r->rec = 0;
  return o;
}

/* The window's verdict before Lyapunov exponents: equilibrium, periodic,
 * no crossings, or CS_CLASS_PENDING (not periodic). */
static enum cs_class judge(struct run *r, int *k, double *period_time, size_t *first,
                           struct cs_sect_conv *conv)
{
  *conv = (struct cs_sect_conv){0, NAN, NAN, INFINITY, NAN};
  double L = r->t - r->w0, mid = r->w0 + 0.5 * L, tol = r->spec->equilibrium_tol;
  if (!(tol > 0))
    tol = 1e-3;
  int settled = L > 0 && residual_rate(r) * L <= tol;
  for (size_t j = 0; settled && j < r->jc; j++)
    settled = r->chk_t[j] < mid || r->chk_r[j] * L <= tol;
  for (size_t i = 0; settled && i < r->nrows; i++)
    settled = r->ws->rows[i * r->cols] < mid || r->ws->rate[i] * L <= tol;
  *k = 0;
  if (settled)
    return CS_CLASS_EQUILIBRIUM;
  if (r->nrows == 0)
    return CS_CLASS_NO_CROSSINGS;
  double ptol = r->spec->period_tol;
  if (!(ptol > 0))
    ptol = fmax(1e3 * r->spec->solver.rtol, 1e-6);
  /* The integrator's error in a state is relative to the state's size along
   * the orbit, not to its value at the section: a column that crosses near 0
   * (x at a stroboscopic phase where x ~ 0) still carries errors of order
   * rtol times its amplitude. Its floor is therefore ptol x that amplitude
   * (angles: their section values already carry the turns). */
  for (size_t i = 0; i < r->n; i++) {
    const struct cs_integrator_opts *o = &r->spec->solver;
    double atol = o->atol_vec ? o->atol_vec[i] : o->atol;
    r->abs_tol[i] = 10.0 * atol + (r->ws->angle[i] ? 0.0 : ptol * r->amp[i]);
  }
  struct cs_sect_cmp c = {.n = r->n,
                          .cols = r->cols,
                          .angle = r->ws->angle,
                          .abs_tol = r->abs_tol,
                          .tol = ptol,
                          .skip = r->ev.state_idx,
                          .speed = r->ws->rate,
                          .speed_tol = fmin(0.1, 1e2 * ptol)};
  *k = cs_sect_period(&c, r->ws->rows, r->nrows, r->spec->max_period, period_time, first);
  if (!*k)
    return CS_CLASS_PENDING;
  cs_sect_converge(&c, r->ws->rows, r->nrows, *k, conv);
  if (isfinite(conv->period_time))
    *period_time = conv->period_time;
  /* Near a period doubling the period-k/p orbit (multiplier close to -1,
   * p = 2) is approached by points that alternate around it with an amplitude
   * shrinking like |mu|^j: points k apart then agree long before points k/p
   * apart do, and the test above says k. Points k/p apart whose differences
   * shrink geometrically, significantly (cs_sect_decays), belong to the
   * approach to the period-k/p orbit: that is the attractor, and the
   * transient is over once the change still to come is within the tolerance
   * (conv now measures that approach). */
  for (int p = 2; p <= *k; p++) {
    int prime = 1;
    for (int d = 2; d * d <= p && prime; d++)
      prime = p % d != 0;
    if (*k % p || !prime)
      continue;
    int ks = *k / p;
    double rho, remaining;
    if (!cs_sect_decays(&c, r->ws->rows, r->nrows, ks, &rho, &remaining))
      continue;
    struct cs_sect_conv all;
    cs_sect_converge(&c, r->ws->rows, r->nrows, ks, &all);
    all.rho = rho, all.remaining = remaining;
    *k = ks;
    *conv = all;
    size_t w = r->nrows / 2 > 3 * (size_t)ks ? r->nrows / 2 : 3 * (size_t)ks;
    *first = r->nrows > w ? r->nrows - w : 0;
    double sum = 0;
    for (size_t i = *first; i + (size_t)ks < r->nrows; i++)
      sum += r->ws->rows[(i + (size_t)ks) * r->cols] - r->ws->rows[i * r->cols];
    *period_time = isfinite(all.period_time) ? all.period_time
                                             : sum / (double)(r->nrows - (size_t)ks - *first);
    break;
  }
  return CS_CLASS_PERIODIC;
}

/* ------------------------------------------------------------ the point */

static void result_init(struct cs_point_result *res, struct cs_point_ws *ws)
{
  memset(res, 0, sizeof *res);
  res->status = CS_OK;
  res->cls = CS_CLASS_PENDING;
  res->period_time = res->lyapunov = res->lyapunov_err = res->rotation_number = NAN;
  res->lyapunov_time_used = NAN;
  res->stick_fraction = res->stick_phases = res->transient_used = res->drift = NAN;
  res->t_final = NAN;
  for (size_t j = 0; j < sizeof res->spectrum / sizeof *res->spectrum; j++)
    res->spectrum[j] = res->spectrum_err[j] = NAN;
  res->reduced_dimension = res->chaos_disagree = -1;
  res->kaplan_yorke = res->zero_one = NAN;
  if (ws)
    ws->zo_n = 0;
  if (ws) {
    res->section = ws->rows;
    res->final_state = ws->vec;
  }
}

static enum cs_status invalid(struct cs_point_result *res, enum cs_status st, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(res->message, sizeof res->message, fmt, ap);
  va_end(ap);
  res->status = st;
  res->cls = CS_CLASS_FAILED;
  return st;
}

static enum cs_status check_spec(const struct cs_point_spec *s, struct cs_point_result *res)
{
  if (!(s->transient >= 0) || !isfinite(s->transient) || !(s->transient_max >= 0))
    return invalid(res, CS_ERR_ARG, "transient and transient_max must be finite and >= 0");
  if (!(s->record >= 0) || !isfinite(s->record) || (s->record == 0 && s->record_crossings == 0))
    return invalid(res, CS_ERR_ARG, "record must be > 0 or record_crossings given");
  if (s->max_period < 1)
    return invalid(res, CS_ERR_ARG, "max_period must be >= 1");
  if (!(s->period_tol >= 0) || !(s->equilibrium_tol >= 0) || !(s->escape_norm > 0))
    return invalid(res, CS_ERR_ARG, "tolerances must be >= 0 and escape_norm > 0");
  if (s->lyapunov < 0 || s->lyapunov > 2)
    return invalid(res, CS_ERR_ARG, "lyapunov must be 0, 1 or 2");
  if (s->lyapunov && (!(s->lyapunov_renorm > 0) || !(s->lyapunov_time >= s->lyapunov_renorm) ||
                      !isfinite(s->lyapunov_time) || !(s->lyapunov_zero_tol >= 0)))
    return invalid(res, CS_ERR_ARG,
                   "the Lyapunov run needs lyapunov_time >= lyapunov_renorm > 0 and a zero "
                   "tolerance >= 0");
  return CS_OK;
}

/* Sets up the events of the section spec; CS_OK or an argument error. */
static enum cs_status setup_section(struct run *r, struct cs_point_result *res)
{
  const struct cs_model *m = r->m;
  struct cs_section_spec sec = r->spec->section;
  if (sec.kind == CS_SECTION_HYPERPLANE && (!sec.variable || !sec.variable[0]))
    sec = m->section;
  r->ev = (struct events){m, r->p, -1, -1, sec.level, r->spec->escape_norm, r->ws->scratch, r->amp};
  r->sec_root = r->esc_root = -1;
  r->T = 0;
  int nr = 0;
  if (sec.kind == CS_SECTION_STROBOSCOPIC) {
    r->T = m->forcing_period ? m->forcing_period(r->p) : 0.0;
    if (!(r->T > 0) || !isfinite(r->T))
      return invalid(res, CS_ERR_ARG,
                     "a stroboscopic section needs a forcing period, and %s has none at these "
                     "parameters",
                     m->name);
  } else {
    if (!sec.variable)
      return invalid(res, CS_ERR_ARG, "the hyperplane section names no variable");
    r->ev.state_idx = cs_model_state_index(m, sec.variable);
    if (r->ev.state_idx < 0 && m->derived_fn)
      r->ev.derived_idx = cs_model_derived_index(m, sec.variable);
    if (r->ev.state_idx < 0 && r->ev.derived_idx < 0)
      return invalid(res, CS_ERR_NOT_FOUND,
                     "section variable '%s' is neither a state nor a derived output of %s",
                     sec.variable, m->name);
    if (sec.direction < -1 || sec.direction > 1)
      return invalid(res, CS_ERR_ARG, "section direction must be -1, 0 or +1");
    r->sec_root = nr;
    r->dirs[nr++] = sec.direction;
  }
  if (isfinite(r->spec->escape_norm)) {
    r->esc_root = nr;
    r->dirs[nr++] = -1;
  }
  return CS_OK;
}

static void set_scales(struct run *r)
{
  const struct cs_integrator_opts *o = &r->spec->solver;
  for (size_t i = 0; i < r->n; i++) {
    double atol = o->atol_vec ? o->atol_vec[i] : o->atol;
    r->scale[i] = atol > 0 ? atol / fmax(o->rtol, 1e-14) : 1e-6;
    r->abs_tol[i] = 10.0 * atol;
    r->ws->angle[i] = r->m->state[i].angle != 0;
  }
}

static int first_angle(const struct cs_model *m)
{
  for (size_t i = 0; i < m->n_state; i++)
    if (m->state[i].angle)
      return (int)i;
  return -1;
}

/* A window judged settled (r->y), for a smooth autonomous model with an
 * analytic Jacobian: if r->y is an unstable equilibrium, kicks the state
 * along the unstable eigenvector and returns KICKED with *grow, the time
 * the kick needs to grow to the state's scale at the rate re(lambda); or
 * returns UNSTABLE (r->unstable set, the state untouched) when that time is
 * beyond KICK_GROW_MAX budgets or the point was kicked MAX_KICKS times
 * already; else STABLE (also for the models left out). See "Unstable
 * equilibria" above. */
enum kick { STABLE, KICKED, UNSTABLE };

static enum kick kick_unstable(struct run *r, struct cs_point_result *res, double budget,
                               double *grow)
{
  const struct cs_model *m = r->m;
  if (!m->jac || cs_model_switches(m, r->p) > 0 ||
      (m->forcing_period && m->forcing_period(r->p) > 0))
    return STABLE;
  struct cs_equilibrium eq;
  double vre[CS_FLOW_MAX_N], vim[CS_FLOW_MAX_N], err;
  if (cs_equilibrium_settled(m, r->p, r->y, &eq, vre, vim, &err) != CS_OK || !(eq.re[0] > err))
    return STABLE;
  double g = log(1.0 / KICK) / eq.re[0], cap = KICK_GROW_MAX * budget;
  if (r->kicks >= MAX_KICKS || g > cap) {
    r->unstable = 1;
    int len = snprintf(res->message, sizeof res->message,
                       "unstable equilibrium (eigenvalue %.6g %+.6gi, re to %.2g): ", eq.re[0],
                       eq.im[0], err);
    if (len > 0 && (size_t)len < sizeof res->message) {
      if (g > cap)
        snprintf(res->message + len, sizeof res->message - (size_t)len,
                 "a kick would need %.3g to grow, more than the %.3g allowed", g, cap);
      else
        snprintf(res->message + len, sizeof res->message - (size_t)len,
                 "reached again after %d kicks", r->kicks);
    }
    return UNSTABLE;
  }
  /* the eigenvector's phase that makes its component largest against the
   * scale, k, real and positive: deterministic, and the real part used is
   * then nonzero (for a complex pair it spans the pair's plane with the
   * imaginary part; either starts the spiral out) */
  size_t n = r->n, k = 0;
  double w[CS_FLOW_MAX_N], y[CS_FLOW_MAX_N], best = -1;
  for (size_t i = 0; i < n; i++) {
    w[i] = (r->ws->angle[i] ? 1.0 : fabs(r->y[i])) + r->scale[i];
    double a = hypot(vre[i], vim[i]) / w[i];
    if (a > best)
      best = a, k = i;
  }
  double vk2 = vre[k] * vre[k] + vim[k] * vim[k];
  if (!(vk2 > 0))
    return STABLE;
  /* component i: KICK w_k Re(v_i conj(v_k)) / |v_k|^2, at most KICK w_i */
  for (size_t i = 0; i < n; i++)
    y[i] = r->y[i] + KICK * w[k] * (vre[i] * vre[k] + vim[i] * vim[k]) / vk2;
  if (cs_flow_set_state(r->ws->flow, r->t, y) != CS_OK)
    return STABLE;
  memcpy(r->y, y, n * sizeof *y);
  r->kicks++;
  *grow = g;
  snprintf(res->message, sizeof res->message,
           "unstable equilibrium left at t = %.6g: eigenvalue %.6g %+.6gi (re to %.2g)", r->t,
           eq.re[0], eq.im[0], err);
  return KICKED;
}

/* Runs windows until the recording one; sets transient_used and drift. */
static enum outcome record_window(struct run *r, struct cs_point_result *res, double len)
{
  const struct cs_point_spec *s = r->spec;
  double grow;
  if (!s->adaptive_transient) {
    double budget = s->transient > 0 ? s->transient : len;
    for (;;) {
      res->transient_used = r->t;
      enum outcome o = run_window(r, len);
      int k;
      double pt;
      size_t first;
      struct cs_sect_conv conv;
      if (o == RUN_ESCAPED || o == RUN_FAILED ||
          judge(r, &k, &pt, &first, &conv) != CS_CLASS_EQUILIBRIUM ||
          kick_unstable(r, res, budget, &grow) != KICKED)
        return o;
      /* as from a new start, after the growth */
      o = advance_to(r, r->t + 2.0 * grow + s->transient);
      if (o != RUN_OK)
        return o;
    }
  }
  double limit = s->transient_max;
  size_t n = r->n;
  double *prev = r->ws->stats, *cur = r->ws->stats + 3 * n;
  struct cs_sect_cmp c = {.n = n, .cols = r->cols, .angle = r->ws->angle, .skip = r->ev.state_idx};
  memcpy(r->ref, r->y, n * sizeof *r->ref);
  int have_prev = 0;
  for (;;) {
    double start = r->t;
    enum outcome o = run_window(r, len);
    res->transient_used = start;
    if (o == RUN_ESCAPED || o == RUN_FAILED)
      return o;
    int k;
    double pt;
    size_t first;
    struct cs_sect_conv conv;
    enum cs_class cls = judge(r, &k, &pt, &first, &conv);
    if (r->nrows > 0) {
      cs_sect_stats(&c, r->ws->rows, r->nrows, r->ref, cur);
      res->drift = have_prev ? cs_sect_drift(&c, prev, cur, r->scale) : NAN;
      memcpy(prev, cur, 3 * n * sizeof *prev);
      have_prev = 1;
    } else {
      res->drift = NAN;
      have_prev = 0;
    }
    if (cls == CS_CLASS_EQUILIBRIUM &&
        kick_unstable(r, res, s->transient_max > 0 ? s->transient_max : len, &grow) == KICKED) {
      /* the growth unrecorded, then windows as from a new start */
      limit = r->t + 2.0 * grow + s->transient_max;
      o = advance_to(r, r->t + grow);
      if (o != RUN_OK)
        return o;
      have_prev = 0;
      continue;
    }
    if (cls == CS_CLASS_EQUILIBRIUM || r->t > limit)
      return o;
    if (cls == CS_CLASS_PERIODIC) {
      /* converged when the change still to come is within the tolerance */
      if (conv.remaining <= 1.0)
        return o;
      /* from now on whole periods, so that every window holds the same
       * number of crossings and ends at the same phase */
      if (pt > 0 && isfinite(pt))
        len = fmax(1.0, ceil(len / pt - 1e-9)) * pt;
    }
  }
}

static void classify_by_exponent(struct cs_point_result *res, double zero_tol)
{
  if (res->cls != CS_CLASS_PENDING)
    return;
  double lam = res->lyapunov, err = res->lyapunov_err;
  if (!isfinite(lam)) {
    res->cls = CS_CLASS_APERIODIC;
    return;
  }
  double thr = fmax(zero_tol, isfinite(err) ? 3.0 * err : 0.0);
  res->cls = lam > thr     ? CS_CLASS_CHAOTIC
             : lam >= -thr ? CS_CLASS_QUASIPERIODIC
                           : CS_CLASS_APERIODIC;
}

static void lyapunov(struct run *r, struct cs_point_result *res, double t0)
{
  const struct cs_point_spec *s = r->spec;
  size_t q = s->lyapunov == 2 ? r->n : 1;
  struct cs_lyapunov_result lr;
  double decide = s->lyapunov_full ? 0.0 : fmax(s->lyapunov_zero_tol, 1e-300);
  /* A looser tolerance for the exponent's run (lyapunov_rtol): its error is
   * statistical, from the finite run, far above the integrator's (figure 5a
   * measured: tori's exponents within 8e-4 at rtol 1e-6 and 1e-8, chaotic
   * ones within their lyapunov_err, 26 % fewer evaluations over 60 points of
   * 60..80 rad/s). */
  struct cs_integrator_opts o = s->solver;
  if (s->lyapunov_rtol > 0 && o.rtol > 0) {
    double f = s->lyapunov_rtol / o.rtol;
    o.rtol = s->lyapunov_rtol;
    o.atol *= f;
    if (o.atol_vec) {
      double *a = r->ws->vec + 9 * r->ws->n_max;
      for (size_t i = 0; i < r->n; i++)
        a[i] = f * s->solver.atol_vec[i];
      o.atol_vec = a;
    }
  }
  /* the tangents' tolerance stays that of the solver's rtol: loosened with
   * the orbit's, it moved a chaotic exponent of figure 5a from 0.29 to 0.12 */
  cs_lyapunov_ws_set_tangent_atol(r->ws->lyap, 1e3 * s->solver.rtol);
  cs_lyapunov_ws_set_cancel(r->ws->lyap, s->cancel);
  /* the crossings of the run's orbit, for the 0-1 test */
  r->ws->zo_n = 0;
  if (!r->ws->zo_rows)
    r->ws->zo_rows = malloc(ZO_TARGET * (1 + r->ws->n_max) * sizeof *r->ws->zo_rows);
  if (r->sec_root >= 0 && r->ws->zo_rows)
    cs_lyapunov_ws_set_section(r->ws->lyap, events_fn, r->dirs[r->sec_root], &r->ev, r->ws->zo_rows,
                               ZO_TARGET);
  else
    cs_lyapunov_ws_set_section(r->ws->lyap, NULL, 0, NULL, NULL, 0);
  enum cs_status st = cs_lyapunov_run(r->ws->lyap, r->m, r->p, &o, t0, r->yend, q, s->lyapunov_time,
                                      s->lyapunov_renorm, decide, &lr);
  res->lyapunov_time_used = lr.time_used;
  r->ws->zo_n = lr.n_section;
  res->steps += lr.steps;
  res->rhs_evals += lr.rhs_evals;
  if (st != CS_OK) {
    snprintf(res->message, sizeof res->message, "%s", cs_errmsg());
    if (st == CS_ERR_INTERRUPTED)
      res->status = st; /* abandoned: the caller discards the point */
    return;
  }
  res->lyapunov = lr.exponent[0];
  res->lyapunov_err = lr.err[0];
  res->reduced_dimension = lr.reduced;
  if (q == r->n) {
    for (size_t j = 0; j < q; j++) {
      res->spectrum[j] = lr.exponent[j];
      res->spectrum_err[j] = lr.err[j];
    }
    res->kaplan_yorke = cs_kaplan_yorke(res->spectrum, q);
  }
}

double cs_kaplan_yorke(const double *lambda, size_t n)
{
  double sum = 0;
  for (size_t k = 0; k < n; k++) {
    if (!isfinite(lambda[k]) && lambda[k] != -INFINITY)
      return NAN;
    /* the largest k with lambda_1 + ... + lambda_k >= 0: the fraction of
     * the next direction that the expanding ones cover */
    if (sum + lambda[k] < 0)
      return (double)k + sum / fabs(lambda[k]);
    sum += lambda[k];
  }
  return (double)n;
}

/* The 0-1 test on the section points (zero_one.h), and whether it agrees
 * with the class (see point.h: chaos_disagree): the window's points, then
 * those the Lyapunov run crossed (hyperplane sections: the same orbit,
 * recorded by the run's root finding at no cost of integration), up to
 * ZO_TARGET in all. A window of figure 5a holds only 70 to 95 points, too
 * few for the test; its Lyapunov runs add 200 to 400. */
static void zero_one(struct run *r, struct cs_point_result *res)
{
  if (r->n > CS_FLOW_MAX_N || res->cls == CS_CLASS_EQUILIBRIUM || res->cls == CS_CLASS_NO_CROSSINGS)
    return;
  size_t c = 1 + r->n, N = 0;
  double *rows = malloc(ZO_TARGET * c * sizeof *rows), *phi = malloc(ZO_TARGET * sizeof *phi);
  if (rows && phi) {
    for (; N < res->n_section && N < ZO_TARGET; N++)
      memcpy(rows + N * c, res->section + N * res->section_cols, c * sizeof *rows);
    for (size_t i = 0; i < r->ws->zo_n && N < ZO_TARGET; i++, N++)
      memcpy(rows + N * c, r->ws->zo_rows + i * c, c * sizeof *rows);
    int angle[CS_FLOW_MAX_N];
    for (size_t i = 0; i < r->n; i++)
      angle[i] = r->m->state[i].angle;
    if (N >= CS_ZERO_ONE_MIN && cs_zero_one_observable(rows, N, c, r->n, angle, phi) == 0)
      res->zero_one = cs_zero_one_k(phi, N);
    res->zero_one_points = N >= CS_ZERO_ONE_MIN ? (long)N : 0;
  }
  free(rows);
  free(phi);
  if (!isfinite(res->zero_one))
    return;
  int chaotic01 = res->zero_one > 0.5;
  switch (res->cls) {
  case CS_CLASS_CHAOTIC:
    res->chaos_disagree = chaotic01 ? 0 : 1;
    break;
  case CS_CLASS_PERIODIC:
  case CS_CLASS_QUASIPERIODIC:
  case CS_CLASS_APERIODIC:
    res->chaos_disagree = chaotic01 ? 2 : 0;
    break;
  default:
    break;
  }
}

enum cs_status cs_point_analyse(const struct cs_model *m, const void *params, const double *y0,
                                const struct cs_point_spec *spec, struct cs_point_ws *ws,
                                struct cs_point_result *res)
{
  if (!res)
    return CS_FAIL(CS_ERR_ARG);
  result_init(res, ws);
  if (!m || !params || !y0 || !spec || !ws || !m->rhs)
    return invalid(res, CS_ERR_ARG, "cs_point_analyse: missing argument");
  if (m->n_state > ws->n_max)
    return invalid(res, CS_ERR_RANGE, "%s has %zu states, the workspace at most %zu", m->name,
                   m->n_state, ws->n_max);
  enum cs_status st = check_spec(spec, res);
  if (st != CS_OK)
    return st;
  size_t nd = m->derived_fn ? m->n_derived : 0;
  if (ws_reserve(ws, nd, m->params_size) != CS_OK)
    return invalid(res, CS_ERR_NOMEM, "out of memory");
  memcpy(ws->params, params, m->params_size);
  res->section = ws->rows;

  struct run rr = {0}, *r = &rr;
  r->m = m;
  r->spec = spec;
  r->ws = ws;
  r->p = ws->params;
  r->n = m->n_state;
  r->nd = nd;
  r->cols = 1 + r->n + nd;
  size_t nm = ws->n_max;
  r->y = ws->vec + nm; /* ws->vec itself is final_state */
  r->yw0 = ws->vec + 2 * nm;
  r->yend = ws->vec + 3 * nm;
  r->f = ws->vec + 4 * nm;
  r->scale = ws->vec + 5 * nm;
  r->ref = ws->vec + 6 * nm;
  r->abs_tol = ws->vec + 8 * nm;
  double *final = ws->vec, *eq = ws->vec + 7 * nm;
  r->S = m->stick_output >= 0 && (size_t)m->stick_output < nd ? spec->stick_samples : 0;
  r->cap =
      spec->max_points && spec->max_points < ws->max_points ? spec->max_points : ws->max_points;
  if (spec->record_crossings && spec->record_crossings < r->cap)
    r->cap = spec->record_crossings;
  res->section_cols = r->cols;
  st = setup_section(r, res);
  set_scales(r);
  if (st != CS_OK)
    return st;

  size_t nroots = (size_t)(r->sec_root >= 0) + (size_t)(r->esc_root >= 0);
  /* Section points, window ends and strobe times are computed by a step of
   * the method (CS_DENSE_RESTEP): more accurate than the interpolant, and
   * cheaper than the quartic/quintic Hermite interpolants' evaluations at
   * every root-finding iterate and sample (integrate.h). */
  struct cs_integrator_opts solver = spec->solver;
  solver.dense = CS_DENSE_RESTEP;
  st = cs_flow_reset(ws->flow, m, r->p, &solver, 0.0, y0, nroots, events_fn, r->dirs, &r->ev);
  if (st == CS_ERR_ARG || st == CS_ERR_NOMEM || st == CS_ERR_RANGE)
    return invalid(res, st, "%s", cs_flow_last_error(ws->flow));
  memcpy(r->y, y0, r->n * sizeof *r->y);
  r->t = 0.0;

  enum outcome o = RUN_OK;
  if (st != CS_OK)
    o = stop_failed(r, st, cs_flow_last_error(ws->flow));
  else if (state_norm(m, r->y) > spec->escape_norm)
    o = stop_escaped(r);
  double Tf = m->forcing_period ? m->forcing_period(r->p) : 0.0;
  if (!(Tf > 0) || !isfinite(Tf))
    Tf = 0;
  double len = spec->record;
  if (!(len > 0))
    len = fmax(10.0 * spec->transient, 1e3 * (Tf > 0 ? Tf : 1.0));
  if (o == RUN_OK)
    o = advance_to(r, spec->transient);
  if (o == RUN_OK)
    o = record_window(r, res, len);
  else
    res->transient_used = r->t;
  res->n_section = r->nrows;

  if (o == RUN_ESCAPED || o == RUN_FAILED) {
    res->cls = o == RUN_ESCAPED ? CS_CLASS_ESCAPED : CS_CLASS_FAILED;
    res->status = o == RUN_FAILED ? r->st : CS_OK;
    memcpy(res->message, r->msg, sizeof res->message);
    memcpy(final, r->y, r->n * sizeof *final);
    res->t_final = r->t;
  } else {
    double tw = r->t, L = r->t - r->w0;
    memcpy(r->yend, r->y, r->n * sizeof *r->y);
    int k;
    double pt = NAN;
    size_t first = 0;
    struct cs_sect_conv conv;
    res->cls = judge(r, &k, &pt, &first, &conv);
    int a = first_angle(m);
    const double *rows = ws->rows;
    if (res->cls == CS_CLASS_EQUILIBRIUM && r->unstable) {
      /* not an attractor: undecided, its state the final one */
      res->cls = CS_CLASS_APERIODIC;
      res->n_section = 0;
      res->rotation_number = a >= 0 ? 0.0 : NAN;
    } else if (res->cls == CS_CLASS_EQUILIBRIUM) {
      res->n_section = 0;
      memcpy(eq, r->yend, r->n * sizeof *eq);
      res->equilibrium = eq;
      res->rotation_number = a >= 0 ? 0.0 : NAN;
    } else if (res->cls == CS_CLASS_PERIODIC) {
      res->period = k;
      res->period_time = pt;
      if (a >= 0) {
        size_t i1 = r->nrows - 1, i0 = i1 - (i1 - first) / (size_t)k * (size_t)k;
        res->rotation_number = (rows[i1 * r->cols + 1 + a] - rows[i0 * r->cols + 1 + a]) /
                               (2.0 * M_PI * (rows[i1 * r->cols] - rows[i0 * r->cols]));
      }
    } else if (a >= 0 && L > 0) {
      res->rotation_number = (r->yend[a] - r->yw0[a]) / (2.0 * M_PI * L);
    }
    if (r->S > 0 && r->s_taken > 0) {
      double Ls = (double)r->s_taken * r->len / (double)r->S;
      res->stick_fraction = (double)r->s_ones / (double)r->s_taken;
      res->stick_phases = (double)r->s_trans / Ls;
      if (res->cls == CS_CLASS_PERIODIC)
        res->stick_phases *= pt;
    }
    /* final state, at a multiple of the forcing period for forced models */
    memcpy(final, r->yend, r->n * sizeof *final);
    res->t_final = tw;
    if (res->cls != CS_CLASS_EQUILIBRIUM && Tf > 0) {
      double tn = ceil(tw / Tf - 1e-9) * Tf;
      if (tn > tw && advance_to(r, tn) == RUN_OK) {
        memcpy(final, r->y, r->n * sizeof *final);
        res->t_final = r->t;
      }
    }
    int regular = res->cls == CS_CLASS_EQUILIBRIUM || res->cls == CS_CLASS_PERIODIC;
    if (spec->lyapunov && (!regular || spec->lyapunov_always))
      lyapunov(r, res, tw);
    classify_by_exponent(res, spec->lyapunov_zero_tol);
    if (spec->lyapunov && res->status == CS_OK)
      zero_one(r, res);
  }
  struct cs_flow_stats fs;
  cs_flow_stats(ws->flow, &fs);
  res->steps += fs.integ.steps;
  res->rhs_evals += fs.integ.rhs_evals;
  return CS_OK;
}
