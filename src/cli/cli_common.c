/* SPDX-License-Identifier: MIT */
#include "cli/cli_common.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void vreport(const char *cmd, const char *fmt, va_list ap)
{
  fprintf(stderr, "%s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

struct cli_opt *cli_opt(struct cli_opt *opts, const char *name)
{
  for (struct cli_opt *o = opts; o->name; o++)
    if (strcmp(o->name, name) == 0)
      return o;
  return NULL;
}

int cli_exit_code(enum cs_status status)
{
  switch (status) {
  case CS_OK:
    return CLI_EXIT_OK;
  case CS_ERR_ARG:
  case CS_ERR_RANGE:
  case CS_ERR_PARSE:
  case CS_ERR_NOT_FOUND:
  case CS_ERR_UNSUPPORTED:
  case CS_ERR_EXISTS:
  case CS_ERR_MISMATCH:
    return CLI_EXIT_USAGE;
  default:
    return CLI_EXIT_FAILURE;
  }
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vreport(cmd, fmt, ap);
  va_end(ap);
  return CLI_EXIT_USAGE;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vreport(cmd, fmt, ap);
  va_end(ap);
  return CLI_EXIT_FAILURE;
}

int cli_parse_number(const char *text, double *out)
{
  char *end;
  double v;
  if (!text || *text == '\0')
    return 0;
  errno = 0;
  v = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
    return 0;
  *out = v;
  return 1;
}

static int parse_count(const char *text, long *out)
{
  char *end;
  long v;
  if (!text || *text == '\0')
    return 0;
  errno = 0;
  v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE)
    return 0;
  *out = v;
  return 1;
}

static int in_range(double v, struct cli_range r)
{
  if (r.lo_open ? !(v > r.lo) : !(v >= r.lo))
    return 0;
  if (r.hi_open ? !(v < r.hi) : !(v <= r.hi))
    return 0;
  return 1;
}

/* "a number >= 1", "an integer in [3, 100000]", "one of a, b or c" ... */
static void describe(const struct cli_opt *o, char *buf, size_t cap)
{
  const char *noun = o->kind == CLI_COUNT  ? "an integer"
                     : o->kind == CLI_PAIR ? "two numbers A,B, each"
                                           : "a number";
  struct cli_range r = o->range;
  size_t len;
  switch (o->kind) {
  case CLI_FLAG:
    snprintf(buf, cap, "no value");
    return;
  case CLI_TEXT:
    snprintf(buf, cap, "%s", o->what ? o->what : "a value");
    return;
  case CLI_CHOICE:
    len = (size_t)snprintf(buf, cap, "one of");
    for (size_t i = 0; o->choices[i] && len < cap; i++)
      len += (size_t)snprintf(buf + len, cap - len, "%s %s", i > 0 ? "," : "", o->choices[i]);
    return;
  case CLI_NUMBER:
  case CLI_COUNT:
  case CLI_PAIR:
    break;
  }
  if (isinf(r.lo) && isinf(r.hi))
    snprintf(buf, cap, "%s", o->kind == CLI_PAIR ? "two numbers A,B" : noun);
  else if (isinf(r.hi))
    snprintf(buf, cap, "%s %s %g", noun, r.lo_open ? ">" : ">=", r.lo);
  else if (isinf(r.lo))
    snprintf(buf, cap, "%s %s %g", noun, r.hi_open ? "<" : "<=", r.hi);
  else
    snprintf(buf, cap, "%s in %c%g, %g%c", noun, r.lo_open ? '(' : '[', r.lo, r.hi,
             r.hi_open ? ')' : ']');
}

static int convert(const char *cmd, struct cli_opt *o)
{
  char what[256];
  const char *t = o->value;
  int ok = 1;
  switch (o->kind) {
  case CLI_FLAG:
    return 0;
  case CLI_TEXT:
    ok = *t != '\0';
    break;
  case CLI_NUMBER:
    ok = cli_parse_number(t, &o->num[0]) && in_range(o->num[0], o->range);
    break;
  case CLI_COUNT:
    ok = parse_count(t, &o->count) && in_range((double)o->count, o->range);
    break;
  case CLI_PAIR: {
    const char *comma = strchr(t, ',');
    char first[128];
    size_t n = comma ? (size_t)(comma - t) : 0;
    ok = comma && n < sizeof first;
    if (ok) {
      memcpy(first, t, n);
      first[n] = '\0';
      ok = cli_parse_number(first, &o->num[0]) && cli_parse_number(comma + 1, &o->num[1]) &&
           in_range(o->num[0], o->range) && in_range(o->num[1], o->range);
    }
    break;
  }
  case CLI_CHOICE:
    ok = 0;
    for (int i = 0; o->choices[i]; i++) {
      if (strcmp(o->choices[i], t) == 0) {
        o->choice = i;
        ok = 1;
        break;
      }
    }
    break;
  }
  if (ok)
    return 0;
  describe(o, what, sizeof what);
  return cli_usage(cmd, "%s: expected %s, got '%s'", o->name, what, t);
}

static struct cli_opt *find(struct cli_opt *opts, const char *arg, size_t len)
{
  for (struct cli_opt *o = opts; o->name; o++) {
    if (strlen(o->name) == len && strncmp(o->name, arg, len) == 0)
      return o;
    if (o->alias && strlen(o->alias) == len && strncmp(o->alias, arg, len) == 0)
      return o;
  }
  return NULL;
}

int cli_parse(const char *cmd, int argc, char **argv, struct cli_opt *opts, const char **pos,
              int max_pos, int *npos)
{
  int options_done = 0;
  *npos = 0;
  for (struct cli_opt *o = opts; o->name; o++)
    o->value = NULL;
  /* --help wins over every other mistake on the line. */
  for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
      return CLI_HELP;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (!options_done && strcmp(arg, "--") == 0) {
      options_done = 1;
    } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
      const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
      size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
      struct cli_opt *o = find(opts, arg, len);
      int st;
      if (!o)
        return cli_usage(cmd, "unknown option '%.*s' (see %s --help)", (int)len, arg, cmd);
      if (o->value)
        return cli_usage(cmd, "%s: given twice", o->name);
      if (o->kind == CLI_FLAG) {
        if (eq)
          return cli_usage(cmd, "%s: takes no value, got '%s'", o->name, eq + 1);
        o->value = "";
        continue;
      }
      if (eq) {
        o->value = eq + 1;
      } else if (i + 1 < argc) {
        o->value = argv[++i];
      } else {
        char what[256];
        describe(o, what, sizeof what);
        return cli_usage(cmd, "%s: missing value (expected %s)", o->name, what);
      }
      st = convert(cmd, o);
      if (st != 0)
        return st;
    } else {
      if (*npos >= max_pos)
        return cli_usage(cmd, "unexpected argument '%s' (see %s --help)", arg, cmd);
      pos[(*npos)++] = arg;
    }
  }
  for (struct cli_opt *o = opts; o->name; o++) {
    if (o->required && !o->value) {
      char what[256];
      describe(o, what, sizeof what);
      return cli_usage(cmd, "%s: required (%s)", o->name, what);
    }
  }
  return 0;
}

