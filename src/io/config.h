/* SPDX-License-Identifier: MIT */
/* Parameter files (INI, parsed by libinih) with strict validation.
 *
 *   [model]       name = pendulum | belt | twomass;  law = ... (the model's choices)
 *   [parameters]  the model's parameters by the papers' symbols (eta or eta_prime)
 *   [initial]     initial state by state-variable name (defaults: the model's)
 *   [solver]      stepper = erk | dirk | erk6 | erk8, rtol, atol, max_steps,
 *                 max_steps_total, h_max, h_init
 *   [output]      t_end, dt, t_start, file
 *   [section]     kind = hyperplane | stroboscopic, variable, level, direction
 *   [sweep]       the sweep keys (validated by the sweep driver)
 *   [continuation] the continuation keys (kept raw like [sweep]; validated by
 *                 analysis/continuation_config.c)
 *
 * Every key is checked: unknown key, duplicate, bad number, value outside the
 * accepted range (including values a later layer would refuse: atol > 0,
 * h_init <= h_max, t_start >= 0, stroboscopic sections only for forced
 * models) and missing required key each give CS_ERR_PARSE or CS_ERR_RANGE
 * with a one-line message "file:line: key: what is wrong (accepted: ...)".
 * Text libinih would read unfaithfully is refused with its line: NUL bytes,
 * lines longer than libinih's buffer (long comment lines are fine), keys and
 * section names that are not UTF-8, indented continuation lines. Files over
 * 1 MiB are refused unread. Messages show control characters and broken
 * UTF-8 as '?'. Overrides from the command line (--set section.key=value)
 * go through the same checks, with "--set section.key=value" in place of
 * file:line. Files are loaded, overrides applied, then everything is
 * cross-checked and the model's prepare() run. */
#ifndef CS_CONFIG_H
#define CS_CONFIG_H

#include <stddef.h>

#include "integrate/integrate.h"
#include "models/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CS_CONFIG_MAX_RAW 64

/* A key kept as text for a later stage (the [sweep] section). */
struct cs_config_raw {
  char section[32];
  char key[64];
  char value[256];
  char where[1100]; /* "file:line" or "--set ..." for messages */
};

struct cs_config {
  char path[1024]; /* the parameter file */
  char name[256];  /* its base name without .ini (default output name) */
  char *text;      /* the whole file, stored in outputs */
  const struct cs_model *model;
  void *params; /* the model's params struct (prepared, attached) */
  /* The same before prepare(): file values and defaults, derived fields still
   * NAN. A sweep sets its grid values on a copy of this and prepares each
   * point, so a field derived from a swept parameter (e.g. lambda_stick from
   * eps) follows it. */
  void *params_unprepared;
  double *y0; /* initial state, model->n_state values */
  struct cs_integrator_opts solver;
  double t_start;    /* start of the recorded window (model time unit) */
  double t_end;      /* end of the run */
  double dt;         /* output step; 0: (t_end - t_start) / 1000 */
  char output[1024]; /* [output] file, "" for output/<name>.h5 */
  struct cs_section_spec section;
  char section_variable[64];
  int section_given; /* 1 if [section] was in the file or --set */
  size_t n_raw;
  struct cs_config_raw raw[CS_CONFIG_MAX_RAW]; /* [sweep], [continuation] keys, in order */
  unsigned char given[256];                    /* internal: which parameter/state keys were set */
};

/* Loads path and applies the overrides ("section.key=value", n_set of them;
 * sets may be NULL with n_set = 0). On failure returns CS_ERR_IO (the file
 * cannot be read: missing, unreadable), CS_ERR_PARSE (a line, section or key
 * that is not understood), CS_ERR_RANGE (a value outside the key's accepted
 * range) or CS_ERR_NOMEM, with the one-line reason in cs_errmsg()
 * ("file:line: key: what is wrong (accepted: ...)"), and leaves cfg empty
 * (nothing to free). On success the caller owns cfg: cs_config_free. */
CS_API enum cs_status cs_config_load(const char *path, const char *const *sets, size_t n_set,
                                     struct cs_config *cfg);
CS_API void cs_config_free(struct cs_config *cfg);

/* The same from the text of a parameter file (e.g. the copy stored in a
 * result file); path names it in messages and in cfg->path. */
CS_API enum cs_status cs_config_load_text(const char *path, const char *text,
                                          const char *const *sets, size_t n_set,
                                          struct cs_config *cfg);

#ifdef __cplusplus
}
#endif

#endif
