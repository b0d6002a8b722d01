#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every --help text (the program's, each command's and each sub-command's,
# the lists read from the texts themselves, as the man pages are made):
# exit 0, a usage line, its outputs and its exit statuses stated, no
# reference to a file outside the repository, and every document it names
# (a path ending in .md) present at that path in the source tree.
# Usage (CTest): bash help.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: help.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"

# commands ARGS...: the names listed under commands: / sub-commands:
commands() {
  "$exe" "$@" --help | awk '/^(sub-)?commands:$/ { on = 1; next }
                           on && /^$/ { exit }
                           on && /^  [a-z]/ { print $1 }'
}

# check ARGS...: the help of contensou ARGS...
check() {
  last="contensou $* --help"
  run "$@" --help
  [ "$rc" -eq 0 ] || die "$last: exit $rc"
  [ -z "$err" ] || die "$last: wrote on stderr"
  printf '%s\n' "$out" | head -1 | grep -q '^usage: contensou' || die "$last: no usage line first"
  printf '%s\n' "$out" | grep -qi 'exit status' || die "$last: no exit status"
  printf '%s\n' "$out" | grep -qi 'output' || die "$last: does not say what it outputs"
  printf '%s\n' "$out" | grep -q 'shared/\|MODELS\.md' && die "$last: cites a file outside the repository"
  printf '%s\n' "$out" | LC_ALL=C grep -q '[^ -~]' && die "$last: not ASCII (help2man and terminals)"
  # a document it names exists at that path (it is installed there under share/doc/contensou)
  for doc in $(printf '%s\n' "$out" | grep -o '[A-Za-z0-9_./-]*\.md'); do
    [ -f "$src/$doc" ] || die "$last: names $doc, which is not in the source tree"
    ndocs=$((ndocs + 1))
  done
  n=$((n + 1))
}

n=0
ndocs=0
check
for v in $(commands); do
  check "$v"
  for s in $(commands "$v"); do check "$v" "$s"; done
done
check keys
[ "$n" -ge 12 ] || die "only $n help texts"
[ "$ndocs" -ge 2 ] || die "the help texts name only $ndocs documents (src/friction/README.md, src/sweep/README.md)"
pass "$n help texts: usage, outputs, exit statuses, nothing outside the repository, the $ndocs documents they name exist"

# plot says where its scripts are found once installed, not a source-tree path
last="contensou plot --help"
run plot --help
intro=$(printf '%s\n' "$out" | sed -n '/^Draws a result file/,/^  friction-fit/p')
printf '%s\n' "$intro" | grep -q 'share/contensou/gnuplot' || die "$last: does not name share/contensou/gnuplot"
printf '%s\n' "$intro" | grep -q 'CONTENSOU_GNUPLOT_DIR' || die "$last: does not name CONTENSOU_GNUPLOT_DIR"
printf '%s\n' "$intro" | grep -q 'analysis/gnuplot' && die "$last: says the scripts are in analysis/gnuplot"
pass "$last: the scripts are found in CONTENSOU_GNUPLOT_DIR or PREFIX/share/contensou/gnuplot"

# nor does anything else in the repository (this file names the pattern)
last="grep for references outside the repository"
pattern='\.\./shared\|MODELS\.md'
hits=$(cd "$src" && grep -rn "$pattern" README.md CHANGELOG.md CMakeLists.txt src analysis params \
  tests .ci 2>/dev/null | grep -v '^tests/cli/help\.sh:')
[ -z "$hits" ] || { out=$hits; die "references to files outside the repository"; }
pass "no file of the repository refers to ../shared or MODELS.md"
echo "1..$checks"
