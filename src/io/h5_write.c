/* SPDX-License-Identifier: MIT */
/* Result files written safely (locks, partial files renamed on success,
 * checksummed format, SWMR) and typed datasets written by rows. */
#define _GNU_SOURCE /* gethostname, O_CLOEXEC */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/h5_private.h"

#define begin cs_h5_i_begin
#define fail cs_h5_i_fail
#define fail_h5 cs_h5_i_fail_h5

hid_t cs_h5_i_fapl_latest(void)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl >= 0 && H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST) < 0) {
    H5Pclose(fapl);
    return -1;
  }
  return fapl;
}

static char *join(const char *a, const char *b)
{
  size_t n = strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s%s", a, b);
  return s;
}

/* ------------------------------------------------------------------ locks */

struct cs_h5_lock {
  int fd;     /* the open lock file, flock()ed; -1 when locking is unsupported */
  char *path; /* "<target>.lock" */
};

enum cs_status cs_h5_lock_acquire(const char *path, struct cs_h5_lock **out)
{
  begin();
  *out = NULL;
  struct cs_h5_lock *l = calloc(1, sizeof *l);
  if (!l || !(l->path = join(path, ".lock"))) {
    free(l);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  /* The lock file is removed on release; a process that opened it just before
   * may then lock a file no longer on the path: check the inode, retry. */
  for (int attempt = 0; attempt < 100; attempt++) {
    int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      enum cs_status st =
          fail(CS_ERR_IO, "cannot create the lock file '%s': %s", l->path, strerror(errno));
      free(l->path), free(l);
      return st;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int e = errno;
      if (e == EWOULDBLOCK || e == EINTR) {
        char holder[128] = "";
        ssize_t n = pread(fd, holder, sizeof holder - 1, 0);
        holder[n > 0 ? n : 0] = '\0';
        holder[strcspn(holder, "\n")] = '\0';
        close(fd);
        /* flock() locks of one process conflict too: a program that opens
         * the same output twice should hear that it is its own writer */
        long pid = -1;
        char host[256] = "", me[HOST_NAME_MAX + 1] = "?";
        gethostname(me, sizeof me);
        me[sizeof me - 1] = '\0';
        int own = sscanf(holder, "pid %ld on %255s", &pid, host) == 2 && pid == (long)getpid() &&
                  strcmp(host, me) == 0;
        enum cs_status st =
            own ? fail(CS_ERR_BUSY,
                       "'%s' is already being written by this process (another writer of it is "
                       "still open; lock file '%s')",
                       path, l->path)
                : fail(CS_ERR_BUSY, "'%s' is being written by another process (%s; lock file '%s')",
                       path, holder[0] ? holder : "unknown", l->path);
        free(l->path), free(l);
        return st;
      }
      /* no flock on this file system (some NFS/Lustre mounts): go on unlocked */
      close(fd);
      unlink(l->path);
      l->fd = -1;
      *out = l;
      return CS_OK;
    }
    struct stat a, b;
    if (fstat(fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_ino == b.st_ino &&
        a.st_dev == b.st_dev) {
      char who[HOST_NAME_MAX + 64], host[HOST_NAME_MAX + 1] = "?";
      gethostname(host, sizeof host);
      host[sizeof host - 1] = '\0';
      int len = snprintf(who, sizeof who, "pid %ld on %s\n", (long)getpid(), host);
      if (ftruncate(fd, 0) == 0 && len > 0)
        (void)!pwrite(fd, who, (size_t)len, 0);
      l->fd = fd;
      *out = l;
      return CS_OK;
    }
    close(fd);
  }
  free(l->path), free(l);
  return fail(CS_ERR_BUSY, "'%s': the lock file keeps changing (another process?)", path);
}

void cs_h5_lock_release(struct cs_h5_lock *l)
{
  if (!l)
    return;
  if (l->fd >= 0) {
    unlink(l->path); /* while still holding it, so nobody locks a removed file */
    close(l->fd);
  }
  free(l->path);
  free(l);
}

int cs_h5_lock_reserve(struct cs_h5_lock *l, double bytes)
{
  if (!l || l->fd < 0 || !(bytes > 0))
    return 0;
  /* after the holder's line, which readers of the lock file read */
  if (posix_fallocate(l->fd, 4096, (off_t)bytes) == 0)
    return 1;
  cs_h5_lock_unreserve(l); /* a failed fallocate may keep part of it */
  return 0;
}

void cs_h5_lock_unreserve(struct cs_h5_lock *l)
{
  struct stat st;
  if (l && l->fd >= 0 && fstat(l->fd, &st) == 0 && st.st_size > 4096)
    (void)!ftruncate(l->fd, 4096);
}

const char *cs_h5_derived_suffix(const char *path)
{
  static const char *const suffixes[] = {".partial", ".tmp", ".lock"};
  size_t n = path ? strlen(path) : 0;
  for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
    size_t k = strlen(suffixes[i]);
    if (n >= k && strcmp(path + n - k, suffixes[i]) == 0)
      return suffixes[i];
  }
  return NULL;
}

