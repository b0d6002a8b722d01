/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */

#include "io/h5.h"

#include <errno.h>
#include <hdf5.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cs_version.h"
#include "io/h5_private.h"

/* short names for the helpers shared with h5_write.c */
#define begin cs_h5_i_begin
#define fail cs_h5_i_fail
#define fail_h5 cs_h5_i_fail_h5
#define vlen_string_type cs_h5_i_vlen_string_type
#define path_exists cs_h5_i_path_exists

struct cs_h5_table {
  struct cs_h5 *f; /* the file it lives in */
  hid_t dset;      /* the extendible dataset */
  size_t rows;     /* rows written so far */
  size_t cols;     /* columns */
};

/* Text of the last failure: per thread, so it is no shared mutable state. */
_Thread_local char cs_h5_err[CS_H5_ERR_LEN];

const char *cs_h5_errmsg(void)
{
  return cs_h5_err;
}

/* HDF5 closes what is still open when the process exits; after a file
 * failed to close (a full disk) that crashes in HDF5 1.10.8: contensou closes
 * every file itself, so the exit-time cleanup is switched off before HDF5
 * starts. */
__attribute__((constructor)) static void no_hdf5_atexit(void)
{
  H5dont_atexit();
}

/* Every entry point: HDF5 prints nothing, and the previous failure is forgotten. */
void begin(void)
{
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  cs_h5_err[0] = '\0';
}

enum cs_status fail(enum cs_status status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cs_h5_err, sizeof cs_h5_err, fmt, ap);
  va_end(ap);
  return status;
}

struct walk {
  unsigned n;      /* entries seen */
  char first[400]; /* the API call that failed */
  char last[400];  /* the deepest reason */
};

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
  struct walk *w = data;
  char *dst = n == 0 ? w->first : w->last;
  snprintf(dst, sizeof w->first, "%s(): %s", e->func_name ? e->func_name : "?",
           e->desc ? e->desc : "");
  w->n = n + 1;
  return 0;
}

/* Records HDF5's error stack under a short description of what failed; must
 * run before any other HDF5 call clears the stack. */
enum cs_status fail_h5(const char *what, const char *name)
{
  struct walk w = {0};
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_cb, &w);
  /* a failed write or read of the file itself: the system's reason is what
   * the user needs ("No space left on device") */
  const char *sys = strstr(w.last, "error message = '");
  if (sys) {
    sys += strlen("error message = '");
    int len = (int)strcspn(sys, "'");
    return fail(CS_ERR_IO, "%s '%s': %.*s (%s)", what, name, len, sys, w.first);
  }
  if (w.n == 0)
    return fail(CS_ERR_HDF5, "%s '%s'", what, name);
  if (w.n == 1)
    return fail(CS_ERR_HDF5, "%s '%s': %s", what, name, w.first);
  return fail(CS_ERR_HDF5, "%s '%s': %s (%s)", what, name, w.first, w.last);
}

static char *dup_string(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

/* Variable-length UTF-8 string type; close with H5Tclose. */
hid_t vlen_string_type(void)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0)
    return t;
  if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
    H5Tclose(t);
    return -1;
  }
  return t;
}

int path_exists(hid_t file, const char *path)
{
  size_t n = strlen(path);
  char *buf;
  int found = 1;
  if (n == 0)
    return 0;
  if (strcmp(path, "/") == 0)
    return 1;
  buf = dup_string(path);
  if (!buf)
    return 0;
  /* H5Lexists fails when an intermediate component is missing: walk down. */
  for (size_t i = 1; i <= n && found; i++) {
    if (buf[i] == '/' || buf[i] == '\0') {
      char c = buf[i];
      buf[i] = '\0';
      found = H5Lexists(file, buf, H5P_DEFAULT) > 0;
      buf[i] = c;
    }
  }
  free(buf);
  return found;
}

int cs_h5_exists(struct cs_h5 *f, const char *path)
{
  begin();
  return f && path && path_exists(f->file, path);
}

/* ------------------------------------------------------------------ files */

enum cs_status cs_h5_create(const char *path, struct cs_h5 **out)
{
  struct cs_h5 *f;
  hid_t fapl;
  begin();
  *out = NULL;
  f = calloc(1, sizeof *f);
  if (!f)
    return fail(CS_ERR_NOMEM, "out of memory");
  fapl = cs_h5_i_fapl_latest();
  f->file = fapl < 0 ? -1 : H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (f->file < 0) {
    enum cs_status st = fail_h5("cannot create", path); /* before H5Pclose clears the stack */
    if (fapl >= 0)
      H5Pclose(fapl);
    free(f);
    return st;
  }
  H5Pclose(fapl);
  *out = f;
  return CS_OK;
}

