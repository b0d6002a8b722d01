/* SPDX-License-Identifier: MIT */
/* INI parameter files: libinih tokenizes, this file validates. libinih (as
 * Debian builds it) does not report line numbers, so the file is fed through
 * ini_parse_stream with a reader that counts the lines it hands out: when the
 * handler runs, the count is the line of the key. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "io/config.h"

int cs_parse_double(const char *s, double *out)
{
  if (!s || !*s)
    return 0;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  while (*end == ' ' || *end == '\t')
    end++;
  if (end == s || *end != '\0' || !isfinite(v) || errno == ERANGE)
    return 0;
  *out = v;
  return 1;
}

int cs_parse_long(const char *s, long *out)
{
  if (!s || !*s)
    return 0;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE)
    return 0;
  *out = v;
  return 1;
}

int cs_parse_bool(const char *s, int *out)
{
  if (strcmp(s, "true") == 0)
    return *out = 1, 1;
  if (strcmp(s, "false") == 0)
    return *out = 0, 1;
  return 0;
}

struct loader {
  struct cs_config *cfg;
  const char *where; /* "file:line" prefix being processed */
  char whereb[1100];
  int line;
  char model_name[64];
  int model_line;
  const char *text; /* reader position */
  /* deferred [model] choices and [parameters]/[initial] until the model is known */
  struct cs_config_raw pending[256];
  size_t n_pending;
  int seen_t_end;
  char *msg;
  size_t msglen;
  enum cs_status st;
};

static int failf(struct loader *L, enum cs_status st, const char *fmt, ...)
{
  if (L->st != CS_OK)
    return 0;
  L->st = st;
  int k = snprintf(L->msg, L->msglen, "%s: ", L->where);
  va_list ap;
  va_start(ap, fmt);
  if (k >= 0 && (size_t)k < L->msglen)
    vsnprintf(L->msg + k, L->msglen - (size_t)k, fmt, ap);
  va_end(ap);
  return 0;
}

static char *reader(char *str, int num, void *stream)
{
  struct loader *L = stream;
  const char *p = L->text;
  if (!p || !*p)
    return NULL;
  int i = 0;
  while (i < num - 1 && p[i] && p[i] != '\n')
    i++;
  if (p[i] == '\n' && i < num - 1)
    i++;
  memcpy(str, p, (size_t)i);
  str[i] = '\0';
  L->text = p + i;
  L->line++;
  snprintf(L->whereb, sizeof L->whereb, "%s:%d", L->cfg->path, L->line);
  L->where = L->whereb;
  return str;
}

static int number(struct loader *L, const char *key, const char *value, double lo, double hi,
                  const char *accepted, double *out)
{
  double v;
  if (!cs_parse_double(value, &v))
    return failf(L, CS_ERR_PARSE, "%s: '%s' is not a number (accepted: %s)", key, value, accepted);
  if (v < lo || v > hi)
    return failf(L, CS_ERR_RANGE, "%s: %s is out of range (accepted: %s)", key, value, accepted);
  *out = v;
  return 1;
}

