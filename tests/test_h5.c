/* SPDX-License-Identifier: MIT */
/* HDF5 helpers: datasets, column names and units, appended rows (also after a
 * killed writer), tables stored by typed columns, attributes, provenance,
 * error texts, and what h5py sees. */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid, unlink */

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cs_version.h"
#include "io/h5.h"

static const char *const names3[] = {"theta", "Tsx", "Ms"};
static const char *const units3[] = {"rad", "1", "1"};

static void fill_rows(double *rows, size_t first, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    double r = (double)(first + i);
    rows[3 * i + 0] = 0.125 * r;
    rows[3 * i + 1] = 2.385 - r * r;
    rows[3 * i + 2] = 1.0 / (r + 1.5);
  }
}

static void check_rows(const double *data, size_t first, size_t n)
{
  double expect[3];
  for (size_t i = 0; i < n; i++) {
    fill_rows(expect, first + i, 1);
    for (int j = 0; j < 3; j++)
      assert_true(data[3 * i + j] == expect[j]);
  }
}

static void test_table_roundtrip(void **state)
{
  const char *path = "test_h5_table.h5";
  double rows[3 * 7];
  struct cs_h5 *f;
  struct cs_h5_data d;
  (void)state;
  fill_rows(rows, 0, 7);
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  assert_int_equal(cs_h5_write_table(f, "/fit/curves", 7, 3, rows, names3, units3), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);

  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  assert_true(cs_h5_exists(f, "/fit"));
  assert_true(cs_h5_exists(f, "/fit/curves"));
  assert_false(cs_h5_exists(f, "/fit/nothing"));
  assert_false(cs_h5_exists(f, "/nothing/deeper"));
  assert_int_equal(cs_h5_read(f, "/fit/curves", &d), CS_OK);
  assert_int_equal(d.rank, 2);
  assert_int_equal(d.nrows, 7);
  assert_int_equal(d.ncols, 3);
  check_rows(d.data, 0, 7);
  for (int j = 0; j < 3; j++) {
    assert_string_equal(d.names[j], names3[j]);
    assert_string_equal(d.units[j], units3[j]);
  }
  assert_int_equal(cs_h5_data_column(&d, "Ms"), 2);
  assert_int_equal(cs_h5_data_column(&d, "theta"), 0);
  assert_int_equal(cs_h5_data_column(&d, "Tsy"), -1);
  cs_h5_data_free(&d);
  assert_null(d.data);
  assert_int_equal(cs_h5_close(f), CS_OK);
  unlink(path);
}

static void test_vector_and_replace(void **state)
{
  const char *path = "test_h5_vector.h5";
  const double v[4] = {30.0, 40.0, 61.5, -2.385};
  const double w[2] = {1.25, 2.5};
  struct cs_h5 *f;
  struct cs_h5_data d;
  (void)state;
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  assert_int_equal(cs_h5_write_vector(f, "/sweep/omega0", 4, v, "rad/s"), CS_OK);
  /* Writing the same path again replaces it. */
  assert_int_equal(cs_h5_write_vector(f, "/sweep/other", 4, v, NULL), CS_OK);
  assert_int_equal(cs_h5_write_vector(f, "/sweep/other", 2, w, "m"), CS_OK);
  assert_int_equal(cs_h5_write_table(f, "/empty", 0, 3, NULL, names3, NULL), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);

  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  assert_int_equal(cs_h5_read(f, "/sweep/omega0", &d), CS_OK);
  assert_int_equal(d.rank, 1);
  assert_int_equal(d.nrows, 4);
  assert_int_equal(d.ncols, 1);
  for (int i = 0; i < 4; i++)
    assert_true(d.data[i] == v[i]);
  assert_string_equal(d.names[0], "omega0");
  assert_string_equal(d.units[0], "rad/s");
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_read(f, "/sweep/other", &d), CS_OK);
  assert_int_equal(d.nrows, 2);
  assert_true(d.data[1] == 2.5);
  assert_string_equal(d.units[0], "m");
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_read(f, "/empty", &d), CS_OK);
  assert_int_equal(d.nrows, 0);
  assert_int_equal(d.ncols, 3);
  assert_string_equal(d.names[1], "Tsx");
  assert_string_equal(d.units[1], ""); /* no units written */
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_read(f, "/sweep/missing", &d), CS_ERR_NOT_FOUND);
  assert_non_null(strstr(cs_errmsg(), "/sweep/missing"));
  /* a group is read as a table only when its `columns` attribute names its datasets */
  assert_int_equal(cs_h5_read(f, "/sweep", &d), CS_ERR_UNSUPPORTED);
  assert_true(strlen(cs_errmsg()) > 0);
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_close(f), CS_OK);
  unlink(path);
}

