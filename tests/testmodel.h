/* SPDX-License-Identifier: MIT */
/* Helpers shared by the tests that build model parameters by hand. */
#ifndef CS_TESTMODEL_H
#define CS_TESTMODEL_H

#include <stdlib.h>

#include "testutil.h"

#include "models/model.h"

/* The model's defaults, in a malloc'ed params struct. */
static inline void *make_params(const struct cs_model *m)
{
  void *p = malloc(m->params_size);
  assert_non_null(p);
  cs_model_params_default(m, p);
  return p;
}

/* prepare() (failing the test with the model's reason) and attach(). */
static inline void prepare_ok(const struct cs_model *m, void *p)
{
  if (m->prepare(p) != CS_OK)
    fail_msg("%s: prepare failed: %s", m->name, cs_errmsg());
  if (m->attach)
    assert_int_equal(m->attach(p), CS_OK);
}

/* detach() and free. */
static inline void release(const struct cs_model *m, void *p)
{
  if (m->detach)
    m->detach(p);
  free(p);
}

#endif
