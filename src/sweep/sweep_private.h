/* SPDX-License-Identifier: MIT */
/* Parts of the sweep driver that the library's files and the command line
 * share, not installed: the memory a sweep needs (its size check) and the
 * change detection (tested on its own). */
#ifndef CS_SWEEP_PRIVATE_H
#define CS_SWEEP_PRIVATE_H

#include "sweep/sweep.h"

/* Bytes of memory a sweep of spec keeps for its whole run, besides the
 * threads' working memory: per point and pass a small record (1-D sweeps:
 * also the final state, for refinement) and the work units. */
double cs_sweep_memory_estimate(const struct cs_model *m, const struct cs_sweep_spec *spec);

/* Detects the changes between neighbours of one pass's records (1-D). */
size_t cs_sweep_detect(const struct cs_sweep_spec *spec, int pass,
                       const struct cs_sweep_record *rec, struct cs_bifurcation *out,
                       size_t max_out);

#endif
