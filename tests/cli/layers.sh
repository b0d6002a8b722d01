#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layering of the sources, drawn from their includes: no file includes a
# header of a higher layer. Layers, low to high:
#   0 core   1 friction   2 integrate, models   3 io   4 analysis
#   5 sweep  6 study      7 results (result files read back)
#   8 plot (what the pictures are made of)   9 cli
# (cs_version.h is generated for core; src/contensou.h, the umbrella header,
# sits above the library and below cli.) Prints the graph of layer-to-layer
# includes (also written as Graphviz to <scratch>/layers.dot) and fails on
# every upward include, naming file and line. Checks first that it catches an
# upward include in a made-up tree, so that it cannot pass by checking nothing.
# Usage (CTest): bash layers.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

src=${2:?usage: layers.sh <contensou> <source-dir> <scratch-dir>}
scratch=${3:?missing scratch dir}
mkdir -p "$scratch" || exit 1

# layer DIR: the layer number of a source directory ("" when not a layer).
layer() {
  case $1 in
  core | cs_version.h) echo 0 ;;
  friction) echo 1 ;;
  integrate | models) echo 2 ;;
  io) echo 3 ;;
  analysis) echo 4 ;;
  sweep) echo 5 ;;
  study) echo 6 ;;
  results) echo 7 ;;
  plot) echo 8 ;;
  contensou.h) echo 8 ;;
  cli) echo 9 ;;
  *) echo "" ;;
  esac
}

# check ROOT [DOT]: 0 when no upward include under ROOT/src and ROOT/analysis;
# prints the violations and the edges, writes DOT when given.
check() {
  local root=$1 dot=${2:-} bad=0 f rel dir lf line inc idir li
  declare -A edges=()
  while IFS= read -r f; do
    rel=${f#"$root"/}
    case $rel in
    src/contensou.h) dir=contensou.h ;;
    src/*/*) dir=${rel#src/} dir=${dir%%/*} ;;
    analysis/*) dir=analysis ;;
    *) continue ;;
    esac
    lf=$(layer "$dir")
    [ -n "$lf" ] || {
      echo "layers: $rel: directory '$dir' is in no layer (add it to tests/cli/layers.sh)"
      bad=1
      continue
    }
    while IFS=: read -r line inc; do
      inc=${inc#*\"} inc=${inc%%\"*}
      case $inc in
      */*) idir=${inc%%/*} ;;
      *) idir=$inc ;;
      esac
      li=$(layer "$idir")
      [ -n "$li" ] || continue # a header beside the file (none today) or a system one
      [ "$idir" = "$dir" ] || edges["$dir -> $idir"]=1
      if [ "$li" -gt "$lf" ]; then
        echo "layers: $rel:$line includes \"$inc\": layer $idir ($li) is above $dir ($lf)"
        bad=1
      fi
    done < <(grep -n '^#include "' "$f")
  done < <(find "$root/src" "$root/analysis" -name '*.[ch]' 2>/dev/null | LC_ALL=C sort)
  if [ -n "$dot" ]; then
    {
      echo "digraph layers {"
      for e in "${!edges[@]}"; do echo "  ${e// -> / -> };"; done | LC_ALL=C sort
      echo "}"
    } >"$dot"
  fi
  for e in "${!edges[@]}"; do echo "  $e"; done | LC_ALL=C sort
  return $bad
}

# the checker must catch an upward include
fake=$scratch/fake
rm -rf "$fake" && mkdir -p "$fake/src/io" "$fake/src/sweep" "$fake/analysis" || exit 1
printf '#include "sweep/sweep.h"\n' >"$fake/analysis/a.h"
printf '#include "io/h5.h"\n' >"$fake/src/sweep/sweep.h"
if check "$fake" >"$scratch/fake.out"; then
  echo "layers: FAIL: an upward include (analysis -> sweep) was not caught"
  exit 1
fi
grep -q 'analysis/a.h:1 includes "sweep/sweep.h"' "$scratch/fake.out" || {
  echo "layers: FAIL: the caught violation is not named by file and line:"
  cat "$scratch/fake.out"
  exit 1
}

echo "include graph (directory -> directory it includes):"
if check "$src" "$scratch/layers.dot"; then
  echo "layers: ok"
else
  echo "layers: FAIL: upward includes above"
  exit 1
fi
