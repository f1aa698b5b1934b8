#!/bin/bash
# jaccc as a drop-in compiler in a user's build (tests/tools/project/: C and C++ sources sharing
# a header): `make CC=jaccc CXX=jaccc`, CC and CXX exported, CMake with CMAKE_C_COMPILER=jaccc,
# rebuilds after a header changes (the dependency files name the sources), find_package(jacc),
# nvc's and gcc's flags, --help and --version, a C link of C++ objects, a back-end compiler that
# runs jaccc again, and the OpenACC device variables at run time. Each build's output is compared
# with the plain compilers' build of the same project.
#   jaccc_builds.sh BUILD_DIR SOURCE_DIR
set -u
build=$(realpath "$1")
project=$(realpath "$2")/tests/tools/project
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaccc-builds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# jaccc on PATH as an installed one would be; a slip into running itself without end is cut
# short by the time limit instead of filling the process table.
export PATH="$build/tools:$PATH"
export JACC_CACHE=off
unset CC CXX
limit="timeout 300"
failed=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failed=1; }

fresh() { rm -rf "$tmp/$1"; cp -r "$project" "$tmp/$1"; }

# The reference: plain compilers, the pragmas ignored.
fresh ref
make -s -C "$tmp/ref" CC=cc CXX=c++ >"$tmp/ref.log" 2>&1 || { cat "$tmp/ref.log"; exit 1; }
ref=$("$tmp/ref/grid")

# Runs program P on host:1 and host:2 and compares with the reference.
same_output() { # NAME PROGRAM
  local devices out
  for devices in host:1 host:2; do
    out=$(JACC_DEVICES=$devices "$2" 2>&1)
    if [[ $out != "$ref" ]]; then
      fail "$1 on $devices: '$out', expected '$ref'"
      return 1
    fi
  done
  ok "$1: the plain build's output on host:1 and host:2 ($ref)"
}

# make with CC=jaccc on the command line (make exports it to the commands it runs, and jaccc
# must not run itself as the back-end), then with CC and CXX exported.
fresh make
if $limit make -s -C "$tmp/make" CC=jaccc CXX=jaccc >"$tmp/make.log" 2>&1; then
  same_output "make CC=jaccc CXX=jaccc" "$tmp/make/grid"
else
  fail "make CC=jaccc CXX=jaccc: $(tail -5 "$tmp/make.log")"
fi
# The dependency files name the sources, not jaccc's temporary translations: a changed header
# rebuilds the objects that include it.
if grep -q 'jaccc\.' "$tmp/make/smooth.d" || ! grep -q 'smooth\.c' "$tmp/make/smooth.d"; then
  fail "smooth.d names jaccc's temporary files: $(cat "$tmp/make/smooth.d")"
else
  sleep 1
  touch "$tmp/make/grid.h"
  rebuilt=$($limit make -C "$tmp/make" CC=jaccc CXX=jaccc 2>&1)
  if [[ $rebuilt == *"-o smooth.o"* && $rebuilt == *"-o sum.o"* ]]; then
    ok "make: a changed header rebuilds its objects (the .d files name the sources)"
  else
    fail "make after touching grid.h: $rebuilt"
  fi
fi
fresh export
if (export CC=jaccc CXX=jaccc; $limit make -s -C "$tmp/export" >"$tmp/export.log" 2>&1); then
  same_output "export CC=jaccc CXX=jaccc; make" "$tmp/export/grid"
else
  fail "export CC=jaccc; make: $(tail -5 "$tmp/export.log")"
fi

