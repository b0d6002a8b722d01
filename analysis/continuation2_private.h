/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what the curve
 * files share beyond analysis/continuation2.h. */
#ifndef CS_ANALYSIS_CONTINUATION2_PRIVATE_H
#define CS_ANALYSIS_CONTINUATION2_PRIVATE_H

#include "analysis/continuation2.h"

/* cs_continue_curve for CS_CURVE_GRAZING (analysis/continuation2_graze.c):
 * sp a grazing point of a cycle branch of an event-driven autonomous model;
 * the same arguments, statuses and result. */
enum cs_status cs_graze_curve(struct cs_orbit_ws *ws, const void *params_unprepared,
                              const struct cs_curve_spec *spec, const struct cs_special *sp,
                              struct cs_curve *out);

/* One direction's points and special points, in the order met. */
struct cs_curve_half {
  size_t n, cap;
  struct cs_curve_point *pt;
  size_t ns, caps;
  struct cs_curve_special *sp;
  char end[280];
  int ok;
};

/* Appends q to h's points (grown as needed). */
enum cs_status cs_curve_half_point(struct cs_curve_half *h, const struct cs_curve_point *q);

#endif
