/* SPDX-License-Identifier: MIT */
/* The verbs of the command line, one file each. argv[0] is the verb's name. */
#ifndef CS_CLI_VERBS_H
#define CS_CLI_VERBS_H

#include "cli/cli_common.h"

/* contensou basins FILE.ini (cli_basins.c) */
int cli_basins(const struct cli_ctx *ctx, int argc, char **argv);

/* contensou continue FILE.ini (cli_continue.c) */
int cli_continue(const struct cli_ctx *ctx, int argc, char **argv);

int cli_eps_study(const struct cli_ctx *ctx, int argc, char **argv); /* cli_eps_study.c */
/* contensou friction eta|eval|fit (cli_friction.c) */
int cli_friction(const struct cli_ctx *ctx, int argc, char **argv);
int cli_info(const struct cli_ctx *ctx, int argc, char **argv); /* contensou info (cli_info.c) */

/* contensou keys [--model NAME], hidden: the --set keys (cli_keys.c) */
int cli_keys(const struct cli_ctx *ctx, int argc, char **argv);

/* contensou orbit FILE.ini (cli_orbit.c) */
int cli_orbit(const struct cli_ctx *ctx, int argc, char **argv);

/* contensou plot FILE.h5 (cli_plot.c) */
int cli_plot(const struct cli_ctx *ctx, int argc, char **argv);

/* contensou simulate FILE.ini (cli_simulate.c) */
int cli_simulate(const struct cli_ctx *ctx, int argc, char **argv);

/* contensou sweep FILE.ini (cli_sweep.c) */
int cli_sweep(const struct cli_ctx *ctx, int argc, char **argv);

#endif
