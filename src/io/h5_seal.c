/* SPDX-License-Identifier: MIT */
/* The values checksum of a result file (io/h5.h, "Checksums"): one CRC-32
 * over every stored value that no Fletcher32 checksum covers. HDF5 checks
 * the chunks of a dataset written with the Fletcher32 filter as it reads
 * them, and its object headers carry checksums in the format contensou
 * writes; attributes, variable-length strings (kept in global heaps, which
 * no HDF5 format checksums) and datasets stored without that filter are
 * read back here and summed with zlib's crc32. */
#include <hdf5.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/h5_private.h"

#define begin cs_h5_i_begin
#define fail cs_h5_i_fail
#define fail_h5 cs_h5_i_fail_h5

/* bytes of one attribute or unfiltered dataset read for the sum (numbers) */
#define MAX_VALUE_BYTES ((size_t)1 << 30)

struct digest {
  uLong crc;
  size_t items;     /* attributes and datasets summed */
  hid_t file;       /* the file visited */
  const char *path; /* the object being summed, for messages */
  enum cs_status st;
};

static void add(struct digest *d, const void *p, size_t n)
{
  const Bytef *b = p;
  while (n > 0) { /* crc32 takes a uInt length */
    uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
    d->crc = crc32(d->crc, b, k);
    b += k, n -= k;
  }
}

/* A name or string with its terminator: "ab","c" and "a","bc" differ. */
static void add_text(struct digest *d, const char *s)
{
  add(d, s, strlen(s) + 1);
}

static void add_count(struct digest *d, uint64_t n)
{
  unsigned char b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(n >> (8 * i));
  add(d, b, sizeof b);
}

/* The strings of attribute name of id (name NULL: of the dataset id). */
static enum cs_status add_strings(struct digest *d, hid_t id, const char *name)
{
  char **v;
  size_t n;
  enum cs_status st = cs_h5_i_read_strings(id, name, d->path, &v, &n);
  if (st != CS_OK)
    return st;
  add_count(d, n);
  for (size_t i = 0; i < n; i++)
    add_text(d, v[i]);
  cs_h5_strings_free(v, n);
  return CS_OK;
}

/* The numbers of an attribute (attr) or dataset (dset) as stored: read in
 * the file's own type, so the bytes are those on disk in every machine's
 * order. */
static enum cs_status add_numbers(struct digest *d, hid_t attr, hid_t dset, hid_t ftype,
                                  hid_t space, const char *label)
{
  H5T_class_t c = H5Tget_class(ftype);
  if (c != H5T_INTEGER && c != H5T_FLOAT && c != H5T_BITFIELD && c != H5T_ENUM)
    return fail(CS_ERR_UNSUPPORTED, "'%s' of '%s': a type contensou does not write", label,
                d->path);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  size_t size = H5Tget_size(ftype);
  if (n < 0 || size == 0 || size > 16)
    return fail_h5("cannot read", label);
  if ((size_t)n > MAX_VALUE_BYTES / size)
    return fail(CS_ERR_RANGE, "'%s' of '%s': more than %zu bytes to sum", label, d->path,
                MAX_VALUE_BYTES);
  add_count(d, (uint64_t)n);
  if (n == 0)
    return CS_OK;
  void *buf = malloc((size_t)n * size);
  if (!buf)
    return fail(CS_ERR_NOMEM, "out of memory");
  herr_t rc = attr >= 0 ? H5Aread(attr, ftype, buf)
                        : H5Dread(dset, ftype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  enum cs_status st = rc < 0 ? fail_h5("cannot read", label) : CS_OK;
  if (st == CS_OK)
    add(d, buf, (size_t)n * size);
  free(buf);
  return st;
}

static herr_t attr_cb(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
  (void)info;
  struct digest *d = data;
  if (strcmp(d->path, ".") == 0 && strcmp(name, CS_H5_VALUES_CRC) == 0)
    return 0; /* the sum itself */
  add_text(d, name);
  hid_t a = H5Aopen(loc, name, H5P_DEFAULT), ftype = -1, space = -1;
  if (a >= 0) {
    ftype = H5Aget_type(a);
    space = H5Aget_space(a);
  }
  if (a < 0 || ftype < 0 || space < 0)
    d->st = fail_h5("cannot read attribute", name);
  else if (H5Tget_class(ftype) == H5T_STRING)
    d->st = add_strings(d, loc, name);
  else
    d->st = add_numbers(d, a, -1, ftype, space, name);
  if (space >= 0)
    H5Sclose(space);
  if (ftype >= 0)
    H5Tclose(ftype);
  if (a >= 0)
    H5Aclose(a);
  d->items++;
  return d->st == CS_OK ? 0 : -1;
}

/* 1 when HDF5 verifies every value of dset as it reads it: chunks with the
 * Fletcher32 filter, and values held in the chunks themselves (not
 * variable-length data, which lives in global heaps). */
static int checksummed(hid_t dset, hid_t ftype)
{
  if (H5Tget_class(ftype) == H5T_STRING && H5Tis_variable_str(ftype) != 0)
    return 0;
  if (H5Tdetect_class(ftype, H5T_VLEN) != 0)
    return 0;
  hid_t dcpl = H5Dget_create_plist(dset);
  if (dcpl < 0)
    return 0;
  unsigned flags, conf;
  size_t nelem = 0;
  int yes =
      H5Pget_layout(dcpl) == H5D_CHUNKED &&
      H5Pget_filter_by_id2(dcpl, H5Z_FILTER_FLETCHER32, &flags, &nelem, NULL, 0, NULL, &conf) >= 0;
  H5Pclose(dcpl);
  H5Eclear2(H5E_DEFAULT);
  return yes;
}

static enum cs_status add_dataset(struct digest *d, hid_t obj)
{
  hid_t ftype = H5Dget_type(obj), space = H5Dget_space(obj);
  enum cs_status st = CS_OK;
  if (ftype < 0 || space < 0)
    st = fail_h5("cannot read dataset", d->path);
  else if (!checksummed(obj, ftype)) {
    add_text(d, "(values)");
    st = H5Tget_class(ftype) == H5T_STRING ? add_strings(d, obj, NULL)
                                           : add_numbers(d, -1, obj, ftype, space, d->path);
    d->items++;
  }
  if (space >= 0)
    H5Sclose(space);
  if (ftype >= 0)
    H5Tclose(ftype);
  return st;
}

static herr_t visit_cb(hid_t root, const char *name, const H5O_info_t *info, void *data)
{
  struct digest *d = data;
  d->path = name;
  add_text(d, name);
  hid_t obj = H5Oopen(root, name, H5P_DEFAULT);
  if (obj < 0) {
    d->st = fail_h5("cannot open object", name);
    return -1;
  }
  hsize_t idx = 0;
  if (H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, attr_cb, d) < 0 && d->st == CS_OK)
    d->st = fail_h5("cannot list the attributes of", name);
  if (d->st == CS_OK && info->type == H5O_TYPE_DATASET)
    d->st = add_dataset(d, obj);
  H5Oclose(obj);
  return d->st == CS_OK ? 0 : -1;
}

