// The headers the unit tests' files parse, precompiled once per unit-test executable by the build
// (meson's cpp_pch): GoogleTest's and the kernel IR's, which brings clang's AST, were three of a
// unit test file's five to six seconds of compile time; loaded from the precompiled file, under
// half a second. The one project header here, analysis/Kernel.h, most of these files include
// through analysis/Pipeline.h anyway; a change to it recompiles all of them.
#ifndef JACC_TESTS_PCH_UNITHEADERS_H
#define JACC_TESTS_PCH_UNITHEADERS_H

#include "analysis/Kernel.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#endif
