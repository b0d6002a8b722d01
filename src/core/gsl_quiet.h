/* SPDX-License-Identifier: MIT */
#ifndef CS_GSL_QUIET_H
#define CS_GSL_QUIET_H

/* GSL's default error handler aborts the process; the library reports errors
 * through status codes instead. The handler is one process-wide setting, so it
 * is switched off once (thread-safe) by every entry point that calls GSL, and
 * never restored: saving and restoring it per call would race between threads. */
void cs_gsl_quiet(void);

#endif
