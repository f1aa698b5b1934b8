// Tests of the C text scanners: identifier characters, and the identifiers of a snippet with
// literals and numbers skipped.
#include "support/CText.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc;

namespace {

using Names = std::vector<std::string>;

TEST(CTextTest, IdentifierCharacters) {
  EXPECT_TRUE(isIdentStart('_'));
  EXPECT_TRUE(isIdentStart('a'));
  EXPECT_FALSE(isIdentStart('1'));
  EXPECT_TRUE(isIdentChar('1'));
  EXPECT_FALSE(isIdentChar('.'));
  EXPECT_FALSE(isIdentChar('$'));
}

TEST(CTextTest, IdentifiersInOrderWithRepeats) {
  EXPECT_EQ(identifiersIn("a[i] = b_2 * a[i] + N;"), (Names{"a", "i", "b_2", "a", "i", "N"}));
  EXPECT_EQ(identifiersIn(""), Names{});
}

TEST(CTextTest, LiteralsAndNumbersNameNothing) {
  EXPECT_EQ(identifiersIn("printf(\"%d n\\\" m\", x) + 'c' + '\\''"), (Names{"printf", "x"}));
  EXPECT_EQ(identifiersIn("1.5e3f + 0x1fULL * y"), (Names{"y"}));
}

TEST(CTextTest, CommentsNameNothingEvenWithALoneQuote) {
  // A quote in a comment ("A's rows") must not swallow the code after the comment.
  EXPECT_EQ(identifiersIn("// A's rows\nx = N; /* it's */ y // z"), (Names{"x", "N", "y"}));
  EXPECT_EQ(identifiersIn("a / b /* unterminated"), (Names{"a", "b"}));
  EXPECT_EQ(identifiersIn("a // no newline"), (Names{"a"}));
}

TEST(RenameIdentifiersTest, WholeIdentifiersOnly) {
  std::map<std::string, std::string> Renamed = {{"jacc_c_f_u", "f%u"}, {"n", "f%n"}};
  EXPECT_EQ(renameIdentifiers("writes jacc_c_f_u and jacc_c_f_unew, n and n1 (x_n)", Renamed),
            "writes f%u and jacc_c_f_unew, f%n and n1 (x_n)");
  EXPECT_EQ(renameIdentifiers("", Renamed), "");
  EXPECT_EQ(renameIdentifiers("2n", Renamed), "2n"); // a number's suffix is no identifier
}

} // namespace
