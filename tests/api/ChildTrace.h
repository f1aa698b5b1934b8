// The trace file of a program a test runs in a death test's child (observers start once per
// process, so a traced program needs a process of its own).
#ifndef JACC_TESTS_API_CHILDTRACE_H
#define JACC_TESTS_API_CHILDTRACE_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace jacc_test {

/// A path the same in the test and in its child: a threadsafe death test's child runs the test
/// again from the start, in another process, and finds the parent's path in the environment.
/// The parent removes the file (and Path.stats) at the end.
class ChildTrace {
public:
  explicit ChildTrace(const std::string &Tag) {
    if (const char *Parent = std::getenv(Variable))
      Path = Parent;
    else
      Path =
          ::testing::TempDir() + "jacc-trace-" + Tag + "-" + std::to_string(::getpid()) + ".json";
    setenv(Variable, Path.c_str(), 1);
  }
  ~ChildTrace() {
    unsetenv(Variable);
    std::remove(Path.c_str());
    std::remove((Path + ".stats").c_str());
  }
  ChildTrace(const ChildTrace &) = delete;
  ChildTrace &operator=(const ChildTrace &) = delete;

  std::string Path;

private:
  static constexpr const char *Variable = "JACC_TEST_TRACE_FILE";
};

} // namespace jacc_test

#endif
