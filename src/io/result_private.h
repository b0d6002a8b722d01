/* SPDX-License-Identifier: MIT */
/* The shared part of the result-file readers (io/result.h), for the readers
 * of each kind that sit beside their writers (io/trajectory_h5_read.c,
 * io/fit_h5_read.c, sweep/sweep_h5_read.c, study/eps_h5_read.c,
 * analysis/orbit_h5_read.c) and for results/read.c. Not installed. */
#ifndef CS_IO_RESULT_PRIVATE_H
#define CS_IO_RESULT_PRIVATE_H

#include <stddef.h>
#include <string.h>

#include "io/h5.h"
#include "io/result.h"

/* One reading: the open file, what may still be read. */
struct cs_rd {
  struct cs_h5 *f;
  const char *path;
  size_t budget; /* numbers that may still be read (CS_H5_MAX_ELEMENTS per file) */
  size_t text;   /* bytes of text that may still be kept (CS_H5_MAX_TEXT per file) */
  size_t objects;
};

/* The layout versions a reader reads of one kind of file: first .. last
 * (root attribute layout_version; a file without it is layout 1). Lists of
 * them end with kind NULL. */
struct cs_rd_layout {
  const char *kind; /* as the root attribute kind says it */
  long first, last;
};

/* Keeps "<file>: <text>" as this thread's last error (cs_errmsg), and
 * returns st. */
enum cs_status cs_rd_fail(struct cs_rd *r, enum cs_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A failure of io/h5.h on object obj, as a status of the readers. */
enum cs_status cs_rd_fail_h5(struct cs_rd *r, enum cs_status st, const char *obj);

/* Opens path and reads its header; wanted: the kind it must be (UNKNOWN:
 * any); layouts: the layout versions read of each kind (NULL: not checked),
 * a kind not in the list is not checked. */
enum cs_status cs_rd_begin(struct cs_rd *r, const char *path, enum cs_result_kind wanted,
                           const struct cs_rd_layout *layouts, struct cs_result_header *h);
void cs_rd_close(struct cs_rd *r);
/* CS_ERR_UNSUPPORTED (and the message) unless the layout_version attribute
 * among attrs, those of obj ("/" for the file), is one of first .. last
 * (absent: 1); what: the kind's name for the message. */
enum cs_status cs_rd_check_layout(struct cs_rd *r, const char *obj, const char *what,
                                  const struct cs_result_attrs *attrs, long first, long last);

/* Every scalar string or number attribute of obj. */
enum cs_status cs_rd_attrs(struct cs_rd *r, const char *obj, struct cs_result_attrs *out);
void cs_rd_attrs_free(struct cs_result_attrs *a);
/* Rows first .. first + count - 1 of the table at path (count SIZE_MAX: to
 * the end) with its attributes. A missing table is CS_ERR_NOT_FOUND (no
 * message) unless required. */
enum cs_status cs_rd_table(struct cs_rd *r, const char *path, size_t first, size_t count,
                           int required, struct cs_result_table *t);
/* Appends the columns of the integer companion of the table t (read from
 * table, rows first .. first + t->nrows - 1); nothing when there is none.
 * strict: a companion of other rows is an error (else t is cut). */
enum cs_status cs_rd_companion(struct cs_rd *r, const char *table, size_t first, int strict,
                               struct cs_result_table *t);
/* Whether the tables of the same rows must be complete (io/result.h). */
int cs_rd_rows_complete(const struct cs_result_header *h);
/* The string array attribute attr of obj (or the string dataset obj, attr
 * NULL): absent is no error (*n = 0), a damaged one is. */
enum cs_status cs_rd_strings(struct cs_rd *r, const char *obj, const char *attr, char ***v,
                             size_t *n);
/* The file at path read whole (cs_read_result), of kind wanted (UNKNOWN:
 * any) and of the layouts given (as cs_rd_begin). */
enum cs_status cs_rd_whole(const char *path, enum cs_result_kind wanted,
                           const struct cs_rd_layout *layouts, struct cs_result_file *out);

/* The values checksum (io/h5.h, "Checksums"): every attribute, string and
 * unchunked dataset of path summed again and compared with the file's
 * values_crc32. CS_OK with *sealed 1 when they agree, CS_OK with *sealed 0
 * for a file without it (written before the checksums, or not finished),
 * CS_ERR_HDF5 when a value changed. *items: the attributes and datasets
 * summed. Together with cs_read_result (which makes HDF5 verify every
 * chunk's Fletcher32 checksum) this verifies every stored value. */
enum cs_status cs_result_verify_values(const char *path, int *sealed, size_t *items);

#endif
