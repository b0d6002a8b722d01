/* SPDX-License-Identifier: MIT */
/* What the pictures of result files are made of, extracted from the files
 * through the public readers (results/read.h): the rows of a trajectory's
 * time histories and phase portraits, a sweep's bifurcation diagram,
 * Poincare section, return map and regime map, the curves of a friction fit,
 * an eps study's differences or bifurcation shifts, the blocks of a
 * continuation branch (stable and unstable parts apart, also over a sweep's
 * diagram), with angles wrapped to (-pi, pi]; and the variables the scripts
 * of analysis/gnuplot/ draw them with (labels, units, ranges, names).
 *
 * A picture is two things: rows written to a stream the caller gives
 * (gnuplot's data format: '#' comment lines, blank lines break a curve, two
 * blank lines start the next block) and a list of named variables (struct
 * cs_plot_vars) with the script the rows are for. `contensou plot` writes
 * the rows to a temporary file and runs gnuplot -e "<variables>" script on
 * it; another program can draw the same rows with its own tools.
 *
 * The functions print nothing. A failure returns a status with a one-line
 * reason in cs_errmsg() that names the file: the statuses of the readers
 * (CS_ERR_PARSE: the file lacks what the picture needs; CS_ERR_HDF5: a
 * damaged file, ...), CS_ERR_ARG when the request names what the file does
 * not have (a column, a state, a time window with fewer than two rows),
 * CS_ERR_MISMATCH when a branch and a sweep do not belong together,
 * CS_ERR_NOT_FOUND when there is nothing to draw, CS_ERR_RANGE when the
 * file holds values no picture can show (times that do not increase, an eps
 * <= 0 on a log axis). Rows may have been written before a failure: discard
 * the stream then. */
#ifndef CS_PLOT_DATA_H
#define CS_PLOT_DATA_H

#include <stddef.h>
#include <stdio.h>

#include "core/status.h"
#include "analysis/point.h"
#include "models/model.h"
#include "results/read.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x wrapped to (-pi, pi] (radians). */
double cs_plot_wrap_angle(double x);

/* ------------------------------------------------------------- variables */

/* One variable of a picture: a text, or a number (text NULL). */
struct cs_plot_var {
  char *name;
  char *text;
  double value;
};

/* The variables of a picture, in the order they were set (a later one of
 * the same name wins in gnuplot), and the script they are for. Start from
 * a zeroed struct; free with cs_plot_vars_free. */
struct cs_plot_vars {
  size_t n, cap;
  struct cs_plot_var *v;
  char script[64]; /* e.g. "trajectory_pendulum.gp"; "" when the kind's default */
  int nomem;       /* a variable was lost for want of memory */
};

/* Appends name = text / name = value (a copy of both). */
void cs_plot_vars_text(struct cs_plot_vars *v, const char *name, const char *text);
void cs_plot_vars_number(struct cs_plot_vars *v, const char *name, double value);
/* The last variable called name, or NULL. */
const struct cs_plot_var *cs_plot_vars_find(const struct cs_plot_vars *v, const char *name);
/* Appends a copy of every variable of src (not its script). */
void cs_plot_vars_append(struct cs_plot_vars *v, const struct cs_plot_vars *src);
void cs_plot_vars_free(struct cs_plot_vars *v);

/* The variables as gnuplot's -e text into buf: name='text'; (a quote
 * doubled) and name=<%.17g>; (NaN for a value that is not finite), each
 * followed by a space. CS_ERR_RANGE when they do not fit in cap bytes (buf
 * then holds as many whole or cut variables as fit), CS_ERR_NOMEM when a
 * variable was lost. */
enum cs_status cs_plot_vars_gnuplot(const struct cs_plot_vars *v, char *buf, size_t cap);

/* What a picture shows where the file allows a choice. Zero it; NULL or
 * NaN fields take their defaults. */