/* Frees what struct cs_h5 owns besides the HDF5 id. */
void cs_h5_i_release(struct cs_h5 *f)
{
  cs_h5_lock_release(f->lock);
  free(f->target);
  free(f->partial);
  free(f);
}

/* ------------------------------------------------------------------ files */

static enum cs_status create_with(const char *path, unsigned flags, struct cs_h5 **out)
{
  begin();
  *out = NULL;
  struct cs_h5 *f = calloc(1, sizeof *f);
  if (!f)
    return fail(CS_ERR_NOMEM, "out of memory");
  hid_t fapl = cs_h5_i_fapl_latest();
  /* whether the file was there before: a create that fails after creating
   * it (no space for the superblock) must not report "exists", and leaves
   * no debris */
  int existed = access(path, F_OK) == 0;
  f->file = fapl < 0 ? -1 : H5Fcreate(path, flags, H5P_DEFAULT, fapl);
  if (f->file < 0) {
    int e = errno;
    enum cs_status st = (flags & H5F_ACC_EXCL) && existed ? fail(CS_ERR_EXISTS, "'%s' exists", path)
                        : e == ENOSPC || e == EDQUOT
                            ? fail(CS_ERR_IO, "cannot create '%s': %s", path, strerror(e))
                            : fail_h5("cannot create", path); /* before H5Pclose clears it */
    if (!existed)
      unlink(path);
    if (fapl >= 0)
      H5Pclose(fapl);
    free(f);
    return st;
  }
  H5Pclose(fapl);
  *out = f;
  return CS_OK;
}

enum cs_status cs_h5_create_excl(const char *path, struct cs_h5 **out)
{
  return create_with(path, H5F_ACC_EXCL, out);
}

