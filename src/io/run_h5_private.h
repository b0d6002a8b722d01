/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond io/run_h5.h. */
#ifndef CS_IO_RUN_H5_PRIVATE_H
#define CS_IO_RUN_H5_PRIVATE_H

#include "io/run_h5.h"

/* Writes the header; returns the first failure (message in cs_errmsg()). */
enum cs_status cs_run_h5_write_header(struct cs_h5 *f, const char *kind,
                                      const struct cs_config *cfg, const char *const *sets,
                                      size_t n_set, int argc, char *const *argv);

/* The time unit of the model: "s" or "1". */
const char *cs_run_time_unit(const struct cs_model *m);

enum cs_status cs_run_h5_write_record(struct cs_h5 *f, const char *path, size_t n,
                                      const struct cs_run_field *fl);

void cs_w_check(struct cs_writer *w, enum cs_status st);

void cs_w_string(struct cs_writer *w, const char *obj, const char *name, const char *value);

void cs_w_double(struct cs_writer *w, const char *obj, const char *name, double value,
                 const char *units);

void cs_w_int(struct cs_writer *w, const char *obj, const char *name, long long value);

void cs_w_table(struct cs_writer *w, const char *path, size_t rows, size_t cols, const double *data,
                const char *const *names, const char *const *units);

void cs_w_record(struct cs_writer *w, const char *path, size_t n, const struct cs_run_field *fl);

void cs_w_columns(struct cs_writer *w, const char *path, size_t ncol,
                  const struct cs_h5_column *cols, size_t nrows, const double *rows,
                  const char *doc);

/* Creates the companion at path: nc columns (names, units), rows rows or,
 * extendible, none yet; its chunks hold as many rows as those of a table of
 * `reals` doubles per row (about 64 KiB, io/h5.h: the same rows in a chunk
 * of either); doc its `doc`; difference: a table of differences (see
 * above). The dataset is the caller's to close. */
enum cs_status cs_codes_create(struct cs_h5 *f, const char *path, size_t nc,
                               const char *const *names, const char *const *units, size_t rows,
                               int extendible, size_t reals, int difference, const char *doc,
                               struct cs_h5_dset **out);

/* Splits n rows of cols doubles whose last nc values are integer outputs:
 * the first cols - nc of each row go to reals (which may be rows itself:
 * the rows are then compacted in place), the last nc to codes as int32, NaN
 * as the missing value. CS_ERR_ARG (the message names path, the row, the
 * column and the value) for a value that is not an integer >= 0 (a
 * difference: not an int32 above CS_CODES_DIFF_MISSING). */
enum cs_status cs_codes_split(const double *rows, size_t n, size_t cols, size_t nc, int difference,
                              double *reals, int32_t *codes, const char *path);

/* The table of rows at path (rows x cols doubles, row-major; names and
 * units of all cols columns) written as its cols - nc real columns
 * (cs_w_table) and, when nc > 0, the companion of its last nc (doc:
 * codes_doc; difference as above). */
void cs_w_split_table(struct cs_writer *w, const char *path, size_t rows, size_t cols, size_t nc,
                      const double *data, const char *const *names, const char *const *units,
                      int difference, const char *codes_doc);

/* The columns of a table of mode switches (/switches of a trajectory,
 * /reference_switches of an eps study): t, kind and mode (int32 codes), then
 * the n state variables after the switch, whose docs go to docs[0 .. n-1]. */
void cs_switch_columns(const struct cs_model *m, struct cs_h5_column *cols, char (*docs)[160],
                       size_t n);

/* Creates the missing directories above a file path (mkdir -p of its
 * parent). 0 on success, else an errno value. */
int cs_make_parent_dirs(const char *path);

#endif
