/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */

#include "io/h5.h"

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cs_version.h"
#include "integrate/sundials_private.h"
#include "io/h5_private.h"

/* short names for the helpers shared with h5_write.c */
#define begin cs_h5_i_begin
#define fail cs_h5_i_fail
#define fail_h5 cs_h5_i_fail_h5
#define vlen_string_type cs_h5_i_vlen_string_type
#define path_exists cs_h5_i_path_exists
#define read_strings cs_h5_i_read_strings

/* HDF5 closes what is still open when the process exits; after a file
 * failed to close (a full disk) that crashes in HDF5 1.10.8: contensou closes
 * every file itself, so the exit-time cleanup is switched off before HDF5
 * starts. */
__attribute__((constructor)) static void no_hdf5_atexit(void)
{
  H5dont_atexit();
}

/* At exit: shuts HDF5 down unless a file is still open. HDF5's own exit
 * handler closes every open file; after a failed H5Fclose (a full disk)
 * HDF5 1.10 keeps the half-closed file and that handler crashed on it
 * (friction fit -o on a full disk: exit 139 after the error message), and a
 * file let go with cs_h5_abandon is to stay as it was at its last flush. */
static void term(void)
{
  if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) == 0)
    H5close();
}

void begin(void)
{
  /* H5dont_atexit succeeds once, before HDF5 starts: this handler instead */
  if (H5dont_atexit() >= 0)
    atexit(term);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  /* the error channel is not cleared here: the cleanup after a failure
   * (closing the file) must not erase its reason */
}

/* kept in the library's error channel, one line (cs_error_vset) */
enum cs_status fail(enum cs_status status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  cs_error_vset(status, fmt, ap);
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

/* Readers treat the file as untrusted: an object they read must be reached
 * through hard links only (a soft link can point anywhere in the file, an
 * external link into another file, which a reader of this file has no
 * business opening). CS_OK, CS_ERR_NOT_FOUND (a component is missing), or
 * CS_ERR_UNSUPPORTED/CS_ERR_HDF5 with the message set when report is 1. */
static enum cs_status read_path(hid_t file, const char *path, int report)
{
  size_t n = strlen(path);
  if (strcmp(path, "/") == 0)
    return CS_OK;
  if (n == 0 || n >= 1024 || path[0] != '/')
    return report ? fail(CS_ERR_ARG, "bad object path '%.64s'", path) : CS_ERR_ARG;
  char buf[1024];
  memcpy(buf, path, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (buf[i] != '/' && buf[i] != '\0')
      continue;
    char c = buf[i];
    buf[i] = '\0';
    htri_t e = H5Lexists(file, buf, H5P_DEFAULT);
    H5L_info_t li;
    enum cs_status st = CS_OK;
    if (e == 0)
      st = report ? fail(CS_ERR_NOT_FOUND, "no object '%s'", buf) : CS_ERR_NOT_FOUND;
    else if (e < 0 || H5Lget_info(file, buf, &li, H5P_DEFAULT) < 0)
      st = report ? fail_h5("cannot look up", buf) : CS_ERR_HDF5;
    else if (li.type != H5L_TYPE_HARD)
      st = report ? fail(CS_ERR_UNSUPPORTED, "'%s' is a %s link (accepted: a group or dataset)",
                         buf, li.type == H5L_TYPE_SOFT ? "soft" : "external")
                  : CS_ERR_UNSUPPORTED;
    buf[i] = c;
    if (st != CS_OK)
      return st;
  }
  return CS_OK;
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
  return f && path && read_path(f->file, path, 0) == CS_OK;
}

enum cs_status cs_h5_companion_path(const char *table, char *buf, size_t cap)
{
  const char *slash = table ? strrchr(table, '/') : NULL;
  const char *base = slash ? slash + 1 : table;
  int n = !table ? -1
          : strcmp(base, "values") == 0
              ? snprintf(buf, cap, "%.*scodes", (int)(base - table), table)
              : snprintf(buf, cap, "%s_codes", table);
  if (n < 0 || (size_t)n >= cap) {
    if (cap)
      buf[0] = '\0';
    return CS_ERR_RANGE;
  }
  return CS_OK;
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

/* Metadata read attempts of a SWMR reader (HDF5's default: 100). */
#define SWMR_READ_ATTEMPTS 8

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
  /* read-only: closing the file closes whatever a failed read left open */
  hid_t fapl = writable ? H5P_DEFAULT : H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0 || (!writable && H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0)) {
    enum cs_status st = fail_h5("cannot open", path);
    if (fapl >= 0)
      H5Pclose(fapl);
    free(f);
    return st;
  }
  f->file = H5Fopen(path, writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, fapl);
  if (f->file < 0 && !writable) {
    /* A sweep being written (or killed while written) is in SWMR mode: its
     * superblock says "open for write" and only a SWMR reader may open it. */
    hid_t swmr = cs_h5_i_fapl_latest();
    /* A SWMR reader retries a metadata read whose checksum fails (the writer
     * may be half-way through it): 100 times by default, with sleeps that
     * grow, which on a damaged block never ends in practice (a flipped bit
     * held a reader for more than 10 min). A live writer needs few retries. */
    if (swmr >= 0 && H5Pset_fclose_degree(swmr, H5F_CLOSE_STRONG) >= 0 &&
        H5Pset_metadata_read_attempts(swmr, SWMR_READ_ATTEMPTS) >= 0) {
      H5Eclear2(H5E_DEFAULT);
      f->file = H5Fopen(path, H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, swmr);
    }
    if (swmr >= 0)
      H5Pclose(swmr);
    if (f->file < 0) {
      /* A file whose writer died without closing it (a run killed, a disk
       * that filled) keeps its "open for write" marks: read it as it was at
       * the last flush, without changing it (h5clear -s would). */
      hbool_t clear = 1;
      H5Eclear2(H5E_DEFAULT);
      if (H5Pset(fapl, "clear_status_flags", &clear) >= 0)
        f->file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    }
    if (f->file < 0) {
      H5Eclear2(H5E_DEFAULT);
      f->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT); /* for the error message */
    }
  }
  if (!writable)
    H5Pclose(fapl);
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