enum cs_status cs_h5_open(const char *path, int writable, struct cs_h5 **out)
{
  struct cs_h5 *f;
  FILE *probe;
  htri_t is_h5;
  begin();
  *out = NULL;
  probe = fopen(path, "rb");
  if (!probe) {
    if (errno == ENOENT)
      return fail(CS_ERR_NOT_FOUND, "no such file '%s'", path);
    return fail(CS_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
  }
  fclose(probe);
  is_h5 = H5Fis_hdf5(path);
  if (is_h5 == 0)
    return fail(CS_ERR_HDF5, "'%s' is not an HDF5 file", path);
  if (is_h5 < 0)
    return fail_h5("cannot open", path);
  f = calloc(1, sizeof *f);
  if (!f)
    return fail(CS_ERR_NOMEM, "out of memory");
  f->file = H5Fopen(path, writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f->file < 0 && !writable) {
    /* A sweep being written (or killed while written) is in SWMR mode: its
     * superblock says "open for write" and only a SWMR reader may open it. */
    hid_t fapl = cs_h5_i_fapl_latest();
    if (fapl >= 0) {
      H5Eclear2(H5E_DEFAULT);
      f->file = H5Fopen(path, H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl);
      H5Pclose(fapl);
    }
    if (f->file < 0) {
      H5Eclear2(H5E_DEFAULT);
      f->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT); /* for the error message */
    }
  }
  if (f->file < 0) {
    free(f);
    return fail_h5("cannot open", path);
  }
  *out = f;
  return CS_OK;
}

enum cs_status cs_h5_flush(struct cs_h5 *f)
{
  begin();
  if (H5Fflush(f->file, H5F_SCOPE_GLOBAL) < 0)
    return fail_h5("cannot flush", "file");
  return CS_OK;
}

enum cs_status cs_h5_close(struct cs_h5 *f)
{
  enum cs_status st = CS_OK;
  begin();
  if (!f)
    return CS_OK;
  if (f->file >= 0 && H5Fclose(f->file) < 0)
    st = fail_h5("cannot close", "file");
  cs_h5_i_release(f);
  return st;
}

/* ------------------------------------------------------------- attributes */

/* Opens obj, removing an attribute name that is to be replaced. */
static enum cs_status open_for_attr(struct cs_h5 *f, const char *obj, const char *name, hid_t *id)
{
  htri_t exists;
  if (!path_exists(f->file, obj))
    return fail(CS_ERR_NOT_FOUND, "no object '%s' for attribute '%s'", obj, name);
  *id = H5Oopen(f->file, obj, H5P_DEFAULT);
  if (*id < 0)
    return fail_h5("cannot open object", obj);
  exists = H5Aexists(*id, name);
  if (exists > 0 && H5Adelete(*id, name) < 0)
    exists = -1;
  if (exists < 0) {
    enum cs_status st = fail_h5("cannot replace attribute", name);
    H5Oclose(*id);
    return st;
  }
  return CS_OK;
}

/* Writes an attribute of count elements (0: scalar) of memory type mtype and
 * file type ftype. */
