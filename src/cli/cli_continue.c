/* SPDX-License-Identifier: MIT */
/* contensou continue FILE.ini: a branch of equilibria or periodic orbits in
 * one parameter by pseudo-arclength continuation (analysis/continuation.h),
 * from a state or from a Hopf point, with its special points; written to
 * HDF5 (analysis/orbit_h5.h) and drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/continuation.h"
#include "analysis/continuation2.h"
#include "analysis/continuation2_h5.h"
#include "analysis/continuation_config.h"
#include "analysis/continuation_config_private.h"
#include "analysis/orbit_h5.h"
#include "analysis/point.h"
#include "cli/cli_common.h"
#include "cli/cli_guard.h"
#include "cli/cli_orbit.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "results/read.h"
#include "io/config_private.h"
#include "analysis/continuation_private.h"

#define MAX_SETS 256

static const char *const cmd = "contensou continue";

static const char continue_help[] =
    "usage: contensou continue FILE.ini [--set section.key=value]... [-o OUT.h5]\n"
    "                          [--no-plot]\n"
    "\n"
    "A branch of equilibria or periodic orbits of the model of FILE.ini in one\n"
    "parameter, by pseudo-arclength continuation (folds are passed, not stopped\n"
    "at), with its special points located: folds (a multiplier or eigenvalue at\n"
    "+1 / 0), Hopf points of equilibria, period doublings (a multiplier at -1),\n"
    "Neimark-Sacker points (a complex pair on the unit circle), and for\n"
    "event-driven laws the points where a stick phase appears or goes (grazing)\n"
    "or the switches change kind (sliding). Cycles come from shooting on the\n"
    "Poincare section ([section], or the model's default; stroboscopic for forced\n"
    "models) with the monodromy matrix from the variational equations.\n"
    "\n"
    "options:\n"
    "  --set S.K=V   override key K of section [S] (repeatable), e.g.\n"
    "                --set continuation.max=60 --set continuation.start=hopf\n"
    "  -o OUT.h5     result file (default: [output] file, else\n"
    "                output/<FILE without .ini>_branch.h5); the picture is OUT\n"
    "                with .png\n"
    "  --no-plot     no picture (the picture needs gnuplot)\n"
    "  -h, --help    this text\n"
    "\n"
    "[continuation] keys (parameters in their own unit, times in the model's):\n"
    "  branch          cycles (default) | equilibria\n"
    "  parameter       the continued parameter (required)\n"
    "  min, max        the branch's range (required); it ends there\n"
    "  at              the parameter at the start (default: its [parameters] value)\n"
    "  start           state (default): the orbit reached from [initial] after\n"
    "                  `transient` (equilibria: Newton from [initial]) | hopf: the\n"
    "                  equilibrium from [initial] at `at`, continued in `direction`\n"
    "                  to its first Hopf point, and the cycles born there |\n"
    "                  sweep:FILE.h5:INDEX[:forward|backward]: grid point INDEX of a\n"
    "                  sweep of the same model (layout 2): its grid value(s) set in\n"
    "                  FILE.ini's parameters, its final state (and time) as the guess,\n"
    "                  no transient unless `transient` is given\n"
    "  direction       forward (default: the parameter increases first) | backward\n"
    "  transient       time integrated before the orbit is sought (default: [output]\n"
    "                  t_end, else 0)\n"
    "  returns         section returns (or forcing periods) per period (default 1)\n"
    "  points          branch points at most (default 200)\n"
    "  ds, ds_min, ds_max  steps in scaled arclength: the parameter in units of\n"
    "                      max - min, the states in units of their ranges over the\n"
    "                      orbits (defaults 0.01, 1e-8, 0.2)\n"
    "  step_max        largest parameter change per step (default 0: no bound)\n"
    "  newton_tol      accepted Newton correction, solver tolerance units (10)\n"
    "  max_iter        corrector iterations per step (8)\n"
    "  locate          true (default) | false: special points\n"
    "  locate_tol      their parameter tolerance (default 1e-9 (max - min))\n"
    "  period_doubling  stay (default) | switch: go on along the doubled cycle\n"
    "  period_max      end when the period exceeds this (default 100 x the first)\n"
    "  stop            end at special points, as AUTO's STOP: a list of kinds\n"
    "                  (fold, hopf, period-doubling, neimark-sacker, grazing,\n"
    "                  sliding, branch-switch), each KIND or KIND:N (the N-th\n"
    "                  located, default the first), e.g. stop = fold, hopf:2\n"
    "                  (default: none)\n"
    "  hopf_amplitude  size of the first cycle from a Hopf point (default 1e-3,\n"
    "                  relative to the equilibrium's state)\n"
    "  search          time searched for section crossings (default 1000)\n"
    "  user            user points NAME:VALUE, ... (NAME the parameter, or\n"
    "                  parameter2): located exactly, printed as `user = ...`\n"
    "\n"
    "two-parameter curves (with parameter2; `start` names the point continued):\n"
    "  parameter2      the second parameter\n"
    "  min2, max2      its range (required); the curve ends at the box\n"
    "                  [min, max] x [min2, max2], at points2 each way, or at a\n"
    "                  Bogdanov-Takens point (Hopf curves)\n"
    "  start           hopf: the first Hopf point of the equilibria from\n"
    "                  [initial] at `at` (Hopf curve) | fold: the first fold of the\n"
    "                  branch (branch = equilibria: fold curve; branch = cycles: the\n"
    "                  cycles from [initial], fold-of-cycles curve) |\n"
    "                  period-doubling: the first one of the cycles (period-doubling\n"
    "                  curve) | neimark-sacker: the first one of the cycles\n"
    "                  (Neimark-Sacker curve) | grazing: the first grazing of the\n"
    "                  event-driven cycles (grazing curve) | branch:FILE.h5:K:\n"
    "                  row K (from 0) of /special of a continuation file of the\n"
    "                  same model and parameter | curve:FILE.h5:K: the curve born\n"
    "                  at row K of\n"
    "                  /curve_special of a curve file in the same parameters\n"
    "                  (bogdanov-takens of a Hopf curve: the fold curve; of a fold\n"
    "                  curve: the Hopf curve; bautin: the fold-of-cycles curve) |\n"
    "                  sweep:FILE.h5:INDEX[:forward|backward] with curve = hopf |\n"
    "                  fold | period-doubling | neimark-sacker: the first such point\n"
    "                  of the branch from that sweep point\n"
    "  Forced models: the fold-of-cycles and period-doubling curves keep the\n"
    "  forcing's period (k 2 pi/omega when omega is p1 or p2), section at\n"
    "  forcing phase 0; no phase condition. Neimark-Sacker curves need an\n"
    "  autonomous model.\n"
    "  points2         curve points each way at most (default 200)\n"
    "  ds2, ds2_max    the curve's scaled steps (defaults 0.01, 0.05)\n"
    "  direction2      both (default) | forward | backward: parameter2 increasing\n"
    "                  or decreasing first\n"
    "  Codimension-two points are located on the way: Bogdanov-Takens (omega of\n"
    "  the Hopf pair -> 0; on a fold curve: its null vectors orthogonal), cusp\n"
    "  (the fold's quadratic coefficient changes sign), Bautin (the first\n"
    "  Lyapunov coefficient l1 changes sign), fold-flip (a fold-of-cycles curve\n"
    "  with a multiplier through -1, a period-doubling curve with one through\n"
    "  +1), cusp-of-cycles (the fold of cycles' quadratic coefficient changes\n"
    "  sign). l1 (Kuznetsov's formula, the second and third derivatives by\n"
    "  central differences of the analytic Jacobian) is given at every Hopf\n"
    "  point: < 0 supercritical, > 0 subcritical. On a Neimark-Sacker curve\n"
    "  (kappa = cos theta of the critical pair of multipliers exp(+-i theta),\n"
    "  and theta, at every point): the strong resonances 1:1, 1:2, 1:3, 1:4\n"
    "  (theta = 0, pi, 2 pi/3, pi/2).\n"
    "\n"
    "output (name = value): output (the file), model, parameter, branch, start\n"
    "(start_point: the sweep point, its class);\n"
    "with start = hopf the Hopf point of the equilibrium branch; points; one line\n"
    "per special point, `<kind> = <parameter value> <unit> (...)` with kind fold,\n"
    "hopf, period-doubling, neimark-sacker, grazing, sliding, branch-switch, the\n"
    "period and the nontrivial multipliers (cycles) or eigenvalues (equilibria,\n"
    "1/time unit) there; stable = [p1, p2] for every stretch of stable points;\n"
    "end = <parameter value> (why the branch ended); output = the picture.\n"
    "\n"
    "HDF5 file (kind \"continuation\"; names, units and a doc attribute on every\n"
    "dataset): the header of every run file; /branch (one row per point: segment,\n"
    "the parameter, period, returns, n_unstable, stable, trivial_err, tangent_p,\n"
    "iterations, ds, switches, the section point, min_ and max_ of every state\n"
    "over the period, the multipliers mu<k>_re, mu<k>_im or the eigenvalues\n"
    "eig<k>_re, eig<k>_im; attributes: the settings and why it ended);\n"
    "/equilibria (start = hopf: the equilibria up to the Hopf point), /special\n"
    "(special points of both, kind_names attribute) and /special_notes.\n"
    "\n"
    "with parameter2 the output is: output, model, parameter, parameter2, curve\n"
    "(hopf, fold, fold-of-cycles, period-doubling, neimark-sacker, grazing), the\n"
    "start point, points, one line per codim-2, user and end point `<kind> =\n"
    "<p1> <unit> <p2> <unit> (...)` (kind bogdanov-takens, cusp, bautin,\n"
    "resonance-1:1 ... resonance-1:4, fold-flip, cusp-of-cycles, user, end),\n"
    "l1_range (Hopf curves: the\n"
    "first Lyapunov coefficient's range along the curve), evaluations,\n"
    "cpu_per_point; the file has /curve (one row per point: both\n"
    "parameters, period, omega, the test functions, the state, the eigenvalues\n"
    "or multipliers) and /curve_special (kind_names), beside /branch.\n"
    "\n"
    "exit status: 0 the branch was computed (it may end early: see `end`); 1 no\n"
    "start (no orbit or equilibrium, no Hopf point) or an I/O error; 2 bad\n"
    "arguments or parameter file.\n";

/* "<kind> = p unit (period ...; multipliers ...)" */
static void print_special(const struct cs_model *m, const struct cs_param_desc *pd,
                          const struct cs_special *s, int cycles)
{
  char buf[1200] = "", z[64];
  const struct cs_branch_point *q = &s->pt;
  int dimless = strcmp(pd->unit, "1") == 0;
  snprintf(buf, sizeof buf, "%s = %.10g%s%s", cs_special_name(s->kind), q->p, dimless ? "" : " ",
           dimless ? "" : pd->unit);
  if (s->kind == CS_SPECIAL_END) {
    printf("%s (%s)\n", buf, s->note);
    return;
  }
  if (s->kind == CS_SPECIAL_HOPF) {
    const char *tu = m->time_unit_si ? " rad/s" : "";
    char l1[160] = "";
    if (isfinite(s->l1))
      snprintf(l1, sizeof l1, "; first Lyapunov coefficient l1 = %.6g +- %.1g: %s", s->l1,
               s->l1_err,
               s->l1 > 0   ? "subcritical"
               : s->l1 < 0 ? "supercritical"
                           : "degenerate");
    printf("%s (equilibrium; eigenvalues +-%.8gi%s, period 2 pi/omega = %.8g%s%s)\n", buf, s->omega,
           tu, 2 * M_PI / s->omega, m->time_unit_si ? " s" : "", l1);
    return;
  }
  size_t k = strlen(buf);
  if (cycles)
    k += (size_t)snprintf(buf + k, sizeof buf - k, " (period %.10g%s; multipliers", q->period,
                          m->time_unit_si ? " s" : "");
  else
    k += (size_t)snprintf(buf + k, sizeof buf - k, " (eigenvalues");
  for (size_t e = 0; e < q->n_eig && k < sizeof buf - 80; e++) {
    if (e > 0 && q->im[e] != 0 && q->im[e] == -q->im[e - 1])
      continue; /* the conjugate of the previous one */
    cli_orbit_complex(q->re[e], q->im[e], z, sizeof z);
    k += (size_t)snprintf(buf + k, sizeof buf - k, "%s %s", e ? "," : "", z);
  }
  if (q->n_marginal)
    printf("%s; %d unstable, %d on the unit circle)\n", buf, q->n_unstable, q->n_marginal);
  else
    printf("%s; %d unstable)\n", buf, q->n_unstable);
}

