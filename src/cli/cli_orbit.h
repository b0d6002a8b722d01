/* SPDX-License-Identifier: MIT */
/* What `contensou orbit` and `contensou continue` share: the result file's
 * path and picture, multipliers in words. */
#ifndef CS_CLI_ORBIT_H
#define CS_CLI_ORBIT_H

#include <stddef.h>

#include "cli/cli_common.h"
#include "io/config.h"

/* The output path: -o, else [output] file, else output/<name>_<suffix>.h5;
 * its directories are created. 0, or an exit status after a message. */
int cli_orbit_path(const char *cmd, const char *opt, const struct cs_config *cfg,
                   const char *suffix, char *path, size_t len);

/* A multiplier or eigenvalue: "-0.0731825" or "0.191235+-0.623323i". */
void cli_orbit_complex(double re, double im, char *buf, size_t len);

/* Draws the result file with `contensou plot` (prints "output = PICTURE").
 * Returns its exit status. */
int cli_orbit_plot(const struct cli_ctx *ctx, const char *path);

#endif
