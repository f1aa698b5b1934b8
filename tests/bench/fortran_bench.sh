#!/usr/bin/env bash
# Fortran against gfortran and against its C twin: tests/bench/fortran/PROGRAM.f90 (jacobi: a
# stencil; adi: alternating-direction sweeps) built by gfortran -O3 (the directives ignored: one
# thread) and by jaccc -O3, and PROGRAM.c by jaccc -O3;
# each run ROUNDS times, alternating, with a warm kernel cache. Prints the median seconds of the
# sweeps (the programs' own clocks), the ratios jacc Fortran on host:1x1 / gfortran and
# host:2x1 / host:1x1 for both languages, and the bytes each moved between devices on host:2x1
# (JACC_PROFILE): the Fortran and C programs should move the same.
#   tests/bench/fortran_bench.sh BUILD [ROUNDS] [PROGRAM]   (docs/performance.md, "Fortran")
set -euo pipefail
build=$(realpath "$1")
rounds=${2:-5}
program=${3:-jacobi}
src=$(dirname "$(realpath "$0")")/fortran
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export JACC_CACHE_DIR=$work/cache
gfortran -O3 -o "$work/gfortran" "$src/$program.f90"
bash "$build/tools/jaccc" -O3 -o "$work/fortran" "$src/$program.f90"
bash "$build/tools/jaccc" -O3 -o "$work/c" "$src/$program.c"
seconds() { awk '{ print $4 }' <<<"$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# Warm the kernel cache, and check every build computes the same grid.
ref=$("$work/gfortran" | awk '{ print $2 }')
for p in fortran c; do
  for d in host:1x1 host:2x1; do
    got=$(JACC_DEVICES=$d "$work/$p" | awk '{ print $2 }')
    [[ $got == "$ref" ]] || { echo "$p on $d: sum $got, gfortran's $ref" >&2; exit 1; }
  done
done
for ((r = 0; r < rounds; r++)); do
  seconds "$("$work/gfortran")" >> "$work/gfortran.t"
  for p in fortran c; do
    for d in host:1x1 host:2x1; do
      seconds "$(JACC_DEVICES=$d "$work/$p")" >> "$work/$p.$d.t"
    done
  done
done
g=$(median < "$work/gfortran.t")
printf '%-28s %8s\n' "program" "seconds"
printf '%-28s %8.3f\n' "gfortran -O3 (one thread)" "$g"
for p in fortran c; do
  for d in host:1x1 host:2x1; do
    printf '%-28s %8.3f\n' "jacc $p $d" "$(median < "$work/$p.$d.t")"
  done
done
f1=$(median < "$work/fortran.host:1x1.t"); f2=$(median < "$work/fortran.host:2x1.t")
c1=$(median < "$work/c.host:1x1.t"); c2=$(median < "$work/c.host:2x1.t")
awk -v f1="$f1" -v f2="$f2" -v c1="$c1" -v c2="$c2" -v g="$g" 'BEGIN {
  printf "jacc Fortran host:1x1 / gfortran -O3: %.2f\n", f1 / g
  printf "host:2x1 / host:1x1: Fortran %.2f, C %.2f\n", f2 / f1, c2 / c1 }'
for p in fortran c; do
  moved=$(JACC_DEVICES=host:2x1 JACC_PROFILE=1 "$work/$p" 2>&1 | awk '/^  device<->device:/ { print $2, $3 }')
  echo "between devices on host:2x1, $p: ${moved:-none}"
done
