/* SPDX-License-Identifier: MIT */
/* The description every mechanical model exports (one const struct cs_model
 * per file, listed once in registry.c). Everything above the models — the
 * parameter files, simulate, sweeps, sections, Lyapunov exponents, plots —
 * works only through this description, never through a model's internals.
 *
 * A model keeps its parameters in its own struct of doubles and ints; the
 * parameter table maps the papers' symbols to fields by offsetof, with unit,
 * default, accepted range and a one-line doc. The RHS, Jacobian and derived
 * outputs receive that struct (as const void *) after prepare() has filled its
 * derived constants; they must not allocate and must be thread-safe. */
#ifndef CS_MODEL_H
#define CS_MODEL_H

#include <stddef.h>

#include "core/ode.h"
#include "core/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A state variable or derived output.
 *
 * Integer outputs. A derived output that takes integer values only (an
 * indicator such as stick, a case number such as the two-mass model's vcase)
 * has integer = 1. Its values are integers >= 0 (or NaN where a row has no
 * value); result files store such outputs as integers, in a companion int32
 * table beside the table of real columns of the same rows (io/run_h5.h,
 * "Integer outputs"), and the readers (results/read.h) append them again
 * after the real columns. The integer outputs therefore come last, after
 * every real derived output: rows read back have the model's order (t, the
 * states, the derived outputs), as integrate/record.h writes them
 * (tests/test_models.c checks every model). States are never integers. */
struct cs_var_desc {
  const char *name; /* ASCII symbol, e.g. "XC", "dphi", "vsx" */
  const char *unit; /* SI or "1" for dimensionless, e.g. "m/s", "rad" */
  const char *doc;  /* one line */
  int angle;        /* 1 if the value is an angle defined modulo 2 pi */
  int integer;      /* derived outputs: 1 if the values are integers >= 0 (see above) */
};

/* A real parameter. */
struct cs_param_desc {
  const char *name; /* the paper's symbol in ASCII: INI key, --set key, sweep parameter */
  const char *unit; /* e.g. "kg", "N/m", "1" */
  size_t offset;    /* offsetof(<model params>, field); the field is a double */
  double def;       /* default; NAN: derived from `alt` when not given */
  double min, max;  /* accepted closed range */
  const char *alt;  /* a parameter that may be given instead (eta <-> eta_prime), or NULL */
  const char *doc;  /* one line */
};

/* A discrete choice given by name in [model], e.g. law = I11-reg. */
struct cs_choice_desc {
  const char *name;          /* INI key in [model] */
  size_t offset;             /* offsetof(<model params>, field); the field is an int index */
  const char *const *values; /* accepted names, NULL-terminated */
  int def;                   /* index of the default */
  const char *doc;           /* one line */
};

enum cs_section_kind {
  CS_SECTION_HYPERPLANE,  /* variable = level, crossed in a direction */
  CS_SECTION_STROBOSCOPIC /* every forcing period */
};

/* A Poincaré section. */
struct cs_section_spec {
  enum cs_section_kind kind;
  const char *variable; /* state or derived output name (hyperplane) */
  double level;         /* value of the variable on the section, in its unit */
  int direction;        /* +1 increasing crossings, -1 decreasing, 0 both */
};

