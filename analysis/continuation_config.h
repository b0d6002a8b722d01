/* SPDX-License-Identifier: MIT */
/* The [continuation] section of a parameter file -> what to continue, from
 * where, and how (struct cs_continue_spec), with the loader's error format
 * ("file:line: key: what is wrong (accepted: ...)"). The loader keeps the
 * section's keys raw (src/io/config.h); this is their only reader, used by
 * `contensou continue` and `contensou orbit`.
 *
 *   [continuation]
 *   branch          cycles (default) | equilibria
 *   parameter       the continued parameter, any model parameter (required for continue)
 *   min, max        the branch's range of it (required for continue)
 *   at              its value at the start (default: the [parameters] value)
 *   start           state (default) | hopf | sweep:FILE.h5:INDEX[:forward|backward]
 *                   state: the orbit through the state reached from [initial]
 *                   after `transient`; hopf: the equilibrium from [initial] at `at`
 *                   continued in `direction` to its first Hopf point, the cycles
 *                   from there; sweep: a point of a sweep file (its final state)
 *   direction       forward (default: towards increasing parameter) | backward
 *   transient       time integrated before the orbit is sought (default: [output]
 *                   t_end if given, else 0), model time unit
 *   returns         section returns (autonomous) or forcing periods (forced) per
 *                   period (default 1)
 *   points          branch points at most (default 200)
 *   ds, ds_min, ds_max   scaled arclength steps (defaults 0.01, 1e-8, 0.2)
 *   step_max        largest parameter change per step (parameter unit, 0: none)
 *   newton_tol      accepted Newton correction in solver tolerance units (10)
 *   max_iter        corrector iterations per step (8)
 *   locate          true (default) | false: detect and locate special points
 *   locate_tol      their parameter tolerance (0: 1e-9 (max - min))
 *   period_doubling stay (default) | switch: go on along the doubled cycle
 *   period_max      end the branch when the period exceeds this (0: 100 x first)
 *   stop            end the branch at special points (AUTO's STOP): a list of
 *                   KIND or KIND:N (the N-th located of that kind, default 1),
 *                   separated by commas or spaces; KIND a special point's name
 *                   (fold, hopf, period-doubling, ...); default none
 *   hopf_amplitude  size of the first cycle from a Hopf point, relative (1e-3)
 *   search          time searched for section crossings (default 1000)
 *   user            user points, NAME:VALUE[, NAME:VALUE]...: where the branch
 *                   (NAME the parameter) or the curve (NAME parameter or
 *                   parameter2) takes VALUE
 * Two-parameter curves (with parameter2):
 *   parameter2      the second parameter: the special point `start` names is
 *                   continued in (parameter, parameter2)
 *   min2, max2      its range (required with parameter2); the curve ends at
 *                   the box [min, max] x [min2, max2]
 *   start           hopf | fold | period-doubling | neimark-sacker: the
 *                   first such point of the one-parameter branch (hopf, fold
 *                   with branch = equilibria: of equilibria; fold,
 *                   period-doubling, neimark-sacker with branch = cycles: of
 *                   the cycles from [initial])
 *                   | branch:FILE.h5:K: row K (from 0) of /special of a
 *                   continuation file of the same model and parameter
 *                   | curve:FILE.h5:K: the curve born at row K of
 *                   /curve_special of a curve file in the same parameters
 *                   (Bogdanov-Takens: the other equilibrium curve; Bautin:
 *                   the fold of cycles)
 *                   | sweep:FILE.h5:INDEX[:forward|backward] with curve =
 *                   hopf | fold | period-doubling: the first such point of
 *                   the branch from that sweep point
 *   points2         curve points each way at most (default 200)
 *   ds2, ds2_max    the curve's scaled steps (defaults 0.01, 0.05)
 *   direction2      both (default) | forward | backward (parameter2 increasing
 *                   or decreasing first)
 */
#ifndef CS_ANALYSIS_CONTINUATION_CONFIG_H
#define CS_ANALYSIS_CONTINUATION_CONFIG_H

#include <stddef.h>

#include "analysis/continuation.h"
#include "analysis/continuation2.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

enum cs_continue_from {
  CS_CONTINUE_FROM_STATE,  /* the orbit or equilibrium from [initial] (after a transient) */
  CS_CONTINUE_FROM_HOPF,   /* cycles from the first Hopf point of the equilibrium branch */
  CS_CONTINUE_FROM_SWEEP,  /* a point of a sweep file */
  CS_CONTINUE_FROM_FOLD,   /* parameter2: the first fold of the branch (from [initial]) */
  CS_CONTINUE_FROM_PD,     /* parameter2: the first period doubling of the cycles */
  CS_CONTINUE_FROM_BRANCH, /* parameter2: special point K of a continuation file */
  CS_CONTINUE_FROM_CURVE,  /* parameter2: codim-2 point K of a curve file: the curve born there */
  CS_CONTINUE_FROM_NS,     /* parameter2: the first Neimark-Sacker point of the cycles */
  CS_CONTINUE_FROM_GRAZING /* parameter2: the first grazing of the (event-driven) cycles */
};

struct cs_continue_config {
  enum cs_branch_kind branch;
  enum cs_continue_from start;
  int param;             /* index of the continued parameter, -1 if not given */
  double at;             /* its value at the start */
  double transient;      /* model time unit */
  char sweep_file[1024]; /* start = sweep: the file */
  long sweep_index;      /* its grid index; start = branch: the /special row */
  int sweep_pass;        /* 0 forward, 1 backward */
  struct cs_continue_spec spec;
  int param2;                        /* the second parameter's index, -1: a one-parameter branch */
  struct cs_curve_spec curve;        /* the curve (param2, box, steps, user points) */
  size_t n_user;                     /* user points (both parameters) */
  int user_param[CS_CURVE_MAX_USER]; /* model parameter index of each */
  double user_value[CS_CURVE_MAX_USER];
  /* start = sweep with parameter2 (key curve): the kind of the branch's
   * first special point continued (hopf, fold or period-doubling) */
  enum cs_special_kind curve_at;
};

/* Reads [continuation] of cfg (with [solver] and [section]). need_param: the
 * parameter and its range are required (continue), else optional (orbit).
 * CS_ERR_PARSE or CS_ERR_RANGE with the message in cs_errmsg(). */
CS_API enum cs_status cs_continue_config_read(const struct cs_config *cfg, int need_param,
                                              struct cs_continue_config *out);

#ifdef __cplusplus
}
#endif

#endif
