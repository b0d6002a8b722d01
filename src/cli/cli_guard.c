/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* prctl, strsignal */

#include "cli/cli_guard.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_progress.h"
#include "plot/plot_data.h"
#include "results/read.h"
#include "io/result_private.h"

struct cli_guard {
  int fd; /* write end of the pipe to the parent */
};

void cli_guard_reading_done(struct cli_guard *g)
{
  if (!g || g->fd < 0)
    return;
  char c = 'R';
  while (write(g->fd, &c, 1) < 0 && errno == EINTR)
    ;
  close(g->fd);
  g->fd = -1;
}

/* Seconds allowed for reading file: a file of kilobytes reads in
 * milliseconds, so a damaged one on which libhdf5 loops is stopped within
 * seconds; a large one gets its size at 50 MB/s more (a --check reads it
 * whole, a sweep's twice). */
double cli_guard_limit(const char *file)
{
  const char *env = getenv("CONTENSOU_READ_TIMEOUT");
  double v;
  if (env && cli_parse_number(env, &v) && v > 0)
    return v;
  struct stat sb;
  double bytes = file && stat(file, &sb) == 0 ? (double)sb.st_size : 0.0;
  return CLI_GUARD_BASE_S + bytes / CLI_GUARD_BYTES_PER_S;
}

/* The parent's side: waits until the child has sent cap bytes (the end of
 * its reading), ended, passed limit seconds (killed: *timed_out) or, when
 * stop is not NULL, the parent got a signal that sets *stop (child killed).
 * Returns the bytes received; reaps the child into *status when it was
 * killed or ended. *reaped: whether it was. */
static size_t wait_reading(pid_t pid, int fd, double limit, volatile sig_atomic_t *stop, char *rec,
                           size_t cap, int *timed_out, int *status, int *reaped)
{
  double t0 = cli_clock();
  size_t got = 0;
  int killed = 0;
  *timed_out = 0;
  *reaped = 0;
  while (got < cap) {
    double left = limit - (cli_clock() - t0);
    if (left <= 0) {
      *timed_out = 1;
      killed = 1;
      break;
    }
    if (stop && *stop) {
      killed = 1;
      break;
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    /* with a stop flag, wake up now and then: a signal may arrive between the
     * test above and poll */
    double wait = stop && left > 0.25 ? 0.25 : left;
    int n = poll(&p, 1, wait > 1e6 ? 1000000000 : (int)(wait * 1000) + 1);
    if (n < 0 && errno != EINTR)
      break;
    if (n > 0) {
      ssize_t k = read(fd, rec + got, cap - got);
      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        break; /* the child ended (end of file) */
      got += (size_t)k;
    }
  }
  if (killed) {
    kill(pid, SIGKILL);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
      ;
    *reaped = 1;
  }
  return got;
}

int cli_guard_run(const char *cmd, const char *file, int (*fn)(struct cli_guard *g, void *ctx),
                  void *ctx)
{
  const char *env = getenv("CONTENSOU_GUARD");
  if (env && strcmp(env, "0") == 0)
    return fn(NULL, ctx);
  int fds[2];
  if (pipe(fds) != 0)
    return fn(NULL, ctx);
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return fn(NULL, ctx);
  }
  if (pid == 0) {
    /* dies with the parent (e.g. killed by a scheduler's time limit) */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(CLI_EXIT_FAILURE);
    close(fds[0]);
    struct cli_guard g = {fds[1]};
    int rc = fn(&g, ctx);
    cli_guard_reading_done(&g);
    exit(rc);
  }
  close(fds[1]);
  double limit = cli_guard_limit(file);
  int timed_out = 0, status = 0, reaped = 0;
  char c;
  int done = wait_reading(pid, fds[0], limit, NULL, &c, 1, &timed_out, &status, &reaped) == 1;
  close(fds[0]);
  while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (timed_out)
    return cli_fail(cmd,
                    "%s: reading did not finish within %.0f s and was stopped (libhdf5 loops "
                    "on some damaged files: this file is damaged or was not written by "
                    "contensou; CONTENSOU_READ_TIMEOUT sets the limit)",
                    file, limit);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    /* SIGPIPE: whoever read our output stopped reading (| head): not a crash */
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGPIPE)
      return 128 + sig;
    if (done)
      return cli_fail(cmd, "%s: crashed after reading the file (signal %d, %s)", file, sig,
                      strsignal(sig));
    return cli_fail(cmd,
                    "%s: reading the file crashed (signal %d, %s): libhdf5 fails on some damaged "
                    "files; this file is damaged or was not written by contensou",
                    file, sig, strsignal(sig));
  }
  /* the child reports the end of reading before it exits: an exit without
   * that report ended inside the read (a sanitizer's abort exits 1) */
  if (!done)
    return cli_fail(cmd,
                    "%s: reading the file ended abnormally (exit status %d): libhdf5 fails on "
                    "some damaged files; this file is damaged or was not written by contensou",
                    file, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return WIFEXITED(status) ? WEXITSTATUS(status) : CLI_EXIT_FAILURE;
}

