#!/usr/bin/env bash
# Coverage-guided fuzzing by hand, with libFuzzer: builds a fuzz target (tests/fuzz/*Target.cpp)
# with clang, ASan and UBSan in build-fuzz/ (every jacc source instrumented), then runs it from its
# corpus in the repository. New inputs it finds go to build-fuzz/corpus-<target>/, crashes to
# build-fuzz/crash-*; --merge minimises those new inputs into tests/fuzz/corpus/<target>/ (commit
# them: CI replays the corpus).
#   scripts/fuzz.sh kernel-frontend|translate [executions] [libFuzzer options...]
#   scripts/fuzz.sh --merge kernel-frontend|translate
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

merge=0
if [ "${1:-}" = "--merge" ]; then merge=1; shift; fi
target=${1:-}
case "$target" in
  kernel-frontend|translate) ;;
  *) echo "usage: scripts/fuzz.sh [--merge] kernel-frontend|translate [executions] [libFuzzer options...]" >&2
     exit 2 ;;
esac
shift
runs=${1:-1000000}
[ $# -gt 0 ] && shift

# clang and its libFuzzer runtime (Debian's clang; jacc itself builds with the system's g++).
for p in clang libclang-rt-14-dev; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get install -y -qq --no-install-recommends "$p"
  fi
done

if [ ! -d build-fuzz ]; then
  CC=clang CXX=clang++ meson setup build-fuzz -Dfuzzing=true -Dbenchmarks=false \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fsanitize=fuzzer-no-link -Dcpp_args=-fsanitize=fuzzer-no-link
fi
ninja -C build-fuzz "tests/fuzz-$target"

corpus=tests/fuzz/corpus/$target
found=build-fuzz/corpus-$target
mkdir -p "$found"
export JACC_CACHE=off
if [ $merge -eq 1 ]; then
  exec "build-fuzz/tests/fuzz-$target" -merge=1 "$corpus" "$found"
fi
exec "build-fuzz/tests/fuzz-$target" -runs="$runs" -max_len=4096 -timeout=20 -rss_limit_mb=4096 \
  -artifact_prefix=build-fuzz/ -print_final_stats=1 "$@" "$found" "$corpus"