static void test_attributes(void **state)
{
  const char *path = "test_h5_attr.h5";
  const double v[2] = {1.0, 2.0};
  struct cs_h5 *f;
  char *s = NULL;
  double x = 0.0;
  (void)state;
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  assert_int_equal(cs_h5_attr_write_string(f, "/", "kind", "friction-fit"), CS_OK);
  assert_int_equal(cs_h5_attr_write_string(f, "/", "law", "I00"), CS_OK);
  assert_int_equal(cs_h5_attr_write_string(f, "/", "law", "I11"), CS_OK); /* replaced */
  assert_int_equal(cs_h5_attr_write_double(f, "/", "b", 0.765432109876543, "1"), CS_OK);
  assert_int_equal(cs_h5_attr_write_double(f, "/", "b", 0.452, "1"), CS_OK);
  assert_int_equal(cs_h5_attr_write_int(f, "/", "points", 181), CS_OK);
  assert_int_equal(cs_h5_write_vector(f, "/params/dummy", 2, v, "1"), CS_OK);
  assert_int_equal(cs_h5_attr_write_double(f, "/params", "omega0", 61.5, "rad/s"), CS_OK);
  assert_int_equal(cs_h5_attr_write_string(f, "/params/dummy", "doc", "a unicode µ string"), CS_OK);
  assert_int_equal(cs_h5_attr_write_string(f, "/nowhere", "x", "y"), CS_ERR_NOT_FOUND);
  assert_non_null(strstr(cs_errmsg(), "/nowhere"));
  assert_int_equal(cs_h5_close(f), CS_OK);

  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "kind", &s), CS_OK);
  assert_string_equal(s, "friction-fit");
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "law", &s), CS_OK);
  assert_string_equal(s, "I11");
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "b_units", &s), CS_OK);
  assert_string_equal(s, "1");
  free(s);
  assert_int_equal(cs_h5_attr_read_double(f, "/", "b", &x), CS_OK);
  assert_true(x == 0.452);
  assert_int_equal(cs_h5_attr_read_double(f, "/", "points", &x), CS_OK);
  assert_true(x == 181.0);
  assert_int_equal(cs_h5_attr_read_double(f, "/params", "omega0", &x), CS_OK);
  assert_true(x == 61.5);
  assert_int_equal(cs_h5_attr_read_string(f, "/params", "omega0_units", &s), CS_OK);
  assert_string_equal(s, "rad/s");
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/params/dummy", "doc", &s), CS_OK);
  assert_string_equal(s, "a unicode µ string");
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "missing", &s), CS_ERR_NOT_FOUND);
  assert_null(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "b", &s), CS_ERR_HDF5); /* not a string */
  assert_int_equal(cs_h5_attr_read_double(f, "/", "kind", &x), CS_ERR_HDF5);
  assert_int_equal(cs_h5_attr_read_double(f, "/", "missing", &x), CS_ERR_NOT_FOUND);
  assert_int_equal(cs_h5_close(f), CS_OK);
  unlink(path);
}

static void test_append_and_reopen(void **state)
{
  const char *path = "test_h5_append.h5";
  double rows[3 * 10];
  struct cs_h5 *f;
  struct cs_h5_table *t;
  struct cs_h5_data d;
  (void)state;
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  /* A chunk of 4 rows: appends of 3 and 2 rows cross chunk boundaries. */
  assert_int_equal(cs_h5_table_create(f, "/points/table", 3, 4, names3, units3, &t), CS_OK);
  assert_int_equal(cs_h5_table_rows(t), 0);
  assert_int_equal(cs_h5_table_cols(t), 3);
  fill_rows(rows, 0, 3);
  assert_int_equal(cs_h5_table_append(t, 3, rows), CS_OK);
  fill_rows(rows, 3, 2);
  assert_int_equal(cs_h5_table_append(t, 2, rows), CS_OK);
  assert_int_equal(cs_h5_table_append(t, 0, rows), CS_OK);
  assert_int_equal(cs_h5_table_flush(t), CS_OK);
  assert_int_equal(cs_h5_table_rows(t), 5);
  assert_int_equal(cs_h5_table_close(t), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);

  /* Resume: reopen and append after the last row. */
  assert_int_equal(cs_h5_open(path, 1, &f), CS_OK);
  assert_int_equal(cs_h5_table_open(f, "/points/table", &t), CS_OK);
  assert_int_equal(cs_h5_table_rows(t), 5);
  fill_rows(rows, 5, 6);
  assert_int_equal(cs_h5_table_append(t, 6, rows), CS_OK);
  assert_int_equal(cs_h5_table_close(t), CS_OK);
  fill_rows(rows, 0, 1);
  assert_int_equal(cs_h5_write_table(f, "/fixed", 1, 3, rows, names3, units3), CS_OK);
  assert_int_equal(cs_h5_table_open(f, "/fixed", &t), CS_ERR_UNSUPPORTED);
  assert_null(t);
  assert_int_equal(cs_h5_table_open(f, "/missing", &t), CS_ERR_NOT_FOUND);
  assert_int_equal(cs_h5_close(f), CS_OK);

  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  assert_int_equal(cs_h5_read(f, "/points/table", &d), CS_OK);
  assert_int_equal(d.nrows, 11);
  assert_int_equal(d.ncols, 3);
  check_rows(d.data, 0, 11);
  assert_string_equal(d.names[2], "Ms");
  assert_string_equal(d.units[0], "rad");
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_close(f), CS_OK);
  unlink(path);
}

