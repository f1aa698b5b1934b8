// The headers the API tests' files parse, precompiled once per executable by the build (meson's
// cpp_pch): GoogleTest's and the standard library's, two of an API test file's four to seven
// seconds of compile time. These tests see the public headers only, so nothing of the runtime's
// is here (tests/pch/UnitHeaders.h is the unit tests').
#ifndef JACC_TESTS_PCH_APIHEADERS_H
#define JACC_TESTS_PCH_APIHEADERS_H

#include "jacc/jacc.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#endif