struct cs_plot_request {
  const char *var;   /* eps study, branch, a sweep's diagram and return map: the
                        variable drawn (default: the model's first angle state,
                        else its first state) */
  const char *x, *y; /* trajectory, a sweep point's section: the columns of one
                        picture of y against x (trajectory: t when one is NULL;
                        both NULL: the model's layout; section: the first two
                        states) */
  double t0, t1;     /* trajectory: the time window (NaN: open) ... */
  int window_given;  /* ... used when 1, else the whole record and, for the
                        phase portraits, the settled part */
};

/* ------------------------------------------------------- one-picture kinds */

/* A trajectory file (contensou simulate) or an orbit file (contensou
 * orbit). Without rq->x, rq->y: two blocks of every column, block 0 the
 * time window as stored, block 1 the phase-portrait window (the time window
 * when given, else after /trajectory's transient attribute, else the second
 * half: a transient is not an attractor) with angles wrapped; script
 * trajectory_<model>.gp (v->script) with the columns by name (c_<name>,
 * u_<name>), the parameters (p_<name>, pu_<name>), the state names (states),
 * any_stick, the windows (t_lo, t_hi, ph_lo, ph_hi). With rq->x or rq->y:
 * one block of those two columns (with t: the time window, unwrapped; else
 * the phase window, angles wrapped), script trajectory_xy.gp. */
enum cs_status cs_plot_trajectory(const char *path, const struct cs_plot_request *rq, FILE *out,
                                  struct cs_plot_vars *v);

/* A friction fit (contensou friction fit -o): the curves theta, the
 * integral model's, the fit's and the papers' Tsx and Ms; the fitted and the
 * papers' (b, m). */
enum cs_status cs_plot_friction_fit(const char *path, FILE *out, struct cs_plot_vars *v);

/* An eps study (contensou eps-study). Of a trajectory: the paper's figure 9
 * layout, one block of t, the reference's variable rq->var and its
 * difference for each eps by increasing eps (script eps_study.gp). Of a
 * sweep: block 0 the shift of every reference bifurcation against eps (eps,
 * bifurcation number, kind, p_ref, shift; blab_<j> names bifurcation j),
 * block 1 the class mismatches against eps (script eps_sweep.gp). At most
 * 64 eps and 1000 reference bifurcations (each is a line of the picture). */
enum cs_status cs_plot_eps_study(const char *path, const struct cs_plot_request *rq, FILE *out,
                                 struct cs_plot_vars *v);

/* A continuation branch (contensou continue): block 0 the branch, block 1
 * the equilibria that led to its Hopf point (if any), block 2 the special
 * points (p, value, kind) of the state rq->var. */
enum cs_status cs_plot_branch(const char *path, const struct cs_plot_request *rq, FILE *out,
                              struct cs_plot_vars *v);

/* ------------------------------------------------------------------ sweeps */

/* A sweep file (contensou sweep) in memory: what every picture of it needs,
 * so that the file can be closed before drawing. Passes: 0 forward, 1
 * backward. The section rows are (index, t, states, derived outputs): the
 * grid index of each in place of the parameter columns the file stores. */
