/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond models/model.h. */
#ifndef CS_MODELS_MODEL_PRIVATE_H
#define CS_MODELS_MODEL_PRIVATE_H

#include "models/model.h"

int cs_model_choice_index(const struct cs_model *m, const char *name);

int cs_model_derived_index(const struct cs_model *m, const char *name);

/* The number of integer outputs of m (cs_var_desc.integer): the last ones
 * of its derived outputs; 0 for a model without derived_fn. */
size_t cs_model_integer_outputs(const struct cs_model *m);

/* Writes "a, b, c" (the accepted values of a choice) into buf. */
void cs_model_choice_values(const struct cs_choice_desc *c, char *buf, size_t len);

#endif
