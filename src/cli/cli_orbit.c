/* SPDX-License-Identifier: MIT */
/* contensou orbit FILE.ini: the periodic orbit at one parameter set by
 * shooting (analysis/orbit.h): period, Floquet multipliers, stability, one
 * period written to HDF5 (analysis/orbit_h5.h) and drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/orbit.h"
#include "analysis/orbit_h5.h"
#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "cli/cli_orbit.h"
#include "cli/cli_verbs.h"
#include "io/run_h5.h"
#include "io/run_h5_private.h"

#define MAX_SETS 256

static const char *const cmd = "contensou orbit";

static const char orbit_help[] =
    "usage: contensou orbit FILE.ini [--set section.key=value]... [-o OUT.h5]\n"
    "                       [--rows N] [--no-plot]\n"
    "\n"
    "The periodic orbit of the model of FILE.ini at its parameters, by shooting:\n"
    "from [initial], integrate [continuation] transient (default: [output] t_end,\n"
    "else 0), go on to the next crossing of the Poincare section ([section], or the\n"
    "model's default; forced models: stroboscopic, at a multiple of the forcing\n"
    "period), then Newton on the fixed point of the section map with the monodromy\n"
    "matrix from the variational equations (ARKODE, the model's analytic Jacobian;\n"
    "saltation matrices at the mode switches of event-driven laws), converged to the\n"
    "solver tolerance ([solver] rtol, atol). The orbit may be unstable: Newton does\n"
    "not need it to attract.\n"
    "\n"
    "options:\n"
    "  --set S.K=V   override key K of section [S] (repeatable), e.g.\n"
    "                --set parameters.omega0=45 --set continuation.transient=40\n"
    "  -o OUT.h5     result file (default: [output] file, else\n"
    "                output/<FILE without .ini>_orbit.h5); missing directories are\n"
    "                created; the picture is OUT with .png\n"
    "  --rows N      samples of the stored period (default 1001)\n"
    "  --no-plot     no picture (the picture needs gnuplot)\n"
    "  -h, --help    this text\n"
    "\n"
    "[continuation] keys used here (see contensou continue --help): transient,\n"
    "returns (section returns, or forcing periods, per period; default 1),\n"
    "newton_tol (accepted correction in solver tolerance units, default 10),\n"
    "max_iter, search (time searched for section crossings, default 1000).\n"
    "\n"
    "output (name = value): output (the file), model, period (model time unit:\n"
    "s or dimensionless), then one line per nontrivial multiplier, by decreasing\n"
    "modulus: multiplier_K = VALUE for a real one (signed), multiplier_K =\n"
    "MODULUS ARGUMENT (rad) for a complex one; autonomous models also\n"
    "multiplier_trivial (the one identified with 1: the direction along the\n"
    "orbit) and trivial_error = |multiplier_trivial - 1| (an accuracy check:\n"
    "about the solver tolerance); stability = stable | marginal (a multiplier\n"
    "within 100 rtol, or 10 trivial_error, of the unit circle: no side can be\n"
    "told) | unstable, unstable = the number of multipliers outside the unit\n"
    "circle; switches (mode switches per\n"
    "period of event-driven laws); <state>_section = the orbit's point on the\n"
    "section, for every state; iterations, correction (Newton's last, in solver\n"
    "tolerance units); output = the picture.\n"
    "\n"
    "HDF5 file (kind \"orbit\"; every table has names and units, every dataset a\n"
    "doc attribute): the header of every run file (/params, /initial, /solver,\n"
    "root attributes), /orbit (period, t0, n_unstable, stable, trivial_re,\n"
    "trivial_im, trivial_err, iterations, correction, residual, switches),\n"
    "/section_point, /multipliers (k, re, im, modulus, argument), /monodromy,\n"
    "/trajectory (one period: t, states, the real derived outputs, the integer\n"
    "ones in /trajectory_codes; `contensou plot` draws it like a trajectory).\n"
    "\n"
    "exit status: 0 success; 1 no periodic orbit found (Newton failed, the state\n"
    "settled, the section was not crossed: the reason is printed and stored) or an\n"
    "I/O error; 2 bad arguments or parameter file.\n";

int cli_orbit_path(const char *c, const char *opt, const struct cs_config *cfg, const char *suffix,
                   char *path, size_t len)
{
  int n = opt              ? snprintf(path, len, "%s", opt)
          : cfg->output[0] ? snprintf(path, len, "%s", cfg->output)
                           : snprintf(path, len, "output/%s_%s.h5", cfg->name, suffix);
  /* used exactly or refused: a cut path could name another file */
  if (n < 0 || (size_t)n >= len)
    return cli_usage(c, "-o: a path of %d characters (accepted: at most %zu, the system's limit)",
                     n, len - 1);
  int rc = cli_check_result_path(c, path, cfg->path);
  if (rc)
    return rc;
  if (cs_make_parent_dirs(path) != 0)
    return cli_fail(c, "%s: cannot create its directory", path);
  return 0;
}

