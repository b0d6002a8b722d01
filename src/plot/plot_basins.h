/* SPDX-License-Identifier: MIT */
/* The picture of a basins file (contensou basins): what basins.gp draws. */
#ifndef CS_PLOT_BASINS_H
#define CS_PLOT_BASINS_H

#include <stdio.h>

#include "core/status.h"
#include "plot/plot_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if the file at path is a basins file (root attribute kind = "basins"). */
int cs_plot_is_basins(const char *path);

/* Block 0: one row "x y id" per cell (a grid: rows of constant y separated
 * by blank lines, for gnuplot's image; a sample: the first two states),
 * block 1: the attractors' points "x y id" in the same two states (angles
 * wrapped), where they lie in the plane. Variables: xname, xunit, yname,
 * yunit, nattr, lab_<i> (id, class, period, period time, fraction), cls_<i>,
 * model, file, grid (1 | 0), sensitivity; script basins.gp. */
enum cs_status cs_plot_basins(const char *path, const struct cs_plot_request *rq, FILE *out,
                              struct cs_plot_vars *v);

/* 1 if the file at path is a basins-along file (contensou basins with [sweep]). */
int cs_plot_is_basins_along(const char *path);

/* Block 0: one row per parameter value "p f_0 ... f_{T-1} n_attractors", the
 * fractions of the followed attractors. Variables: par, par_unit, ntrack,
 * lab_<i> (id, class, period), model, file; script basins_along.gp (the
 * fractions as stacked areas over the multistability, attractors per value).
 * A plane of two parameters (root attribute dimensions = 2): block 0, rows
 * "p1 p2 attractors failed" per cell, rows of constant p2 separated by blank
 * lines; variables par, par_unit, par2, par2_unit, mincount, maxcount, failing, model,
 * file; script basins_plane.gp (the multistability map). */
enum cs_status cs_plot_basins_along(const char *path, const struct cs_plot_request *rq, FILE *out,
                                    struct cs_plot_vars *v);

#ifdef __cplusplus
}
#endif

#endif