/* ------------------------------------------------------------- the check */

int cli_has_hdf5_signature(const char *file)
{
  /* the first half of the 8 bytes: a file damaged in the rest of them
   * still started as HDF5 */
  static const unsigned char sig[4] = {0x89, 'H', 'D', 'F'};
  FILE *f = fopen(file, "rb");
  if (!f)
    return 0;
  int found = 0;
  /* the superblock is at 0, 512, 1024, 2048 ... (a user block before it) */
  for (long at = 0; !found && at <= (1L << 30); at = at ? 2 * at : 512) {
    unsigned char b[sizeof sig];
    if (fseek(f, at, SEEK_SET) != 0 || fread(b, 1, sizeof b, f) != sizeof b)
      break;
    found = memcmp(b, sig, sizeof sig) == 0;
  }
  fclose(f);
  return found;
}

enum cs_status cli_check_file(const char *file, struct cli_check *out)
{
  memset(out, 0, sizeof *out);
  enum cs_status st = cs_result_kind(file, &out->kind);
  if (st != CS_OK)
    return st;
  out->kind_read = 1;
  struct cs_result_file all;
  if ((st = cs_read_result(file, &all)) != CS_OK)
    return st;
  out->tables = all.ntables + all.ntexts;
  cs_result_file_free(&all);
  /* a damaged object header can leave every dataset readable and the
   * section table's columns unreadable */
  if (out->kind == CS_RESULT_SWEEP) {
    struct cs_plot_sweep ps;
    st = cs_plot_sweep_load(file, &ps);
    cs_plot_sweep_free(&ps);
    if (st != CS_OK)
      return st;
  }
  return cs_result_verify_values(file, &out->sealed, &out->values);
}

/* What the checking child sends: its result, then its message. */
struct check_record {
  int status; /* enum cs_status */
  struct cli_check check;
  char message[1024];
};

int cli_guard_check(const char *file, struct cli_check *out, volatile sig_atomic_t *stop, char *why,
                    size_t cap)
{
  memset(out, 0, sizeof *out);
  why[0] = '\0';
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(why, cap, "cannot start the check: %s", strerror(errno));
    return CLI_EXIT_FAILURE;
  }
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid < 0) {
    snprintf(why, cap, "cannot start the check: %s", strerror(errno));
    close(fds[0]), close(fds[1]);
    return CLI_EXIT_FAILURE;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(CLI_EXIT_FAILURE);
    close(fds[0]);
    struct check_record r;
    memset(&r, 0, sizeof r);
    r.status = (int)cli_check_file(file, &r.check);
    if (r.status != CS_OK)
      snprintf(r.message, sizeof r.message, "%s", cs_errmsg());
    const char *p = (const char *)&r;
    size_t left = sizeof r;
    while (left > 0) {
      ssize_t k = write(fds[1], p, left);
      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        break;
      p += k, left -= (size_t)k;
    }
    /* no exit handlers: they belong to the parent (MPI, HDF5's files) */
    _exit(0);
  }
  close(fds[1]);
  double limit = cli_guard_limit(file);
  int timed_out = 0, status = 0, reaped = 0;
  struct check_record r;
  size_t got =
      wait_reading(pid, fds[0], limit, stop, (char *)&r, sizeof r, &timed_out, &status, &reaped);
  close(fds[0]);
  while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (stop && *stop && got < sizeof r)
    return 128 + (int)*stop;
  if (timed_out) {
    snprintf(why, cap,
             "reading did not finish within %.0f s and was stopped (libhdf5 loops on some "
             "damaged files; CONTENSOU_READ_TIMEOUT sets the limit)",
             limit);
    return CLI_EXIT_FAILURE;
  }
  if (got < sizeof r) {
    if (WIFSIGNALED(status))
      snprintf(why, cap,
               "reading the file crashed (signal %d, %s): libhdf5 fails on some damaged "
               "files",
               WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
      snprintf(why, cap, "reading the file ended abnormally (exit status %d)",
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return CLI_EXIT_FAILURE;
  }
  r.message[sizeof r.message - 1] = '\0';
  *out = r.check;
  /* missing, not an HDF5 file, not a result file; an HDF5 file whose kind
   * cannot be read is damaged */
  if (r.status != CS_OK && !r.check.kind_read &&
      (r.status != CS_ERR_HDF5 || !cli_has_hdf5_signature(file))) {
    snprintf(why, cap, "%s", r.message);
    return CLI_EXIT_USAGE;
  }
  if (r.status != CS_OK) {
    snprintf(why, cap, "%s", r.message);
    return CLI_EXIT_FAILURE;
  }
  return CLI_EXIT_OK;
}

/* ------------------------------------------------- a point of a sweep file */

/* What the reading child sends: the point, its strings bounded, then the
 * n_state doubles of its final state. */
struct point_record {
  int status; /* enum cs_status */
  char message[1024];
  char model[256];
  char param[2][256];
  int has_model;
  size_t npoints, index, nparam, n_state;
  int pass, cls;
  double value[2], t_final;
};
#define POINT_MAX_STATES 4096

static int write_all(int fd, const void *buf, size_t n)
{
  const char *p = buf;
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    p += k, n -= (size_t)k;
  }
  return 0;
}