/* stable = [p1, p2] for every stretch where the branch is stable */
static void print_stable(const struct cs_branch *b, const struct cs_param_desc *pd)
{
  size_t n = cs_branch_stable_ranges(b, NULL, 0);
  struct cs_param_range *r = malloc((n ? n : 1) * sizeof *r);
  n = r ? cs_branch_stable_ranges(b, r, n) : 0;
  int dimless = strcmp(pd->unit, "1") == 0;
  for (size_t i = 0; i < n; i++)
    printf("stable = [%.10g, %.10g]%s%s\n", r[i].lo, r[i].hi, dimless ? "" : " ",
           dimless ? "" : pd->unit);
  free(r);
}

/* start = sweep:FILE.h5:INDEX: the grid point, read in a child (libhdf5 can
 * loop or crash on a damaged file) into pt and lent to start. Returns 0, or
 * an exit status after a message. */
static int read_sweep_start(const struct cs_config *cfg, const struct cs_continue_config *cc,
                            struct cs_sweep_point_file *pt, struct cs_continue_start *start)
{
  const struct cs_config_raw *r = cs_config_raw_find(cfg, "continuation", "start");
  const char *where = r ? r->where : cfg->path;
  enum cs_status st;
  char why[1200];
  int rc = cli_guard_sweep_point(cc->sweep_file, cc->sweep_pass, (size_t)cc->sweep_index, pt, &st,
                                 why, sizeof why);
  if (rc != 0)
    return cli_fail(cmd, "%s: start: %s", where, why);
  if (st != CS_OK)
    return st == CS_ERR_NOMEM ? cli_fail(cmd, "%s", why)
                              : cli_usage(cmd, "%s: start: %s", where, why);
  *start = (struct cs_continue_start){.model = pt->model,
                                      .nparam = pt->nparam,
                                      .param = (const char *const *)pt->param,
                                      .value = pt->value,
                                      .n_state = pt->n_state,
                                      .state = pt->final_state,
                                      .t = pt->t_final};
  return 0;
}

