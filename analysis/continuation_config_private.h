/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/continuation_config.h. */
#ifndef CS_ANALYSIS_CONTINUATION_CONFIG_PRIVATE_H
#define CS_ANALYSIS_CONTINUATION_CONFIG_PRIVATE_H

#include "analysis/continuation_config.h"

/* The keys [continuation] accepts, NULL-terminated (for `contensou keys`). */
const char *const *cs_continue_config_keys(void);

#endif
