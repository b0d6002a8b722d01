/* SPDX-License-Identifier: MIT */
/* A branch of periodic orbits from a program, in one call:
 *
 *   example_orbit_branch FILE.ini [OUT.h5]
 *
 * runs the continuation that `contensou continue FILE.ini` runs
 * (cs_continue_run: [continuation] says the parameter, its range and the
 * start: a state, a Hopf point, ...), optionally writes the same
 * continuation file, and prints "name = value" lines:
 *   hopf = P           the Hopf point the cycles started from (start = hopf)
 *   <kind> = P         every special point of the branch (fold,
 *                      period-doubling, ...), P the parameter's value
 *   end = P (why)      where and why the branch ended
 *   points = N
 *   point = P T Y1 Y2 ... U   one line per branch point: the parameter, the
 *                      period, the orbit's point on the section (the states),
 *                      the number of unstable multipliers
 * Exit status 0, 1 when no branch is found, 2 for a bad parameter file. */
#include <stdio.h>

#include <contensou/contensou.h>

int main(int argc, char **argv)
{
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s FILE.ini [OUT.h5]\n", argv[0]);
    return 2;
  }
  struct cs_config cfg;
  if (cs_config_load(argv[1], NULL, 0, &cfg) != CS_OK) {
    fprintf(stderr, "%s\n", cs_errmsg());
    return 2;
  }
  struct cs_continue_run_opts opts = {.path = argc == 3 ? argv[2] : NULL};
  struct cs_continue_run_result r;
  enum cs_status st = cs_continue_run(&cfg, &opts, &r);
  if (st != CS_OK) {
    int searched = r.searched; /* no branch (1), or a parameter file it cannot use (2) */
    fprintf(stderr, "%s\n", cs_errmsg());
    cs_continue_run_free(&r);
    cs_config_free(&cfg);
    return searched ? 1 : 2;
  }
  const struct cs_branch *b = &r.branch;
  if (r.hopf)
    printf("hopf = %.10g\n", r.hopf->pt.p);
  for (size_t i = 0; i < b->n_special; i++) {
    const struct cs_special *s = &b->special[i];
    if (s->kind == CS_SPECIAL_END)
      printf("end = %.10g (%s)\n", s->pt.p, s->note);
    else
      printf("%s = %.10g\n", cs_special_name(s->kind), s->pt.p);
  }
  printf("points = %zu\n", b->n_points);
  for (size_t k = 0; k < b->n_points; k++) {
    const struct cs_branch_point *q = &b->points[k];
    printf("point = %.15g %.15g", q->p, q->period);
    for (size_t i = 0; i < b->n; i++)
      printf(" %.15g", q->y[i]);
    printf(" %d\n", q->n_unstable);
  }
  cs_continue_run_free(&r);
  cs_config_free(&cfg);
  return 0;
}