struct cs_model {
  const char *name;      /* registry key: "pendulum", "belt", "twomass" */
  const char *title;     /* one line */
  const char *reference; /* paper and equations */
  size_t n_state;
  const struct cs_var_desc *state;
  const double *state_default; /* default initial state, n_state values */
  size_t n_param;
  const struct cs_param_desc *param;
  size_t n_choice;
  const struct cs_choice_desc *choice;
  size_t params_size; /* sizeof the model's params struct */
  size_t n_derived;
  const struct cs_var_desc *derived;
  int stick_output; /* index in derived of the stick indicator (1 stick, 0 slip; an integer
                       output), -1 none */
  int time_unit_si; /* 1 if time is in seconds, 0 if dimensionless */
  /* Completes params once every table field is set: derived constants (eta'
   * from eta or back, friction-law set-up), cross-checks. On failure the
   * one-line reason is in cs_errmsg(). */
  enum cs_status (*prepare)(void *params);
  /* Per-copy resources a law may need (e.g. the integral model's quadrature
   * workspace): called on every params copy a thread will use, and released. */
  enum cs_status (*attach)(void *params);
  void (*detach)(void *params);
  cs_rhs_fn rhs;
  cs_jac_fn jac; /* analytic Jacobian, row-major; NULL if none */
  /* right-hand side and Jacobian in one call (the values rhs and jac give,
   * sharing the work: Lyapunov runs need both at every stage); NULL if none */
  int (*rhs_jac)(double t, const double *y, double *ydot, double *J, const void *params);
  /* Derived outputs at (t, y): n_derived values. Returns 0 or a negative status. */
  int (*derived_fn)(double t, const double *y, double *out, const void *params);
  /* Period of the time-periodic forcing in the model's time unit, 0 if autonomous. */
  double (*forcing_period)(const void *params);
  struct cs_section_spec section; /* default Poincaré section */
  const char *section_doc;        /* why that default */
  /* Event-driven (hybrid) models, optional: 0 switching functions means a
   * plain ODE. A mode (kept in params, e.g. slip or stick) selects the
   * right-hand side; the switching functions' zero crossings (found by ARKODE
   * root finding, see src/integrate/flow.h) end it, and switch_apply sets the
   * next mode and may change the state. The params of a hybrid model are
   * therefore mutable: every run needs its own copy. */
  size_t n_switch;
  /* g[0..n_switch-1] at (t, y) in the current mode; same return as cs_root_fn. */
  int (*switch_fn)(double t, const double *y, double *g, const void *params);
  /* After switching function k fired with fired[k] = +1/-1 (0 for the
   * others): choose the next mode, adjust y in place. Returns the kind of the
   * switch (>= 0, an index into switch_kinds) or a negative status. */
  int (*switch_apply)(double t, double *y, const int *fired, void *params);
  /* Chooses the mode consistent with (t, y) at the start of a run (and after
   * a state set from outside, e.g. continuation). May adjust y. Returns 0 or a
   * negative status. */
  int (*mode_init)(double t, double *y, void *params);
  const char *const *switch_kinds;    /* names of the switch kinds, NULL-terminated */
  int (*mode_of)(const void *params); /* current mode (logged with each switch) */
  /* Whether these params make the model hybrid: a model whose law is chosen
   * at run time (smooth regularized laws or an event-driven scheme) returns 0
   * for the smooth ones, so that they are plain ODEs everywhere (no dead
   * switching function, Lyapunov exponents allowed). NULL: hybrid iff
   * n_switch > 0. Use cs_model_switches(). */
  int (*is_hybrid)(const void *params);
  /* The derivative of the right-hand side in a parameter, optional (NULL: not
   * provided; callers then take central differences of rhs). Continuation
   * needs f_p = df/dp at every stage of its variational shootings; this gives
   * it with f and the Jacobian from one evaluation of the friction law
   * instead of two more calls of rhs at p +- dp.
   * rhs_dp_provided: 1 if rhs_jac_dp gives f_p for the parameter of index
   * param (in the table `param`) with these params, else 0.
   * rhs_jac_dp: ydot = f(t, y), fp = df/dp at fixed y and t (n_state values
   * each) and, if J is not NULL, the Jacobian as jac gives it (J comes
   * zeroed), for a parameter rhs_dp_provided accepts. Same return convention
   * as cs_rhs_fn. */
  int (*rhs_dp_provided)(size_t param, const void *params);
  int (*rhs_jac_dp)(double t, const double *y, size_t param, double *ydot, double *J, double *fp,
                    const void *params);
};

/* Number of active switching functions of m with these params: n_switch for
 * an event-driven configuration, 0 for a plain ODE. */
CS_API size_t cs_model_switches(const struct cs_model *m, const void *params);

/* ------------------------------------------------------------- registry */

/* NULL-terminated list of all models. */
CS_API extern const struct cs_model *const cs_models[];

/* The model called name, or NULL. */
CS_API const struct cs_model *cs_model_find(const char *name);

/* ------------------------------------------------- parameters by name */

/* Index of a parameter / choice / state / derived output by name, or -1. */
CS_API int cs_model_param_index(const struct cs_model *m, const char *name);
CS_API int cs_model_state_index(const struct cs_model *m, const char *name);

/* Fills params with every default (choices included). The struct must be
 * params_size bytes. */
CS_API void cs_model_params_default(const struct cs_model *m, void *params);

/* Sets a parameter by name after checking its range; if the parameter has an
 * `alt`, the alternative is set to NAN so that prepare() derives it.
 * CS_ERR_NOT_FOUND for an unknown name, CS_ERR_RANGE outside [min, max] or
 * non-finite. */
CS_API enum cs_status cs_model_set_param(const struct cs_model *m, void *params, const char *name,
                                         double value);
CS_API double cs_model_get_param(const struct cs_model *m, const void *params, int index);

/* Sets a choice by value name; CS_ERR_NOT_FOUND for an unknown key, CS_ERR_RANGE
 * for a value not in the list. */
CS_API enum cs_status cs_model_set_choice(const struct cs_model *m, void *params, const char *name,
                                          const char *value);
CS_API const char *cs_model_get_choice(const struct cs_model *m, const void *params, int index);

#ifdef __cplusplus
}
#endif

#endif