/* A SWMR writer killed after a flush (no close) leaves the flushed rows
 * readable (a plain writer killed before closing leaves an "open for write"
 * mark that readers refuse: result files that can be killed use SWMR). */
static void test_killed_writer_keeps_flushed_rows(void **state)
{
  const char *path = "test_h5_killed.h5";
  struct cs_h5 *f;
  struct cs_h5_data d;
  int wstatus = 0;
  pid_t pid;
  (void)state;
  fflush(NULL);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    struct cs_h5_table *t;
    double rows[3 * 8];
    if (cs_h5_create(path, &f) != CS_OK ||
        cs_h5_table_create(f, "/points/table", 3, 2, names3, units3, &t) != CS_OK ||
        cs_h5_start_swmr(f) != CS_OK)
      _exit(3);
    fill_rows(rows, 0, 5);
    if (cs_h5_table_append(t, 5, rows) != CS_OK || cs_h5_table_flush(t) != CS_OK)
      _exit(4);
    fill_rows(rows, 5, 3);
    if (cs_h5_table_append(t, 3, rows) != CS_OK) /* not flushed */
      _exit(5);
    raise(SIGKILL);
    _exit(6);
  }
  assert_int_equal(waitpid(pid, &wstatus, 0), pid);
  assert_true(WIFSIGNALED(wstatus));
  assert_int_equal(WTERMSIG(wstatus), SIGKILL);
  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  assert_int_equal(cs_h5_read(f, "/points/table", &d), CS_OK);
  assert_true(d.nrows >= 5);
  assert_true(d.nrows <= 8);
  check_rows(d.data, 0, 5);
  assert_string_equal(d.names[0], "theta");
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_close(f), CS_OK);
  unlink(path);
}

static void test_provenance(void **state)
{
  const char *path = "test_h5_prov.h5";
  char *const argv[] = {"contensou", "friction", "fit", "-o", "my file's.h5", ""};
  struct cs_h5 *f;
  char *s;
  (void)state;
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  assert_int_equal(cs_h5_write_provenance(f, 6, argv), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);
  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "command_line", &s), CS_OK);
  assert_string_equal(s, "contensou friction fit -o 'my file'\\''s.h5' ''");
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "version", &s), CS_OK);
  assert_string_equal(s, CS_VERSION);
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "git_describe", &s), CS_OK);
  assert_string_equal(s, CS_GIT_DESCRIBE);
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "program", &s), CS_OK);
  assert_string_equal(s, "contensou");
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "hdf5_version", &s), CS_OK);
  assert_true(strncmp(s, "1.", 2) == 0);
  free(s);
  /* the SUNDIALS linked reports a 6.x version; how it was built is named */
  assert_int_equal(cs_h5_attr_read_string(f, "/", "sundials_version", &s), CS_OK);
  assert_true(strncmp(s, "6.", 2) == 0);
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "sundials_build", &s), CS_OK);
  assert_true(strncmp(s, "debian-system", 13) == 0 || strncmp(s, "built-from-source", 17) == 0 ||
              strncmp(s, "installed", 9) == 0);
  free(s);
  assert_int_equal(cs_h5_attr_read_string(f, "/", "date", &s), CS_OK);
  /* 2026-01-31T12:00:00Z */
  assert_int_equal(strlen(s), 20);
  assert_true(s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[19] == 'Z');
  free(s);
  assert_int_equal(cs_h5_close(f), CS_OK);
  unlink(path);
}