struct cs_plot_sweep {
  char *file;                    /* the path read */
  const struct cs_model *m;      /* from the registry; NULL for an unknown model */
  char *model;                   /* root attribute model ("" when absent) */
  char *law;                     /* root attribute law (NULL when absent) */
  struct cs_result_table params; /* /params (nrows 0 when absent) */
  char *par, *par_unit;          /* the control parameter and its unit */
  char *par2, *par2_unit;        /* the second one of a 2-D sweep, else NULL */
  int two, logx;                 /* 2-D sweep; logarithmic spacing */
  size_t n1, n2, npoints;        /* grid points per axis (n2 = 1 in 1-D), n1 * n2 */
  double *p1, *p2;               /* the parameter values by grid index (p2: NaN in 1-D) */
  int has[2];                    /* the pass is in the file */
  struct cs_result_table pts[2]; /* /<pass>/points: one row per grid index */
  struct cs_result_table sec[2]; /* section rows: index, t, states, derived outputs */
  long c_cls[2], c_per[2];       /* columns of pts: class code, period (section points) */
  long c_lyap[2], c_lerr[2];     /* largest Lyapunov exponent and its error */
  long c_stick[2];               /* stick fraction */
  long c_rot[2], c_ptime[2];     /* rotation number (turns per time unit), period in time */
  size_t n_state;                /* state columns of the section rows, after index and t */
  char time_unit[16];            /* "s", or "" when time is dimensionless */
  char section_kind[32];         /* "hyperplane", "stroboscopic" ("" when absent) */
  char section_var[64];          /* the hyperplane's variable ("" when absent) */
  double section_level;          /* the hyperplane's level (NaN when absent) */
  double section_dir;            /* +1 increasing, -1 decreasing, 0 both (NaN when absent) */
  /* what every picture of the sweep shows: the file, model, choices,
   * parameter(s) and their ranges, passes, class names and counts, the
   * section, the windows, the detected bifurcations (bif_f, bif_b) */
  struct cs_plot_vars vars;
  /* /<pass>/spectrum, spectrum_error (lyapunov = spectrum; nrows 0 when
   * absent): the Lyapunov exponents of each grid index and their errors */
  struct cs_result_table spec[2], spec_err[2];
};

/* Reads the sweep file at path (cs_read_sweep, final or partial). Besides
 * the reader's statuses: CS_ERR_NOT_FOUND when the file holds no pass,
 * CS_ERR_RANGE when its grid or sections cannot be drawn (a grid that does
 * not match its attributes, a non-finite grid value, one <= 0 on a log
 * axis, passes with different columns). Free s with cs_plot_sweep_free in
 * every case (s zeroed first). */
enum cs_status cs_plot_sweep_load(const char *path, struct cs_plot_sweep *s);

void cs_plot_sweep_free(struct cs_plot_sweep *s);

/* The section table of the first pass present (the passes have the same
 * columns: index, t, states, derived). */
const struct cs_result_table *cs_plot_sweep_columns(const struct cs_plot_sweep *s);

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

/* The pictures of a sweep; each appends the sweep's vars and its own to v
 * and sets v->script (sweep_<view>.gp). */

/* The bifurcation diagram (1-D): section variable rq->var against the
 * parameter, every section point of every computed grid point, by pass and
 * class. CS_ERR_NOT_FOUND without section points. */
enum cs_status cs_plot_sweep_bifurcation(const struct cs_plot_sweep *s,
                                         const struct cs_plot_request *rq, FILE *out,
                                         struct cs_plot_vars *v);

/* The largest Lyapunov exponent with its error (lyap) or the stick
 * fraction against the parameter (1-D). CS_ERR_NOT_FOUND when there is
 * nothing to show: no exponent, or (stick) no point where anything sticks. */
enum cs_status cs_plot_sweep_quantity(const struct cs_plot_sweep *s, int lyap, FILE *out,
                                      struct cs_plot_vars *v);

/* The whole Lyapunov spectrum against the parameter (1-D), one colour per
 * exponent, with error bars; script sweep_lyapunov_spectrum.gp.
 * CS_ERR_NOT_FOUND when the file has no spectrum (lyapunov other than
 * spectrum, or a file of layout 5 or older) or no finite exponent in it. */
enum cs_status cs_plot_sweep_spectrum(const struct cs_plot_sweep *s, FILE *out,
                                      struct cs_plot_vars *v);

/* The regime map (2-D) of the first pass present: every computed grid point
 * as a cell of its regime category. CS_ERR_NOT_FOUND without one. */
enum cs_status cs_plot_sweep_regime_map(const struct cs_plot_sweep *s, FILE *out,
                                        struct cs_plot_vars *v);

/* One grid point k: its Poincare section (columns rq->x, rq->y against each
 * other) or, ret, its return map (rq->var's x_j against x_{j+1}), every
 * pass, with what it is (class, period, exponent). CS_ERR_ARG for k past
 * the grid, CS_ERR_NOT_FOUND without section points (return map: fewer
 * than two consecutive ones). */
