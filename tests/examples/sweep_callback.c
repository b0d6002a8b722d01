/* SPDX-License-Identifier: MIT */
/* A sweep from a parameter file into a result file, with a callback of
 * our own that sees every point as it finishes: it writes one line per
 * point into a text file.
 *
 *   example_sweep_callback PARAMS.ini OUT.h5 POINTS.txt [section.key=value]...
 *
 * The overrides are applied to the parameter file as `contensou sweep --set`
 * does (e.g. sweep.points=12 for a shorter sweep). POINTS.txt gets, per
 * point, in the order they finish:
 *   <pass> <grid index> <parameter value> <class> <period> <stick fraction>
 * and the program prints "points = N" (the lines written) and "output = OUT.h5". */
#include <contensou/contensou.h>

#include <stdio.h>

struct table {
  FILE *fp;
  size_t lines;
};

/* Called once per finished point, from one thread, after the point is in
 * the result file; nonzero stops the sweep. */
static int write_point(void *ctx, const struct cs_sweep_point *pt)
{
  struct table *t = ctx;
  fprintf(t->fp, "%s %zu %.17g %s %d %.17g\n", pt->pass ? "backward" : "forward", pt->index, pt->p1,
          cs_class_name(pt->res->cls), pt->res->period, pt->res->stick_fraction);
  if (ferror(t->fp))
    return 1;
  t->lines++;
  return 0;
}

int main(int argc, char **argv)
{
  if (argc < 4) {
    fprintf(stderr, "usage: %s PARAMS.ini OUT.h5 POINTS.txt [section.key=value]...\n", argv[0]);
    return 2;
  }
  struct table t = {fopen(argv[3], "w"), 0};
  if (!t.fp) {
    perror(argv[3]);
    return 1;
  }
  /* one process here (under mpirun: every process of the launch) */
  struct cs_dist d;
  enum cs_status st = cs_dist_init(&d);
  if (st != CS_OK) {
    fprintf(stderr, "cs_dist_init: %s\n", cs_errmsg());
    return 1;
  }
  struct cs_sweep_job_opts opts = {.params_file = argv[1],
                                   .sets = (const char *const *)argv + 4,
                                   .n_set = (size_t)(argc - 4),
                                   .argc = argc,
                                   .argv = argv};
  struct cs_sweep_job job;
  st = cs_sweep_job_create(&d, argv[2], &opts, &job);
  struct cs_sweep_outcome out = {0};
  if (st == CS_OK) {
    st = cs_sweep_job_run(&d, &job, write_point, &t, NULL, &out);
    /* the file is complete (OUT.h5) only after finish; a failed run keeps
     * OUT.h5.partial, which cs_sweep_job_resume continues */
    enum cs_status fst = cs_sweep_job_finish(&job, st == CS_OK ? &out : NULL);
    if (st == CS_OK)
      st = fst;
  }
  if (st != CS_OK)
    fprintf(stderr, "sweep: %s\n", cs_errmsg());
  else if (out.interrupted)
    st = CS_ERR_INTERRUPTED, fprintf(stderr, "sweep: stopped early\n");
  if (fclose(t.fp) != 0 && st == CS_OK) {
    perror(argv[3]);
    st = CS_ERR_IO;
  }
  if (st == CS_OK && d.rank == 0)
    printf("points = %zu\noutput = %s\n", t.lines, job.path);
  cs_sweep_outcome_free(&out);
  cs_sweep_job_free(&job);
  cs_dist_finalize(&d);
  return st == CS_OK ? 0 : 1;
}