/* "<p1> <unit> <p2> <unit>" */
static void two_values(const struct cs_param_desc *d1, const struct cs_param_desc *d2, double p1,
                       double p2, char *buf, size_t len)
{
  int u1 = strcmp(d1->unit, "1") != 0, u2 = strcmp(d2->unit, "1") != 0;
  snprintf(buf, len, "%.10g%s%s %.10g%s%s", p1, u1 ? " " : "", u1 ? d1->unit : "", p2,
           u2 ? " " : "", u2 ? d2->unit : "");
}

/* start = branch:FILE.h5:K: row K of /special of a continuation file into
 * sp (its kind, parameter value, state, period, omega, l1), lent to start
 * with the file's model, parameter and branch kind (cs_continue_run checks
 * them). Returns 0, or an exit status after a message. */
static int read_branch_start(const struct cs_config *cfg, const struct cs_continue_config *cc,
                             struct cs_continuation_file *c, struct cs_special *sp,
                             struct cs_continue_start *start)
{
  const struct cs_model *m = cfg->model;
  const char *par = m->param[cc->param].name;
  const struct cs_config_raw *r = cs_config_raw_find(cfg, "continuation", "start");
  if (cs_read_continuation(cc->sweep_file, c) != CS_OK)
    return cli_usage(cmd, "%s: start: %s", r ? r->where : cfg->path, cs_errmsg());
  const struct cs_result_table *t = c->special, *b = c->branch;
  const char *bkind = b ? cs_result_attr_text(&b->attrs, "kind") : NULL;
  long ck = t ? cs_result_column(t, "kind") : -1, cp = t ? cs_result_column(t, par) : -1;
  long cb = t ? cs_result_column(t, "branch") : -1;
  *start = (struct cs_continue_start){.model = c->all.h.model,
                                      .parameter =
                                          b ? cs_result_attr_text(&b->attrs, "parameter") : NULL,
                                      .n_special = t ? t->nrows : 0};
  if (!t || ck < 0 || cp < 0 || cb < 0 || (size_t)cc->sweep_index >= t->nrows)
    return 0; /* no such point: cs_continue_run says so */
  const double *row = t->data + (size_t)cc->sweep_index * t->ncols;
  /* layout 3 names the critical frequency omega_critical; earlier files
   * called it omega, which no parameter of theirs could be named */
  long cT = cs_result_column(t, "period"), co = cs_result_column(t, "omega_critical");
  if (co < 0 && strcmp(par, "omega") != 0)
    co = cs_result_column(t, "omega");
  long cl = cs_result_column(t, "l1"), ce = cs_result_column(t, "l1_err");
  memset(sp, 0, sizeof *sp);
  sp->kind = (enum cs_special_kind)(int)row[ck];
  sp->pt.p = row[cp];
  sp->pt.period = cT >= 0 ? row[cT] : NAN;
  sp->omega = co >= 0 ? row[co] : 0;
  sp->l1 = cl >= 0 ? row[cl] : NAN;
  sp->l1_err = ce >= 0 ? row[ce] : NAN;
  for (size_t i = 0; i < m->n_state; i++) {
    long cy = cs_result_column(t, m->state[i].name);
    sp->pt.y[i] = sp->pt.ymin[i] = sp->pt.ymax[i] = cy >= 0 ? row[cy] : NAN;
  }
  start->special = sp;
  start->cycles = row[cb] == 0 && bkind && strcmp(bkind, "cycles") == 0;
  return 0;
}