enum cs_status cs_plot_sweep_point(const struct cs_plot_sweep *s, size_t k, int ret,
                                   const struct cs_plot_request *rq, FILE *out,
                                   struct cs_plot_vars *v);

/* A continuation branch (file branch) over the bifurcation diagram of the
 * 1-D sweep s of the same model, law, parameter, parameters and (cycles)
 * section: block 0 the sweep's section points (pass, p, value, class), block
 * 1 the cycles, block 2 the equilibria (p, value stable, value unstable,
 * measure stable, unstable), block 3 the special points (p, value, kind);
 * script branch_sweep.gp. Anything that does not match is CS_ERR_MISMATCH
 * with what differs. */
enum cs_status cs_plot_branch_over_sweep(const char *branch, const struct cs_plot_sweep *s,
                                         const struct cs_plot_request *rq, FILE *out,
                                         struct cs_plot_vars *v);

/* Two-parameter curves (a continuation file with /curve, contensou continue
 * with parameter2): whether the file has one; the curve alone (blocks: the
 * curve "p1 p2 n_unstable", its codim-2 and user points "p1 p2 kind"); the
 * curve over the regime map of a 2-D sweep in the same two parameters (the
 * map's block first, as cs_plot_sweep_regime_map writes it). Script
 * curve.gp. CS_ERR_NOT_FOUND without a curve, CS_ERR_MISMATCH (saying what
 * differs) for a sweep of another model, law or plane. */
int cs_plot_has_curve(const char *path);
enum cs_status cs_plot_curve(const char *path, FILE *out, struct cs_plot_vars *v);
enum cs_status cs_plot_curve_over_map(const char *path, const struct cs_plot_sweep *s, FILE *out,
                                      struct cs_plot_vars *v);
/* The curves of n continuation files over one map (blocks: the map, then
 * each curve's two). */
enum cs_status cs_plot_curves_over_map(const char *const *paths, size_t n,
                                       const struct cs_plot_sweep *s, FILE *out,
                                       struct cs_plot_vars *v);

/* ------------------------------------------------------ the rows themselves */

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
void cs_plot_write_rows(const struct cs_result_table *d, const long *cols, const int *wrap,
                        size_t ncols, size_t i0, size_t i1, FILE *out);

/* 1 if column col of d is an angle of model m (a state or derived output
 * marked as one; m may be NULL: a column in rad other than t). */
int cs_plot_is_angle(const struct cs_model *m, const struct cs_result_table *d, long col);

/* A special point of a branch, to be drawn on it. */
struct cs_plot_mark {
  size_t row; /* the branch row after which it lies */
  double p;   /* its parameter value */
  double v;   /* the value drawn */
};

/* The special points of branch `which` (0: /branch, 1: /equilibria) of the
 * /special table sp where the stability may change (no end or switch
 * markers; a Hopf point never lies on a cycle branch: cycles = 1 when
 * /branch holds cycles), at most max, in mk. par, var: the columns. Returns
 * their number. */
size_t cs_plot_branch_marks(const struct cs_result_table *sp, int which, int cycles,
                            const char *par, const char *var, struct cs_plot_mark *mk, size_t max);

/* One branch table d as a data block: rows "p value_stable value_unstable
 * measure_stable measure_unstable" (NaN where a row is not of that
 * stability; measure: the largest |multiplier| of cycles, the largest real
 * part of equilibria), columns cp (parameter), cv (value, wrapped when
 * wrap). The located special points mk are inserted where they lie and
 * belong to both columns, so that the solid and dashed lines meet there;
 * without one, the last point before a change of stability goes to both.
 * A new segment or a jump of a wrapped angle breaks the lines. */
void cs_plot_branch_block(const struct cs_result_table *d, long cp, long cv, int wrap,
                          const struct cs_plot_mark *mk, size_t nmk, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
