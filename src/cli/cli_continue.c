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
#include "analysis/continuation_config.h"
#include "analysis/orbit_h5.h"
#include "analysis/point.h"
#include "cli/cli_common.h"
#include "cli/cli_orbit.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "results/read.h"

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
    printf("%s (equilibrium; eigenvalues +-%.8gi%s, period 2 pi/omega = %.8g%s)\n", buf, s->omega,
           tu, 2 * M_PI / s->omega, m->time_unit_si ? " s" : "");
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

/* A point of a sweep file as the start: the grid value(s) at INDEX set in
 * params (the unprepared params of FILE.ini), the state the point ended in
 * at its time (forced models keep their phase) and its class. Returns 0, or
 * an exit status after a message. */
static int sweep_point(const struct cs_cont_config *cc, const struct cs_config *cfg, void *params,
                       double *t0, double *y, int *cls)
{
  const struct cs_model *m = cfg->model;
  const char *pass = cc->sweep_pass ? "backward" : "forward";
  const struct cs_config_raw *r = cs_config_raw_find(cfg, "continuation", "start");
  const char *where = r ? r->where : cfg->path;
  struct cs_sweep_point_file pt;
  enum cs_status st =
      cs_read_sweep_point(cc->sweep_file, cc->sweep_pass, (size_t)cc->sweep_index, &pt);
  int rc = 0;
  if (st != CS_OK)
    rc = st == CS_ERR_NOMEM ? cli_fail(cmd, "%s", cs_errmsg())
                            : cli_usage(cmd, "%s: start: %s", where, cs_errmsg());
  else if (!pt.model || strcmp(pt.model, m->name) != 0)
    rc = cli_usage(cmd, "%s: start: '%s' is a sweep of %s, not of %s", where, cc->sweep_file,
                   pt.model ? pt.model : "?", m->name);
  else if (pt.n_state != m->n_state)
    rc = cli_usage(cmd, "%s: start: '%s' stores %zu states, %s has %zu", where, cc->sweep_file,
                   pt.n_state, m->name, m->n_state);
  for (size_t j = 0; !rc && j < pt.nparam; j++)
    /* the grid value(s) of the point, in FILE.ini's parameters */
    if (cs_model_set_param(m, params, pt.param[j], pt.value[j]) != CS_OK)
      rc = cli_usage(cmd,
                     "%s: start: the sweep's parameter %s = %g is not a parameter of %s in range",
                     where, pt.param[j], pt.value[j], m->name);
  for (size_t i = 0; !rc && i < m->n_state; i++) {
    y[i] = pt.final_state[i];
    if (!isfinite(y[i]) || !isfinite(pt.t_final))
      rc = cli_fail(cmd, "start: point %ld of the %s pass of '%s' was not computed (or failed)",
                    cc->sweep_index, pass, cc->sweep_file);
  }
  *t0 = pt.t_final;
  *cls = pt.cls;
  cs_sweep_point_file_free(&pt);
  return rc;
}