static int solver_key(struct loader *L, const char *key, const char *value)
{
  struct cs_integrator_opts *o = &L->cfg->solver;
  if (strcmp(key, "stepper") == 0) {
    if (strcmp(value, "erk") == 0)
      o->stepper = CS_STEPPER_ERK;
    else if (strcmp(value, "dirk") == 0)
      o->stepper = CS_STEPPER_DIRK;
    else if (strcmp(value, "erk6") == 0)
      o->stepper = CS_STEPPER_ERK6;
    else
      return failf(L, CS_ERR_RANGE, "stepper: '%s' is not a stepper (accepted: erk, dirk, erk6)",
                   value);
    return 1;
  }
  if (strcmp(key, "rtol") == 0)
    return number(L, key, value, 1e-15, 1e-1, "a number in [1e-15, 0.1]", &o->rtol);
  if (strcmp(key, "atol") == 0)
    return number(L, key, value, 0.0, 1.0, "a number in [0, 1]", &o->atol);
  if (strcmp(key, "h_max") == 0)
    return number(L, key, value, 0.0, 1e12, "a number >= 0, 0 = unbounded", &o->h_max);
  if (strcmp(key, "h_init") == 0)
    return number(L, key, value, 0.0, 1e12, "a number >= 0, 0 = automatic", &o->h_init);
  if (strcmp(key, "max_steps") == 0) {
    long v;
    if (!cs_parse_long(value, &v) || v < 1)
      return failf(L, CS_ERR_RANGE, "max_steps: '%s' (accepted: an integer >= 1)", value);
    o->max_steps = v;
    return 1;
  }
  if (strcmp(key, "max_steps_total") == 0) {
    long v;
    if (!cs_parse_long(value, &v) || v < 1)
      return failf(L, CS_ERR_RANGE, "max_steps_total: '%s' (accepted: an integer >= 1)", value);
    o->max_steps_total = v;
    return 1;
  }
  return failf(L, CS_ERR_PARSE,
               "%s: unknown key in [solver] (accepted: stepper, rtol, atol, max_steps, "
               "max_steps_total, h_max, h_init)",
               key);
}

static int output_key(struct loader *L, const char *key, const char *value)
{
  struct cs_config *c = L->cfg;
  if (strcmp(key, "t_end") == 0) {
    L->seen_t_end = 1;
    return number(L, key, value, -1e12, 1e12, "a finite number (model time unit)", &c->t_end);
  }
  if (strcmp(key, "t_start") == 0)
    return number(L, key, value, -1e12, 1e12, "a finite number (model time unit)", &c->t_start);
  if (strcmp(key, "dt") == 0)
    return number(L, key, value, 0.0, 1e12, "a number >= 0 (model time unit), 0 = automatic",
                  &c->dt);
  if (strcmp(key, "file") == 0) {
    if (strlen(value) >= sizeof c->output)
      return failf(L, CS_ERR_RANGE, "file: path too long");
    strcpy(c->output, value);
    return 1;
  }
  return failf(L, CS_ERR_PARSE, "%s: unknown key in [output] (accepted: t_start, t_end, dt, file)",
               key);
}

static int section_key(struct loader *L, const char *key, const char *value)
{
  struct cs_config *c = L->cfg;
  c->section_given = 1;
  if (strcmp(key, "kind") == 0) {
    if (strcmp(value, "hyperplane") == 0)
      c->section.kind = CS_SECTION_HYPERPLANE;
    else if (strcmp(value, "stroboscopic") == 0)
      c->section.kind = CS_SECTION_STROBOSCOPIC;
    else
      return failf(L, CS_ERR_RANGE, "kind: '%s' (accepted: hyperplane, stroboscopic)", value);
    return 1;
  }
  if (strcmp(key, "variable") == 0) {
    /* checked against the model once it is known */
    if (strlen(value) >= sizeof c->section_variable)
      return failf(L, CS_ERR_RANGE, "variable: name too long");
    strcpy(c->section_variable, value);
    c->section.variable = c->section_variable;
    return 1;
  }
  if (strcmp(key, "level") == 0)
    return number(L, key, value, -1e12, 1e12, "a finite number in the variable's unit",
                  &c->section.level);
  if (strcmp(key, "direction") == 0) {
    double d;
    if (!number(L, key, value, -1, 1, "-1, 0 or 1", &d))
      return 0;
    if (d != -1 && d != 0 && d != 1)
      return failf(L, CS_ERR_RANGE, "direction: %s (accepted: -1, 0 or 1)", value);
    c->section.direction = (int)d;
    return 1;
  }
  return failf(L, CS_ERR_PARSE,
               "%s: unknown key in [section] (accepted: kind, variable, level, direction)", key);
}

