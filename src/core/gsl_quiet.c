/* SPDX-License-Identifier: MIT */
#include <pthread.h>

#include <gsl/gsl_errno.h>

#include "core/gsl_quiet.h"

static void handler_off(void)
{
  gsl_set_error_handler_off();
}

void cs_gsl_quiet(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, handler_off);
}
