/* SPDX-License-Identifier: MIT */
/* libFuzzer target: see harness.h (info). */
#include "harness.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc, (void)argv;
  cs_fuzz_init(0);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  cs_fuzz_info(data, size);
  return 0;
}
