/* SPDX-License-Identifier: MIT */
/* A result file read back through the public readers and printed as a
 * table, tab-separated.
 *
 *   read_table FILE.h5
 *
 * A sweep file (contensou sweep): one line per grid point of each pass in
 * the file: the pass, the grid index, the swept parameter(s), the class by
 * name and the period (section points per cycle; 0 when not periodic).
 * Any other kind: every table the file holds (read whole with
 * cs_read_result), one line each: its path, rows, columns and the columns'
 * names with their units. Every value is found by its name, never by its
 * position in the file. Exit 0, or 1 with the reader's message on stderr. */
#include <contensou/contensou.h>
#include <stdio.h>

static int sweep_table(const char *path)
{
  struct cs_sweep_file s;
  /* the section points (the bulk of a sweep) are not needed here */
  if (cs_read_sweep(path, CS_READ_NO_SECTIONS, &s) != CS_OK) {
    fprintf(stderr, "read_table: %s\n", cs_errmsg());
    return 1;
  }
  printf("kind\t%s\nstatus\t%s\npoints\t%zu\n", s.h.kind_name, s.h.status ? s.h.status : "",
         s.npoints);
  printf("pass\tindex\t%s", s.parameter);
  if (s.parameter2)
    printf("\t%s", s.parameter2);
  printf("\tclass\tperiod\n");
  static const char *const pass_name[2] = {"forward", "backward"};
  for (int p = 0; p < 2; p++) {
    const struct cs_sweep_pass *ps = &s.pass[p];
    if (!ps->present)
      continue;
    for (size_t i = 0; i < s.npoints; i++) {
      double cls = cs_result_value(&ps->points, i, "class");
      size_t code = cls >= 0 ? (size_t)cls : 0;
      const char *name = code < ps->n_class_names ? ps->class_names[code] : "?";
      printf("%s\t%zu\t%.17g", pass_name[p], i, cs_result_value(&s.grid, i, s.parameter));
      if (s.parameter2)
        printf("\t%.17g", cs_result_value(&s.grid, i, s.parameter2));
      printf("\t%s\t%g\n", name, cs_result_value(&ps->points, i, "period"));
    }
  }
  cs_sweep_file_free(&s);
  return 0;
}

static int any_table(const char *path)
{
  struct cs_result_file f;
  if (cs_read_result(path, &f) != CS_OK) {
    fprintf(stderr, "read_table: %s\n", cs_errmsg());
    return 1;
  }
  printf("kind\t%s\nstatus\t%s\n", f.h.kind_name, f.h.status ? f.h.status : "");
  printf("table\trows\tcolumns\tnames\n");
  for (size_t i = 0; i < f.ntables; i++) {
    const struct cs_result_table *t = &f.tables[i];
    printf("%s\t%zu\t%zu\t", t->path, t->nrows, t->ncols);
    for (size_t j = 0; j < t->ncols; j++)
      printf("%s%s [%s]", j ? ", " : "", t->names[j], t->units[j]);
    printf("\n");
  }
  cs_result_file_free(&f);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: read_table FILE.h5\n");
    return 2;
  }
  enum cs_result_kind kind;
  if (cs_result_kind(argv[1], &kind) != CS_OK) {
    fprintf(stderr, "read_table: %s\n", cs_errmsg());
    return 1;
  }
  return kind == CS_RESULT_SWEEP ? sweep_table(argv[1]) : any_table(argv[1]);
}
