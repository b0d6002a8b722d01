/* SPDX-License-Identifier: MIT */
/* The compile-time model registry: adding a model is one file and one line here. */
#include "models/model.h"

extern const struct cs_model cs_model_pendulum;
extern const struct cs_model cs_model_belt;
extern const struct cs_model cs_model_twomass;
extern const struct cs_model cs_model_oscillator;
extern const struct cs_model cs_model_vanderpol;
extern const struct cs_model cs_model_duffing;
extern const struct cs_model cs_model_lorenz;
extern const struct cs_model cs_model_subhopf;
extern const struct cs_model cs_model_bautin;
extern const struct cs_model cs_model_bt;
extern const struct cs_model cs_model_cusp;
extern const struct cs_model cs_model_flip;
extern const struct cs_model cs_model_torus;
extern const struct cs_model cs_model_foldflip;
extern const struct cs_model cs_model_cuspcycle;

const struct cs_model *const cs_models[] = {
    &cs_model_pendulum,
    &cs_model_belt,
    &cs_model_twomass,
    /* reference systems with known answers, for checking the analysis */
    &cs_model_oscillator,
    &cs_model_vanderpol,
    &cs_model_duffing,
    &cs_model_lorenz,
    &cs_model_subhopf,
    &cs_model_bautin,
    &cs_model_bt,
    &cs_model_cusp,
    &cs_model_flip,
    &cs_model_torus,
    &cs_model_foldflip,
    &cs_model_cuspcycle,
    NULL,
};
