/* SPDX-License-Identifier: MIT */
/* Where the verbs that write result files may write, and what they do when
 * the disk fills.
 *
 * A result file replaces only an earlier HDF5 file (a sweep not even that:
 * cli_sweep.c): an output path naming the parameter file of the run (or any
 * existing file that is not HDF5, a text, a picture), a path longer than the
 * system takes, or a name ending in one contensou derives from another
 * output (.partial, .tmp, .lock) is refused with exit 2 before anything is
 * written; the
 * files are written through the atomic API of io/h5.h (OUT.h5.partial under
 * a lock, renamed over OUT.h5 when complete), so a failure never leaves a
 * truncated OUT.h5.
 *
 * SIGXFSZ (a file-size limit, ulimit -f) is ignored so that a write beyond
 * the limit fails with EFBIG like one on a full disk, and the run ends with
 * its message instead of being killed. */
#ifndef CS_CLI_OUTPUT_H
#define CS_CLI_OUTPUT_H

#include <stddef.h>

/* 0 if out may be written; else prints "<cmd>: -o: ..." and returns
 * CLI_EXIT_USAGE. input: the parameter file of the run (or NULL). */
int cli_check_result_path(const char *cmd, const char *out, const char *input);

/* 0 if out may be a new result file: refuses (exit 2, printed) a path
 * longer than the system takes (PATH_MAX), and a name that ends in a suffix
 * contensou derives from another output (.partial, .tmp, .lock: that name
 * belongs to the run writing the shorter one). what: "-o" or "--resume". */
int cli_check_output_name(const char *cmd, const char *what, const char *out);

/* A path built like printf, allocated (never cut): NULL when out of memory. */
char *cli_path_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Bytes free for an unprivileged writer on the file system that holds path
 * (its directory, or its nearest existing parent); INFINITY if unknown. */
double cli_disk_free(const char *path);

/* Bytes of physical memory of the machine; INFINITY if unknown. */
double cli_memory_total(void);

/* "1.5 GB", "320 MB", "12 kB", "512 bytes" (buf of 32 bytes at least). */
const char *cli_bytes(double bytes, char *buf, size_t cap);

/* Ignores SIGXFSZ (see above). */
void cli_output_signals(void);

#endif
