/* SPDX-License-Identifier: MIT */
/* The public readers (results/read.h) against an independent reading: the
 * program makes one short file of each kind (trajectory with mode switches,
 * sweep, eps study, friction fit, orbit, continuation), h5py dumps every
 * attribute, table and string of them (tests/read/dump.py), and every value
 * the readers give must be the one h5py read, every object h5py found must be
 * there. The integer outputs of a model (stick, vcase), which the files keep
 * in int32 companions of the tables of doubles (/trajectory_codes,
 * section/codes, /reference_codes, ...), read as the last columns of those
 * tables (dump.py merges them the same way, by the layout's rule), for a
 * trajectory, a sweep (complete and being written), an eps study and an
 * orbit. Then refusals: truncated files, a dataset of the wrong rank or type,
 * missing required objects, an index outside the grid, a companion of other
 * rows than its table, each an error naming the file and the object, never a
 * crash. Layout versions: a copy of each file with its layout_version
 * rewritten (newer than the kind's, 0, every earlier one, none) is refused,
 * naming the version found and those read, or read. Skipped without
 * /usr/bin/python3 and h5py. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, strdup */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/read.h"

#define PY "/usr/bin/python3"
#define DUMP CONTENSOU_SOURCE_DIR "/tests/read/dump.py"
#define PARAMS CONTENSOU_SOURCE_DIR "/params"

static char dir[64];
static int ready; /* files made and dumped */

/* the dump: sorted key/value pairs */
struct kv {
  char *key, *val;
};
static struct kv *kv;
static size_t nkv;

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
  char cmd[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  return system(cmd);
}

static const char *fpath(const char *name)
{
  static char buf[4][256];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static int cmp_kv(const void *a, const void *b)
{
  return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

static int load_dump(const char *path)
{
  FILE *fp = fopen(path, "r");
  if (!fp)
    return -1;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, fp)) > 0) {
    if (line[len - 1] == '\n')
      line[--len] = '\0';
    char *tab = strchr(line, '\t');
    if (!tab)
      continue;
    *tab = '\0';
    struct kv *g = realloc(kv, (nkv + 1) * sizeof *g);
    if (!g)
      break;
    kv = g;
    kv[nkv].key = strdup(line);
    kv[nkv].val = strdup(tab + 1);
    nkv++;
  }
  free(line);
  fclose(fp);
  qsort(kv, nkv, sizeof *kv, cmp_kv);
  return 0;
}

