/* SPDX-License-Identifier: MIT */
/* Timing trace of a sweep, for the scaling benchmarks only: compiled in with
 * -DCS_SWEEP_TRACE (tests/bench/bench_trace.sh builds it so), and then, when
 * the environment variable CS_SWEEP_TRACE names a file prefix, every process
 * appends one line per event to PREFIX.<pid>: the event, the wall clock
 * (CLOCK_REALTIME, s, so that a shell's `date +%s.%N` compares), the CPU
 * time of the calling thread and of the process (s), and up to four
 * numbers. Without the macro every call is empty. */
#ifndef CS_SWEEP_TRACE_PRIVATE_H
#define CS_SWEEP_TRACE_PRIVATE_H

#ifdef CS_SWEEP_TRACE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static inline double cs_trace_clock(clockid_t c)
{
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Thread CPU time now (s): what a unit's own work cost, whatever the load. */
static inline double cs_trace_thread_cpu(void)
{
  return cs_trace_clock(CLOCK_THREAD_CPUTIME_ID);
}

/* Wall clock now (s), CLOCK_MONOTONIC: for durations. */
static inline double cs_trace_wall(void)
{
  return cs_trace_clock(CLOCK_MONOTONIC);
}

static inline void cs_trace(const char *ev, int tid, double a, double b, double c, double d)
{
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static FILE *f;
  static int tried;
  double wall = cs_trace_clock(CLOCK_REALTIME), tc = cs_trace_clock(CLOCK_THREAD_CPUTIME_ID),
         pc = cs_trace_clock(CLOCK_PROCESS_CPUTIME_ID);
  pthread_mutex_lock(&lock);
  if (!tried) {
    tried = 1;
    const char *pre = getenv("CS_SWEEP_TRACE");
    if (pre && *pre) {
      char path[4096];
      snprintf(path, sizeof path, "%s.%ld", pre, (long)getpid());
      f = fopen(path, "a");
    }
  }
  if (f) {
    fprintf(f, "%s %d %.6f %.6f %.6f %.17g %.17g %.17g %.17g\n", ev, tid, wall, tc, pc, a, b, c, d);
    fflush(f);
  }
  pthread_mutex_unlock(&lock);
}
#else
static inline double cs_trace_thread_cpu(void)
{
  return 0;
}
static inline double cs_trace_wall(void)
{
  return 0;
}
static inline void cs_trace(const char *ev, int tid, double a, double b, double c, double d)
{
  (void)ev, (void)tid, (void)a, (void)b, (void)c, (void)d;
}
#endif

#endif
