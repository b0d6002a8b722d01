#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The installed suite, as a lab uses it: `cmake --install` into a temporary
# prefix; a program outside the tree (tests/cli/install/consumer.c, the
# README's example of using the library) built against the installed package
# with CMake (find_package(contensou)) and with pkg-config, run against a
# closed form; the prefix then moved elsewhere (an installation is
# relocatable), and its `contensou sweep` and `plot` run from a directory far
# from the source and build trees with CONTENSOU_GNUPLOT_DIR unset; the man
# pages, the bash completion and the documentation in place, every relative
# link of its Markdown documents leading to an installed file.
# Usage (CTest): bash install.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: install.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
build=$(cd "$(dirname "$exe")" && pwd)
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
scratch=$(cd "$scratch" && pwd)
unset CONTENSOU_GNUPLOT_DIR

# step NAME COMMAND...: runs COMMAND with its output in $scratch/NAME.log
step() {
  local name=$1
  shift
  last="$*"
  "$@" >"$scratch/$name.log" 2>&1 || {
    out=$(tail -40 "$scratch/$name.log")
    die "$name failed: $*"
  }
}

prefix=$scratch/prefix
step install cmake --install "$build" --prefix "$prefix"
[ -x "$prefix/bin/contensou" ] || die "no bin/contensou in the prefix"
for f in include/contensou/contensou.h include/contensou/cs_version.h \
  share/contensou/gnuplot share/contensou/params/pendulum_fig5a.ini \
  share/bash-completion/completions/contensou share/doc/contensou/README.md \
  share/doc/contensou/src/models/README.md share/doc/contensou/src/friction/README.md; do
  [ -e "$prefix/$f" ] || die "not installed: $f"
