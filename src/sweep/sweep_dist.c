/* SPDX-License-Identifier: MIT */
/* MPI transport of a sweep (contract in sweep_dist.h). */
#define _POSIX_C_SOURCE 200809L /* nanosleep, strdup */

#include "core/error_private.h"
#include "sweep/sweep_dist.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef CONTENSOU_HAVE_MPI
#include <mpi.h>
#include <omp.h>
#include <pthread.h>

/* Message tags. A reply goes to the thread that asked: tag TAG_REPLY + its
 * slot (its OpenMP thread number). */
enum { TAG_REQ = 1, TAG_RES = 2, TAG_BYE = 3, TAG_STOP = 4, TAG_REPLY = 100 };

/* A reply: the code (an int), then the unit at an offset that keeps it
 * aligned for the sweep's struct. */
#define REPLY_HDR 16

struct req_msg {
  int slot;       /* the asking thread */
  long unit_size; /* bytes of a unit */
};

struct state {
  MPI_Comm comm;
  pthread_mutex_t mpi; /* every MPI call of this process, one at a time */
  /* coordinator */
  const struct cs_sweep_server *srv;
  pthread_t thread;
  int serving, quit, byes;
  /* worker */
  int stop_seen;
};

static void nap(long us)
{
  struct timespec ts = {0, us * 1000};
  nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ worker side */

static int w_request(void *ctx, void *unit, size_t size)
{
  struct state *s = ctx;
  int slot = omp_in_parallel() ? omp_get_thread_num() : 0;
  size_t n = REPLY_HDR + size;
  char *buf = malloc(n);
  if (!buf)
    return -1;
  struct req_msg q = {slot, (long)size};
  MPI_Request rq;
  pthread_mutex_lock(&s->mpi);
  MPI_Irecv(buf, (int)n, MPI_BYTE, 0, TAG_REPLY + slot, s->comm, &rq);
  MPI_Send(&q, (int)sizeof q, MPI_BYTE, 0, TAG_REQ, s->comm);
  pthread_mutex_unlock(&s->mpi);
  for (long wait = 20;;) {
    int done = 0;
    pthread_mutex_lock(&s->mpi);
    MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
    pthread_mutex_unlock(&s->mpi);
    if (done)
      break;
    nap(wait);
    wait = wait < 2000 ? 2 * wait : 2000;
  }
  int code;
  memcpy(&code, buf, sizeof code);
  if (code == 1)
    memcpy(unit, buf + REPLY_HDR, size);
  free(buf);
  return code;
}

static int w_send(void *ctx, const void *buf, size_t len)
{
  struct state *s = ctx;
  if (len > (size_t)0x7fffffff)
    return -1;
  pthread_mutex_lock(&s->mpi);
  int rc = MPI_Send(buf, (int)len, MPI_BYTE, 0, TAG_RES, s->comm);
  pthread_mutex_unlock(&s->mpi);
  return rc == MPI_SUCCESS ? 0 : -1;
}

static int w_stopped(void *ctx)
{
  struct state *s = ctx;
  if (s->stop_seen)
    return 1;
  int flag = 0;
  pthread_mutex_lock(&s->mpi);
  MPI_Iprobe(0, TAG_STOP, s->comm, &flag, MPI_STATUS_IGNORE);
  if (flag) {
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, s->comm, MPI_STATUS_IGNORE);
    s->stop_seen = 1;
  }
  pthread_mutex_unlock(&s->mpi);
  return s->stop_seen;
}

static void w_done(void *ctx)
{
  struct state *s = ctx;
  pthread_mutex_lock(&s->mpi);
  MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BYE, s->comm);
  pthread_mutex_unlock(&s->mpi);
}

/* ------------------------------------------------------- coordinator side */

/* Receives one message if there is one: 1 and its tag, source, buffer. */
static int poll_one(struct state *s, int *tag, int *source, void **buf, int *len)
{
  int flag = 0;
  MPI_Status st;
  pthread_mutex_lock(&s->mpi);
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, s->comm, &flag, &st);
  if (flag) {
    MPI_Get_count(&st, MPI_BYTE, len);
    *buf = malloc(*len > 0 ? (size_t)*len : 1);
    MPI_Recv(*buf, *len, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, s->comm, MPI_STATUS_IGNORE);
    *tag = st.MPI_TAG, *source = st.MPI_SOURCE;
  }
  pthread_mutex_unlock(&s->mpi);
  return flag;
}

static void handle(struct state *s, int tag, int source, void *buf, int len)
{
  if (tag == TAG_RES) {
    s->srv->result(s->srv->ctx, buf, (size_t)len); /* takes buf */
    return;
  }
  if (tag == TAG_REQ && len == (int)sizeof(struct req_msg) && buf) {
    struct req_msg q;
    memcpy(&q, buf, sizeof q);
    size_t n = REPLY_HDR + (size_t)q.unit_size;
    char *reply = calloc(1, n); /* malloc'ed: aligned for any type, and so is + REPLY_HDR */
    int code = -1;
    if (reply && q.unit_size > 0)
      code = s->srv->next_unit(s->srv->ctx, reply + REPLY_HDR, (size_t)q.unit_size);
    if (reply) {
      memcpy(reply, &code, sizeof code);
      pthread_mutex_lock(&s->mpi);
      MPI_Send(reply, (int)n, MPI_BYTE, source, TAG_REPLY + q.slot, s->comm);
      pthread_mutex_unlock(&s->mpi);
    }
    free(reply);
  } else if (tag == TAG_BYE) {
    s->byes++;
  }
  free(buf);
}

