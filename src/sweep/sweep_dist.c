/* SPDX-License-Identifier: MIT */
/* MPI transport of a sweep and the collective steps of a job (contracts in
 * sweep_dist.h and sweep_dist_private.h). */
#define _POSIX_C_SOURCE 200809L /* nanosleep, strdup */

#include "core/error_private.h"
#include "sweep/sweep_dist.h"
#include "sweep/sweep_dist_private.h"
#include "sweep/sweep_trace_private.h"

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

/* A result on its way to the coordinator: MPI_Isend of a copy, so that the
 * worker computes on instead of waiting in MPI_Send until rank 0's service
 * thread, which polls, has taken a message over the eager limit (figure 5a
 * on 2 loaded cores: 5-7 KB per point, 66 points per rank; MPI_Send spent
 * 0.17-0.25 s per rank there, 0.07-0.08 s of it spinning; MPI_Isend 1 ms). */
struct pending {
  struct pending *next;
  MPI_Request rq;
  void *buf;
};

struct state {
  MPI_Comm comm;
  pthread_mutex_t mpi;     /* every MPI call of this process, one at a time */
  struct pending *pending; /* worker: sends not known to be complete (under mpi) */
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
  int rc = MPI_Irecv(buf, (int)n, MPI_BYTE, 0, TAG_REPLY + slot, s->comm, &rq);
  if (rc == MPI_SUCCESS)
    rc = MPI_Send(&q, (int)sizeof q, MPI_BYTE, 0, TAG_REQ, s->comm);
  pthread_mutex_unlock(&s->mpi);
  /* the communicator returns errors (sweep_dist.h): a failed call ends
   * this worker's requests instead of waiting for a reply forever */
  for (long wait = 20; rc == MPI_SUCCESS;) {
    int done = 0;
    pthread_mutex_lock(&s->mpi);
    rc = MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
    pthread_mutex_unlock(&s->mpi);
    if (done && rc == MPI_SUCCESS)
      break;
    nap(wait);
    wait = wait < 2000 ? 2 * wait : 2000;
  }
  int code = -1;
  if (rc == MPI_SUCCESS)
    memcpy(&code, buf, sizeof code);
  if (code == 1)
    memcpy(unit, buf + REPLY_HDR, size);
  free(buf);
  return code;
}

/* Forgets the sends that completed, freeing their copies; -1 if one failed
 * (its copy is left to MPI). Called with s->mpi held. */
static int reap(struct state *s)
{
  int bad = 0;
  for (struct pending **p = &s->pending; *p;) {
    struct pending *x = *p;
    int done = 0;
    int rc = MPI_Test(&x->rq, &done, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && !done) {
      p = &x->next;
      continue;
    }
    *p = x->next;
    if (rc == MPI_SUCCESS)
      free(x->buf);
    else
      bad = 1;
    free(x);
  }
  return bad ? -1 : 0;
}

static int w_send(void *ctx, const void *buf, size_t len)
{
  struct state *s = ctx;
  if (len > (size_t)0x7fffffff)
    return -1;
  double t0 = cs_trace_thread_cpu(), w0 = cs_trace_wall();
  struct pending *x = malloc(sizeof *x);
  void *copy = malloc(len ? len : 1);
  if (!x || !copy) {
    free(x), free(copy);
    return -1;
  }
  memcpy(copy, buf, len);
  x->buf = copy;
  pthread_mutex_lock(&s->mpi);
  int rc = reap(s) == 0 ? MPI_Isend(copy, (int)len, MPI_BYTE, 0, TAG_RES, s->comm, &x->rq)
                        : MPI_ERR_OTHER;
  if (rc == MPI_SUCCESS)
    x->next = s->pending, s->pending = x;
  pthread_mutex_unlock(&s->mpi);
  if (rc != MPI_SUCCESS)
    free(x), free(copy);
  cs_trace("send", -1, (double)len, cs_trace_thread_cpu() - t0, cs_trace_wall() - w0, 0);
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
  /* the results first (the goodbye must not reach rank 0 before them: it
   * stops listening to this process then); after a stop, rank 0 listens for
   * half a second: what is still pending a second later is given up to MPI */
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long wait = 20;;) {
    pthread_mutex_lock(&s->mpi);
    reap(s);
    int left = s->pending != NULL;
    pthread_mutex_unlock(&s->mpi);
    if (!left)
      break;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (w_stopped(s) &&
        (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) > 1.0) {
      pthread_mutex_lock(&s->mpi);
      while (s->pending) { /* the copies stay allocated: MPI may still read them */
        struct pending *x = s->pending;
        s->pending = x->next;
        MPI_Request_free(&x->rq);
        free(x);
      }
      pthread_mutex_unlock(&s->mpi);
      break;
    }
    nap(wait);
    wait = wait < 1000 ? 2 * wait : 1000;
  }
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
  double polls = 0, msgs = 0;
  while (!__atomic_load_n(&s->quit, __ATOMIC_ACQUIRE)) {
    int tag = 0, source = 0, len = 0;
    void *buf = NULL;
    polls++;
    if (poll_one(s, &tag, &source, &buf, &len)) {
      msgs++;
      handle(s, tag, source, buf, len);
      wait = 20;
    } else {
      nap(wait);
      wait = wait < 1000 ? 2 * wait : 1000;
    }
  }
  cs_trace("serve_exit", -1, polls, msgs, cs_trace_thread_cpu(), 0);
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

