/* SPDX-License-Identifier: MIT */
#include "core/status.h"

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
