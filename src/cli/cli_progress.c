/* SPDX-License-Identifier: MIT */
#include "cli/cli_progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Show nothing before SHOW_AFTER s, or before SHOW_EARLY s unless the whole
 * run is estimated at SHOW_AFTER s or more; redraw at most every REFRESH s. */
#define SHOW_AFTER 2.0
#define SHOW_EARLY 1.0
#define REFRESH 0.2

double cli_clock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_progress_start(struct cli_progress *p, const char *cmd, enum cli_progress_style style,
                        const char *unit, double from, double total, int quiet)
{
  memset(p, 0, sizeof *p);
  p->cmd = cmd;
  p->style = style;
  p->unit = unit ? unit : "";
  p->from = from;
  p->total = total;
  p->enabled = !quiet && isatty(STDERR_FILENO);
  p->t0 = cli_clock();
  p->last = p->t0;
}

/* "4.3 s", "12 s", "3m05s", "2h07m". */
static void duration(double s, char *buf, size_t cap)
{
  if (!isfinite(s) || s < 0)
    snprintf(buf, cap, "?");
  else if (s < 10)
    snprintf(buf, cap, "%.1f s", s);
  else if (s < 60)
    snprintf(buf, cap, "%.0f s", s);
  else if (s < 3600)
    snprintf(buf, cap, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
  else
    snprintf(buf, cap, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
}

void cli_progress_update(struct cli_progress *p, double done)
{
  if (!p->enabled)
    return;
  double now = cli_clock(), elapsed = now - p->t0;
  if (now - p->last < REFRESH && p->width > 0)
    return;
  double span = p->total - p->from, did = done - p->from;
  double rate = elapsed > 0 ? did / elapsed : 0.0;
  double eta = rate > 0 ? (p->total - done) / rate : NAN;
  if (p->width == 0 &&
      (elapsed < SHOW_EARLY || (elapsed < SHOW_AFTER && !(elapsed + eta >= SHOW_AFTER))))
    return;
  p->last = now;
  double pct = span > 0 ? 100.0 * did / span : 0.0;
  char line[256], el[32], left[32];
  duration(elapsed, el, sizeof el);
  duration(eta, left, sizeof left);
  int n;
  if (p->style == CLI_PROGRESS_TIME)
    n = snprintf(line, sizeof line, "%s: t = %.4g of %.4g%s%s (%.0f%%), %s elapsed, ETA %s", p->cmd,
                 done, p->total, *p->unit ? " " : "", p->unit, pct, el, left);
  else
    n = snprintf(line, sizeof line, "%s: %.0f of %.0f %s (%.0f%%), %.3g %s/s, %s elapsed, ETA %s",
                 p->cmd, done, p->total, p->unit, pct, rate, p->unit, el, left);
  if (n < 0)
    return;
  if (n >= (int)sizeof line)
    n = (int)sizeof line - 1;
  /* pad with blanks over the rest of a longer previous line */
  fprintf(stderr, "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
  fflush(stderr);
  if (n > p->width)
    p->width = n;
}

void cli_progress_end(struct cli_progress *p)
{
  if (p->width > 0) {
    fprintf(stderr, "\r%*s\r", p->width, "");
    fflush(stderr);
  }
  p->width = 0;
}
