/* SPDX-License-Identifier: MIT */
/* Pieces shared by the verbs of the command line: a table-driven option
 * parser with strict numbers, one-line error messages and the exit codes.
 *
 * Exit codes: 0 success, 1 a numerical or I/O failure, 2 bad or missing
 * arguments. Every error is one line on stderr, "<command>: <message>";
 * results go to stdout as "name = value" lines. */
#ifndef CS_CLI_COMMON_H
#define CS_CLI_COMMON_H

#include <math.h>
#include <stddef.h>

#include "core/status.h"
#include "io/config.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAILURE = 1, CLI_EXIT_USAGE = 2 };

/* cli_parse's answer when --help or -h was given. */
#define CLI_HELP (-1)

/* The whole command line as typed (stored in result files). */
struct cli_ctx {
  int argc;    /* number of arguments, program name included */
  char **argv; /* the arguments */
};

/* A verb: argv[0] is the verb's own name, options follow. Returns the exit code. */
typedef int (*cli_verb_fn)(const struct cli_ctx *ctx, int argc, char **argv);

enum cli_kind {
  CLI_FLAG,   /* no value */
  CLI_NUMBER, /* a finite number in range */
  CLI_COUNT,  /* an integer in range */
  CLI_PAIR,   /* two finite numbers "A,B", each in range */
  CLI_CHOICE, /* one of choices */
  CLI_TEXT    /* any non-empty text, described by what */
};

/* Accepted interval [lo, hi]; an open end excludes the bound. */
struct cli_range {
  double lo, hi;        /* bounds, may be infinite */
  int lo_open, hi_open; /* 1: the bound itself is excluded */
};

#define CLI_ANY ((struct cli_range){-INFINITY, INFINITY, 1, 1})
#define CLI_GE(x) ((struct cli_range){(x), INFINITY, 0, 1})
#define CLI_GT(x) ((struct cli_range){(x), INFINITY, 1, 1})
#define CLI_IN(a, b) ((struct cli_range){(a), (b), 0, 0})

/* One option of a verb. A table of them ends with an entry whose name is NULL. */
struct cli_opt {
  const char *name;           /* "--eta" */
  const char *alias;          /* short form ("-o") or NULL */
  enum cli_kind kind;         /* what it takes */
  struct cli_range range;     /* CLI_NUMBER, CLI_COUNT, CLI_PAIR */
  const char *const *choices; /* CLI_CHOICE: NULL-terminated list */
  const char *what;           /* CLI_TEXT: what it accepts, e.g. "a file name" */
  int required;               /* 1: the command fails without it */
  /* filled by cli_parse */
  const char *value; /* the text given ("" for a flag), NULL when absent */
  double num[2];     /* CLI_NUMBER: num[0]; CLI_PAIR: both */
  long count;        /* CLI_COUNT */
  int choice;        /* CLI_CHOICE: index into choices */
};

/* Parses argv[0..argc) against opts (values converted and checked) and keeps
 * at most max_pos positional arguments in pos. "--name value", "--name=value"
 * and "--" are understood. Returns 0, CLI_HELP when --help or -h is present,
 * or CLI_EXIT_USAGE after printing one line on stderr. */
int cli_parse(const char *cmd, int argc, char **argv, struct cli_opt *opts, const char **pos,
              int max_pos, int *npos);

/* The option named name ("--threads") of a table cli_parse filled; NULL
 * (a programming error) when the table has no such option. Verbs read their
 * options by name, never by position in the table. */
struct cli_opt *cli_opt(struct cli_opt *opts, const char *name);

/* The exit code for a library status: 0 for CS_OK, 2 for input the user can
 * fix (a bad parameter file, argument, range, missing file, existing output,
 * a file that does not match), 1 for every numerical or I/O failure. */
int cli_exit_code(enum cs_status status);

/* Prints "<cmd>: <message>" on stderr and returns CLI_EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...);

/* Prints "<cmd>: <message>" on stderr and returns CLI_EXIT_FAILURE. */
int cli_fail(const char *cmd, const char *fmt, ...);

/* Strict number: the whole string is a finite number for strtod. 1 if so. */
int cli_parse_number(const char *text, double *out);

/* Prints "name = value" with %.15g (-0 printed as 0). */
void cli_print(const char *name, double value);

/* Same with a chosen number of significant digits. */
void cli_print_digits(const char *name, double value, int digits);

/* Splits argv (argv[0] is the verb, skipped) into the --set overrides
 * ("--set X" or "--set=X", at most max_sets) and the other arguments, for
 * cli_parse (rest must hold argc pointers). Returns 0, or an exit status after printing a usage
 * error. */
int cli_take_sets(const char *cmd, int argc, char **argv, const char **sets, size_t max_sets,
                  size_t *nset, char **rest, int *nrest);

/* The command line of a verb that runs a parameter file: one FILE.ini, the
 * --set overrides (at most max_sets, into sets) and the verb's options.
 * --help prints help (it wins over every other mistake). Returns -1 to go
 * on, with *file and *nset set; otherwise the exit status to return. */
int cli_parse_run(const char *cmd, const char *help, int argc, char **argv, struct cli_opt *opts,
                  const char **sets, size_t max_sets, size_t *nset, const char **file);

/* The same where FILE.ini may be absent (*file = NULL then). */
int cli_parse_run_optional(const char *cmd, const char *help, int argc, char **argv,
                           struct cli_opt *opts, const char **sets, size_t max_sets, size_t *nset,
                           const char **file);

/* The directory of the program's data (gnuplot scripts: sub = "gnuplot"):
 * the environment variable env if set (e.g. CONTENSOU_GNUPLOT_DIR), else
 * <dir of the executable>/../share/contensou/<sub> when that exists (an
 * installed program, wherever it was installed), else build_dir (the
 * source tree, for the program in its build tree). Writes into buf. */
const char *cli_data_dir(const char *env, const char *sub, const char *build_dir, char *buf,
                         size_t cap);

/* Loads the parameter file of a run (cs_config_load). 0, or the exit status
 * after printing the reason: 2 for a file that is missing, unreadable or
 * wrong (the user's to fix), 1 when out of memory. */
int cli_load_config(const char *cmd, const char *file, const char *const *sets, size_t nset,
                    struct cs_config *cfg);

/* Prints "<cmd>: <cs_errmsg()>" on stderr (a library call just failed with
 * status) and returns cli_exit_code(status). */
int cli_report(const char *cmd, enum cs_status status);

#endif