void cs_h5_abandon(struct cs_h5 *f)
{
  begin();
  if (f)
    cs_h5_i_release(f);
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

/* Elements of a simple dataspace, refusing more than max (and any product
 * that would overflow): the count comes from the file. -1 after setting the
 * message. */
static hssize_t space_count(hid_t space, size_t max, const char *what, const char *name)
{
  hsize_t dims[H5S_MAX_RANK];
  H5S_class_t cls = H5Sget_simple_extent_type(space);
  if (cls == H5S_SCALAR)
    return 1;
  if (cls == H5S_NULL)
    return 0;
  int rank = H5Sget_simple_extent_ndims(space);
  if (cls != H5S_SIMPLE || rank < 0 || rank > H5S_MAX_RANK ||
      H5Sget_simple_extent_dims(space, dims, NULL) < 0) {
    fail_h5(what, name);
    return -1;
  }
  size_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] > max || (dims[i] > 0 && n > max / dims[i])) {
      fail(CS_ERR_RANGE, "%s '%s': more than %zu elements", what, name, max);
      return -1;
    }
    n *= (size_t)dims[i];
  }
  return (hssize_t)n;
}

static void free_strings(char **s, size_t n)
{
  if (!s)
    return;
  for (size_t i = 0; i < n; i++)
    free(s[i]);
  free(s);
}

/* Reads the strings of attribute name of id (or, name NULL, of the dataset
 * id itself, called path in messages): *count strings (1 for a scalar), each
 * malloc'ed and NUL-terminated, into a malloc'ed array. At most
 * CS_H5_MAX_STRINGS strings and CS_H5_MAX_TEXT bytes in all; a string holding
 * a NUL byte ends there. */
enum cs_status cs_h5_i_read_strings(hid_t id, const char *name, const char *path, char ***values,
                                    size_t *count)
{
  hid_t obj = -1, ftype = -1, space = -1, mtype = -1;
  enum cs_status st = CS_OK;
  hssize_t n = 0;
  char **out = NULL;
  const char *what = name ? "attribute" : "dataset", *label = name ? name : path;
  *values = NULL;
  *count = 0;
  if (name) {
    htri_t e = H5Aexists(id, name);
    if (e == 0)
      return fail(CS_ERR_NOT_FOUND, "no attribute '%s' on '%s'", name, path);
    if (e < 0 || (obj = H5Aopen(id, name, H5P_DEFAULT)) < 0)
      return fail_h5("cannot open attribute", name);
    ftype = H5Aget_type(obj);
    space = H5Aget_space(obj);
  } else {
    ftype = H5Dget_type(id);
    space = H5Dget_space(id);
  }
  if (ftype < 0 || space < 0) {
    st = fail_h5(name ? "cannot read attribute" : "cannot read dataset", label);
    goto done;
  }
  if (H5Tget_class(ftype) != H5T_STRING) {
    st = fail(CS_ERR_HDF5, "%s '%s' of '%s' is not a string", what, label, path);
    goto done;
  }
  if ((n = space_count(space, CS_H5_MAX_STRINGS, what, label)) < 0) {
    st = CS_ERR_RANGE;
    goto done;
  }
  out = calloc(n > 0 ? (size_t)n : 1, sizeof *out);
  if (!out) {
    st = fail(CS_ERR_NOMEM, "out of memory");
    goto done;
  }
  mtype = H5Tcopy(H5T_C_S1);
  /* HDF5 converts no string between character sets: read in the file's one. */
  H5T_cset_t cset = H5Tget_cset(ftype);
  if (mtype >= 0 && (cset < 0 || H5Tset_cset(mtype, cset) < 0)) {
    H5Tclose(mtype);
    mtype = -1;
  }
  htri_t vlen = H5Tis_variable_str(ftype);
  size_t total = 0;
  if (vlen < 0) {
    st = fail_h5(name ? "cannot read attribute" : "cannot read dataset", label);
  } else if (vlen > 0) {
    char **raw = calloc(n > 0 ? (size_t)n : 1, sizeof *raw);
    if (!raw) {
      st = fail(CS_ERR_NOMEM, "out of memory");
      goto done;
    }
    herr_t rs = -1;
    if (mtype >= 0 && H5Tset_size(mtype, H5T_VARIABLE) >= 0)
      rs = name ? H5Aread(obj, mtype, raw) : H5Dread(id, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw);
    if (rs < 0) {
      st = fail_h5(name ? "cannot read attribute" : "cannot read dataset", label);
    } else {
      for (hssize_t i = 0; i < n && st == CS_OK; i++) {
        size_t len = raw[i] ? strnlen(raw[i], CS_H5_MAX_TEXT + 1) : 0;
        if ((total += len + 1) > CS_H5_MAX_TEXT)
          st = fail(CS_ERR_RANGE, "%s '%s' of '%s': more than %zu bytes of text", what, label, path,
                    (size_t)CS_H5_MAX_TEXT);
        else if (!(out[i] = dup_string(raw[i] ? raw[i] : "")))
          st = fail(CS_ERR_NOMEM, "out of memory");
      }
      for (hssize_t i = 0; i < n; i++)
        H5free_memory(raw[i]);
    }
    free(raw);
  } else {
    size_t size = H5Tget_size(ftype);
    if (size == 0 || size >= CS_H5_MAX_TEXT || (size_t)n > CS_H5_MAX_TEXT / (size + 1)) {
      st = fail(CS_ERR_RANGE,
                "%s '%s' of '%s': %zu strings of %zu bytes (accepted: at most %zu "
                "bytes in all)",
                what, label, path, (size_t)n, size, (size_t)CS_H5_MAX_TEXT);
      goto done;
    }
    size_t len = size + 1; /* room for a terminator */
    char *raw = calloc(n > 0 ? (size_t)n : 1, len);
    if (!raw) {
      st = fail(CS_ERR_NOMEM, "out of memory");
      goto done;
    }
    herr_t rs = -1;
    if (mtype >= 0 && H5Tset_size(mtype, len) >= 0 && H5Tset_strpad(mtype, H5T_STR_NULLTERM) >= 0)
      rs = name ? H5Aread(obj, mtype, raw) : H5Dread(id, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw);
    if (rs < 0) {
      st = fail_h5(name ? "cannot read attribute" : "cannot read dataset", label);
    } else {
      for (hssize_t i = 0; i < n && st == CS_OK; i++) {
        raw[(size_t)i * len + size] = '\0';
        if (!(out[i] = dup_string(raw + (size_t)i * len)))
          st = fail(CS_ERR_NOMEM, "out of memory");
      }
    }
    free(raw);
  }
done:
  if (st != CS_OK && out) {
    free_strings(out, (size_t)n);
    out = NULL;
  }
  if (mtype >= 0)
    H5Tclose(mtype);
  if (space >= 0)
    H5Sclose(space);
  if (ftype >= 0)
    H5Tclose(ftype);
  if (obj >= 0)
    H5Aclose(obj);
  if (st == CS_OK) {
    *values = out;
    *count = (size_t)n;
  }
  return st;
}