/* start = curve:FILE.h5:K: row K of /curve_special of a curve file (its
 * kind, both parameters, state, omega) lent to start with the file's model,
 * parameters and curve kind (cs_continue_run checks them and picks the
 * curve born there). Returns 0, or an exit status after a message. */
static int read_curve_start(const struct cs_config *cfg, const struct cs_continue_config *cc,
                            struct cs_continuation_file *c, struct cs_special *sp,
                            struct cs_continue_start *start)
{
  const struct cs_model *m = cfg->model;
  const struct cs_config_raw *r = cs_config_raw_find(cfg, "continuation", "start");
  if (cs_read_continuation(cc->sweep_file, c) != CS_OK)
    return cli_usage(cmd, "%s: start: %s", r ? r->where : cfg->path, cs_errmsg());
  const struct cs_result_table *cv = cs_result_table_at(&c->all, "/curve");
  const struct cs_result_table *t = cs_result_table_at(&c->all, "/curve_special");
  const char *p1 = cv ? cs_result_attr_text(&cv->attrs, "parameter") : NULL;
  const char *p2 = cv ? cs_result_attr_text(&cv->attrs, "parameter2") : NULL;
  *start =
      (struct cs_continue_start){.model = c->all.h.model,
                                 .parameter = p1,
                                 .parameter2 = p2,
                                 .curve_kind = cv ? cs_result_attr_text(&cv->attrs, "kind") : NULL,
                                 .codim2 = -1,
                                 .n_special = t ? t->nrows : 0};
  long ck = t ? cs_result_column(t, "kind") : -1;
  long c1 = t && p1 ? cs_result_column(t, p1) : -1, c2 = t && p2 ? cs_result_column(t, p2) : -1;
  if (ck < 0 || c1 < 0 || c2 < 0 || (size_t)cc->sweep_index >= t->nrows)
    return 0; /* no such point: cs_continue_run says so */
  const double *row = t->data + (size_t)cc->sweep_index * t->ncols;
  long co = cs_result_column(t, "omega_critical"), cT = cs_result_column(t, "period");
  memset(sp, 0, sizeof *sp);
  sp->pt.p = row[c1];
  sp->pt.period = cT >= 0 ? row[cT] : NAN;
  sp->omega = co >= 0 && isfinite(row[co]) ? row[co] : 0;
  sp->l1 = sp->l1_err = NAN;
  for (size_t i = 0; i < m->n_state; i++) {
    long cy = cs_result_column(t, m->state[i].name);
    sp->pt.y[i] = sp->pt.ymin[i] = sp->pt.ymax[i] = cy >= 0 ? row[cy] : NAN;
  }
  start->special = sp;
  start->value2 = row[c2];
  start->codim2 = row[ck] >= 0 && row[ck] < CS_CODIM2_COUNT ? (int)row[ck] : -1;
  return 0;
}

