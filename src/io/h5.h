/* SPDX-License-Identifier: MIT */
/* Small HDF5 helpers for result files (DESIGN.md, "The HDF5 file").
 *
 * Conventions, so that h5py, MATLAB or HDF5.jl find everything by name:
 * - strings are variable-length UTF-8;
 * - a 2-D dataset is a table of doubles, one row per sample, with two string
 *   array attributes `names` and `units` holding one entry per column;
 * - a table whose columns are not all real numbers (codes, counts) is a group
 *   of typed columns ("tables stored by columns" below);
 * - a 1-D dataset carries a scalar string attribute `units`;
 * - rows whose values are mostly real and partly integers (a model's
 *   outputs: t, states, derived outputs, some of them integers) keep the
 *   real columns in a 2-D table of doubles and the integer ones in its
 *   companion, a 2-D integer table of the same rows with its own `names`,
 *   `units` and `doc` (cs_h5_companion_path gives its path);
 * - a double attribute `x` gets a companion string attribute `x_units` on the
 *   same object (HDF5 attributes cannot carry attributes);
 * - units are written as plain text ("rad/s", "N m"); "1" means dimensionless.
 *
 * Paths name groups and datasets from the root ("/fit/curves"); missing
 * intermediate groups are created. obj = "/" is the root group.
 *
 * Every function returns CS_OK or an error status and prints nothing: HDF5's
 * own error printing is switched off, and the text of the last failure of the
 * calling thread (HDF5's error stack, or the helper's own reason) is kept in
 * the library's error channel, cs_errmsg() (core/status.h). The HDF5 library itself is not
 * thread-safe in the Debian serial build: use one thread for HDF5 calls. */
#ifndef CS_H5_H
#define CS_H5_H

#include <stddef.h>

#include "core/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An open HDF5 file. */
struct cs_h5;

/* Creates path, truncating an existing file. CS_ERR_HDF5 on failure. */
enum cs_status cs_h5_create(const char *path, struct cs_h5 **out);

/* Opens an existing file, read-only or read-write. CS_ERR_NOT_FOUND if the
 * file does not exist, CS_ERR_HDF5 if it is not an HDF5 file. */
enum cs_status cs_h5_open(const char *path, int writable, struct cs_h5 **out);

/* Flushes and closes the file (f may be NULL). Returns the first failure. */
enum cs_status cs_h5_close(struct cs_h5 *f);

/* After a write failure (a full disk): lets go of f (its lock, its memory)
 * without closing the HDF5 file, which stays as it was at the last flush
 * (cs_h5_flush). Closing would write the metadata once more; with the space
 * gone that left a superblock pointing past the end of the file, which no
 * reader opens (h5clear --increment repairs it). Use it only on the way to
 * the process's exit: the file stays open in HDF5 until then. */
void cs_h5_abandon(struct cs_h5 *f);

/* After a write failure of a result file (cs_h5_output_create): when the
 * disk space its lock held back (cs_h5_lock_reserve) could be given back,
 * writes status = failed and message into "/", closes the file (readable by
 * every reader, with everything written) and returns 1; otherwise lets go
 * of it like cs_h5_abandon and returns 0 (the file is as of its last flush,
 * still marked open for writing). Frees f either way. */
int cs_h5_output_fail(struct cs_h5 *f, const char *message);

/* Writes every buffer of the file to disk (H5Fflush): rows appended before a
 * flush survive a killed process. */
enum cs_status cs_h5_flush(struct cs_h5 *f);

/* 1 if the group or dataset path exists (reached through hard links), 0 if
 * not (or on error). */
int cs_h5_exists(struct cs_h5 *f, const char *path);

/* The path of the integer companion of the table of doubles at table: the
 * sibling "codes" of a table named "values" (a sweep's section/values ->
 * section/codes), else "<table>_codes" (/trajectory -> /trajectory_codes).
 * CS_ERR_RANGE when it does not fit in cap bytes. */
enum cs_status cs_h5_companion_path(const char *table, char *buf, size_t cap);

/* ------------------------------------------------------------- reading
 *
 * The readers treat a file as untrusted (it may be damaged, truncated or
 * made by another program): sizes and counts are checked before anything is
 * allocated, strings are bounded, every HDF5 call is checked, objects are
 * reached through hard links only, and a failure names the object. What they
 * accept at most: */
