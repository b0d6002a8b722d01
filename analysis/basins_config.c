/* SPDX-License-Identifier: MIT */
/* [basins] keys -> struct cs_basins_spec, with the loader's error format
 * ("file:line: key: what is wrong (accepted: ...)"). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/basins.h"
#include "core/error_private.h"
#include "analysis/basins_private.h"
#include "io/config_private.h"

static const char *const fixed_keys[] = {
    "x",
    "y",
    "x_min",
    "x_max",
    "y_min",
    "y_max",
    "cells",
    "sample",
    "seed",
    "transient",
    "record",
    "max_period",
    "chunk",
    "radius",
    "check",
    "early",
    "lyapunov",
    "lyapunov_time",
    "adaptive_transient",
    "transient_max",
    "period_tol",
    NULL,
};

const char *const *cs_basins_config_keys(void)
{
  return fixed_keys;
}

static int state(struct cs_config_parse *p, const struct cs_model *m, const char *key, int *out)
{
  const struct cs_config_raw *r = cs_config_i_get(p, key);
  if (!r || p->st != CS_OK)
    return 0;
  int i = cs_model_state_index(m, r->value);
  if (i < 0) {
    char acc[256] = "";
    for (size_t k = 0; k < m->n_state; k++)
      snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", k ? ", " : "",
               m->state[k].name);
    return cs_config_i_err(p, r, key, CS_ERR_RANGE, "'%s' is not a state of %s (accepted: %s)",
                           r->value, m->name, acc);
  }
  *out = i;
  return 1;
}

/* The bound keys of every state: <state>_min, <state>_max. */
static int is_bound_key(const struct cs_model *m, const char *key)
{
  for (size_t i = 0; i < m->n_state; i++) {
    size_t l = strlen(m->state[i].name);
    if (strncmp(key, m->state[i].name, l) == 0 &&
        (strcmp(key + l, "_min") == 0 || strcmp(key + l, "_max") == 0))
      return 1;
  }
  return 0;
}

