// Shared by the frontend's tests: kernels that must analyse, and the code and message of those
// that must fail.
#ifndef JACC_TESTS_ANALYSIS_FRONTENDCHECK_H
#define JACC_TESTS_ANALYSIS_FRONTENDCHECK_H

#include "analysis/Frontend.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace jacc::analysis::test {

using Strings = std::vector<std::string>;

/// The frontend's view of a kernel that must analyse (a test failure otherwise, and empty).
inline KernelInfo analyze(const std::string &Src, std::vector<std::string> Decls) {
  auto K = analyzeKernel(Src, Decls);
  if (!K) {
    ADD_FAILURE() << llvm::toString(K.takeError());
    return {};
  }
  return std::move(*K);
}

/// The message of a kernel that must fail; Code (if not null) receives its code.
inline std::string errorOf(const std::string &Src, std::vector<std::string> Decls,
                           ErrorCode *Code) {
  auto K = analyzeKernel(Src, Decls);
  if (K) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  std::string Msg;
  ErrorCode C = jacc::takeError(K.takeError(), Msg);
  if (Code)
    *Code = C;
  return Msg;
}

/// The error of a kernel that must fail: its code and its whole message.
struct Failure {
  ErrorCode Code = ErrorCode::Internal;
  std::string Message;
};

inline Failure failureOf(const std::string &Src, const Strings &Decls) {
  Failure F;
  F.Message = errorOf(Src, Decls, &F.Code);
  return F;
}

#define EXPECT_FAILURE(Src, Decls, ExpectedCode, ExpectedMessage)                                  \
  do {                                                                                             \
    Failure F_ = failureOf(Src, Decls);                                                            \
    EXPECT_EQ(static_cast<int>(F_.Code), static_cast<int>(ExpectedCode)) << F_.Message;            \
    EXPECT_EQ(F_.Message, ExpectedMessage);                                                        \
  } while (false)

/// The kernel source's text in [Begin, End).
inline std::string textOf(const KernelInfo &K, unsigned Begin, unsigned End) {
  return K.Source.substr(Begin, End - Begin);
}

} // namespace jacc::analysis::test

#endif