/* Opens the object at path for reading its attributes (hard links only). */
static enum cs_status open_object(struct cs_h5 *f, const char *path, hid_t *id)
{
  enum cs_status st = read_path(f->file, path, 1);
  if (st != CS_OK)
    return st;
  *id = H5Oopen(f->file, path, H5P_DEFAULT);
  return *id < 0 ? fail_h5("cannot open object", path) : CS_OK;
}

enum cs_status cs_h5_attr_read_string(struct cs_h5 *f, const char *obj, const char *name,
                                      char **value)
{
  hid_t id;
  char **v;
  size_t n;
  begin();
  *value = NULL;
  enum cs_status st = open_object(f, obj, &id);
  if (st != CS_OK)
    return st;
  st = read_strings(id, name, obj, &v, &n);
  H5Oclose(id);
  if (st != CS_OK)
    return st;
  if (n != 1) {
    free_strings(v, n);
    return fail(CS_ERR_HDF5, "attribute '%s' of '%s' holds %zu strings, expected one", name, obj,
                n);
  }
  *value = v[0];
  free(v);
  return CS_OK;
}

enum cs_status cs_h5_read_strings(struct cs_h5 *f, const char *obj, const char *name,
                                  char ***values, size_t *count)
{
  hid_t id;
  begin();
  *values = NULL;
  *count = 0;
  enum cs_status st = open_object(f, obj, &id);
  if (st != CS_OK)
    return st;
  if (!name && H5Iget_type(id) != H5I_DATASET)
    st = fail(CS_ERR_UNSUPPORTED, "'%s' is not a dataset", obj);
  else
    st = read_strings(id, name, obj, values, count);
  H5Oclose(id);
  return st;
}

void cs_h5_strings_free(char **values, size_t count)
{
  free_strings(values, count);
}

