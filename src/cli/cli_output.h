/* SPDX-License-Identifier: MIT */
/* Where the verbs that write result files may write, and what they do when
 * the disk fills.
 *
 * A result file replaces only an earlier HDF5 file: an output path naming
 * the parameter file of the run (or any existing file that is not HDF5, a
 * text, a picture) is refused with exit 2 before anything is written; the
 * files are written through the atomic API of io/h5.h (OUT.h5.partial under
 * a lock, renamed over OUT.h5 when complete), so a failure never leaves a
 * truncated OUT.h5.
 *
 * SIGXFSZ (a file-size limit, ulimit -f) is ignored so that a write beyond
 * the limit fails with EFBIG like one on a full disk, and the run ends with
 * its message instead of being killed. */
#ifndef CS_CLI_OUTPUT_H
#define CS_CLI_OUTPUT_H

/* 0 if out may be written; else prints "<cmd>: -o: ..." and returns
 * CLI_EXIT_USAGE. input: the parameter file of the run (or NULL). */
int cli_check_result_path(const char *cmd, const char *out, const char *input);

/* Ignores SIGXFSZ (see above). */
void cli_output_signals(void);

#endif