/* The curve's result (with parameter2) in name = value lines. */
static void print_curve(const char *path, const struct cs_config *cfg,
                        const struct cs_continue_run_result *res)
{
  const struct cs_model *m = cfg->model;
  const struct cs_continue_config *cc = &res->settings;
  const struct cs_param_desc *d1 = &m->param[cc->param], *d2 = &m->param[cc->param2];
  const struct cs_curve *cv = &res->curve;
  enum cs_curve_kind kind = res->curve_kind;
  char buf[200];
  printf("output = %s\n", path);
  printf("model = %s\n", m->name);
  printf("parameter = %s\n", d1->name);
  printf("parameter2 = %s\n", d2->name);
  printf("curve = %s\n", cs_curve_name(kind));
  print_special(m, d1, &res->curve_start, res->curve_start_cycles);
  printf("points = %zu\n", cv->n_points);
  const char *t1n, *t2n;
  cs_curve_test_names(kind, &t1n, &t2n);
  for (size_t i = 0; i < cv->n_special; i++) {
    const struct cs_curve_special *s = &cv->special[i];
    if (s->kind == CS_CODIM2_START)
      continue;
    two_values(d1, d2, s->pt.p1, s->pt.p2, buf, sizeof buf);
    if (s->kind == CS_CODIM2_END) {
      printf("end = %s (%s)\n", buf, s->note);
      continue;
    }
    printf("%s = %s (%s", cs_codim2_name(s->kind), buf, s->note);
    if (kind == CS_CURVE_HOPF && isfinite(s->pt.test[1]) && s->kind != CS_CODIM2_BT)
      printf("; omega %.8g, l1 = %.6g", s->pt.omega, s->pt.test[1]);
    else if (kind == CS_CURVE_FOLD)
      printf("; %s %.6g, %s %.6g", t1n, s->pt.test[0], t2n, s->pt.test[1]);
    else if (kind == CS_CURVE_NEIMARK_SACKER)
      printf("; %s %.10g, %s %.10g rad, period %.10g", t1n, s->pt.test[0], t2n, s->pt.test[1],
             s->pt.period);
    else if (isfinite(s->pt.period))
      printf("; period %.10g", s->pt.period);
    printf(")\n");
  }
  if (kind == CS_CURVE_HOPF) {
    /* the sign of l1 along the curve: where none changes, no Bautin point */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < cv->n_points; i++)
      if (isfinite(cv->points[i].test[1]))
        lo = fmin(lo, cv->points[i].test[1]), hi = fmax(hi, cv->points[i].test[1]);
    if (lo <= hi)
      printf("l1_range = [%.6g, %.6g] (%s)\n", lo, hi,
             lo > 0   ? "subcritical all along"
             : hi < 0 ? "supercritical all along"
                      : "changes sign");
  }
  printf("evaluations = %ld\n", cv->evaluations);
  printf("cpu_per_point = %.3g s\n", cv->n_points ? res->cpu_seconds / (double)cv->n_points : 0.0);
}

