/* SPDX-License-Identifier: MIT */
/* contensou keys [--model NAME]: the section.key names a parameter file and
 * --set accept, from the tables the loader checks against (the fixed sections
 * in io/config.c, [continuation] in analysis/continuation_config.c, the rest
 * from the models' descriptions). Not listed in contensou --help: it is for
 * the shell completion (share/bash-completion/completions/contensou). */
#include <stdio.h>
#include <string.h>

#include "analysis/continuation_config.h"
#include "cli/cli_common.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "models/model.h"
#include "io/config_private.h"
#include "analysis/continuation_config_private.h"

static const char keys_help[] =
    "usage: contensou keys [--model NAME]\n"
    "\n"
    "Prints the keys a parameter file and --set accept, one 'section.key' per line:\n"
    "those of [model], [solver], [output], [section], [sweep] and [continuation],\n"
    "then [model] choices, [parameters] and [initial] of the model NAME, or of\n"
    "every model when --model is not given (each key once). Used by the bash\n"
    "completion of --set.\n"
    "\n"
    "options:\n"
    "  --model NAME  one model (contensou info --models lists them)\n"
    "  -h, --help    this text\n"
    "\n"
    "output: the keys on stdout, one per line, [model] name first.\n"
    "\n"
    "exit status: 0 success; 2 bad arguments (an unknown model), with a one-line\n"
    "message.\n";

/* Prints section.key unless an earlier model printed it already. */
static void print_once(const char *section, const char *key, const struct cs_model *const *models,
                       size_t upto, size_t pick)
{
  for (size_t i = 0; i < upto; i++) {
    const struct cs_model *m = models[i];
    if (pick == 0)
      for (size_t j = 0; j < m->n_choice; j++)
        if (strcmp(m->choice[j].name, key) == 0)
          return;
    if (pick == 1)
      for (size_t j = 0; j < m->n_param; j++)
        if (strcmp(m->param[j].name, key) == 0)
          return;
    if (pick == 2)
      for (size_t j = 0; j < m->n_state; j++)
        if (strcmp(m->state[j].name, key) == 0)
          return;
  }
  printf("%s.%s\n", section, key);
}

int cli_keys(const struct cli_ctx *ctx, int argc, char **argv)
{
  const char *cmd = "contensou keys";
  struct cli_opt opts[] = {{.name = "--model", .kind = CLI_TEXT, .what = "a model name"}, {0}};
  int npos, rc = cli_parse(cmd, argc - 1, argv + 1, opts, NULL, 0, &npos);
  (void)ctx;
  if (rc == CLI_HELP) {
    fputs(keys_help, stdout);
    return CLI_EXIT_OK;
  }
  if (rc != 0)
    return rc;
  const struct cs_model *one[2] = {NULL, NULL};
  const struct cs_model *const *models = cs_models;
  const char *model = cli_opt(opts, "--model")->value;
  if (model) {
    one[0] = cs_model_find(model);
    if (!one[0])
      return cli_usage(cmd, "--model: unknown model '%s' (contensou info --models lists them)",
                       model);
    models = one;
  }
  static const char *const fixed[] = {"model", "solver", "output", "section", "sweep"};
  for (size_t s = 0; s < sizeof fixed / sizeof fixed[0]; s++)
    for (const char *const *k = cs_config_section_keys(fixed[s]); *k; k++)
      printf("%s.%s\n", fixed[s], *k);
  for (const char *const *k = cs_continue_config_keys(); *k; k++)
    printf("continuation.%s\n", *k);
  for (size_t i = 0; models[i]; i++) {
    const struct cs_model *m = models[i];
    for (size_t j = 0; j < m->n_choice; j++)
      print_once("model", m->choice[j].name, models, i, 0);
    for (size_t j = 0; j < m->n_param; j++)
      print_once("parameters", m->param[j].name, models, i, 1);
    for (size_t j = 0; j < m->n_state; j++)
      print_once("initial", m->state[j].name, models, i, 2);
  }
  return CLI_EXIT_OK;
}
