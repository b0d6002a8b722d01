/* SPDX-License-Identifier: MIT */
/* A one-line progress report on stderr for long runs (simulate, sweep).
 *
 * The line is drawn only when stderr is a terminal and the user did not ask
 * for quiet, only once the run has lasted about 2 s (or looks like it will:
 * 1 s elapsed and an estimate of 2 s or more in all), and refreshed at most
 * 5 times a second; it is rewritten in place with '\r' and erased by
 * cli_progress_end, so that what follows on stderr (an error message) starts
 * on a clean line. Two styles:
 *
 *   contensou simulate: t = 8.41 of 20 s (42%), 3.1 s elapsed, ETA 4.3 s
 *   contensou sweep: 12 of 100 points (12%), 3.4 points/s, 5.0 s elapsed, ETA 26 s
 *
 * The estimate assumes the rate so far holds for the rest. Not thread-safe:
 * report from one thread (e.g. the sweep's master). */
#ifndef CS_CLI_PROGRESS_H
#define CS_CLI_PROGRESS_H

enum cli_progress_style {
  CLI_PROGRESS_TIME, /* done/total are model times: "t = 8.41 of 20 s (42%)" */
  CLI_PROGRESS_COUNT /* done/total are counts: "12 of 100 points (12%), 3.4 points/s" */
};

struct cli_progress {
  const char *cmd;               /* prefix of the line, e.g. "contensou simulate" */
  enum cli_progress_style style; /* how done/total read */
  const char *unit;              /* time unit ("s", "" when dimensionless) or counted noun */
  double from;                   /* done at the start (the rate counts from here) */
  double total;                  /* done at the end */
  int enabled;                   /* 1: stderr is a terminal and not quiet */
  double t0;                     /* wall clock at the start, s (cli_clock) */
  double last;                   /* wall clock of the last refresh, s */
  int width;                     /* length of the line on screen, 0 when none is shown */
};

/* Monotonic wall clock in seconds (an arbitrary origin). */
double cli_clock(void);

/* Starts a report of a run going from `from` to `total` (total > from for a
 * meaningful percentage). quiet = 1 disables it; so does a stderr that is
 * not a terminal. Prints nothing yet. */
void cli_progress_start(struct cli_progress *p, const char *cmd, enum cli_progress_style style,
                        const char *unit, double from, double total, int quiet);

/* Reports that the run has reached done; redraws the line when due. Cheap
 * enough to call after every step of work (one clock read). */
void cli_progress_update(struct cli_progress *p, double done);

/* Erases the line if one is shown. Call before printing anything else on
 * stderr and at the end of the run. */
void cli_progress_end(struct cli_progress *p);

#endif