#ifndef CS_H5_MAX_ELEMENTS                   /* a fuzzing build sets less */
#define CS_H5_MAX_ELEMENTS ((size_t)1 << 28) /* numbers of one dataset read (2 GiB) */
#endif
#define CS_H5_MAX_STRINGS ((size_t)1 << 20) /* strings of one attribute or dataset */
#define CS_H5_MAX_TEXT ((size_t)1 << 26)    /* bytes of those strings together (64 MiB) */
#define CS_H5_MAX_LABEL 256                 /* bytes of a column name or unit, with its NUL */
/* A file read this way is opened with H5F_CLOSE_STRONG: closing it closes
 * every object a failed read may have left open. What libhdf5 does with
 * corrupt metadata is its own: some damaged files crash or hang it (the
 * command line contains that in a child process, cli_guard.h). */

/* ------------------------------------------------- result files, written safely */

/* A result file never appears half-written under its name, and a second
 * process writing the same path is refused before it touches anything:
 * - a lock, "<path>.lock", held with flock() for the whole run (the kernel
 *   drops it when the process dies: a killed run leaves no stale lock; on a
 *   file system without flock the run goes on unlocked);
 * - the content goes to "<path>.partial", beside the target so that the final
 *   rename is atomic;
 * - cs_h5_output_commit() closes it, makes it durable (fsync) and renames it
 *   over path; until then an older file at path is untouched;
 * - a run that fails (disk full, an error) calls cs_h5_close(): the partial
 *   file stays, with everything flushed before the failure.
 * Files are created in HDF5 1.10's checksummed format (superblock v3, object
 * headers v2, checksummed chunk indexes), so that corruption reads as an error. */

/* Checksums. HDF5 verifies, as it reads, the chunks of every dataset
 * written with the Fletcher32 filter (every numeric dataset contensou writes
 * with values: cs_h5_dset_create, cs_h5_write_vector, cs_h5_write_table,
 * tables stored by columns) and the object headers of the format above.
 * What no HDF5 checksum covers (attributes, variable-length strings, which
 * live in unchecksummed global heaps, and any dataset stored without the
 * filter) is summed as read back into one CRC-32 (zlib), the root attribute
 * values_crc32, when a result file is complete (cs_h5_output_commit, and a
 * sweep's final file): the sum covers every object and attribute, in name
 * order, except values_crc32 itself. A file without it was written before
 * these checksums (layout_version below CS_H5_SEALED_LAYOUT, or a sweep's
 * below 6) or is not finished (a sweep's partial file). */
#define CS_H5_VALUES_CRC "values_crc32"
/* layout_version written by cs_h5_seal into a file without one (the kinds
 * that had no layout number were layout 1) */
#define CS_H5_SEALED_LAYOUT 2

/* Writes layout_version (when the root has none) and values_crc32. Call it
 * last, just before closing a complete file: any later change of a value
 * makes cs_h5_verify_seal fail. */
enum cs_status cs_h5_seal(struct cs_h5 *f);

/* Sums f again and compares with values_crc32: CS_OK with *sealed 1 when
 * they agree, CS_OK with *sealed 0 when the file has no values_crc32,
 * CS_ERR_HDF5 ("stored values changed ...") when they differ. *items: the
 * attributes and unchecksummed datasets summed. */
enum cs_status cs_h5_verify_seal(struct cs_h5 *f, int *sealed, size_t *items);

/* Removes values_crc32 (a complete file reopened to be written again). */
enum cs_status cs_h5_unseal(struct cs_h5 *f);

/* Claims path for writing. CS_ERR_BUSY (message: which process holds it) if
 * another process does. */
struct cs_h5_lock;
enum cs_status cs_h5_lock_acquire(const char *path, struct cs_h5_lock **out);
/* Releases the claim (lock may be NULL). */
void cs_h5_lock_release(struct cs_h5_lock *lock);

/* Holds bytes of disk space in the lock file (best effort: 0 when the file
 * system cannot), given back by cs_h5_lock_unreserve: a writer that meets a
 * disk filled by another process frees it to close its file cleanly. */
int cs_h5_lock_reserve(struct cs_h5_lock *lock, double bytes);
void cs_h5_lock_unreserve(struct cs_h5_lock *lock);

/* The suffix (".partial", ".tmp", ".lock") when path ends in a name that
 * contensou derives from another output path, else NULL: such a name
 * belongs to the run writing that output, and is refused as an output. */
const char *cs_h5_derived_suffix(const char *path);