/* The sum of f's values that no Fletcher32 checksum covers, objects and
 * attributes in name order. */
static enum cs_status values_crc(struct cs_h5 *f, uint32_t *crc, size_t *items)
{
  struct digest d = {.crc = crc32(0L, Z_NULL, 0), .file = f->file, .path = ".", .st = CS_OK};
  if (H5Ovisit2(f->file, H5_INDEX_NAME, H5_ITER_INC, visit_cb, &d, H5O_INFO_BASIC) < 0 &&
      d.st == CS_OK)
    d.st = fail_h5("cannot visit the objects of", "the file");
  if (d.st != CS_OK)
    return d.st;
  *crc = (uint32_t)d.crc;
  if (items)
    *items = d.items;
  return CS_OK;
}

enum cs_status cs_h5_seal(struct cs_h5 *f)
{
  begin();
  if (H5Aexists(f->file, "layout_version") == 0) {
    enum cs_status st = cs_h5_attr_write_int(f, "/", "layout_version", CS_H5_SEALED_LAYOUT);
    if (st != CS_OK)
      return st;
  }
  uint32_t crc;
  enum cs_status st = values_crc(f, &crc, NULL);
  if (st != CS_OK)
    return st;
  return cs_h5_attr_write_int(f, "/", CS_H5_VALUES_CRC, (long long)crc);
}

enum cs_status cs_h5_verify_seal(struct cs_h5 *f, int *sealed, size_t *items)
{
  begin();
  *sealed = 0;
  *items = 0;
  htri_t e = H5Aexists(f->file, CS_H5_VALUES_CRC);
  if (e < 0)
    return fail_h5("cannot look up attribute", CS_H5_VALUES_CRC);
  if (e == 0)
    return CS_OK;
  double stored;
  enum cs_status st = cs_h5_attr_read_double(f, "/", CS_H5_VALUES_CRC, &stored);
  if (st != CS_OK)
    return st;
  uint32_t crc;
  if ((st = values_crc(f, &crc, items)) != CS_OK)
    return st;
  *sealed = 1;
  if (stored != (double)crc)
    return fail(CS_ERR_HDF5,
                "stored values changed since the file was written: the CRC-32 of its "
                "attributes, strings and unchunked data is %08x, %s says %08llx",
                (unsigned)crc, CS_H5_VALUES_CRC,
                stored >= 0 && stored < 1e19 ? (unsigned long long)stored : 0ULL);
  return CS_OK;
}

enum cs_status cs_h5_unseal(struct cs_h5 *f)
{
  begin();
  htri_t e = H5Aexists(f->file, CS_H5_VALUES_CRC);
  if (e < 0 || (e > 0 && H5Adelete(f->file, CS_H5_VALUES_CRC) < 0))
    return fail_h5("cannot remove attribute", CS_H5_VALUES_CRC);
  return CS_OK;
}
