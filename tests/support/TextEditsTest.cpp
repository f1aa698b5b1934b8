// Tests of offset-based source rewriting: insertions, replacements, their order at one offset and
// the window an application covers.
#include "support/TextEdits.h"

#include <gtest/gtest.h>

#include <string>

using jacc::TextEdits;

namespace {

const char *const Src = "0123456789";

TEST(TextEditsTest, NoEditsGivesTheWindow) {
  TextEdits E;
  EXPECT_EQ(E.apply(Src, 0, 10), "0123456789");
  EXPECT_EQ(E.apply(Src, 2, 5), "234");
  EXPECT_EQ(E.apply(Src, 4, 4), "");
}

TEST(TextEditsTest, Insert) {
  TextEdits E;
  E.insert(3, "<a>");
  EXPECT_EQ(E.apply(Src, 0, 10), "012<a>3456789");
}

TEST(TextEditsTest, InsertAtTheStartAndTheEnd) {
  TextEdits E;
  E.insert(0, "[");
  E.insert(10, "]");
  EXPECT_EQ(E.apply(Src, 0, 10), "[0123456789]");
}

TEST(TextEditsTest, InsertionsAtOneOffsetKeepTheirOrder) {
  TextEdits E;
  E.insert(5, "a");
  E.insert(5, "b");
  E.insert(5, "c");
  EXPECT_EQ(E.apply(Src, 0, 10), "01234abc56789");
}

TEST(TextEditsTest, EditsMadeOutOfOrderAreAppliedByPosition) {
  TextEdits E;
  E.insert(8, "C");
  E.replace(1, 3, "A");
  E.insert(5, "B");
  EXPECT_EQ(E.apply(Src, 0, 10), "0A34B567C89");
}

TEST(TextEditsTest, Replace) {
  TextEdits E;
  E.replace(2, 5, "xy");
  EXPECT_EQ(E.apply(Src, 0, 10), "01xy56789");
}

TEST(TextEditsTest, ReplaceWithEmptyTextDeletes) {
  TextEdits E;
  E.replace(0, 4, "");
  E.replace(8, 10, "");
  EXPECT_EQ(E.apply(Src, 0, 10), "4567");
}

TEST(TextEditsTest, AdjacentReplacements) {
  TextEdits E;
  E.replace(5, 7, "B");
  E.replace(2, 5, "A");
  EXPECT_EQ(E.apply(Src, 0, 10), "01AB789");
}

TEST(TextEditsTest, InsertionBeforeAReplacementAtTheSameOffset) {
  // Whatever the order they were made in, insertions at an offset go before a replacement there.
  TextEdits E1;
  E1.replace(2, 4, "R");
  E1.insert(2, "i");
  EXPECT_EQ(E1.apply(Src, 0, 10), "01iR456789");
  TextEdits E2;
  E2.insert(2, "i");
  E2.replace(2, 4, "R");
  E2.insert(2, "j");
  EXPECT_EQ(E2.apply(Src, 0, 10), "01ijR456789");
}

TEST(TextEditsTest, InsertionAtTheEndOfAReplacementFollowsIt) {
  TextEdits E;
  E.insert(4, "e");
  E.replace(2, 4, "R");
  EXPECT_EQ(E.apply(Src, 0, 10), "01Re456789");
}

TEST(TextEditsTest, AWindowMayLeaveOutTheInsertionsAtItsEnd) {
  TextEdits E;
  E.insert(2, "<in>");
  E.insert(5, "<closes>");
  E.replace(5, 7, "R");
  EXPECT_EQ(E.apply(Src, 2, 5), "<in>234<closes>");
  EXPECT_EQ(E.apply(Src, 2, 5, false), "<in>234");
}

TEST(TextEditsTest, InsertionInsideAReplacementIsDropped) {
  TextEdits E;
  E.replace(2, 6, "R");
  E.insert(4, "lost");
  EXPECT_EQ(E.apply(Src, 0, 10), "01R6789");
}

TEST(TextEditsTest, WindowAppliesOnlyTheEditsInsideIt) {
  TextEdits E;
  E.insert(1, "<out1>");
  E.insert(3, "<in>");
  E.replace(4, 6, "R");
  E.insert(9, "<out2>");
  EXPECT_EQ(E.apply(Src, 2, 8), "2<in>3R67");
  // Edits straddling the window's edges are left out.
  TextEdits F;
  F.replace(1, 4, "X");
  F.replace(7, 9, "Y");
  F.insert(5, "i");
  EXPECT_EQ(F.apply(Src, 2, 8), "234i567");
}

TEST(TextEditsTest, InsertionsOnTheWindowEdgesAreInside) {
  TextEdits E;
  E.insert(2, "{");
  E.insert(8, "}");
  EXPECT_EQ(E.apply(Src, 2, 8), "{234567}");
  // A replacement covering the whole window.
  TextEdits F;
  F.replace(2, 8, "all");
  EXPECT_EQ(F.apply(Src, 2, 8), "all");
}

TEST(TextEditsTest, ApplyIsRepeatable) {
  TextEdits E;
  E.insert(1, "+");
  E.replace(6, 7, "-");
  std::string First = E.apply(Src, 0, 10);
  EXPECT_EQ(First, "0+12345-789");
  EXPECT_EQ(E.apply(Src, 0, 10), First);
  EXPECT_EQ(E.apply(Src, 0, 5), "0+1234");
  // Another source of the same length takes the same edits.
  EXPECT_EQ(E.apply("abcdefghij", 0, 10), "a+bcdef-hij");
}

TEST(TextEditsTest, MultiLineText) {
  std::string Code = "a = 1;\nb = 2;\n";
  TextEdits E;
  E.insert(7, "if (t) {\n");
  E.insert(13, "\n}");
  EXPECT_EQ(E.apply(Code, 0, Code.size()), "a = 1;\nif (t) {\nb = 2;\n}\n");
}

TEST(ReplaceAllTest, EveryOccurrenceLeftToRight) {
  EXPECT_EQ(jacc::replaceAll("'f_' calls 'f_' and 'g_'", "'f_'", "'f'"), "'f' calls 'f' and 'g_'");
  EXPECT_EQ(jacc::replaceAll("no match", "x", "y"), "no match");
  EXPECT_EQ(jacc::replaceAll("", "x", "y"), "");
  // A replacement containing what it replaces is not replaced again.
  EXPECT_EQ(jacc::replaceAll("aXa", "a", "aa"), "aaXaa");
  EXPECT_EQ(jacc::replaceAll("aaa", "aa", "b"), "ba");
}

} // namespace