static void *serve_main(void *arg)
{
  struct state *s = arg;
  long wait = 20;
  while (!__atomic_load_n(&s->quit, __ATOMIC_ACQUIRE)) {
    int tag = 0, source = 0, len = 0;
    void *buf = NULL;
    if (poll_one(s, &tag, &source, &buf, &len)) {
      handle(s, tag, source, buf, len);
      wait = 20;
    } else {
      nap(wait);
      wait = wait < 1000 ? 2 * wait : 1000;
    }
  }
  return NULL;
}

static int c_serve_begin(void *ctx, const struct cs_sweep_server *srv)
{
  struct state *s = ctx;
  s->srv = srv;
  s->quit = 0;
  s->byes = 0;
  if (pthread_create(&s->thread, NULL, serve_main, s) != 0)
    return -1;
  s->serving = 1;
  return 0;
}

static void c_serve_end(void *ctx, int abort)
{
  struct state *s = ctx;
  int size;
  MPI_Comm_size(s->comm, &size);
  if (!s->serving)
    return;
  /* stop the service thread, then serve the rest here until every worker
   * has said goodbye (bounded when aborting: a worker may be stuck in a
   * long point) */
  __atomic_store_n(&s->quit, 1, __ATOMIC_RELEASE);
  pthread_join(s->thread, NULL);
  s->serving = 0;
  if (abort) {
    pthread_mutex_lock(&s->mpi);
    for (int r = 1; r < size; r++)
      MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, s->comm);
    pthread_mutex_unlock(&s->mpi);
  }
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (s->byes < size - 1) {
    int tag = 0, source = 0, len = 0;
    void *buf = NULL;
    if (poll_one(s, &tag, &source, &buf, &len)) {
      handle(s, tag, source, buf, len);
      continue;
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    /* a stopped worker abandons its point at once; don't wait for a stuck
     * one: mpirun follows its SIGTERM with SIGKILL a second later */
    if (abort && (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) > 0.5)
      break;
    nap(200);
  }
}

int cs_dist_available(void)
{
  return 1;
}

static int launched(void)
{
  const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK",       "PMI_RANK", "PMI_SIZE",
                        "MPI_LOCALNRANKS",      "HYDRA_CONTROL_FD"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
    if (getenv(vars[i]))
      return 1;
  return 0;
}

enum cs_status cs_dist_init(struct cs_dist *d)
{
  memset(d, 0, sizeof *d);
  d->size = 1;
  if (!launched())
    return CS_OK;
  int provided = 0;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
    return CS_FAIL(CS_ERR_IO);
  d->mpi = 1;
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    d->mpi = 0;
    return CS_FAIL(CS_ERR_UNSUPPORTED);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &d->size);
  struct state *s = calloc(1, sizeof *s);
  if (!s)
    return CS_ERR_NOMEM;
  s->comm = MPI_COMM_WORLD;
  pthread_mutex_init(&s->mpi, NULL);
  d->state = s;
  d->comm = (struct cs_sweep_comm){.rank = d->rank,
                                   .size = d->size,
                                   .ctx = s,
                                   .request = w_request,
                                   .send = w_send,
                                   .stopped = w_stopped,
                                   .done = w_done,
                                   .serve_begin = c_serve_begin,
                                   .serve_end = c_serve_end};
  return CS_OK;
}

int cs_dist_agree(struct cs_dist *d, int rc)
{
  if (d->mpi && d->size > 1)
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return rc;
}

int cs_dist_agree_all(struct cs_dist *d, int rc)
{
  if (d->mpi && d->size > 1) {
    int out;
    MPI_Allreduce(&rc, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    rc = out;
  }
  return rc;
}

void cs_dist_share_text(struct cs_dist *d, char **text)
{
  if (!d->mpi || d->size < 2)
    return;
  long n = d->rank == 0 ? (*text ? (long)strlen(*text) : -1) : 0;
  MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (d->rank != 0) {
    *text = n >= 0 ? calloc((size_t)n + 1, 1) : NULL;
    if (n >= 0 && !*text)
      MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (n > 0)
    MPI_Bcast(*text, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
}

int cs_dist_finalize(struct cs_dist *d, int rc)
{
  if (d->mpi) {
    struct state *s = d->state;
    if (s && d->rank != 0) {
      /* a stop that arrived after this process finished */
      int flag = 1;
      while (flag) {
        MPI_Iprobe(0, TAG_STOP, s->comm, &flag, MPI_STATUS_IGNORE);
        if (flag)
          MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, s->comm, MPI_STATUS_IGNORE);
      }
    }
    MPI_Finalize();
    if (s)
      pthread_mutex_destroy(&s->mpi);
    free(s);
  }
  memset(d, 0, sizeof *d);
  return rc;
}

#else /* a build without MPI: one process */

int cs_dist_available(void)
{
  return 0;
}

enum cs_status cs_dist_init(struct cs_dist *d)
{
  memset(d, 0, sizeof *d);
  d->size = 1;
  return CS_OK;
}

int cs_dist_agree(struct cs_dist *d, int rc)
{
  (void)d;
  return rc;
}

int cs_dist_agree_all(struct cs_dist *d, int rc)
{
  (void)d;
  return rc;
}

void cs_dist_share_text(struct cs_dist *d, char **text)
{
  (void)d, (void)text;
}

int cs_dist_finalize(struct cs_dist *d, int rc)
{
  memset(d, 0, sizeof *d);
  return rc;
}

#endif