/* The branch's result in name = value lines. start_class: the sweep
 * point's class (start = sweep), else -1. */
static void print_branch(const char *path, const struct cs_config *cfg,
                         const struct cs_continue_run_result *res, int start_class)
{
  const struct cs_model *m = cfg->model;
  const struct cs_continue_config *cc = &res->settings;
  const struct cs_param_desc *pd = &m->param[cc->param];
  const struct cs_branch *b = &res->branch;
  printf("output = %s\n", path);
  printf("model = %s\n", m->name);
  printf("parameter = %s\n", pd->name);
  printf("branch = %s\n", cc->branch == CS_BRANCH_CYCLE ? "cycles" : "equilibria");
  printf("start = %s\n", cs_continue_from_name(cc->start));
  if (cc->start == CS_CONTINUE_FROM_SWEEP)
    printf("start_point = %s:%ld (%s pass, %s = %.10g, class %s)\n", cc->sweep_file,
           cc->sweep_index, cc->sweep_pass ? "backward" : "forward", pd->name, cc->at,
           start_class >= 0 && start_class < CS_CLASS_COUNT ? cs_class_name(start_class) : "?");
  if (res->hopf)
    print_special(m, pd, res->hopf, 0);
  printf("points = %zu\n", b->n_points);
  for (size_t i = 0; i < b->n_special; i++)
    if (b->special[i].kind != CS_SPECIAL_END)
      print_special(m, pd, &b->special[i],
                    b->kind == CS_BRANCH_CYCLE && b->special[i].kind != CS_SPECIAL_HOPF);
  print_stable(b, pd);
  for (size_t i = 0; i < b->n_special; i++)
    if (b->special[i].kind == CS_SPECIAL_END)
      print_special(m, pd, &b->special[i], 1);
  printf("shootings = %ld\n", b->shootings);
}

