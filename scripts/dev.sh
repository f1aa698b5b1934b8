#!/usr/bin/env bash
# The project's two entry points (see README.md):
#   scripts/dev.sh demo   install what is missing, build, run the demo on the default devices
#   scripts/dev.sh test   install what is missing, build, run the whole test suite
# Options: --sanitize (build in build-asan/ with -Db_sanitize=address,undefined), --build-dir DIR,
# --unity (a build made once and never rebuilt, as CI's: the libraries compile four sources to a
# unit, a third less time; a developer's edit would recompile its whole unit).
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:-}
shift || true
sanitize=0
unity=0
build_dir=build
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitize) sanitize=1; build_dir=build-asan ;;
    --unity) unity=1 ;;
    --build-dir) build_dir=$2; shift ;;
    *) echo "dev.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
case "$mode" in
  demo|test) ;;
  *) echo "usage: scripts/dev.sh demo|test [--sanitize] [--unity] [--build-dir DIR]" >&2; exit 2 ;;
esac

# Debian packages the build needs (LLVM/clang 16 exactly: the JIT and frontend are built on them),
# CMake for the test of jaccc in users' builds (tests/tools/jaccc_builds.sh), Open MPI for the
# MPI sample's test (samples/mpi), a CBLAS for the test of native
# implementations calling a BLAS library (tests/api/NativeBlasTest.cpp), and for Fortran
# sources flang's parser, semantics and intrinsic modules (libflang-16-dev, flang-16)
# with gfortran, which compiles the translated host programs.
packages=(build-essential pkg-config meson ninja-build cmake
          llvm-16-dev libclang-16-dev libclang-cpp16-dev libclang-common-16-dev
          libffi-dev libboost-graph-dev googletest libgtest-dev libbenchmark-dev
          openmpi-bin libopenmpi-dev libblas-dev flang-16 libflang-16-dev gfortran)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "dev.sh: installing missing packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "dev.sh: all required packages are installed"
fi

# Line tables only (-g1): backtraces keep their files and lines, and the build, most of it
# instantiating clang's AST visitors, takes a fifth less time than with full debug information
# (for a debugger's variables: meson configure build -Dc_args= -Dcpp_args=).
setup_args=(-Dbuildtype=debugoptimized -Dc_args=-g1 -Dcpp_args=-g1)
test_args=()
if [ $sanitize -eq 1 ]; then
  # Instrumented code that instantiates clang's AST visitors compiles several times slower,
  # UBSan's checks most: -O0 with line tables only (-g1, enough for symbolized reports) builds
  # in 11 minutes on CI's two cores against 20 at -O1, and the suite runs as fast (its time is
  # in LLVM's JIT and the kernels, not instrumented; 291 s against 279 s), with every check
  # kept. The benchmarks are not run by the test pass (the normal build compiles them). The
  # libraries build as unity builds (four sources a unit, the tests' files one by one:
  # tests/meson.build), parsing the shared headers a quarter as often: a third less time for
  # them. (The normal build, which developers rebuild file by file, is one with --unity only.)
  setup_args=(-Dbuildtype=plain -Doptimization=0 -Dc_args=-g1 -Dcpp_args=-g1
              -Db_sanitize=address,undefined -Db_lundef=false -Dbenchmarks=false)
  unity=1
  # Each suite once: the api suite's other specialization modes run in the normal pass.
  test_args+=(--no-suite specialize-modes)
fi
[ $unity -eq 1 ] && setup_args+=(-Dunity=on -Dunity_size=4)
if [ ! -f "$build_dir/build.ninja" ]; then
  meson setup "$build_dir" "${setup_args[@]}"
fi
ninja -C "$build_dir"

case "$mode" in
  demo)
    "$build_dir/samples/saxpy"
    ;;
  test)
    if [ $sanitize -eq 1 ]; then
      # LLVM and clang keep process-lifetime singletons; leaks are not what this pass looks for.
      export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
      export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    fi
    status=0
    meson test -C "$build_dir" --print-errorlogs --num-processes 2 "${test_args[@]}" || status=$?
    # One closing line with the GoogleTest totals of every suite (meson counts suites only).
    log="$build_dir/meson-logs/testlog.txt"
    # (grep finds nothing when nothing failed: not an error under pipefail.)
    passed=$({ grep -hoE '^\[  PASSED  \] [0-9]+ test' "$log" || true; } |
             awk '{s += $4} END {print s + 0}')
    failed=$({ grep -hoE '^\[  FAILED  \] [0-9]+ tests?, listed below' "$log" || true; } |
             awk '{s += $4} END {print s + 0}')
    echo "jacc: $passed passed, $failed failed"
    exit $status
    ;;
esac
