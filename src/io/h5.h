/* SPDX-License-Identifier: MIT */
/* Small HDF5 helpers for result files (DESIGN.md, "The HDF5 file").
 *
 * Conventions, so that h5py, MATLAB or HDF5.jl find everything by name:
 * - strings are variable-length UTF-8;
 * - a 2-D dataset is a table of doubles, one row per sample, with two string
 *   array attributes `names` and `units` holding one entry per column;
 * - a 1-D dataset carries a scalar string attribute `units`;
 * - a double attribute `x` gets a companion string attribute `x_units` on the
 *   same object (HDF5 attributes cannot carry attributes);
 * - units are written as plain text ("rad/s", "N m"); "1" means dimensionless.
 *
 * Paths name groups and datasets from the root ("/fit/curves"); missing
 * intermediate groups are created. obj = "/" is the root group.
 *
 * Every function returns CS_OK or an error status and prints nothing: HDF5's
 * own error printing is switched off, and the text of the last failure of the
 * calling thread (HDF5's error stack, or the helper's own reason) is kept for
 * cs_h5_errmsg(). The HDF5 library itself is not thread-safe in the Debian
 * serial build: use one thread for HDF5 calls. */
#ifndef CS_H5_H
#define CS_H5_H

#include <stddef.h>

#include "core/status.h"

/* An open HDF5 file. */
struct cs_h5;

/* Text of the last failure in this thread ("" if none); never NULL. Valid
 * until the next cs_h5_* call of the same thread. */
const char *cs_h5_errmsg(void);

/* Creates path, truncating an existing file. CS_ERR_HDF5 on failure. */
enum cs_status cs_h5_create(const char *path, struct cs_h5 **out);

/* Opens an existing file, read-only or read-write. CS_ERR_NOT_FOUND if the
 * file does not exist, CS_ERR_HDF5 if it is not an HDF5 file. */
enum cs_status cs_h5_open(const char *path, int writable, struct cs_h5 **out);

/* Flushes and closes the file (f may be NULL). Returns the first failure. */
enum cs_status cs_h5_close(struct cs_h5 *f);

/* Writes every buffer of the file to disk (H5Fflush): rows appended before a
 * flush survive a killed process. */
enum cs_status cs_h5_flush(struct cs_h5 *f);

/* 1 if the group or dataset path exists (reached through hard links), 0 if
 * not (or on error). */
int cs_h5_exists(struct cs_h5 *f, const char *path);

/* ------------------------------------------------------------- reading
 *
 * The readers treat a file as untrusted (it may be damaged, truncated or
 * made by another program): sizes and counts are checked before anything is
 * allocated, strings are bounded, every HDF5 call is checked, objects are
 * reached through hard links only, and a failure names the object. What they
 * accept at most: */
#define CS_H5_MAX_ELEMENTS ((size_t)1 << 28) /* numbers of one dataset read (2 GiB) */
#define CS_H5_MAX_STRINGS ((size_t)1 << 20)  /* strings of one attribute or dataset */
#define CS_H5_MAX_TEXT ((size_t)1 << 26)     /* bytes of those strings together (64 MiB) */
#define CS_H5_MAX_LABEL 256                  /* bytes of a column name or unit, with its NUL */
/* A file read this way is opened with H5F_CLOSE_STRONG: closing it closes
 * every object a failed read may have left open. What libhdf5 does with
 * corrupt metadata is its own: some damaged files crash or hang it (the
 * command line contains that in a child process, cli_guard.h). */

/* ------------------------------------------------------------- attributes */

/* Writes (or replaces) a string attribute name on the object obj. */
enum cs_status cs_h5_attr_write_string(struct cs_h5 *f, const char *obj, const char *name,
                                       const char *value);

/* Writes (or replaces) a double attribute and, when units is not NULL, its
 * companion string attribute "<name>_units". */
enum cs_status cs_h5_attr_write_double(struct cs_h5 *f, const char *obj, const char *name,
                                       double value, const char *units);

/* Writes (or replaces) a 1-D string-array attribute (e.g. the names of codes). */
enum cs_status cs_h5_attr_write_strings(struct cs_h5 *f, const char *obj, const char *name,
                                        size_t count, const char *const *values);

/* Writes (or replaces) a 1-D dataset of n variable-length UTF-8 strings. */
enum cs_status cs_h5_write_strings(struct cs_h5 *f, const char *path, size_t n,
                                   const char *const *values);

/* Writes (or replaces) an integer attribute (64-bit), e.g. a count. */
enum cs_status cs_h5_attr_write_int(struct cs_h5 *f, const char *obj, const char *name,
                                    long long value);

/* Reads a scalar string attribute (variable or fixed length) into *value,
 * allocated with malloc (free it). CS_ERR_NOT_FOUND if obj or the attribute is
 * missing, CS_ERR_HDF5 if it is not a string. */
enum cs_status cs_h5_attr_read_string(struct cs_h5 *f, const char *obj, const char *name,
                                      char **value);

/* Reads a numeric scalar attribute as a double. CS_ERR_NOT_FOUND if missing. */
enum cs_status cs_h5_attr_read_double(struct cs_h5 *f, const char *obj, const char *name,
                                      double *value);

/* Reads a numeric scalar attribute that must be an integer in [0, max] (a
 * count): CS_ERR_RANGE otherwise (NaN, negative, 1e300 ...). */
enum cs_status cs_h5_attr_read_count(struct cs_h5 *f, const char *obj, const char *name, size_t max,
                                     size_t *value);

