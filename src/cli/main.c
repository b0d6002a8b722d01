/* SPDX-License-Identifier: MIT */
/* contensou <verb> [options]: dispatches to one file per verb (cli_<verb>.c).
 * A new verb (simulate, sweep, info, eps-study) is one new file, one
 * declaration in cli_verbs.h and one line in the table below. */
#include <stdio.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_verbs.h"
#include "cs_version.h"
#include "sweep/sweep_dist.h"

struct cli_verb {
  const char *name;    /* as typed on the command line */
  cli_verb_fn run;     /* the verb; argv[0] is its name */
  const char *summary; /* one line for --help; NULL: a hidden verb (tools' use) */
};

static const struct cli_verb verbs[] = {
    {"basins", cli_basins, "basins of attraction: attractors and their fractions (.h5)"},
    {"continue", cli_continue, "branch of equilibria or periodic orbits in a parameter (.h5)"},
    {"eps-study", cli_eps_study, "accuracy in eps: runs at several eps minus a reference (.h5)"},
    {"friction", cli_friction, "friction laws: eta <-> eta', evaluate a law, fit (b, m)"},
    {"info", cli_info, "summarise a result file (.h5) or describe a model (--model NAME)"},
    {"keys", cli_keys, NULL},
    {"orbit", cli_orbit, "periodic orbit by shooting: period, Floquet multipliers (.h5)"},
    {"plot", cli_plot, "draw a result file (.h5) with gnuplot"},
    {"simulate", cli_simulate, "integrate one run of a parameter file, write its trajectory (.h5)"},
    {"sweep", cli_sweep, "bifurcation diagram or regime map over one or two parameters (.h5)"},
};

static void usage(FILE *out)
{
  fprintf(out, "usage: contensou <command> [options]\n"
               "       contensou <command> --help\n"
               "       contensou --version\n"
               "\n"
               "Bifurcation and chaos analysis of mechanical systems with Coulomb-Contensou\n"
               "friction on plane contacts.\n"
               "\n"
               "commands:\n");
  for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
    if (verbs[i].summary)
      fprintf(out, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
  fprintf(out, "\n"
               "Results are printed as 'name = value' lines on stdout or written to HDF5\n"
               "files; errors are one line on stderr. 'contensou <command> --help' describes\n"
               "each command's options with their units, its output and its exit status.\n"
               "\n"
               "exit status: 0 success, 1 numerical or I/O failure, 2 bad arguments (the\n"
               "message names the option, or the file, line and key, and what is accepted).\n"
               "\n"
               "environment: CONTENSOU_GNUPLOT_DIR, the directory of the gnuplot scripts of\n"
               "'contensou plot' (default: share/contensou/gnuplot beside the installed\n"
               "program). OMP_NUM_THREADS, the default of 'sweep --threads'.\n");
}

int main(int argc, char **argv)
{
  struct cli_ctx ctx = {argc, argv};
  const char *verb;
  if (argc < 2) {
    fprintf(stderr, "contensou: missing command (see contensou --help)\n");
    return CLI_EXIT_USAGE;
  }
  verb = argv[1];
  if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0 || strcmp(verb, "help") == 0) {
    usage(stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(verb, "--version") == 0) {
    printf("contensou %s (git %s)\n", CS_VERSION, CS_GIT_DESCRIBE);
    printf("results_version = %d\n", CS_RESULTS_VERSION);
    printf("mpi = %s\n", cs_dist_available() ? "yes" : "no");
    return CLI_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
    if (strcmp(verb, verbs[i].name) == 0)
      return verbs[i].run(&ctx, argc - 1, argv + 1);
  if (verb[0] == '-')
    return cli_usage("contensou", "unknown option '%s' (see contensou --help)", verb);
  return cli_usage("contensou", "unknown command '%s' (see contensou --help)", verb);
}