static const char *const sweep_keys[] = {"parameter",
                                         "from",
                                         "to",
                                         "points",
                                         "step",
                                         "spacing",
                                         "direction",
                                         "continuation",
                                         "transient",
                                         "record",
                                         "record_crossings",
                                         "parameter2",
                                         "from2",
                                         "to2",
                                         "points2",
                                         "adaptive_transient",
                                         "transient_max",
                                         "max_period",
                                         "lyapunov",
                                         "refine",
                                         "refine_tol",
                                         "equilibria",
                                         "lyapunov_time",
                                         "chunk",
                                         "overlap",
                                         "period_tol",
                                         "multipliers",
                                         NULL};

static int remember(struct loader *L, struct cs_config_raw *r, const char *section, const char *key,
                    const char *value)
{
  if (strlen(key) >= sizeof r->key || strlen(value) >= sizeof r->value)
    return failf(L, CS_ERR_RANGE, "%s: key or value too long", key);
  snprintf(r->section, sizeof r->section, "%s", section);
  snprintf(r->key, sizeof r->key, "%s", key);
  snprintf(r->value, sizeof r->value, "%s", value);
  snprintf(r->where, sizeof r->where, "%s", L->where);
  return 1;
}

/* Keys may come twice only through --set (an override); within the file it is an error. */
static int handle(struct loader *L, const char *section, const char *key, const char *value,
                  int override)
{
  struct cs_config *c = L->cfg;
  if (strcmp(section, "model") == 0) {
    if (strcmp(key, "name") == 0) {
      if (L->model_name[0] && !override)
        return failf(L, CS_ERR_PARSE, "name: given twice (first at line %d)", L->model_line);
      snprintf(L->model_name, sizeof L->model_name, "%s", value);
      L->model_line = L->line;
      return 1;
    }
  } else if (strcmp(section, "solver") == 0) {
    return solver_key(L, key, value);
  } else if (strcmp(section, "output") == 0) {
    return output_key(L, key, value);
  } else if (strcmp(section, "section") == 0) {
    return section_key(L, key, value);
  } else if (strcmp(section, "sweep") == 0 || strcmp(section, "continuation") == 0) {
    /* [continuation] keys are validated by its own parser
     * (analysis/continuation_config.c), with these file:line positions */
    int known = strcmp(section, "continuation") == 0;
    for (int i = 0; sweep_keys[i]; i++)
      known |= strcmp(sweep_keys[i], key) == 0;
    if (!known)
      return failf(L, CS_ERR_PARSE,
                   "%s: unknown key in [sweep] (accepted: parameter, from, to, "
                   "points, step, spacing, direction, continuation, transient, "
                   "record, record_crossings, parameter2, from2, to2, points2, "
                   "adaptive_transient, transient_max, max_period, lyapunov, "
                   "refine, refine_tol, equilibria, lyapunov_time, chunk, overlap, period_tol, "
                   "multipliers)",
                   key);
    for (size_t i = 0; i < c->n_raw; i++)
      if (strcmp(c->raw[i].key, key) == 0 && strcmp(c->raw[i].section, section) == 0) {
        if (!override)
          return failf(L, CS_ERR_PARSE, "%s: given twice (first at %s)", key, c->raw[i].where);
        return remember(L, &c->raw[i], section, key, value);
      }
    if (c->n_raw >= CS_CONFIG_MAX_RAW)
      return failf(L, CS_ERR_RANGE, "%s: too many [%s] keys", key, section);
    return remember(L, &c->raw[c->n_raw++], section, key, value);
  } else if (strcmp(section, "parameters") != 0 && strcmp(section, "initial") != 0) {
    return failf(L, CS_ERR_PARSE,
                 "[%s]: unknown section (accepted: model, parameters, initial, solver, output, "
                 "section, sweep, continuation)",
                 section);
  }
  /* model choices, parameters and initial values wait for the model */
  for (size_t i = 0; i < L->n_pending; i++)
    if (strcmp(L->pending[i].key, key) == 0 && strcmp(L->pending[i].section, section) == 0) {
      if (!override)
        return failf(L, CS_ERR_PARSE, "%s: given twice (first at %s)", key, L->pending[i].where);
      return remember(L, &L->pending[i], section, key, value);
    }
  if (L->n_pending >= sizeof L->pending / sizeof *L->pending)
    return failf(L, CS_ERR_RANGE, "%s: too many keys", key);
  return remember(L, &L->pending[L->n_pending++], section, key, value);
}

