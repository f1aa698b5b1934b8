#!/bin/bash
# The meson test sample-mpi: heat_mpi.c built by plain mpicc (the reference: pragmas ignored, one
# rank) and by `CC=mpicc jaccc`, then run under mpirun on 1 rank, 2 ranks, 2 ranks of two host
# devices each, and 2 ranks dealt host devices by JACC_DEVICES=local-rank:...; every run must
# print the reference's line.   mpi_check.sh JACCC [extra CFLAGS for the jaccc build...]
set -euo pipefail
src=$(dirname "$(realpath "$0")")
jaccc=$(realpath "$1")
shift
for tool in mpicc mpirun; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jacc-mpi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mpicc -O2 -Wall -Wextra -Werror -Wno-unknown-pragmas -o "$tmp/heat-ref" "$src/heat_mpi.c"
CC=mpicc bash "$jaccc" -O2 -Wall -Wextra -Werror "$@" -o "$tmp/heat" "$src/heat_mpi.c"

# Two ranks on a two-core machine: more ranks than Open MPI counts slots for. Open MPI refuses
# to run as root unless told. The variables jacc reads go to every rank explicitly.
mpirun=(mpirun --oversubscribe)
(($(id -u) == 0)) && mpirun+=(--allow-run-as-root)
for v in JACC_CACHE JACC_CACHE_DIR JACC_COMPILE_SERVER ASAN_OPTIONS UBSAN_OPTIONS; do
  [[ -n ${!v:-} ]] && mpirun+=(-x "$v")
done
expected=$("${mpirun[@]}" -np 1 "$tmp/heat-ref")
echo "reference (mpicc, 1 rank): $expected"
failed=0
run() { # NAME NP JACC_DEVICES
  local start out rc=0 ms
  start=$(date +%s%N)
  out=$("${mpirun[@]}" -np "$2" -x JACC_DEVICES="$3" "$tmp/heat" 2>"$tmp/err") || rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  if ((rc != 0)) || [[ $out != "$expected" ]]; then
    echo "FAIL $1 (exit $rc): $out"
    sed 's/^/  /' "$tmp/err"
    failed=1
  else
    echo "ok   $1: the reference's result in $ms ms ($(paste -sd';' "$tmp/err"))"
  fi
}
run "-np 1" 1 host
run "-np 2" 2 host
run "-np 2, JACC_DEVICES=host:2 in each rank" 2 host:2
run "-np 2, JACC_DEVICES=local-rank:host:4 (two host devices each)" 2 local-rank:host:4
exit $failed
