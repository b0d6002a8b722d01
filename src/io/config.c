/* SPDX-License-Identifier: MIT */
/* INI parameter files: libinih tokenizes, this file validates. libinih (as
 * Debian builds it) does not report line numbers, so the file is fed through
 * ini_parse_stream with a reader that counts the lines it hands out: when the
 * handler runs, the count is the line of the key.
 *
 * What libinih would read unfaithfully is refused first, with the line:
 * - a NUL byte (the reader, like fgets, would end the file there: whatever
 *   follows would be neither applied nor checked);
 * - a line longer than libinih's buffer (ini_max_line - 3 characters):
 *   libinih cuts it and parses the rest as a new line, so a long comment
 *   ending in "omega0_amp = 5" set omega0_amp. A long comment line is handed
 *   over empty instead (a comment carries nothing to parse), any other long
 *   line is an error;
 * - bytes that are not UTF-8 in a section name or key (names are matched
 *   byte for byte and printed back in messages);
 * - an indented line after a key, which libinih's multi-line mode appends to
 *   that key's value ("  atol = 1e-10" under "rtol = 1e-8" set rtol to
 *   "atol = 1e-10");
 * - a key given twice in the file (only --set may override a key). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "core/error_private.h"
#include "io/config.h"
#include "models/model_private.h"
#include "io/config_private.h"

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

/* A key of the file, to refuse it a second time. */
struct seen_key {
  char section[32];
  char key[64];
  int line;
};

struct loader {
  struct cs_config *cfg;
  const char *where; /* "file:line" prefix being processed */
  char whereb[1100];
  int line;
  int line_indented;                   /* the line handed out last starts with a blank */
  char last_section[32], last_key[64]; /* the key handled last (libinih's prev_name) */
  struct seen_key *seen;               /* keys of the file so far */
  size_t n_seen, cap_seen;
  /* where the keys that are checked against each other were set */
  char at_t_end[1100], at_h_init[1100], at_variable[1100], at_kind[1100];
  char model_name[64];
  int model_line;
  const char *text; /* reader position */
  /* deferred [model] choices and [parameters]/[initial] until the model is known */
  struct cs_config_raw pending[256];
  size_t n_pending;
  int seen_t_end;
  enum cs_status st;
};

static void sanitize(char *msg);

/* Records the reason as this thread's last error (cs_errmsg), sanitized: it
 * quotes what the user wrote. Returns st. */