static int ini_handler_cb(void *user, const char *section, const char *name, const char *value)
{
  struct loader *L = user;
  if (!name) /* a section header alone (inih with INI_CALL_HANDLER_ON_NEW_SECTION) */
    return 1;
  return handle(L, section, name, value, 0);
}

static int apply_pending(struct loader *L)
{
  struct cs_config *c = L->cfg;
  const struct cs_model *m = c->model;
  for (size_t i = 0; i < L->n_pending && L->st == CS_OK; i++) {
    const struct cs_config_raw *r = &L->pending[i];
    L->where = r->where;
    if (strcmp(r->section, "model") == 0) {
      int k = cs_model_choice_index(m, r->key);
      if (k < 0) {
        char acc[256] = "name";
        for (size_t j = 0; j < m->n_choice; j++)
          snprintf(acc + strlen(acc), sizeof acc - strlen(acc), ", %s", m->choice[j].name);
        return failf(L, CS_ERR_PARSE, "%s: unknown key in [model] of %s (accepted: %s)", r->key,
                     m->name, acc);
      }
      if (cs_model_set_choice(m, c->params, r->key, r->value) != CS_OK) {
        char acc[256];
        cs_model_choice_values(&m->choice[k], acc, sizeof acc);
        return failf(L, CS_ERR_RANGE, "%s: '%s' is not accepted (accepted: %s)", r->key, r->value,
                     acc);
      }
    } else if (strcmp(r->section, "parameters") == 0) {
      int k = cs_model_param_index(m, r->key);
      if (k < 0)
        return failf(L, CS_ERR_PARSE,
                     "%s: unknown parameter of model %s (see 'contensou info --model %s')", r->key,
                     m->name, m->name);
      const struct cs_param_desc *d = &m->param[k];
      char acc[160];
      snprintf(acc, sizeof acc, "%.6g <= %s <= %.6g [%s]", d->min, d->name, d->max, d->unit);
      double v;
      if (!number(L, r->key, r->value, d->min, d->max, acc, &v))
        return 0;
      if (d->alt) {
        int j = cs_model_param_index(m, d->alt);
        int from_set = strncmp(r->where, "--set", 5) == 0;
        if (j >= 0 && c->given[j] && !from_set)
          return failf(L, CS_ERR_PARSE, "%s: %s and %s are alternatives: give one", r->key, d->name,
                       d->alt);
        if (j >= 0)
          c->given[j] = 0;
      }
      cs_model_set_param(m, c->params, r->key, v);
      c->given[k] = strncmp(r->where, "--set", 5) == 0 ? 2 : 1;
    } else {
      int k = cs_model_state_index(m, r->key);
      if (k < 0) {
        char acc[256] = "";
        for (size_t j = 0; j < m->n_state; j++)
          snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", j ? ", " : "",
                   m->state[j].name);
        return failf(L, CS_ERR_PARSE, "%s: unknown state variable of %s (accepted: %s)", r->key,
                     m->name, acc);
      }
      double v;
      if (!number(L, r->key, r->value, -1e12, 1e12, "a finite number", &v))
        return 0;
      c->y0[k] = v;
    }
  }
  return L->st == CS_OK;
}

