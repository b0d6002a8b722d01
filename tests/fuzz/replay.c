/* SPDX-License-Identifier: MIT */
/* The fuzzing corpus and every crash input found, replayed as a regression
 * test by a plain program (built in every build, run by CTest):
 *
 *   cs_fuzz_replay DIR...
 *
 * DIR/config/ holds parameter-file inputs, DIR/results/ result-file inputs
 * (info and plot each), every other file of DIR is taken by its name:
 * "config-*" or anything else as a result file. Each input runs in a child
 * process, so that one failure does not hide the others; the child must end
 * with exit 0, 1 or 2. Inputs under a directory named "hdf5" are files on
 * which libhdf5 itself crashes or loops: run in this process they would take
 * it down, so they go through the command line's guard (cli_guard.h), which
 * must turn them into exit 1. Prints one line per failure and a summary;
 * exit status 0 when every input passed. */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_guard.h"
#include "harness.h"

struct input {
  const uint8_t *data;
  size_t size;
  int kind; /* 0 config, 1 info, 2 plot */
};

static int run_input(struct cli_guard *g, void *ctx)
{
  const struct input *in = ctx;
  int rc = in->kind == 0   ? cs_fuzz_config(in->data, in->size)
           : in->kind == 1 ? cs_fuzz_info(in->data, in->size)
                           : cs_fuzz_plot(in->data, in->size);
  cli_guard_reading_done(g);
  return rc;
}

/* 1 if the input passed. */
static int replay(const char *path, int kind, int guarded, FILE *report)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(report, "FAIL %s: cannot read: %s\n", path, strerror(errno));
    return 0;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
  size_t got = data && n > 0 ? fread(data, 1, (size_t)n, f) : 0;
  fclose(f);
  struct input in = {data, got, kind};
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(120); /* a hang is a failure, not a stuck test */
    if (guarded) {
      setenv("CONTENSOU_GUARD", "1", 1);
      setenv("CONTENSOU_READ_TIMEOUT", "3", 1);
      _exit(cli_guard_run("replay", path, run_input, &in));
    }
    _exit(run_input(NULL, &in));
  }
  int status = 0;
  while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  free(data);
  static const char *const kinds[] = {"config", "info", "plot"};
  if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) > 2) {
    fprintf(report, "FAIL %s (%s): %s %d\n", path, kinds[kind],
            pid < 0               ? "cannot fork"
            : WIFSIGNALED(status) ? "killed by signal"
                                  : "exit status",
            WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    return 0;
  }
  return 1;
}

static void walk(const char *dir, int kind, int guarded, FILE *report, int *runs, int *fails)
{
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat sb;
    if (stat(path, &sb) != 0)
      continue;
    if (S_ISDIR(sb.st_mode)) {
      int k = strcmp(e->d_name, "config") == 0 ? 0 : strcmp(e->d_name, "results") == 0 ? 1 : kind;
      walk(path, k, guarded || strcmp(e->d_name, "hdf5") == 0, report, runs, fails);
      continue;
    }
    int k = kind >= 0 ? kind : strncmp(e->d_name, "config", 6) == 0 ? 0 : 1;
    for (int v = k; v <= (k == 0 ? 0 : 2); v++) {
      (*runs)++;
      *fails += !replay(path, v, guarded, report);
    }
  }
  closedir(d);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: cs_fuzz_replay DIR...\n");
    return 2;
  }
  FILE *report = fdopen(dup(STDOUT_FILENO), "w");
  if (!report)
    return 1;
  cs_fuzz_init(1);
  int runs = 0, fails = 0;
  for (int i = 1; i < argc; i++) {
    const char *base = strrchr(argv[i], '/');
    walk(argv[i], -1, strcmp(base ? base + 1 : argv[i], "hdf5") == 0, report, &runs, &fails);
  }
  fprintf(report, "replayed %d inputs: %d failed\n", runs, fails);
  fclose(report);
  return fails || runs == 0 ? 1 : 0;
}
