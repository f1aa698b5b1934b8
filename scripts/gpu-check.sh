#!/usr/bin/env bash
# Proves jacc's CUDA backend on an NVIDIA machine in one call (docs/gpu.md "The GPU check"):
# gets the binaries (a build in build-gpu/ with every core, or a bundle made by
# scripts/gpu-bundle.sh where LLVM 16 cannot be installed), then runs, each under its own
# timeout, jacc-info, the GPU tests, the OpenACC corpus on the GPU and on the GPU with a host
# device, and the GPU benchmarks, and prints one summary table. Every log and the summary go to
# OUT_DIR. Without an NVIDIA driver it says so and exits 0.
#   scripts/gpu-check.sh OUT_DIR [--bundle ARCHIVE]
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-}
bundle=""
[ $# -ge 3 ] && [ "$2" = --bundle ] && bundle=$(realpath "$3")
if [ -z "$out" ] || { [ $# -ne 1 ] && [ -z "$bundle" ]; }; then
  echo "usage: scripts/gpu-check.sh OUT_DIR [--bundle ARCHIVE]" >&2
  exit 2
fi
mkdir -p "$out"
out=$(realpath "$out")
summary=$out/summary.txt
: >"$summary"
started=$(date +%s)

# One summary row: step, status, seconds, what it found. A failed or timed-out row fails the check.
any_failed=0
row() {
  printf '%-30s %-5s %5s  %s\n' "$1" "$2" "$3" "$4" | tee -a "$summary"
  case $2 in FAIL|TIME) any_failed=1 ;; esac
}

# --- Is there a driver? (JACC_LIBCUDA names it as it does for the runtime.)
driver=""
if [ -n "${JACC_LIBCUDA:-}" ]; then
  [ -e "$JACC_LIBCUDA" ] && driver=$JACC_LIBCUDA
else
  driver=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')
  for d in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
    [ -z "$driver" ] && [ -e "$d/libcuda.so.1" ] && driver=$d/libcuda.so.1
  done
fi
if [ -z "$driver" ]; then
  row "driver" "skip" 0 "no NVIDIA driver (libcuda.so.1) on this machine: nothing to check"
  exit 0
fi
gpus=$(nvidia-smi -L 2>/dev/null | head -4 | tr '\n' ';')
row "driver" "ok" 0 "$driver; ${gpus:-nvidia-smi not available}"

# --- The binaries: a bundle, or a build with every core.
build=build-gpu
step_start=$(date +%s)
if [ -n "$bundle" ]; then
  unpacked=$(mktemp -d "${TMPDIR:-/tmp}/jacc-gpu-bundle.XXXXXX")
  if ! xz -dc "$bundle" | tar -C "$unpacked" -xf - 2>"$out/build.log"; then
    row "binaries" "FAIL" $(($(date +%s) - step_start)) "could not unpack $bundle (build.log)"
    exit 1
  fi
  # shellcheck disable=SC1091
  . "$unpacked/bundle.env"
  {
    echo "bundle built at $source_root (build $build_dir, clang resources $resource_dir)"
    # The binaries were built under source_root: it must name this checkout.
    if [ "$(realpath -m "$source_root")" != "$PWD" ]; then
      if [ -e "$source_root" ]; then
        echo "gpu-check: $source_root exists and is not this checkout"; exit 1
      fi
      mkdir -p "$(dirname "$source_root")" && ln -s "$PWD" "$source_root" &&
        echo "linked $source_root to $PWD"
    fi
    mkdir -p "$build_dir" && cp -a "$unpacked/build/." "$build_dir/"
    if [ ! -d "$resource_dir/include" ]; then
      mkdir -p "$resource_dir" && cp -a "$unpacked/clang/include" "$resource_dir/" &&
        echo "clang resource headers placed in $resource_dir"
    fi
    # The libraries the machine lacks come from the bundle; its own are preferred.
    mkdir -p "$unpacked/use"
    for lib in "$unpacked"/lib/*; do
      name=$(basename "$lib")
      if ldconfig -p | grep -q "^[[:space:]]*$name "; then echo "system $name"
      else cp "$lib" "$unpacked/use/" && echo "bundled $name"; fi
    done
  } >>"$out/build.log" 2>&1 || {
    row "binaries" "FAIL" $(($(date +%s) - step_start)) "could not place the bundle (build.log)"
    exit 1
  }
  build=$build_dir
  export LD_LIBRARY_PATH=$unpacked/use${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  how="bundle from $(basename "$bundle")"
else
  if ! command -v llvm-config-16 >/dev/null && [ ! -x /usr/lib/llvm-16/bin/llvm-config ]; then
    packages=(build-essential pkg-config meson ninja-build llvm-16-dev libclang-16-dev
              libclang-cpp16-dev libclang-common-16-dev libffi-dev libboost-graph-dev
              googletest libgtest-dev libbenchmark-dev)
    echo "gpu-check: installing ${packages[*]}" >>"$out/build.log"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    if ! { timeout 120 $sudo apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive timeout 300 $sudo apt-get install -y -qq \
             --no-install-recommends "${packages[@]}"; } >>"$out/build.log" 2>&1; then
      row "binaries" "FAIL" $(($(date +%s) - step_start)) \
        "LLVM 16 is missing and apt could not install it: make a bundle where jacc builds (scripts/gpu-bundle.sh) and pass --bundle"
      exit 1
    fi
  fi
  jobs=$(nproc)
  targets=(tools/jacc-translate tools/jacc-info tools/jacc-compile-server tests/api-tests
           tests/bench/jacc-gpu-bench)
  if ! { [ -f $build/build.ninja ] ||
         meson setup $build -Dbuildtype=release -Dcuda=enabled -Dfuzzing=false; } \
         >>"$out/build.log" 2>&1 ||
     ! lib=$(ninja -C $build -t targets all | awk -F: '/^libjacc\.so[0-9.]*:/{print $1; exit}') ||
     ! ninja -C $build -j"$jobs" "$lib" "${targets[@]}" >>"$out/build.log" 2>&1; then
    row "binaries" "FAIL" $(($(date +%s) - step_start)) "the build failed (build.log)"
    exit 1
  fi
  how="built in $build with $jobs cores"
fi
# libjacc links NVRTC (libnvrtc.so.13) from the toolkit it was built with; elsewhere, find it.
if ldd "$build/libjacc.so" | grep -q "libnvrtc.*not found"; then
  nvrtc=$(find /usr/local /opt /usr/lib -name 'libnvrtc.so.1[0-9]' 2>/dev/null | head -1)
  [ -n "$nvrtc" ] && export LD_LIBRARY_PATH=$(dirname "$nvrtc")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "NVRTC from ${nvrtc:-nowhere}" >>"$out/build.log"
fi
if ldd "$build/libjacc.so" "$build/tests/api-tests" | grep -q "not found"; then
  ldd "$build/libjacc.so" "$build/tests/api-tests" | grep "not found" >>"$out/build.log"
  row "binaries" "FAIL" $(($(date +%s) - step_start)) "libraries not found (build.log)"
  exit 1
fi
row "binaries" "ok" $(($(date +%s) - step_start)) "$how"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/jacc-gpu-check.XXXXXX")
export JACC_CACHE_DIR=$scratch/cache # every kernel compiled here, once

# Runs a step under a timeout into OUT_DIR/NAME.log; sets rc and secs.
run_step() {
  local name=$1 limit=$2
  shift 2
  local t0
  t0=$(date +%s)
  timeout -k 10 "$limit" "$@" >"$out/$name.log" 2>&1
  rc=$?
  secs=$(($(date +%s) - t0))
  ((rc == 124 || rc == 137)) && echo "gpu-check: timed out after $limit s" >>"$out/$name.log"
}
status() { if ((rc == 0)); then echo ok; elif ((rc == 124 || rc == 137)); then echo TIME; else echo FAIL; fi; }

# --- 1. What jacc sees.
run_step info 20 env JACC_DEVICES=cuda:all "$build/tools/jacc-info"
row "jacc-info" "$(status)" "$secs" \
  "$(grep -E '^ +0 +cuda' "$out/info.log" | sed 's/^ *//' | head -1); $(grep -E '^(CUDA driver|NVRTC):' "$out/info.log" | tr '\n' ' ')"

# --- 2. The GPU tests on cuda:0, cuda:all and cuda:all,host:1.
run_step gpu-tests 120 "$build/tests/api-tests" --gtest_filter='*GpuTest*'
# One line per test as it ends (gtest lists the failed ones again at the end, without a time).
ended() { grep -cE "^\[ +$1 +\] .*GpuTest.* \([0-9]+ ms\)$" "$out/gpu-tests.log"; }
passed=$(ended OK)
failed=$(ended FAILED)
skipped=$(ended SKIPPED)
row "GpuTest" "$(status)" "$secs" "$passed passed, $failed failed, $skipped skipped"

# --- 3. The benchmarks (ratios against the device's peak and against one GPU).
peak=$(python3 - "$driver" 2>/dev/null <<'EOF'
import ctypes, sys
cuda = ctypes.CDLL(sys.argv[1])
dev, v = ctypes.c_int(), ctypes.c_int()
assert cuda.cuInit(0) == 0 and cuda.cuDeviceGet(ctypes.byref(dev), 0) == 0
cuda.cuDeviceGetAttribute(ctypes.byref(v), 36, dev)  # memory clock, kHz
clock = v.value
cuda.cuDeviceGetAttribute(ctypes.byref(v), 37, dev)  # bus width, bits
if clock and v.value:
    print(f"{2 * clock * 1e3 * v.value / 8 / 1e9:.0f}")
EOF
)
bench_row() { # name log key: the figure, and its share of the peak when a bandwidth
  local v
  v=$(awk -v k="$3" '$1 == k {print $2}' "$out/$2.log")
  if [ -n "$peak" ] && [[ $3 == *bandwidth ]] && [ -n "$v" ]; then
    row "$1" "$(status)" "$secs" "$v GB/s, $(awk -v v="$v" -v p="$peak" 'BEGIN{printf "%.0f", 100*v/p}')% of the $peak GB/s peak"
  else
    row "$1" "$(status)" "$secs" "${v:-none} $(awk -v k="$3" '$1 == k {print $3}' "$out/$2.log")"
  fi
}
run_step bench-gpu 100 env JACC_DEVICES=cuda:0 "$build/tests/bench/jacc-gpu-bench"
bench_row "warm push, cuda:0" bench-gpu warm_push
bench_row "saxpy, cuda:0" bench-gpu saxpy_bandwidth
bench_row "stencil, cuda:0" bench-gpu stencil_bandwidth
bench_row "stencil collapse(2), cuda:0" bench-gpu stencil_collapse_bandwidth
run_step bench-mixed 60 env JACC_DEVICES=cuda:0,host:1 "$build/tests/bench/jacc-gpu-bench" jacobi
gpu_ms=$(awk '$1 == "jacobi_sweep" {print $2}' "$out/bench-gpu.log")
mixed_ms=$(awk '$1 == "jacobi_sweep" {print $2}' "$out/bench-mixed.log")
sum_gpu=$(awk '$1 == "jacobi_checksum" {print $2}' "$out/bench-gpu.log")
sum_mixed=$(awk '$1 == "jacobi_checksum" {print $2}' "$out/bench-mixed.log")
same=$([ -n "$sum_gpu" ] && [ "$sum_gpu" = "$sum_mixed" ] && echo "same checksum" || echo "CHECKSUMS DIFFER")
jacobi_status=$(status)
[[ $same == "same checksum" ]] || jacobi_status=FAIL
if [ -n "$gpu_ms" ] && [ -n "$mixed_ms" ]; then
  row "Jacobi 4096^2, per sweep" "$jacobi_status" "$secs" \
    "cuda:0 $gpu_ms ms, cuda:0,host:1 $mixed_ms ms ($(awk -v a="$gpu_ms" -v b="$mixed_ms" 'BEGIN{printf "%.2f", a/b}')x), $(awk '$1 == "jacobi_d2d_per_sweep" {print $2}' "$out/bench-mixed.log") B moved/sweep, $same"
else
  row "Jacobi 4096^2, per sweep" "FAIL" "$secs" "no figure (bench-gpu.log, bench-mixed.log)"
fi
cat "$out/bench-mixed.log" >>"$out/bench-gpu.log" && rm "$out/bench-mixed.log"
mv "$out/bench-gpu.log" "$out/bench.log"

# --- 4. The OpenACC corpus on the GPU, then with a host device beside it.
run_step openacc 240 env OPENACC_DEVICES="cuda:0 cuda:0,host:1" CC="${CC:-cc}" CXX="${CXX:-c++}" \
  bash tests/openacc/run.sh "$build/tools/jaccc" tests/openacc
for devices in cuda:0 cuda:0,host:1; do
  ok=$(grep -c "^ok .* with JACC_DEVICES=$devices:" "$out/openacc.log")
  bad=$(grep -c "^FAIL .* with JACC_DEVICES=$devices " "$out/openacc.log")
  skip=$(grep -c "^skip .* with JACC_DEVICES=$devices:" "$out/openacc.log")
  row "OpenACC corpus, $devices" "$(status)" "$secs" \
    "$ok programs right, $bad wrong, $skip not for these devices (their corpus: line)"
done
builds=$(grep -c "build failed" "$out/openacc.log")
((builds > 0)) && row "OpenACC corpus builds" "FAIL" "" "$builds programs did not build"

row "total" "" $(($(date +%s) - started)) "logs in $out"
rm -rf "$scratch"
exit $any_failed