done
# every relative link of the installed documents leads to an installed file
doc=$prefix/share/doc/contensou
nlinks=0
while IFS= read -r md; do
  while IFS= read -r link; do
    target=${link%%#*}
    [ -n "$target" ] || continue
    [ -e "$(dirname "$md")/$target" ] || die "${md#"$doc/"} links to $target, which is not installed"
    nlinks=$((nlinks + 1))
  done < <(grep -o '\]([^)]*)' "$md" | sed 's/^](//; s/)$//' | grep -v '^[a-z]*:')
done < <(find "$doc" -name '*.md')
[ "$nlinks" -ge 6 ] || die "only $nlinks relative links found in the installed documents"
pass "the installed documents' $nlinks relative links resolve (share/doc/contensou)"
# only the public headers, each of which compiles on its own against the
# installed package (no SUNDIALS, GSL or HDF5 headers needed)
for f in integrate/nvector_small.h integrate/sunlinsol_gsl.h core/gsl_quiet.h analysis/saltation.h \
  analysis/classify.h core/error_private.h io/h5_private.h cli/cli_common.h \
  models/model_private.h integrate/integrate_private.h; do
  [ -e "$prefix/include/contensou/$f" ] && die "an internal header is installed: $f"
done
nh=0
while IFS= read -r h; do
  rel=${h#"$prefix/include/"}
  printf '#include <%s>\n' "$rel" >"$scratch/one_header.c"
  cc -std=c17 -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" "$scratch/one_header.c" \
    >"$scratch/one_header.log" 2>&1 || {
    out=$(head -20 "$scratch/one_header.log")
    die "the installed $rel does not compile on its own"
  }
  grep -q '#include "' "$h" && die "the installed $rel still includes a header by a source-tree path"
  nh=$((nh + 1))
done < <(find "$prefix/include/contensou" -name '*.h' | sort)
[ "$nh" -ge 30 ] || die "only $nh headers installed"
pass "$nh installed headers, each compiling on its own; none of the internal ones"
# every installed header is part of the API that contensou.h gathers: reached
# from it through includes (a header nothing reaches is a forgotten one)
inc=$prefix/include
declare -A reached=([contensou/contensou.h]=1)
todo=(contensou/contensou.h)
while [ ${#todo[@]} -gt 0 ]; do
  h=${todo[0]}
  todo=("${todo[@]:1}")
  while IFS= read -r dep; do
    [ -e "$inc/$dep" ] || die "$h includes <$dep>, which is not installed"
    [ -n "${reached[$dep]:-}" ] && continue
    reached[$dep]=1
    todo+=("$dep")
  done < <(sed -n 's|^#include <\(contensou/[^>]*\)>.*|\1|p' "$inc/$h")
done
while IFS= read -r h; do
  rel=${h#"$inc/"}
  [ -n "${reached[$rel]:-}" ] || die "the installed $rel is not reachable from contensou.h"
done < <(find "$inc/contensou" -name '*.h')
pass "every installed header (${#reached[@]}) is reachable from contensou.h"
# the shared library exports exactly the names that the installed headers
# declare with CS_API (the library is built with -fvisibility=hidden), and
# no installed header declares a function it does not export
so=$(find "$prefix" -name 'libcontensou.so' | head -1)
[ -n "$so" ] || die "no libcontensou.so in the prefix"
# (names of the toolchain's own, such as AddressSanitizer's __odr_asan.*
# beside an exported variable, are not the API's)
nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^__' | sort >"$scratch/exported.txt"
# the names the installed headers declare: every cs_ name followed by ( or [
# on a declaration that starts at the left margin (not inside a comment),
# not a function pointer's return type ("enum cs_status (*check)(...)");
# preprocessor lines and the C++ guards' braces go first, else a declaration
# after them ("#define X 1u", "extern "C" {") is not seen
cat "$inc"/contensou/*.h "$inc"/contensou/*/*.h | sed -E '/^ *(#|extern "C" *\{ *$|\} *$)/d' | tr '\n' ' ' | sed 's|/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/||g' |
  tr ';' '\n' | grep -oE '^ *(CS_API +)?(extern +)?[a-z][^{}()]*\bcs_[a-z0-9_]+ *([[]|[(][^*])' |
  sed -E 's/ *([[]|[(].)$//' >"$scratch/declared_lines.txt"
grep -oE 'cs_[a-z0-9_]+$' "$scratch/declared_lines.txt" | sort -u >"$scratch/declared.txt"
grep -v '^ *CS_API' "$scratch/declared_lines.txt" | grep -oE 'cs_[a-z0-9_]+$' | sort -u >"$scratch/unmarked.txt"
[ -s "$scratch/declared.txt" ] || die "no declarations found in the installed headers"
[ -s "$scratch/unmarked.txt" ] && die "installed headers declare without CS_API (hidden, so unusable): $(tr '\n' ' ' <"$scratch/unmarked.txt")"
extra=$(comm -23 "$scratch/exported.txt" "$scratch/declared.txt" | tr '\n' ' ')
[ -z "$extra" ] || die "libcontensou.so exports names no installed header declares: $extra"
missing=$(comm -13 "$scratch/exported.txt" "$scratch/declared.txt" | tr '\n' ' ')
[ -z "$missing" ] || die "installed headers declare names libcontensou.so does not export: $missing"
nexp=$(wc -l <"$scratch/exported.txt")
# the frozen surface stays small: growing it is a decision, not an accident
[ "$nexp" -le 160 ] || die "libcontensou.so exports $nexp names (at most 160: see src/README.md)"
nm -D --undefined-only "$so" | grep -qw MPI_Abort && die "libcontensou.so references MPI_Abort"
pass "libcontensou.so exports $nexp names, exactly those the installed headers declare with CS_API; no MPI_Abort"
libdir=$(find "$prefix" -name 'contensouConfig.cmake' -path '*/cmake/contensou/*' | head -1)
[ -n "$libdir" ] || die "no contensouConfig.cmake in the prefix"
libdir=${libdir%/cmake/contensou/contensouConfig.cmake}
[ -e "$libdir/libcontensou.so" ] && [ -e "$libdir/libcontensou.a" ] ||
  die "shared and static libraries not both in $libdir"
if grep -q '^HELP2MAN_EXECUTABLE:FILEPATH=/' "$build/CMakeCache.txt"; then
  for v in "" -sweep -simulate -plot -info -friction -friction-eta; do
    page=$prefix/share/man/man1/contensou$v.1
    [ -f "$page" ] || die "no man page $page"
    # rendered, with the command's own help text in it
    txt=$(MANWIDTH=100 man -l "$page" 2>/dev/null | tr -s ' \n' '  ') || die "man -l $page failed"
    printf '%s\n' "$txt" | grep -q 'SYNOPSIS' || die "$page: no SYNOPSIS"
    printf '%s\n' "$txt" | grep -qi 'exit status' || die "$page: no exit status"
  done
  man -l "$prefix/share/man/man1/contensou-sweep.1" 2>/dev/null | grep -q -- '--resume' ||
    die "contensou-sweep(1) does not describe --resume"
  pass "installed: program, libraries, headers, data, completion, docs, man pages"
else
  pass "installed: program, libraries, headers, data, completion, docs (no help2man: no man pages)"
fi

# a closed-form check for the consumer: undamped oscillator, 3 values of w
cat >"$scratch/oscillator.ini" <<'EOF'
[model]
name = oscillator
[parameters]
w = 1
zeta = 0
[initial]
x = 1
v = 0
[solver]
rtol = 1e-10
atol = 1e-12
[output]
t_end = 10
[sweep]
parameter = w
from = 1
to = 3
points = 3
transient = 5
record = 20
lyapunov = none
multipliers = false
EOF

# a sanitizer build's library needs the sanitizers' runtime in the program too
san=()
if grep -q '^CONTENSOU_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
  san=(-fsanitize=address,undefined)
fi

# the consumer with CMake, configured from outside both trees
step cmake_configure cmake -S "$src/tests/cli/install" -B "$scratch/consumer-cmake" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="${san[*]}"
step cmake_build cmake --build "$scratch/consumer-cmake"
step consumer_cmake "$scratch/consumer-cmake/consumer" "$scratch/oscillator.ini"
grep -q 'all checks hold' "$scratch/consumer_cmake.log" || die "consumer (CMake) did not finish"
pass "a program built with find_package(contensou) runs a sweep: period 2 pi/w within 1e-8"

# the same with pkg-config (shared library; and static, with --static)
export PKG_CONFIG_PATH=$libdir/pkgconfig
read -r -a cflags <<<"$(pkg-config --cflags contensou)" || die "pkg-config --cflags contensou failed"
read -r -a libs <<<"$(pkg-config --libs contensou)" || die "pkg-config --libs contensou failed"
step pc_build cc "${san[@]}" -std=c17 -Wall -Wextra -Werror "${cflags[@]}" "$src/tests/cli/install/consumer.c" \
  -o "$scratch/consumer-pc" "${libs[@]}" -lm -Wl,-rpath,"$libdir"
step consumer_pc "$scratch/consumer-pc" "$scratch/oscillator.ini"
grep -q 'all checks hold' "$scratch/consumer_pc.log" || die "consumer (pkg-config) did not finish"
pass "the same program built with pkg-config (shared library)"
read -r -a slibs <<<"$(pkg-config --static --libs contensou)" || die "pkg-config --static failed"
# -lcontensou would pick the shared library: name the archive instead
static=()
for l in "${slibs[@]}"; do
  if [ "$l" = -lcontensou ]; then static+=("$libdir/libcontensou.a"); else static+=("$l"); fi
done
step pc_static cc "${san[@]}" -std=c17 "${cflags[@]}" "$src/tests/cli/install/consumer.c" \
  -o "$scratch/consumer-static" "${static[@]}" -lm
ldd "$scratch/consumer-static" | grep -q libcontensou && die "consumer-static links libcontensou.so"
step consumer_static "$scratch/consumer-static" "$scratch/oscillator.ini"
pass "the same program linked statically with pkg-config --static"
# C++ programs: the headers declare C linkage (extern "C")
if command -v c++ >/dev/null 2>&1; then
  cat >"$scratch/cxx.cc" <<'CXX'
#include <contensou/contensou.h>
#include <cstdio>
#include <cstring>
int main()
{
  const struct cs_model *m = cs_model_find("oscillator");
  enum cs_law law;
  if (!m || cs_law_from_name("I11-reg", &law) != CS_OK || law != CS_LAW_I11_REG ||
      std::strcmp(cs_strerror(CS_OK), "success") != 0)
    return 1;
  std::printf("C++ sees %s, version %s\n", m->name, CS_VERSION);
  return 0;
}
CXX
  step cxx_build c++ "${san[@]}" -std=c++17 -Wall -Wextra -Werror "${cflags[@]}" "$scratch/cxx.cc" \
    -o "$scratch/cxx" "${libs[@]}" -Wl,-rpath,"$libdir"
  step cxx_run "$scratch/cxx"
  grep -q 'C++ sees oscillator' "$scratch/cxx_run.log" || die "the C++ program did not run"
  pass "a C++ program includes <contensou/contensou.h> and links the library"
fi

# the example programs, as installed under share/doc/contensou/examples, built
# against this installed copy and run by their own CTest
if ls "$prefix/share/doc/contensou/examples/"*.c >/dev/null 2>&1; then
  step examples_configure cmake -S "$prefix/share/doc/contensou/examples" -B "$scratch/examples" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="${san[*]}"
  step examples_build cmake --build "$scratch/examples"
  step examples_run ctest --test-dir "$scratch/examples" --output-on-failure
  nex=$(grep -c 'Test *#' "$scratch/examples_run.log")
  [ "$nex" -ge 3 ] || die "only $nex example programs ran against the installed copy"
  pass "$nex example programs built and run against the installed copy"
else
  die "no example programs installed under share/doc/contensou/examples"
fi

# relocated: the whole prefix moved, then the program run from far away
moved=$scratch/moved/opt
mkdir -p "$scratch/moved" && mv "$prefix" "$moved" || die "cannot move the prefix"
far=$(mktemp -d /tmp/contensou-install-XXXXXX) || die "mktemp failed"
trap 'rm -rf "$far"' EXIT
cp "$moved/share/contensou/params/pendulum_fig5a.ini" "$far/" || die "no params installed"
cd "$far" || die "cd $far"
[ "$(PKG_CONFIG_PATH=${libdir/$prefix/$moved}/pkgconfig pkg-config --variable=prefix contensou)" \
  -ef "$moved" ] || die "pkg-config's prefix does not follow the moved installation"
pass "pkg-config's prefix follows a moved installation"
step sweep "$moved/bin/contensou" sweep pendulum_fig5a.ini --quiet -o fig5a.h5 \
  --set sweep.points=3 --set sweep.from=30 --set sweep.to=40 --set sweep.transient=2 \
  --set sweep.record=2 --set sweep.lyapunov=none --set sweep.multipliers=false
[ -s fig5a.h5 ] || die "the installed sweep wrote no fig5a.h5"
pass "the installed, moved program runs a sweep from $far"
if command -v gnuplot >/dev/null 2>&1; then
  step plot "$moved/bin/contensou" plot fig5a.h5
  ls ./*.png >/dev/null 2>&1 || die "the installed plot wrote no PNG in $far"
  # the scripts it ran are the installed ones, not the source tree's (which
  # still exists here): with the installed ones broken, plot must fail
  gp=$moved/share/contensou/gnuplot
  mv "$gp" "$gp.good" && mkdir "$gp" || die "cannot set the scripts aside"
  for f in "$gp.good"/*; do
    printf 'this is not gnuplot\n' >"$gp/$(basename "$f")"
  done
  rm -f ./*.png
  last="plot with the installed scripts broken"
  "$moved/bin/contensou" plot fig5a.h5 >"$scratch/plot_broken.log" 2>&1 &&
    die "plot succeeded with the installed scripts broken: it does not use them"
  pass "its plot uses the installed gnuplot scripts (CONTENSOU_GNUPLOT_DIR unset)"
  rm -rf "$gp" && mv "$gp.good" "$gp" || die "cannot restore the scripts"
fi

# the installed completion offers a model key from the installed program
# shellcheck disable=SC1091
source "$moved/share/bash-completion/completions/contensou"
COMP_WORDS=("$moved/bin/contensou" sweep pendulum_fig5a.ini --set parameters.omega0_f)
COMP_CWORD=4
_contensou
[ "${COMPREPLY[*]}" = "parameters.omega0_freq=" ] || die "installed completion offered '${COMPREPLY[*]}'"
pass "the installed bash completion"
echo "1..$checks"
