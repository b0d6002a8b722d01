/* SPDX-License-Identifier: MIT */
/* Parameter files: every file in params/ loads and prepares; a table of bad
 * inputs each gives its documented status and a one-line "file:line: key:"
 * message; --set overrides go through the same checks. */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/config.h"

static char dir[256];

static int setup(void **state)
{
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/cs_test_config_XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

static const char *write_ini(const char *name, const char *text)
{
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return path;
}

static void every_params_file_loads(void **state)
{
  (void)state;
  char pdir[600];
  snprintf(pdir, sizeof pdir, "%s/params", CONTENSOU_SOURCE_DIR);
  DIR *d = opendir(pdir);
  assert_non_null(d);
  struct dirent *e;
  int n = 0;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 4, ".ini") != 0)
      continue;
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", pdir, e->d_name);
    struct cs_config cfg;
    enum cs_status st = cs_config_load(path, NULL, 0, &cfg);
    if (st != CS_OK)
      fail_msg("%s: %s", e->d_name, cs_errmsg());
    assert_non_null(cfg.model);
    cs_config_free(&cfg);
    n++;
  }
  closedir(d);
  print_message("%d parameter files loaded\n", n);
  assert_true(n >= 12);
}

static const char *good = "[model]\n"
                          "name = pendulum\n"
                          "law = I11-reg\n"
                          "[parameters]\n"
                          "omega0 = 40\n"
                          "eta = 2.5\n"
                          "[solver]\n"
                          "stepper = dirk\n"
                          "rtol = 1e-9\n"
                          "[output]\n"
                          "t_end = 2\n";

static void good_file_and_overrides(void **state)
{
  (void)state;
  const char *path = write_ini("good.ini", good);
  struct cs_config cfg;
  const char *sets[] = {"parameters.omega0=61.5", "solver.rtol=1e-8", "initial.phi=0.3"};
  assert_int_equal(cs_config_load(path, sets, 3, &cfg), CS_OK);
  const struct cs_model *m = cfg.model;
  assert_string_equal(m->name, "pendulum");
  assert_close(cs_model_get_param(m, cfg.params, cs_model_param_index(m, "omega0")), 61.5, 0);
  assert_close(cfg.solver.rtol, 1e-8, 0);
  assert_int_equal(cfg.solver.stepper, CS_STEPPER_DIRK);
  assert_close(cfg.y0[cs_model_state_index(m, "phi")], 0.3, 0);
  /* eta' was derived from eta */
  assert_close(cs_model_get_param(m, cfg.params, cs_model_param_index(m, "eta_prime")), 6.086002,
               1e-6);
  assert_string_equal(cfg.name, "good");
  cs_config_free(&cfg);
}

struct bad_case {
  const char *text;      /* file contents */
  const char *set;       /* one override or NULL */
  enum cs_status status; /* expected */
  const char *needle;    /* expected in the message */
};

