#!/bin/bash
# The OpenACC program corpus (tests/openacc/*.c, docs/translate.md "Tests"). Each program is built
# twice: by plain cc, which ignores the pragmas and has no _OPENACC (the reference; programs that
# call the runtime API use acc_host_fallback.h then), and by jaccc; the jaccc build must print the
# same output on 1 and 2 host devices, and on 3 with every kernel specialized sharing one
# memory (JACC_MEMORY=unified); the sanitized pass runs the specialized three with a memory each.
#   run.sh JACCC DIR [FLAGS for the jaccc builds, e.g. -fsanitize=address]
# A program whose leading comment says `corpus: host devices only` (it names host devices, or
# its output differs on a GPU by design), `corpus: needs a host device` or `corpus: one kind of
# device` is skipped, with a `skip` line, on configurations that are not so (scripts/gpu-check.sh
# runs the corpus on cuda:0 and cuda:0,host:1).
# OPENACC_DEVICES overrides the device configurations (the sanitized build runs fewer: the
# normal one compares every configuration already). Fortran programs (*.f90, fixed form *.f) are
# built by plain gfortran as the reference, when jaccc was built with Fortran (jaccc --version says so);
# runtime/'s use the openacc module, which plain gfortran has not: they check themselves.
set -u
jaccc=$(realpath "$1")
dir=$2
flags=("${@:3}")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jacc-openacc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# A kernel cache of this run's own, as a user's is: the first configuration compiles a program's
# kernels, the others load them (a fifth less time), and nothing is read from an older build.
export JACC_CACHE_DIR=$tmp/cache
failed=0

# Whether a program's corpus line allows a device configuration; if not, prints why.
fits() {
  local need kinds
  need=$(grep -o -m1 'corpus: [a-z ]*[a-z]' "$1")
  kinds=$(tr ',' '\n' <<<"$2" | sed 's/:.*//' | sort -u | tr '\n' ' ')
  case $need in
    "corpus: host devices only") [[ $kinds == "host " ]] || { echo "${need#corpus: }"; return 1; } ;;
    "corpus: needs a host device") [[ $kinds == *"host "* ]] || { echo "${need#corpus: }"; return 1; } ;;
    "corpus: one kind of device") [[ $kinds != *" "?* ]] || { echo "${need#corpus: }"; return 1; } ;;
  esac
  return 0
}

fortran=0
bash "$jaccc" --version | grep -q "^Fortran: flang" && fortran=1

