/* SPDX-License-Identifier: MIT */
/* One list of status codes for the whole library (X-macro): the enum and its
 * messages cannot drift apart. Library functions return a status and never
 * print, exit or abort; the command line decides what the user sees. */
#ifndef CS_STATUS_H
#define CS_STATUS_H

/* CS_API marks what the shared library exports: it is built with
 * -fvisibility=hidden, so a function is public only where its declaration in
 * an installed header says CS_API (tests/cli/install.sh checks both ways). */
#if defined(__GNUC__) || defined(__clang__)
#define CS_API __attribute__((visibility("default")))
#else
#define CS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define CS_STATUS_LIST(X)                                                     \
  X(CS_OK, "success")                                                         \
  X(CS_ERR_ARG, "invalid argument")                                           \
  X(CS_ERR_RANGE, "value outside the accepted range")                         \
  X(CS_ERR_NOMEM, "out of memory")                                            \
  X(CS_ERR_IO, "input/output error")                                          \
  X(CS_ERR_PARSE, "parse error")                                              \
  X(CS_ERR_QUADRATURE, "quadrature did not reach the requested accuracy")     \
  X(CS_ERR_NOCONV, "iteration did not converge")                              \
  X(CS_ERR_SINGULAR, "singular system")                                       \
  X(CS_ERR_SOLVER, "ODE solver failure")                                      \
  X(CS_ERR_TOO_MUCH_WORK, "ODE solver: too many steps")                       \
  X(CS_ERR_NONFINITE, "non-finite value (NaN or Inf) in the right-hand side") \
  X(CS_ERR_UNBOUNDED, "solution escaped the allowed region")                  \
  X(CS_ERR_HDF5, "HDF5 error")                                                \
  X(CS_ERR_NOT_FOUND, "not found")                                            \
  X(CS_ERR_UNSUPPORTED, "not supported for this model or law")                \
  X(CS_ERR_BUSY, "in use by another process")                                 \
  X(CS_ERR_EXISTS, "already exists")                                          \
  X(CS_ERR_INTERRUPTED, "interrupted")                                        \
  X(CS_ERR_MISMATCH, "does not match what the file was started with")

enum cs_status {
#define CS_STATUS_ENUM(name, msg) name,
  CS_STATUS_LIST(CS_STATUS_ENUM)
#undef CS_STATUS_ENUM
      CS_STATUS_COUNT
};

/* Human-readable message of a status; never NULL. */
const char *cs_strerror(enum cs_status status);

/* The one error channel of the library: every public function that returns a
 * status other than CS_OK (or reports a failure as its comment says) first
 * records a one-line reason, e.g. "pendulum.ini:12: mu = -1: outside [0, 10]",
 * in a per-thread buffer; cs_errmsg() returns it. The message is meaningful
 * only right after a failure in the same thread: a success does not clear it
 * (nor does the cleanup a failing function does after recording it), so read
 * it only when a status said that something failed. Threads never see each other's
 * messages. Never NULL; "" when nothing failed yet in this thread. The
 * pointer stays valid in this thread until the next failure. */
CS_API const char *cs_errmsg(void);
/* Forgets this thread's last message (cs_errmsg() returns ""). */
void cs_error_clear(void);

#ifdef __cplusplus
}
#endif

#endif
