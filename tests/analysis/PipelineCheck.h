// Shared by the passes' tests: a kernel through the whole analysis pipeline (runAnalysis), which
// must succeed.
#ifndef JACC_TESTS_ANALYSIS_PIPELINECHECK_H
#define JACC_TESTS_ANALYSIS_PIPELINECHECK_H

#include "analysis/Pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace jacc::analysis::test {

/// The analysed kernel (a test failure otherwise, and empty).
inline KernelInfo analyzed(const std::string &Src, const std::vector<std::string> &Decls) {
  auto K = runAnalysis(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  return std::move(*K);
}

} // namespace jacc::analysis::test

#endif
