/* SPDX-License-Identifier: MIT */
/* [continuation] keys -> struct cs_continue_config, with the loader's error
 * format (see continuation_config.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/continuation_config.h"
#include "core/error_private.h"
#include "io/config_private.h"
#include "analysis/continuation_config_private.h"

static const char *const keys[] = {
    "branch",
    "parameter",
    "min",
    "max",
    "at",
    "start",
    "direction",
    "transient",
    "returns",
    "points",
    "ds",
    "ds_min",
    "ds_max",
    "step_max",
    "newton_tol",
    "max_iter",
    "locate",
    "locate_tol",
    "period_doubling",
    "period_max",
    "hopf_amplitude",
    "search",
    "user",
    "parameter2",
    "min2",
    "max2",
    "points2",
    "ds2",
    "ds2_max",
    "direction2",
    "curve",
    "stop",
    NULL,
};

/* stop = KIND[:N][, KIND[:N]]...: the special points that end the branch */
static void stop_list(struct cs_config_parse *p, struct cs_continue_spec *spec)
{
  const struct cs_config_raw *r = cs_config_i_get(p, "stop");
  if (!r || p->st != CS_OK)
    return;
  char acc[400] = "a list of KIND or KIND:N (the N-th located, N >= 1), separated by commas "
                  "or spaces, KIND one of";
  for (int k = 0; k < CS_SPECIAL_COUNT; k++)
    if (k != CS_SPECIAL_END)
      snprintf(acc + strlen(acc), sizeof acc - strlen(acc), " %s", cs_special_name(k));
  const char *s = r->value;
  size_t given = 0;
  while (*s) {
    size_t len = strcspn(s, ", \t");
    if (len == 0) {
      s++;
      continue;
    }
    char item[64];
    if (len >= sizeof item) {
      cs_config_i_err(p, r, "stop", CS_ERR_PARSE, "'%.*s' is too long (accepted: %s)", (int)len, s,
                      acc);
      return;
    }
    memcpy(item, s, len);
    item[len] = '\0';
    s += len;
    long n = 1;
    char *colon = strchr(item, ':');
    if (colon) {
      *colon = '\0';
      if (!cs_parse_long(colon + 1, &n) || n < 1 || n > 1000000) {
        cs_config_i_err(p, r, "stop", CS_ERR_RANGE, "'%s:%s' (accepted: %s)", item, colon + 1, acc);
        return;
      }
    }
    int kind = -1;
    for (int k = 0; k < CS_SPECIAL_COUNT && kind < 0; k++)
      if (k != CS_SPECIAL_END && strcmp(item, cs_special_name(k)) == 0)
        kind = k;
    if (kind < 0) {
      cs_config_i_err(p, r, "stop", CS_ERR_RANGE, "'%s' is not a special point (accepted: %s)",
                      item, acc);
      return;
    }
    spec->stop_after[kind] = (size_t)n;
    given++;
  }
  if (given == 0)
    cs_config_i_err(p, r, "stop", CS_ERR_PARSE, "empty (accepted: %s)", acc);
}

/* start = sweep:FILE.h5:INDEX[:forward|backward] */
static void sweep_start(struct cs_config_parse *p, const struct cs_config_raw *r,
                        struct cs_continue_config *c)
{
  static const char accepted[] =
      "state, hopf, or sweep:FILE.h5:INDEX[:forward|backward], INDEX a grid index >= 0";
  char buf[sizeof r->value];
  snprintf(buf, sizeof buf, "%s", r->value + strlen("sweep:"));
  char *pass = NULL, *idx = strrchr(buf, ':');
  if (idx && (strcmp(idx + 1, "forward") == 0 || strcmp(idx + 1, "backward") == 0)) {
    pass = idx + 1;
    *idx = '\0';
    idx = strrchr(buf, ':');
  }
  long k;
  if (!idx || idx == buf || !cs_parse_long(idx + 1, &k) || k < 0) {
    cs_config_i_err(p, r, "start", CS_ERR_RANGE, "'%s' (accepted: %s)", r->value, accepted);
    return;
  }
  *idx = '\0';
  snprintf(c->sweep_file, sizeof c->sweep_file, "%s", buf);
  c->sweep_index = k;
  c->sweep_pass = pass && strcmp(pass, "backward") == 0;
  c->start = CS_CONTINUE_FROM_SWEEP;
}

