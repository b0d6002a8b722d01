/* SPDX-License-Identifier: MIT */
/* contensou simulate FILE.ini: one run of a model from its parameter file,
 * recorded on a uniform time grid and written to HDF5 (layout in
 * simulate_help). The run always starts at t = 0 from [initial]; [output]
 * t_start only opens the recorded window, the part before it is a transient
 * that is integrated (in steps of dt, so that max_steps and the progress line
 * mean the same thing everywhere) but not stored.
 *
 * The file is written as the run goes, by the library (io/trajectory_h5.h):
 * metadata first with status = "running", rows appended in blocks
 * (integrate/record.h) and flushed at most every FLUSH_EVERY seconds,
 * statistics and the final status last. A failed run
 * keeps the rows up to the failure; a killed one keeps what was flushed and
 * says "running".
 *
 * The run goes through cs_flow (src/integrate/flow.h), so event-driven models
 * (e.g. belt with law = event-driven) switch modes on the way; every switch
 * is appended to the table /switches as it happens. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "integrate/integrate.h"
#include "io/config.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "io/trajectory_h5.h"
#include "integrate/flow.h"
#include "integrate/record.h"
#include "models/model.h"

static const char *const cmd = "contensou simulate";

#define MAX_SETS 256    /* --set options */
#define FLUSH_EVERY 1.0 /* s of wall time between two flushes of the file */

static const char simulate_help[] =
    "usage: contensou simulate FILE.ini [--set section.key=value]... [-o OUT.h5]\n"
    "                          [--quiet]\n"
    "\n"
    "Integrates one run of the model described by the parameter file FILE.ini and\n"
    "writes its trajectory, parameters and solver statistics to an HDF5 file.\n"
    "\n"
    "The run starts at t = 0 from the state of [initial] (the model's defaults for\n"
    "variables not given) and ends at [output] t_end. Rows are recorded from\n"
    "[output] t_start (default 0; the part before it is integrated but not stored)\n"
    "every [output] dt (default, and dt = 0: (t_end - t_start)/1000); the last row\n"
    "is at t_end exactly. Times are in the model's time unit: s for pendulum and\n"
    "twomass, dimensionless for belt. [solver] max_steps is the number of internal\n"
    "steps allowed between two output times (the transient before t_start is\n"
    "crossed in steps of dt too), max_steps_total the number over the whole run\n"
    "(default 2e7, about a minute of CPU time: no run is unbounded).\n"
    "\n"
    "options:\n"
    "  --set S.K=V      override key K of section [S] of FILE.ini, e.g.\n"
    "                   --set parameters.omega0=45 --set output.t_end=5; may be\n"
    "                   repeated (a later one wins); checked like the file\n"
    "  -o, --output OUT.h5\n"
    "                   result file (default: [output] file if given, else\n"
    "                   output/<FILE without .ini>.h5, relative to the current\n"
    "                   directory); missing directories are created; the file is\n"
    "                   written as OUT.h5.partial and renamed to OUT.h5 when\n"
    "                   complete, replacing an earlier result file (never the\n"
    "                   parameter file or a file that is not HDF5: exit 2)\n"
    "  -q, --quiet      no progress line (it is drawn on stderr only when stderr\n"
    "                   is a terminal and the run lasts more than about 2 s)\n"
    "  -h, --help       this text\n"
    "\n"
    "output (name = value): output (the file), model, law (models with a law\n"
    "choice), eta and eta_prime (models with them: the one not given is derived),\n"
    "status (ok or failed), rows, t_reached, steps, rhs_evals, jac_evals,\n"
    "err_test_fails, conv_fails, switches (mode switches of event-driven models,\n"
    "0 for the others), wall_time_s, then <name>_end, the state at t_reached, for\n"
    "every state variable.\n"
    "\n"
    "HDF5 file (written by the library, io/trajectory_h5.h; every dataset has a\n"
    "string attribute doc saying what it holds and units: a table (names) one per\n"
    "column, other datasets one string; every double attribute x has x_units):\n"
    "  /             attributes kind = \"trajectory\", model, model_title,\n"
    "                model_reference, time_unit (\"s\" or \"1\"), the model's\n"
    "                choices (law), status (running, ok, failed), message,\n"
    "                params_file, params_name, params_text (the file as read),\n"
    "                overrides (the --set values, one per line),\n"
    "                program, version, git_describe, hdf5_version,\n"
    "                sundials_version, sundials_build (how the SUNDIALS linked\n"
    "                was built: debian-system, built-from-source and its flags,\n"
    "                installed), command_line, date\n"
    "  /trajectory   rows t, state variables, the real derived outputs (float64);\n"
    "                attributes names, units, t0, t_start, t_end, dt, rows_planned\n"
    "  /trajectory_codes   the integer outputs (stick, vcase) of the same rows,\n"
    "                      int32; attributes names, units, missing_value (-1)\n"
    "  /params       one row of every parameter as resolved by the model (eta and\n"
    "                eta_prime, the law's b and m included), names and units;\n"
    "                the same as attributes, and the choices as string attributes\n"
    "  /initial      the state at t = 0 (one row and attributes)\n"
    "  /solver       rtol, atol, max_steps, h_init, h_max (one row and\n"
    "                attributes); attributes stepper, method, jacobian\n"
    "  /switches     models with mode switches (e.g. law = event-driven): one row\n"
    "                per switch, as it happens: t, kind, mode (after the switch),\n"
    "                the state after it; attributes names, units, kind_names\n"
    "                (the kinds by index, one per line), count (switches in the\n"
    "                run) and dropped (those beyond the first 200000, not stored)\n"
    "  /stats        steps, rhs_evals, jac_evals, lin_setups, nonlin_iters,\n"
    "                err_test_fails, conv_fails, switches, rows, t_reached,\n"
    "                wall_time_s (one row; the counts also as integer attributes)\n"
    "\n"
    "exit status: 0 success; 1 integration failure (the rows computed so far are\n"
    "kept, with status = \"failed\" and message in the file) or an I/O error such\n"
    "as a full disk (the rows flushed before it stay in OUT.h5.partial);\n"
    "2 bad arguments or a bad parameter file (unreadable or missing file, unknown\n"
    "key, bad number, value out of range, missing t_end ...), with a one-line\n"
    "message naming the file and line (or the --set) and the key.\n";

