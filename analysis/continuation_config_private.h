/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/continuation_config.h. */
#ifndef CS_ANALYSIS_CONTINUATION_CONFIG_PRIVATE_H
#define CS_ANALYSIS_CONTINUATION_CONFIG_PRIVATE_H

#include "analysis/continuation_config.h"

/* The keys [continuation] accepts, NULL-terminated (for `contensou keys`). */
const char *const *cs_continue_config_keys(void);

/* The value of `start` that names s ("state", "hopf", "sweep", "fold",
 * "period-doubling", "branch", "neimark-sacker"). */
const char *cs_continue_from_name(enum cs_continue_from s);

#endif