const char *cs_continue_from_name(enum cs_continue_from s)
{
  static const char *const names[] = {"state",           "hopf",   "sweep", "fold",
                                      "period-doubling", "branch", "curve", "neimark-sacker",
                                      "grazing"};
  return (int)s >= 0 && s <= CS_CONTINUE_FROM_GRAZING ? names[s] : "unknown";
}

/* parameter2, min2, max2 */
static void param2(struct cs_config_parse *p, struct cs_continue_config *c)
{
  const struct cs_model *m = p->cfg->model;
  const struct cs_config_raw *r = cs_config_i_get(p, "parameter2");
  c->curve = cs_curve_spec_default();
  if (!r || p->st != CS_OK)
    return;
  if (c->param < 0) {
    cs_config_i_err(p, r, "parameter2", CS_ERR_PARSE, "needs parameter");
    return;
  }
  int k = cs_model_param_index(m, r->value);
  if (k < 0 || k == c->param) {
    char acc[600] = "";
    for (size_t i = 0; i < m->n_param; i++)
      if ((int)i != c->param)
        snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", acc[0] ? ", " : "",
                 m->param[i].name);
    cs_config_i_err(p, r, "parameter2", CS_ERR_RANGE, "'%s' is %s (accepted: %s)", r->value,
                    k < 0 ? "not a parameter of the model" : "the first parameter", acc);
    return;
  }
  const struct cs_param_desc *d = &m->param[k];
  char acc[200];
  snprintf(acc, sizeof acc, "%.6g <= %s <= %.6g [%s]", d->min, d->name, d->max, d->unit);
  struct cs_curve_spec *cv = &c->curve;
  int has_min = cs_config_i_number(p, "min2", d->min, d->max, acc, &cv->min2);
  int has_max = cs_config_i_number(p, "max2", d->min, d->max, acc, &cv->max2);
  if (p->st == CS_OK && !has_min)
    cs_config_i_err(p, NULL, "min2", CS_ERR_PARSE, "missing in [continuation] (accepted: %s)", acc);
  if (p->st == CS_OK && !has_max)
    cs_config_i_err(p, NULL, "max2", CS_ERR_PARSE, "missing in [continuation] (accepted: %s)", acc);
  if (p->st == CS_OK && !(cv->max2 > cv->min2))
    cs_config_i_err(p, cs_config_i_get(p, "max2"), "max2", CS_ERR_RANGE,
                    "%g is not above min2 = %g", cv->max2, cv->min2);
  double v2 = cs_model_get_param(m, p->cfg->params_unprepared, k);
  /* start = curve: the point's p2 comes from the file (checked at the run) */
  const struct cs_config_raw *sr = cs_config_i_get(p, "start");
  int from_curve = sr && strncmp(sr->value, "curve:", 6) == 0;
  if (p->st == CS_OK && !from_curve && !(v2 >= cv->min2 && v2 <= cv->max2))
    cs_config_i_err(
        p, cs_config_i_get(p, "min2"), "min2", CS_ERR_RANGE,
        "[parameters] %s = %.10g, where the curve starts, is outside [min2, max2] = [%g, %g]",
        d->name, v2, cv->min2, cv->max2);
  c->param2 = k;
  cv->param2 = k;
}