enum cs_status cs_basins_spec_from_config(const struct cs_config *cfg, struct cs_basins_spec *spec)
{
  const struct cs_model *m = cfg->model;
  struct cs_config_parse p = {cfg, "basins", CS_OK};
  cs_basins_spec_default(spec);
  spec->point.solver = cfg->solver;
  spec->point.section = cfg->section;
  for (size_t i = 0; i < cfg->n_raw && p.st == CS_OK; i++) {
    const struct cs_config_raw *r = &cfg->raw[i];
    if (strcmp(r->section, "basins") != 0)
      continue;
    int known = is_bound_key(m, r->key);
    for (int k = 0; fixed_keys[k] && !known; k++)
      known = strcmp(fixed_keys[k], r->key) == 0;
    if (!known)
      cs_config_i_err(
          &p, r, r->key, CS_ERR_PARSE,
          "unknown key in [basins] (accepted: x, y, x_min, x_max, y_min, y_max, cells, sample, "
          "seed, <state>_min, <state>_max, transient, record, max_period, chunk, radius, check, "
          "early, lyapunov, lyapunov_time, adaptive_transient, transient_max, period_tol)");
  }
  long n = 0;
  if (cs_config_i_count(&p, "sample", 1, 100000000, &n)) {
    spec->mode = CS_BASINS_SAMPLE;
    spec->sample = (size_t)n;
  }
  n = 1;
  if (cs_config_i_count(&p, "seed", 0, 4294967295L, &n))
    spec->seed = (unsigned long)n;
  if (spec->mode == CS_BASINS_GRID && p.st == CS_OK) {
    if (!state(&p, m, "x", &spec->ix) && p.st == CS_OK)
      cs_config_i_err(&p, NULL, "[basins] x", CS_ERR_PARSE,
                      "missing (accepted: a state variable of %s, or sample = N)", m->name);
    if (!state(&p, m, "y", &spec->iy) && p.st == CS_OK)
      cs_config_i_err(&p, NULL, "[basins] y", CS_ERR_PARSE,
                      "missing (accepted: a state variable of %s)", m->name);
    if (p.st == CS_OK && spec->ix == spec->iy)
      cs_config_i_err(&p, cs_config_i_get(&p, "y"), "y", CS_ERR_RANGE,
                      "the same state as x (accepted: another state)");
    const char *bk[4] = {"x_min", "x_max", "y_min", "y_max"};
    double *bv[4] = {&spec->x_min, &spec->x_max, &spec->y_min, &spec->y_max};
    for (int k = 0; k < 4 && p.st == CS_OK; k++)
      if (!cs_config_i_number(&p, bk[k], -1e300, 1e300, "a finite number", bv[k]) && p.st == CS_OK)
        cs_config_i_err(&p, NULL, bk[k], CS_ERR_PARSE,
                        "missing in [basins] (accepted: a finite number)");
    if (p.st == CS_OK && !(spec->x_max > spec->x_min))
      cs_config_i_err(&p, cs_config_i_get(&p, "x_max"), "x_max", CS_ERR_RANGE,
                      "not above x_min (accepted: > x_min)");
    if (p.st == CS_OK && !(spec->y_max > spec->y_min))
      cs_config_i_err(&p, cs_config_i_get(&p, "y_max"), "y_max", CS_ERR_RANGE,
                      "not above y_min (accepted: > y_min)");
    const struct cs_config_raw *r = cs_config_i_get(&p, "cells");
    spec->nx = spec->ny = 64;
    if (r && p.st == CS_OK) {
      char buf[256];
      snprintf(buf, sizeof buf, "%s", r->value);
      char *comma = strchr(buf, ',');
      long a = 0, b = 0;
      if (comma)
        *comma = '\0';
      int ok = cs_parse_long(buf, &a) && a >= 2 && a <= 100000;
      if (comma) {
        char *s = comma + 1;
        while (*s == ' ')
          s++;
        ok = ok && cs_parse_long(s, &b) && b >= 2 && b <= 100000;
      } else {
        b = a;
      }
      if (!ok)
        cs_config_i_err(&p, r, "cells", CS_ERR_RANGE,
                        "'%s' (accepted: a count in [2, 100000], or two: NX, NY)", r->value);
      spec->nx = (size_t)a, spec->ny = (size_t)b;
    }
  } else if (p.st == CS_OK) {
    for (size_t i = 0; i < m->n_state && p.st == CS_OK; i++) {
      double y0 = cfg->y0[i], w = fmax(fabs(y0), 1.0);
      spec->lo[i] = m->state[i].angle ? -M_PI : y0 - w;
      spec->hi[i] = m->state[i].angle ? M_PI : y0 + w;
      char key[80];
      snprintf(key, sizeof key, "%s_min", m->state[i].name);
      cs_config_i_number(&p, key, -1e300, 1e300, "a finite number", &spec->lo[i]);
      snprintf(key, sizeof key, "%s_max", m->state[i].name);
      cs_config_i_number(&p, key, -1e300, 1e300, "a finite number", &spec->hi[i]);
      if (p.st == CS_OK && !(spec->hi[i] >= spec->lo[i]))
        cs_config_i_err(&p, cs_config_i_get(&p, key), key, CS_ERR_RANGE,
                        "below %s_min (accepted: >= %s_min)", m->state[i].name, m->state[i].name);
    }
  }
  cs_config_i_number(&p, "transient", 0, 1e12, "a time >= 0", &spec->point.transient);
  cs_config_i_number(&p, "record", 1e-12, 1e12, "a time > 0", &spec->point.record);
  long k = 0;
  if (cs_config_i_count(&p, "max_period", 1, 1000, &k))
    spec->point.max_period = (int)k;
  if (cs_config_i_count(&p, "chunk", 1, 1000000, &k))
    spec->chunk = (size_t)k;
  cs_config_i_number(&p, "radius", 1e-12, 1, "a number in (0, 1], in units of the state scales",
                     &spec->radius);
  cs_config_i_number(&p, "check", 0, 1e12, "a time >= 0 (0: transient / 200)", &spec->check);
  cs_config_i_bool(&p, "early", &spec->early);
  cs_config_i_bool(&p, "adaptive_transient", &spec->point.adaptive_transient);
  spec->point.transient_max = 10 * spec->point.transient;
  cs_config_i_number(&p, "transient_max", 0, 1e12, "a time >= 0", &spec->point.transient_max);
  /* slowly contracting cycles (the belt's stick-slip orbit, ~0.8 per cycle)
   * need a looser periodicity test than 1e3 rtol, as in [sweep] */
  cs_config_i_number(&p, "period_tol", 0, 0.1, "a relative tolerance in [0, 0.1], 0: 1e3 rtol",
                     &spec->point.period_tol);
  const struct cs_config_raw *r = cs_config_i_get(&p, "lyapunov");
  if (r && p.st == CS_OK) {
    if (strcmp(r->value, "none") == 0)
      spec->point.lyapunov = 0;
    else if (strcmp(r->value, "largest") == 0)
      spec->point.lyapunov = 1;
    else
      cs_config_i_err(&p, r, "lyapunov", CS_ERR_RANGE, "'%s' (accepted: none, largest)", r->value);
  }
  spec->point.lyapunov_time = 5 * spec->point.record;
  cs_config_i_number(&p, "lyapunov_time", 1e-12, 1e12, "a time > 0", &spec->point.lyapunov_time);
  if (p.st != CS_OK)
    return p.st;
  cs_basins_spec_scales(spec, m, cfg->y0);
  return CS_OK;
}
