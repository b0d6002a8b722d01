/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond analysis/point.h. */
#ifndef CS_ANALYSIS_POINT_PRIVATE_H
#define CS_ANALYSIS_POINT_PRIVATE_H

#include "analysis/point.h"

/* The Kaplan-Yorke (Lyapunov) dimension of a spectrum lambda[0..n)
 * sorted descending: k + (lambda_1 + ... + lambda_k) / |lambda_{k+1}| with k
 * the largest index whose partial sum is >= 0; 0 if lambda_1 < 0, n if
 * every partial sum is >= 0. -INFINITY entries (lost directions) count as
 * contracting infinitely fast. NAN if any entry is NAN. */
double cs_kaplan_yorke(const double *lambda, size_t n);

#endif
