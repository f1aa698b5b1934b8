// The translations the translator's tests check: a success's text, a failure's message (a test
// failure otherwise).
#ifndef JACC_TESTS_TRANSLATE_TRANSLATECHECK_H
#define JACC_TESTS_TRANSLATE_TRANSLATECHECK_H

#include "translate/Translate.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace jacc::test {

/// Source (named FileName: .c or .cpp) translated with Args.
inline std::string translateOk(llvm::StringRef Source, std::vector<std::string> Args = {},
                               llvm::StringRef FileName = "t.c") {
  auto Out = translate::translateOpenACC(Source, FileName, Args);
  if (!Out) {
    ADD_FAILURE() << llvm::toString(Out.takeError());
    return "";
  }
  return *Out;
}

/// The error translating Source reports.
inline std::string translateError(llvm::StringRef Source, std::vector<std::string> Args = {},
                                  llvm::StringRef FileName = "t.c") {
  auto Out = translate::translateOpenACC(Source, FileName, Args);
  if (Out) {
    ADD_FAILURE() << "translation succeeded:\n" << *Out;
    return "";
  }
  return llvm::toString(Out.takeError());
}

} // namespace jacc::test

#endif
