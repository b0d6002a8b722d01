#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one libFuzzer target and sorts what it found.
#   tests/fuzz/run.sh BUILD-FUZZ-DIR TARGET SECONDS [WORKDIR]
# TARGET is config, info or plot. The committed corpus is copied (new
# inputs go to WORKDIR/corpus-TARGET, default a temporary directory); the
# result-file targets run in libFuzzer's fork mode, going on after a crash,
# because libhdf5 itself crashes or loops on some damaged files: every crash
# and timeout input is then run once more and sorted by its stack: "libhdf5"
# when the first frame outside libc is in libhdf5, "ours" otherwise. Prints
#   <target>: execs = N, crashes_ours = A, crashes_libhdf5 = B,
#   timeouts_ours = C, timeouts_libhdf5 = D, not_reproduced = E
# and keeps the inputs in WORKDIR/{ours,libhdf5,unreproduced}-TARGET (an
# input that does not fail when run alone is counted as not_reproduced). Exit 1 when anything
# is ours (a bug to fix; add its input to tests/fuzz/crashes/).
set -u
build=${1:?usage: run.sh BUILD-FUZZ-DIR config|info|plot SECONDS [WORKDIR]}
target=${2:?target}
secs=${3:?seconds}
work=${4:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
exe="$build/tests/fuzz/fuzz_$target"
[ -x "$exe" ] || { echo "run.sh: no $exe (configure with -DCONTENSOU_FUZZ=ON)" >&2; exit 2; }
corpus="$work/corpus-$target" art="$work/artifacts-$target"
mkdir -p "$corpus" "$art" "$work/ours-$target" "$work/libhdf5-$target"
if [ "$target" = config ]; then
  cp "$here"/corpus/config/* "$corpus"/ 2>/dev/null
  cp "$here"/../../params/*.ini "$corpus"/
  max_len=8192
else
  cp "$here"/corpus/results/* "$corpus"/
  max_len=400000
fi
export CONTENSOU_GNUPLOT_DIR="$here/../../analysis/gnuplot"
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1
export LSAN_OPTIONS="suppressions=$here/lsan_hdf5.supp:print_suppressions=0"
log="$work/log-$target"
if [ "$target" = config ]; then
  "$exe" "$corpus" -max_total_time="$secs" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
    -close_fd_mask=3 -artifact_prefix="$art/" -print_final_stats=1 >"$log" 2>&1
else
  "$exe" "$corpus" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$secs" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
    -artifact_prefix="$art/" -print_final_stats=1 >"$log" 2>&1
fi
# execs: the plain mode's final stats, or the last status line of fork mode
execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s += $2} END {print s + 0}')
if [ "$execs" -eq 0 ]; then
  execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
fi
ours_c=0 hdf_c=0 ours_t=0 hdf_t=0 unrep=0
for f in "$art"/crash-* "$art"/timeout-* "$art"/leak-* "$art"/oom-*; do
  [ -e "$f" ] || continue
  kind=crash
  case "$(basename "$f")" in timeout-*) kind=timeout ;; esac
  trace=$(timeout 60 "$exe" "$f" -timeout=5 2>&1)
  if [ $? -eq 0 ]; then
    # a fork-mode job that died with no input to blame (an empty artifact),
    # or an input that fails only after others in the same process
    unrep=$((unrep + 1))
    mkdir -p "$work/unreproduced-$target" && cp "$f" "$work/unreproduced-$target/"
    continue
  fi
  # the first stack frame that is not libc, sanitizer runtime or libFuzzer
  first=$(printf '%s\n' "$trace" | grep -E '^ *#[0-9]+ ' |
    grep -v -E ' in (malloc|calloc|realloc|free|strdup) |libc\.so|libc-|__interceptor|__asan|__sanitizer|__ubsan|libFuzzer|fuzzer::|compiler-rt|memcpy|memmove|memset|strlen|raise|abort' |
    head -1)
  if printf '%s' "$first" | grep -q 'libhdf5'; then
    cp "$f" "$work/libhdf5-$target/"
    if [ $kind = crash ]; then hdf_c=$((hdf_c + 1)); else hdf_t=$((hdf_t + 1)); fi
  else
    cp "$f" "$work/ours-$target/"
    printf '%s\n' "$trace" | head -60 >"$work/ours-$target/$(basename "$f").trace"
    if [ $kind = crash ]; then ours_c=$((ours_c + 1)); else ours_t=$((ours_t + 1)); fi
  fi
done
echo "$target: execs = ${execs:-0}, crashes_ours = $ours_c, crashes_libhdf5 = $hdf_c, timeouts_ours = $ours_t, timeouts_libhdf5 = $hdf_t, not_reproduced = $unrep (inputs in $work)"
[ $((ours_c + ours_t)) -eq 0 ]