static void test_errors(void **state)
{
  const char *text = "test_h5_not_hdf5.txt";
  struct cs_h5 *f = (struct cs_h5 *)&f;
  FILE *fp;
  (void)state;
  assert_int_equal(cs_h5_open("test_h5_does_not_exist.h5", 0, &f), CS_ERR_NOT_FOUND);
  assert_null(f);
  assert_non_null(strstr(cs_errmsg(), "test_h5_does_not_exist.h5"));
  fp = fopen(text, "w");
  assert_non_null(fp);
  fputs("not an HDF5 file\n", fp);
  fclose(fp);
  assert_int_equal(cs_h5_open(text, 0, &f), CS_ERR_HDF5);
  assert_non_null(strstr(cs_errmsg(), "not an HDF5 file"));
  unlink(text);
  /* A failure inside HDF5: its error stack becomes the message. */
  assert_int_equal(cs_h5_create("no_such_dir_test_h5/x.h5", &f), CS_ERR_IO);
  assert_null(f);
  /* the system's reason first, HDF5's call after it */
  assert_non_null(strstr(cs_errmsg(), "No such file or directory"));
  assert_non_null(strstr(cs_errmsg(), "H5F"));
  assert_non_null(strstr(cs_errmsg(), "no_such_dir_test_h5/x.h5"));
  assert_int_equal(cs_h5_close(NULL), CS_OK);
  assert_int_equal(cs_h5_table_close(NULL), CS_OK);
  cs_h5_data_free(NULL);
}

/* What another tool sees: h5py must find everything by name. */
static void test_h5py_reads_by_name(void **state)
{
  const char *path = "test_h5_h5py.h5";
  const char *script =
      "/usr/bin/python3 -c '\n"
      "import sys, h5py\n"
      "f = h5py.File(sys.argv[1], \"r\")\n"
      "c = f[\"/fit/curves\"]\n"
      "assert list(c.attrs[\"names\"]) == [\"theta\", \"Tsx\", \"Ms\"], c.attrs[\"names\"]\n"
      "assert list(c.attrs[\"units\"]) == [\"rad\", \"1\", \"1\"], c.attrs[\"units\"]\n"
      "assert c.shape == (4, 3), c.shape\n"
      "assert c[2, 1] == 2.385 - 4.0\n"
      "t = f[\"/points/table\"]\n"
      "assert t.shape == (6, 3) and t.maxshape == (None, 3), (t.shape, t.maxshape)\n"
      "assert t[5, 0] == 0.625\n"
      "assert f.attrs[\"kind\"] == \"friction-fit\", f.attrs[\"kind\"]\n"
      "assert f.attrs[\"b\"] == 0.765 and f.attrs[\"b_units\"] == \"1\"\n"
      "assert f[\"/sweep/omega0\"].attrs[\"units\"] == \"rad/s\"\n"
      "assert f.attrs[\"program\"] == \"contensou\"\n"
      "' ";
  char cmd[2048];
  double rows[3 * 6];
  struct cs_h5 *f;
  struct cs_h5_table *t;
  (void)state;
  if (access("/usr/bin/python3", X_OK) != 0 ||
      system("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0) {
    print_message("h5py not available under /usr/bin/python3: skipped\n");
    skip();
  }
  fill_rows(rows, 0, 6);
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  assert_int_equal(cs_h5_write_table(f, "/fit/curves", 4, 3, rows, names3, units3), CS_OK);
  assert_int_equal(cs_h5_table_create(f, "/points/table", 3, 0, names3, units3, &t), CS_OK);
  assert_int_equal(cs_h5_table_append(t, 6, rows), CS_OK);
  assert_int_equal(cs_h5_table_close(t), CS_OK);
  assert_int_equal(cs_h5_write_vector(f, "/sweep/omega0", 3, rows, "rad/s"), CS_OK);
  assert_int_equal(cs_h5_attr_write_string(f, "/", "kind", "friction-fit"), CS_OK);
  assert_int_equal(cs_h5_attr_write_double(f, "/", "b", 0.765, "1"), CS_OK);
  assert_int_equal(cs_h5_write_provenance(f, 0, NULL), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);
  snprintf(cmd, sizeof cmd, "%s%s", script, path);
  assert_int_equal(system(cmd), 0);
  unlink(path);
}

/* Result files: a second writer of the same path is refused before it
 * touches anything; the target appears only on commit; a failed run keeps its
 * partial file, which a new run refuses to overwrite unless asked. */
static void test_output_lock_partial_commit(void **state)
{
  const char *path = "test_h5_out.h5";
  struct cs_h5 *f, *g = NULL;
  struct cs_h5_data d;
  double rows[3 * 4];
  (void)state;
  unlink(path);
  unlink("test_h5_out.h5.partial");
  /* an older result stays untouched until the commit */
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  assert_int_equal(cs_h5_attr_write_string(f, "/", "who", "older"), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);

  assert_int_equal(cs_h5_output_create(path, 0, &f), CS_OK);
  assert_string_equal(cs_h5_partial_path(f), "test_h5_out.h5.partial");
  assert_int_equal(access("test_h5_out.h5.lock", F_OK), 0);
  fill_rows(rows, 0, 4);
  assert_int_equal(cs_h5_write_table(f, "/t", 4, 3, rows, names3, units3), CS_OK);
  assert_int_equal(cs_h5_attr_write_string(f, "/", "who", "newer"), CS_OK);

  /* a second writer, in another process (flock locks belong to processes) */
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    struct cs_h5 *h;
    enum cs_status st = cs_h5_output_create(path, 1, &h);
    _exit(st == CS_ERR_BUSY && strstr(cs_errmsg(), "another process (pid") ? 0 : 1);
  }
  int ws;
  assert_int_equal(waitpid(pid, &ws, 0), pid);
  assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
  /* and in this process: it is told that the other writer is its own */
  struct cs_h5 *again = NULL;
  assert_int_equal(cs_h5_output_create(path, 1, &again), CS_ERR_BUSY);
  assert_null(again);
  assert_non_null(strstr(cs_errmsg(), "already being written by this process"));

  char *who;
  assert_int_equal(cs_h5_open(path, 0, &g), CS_OK);
  assert_int_equal(cs_h5_attr_read_string(g, "/", "who", &who), CS_OK);
  assert_string_equal(who, "older");
  free(who);
  assert_int_equal(cs_h5_close(g), CS_OK);

  assert_int_equal(cs_h5_output_commit(f), CS_OK);
  assert_int_equal(access("test_h5_out.h5.partial", F_OK), -1);
  assert_int_equal(access("test_h5_out.h5.lock", F_OK), -1);
  assert_int_equal(cs_h5_open(path, 0, &g), CS_OK);
  assert_int_equal(cs_h5_attr_read_string(g, "/", "who", &who), CS_OK);
  assert_string_equal(who, "newer");
  free(who);
  assert_int_equal(cs_h5_read(g, "/t", &d), CS_OK);
  check_rows(d.data, 0, 4);
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_close(g), CS_OK);

  /* a run that fails keeps its partial file; the next one refuses it */
  assert_int_equal(cs_h5_output_create(path, 0, &f), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);
  assert_int_equal(access("test_h5_out.h5.partial", F_OK), 0);
  assert_int_equal(access("test_h5_out.h5.lock", F_OK), -1);
  assert_int_equal(cs_h5_output_create(path, 0, &f), CS_ERR_EXISTS);
  assert_non_null(strstr(cs_errmsg(), "did not finish"));
  assert_int_equal(cs_h5_output_create(path, 1, &f), CS_OK);
  assert_int_equal(cs_h5_output_commit(f), CS_OK);
  unlink(path);
}

