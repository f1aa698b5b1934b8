#!/bin/bash
# The meson test sample-openacc-make: `make check` on a scratch copy of this directory, with the
# build tree's jaccc, as a user would run it.   make_check.sh JACCC [extra CFLAGS...]
set -euo pipefail
src=$(dirname "$(realpath "$0")")
jaccc=$(realpath "$1")
shift
command -v make >/dev/null || { echo "make is not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jacc-sample.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$src/heat.c" "$src/Makefile" "$tmp/"
make -C "$tmp" check JACCC="bash $jaccc" CFLAGS="-O2 -Wall -Wextra -Werror $*" JACC_DEVICES=host:2
make -C "$tmp" check JACCC="bash $jaccc" CFLAGS="-O2 -Wall -Wextra -Werror $*" JACC_DEVICES=host:3