/* The dumped value of a key, or NULL. */
static const char *get(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *get(const char *fmt, ...)
{
  char key[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(key, sizeof key, fmt, ap);
  va_end(ap);
  struct kv k = {.key = key}, *hit = bsearch(&k, kv, nkv, sizeof *kv, cmp_kv);
  return hit ? hit->val : NULL;
}

/* Keys starting with prefix. */
static size_t count_prefix(const char *prefix)
{
  size_t n = 0, len = strlen(prefix);
  for (size_t i = 0; i < nkv; i++)
    n += strncmp(kv[i].key, prefix, len) == 0;
  return n;
}

/* The text as dump.py writes it (\ \n \t escaped). */
static void escape(const char *s, char *out, size_t cap)
{
  size_t k = 0;
  for (; *s && k + 3 < cap; s++) {
    if (*s == '\\' || *s == '\n' || *s == '\t') {
      out[k++] = '\\';
      out[k++] = *s == '\n' ? 'n' : *s == '\t' ? 't' : '\\';
    } else {
      out[k++] = *s;
    }
  }
  out[k] = '\0';
}

static void expect_text(const char *got, const char *want, const char *what)
{
  static char esc[1 << 16];
  if (!want)
    fail_msg("%s: not in h5py's dump", what);
  assert_non_null(got);
  escape(got, esc, sizeof esc);
  if (strcmp(esc, want) != 0)
    fail_msg("%s: '%s', h5py read '%s'", what, esc, want);
}

static void expect_num(double got, const char *want, const char *what)
{
  if (!want)
    fail_msg("%s: not in h5py's dump", what);
  double w = strtod(want, NULL);
  if (!(got == w || (isnan(got) && isnan(w))))
    fail_msg("%s: %.17g, h5py read %.17g", what, got, w);
}

/* Every scalar attribute the reader lists is h5py's, and as many. */
static void check_attrs(const char *L, const char *path, const struct cs_result_attrs *a)
{
  char prefix[512], what[512];
  snprintf(prefix, sizeof prefix, "%s:a:%s:", L, path);
  for (size_t i = 0; i < a->n; i++) {
    const struct cs_result_attr *x = &a->v[i];
    const char *want = get("%s%s", prefix, x->name);
    snprintf(what, sizeof what, "%s attribute %s of %s", L, x->name, path);
    if (x->text) {
      expect_text(x->text, want, what);
    } else {
      expect_num(x->value, want, what);
      char uname[300];
      snprintf(uname, sizeof uname, "%s_units", x->name);
      const char *u = get("%s%s", prefix, uname);
      if (u)
        expect_text(x->unit, u, what);
      else
        assert_null(x->unit);
    }
  }
  /* h5py's keys of this object with no ':' after the name (not a deeper path) */
  size_t n = 0, len = strlen(prefix);
  for (size_t i = 0; i < nkv; i++)
    n += strncmp(kv[i].key, prefix, len) == 0 && !strchr(kv[i].key + len, ':');
  if (n != a->n)
    fail_msg("%s %s: %zu scalar attributes read, h5py found %zu", L, path, a->n, n);
}

/* Shape, names, units, rows from first on, and attributes of a table. */
static void check_rows(const char *L, const struct cs_result_table *t, size_t first)
{
  char what[512];
  const char *shape = get("%s:shape:%s", L, t->path);
  if (!shape)
    fail_msg("%s: table %s is not in h5py's dump", L, t->path);
  size_t nr, nc;
  assert_int_equal(sscanf(shape, "%zu %zu", &nr, &nc), 2);
  assert_int_equal(t->ncols, nc);
  assert_true(first + t->nrows <= nr);
  for (size_t j = 0; j < t->ncols; j++) {
    snprintf(what, sizeof what, "%s %s column %zu", L, t->path, j);
    expect_text(t->names[j], get("%s:name:%s:%zu", L, t->path, j), what);
    expect_text(t->units[j], get("%s:unit:%s:%zu", L, t->path, j), what);
  }
  for (size_t i = 0; i < t->nrows; i++)
    for (size_t j = 0; j < t->ncols; j++) {
      snprintf(what, sizeof what, "%s %s[%zu, %zu]", L, t->path, first + i, j);
      expect_num(t->data[i * t->ncols + j], get("%s:v:%s:%zu:%zu", L, t->path, first + i, j), what);
    }
  check_attrs(L, t->path, &t->attrs);
}

static void check_table(const char *L, const struct cs_result_table *t)
{
  assert_non_null(t);
  const char *shape = get("%s:shape:%s", L, t->path);
  size_t nr = 0, nc = 0;
  if (shape)
    assert_int_equal(sscanf(shape, "%zu %zu", &nr, &nc), 2);
  assert_int_equal(t->nrows, nr);
  check_rows(L, t, 0);
}

static void check_header(const char *L, const struct cs_result_header *h, const char *kind)
{
  assert_string_equal(h->kind_name, kind);
  check_attrs(L, "/", &h->root);
  expect_text(h->kind_name, get("%s:a:/:kind", L), "kind");
  if (h->model)
    expect_text(h->model, get("%s:a:/:model", L), "model");
  if (h->status)
    expect_text(h->status, get("%s:a:/:status", L), "status");
  if (get("%s:shape:/params", L)) {
    check_table(L, &h->params);
    check_table(L, &h->initial);
    check_table(L, &h->solver);
  } else {
    assert_null(h->params.path);
  }
}

/* ------------------------------------------------------------ the files */

#define NFILES 9
static const char *const labels[NFILES] = {"T", "S", "E", "F", "O", "C", "W", "K", "M"};
static const char *const files[NFILES] = {"traj.h5", "sweep.h5",   "eps.h5",
                                          "fit.h5",  "orbit.h5",   "cont.h5",
                                          "epsw.h5", "tmsweep.h5", "tmorbit.h5"};
static const char *const kinds[NFILES] = {"trajectory",   "sweep", "eps-study",
                                          "friction-fit", "orbit", "continuation",
                                          "eps-study",    "sweep", "orbit"};

static int setup(void **state)
{
  (void)state;
  if (access(PY, X_OK) != 0 || sh(PY " -c 'import h5py' 2>/dev/null") != 0)
    return 0; /* the tests skip */
  snprintf(dir, sizeof dir, "/tmp/cs_test_read_XXXXXX");
  if (!mkdtemp(dir))
    return -1;
  FILE *fp = fopen(fpath("duffing.ini"), "w");
  if (!fp)
    return -1;
  fputs("[model]\nname = duffing\n[parameters]\ndelta = 0.3\nalpha = -1\nbeta = 1\n"
        "gamma = 0.2\nomega = 1.2\n[initial]\nx = 1\nv = 0\n[solver]\nstepper = erk\n"
        "rtol = 1e-9\natol = 1e-11\n[output]\nt_end = 50\n[sweep]\nparameter = gamma\n"
        "from = 0.2\nto = 0.5\npoints = 8\ndirection = both\ntransient = 50\nrecord = 50\n"
        "lyapunov = spectrum\n",
        fp);
  fclose(fp);
  if (!(fp = fopen(fpath("vdp.ini"), "w")))
    return -1;
  fputs("[model]\nname = vanderpol\n[parameters]\nmu = 1\n[initial]\nx = 2\nv = 0\n"
        "[solver]\nrtol = 1e-10\natol = 1e-12\n[output]\nt_end = 50\n",
        fp);
  fclose(fp);
  if (!(fp = fopen(fpath("hopf.ini"), "w")))
    return -1;
  fputs("[model]\nname = subhopf\n[parameters]\nmu = -0.5\n[initial]\nx = 0.01\ny = 0\n"
        "[solver]\nrtol = 1e-9\natol = 1e-11\n[continuation]\nparameter = mu\nmin = -0.5\n"
        "max = 0.3\nstart = hopf\n",
        fp);
  fclose(fp);
  /* the two-mass model: two integer outputs, vcase and stick */
  if (sh("cp %s/twomass_stickslip.ini %s && printf '[sweep]\\nparameter = A1\\nfrom = 4\\n"
         "to = 12\\npoints = 5\\ntransient = 10\\nrecord = 10\\nlyapunov = none\\n' >>%s",
         PARAMS, fpath("twomass.ini"), fpath("twomass.ini")))
    return -1;
  const char *q = ">/dev/null 2>&1";
  if (sh("cd %s && %s simulate %s/belt_fig4a.ini --set model.law=event-driven "
         "--set solver.stepper=erk --set initial.x=0 --set initial.phi=0 --set initial.dx=0 "
         "--set initial.dphi=0 --set output.t_end=5 -o traj.h5 %s",
         dir, CONTENSOU_EXE, PARAMS, q) ||
      sh("cd %s && %s sweep duffing.ini --threads 1 -o sweep.h5 %s", dir, CONTENSOU_EXE, q) ||
      sh("cd %s && %s eps-study %s/pendulum_fig9.ini --set output.t_end=2 --set output.dt=0.01 "
         "--eps 1e-1,1e-2 --reference 1e-3 -o eps.h5 %s",
         dir, CONTENSOU_EXE, PARAMS, q) ||
      sh("cd %s && %s friction fit --law I11 --points 20 -o fit.h5 %s", dir, CONTENSOU_EXE, q) ||
      sh("cd %s && %s orbit vdp.ini -o orbit.h5 --no-plot %s", dir, CONTENSOU_EXE, q) ||
      sh("cd %s && %s continue hopf.ini -o cont.h5 --no-plot %s", dir, CONTENSOU_EXE, q) ||
      /* an eps study over a 3 x 2 map: section rows of both parameters, classes of 6 points */
      sh("cd %s && %s eps-study %s/pendulum_eps_sweep.ini --sweep --eps 1e-1 --reference 5e-2 "
         "--set sweep.parameter=omega0 --set sweep.from=0.1 --set sweep.to=1.0 "
         "--set sweep.points=3 --set sweep.parameter2=N --set sweep.from2=6 --set sweep.to2=8 "
         "--set sweep.points2=2 --set sweep.transient=10 --set sweep.record=10 "
         "--set sweep.spacing=linear --set sweep.adaptive_transient=false --threads 2 "
         "-o epsw.h5 %s",
         dir, CONTENSOU_EXE, PARAMS, q) ||
      sh("cd %s && %s sweep twomass.ini --threads 1 -o tmsweep.h5 %s", dir, CONTENSOU_EXE, q) ||
      sh("cd %s && %s orbit twomass.ini -o tmorbit.h5 --no-plot %s", dir, CONTENSOU_EXE, q))
    return -1;
  for (size_t i = 0; i < NFILES; i++)
    if (sh("cd %s && " PY " " DUMP " %s %s >>dump.txt", dir, labels[i], files[i]))
      return -1;
  if (load_dump(fpath("dump.txt")) != 0 || nkv == 0)
    return -1;
  ready = 1;
  return 0;
}

static int teardown(void **state)
{
  (void)state;
  for (size_t i = 0; i < nkv; i++)
    free(kv[i].key), free(kv[i].val);
  free(kv);
  if (dir[0]) /* a sweep left held by a failed check goes too */
    sh("kill -9 $(cat %s/live.pid 2>/dev/null) 2>/dev/null; rm -rf %s", dir, dir);
  return 0;
}

#define NEED_FILES() \
  do {               \
    if (!ready)      \
      skip();        \
  } while (0)

/* Every kind, read whole: every table and string list h5py found, with every
 * value, name, unit and attribute. */
static void test_whole_files(void **state)
{
  (void)state;
  NEED_FILES();
  for (size_t k = 0; k < NFILES; k++) {
    struct cs_result_file f;
    enum cs_result_kind kind;
    assert_int_equal(cs_result_kind(fpath(files[k]), &kind), CS_OK);
    assert_string_equal(cs_result_kind_name(kind), kinds[k]);
    enum cs_status st = cs_read_result(fpath(files[k]), &f);
    if (st != CS_OK)
      fail_msg("%s: %s", files[k], cs_errmsg());
    check_header(labels[k], &f.h, kinds[k]);
    char prefix[16];
    snprintf(prefix, sizeof prefix, "%s:shape:", labels[k]);
    assert_int_equal(f.ntables, count_prefix(prefix));
    for (size_t i = 0; i < f.ntables; i++)
      check_table(labels[k], &f.tables[i]);
    size_t nstr = 0;
    for (size_t i = 0; i < f.ntexts; i++) {
      char what[300];
      nstr += f.texts[i].n;
      for (size_t j = 0; j < f.texts[i].n; j++) {
        snprintf(what, sizeof what, "%s %s[%zu]", labels[k], f.texts[i].path, j);
        expect_text(f.texts[i].v[j], get("%s:s:%s:%zu", labels[k], f.texts[i].path, j), what);
      }
    }
    snprintf(prefix, sizeof prefix, "%s:s:", labels[k]);
    assert_int_equal(nstr, count_prefix(prefix));
    cs_result_file_free(&f);
    cs_result_file_free(&f); /* twice is harmless */
  }
}

static void test_trajectory(void **state)
{
  (void)state;
  NEED_FILES();
  struct cs_trajectory_file t;
  assert_int_equal(cs_read_trajectory(fpath("traj.h5"), 0, SIZE_MAX, &t), CS_OK);
  check_header("T", &t.h, "trajectory");
  assert_int_equal(t.rows_total, t.table.nrows);
  assert_true(t.rows_total > 10);
  check_table("T", &t.table);
  check_table("T", &t.stats);
  assert_true(t.switches.nrows >= 1); /* from rest: stick at t = 0.030 (simulate.sh) */
  check_table("T", &t.switches);
  /* the counts (int64 columns of /stats) read as the numbers, like their attributes */
  double n_sw, steps;
  assert_true(cs_result_attr_number(&t.stats.attrs, "switches", &n_sw, NULL));
  assert_true(cs_result_attr_number(&t.stats.attrs, "steps", &steps, NULL));
  assert_true(cs_result_value(&t.stats, 0, "switches") == n_sw);
  assert_true(cs_result_value(&t.stats, 0, "steps") == steps && steps > 10);
  assert_true(n_sw == (double)t.switches.nrows);
  assert_true(cs_result_value(&t.switches, 0, "mode") == 1); /* the first switch: to stick */
  assert_string_equal(t.h.status, "ok");
  assert_string_equal(cs_result_attr_text(&t.h.root, "law"), "event-driven");
  /* the stick indicator (an int32 in /trajectory_codes) is the last column
   * again: slip at t = 0, stick from the first switch (t = 0.030) to t = 5 */
  expect_text("stick", get("T:c:sa:/trajectory_codes:names:0"), "the companion's column");
  long cs = cs_result_column(&t.table, "stick"), ct = cs_result_column(&t.table, "t");
  assert_int_equal(cs, (long)t.table.ncols - 1);
  assert_true(cs_result_value(&t.table, 0, "stick") == 0);
  for (size_t i = 0; i < t.table.nrows; i++)
    if (t.table.data[i * t.table.ncols + (size_t)ct] > 0.05)
      assert_true(t.table.data[i * t.table.ncols + (size_t)cs] == 1);
  double t_end;
  assert_true(cs_result_attr_number(&t.table.attrs, "t_end", &t_end, NULL));
  expect_num(t_end, get("T:a:/trajectory:t_end"), "t_end");
  size_t n = t.rows_total;
  cs_trajectory_file_free(&t);

  /* a slice, a slice cut at the end, nothing, past the end */
  assert_int_equal(cs_read_trajectory(fpath("traj.h5"), 2, 3, &t), CS_OK);
  assert_int_equal(t.table.nrows, 3);
  assert_int_equal(t.first_row, 2);
  check_rows("T", &t.table, 2);
  cs_trajectory_file_free(&t);
  assert_int_equal(cs_read_trajectory(fpath("traj.h5"), n - 1, 10, &t), CS_OK);
  assert_int_equal(t.table.nrows, 1);
  check_rows("T", &t.table, n - 1);
  cs_trajectory_file_free(&t);
  assert_int_equal(cs_read_trajectory(fpath("traj.h5"), n, 1, &t), CS_OK);
  assert_int_equal(t.table.nrows, 0);
  assert_int_equal(t.rows_total, n);
  cs_trajectory_file_free(&t);
  assert_int_equal(cs_read_trajectory(fpath("traj.h5"), n + 1, 1, &t), CS_ERR_RANGE);
  assert_non_null(strstr(cs_errmsg(), "traj.h5"));
  assert_null(t.table.data);
}

static void test_sweep(void **state)
{
  (void)state;
  NEED_FILES();
  struct cs_sweep_file s;
  assert_int_equal(cs_read_sweep(fpath("sweep.h5"), 0, &s), CS_OK);
  check_header("S", &s.h, "sweep");
  check_attrs("S", "/sweep", &s.settings);
  expect_text(s.parameter, get("S:a:/sweep:parameter"), "parameter");
  assert_string_equal(s.parameter, "gamma");
  assert_null(s.parameter2);
  assert_string_equal(s.h.status, "complete");
  assert_int_equal(s.npoints, 8);
  check_table("S", &s.grid);
  size_t total_rows = 0;
  for (int p = 0; p < 2; p++) {
    struct cs_sweep_pass *ps = &s.pass[p];
    const char *pn = p ? "backward" : "forward";
    assert_true(ps->present);
    check_table("S", &ps->points);
    assert_int_equal(ps->points.nrows, 8);
    for (size_t i = 0; i < 8; i++) { /* the grid values in the points' parameter column */
      assert_true(cs_result_value(&ps->points, i, "gamma") == cs_result_value(&s.grid, i, "gamma"));
      assert_true(cs_result_value(&ps->points, i, "class") > 0); /* none pending */
    }
    for (size_t c = 0; c < ps->n_class_names; c++)
      expect_text(ps->class_names[c], get("S:sa:/%s/points:class_names:%zu", pn, c), "class");
    assert_true(ps->n_class_names > 3);
    assert_int_equal(ps->n_messages, 8);
    for (size_t i = 0; i < ps->n_messages; i++)
      expect_text(ps->messages[i], get("S:s:/%s/messages:%zu", pn, i), "message");
    check_table("S", &ps->section);
    assert_true(ps->section.nrows > 8);
    for (size_t i = 0; i < ps->section.nrows; i++) {
      expect_num((double)ps->section_point[i], get("S:v:/%s/section/index:%zu:0", pn, i),
                 "section index");
      /* the row's parameter value is its grid point's */
      assert_true(cs_result_value(&ps->section, i, "gamma") ==
                  cs_result_value(&s.grid, ps->section_point[i], "gamma"));
    }
    check_table("S", &ps->final_state);
    check_table("S", &ps->floquet_re);
    check_table("S", &ps->floquet_im);
    /* lyapunov = spectrum: both exponents of every grid point (x, v), NaN
     * where none was computed, with their errors */
    check_table("S", &ps->spectrum);
    check_table("S", &ps->spectrum_error);
    assert_int_equal(ps->spectrum.nrows, 8);
    assert_int_equal(ps->spectrum.ncols, 2);
    assert_int_equal(ps->spectrum_error.ncols, 2);
    for (size_t i = 0; i < 8; i++) {
      double l1 = ps->spectrum.data[i * 2], l = cs_result_value(&ps->points, i, "lyapunov");
      assert_true((isnan(l1) && isnan(l)) || l1 == l); /* the largest is the first */
      assert_true(cs_result_column(&ps->points, "kaplan_yorke") >= 0);
    }
    assert_int_equal(ps->final_state.nrows, 8);
    assert_int_equal(ps->final_state.ncols, 2); /* duffing: x, v */
    assert_int_equal(ps->n_floquet_note, 8);
    for (size_t i = 0; i < ps->n_floquet_note; i++)
      expect_text(ps->floquet_note[i], get("S:s:/%s/floquet/note:%zu", pn, i), "floquet note");
    total_rows += ps->section.nrows;
  }
  assert_true(s.has_bifurcations);
  check_table("S", &s.bifurcations);
  for (size_t k = 0; k < s.n_kind_names; k++)
    expect_text(s.kind_names[k], get("S:sa:/bifurcations:kind_names:%zu", k), "kind name");
  assert_true(s.n_kind_names > 0 && s.n_bif_class_names > 0);
  assert_int_equal(s.equilibria.nrows, 0); /* a forced model: none */
  assert_null(s.equilibria.path);
  cs_sweep_file_free(&s);
  cs_sweep_file_free(&s);
  assert_true(total_rows > 0);

  /* without the sections: the same points, no section rows */
  assert_int_equal(cs_read_sweep(fpath("sweep.h5"), CS_READ_NO_SECTIONS, &s), CS_OK);
  assert_int_equal(s.pass[0].section.nrows, 0);
  assert_null(s.pass[0].section_point);
  check_table("S", &s.pass[0].points);
  cs_sweep_file_free(&s);

  /* integer outputs: section/codes read as the last columns of the section
   * rows, row for row (the two-mass model: vcase 1 ... 5, stick 0 or 1) */
  assert_int_equal(cs_read_sweep(fpath("tmsweep.h5"), 0, &s), CS_OK);
  struct cs_result_table *sec = &s.pass[0].section;
  check_table("K", sec);
  expect_text("vcase", get("K:c:sa:/forward/section/codes:names:0"), "codes column 0");
  assert_int_equal(cs_result_column(sec, "vcase"), (long)sec->ncols - 2);
  assert_int_equal(cs_result_column(sec, "stick"), (long)sec->ncols - 1);
  assert_int_equal(cs_result_column(sec, "A1"), 0);
  assert_int_equal(cs_result_column(sec, "t"), 1);
  assert_true(sec->nrows > 5);
  for (size_t i = 0; i < sec->nrows; i++) {
    double vc = cs_result_value(sec, i, "vcase"), st = cs_result_value(sec, i, "stick");
    assert_true(vc >= 1 && vc <= 5 && vc == floor(vc));
    assert_true(st == 0 || st == 1);
    assert_true(cs_result_value(sec, i, "A1") ==
                cs_result_value(&s.grid, s.pass[0].section_point[i], "A1"));
  }
  cs_sweep_file_free(&s);
}

/* The column of table path called name in h5py's dump, or -1. */
static long dump_column(const char *L, const char *path, const char *name)
{
  for (long j = 0;; j++) {
    const char *n = get("%s:name:%s:%ld", L, path, j);
    if (!n)
      return -1;
    if (strcmp(n, name) == 0)
      return j;
  }
}

/* One point of the sweep: its grid value, final state, end time and class
 * as h5py reads them, for each pass; refusals name the file and what is
 * wrong. */
static void test_sweep_point(void **state)
{
  (void)state;
  NEED_FILES();
  struct cs_sweep_point_file pt;
  for (int p = 0; p < 2; p++)
    for (size_t k = 0; k < 8; k += 3) {
      const char *pn = p ? "backward" : "forward";
      char pts[64];
      snprintf(pts, sizeof pts, "/%s/points", pn);
      assert_int_equal(cs_read_sweep_point(fpath("sweep.h5"), p, k, &pt), CS_OK);
      assert_string_equal(pt.model, "duffing");
      assert_int_equal(pt.npoints, 8);
      assert_int_equal(pt.pass, p);
      assert_int_equal(pt.index, k);
      assert_int_equal(pt.nparam, 1);
      assert_string_equal(pt.param[0], "gamma");
      expect_num(pt.value[0], get("S:v:/sweep/grid:%zu:0", k), "grid value");
      assert_int_equal(pt.n_state, 2);
      for (size_t i = 0; i < 2; i++)
        expect_num(pt.final_state[i], get("S:v:/%s/final_state:%zu:%zu", pn, k, i), "state");
      long ct = dump_column("S", pts, "t_final"), cc = dump_column("S", pts, "class");
      assert_true(ct >= 0 && cc >= 0);
      expect_num(pt.t_final, get("S:v:%s:%zu:%ld", pts, k, ct), "t_final");
      expect_num(pt.cls, get("S:v:%s:%zu:%ld", pts, k, cc), "class");
      assert_true(pt.cls > 0 && isfinite(pt.t_final)); /* computed */
      cs_sweep_point_file_free(&pt);
      cs_sweep_point_file_free(&pt); /* twice is safe */
    }
  const char *p = fpath("sweep.h5");
  assert_int_equal(cs_read_sweep_point(p, 0, 8, &pt), CS_ERR_RANGE);
  assert_non_null(strstr(cs_errmsg(), p));
  assert_non_null(strstr(cs_errmsg(), "index 8 is not a grid index (accepted: 0 ... 7)"));
  assert_null(pt.final_state);
  assert_int_equal(cs_read_sweep_point(fpath("fit.h5"), 0, 0, &pt), CS_ERR_PARSE);
  assert_non_null(strstr(cs_errmsg(), "not sweep"));
  assert_int_equal(cs_read_sweep_point(fpath("none.h5"), 0, 0, &pt), CS_ERR_NOT_FOUND);
}

static void test_fit_eps_orbit_continuation(void **state)
{
  (void)state;
  NEED_FILES();
  struct cs_fit_file f;
  assert_int_equal(cs_read_fit(fpath("fit.h5"), &f), CS_OK);
  check_header("F", &f.h, "friction-fit");
  assert_string_equal(f.law, "I11");
  expect_num(f.b, get("F:a:/:b"), "b");
  expect_num(f.m, get("F:a:/:m"), "m");
  expect_num(f.rms, get("F:a:/:rms"), "rms");
  expect_num(f.max_error, get("F:a:/:max_error"), "max_error");
  expect_num(f.points, get("F:a:/:points"), "points");
  assert_true(f.points == 20);
  check_table("F", &f.curves);
  assert_true(f.curves.nrows > 0);
  cs_fit_file_free(&f);

  struct cs_eps_study_file e;
  assert_int_equal(cs_read_eps_study(fpath("eps.h5"), &e), CS_OK);
  expect_text(e.study, get("E:a:/:study"), "study");
  assert_non_null(e.eps);
  assert_int_equal(e.eps->nrows, 2);
  assert_true(e.eps->data[0] == 0.1 && e.eps->data[1] == 0.01);
  assert_non_null(e.reference);
  assert_non_null(e.norms);
  assert_non_null(e.runs);
  assert_null(e.grid); /* a trajectory study */
  check_table("E", e.reference);
  /* the stick indicator from /reference_codes, the last column again; its
   * difference from /eps/<k>/difference_codes (the missing value
   * -2147483648 read as NaN, none here) */
  assert_int_equal(cs_result_column(e.reference, "stick"), (long)e.reference->ncols - 1);
  for (size_t k = 0; k < 2; k++) {
    const struct cs_result_table *d = cs_eps_study_difference(&e, k);
    assert_non_null(d);
    assert_int_equal(d->nrows, e.reference->nrows);
    check_table("E", d);
    assert_int_equal(d->ncols, e.reference->ncols);
    assert_int_equal(cs_result_column(d, "stick"), (long)d->ncols - 1);
    for (size_t i = 0; i < d->nrows; i++) {
      double x = cs_result_value(d, i, "stick");
      assert_true(x == -1 || x == 0 || x == 1);
    }
  }
  assert_null(cs_eps_study_difference(&e, 2));
  for (size_t i = 0; i < e.runs->nrows; i++)
    assert_true(cs_result_value(e.runs, i, "ok") == 1 && cs_result_value(e.runs, i, "rows") > 0);
  cs_eps_study_file_free(&e);

  /* a study over a 2-D sweep: classes and periods of every grid index (a block of int32
   * read as columns "0" ... "5"), section rows carrying both parameters */
  assert_int_equal(cs_read_eps_study(fpath("epsw.h5"), &e), CS_OK);
  assert_string_equal(e.study, "sweep");
  assert_non_null(e.grid);
  assert_int_equal(e.grid->nrows, 6);
  const struct cs_result_table *cp[] = {e.classes, e.periods};
  for (int t = 0; t < 2; t++) {
    assert_non_null(cp[t]);
    assert_int_equal(cp[t]->nrows, 2); /* the reference and one eps, one pass */
    assert_int_equal(cp[t]->ncols, 3 + 6);
    for (size_t k = 0; k < 6; k++) {
      char name[8];
      snprintf(name, sizeof name, "%zu", k);
      assert_int_equal(cs_result_column(cp[t], name), 3 + (long)k);
      for (size_t i = 0; i < 2; i++) /* every point computed: no missing value */
        assert_true(cs_result_value(cp[t], i, name) >= 0);
    }
  }
  assert_true(cs_result_value(e.summary, 0, "compared") == 6);
  assert_non_null(e.section);
  assert_true(e.section->nrows > 0);
  for (size_t i = 0; i < e.section->nrows; i++) {
    double k = cs_result_value(e.section, i, "index");
    assert_true(k >= 0 && k < 6 && k == floor(k));
    assert_true(cs_result_value(e.section, i, "omega0") ==
                cs_result_value(e.grid, (size_t)k, "omega0"));
    assert_true(cs_result_value(e.section, i, "N") == cs_result_value(e.grid, (size_t)k, "N"));
  }
  assert_int_equal(cs_result_column(e.section, "p"), -1);
  cs_eps_study_file_free(&e);

  struct cs_orbit_file o;
  assert_int_equal(cs_read_orbit(fpath("orbit.h5"), &o), CS_OK);
  /* Van der Pol, mu = 1: period 6.6632868593231 (tests/cli/orbit.sh) */
  assert_true(fabs(cs_result_value(o.orbit, 0, "period") - 6.6632868593231) < 1e-6);
  assert_non_null(o.multipliers);
  assert_int_equal(o.multipliers->nrows, 1); /* two states, one nontrivial multiplier */
  assert_true(cs_result_value(o.multipliers, 0, "k") == 1);
  assert_true(cs_result_value(o.orbit, 0, "stable") == 1);
  assert_true(cs_result_value(o.orbit, 0, "iterations") >= 1);
  assert_non_null(o.monodromy);
  assert_int_equal(o.monodromy->nrows, 2);
  cs_orbit_file_free(&o);
  /* an orbit of the two-mass model: /trajectory with vcase and stick last */
  assert_int_equal(cs_read_orbit(fpath("tmorbit.h5"), &o), CS_OK);
  assert_non_null(o.trajectory);
  check_table("M", o.trajectory);
  assert_int_equal(cs_result_column(o.trajectory, "vcase"), (long)o.trajectory->ncols - 2);
  assert_int_equal(cs_result_column(o.trajectory, "stick"), (long)o.trajectory->ncols - 1);
  assert_null(cs_result_table_at(&o.all, "/trajectory_codes")); /* merged, not listed */
  cs_orbit_file_free(&o);

  struct cs_continuation_file c;
  assert_int_equal(cs_read_continuation(fpath("cont.h5"), &c), CS_OK);
  assert_true(c.branch->nrows > 3);
  check_table("C", c.branch);
  assert_non_null(c.special); /* the Hopf point it started from, at least */
  for (size_t i = 0; i < c.special->nrows; i++)
    assert_true(cs_result_value(c.special, i, "row") < (double)c.branch->nrows);
  expect_text(cs_result_attr_text(&c.branch->attrs, "parameter"), get("C:a:/branch:parameter"),
              "branch parameter");
  cs_continuation_file_free(&c);

  /* a reader of another kind refuses, naming the file */
  assert_int_equal(cs_read_sweep(fpath("fit.h5"), 0, &(struct cs_sweep_file){0}), CS_ERR_PARSE);
  assert_non_null(strstr(cs_errmsg(), "fit.h5"));
  assert_non_null(strstr(cs_errmsg(), "friction-fit"));
}

/* The number of points finished (class not pending) of a pass. */
static size_t done_points(const struct cs_sweep_pass *ps)
{
  size_t n = 0;
  for (size_t i = 0; i < ps->points.nrows; i++)
    n += cs_result_value(&ps->points, i, "class") > 0;
  return n;
}

/* One read of a sweep being written: the checks every moment must pass.
 * Returns the points finished, or -1 when the file cannot be read yet (only
 * before the writer switched to SWMR). */
static long read_live(const char *p, size_t last)
{
  struct cs_sweep_file s;
  if (access(p, R_OK) != 0 || cs_read_sweep(p, 0, &s) != CS_OK)
    return -1;
  assert_string_equal(s.h.status, "running");
  assert_false(s.has_bifurcations);
  assert_int_equal(s.npoints, 400);
  size_t done = done_points(&s.pass[0]);
  assert_true(done >= last);
  for (size_t i = 0; i < s.pass[0].section.nrows; i++) { /* each row at its grid point */
    size_t k = s.pass[0].section_point[i];
    assert_true(k < 400);
    assert_true(cs_result_value(&s.pass[0].section, i, "A1") == cs_result_value(&s.grid, k, "A1"));
    double vc = cs_result_value(&s.pass[0].section, i, "vcase");
    assert_true(vc >= 1 && vc <= 5); /* never a row without its codes */
  }
  cs_sweep_file_free(&s);
  return (long)done;
}

/* A sweep being written (SWMR, "<path>.partial") reads at any moment, with
 * its section rows and their integer outputs (section/codes, written after
 * the values: the rows both hold), and again after it was interrupted
 * (SIGINT). The test build's hook (CONTENSOU_TEST_HOOKS, src/cli/cli_sweep.c)
 * holds the sweep once 3 points are on disk: the file is read while it runs
 * up to there, then five times at the pause, whatever the machine's speed,
 * and the signal comes while it is held, before it could end. */
static void test_partial_sweep(void **state)
{
  (void)state;
  NEED_FILES();
  setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1); /* the writer holds the file */
  assert_int_equal(sh("cd %s && { CONTENSOU_TEST_PAUSE_AT=3 CONTENSOU_TEST_PAUSE_FILE=live.held "
                      "%s sweep twomass.ini --set sweep.points=400 --threads 1 -o live.h5 "
                      ">/dev/null 2>&1 & echo $! >live.pid; }",
                      dir, CONTENSOU_TESTHOOKS_EXE),
                   0);
  const char *p = fpath("live.h5.partial"), *held = fpath("live.held");
  size_t last = 0;
  long done;
  /* while it runs: as often as the file can be read (no count required) */
  while (access(held, R_OK) != 0) {
    assert_int_equal(sh("cd %s && kill -0 $(cat live.pid) 2>/dev/null", dir), 0); /* still there */
    if ((done = read_live(p, last)) >= 0)
      last = (size_t)done;
    usleep(20000);
  }
  /* held with 3 points on disk */
  for (int reads = 0; reads < 5; reads++) {
    done = read_live(p, last);
    assert_true(done >= 3);
    last = (size_t)done;
  }
  assert_int_equal(sh("cd %s && kill -INT $(cat live.pid) && while kill -0 $(cat live.pid) "
                      "2>/dev/null; do sleep 0.02; done",
                      dir),
                   0);
  struct cs_sweep_file s;
  assert_int_equal(cs_read_sweep(p, 0, &s), CS_OK);
  assert_string_equal(s.h.status, "interrupted");
  /* how many more points the workers finished while the writer was held
   * depends on the machine's speed (a fast one may finish all 400): only
   * that none was lost, and the status, which the hold guarantees */
  assert_true(done_points(&s.pass[0]) >= last);
  cs_sweep_file_free(&s);
}

/* A damaged copy: name, how (dump.py --damage KIND, or "truncate:FRACTION"). */
static const char *damaged(const char *from, const char *name, const char *how)
{
  const char *to = fpath(name);
  assert_int_equal(sh("cp %s %s", fpath(from), to), 0);
  if (strncmp(how, "truncate:", 9) == 0) {
    FILE *fp = fopen(to, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fclose(fp);
    assert_int_equal(truncate(to, (off_t)(size * strtod(how + 9, NULL))), 0);
  } else {
    assert_int_equal(sh(PY " " DUMP " --damage %s %s", how, to), 0);
  }
  return to;
}

static void expect_refusal(enum cs_status st, enum cs_status want, const char *file,
                           const char *object)
{
  const char *msg = cs_errmsg();
  if (st != want)
    fail_msg("%s: %s, expected %s (%s)", file, cs_strerror(st), cs_strerror(want), msg);
  if (!strstr(msg, file) || (object && !strstr(msg, object)))
    fail_msg("the message '%s' does not name %s and %s", msg, file, object ? object : "");
}

static void test_refusals(void **state)
{
  (void)state;
  NEED_FILES();
  struct cs_sweep_file s;
  struct cs_trajectory_file t;
  struct cs_result_file f;
  const char *p;

  p = damaged("sweep.h5", "grid3.h5", "grid-rank3");
  expect_refusal(cs_read_sweep(p, 0, &s), CS_ERR_PARSE, p, "/sweep/grid");
  assert_null(s.grid.data); /* zeroed on failure */
  p = damaged("sweep.h5", "gridtext.h5", "grid-text");
  expect_refusal(cs_read_sweep(p, 0, &s), CS_ERR_PARSE, p, "/sweep/grid");
  p = damaged("sweep.h5", "index.h5", "section-index");
  expect_refusal(cs_read_sweep(p, 0, &s), CS_ERR_PARSE, p, "/forward/section/index");
  /* without the sections the bad index is not read */
  assert_int_equal(cs_read_sweep(p, CS_READ_NO_SECTIONS, &s), CS_OK);
  cs_sweep_file_free(&s);
  p = damaged("sweep.h5", "rows.h5", "class-rows");
  expect_refusal(cs_read_sweep(p, 0, &s), CS_ERR_PARSE, p, "/forward/points");
  p = damaged("sweep.h5", "huge.h5", "points-huge");
  assert_int_equal(cs_read_sweep(p, 0, &s), CS_OK); /* a count, never a size */
  assert_int_equal(s.npoints, 8);
  cs_sweep_file_free(&s);
  p = damaged("traj.h5", "notraj.h5", "no-trajectory");
  expect_refusal(cs_read_trajectory(p, 0, SIZE_MAX, &t), CS_ERR_PARSE, p, "/trajectory");
  /* integer outputs of fewer rows than the table: refused in a complete
   * file; cut to the rows both hold in one a killed run left (running) */
  struct cs_trajectory_file whole;
  assert_int_equal(cs_read_trajectory(fpath("traj.h5"), 0, SIZE_MAX, &whole), CS_OK);
  p = damaged("traj.h5", "codes.h5", "codes-short");
  expect_refusal(cs_read_trajectory(p, 0, SIZE_MAX, &t), CS_ERR_PARSE, p, "/trajectory_codes");
  expect_refusal(cs_read_result(p, &f), CS_ERR_PARSE, p, "/trajectory_codes");
  p = damaged("traj.h5", "codesrun.h5", "codes-short-running");
  assert_int_equal(cs_read_trajectory(p, 0, SIZE_MAX, &t), CS_OK);
  assert_int_equal(t.rows_total, whole.rows_total - 3);
  assert_int_equal(t.table.nrows, whole.rows_total - 3);
  assert_int_equal(t.table.ncols, whole.table.ncols);
  assert_memory_equal(t.table.data, whole.table.data,
                      t.table.nrows * t.table.ncols * sizeof(double));
  cs_trajectory_file_free(&t);
  assert_int_equal(cs_read_result(p, &f), CS_OK);
  assert_int_equal(cs_result_table_at(&f, "/trajectory")->nrows, whole.rows_total - 3);
  cs_result_file_free(&f);
  cs_trajectory_file_free(&whole);
  /* tables stored by columns: a missing_value that is not a number, a block
   * whose names do not match its columns */
  struct cs_eps_study_file e;
  p = damaged("epsw.h5", "misstext.h5", "missing-text");
  expect_refusal(cs_read_eps_study(p, &e), CS_ERR_PARSE, p, "/sweep_study/classes/class");
  assert_null(e.classes);
  p = damaged("epsw.h5", "blocknames.h5", "block-names");
  expect_refusal(cs_read_eps_study(p, &e), CS_ERR_HDF5, p, "/sweep_study/periods/period");
  p = damaged("traj.h5", "nokind.h5", "no-kind");
  expect_refusal(cs_read_result(p, &f), CS_ERR_PARSE, p, "kind");
  expect_refusal(cs_read_header(p, &f.h), CS_ERR_PARSE, p, "kind");

  /* truncated: the superblock's end of file is past the file's */
  static const char *const cut[] = {"truncate:0.5", "truncate:0.9", "truncate:0.02"};
  for (size_t i = 0; i < 3; i++) {
    char name[32];
    snprintf(name, sizeof name, "cut%zu.h5", i);
    p = damaged("sweep.h5", name, cut[i]);
    enum cs_status st = cs_read_sweep(p, 0, &s);
    if (st != CS_ERR_HDF5)
      fail_msg("%s: %s (%s), expected an HDF5 error", cut[i], cs_strerror(st), cs_errmsg());
    assert_non_null(strstr(cs_errmsg(), p));
    assert_int_equal(cs_read_result(p, &f), CS_ERR_HDF5);
  }
  /* no file; not an HDF5 file */
  expect_refusal(cs_read_sweep(fpath("none.h5"), 0, &s), CS_ERR_NOT_FOUND, fpath("none.h5"), NULL);
  p = fpath("duffing.ini");
  enum cs_result_kind kind;
  expect_refusal(cs_result_kind(p, &kind), CS_ERR_HDF5, p, NULL);
}

/* Reads the file at p with the reader of its kind (index k of files[]). */
static enum cs_status read_as_kind(size_t k, const char *p)
{
  enum cs_status st = CS_ERR_ARG;
  if (strcmp(kinds[k], "trajectory") == 0) {
    struct cs_trajectory_file t;
    st = cs_read_trajectory(p, 0, SIZE_MAX, &t);
    cs_trajectory_file_free(&t);
  } else if (strcmp(kinds[k], "sweep") == 0) {
    struct cs_sweep_file s;
    st = cs_read_sweep(p, 0, &s);
    cs_sweep_file_free(&s);
  } else if (strcmp(kinds[k], "eps-study") == 0) {
    struct cs_eps_study_file e;
    st = cs_read_eps_study(p, &e);
    cs_eps_study_file_free(&e);
  } else if (strcmp(kinds[k], "friction-fit") == 0) {
    struct cs_fit_file f;
    st = cs_read_fit(p, &f);
    cs_fit_file_free(&f);
  } else if (strcmp(kinds[k], "orbit") == 0) {
    struct cs_orbit_file o;
    st = cs_read_orbit(p, &o);
    cs_orbit_file_free(&o);
  } else if (strcmp(kinds[k], "continuation") == 0) {
    struct cs_continuation_file c;
    st = cs_read_continuation(p, &c);
    cs_continuation_file_free(&c);
  }
  return st;
}

/* Layout versions: every kind's reader, and the reader of any file, refuse
 * a layout newer than the kind's (or below 1) with a message naming the
 * version found and the versions read; they read every earlier one (a file
 * without the attribute is layout 1). */
static void test_layouts(void **state)
{
  (void)state;
  NEED_FILES();
  for (size_t k = 0; k < NFILES; k++) {
    long last = strcmp(kinds[k], "sweep") == 0          ? CS_SWEEP_H5_LAYOUT
                : strcmp(kinds[k], "trajectory") == 0   ? CS_TRAJECTORY_H5_LAYOUT
                : strcmp(kinds[k], "eps-study") == 0    ? CS_EPS_H5_LAYOUT
                : strcmp(kinds[k], "friction-fit") == 0 ? CS_FIT_H5_LAYOUT
                : strcmp(kinds[k], "orbit") == 0        ? CS_ORBIT_H5_LAYOUT
                                                        : CS_CONTINUATION_H5_LAYOUT;
    struct cs_result_file f;
    char name[64], how[32], want[160];
    /* what the writer writes is its kind's layout */
    assert_int_equal(cs_read_result(fpath(files[k]), &f), CS_OK);
    double v = 0;
    assert_true(cs_result_attr_number(&f.h.root, "layout_version", &v, NULL));
    assert_int_equal((long)v, last);
    cs_result_file_free(&f);
    /* newer, and not a layout at all */
    const long bad[] = {last + 1, 0};
    for (size_t i = 0; i < 2; i++) {
      snprintf(name, sizeof name, "layout%ld_%s", bad[i], files[k]);
      snprintf(how, sizeof how, "layout:%ld", bad[i]);
      const char *p = damaged(files[k], name, how);
      snprintf(want, sizeof want,
               "%s: %s layout version %ld is %s this contensou reads (1\u2013%ld)", p, kinds[k],
               bad[i], i == 0 ? "newer than" : "not one", last);
      enum cs_status st = read_as_kind(k, p);
      assert_int_equal(st, CS_ERR_UNSUPPORTED);
      assert_string_equal(cs_errmsg(), want);
      assert_int_equal(cs_read_result(p, &f), CS_ERR_UNSUPPORTED);
      assert_string_equal(cs_errmsg(), want);
      assert_null(f.tables); /* zeroed on failure */
      /* the header alone reads in any layout (contensou info names it) */
      assert_int_equal(cs_read_header(p, &f.h), CS_OK);
      cs_result_header_free(&f.h);
    }
    /* every earlier layout, and a file without the attribute (layout 1) */
    for (long l = 1; l < last; l++) {
      snprintf(name, sizeof name, "layout%ld_%s", l, files[k]);
      snprintf(how, sizeof how, "layout:%ld", l);
      const char *p = damaged(files[k], name, how);
      if (read_as_kind(k, p) != CS_OK)
        fail_msg("%s: %s", p, cs_errmsg());
    }
    snprintf(name, sizeof name, "nolayout_%s", files[k]);
    const char *p = damaged(files[k], name, "layout-none");
    if (read_as_kind(k, p) != CS_OK || cs_read_result(p, &f) != CS_OK)
      fail_msg("%s: %s", p, cs_errmsg());
    cs_result_file_free(&f);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole_files),
      cmocka_unit_test(test_trajectory),
      cmocka_unit_test(test_sweep),
      cmocka_unit_test(test_sweep_point),
      cmocka_unit_test(test_fit_eps_orbit_continuation),
      cmocka_unit_test(test_partial_sweep),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_layouts),
  };
  /* every test needs h5py: without it, skipped for CTest (SKIP_RETURN_CODE) */
  if (access(PY, X_OK) != 0 || sh(PY " -c 'import h5py' 2>/dev/null") != 0) {
    printf("skip - %s with h5py is needed (Debian package python3-h5py)\n", PY);
    return 77;
  }
  return cmocka_run_group_tests(tests, setup, teardown);
}