/* Typed datasets: integers stay integers, text is fixed-length, unwritten
 * rows read as the fill value, extendible tables grow and shrink. */
static void test_typed_datasets(void **state)
{
  const char *path = "test_h5_typed.h5";
  struct cs_h5 *f;
  struct cs_h5_dset *a, *b, *c;
  (void)state;
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  struct cs_h5_dset_spec ints = {
      .type = CS_H5_INT64, .rows = 10, .fill = -1, .unit = "1", .doc = "first row of each point"};
  assert_int_equal(cs_h5_dset_create(f, "/g/offsets", &ints, &a), CS_OK);
  int64_t iv[3] = {7, -3, 1LL << 40};
  assert_int_equal(cs_h5_dset_write(a, 4, 3, iv), CS_OK);
  assert_int_equal(cs_h5_dset_write(a, 9, 2, iv), CS_ERR_RANGE);
  struct cs_h5_dset_spec txt = {.type = CS_H5_TEXT, .rows = 5};
  assert_int_equal(cs_h5_dset_create(f, "/g/messages", &txt, &b), CS_OK);
  char m[2][CS_H5_TEXT_LEN] = {"ARKODE: convergence failure", "ümlaut"};
  assert_int_equal(cs_h5_dset_write(b, 1, 2, m), CS_OK);
  struct cs_h5_dset_spec tab = {.type = CS_H5_DOUBLE,
                                .cols = 3,
                                .extendible = 1,
                                .fill = NAN,
                                .names = names3,
                                .units = units3};
  assert_int_equal(cs_h5_dset_create(f, "/g/table", &tab, &c), CS_OK);
  double rows[3 * 6];
  fill_rows(rows, 0, 6);
  assert_int_equal(cs_h5_dset_append(c, 6, rows), CS_OK);
  assert_int_equal(cs_h5_dset_resize(c, 4), CS_OK);
  assert_int_equal(cs_h5_dset_close(a), CS_OK);
  assert_int_equal(cs_h5_dset_close(b), CS_OK);
  assert_int_equal(cs_h5_dset_close(c), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);

  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  assert_int_equal(cs_h5_dset_open(f, "/g/offsets", &a), CS_OK);
  assert_int_equal(cs_h5_dset_type(a), CS_H5_INT64);
  assert_int_equal(cs_h5_dset_rows(a), 10);
  int64_t back[10];
  assert_int_equal(cs_h5_dset_read(a, 0, 10, back), CS_OK);
  assert_true(back[0] == -1 && back[4] == 7 && back[5] == -3 && back[6] == (1LL << 40) &&
              back[9] == -1);
  assert_int_equal(cs_h5_dset_read(a, 8, 3, back), CS_ERR_RANGE);
  assert_int_equal(cs_h5_dset_open(f, "/g/messages", &b), CS_OK);
  assert_int_equal(cs_h5_dset_type(b), CS_H5_TEXT);
  char mb[3][CS_H5_TEXT_LEN];
  assert_int_equal(cs_h5_dset_read(b, 0, 3, mb), CS_OK);
  assert_string_equal(mb[0], "");
  assert_string_equal(mb[1], "ARKODE: convergence failure");
  assert_string_equal(mb[2], "ümlaut");
  struct cs_h5_data d;
  assert_int_equal(cs_h5_read(f, "/g/table", &d), CS_OK);
  assert_int_equal(d.nrows, 4);
  check_rows(d.data, 0, 4);
  assert_string_equal(d.names[2], "Ms");
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_dset_close(a), CS_OK);
  assert_int_equal(cs_h5_dset_close(b), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);
  unlink(path);
}

