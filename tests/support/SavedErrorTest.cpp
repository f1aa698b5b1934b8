// Tests of SavedError (support/SavedError.h): the first error wins, error() repeats it, take()
// reports it once, and copies keep code and message.
#include "support/SavedError.h"

#include <gtest/gtest.h>

namespace jacc {
namespace {

TEST(SavedErrorTest, KeepsTheFirstErrorOnly) {
  SavedError S;
  EXPECT_FALSE(S);
  EXPECT_FALSE(S.keep(llvm::Error::success()));
  EXPECT_FALSE(S);
  EXPECT_TRUE(S.keep(makeError(ErrorCode::Device, "first")));
  EXPECT_TRUE(S.keep(makeError(ErrorCode::Compile, "second"))); // consumed, not kept
  EXPECT_TRUE(S);
  EXPECT_EQ(S.code(), ErrorCode::Device);
  EXPECT_EQ(S.message(), "first");
}

TEST(SavedErrorTest, ErrorRepeatsAndTakeForgets) {
  SavedError S;
  EXPECT_FALSE(static_cast<bool>(S.error()));
  S.keep(makeError(ErrorCode::NotPresent, "gone"));
  for (int I = 0; I < 2; ++I) {
    std::string Message;
    EXPECT_EQ(takeError(S.error(), Message), ErrorCode::NotPresent);
    EXPECT_EQ(Message, "gone");
  }
  std::string Message;
  EXPECT_EQ(takeError(S.take(), Message), ErrorCode::NotPresent);
  EXPECT_EQ(Message, "gone");
  EXPECT_FALSE(S);
  EXPECT_FALSE(static_cast<bool>(S.take()));
}

TEST(SavedErrorTest, KeepingAnotherKeepsItsErrorUnlessOneIsKept) {
  SavedError A, B, Empty;
  A.keep(makeError(ErrorCode::OutOfMemory, "full"));
  B.keep(Empty);
  EXPECT_FALSE(B);
  B.keep(A);
  EXPECT_EQ(B.code(), ErrorCode::OutOfMemory);
  EXPECT_EQ(B.message(), "full");
  SavedError C;
  C.keep(makeError(ErrorCode::Device, "mine"));
  C.keep(A);
  EXPECT_EQ(C.message(), "mine");
}

TEST(SavedErrorTest, ForeignErrorsAreInternal) {
  SavedError S;
  S.keep(llvm::createStringError(llvm::inconvertibleErrorCode(), "llvm says no"));
  EXPECT_EQ(S.code(), ErrorCode::Internal);
  EXPECT_EQ(S.message(), "internal error: llvm says no");
}

} // namespace
} // namespace jacc