void cli_orbit_complex(double re, double im, char *buf, size_t len)
{
  if (im == 0)
    snprintf(buf, len, "%.6g", re);
  else
    snprintf(buf, len, "%.6g+-%.6gi", re, fabs(im));
}

int cli_orbit_plot(const struct cli_ctx *ctx, const char *path)
{
  char *argv[] = {"plot", (char *)path, NULL};
  return cli_plot(ctx, 2, argv);
}

/* The run's result in name = value lines. */
static void print_orbit(const char *path, const struct cs_config *cfg, const struct cs_orbit *orb)
{
  const struct cs_model *m = cfg->model;
  printf("output = %s\n", path);
  printf("model = %s\n", m->name);
  cli_print("period", orb->period);
  for (size_t k = 0; k < orb->n_mult; k++) {
    char name[32];
    snprintf(name, sizeof name, "multiplier_%zu", k + 1);
    if (orb->mult_im[k] == 0)
      printf("%s = %.12g\n", name, orb->mult_re[k]);
    else
      printf("%s = %.12g %.12g\n", name, hypot(orb->mult_re[k], orb->mult_im[k]),
             atan2(orb->mult_im[k], orb->mult_re[k]));
  }
  if (orb->autonomous) {
    cli_print("multiplier_trivial", orb->trivial_re);
    cli_print_digits("trivial_error", orb->trivial_err, 3);
  }
  printf("stability = %s\n", orb->n_unstable   ? "unstable"
                             : orb->n_marginal ? "marginal"
                                               : "stable");
  printf("unstable = %d\n", orb->n_unstable);
  if (cs_model_switches(m, cfg->params) > 0)
    printf("switches = %zu\n", orb->switches);
  for (size_t i = 0; i < m->n_state; i++) {
    char name[80];
    snprintf(name, sizeof name, "%s_section", m->state[i].name);
    cli_print(name, orb->y[i]);
  }
  printf("iterations = %d\n", orb->iterations);
  cli_print_digits("correction", orb->correction, 3);
}

int cli_orbit(const struct cli_ctx *ctx, int argc, char **argv)
{
  struct cli_opt opts[] = {
      {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      {.name = "--rows", .kind = CLI_COUNT, .range = CLI_IN(2, 10000000)},
      {.name = "--no-plot", .kind = CLI_FLAG},
      {0},
  };
  const char *sets[MAX_SETS], *file;
  size_t nset;
  int rc = cli_parse_run(cmd, orbit_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (rc >= 0)
    return rc;
  struct cs_config cfg;
  if ((rc = cli_load_config(cmd, file, sets, nset, &cfg)) != 0)
    return rc;
  char path[4096];
  rc = cli_orbit_path(cmd, cli_opt(opts, "--output")->value, &cfg, "orbit", path, sizeof path);
  if (rc) {
    cs_config_free(&cfg);
    return rc;
  }
  const struct cli_opt *o_rows = cli_opt(opts, "--rows");
  struct cs_run_info run = {sets, nset, ctx->argc, ctx->argv};
  struct cs_orbit_run_opts ro = {path, &run, o_rows->value ? (size_t)o_rows->count : 0};
  struct cs_orbit_run_result res;
  enum cs_status st = cs_orbit_run(&cfg, &ro, &res);
  if (st != CS_OK)
    /* no orbit is a result of the run (1), not a bad argument */
    rc = res.searched ? cli_fail(cmd, "%s", cs_errmsg()) : cli_report(cmd, st);
  else
    print_orbit(path, &cfg, &res.orbit);
  cs_orbit_run_free(&res);
  cs_config_free(&cfg);
  if (rc)
    return rc;
  fflush(stdout);
  return cli_opt(opts, "--no-plot")->value ? CLI_EXIT_OK : cli_orbit_plot(ctx, path);
}