/* user = NAME:VALUE[, NAME:VALUE]... */
static void user_points(struct cs_config_parse *p, struct cs_continue_config *c)
{
  const struct cs_config_raw *r = cs_config_i_get(p, "user");
  if (!r || p->st != CS_OK)
    return;
  const struct cs_model *m = p->cfg->model;
  char acc[300];
  if (c->param < 0) {
    cs_config_i_err(p, r, "user", CS_ERR_PARSE, "needs parameter");
    return;
  }
  if (c->param2 >= 0)
    snprintf(acc, sizeof acc, "NAME:VALUE, ... with NAME %s or %s, at most %d",
             m->param[c->param].name, m->param[c->param2].name, CS_CURVE_MAX_USER);
  else
    snprintf(acc, sizeof acc, "NAME:VALUE, ... with NAME %s, at most %d", m->param[c->param].name,
             CS_CURVE_MAX_USER);
  char buf[sizeof r->value];
  snprintf(buf, sizeof buf, "%s", r->value);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok && p->st == CS_OK;
       tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ' || *tok == '\t')
      tok++;
    char *colon = strchr(tok, ':');
    double v;
    if (!colon || c->n_user >= CS_CURVE_MAX_USER) {
      cs_config_i_err(p, r, "user", CS_ERR_PARSE, "'%s' (accepted: %s)", tok, acc);
      break;
    }
    *colon = '\0';
    char *end = colon + 1 + strlen(colon + 1);
    while (end > colon + 1 && (end[-1] == ' ' || end[-1] == '\t'))
      *--end = '\0';
    for (char *e = colon; e > tok && (e[-1] == ' ' || e[-1] == '\t');)
      *--e = '\0';
    int k = cs_model_param_index(m, tok);
    if (k < 0 || (k != c->param && k != c->param2)) {
      cs_config_i_err(p, r, "user", CS_ERR_RANGE,
                      "'%s' is not a continued parameter (accepted: %s)", tok, acc);
      break;
    }
    if (!cs_parse_double(colon + 1, &v) || !(v >= m->param[k].min && v <= m->param[k].max)) {
      cs_config_i_err(p, r, "user", CS_ERR_RANGE, "%s:%s (accepted: a value in [%g, %g] %s)", tok,
                      colon + 1, m->param[k].min, m->param[k].max, m->param[k].unit);
      break;
    }
    c->user_param[c->n_user] = k;
    c->user_value[c->n_user] = v;
    c->curve.user_param[c->n_user] = k == c->param ? 1 : 2;
    c->curve.user_value[c->n_user] = v;
    c->n_user++;
  }
  c->curve.n_user = c->n_user;
  /* the branch: its own parameter's points */
  for (size_t i = 0; i < c->n_user; i++)
    if (c->user_param[i] == c->param && c->spec.n_user < CS_BRANCH_MAX_USER)
      c->spec.user_value[c->spec.n_user++] = c->user_value[i];
}

const char *const *cs_continue_config_keys(void)
{
  return keys;
}

enum cs_status cs_continue_config_read(const struct cs_config *cfg, int need_param,
                                       struct cs_continue_config *c)
{
  struct cs_config_parse p = {cfg, "continuation", CS_OK};
  const struct cs_model *m = cfg->model;
  memset(c, 0, sizeof *c);
  c->branch = CS_BRANCH_CYCLE;
  c->start = CS_CONTINUE_FROM_STATE;
  c->param = -1;
  c->at = NAN;
  c->spec = cs_continue_spec_default();
  c->param2 = -1;
  c->spec.orbit.solver = cfg->solver;
  c->spec.orbit.section = cfg->section;
  c->transient = isfinite(cfg->t_end) ? cfg->t_end : 0.0;

  /* every key known */
  for (size_t i = 0; i < cfg->n_raw && p.st == CS_OK; i++) {
    const struct cs_config_raw *r = &cfg->raw[i];
    if (strcmp(r->section, "continuation") != 0)
      continue;
    int known = 0;
    for (int k = 0; keys[k]; k++)
      known |= strcmp(keys[k], r->key) == 0;
    if (!known) {
      char acc[400] = "";
      for (int k = 0; keys[k]; k++)
        snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", k ? ", " : "", keys[k]);
      cs_config_i_err(&p, r, r->key, CS_ERR_PARSE, "unknown key in [continuation] (accepted: %s)",
                      acc);
    }
  }

  static const char *const branches[] = {"equilibria", "cycles", NULL};
  int br = 1;
  cs_config_i_choice(&p, "branch", branches, &br);
  c->branch = br ? CS_BRANCH_CYCLE : CS_BRANCH_EQUILIBRIUM;

