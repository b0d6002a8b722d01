/* SPDX-License-Identifier: MIT */
/* Parameter access by name through a model's descriptor tables. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error_private.h"
#include "models/model.h"
#include "models/model_private.h"

const struct cs_model *cs_model_find(const char *name)
{
  if (!name)
    return NULL;
  for (size_t i = 0; cs_models[i]; i++)
    if (strcmp(cs_models[i]->name, name) == 0)
      return cs_models[i];
  return NULL;
}

int cs_model_param_index(const struct cs_model *m, const char *name)
{
  for (size_t i = 0; i < m->n_param; i++)
    if (strcmp(m->param[i].name, name) == 0)
      return (int)i;
  return -1;
}

int cs_model_choice_index(const struct cs_model *m, const char *name)
{
  for (size_t i = 0; i < m->n_choice; i++)
    if (strcmp(m->choice[i].name, name) == 0)
      return (int)i;
  return -1;
}

static int var_index(const struct cs_var_desc *v, size_t n, const char *name)
{
  for (size_t i = 0; i < n; i++)
    if (strcmp(v[i].name, name) == 0)
      return (int)i;
  return -1;
}

int cs_model_state_index(const struct cs_model *m, const char *name)
{
  return var_index(m->state, m->n_state, name);
}

int cs_model_derived_index(const struct cs_model *m, const char *name)
{
  return var_index(m->derived, m->n_derived, name);
}

size_t cs_model_integer_outputs(const struct cs_model *m)
{
  /* only the trailing ones: an integer output before a real one breaks the
   * contract of model.h, and is then stored as a real rather than mixing
   * the columns up (tests/test_models.c refuses such a model) */
  size_t n = 0;
  while (m && m->derived_fn && n < m->n_derived && m->derived[m->n_derived - 1 - n].integer)
    n++;
  return n;
}

static double *field(const struct cs_model *m, void *params, size_t i)
{
  return (double *)((char *)params + m->param[i].offset);
}

void cs_model_params_default(const struct cs_model *m, void *params)
{
  memset(params, 0, m->params_size);
  for (size_t i = 0; i < m->n_param; i++)
    *field(m, params, i) = m->param[i].def;
  for (size_t i = 0; i < m->n_choice; i++)
    *(int *)((char *)params + m->choice[i].offset) = m->choice[i].def;
}

enum cs_status cs_model_set_param(const struct cs_model *m, void *params, const char *name,
                                  double value)
{
  int i = cs_model_param_index(m, name);
  if (i < 0)
    return cs_error_set(CS_ERR_NOT_FOUND, "model %s has no parameter '%s'", m ? m->name : "(null)",
                        name ? name : "(null)");
  const struct cs_param_desc *p = &m->param[i];
  if (!isfinite(value) || value < p->min || value > p->max)
    return cs_error_set(CS_ERR_RANGE, "%s = %g is outside the accepted range [%g, %g] (%s)",
                        p->name, value, p->min, p->max, p->unit);
  *field(m, params, (size_t)i) = value;
  if (p->alt) {
    int j = cs_model_param_index(m, p->alt);
    if (j >= 0)
      *field(m, params, (size_t)j) = NAN;
  }
  return CS_OK;
}

double cs_model_get_param(const struct cs_model *m, const void *params, int index)
{
  return *(const double *)((const char *)params + m->param[index].offset);
}

enum cs_status cs_model_set_choice(const struct cs_model *m, void *params, const char *name,
                                   const char *value)
{
  int i = cs_model_choice_index(m, name);
  if (i < 0)
    return CS_FAIL(CS_ERR_NOT_FOUND);
  const struct cs_choice_desc *c = &m->choice[i];
  for (int k = 0; c->values[k]; k++)
    if (strcmp(c->values[k], value) == 0) {
      *(int *)((char *)params + c->offset) = k;
      return CS_OK;
    }
  return CS_FAIL(CS_ERR_RANGE);
}

const char *cs_model_get_choice(const struct cs_model *m, const void *params, int index)
{
  int k = *(const int *)((const char *)params + m->choice[index].offset);
  return m->choice[index].values[k];
}

void cs_model_choice_values(const struct cs_choice_desc *c, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int k = 0; c->values[k] && used < len; k++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? ", " : "", c->values[k]);
}

size_t cs_model_switches(const struct cs_model *m, const void *params)
{
  if (!m->n_switch)
    return 0;
  return !m->is_hybrid || m->is_hybrid(params) ? m->n_switch : 0;
}
