/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/basins.h. */
#ifndef CS_ANALYSIS_BASINS_PRIVATE_H
#define CS_ANALYSIS_BASINS_PRIVATE_H

#include "analysis/basins.h"

/* Sets spec->scale: the width of the box for the states it spans (x and y
 * of a grid; every state of a sample), else max(|y0_i|, atol_i / rtol) (the
 * size below which the integrator controls the state absolutely). Called by
 * cs_basins_spec_from_config; a spec built in code calls it once its box and
 * solver are set. */
void cs_basins_spec_scales(struct cs_basins_spec *spec, const struct cs_model *m, const double *y0);

/* The keys of [basins], NULL-terminated (contensou keys, completion). */
const char *const *cs_basins_config_keys(void);

size_t cs_basins_ncells(const struct cs_basins_spec *spec);

/* The initial state of cell k (n_state values); y0 gives the states not set
 * by the grid. For samples, cs_basins_samples draws them all. */
void cs_basins_cell_state(const struct cs_basins_spec *spec, const double *y0, size_t k, double *y);

/* The spec's refusals for model m (cs_basins_run's), the reason in cs_errmsg(). */
enum cs_status cs_basins_spec_check(const struct cs_model *m, const struct cs_basins_spec *spec);

/* Runs work unit index (its cells in order, its own catalogue) into *u, on a
 * workspace of its own: the result depends on the unit alone (basins.h).
 * params: prepared params of m. CS_ERR_INTERRUPTED once *stop is nonzero
 * (set by another thread); free u with cs_basins_unit_free(u, 0) whatever
 * the status. */
enum cs_status cs_basins_unit_run(const struct cs_model *m, const void *params, const double *y0,
                                  const struct cs_basins_spec *spec, size_t index,
                                  const volatile int *stop, struct cs_basins_unit *u);

void cs_basins_unit_free(struct cs_basins_unit *u, int free_struct);

/* A deep copy of u (n_state: the model's) into *out (malloc'ed). */
enum cs_status cs_basins_unit_clone(const struct cs_basins_unit *u, size_t n_state,
                                    struct cs_basins_unit **out);

/* Merges units (n_units of them, any order; missing ones leave their cells
 * pending) into res: canonical ids, counts, sensitivity. */
enum cs_status cs_basins_merge(const struct cs_model *m, const struct cs_basins_spec *spec,
                               const struct cs_basins_unit *const *units, size_t n_units,
                               struct cs_basins_result *res);

/* Whether two attractors are the same (the identity of basins.c). */
int cs_basins_same(const struct cs_model *m, const struct cs_basins_spec *spec,
                   const struct cs_basins_attractor *a, const struct cs_basins_attractor *b);

/* Everything in memory: run and merge (for programs and tests). */
enum cs_status cs_basins_compute(const struct cs_model *m, const void *params, const double *y0,
                                 const struct cs_basins_spec *spec, struct cs_basins_result *res);

#endif
