/* SPDX-License-Identifier: MIT */
/* Reading a result file in a child process, for the verbs that only read
 * (info, plot).
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
 * it needs (gnuplot has its own limit). The limit is 120 s plus 1 s per
 * 32 MiB of the file, or CONTENSOU_READ_TIMEOUT seconds when that is set.
 * CONTENSOU_GUARD=0 runs in the process itself (for a debugger). The child
 * stays in the caller's process group (Ctrl-C reaches it) and dies with its
 * parent. */
#ifndef CS_CLI_GUARD_H
#define CS_CLI_GUARD_H

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

#endif
