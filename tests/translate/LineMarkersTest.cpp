// Tests of the `#line` markers of translated files: where the edits move lines, only where a
// directive may start a line, and resynchronised by the next line that can carry one.
#include "translate/LineMarkers.h"

#include <gtest/gtest.h>

#include <string>

using jacc::translate::withLineMarkers;

namespace {

/// Original with [Begin, End) replaced by Text, with its markers (file "f.c").
std::string replaced(const std::string &Original, size_t Begin, size_t End,
                     const std::string &Text) {
  std::string Out = Original.substr(0, Begin) + Text + Original.substr(End);
  auto Mapped = [&](size_t Offset) {
    if (Offset < Begin)
      return Offset;
    if (Offset < End) // inside the replaced text: somewhere in the replacement
      return Begin + std::min(Offset - Begin, Text.size());
    return Offset - End + Begin + Text.size();
  };
  return withLineMarkers(Original, Out, Mapped, "f.c");
}

TEST(LineMarkersTest, AnUneditedFileGetsTheFirstMarkerOnly) {
  std::string Text = "int a;\nint b;\n";
  EXPECT_EQ(withLineMarkers(Text, Text, [](size_t O) { return O; }, "dir/f \"x\".c"),
            "#line 1 \"dir/f \\\"x\\\".c\"\nint a;\nint b;\n");
}

TEST(LineMarkersTest, LinesAfterAGrownOrShrunkEditAreRenumbered) {
  std::string Original = "a;\n#pragma x\nb;\nc;\n";
  size_t Begin = Original.find("#pragma"), End = Original.find("b;");
  EXPECT_EQ(replaced(Original, Begin, End, "one;\ntwo;\nthree;\n"),
            "#line 1 \"f.c\"\na;\none;\ntwo;\nthree;\n#line 3 \"f.c\"\nb;\nc;\n");
  EXPECT_EQ(replaced(Original, Begin, End, ""), "#line 1 \"f.c\"\na;\n#line 3 \"f.c\"\nb;\nc;\n");
  // Same number of lines: nothing to say.
  EXPECT_EQ(replaced(Original, Begin, End, "one;\n"), "#line 1 \"f.c\"\na;\none;\nb;\nc;\n");
}

TEST(LineMarkersTest, NoMarkerInsideACommentAStringOrAContinuedLine) {
  // The line after the edit starts inside a comment: the first line after it carries the marker.
  std::string Original = "x;\n/* one\ntwo */\ny;\n";
  EXPECT_EQ(replaced(Original, 0, 2, "p;\nq;"),
            "#line 1 \"f.c\"\np;\nq;\n#line 2 \"f.c\"\n/* one\ntwo */\ny;\n");
  std::string Comment = "x;\nz;\n";
  EXPECT_EQ(replaced(Comment, 0, 2, "/* p;\nq; */"), "#line 1 \"f.c\"\n/* p;\nq; */\n#line 2 \"f.c\"\nz;\n");
  std::string Macro = "x;\n#define M \\\n  1\nz;\n";
  EXPECT_EQ(replaced(Macro, 0, 2, "p;\nq;"),
            "#line 1 \"f.c\"\np;\nq;\n#line 2 \"f.c\"\n#define M \\\n  1\nz;\n");
  std::string Raw = "x;\nz;\n";
  EXPECT_EQ(replaced(Raw, 0, 2, "R\"d(p;\n)d\";"),
            "#line 1 \"f.c\"\nR\"d(p;\n)d\";\n#line 2 \"f.c\"\nz;\n");
}

TEST(LineMarkersTest, AnEditedLineIsNotMarkedTheNextOneIs) {
  // Line 2 of the original is changed inside (an edit in the line): not the original line, so
  // no marker before it; line 3 is.
  std::string Original = "a;\nf(x);\ng;\n";
  size_t Begin = Original.find('x');
  EXPECT_EQ(replaced(Original, 0, 0, "p;\n"), "#line 1 \"f.c\"\np;\na;\n#line 2 \"f.c\"\nf(x);\ng;\n");
  std::string Out = replaced(Original, Begin, Begin + 1, "y\n,z");
  EXPECT_EQ(Out, "#line 1 \"f.c\"\na;\nf(y\n,z);\n#line 3 \"f.c\"\ng;\n");
}

} // namespace
