/* SPDX-License-Identifier: MIT */
/* The compile-time model registry: adding a model is one file and one line here. */
#include "models/model.h"

extern const struct cs_model cs_model_pendulum;
extern const struct cs_model cs_model_belt;
extern const struct cs_model cs_model_twomass;

const struct cs_model *const cs_models[] = {
    &cs_model_pendulum,
    &cs_model_belt,
    &cs_model_twomass,
    NULL,
};
