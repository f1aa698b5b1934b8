#!/bin/bash
# Golden tests of jacc-translate.
#   golden.sh JACC_TRANSLATE DIR
# golden/NAME.c (.cpp) must translate to exactly golden/NAME.expected.c (.cpp) (the helpers at
# the top of every translated file only in golden/prelude.expected.c); errors/NAME.c (.cpp) must
# fail (exit 1) with exactly errors/NAME.expected.txt on stderr. Run from each directory so that file names in
# the output are stable. JACC_UPDATE_GOLDEN=1 rewrites the expected files instead (review the diff).
set -u
translate=$(realpath "$1")
dir=$2
failed=0

# The helpers every translated file starts with are compared in golden/prelude.expected.c only;
# the other expected files hold one line in their place.
strip_prelude() {
  if [[ $1 == prelude ]]; then
    cat
  else
    awk '/^\/\* Added by jacc-translate:/ { skip = 1; print "/* (the helpers of golden/prelude.expected.c) */" }
         !skip { print }
         /^\/\* End of the helpers added by jacc-translate\. \*\// { skip = 0 }'
  fi
}

# Compare one translation: KIND (golden: exit 0, the translation on stdout; errors: exit 1,
# stderr) of FILE (in DIR/KIND) against EXPECTED, jacc-translate given the further arguments.
check() { # KIND FILE EXPECTED ARGS...
  local kind=$1 file=$2 expected=$3 actual rc want=0
  shift 3
  if [[ $kind == golden ]]; then
    actual=$(cd "$dir/golden" && "$translate" "$file" "$@" 2>&1)
    rc=$?
    actual=$(printf '%s\n' "$actual" | strip_prelude "${file%.*}")
  else
    want=1
    actual=$(cd "$dir/errors" && "$translate" "$file" "$@" 2>&1 >/dev/null)
    rc=$?
  fi
  if [[ ${JACC_UPDATE_GOLDEN:-0} == 1 ]]; then
    printf '%s\n' "$actual" > "$expected"
  elif ((rc != want)) || ! diff -u "$expected" <(printf '%s\n' "$actual"); then
    echo "FAIL $kind/$file (exit $rc, expected $want)"
    failed=1
  else
    echo "ok   $kind/$file"
  fi
}

for src in "$dir"/golden/*.c "$dir"/golden/*.cpp; do # C++: NAME.expected.cpp
  case $src in *.expected.c | *.expected.cpp) continue ;; esac
  file=$(basename "$src")
  check golden "$file" "$dir/golden/${file%.*}.expected.${file##*.}"
done
for src in "$dir"/errors/*.c "$dir"/errors/*.cpp; do # C++ sources: their own file names
  file=$(basename "$src")
  check errors "$file" "$dir/errors/${file%.*}.expected.txt"
done

# Fortran (when jacc-translate has it): the host program, then the glue, on stdout;
# golden/NAME.f90 against golden/NAME.expected.txt, errors/NAME.f90 as the C ones.
modules=$(mktemp -d "${TMPDIR:-/tmp}/jacc-golden.XXXXXX")
trap 'rm -rf "$modules"' EXIT
fortran=(-o - --glue - -- -J "$modules")
if ! (cd "$dir/golden" && "$translate" fortran_constructs.f90 "${fortran[@]}" >/dev/null 2>&1); then
  echo "skip golden/*.f90, errors/*.f90: jacc-translate was built without Fortran"
else
  for kind in golden errors; do
    for src in "$dir/$kind"/*.f90; do
      file=$(basename "$src")
      check "$kind" "$file" "$dir/$kind/${file%.*}.expected.txt" "${fortran[@]}"
    done
  done
fi
exit $failed