/* Locks path and creates "<path>.partial". If that file exists (left by a
 * killed run), CS_ERR_EXISTS unless replace_partial. */
enum cs_status cs_h5_output_create(const char *path, int replace_partial, struct cs_h5 **out);

/* Closes f (created by cs_h5_output_create), makes it durable and renames it
 * over its target; releases the lock. On failure the partial file stays and
 * the lock is released. Frees f in every case. */
enum cs_status cs_h5_output_commit(struct cs_h5 *f);

/* The path of the file actually being written ("<path>.partial" for result
 * files), or NULL for a file opened otherwise. */
const char *cs_h5_partial_path(const struct cs_h5 *f);

/* Creates path, failing with CS_ERR_EXISTS if it exists. */
enum cs_status cs_h5_create_excl(const char *path, struct cs_h5 **out);

/* Opens path for writing after its writer died: clears the "open for write"
 * marks a killed SWMR writer leaves in the superblock (as h5clear -s does). */
enum cs_status cs_h5_open_recover(const char *path, struct cs_h5 **out);

/* fsync(from), rename(from, to), fsync of the directory. CS_ERR_IO. */
enum cs_status cs_h5_rename_durable(const char *from, const char *to);

/* Bytes that can still be written to the file at path: the free space of its
 * file system for unprivileged users, or what the file-size limit
 * (RLIMIT_FSIZE) leaves, whichever is smaller. A writer checks this before
 * writing: HDF5 cannot finish a flush the disk refuses, and a half-flushed
 * file no longer opens. */
double cs_h5_space_left(const char *path);

/* Switches f to single-writer/multiple-reader mode: from now on only data may
 * be written and datasets extended (no new objects or attributes), and the
 * file on disk is consistent at every moment: a kill -9 loses nothing flushed
 * (cs_h5_flush). Readers open it with cs_h5_open (or h5py with swmr=True). */
enum cs_status cs_h5_start_swmr(struct cs_h5 *f);

/* Copies the object (group or dataset, with its attributes and everything
 * below it) at path from src into dst at the same path. */
enum cs_status cs_h5_copy_object(struct cs_h5 *src, const char *path, struct cs_h5 *dst);

/* Copies every attribute of obj in src onto the same object in dst
 * (replacing attributes of the same name). */
enum cs_status cs_h5_copy_attrs(struct cs_h5 *src, const char *obj, struct cs_h5 *dst);

/* Removes the object at path (no error if missing). */
enum cs_status cs_h5_remove(struct cs_h5 *f, const char *path);

/* ------------------------------------------------------------- typed datasets */

/* Element types of datasets written by rows. */
enum cs_h5_type {
  CS_H5_DOUBLE, /* IEEE 754 binary64 */
  CS_H5_INT64,  /* signed 64-bit (counts, indices) */
  CS_H5_INT32,  /* signed 32-bit (codes) */
  CS_H5_TEXT    /* fixed-length UTF-8 strings of CS_H5_TEXT_LEN bytes (NUL-terminated) */
};
#define CS_H5_TEXT_LEN 256

/* A chunked dataset of rank 1 (cols == 0) or 2, fixed or extendible in rows. */
struct cs_h5_dset_spec {
  enum cs_h5_type type;
  size_t rows;              /* initial number of rows (extendible) or the fixed number */
  size_t cols;              /* 0: a 1-D dataset; else columns of a 2-D table */
  int extendible;           /* 1: unlimited rows */
  size_t chunk_rows;        /* rows per chunk; 0: about 64 KiB per chunk */
  double fill;              /* value of rows never written (numeric types) */
  const char *const *names; /* 2-D: cols column names (attribute `names`), or NULL */
  const char *const *units; /* 2-D: cols units (attribute `units`), or NULL */
  const char *unit;         /* 1-D: the `units` attribute, or NULL */
  const char *doc;          /* the `doc` attribute: what the numbers mean, or NULL */
  int missing;              /* integer types: 1 writes the attribute missing_value = fill, in
                               the dataset's type (the CF conventions' name for "no value";
                               the readers here turn it into NaN) */
};

/* An open dataset. */
struct cs_h5_dset;

/* Creates (or replaces) the dataset with Fletcher32 checksums on every chunk. */
enum cs_status cs_h5_dset_create(struct cs_h5 *f, const char *path,
                                 const struct cs_h5_dset_spec *spec, struct cs_h5_dset **out);