static int apply_set(struct loader *L, const char *set)
{
  snprintf(L->whereb, sizeof L->whereb, "--set %s", set);
  L->where = L->whereb;
  const char *dot = strchr(set, '.'), *eq = strchr(set, '=');
  if (!dot || !eq || dot > eq || dot == set || eq == dot + 1)
    return failf(L, CS_ERR_PARSE, "expected section.key=value (e.g. parameters.omega0=40)");
  char section[64], key[64];
  size_t ls = (size_t)(dot - set), lk = (size_t)(eq - dot - 1);
  if (ls >= sizeof section || lk >= sizeof key)
    return failf(L, CS_ERR_RANGE, "section or key too long");
  memcpy(section, set, ls), section[ls] = '\0';
  memcpy(key, dot + 1, lk), key[lk] = '\0';
  return handle(L, section, key, eq + 1, 1);
}

static enum cs_status read_file(const char *path, char **text)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return CS_ERR_IO;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t k;
  while (buf && (k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += k;
    if (len + 1 >= cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb)
        free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (!buf)
    return CS_ERR_NOMEM;
  buf[len] = '\0';
  *text = buf;
  return CS_OK;
}

void cs_config_free(struct cs_config *cfg)
{
  if (!cfg)
    return;
  if (cfg->params && cfg->model && cfg->model->detach)
    cfg->model->detach(cfg->params);
  free(cfg->params);
  free(cfg->params_unprepared);
  free(cfg->y0);
  free(cfg->text);
  memset(cfg, 0, sizeof *cfg);
}

static enum cs_status load(const char *path, const char *text, const char *const *sets,
                           size_t n_set, struct cs_config *cfg, char *msg, size_t msglen);

enum cs_status cs_config_load(const char *path, const char *const *sets, size_t n_set,
                              struct cs_config *cfg, char *msg, size_t msglen)
{
  return load(path, NULL, sets, n_set, cfg, msg, msglen);
}

enum cs_status cs_config_load_text(const char *path, const char *text, const char *const *sets,
                                   size_t n_set, struct cs_config *cfg, char *msg, size_t msglen)
{
  return load(path, text, sets, n_set, cfg, msg, msglen);
}

static enum cs_status load(const char *path, const char *text, const char *const *sets,
                           size_t n_set, struct cs_config *cfg, char *msg, size_t msglen)
{
  memset(cfg, 0, sizeof *cfg);
  msg[0] = '\0';
  struct loader *L = calloc(1, sizeof *L);
  if (!L)
    return CS_ERR_NOMEM;
  L->cfg = cfg, L->msg = msg, L->msglen = msglen, L->st = CS_OK;
  L->where = path;
  snprintf(cfg->path, sizeof cfg->path, "%s", path);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  snprintf(cfg->name, sizeof cfg->name, "%s", base);
  char *dot = strrchr(cfg->name, '.');
  if (dot && strcmp(dot, ".ini") == 0)
    *dot = '\0';
  cfg->solver = cs_integrator_opts_default();
  cfg->t_end = NAN;

  enum cs_status st = CS_OK;
  if (text)
    st = (cfg->text = strdup(text)) ? CS_OK : CS_ERR_NOMEM;
  else
    st = read_file(path, &cfg->text);
  if (st != CS_OK) {
    snprintf(msg, msglen, "%s: cannot read the parameter file", path);
    free(L);
    return st;
  }
  L->text = cfg->text;
  int rc = ini_parse_stream(reader, L, ini_handler_cb, L);
  if (rc > 0 && L->st == CS_OK) {
    snprintf(L->whereb, sizeof L->whereb, "%s:%d", path, rc);
    L->where = L->whereb;
    failf(L, CS_ERR_PARSE, "not INI syntax (expected [section] or key = value)");
  }
  for (size_t i = 0; i < n_set && L->st == CS_OK; i++)
    apply_set(L, sets[i]);
  if (L->st == CS_OK) {
    L->where = path;
    if (!L->model_name[0]) {
      failf(L, CS_ERR_PARSE, "name: missing in [model] (accepted: pendulum, belt, twomass)");
    } else if (!(cfg->model = cs_model_find(L->model_name))) {
      char acc[256] = "";
      for (size_t i = 0; cs_models[i]; i++)
        snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", i ? ", " : "",
                 cs_models[i]->name);
      snprintf(L->whereb, sizeof L->whereb, "%s:%d", path, L->model_line);
      L->where = L->whereb;
      failf(L, CS_ERR_RANGE, "name: unknown model '%s' (accepted: %s)", L->model_name, acc);
    }
  }
  if (L->st == CS_OK) {
    const struct cs_model *m = cfg->model;
    cfg->params = malloc(m->params_size);
    cfg->y0 = malloc(m->n_state * sizeof *cfg->y0);
    if (!cfg->params || !cfg->y0) {
      L->st = CS_ERR_NOMEM;
    } else {
      cs_model_params_default(m, cfg->params);
      memcpy(cfg->y0, m->state_default, m->n_state * sizeof *cfg->y0);
      if (!cfg->section_given || !cfg->section_variable[0]) {
        int kind = cfg->section_given ? (int)cfg->section.kind : -1;
        double lvl = cfg->section.level;
        int dir = cfg->section.direction;
        cfg->section = m->section;
        if (m->section.variable)
          snprintf(cfg->section_variable, sizeof cfg->section_variable, "%s", m->section.variable);
        cfg->section.variable = cfg->section_variable;
        if (kind >= 0) {
          cfg->section.kind = (enum cs_section_kind)kind;
          cfg->section.level = lvl, cfg->section.direction = dir;
        }
      }
      apply_pending(L);
    }
  }
  if (L->st == CS_OK) {
    const struct cs_model *m = cfg->model;
    L->where = path;
    if (cfg->section.kind == CS_SECTION_HYPERPLANE &&
        cs_model_state_index(m, cfg->section_variable) < 0 &&
        cs_model_derived_index(m, cfg->section_variable) < 0)
      failf(L, CS_ERR_RANGE,
            "variable: '%s' is neither a state variable nor a derived output "
            "of %s (see 'contensou info --model %s')",
            cfg->section_variable, m->name, m->name);
    else if (!L->seen_t_end && cfg->n_raw == 0)
      failf(L, CS_ERR_PARSE, "t_end: missing in [output] (accepted: a number > t_start)");
    else if (L->seen_t_end && !(cfg->t_end > cfg->t_start))
      failf(L, CS_ERR_RANGE, "t_end: %g is not after t_start = %g", cfg->t_end, cfg->t_start);
  }
  if (L->st == CS_OK) {
    cfg->params_unprepared = malloc(cfg->model->params_size);
    if (!cfg->params_unprepared)
      L->st = CS_ERR_NOMEM;
    else
      memcpy(cfg->params_unprepared, cfg->params, cfg->model->params_size);
  }
  if (L->st == CS_OK) {
    char why[256] = "";
    enum cs_status pst = cfg->model->prepare(cfg->params, why, sizeof why);
    if (pst != CS_OK) {
      L->where = path;
      failf(L, pst, "%s", why);
    } else if (cfg->model->attach && (pst = cfg->model->attach(cfg->params)) != CS_OK) {
      L->where = path;
      failf(L, pst, "cannot set up the friction law: %s", cs_strerror(pst));
    }
  }
  st = L->st;
  free(L);
  if (st != CS_OK) {
    free(cfg->params), free(cfg->params_unprepared), free(cfg->y0), free(cfg->text);
    memset(cfg, 0, sizeof *cfg);
  }
  return st;
}

const struct cs_config_raw *cs_config_raw_find(const struct cs_config *cfg, const char *section,
                                               const char *key)
{
  for (size_t i = 0; i < cfg->n_raw; i++)
    if (strcmp(cfg->raw[i].section, section) == 0 && strcmp(cfg->raw[i].key, key) == 0)
      return &cfg->raw[i];
  return NULL;
}