enum cs_status cs_h5_attr_read_double(struct cs_h5 *f, const char *obj, const char *name,
                                      double *value)
{
  hid_t id, attr = -1, ftype = -1, space = -1;
  begin();
  enum cs_status st = open_object(f, obj, &id);
  if (st != CS_OK)
    return st;
  htri_t e = H5Aexists(id, name);
  if (e <= 0) {
    H5Oclose(id);
    return e == 0 ? fail(CS_ERR_NOT_FOUND, "no attribute '%s' on '%s'", name, obj)
                  : fail_h5("cannot open attribute", name);
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
    hssize_t n = space_count(space, 1, "attribute", name);
    if (n < 0)
      st = fail(CS_ERR_HDF5, "attribute '%s' of '%s' is not a numeric scalar", name, obj);
    else if ((c != H5T_FLOAT && c != H5T_INTEGER) || n != 1)
      st = fail(CS_ERR_HDF5, "attribute '%s' of '%s' is not a numeric scalar", name, obj);
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

enum cs_status cs_h5_attr_read_count(struct cs_h5 *f, const char *obj, const char *name, size_t max,
                                     size_t *value)
{
  double v;
  enum cs_status st = cs_h5_attr_read_double(f, obj, name, &v);
  if (st != CS_OK)
    return st;
  if (!(v >= 0 && v <= (double)max && v == floor(v)))
    return fail(CS_ERR_RANGE, "attribute '%s' of '%s' is %.17g (accepted: an integer in [0, %zu])",
                name, obj, v, max);
  *value = (size_t)v;
  return CS_OK;
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
  char date[32], hdf5v[32], sundialsv[64];
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
  if (st == CS_OK) {
    cs_sundials_version(sundialsv, sizeof sundialsv);
    st = cs_h5_attr_write_string(f, "/", "sundials_version", sundialsv);
  }
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "sundials_build", cs_sundials_build());
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

/* Creation properties of a fixed-size dataset of doubles with values:
 * chunks of about 64 KiB with Fletcher32 checksums, which HDF5 verifies on
 * every read (a contiguous dataset has none). H5P_DEFAULT (contiguous) for
 * an empty one, which holds no values and cannot be chunked; -2 after
 * setting the message on failure. Close with H5Pclose when >= 0. */
static hid_t checked_dcpl(const char *path, int rank, const hsize_t *dims)
{
  if (dims[0] == 0 || (rank == 2 && dims[1] == 0))
    return H5P_DEFAULT;
  hsize_t chunk[2] = {dims[0], rank == 2 ? dims[1] : 1};
  hsize_t per_row = chunk[1], rows = per_row < 8192 ? 8192 / per_row : 1;
  if (chunk[0] > rows)
    chunk[0] = rows;
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (dcpl < 0 || H5Pset_chunk(dcpl, rank, chunk) < 0 || H5Pset_fletcher32(dcpl) < 0 ||
      H5Pset_obj_track_times(dcpl, 0) < 0) {
    fail_h5("cannot set chunks of", path);
    if (dcpl >= 0)
      H5Pclose(dcpl);
    return -2;
  }
  return dcpl;
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
  hid_t dcpl = checked_dcpl(path, 1, &dim);
  if (dcpl == -2)
    return CS_ERR_HDF5;
  dset = create_dataset(f, path, 1, &dim, NULL, dcpl);
  if (dcpl >= 0)
    H5Pclose(dcpl);
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
  hid_t dcpl = checked_dcpl(path, 2, dims);
  if (dcpl == -2)
    return CS_ERR_HDF5;
  dset = create_dataset(f, path, 2, dims, NULL, dcpl);
  if (dcpl >= 0)
    H5Pclose(dcpl);
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
 * "", a scalar is accepted for a single column, and a single "units" string
 * for every column. A label is at most
 * CS_H5_MAX_LABEL - 1 bytes; control characters in it read as '?' (labels go
 * into messages, text files and gnuplot commands, one line each). */
static enum cs_status read_labels(hid_t dset, const char *path, const char *name, size_t ncols,
                                  char **labels)
{
  char **v = NULL;
  size_t n = 0;
  enum cs_status st = read_strings(dset, name, path, &v, &n);
  if (st == CS_ERR_NOT_FOUND) {
    cs_h5_err[0] = '\0';
    for (size_t i = 0; i < ncols; i++)
      if (!(labels[i] = dup_string("")))
        return fail(CS_ERR_NOMEM, "out of memory");
    return CS_OK;
  }
  if (st != CS_OK)
    return st;
  if (n == 1 && ncols > 1 && strcmp(name, "units") == 0) {
    /* one unit for every column (a table without column names, e.g. the
     * Floquet multipliers' real parts) */
    char **all = calloc(ncols, sizeof *all);
    for (size_t i = 0; all && i < ncols; i++)
      if (!(all[i] = dup_string(v[0]))) {
        free_strings(all, i);
        all = NULL;
      }
    free_strings(v, n);
    if (!all)
      return fail(CS_ERR_NOMEM, "out of memory");
    v = all;
    n = ncols;
  }
  if (n != ncols) {
    free_strings(v, n);
    return fail(CS_ERR_HDF5, "dataset '%s': attribute '%s' has %zu entries for %zu columns", path,
                name, n, ncols);
  }
  for (size_t i = 0; i < ncols; i++) {
    size_t len = strlen(v[i]);
    if (len >= CS_H5_MAX_LABEL) {
      free_strings(v, n);
      return fail(CS_ERR_RANGE,
                  "dataset '%s': entry %zu of attribute '%s' has %zu bytes (accepted: "
                  "at most %d)",
                  path, i, name, len, CS_H5_MAX_LABEL - 1);
    }
    for (char *c = v[i]; *c; c++)
      if ((unsigned char)*c < 0x20 || *c == 0x7F)
        *c = '?';
  }
  for (size_t i = 0; i < ncols; i++)
    labels[i] = v[i];
  free(v);
  return CS_OK;
}

/* Opens the numeric dataset at path of rank 1 or 2 and gets its shape: rows,
 * columns (1 for rank 1), the row count at most CS_H5_MAX_ELEMENTS / cols. */
static enum cs_status open_table(struct cs_h5 *f, const char *path, hid_t *dset, int *rank,
                                 size_t *nrows, size_t *ncols)
{
  hsize_t dims[H5S_MAX_RANK] = {0};
  enum cs_status st = read_path(f->file, path, 1);
  if (st != CS_OK)
    return st;
  *dset = H5Dopen2(f->file, path, H5P_DEFAULT);
  if (*dset < 0)
    return fail_h5("cannot open dataset", path);
  hid_t space = H5Dget_space(*dset), type = H5Dget_type(*dset);
  int r = -1;
  if (space < 0 || type < 0 || (r = H5Sget_simple_extent_ndims(space)) < 0 ||
      (r <= H5S_MAX_RANK && H5Sget_simple_extent_dims(space, dims, NULL) < 0))
    st = fail_h5("cannot read dataset", path);
  else if (r < 1 || r > 2)
    st = fail(CS_ERR_UNSUPPORTED, "dataset '%s' has rank %d, expected 1 or 2", path, r);
  else if (H5Tget_class(type) != H5T_FLOAT && H5Tget_class(type) != H5T_INTEGER)
    st = fail(CS_ERR_UNSUPPORTED, "dataset '%s' is not numeric", path);
  else if (r == 2 && dims[1] == 0)
    st = fail(CS_ERR_UNSUPPORTED, "dataset '%s' has no columns", path);
  else if ((r == 2 && dims[1] > CS_H5_MAX_ELEMENTS) ||
           dims[0] > CS_H5_MAX_ELEMENTS / (r == 2 ? dims[1] : 1))
    st = fail(CS_ERR_RANGE,
              "dataset '%s' has %llu x %llu elements (accepted: at most %zu to read in memory)",
              path, (unsigned long long)dims[0], (unsigned long long)(r == 2 ? dims[1] : 1),
              (size_t)CS_H5_MAX_ELEMENTS);
  if (type >= 0)
    H5Tclose(type);
  if (space >= 0)
    H5Sclose(space);
  if (st != CS_OK) {
    H5Dclose(*dset);
    return st;
  }
  *rank = r;
  *nrows = (size_t)dims[0];
  *ncols = r == 2 ? (size_t)dims[1] : 1;
  return CS_OK;
}

/* The values of an integer dataset equal to its attribute missing_value
 * (the CF convention for "not computed", cs_h5_column.missing) become NaN. */
static enum cs_status apply_missing(struct cs_h5 *f, hid_t dset, const char *path, double *v,
                                    size_t n)
{
  hid_t type = H5Dget_type(dset);
  int integer = type >= 0 && H5Tget_class(type) == H5T_INTEGER;
  if (type >= 0)
    H5Tclose(type);
  htri_t has = integer ? H5Aexists(dset, "missing_value") : 0;
  if (has < 0)
    return fail_h5("cannot look up attribute missing_value of", path);
  if (has == 0)
    return CS_OK;
  double m;
  enum cs_status st = cs_h5_attr_read_double(f, path, "missing_value", &m);
  if (st != CS_OK) /* a string, an array: the wrong type */
    return fail(CS_ERR_UNSUPPORTED, "dataset '%s': its missing_value is not one number", path);
  for (size_t i = 0; i < n; i++)
    if (v[i] == m)
      v[i] = NAN;
  return st;
}

static int is_group(struct cs_h5 *f, const char *path);
static enum cs_status columns_shape(struct cs_h5 *f, const char *path, int *rank, size_t *nrows,
                                    size_t *ncols);
static enum cs_status read_columns(struct cs_h5 *f, const char *path, size_t first, size_t count,
                                   struct cs_h5_data *out);
static enum cs_status column_of_group(struct cs_h5 *f, const char *path, const char *name,
                                      struct cs_h5_data *out);

enum cs_status cs_h5_shape(struct cs_h5 *f, const char *path, int *rank, size_t *nrows,
                           size_t *ncols)
{
  hid_t dset;
  begin();
  enum cs_status st = read_path(f->file, path, 1);
  if (st != CS_OK)
    return st;
  if (is_group(f, path)) /* a table stored by columns */
    return columns_shape(f, path, rank, nrows, ncols);
  st = open_table(f, path, &dset, rank, nrows, ncols);
  if (st == CS_OK)
    H5Dclose(dset);
  return st;
}

enum cs_status cs_h5_read_rows(struct cs_h5 *f, const char *path, size_t first, size_t count,
                               struct cs_h5_data *out)
{
  hid_t dset, fspace = -1, mspace = -1;
  int rank;
  size_t nrows, ncols;
  begin();
  memset(out, 0, sizeof *out);
  enum cs_status st = read_path(f->file, path, 1);
  if (st != CS_OK)
    return st;
  if (is_group(f, path))
    return read_columns(f, path, first, count, out);
  st = open_table(f, path, &dset, &rank, &nrows, &ncols);
  if (st != CS_OK)
    return st;
  if (count == SIZE_MAX && first <= nrows)
    count = nrows - first;
  if (first > nrows || count > nrows - first) {
    H5Dclose(dset);
    return fail(CS_ERR_RANGE, "dataset '%s' has %zu rows, not rows %zu to %zu", path, nrows, first,
                first + count);
  }
  out->rank = rank;
  out->nrows = count;
  out->ncols = ncols;
  out->data = malloc((count * ncols > 0 ? count * ncols : 1) * sizeof(double));
  out->names = calloc(ncols, sizeof(char *));
  out->units = calloc(ncols, sizeof(char *));
  if (!out->data || !out->names || !out->units) {
    st = fail(CS_ERR_NOMEM, "out of memory");
    goto done;
  }
  if (count > 0) {
    hsize_t start[2] = {first, 0}, cnt[2] = {count, ncols};
    fspace = H5Dget_space(dset);
    mspace = H5Screate_simple(rank, cnt, NULL);
    if (fspace < 0 || mspace < 0 ||
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, cnt, NULL) < 0 ||
        H5Dread(dset, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, out->data) < 0) {
      st = fail_h5("cannot read dataset", path);
      goto done;
    }
    if ((st = apply_missing(f, dset, path, out->data, count * ncols)) != CS_OK)
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
  if (mspace >= 0)
    H5Sclose(mspace);
  if (fspace >= 0)
    H5Sclose(fspace);
  H5Dclose(dset);
  if (st != CS_OK)
    cs_h5_data_free(out);
  return st;
}

/* 1 if path (checked by read_path) is a group. */
static int is_group(struct cs_h5 *f, const char *path)
{
  H5O_info_t oi;
  return H5Oget_info_by_name2(f->file, path, &oi, H5O_INFO_BASIC, H5P_DEFAULT) >= 0 &&
         oi.type == H5O_TYPE_GROUP;
}

/* Columns (datasets) of a table stored as a group at most. */
#define MAX_GROUP_COLUMNS 4096

/* The `columns` attribute of the group path: 1 to MAX_GROUP_COLUMNS names,
 * each a path component below the group (they come from the file: checked
 * like any path), and the path of each. Free both with free_strings. */
static enum cs_status group_columns(struct cs_h5 *f, const char *path, char ***cols, char ***subs,
                                    size_t *ncols)
{
  *cols = *subs = NULL;
  *ncols = 0;
  hid_t g = H5Oopen(f->file, path, H5P_DEFAULT);
  char **c = NULL;
  size_t n = 0;
  enum cs_status st = g < 0 ? fail_h5("cannot open group", path) : CS_OK;
  if (st == CS_OK) {
    st = read_strings(g, "columns", path, &c, &n);
    if (st == CS_ERR_NOT_FOUND)
      st = fail(CS_ERR_UNSUPPORTED, "'%s' is a group without a columns attribute", path);
  }
  if (g >= 0)
    H5Oclose(g);
  if (st != CS_OK)
    return st;
  if (n == 0 || n > MAX_GROUP_COLUMNS) {
    free_strings(c, n);
    return fail(CS_ERR_HDF5, "'%s': %zu columns (accepted: 1 to %d)", path, n, MAX_GROUP_COLUMNS);
  }
  char **s = calloc(n, sizeof *s);
  if (!s) {
    free_strings(c, n);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < n && st == CS_OK; i++) {
    char sub[1024];
    if (!c[i][0] || strchr(c[i], '/') || strlen(c[i]) >= CS_H5_MAX_LABEL ||
        (size_t)snprintf(sub, sizeof sub, "%s/%s", path, c[i]) >= sizeof sub)
      st = fail(CS_ERR_HDF5, "'%s': column %zu has a bad name (attribute 'columns')", path, i);
    else if (!(s[i] = dup_string(sub)))
      st = fail(CS_ERR_NOMEM, "out of memory");
    else if ((st = read_path(f->file, sub, 1)) == CS_OK && is_group(f, sub))
      st = fail(CS_ERR_HDF5, "'%s' is a group, not a column", sub);
  }
  if (st != CS_OK) {
    free_strings(c, n);
    free_strings(s, n);
    return st;
  }
  *cols = c, *subs = s, *ncols = n;
  return CS_OK;
}

/* The shape of a table stored by columns without reading it: the rows of
 * its first dataset, the columns of all (a block counts its width). */
static enum cs_status columns_shape(struct cs_h5 *f, const char *path, int *rank, size_t *nrows,
                                    size_t *ncols)
{
  char **cols, **subs;
  size_t n, total = 0, rows = 0;
  enum cs_status st = group_columns(f, path, &cols, &subs, &n);
  for (size_t c = 0; st == CS_OK && c < n; c++) {
    hid_t dset;
    int r;
    size_t nr, nc;
    if ((st = open_table(f, subs[c], &dset, &r, &nr, &nc)) != CS_OK)
      break;
    H5Dclose(dset);
    if (c == 0)
      rows = nr;
    if ((total += nc) > CS_H5_MAX_ELEMENTS)
      break;
  }
  if (st == CS_OK && (total > CS_H5_MAX_ELEMENTS || rows > CS_H5_MAX_ELEMENTS / total))
    st = fail(CS_ERR_RANGE, "'%s' has %zu x %zu elements (accepted: at most %zu to read in memory)",
              path, rows, total, (size_t)CS_H5_MAX_ELEMENTS);
  free_strings(cols, n);
  free_strings(subs, n);
  if (st == CS_OK)
    *rank = 2, *nrows = rows, *ncols = total;
  return st;
}

/* A table stored by columns (cs_h5_write_columns: sweep points, the change
 * table, every table of codes and counts beside real numbers), rows first ..
 * first + count - 1 read as one table of doubles: a 1-D dataset is one
 * column named as in `columns`, a 2-D block as many as it has, named by its
 * `names`. Every dataset must have those rows. */
static enum cs_status read_columns(struct cs_h5 *f, const char *path, size_t first, size_t count,
                                   struct cs_h5_data *out)
{
  memset(out, 0, sizeof *out);
  char **cols, **subs;
  size_t n;
  enum cs_status st = group_columns(f, path, &cols, &subs, &n);
  if (st != CS_OK)
    return st;
  struct cs_h5_data *part = calloc(n, sizeof *part);
  size_t rows = 0, total = 0;
  if (!part)
    st = fail(CS_ERR_NOMEM, "out of memory");
  for (size_t c = 0; st == CS_OK && c < n; c++) {
    st = cs_h5_read_rows(f, subs[c], first, c == 0 ? count : rows, &part[c]);
    if (st != CS_OK)
      break;
    if (c == 0)
      rows = part[0].nrows;
    total += part[c].ncols;
    /* each part is bounded alone, all of them together here */
    if (part[c].nrows != rows)
      st = fail(CS_ERR_HDF5, "'%s': not a column of %zu values", subs[c], rows);
    else if (total > CS_H5_MAX_ELEMENTS || rows > CS_H5_MAX_ELEMENTS / total)
      st = fail(CS_ERR_RANGE,
                "'%s' has %zu x %zu elements or more (accepted: at most %zu to read in memory)",
                path, rows, total, (size_t)CS_H5_MAX_ELEMENTS);
  }
  if (st == CS_OK) {
    out->rank = 2;
    out->nrows = rows;
    out->ncols = total;
    out->data = malloc((rows ? rows : 1) * total * sizeof(double));
    out->names = calloc(total, sizeof(char *));
    out->units = calloc(total, sizeof(char *));
    if (!out->data || !out->names || !out->units)
      st = fail(CS_ERR_NOMEM, "out of memory");
  }
  for (size_t c = 0, j0 = 0; st == CS_OK && c < n; j0 += part[c].ncols, c++) {
    const struct cs_h5_data *p = &part[c];
    for (size_t i = 0; i < rows; i++)
      memcpy(out->data + i * total + j0, p->data + i * p->ncols, p->ncols * sizeof(double));
    for (size_t j = 0; j < p->ncols; j++) {
      /* a 1-D column is named as in `columns`; a block's names are its own */
      out->names[j0 + j] = p->rank == 1 ? dup_string(cols[c]) : p->names[j];
      out->units[j0 + j] = p->units[j];
      if (p->rank != 1)
        p->names[j] = NULL;
      p->units[j] = NULL;
      if (!out->names[j0 + j])
        st = fail(CS_ERR_NOMEM, "out of memory");
      for (char *q = out->names[j0 + j]; st == CS_OK && *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7F)
          *q = '?';
    }
  }
  for (size_t c = 0; part && c < n; c++)
    cs_h5_data_free(&part[c]);
  free(part);
  free_strings(cols, n);
  free_strings(subs, n);
  if (st != CS_OK)
    cs_h5_data_free(out);
  return st;
}

/* The column name of the table stored by columns at path (nrows x 1). */
static enum cs_status column_of_group(struct cs_h5 *f, const char *path, const char *name,
                                      struct cs_h5_data *out)
{
  struct cs_h5_data all;
  enum cs_status st = read_columns(f, path, 0, SIZE_MAX, &all);
  if (st != CS_OK)
    return st;
  long j = cs_h5_data_column(&all, name);
  if (j < 0) {
    cs_h5_data_free(&all);
    return fail(CS_ERR_NOT_FOUND, "table '%s' has no column '%s'", path, name);
  }
  out->rank = 2;
  out->nrows = all.nrows;
  out->ncols = 1;
  out->data = malloc((all.nrows ? all.nrows : 1) * sizeof(double));
  out->names = calloc(1, sizeof(char *));
  out->units = calloc(1, sizeof(char *));
  if (!out->data || !out->names || !out->units) {
    cs_h5_data_free(&all);
    cs_h5_data_free(out);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < all.nrows; i++)
    out->data[i] = all.data[i * all.ncols + (size_t)j];
  out->names[0] = all.names[j], all.names[j] = NULL;
  out->units[0] = all.units[j], all.units[j] = NULL;
  cs_h5_data_free(&all);
  return CS_OK;
}

enum cs_status cs_h5_read(struct cs_h5 *f, const char *path, struct cs_h5_data *out)
{
  return cs_h5_read_rows(f, path, 0, SIZE_MAX, out);
}

enum cs_status cs_h5_read_column(struct cs_h5 *f, const char *path, const char *name,
                                 struct cs_h5_data *out)
{
  hid_t dset, fspace = -1, mspace = -1;
  int rank;
  size_t nrows, ncols;
  char **names = NULL, **units = NULL;
  begin();
  memset(out, 0, sizeof *out);
  enum cs_status st = read_path(f->file, path, 1);
  if (st != CS_OK)
    return st;
  if (is_group(f, path)) /* stored by columns: the whole table, then the one column */
    return column_of_group(f, path, name, out);
  st = open_table(f, path, &dset, &rank, &nrows, &ncols);
  if (st != CS_OK)
    return st;
  names = calloc(ncols, sizeof *names);
  units = calloc(ncols, sizeof *units);
  if (!names || !units) {
    st = fail(CS_ERR_NOMEM, "out of memory");
    goto done;
  }
  if (rank == 1) {
    const char *base = strrchr(path, '/');
    names[0] = dup_string(base ? base + 1 : path);
    st = names[0] ? CS_OK : fail(CS_ERR_NOMEM, "out of memory");
  } else {
    st = read_labels(dset, path, "names", ncols, names);
  }
  if (st == CS_OK)
    st = read_labels(dset, path, "units", ncols, units);
  size_t j = 0;
  while (st == CS_OK && j < ncols && strcmp(names[j], name) != 0)
    j++;
  if (st == CS_OK && j == ncols)
    st = fail(CS_ERR_NOT_FOUND, "dataset '%s' has no column '%s'", path, name);
  if (st != CS_OK)
    goto done;
  out->rank = rank;
  out->nrows = nrows;
  out->ncols = 1;
  out->data = malloc((nrows > 0 ? nrows : 1) * sizeof(double));
  out->names = calloc(1, sizeof(char *));
  out->units = calloc(1, sizeof(char *));
  if (!out->data || !out->names || !out->units) {
    st = fail(CS_ERR_NOMEM, "out of memory");
    goto done;
  }
  out->names[0] = names[j], names[j] = NULL;
  out->units[0] = units[j], units[j] = NULL;
  if (nrows > 0) {
    hsize_t start[2] = {0, j}, cnt[2] = {nrows, 1};
    fspace = H5Dget_space(dset);
    mspace = H5Screate_simple(1, cnt, NULL);
    if (fspace < 0 || mspace < 0 ||
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, cnt, NULL) < 0 ||
        H5Dread(dset, H5T_NATIVE_DOUBLE, mspace, fspace, H5P_DEFAULT, out->data) < 0)
      st = fail_h5("cannot read dataset", path);
    else
      st = apply_missing(f, dset, path, out->data, nrows);
  }
done:
  free_strings(names, ncols);
  free_strings(units, ncols);
  if (mspace >= 0)
    H5Sclose(mspace);
  if (fspace >= 0)
    H5Sclose(fspace);
  H5Dclose(dset);
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
  t->by_columns = NULL;
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
  if (is_group(f, path))
    return fail(CS_ERR_UNSUPPORTED, "'%s' is a table stored by columns (not reopened)", path);
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
  t->by_columns = NULL;
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
  if (t->by_columns)
    return cs_h5_i_coltab_write(t, first, nrows, rows);
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
  enum cs_status st = t->by_columns ? cs_h5_i_coltab_flush(t) : CS_OK;
  return st == CS_OK ? cs_h5_flush(t->f) : st;
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
  if (t->by_columns)
    st = cs_h5_i_coltab_close(t);
  else if (H5Dclose(t->dset) < 0)
    st = fail_h5("cannot close table", "dataset");
  free(t);
  return st;
}

/* ------------------------------------------------ listing (whole-file readers) */

struct names_acc {
  char **v;
  size_t n, max;
  int *kinds;  /* links: 1 group, 2 dataset, 0 other (NULL for attributes) */
  hid_t group; /* links: the group iterated */
  enum cs_status st;
};

/* Keeps one name (bounded in count and length); 1 stops the iteration. */
static int names_add(struct names_acc *a, const char *name, int kind)
{
  if (a->n >= a->max) {
    a->st = fail(CS_ERR_RANGE, "more than %zu entries", a->max);
    return 1;
  }
  size_t len = strnlen(name, CS_H5_MAX_LABEL);
  if (len == 0 || len >= CS_H5_MAX_LABEL) {
    a->st = fail(CS_ERR_HDF5, "a name of %zu bytes (accepted: 1 to %d)", len, CS_H5_MAX_LABEL - 1);
    return 1;
  }
  if (!(a->v[a->n] = dup_string(name))) {
    a->st = fail(CS_ERR_NOMEM, "out of memory");
    return 1;
  }
  if (a->kinds)
    a->kinds[a->n] = kind;
  a->n++;
  return 0;
}

static herr_t attr_name_cb(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
  (void)loc, (void)info;
  return names_add(data, name, 0);
}

enum cs_status cs_h5_attr_names(struct cs_h5 *f, const char *obj, size_t max, char ***names,
                                size_t *count)
{
  hid_t id;
  begin();
  *names = NULL;
  *count = 0;
  enum cs_status st = open_object(f, obj, &id);
  if (st != CS_OK)
    return st;
  struct names_acc a = {.v = calloc(max ? max : 1, sizeof(char *)), .max = max};
  if (!a.v) {
    H5Oclose(id);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  hsize_t idx = 0;
  if (H5Aiterate2(id, H5_INDEX_NAME, H5_ITER_NATIVE, &idx, attr_name_cb, &a) < 0 && a.st == CS_OK)
    a.st = fail_h5("cannot list the attributes of", obj);
  H5Oclose(id);
  if (a.st != CS_OK) {
    enum cs_status e = a.st;
    char why[256];
    snprintf(why, sizeof why, "%.200s", cs_h5_err);
    free_strings(a.v, a.n);
    return fail(e, "attributes of '%s': %s", obj, why);
  }
  *names = a.v;
  *count = a.n;
  return CS_OK;
}

static herr_t link_name_cb(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
  struct names_acc *a = data;
  int kind = 0;
  H5O_info_t oi;
  if (info->type == H5L_TYPE_HARD &&
      H5Oget_info_by_name2(g, name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) >= 0)
    kind = oi.type == H5O_TYPE_GROUP ? 1 : oi.type == H5O_TYPE_DATASET ? 2 : 0;
  return names_add(a, name, kind);
}

enum cs_status cs_h5_list(struct cs_h5 *f, const char *group, size_t max, char ***names,
                          int **kinds, size_t *count)
{
  hid_t id;
  begin();
  *names = NULL;
  *kinds = NULL;
  *count = 0;
  enum cs_status st = open_object(f, group, &id);
  if (st != CS_OK)
    return st;
  if (H5Iget_type(id) != H5I_GROUP) {
    H5Oclose(id);
    return fail(CS_ERR_UNSUPPORTED, "'%s' is not a group", group);
  }
  struct names_acc a = {.v = calloc(max ? max : 1, sizeof(char *)),
                        .kinds = calloc(max ? max : 1, sizeof(int)),
                        .max = max,
                        .group = id};
  if (!a.v || !a.kinds) {
    free(a.v), free(a.kinds);
    H5Oclose(id);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  hsize_t idx = 0;
  if (H5Literate(id, H5_INDEX_NAME, H5_ITER_INC, &idx, link_name_cb, &a) < 0 && a.st == CS_OK)
    a.st = fail_h5("cannot list the group", group);
  H5Oclose(id);
  if (a.st != CS_OK) {
    enum cs_status e = a.st;
    char why[256];
    snprintf(why, sizeof why, "%.200s", cs_h5_err);
    free_strings(a.v, a.n);
    free(a.kinds);
    return fail(e, "group '%s': %s", group, why);
  }
  *names = a.v;
  *kinds = a.kinds;
  *count = a.n;
  return CS_OK;
}