/* Reads the strings of the attribute name of obj, or (name NULL) of the
 * string dataset obj: *count strings (a scalar is one), malloc'ed, freed with
 * cs_h5_strings_free. Fixed- or variable-length, any rank. */
enum cs_status cs_h5_read_strings(struct cs_h5 *f, const char *obj, const char *name,
                                  char ***values, size_t *count);
void cs_h5_strings_free(char **values, size_t count);

/* Root attributes of a run: program = "contensou", version (CS_VERSION),
 * git_describe (CS_GIT_DESCRIBE), hdf5_version, command_line (argv joined by
 * spaces, arguments quoted for a POSIX shell where needed) and date (UTC, ISO
 * 8601, e.g. "2026-01-31T12:00:00Z"). argv may be NULL when argc is 0. */
enum cs_status cs_h5_write_provenance(struct cs_h5 *f, int argc, char *const *argv);

/* --------------------------------------------------------------- datasets */

/* Writes (or replaces) a 1-D dataset of n doubles with a `units` attribute
 * (may be NULL: no attribute). */
enum cs_status cs_h5_write_vector(struct cs_h5 *f, const char *path, size_t n, const double *data,
                                  const char *units);

/* Writes (or replaces) a 2-D table of nrows x ncols doubles, row-major, with
 * the `names` and `units` attributes (ncols strings each; units may be NULL:
 * no attribute). nrows may be 0. */
enum cs_status cs_h5_write_table(struct cs_h5 *f, const char *path, size_t nrows, size_t ncols,
                                 const double *data, const char *const *names,
                                 const char *const *units);

/* A dataset read back: a 1-D dataset reads as one column named after the last
 * component of its path. Missing names or units read as "". */
struct cs_h5_data {
  int rank;     /* 1 or 2 */
  size_t nrows; /* number of rows (samples) */
  size_t ncols; /* number of columns (1 for a 1-D dataset) */
  double *data; /* nrows * ncols doubles, row-major */
  char **names; /* ncols column names */
  char **units; /* ncols column units */
};

/* Reads a 1-D or 2-D numeric dataset as doubles with its names and units.
 * CS_ERR_NOT_FOUND if path is missing, CS_ERR_UNSUPPORTED for other ranks, a
 * table without columns or a type that is not numeric, CS_ERR_RANGE above
 * CS_H5_MAX_ELEMENTS numbers or for a name or unit of CS_H5_MAX_LABEL bytes
 * or more. On failure *out is left empty (safe to cs_h5_data_free). */
enum cs_status cs_h5_read(struct cs_h5 *f, const char *path, struct cs_h5_data *out);

/* The same for rows first .. first + count - 1 only (count SIZE_MAX: to the
 * end); CS_ERR_RANGE if the dataset has fewer rows. */
enum cs_status cs_h5_read_rows(struct cs_h5 *f, const char *path, size_t first, size_t count,
                               struct cs_h5_data *out);

/* The column called name of a 1-D or 2-D numeric dataset (a 1-D dataset has
 * one, named after the last component of its path): out gets nrows x 1.
 * CS_ERR_NOT_FOUND if there is no such column. */
enum cs_status cs_h5_read_column(struct cs_h5 *f, const char *path, const char *name,
                                 struct cs_h5_data *out);

/* The shape of a 1-D or 2-D numeric dataset without reading it (checked
 * like cs_h5_read): rank, rows, columns (1 for rank 1). */
enum cs_status cs_h5_shape(struct cs_h5 *f, const char *path, int *rank, size_t *nrows,
                           size_t *ncols);

/* Frees what cs_h5_read allocated and zeroes d (d may be NULL). */
void cs_h5_data_free(struct cs_h5_data *d);

/* Index of the column called name, or -1. */
long cs_h5_data_column(const struct cs_h5_data *d, const char *name);

/* ---------------------------------------------- extendible (appendable) tables */

/* A chunked 2-D dataset with an unlimited number of rows, open for appending. */
struct cs_h5_table;

/* Creates (or replaces) an empty extendible table of ncols columns with its
 * names and units (units may be NULL). chunk_rows: rows per chunk (0: a
 * default of about 64 KiB per chunk). The table must be closed before f. */
enum cs_status cs_h5_table_create(struct cs_h5 *f, const char *path, size_t ncols,
                                  size_t chunk_rows, const char *const *names,
                                  const char *const *units, struct cs_h5_table **out);

/* Opens an existing extendible table to append after its last row (e.g. to
 * resume a run). CS_ERR_NOT_FOUND if missing, CS_ERR_UNSUPPORTED if the
 * dataset is not a 2-D extendible table of doubles. */
enum cs_status cs_h5_table_open(struct cs_h5 *f, const char *path, struct cs_h5_table **out);

/* Appends nrows rows (row-major, ncols doubles each). */
enum cs_status cs_h5_table_append(struct cs_h5_table *t, size_t nrows, const double *rows);

/* Writes nrows rows starting at row first, extending the table if needed;
 * rows skipped over read as NaN until written (results filled by index, in
 * any order). */
enum cs_status cs_h5_table_write_at(struct cs_h5_table *t, size_t first, size_t nrows,
                                    const double *rows);

/* Flushes the whole file so that the rows appended so far are on disk. */
enum cs_status cs_h5_table_flush(struct cs_h5_table *t);

/* Rows and columns of the table. */
size_t cs_h5_table_rows(const struct cs_h5_table *t);
size_t cs_h5_table_cols(const struct cs_h5_table *t);

/* Closes the table (t may be NULL). */
enum cs_status cs_h5_table_close(struct cs_h5_table *t);

#endif
