/* SPDX-License-Identifier: MIT */
/* How the library records the reason of a failure for cs_errmsg() (see
 * core/status.h); not installed. Every layer may include it. */
#ifndef CS_ERROR_PRIVATE_H
#define CS_ERROR_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>

#include "core/status.h"

/* Records the one-line reason (printf format; control characters become
 * spaces) as this thread's last error and returns status unchanged. */
enum cs_status cs_error_set(enum cs_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
enum cs_status cs_error_vset(enum cs_status status, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* A failure without a more specific reason: "<function>: <status message>". */
#define CS_FAIL(st) cs_error_set((st), "%s: %s", __func__, cs_strerror(st))
/* snprintf into a buffer of the library's own (msg may be NULL when cap is
 * 0: a workspace's last message, a result's note) that also records the
 * text as this thread's last error. Returns what snprintf returns. */
int cs_error_fill(char *msg, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The thread's message buffer itself (CS_ERROR_LEN bytes), for the HDF5
 * layer's "was a reason recorded" checks. */
#define CS_ERROR_LEN 1024
char *cs_error_i_buffer(void);

#endif
