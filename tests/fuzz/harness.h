/* SPDX-License-Identifier: MIT */
/* What the fuzz targets (fuzz_*.c, libFuzzer) and the regression driver
 * (replay.c, a plain program) run on one input.
 *
 * - config: the parameter-file loader with --set overrides. Input: the
 *   file's bytes, optionally followed by "\0--set\0" and the overrides, one
 *   per line. A loaded file with a [sweep] section also goes through the
 *   sweep's key checks (cs_sweep_spec_from_config).
 * - info, plot: contensou info FILE (then the reader of the file's kind of
 *   results/read.h, and for inputs of odd size the whole-file reader, on the
 *   same file) / contensou plot FILE -o OUT (and, for
 *   inputs of odd size, plot FILE --point 1), in this process (no guard
 *   child), on the input written to a scratch file. gnuplot is not run in a
 *   fuzzing build (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) and cannot be
 *   found by the replay driver (PATH is emptied): the target is what reads
 *   the file.
 * After each input no HDF5 object may be left open (a leak across inputs
 * would be a bug of the readers): otherwise abort(). */
#ifndef CS_FUZZ_HARNESS_H
#define CS_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* Environment of the harness (scratch directory, no guard, no gnuplot);
 * stdout and, when quiet, stderr go to /dev/null. Call once. */
void cs_fuzz_init(int quiet);

/* Each returns the exit code of what it ran (0, 1 or 2). */
int cs_fuzz_config(const uint8_t *data, size_t size);
int cs_fuzz_info(const uint8_t *data, size_t size);
int cs_fuzz_plot(const uint8_t *data, size_t size);

#endif
