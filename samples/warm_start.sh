#!/usr/bin/env bash
# Run a sample twice against a fresh disk cache: the first run compiles its kernels and stores
# them, the second compiles nothing (no clang, no NVRTC: no code generation is logged) and loads
# every kernel from disk.
# Usage: warm_start.sh SAMPLE KERNELS [VAR=VALUE...]
set -euo pipefail
exe=$1 kernels=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export JACC_CACHE=on JACC_CACHE_DIR="$dir/cache" JACC_DEBUG=codegen,cache
for kv in "$@"; do export "${kv?}"; done

fail() { echo "warm_start: $*" >&2; exit 1; }
stats() { grep '^stats:' "$1" | tr ' ' '\n' | grep "^$2=" | cut -d= -f2; }

"$exe" >"$dir/out1" 2>"$dir/err1" || { cat "$dir/out1" "$dir/err1"; fail "first run failed"; }
"$exe" >"$dir/out2" 2>"$dir/err2" || { cat "$dir/out2" "$dir/err2"; fail "second run failed"; }
cat "$dir/out1" "$dir/out2"

[ "$(stats "$dir/out1" compiled)" = "$kernels" ] || fail "first run: expected compiled=$kernels"
[ "$(stats "$dir/out1" disk_cache_hits)" = 0 ] || fail "first run: expected no disk hit"
[ "$(stats "$dir/out2" compiled)" = 0 ] || fail "second run compiled kernels"
[ "$(stats "$dir/out2" disk_cache_hits)" = "$kernels" ] ||
  fail "second run: expected disk_cache_hits=$kernels"
grep -q '\[jacc:codegen\] compiled in' "$dir/err1" || fail "first run did not log its compile"
if grep -q '\[jacc:codegen\]' "$dir/err2"; then
  grep '\[jacc:codegen\]' "$dir/err2" | head -5 >&2
  fail "second run generated code (clang or NVRTC ran)"
fi
if [ -n "${JACC_CUDA_VERIFY:-}" ]; then
  grep -q 'CUDA source' "$dir/err1" || fail "first run did not compile for CUDA"
fi
echo "warm start ok: $kernels kernel(s) loaded from disk, nothing compiled"

# A corrupt entry is a miss: one warning, the kernel is compiled again and the entry replaced.
obj=$(find "$dir/cache" -name host.o | head -1)
[ -n "$obj" ] || fail "no host object in the cache"
printf '\x13\x37' | dd of="$obj" bs=1 seek=64 conv=notrunc status=none
"$exe" >"$dir/out3" 2>"$dir/err3" || { cat "$dir/out3" "$dir/err3"; fail "run after corruption failed"; }
[ "$(grep -c 'jacc: warning' "$dir/err3")" = 1 ] || { cat "$dir/err3"; fail "expected one warning"; }
[ "$(stats "$dir/out3" compiled)" = 1 ] || fail "the corrupt entry was not compiled again"
"$exe" >"$dir/out4" 2>"$dir/err4" || fail "run after the repair failed"
[ "$(stats "$dir/out4" compiled)" = 0 ] || fail "the entry was not replaced"
! grep -q 'jacc: warning' "$dir/err4" || fail "a warning after the repair"

# An unusable cache directory (its parent is a file; even root cannot create it): the program
# runs without the disk cache, after one warning.
JACC_CACHE_DIR="$dir/out1/cache" "$exe" >"$dir/out5" 2>"$dir/err5" ||
  { cat "$dir/out5" "$dir/err5"; fail "run with an unusable cache directory failed"; }
[ "$(grep -c 'jacc: warning' "$dir/err5")" = 1 ] || { cat "$dir/err5"; fail "expected one warning"; }
[ "$(stats "$dir/out5" compiled)" = "$kernels" ] || fail "expected every kernel compiled"
echo "corrupt entry and unusable directory ok"