static enum cs_status write_attr(struct cs_h5 *f, const char *obj, const char *name, hid_t ftype,
                                 hid_t mtype, size_t count, const void *buf)
{
  hid_t id = -1, space, attr = -1;
  enum cs_status st = open_for_attr(f, obj, name, &id);
  if (st != CS_OK)
    return st;
  if (count == 0) {
    space = H5Screate(H5S_SCALAR);
  } else {
    hsize_t dim = count;
    space = H5Screate_simple(1, &dim, NULL);
  }
  if (space >= 0)
    attr = H5Acreate2(id, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
  if (space < 0 || attr < 0 || H5Awrite(attr, mtype, buf) < 0)
    st = fail_h5("cannot write attribute", name);
  if (attr >= 0)
    H5Aclose(attr);
  if (space >= 0)
    H5Sclose(space);
  H5Oclose(id);
  return st;
}

static enum cs_status write_string_attr(struct cs_h5 *f, const char *obj, const char *name,
                                        size_t count, const char *const *values)
{
  enum cs_status st;
  hid_t t = vlen_string_type();
  if (t < 0)
    return fail_h5("cannot make string type for", name);
  st = write_attr(f, obj, name, t, t, count, values);
  H5Tclose(t);
  return st;
}

enum cs_status cs_h5_attr_write_string(struct cs_h5 *f, const char *obj, const char *name,
                                       const char *value)
{
  begin();
  return write_string_attr(f, obj, name, 0, &value);
}

static enum cs_status unlink_existing(struct cs_h5 *f, const char *path);

enum cs_status cs_h5_attr_write_strings(struct cs_h5 *f, const char *obj, const char *name,
                                        size_t count, const char *const *values)
{
  begin();
  return write_string_attr(f, obj, name, count, values);
}

enum cs_status cs_h5_write_strings(struct cs_h5 *f, const char *path, size_t n,
                                   const char *const *values)
{
  hsize_t dim = n;
  hid_t t, space = -1, dset = -1;
  enum cs_status st;
  begin();
  st = unlink_existing(f, path);
  if (st != CS_OK)
    return st;
  t = vlen_string_type();
  if (t >= 0)
    space = H5Screate_simple(1, &dim, NULL);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  if (t >= 0 && space >= 0 && lcpl >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0)
    dset = H5Dcreate2(f->file, path, t, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (dset < 0 || (n > 0 && H5Dwrite(dset, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0))
    st = fail_h5("cannot write strings", path);
  if (dset >= 0)
    H5Dclose(dset);
  if (lcpl >= 0)
    H5Pclose(lcpl);
  if (space >= 0)
    H5Sclose(space);
  if (t >= 0)
    H5Tclose(t);
  return st;
}

enum cs_status cs_h5_attr_write_double(struct cs_h5 *f, const char *obj, const char *name,
                                       double value, const char *units)
{
  enum cs_status st;
  begin();
  st = write_attr(f, obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 0, &value);
  if (st == CS_OK && units) {
    size_t n = strlen(name) + sizeof "_units";
    char *uname = malloc(n);
    if (!uname)
      return fail(CS_ERR_NOMEM, "out of memory");
    snprintf(uname, n, "%s_units", name);
    st = write_string_attr(f, obj, uname, 0, &units);
    free(uname);
  }
  return st;
}

enum cs_status cs_h5_attr_write_int(struct cs_h5 *f, const char *obj, const char *name,
                                    long long value)
{
  begin();
  return write_attr(f, obj, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, 0, &value);
}

/* Reads the string attribute name of the object id: *count strings (1 for a
 * scalar), each allocated with malloc, into a malloc'ed array. */
static enum cs_status read_string_attr(hid_t id, const char *name, char ***values, size_t *count)
{
  hid_t attr, ftype = -1, space = -1, mtype = -1;
  enum cs_status st = CS_OK;
  hssize_t n = 0;
  char **out = NULL;
  *values = NULL;
  *count = 0;
  if (H5Aexists(id, name) <= 0)
    return fail(CS_ERR_NOT_FOUND, "no attribute '%s'", name);
  attr = H5Aopen(id, name, H5P_DEFAULT);
  if (attr < 0)
    return fail_h5("cannot open attribute", name);
  ftype = H5Aget_type(attr);
  space = H5Aget_space(attr);
  if (ftype < 0 || space < 0 || (n = H5Sget_simple_extent_npoints(space)) < 0) {
    st = fail_h5("cannot read attribute", name);
    goto done;
  }
  if (H5Tget_class(ftype) != H5T_STRING) {
    st = fail(CS_ERR_HDF5, "attribute '%s' is not a string", name);
    goto done;
  }
  out = calloc(n > 0 ? (size_t)n : 1, sizeof *out);
  if (!out) {
    st = fail(CS_ERR_NOMEM, "out of memory");
    goto done;
  }
  mtype = H5Tcopy(H5T_C_S1);
  /* HDF5 converts no string between character sets: read in the file's one. */
  if (mtype >= 0 && H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0) {
    H5Tclose(mtype);
    mtype = -1;
  }
  if (H5Tis_variable_str(ftype) > 0) {
    char **raw = calloc(n > 0 ? (size_t)n : 1, sizeof *raw);
    if (!raw) {
      st = fail(CS_ERR_NOMEM, "out of memory");
      goto done;
    }
    if (mtype < 0 || H5Tset_size(mtype, H5T_VARIABLE) < 0 || H5Aread(attr, mtype, raw) < 0) {
      st = fail_h5("cannot read attribute", name);
    } else {
      for (hssize_t i = 0; i < n; i++) {
        out[i] = dup_string(raw[i] ? raw[i] : "");
        if (!out[i])
          st = fail(CS_ERR_NOMEM, "out of memory");
      }
      for (hssize_t i = 0; i < n; i++)
        H5free_memory(raw[i]);
    }
    free(raw);
  } else {
    size_t len = H5Tget_size(ftype) + 1; /* room for a terminator */
    char *raw = calloc(n > 0 ? (size_t)n : 1, len);
    if (!raw) {
      st = fail(CS_ERR_NOMEM, "out of memory");
      goto done;
    }
    if (mtype < 0 || H5Tset_size(mtype, len) < 0 || H5Tset_strpad(mtype, H5T_STR_NULLTERM) < 0 ||
        H5Aread(attr, mtype, raw) < 0) {
      st = fail_h5("cannot read attribute", name);
    } else {
      for (hssize_t i = 0; i < n; i++) {
        out[i] = dup_string(raw + (size_t)i * len);
        if (!out[i])
          st = fail(CS_ERR_NOMEM, "out of memory");
      }
    }
    free(raw);
  }
done:
  if (st != CS_OK && out) {
    for (hssize_t i = 0; i < n; i++)
      free(out[i]);
    free(out);
    out = NULL;
  }
  if (mtype >= 0)
    H5Tclose(mtype);
  if (space >= 0)
    H5Sclose(space);
  if (ftype >= 0)
    H5Tclose(ftype);
  H5Aclose(attr);
  if (st == CS_OK) {
    *values = out;
    *count = (size_t)n;
  }
  return st;
}

static void free_strings(char **s, size_t n)
{
  if (!s)
    return;
  for (size_t i = 0; i < n; i++)
    free(s[i]);
  free(s);
}

enum cs_status cs_h5_attr_read_string(struct cs_h5 *f, const char *obj, const char *name,
                                      char **value)
{
  hid_t id;
  char **v;
  size_t n;
  enum cs_status st;
  begin();
  *value = NULL;
  if (!path_exists(f->file, obj))
    return fail(CS_ERR_NOT_FOUND, "no object '%s'", obj);
  id = H5Oopen(f->file, obj, H5P_DEFAULT);
  if (id < 0)
    return fail_h5("cannot open object", obj);
  st = read_string_attr(id, name, &v, &n);
  H5Oclose(id);
  if (st != CS_OK)
    return st;
  if (n != 1) {
    free_strings(v, n);
    return fail(CS_ERR_HDF5, "attribute '%s' holds %zu strings, expected one", name, n);
  }
  *value = v[0];
  free(v);
  return CS_OK;
}

enum cs_status cs_h5_attr_read_double(struct cs_h5 *f, const char *obj, const char *name,
                                      double *value)
{
  hid_t id, attr = -1, ftype = -1, space = -1;
  enum cs_status st = CS_OK;
  begin();
  if (!path_exists(f->file, obj))
    return fail(CS_ERR_NOT_FOUND, "no object '%s'", obj);
  id = H5Oopen(f->file, obj, H5P_DEFAULT);
  if (id < 0)
    return fail_h5("cannot open object", obj);
  if (H5Aexists(id, name) <= 0) {
    H5Oclose(id);
    return fail(CS_ERR_NOT_FOUND, "no attribute '%s' on '%s'", name, obj);
  }
  attr = H5Aopen(id, name, H5P_DEFAULT);
  if (attr >= 0) {
    ftype = H5Aget_type(attr);
    space = H5Aget_space(attr);
  }
  if (attr < 0 || ftype < 0 || space < 0) {
    st = fail_h5("cannot read attribute", name);
  } else {
    H5T_class_t c = H5Tget_class(ftype);
    if ((c != H5T_FLOAT && c != H5T_INTEGER) || H5Sget_simple_extent_npoints(space) != 1)
      st = fail(CS_ERR_HDF5, "attribute '%s' is not a numeric scalar", name);
    else if (H5Aread(attr, H5T_NATIVE_DOUBLE, value) < 0)
      st = fail_h5("cannot read attribute", name);
  }
  if (space >= 0)
    H5Sclose(space);
  if (ftype >= 0)
    H5Tclose(ftype);
  if (attr >= 0)
    H5Aclose(attr);
  H5Oclose(id);
  return st;
}

/* A shell word, quoted only when it needs to be. Appends to buf (size cap). */
static void append_shell_word(char *buf, size_t cap, const char *w)
{
  size_t len = strlen(buf);
  int plain = *w != '\0';
  for (const char *p = w; *p && plain; p++)
    plain = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-",
                   *p) != NULL;
  if (plain) {
    snprintf(buf + len, cap - len, "%s", w);
    return;
  }
  if (len + 1 < cap)
    buf[len++] = '\'';
  for (const char *p = w; *p && len + 5 < cap; p++) {
    if (*p == '\'') {
      memcpy(buf + len, "'\\''", 4);
      len += 4;
    } else {
      buf[len++] = *p;
    }
  }
  if (len + 1 < cap)
    buf[len++] = '\'';
  buf[len] = '\0';
}

enum cs_status cs_h5_write_provenance(struct cs_h5 *f, int argc, char *const *argv)
{
  char date[32], hdf5v[32];
  size_t cap = 1;
  char *cmd;
  time_t now = time(NULL);
  struct tm utc;
  unsigned maj = 0, min = 0, rel = 0;
  enum cs_status st;
  begin();
  for (int i = 0; i < argc; i++)
    cap += 4 * strlen(argv[i]) + 3;
  cmd = malloc(cap);
  if (!cmd)
    return fail(CS_ERR_NOMEM, "out of memory");
  cmd[0] = '\0';
  for (int i = 0; i < argc; i++) {
    if (i > 0)
      strcat(cmd, " ");
    append_shell_word(cmd, cap, argv[i]);
  }
  if (gmtime_r(&now, &utc) == NULL || strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0)
    snprintf(date, sizeof date, "unknown");
  H5get_libversion(&maj, &min, &rel);
  snprintf(hdf5v, sizeof hdf5v, "%u.%u.%u", maj, min, rel);
  st = cs_h5_attr_write_string(f, "/", "program", "contensou");
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "version", CS_VERSION);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "git_describe", CS_GIT_DESCRIBE);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "hdf5_version", hdf5v);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "command_line", cmd);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "date", date);
  free(cmd);
  return st;
}