enum cs_status cs_h5_output_create(const char *path, int replace_partial, struct cs_h5 **out)
{
  struct cs_h5_lock *lock;
  *out = NULL;
  begin();
  const char *derived = cs_h5_derived_suffix(path);
  if (derived)
    return fail(CS_ERR_ARG,
                "'%s' ends in '%s', a name contensou gives its own files beside an output "
                "(accepted: a name not ending in .partial, .tmp or .lock)",
                path, derived);
  enum cs_status st = cs_h5_lock_acquire(path, &lock);
  if (st != CS_OK)
    return st;
  char *partial = join(path, ".partial"), *target = strdup(path);
  if (!partial || !target) {
    free(partial), free(target);
    cs_h5_lock_release(lock);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  if (access(partial, F_OK) == 0) {
    if (!replace_partial) {
      st = fail(CS_ERR_EXISTS,
                "'%s' holds the results of a run of the same output that did not finish", partial);
    } else if (unlink(partial) != 0) {
      st = fail(CS_ERR_IO, "cannot remove '%s': %s", partial, strerror(errno));
    }
  }
  struct cs_h5 *f = NULL;
  if (st == CS_OK)
    st = cs_h5_create_excl(partial, &f);
  if (st != CS_OK) {
    free(partial), free(target);
    cs_h5_lock_release(lock);
    return st;
  }
  f->lock = lock;
  f->target = target;
  f->partial = partial;
  /* room to close cleanly if another process fills the disk */
  f->reserved = cs_h5_lock_reserve(lock, CS_H5_RESERVE);
  *out = f;
  return CS_OK;
}

int cs_h5_output_fail(struct cs_h5 *f, const char *message)
{
  begin();
  if (!f)
    return 0;
  if (!f->reserved || f->file < 0) {
    cs_h5_abandon(f);
    return 0;
  }
  cs_h5_lock_unreserve(f->lock);
  cs_h5_attr_write_string(f, "/", "status", "failed");
  cs_h5_attr_write_string(f, "/", "message", message ? message : "");
  int closed = H5Fclose(f->file) >= 0;
  f->file = -1;
  cs_h5_i_release(f);
  return closed;
}

const char *cs_h5_partial_path(const struct cs_h5 *f)
{
  return f ? f->partial : NULL;
}

static enum cs_status fsync_path(const char *path, int directory)
{
  int fd = open(path, (directory ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
  if (fd < 0)
    return fail(CS_ERR_IO, "cannot open '%s' to sync it: %s", path, strerror(errno));
  int rc = fsync(fd);
  int e = errno;
  close(fd);
  /* some file systems refuse fsync on directories: the rename is still atomic */
  if (rc != 0 && !(directory && (e == EINVAL || e == EROFS || e == EBADF)))
    return fail(CS_ERR_IO, "cannot write '%s' to disk: %s", path, strerror(e));
  return CS_OK;
}

enum cs_status cs_h5_rename_durable(const char *from, const char *to)
{
  begin();
  enum cs_status st = fsync_path(from, 0);
  if (st != CS_OK)
    return st;
  if (rename(from, to) != 0)
    return fail(CS_ERR_IO, "cannot rename '%s' to '%s': %s", from, to, strerror(errno));
  char *dir = strdup(to);
  if (!dir)
    return CS_OK;
  char *slash = strrchr(dir, '/');
  if (slash == dir)
    slash[1] = '\0';
  else if (slash)
    *slash = '\0';
  st = fsync_path(slash ? dir : ".", 1);
  free(dir);
  return st;
}

enum cs_status cs_h5_output_commit(struct cs_h5 *f)
{
  begin();
  if (!f->partial || !f->target) {
    cs_h5_close(f);
    return fail(CS_ERR_ARG, "not a result file opened with cs_h5_output_create");
  }
  /* the values no Fletcher32 checksum covers: summed now, complete */
  enum cs_status st = cs_h5_seal(f);
  if (st == CS_OK && H5Fclose(f->file) < 0)
    st = fail_h5("cannot close", f->partial);
  else if (st != CS_OK)
    H5Fclose(f->file);
  f->file = -1;
  if (st == CS_OK)
    st = cs_h5_rename_durable(f->partial, f->target);
  cs_h5_i_release(f);
  return st;
}

enum cs_status cs_h5_open_recover(const char *path, struct cs_h5 **out)
{
  begin();
  *out = NULL;
  struct cs_h5 *f = calloc(1, sizeof *f);
  hid_t fapl = cs_h5_i_fapl_latest();
  hbool_t clear = 1;
  if (!f || fapl < 0) {
    free(f);
    if (fapl >= 0)
      H5Pclose(fapl);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  /* "clear_status_flags" is the file-access property h5clear -s uses: the
   * superblock's "open for write" marks of a dead writer are dropped on open. */
  if (H5Pset(fapl, "clear_status_flags", &clear) < 0)
    H5Eclear2(H5E_DEFAULT);
  errno = 0;
  f->file = H5Fopen(path, H5F_ACC_RDWR, fapl);
  if (f->file < 0) {
    int e = errno;
    /* HDF5's own file lock: another program has the file open */
    enum cs_status st =
        e == EAGAIN || e == EWOULDBLOCK
            ? fail(CS_ERR_BUSY,
                   "cannot open '%s' for writing: another program holds it open (HDF5 file "
                   "lock: %s); close the reader (h5py, HDFView, contensou info or plot) and try "
                   "again",
                   path, strerror(e))
            : fail_h5("cannot open for writing", path);
    H5Pclose(fapl);
    free(f);
    return st;
  }
  H5Pclose(fapl);
  *out = f;
  return CS_OK;
}

double cs_h5_space_left(const char *path)
{
  double left = INFINITY;
  char *dir = strdup(path);
  if (dir) {
    char *slash = strrchr(dir, '/');
    if (slash == dir)
      slash[1] = '\0';
    else if (slash)
      *slash = '\0';
    struct statvfs vs;
    if (statvfs(slash ? dir : ".", &vs) == 0)
      left = (double)vs.f_bavail * (double)vs.f_frsize;
    free(dir);
  }
  struct rlimit rl;
  struct stat st;
  if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    double size = stat(path, &st) == 0 ? (double)st.st_size : 0.0;
    double room = (double)rl.rlim_cur - size;
    left = fmin(left, room > 0 ? room : 0.0);
  }
  return left;
}

enum cs_status cs_h5_start_swmr(struct cs_h5 *f)
{
  begin();
  if (H5Fstart_swmr_write(f->file) < 0)
    return fail_h5("cannot start SWMR writing of", f->partial ? f->partial : "the file");
  return CS_OK;
}

static enum cs_status copy_attrs_of(hid_t src_file, hid_t dst_file, const char *obj);

struct visit_copy {
  hid_t src, dst;   /* files */
  const char *root; /* path of the copied object */
  int failed;
};

static herr_t visit_copy_cb(hid_t obj, const char *name, const H5O_info_t *info, void *data)
{
  (void)obj, (void)info;
  struct visit_copy *v = data;
  size_t n = strlen(v->root) + strlen(name) + 2;
  char *path = malloc(n);
  if (!path)
    return -1;
  if (strcmp(name, ".") == 0)
    snprintf(path, n, "%s", v->root);
  else
    snprintf(path, n, "%s/%s", v->root, name);
  enum cs_status st = copy_attrs_of(v->src, v->dst, path);
  free(path);
  if (st != CS_OK) {
    v->failed = 1;
    return -1;
  }
  return 0;
}

enum cs_status cs_h5_copy_object(struct cs_h5 *src, const char *path, struct cs_h5 *dst)
{
  begin();
  /* HDF5 1.10.8's H5Ocopy crashes copying densely stored attributes with
   * variable-length strings: copy the objects without attributes, then the
   * attributes of every copied object by reading and writing them. */
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE), ocpl = H5Pcreate(H5P_OBJECT_COPY);
  herr_t rc = -1;
  if (lcpl >= 0 && ocpl >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0 &&
      H5Pset_copy_object(ocpl, H5O_COPY_WITHOUT_ATTR_FLAG) >= 0)
    rc = H5Ocopy(src->file, path, dst->file, path, ocpl, lcpl);
  enum cs_status st = rc < 0 ? fail_h5("cannot copy", path) : CS_OK;
  if (lcpl >= 0)
    H5Pclose(lcpl);
  if (ocpl >= 0)
    H5Pclose(ocpl);
  if (st != CS_OK)
    return st;
  struct visit_copy v = {src->file, dst->file, path, 0};
  cs_error_clear(); /* below: whether the visit recorded a reason */
  hid_t o = H5Oopen(src->file, path, H5P_DEFAULT);
  if (o < 0 || H5Ovisit2(o, H5_INDEX_NAME, H5_ITER_NATIVE, visit_copy_cb, &v, H5O_INFO_BASIC) < 0 ||
      v.failed)
    st = cs_h5_err[0] ? CS_ERR_HDF5 : fail_h5("cannot copy the attributes below", path);
  if (o >= 0)
    H5Oclose(o);
  return st;
}

struct attr_copy {
  hid_t dst; /* destination object */
  int failed;
};

static herr_t copy_attr_cb(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
  (void)info;
  struct attr_copy *c = data;
  hid_t a = H5Aopen(loc, name, H5P_DEFAULT), type = -1, space = -1, b = -1;
  void *buf = NULL;
  int ok = 0;
  if (a >= 0 && (type = H5Aget_type(a)) >= 0 && (space = H5Aget_space(a)) >= 0) {
    hssize_t n = H5Sget_simple_extent_npoints(space);
    size_t size = H5Tget_size(type);
    if (n >= 0 && size > 0 && (buf = calloc((size_t)(n > 0 ? n : 1), size))) {
      if (H5Aexists(c->dst, name) > 0)
        H5Adelete(c->dst, name);
      b = H5Acreate2(c->dst, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
      ok = b >= 0 && H5Aread(a, type, buf) >= 0 && H5Awrite(b, type, buf) >= 0;
      if (ok && H5Tis_variable_str(type) > 0)
        H5Dvlen_reclaim(type, space, H5P_DEFAULT, buf);
    }
  }
  free(buf);
  if (b >= 0)
    H5Aclose(b);
  if (space >= 0)
    H5Sclose(space);
  if (type >= 0)
    H5Tclose(type);
  if (a >= 0)
    H5Aclose(a);
  if (!ok) {
    c->failed = 1;
    return -1;
  }
  return 0;
}

static enum cs_status copy_attrs_of(hid_t src_file, hid_t dst_file, const char *obj)
{
  hid_t s = H5Oopen(src_file, obj, H5P_DEFAULT);
  hid_t d = H5Oopen(dst_file, obj, H5P_DEFAULT);
  struct attr_copy c = {d, 0};
  hsize_t idx = 0;
  if (s < 0 || d < 0 || H5Aiterate2(s, H5_INDEX_NAME, H5_ITER_NATIVE, &idx, copy_attr_cb, &c) < 0)
    c.failed = 1;
  enum cs_status st = c.failed ? fail_h5("cannot copy the attributes of", obj) : CS_OK;
  if (s >= 0)
    H5Oclose(s);
  if (d >= 0)
    H5Oclose(d);
  return st;
}

enum cs_status cs_h5_copy_attrs(struct cs_h5 *src, const char *obj, struct cs_h5 *dst)
{
  begin();
  return copy_attrs_of(src->file, dst->file, obj);
}

enum cs_status cs_h5_remove(struct cs_h5 *f, const char *path)
{
  begin();
  if (cs_h5_i_path_exists(f->file, path) && H5Ldelete(f->file, path, H5P_DEFAULT) < 0)
    return fail_h5("cannot remove", path);
  return CS_OK;
}

/* ------------------------------------------------------------- typed datasets */

struct cs_h5_dset {
  hid_t id;    /* the dataset */
  hid_t mtype; /* memory type of one element */
  enum cs_h5_type type;
  size_t rows; /* current extent */
  size_t cols; /* 0 for 1-D */
  int extendible;
  char name[128]; /* for messages */
};

static hid_t mem_type(enum cs_h5_type t)
{
  hid_t s;
  switch (t) {
  case CS_H5_DOUBLE:
    return H5Tcopy(H5T_NATIVE_DOUBLE);
  case CS_H5_INT64:
    return H5Tcopy(H5T_NATIVE_INT64);
  case CS_H5_INT32:
    return H5Tcopy(H5T_NATIVE_INT32);
  case CS_H5_TEXT:
    s = H5Tcopy(H5T_C_S1);
    if (s >= 0 && (H5Tset_size(s, CS_H5_TEXT_LEN) < 0 || H5Tset_strpad(s, H5T_STR_NULLTERM) < 0 ||
                   H5Tset_cset(s, H5T_CSET_UTF8) < 0)) {
      H5Tclose(s);
      return -1;
    }
    return s;
  }
  return -1;
}

static hid_t file_type(enum cs_h5_type t)
{
  switch (t) {
  case CS_H5_DOUBLE:
    return H5Tcopy(H5T_IEEE_F64LE);
  case CS_H5_INT64:
    return H5Tcopy(H5T_STD_I64LE);
  case CS_H5_INT32:
    return H5Tcopy(H5T_STD_I32LE);
  case CS_H5_TEXT:
    return mem_type(t);
  }
  return -1;
}

static size_t elem_size(enum cs_h5_type t)
{
  return t == CS_H5_DOUBLE || t == CS_H5_INT64 ? 8 : t == CS_H5_INT32 ? 4 : CS_H5_TEXT_LEN;
}

static void set_name(struct cs_h5_dset *d, const char *path)
{
  snprintf(d->name, sizeof d->name, "%s", path);
}

static enum cs_status write_strings_attr(hid_t obj, const char *name, size_t n,
                                         const char *const *v)
{
  hid_t t = cs_h5_i_vlen_string_type(), space, a = -1;
  hsize_t dim = n;
  if (t < 0)
    return fail_h5("cannot write attribute", name);
  space = n ? H5Screate_simple(1, &dim, NULL) : H5Screate(H5S_SCALAR);
  if (space >= 0)
    a = H5Acreate2(obj, name, t, space, H5P_DEFAULT, H5P_DEFAULT);
  enum cs_status st = CS_OK;
  if (a < 0 || H5Awrite(a, t, v) < 0)
    st = fail_h5("cannot write attribute", name);
  if (a >= 0)
    H5Aclose(a);
  if (space >= 0)
    H5Sclose(space);
  H5Tclose(t);
  return st;
}

/* The scalar attribute missing_value = v in the dataset's own integer type
 * (CF: the type of the data it marks). */
static enum cs_status write_missing(hid_t obj, const char *path, enum cs_h5_type type, double v)
{
  int wide = type == CS_H5_INT64;
  if (!(v == floor(v) && v >= (wide ? -9223372036854775808.0 : -2147483648.0) &&
        v <= (wide ? 9223372036854774784.0 : 2147483647.0)))
    return fail(CS_ERR_ARG, "dataset '%s': missing value %g is not an integer of its type", path,
                v);
  int64_t v64 = (int64_t)v;
  int32_t v32 = (int32_t)v;
  hid_t space = H5Screate(H5S_SCALAR), a = -1;
  if (space >= 0)
    a = H5Acreate2(obj, "missing_value", wide ? H5T_STD_I64LE : H5T_STD_I32LE, space, H5P_DEFAULT,
                   H5P_DEFAULT);
  enum cs_status st = CS_OK;
  if (a < 0 || H5Awrite(a, wide ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32,
                        wide ? (const void *)&v64 : (const void *)&v32) < 0)
    st = fail_h5("cannot write attribute missing_value of", path);
  if (a >= 0)
    H5Aclose(a);
  if (space >= 0)
    H5Sclose(space);
  return st;
}

enum cs_status cs_h5_dset_create(struct cs_h5 *f, const char *path,
                                 const struct cs_h5_dset_spec *sp, struct cs_h5_dset **out)
{
  begin();
  *out = NULL;
  int rank = sp->cols ? 2 : 1;
  size_t esize = elem_size(sp->type) * (sp->cols ? sp->cols : 1);
  size_t chunk = sp->chunk_rows ? sp->chunk_rows : (65536 / esize ? 65536 / esize : 1);
  if (!sp->extendible && sp->rows > 0 && chunk > sp->rows)
    chunk = sp->rows;
  if (chunk == 0)
    chunk = 1;
  hsize_t dims[2] = {sp->rows, sp->cols},
          maxd[2] = {sp->extendible ? H5S_UNLIMITED : sp->rows, sp->cols};
  hsize_t cdims[2] = {chunk, sp->cols};
  enum cs_status st = cs_h5_remove(f, path);
  if (st != CS_OK)
    return st;
  struct cs_h5_dset *d = calloc(1, sizeof *d);
  hid_t ftype = file_type(sp->type), space = -1, dcpl = -1, lcpl = -1;
  if (!d) {
    if (ftype >= 0)
      H5Tclose(ftype);
    return fail(CS_ERR_NOMEM, "out of memory");
  }
  d->id = -1;
  d->type = sp->type;
  d->mtype = mem_type(sp->type);
  d->rows = sp->rows;
  d->cols = sp->cols;
  d->extendible = sp->extendible;
  set_name(d, path);
  space = H5Screate_simple(rank, dims, maxd);
  dcpl = H5Pcreate(H5P_DATASET_CREATE);
  lcpl = H5Pcreate(H5P_LINK_CREATE);
  int ok = ftype >= 0 && d->mtype >= 0 && space >= 0 && dcpl >= 0 && lcpl >= 0 &&
           H5Pset_chunk(dcpl, rank, cdims) >= 0 && H5Pset_fletcher32(dcpl) >= 0 &&
           H5Pset_obj_track_times(dcpl, 0) >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0 &&
           H5Pset_char_encoding(lcpl, H5T_CSET_UTF8) >= 0;
  if (ok && sp->type == CS_H5_TEXT) {
    /* messages are mostly empty: compress them */
    ok = H5Pset_deflate(dcpl, 4) >= 0;
  } else if (ok) {
    double fv = sp->fill;
    ok = H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &fv) >= 0;
  }
  if (ok)
    d->id = H5Dcreate2(f->file, path, ftype, space, lcpl, dcpl, H5P_DEFAULT);
  if (d->id < 0)
    st = fail_h5("cannot create dataset", path);
  if (st == CS_OK && rank == 2 && sp->names)
    st = write_strings_attr(d->id, "names", sp->cols, sp->names);
  if (st == CS_OK && rank == 2 && sp->units)
    st = write_strings_attr(d->id, "units", sp->cols, sp->units);
  if (st == CS_OK && rank == 1 && sp->unit)
    st = write_strings_attr(d->id, "units", 0, &sp->unit);
  if (st == CS_OK && sp->doc)
    st = write_strings_attr(d->id, "doc", 0, &sp->doc);
  if (st == CS_OK && sp->missing && (sp->type == CS_H5_INT32 || sp->type == CS_H5_INT64))
    st = write_missing(d->id, path, sp->type, sp->fill);
  if (lcpl >= 0)
    H5Pclose(lcpl);
  if (dcpl >= 0)
    H5Pclose(dcpl);
  if (space >= 0)
    H5Sclose(space);
  if (ftype >= 0)
    H5Tclose(ftype);
  if (st != CS_OK) {
    cs_h5_dset_close(d);
    return st;
  }
  *out = d;
  return CS_OK;
}

enum cs_status cs_h5_dset_open(struct cs_h5 *f, const char *path, struct cs_h5_dset **out)
{
  begin();
  *out = NULL;
  if (!cs_h5_i_path_exists(f->file, path))
    return fail(CS_ERR_NOT_FOUND, "no dataset '%s'", path);
  struct cs_h5_dset *d = calloc(1, sizeof *d);
  if (!d)
    return fail(CS_ERR_NOMEM, "out of memory");
  d->mtype = -1;
  set_name(d, path);
  d->id = H5Dopen2(f->file, path, H5P_DEFAULT);
  if (d->id < 0) {
    free(d);
    return fail_h5("cannot open dataset", path);
  }
  hid_t t = H5Dget_type(d->id), space = H5Dget_space(d->id);
  hsize_t dims[2] = {0, 0}, maxd[2] = {0, 0};
  int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  enum cs_status st = CS_OK;
  if (t < 0 || rank < 1 || rank > 2 || H5Sget_simple_extent_dims(space, dims, maxd) < 0) {
    st = fail(CS_ERR_UNSUPPORTED, "dataset '%s' is not a table of rank 1 or 2", path);
  } else {
    H5T_class_t c = H5Tget_class(t);
    size_t size = H5Tget_size(t);
    if (c == H5T_FLOAT)
      d->type = CS_H5_DOUBLE;
    else if (c == H5T_INTEGER && size == 8)
      d->type = CS_H5_INT64;
    else if (c == H5T_INTEGER && size <= 4)
      d->type = CS_H5_INT32;
    else if (c == H5T_STRING && H5Tis_variable_str(t) == 0)
      d->type = CS_H5_TEXT;
    else
      st = fail(CS_ERR_UNSUPPORTED, "dataset '%s' has an unsupported element type", path);
  }
  if (space >= 0)
    H5Sclose(space);
  if (t >= 0)
    H5Tclose(t);
  if (st == CS_OK) {
    d->mtype = mem_type(d->type);
    d->rows = dims[0];
    d->cols = rank == 2 ? dims[1] : 0;
    d->extendible = maxd[0] == H5S_UNLIMITED;
    if (d->mtype < 0)
      st = fail_h5("cannot make a memory type for", path);
  }
  if (st != CS_OK) {
    cs_h5_dset_close(d);
    return st;
  }
  *out = d;
  return CS_OK;
}

static enum cs_status select_rows(struct cs_h5_dset *d, size_t first, size_t n, hid_t *fspace,
                                  hid_t *mspace)
{
  hsize_t start[2] = {first, 0}, count[2] = {n, d->cols};
  int rank = d->cols ? 2 : 1;
  *fspace = H5Dget_space(d->id);
  *mspace = H5Screate_simple(rank, count, NULL);
  if (*fspace < 0 || *mspace < 0 ||
      H5Sselect_hyperslab(*fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0)
    return fail_h5("cannot select rows of", d->name);
  return CS_OK;
}

enum cs_status cs_h5_dset_write(struct cs_h5_dset *d, size_t first, size_t n, const void *data)
{
  begin();
  if (n == 0)
    return CS_OK;
  if (first + n > d->rows) {
    if (!d->extendible)
      return fail(CS_ERR_RANGE, "rows %zu..%zu are beyond the %zu rows of '%s'", first,
                  first + n - 1, d->rows, d->name);
    hsize_t dims[2] = {first + n, d->cols};
    if (H5Dset_extent(d->id, dims) < 0)
      return fail_h5("cannot extend", d->name);
    d->rows = first + n;
  }
  hid_t fs, ms;
  enum cs_status st = select_rows(d, first, n, &fs, &ms);
  if (st == CS_OK && H5Dwrite(d->id, d->mtype, ms, fs, H5P_DEFAULT, data) < 0)
    st = fail_h5("cannot write to", d->name);
  if (ms >= 0)
    H5Sclose(ms);
  if (fs >= 0)
    H5Sclose(fs);
  return st;
}

enum cs_status cs_h5_dset_append(struct cs_h5_dset *d, size_t n, const void *data)
{
  return cs_h5_dset_write(d, d->rows, n, data);
}

enum cs_status cs_h5_dset_read(struct cs_h5_dset *d, size_t first, size_t n, void *data)
{
  begin();
  if (n == 0)
    return CS_OK;
  if (first > d->rows || n > d->rows - first)
    return fail(CS_ERR_RANGE, "rows %zu..%zu are beyond the %zu rows of '%s'", first, first + n - 1,
                d->rows, d->name);
  hid_t fs, ms;
  enum cs_status st = select_rows(d, first, n, &fs, &ms);
  if (st == CS_OK && H5Dread(d->id, d->mtype, ms, fs, H5P_DEFAULT, data) < 0)
    st = fail_h5("cannot read", d->name);
  if (ms >= 0)
    H5Sclose(ms);
  if (fs >= 0)
    H5Sclose(fs);
  return st;
}

size_t cs_h5_dset_rows(const struct cs_h5_dset *d)
{
  return d->rows;
}

size_t cs_h5_dset_cols(const struct cs_h5_dset *d)
{
  return d->cols;
}

enum cs_h5_type cs_h5_dset_type(const struct cs_h5_dset *d)
{
  return d->type;
}

enum cs_status cs_h5_dset_resize(struct cs_h5_dset *d, size_t n)
{
  begin();
  hsize_t dims[2] = {n, d->cols};
  if (!d->extendible)
    return fail(CS_ERR_ARG, "'%s' has a fixed size", d->name);
  if (H5Dset_extent(d->id, dims) < 0)
    return fail_h5("cannot resize", d->name);
  d->rows = n;
  return CS_OK;
}

enum cs_status cs_h5_dset_close(struct cs_h5_dset *d)
{
  enum cs_status st = CS_OK;
  if (!d)
    return CS_OK;
  begin();
  if (d->id >= 0 && H5Dclose(d->id) < 0)
    st = fail_h5("cannot close", d->name);
  if (d->mtype >= 0)
    H5Tclose(d->mtype);
  free(d);
  return st;
}