/* Opens an existing dataset of one of the types above. */
enum cs_status cs_h5_dset_open(struct cs_h5 *f, const char *path, struct cs_h5_dset **out);
/* Writes n rows from row `first` (extendible datasets grow as needed); data
 * holds n (x cols) elements of the C type of the dataset: double, int64_t,
 * int32_t, or char[CS_H5_TEXT_LEN]. */
enum cs_status cs_h5_dset_write(struct cs_h5_dset *d, size_t first, size_t n, const void *data);
/* Appends n rows after the last one. */
enum cs_status cs_h5_dset_append(struct cs_h5_dset *d, size_t n, const void *data);
/* Reads n rows from row `first` into data (same C types). CS_ERR_RANGE past the end. */
enum cs_status cs_h5_dset_read(struct cs_h5_dset *d, size_t first, size_t n, void *data);
/* Rows (current extent), columns (0 for 1-D), type. */
size_t cs_h5_dset_rows(const struct cs_h5_dset *d);
size_t cs_h5_dset_cols(const struct cs_h5_dset *d);
enum cs_h5_type cs_h5_dset_type(const struct cs_h5_dset *d);
/* Shrinks (or grows) an extendible dataset to n rows. */
enum cs_status cs_h5_dset_resize(struct cs_h5_dset *d, size_t n);
/* Closes (d may be NULL). */
enum cs_status cs_h5_dset_close(struct cs_h5_dset *d);

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
 * git_describe (CS_GIT_DESCRIBE), hdf5_version, sundials_version (the
 * SUNDIALS linked, as it reports itself: "6.4.1"), sundials_build (how that
 * SUNDIALS was built: "debian-system (libsundials-dev, ... no -O ...)",
 * "built-from-source (..., CMAKE_C_FLAGS_RELEASE=-O3 -DNDEBUG, ...)" or
 * "installed (<SUNDIALS_DIR>, ...)"), command_line (argv joined by
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

/* Reads a 1-D or 2-D numeric dataset, or a table stored by columns (rank 2),
 * as doubles with its names and units; an integer with the dataset's
 * missing_value reads as NaN. CS_ERR_NOT_FOUND if path is missing,
 * CS_ERR_UNSUPPORTED for other ranks, a table without columns, a group
 * without `columns` or a type that is not numeric, CS_ERR_RANGE above
 * CS_H5_MAX_ELEMENTS numbers or for a name or unit of CS_H5_MAX_LABEL bytes
 * or more. On failure *out is left empty (safe to cs_h5_data_free). */
enum cs_status cs_h5_read(struct cs_h5 *f, const char *path, struct cs_h5_data *out);

/* The same for rows first .. first + count - 1 only (count SIZE_MAX: to the
 * end); CS_ERR_RANGE if the dataset has fewer rows. */
enum cs_status cs_h5_read_rows(struct cs_h5 *f, const char *path, size_t first, size_t count,
                               struct cs_h5_data *out);

/* The column called name of a 1-D or 2-D numeric dataset (a 1-D dataset has
 * one, named after the last component of its path) or of a table stored by
 * columns: out gets nrows x 1.
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

/* ------------------------------------------------- tables stored by columns
 *
 * A table whose columns differ in type (codes and counts beside real
 * numbers) is a group: one dataset per column, each with its `units`, its
 * `doc` and, where it has one, its `missing_value`, and a string-array
 * attribute `columns` listing them in order. A column is 1-D (one element
 * per row) or a block: a 2-D dataset of `width` columns (the same number of
 * rows), named by its `names` attribute, all of one type and unit (e.g. the
 * class of every grid index). Every language reads a column by name as a
 * plain typed array (h5py: f["equilibria/found"][:]), each with its own doc
 * and units, which the members of an HDF5 compound type cannot carry.
 * cs_h5_read, cs_h5_read_rows, cs_h5_read_column and cs_h5_shape read such
 * a group as one table of doubles, blocks expanded into their columns. */

struct cs_h5_column {
  const char *name;         /* the dataset's name in the group */
  enum cs_h5_type type;     /* CS_H5_DOUBLE, CS_H5_INT64 or CS_H5_INT32 */
  const char *unit;         /* its `units` ("1": dimensionless, codes, counts) */
  const char *doc;          /* its `doc`: what the numbers mean (required) */
  int missing;              /* integer columns: NaN ("not computed") is stored as -1, and the
                               dataset has the attribute missing_value = -1 (the name the CF
                               conventions give it), which the readers here turn back into NaN */
  size_t width;             /* 0: a 1-D column; else a block of width columns */
  const char *const *names; /* a block: its width column names (attribute `names`) */
};

/* A 1-D column: name, type, unit, doc (none missing). */
#define CS_H5_COLUMN(n, t, u, d) \
  ((struct cs_h5_column){.name = (n), .type = (t), .unit = (u), .doc = (d)})

/* Writes (or replaces) the group path: ncol columns, nrows rows given
 * row-major as doubles (each row the columns in order, a block giving width
 * values). A value of an integer column must be an integer its type holds,
 * or NaN in a column with `missing`: CS_ERR_ARG otherwise (naming the column
 * and row). doc: the group's `doc`. Datasets are chunked with Fletcher32
 * checksums like every dataset of cs_h5_dset_create. */
enum cs_status cs_h5_write_columns(struct cs_h5 *f, const char *path, size_t ncol,
                                   const struct cs_h5_column *cols, size_t nrows,
                                   const double *rows, const char *doc);

/* ---------------------------------------------- extendible (appendable) tables */

/* A chunked 2-D dataset with an unlimited number of rows, open for appending. */
struct cs_h5_table;

/* Creates (or replaces) an empty extendible table of ncols columns with its
 * names and units (units may be NULL). chunk_rows: rows per chunk (0: a
 * default of about 64 KiB per chunk). The table must be closed before f. */
enum cs_status cs_h5_table_create(struct cs_h5 *f, const char *path, size_t ncols,
                                  size_t chunk_rows, const char *const *names,
                                  const char *const *units, struct cs_h5_table **out);

/* The same stored by columns (cs_h5_write_columns), each column extendible:
 * cs_h5_table_append takes rows of doubles as above and converts them. Rows
 * are kept in memory and reach the file every chunk_rows rows (0: 1024), at
 * cs_h5_table_flush and at cs_h5_table_close (one extension per column and
 * block, not one per row). doc: the group's `doc`. cs_h5_table_cols counts
 * the doubles of a row. */
enum cs_status cs_h5_table_create_columns(struct cs_h5 *f, const char *path, size_t ncol,
                                          const struct cs_h5_column *cols, size_t chunk_rows,
                                          const char *doc, struct cs_h5_table **out);

/* Opens an existing extendible table to append after its last row (e.g. to
 * resume a run). CS_ERR_NOT_FOUND if missing, CS_ERR_UNSUPPORTED if the
 * dataset is not a 2-D extendible table of doubles (a table stored by
 * columns is not reopened). */
enum cs_status cs_h5_table_open(struct cs_h5 *f, const char *path, struct cs_h5_table **out);

/* Appends nrows rows (row-major, ncols doubles each). */
enum cs_status cs_h5_table_append(struct cs_h5_table *t, size_t nrows, const double *rows);

/* Writes nrows rows starting at row first, extending the table if needed;
 * rows skipped over read as NaN until written (results filled by index, in
 * any order). */
enum cs_status cs_h5_table_write_at(struct cs_h5_table *t, size_t first, size_t nrows,
                                    const double *rows);

/* Flushes the whole file so that the rows appended so far are on disk (a
 * table stored by columns first writes the rows it holds). */
enum cs_status cs_h5_table_flush(struct cs_h5_table *t);

/* Rows and columns of the table. */
size_t cs_h5_table_rows(const struct cs_h5_table *t);
size_t cs_h5_table_cols(const struct cs_h5_table *t);

/* Closes the table (t may be NULL). */
enum cs_status cs_h5_table_close(struct cs_h5_table *t);

/* ------------------------------------------------ listing (whole-file readers) */

/* The names of the attributes of obj, at most max of them (CS_ERR_RANGE past
 * that); each name 1 to CS_H5_MAX_LABEL - 1 bytes. Free with
 * cs_h5_strings_free. */
enum cs_status cs_h5_attr_names(struct cs_h5 *f, const char *obj, size_t max, char ***names,
                                size_t *count);

/* The links of group, in name order, at most max of them, with their kinds
 * (kinds[i]: 1 a group, 2 a dataset, 0 anything else: a soft or external
 * link, a named type). Free names with cs_h5_strings_free, kinds with free. */
enum cs_status cs_h5_list(struct cs_h5 *f, const char *group, size_t max, char ***names,
                          int **kinds, size_t *count);

#ifdef __cplusplus
}
#endif

#endif