int cli_continue(const struct cli_ctx *ctx, int argc, char **argv)
{
  struct cli_opt opts[] = {
      {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      {.name = "--no-plot", .kind = CLI_FLAG},
      {0},
  };
  const char *sets[MAX_SETS], *file;
  size_t nset;
  int rc = cli_parse_run(cmd, continue_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (rc >= 0)
    return rc;
  struct cs_config cfg;
  if ((rc = cli_load_config(cmd, file, sets, nset, &cfg)) != 0)
    return rc;
  struct cs_continue_config cc;
  enum cs_status st = cs_continue_config_read(&cfg, 1, &cc);
  char path[4096];
  if (st != CS_OK)
    rc = cli_report(cmd, st);
  else
    rc = cli_orbit_path(cmd, cli_opt(opts, "--output")->value, &cfg, "branch", path, sizeof path);
  /* a start from a file: read here, checked by cs_continue_run */
  struct cs_continue_start start = {0};
  struct cs_sweep_point_file pt = {0};
  struct cs_continuation_file cfile = {0};
  struct cs_special sp;
  if (!rc && cc.start == CS_CONTINUE_FROM_SWEEP)
    rc = read_sweep_start(&cfg, &cc, &pt, &start);
  else if (!rc && cc.start == CS_CONTINUE_FROM_BRANCH && cc.param2 >= 0)
    rc = read_branch_start(&cfg, &cc, &cfile, &sp, &start);
  else if (!rc && cc.start == CS_CONTINUE_FROM_CURVE)
    rc = read_curve_start(&cfg, &cc, &cfile, &sp, &start);
  struct cs_continue_run_result res = {0};
  if (!rc) {
    struct cs_run_info run = {sets, nset, ctx->argc, ctx->argv};
    struct cs_continue_run_opts ro = {path, &run, &cc, &start};
    st = cs_continue_run(&cfg, &ro, &res);
    if (st != CS_OK)
      /* no branch is a result of the run (1), not a bad argument */
      rc = res.searched ? cli_fail(cmd, "%s", cs_errmsg()) : cli_report(cmd, st);
    else if (res.two_parameter)
      print_curve(path, &cfg, &res);
    else
      print_branch(path, &cfg, &res, pt.model ? pt.cls : -1);
  }
  cs_continue_run_free(&res);
  cs_sweep_point_file_free(&pt);
  cs_continuation_file_free(&cfile);
  cs_config_free(&cfg);
  if (rc)
    return rc;
  fflush(stdout);
  return cli_opt(opts, "--no-plot")->value ? CLI_EXIT_OK : cli_orbit_plot(ctx, path);
}