/* --------------------------------------------------------------- datasets */

/* Removes path if it exists, so that it can be written again. */
static enum cs_status unlink_existing(struct cs_h5 *f, const char *path)
{
  if (path_exists(f->file, path) && H5Ldelete(f->file, path, H5P_DEFAULT) < 0)
    return fail_h5("cannot replace", path);
  return CS_OK;
}

/* Creates a dataset of doubles, with intermediate groups. */
static hid_t create_dataset(struct cs_h5 *f, const char *path, int rank, const hsize_t *dims,
                            const hsize_t *maxdims, hid_t dcpl)
{
  hid_t space, lcpl, dset = -1;
  space = H5Screate_simple(rank, dims, maxdims);
  lcpl = H5Pcreate(H5P_LINK_CREATE);
  if (space >= 0 && lcpl >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0 &&
      H5Pset_char_encoding(lcpl, H5T_CSET_UTF8) >= 0)
    dset = H5Dcreate2(f->file, path, H5T_IEEE_F64LE, space, lcpl, dcpl, H5P_DEFAULT);
  if (dset < 0)
    fail_h5("cannot create dataset", path);
  if (lcpl >= 0)
    H5Pclose(lcpl);
  if (space >= 0)
    H5Sclose(space);
  return dset;
}

static enum cs_status write_column_attrs(struct cs_h5 *f, const char *path, size_t ncols,
                                         const char *const *names, const char *const *units)
{
  enum cs_status st = CS_OK;
  if (names)
    st = write_string_attr(f, path, "names", ncols, names);
  if (st == CS_OK && units)
    st = write_string_attr(f, path, "units", ncols, units);
  return st;
}

