#!/usr/bin/env bash
# Packs what scripts/gpu-check.sh runs into one archive, for a GPU machine that cannot build jacc
# (no LLVM 16 and no network to install it): the check's binaries from a build directory,
# stripped, the shared libraries they load that a CUDA machine may lack, and clang's resource
# headers (the host compiler's <stddef.h> and friends). The binaries keep the absolute paths they
# were built with (the source tree, the build directory, the resource directory), so gpu-check.sh
# restores them at those paths.
#   scripts/gpu-bundle.sh [BUILD_DIR] ARCHIVE      (BUILD_DIR defaults to build)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
if [ $# -eq 1 ]; then build=build; archive=$1
elif [ $# -eq 2 ]; then build=$1; archive=$2
else echo "usage: scripts/gpu-bundle.sh [BUILD_DIR] ARCHIVE" >&2; exit 2; fi
build=$(realpath "$build")
archive=$(realpath -m "$archive")

lib=$(ninja -C "$build" -t targets all | awk -F: '/^libjacc\.so[0-9.]*:/{print $1; exit}')
targets=("$lib" tools/jacc-translate tools/jacc-info tools/jacc-compile-server
         tests/api-tests tests/bench/jacc-gpu-bench)
ninja -C "$build" "${targets[@]}" >/dev/null
ldd "$build/libjacc.so" | grep -q libnvrtc ||
  { echo "gpu-bundle: $build was configured without CUDA (no /usr/local/cuda): nothing to check on a GPU" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/jacc-gpu-bundle.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# The binaries at their paths under the build directory, stripped of debug information.
files=("${targets[@]}" tools/jaccc)
for f in "${files[@]}"; do
  mkdir -p "$stage/build/$(dirname "$f")"
  cp -a "$build/$f" "$stage/build/$f"
  if [ "$(head -c4 "$build/$f" | tail -c3)" = ELF ]; then strip --strip-debug "$stage/build/$f"; fi
done
for link in libjacc.so libjacc.so.0; do
  [ -L "$build/$link" ] && cp -a "$build/$link" "$stage/build/$link"
done

# Shared libraries outside the C and C++ runtimes and the CUDA toolkit (the machine has its own).
mkdir -p "$stage/lib"
for f in "${files[@]}"; do
  [ "$f" = tools/jaccc ] && continue
  ldd "$build/$f" | awk '/=> \//{print $3}'
done | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libgcc_s.so*|libstdc++.so*) ;;
    libresolv.so*|libcuda.so*|libnvrtc*) ;;
    libjacc.so*) ;;
    *) cp -L "$lib" "$stage/lib/" ;;
  esac
done

resource=$(grep -o -m1 'JACC_CLANG_RESOURCE_DIR=[^ ]*' "$build/build.ninja" | cut -d'"' -f2)
[ -d "$resource/include" ] || { echo "gpu-bundle: clang's resource directory '$resource' not found" >&2; exit 1; }
mkdir -p "$stage/clang"
cp -a "$resource/include" "$stage/clang/include"

printf 'source_root=%s\nbuild_dir=%s\nresource_dir=%s\n' "$root" "$build" "$resource" >"$stage/bundle.env"
tar -C "$stage" -cf - bundle.env build lib clang | xz -T0 -9 >"$archive"
echo "gpu-bundle: $archive ($(du -h "$archive" | cut -f1)) from $build"