void cli_print_digits(const char *name, double value, int digits)
{
  printf("%s = %.*g\n", name, digits, value == 0.0 ? 0.0 : value);
}

void cli_print(const char *name, double value)
{
  cli_print_digits(name, value, 15);
}

int cli_take_sets(const char *cmd, int argc, char **argv, const char **sets, size_t max_sets,
                  size_t *nset, char **rest, int *nrest)
{
  int options_done = 0;
  *nset = 0, *nrest = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    if (!options_done && strcmp(a, "--") == 0)
      options_done = 1;
    if (!options_done && strcmp(a, "--set") == 0) {
      if (i + 1 >= argc)
        return cli_usage(cmd, "--set: missing value (expected section.key=value)");
      v = argv[++i];
    } else if (!options_done && strncmp(a, "--set=", 6) == 0) {
      v = a + 6;
    }
    if (!v) {
      rest[(*nrest)++] = argv[i];
      continue;
    }
    if (*nset >= max_sets)
      return cli_usage(cmd, "--set: more than %zu overrides", max_sets);
    sets[(*nset)++] = v;
  }
  return 0;
}

static int parse_run(const char *cmd, const char *help, int argc, char **argv, struct cli_opt *opts,
                     const char **sets, size_t max_sets, size_t *nset, const char **file,
                     int optional);

int cli_parse_run(const char *cmd, const char *help, int argc, char **argv, struct cli_opt *opts,
                  const char **sets, size_t max_sets, size_t *nset, const char **file)
{
  return parse_run(cmd, help, argc, argv, opts, sets, max_sets, nset, file, 0);
}

int cli_parse_run_optional(const char *cmd, const char *help, int argc, char **argv,
                           struct cli_opt *opts, const char **sets, size_t max_sets, size_t *nset,
                           const char **file)
{
  return parse_run(cmd, help, argc, argv, opts, sets, max_sets, nset, file, 1);
}

static int parse_run(const char *cmd, const char *help, int argc, char **argv, struct cli_opt *opts,
                     const char **sets, size_t max_sets, size_t *nset, const char **file,
                     int optional)
{
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(help, stdout);
      return CLI_EXIT_OK;
    }
  char **rest = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *rest);
  const char *pos[1];
  int nrest, npos;
  if (!rest)
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  int rc = cli_take_sets(cmd, argc, argv, sets, max_sets, nset, rest, &nrest);
  if (rc == 0)
    rc = cli_parse(cmd, nrest, rest, opts, pos, 1, &npos);
  free(rest);
  if (rc != 0)
    return rc;
  if (npos != 1 && !optional)
    return cli_usage(cmd, "missing FILE.ini (see %s --help)", cmd);
  *file = npos == 1 ? pos[0] : NULL;
  return -1;
}

const char *cli_data_dir(const char *env, const char *sub, const char *build_dir, char *buf,
                         size_t cap)
{
  const char *e = env ? getenv(env) : NULL;
  if (e && *e) {
    /* the environment's string lives as long as the process: never cut */
    if ((size_t)snprintf(buf, cap, "%s", e) >= cap)
      return e;
    return buf;
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      struct stat st;
      snprintf(buf, cap, "%s/../share/contensou/%s", exe, sub);
      if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
        return buf;
    }
  }
  snprintf(buf, cap, "%s", build_dir);
  return buf;
}

int cli_load_config(const char *cmd, const char *file, const char *const *sets, size_t nset,
                    struct cs_config *cfg)
{
  enum cs_status st = cs_config_load(file, sets, nset, cfg);
  if (st == CS_OK)
    return 0;
  /* a missing or unreadable parameter file is a bad argument (2), not an
   * I/O failure of the run (cli_exit_code's 1 for CS_ERR_IO) */
  return st == CS_ERR_NOMEM ? cli_fail(cmd, "%s", cs_errmsg()) : cli_usage(cmd, "%s", cs_errmsg());
}

int cli_report(const char *cmd, enum cs_status status)
{
  fprintf(stderr, "%s: %s\n", cmd, cs_errmsg());
  return cli_exit_code(status);
}