/* The integer companion of a table of doubles: its path, and a 2-D int32
 * dataset with missing_value (cs_h5_dset_spec.missing: the fill, in the
 * dataset's type) whose missing values read as NaN, never written rows
 * included; a missing value its type cannot hold is refused. */
static void test_integer_companion(void **state)
{
  (void)state;
  char buf[64];
  assert_int_equal(cs_h5_companion_path("/trajectory", buf, sizeof buf), CS_OK);
  assert_string_equal(buf, "/trajectory_codes");
  assert_int_equal(cs_h5_companion_path("/forward/section/values", buf, sizeof buf), CS_OK);
  assert_string_equal(buf, "/forward/section/codes");
  assert_int_equal(cs_h5_companion_path("/eps/1/difference", buf, sizeof buf), CS_OK);
  assert_string_equal(buf, "/eps/1/difference_codes");
  assert_int_equal(cs_h5_companion_path("/values_x", buf, sizeof buf), CS_OK);
  assert_string_equal(buf, "/values_x_codes");
  assert_int_equal(cs_h5_companion_path("/trajectory", buf, 12), CS_ERR_RANGE);
  assert_string_equal(buf, "");

  const char *path = "test_h5_companion.h5";
  struct cs_h5 *f;
  struct cs_h5_dset *d;
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  const char *const names[] = {"vcase", "stick"}, *const units[] = {"1", "1"};
  struct cs_h5_dset_spec s = {.type = CS_H5_INT32,
                              .cols = 2,
                              .extendible = 1,
                              .fill = -1,
                              .missing = 1,
                              .names = names,
                              .units = units,
                              .doc = "codes"};
  assert_int_equal(cs_h5_dset_create(f, "/t_codes", &s, &d), CS_OK);
  int32_t v[4] = {2, 1, -1, 0};
  assert_int_equal(cs_h5_dset_write(d, 1, 2, v), CS_OK); /* row 0 never written */
  assert_int_equal(cs_h5_dset_close(d), CS_OK);
  struct cs_h5_dset_spec huge = s;
  huge.fill = 1e10;
  assert_int_equal(cs_h5_dset_create(f, "/huge", &huge, &d), CS_ERR_ARG);
  assert_null(d);
  assert_int_equal(cs_h5_close(f), CS_OK);

  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  double mv;
  assert_int_equal(cs_h5_attr_read_double(f, "/t_codes", "missing_value", &mv), CS_OK);
  assert_true(mv == -1);
  struct cs_h5_data dd;
  assert_int_equal(cs_h5_read(f, "/t_codes", &dd), CS_OK);
  assert_int_equal(dd.nrows, 3);
  assert_int_equal(dd.ncols, 2);
  assert_string_equal(dd.names[1], "stick");
  assert_true(isnan(dd.data[0]) && isnan(dd.data[1])); /* never written */
  assert_true(dd.data[2] == 2 && dd.data[3] == 1 && isnan(dd.data[4]) && dd.data[5] == 0);
  cs_h5_data_free(&dd);
  assert_int_equal(cs_h5_close(f), CS_OK);
  unlink(path);
}

