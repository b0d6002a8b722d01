/* SPDX-License-Identifier: MIT */
#include "cli/cli_output.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "io/h5.h"

/* 1 if path starts with the HDF5 signature (superblock at offset 0, the
 * only place our files and h5py's put it). */
static int is_hdf5(const char *path)
{
  unsigned char head[8];
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return 0;
  size_t n = fread(head, 1, sizeof head, fp);
  fclose(fp);
  return n == 8 && memcmp(head, "\x89HDF\r\n\x1a\n", 8) == 0;
}

int cli_check_result_path(const char *cmd, const char *out, const char *input)
{
  struct stat so, si;
  if (cli_check_output_name(cmd, "-o", out) != 0)
    return CLI_EXIT_USAGE;
  if (stat(out, &so) != 0)
    return 0; /* a new file */
  if (input && stat(input, &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino)
    return cli_usage(cmd, "-o: '%s' is the parameter file of the run (accepted: another file)",
                     out);
  if (S_ISDIR(so.st_mode))
    return cli_usage(cmd, "-o: '%s' is a directory (accepted: a file name)", out);
  if (so.st_size > 0 && !is_hdf5(out))
    return cli_usage(cmd,
                     "-o: '%s' exists and is not an HDF5 file: not overwritten (accepted: a new "
                     "file, or an earlier result file)",
                     out);
  return 0;
}

int cli_check_output_name(const char *cmd, const char *what, const char *out)
{
  /* the system refuses longer paths (ENAMETOOLONG): say so before any work */
  if (strlen(out) >= PATH_MAX)
    return cli_usage(cmd, "%s: a path of %zu characters (accepted: at most %d, the system's limit)",
                     what, strlen(out), PATH_MAX - 1);
  const char *derived = cs_h5_derived_suffix(out);
  if (derived)
    return cli_usage(cmd,
                     "%s: '%s' ends in '%s', a name contensou gives its own files beside an "
                     "output (accepted: a name not ending in .partial, .tmp or .lock)",
                     what, out, derived);
  return 0;
}

char *cli_path_printf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    return NULL;
  char *s = malloc((size_t)n + 1);
  if (!s)
    return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

double cli_disk_free(const char *path)
{
  char *dir = cli_path_printf("%s", path);
  double left = INFINITY;
  while (dir) {
    char *slash = strrchr(dir, '/');
    if (!slash) {
      strcpy(dir, ".");
    } else if (slash == dir) {
      slash[1] = '\0';
    } else {
      *slash = '\0';
    }
    struct statvfs vs;
    if (statvfs(dir, &vs) == 0) {
      left = (double)vs.f_bavail * (double)vs.f_frsize;
      break;
    }
    if (strcmp(dir, ".") == 0 || strcmp(dir, "/") == 0)
      break;
  }
  free(dir);
  return left;
}

double cli_memory_total(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? (double)pages * (double)size : INFINITY;
}

const char *cli_bytes(double bytes, char *buf, size_t cap)
{
  static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1000 && u < 5)
    bytes /= 1000, u++;
  snprintf(buf, cap, u ? "%.3g %s" : "%.0f %s", bytes, units[u]);
  return buf;
}

void cli_output_signals(void)
{
  signal(SIGXFSZ, SIG_IGN);
}
