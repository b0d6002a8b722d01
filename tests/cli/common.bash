# SPDX-License-Identifier: MIT
# Helpers shared by the command-line tests (sourced, not run: the .bash suffix
# keeps CTest from registering it). The sourcing script sets exe, scratch and
# last; a script may redefine any helper after sourcing.

checks=0
pass() {
  checks=$((checks + 1))
  echo "ok $checks - $*"
}

die() {
  echo "FAIL: $*" >&2
  if [ -n "${out:-}" ]; then printf 'stdout was:\n%s\n' "$out" >&2; fi
  if [ -n "${err:-}" ]; then printf 'stderr was:\n%s\n' "$err" >&2; fi
  exit 1
}

# run ARGS...: runs contensou; sets out, err, rc.
run() {
  out=$("$exe" "$@" 2>"$scratch/stderr")
  rc=$?
  err=$(cat "$scratch/stderr")
}

# value NAME: the value of the line "NAME = value" of the last output.
value() {
  printf '%s\n' "$out" | awk -v k="$1" '$1 == k && $2 == "=" && NF == 3 { print $3; f = 1 } END { exit !f }' ||
    die "no line '$1 = <value>' in the output of: $last"
}

# is NAME EXPECTED: the line "NAME = EXPECTED" exactly.
is() {
  local v
  v=$(value "$1") || exit 1
  [ "$v" = "$2" ] || die "$last: $1 = $v, expected $2"
}

# near NAME EXPECTED TOL: |value(NAME) - EXPECTED| <= TOL.
near() {
  local v
  v=$(value "$1") || exit 1
  awk -v a="$v" -v e="$2" -v t="$3" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(d <= t) }' ||
    die "$last: $1 = $v, expected $2 within $3"
  pass "$last: $1 = $v (expected $2 +- $3)"
}

# positive NAME: an integer > 0.
positive() {
  local v
  v=$(value "$1") || exit 1
  if ! [[ "$v" =~ ^[0-9]+$ ]] || [ "$v" -eq 0 ]; then die "$last: $1 = $v, expected an integer > 0"; fi
}

# ok ARGS...: contensou must succeed, silently on stderr (not a terminal: no progress line).
ok() {
  last="contensou $*"
  run "$@"
  [ "$rc" -eq 0 ] || die "$last: exit status $rc, expected 0"
  [ -z "$err" ] || die "$last: wrote on stderr"
}

# png FILE: a non-empty PNG.
png() {
  [ -s "$1" ] || die "$last: no picture at $1"
  [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = "211PNG" ] || die "$last: $1 is not a PNG"
  pass "$last wrote a PNG of $(wc -c <"$1") bytes"
}

have_h5py=0
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import h5py, numpy' 2>/dev/null; then
  have_h5py=1
fi
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

# bad_verb VERB PATTERN ARGS...: exit status 2, one line on stderr starting with
# "contensou VERB: " and containing PATTERN, no stdout.
bad_verb() {
  local verb=$1 pattern=$2
  shift 2
  last="contensou $*"
  run "$@"
  [ "$rc" -eq 2 ] || die "$last: exit status $rc, expected 2"
  [ -z "$out" ] || die "$last: printed on stdout"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || die "$last: expected one line on stderr"
  case "$err" in
    "contensou $verb: "*"$pattern"*) ;;
    *) die "$last: stderr does not read 'contensou $verb: ...$pattern...'" ;;
  esac
  pass "$last -> exit 2: $err"
}

# skip WHY: the test cannot run here (an optional tool is missing): exit 77,
# which CTest counts as skipped, never as passed.
skip() {
  echo "skip - $*"
  exit 77
}

# skip_part WHY: a part of the test cannot run here (an optional tool is
# missing); the others go on, and if they all pass the test still ends with
# 77: skipped in part is not passed.
skipped_parts=0
skip_part() {
  echo "skip - $*"
  skipped_parts=$((skipped_parts + 1))
}

# at the end: a test that fails while a sweep is held does not leave it
# waiting (running jobs only: the pid of one that ended may be another
# process's by now); a test that passed with parts skipped ends with 77
on_exit() {
  local rc=$?
  # shellcheck disable=SC2046 # one pid per word
  kill $(jobs -pr) 2>/dev/null
  if [ "$rc" -eq 0 ] && [ "$skipped_parts" -gt 0 ]; then
    echo "skip - $skipped_parts part(s) of the test could not run here (see above)"
    exit 77
  fi
}
trap on_exit EXIT

# Sweeps stopped at a known point, whatever the machine's speed: the program
# built with the tests' hook ($hooks: contensou_testhooks, never installed;
# CONTENSOU_TEST_HOOKS in src/cli/cli_sweep.c) pauses its sweep once the file
# holds CONTENSOU_TEST_PAUSE_AT points, all flushed to disk, writes that number
# to CONTENSOU_TEST_PAUSE_FILE and waits until that file's ".go" exists or a
# signal comes (SIGTERM and SIGINT stop it as ever; under mpirun, rank 0
# pauses). The sweep cannot complete while it is held.

# await_pause PID MARK: waits until the sweep PID (or the mpirun running it)
# holds at the pause whose marker file is MARK; sets held (the points on disk
# then). Polls the marker; fails only if the process ends without pausing.
await_pause() {
  local pid=$1 mark=$2
  until [ -s "$mark" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      [ -s "$mark" ] && break
      die "the sweep (pid $pid) ended before it paused (no $mark)"
    fi
    sleep 0.02
  done
  held=$(cat "$mark")
}

# release MARK: lets the sweep held at MARK go on.
release() {
  : >"$1.go"
}
