#!/bin/bash
# scripts/gpu-check.sh where there is no GPU: on a machine without an NVIDIA driver (here forced
# with JACC_LIBCUDA naming a missing library, so the test means the same on a GPU machine) it
# says so in its summary and exits 0 within seconds, having built and run nothing; a wrong
# command line is a usage error.
#   gpu_check.sh SOURCE_DIR
set -u
src=$(realpath "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL $*"; failed=1; }

had_build=$([ -e "$src/build-gpu" ] && echo yes)
start=$(date +%s%N)
log=$(JACC_LIBCUDA=$tmp/no-libcuda.so.1 bash "$src/scripts/gpu-check.sh" "$tmp/out" 2>&1)
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
((rc == 0)) || fail "exit $rc without a driver (expected 0): $log"
((ms < 10000)) || fail "took $ms ms without a driver (expected seconds)"
[[ $(cat "$tmp/out/summary.txt" 2>/dev/null) == "driver "*"skip "*"no NVIDIA driver (libcuda.so.1) on this machine: nothing to check" ]] ||
  fail "summary without a driver: $(cat "$tmp/out/summary.txt" 2>/dev/null)"
[[ $log == *"no NVIDIA driver"* ]] || fail "nothing printed without a driver: $log"
[ -n "$had_build" ] || [ ! -e "$src/build-gpu" ] || fail "build-gpu/ created without a driver"
(($(ls "$tmp/out" | wc -l) == 1)) || fail "wrote more than the summary: $(ls "$tmp/out")"

for args in "" "$tmp/out --bundle" "$tmp/out --bundel x.tar.xz"; do
  # shellcheck disable=SC2086
  usage=$(JACC_LIBCUDA=$tmp/none bash "$src/scripts/gpu-check.sh" $args 2>&1)
  rc=$?
  ((rc == 2)) && [[ $usage == "usage: scripts/gpu-check.sh OUT_DIR [--bundle ARCHIVE]" ]] ||
    fail "'gpu-check.sh $args' gave exit $rc: $usage"
done
((failed == 0)) && echo "ok   gpu-check.sh without a driver: skipped in $ms ms; usage errors"
exit $failed