/* ------------------------------------------------------------- the command */

static void sink_progress(void *ctx, double t)
{
  cli_progress_update(ctx, t);
}

static void print_string(const char *name, const char *value)
{
  printf("%s = %s\n", name, value);
}

int cli_simulate(const struct cli_ctx *ctx, int argc, char **argv)
{
  struct cli_opt opts[] = {
      {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      {.name = "--quiet", .alias = "-q", .kind = CLI_FLAG},
      {0},
  };
  struct cli_opt *o_out = cli_opt(opts, "--output");
  struct cli_opt *o_quiet = cli_opt(opts, "--quiet");
  const char *sets[MAX_SETS], *file;
  size_t nset;
  cli_output_signals();
  int prc = cli_parse_run(cmd, simulate_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (prc >= 0)
    return prc;
  struct cs_config cfg;
  int rc = cli_load_config(cmd, file, sets, nset, &cfg);
  if (rc != 0)
    return rc;
  const struct cs_model *m = cfg.model;
  char out[4096];
  int n = o_out->value    ? snprintf(out, sizeof out, "%s", o_out->value)
          : cfg.output[0] ? snprintf(out, sizeof out, "%s", cfg.output)
                          : snprintf(out, sizeof out, "output/%s.h5", cfg.name);
  /* used exactly or refused: a cut path could name another file */
  if (n < 0 || (size_t)n >= sizeof out)
    rc = cli_usage(cmd, "-o: a path of %d characters (accepted: at most %zu, the system's limit)",
                   n, sizeof out - 1);
  if (rc || (rc = cli_check_result_path(cmd, out, cfg.path)) != 0) {
    cs_config_free(&cfg);
    return rc;
  }
  struct cli_progress prog;
  struct cs_simulate_opts so = {.sets = sets,
                                .n_set = nset,
                                .argc = ctx->argc,
                                .argv = ctx->argv,
                                .flush_every = FLUSH_EVERY,
                                .progress = sink_progress,
                                .progress_ctx = &prog};
  struct cs_simulate_result res;
  cli_progress_start(&prog, cmd, CLI_PROGRESS_TIME, m->time_unit_si ? "s" : "", 0.0,
                     isfinite(cfg.t_end) ? cfg.t_end : 0.0, o_quiet->value != NULL);
  enum cs_status st = cs_simulate_run(&cfg, out, &so, &res);
  cli_progress_end(&prog);
  const struct cs_record_result *r = &res.run;
  if (st != CS_OK)
    rc = cli_report(cmd, st);
  else {
    const struct cs_integrator_stats stats = r->stats.integ;
    print_string("output", out);
    print_string("model", m->name);
    for (size_t i = 0; i < m->n_choice; i++)
      print_string(m->choice[i].name, cs_model_get_choice(m, cfg.params, (int)i));
    static const char *const shown[] = {"eta", "eta_prime"};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
      int k = cs_model_param_index(m, shown[i]);
      if (k >= 0)
        cli_print(shown[i], cs_model_get_param(m, cfg.params, k));
    }
    print_string("status", r->status == CS_OK ? "ok" : "failed");
    printf("rows = %zu\n", res.rows);
    cli_print("t_reached", r->t);
    printf("steps = %ld\nrhs_evals = %ld\njac_evals = %ld\nerr_test_fails = %ld\n"
           "conv_fails = %ld\nswitches = %ld\n",
           stats.steps, stats.rhs_evals, stats.jac_evals, stats.err_test_fails, stats.conv_fails,
           r->stats.switches);
    cli_print_digits("wall_time_s", res.wall_time, 4);
    for (size_t i = 0; i < m->n_state; i++) {
      char name[128];
      snprintf(name, sizeof name, "%s_end", m->state[i].name);
      cli_print(name, r->y[i]);
    }
    fflush(stdout);
    if (r->status != CS_OK)
      rc = cli_fail(cmd, "integration failed at t = %.10g%s%s (%s); %zu of %zu rows written to %s",
                    r->t, m->time_unit_si ? " " : "", m->time_unit_si ? "s" : "", r->message,
                    res.rows, res.grid.rows, out);
  }
  cs_config_free(&cfg);
  return rc;
}
