/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/point.h. */
#ifndef CS_ANALYSIS_POINT_PRIVATE_H
#define CS_ANALYSIS_POINT_PRIVATE_H

#include "analysis/point.h"
#include "integrate/flow.h"

/* The Kaplan-Yorke (Lyapunov) dimension of a spectrum lambda[0..n)
 * sorted descending: k + (lambda_1 + ... + lambda_k) / |lambda_{k+1}| with k
 * the largest index whose partial sum is >= 0; 0 if lambda_1 < 0, n if
 * every partial sum is >= 0. -INFINITY entries (lost directions) count as
 * contracting infinitely fast. NAN if any entry is NAN. */
double cs_kaplan_yorke(const double *lambda, size_t n);

/* A point's Lyapunov run, split off its analysis so that it can run later,
 * on any thread (the sweep: it starts from the window's end and feeds
 * nothing that follows, whereas the final state, from which the next point
 * of a continuation starts, is taken before it). */
struct cs_point_lyap {
  int pending;                /* 1: the run (and what depends on it) is still to do */
  double t0;                  /* its start: the recording window's end */
  double y[CS_FLOW_MAX_N];    /* the state there */
  double amp[CS_FLOW_MAX_N];  /* the orbit's size per state (the events' record) */
  int state_idx, derived_idx; /* the hyperplane section's variable, -1 if not that kind */
  double level, escape;       /* its level; the escape norm */
  int sec_dir_set, sec_dir;   /* a hyperplane section, and its direction */
};

/* cs_point_analyse, which with defer != NULL leaves out a Lyapunov run it
 * would make: then defer->pending is 1, the class is CS_CLASS_PENDING where
 * the exponent decides it, lyapunov*, spectrum, kaplan_yorke, zero_one and
 * chaos_disagree are as without an exponent, and cs_point_lyap_run
 * completes the result; every other field, the final state and the section
 * rows are final. A point that ends FAILED, ESCAPED, PERIODIC or EQUILIBRIUM
 * keeps that class. */
enum cs_status cs_point_analyse_defer(const struct cs_model *m, const void *params,
                                      const double *y0, const struct cs_point_spec *spec,
                                      struct cs_point_ws *ws, struct cs_point_result *res,
                                      struct cs_point_lyap *defer);

/* Completes a result left by cs_point_analyse_defer (res's section rows,
 * n_section and section_cols as it left them, possibly copied elsewhere),
 * on any workspace and params prepared for the same point (a copy with its
 * own attached resources): the Lyapunov run, the class and the 0-1 test,
 * bit for bit as cs_point_analyse. Its steps and evaluations are added to
 * res's. */
void cs_point_lyap_run(const struct cs_model *m, const void *params,
                       const struct cs_point_spec *spec, struct cs_point_ws *ws,
                       const struct cs_point_lyap *job, struct cs_point_result *res);

#endif
