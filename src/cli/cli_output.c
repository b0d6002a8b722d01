/* SPDX-License-Identifier: MIT */
#include "cli/cli_output.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_common.h"

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

void cli_output_signals(void)
{
  signal(SIGXFSZ, SIG_IGN);
}
