/* SPDX-License-Identifier: MIT */
/* A two-parameter curve in a continuation file (contensou continue with
 * parameter2), beside the one-parameter branch it started from:
 *   /curve          one row per point (a group of typed columns): the two
 *                   parameters, period (cycles), omega (Hopf), the two test
 *                   functions (named by the curve's kind), l1_err,
 *                   n_unstable, iterations, ds, the state, the eigenvalues or
 *                   nontrivial multipliers; attributes kind, parameter,
 *                   parameter2 (+ _unit), the box, start_row, end,
 *                   evaluations, newton_iterations, cpu_seconds,
 *                   layout_version (1)
 *   /curve_special  the codimension-two, user, start and end points (kind:
 *                   index into its kind_names), /curve_special_notes a note
 *                   per row. */
#ifndef CS_ANALYSIS_CONTINUATION2_H5_H
#define CS_ANALYSIS_CONTINUATION2_H5_H

#include "analysis/continuation2.h"
#include "io/run_h5.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2: the Hopf curve's frequency column is omega_critical (was omega);
 * 3: cycle curves' test columns flip_test, cusp_test (fold of cycles) and
 * fold_test (period doubling), were test1, test2; a forced model's cycle
 * curve has n multiplier columns (no trivial multiplier); the
 * Neimark-Sacker curve (new in the same version) has kappa, theta */
#define CS_CURVE_LAYOUT_VERSION 3

/* What cs_curve_h5_add writes. */
struct cs_curve_h5 {
  const struct cs_model *m;
  int param1, param2;
  const struct cs_curve_spec *spec;
  const struct cs_curve *curve;
  double cpu_seconds;
};

/* Writes /curve, /curve_special (and its notes) with w (a hook of
 * cs_branch_h5_write_with; ctx a struct cs_curve_h5). */
void cs_curve_h5_add(struct cs_writer *w, const void *ctx);

/* The names of a curve kind's two test functions. */
void cs_curve_test_names(enum cs_curve_kind k, const char **t1, const char **t2);

#ifdef __cplusplus
}
#endif

#endif