  const struct cs_config_raw *r = cs_config_i_get(&p, "parameter");
  if (r && p.st == CS_OK) {
    c->param = cs_model_param_index(m, r->value);
    if (c->param < 0) {
      char acc[600] = "";
      for (size_t i = 0; i < m->n_param; i++)
        snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", i ? ", " : "",
                 m->param[i].name);
      cs_config_i_err(&p, r, "parameter", CS_ERR_RANGE,
                      "'%s' is not a parameter of %s (accepted: %s)", r->value, m->name, acc);
    }
  } else if (need_param && p.st == CS_OK) {
    cs_config_i_err(&p, NULL, "parameter", CS_ERR_PARSE,
                    "missing in [continuation] (accepted: a parameter of %s)", m->name);
  }
  if (c->param >= 0 && p.st == CS_OK) {
    const struct cs_param_desc *d = &m->param[c->param];
    char acc[200];
    snprintf(acc, sizeof acc, "%.6g <= %s <= %.6g [%s]", d->min, d->name, d->max, d->unit);
    int has_min = cs_config_i_number(&p, "min", d->min, d->max, acc, &c->spec.p_min);
    int has_max = cs_config_i_number(&p, "max", d->min, d->max, acc, &c->spec.p_max);
    if (p.st == CS_OK && !has_min)
      cs_config_i_err(&p, NULL, "min", CS_ERR_PARSE, "missing in [continuation] (accepted: %s)",
                      acc);
    if (p.st == CS_OK && !has_max)
      cs_config_i_err(&p, NULL, "max", CS_ERR_PARSE, "missing in [continuation] (accepted: %s)",
                      acc);
    /* blame the key the command line changed, if one of them came from --set */
    if (p.st == CS_OK && !(c->spec.p_max > c->spec.p_min)) {
      const struct cs_config_raw *rmin = cs_config_i_get(&p, "min");
      if (rmin && strncmp(rmin->where, "--set", 5) == 0)
        cs_config_i_err(&p, rmin, "min", CS_ERR_RANGE, "%g is not below max = %g", c->spec.p_min,
                        c->spec.p_max);
      else
        cs_config_i_err(&p, cs_config_i_get(&p, "max"), "max", CS_ERR_RANGE,
                        "%g is not above min = %g", c->spec.p_max, c->spec.p_min);
    }
    c->at = cs_model_get_param(m, cfg->params_unprepared, c->param);
    if (p.st == CS_OK) {
      snprintf(acc, sizeof acc, "a value of %s in [min, max] = [%.10g, %.10g] %s", d->name,
               c->spec.p_min, c->spec.p_max, d->unit);
      if (!cs_config_i_number(&p, "at", c->spec.p_min, c->spec.p_max, acc, &c->at) &&
          p.st == CS_OK && !(c->at >= c->spec.p_min && c->at <= c->spec.p_max))
        cs_config_i_err(&p, NULL, "at", CS_ERR_RANGE,
                        "missing, and [parameters] %s = %.10g is outside [min, max] (accepted: %s)",
                        d->name, c->at, acc);
    }
  } else if (p.st == CS_OK) {
    const char *needing[] = {"min", "max", "at", "start", "direction", "points", NULL};
    for (int i = 0; needing[i]; i++)
      if (cs_config_i_get(&p, needing[i]))
        cs_config_i_err(&p, cs_config_i_get(&p, needing[i]), needing[i], CS_ERR_PARSE,
                        "needs parameter");
  }

  param2(&p, c);
  r = cs_config_i_get(&p, "start");
  if (p.st == CS_OK && c->param2 >= 0 && !r)
    cs_config_i_err(
        &p, NULL, "start", CS_ERR_PARSE,
        "missing in [continuation] with parameter2 (accepted: hopf, fold, period-doubling, "
        "neimark-sacker, grazing)");
  if (r && p.st == CS_OK) {
    if (strcmp(r->value, "state") == 0)
      c->start = CS_CONTINUE_FROM_STATE;
    else if (strcmp(r->value, "hopf") == 0)
      c->start = CS_CONTINUE_FROM_HOPF;
    else if (strncmp(r->value, "sweep:", 6) == 0)
      sweep_start(&p, r, c);
    else if (strcmp(r->value, "fold") == 0 && c->param2 >= 0)
      c->start = CS_CONTINUE_FROM_FOLD;
    else if (strcmp(r->value, "period-doubling") == 0 && c->param2 >= 0)
      c->start = CS_CONTINUE_FROM_PD;
    else if (strcmp(r->value, "grazing") == 0 && c->param2 >= 0)
      c->start = CS_CONTINUE_FROM_GRAZING;
    else if (strcmp(r->value, "neimark-sacker") == 0 && c->param2 >= 0)
      c->start = CS_CONTINUE_FROM_NS;
    else if ((strncmp(r->value, "branch:", 7) == 0 || strncmp(r->value, "curve:", 6) == 0) &&
             c->param2 >= 0) {
      /* branch:FILE.h5:K (a row of /special), curve:FILE.h5:K (of /curve_special) */
      int curve = r->value[0] == 'c';
      size_t skip = curve ? 6 : 7;
      const char *colon = strrchr(r->value + skip, ':');
      long k;
      if (!colon || colon == r->value + skip || !cs_parse_long(colon + 1, &k) || k < 0)
        cs_config_i_err(&p, r, "start", CS_ERR_RANGE,
                        "'%s' (accepted: %s:FILE.h5:K, K a row of the file's %s, from 0)", r->value,
                        curve ? "curve" : "branch", curve ? "/curve_special" : "/special");
      else {
        snprintf(c->sweep_file, sizeof c->sweep_file, "%.*s", (int)(colon - r->value - skip),
                 r->value + skip);
        c->sweep_index = k;
        c->start = curve ? CS_CONTINUE_FROM_CURVE : CS_CONTINUE_FROM_BRANCH;
      }
    } else if (c->param2 >= 0)
      cs_config_i_err(
          &p, r, "start", CS_ERR_RANGE,
          "'%s' (accepted with parameter2: hopf, fold, period-doubling, neimark-sacker, grazing, "
          "branch:FILE.h5:K, curve:FILE.h5:K)",
          r->value);
    else
      cs_config_i_err(
          &p, r, "start", CS_ERR_RANGE,
          "'%s' (accepted: state, hopf, or sweep:FILE.h5:INDEX[:forward|backward]; fold, "
          "period-doubling, neimark-sacker with parameter2)",
          r->value);
    if (p.st == CS_OK && c->param2 >= 0 && c->start == CS_CONTINUE_FROM_STATE)
      cs_config_i_err(
          &p, r, "start", CS_ERR_RANGE,
          "'%s' starts no curve (accepted with parameter2: hopf, fold, period-doubling, "
          "neimark-sacker, branch:FILE.h5:K, curve:FILE.h5:K, sweep:FILE.h5:INDEX with curve = "
          "KIND)",
          r->value);
    /* a sweep point starts a curve at the first point of a kind of its branch */
    static const char *const curve_kinds[] = {"hopf", "fold", "period-doubling", "neimark-sacker",
                                              NULL};
    static const enum cs_special_kind curve_at[] = {
        CS_SPECIAL_HOPF, CS_SPECIAL_FOLD, CS_SPECIAL_PERIOD_DOUBLING, CS_SPECIAL_NEIMARK_SACKER};
    const struct cs_config_raw *ck = cs_config_i_get(&p, "curve");
    int k = -1;
    if (p.st == CS_OK && c->param2 >= 0 && c->start == CS_CONTINUE_FROM_SWEEP && !ck)
      cs_config_i_err(&p, NULL, "curve", CS_ERR_PARSE,
                      "missing in [continuation] with start = sweep and parameter2 (accepted: "
                      "hopf, fold, period-doubling, neimark-sacker: the first such point of the "
                      "branch)");
    else if (p.st == CS_OK && ck && !(c->param2 >= 0 && c->start == CS_CONTINUE_FROM_SWEEP))
      cs_config_i_err(&p, ck, "curve", CS_ERR_PARSE,
                      "needs start = sweep:FILE.h5:INDEX and parameter2 (other starts name the "
                      "point themselves)");
    else if (p.st == CS_OK && ck && cs_config_i_choice(&p, "curve", curve_kinds, &k) && k >= 0)
      c->curve_at = curve_at[k];
    if (p.st == CS_OK && ck && c->curve_at == CS_SPECIAL_HOPF && c->branch == CS_BRANCH_CYCLE)
      cs_config_i_err(&p, ck, "curve", CS_ERR_RANGE,
                      "hopf is a point of equilibria (accepted: branch = equilibria)");
    if (p.st == CS_OK && ck &&
        (c->curve_at == CS_SPECIAL_PERIOD_DOUBLING || c->curve_at == CS_SPECIAL_NEIMARK_SACKER) &&
        c->branch != CS_BRANCH_CYCLE)
      cs_config_i_err(&p, ck, "curve", CS_ERR_RANGE,
                      "%s points are points of cycles (accepted: branch = cycles)", ck->value);
    if (p.st == CS_OK && c->start == CS_CONTINUE_FROM_PD && c->branch != CS_BRANCH_CYCLE)
      cs_config_i_err(&p, r, "start", CS_ERR_RANGE,
                      "period doublings are points of cycles (accepted: branch = cycles)");
    if (p.st == CS_OK && c->start == CS_CONTINUE_FROM_GRAZING && c->branch != CS_BRANCH_CYCLE)
      cs_config_i_err(&p, r, "start", CS_ERR_RANGE,
                      "grazings are points of event-driven cycles (accepted: branch = cycles)");
    if (p.st == CS_OK && c->param2 >= 0 && c->start == CS_CONTINUE_FROM_GRAZING &&
        m->forcing_period && m->forcing_period(cfg->params) > 0)
      cs_config_i_err(&p, r, "start", CS_ERR_RANGE,
                      "grazing curves of a forced model are not supported (accepted: an "
                      "autonomous event-driven model)");
    if (p.st == CS_OK && c->start == CS_CONTINUE_FROM_NS && c->branch != CS_BRANCH_CYCLE)
      cs_config_i_err(&p, r, "start", CS_ERR_RANGE,
                      "Neimark-Sacker points are points of cycles (accepted: branch = cycles)");
    /* forced fold and period-doubling curves are followed; Neimark-Sacker
     * curves are not (the trivial multiplier's deflation uses the section) */
    if (p.st == CS_OK && c->param2 >= 0 &&
        (c->start == CS_CONTINUE_FROM_NS ||
         (ck && c->start == CS_CONTINUE_FROM_SWEEP && c->curve_at == CS_SPECIAL_NEIMARK_SACKER)) &&
        c->branch == CS_BRANCH_CYCLE && m->forcing_period && m->forcing_period(cfg->params) > 0)
      cs_config_i_err(&p, c->start == CS_CONTINUE_FROM_NS ? r : ck,
                      c->start == CS_CONTINUE_FROM_NS ? "start" : "curve", CS_ERR_RANGE,
                      "Neimark-Sacker curves of a forced model are not supported (accepted: an "
                      "autonomous model; fold and period-doubling curves of forced models are)");
    if (p.st == CS_OK && c->start == CS_CONTINUE_FROM_HOPF && c->branch != CS_BRANCH_CYCLE &&
        c->param2 < 0)
      cs_config_i_err(&p, r, "start", CS_ERR_RANGE,
                      "hopf starts a branch of cycles (accepted: branch = "
                      "cycles, or start = state)");
    if (p.st == CS_OK && c->start == CS_CONTINUE_FROM_HOPF && m->forcing_period &&
        m->forcing_period(cfg->params) > 0)
      cs_config_i_err(&p, r, "start", CS_ERR_RANGE,
                      "a forced model has no equilibria, hence no Hopf point (accepted: state)");
  }
  static const char *const directions[] = {"backward", "forward", NULL};
  int dir = 1;
  cs_config_i_choice(&p, "direction", directions, &dir);
  c->spec.direction = dir ? 1 : -1;
  cs_config_i_number(&p, "transient", 0, 1e12, "a time >= 0 in the model's time unit",
                     &c->transient);
  long v = 0;
  if (cs_config_i_count(&p, "returns", 1, 1024, &v))
    c->spec.orbit.returns = (int)v;
  if (cs_config_i_count(&p, "points", 2, 10000000, &v))
    c->spec.max_points = (size_t)v;
  cs_config_i_number(&p, "ds", 1e-14, 1e3, "a scaled arclength > 0", &c->spec.ds);
  cs_config_i_number(&p, "ds_min", 1e-16, 1e3, "a scaled arclength > 0", &c->spec.ds_min);
  cs_config_i_number(&p, "ds_max", 1e-14, 1e3, "a scaled arclength > 0", &c->spec.ds_max);
  if (p.st == CS_OK && !(c->spec.ds_min <= c->spec.ds && c->spec.ds <= c->spec.ds_max)) {
    const struct cs_config_raw *w =
        cs_config_i_get(&p, "ds") ? cs_config_i_get(&p, "ds") : cs_config_i_get(&p, "ds_max");
    cs_config_i_err(&p, w, w ? w->key : "ds", CS_ERR_RANGE,
                    "ds_min = %g, ds = %g, ds_max = %g (accepted: ds_min <= ds <= ds_max)",
                    c->spec.ds_min, c->spec.ds, c->spec.ds_max);
  }
  cs_config_i_number(&p, "step_max", 0, 1e300, "a parameter change >= 0, 0: no bound",
                     &c->spec.step_max);
  cs_config_i_number(&p, "newton_tol", 1e-6, 1e9, "a number > 0 of solver tolerance units",
                     &c->spec.orbit.newton_tol);
  if (cs_config_i_count(&p, "max_iter", 1, 1000, &v))
    c->spec.max_iter = (int)v;
  c->spec.orbit.max_iter = c->spec.max_iter > 30 ? c->spec.max_iter : 30;
  static const char *const bools[] = {"false", "true", NULL};
  cs_config_i_choice(&p, "locate", bools, &c->spec.locate);
  cs_config_i_number(&p, "locate_tol", 0, 1e300, "a parameter tolerance >= 0, 0: 1e-9 (max - min)",
                     &c->spec.locate_tol);
  static const char *const pd[] = {"stay", "switch", NULL};
  cs_config_i_choice(&p, "period_doubling", pd, &c->spec.switch_pd);
  cs_config_i_number(&p, "period_max", 0, 1e300, "a time >= 0, 0: 100 times the first period",
                     &c->spec.period_max);
  stop_list(&p, &c->spec);
  cs_config_i_number(&p, "hopf_amplitude", 1e-12, 0.5, "a relative size in (0, 0.5]",
                     &c->spec.hopf_amplitude);
  cs_config_i_number(&p, "search", 1e-12, 1e12, "a time > 0 in the model's time unit",
                     &c->spec.orbit.search);
  if (c->param2 >= 0) {
    struct cs_curve_spec *cv = &c->curve;
    if (cs_config_i_count(&p, "points2", 2, 10000000, &v))
      cv->max_points = (size_t)v;
    cs_config_i_number(&p, "ds2", 1e-14, 1e3, "a scaled arclength > 0", &cv->ds);
    cs_config_i_number(&p, "ds2_max", 1e-14, 1e3, "a scaled arclength > 0", &cv->ds_max);
    if (p.st == CS_OK && !(cv->ds <= cv->ds_max))
      cs_config_i_err(&p,
                      cs_config_i_get(&p, "ds2") ? cs_config_i_get(&p, "ds2")
                                                 : cs_config_i_get(&p, "ds2_max"),
                      "ds2", CS_ERR_RANGE, "ds2 = %g, ds2_max = %g (accepted: ds2 <= ds2_max)",
                      cv->ds, cv->ds_max);
    static const char *const dir2[] = {"backward", "both", "forward", NULL};
    int d2 = 1;
    cs_config_i_choice(&p, "direction2", dir2, &d2);
    cv->direction = d2 - 1;
    cv->orbit = c->spec.orbit;
    cv->max_iter = c->spec.max_iter > 10 ? c->spec.max_iter : 10;
    cv->min1 = c->spec.p_min, cv->max1 = c->spec.p_max;
  } else {
    const char *needing[] = {"min2", "max2", "points2", "ds2", "ds2_max", "direction2", NULL};
    for (int i = 0; needing[i] && p.st == CS_OK; i++)
      if (cs_config_i_get(&p, needing[i]))
        cs_config_i_err(&p, cs_config_i_get(&p, needing[i]), needing[i], CS_ERR_PARSE,
                        "needs parameter2");
  }
  user_points(&p, c);
  return p.st;
}