/* A SWMR writer killed with kill -9 leaves a file that plain HDF5 readers
 * refuse ("open for write"); cs_h5_open reads it anyway and
 * cs_h5_open_recover clears the marks so that every reader can. */
static void test_recover_killed_swmr_writer(void **state)
{
  const char *path = "test_h5_swmr.h5";
  struct cs_h5 *f;
  (void)state;
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    struct cs_h5_dset *t;
    double rows[3 * 5];
    struct cs_h5_dset_spec tab = {.type = CS_H5_DOUBLE, .cols = 3, .extendible = 1, .fill = NAN};
    if (cs_h5_create(path, &f) != CS_OK || cs_h5_dset_create(f, "/t", &tab, &t) != CS_OK ||
        cs_h5_start_swmr(f) != CS_OK)
      _exit(3);
    fill_rows(rows, 0, 5);
    if (cs_h5_dset_append(t, 5, rows) != CS_OK || cs_h5_flush(f) != CS_OK)
      _exit(4);
    raise(SIGKILL);
    _exit(5);
  }
  int ws;
  assert_int_equal(waitpid(pid, &ws, 0), pid);
  assert_true(WIFSIGNALED(ws));
  struct cs_h5_data d;
  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  assert_int_equal(cs_h5_read(f, "/t", &d), CS_OK);
  assert_int_equal(d.nrows, 5);
  check_rows(d.data, 0, 5);
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_close(f), CS_OK);
  assert_int_equal(cs_h5_open_recover(path, &f), CS_OK);
  assert_int_equal(cs_h5_close(f), CS_OK);
  if (access("/usr/bin/python3", X_OK) == 0 &&
      system("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") == 0)
    assert_int_equal(system("/usr/bin/python3 -c \"import h5py, sys; "
                            "sys.exit(h5py.File('test_h5_swmr.h5', 'r')['t'].shape[0] != 5)\""),
                     0);
  unlink(path);
}

/* A table stored by columns: integer columns in their own integer types
 * (what h5py sees: dtype, units, doc, missing_value, the `columns` order),
 * read back by the generic readers as one table of doubles with a block
 * expanded into its named columns and -1 of a column with missing values as
 * NaN; values an integer column cannot hold are refused; an appended table
 * holds its rows until flushed or closed, and then has them all. */