# Builds refused/NAME.f90 (once) and checks that running it on host:2 with ARG (none when
# empty) ends it with exit status 1, saying WANT; WHAT names the check.
ends_saying() {
  local name=$1 arg=$2 want=$3 what=$4 said
  if [[ ! -x $tmp/$name ]] && ! bash "$jaccc" -O1 "${flags[@]}" -o "$tmp/$name" \
       "$dir/refused/$name.f90" 2>"$tmp/$name.err"; then
    echo "FAIL refused/$name.f90 did not build: $(cat "$tmp/$name.err")"
    failed=1
    return
  fi
  said=$(JACC_DEVICES=host:2 "$tmp/$name" ${arg:+"$arg"} 2>&1)
  if [[ $? -eq 1 && $said == *"$want"* ]]; then
    echo "ok   $what"
  else
    echo "FAIL $name ${arg}: expected '$want', got: $said"
    failed=1
  fi
}
for src in "$dir"/*.c "$dir"/*.cpp "$dir"/*.f90 "$dir"/*.f; do
  name=$(basename "$src")
  name=${name%.*}
  ref_cc=${CC:-cc} # C++ programs: their reference is built by plain c++
  [[ $src == *.cpp ]] && ref_cc=${CXX:-c++}
  warnings=(-Wall -Wextra -Werror)
  quiet=(-Wno-unknown-pragmas)
  if [[ $src == *.f90 || $src == *.f ]]; then
    if ((!fortran)); then
      echo "skip $name: jaccc was built without Fortran"; continue
    fi
    # gfortran ignores the directives; the variables only they used would warn as unused.
    ref_cc=${FC:-gfortran}
    warnings=()
    quiet=()
  fi
  if ! "$ref_cc" -O1 ${quiet[@]+"${quiet[@]}"} -o "$tmp/$name.ref" "$src" -lm; then
    echo "FAIL $name: the reference build failed"; failed=1; continue
  fi
  if ! bash "$jaccc" -O1 ${warnings[@]+"${warnings[@]}"} "${flags[@]}" -o "$tmp/$name.jacc" "$src" -lm; then
    echo "FAIL $name: the jaccc build failed"; failed=1; continue
  fi
  ref=$("$tmp/$name.ref")
  # The third run folds every scalar argument into its kernels (JACC_SPECIALIZE=always) and
  # gives the devices one memory (JACC_MEMORY=unified): every split kernel must still write
  # only its device's share. (The sanitized pass's host:3+specialize has a memory per device.)
  for devices in ${OPENACC_DEVICES:-host:1 host:2 host:3+specialize+unified}; do
    spec=auto
    memory=()
    [[ $devices == *+specialize* ]] && spec=always
    [[ $devices == *+unified* ]] && memory=(JACC_MEMORY=unified)
    if ! why=$(fits "$src" "${devices%%+*}"); then
      echo "skip $name with JACC_DEVICES=$devices: $why"
      continue
    fi
    out=$(env ${memory[@]+"${memory[@]}"} JACC_DEVICES=${devices%%+*} JACC_SPECIALIZE=$spec \
          JACC_SPECIALIZE_WAIT=1 "$tmp/$name.jacc" 2>&1)
    rc=$?
    if ((rc != 0)) || [[ $out != "$ref" ]]; then
      echo "FAIL $name with JACC_DEVICES=$devices (exit $rc)"
      echo "  expected: $ref"
      echo "  got:      $out"
      failed=1
    else
      echo "ok   $name with JACC_DEVICES=$devices: $out"
    fi
  done
done

# jaccc -Minfo reports the data clauses the translator inferred and how each construct runs
# (a split loop, a kernels loop without a directive run sequentially); a build without it does not.
info=$(bash "$jaccc" -Minfo=accel --emit-translated "$dir/kernels_serial.c" 2>&1 >/dev/null)
plain=$(bash "$jaccc" --emit-translated "$dir/kernels_serial.c" 2>&1 >/dev/null)
if [[ $info != *"kernels_serial.c:"[0-9]*": implicit copy(c[0:n - 1])"* ||
      $info != *"kernels_serial.c:46: split across devices along loop i: "*"writes its part of c;"* ||
      $info != *"kernels_serial.c:56: loop runs sequentially on one thread of each device: "* ||
      -n $plain ]]; then
  echo "FAIL jaccc -Minfo: expected implicit copy, split and sequential-loop lines, and nothing without it"
  echo "  with -Minfo: $info"
  echo "  without:     $plain"
  failed=1
else
  echo "ok   jaccc -Minfo reports implicit data clauses and how each construct runs"
fi
# The compile progress line: JACC_PROGRESS=on writes one line per compile and one at exit (a
# fresh cache compiles every kernel); on a terminal (script) it is drawn and erased in place;
# stderr to a file shows nothing by default.
prog=$tmp/kernels_serial.jacc
log=$(JACC_CACHE_DIR=$tmp/progress1 JACC_PROGRESS=on "$prog" 2>&1 >/dev/null)
quiet=$(JACC_CACHE_DIR=$tmp/progress2 "$prog" 2>&1 >/dev/null)
tty=""
command -v script >/dev/null &&
  tty=$(JACC_CACHE_DIR=$tmp/progress3 JACC_PROGRESS=on script -qc "$prog" /dev/null)
if [[ $log != "jacc: compiling kernels: 0 done, now "*"kernels_serial.c:"[0-9]*" ("* ||
      $log != *$'\n'"jacc: compiled "[0-9]*" kernels in "*" s; the disk cache keeps them"* ||
      -n $quiet || ($(command -v script) && $tty != *$'\r'"jacc: compiling kernels: 1 done, now "*$'\e[K\r\e[K'*) ]]; then
  echo "FAIL JACC_PROGRESS: expected a line per compile, drawn in place on a terminal, and nothing by default"
  echo "  JACC_PROGRESS=on: $log"
  echo "  default:          $quiet"
  failed=1
else
  echo "ok   JACC_PROGRESS shows the compiles"
fi
# A queue value OpenACC does not allow, known only at run time, ends the program at its directive.
cat > "$tmp/bad_queue.c" <<'EOF_C'
int main(int argc, char **argv) {
  double a[4];
  int q = argc - 100;
#pragma acc parallel loop copyout(a[0:4]) async(q)
  for (int i = 0; i < 4; i++)
    a[i] = i;
#pragma acc wait
  return (int)a[0];
}
EOF_C
bad=$(cd "$tmp" && bash "$jaccc" "${flags[@]}" -o bad_queue bad_queue.c && ./bad_queue 2>&1)
rc=$?
if ((rc == 1)) && [[ $bad == "bad_queue.c:4: async argument -99 in '#pragma acc parallel loop "*"async(q)' is not valid: use a queue number >= 0, acc_async_noval or acc_async_sync" ]]; then
  echo "ok   an invalid async queue value stops the program at its directive"
else
  echo "FAIL async(q) with q = -99: expected exit 1 and an error at bad_queue.c:4, got exit $rc: $bad"
  failed=1
fi
# --cc= (and $CC) choose the compiler jaccc drives, as an MPI wrapper is chosen.
printf '#!/bin/bash\necho "$*" >> %q\nexec cc "$@"\n' "$tmp/wrapper.log" > "$tmp/mycc"
chmod +x "$tmp/mycc"
if bash "$jaccc" --cc="$tmp/mycc" -O1 "${flags[@]}" -o "$tmp/saxpy.cc" "$dir/saxpy.c" -lm &&
   [[ $("$tmp/saxpy.cc") == "$("$tmp/saxpy.ref")" ]] && grep -q -- "-ljacc" "$tmp/wrapper.log" &&
   CC=false bash "$jaccc" --cc="$tmp/mycc" "${flags[@]}" -c -o "$tmp/saxpy.o" "$dir/saxpy.c"; then
  echo "ok   jaccc --cc= compiles and links with the compiler given"
else
  echo "FAIL jaccc --cc=: the wrapper was not used (log: $(cat "$tmp/wrapper.log" 2>/dev/null))"
  failed=1
fi
# C++11: a translated C++ file (jacc.hpp, a template's kernel source) compiles in the oldest
# standard jacc.hpp supports.
if bash "$jaccc" -std=c++11 -O1 -Wall -Wextra -Werror "${flags[@]}" -o "$tmp/cxx11" \
     "$dir/cxx_template.cpp" -lm && [[ $("$tmp/cxx11") == "$("$tmp/cxx_template.ref")" ]]; then
  echo "ok   jaccc -std=c++11 builds a C++ program with template kernels"
else
  echo "FAIL jaccc -std=c++11: cxx_template.cpp did not build or run as the reference"
  failed=1
fi
# A program of C and Fortran sources (mixed/), compiled one by one with jaccc -c and linked by
# jaccc from its objects: the Fortran runtime is found without naming it, and a module compiled
# before the file that uses it (gfortran's module file beside flang's) with a declared array and
# a routine the other file's kernel calls, and external routines (no module) the kernels of
# another file call through interface blocks.
if ((fortran)); then
  got=""
  mixed=$(cd "$tmp" && gfortran -O1 -o mixed.ref "$dir/mixed/fields.f90" "$dir/mixed/main.f90" \
            "$dir/mixed/columns.f90" "$dir/mixed/scale.c" && ./mixed.ref) &&
  got=$(cd "$tmp" && bash "$jaccc" -O1 "${flags[@]}" -c "$dir/mixed/fields.f90" &&
        bash "$jaccc" -O1 "${flags[@]}" -c "$dir/mixed/main.f90" &&
        bash "$jaccc" -O1 "${flags[@]}" -c "$dir/mixed/columns.f90" &&
        bash "$jaccc" -O1 "${flags[@]}" -c "$dir/mixed/scale.c" &&
        bash "$jaccc" "${flags[@]}" -o mixed fields.o main.o columns.o scale.o &&
        JACC_DEVICES=host:2 ./mixed)
  if [[ $? -eq 0 && $got == "$mixed" ]]; then
    echo "ok   a C and Fortran program built by jaccc -c, linked from its objects: $got"
  else
    echo "FAIL the C and Fortran program: expected '$mixed', got '$got'"
    failed=1
  fi
  # A pointer a directive cannot take ends the program there, naming the fix.
  ends_saying fortran_pointer_state row \
    "fortran_pointer_state.f90:18: the pointer 'q' points to memory that is not contiguous" \
    "a pointer the directive cannot take (row) ends the program, naming the fix"
  ends_saying fortran_pointer_state null "fortran_pointer_state.f90:18: the pointer 'q' is not associated" \
    "a pointer the directive cannot take (null) ends the program, naming the fix"
  # An assumed-size array no clause names and nothing maps ends the program at its directive.
  ends_saying fortran_assumed_size_absent "" \
    "fortran_assumed_size_absent.f90:8: 'v' is an assumed-size array that is not present: name a section of it with an upper bound in a data clause, as v(1:n)" \
    "an assumed-size array nothing maps ends the program, naming the section to map"
  # A program using the openacc module (plain gfortran has none) checks itself.
  if bash "$jaccc" -O1 "${flags[@]}" -o "$tmp/deviceptr" "$dir/runtime/fortran_deviceptr.f90" \
       2>"$tmp/deviceptr.err"; then
    for devices in host:1 host:2 host:3; do
      said=$(JACC_DEVICES=$devices "$tmp/deviceptr" 2>&1)
      if [[ $said == "deviceptr ok"* ]]; then
        echo "ok   fortran_deviceptr with JACC_DEVICES=$devices: $said"
      else
        echo "FAIL fortran_deviceptr with JACC_DEVICES=$devices: $said"
        failed=1
      fi
    done
  else
    echo "FAIL runtime/fortran_deviceptr.f90 did not build: $(cat "$tmp/deviceptr.err")"
    failed=1
  fi
  # -Minfo says how a Fortran construct runs, at its line.
  finfo=$(bash "$jaccc" -Minfo=accel --emit-translated "$dir/fortran_heat2d.f90" 2>&1 >/dev/null)
  if [[ $finfo == *"fortran_heat2d.f90:34: split across devices along loops j, i (collapsed)"* ]]; then
    echo "ok   jaccc -Minfo reports how Fortran constructs run"
  else
    echo "FAIL jaccc -Minfo on fortran_heat2d.f90: expected its split line 34, got: $finfo"
    failed=1
  fi
fi
exit $failed