static void bad_inputs(void **state)
{
  (void)state;
  const struct bad_case cases[] = {
      {"[model]\nname = pendulum\n[parameters]\nMass = 1\n[output]\nt_end = 1\n", NULL,
       CS_ERR_PARSE, "bad.ini:4: Mass: unknown parameter"},
      {"[model]\nname = pendulum\n[parameters]\nM = abc\n[output]\nt_end = 1\n", NULL, CS_ERR_PARSE,
       "bad.ini:4: M: 'abc' is not a number (accepted: 1e-09 <= M <= 1e+09 [kg])"},
      {"[model]\nname = pendulum\n[parameters]\nM = -1.2\n[output]\nt_end = 1\n", NULL,
       CS_ERR_RANGE, "bad.ini:4: M: -1.2 is out of range"},
      {"[model]\nname = pendulum\n[parameters]\neta = 0.5\n[output]\nt_end = 1\n", NULL,
       CS_ERR_RANGE, "bad.ini:4: eta: 0.5 is out of range (accepted: 1 <= eta <= 1000 [1])"},
      {"[model]\nname = pendulum\n[parameters]\nM = 1\nM = 2\n[output]\nt_end = 1\n", NULL,
       CS_ERR_PARSE, "bad.ini:5: M: given twice (first at"},
      {"[model]\nname = pendulum\n[parameters]\neta = 2\neta_prime = 4\n[output]\nt_end = 1\n",
       NULL, CS_ERR_PARSE, "bad.ini:5: eta_prime: eta_prime and eta are alternatives"},
      {"[model]\nname = pendulum\n[output]\nt_end = 1\n", "parameters.N=-3", CS_ERR_RANGE,
       "--set parameters.N=-3: N: -3 is out of range"},
      {"[model]\nname = pendulum\n[output]\nt_end = 1\n", "parameters.N", CS_ERR_PARSE,
       "--set parameters.N: expected section.key=value"},
      {"[model]\nname = pendulm\n[output]\nt_end = 1\n", NULL, CS_ERR_RANGE,
       "bad.ini:2: name: unknown model 'pendulm' (accepted: pendulum, belt"},
      {"[parameters]\nM = 1\n[output]\nt_end = 1\n", NULL, CS_ERR_PARSE,
       "name: missing in [model]"},
      {"[model]\nname = pendulum\nlaw = coulomb\n[output]\nt_end = 1\n", NULL, CS_ERR_RANGE,
       "bad.ini:3: law: 'coulomb' is not accepted (accepted: I11-reg, I00-reg, integral-reg"},
      {"[model]\nname = pendulum\n[solver]\nstepper = rk4\n[output]\nt_end = 1\n", NULL,
       CS_ERR_RANGE,
       "bad.ini:4: stepper: 'rk4' is not a stepper (accepted: erk, dirk, erk6, erk8)"},
      {"[model]\nname = pendulum\n[solver]\nrtol = 0\n[output]\nt_end = 1\n", NULL, CS_ERR_RANGE,
       "bad.ini:4: rtol: 0 is out of range"},
      {"[model]\nname = pendulum\n[solver]\nmax_steps = 1.5\n[output]\nt_end = 1\n", NULL,
       CS_ERR_RANGE, "bad.ini:4: max_steps: '1.5' (accepted: an integer in [1, 1e12])"},
      /* values a later layer would refuse: ARKODE refuses atol = 0 with a zero state */
      {"[model]\nname = pendulum\n[solver]\natol = 0\n[output]\nt_end = 1\n", NULL, CS_ERR_RANGE,
       "bad.ini:4: atol: 0 is out of range (accepted: a number in [1e-30, 1]"},
      {"[model]\nname = pendulum\n[output]\nt_end = 1\n", "solver.atol=0", CS_ERR_RANGE,
       "--set solver.atol=0: atol: 0 is out of range"},
      {"[model]\nname = pendulum\n[solver]\nh_init = 1\nh_max = 0.1\n[output]\nt_end = 1\n", NULL,
       CS_ERR_RANGE, "bad.ini:5: h_init: 1 exceeds h_max = 0.1"},
      {"[model]\nname = pendulum\n[solver]\nh_max = 0.1\n[output]\nt_end = 1\n", "solver.h_init=1",
       CS_ERR_RANGE, "--set solver.h_init=1: h_init: 1 exceeds h_max = 0.1"},
      {"[model]\nname = pendulum\n[output]\nt_start = -1\nt_end = 1\n", NULL, CS_ERR_RANGE,
       "bad.ini:4: t_start: -1 is out of range (accepted: a number in [0, 1e12]"},
      {"[model]\nname = pendulum\n[output]\nt_start = 2\nt_end = 1\n", NULL, CS_ERR_RANGE,
       "bad.ini:5: t_end: 1 is not after t_start = 2"},
      /* a repeated key in any section; an indented continuation line */
      {"[model]\nname = pendulum\n[solver]\nrtol = 1e-8\nrtol = 1e-6\n[output]\nt_end = 1\n", NULL,
       CS_ERR_PARSE, "bad.ini:5: rtol: given twice (first at"},
      {"[model]\nname = pendulum\nname = belt\n[output]\nt_end = 1\n", NULL, CS_ERR_PARSE,
       "bad.ini:3: name: given twice"},
      {"[model]\nname = pendulum\n[solver]\nrtol = 1e-8\n  atol = 1e-10\n[output]\nt_end = 1\n",
       NULL, CS_ERR_PARSE, "bad.ini:5: rtol: this indented line would continue the value of rtol"},
      /* keys that are not UTF-8, here Latin-1 */
      {"[model]\nname = pendulum\n[parameters]\nom\xe9ga0 = 40\n[output]\nt_end = 1\n", NULL,
       CS_ERR_PARSE, "bad.ini:4: om?ga0: byte 0xE9 of the key is not UTF-8"},
      {"[model]\nname = pendulum\n[param\xe8tres]\nM = 1\n[output]\nt_end = 1\n", NULL,
       CS_ERR_PARSE, "bad.ini:4: [param?tres]: byte 0xE8 of the section name is not UTF-8"},
      {"[model]\nname = pendulum\n[output]\nt_end = 1\n", "parameters.\xff=1", CS_ERR_PARSE,
       "byte 0xFF is not UTF-8"},
      {"[model]\nname = vanderpol\n[section]\nkind = stroboscopic\n[output]\nt_end = 1\n", NULL,
       CS_ERR_RANGE,
       "bad.ini:4: kind: stroboscopic needs a periodic forcing and vanderpol has none"},
      /* control characters are not echoed into the one-line message */
      {"[model]\nname = pendulum\n[parameters]\nM\x1b[2J = 1\n[output]\nt_end = 1\n", NULL,
       CS_ERR_PARSE, "bad.ini:4: M?[2J: unknown parameter"},
      {"[model]\nname = pendulum\n[output]\ndt = 0.1\n", NULL, CS_ERR_PARSE,
       "t_end: missing in [output]"},
      {"[model]\nname = pendulum\n[output]\nt_end = -1\n", NULL, CS_ERR_RANGE,
       "t_end: -1 is not after t_start"},
      {"[model]\nname = pendulum\n[initial]\ntheta = 1\n[output]\nt_end = 1\n", NULL, CS_ERR_PARSE,
       "bad.ini:4: theta: unknown state variable of pendulum (accepted: XC, YC"},
      {"[model]\nname = pendulum\n[plot]\nx = 1\n[output]\nt_end = 1\n", NULL, CS_ERR_PARSE,
       "bad.ini:4: [plot]: unknown section"},
      {"[model]\nname = pendulum\n[section]\nvariable = q\n[output]\nt_end = 1\n", NULL,
       CS_ERR_RANGE, "variable: 'q' is neither a state variable nor a derived output"},
      {"[model]\nname = pendulum\n[section]\ndirection = 2\n[output]\nt_end = 1\n", NULL,
       CS_ERR_RANGE, "bad.ini:4: direction: 2 is out of range (accepted: -1, 0 or 1)"},
      {"[model]\nname = pendulum\n[sweep]\nparamter = omega0\n", NULL, CS_ERR_PARSE,
       "bad.ini:4: paramter: unknown key in [sweep]"},
      {"[model]\nname = pendulum\nthis is not ini\n", NULL, CS_ERR_PARSE,
       "bad.ini:3: not INI syntax"},
      {"[model]\nname = belt\n[parameters]\nk12 = 1\n[output]\nt_end = 1\n", NULL, CS_ERR_RANGE,
       "bad.ini:4: k12: 1 is out of range"},
      {"[model]\nname = pendulum\n[parameters]\neps = 0\n[output]\nt_end = 1\n", NULL, CS_ERR_RANGE,
       "eps must be > 0 for the regularized law I11-reg"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *path = write_ini("bad.ini", cases[i].text);
    struct cs_config cfg;
    const char *sets[1] = {cases[i].set};
    enum cs_status st = cs_config_load(path, sets, cases[i].set ? 1 : 0, &cfg);
    if (st != cases[i].status || !strstr(cs_errmsg(), cases[i].needle))
      fail_msg("case %zu: status %d (expected %d), message '%s' lacks '%s'", i, st, cases[i].status,
               cs_errmsg(), cases[i].needle);
    assert_null(strchr(cs_errmsg(), '\n'));
    assert_null(cfg.model);
  }
  struct cs_config cfg;
  assert_int_equal(cs_config_load("/nonexistent/x.ini", NULL, 0, &cfg), CS_ERR_IO);
  assert_non_null(strstr(cs_errmsg(), "/nonexistent/x.ini"));
}

/* Writes len bytes (NULs allowed) to dir/name. */
static const char *write_bytes(const char *name, const char *bytes, size_t len)
{
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(bytes, 1, len, f), len);
  fclose(f);
  return path;
}

