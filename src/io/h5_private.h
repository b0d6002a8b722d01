/* SPDX-License-Identifier: MIT */
/* What h5.c (datasets, attributes, reading) and h5_write.c (result files:
 * locks, partial files, typed datasets, SWMR) share; not installed. */
#ifndef CS_H5_PRIVATE_H
#define CS_H5_PRIVATE_H

#include <hdf5.h>

#include "core/error_private.h"
#include "io/h5.h"

struct cs_h5_lock;

struct cs_h5 {
  hid_t file;              /* the HDF5 file id */
  struct cs_h5_lock *lock; /* the claim on the target path (result files), or NULL */
  char *target;            /* path the file replaces on commit (result files), or NULL */
  char *partial;           /* the file actually written, "<target>.partial", or NULL */
  int reserved;            /* 1: the lock file holds CS_H5_RESERVE bytes for a clean close */
};

#define CS_H5_RESERVE 1e6 /* bytes held back on disk while a result file is written */

/* An extendible table (h5.c): a 2-D dataset of doubles, or a group of typed
 * columns (h5_columns.c). */
struct cs_h5_coltab;
struct cs_h5_table {
  struct cs_h5 *f;                 /* the file it lives in */
  hid_t dset;                      /* the extendible 2-D dataset (-1: stored by columns) */
  size_t rows;                     /* rows written so far (by columns: with those held) */
  size_t cols;                     /* columns (doubles of a row) */
  struct cs_h5_coltab *by_columns; /* a table stored by columns, or NULL */
};

/* h5_columns.c: the table operations of a table stored by columns */
enum cs_status cs_h5_i_coltab_write(struct cs_h5_table *t, size_t first, size_t n,
                                    const double *rows);
enum cs_status cs_h5_i_coltab_flush(struct cs_h5_table *t);
enum cs_status cs_h5_i_coltab_close(struct cs_h5_table *t);

/* the library's error channel (core/error_private.h), which cs_errmsg() reads */
#define cs_h5_err (cs_error_i_buffer())

/* Every entry point: HDF5 prints nothing. */
void cs_h5_i_begin(void);
/* Keeps a message for cs_errmsg() and returns status. */
enum cs_status cs_h5_i_fail(enum cs_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Keeps HDF5's error stack under "what 'name'" and returns CS_ERR_HDF5. */
enum cs_status cs_h5_i_fail_h5(const char *what, const char *name);
/* Variable-length UTF-8 string type; close with H5Tclose. */
hid_t cs_h5_i_vlen_string_type(void);
/* 1 if every component of path exists. */
int cs_h5_i_path_exists(hid_t file, const char *path);
/* File access properties of every file contensou creates: the checksummed
 * format of HDF5 1.10 (superblock v3, object headers v2, chunk indexes with
 * checksums). Close with H5Pclose. */
hid_t cs_h5_i_fapl_latest(void);
/* Reads the strings of attribute name of id (or, name NULL, of the dataset
 * id itself, called path in messages), bounded (h5.c); free with
 * cs_h5_strings_free. */
enum cs_status cs_h5_i_read_strings(hid_t id, const char *name, const char *path, char ***values,
                                    size_t *count);
/* Frees the struct with its lock (released) and paths; not the HDF5 id. */
void cs_h5_i_release(struct cs_h5 *f);

#endif
