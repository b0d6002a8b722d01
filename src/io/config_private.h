/* SPDX-License-Identifier: MIT */
/* The keys of a deferred section ([sweep], [continuation], [basins]) read
 * from a loaded parameter file (io/config.h, cs_config_raw_find) with the
 * loader's error format, "file:line: key: what is wrong (accepted: ...)":
 * shared by sweep/sweep_config.c, analysis/continuation_config.c and
 * analysis/basins_config.c. Not installed.
 *
 * Each reader returns 1 when the key is given and valid (its value stored),
 * 0 when it is absent, invalid (the first error kept in p->st and
 * cs_errmsg()) or an earlier key failed: after the first error nothing more
 * is read, so that the message names the first bad key. */
#ifndef CS_IO_CONFIG_PRIVATE_H
#define CS_IO_CONFIG_PRIVATE_H

#include <stddef.h>

#include "io/config.h"

struct cs_config_parse {
  const struct cs_config *cfg;
  const char *section; /* "sweep", "continuation", "basins" */
  enum cs_status st;   /* CS_OK until the first error */
};

/* Keeps the first error, "<where>: <key>: <text>" (where: r's file:line, or
 * the file when r is NULL), in p->st and cs_errmsg(); returns 0. */
int cs_config_i_err(struct cs_config_parse *p, const struct cs_config_raw *r, const char *key,
                    enum cs_status st, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The raw key of p's section, or NULL. */
const struct cs_config_raw *cs_config_i_get(struct cs_config_parse *p, const char *key);
/* A number in [lo, hi]; accepted: the range in words for the message. */
int cs_config_i_number(struct cs_config_parse *p, const char *key, double lo, double hi,
                       const char *accepted, double *out);
/* An integer in [lo, hi]. */
int cs_config_i_count(struct cs_config_parse *p, const char *key, long lo, long hi, long *out);
/* The same into a size_t (lo >= 0). */
int cs_config_i_size(struct cs_config_parse *p, const char *key, long lo, long hi, size_t *out);
/* true or false. */
int cs_config_i_bool(struct cs_config_parse *p, const char *key, int *out);
/* One of names (NULL-terminated): *out its index. */
int cs_config_i_choice(struct cs_config_parse *p, const char *key, const char *const *names,
                       int *out);

/* The raw [sweep] (or other deferred) key, or NULL. */
const struct cs_config_raw *cs_config_raw_find(const struct cs_config *cfg, const char *section,
                                               const char *key);

/* The fixed keys of a section ("model": name only, "solver", "output",
 * "section", "sweep"), NULL-terminated; NULL for any other section (the keys
 * of [parameters], [initial] and the model's choices in [model] are in its
 * struct cs_model, those of [continuation] in cs_continue_config_keys()). */
const char *const *cs_config_section_keys(const char *section);

/* Strict number parsing: the whole string is a finite number. */
int cs_parse_double(const char *s, double *out);

int cs_parse_long(const char *s, long *out);

int cs_parse_bool(const char *s, int *out);

#endif
