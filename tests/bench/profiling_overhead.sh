#!/usr/bin/env bash
# What the profiling hooks cost while nobody listens: the same benchmarks from a normal build and
# from one configured with -Dprofiling=false (every hook compiled out), run alternately, ROUNDS
# times each; prints each benchmark's median per build and their ratio (hooks / no hooks). Then,
# when valgrind is installed, the instructions of one warm push on host:1 in each build
# (callgrind inside jacc_kernel_push, 3000 pushes less 1000: repeatable whatever the machine
# is doing, which the timings are not).
#   tests/bench/profiling_overhead.sh BUILD NOPROF_BUILD [ROUNDS]
#   e.g. meson setup build-noprof -Dbuildtype=debugoptimized -Dprofiling=false
#        ninja -C build-noprof tests/bench/jacc-split-bench tests/bench/jacc-tiny-push \
#          tools/jacc-compile-server
#        tests/bench/profiling_overhead.sh build build-noprof 7
set -euo pipefail
with=$1
without=$2
rounds=${3:-5}
filter='BM_TinyPushHost1|BM_TinyPushHost2Demand|BM_JacobiHost2Demand'
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() { # build label round
  "$1/tests/bench/jacc-split-bench" --benchmark_filter="$filter" \
    --benchmark_out="$out/run.csv" --benchmark_out_format=csv > /dev/null 2>&1
  awk -F, -v label="$2" '$1 ~ /^"?BM_/ { gsub(/"/, "", $1); print label, $1, $4 }' \
    "$out/run.csv" >> "$out/times"
}
for ((r = 0; r < rounds; r++)); do
  # Alternate which build goes first: drift on a noisy machine hits both alike.
  if ((r % 2 == 0)); then run "$with" hooks; run "$without" none
  else run "$without" none; run "$with" hooks; fi
done
python3 - "$out/times" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    label, name, t = line.split()
    times.setdefault(name, {}).setdefault(label, []).append(float(t))
print(f"{'benchmark':26} {'hooks (off)':>14} {'no hooks':>14} {'ratio':>8}")
for name, by in sorted(times.items()):
    h, z = statistics.median(by["hooks"]), statistics.median(by["none"])
    print(f"{name:26} {h:14.3f} {z:14.3f} {h / z:8.3f}")
PY
echo "(real time per iteration, in the benchmark's unit; medians of $rounds runs each)"

command -v valgrind > /dev/null || exit 0
instructions() { # build pushes: instructions executed inside jacc_kernel_push
  JACC_DEVICES=host:1 JACC_HOST_THREADS=1 JACC_SPECIALIZE=off JACC_SPIN_US=0 \
    valgrind --tool=callgrind --toggle-collect=jacc_kernel_push \
    --callgrind-out-file=/dev/null "$1/tests/bench/jacc-tiny-push" "$2" 2>&1 |
    awk '/Collected/ { print $NF }'
}
for b in "$with" "$without"; do
  a=$(instructions "$b" 1000)
  z=$(instructions "$b" 3000)
  echo "$b: $(( (z - a) / 2000 )) instructions per warm push (host:1, spinning off)"
done
