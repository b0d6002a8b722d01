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

/* Seconds allowed for reading file. */
static double read_limit(const char *file)
{
  const char *env = getenv("CONTENSOU_READ_TIMEOUT");
  double v;
  if (env && cli_parse_number(env, &v) && v > 0)
    return v;
  struct stat sb;
  double mib = stat(file, &sb) == 0 ? (double)sb.st_size / 1048576.0 : 0.0;
  return 120.0 + mib / 32.0;
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
  double limit = read_limit(file), t0 = cli_clock();
  int reading = 1, done = 0, timed_out = 0, status = 0;
  while (reading) {
    double left = limit - (cli_clock() - t0);
    if (left <= 0) {
      timed_out = 1;
      kill(pid, SIGKILL);
      break;
    }
    struct pollfd p = {.fd = fds[0], .events = POLLIN};
    int n = poll(&p, 1, left > 1e6 ? 1000000000 : (int)(left * 1000) + 1);
    if (n < 0 && errno != EINTR)
      break;
    if (n > 0) {
      char c;
      ssize_t k = read(fds[0], &c, 1);
      if (k < 0 && errno == EINTR)
        continue;
      reading = 0; /* 'R', or the child ended (end of file) */
      done = k == 1;
    }
  }
  close(fds[0]);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
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