static void test_columns(void **state)
{
  const char *path = "test_h5_columns.h5";
  static const char *const block[] = {"0", "1"};
  const struct cs_h5_column cols[] = {
      {"run", CS_H5_INT32, "1", "the run", 0, 0, NULL},
      {"eps", CS_H5_DOUBLE, "m/s", "eps", 0, 0, NULL},
      {"rows", CS_H5_INT64, "1", "rows compared", 1, 0, NULL},
      {"class", CS_H5_INT32, "1", "class of grid index 0, 1", 1, 2, block},
  };
  /* run, eps, rows, class[0], class[1] */
  const double rows[] = {0, NAN, 5e12, 3, NAN, /* */
                         1, 0.5, NAN,  2, 1};
  struct cs_h5 *f;
  struct cs_h5_data d;
  (void)state;
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  assert_int_equal(cs_h5_write_columns(f, "/study/runs", 4, cols, 2, rows, "one row per run"),
                   CS_OK);
  assert_int_equal(cs_h5_write_columns(f, "/empty", 4, cols, 0, NULL, "no rows"), CS_OK);
  /* refused: a fraction, NaN where nothing may be missing, beyond int32 */
  const double frac[] = {0.5, 1, 1, 1, 1}, nan_run[] = {NAN, 1, 1, 1, 1}, big[] = {3e9, 1, 1, 1, 1};
  const double *bad[] = {frac, nan_run, big};
  for (int i = 0; i < 3; i++) {
    assert_int_equal(cs_h5_write_columns(f, "/bad", 4, cols, 1, bad[i], "bad"), CS_ERR_ARG);
    assert_non_null(strstr(cs_errmsg(), "column 'run'"));
  }
  struct cs_h5_column nodoc = cols[0];
  nodoc.doc = NULL;
  assert_int_equal(cs_h5_write_columns(f, "/bad", 1, &nodoc, 1, rows, "bad"), CS_ERR_ARG);

  /* appended by rows: held, then all there */
  struct cs_h5_table *t;
  assert_int_equal(cs_h5_table_create_columns(f, "/switches", 2, cols, 4, "switches", &t), CS_OK);
  assert_int_equal(cs_h5_table_cols(t), 2);
  for (int i = 0; i < 6; i++) {
    double r[2] = {i, 0.25 * i};
    assert_int_equal(cs_h5_table_append(t, 1, r), CS_OK);
  }
  assert_int_equal(cs_h5_table_rows(t), 6);
  assert_int_equal(cs_h5_read(f, "/switches", &d), CS_OK);
  assert_int_equal(d.nrows, 4); /* one chunk of 4 written, 2 held */
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_table_flush(t), CS_OK);
  assert_int_equal(cs_h5_read(f, "/switches", &d), CS_OK);
  assert_int_equal(d.nrows, 6);
  cs_h5_data_free(&d);
  double r7[2] = {6, 1.5};
  assert_int_equal(cs_h5_table_append(t, 1, r7), CS_OK);
  assert_int_equal(cs_h5_table_close(t), CS_OK);
  assert_int_equal(cs_h5_table_open(f, "/switches", &t), CS_ERR_UNSUPPORTED);
  assert_int_equal(cs_h5_close(f), CS_OK);

  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  int rank;
  size_t nr, nc;
  assert_int_equal(cs_h5_shape(f, "/study/runs", &rank, &nr, &nc), CS_OK);
  assert_true(rank == 2 && nr == 2 && nc == 5);
  assert_int_equal(cs_h5_read(f, "/study/runs", &d), CS_OK);
  assert_true(d.rank == 2 && d.nrows == 2 && d.ncols == 5);
  static const char *const want_names[] = {"run", "eps", "rows", "0", "1"};
  static const char *const want_units[] = {"1", "m/s", "1", "1", "1"};
  for (int j = 0; j < 5; j++) {
    assert_string_equal(d.names[j], want_names[j]);
    assert_string_equal(d.units[j], want_units[j]);
  }
  for (int k = 0; k < 10; k++)
    assert_true(d.data[k] == rows[k] || (isnan(d.data[k]) && isnan(rows[k])));
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_read_rows(f, "/study/runs", 1, 1, &d), CS_OK);
  assert_true(d.nrows == 1 && d.data[0] == 1 && d.data[4] == 1);
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_read_column(f, "/study/runs", "1", &d), CS_OK);
  assert_true(d.nrows == 2 && d.ncols == 1 && isnan(d.data[0]) && d.data[1] == 1);
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_read_column(f, "/study/runs", "none", &d), CS_ERR_NOT_FOUND);
  assert_int_equal(cs_h5_read(f, "/empty", &d), CS_OK);
  assert_true(d.nrows == 0 && d.ncols == 5);
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_read(f, "/switches", &d), CS_OK);
  assert_true(d.nrows == 7 && d.ncols == 2 && d.data[13] == 1.5);
  cs_h5_data_free(&d);
  assert_int_equal(cs_h5_close(f), CS_OK);

  if (access("/usr/bin/python3", X_OK) == 0 &&
      system("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") == 0) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c '\n"
             "import sys, h5py, numpy as np\n"
             "g = h5py.File(sys.argv[1], \"r\")[\"study/runs\"]\n"
             "assert list(g.attrs[\"columns\"]) == [\"run\", \"eps\", \"rows\", \"class\"]\n"
             "assert g.attrs[\"doc\"] == \"one row per run\"\n"
             "assert g[\"run\"].dtype == np.int32 and g[\"rows\"].dtype == np.int64\n"
             "assert g[\"eps\"].dtype == np.float64 and g[\"eps\"].attrs[\"units\"] == \"m/s\"\n"
             "assert g[\"rows\"][0] == 5 * 10**12 and g[\"rows\"][1] == -1\n"
             "assert g[\"rows\"].attrs[\"missing_value\"] == -1\n"
             "assert \"missing_value\" not in g[\"run\"].attrs\n"
             "c = g[\"class\"]\n"
             "assert c.shape == (2, 2) and c.dtype == np.int32 and c[0, 1] == -1\n"
             "assert list(c.attrs[\"names\"]) == [\"0\", \"1\"]\n"
             "assert list(c.attrs[\"units\"]) == [\"1\", \"1\"]\n"
             "assert g[\"run\"].attrs[\"doc\"] == \"the run\"\n"
             "' %s",
             path);
    assert_int_equal(system(cmd), 0);
  }
  unlink(path);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_roundtrip),
      cmocka_unit_test(test_vector_and_replace),
      cmocka_unit_test(test_attributes),
      cmocka_unit_test(test_append_and_reopen),
      cmocka_unit_test(test_killed_writer_keeps_flushed_rows),
      cmocka_unit_test(test_provenance),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_h5py_reads_by_name),
      cmocka_unit_test(test_output_lock_partial_commit),
      cmocka_unit_test(test_typed_datasets),
      cmocka_unit_test(test_recover_killed_swmr_writer),
      cmocka_unit_test(test_columns),
      cmocka_unit_test(test_integer_companion),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