/* What libinih would read unfaithfully: a NUL ends its reading of the file (an
 * out-of-range rtol after it was neither applied nor checked), a line longer
 * than its buffer is cut and the tail parsed as a new line (a long comment
 * ending in "omega0_amp = 5" set omega0_amp). */
static void unfaithful_text(void **state)
{
  (void)state;
  struct cs_config cfg;
  char text[1200];
  /* NUL */
  static const char nul[] =
      "[model]\nname = pendulum\n[output]\nt_end = 1\n\0\n[solver]\nrtol = 5\n";
  const char *path = write_bytes("nul.ini", nul, sizeof nul - 1);
  assert_int_equal(cs_config_load(path, NULL, 0, &cfg), CS_ERR_PARSE);
  assert_non_null(strstr(cs_errmsg(), "nul.ini:5: NUL byte at column 1"));
  /* a long comment line ending in a key: accepted, and the key is not set */
  int n = snprintf(text, sizeof text, "[model]\nname = pendulum\n[parameters]\n; ");
  while (n < 380)
    text[n++] = 'x';
  n += snprintf(text + n, sizeof text - (size_t)n, " omega0_amp = 5\n[output]\nt_end = 1\n");
  path = write_bytes("longc.ini", text, (size_t)n);
  assert_int_equal(cs_config_load(path, NULL, 0, &cfg), CS_OK);
  const struct cs_model *m = cfg.model;
  assert_close(cs_model_get_param(m, cfg.params, cs_model_param_index(m, "omega0_amp")), 0.0, 0);
  cs_config_free(&cfg);
  /* the same text as a value line is refused with its line */
  n = snprintf(text, sizeof text, "[model]\nname = pendulum\n[parameters]\nomega0 = 40 ");
  while (n < 380)
    text[n++] = ' ';
  n += snprintf(text + n, sizeof text - (size_t)n, " omega0_amp = 5\n[output]\nt_end = 1\n");
  path = write_bytes("longv.ini", text, (size_t)n);
  assert_int_equal(cs_config_load(path, NULL, 0, &cfg), CS_ERR_PARSE);
  if (!strstr(cs_errmsg(),
              "longv.ini:4: line of 358 characters, longer than the INI parser's limit of 197"))
    fail_msg("%s", cs_errmsg());
  /* 197 characters (libinih's 200 less '\r', '\n', '\0') still pass, 198 do not */
  for (int len = 197; len <= 198; len++) {
    n = snprintf(text, sizeof text, "[model]\nname = pendulum\n[parameters]\nomega0 = 40");
    int start = n - (int)strlen("omega0 = 40");
    while (n - start < len)
      text[n++] = ' ';
    n += snprintf(text + n, sizeof text - (size_t)n, "\r\n[output]\nt_end = 1\n");
    path = write_bytes("edge.ini", text, (size_t)n);
    enum cs_status st = cs_config_load(path, NULL, 0, &cfg);
    assert_int_equal(st, len == 197 ? CS_OK : CS_ERR_PARSE);
    if (st == CS_OK) {
      assert_close(
          cs_model_get_param(cfg.model, cfg.params, cs_model_param_index(cfg.model, "omega0")), 40,
          0);
      cs_config_free(&cfg);
    }
  }
  /* not a text file at all */
  char *big = calloc(1, (1 << 20) + 10);
  assert_non_null(big);
  memset(big, ';', (1 << 20) + 9);
  path = write_bytes("big.ini", big, (1 << 20) + 9);
  free(big);
  assert_int_equal(cs_config_load(path, NULL, 0, &cfg), CS_ERR_PARSE);
  assert_non_null(strstr(cs_errmsg(), "not a parameter file"));
  assert_int_equal(cs_config_load(dir, NULL, 0, &cfg), CS_ERR_IO);
  assert_non_null(strstr(cs_errmsg(), "Is a directory"));
}

