/* SPDX-License-Identifier: MIT */
/* The key tables that `contensou keys` and the shell completion offer
 * (cs_config_section_keys) against the loader's own checks, which are
 * separate code: every key of a table is accepted through --set, and the
 * list of accepted keys that the loader prints for an unknown key is the
 * table, no more and no less. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "analysis/continuation_config.h"
#include "io/config.h"
#include "io/config_private.h"
#include "analysis/continuation_config_private.h"

static const char base[] = "[model]\nname = oscillator\n[output]\nt_end = 1\n";

/* Loads base with the overrides; returns the status, msg filled with the
 * reason of a failure. */
static enum cs_status load(const char *const *sets, size_t n, char *msg, size_t len)
{
  struct cs_config cfg;
  enum cs_status st = cs_config_load_text("keys.ini", base, sets, n, &cfg);
  if (st == CS_OK)
    cs_config_free(&cfg);
  else
    snprintf(msg, len, "%s", cs_errmsg());
  return st;
}

static void table_keys_are_accepted(void **state)
{
  (void)state;
  static const char *const sections[] = {"model", "solver", "output", "section", "sweep"};
  size_t n = 0;
  for (size_t s = 0; s < sizeof sections / sizeof *sections; s++) {
    const char *const *keys = cs_config_section_keys(sections[s]);
    assert_non_null(keys);
    for (size_t k = 0; keys[k]; k++, n++) {
      char set[128], msg[1024] = "";
      snprintf(set, sizeof set, "%s.%s=1", sections[s], keys[k]);
      /* an unknown section after it: the loader gets past the key (or
       * refuses its value 1), but never calls it an unknown key */
      const char *sets[] = {set, "bogus.k=1"};
      enum cs_status st = load(sets, 2, msg, sizeof msg);
      if (strstr(msg, "unknown key"))
        fail_msg("%s: the loader says %s", set, msg);
      assert_int_not_equal(st, CS_OK);
    }
  }
  assert_true(n >= 40);
}

/* The loader's "(accepted: a, b, c)" for an unknown key of section equals the
 * table (sections other than [model], whose other keys are the model's). */
static void accepted_lists_equal_tables(void **state)
{
  (void)state;
  static const char *const sections[] = {"solver", "output", "section", "sweep"};
  for (size_t s = 0; s < sizeof sections / sizeof *sections; s++) {
    char set[64], msg[2048] = "";
    snprintf(set, sizeof set, "%s.no_such_key=1", sections[s]);
    const char *sets[] = {set};
    assert_int_not_equal(load(sets, 1, msg, sizeof msg), CS_OK);
    char *list = strstr(msg, "(accepted: ");
    if (!list || !strstr(msg, "unknown key"))
      fail_msg("%s: %s", set, msg);
    list += strlen("(accepted: ");
    char *end = strchr(list, ')');
    assert_non_null(end);
    *end = '\0';
    const char *const *keys = cs_config_section_keys(sections[s]);
    size_t n_table = 0, n_listed = 0;
    while (keys[n_table])
      n_table++;
    for (char *tok = strtok(list, ", "); tok; tok = strtok(NULL, ", "), n_listed++) {
      size_t k = 0;
      while (keys[k] && strcmp(keys[k], tok) != 0)
        k++;
      if (!keys[k])
        fail_msg("[%s]: the loader accepts '%s', the table lacks it", sections[s], tok);
    }
    /* every listed key is in the table and none is listed twice by the
     * loader's message: equal counts make the two sets equal */
    if (n_listed != n_table)
      fail_msg("[%s]: the loader lists %zu keys, the table has %zu", sections[s], n_listed,
               n_table);
  }
}

static void other_sections_have_no_fixed_keys(void **state)
{
  (void)state;
  assert_null(cs_config_section_keys("parameters"));
  assert_null(cs_config_section_keys("initial"));
  assert_null(cs_config_section_keys("nosuch"));
  const char *const *cont = cs_continue_config_keys();
  size_t n = 0;
  while (cont[n])
    n++;
  assert_true(n >= 10);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(table_keys_are_accepted),
      cmocka_unit_test(accepted_lists_equal_tables),
      cmocka_unit_test(other_sections_have_no_fixed_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