int cli_continue(const struct cli_ctx *ctx, int argc, char **argv)
{
  enum { O_OUT, O_NOPLOT };
  struct cli_opt opts[] = {
      [O_OUT] = {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      [O_NOPLOT] = {.name = "--no-plot", .kind = CLI_FLAG},
      {0},
  };
  const char *sets[MAX_SETS], *file;
  size_t nset;
  int rc = cli_parse_run(cmd, continue_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (rc >= 0)
    return rc;
  struct cs_config cfg;
  enum cs_status st = cs_config_load(file, sets, nset, &cfg);
  if (st != CS_OK)
    return st == CS_ERR_NOMEM ? cli_fail(cmd, "%s", cs_errmsg())
                              : cli_usage(cmd, "%s", cs_errmsg());
  struct cs_cont_config cc;
  st = cs_cont_config_read(&cfg, 1, &cc);
  if (st != CS_OK) {
    cs_config_free(&cfg);
    return cli_usage(cmd, "%s", cs_errmsg());
  }
  const struct cs_model *m = cfg.model;
  const struct cs_param_desc *pd = &m->param[cc.param];
  char path[4096];
  rc = cli_orbit_path(cmd, opts[O_OUT].value, &cfg, "branch", path, sizeof path);
  if (rc) {
    cs_config_free(&cfg);
    return rc;
  }
  /* a sweep point: its grid values in the parameters, its final state */
  double t_start = 0.0, y_start[CS_ORBIT_MAX_N];
  int start_class = -1;
  memcpy(y_start, cfg.y0, m->n_state * sizeof *y_start);
  if (cc.start == CS_CONT_FROM_SWEEP) {
    rc = sweep_point(&cc, &cfg, cfg.params_unprepared, &t_start, y_start, &start_class);
    if (rc) {
      cs_config_free(&cfg);
      return rc;
    }
    cc.at = cs_model_get_param(m, cfg.params_unprepared, cc.param);
    if (!(cc.at >= cc.spec.p_min && cc.at <= cc.spec.p_max)) {
      rc = cli_usage(cmd, "%s: the sweep point's %s = %.10g is outside [min, max] = [%g, %g]", file,
                     pd->name, cc.at, cc.spec.p_min, cc.spec.p_max);
      cs_config_free(&cfg);
      return rc;
    }
    /* its final state is on the attractor: no transient unless asked */
    if (!cs_config_raw_find(&cfg, "continuation", "transient"))
      cc.transient = 0.0;
  }
  struct cs_orbit_ws *w = cs_orbit_ws_create(m, cfg.params_unprepared, cc.param);
  if (!w) {
    cs_config_free(&cfg);
    return cli_fail(cmd, "%s", cs_errmsg());
  }
  struct cs_branch b, eq;
  memset(&b, 0, sizeof b);
  memset(&eq, 0, sizeof eq);
  int have_eq = 0;
  char why[1024] = ""; /* why there is no branch */
  const struct cs_special *hopf = NULL;
  if (cc.branch == CS_BRANCH_EQUILIBRIUM) {
    st = cs_continue_equilibria(w, &cc.spec, cc.at, y_start, &b);
  } else if (cc.start == CS_CONT_FROM_HOPF) {
    struct cs_cont_spec es = cc.spec;
    es.stop_at_hopf = 1;
    memset(es.stop_after, 0, sizeof es.stop_after); /* the user's stops are the cycles' */
    st = cs_continue_equilibria(w, &es, cc.at, cfg.y0, &eq);
    have_eq = st == CS_OK;
    for (size_t i = 0; st == CS_OK && i < eq.n_special && !hopf; i++)
      if (eq.special[i].kind == CS_SPECIAL_HOPF)
        hopf = &eq.special[i];
    if (st == CS_OK && !hopf) {
      snprintf(why, sizeof why, "no Hopf point on the equilibrium branch from %s = %.10g %s (%s)",
               pd->name, cc.at, cc.spec.direction > 0 ? "upwards" : "downwards", eq.end_note);
      st = CS_ERR_NOT_FOUND;
    }
    if (st == CS_OK)
      st = cs_continue_cycles_from_hopf(w, &cc.spec, hopf, &b);
  } else {
    double t0, y[CS_ORBIT_MAX_N], T;
    st = cs_orbit_ws_set_param(w, cc.at);
    if (st == CS_OK)
      st = cs_orbit_guess(w, &cc.spec.orbit, t_start, y_start, cc.transient, &t0, y, &T);
    if (st == CS_OK)
      st = cs_continue_cycles(w, &cc.spec, cc.at, t0, y, T, &b);
  }
  if (st != CS_OK && !why[0])
    snprintf(why, sizeof why, "%s", cs_errmsg());
  cs_orbit_ws_free(w);
  struct cs_run_info run = {sets, nset, ctx->argc, ctx->argv};
  enum cs_status wst = CS_OK;
  if (st == CS_OK)
    wst = cs_branch_h5_write(path, &cfg, &run, &cc, &b, have_eq ? &eq : NULL, "ok", b.end_note);
  if (st != CS_OK || wst != CS_OK) {
    cs_branch_free(&b), cs_branch_free(&eq);
    cs_config_free(&cfg);
    return st != CS_OK ? cli_fail(cmd, "no branch (%s): %s", cs_strerror(st), why)
                       : cli_fail(cmd, "%s", cs_errmsg());
  }
  static const char *const starts[] = {"state", "hopf", "sweep"};
  printf("output = %s\n", path);
  printf("model = %s\n", m->name);
  printf("parameter = %s\n", pd->name);
  printf("branch = %s\n", cc.branch == CS_BRANCH_CYCLE ? "cycles" : "equilibria");
  printf("start = %s\n", starts[cc.start]);
  if (cc.start == CS_CONT_FROM_SWEEP)
    printf("start_point = %s:%ld (%s pass, %s = %.10g, class %s)\n", cc.sweep_file, cc.sweep_index,
           cc.sweep_pass ? "backward" : "forward", pd->name, cc.at,
           start_class >= 0 && start_class < CS_CLASS_COUNT ? cs_class_name(start_class) : "?");
  if (hopf)
    print_special(m, pd, hopf, 0);
  printf("points = %zu\n", b.n_points);
  for (size_t i = 0; i < b.n_special; i++)
    if (b.special[i].kind != CS_SPECIAL_END)
      print_special(m, pd, &b.special[i],
                    b.kind == CS_BRANCH_CYCLE && b.special[i].kind != CS_SPECIAL_HOPF);
  print_stable(&b, pd);
  for (size_t i = 0; i < b.n_special; i++)
    if (b.special[i].kind == CS_SPECIAL_END)
      print_special(m, pd, &b.special[i], 1);
  printf("shootings = %ld\n", b.shootings);
  cs_branch_free(&b), cs_branch_free(&eq);
  cs_config_free(&cfg);
  fflush(stdout);
  return opts[O_NOPLOT].value ? CLI_EXIT_OK : cli_orbit_plot(ctx, path);
}