/* eta_prime given instead of eta: eta is derived (the paper's 6.7627 is 2.7174). */
static void eta_prime_instead_of_eta(void **state)
{
  (void)state;
  const char *path = write_ini("ep.ini", "[model]\nname = belt\n[parameters]\neta_prime = 6.7627\n"
                                         "[output]\nt_end = 1\n");
  struct cs_config cfg;
  assert_int_equal(cs_config_load(path, NULL, 0, &cfg), CS_OK);
  const struct cs_model *m = cfg.model;
  assert_close(cs_model_get_param(m, cfg.params, cs_model_param_index(m, "eta")), 2.717426, 1e-6);
  cs_config_free(&cfg);
  /* an override of eta replaces the file's eta_prime */
  const char *sets[] = {"parameters.eta=4.98"};
  assert_int_equal(cs_config_load(path, sets, 1, &cfg), CS_OK);
  assert_close(cs_model_get_param(m, cfg.params, cs_model_param_index(m, "eta_prime")), 13.7627,
               5e-5);
  cs_config_free(&cfg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_params_file_loads),
      cmocka_unit_test(good_file_and_overrides),
      cmocka_unit_test(bad_inputs),
      cmocka_unit_test(eta_prime_instead_of_eta),
      cmocka_unit_test(unfaithful_text),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