# CMake, with jaccc as both compilers (CMake's own test compiles export CC and CXX too).
if command -v cmake >/dev/null; then
  fresh cmake
  if $limit cmake -S "$tmp/cmake" -B "$tmp/cmake/b" -DCMAKE_C_COMPILER=jaccc \
       -DCMAKE_CXX_COMPILER=jaccc >"$tmp/cmake.log" 2>&1 &&
     $limit cmake --build "$tmp/cmake/b" >>"$tmp/cmake.log" 2>&1; then
    same_output "cmake -DCMAKE_C_COMPILER=jaccc -DCMAKE_CXX_COMPILER=jaccc" "$tmp/cmake/b/grid"
    sleep 1
    touch "$tmp/cmake/grid.h"
    if rebuilt=$($limit cmake --build "$tmp/cmake/b" 2>&1) &&
       [[ $rebuilt == *"smooth.c.o"* && $rebuilt == *"sum.cpp.o"* ]]; then
      ok "cmake: a changed header rebuilds its objects"
    else
      fail "cmake --build after touching grid.h: $rebuilt"
    fi
  else
    fail "cmake with jaccc: $(tail -8 "$tmp/cmake.log")"
  fi
  # A program calling the jacc API, built by plain compilers with find_package(jacc).
  if $limit cmake -S "$project/api" -B "$tmp/api" -Djacc_DIR="$build/tools" \
       >"$tmp/api.log" 2>&1 && $limit cmake --build "$tmp/api" >>"$tmp/api.log" 2>&1 &&
     out=$(JACC_DEVICES=host:2 "$tmp/api/api") && [[ $out == "y[999] 1999.0 on 2 device(s)" ]]; then
    ok "find_package(jacc): jacc::jacc links a program calling the API ($out)"
  else
    fail "find_package(jacc): ${out:-} $(tail -8 "$tmp/api.log")"
  fi
else
  fail "cmake is not installed (scripts/dev.sh installs it)"
fi

# A back-end compiler that runs jaccc again stops at once, saying so.
printf '#!/bin/bash\nexec jaccc "$@"\n' >"$tmp/wrapper"
chmod +x "$tmp/wrapper"
msg=$($limit jaccc --cc="$tmp/wrapper" -c -o "$tmp/w.o" "$project/smooth.c" 2>&1)
rc=$?
if ((rc == 1)) && [[ $msg == *"jaccc: the back-end compiler '$tmp/wrapper' runs jaccc again"* ]]; then
  ok "a back-end compiler running jaccc again is an error, not a loop"
else
  fail "--cc=<a wrapper of jaccc>: exit $rc: $msg"
fi

# nvc's and gcc's OpenACC flags: accepted, said once; none reaches cc (-Werror: no warning).
fresh flags
(cd "$tmp/flags" &&
 $limit jaccc -acc=gpu -gpu=cc80 -ta=tesla:cc70 -Minfo=all -Mvect=simd -fast -fopenacc -Wall \
   -Werror -o grid main.c smooth.c sum.cpp -lm >"$tmp/flags.log" 2>&1)
rc=$?
log=$(cat "$tmp/flags.log")
if ((rc == 0)) && [[ $log == *"jaccc: -acc=gpu -gpu=cc80 -ta=tesla:cc70: accepted"* &&
                      $log == *"jaccc: -Mvect=simd: ignored"* && $log != *redefined* ]]; then
  same_output "jaccc with nvc's flags (-acc=gpu -gpu=cc80 -ta=tesla:cc70 -fast -Mvect=simd)" \
    "$tmp/flags/grid"
else
  fail "jaccc with nvc's flags: exit $rc: $log"
fi

# The back-end compiler's diagnostics name the user's file and line, also after constructs whose
# translation took more lines; restrict pointers passed to a kernel warn nothing.
mkdir -p "$tmp/diag"
cat >"$tmp/diag/restrict.c" <<'EOF'
void scale(int n, float *restrict y, const float *restrict x) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = 2 * x[i];
  int unused;
}
EOF
diag=$(cd "$tmp/diag" && jaccc -Wall -Wextra -c restrict.c 2>&1)
if [[ $diag == *"restrict.c:5:7: warning: unused variable"* && $diag != *jaccc.* &&
      $diag != *discarded-qualifiers* ]]; then
  ok "cc's diagnostics name the user's file and line (restrict.c:5:7), restrict warns nothing"
