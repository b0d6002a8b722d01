/* SPDX-License-Identifier: MIT */
/* What the pictures of result files are made of, extracted from the files:
 * the rows of a sweep's bifurcation diagram, Poincare section, return map and
 * regime map, the window of a trajectory, the blocks of a continuation branch
 * (stable and unstable parts apart), with angles wrapped to (-pi, pi].
 *
 * The functions read through io/h5.h (every count and index of the file is
 * checked before it is used: files are untrusted) and write whitespace-
 * separated text rows to a stream the caller gives (gnuplot's data format:
 * '#' comment lines, blank lines break a curve, two blank lines start the
 * next block). They print nothing else. A failure returns a status and, where
 * a msg buffer is given, a one-line reason without the file's name. */
#ifndef CS_PLOT_DATA_H
#define CS_PLOT_DATA_H

#include <stddef.h>
#include <stdio.h>

#include "core/status.h"
#include "io/h5.h"
#include "analysis/point.h"
#include "models/model.h"

/* x wrapped to (-pi, pi] (radians). */
double cs_plot_wrap_angle(double x);

/* ---------------------------------------------------------------- sweeps */

/* A sweep file (contensou sweep) in memory: what every picture of it needs,
 * so that the file can be closed before drawing. Passes: 0 forward, 1
 * backward. */
struct cs_plot_sweep {
  const struct cs_model *m;  /* from the registry; NULL for an unknown model */
  char *model;               /* root attribute model ("" when absent) */
  char *par, *par_unit;      /* the control parameter and its unit */
  char *par2, *par2_unit;    /* the second one of a 2-D sweep, else NULL */
  int two, logx;             /* 2-D sweep; logarithmic spacing */
  size_t n1, n2, npoints;    /* grid points per axis (n2 = 1 in 1-D), n1 * n2 */
  double *p1, *p2;           /* the parameter values by grid index (p2: NaN in 1-D) */
  int has[2];                /* the pass is in the file */
  struct cs_h5_data pts[2];  /* /<pass>/points: one row per grid index */
  struct cs_h5_data sec[2];  /* section rows: index, t, states, derived outputs */
  long c_cls[2], c_per[2];   /* columns of pts: class code, period (section points) */
  long c_lyap[2], c_lerr[2]; /* largest Lyapunov exponent and its error */
  long c_stick[2];           /* stick fraction */
  long c_rot[2], c_ptime[2]; /* rotation number (turns per time unit), period in time */
  size_t n_state;            /* state columns of the section rows, after index and t */
  char time_unit[16];        /* "s", or "" when time is dimensionless */
  char section_kind[32];     /* "hyperplane", "stroboscopic" ("" when absent) */
  char section_var[64];      /* the hyperplane's variable ("" when absent) */
  double section_level;      /* the hyperplane's level (NaN when absent) */
  double section_dir;        /* +1 increasing, -1 decreasing, 0 both (NaN when absent) */
};

/* Reads the sweep in f. CS_ERR_NOT_FOUND: not a sweep file (no /sweep
 * parameter, no pass); another status: a damaged file. On failure msg says
 * why; free s with cs_plot_sweep_free in every case (s zeroed first). */
enum cs_status cs_plot_sweep_load(struct cs_h5 *f, struct cs_plot_sweep *s);

void cs_plot_sweep_free(struct cs_plot_sweep *s);

/* The section table of the first pass present (the passes have the same
 * columns: index, t, states, derived). */
const struct cs_h5_data *cs_plot_sweep_columns(const struct cs_plot_sweep *s);

/* The section column called name (>= 1: t or later), -1 if none. */
long cs_plot_sweep_column(const struct cs_plot_sweep *s, const char *name);

/* The column a bifurcation diagram draws by default: the model's first angle
 * state, else the first state. */
long cs_plot_sweep_default_column(const struct cs_plot_sweep *s);

/* 1 if section column col is an angle (the model says so; for an unknown
 * model a state column in rad). */
int cs_plot_sweep_is_angle(const struct cs_plot_sweep *s, long col);

/* Value of column col of the points table at grid index k of pass p, NaN
 * when missing. */
double cs_plot_sweep_value(const struct cs_plot_sweep *s, int p, size_t k, long col);

/* The grid index nearest to the parameter value(s) at[0] (, at[1] in 2-D),
 * distances measured in grid steps. */
size_t cs_plot_sweep_nearest(const struct cs_plot_sweep *s, const double *at);

/* Rows "pass parameter value class" of every section point of every computed
 * grid point (column col, wrapped if an angle), both passes; seen[p][c] set
 * for each class c drawn in pass p, rows[p] counted. Returns the rows. */
size_t cs_plot_sweep_write_bifurcation(const struct cs_plot_sweep *s, long col, FILE *out,
                                       int seen[2][CS_CLASS_COUNT], size_t rows[2]);

/* Rows "pass x y" of the section points of grid index k (columns cx, cy);
 * n[p] counted per pass. Returns the rows. */
size_t cs_plot_sweep_write_section(const struct cs_plot_sweep *s, size_t k, long cx, long cy,
                                   FILE *out, size_t n[2]);

/* The return map of grid index k: rows "pass x_j x_{j+1}" of column col over
 * the consecutive section points of each pass (angles wrapped). An angle's
 * consecutive values are wrapped each on its own, so a rotation shows as the
 * map of the wrapped angle. n[p] counted per pass. Returns the rows. */
size_t cs_plot_sweep_write_return(const struct cs_plot_sweep *s, size_t k, long col, FILE *out,
                                  size_t n[2]);

