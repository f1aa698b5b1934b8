#!/bin/bash
# A translated OpenACC program (samples/openacc/heat.c, built by jaccc) run under the test
# profiling tool (ACC_PROFLIB) on 1 to 3 host devices: every event well formed and paired, the
# program's constructs located in its source. The tool's last line, at the exit, says so.
# Usage: accprof_translated.sh JACCC TOOL.so PROGRAM.c [COMPILER FLAGS...] (-fsanitize=... when
# libjacc is sanitized)
set -euo pipefail
jaccc=$1 tool=$2 src=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$jaccc" -O2 "$@" -o "$dir/program" "$src" -lm
for n in 1 2 3; do
  status=0
  err=$(JACC_DEVICES=host:$n ACC_PROFLIB=$tool "$dir/program" 2>&1 >/dev/null) || status=$?
  if (( status != 0 )); then
    echo "host:$n: the program failed (exit status $status):"; echo "$err"; exit 1
  fi
  line=$(grep '^accproftool: runtime_shutdown' <<<"$err") || {
    echo "host:$n: the tool saw no runtime_shutdown:"; echo "$err"; exit 1; }
  echo "host:$n: $line"
  pattern='after 0 errors, 0 open pairs, ([0-9]+) located constructs, ([0-9]+) launches$'
  if ! [[ $line =~ $pattern ]] || (( BASH_REMATCH[1] == 0 || BASH_REMATCH[2] == 0 )); then
    echo "host:$n: want no errors, no open pairs, located constructs and launches"; exit 1
  fi
done
