/* SPDX-License-Identifier: MIT */
#include "core/status.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/error_private.h"

const char *cs_strerror(enum cs_status status)
{
  static const char *const messages[] = {
#define CS_STATUS_MSG(name, msg) msg,
      CS_STATUS_LIST(CS_STATUS_MSG)
#undef CS_STATUS_MSG
  };
  if ((int)status < 0 || status >= CS_STATUS_COUNT)
    return "unknown status";
  return messages[status];
}

/* The last failure's reason: per thread, so it is no shared mutable state. */
static _Thread_local char last[CS_ERROR_LEN];

const char *cs_errmsg(void)
{
  return last;
}

void cs_error_clear(void)
{
  last[0] = '\0';
}

char *cs_error_i_buffer(void)
{
  return last;
}

/* one line: HDF5's own messages carry newlines (the time of a failed write),
 * names from a file may carry control characters */
static void one_line(char *s)
{
  for (char *c = s; *c; c++)
    if ((unsigned char)*c < 0x20 || *c == 0x7F)
      *c = ' ';
}

enum cs_status cs_error_vset(enum cs_status status, const char *fmt, va_list ap)
{
  char tmp[CS_ERROR_LEN]; /* the arguments may point into last */
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  snprintf(last, sizeof last, "%s", tmp);
  one_line(last);
  return status;
}

enum cs_status cs_error_set(enum cs_status status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  cs_error_vset(status, fmt, ap);
  va_end(ap);
  return status;
}

int cs_error_fill(char *msg, size_t cap, const char *fmt, ...)
{
  char tmp[CS_ERROR_LEN];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  /* both copies from tmp: the arguments may point into last or msg */
  if (msg && cap > 0)
    snprintf(msg, cap, "%s", tmp);
  snprintf(last, sizeof last, "%s", tmp);
  one_line(last);
  return n;
}
