/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* setenv, memmem */

#include "harness.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "results/read.h"
#include "sweep/sweep.h"

/* The scratch files of this process. */
struct scratch {
  char dir[200], ini[256], h5[256], out[256];
};

static struct scratch *scratch(void)
{
  static struct scratch s; /* set once by cs_fuzz_init, read-only afterwards */
  return &s;
}

void cs_fuzz_init(int quiet)
{
  struct scratch *s = scratch();
  const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(s->dir, sizeof s->dir, "%s/cs_fuzz_%d", base, (int)getpid());
  mkdir(s->dir, 0700);
  snprintf(s->ini, sizeof s->ini, "%.190s/in.ini", s->dir);
  snprintf(s->h5, sizeof s->h5, "%.190s/in.h5", s->dir);
  snprintf(s->out, sizeof s->out, "%.190s/out.png", s->dir);
  setenv("CONTENSOU_GUARD", "0", 1);
  setenv("TMPDIR", s->dir, 1);
  setenv("PATH", "/nonexistent", 1); /* no gnuplot */
  int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    if (quiet)
      dup2(null, STDERR_FILENO);
    close(null);
  }
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
  FILE *f = fopen(path, "wb");
  if (!f)
    return 0;
  size_t n = size ? fwrite(data, 1, size, f) : 0;
  return fclose(f) == 0 && n == size;
}

/* Nothing of HDF5 may stay open between inputs. */
static void check_closed(void)
{
  ssize_t n = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
  if (n > 0) {
    fprintf(stderr, "harness: %zd HDF5 objects left open\n", n);
    abort();
  }
}

#define MAX_SETS 16

int cs_fuzz_config(const uint8_t *data, size_t size)
{
  static const char sep[] = "\0--set\0";
  const uint8_t *cut = memmem(data, size, sep, sizeof sep - 1);
  size_t flen = cut ? (size_t)(cut - data) : size;
  if (!write_file(scratch()->ini, data, flen))
    return CLI_EXIT_FAILURE;
  char *rest = NULL, *sets[MAX_SETS];
  size_t nset = 0;
  if (cut) {
    size_t rlen = size - flen - (sizeof sep - 1);
    rest = malloc(rlen + 1);
    if (!rest)
      return CLI_EXIT_FAILURE;
    memcpy(rest, cut + sizeof sep - 1, rlen);
    rest[rlen] = '\0'; /* an override is a C string, like argv */
    for (char *p = rest, *nl; p && nset < MAX_SETS; p = nl) {
      nl = strchr(p, '\n');
      if (nl)
        *nl++ = '\0';
      sets[nset++] = p;
    }
  }
  struct cs_config cfg;
  cs_error_clear(); /* a refusal must say why, not repeat an earlier input's reason */
  enum cs_status st = cs_config_load(scratch()->ini, (const char *const *)sets, nset, &cfg);
  int rc = st == CS_OK ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  if (st != CS_OK && (strlen(cs_errmsg()) == 0 || strchr(cs_errmsg(), '\n'))) {
    fprintf(stderr, "harness: status %d with message '%s'\n", st, cs_errmsg());
    abort(); /* every refusal is one line that says why */
  }
  if (st == CS_OK && cfg.n_raw > 0) {
    struct cs_sweep_spec spec;
    if (cs_sweep_spec_from_config(&cfg, &spec) != CS_OK)
      rc = CLI_EXIT_USAGE;
  }
  if (st == CS_OK)
    cs_config_free(&cfg);
  free(rest);
  return rc;
}

/* Runs contensou <verb> with args on the input written to the scratch file. */
static int run_verb(int (*verb)(const struct cli_ctx *, int, char **), char **argv, int argc,
                    const uint8_t *data, size_t size)
{
  if (!write_file(scratch()->h5, data, size))
    return CLI_EXIT_FAILURE;
  struct cli_ctx ctx = {argc, argv};
  int rc = verb(&ctx, argc, argv);
  fflush(NULL);
  check_closed();
  unlink(scratch()->out);
  return rc;
}

/* The public reader of the file's kind (results/read.h) with everything
 * it can read (sweeps: the section rows info skips), and, for inputs of odd
 * size, the whole-file reader: each must refuse damage without a crash or a
 * leak. (Every reader on every input ran 10 times slower.) */
static void read_all(const char *path, int whole)
{
  enum cs_result_kind kind;
  if (cs_result_kind(path, &kind) != CS_OK)
    return;
  if (whole || kind == CS_RESULT_UNKNOWN) {
    struct cs_result_file f;
    cs_read_result(path, &f);
    cs_result_file_free(&f);
  }
  if (kind == CS_RESULT_SWEEP) {
    struct cs_sweep_file s;
    cs_read_sweep(path, 0, &s);
    cs_sweep_file_free(&s);
  } else if (kind == CS_RESULT_TRAJECTORY) {
    struct cs_trajectory_file t;
    cs_read_trajectory(path, 0, SIZE_MAX, &t);
    cs_trajectory_file_free(&t);
  } else if (kind == CS_RESULT_FIT) {
    struct cs_fit_file fit;
    cs_read_fit(path, &fit);
    cs_fit_file_free(&fit);
  } else if (kind == CS_RESULT_EPS_STUDY) {
    struct cs_eps_study_file e;
    cs_read_eps_study(path, &e);
    cs_eps_study_file_free(&e);
  } else if (kind == CS_RESULT_ORBIT) {
    struct cs_orbit_file o;
    cs_read_orbit(path, &o);
    cs_orbit_file_free(&o);
  } else if (kind == CS_RESULT_CONTINUATION) {
    struct cs_continuation_file c;
    cs_read_continuation(path, &c);
    cs_continuation_file_free(&c);
  }
}

int cs_fuzz_info(const uint8_t *data, size_t size)
{
  char *argv[] = {"info", scratch()->h5, NULL};
  int rc = run_verb(cli_info, argv, 2, data, size);
  read_all(scratch()->h5, (int)(size % 2));
  check_closed();
  return rc;
}

int cs_fuzz_plot(const uint8_t *data, size_t size)
{
  char *argv[] = {"plot", scratch()->h5, "-o", scratch()->out, NULL};
  char *argv_point[] = {"plot", scratch()->h5, "--point", "1", "-o", scratch()->out, NULL};
  if (size % 2)
    return run_verb(cli_plot, argv_point, 6, data, size);
  return run_verb(cli_plot, argv, 4, data, size);
}