/* Rows "parameter y class" (y: the Lyapunov exponent and its error when
 * lyap, else the stick fraction), both passes ("pass" first). seen as for the
 * bifurcation diagram; *ymax the largest |y| written. Returns the rows. */
size_t cs_plot_sweep_write_points(const struct cs_plot_sweep *s, int lyap, FILE *out,
                                  int seen[2][CS_CLASS_COUNT], double *ymax);

/* The regime of a grid point as one of a fixed list of categories, for a
 * discrete palette: the class, periodic orbits by period and by whether they
 * rotate (net turns of the first angle per period at least 1/2). */
#define CS_PLOT_REGIME_LIST(X)                              \
  X(CS_PLOT_EQUILIBRIUM, "equilibrium")                     \
  X(CS_PLOT_P1, "period 1")                                 \
  X(CS_PLOT_P2, "period 2")                                 \
  X(CS_PLOT_P3, "period 3")                                 \
  X(CS_PLOT_P4, "period 4")                                 \
  X(CS_PLOT_P5, "period 5")                                 \
  X(CS_PLOT_P6, "period 6")                                 \
  X(CS_PLOT_PHIGH, "period 7 or more")                      \
  X(CS_PLOT_ROT1, "rotating, period 1")                     \
  X(CS_PLOT_ROT2, "rotating, period 2")                     \
  X(CS_PLOT_ROTHIGH, "rotating, period 3 or more")          \
  X(CS_PLOT_QUASIPERIODIC, "quasiperiodic")                 \
  X(CS_PLOT_CHAOTIC, "chaotic")                             \
  X(CS_PLOT_APERIODIC, "aperiodic (exponent not computed)") \
  X(CS_PLOT_NO_CROSSINGS, "no section crossings")           \
  X(CS_PLOT_ESCAPED, "escaped")                             \
  X(CS_PLOT_FAILED, "failed")                               \
  X(CS_PLOT_UNKNOWN, "unknown")

enum cs_plot_regime {
#define CS_PLOT_REGIME_ENUM(id, name) id,
  CS_PLOT_REGIME_LIST(CS_PLOT_REGIME_ENUM)
#undef CS_PLOT_REGIME_ENUM
      CS_PLOT_REGIME_COUNT
};

/* Its name (never NULL). */
const char *cs_plot_regime_name(enum cs_plot_regime r);

/* The category of grid index k of pass p; -1 for a point not computed. */
int cs_plot_sweep_regime(const struct cs_plot_sweep *s, int p, size_t k);

/* The regime map of pass p: rows "p1 p2 p1_lo p1_hi p2_lo p2_hi category" of
 * every computed grid point, the cell reaching halfway to the neighbours
 * (geometric mean on a log axis); seen[r] set for each category drawn.
 * Returns the rows. */
size_t cs_plot_sweep_write_regime(const struct cs_plot_sweep *s, int p, FILE *out,
                                  int seen[CS_PLOT_REGIME_COUNT]);

/* ------------------------------------------------------------ trajectories */

/* The rows [*i0, *i1) of the increasing times t[0..n) with t0 <= t <= t1
 * (NaN bounds: open). CS_ERR_RANGE when fewer than two rows fall inside. */
enum cs_status cs_plot_window(const double *t, size_t n, double t0, double t1, size_t *i0,
                              size_t *i1);

/* The window a phase portrait shows by default: from `transient` (time
 * unit; NaN: half way through the record) to the end. */
enum cs_status cs_plot_settled_window(const double *t, size_t n, double transient, size_t *i0,
                                      size_t *i1);

/* Rows i0 .. i1-1 of the table d, the columns cols[0..ncols), each wrapped
 * to (-pi, pi] where wrap[j]; a wrapped angle that jumps by more than pi
 * between rows is broken by a blank line (no line across the plot). */
void cs_plot_write_rows(const struct cs_h5_data *d, const long *cols, const int *wrap, size_t ncols,
                        size_t i0, size_t i1, FILE *out);

/* 1 if column col of d is an angle of model m (a state or derived output
 * marked as one; m may be NULL: a column in rad other than t). */
int cs_plot_is_angle(const struct cs_model *m, const struct cs_h5_data *d, long col);

/* ---------------------------------------------------------------- branches */

/* A special point of a branch, to be drawn on it. */
struct cs_plot_mark {
  size_t row; /* the branch row after which it lies */
  double p;   /* its parameter value */
  double v;   /* the value drawn */
};

/* The special points of branch `which` (0: /branch, 1: /equilibria) of the
 * /special table sp where the stability may change (no end or switch
 * markers; a Hopf point never lies on a cycle branch), at most max, in mk.
 * par, var: the columns. Returns their number. */
size_t cs_plot_branch_marks(const struct cs_h5_data *sp, int which, const char *par,
                            const char *var, struct cs_plot_mark *mk, size_t max);

/* One branch table d as a data block: rows "p value_stable value_unstable
 * measure_stable measure_unstable" (NaN where a row is not of that
 * stability; measure: the largest |multiplier| of cycles, the largest real
 * part of equilibria), columns cp (parameter), cv (value, wrapped when
 * wrap). The located special points mk are inserted where they lie and
 * belong to both columns, so that the solid and dashed lines meet there;
 * without one, the last point before a change of stability goes to both.
 * A new segment or a jump of a wrapped angle breaks the lines. */
void cs_plot_branch_block(const struct cs_h5_data *d, long cp, long cv, int wrap,
                          const struct cs_plot_mark *mk, size_t nmk, FILE *out);

#endif