else
  fail "jaccc -Wall -c restrict.c: $diag"
fi

# A kernel's errors when the program runs (here clang's, compiling it) name the user's file and
# the line in it too.
cat >"$tmp/diag/kernel_error.c" <<'EOF'
int main(void) {
  static double a[10];

#pragma acc parallel loop copy(a[0:10])
  for (int i = 0; i < 10; i++)
    a[i] = no_such_function(i);
  return 0;
}
EOF
if (cd "$tmp/diag" && jaccc -o kernel_error kernel_error.c >/dev/null 2>&1); then
  diag=$("$tmp/diag/kernel_error" 2>&1)
  [[ $diag == *"kernel_error.c:6:12: error: call to undeclared function 'no_such_function'"* ]] &&
    ok "a kernel's run-time errors name the user's file and line (kernel_error.c:6:12)" ||
    fail "a kernel's compile error: $diag"
else
  fail "jaccc kernel_error.c did not build"
fi

# A data directive's run-time error names the variable and the directive as the program wrote
# them, at its file and line.
cat >"$tmp/diag/unmapped.c" <<'EOF'
int main(void) {
  static double x[1000];
  int n = 1000;
#pragma acc update device(x[0:n])
  return x[0] > 0;
}
EOF
if (cd "$tmp/diag" && jaccc -o unmapped unmapped.c >/dev/null 2>&1); then
  diag=$("$tmp/diag/unmapped" 2>&1)
  [[ $diag == "unmapped.c:4: 'x[0:n]' in '#pragma acc update device(x[0:n])' is not present"* ]] &&
    ok "a data directive's run-time error names the variable and the directive (unmapped.c:4)" ||
    fail "an update of unmapped data: $diag"
else
  fail "jaccc unmapped.c did not build"
fi

# --help and --version are jaccc's own.
help=$(jaccc --help 2>&1)
version=$(jaccc --version 2>&1)
if [[ $help == "Usage: jaccc"* && $help == *"--cc=CC"* && $version == "jaccc (jacc) "[0-9]* ]]; then
  ok "jaccc --help and --version are jacc's"
else
  fail "jaccc --help: ${help:0:200}; --version: $version"
fi

# A C link (jaccc with no C++ source) of objects the C++ compiler made.
fresh link
if (cd "$tmp/link" && c++ -O2 -Wno-unknown-pragmas -c sum.cpp &&
    $limit jaccc -O2 -o grid main.c smooth.c sum.o -lm) >"$tmp/link.log" 2>&1; then
  same_output "jaccc linking C sources with a C++ object" "$tmp/link/grid"
else
  fail "jaccc main.c smooth.c sum.o: $(tail -5 "$tmp/link.log")"
fi

# OpenACC's device variables: a bad value ends the program naming the variable.
if [[ -x $tmp/make/grid ]]; then
  for bad in "ACC_DEVICE_TYPE=bogus:ACC_DEVICE_TYPE='bogus' is not a device type" \
             "ACC_DEVICE_NUM=5:ACC_DEVICE_NUM=5 is out of range"; do
    var=${bad%%:*}
    out=$(env JACC_DEVICES=host:2 "$var" "$tmp/make/grid" 2>&1)
    rc=$?
    if ((rc != 0)) && [[ $out == *"${bad#*:}"* ]]; then
      ok "$var: the program stops naming it"
    else
      fail "$var ./grid: exit $rc: $out"
    fi
  done
  out=$(ACC_DEVICE_TYPE=multicore "$tmp/make/grid" 2>&1)
  [[ $out == "$ref" ]] && ok "ACC_DEVICE_TYPE=multicore runs on the CPU" ||
    fail "ACC_DEVICE_TYPE=multicore ./grid: $out"
fi
exit $failed