int cli_guard_sweep_point(const char *file, int pass, size_t index, struct cs_sweep_point_file *out,
                          enum cs_status *status, char *why, size_t cap)
{
  memset(out, 0, sizeof *out);
  *status = CS_OK;
  why[0] = '\0';
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(why, cap, "%s: cannot start the reading: %s", file, strerror(errno));
    return CLI_EXIT_FAILURE;
  }
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid < 0) {
    snprintf(why, cap, "%s: cannot start the reading: %s", file, strerror(errno));
    close(fds[0]), close(fds[1]);
    return CLI_EXIT_FAILURE;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(CLI_EXIT_FAILURE);
    close(fds[0]);
    struct point_record r;
    memset(&r, 0, sizeof r);
    struct cs_sweep_point_file pt;
    r.status = (int)cs_read_sweep_point(file, pass, index, &pt);
    if (r.status == CS_OK && pt.n_state > POINT_MAX_STATES)
      r.status = CS_ERR_RANGE;
    if (r.status != CS_OK) {
      snprintf(r.message, sizeof r.message, "%s", cs_errmsg());
    } else {
      r.has_model = pt.model != NULL;
      snprintf(r.model, sizeof r.model, "%s", pt.model ? pt.model : "");
      for (size_t j = 0; j < pt.nparam && j < 2; j++) {
        snprintf(r.param[j], sizeof r.param[j], "%s", pt.param[j] ? pt.param[j] : "");
        r.value[j] = pt.value[j];
      }
      r.npoints = pt.npoints, r.index = pt.index, r.nparam = pt.nparam < 2 ? pt.nparam : 2;
      r.n_state = pt.n_state, r.pass = pt.pass, r.cls = pt.cls, r.t_final = pt.t_final;
    }
    if (write_all(fds[1], &r, sizeof r) == 0 && r.status == CS_OK)
      write_all(fds[1], pt.final_state, pt.n_state * sizeof(double));
    _exit(0);
  }
  close(fds[1]);
  double limit = cli_guard_limit(file);
  int timed_out = 0, st = 0, reaped = 0;
  struct point_record r;
  size_t got =
      wait_reading(pid, fds[0], limit, NULL, (char *)&r, sizeof r, &timed_out, &st, &reaped);
  double *state = NULL;
  size_t want = got == sizeof r && r.status == CS_OK && r.n_state <= POINT_MAX_STATES
                    ? r.n_state * sizeof(double)
                    : 0;
  if (want && (state = malloc(want))) {
    /* the point is read: its states follow at once */
    if (wait_reading(pid, fds[0], limit, NULL, (char *)state, want, &timed_out, &st, &reaped) !=
        want) {
      free(state);
      state = NULL;
      got = 0;
    }
  }
  close(fds[0]);
  while (!reaped && waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (timed_out) {
    snprintf(why, cap,
             "%s: reading did not finish within %.0f s and was stopped (libhdf5 loops on some "
             "damaged files: this file is damaged; CONTENSOU_READ_TIMEOUT sets the limit)",
             file, limit);
    return CLI_EXIT_FAILURE;
  }
  if (got < sizeof r || (want && !state)) {
    free(state);
    if (WIFSIGNALED(st))
      snprintf(why, cap,
               "%s: reading the file crashed (signal %d, %s): libhdf5 fails on some damaged "
               "files; this file is damaged",
               file, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
      snprintf(why, cap, "%s: reading the file ended abnormally", file);
    return CLI_EXIT_FAILURE;
  }
  r.message[sizeof r.message - 1] = '\0';
  if (r.status != CS_OK) {
    *status = (enum cs_status)r.status;
    snprintf(why, cap, "%s", r.message);
    return CLI_EXIT_OK;
  }
  r.model[sizeof r.model - 1] = '\0';
  out->model = r.has_model ? strdup(r.model) : NULL;
  out->npoints = r.npoints, out->pass = r.pass, out->index = r.index, out->nparam = r.nparam;
  for (size_t j = 0; j < r.nparam; j++) {
    r.param[j][sizeof r.param[j] - 1] = '\0';
    out->param[j] = strdup(r.param[j]);
    out->value[j] = r.value[j];
  }
  out->n_state = r.n_state, out->final_state = state, out->t_final = r.t_final, out->cls = r.cls;
  if (!state && r.n_state == 0)
    out->final_state = malloc(sizeof(double));
  return CLI_EXIT_OK;
}
