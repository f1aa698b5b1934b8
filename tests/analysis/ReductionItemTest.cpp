// Tests of reading a reduction clause's item: a variable, an element, a section, and the items
// that cannot be read.
#include "analysis/ReductionItem.h"

#include <gtest/gtest.h>

using namespace jacc::analysis;

namespace {

ReductionItem parse(const char *Text) {
  auto R = parseReductionItem(Text);
  EXPECT_TRUE(static_cast<bool>(R)) << Text;
  if (!R) {
    llvm::consumeError(R.takeError());
    return {};
  }
  return *R;
}

std::string failure(const char *Text) {
  auto R = parseReductionItem(Text);
  if (R)
    return "parsed";
  return llvm::toString(R.takeError());
}

TEST(ReductionItemTest, Variable) {
  ReductionItem R = parse(" sum ");
  EXPECT_EQ(R.Name, "sum");
  EXPECT_FALSE(R.Subscripted);
}

TEST(ReductionItemTest, Element) {
  ReductionItem R = parse("errors[x]");
  EXPECT_EQ(R.Name, "errors");
  EXPECT_TRUE(R.Subscripted);
  EXPECT_EQ(R.Lower, "x");
  EXPECT_EQ(R.Length, "");
  R = parse("a [ f(i, j) + b[2] ]");
  EXPECT_EQ(R.Name, "a");
  EXPECT_EQ(R.Lower, "f(i, j) + b[2]");
}

TEST(ReductionItemTest, Section) {
  ReductionItem R = parse("c[0:10]");
  EXPECT_EQ(R.Name, "c");
  EXPECT_EQ(R.Lower, "0");
  EXPECT_EQ(R.Length, "10");
  R = parse("c[:n]");
  EXPECT_EQ(R.Lower, "0");
  EXPECT_EQ(R.Length, "n");
  R = parse("c[k ? 1 : 2 : 4]"); // the first top-level ':' separates
  EXPECT_EQ(R.Lower, "k ? 1");
  R = parse("c[b[1:2] : 3]");
  EXPECT_EQ(R.Lower, "b[1:2]");
  EXPECT_EQ(R.Length, "3");
}

TEST(ReductionItemTest, Unreadable) {
  const char *Fix = "; write a variable, an element a[i] or a section a[lower:length]";
  EXPECT_EQ(failure("a[1][2]"),
            std::string("reduction item 'a[1][2]': one subscript only (the elements must be "
                        "contiguous)") +
                Fix);
  EXPECT_EQ(failure("a[1"), std::string("reduction item 'a[1': unbalanced brackets") + Fix);
  EXPECT_EQ(failure("a[1)"), std::string("reduction item 'a[1)': unbalanced brackets") + Fix);
  EXPECT_EQ(failure("a[]"), std::string("reduction item 'a[]': an empty subscript") + Fix);
  EXPECT_EQ(failure("a[2:]"),
            std::string("reduction item 'a[2:]': a section needs its length") + Fix);
}

} // namespace