static enum cs_status record(enum cs_status st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static enum cs_status record(enum cs_status st, const char *fmt, ...)
{
  char line[CS_ERROR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  sanitize(line);
  return cs_error_set(st, "%s", line);
}

static int failf(struct loader *L, enum cs_status st, const char *fmt, ...)
{
  if (L->st != CS_OK)
    return 0;
  L->st = st;
  char why[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  record(st, "%s: %s", L->where, why);
  return 0;
}

/* 1 if the first non-blank character of line[0..len) starts a comment for
 * libinih (INI_START_COMMENT_PREFIXES, ";#"). */
static int comment_line(const char *line, size_t len)
{
  size_t i = 0;
  while (i < len && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return i < len && (line[i] == ';' || line[i] == '#');
}

static char *reader(char *str, int num, void *stream)
{
  struct loader *L = stream;
  const char *p = L->text;
  if (!p || !*p || L->st != CS_OK)
    return NULL;
  size_t len = strcspn(p, "\n"), next = len + (p[len] == '\n');
  size_t content = len > 0 && p[len - 1] == '\r' ? len - 1 : len;
  L->line++;
  snprintf(L->whereb, sizeof L->whereb, "%s:%d", L->cfg->path, L->line);
  L->where = L->whereb;
  L->text = p + next;
  L->line_indented = len > 0 && (p[0] == ' ' || p[0] == '\t');
  /* libinih's buffer holds num - 1 bytes: the line, '\r', '\n' */
  size_t limit = num > 3 ? (size_t)num - 3 : 0;
  if (content > limit) {
    if (!comment_line(p, content)) {
      failf(L, CS_ERR_PARSE,
            "line of %zu characters, longer than the INI parser's limit of %zu (accepted: "
            "shorter lines; a comment may be longer)",
            content, limit);
      return NULL;
    }
    snprintf(str, (size_t)num, "\n");
    return str;
  }
  memcpy(str, p, next);
  str[next] = '\0';
  return str;
}

/* The first byte of s that does not belong to a well-formed UTF-8 sequence,
 * or NULL (overlong forms, surrogates and code points above U+10FFFF are
 * refused as RFC 3629 says). */
static const unsigned char *utf8_invalid(const char *s, size_t len)
{
  const unsigned char *u = (const unsigned char *)s, *end = u + len;
  while (u < end) {
    unsigned c = *u;
    size_t n = c < 0x80             ? 0
               : (c & 0xE0) == 0xC0 ? 1
               : (c & 0xF0) == 0xE0 ? 2
               : (c & 0xF8) == 0xF0 ? 3
                                    : 4;
    if (n == 4 || (size_t)(end - u) <= n)
      return u; /* a stray continuation byte, 0xF8..0xFF, or a sequence cut short */
    unsigned cp = n == 0 ? c : n == 1 ? c & 0x1F : n == 2 ? c & 0x0F : c & 0x07;
    for (size_t i = 1; i <= n; i++) {
      if ((u[i] & 0xC0) != 0x80)
        return u;
      cp = (cp << 6) | (u[i] & 0x3F);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return u;
    u += n + 1;
  }
  return NULL;
}

static int number(struct loader *L, const char *key, const char *value, double lo, double hi,
                  const char *accepted, double *out)
{
  double v = 0;
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
  if (strcmp(key, "h_init") == 0 || strcmp(key, "h_max") == 0)
    snprintf(L->at_h_init, sizeof L->at_h_init, "%s", L->where);
  if (strcmp(key, "stepper") == 0) {
    if (strcmp(value, "erk") == 0)
      o->stepper = CS_STEPPER_ERK;
    else if (strcmp(value, "dirk") == 0)
      o->stepper = CS_STEPPER_DIRK;
    else if (strcmp(value, "erk6") == 0)
      o->stepper = CS_STEPPER_ERK6;
    else if (strcmp(value, "erk8") == 0)
      o->stepper = CS_STEPPER_ERK8;
    else
      return failf(L, CS_ERR_RANGE,
                   "stepper: '%s' is not a stepper (accepted: erk, dirk, erk6, erk8)", value);
    return 1;
  }
  if (strcmp(key, "rtol") == 0)
    return number(L, key, value, 1e-15, 1e-1, "a number in [1e-15, 0.1]", &o->rtol);
  /* atol = 0 makes ARKODE refuse any state with a zero component (its error
   * weight would be infinite); below 1e-30 the absolute test asks more than
   * double precision holds for the states of these models */
  if (strcmp(key, "atol") == 0)
    return number(L, key, value, 1e-30, 1.0,
                  "a number in [1e-30, 1], in the unit of each state variable", &o->atol);
  if (strcmp(key, "h_max") == 0)
    return number(L, key, value, 0.0, 1e12, "a number >= 0, 0 = unbounded", &o->h_max);
  if (strcmp(key, "h_init") == 0)
    return number(L, key, value, 0.0, 1e12, "a number >= 0, 0 = automatic", &o->h_init);
  if (strcmp(key, "max_steps") == 0) {
    long v;
    if (!cs_parse_long(value, &v) || v < 1 || v > 1000000000000L)
      return failf(L, CS_ERR_RANGE, "max_steps: '%s' (accepted: an integer in [1, 1e12])", value);
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
    snprintf(L->at_t_end, sizeof L->at_t_end, "%s", L->where);
    return number(L, key, value, -1e12, 1e12, "a number in (t_start, 1e12] (model time unit)",
                  &c->t_end);
  }
  /* every run starts at t = 0: t_start only opens the recorded window */
  if (strcmp(key, "t_start") == 0)
    return number(L, key, value, 0, 1e12, "a number in [0, 1e12] (model time unit)", &c->t_start);
  if (strcmp(key, "dt") == 0)
    return number(L, key, value, 0.0, 1e12, "a number >= 0 (model time unit), 0 = automatic",
                  &c->dt);
  if (strcmp(key, "file") == 0) {
    if (strlen(value) >= sizeof c->output)
      return failf(L, CS_ERR_RANGE, "file: a path of %zu characters (accepted: at most %zu)",
                   strlen(value), sizeof c->output - 1);
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
    snprintf(L->at_kind, sizeof L->at_kind, "%s", L->where);
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
    snprintf(L->at_variable, sizeof L->at_variable, "%s", L->where);
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
    double d = 0;
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

/* The fixed keys of each section (what `contensou keys` and the shell
 * completion offer; [parameters], [initial] and the [model] choices come from
 * the model's description). The handlers below accept exactly these: the
 * test tests/cli/completion.sh gives each one through --set. */
static const char *const model_keys[] = {"name", NULL};
static const char *const solver_keys[] = {"stepper",         "rtol",  "atol",   "max_steps",
                                          "max_steps_total", "h_max", "h_init", NULL};
static const char *const output_keys[] = {"t_start", "t_end", "dt", "file", NULL};
static const char *const section_keys[] = {"kind", "variable", "level", "direction", NULL};
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
                                         "lyapunov_rtol",
                                         "chunk",
                                         "overlap",
                                         "period_tol",
                                         "multipliers",
                                         "newton_continuation",
                                         NULL};

const char *const *cs_config_section_keys(const char *section)
{
  if (strcmp(section, "model") == 0)
    return model_keys;
  if (strcmp(section, "solver") == 0)
    return solver_keys;
  if (strcmp(section, "output") == 0)
    return output_keys;
  if (strcmp(section, "section") == 0)
    return section_keys;
  if (strcmp(section, "sweep") == 0)
    return sweep_keys;
  return NULL;
}

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

/* Refuses what a line of the file may not be: a name that is not UTF-8, a
 * continuation line, a key given before. Records the key. */
static int check_file_key(struct loader *L, const char *section, const char *key)
{
  const unsigned char *bad = utf8_invalid(section, strlen(section));
  if (bad)
    return failf(L, CS_ERR_PARSE,
                 "[%s]: byte 0x%02X of the section name is not UTF-8 (accepted: "
                 "UTF-8 text)",
                 section, *bad);
  if ((bad = utf8_invalid(key, strlen(key))))
    return failf(L, CS_ERR_PARSE, "%s: byte 0x%02X of the key is not UTF-8 (accepted: UTF-8 text)",
                 key, *bad);
  if (L->line_indented && strcmp(section, L->last_section) == 0 && strcmp(key, L->last_key) == 0)
    return failf(L, CS_ERR_PARSE,
                 "%s: this indented line would continue the value of %s (accepted: one line per "
                 "key, not indented)",
                 key, key);
  snprintf(L->last_section, sizeof L->last_section, "%s", section);
  snprintf(L->last_key, sizeof L->last_key, "%s", key);
  for (size_t i = 0; i < L->n_seen; i++)
    if (strcmp(L->seen[i].key, key) == 0 && strcmp(L->seen[i].section, section) == 0)
      return failf(L, CS_ERR_PARSE, "%s: given twice (first at %s:%d)", key, L->cfg->path,
                   L->seen[i].line);
  if (L->n_seen == L->cap_seen) {
    size_t cap = L->cap_seen ? 2 * L->cap_seen : 64;
    struct seen_key *g = realloc(L->seen, cap * sizeof *g);
    if (!g)
      return failf(L, CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM));
    L->seen = g, L->cap_seen = cap;
  }
  struct seen_key *k = &L->seen[L->n_seen++];
  snprintf(k->section, sizeof k->section, "%s", section);
  snprintf(k->key, sizeof k->key, "%s", key);
  k->line = L->line;
  return 1;
}

/* Keys may come twice only through --set (an override); within the file
 * check_file_key has refused a repeat already. */
static int handle(struct loader *L, const char *section, const char *key, const char *value,
                  int override)
{
  struct cs_config *c = L->cfg;
  if (!override && !check_file_key(L, section, key))
    return 0;
  if (strcmp(section, "model") == 0) {
    if (strcmp(key, "name") == 0) {
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
  } else if (strcmp(section, "sweep") == 0 || strcmp(section, "continuation") == 0 ||
             strcmp(section, "basins") == 0) {
    /* [continuation] and [basins] keys are validated by their own parsers
     * (analysis/continuation_config.c, analysis/basins_config.c), with these
     * file:line positions */
    int known = strcmp(section, "continuation") == 0 || strcmp(section, "basins") == 0;
    for (int i = 0; sweep_keys[i]; i++)
      known |= strcmp(sweep_keys[i], key) == 0;
    if (!known)
      return failf(L, CS_ERR_PARSE,
                   "%s: unknown key in [sweep] (accepted: parameter, from, to, "
                   "points, step, spacing, direction, continuation, transient, "
                   "record, record_crossings, parameter2, from2, to2, points2, "
                   "adaptive_transient, transient_max, max_period, lyapunov, "
                   "refine, refine_tol, equilibria, lyapunov_time, lyapunov_rtol, chunk, overlap, "
                   "period_tol, "
                   "multipliers, newton_continuation)",
                   key);
    for (size_t i = 0; i < c->n_raw; i++)
      if (strcmp(c->raw[i].key, key) == 0 && strcmp(c->raw[i].section, section) == 0)
        return remember(L, &c->raw[i], section, key, value);
    if (c->n_raw >= CS_CONFIG_MAX_RAW)
      return failf(L, CS_ERR_RANGE, "%s: too many [%s] keys", key, section);
    return remember(L, &c->raw[c->n_raw++], section, key, value);
  } else if (strcmp(section, "parameters") != 0 && strcmp(section, "initial") != 0) {
    return failf(L, CS_ERR_PARSE,
                 "[%s]: unknown section (accepted: model, parameters, initial, solver, output, "
                 "section, sweep, continuation, basins)",
                 section);
  }
  /* model choices, parameters and initial values wait for the model */
  for (size_t i = 0; i < L->n_pending; i++)
    if (strcmp(L->pending[i].key, key) == 0 && strcmp(L->pending[i].section, section) == 0)
      return remember(L, &L->pending[i], section, key, value);
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
      double v = 0;
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
      double v = 0;
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
  const unsigned char *bad = utf8_invalid(set, strlen(set));
  if (bad)
    return failf(L, CS_ERR_PARSE, "byte 0x%02X is not UTF-8 (accepted: UTF-8 text)", *bad);
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

/* Parameter files are a few kB; a larger "parameter file" is a mistake
 * (a result file, /dev/zero) and is not read into memory whole. */
#define MAX_FILE_BYTES (1 << 20)

/* Reads the whole file into *text (NUL-terminated, *len bytes without the
 * terminator). */
static enum cs_status read_file(const char *path, char **text, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return record(CS_ERR_IO, "%s: cannot read the parameter file: %s", path, strerror(errno));
  size_t cap = 4096, n = 0, k;
  char *buf = malloc(cap);
  while (buf && n <= MAX_FILE_BYTES && (k = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += k;
    if (n + 1 >= cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb)
        free(buf);
      buf = nb;
    }
  }
  int err = ferror(f) ? errno : 0;
  fclose(f);
  enum cs_status st = CS_OK;
  if (!buf)
    st = record(CS_ERR_NOMEM, "%s: %s", path, cs_strerror(CS_ERR_NOMEM));
  else if (err)
    st = record(CS_ERR_IO, "%s: cannot read the parameter file: %s", path, strerror(err));
  else if (n > MAX_FILE_BYTES)
    st = record(CS_ERR_PARSE,
                "%s: larger than %d bytes: not a parameter file (accepted: an INI text file)", path,
                MAX_FILE_BYTES);
  if (st != CS_OK) {
    free(buf);
    return st;
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return CS_OK;
}

/* A NUL byte in text[0..len): the line and column it is on, for the message. */
static int find_nul(const char *text, size_t len, int *line, size_t *col)
{
  const char *z = memchr(text, '\0', len);
  if (!z)
    return 0;
  *line = 1;
  const char *start = text;
  for (const char *p = text; p < z; p++)
    if (*p == '\n')
      (*line)++, start = p + 1;
  *col = (size_t)(z - start) + 1;
  return 1;
}

/* Messages quote what the user wrote: control characters and bytes of broken
 * UTF-8 are shown as '?', so that a message stays one printable line. */
static void sanitize(char *msg)
{
  size_t len = strlen(msg);
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)msg[i];
    if (c < 0x20 || c == 0x7F) {
      msg[i++] = '?';
      continue;
    }
    if (c < 0x80) {
      i++;
      continue;
    }
    const unsigned char *bad = utf8_invalid(msg + i, len - i);
    size_t good = bad ? (size_t)((const char *)bad - (msg + i)) : len - i;
    i += good;
    if (bad)
      msg[i++] = '?';
  }
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
                           size_t n_set, struct cs_config *cfg);

enum cs_status cs_config_load(const char *path, const char *const *sets, size_t n_set,
                              struct cs_config *cfg)
{
  return load(path, NULL, sets, n_set, cfg);
}

enum cs_status cs_config_load_text(const char *path, const char *text, const char *const *sets,
                                   size_t n_set, struct cs_config *cfg)
{
  return load(path, text, sets, n_set, cfg);
}

static enum cs_status load(const char *path, const char *text, const char *const *sets,
                           size_t n_set, struct cs_config *cfg)
{
  memset(cfg, 0, sizeof *cfg);
  struct loader *L = calloc(1, sizeof *L);
  if (!L)
    return CS_FAIL(CS_ERR_NOMEM);
  L->cfg = cfg, L->st = CS_OK;
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

  size_t len = 0;
  int nul_line;
  size_t nul_col;
  enum cs_status st = CS_OK;
  /* cfg->path names the file in messages and in result files: never cut */
  if (strlen(path) >= sizeof cfg->path)
    st = record(CS_ERR_RANGE, "a parameter file path of %zu characters (accepted: at most %zu)",
                strlen(path), sizeof cfg->path - 1);
  else if (text) { /* e.g. the copy stored in a result file: checked like a file */
    len = strlen(text);
    if (len > MAX_FILE_BYTES)
      st = record(CS_ERR_PARSE, "%s: larger than %d bytes: not a parameter file", path,
                  MAX_FILE_BYTES);
    else if (!(cfg->text = strdup(text)))
      st = record(CS_ERR_NOMEM, "%s: %s", path, cs_strerror(CS_ERR_NOMEM));
  } else {
    st = read_file(path, &cfg->text, &len);
  }
  if (st == CS_OK && find_nul(cfg->text, len, &nul_line, &nul_col)) {
    st = record(CS_ERR_PARSE,
                "%s:%d: NUL byte at column %zu: the parser would end the file there (accepted: "
                "a text file without NUL bytes)",
                path, nul_line, nul_col);
    free(cfg->text);
  }
  if (st != CS_OK) {
    cfg->text = NULL;
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
      L->st = record(CS_ERR_NOMEM, "%s: %s", path, cs_strerror(CS_ERR_NOMEM));
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
    L->where = L->at_variable[0] ? L->at_variable : path;
    if (cfg->section.kind == CS_SECTION_HYPERPLANE &&
        cs_model_state_index(m, cfg->section_variable) < 0 &&
        cs_model_derived_index(m, cfg->section_variable) < 0)
      failf(L, CS_ERR_RANGE,
            "variable: '%s' is neither a state variable nor a derived output "
            "of %s (see 'contensou info --model %s')",
            cfg->section_variable, m->name, m->name);
    /* a model whose forcing can be periodic refuses points without it one by
     * one; one that is never forced would fail at every point */
    if (cfg->section.kind == CS_SECTION_STROBOSCOPIC && !m->forcing_period) {
      L->where = L->at_kind[0] ? L->at_kind : path;
      failf(L, CS_ERR_RANGE,
            "kind: stroboscopic needs a periodic forcing and %s has none (accepted: hyperplane)",
            m->name);
    }
  }
  if (L->st == CS_OK && !L->seen_t_end && cfg->n_raw == 0) {
    L->where = path;
    failf(L, CS_ERR_PARSE, "t_end: missing in [output] (accepted: a number > t_start)");
  }
  if (L->st == CS_OK && L->seen_t_end && !(cfg->t_end > cfg->t_start)) {
    L->where = L->at_t_end;
    failf(L, CS_ERR_RANGE, "t_end: %g is not after t_start = %g (accepted: t_start < t_end)",
          cfg->t_end, cfg->t_start);
  }
  if (L->st == CS_OK && cfg->solver.h_max > 0 && cfg->solver.h_init > cfg->solver.h_max) {
    L->where = L->at_h_init;
    failf(L, CS_ERR_RANGE,
          "h_init: %g exceeds h_max = %g (accepted: h_init <= h_max, or h_max = 0)",
          cfg->solver.h_init, cfg->solver.h_max);
  }
  if (L->st == CS_OK) {
    cfg->params_unprepared = malloc(cfg->model->params_size);
    if (!cfg->params_unprepared)
      L->st = record(CS_ERR_NOMEM, "%s: %s", path, cs_strerror(CS_ERR_NOMEM));
    else
      memcpy(cfg->params_unprepared, cfg->params, cfg->model->params_size);
  }
  if (L->st == CS_OK) {
    enum cs_status pst = cfg->model->prepare(cfg->params);
    if (pst != CS_OK) {
      char why[CS_ERROR_LEN];
      snprintf(why, sizeof why, "%s", cs_errmsg());
      L->where = path;
      failf(L, pst, "%s", why);
    } else if (cfg->model->attach && (pst = cfg->model->attach(cfg->params)) != CS_OK) {
      L->where = path;
      failf(L, pst, "cannot set up the friction law: %s", cs_strerror(pst));
    }
  }
  st = L->st;
  free(L->seen);
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

/* ------------------------------------------- deferred sections' keys
 * (io/config_private.h) */

int cs_config_i_err(struct cs_config_parse *p, const struct cs_config_raw *r, const char *key,
                    enum cs_status st, const char *fmt, ...)
{
  if (p->st != CS_OK)
    return 0;
  p->st = st;
  char line[CS_ERROR_LEN];
  int k = snprintf(line, sizeof line, "%s: %s: ", r ? r->where : p->cfg->path, key);
  va_list ap;
  va_start(ap, fmt);
  if (k >= 0 && (size_t)k < sizeof line)
    vsnprintf(line + k, sizeof line - (size_t)k, fmt, ap);
  va_end(ap);
  cs_error_set(st, "%s", line);
  return 0;
}

const struct cs_config_raw *cs_config_i_get(struct cs_config_parse *p, const char *key)
{
  return cs_config_raw_find(p->cfg, p->section, key);
}

int cs_config_i_number(struct cs_config_parse *p, const char *key, double lo, double hi,
                       const char *accepted, double *out)
{
  const struct cs_config_raw *r = cs_config_i_get(p, key);
  if (!r || p->st != CS_OK)
    return 0;
  double v;
  if (!cs_parse_double(r->value, &v))
    return cs_config_i_err(p, r, key, CS_ERR_PARSE, "'%s' is not a number (accepted: %s)", r->value,
                           accepted);
  if (v < lo || v > hi)
    return cs_config_i_err(p, r, key, CS_ERR_RANGE, "%s is out of range (accepted: %s)", r->value,
                           accepted);
  *out = v;
  return 1;
}

int cs_config_i_count(struct cs_config_parse *p, const char *key, long lo, long hi, long *out)
{
  const struct cs_config_raw *r = cs_config_i_get(p, key);
  if (!r || p->st != CS_OK)
    return 0;
  long v;
  if (!cs_parse_long(r->value, &v) || v < lo || v > hi)
    return cs_config_i_err(p, r, key, CS_ERR_RANGE, "'%s' (accepted: an integer in [%ld, %ld])",
                           r->value, lo, hi);
  *out = v;
  return 1;
}

int cs_config_i_size(struct cs_config_parse *p, const char *key, long lo, long hi, size_t *out)
{
  long v = 0;
  if (!cs_config_i_count(p, key, lo < 0 ? 0 : lo, hi, &v))
    return 0;
  *out = (size_t)v;
  return 1;
}

int cs_config_i_bool(struct cs_config_parse *p, const char *key, int *out)
{
  const struct cs_config_raw *r = cs_config_i_get(p, key);
  if (!r || p->st != CS_OK)
    return 0;
  if (!cs_parse_bool(r->value, out))
    return cs_config_i_err(p, r, key, CS_ERR_RANGE, "'%s' (accepted: true, false)", r->value);
  return 1;
}

int cs_config_i_choice(struct cs_config_parse *p, const char *key, const char *const *names,
                       int *out)
{
  const struct cs_config_raw *r = cs_config_i_get(p, key);
  if (!r || p->st != CS_OK)
    return 0;
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], r->value) == 0)
      return *out = i, 1;
  char acc[200] = "";
  for (int i = 0; names[i]; i++)
    snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", i ? ", " : "", names[i]);
  return cs_config_i_err(p, r, key, CS_ERR_RANGE, "'%s' (accepted: %s)", r->value, acc);
}
