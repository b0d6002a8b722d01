/* SPDX-License-Identifier: MIT */
/* A sweep from a parameter file into a result file, with a callback of
 * our own that sees every point as it finishes: it writes one line per
 * point into a text file. With --stop-after K the callback stops the sweep
 * after K points (as a program would on a time limit): the result file is
 * then partial, and the program resumes it (cs_sweep_job_resume), which
 * computes only the points still missing.
 *
 *   example_sweep_callback [--stop-after K] PARAMS.ini OUT.h5 POINTS.txt
 *                          [section.key=value]...
 *
 * The overrides are applied to the parameter file as `contensou sweep --set`
 * does (e.g. sweep.points=12 for a shorter sweep). POINTS.txt gets, per
 * point, in the order they finish:
 *   <pass> <grid index> <parameter value> <class> <period> <stick fraction>
 * and the program prints "points = N" (the lines written), with
 * --stop-after also "stopped_after = K" and "resumed_points = K" (the points
 * the resume found done), and "output = OUT.h5". */
#include <contensou/contensou.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
  FILE *fp;
  size_t lines;
  size_t stop_after; /* 0: never stop */
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
  return t->stop_after && t->lines >= t->stop_after;
}

/* Runs the job with the callback and ends its file: complete, or partial
 * when the run stopped early (out->interrupted). */
static enum cs_status run(struct cs_dist *d, struct cs_sweep_job *job, struct table *t,
                          struct cs_sweep_outcome *out)
{
  enum cs_status st = cs_sweep_job_run(d, job, write_point, t, NULL, out);
  enum cs_status fst = cs_sweep_job_finish(job, st == CS_OK ? out : NULL);
  return st != CS_OK ? st : fst;
}

int main(int argc, char **argv)
{
  struct table t = {NULL, 0, 0};
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "--stop-after") == 0)
    t.stop_after = strtoul(argv[2], NULL, 10), first = 3;
  if (argc < first + 3) {
    fprintf(stderr,
            "usage: %s [--stop-after K] PARAMS.ini OUT.h5 POINTS.txt [section.key=value]...\n",
            argv[0]);
    return 2;
  }
  const char *params = argv[first], *path = argv[first + 1], *points = argv[first + 2];
  if (!(t.fp = fopen(points, "w"))) {
    perror(points);
    return 1;
  }
  /* one process here (under mpirun: every process of the launch) */
  struct cs_dist d;
  enum cs_status st = cs_dist_init(&d);
  if (st != CS_OK) {
    fprintf(stderr, "cs_dist_init: %s\n", cs_errmsg());
    return 1;
  }
  struct cs_sweep_job_opts opts = {.params_file = params,
                                   .sets = (const char *const *)argv + first + 3,
                                   .n_set = (size_t)(argc - first - 3),
                                   .argc = argc,
                                   .argv = argv};
  struct cs_sweep_job job;
  struct cs_sweep_outcome out = {0};
  st = cs_sweep_job_create(&d, path, &opts, &job);
  if (st == CS_OK)
    st = run(&d, &job, &t, &out);
  if (st == CS_OK && out.interrupted && out.stop == CS_SWEEP_SINK && t.stop_after) {
    /* the callback stopped it: OUT.h5.partial holds the points so far */
    printf("stopped_after = %zu\n", t.lines);
    t.stop_after = 0;
    cs_sweep_outcome_free(&out);
    cs_sweep_job_free(&job);
    /* the file holds the parameters and overrides it was started with */
    st = cs_sweep_job_resume(&d, path, NULL, &job);
    if (st == CS_OK) {
      st = run(&d, &job, &t, &out);
      printf("resumed_points = %zu\n", out.prior);
    }
  }
  if (st != CS_OK)
    fprintf(stderr, "sweep: %s\n", cs_errmsg());
  else if (out.interrupted)
    st = CS_ERR_INTERRUPTED, fprintf(stderr, "sweep: stopped early\n");
  if (fclose(t.fp) != 0 && st == CS_OK) {
    perror(points);
    st = CS_ERR_IO;
  }
  if (st == CS_OK && d.rank == 0)
    printf("points = %zu\noutput = %s\n", t.lines, job.path);
  cs_sweep_outcome_free(&out);
  cs_sweep_job_free(&job);
  cs_dist_finalize(&d);
  return st == CS_OK ? 0 : 1;
}
