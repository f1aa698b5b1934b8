// `#line` markers: where the translation's lines stop matching the original's, and where a
// directive can say so.
#include "translate/LineMarkers.h"

#include <vector>

namespace jacc::translate {

namespace {

/// For each line of Text, whether a preprocessing directive may begin it: the line before ended
/// outside any comment, string or character literal, and not with a backslash continuation.
std::vector<bool> directiveLines(llvm::StringRef Text) {
  enum class In { Code, LineComment, BlockComment, String, Char, RawString } State = In::Code;
  std::vector<bool> Safe{true};
  std::string RawEnd; // a C++ raw string's closing `)delim"`
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    char Next = I + 1 < Text.size() ? Text[I + 1] : '\0';
    switch (State) {
    case In::Code:
      if (C == '/' && Next == '/')
        State = In::LineComment, ++I;
      else if (C == '/' && Next == '*')
        State = In::BlockComment, ++I;
      else if (C == 'R' && Next == '"' &&
               (I == 0 || !(isalnum(static_cast<unsigned char>(Text[I - 1])) || Text[I - 1] == '_'))) {
        size_t Open = Text.find('(', I + 2);
        if (Open == llvm::StringRef::npos)
          break;
        RawEnd = ")" + Text.slice(I + 2, Open).str() + "\"";
        State = In::RawString;
        I = Open;
      } else if (C == '"')
        State = In::String;
      else if (C == '\'')
        State = In::Char;
      break;
    case In::LineComment:
      if (C == '\n' && (I == 0 || Text[I - 1] != '\\'))
        State = In::Code;
      break;
    case In::BlockComment:
      if (C == '*' && Next == '/')
        State = In::Code, ++I;
      break;
    case In::String:
    case In::Char:
      if (C == '\\')
        ++I; // an escaped character, or a continued line
      else if (C == (State == In::String ? '"' : '\'') || C == '\n')
        State = In::Code;
      break;
    case In::RawString:
      if (Text.substr(I).startswith(RawEnd)) {
        I += RawEnd.size() - 1;
        State = In::Code;
      }
      break;
    }
    if (I < Text.size() && Text[I] == '\n')
      Safe.push_back(State == In::Code && (I == 0 || Text[I - 1] != '\\'));
  }
  return Safe;
}

/// The line of Text starting at Offset, without its newline.
llvm::StringRef lineAt(llvm::StringRef Text, size_t Offset) {
  llvm::StringRef Rest = Text.substr(Offset);
  return Rest.take_until([](char C) { return C == '\n'; });
}

/// `"name"` with the backslashes and quotes of a C string literal escaped.
std::string quoted(llvm::StringRef Name) {
  std::string Q = "\"";
  for (char C : Name) {
    if (C == '\\' || C == '"')
      Q += '\\';
    Q += C;
  }
  return Q + "\"";
}

} // namespace

std::string withLineMarkers(llvm::StringRef Original, llvm::StringRef Out,
                            llvm::function_ref<size_t(size_t)> MappedOffset,
                            llvm::StringRef FileName) {
  std::string Name = quoted(FileName);
  std::vector<bool> Safe = directiveLines(Out);
  std::string Result = "#line 1 " + Name + "\n";
  size_t Copied = 0;      // Out[0, Copied) is in Result
  size_t OutLine = 0;     // the 0-based line of Out at OutPos
  size_t OutPos = 0;
  size_t MarkOutLine = 0; // the last marker: Out's line MarkOutLine is original line MarkLine
  size_t MarkLine = 1;
  size_t Line = 1;        // the original line starting at Begin
  for (size_t Begin = 0; Begin < Original.size(); ++Line) {
    size_t End = Original.find('\n', Begin);
    if (End == llvm::StringRef::npos)
      break;
    Begin = End + 1;
    size_t OriginalLine = Line + 1;
    size_t At = MappedOffset(Begin);
    if (At < OutPos || At > Out.size() || (At > 0 && Out[At - 1] != '\n'))
      continue;
    for (; OutPos < At; ++OutPos)
      OutLine += Out[OutPos] == '\n';
    if (MarkLine + (OutLine - MarkOutLine) == OriginalLine || !Safe[OutLine] ||
        lineAt(Out, At) != lineAt(Original, Begin))
      continue;
    Result += Out.slice(Copied, At).str();
    Result += "#line " + std::to_string(OriginalLine) + " " + Name + "\n";
    Copied = At;
    MarkOutLine = OutLine;
    MarkLine = OriginalLine;
  }
  Result += Out.substr(Copied).str();
  return Result;
}

} // namespace jacc::translate
