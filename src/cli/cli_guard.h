/* SPDX-License-Identifier: MIT */
/* Reading a result file in a child process: the verbs that only read (info,
 * plot) run there whole; sweep --resume verifies its file there before it
 * reads it itself (cli_guard_check), continue reads its start point of a
 * sweep file there (cli_guard_sweep_point). Every reader of a file runs
 * under this guard.
 *
 * Why: contensou checks what it reads (io/h5.h), but libhdf5 itself crashes
 * or loops on some damaged metadata before anything is handed back: a
 * flipped bit in a global heap collection (where variable-length strings
 * live, unprotected by checksums in every HDF5 file format) makes H5HG_read
 * copy out of bounds or spin. Such a crash cannot be caught in the process
 * that suffers it, so the verb runs in a child: a crash becomes exit 1 with
 * a message naming the file, and a read that does not end within a time
 * limit is killed. Nothing is written while reading, so nothing can be lost.
 *
 * The time limit covers the reading only: the child reports when it has
 * closed the file (cli_guard_reading_done), after which it runs as long as
 * it needs (gnuplot has its own limit). The limit is 5 s plus the file's
 * size at 50 MB/s (a file of kilobytes reads in milliseconds: a damaged one
 * is refused in seconds), or CONTENSOU_READ_TIMEOUT seconds when that is set.
 * CONTENSOU_GUARD=0 runs in the process itself (for a debugger). The child
 * stays in the caller's process group (Ctrl-C reaches it) and dies with its
 * parent. */
#ifndef CS_CLI_GUARD_H
#define CS_CLI_GUARD_H

#include <signal.h>
#include <stddef.h>

#include "core/status.h"
#include "results/read.h"

#define CLI_GUARD_BASE_S 5.0       /* seconds of every read limit */
#define CLI_GUARD_BYTES_PER_S 50e6 /* and the file's size at this rate */

/* The read limit for file, in seconds (CONTENSOU_READ_TIMEOUT, else the
 * rule above). */
double cli_guard_limit(const char *file);

/* The child's side; NULL when the verb runs unguarded. */
struct cli_guard;

/* Runs fn(guard, ctx) in a child and returns its exit code; a child killed
 * by a signal or the time limit gives CLI_EXIT_FAILURE after a message
 * "<cmd>: <file>: ...". When the child cannot be started, fn runs here. */
int cli_guard_run(const char *cmd, const char *file, int (*fn)(struct cli_guard *g, void *ctx),
                  void *ctx);

/* Called by fn once the file is closed: the read time limit no longer
 * applies. g may be NULL. */
void cli_guard_reading_done(struct cli_guard *g);

/* The checks of `info --check`, in this process: the file's kind, every
 * dataset read whole (HDF5 verifies each chunk's Fletcher32 checksum), a
 * sweep also as `plot` reads it, and the values checksum of everything else
 * (cs_result_verify_values). CS_OK or the failure (cs_errmsg()). */
struct cli_check {
  enum cs_result_kind kind;
  int kind_read; /* the kind was read: a failure after it is damage */
  size_t tables; /* tables and text lists read whole */
  int sealed;    /* 1: values_crc32 verified; 0: the file has none */
  size_t values; /* attributes and datasets it covers */
};
enum cs_status cli_check_file(const char *file, struct cli_check *out);

/* 1 if file starts with HDF5's signature (its first 4 bytes, at 0, 512,
 * 1024 ...): a file whose kind cannot be read is then damaged (exit 1), not
 * "not a result file" (exit 2). Reads bytes only, no HDF5. */
int cli_has_hdf5_signature(const char *file);

/* cli_check_file in a child under the read limit (for a verb that writes
 * afterwards, e.g. sweep --resume, which must not read a damaged file in its
 * own process). Returns CLI_EXIT_OK (out filled), CLI_EXIT_USAGE (no such
 * file, not a result file) or CLI_EXIT_FAILURE (damaged: crashed, stopped
 * at the limit, a checksum failed) with the reason in why; 128 + signal when
 * stop (may be NULL) was set by a signal meanwhile (the child is killed). */
int cli_guard_check(const char *file, struct cli_check *out, volatile sig_atomic_t *stop, char *why,
                    size_t cap);

/* cs_read_sweep_point in a child under the read limit (continue's start =
 * sweep:FILE:PASS:INDEX). CLI_EXIT_OK with *status the reader's status (its
 * message in why when not CS_OK, out filled when CS_OK: free it with
 * cs_sweep_point_file_free), or CLI_EXIT_FAILURE with why when libhdf5
 * crashed or did not finish (a damaged file). */
int cli_guard_sweep_point(const char *file, int pass, size_t index, struct cs_sweep_point_file *out,
                          enum cs_status *status, char *why, size_t cap);

#endif