/* Open MPI with every process on one node and no point-to-point layer
 * chosen by the user (OMPI_MCA_pml, which mpirun's --mca pml also sets):
 * ob1 over shared memory. Open MPI's default, UCX, spends 0.2 s of
 * MPI_Init probing for network devices (measured on 2 cores: 0.26 s against
 * 0.05 s), 5 % of a 2-process run of figure 5a, and is no faster for a
 * sweep's few small messages. Several nodes keep the default. */
static void one_node_transport(void)
{
  const char *size = getenv("OMPI_COMM_WORLD_SIZE"), *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (size && local && strcmp(size, local) == 0 && !getenv("OMPI_MCA_pml"))
    setenv("OMPI_MCA_pml", "ob1", 0);
}

static const char *thread_level_name(int level)
{
  return level == MPI_THREAD_SINGLE       ? "MPI_THREAD_SINGLE"
         : level == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
         : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
                                          : "MPI_THREAD_MULTIPLE";
}

/* Takes the communicator comm (MPI initialised): a duplicate of it, the
 * transport around it. Collective over comm. */
static enum cs_status attach(struct cs_dist *d, MPI_Comm comm)
{
  int size = 0, provided = MPI_THREAD_SINGLE;
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS)
    return cs_error_set(CS_ERR_ARG, "cs_dist_init_comm: not a valid MPI communicator");
  MPI_Query_thread(&provided);
  struct state *s = calloc(1, sizeof *s);
  /* every process learns whether every process can go on before the
   * collective duplicate: none waits in it for one that gave up */
  int bad = !s ? 1 : size > 1 && provided < MPI_THREAD_SERIALIZED ? 2 : 0, worst = bad;
  if (size > 1 && MPI_Allreduce(&bad, &worst, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
    worst = 3;
  if (worst) {
    free(s);
    if (worst == 1)
      return cs_error_set(CS_ERR_NOMEM, "cs_dist_init: out of memory");
    if (worst == 2)
      return cs_error_set(CS_ERR_UNSUPPORTED,
                          "MPI provides %s; a sweep over %d processes calls MPI from several "
                          "threads, one at a time: initialise MPI with MPI_Init_thread and "
                          "MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE",
                          thread_level_name(provided), size);
    return cs_error_set(CS_ERR_IO, "cs_dist_init: MPI_Allreduce failed");
  }
  if (MPI_Comm_dup(comm, &s->comm) != MPI_SUCCESS) {
    free(s);
    return cs_error_set(CS_ERR_IO, "cs_dist_init: MPI_Comm_dup failed");
  }
  /* errors come back as codes on contensou's own communicator: a failing
   * call is a status, never an abort of the host's job */
  MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
  pthread_mutex_init(&s->mpi, NULL);
  MPI_Comm_rank(s->comm, &d->rank);
  MPI_Comm_size(s->comm, &d->size);
  d->mpi = 1;
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

static void single(struct cs_dist *d)
{
  memset(d, 0, sizeof *d);
  d->size = 1;
}

enum cs_status cs_dist_init(struct cs_dist *d)
{
  single(d);
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (finalised)
    return cs_error_set(CS_ERR_ARG, "cs_dist_init: MPI was finalised already");
  if (initialised) /* the program owns MPI: its world, never a second init */
    return attach(d, MPI_COMM_WORLD);
  if (!launched())
    return CS_OK;
  one_node_transport();
  int provided = 0;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
    return cs_error_set(CS_ERR_IO, "cannot start MPI (MPI_Init_thread failed)");
  d->owns_mpi = 1;
  enum cs_status st = attach(d, MPI_COMM_WORLD);
  if (st != CS_OK) {
    MPI_Finalize();
    single(d);
  }
  return st;
}

enum cs_status cs_dist_init_comm(struct cs_dist *d, const void *mpi_comm)
{
  single(d);
  if (!mpi_comm)
    return CS_OK;
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (!initialised || finalised)
    return cs_error_set(CS_ERR_ARG,
                        "cs_dist_init_comm: MPI is %s (the host initialises it with "
                        "MPI_Init_thread before, and finalises it after)",
                        finalised ? "finalised already" : "not initialised");
  return attach(d, *(const MPI_Comm *)mpi_comm);
}

static struct cs_dist_verdict failed_elsewhere(struct cs_dist *d, int rank,
                                               struct cs_dist_verdict v)
{
  if (v.st != CS_OK && rank != d->rank)
    cs_error_set(v.st, "process %d of %d: %s (its message is on that process)", rank, d->size,
                 cs_strerror(v.st));
  return v;
}

struct cs_dist_verdict cs_dist_i_from_root(struct cs_dist *d, struct cs_dist_verdict v)
{
  if (!d->mpi || d->size < 2)
    return v;
  struct state *s = d->state;
  int msg[2] = {(int)v.st, v.input};
  if (MPI_Bcast(msg, 2, MPI_INT, 0, s->comm) != MPI_SUCCESS) {
    cs_error_set(CS_ERR_IO, "MPI_Bcast failed");
    return (struct cs_dist_verdict){CS_ERR_IO, 0};
  }
  return failed_elsewhere(d, 0, (struct cs_dist_verdict){(enum cs_status)msg[0], msg[1]});
}

struct cs_dist_verdict cs_dist_i_all(struct cs_dist *d, struct cs_dist_verdict v)
{
  if (!d->mpi || d->size < 2)
    return v;
  struct state *s = d->state;
  /* MINLOC: the lowest rank that failed, carrying its status and flag */
  struct {
    int rank, code;
  } in = {v.st != CS_OK ? d->rank : d->size, (int)v.st | (v.input ? 0x100 : 0)}, out;
  if (MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, s->comm) != MPI_SUCCESS) {
    cs_error_set(CS_ERR_IO, "MPI_Allreduce failed");
    return (struct cs_dist_verdict){CS_ERR_IO, 0};
  }
  if (out.rank == d->size)
    return (struct cs_dist_verdict){CS_OK, 0};
  return failed_elsewhere(
      d, out.rank, (struct cs_dist_verdict){(enum cs_status)(out.code & 0xff), out.code >> 8});
}

enum cs_status cs_dist_i_share_text(struct cs_dist *d, char **text)
{
  if (!d->mpi || d->size < 2)
    return CS_OK;
  struct state *s = d->state;
  long n = d->rank == 0 ? (*text ? (long)strlen(*text) : -1) : 0;
  if (MPI_Bcast(&n, 1, MPI_LONG, 0, s->comm) != MPI_SUCCESS)
    return cs_error_set(CS_ERR_IO, "MPI_Bcast failed");
  enum cs_status st = CS_OK;
  char scratch[4096];
  if (d->rank != 0) {
    *text = n >= 0 ? calloc((size_t)n + 1, 1) : NULL;
    if (n >= 0 && !*text)
      st = cs_error_set(CS_ERR_NOMEM, "out of memory receiving a text of %ld bytes", n);
  }
  /* in pieces, so that a process without the memory still takes part
   * (the others would wait for it) and any length fits an int count */
  for (long at = 0; at < n; at += (long)sizeof scratch) {
    int len = (int)(n - at < (long)sizeof scratch ? n - at : (long)sizeof scratch);
    char *buf = *text ? *text + at : scratch;
    if (MPI_Bcast(buf, len, MPI_CHAR, 0, s->comm) != MPI_SUCCESS && st == CS_OK)
      st = cs_error_set(CS_ERR_IO, "MPI_Bcast failed");
  }
  return st;
}

enum cs_status cs_dist_finalize(struct cs_dist *d)
{
  enum cs_status st = CS_OK;
  struct state *s = d->state;
  if (s) {
    if (d->rank != 0) {
      /* a stop that arrived after this process finished */
      int flag = 1;
      while (flag) {
        if (MPI_Iprobe(0, TAG_STOP, s->comm, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
          break;
        if (flag)
          MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, s->comm, MPI_STATUS_IGNORE);
      }
    }
    while (s->pending) { /* sends never completed: their copies stay with MPI */
      struct pending *x = s->pending;
      s->pending = x->next;
      MPI_Request_free(&x->rq);
      free(x);
    }
    if (MPI_Comm_free(&s->comm) != MPI_SUCCESS)
      st = cs_error_set(CS_ERR_IO, "cs_dist_finalize: MPI_Comm_free failed");
    pthread_mutex_destroy(&s->mpi);
    free(s);
  }
  if (d->owns_mpi && MPI_Finalize() != MPI_SUCCESS && st == CS_OK)
    st = cs_error_set(CS_ERR_IO, "cs_dist_finalize: MPI_Finalize failed");
  memset(d, 0, sizeof *d);
  return st;
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

enum cs_status cs_dist_init_comm(struct cs_dist *d, const void *mpi_comm)
{
  memset(d, 0, sizeof *d);
  d->size = 1;
  if (mpi_comm)
    return cs_error_set(CS_ERR_UNSUPPORTED,
                        "cs_dist_init_comm: contensou was built without MPI (cs_dist_available() "
                        "= 0): no communicator can be used (pass NULL for one process)");
  return CS_OK;
}

struct cs_dist_verdict cs_dist_i_from_root(struct cs_dist *d, struct cs_dist_verdict v)
{
  (void)d;
  return v;
}

struct cs_dist_verdict cs_dist_i_all(struct cs_dist *d, struct cs_dist_verdict v)
{
  (void)d;
  return v;
}

enum cs_status cs_dist_i_share_text(struct cs_dist *d, char **text)
{
  (void)d, (void)text;
  return CS_OK;
}

enum cs_status cs_dist_finalize(struct cs_dist *d)
{
  memset(d, 0, sizeof *d);
  return CS_OK;
}

#endif