enum cs_status cs_h5_write_vector(struct cs_h5 *f, const char *path, size_t n, const double *data,
                                  const char *units)
{
  hsize_t dim = n;
  hid_t dset;
  enum cs_status st;
  begin();
  st = unlink_existing(f, path);
  if (st != CS_OK)
    return st;
  dset = create_dataset(f, path, 1, &dim, NULL, H5P_DEFAULT);
  if (dset < 0)
    return CS_ERR_HDF5;
  if (n > 0 && H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    st = fail_h5("cannot write dataset", path);
  H5Dclose(dset);
  if (st == CS_OK && units)
    st = write_string_attr(f, path, "units", 0, &units);
  return st;
}

enum cs_status cs_h5_write_table(struct cs_h5 *f, const char *path, size_t nrows, size_t ncols,
                                 const double *data, const char *const *names,
                                 const char *const *units)
{
  hsize_t dims[2] = {nrows, ncols};
  hid_t dset;
  enum cs_status st;
  begin();
  if (ncols == 0)
    return fail(CS_ERR_ARG, "table '%s' needs at least one column", path);
  st = unlink_existing(f, path);
  if (st != CS_OK)
    return st;
  dset = create_dataset(f, path, 2, dims, NULL, H5P_DEFAULT);
  if (dset < 0)
    return CS_ERR_HDF5;
  if (nrows > 0 && H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    st = fail_h5("cannot write dataset", path);
  H5Dclose(dset);
  if (st == CS_OK)
    st = write_column_attrs(f, path, ncols, names, units);
  return st;
}

void cs_h5_data_free(struct cs_h5_data *d)
{
  if (!d)
    return;
  free(d->data);
  free_strings(d->names, d->ncols);
  free_strings(d->units, d->ncols);
  memset(d, 0, sizeof *d);
}

long cs_h5_data_column(const struct cs_h5_data *d, const char *name)
{
  for (size_t i = 0; i < d->ncols; i++)
    if (d->names && d->names[i] && strcmp(d->names[i], name) == 0)
      return (long)i;
  return -1;
}

/* Fills labels[0..ncols) from the string attribute name of dset: missing gives
 * "", a scalar is accepted for a single column. */
static enum cs_status read_labels(hid_t dset, const char *path, const char *name, size_t ncols,
                                  char **labels)
{
  char **v = NULL;
  size_t n = 0;
  enum cs_status st = read_string_attr(dset, name, &v, &n);
  if (st == CS_ERR_NOT_FOUND) {
    cs_h5_err[0] = '\0';
    for (size_t i = 0; i < ncols; i++)
      if (!(labels[i] = dup_string("")))
        return fail(CS_ERR_NOMEM, "out of memory");
    return CS_OK;
  }
  if (st != CS_OK)
    return st;
  if (n != ncols) {
    free_strings(v, n);
    return fail(CS_ERR_HDF5, "dataset '%s': attribute '%s' has %zu entries for %zu columns", path,
                name, n, ncols);
  }
  for (size_t i = 0; i < ncols; i++)
    labels[i] = v[i];
  free(v);
  return CS_OK;
}

static enum cs_status read_columns(struct cs_h5 *f, const char *path, struct cs_h5_data *out);

enum cs_status cs_h5_read(struct cs_h5 *f, const char *path, struct cs_h5_data *out)
{
  hid_t dset, space = -1, type = -1;
  hsize_t dims[2] = {0, 1};
  int rank;
  enum cs_status st = CS_OK;
  begin();
  memset(out, 0, sizeof *out);
  if (!path_exists(f->file, path))
    return fail(CS_ERR_NOT_FOUND, "no dataset '%s'", path);
  H5O_info_t oi;
  if (H5Oget_info_by_name2(f->file, path, &oi, H5O_INFO_BASIC, H5P_DEFAULT) >= 0 &&
      oi.type == H5O_TYPE_GROUP)
    return read_columns(f, path, out);
  dset = H5Dopen2(f->file, path, H5P_DEFAULT);
  if (dset < 0)
    return fail_h5("cannot open dataset", path);
  space = H5Dget_space(dset);
  type = H5Dget_type(dset);
  if (space < 0 || type < 0 || (rank = H5Sget_simple_extent_ndims(space)) < 0) {
    st = fail_h5("cannot read dataset", path);
    goto done;
  }
  if (rank < 1 || rank > 2) {
    st = fail(CS_ERR_UNSUPPORTED, "dataset '%s' has rank %d, expected 1 or 2", path, rank);
    goto done;
  }
  if (H5Tget_class(type) != H5T_FLOAT && H5Tget_class(type) != H5T_INTEGER) {
    st = fail(CS_ERR_UNSUPPORTED, "dataset '%s' is not numeric", path);
    goto done;
  }
  H5Sget_simple_extent_dims(space, dims, NULL);
  out->rank = rank;
  out->nrows = dims[0];
  out->ncols = rank == 2 ? dims[1] : 1;
  out->data = malloc((out->nrows * out->ncols > 0 ? out->nrows * out->ncols : 1) * sizeof(double));
  out->names = calloc(out->ncols > 0 ? out->ncols : 1, sizeof(char *));
  out->units = calloc(out->ncols > 0 ? out->ncols : 1, sizeof(char *));
  if (!out->data || !out->names || !out->units) {
    st = fail(CS_ERR_NOMEM, "out of memory");
    goto done;
  }
  if (out->nrows * out->ncols > 0 &&
      H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->data) < 0) {
    st = fail_h5("cannot read dataset", path);
    goto done;
  }
  if (rank == 1) {
    const char *base = strrchr(path, '/');
    out->names[0] = dup_string(base ? base + 1 : path);
    if (!out->names[0])
      st = fail(CS_ERR_NOMEM, "out of memory");
  } else {
    st = read_labels(dset, path, "names", out->ncols, out->names);
  }
  if (st == CS_OK)
    st = read_labels(dset, path, "units", out->ncols, out->units);
done:
  if (type >= 0)
    H5Tclose(type);
  if (space >= 0)
    H5Sclose(space);
  H5Dclose(dset);
  if (st != CS_OK)
    cs_h5_data_free(out);
  return st;
}

/* A group of 1-D datasets of equal length named by its `columns` attribute
 * (sweep points, the change table) read as one table of doubles. */
static enum cs_status read_columns(struct cs_h5 *f, const char *path, struct cs_h5_data *out)
{
  hid_t g = H5Oopen(f->file, path, H5P_DEFAULT);
  char **cols = NULL;
  size_t ncols = 0;
  enum cs_status st = g < 0 ? fail_h5("cannot open group", path) : CS_OK;
  if (st == CS_OK) {
    st = read_string_attr(g, "columns", &cols, &ncols);
    if (st == CS_ERR_NOT_FOUND)
      st = fail(CS_ERR_UNSUPPORTED, "'%s' is a group without a columns attribute", path);
  }
  if (g >= 0)
    H5Oclose(g);
  if (st != CS_OK)
    return st;
  if (ncols == 0 || ncols > 4096) {
    free_strings(cols, ncols);
    return fail(CS_ERR_HDF5, "'%s': %zu columns", path, ncols);
  }
  out->rank = 2;
  out->ncols = ncols;
  out->names = calloc(ncols, sizeof(char *));
  out->units = calloc(ncols, sizeof(char *));
  if (!out->names || !out->units) {
    free_strings(cols, ncols);
    cs_h5_data_free(out);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  for (size_t c = 0; c < ncols && st == CS_OK; c++) {
    size_t n = strlen(path) + strlen(cols[c]) + 2;
    char *sub = malloc(n);
    struct cs_h5_data col;
    if (!sub) {
      st = fail(CS_ERR_NOMEM, "out of memory");
      break;
    }
    snprintf(sub, n, "%s/%s", path, cols[c]);
    st = cs_h5_read(f, sub, &col);
    if (st == CS_OK && (col.rank != 1 || (c > 0 && col.nrows != out->nrows)))
      st = fail(CS_ERR_HDF5, "'%s': not a column of %zu values", sub, out->nrows);
    free(sub);
    if (st != CS_OK) {
      cs_h5_data_free(&col);
      break;
    }
    if (c == 0) {
      out->nrows = col.nrows;
      out->data = malloc((out->nrows ? out->nrows : 1) * ncols * sizeof(double));
      if (!out->data) {
        cs_h5_data_free(&col);
        st = fail(CS_ERR_NOMEM, "out of memory");
        break;
      }
    }
    for (size_t i = 0; i < out->nrows; i++)
      out->data[i * ncols + c] = col.data[i];
    out->names[c] = dup_string(cols[c]);
    out->units[c] = dup_string(col.units[0] ? col.units[0] : "");
    cs_h5_data_free(&col);
    if (!out->names[c] || !out->units[c])
      st = fail(CS_ERR_NOMEM, "out of memory");
  }
  free_strings(cols, ncols);
  if (st != CS_OK)
    cs_h5_data_free(out);
  return st;
}

/* ---------------------------------------------- extendible (appendable) tables */

enum cs_status cs_h5_table_create(struct cs_h5 *f, const char *path, size_t ncols,
                                  size_t chunk_rows, const char *const *names,
                                  const char *const *units, struct cs_h5_table **out)
{
  hsize_t dims[2] = {0, ncols}, maxdims[2] = {H5S_UNLIMITED, ncols}, chunk[2];
  hid_t dcpl, dset;
  struct cs_h5_table *t;
  enum cs_status st;
  begin();
  *out = NULL;
  if (ncols == 0)
    return fail(CS_ERR_ARG, "table '%s' needs at least one column", path);
  if (chunk_rows == 0)
    chunk_rows = ncols < 8192 ? 8192 / ncols : 1; /* about 64 KiB per chunk */
  chunk[0] = chunk_rows;
  chunk[1] = ncols;
  st = unlink_existing(f, path);
  if (st != CS_OK)
    return st;
  dcpl = H5Pcreate(H5P_DATASET_CREATE);
  double fill = NAN; /* rows not written yet (a killed run, out-of-order writes) read as NaN */
  if (dcpl < 0 || H5Pset_chunk(dcpl, 2, chunk) < 0 || H5Pset_fletcher32(dcpl) < 0 ||
      H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &fill) < 0) {
    st = fail_h5("cannot set chunks of", path);
    if (dcpl >= 0)
      H5Pclose(dcpl);
    return st;
  }
  dset = create_dataset(f, path, 2, dims, maxdims, dcpl);
  H5Pclose(dcpl);
  if (dset < 0)
    return CS_ERR_HDF5;
  st = write_column_attrs(f, path, ncols, names, units);
  t = st == CS_OK ? malloc(sizeof *t) : NULL;
  if (!t) {
    H5Dclose(dset);
    return st != CS_OK ? st : fail(CS_ERR_NOMEM, "out of memory");
  }
  t->f = f;
  t->dset = dset;
  t->rows = 0;
  t->cols = ncols;
  *out = t;
  return CS_OK;
}

enum cs_status cs_h5_table_open(struct cs_h5 *f, const char *path, struct cs_h5_table **out)
{
  hid_t dset, space;
  hsize_t dims[2], maxdims[2];
  struct cs_h5_table *t;
  begin();
  *out = NULL;
  if (!path_exists(f->file, path))
    return fail(CS_ERR_NOT_FOUND, "no dataset '%s'", path);
  dset = H5Dopen2(f->file, path, H5P_DEFAULT);
  if (dset < 0)
    return fail_h5("cannot open dataset", path);
  space = H5Dget_space(dset);
  if (space < 0 || H5Sget_simple_extent_ndims(space) != 2 ||
      H5Sget_simple_extent_dims(space, dims, maxdims) < 0 || maxdims[0] != H5S_UNLIMITED) {
    if (space >= 0)
      H5Sclose(space);
    H5Dclose(dset);
    return fail(CS_ERR_UNSUPPORTED, "dataset '%s' is not an extendible 2-D table", path);
  }
  H5Sclose(space);
  t = malloc(sizeof *t);
  if (!t) {
    H5Dclose(dset);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  t->f = f;
  t->dset = dset;
  t->rows = dims[0];
  t->cols = dims[1];
  *out = t;
  return CS_OK;
}

enum cs_status cs_h5_table_append(struct cs_h5_table *t, size_t nrows, const double *rows)
{
  return cs_h5_table_write_at(t, t->rows, nrows, rows);
}

enum cs_status cs_h5_table_write_at(struct cs_h5_table *t, size_t first, size_t nrows,
                                    const double *rows)
{
  size_t end = first + nrows > t->rows ? first + nrows : t->rows;
  hsize_t dims[2] = {end, t->cols}, start[2] = {first, 0}, count[2] = {nrows, t->cols};
  hid_t fspace = -1, mspace = -1;
  enum cs_status st = CS_OK;
  begin();
  if (nrows == 0)
    return CS_OK;
  if (end > t->rows && H5Dset_extent(t->dset, dims) < 0)
    return fail_h5("cannot extend table", "rows");
  fspace = H5Dget_space(t->dset);
  mspace = H5Screate_simple(2, count, NULL);
  if (fspace < 0 || mspace < 0 ||
      H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0 ||
      H5Dwrite(t->dset, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, rows) < 0)
    st = fail_h5("cannot append to table", "rows");
  else
    t->rows = end;
  if (mspace >= 0)
    H5Sclose(mspace);
  if (fspace >= 0)
    H5Sclose(fspace);
  return st;
}

enum cs_status cs_h5_table_flush(struct cs_h5_table *t)
{
  return cs_h5_flush(t->f);
}

size_t cs_h5_table_rows(const struct cs_h5_table *t)
{
  return t->rows;
}

size_t cs_h5_table_cols(const struct cs_h5_table *t)
{
  return t->cols;
}

enum cs_status cs_h5_table_close(struct cs_h5_table *t)
{
  enum cs_status st = CS_OK;
  begin();
  if (!t)
    return CS_OK;
  if (H5Dclose(t->dset) < 0)
    st = fail_h5("cannot close table", "dataset");
  free(t);
  return st;
}
