// Reading a kernel's text: its site, its `#pragma jacc` and `#pragma acc` lines, and the C
// translation unit that wraps its construct in a function of its arguments.
#include "analysis/KernelSource.h"

#include "support/CText.h"
#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>

#include <optional>

namespace jacc::analysis {

unsigned lineOf(llvm::StringRef Source, unsigned Offset) {
  return 1 + Source.take_front(Offset).count('\n');
}

std::string kernelSite(llvm::StringRef Source) {
  llvm::StringRef Text = Source.rtrim();
  llvm::StringRef Last = Text.substr(Text.rfind('\n') + 1).trim();
  if (!Last.consume_front("//"))
    return "";
  Last = Last.ltrim();
  if (!Last.consume_front("jacc-site:"))
    return "";
  return Last.trim().str();
}

/// The text between the parentheses of the kernel's line `#pragma jacc <Name>(...)`.
static std::optional<std::string> jaccPragma(llvm::StringRef Source, llvm::StringRef Name) {
  // Most kernels have none: one search, then the lines only if it hits.
  if (!Source.contains(Name))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Source.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (!L.consume_front("pragma") || L.empty() || !llvm::isSpace(L.front()))
      continue;
    L = L.ltrim();
    if (!L.consume_front("jacc") || L.empty() || !llvm::isSpace(L.front()))
      continue;
    L = L.ltrim();
    if (!L.consume_front(Name) || (!L.empty() && (llvm::isAlnum(L.front()) || L.front() == '_')))
      continue;
    L = L.ltrim();
    if (L.consume_front("(") && L.consume_back(")"))
      return L.trim().str();
    return std::string(L); // malformed: the caller's parser names it
  }
  return std::nullopt;
}

std::optional<std::string> kernelPolicy(llvm::StringRef Source) {
  return jaccPragma(Source, "policy");
}

std::optional<std::string> kernelLocation(llvm::StringRef Source) {
  return jaccPragma(Source, "location");
}

std::optional<std::string> kernelRoutines(llvm::StringRef Source) {
  return jaccPragma(Source, "routines");
}

/// For each offset, whether it lies inside a /* */ comment (a pragma there is no pragma).
static std::vector<bool> blockCommentMask(llvm::StringRef S) {
  std::vector<bool> In(S.size(), false);
  bool Comment = false, LineComment = false;
  char Quote = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I], N = I + 1 < S.size() ? S[I + 1] : 0;
    if (Comment) {
      In[I] = true;
      if (C == '*' && N == '/') {
        In[I + 1] = true;
        ++I;
        Comment = false;
      }
    } else if (LineComment) {
      LineComment = C != '\n';
    } else if (Quote) {
      if (C == '\\')
        ++I;
      else if (C == Quote || C == '\n')
        Quote = 0;
    } else if (C == '/' && N == '*') {
      In[I] = In[I + 1] = true;
      ++I;
      Comment = true;
    } else if (C == '/' && N == '/') {
      LineComment = true;
    } else if (C == '"' || C == '\'') {
      Quote = C;
    }
  }
  return In;
}

std::vector<PragmaLine> scanPragmas(llvm::StringRef Source) {
  std::vector<PragmaLine> Result;
  std::vector<bool> InComment = blockCommentMask(Source);
  size_t Pos = 0;
  while (Pos < Source.size()) {
    size_t LineEnd = Source.find('\n', Pos);
    if (LineEnd == llvm::StringRef::npos)
      LineEnd = Source.size();
    llvm::StringRef Line = Source.slice(Pos, LineEnd).rtrim('\r');
    llvm::StringRef T = Line.ltrim();
    if (!T.empty() && InComment[Pos + (Line.size() - T.size())]) {
      Pos = LineEnd + 1;
      continue;
    }
    if (T.consume_front("#")) {
      T = T.ltrim();
      if (T.consume_front("pragma") && !T.empty() && llvm::isSpace(T.front())) {
        T = T.ltrim();
        if (T.consume_front("acc") && (T.empty() || llvm::isSpace(T.front()))) {
          PragmaLine P;
          P.Offset = Pos + (Line.size() - Line.ltrim().size());
          P.Line = lineOf(Source, Pos);
          std::string Text = T.str();
          // Join continuation lines ("\\\n").
          size_t End = LineEnd;
          while (!Text.empty() && Text.back() == '\\' && End < Source.size()) {
            Text.pop_back();
            size_t Next = Source.find('\n', End + 1);
            if (Next == llvm::StringRef::npos)
              Next = Source.size();
            Text += " " + Source.slice(End + 1, Next).rtrim('\r').str();
            End = Next;
          }
          P.Text = llvm::StringRef(Text).trim().str();
          P.EndOffset = End;
          Result.push_back(std::move(P));
          LineEnd = End;
        }
      }
    }
    Pos = LineEnd + 1;
  }
  return Result;
}

bool declLooksScalar(llvm::StringRef Decl) {
  return Decl.find('*') == llvm::StringRef::npos && Decl.find('[') == llvm::StringRef::npos;
}

static bool isComputeDirective(llvm::StringRef Text) {
  llvm::StringRef Word = Text.take_while(isIdentChar);
  return Word == "parallel" || Word == "kernels" || Word == "serial";
}

llvm::Expected<WrappedKernel> wrapKernel(llvm::StringRef Source,
                                         llvm::ArrayRef<std::string> Decls) {
  WrappedKernel W;
  const PragmaLine *Construct = nullptr;
  std::vector<PragmaLine> Pragmas = scanPragmas(Source);
  for (const PragmaLine &P : Pragmas)
    if (isComputeDirective(P.Text)) {
      Construct = &P;
      break;
    }
  if (!Construct)
    return makeError(ErrorCode::InvalidArgument,
                     "the kernel source has no compute construct: it must contain "
                     "'#pragma acc parallel', 'kernels' or 'serial' followed by one statement");
  W.ConstructOffset = Construct->Offset;

  for (unsigned I = 0; I < Decls.size(); ++I)
    if (llvm::StringRef(Decls[I]).trim().empty())
      return makeError(ErrorCode::InvalidArgument,
                       "argument " + llvm::Twine(I + 1) +
                           " has an empty declaration: write it as the kernel names it, e.g. "
                           "'int n'");
  std::string &C = W.Code;
  // bool, true and false as C23 has them: a kernel pushed through the API names no header.
  C += kernelDialectPrelude(Source.take_front(Construct->Offset));
  C += "#line 1 \"kernel\"\n";
  W.LeadingBegin = C.size();
  C += Source.take_front(Construct->Offset).str();
  C += "\n#line 1 \"<jacc>\"\n";
  C += "void ";
  C += WrapperFunction;
  C += "(";
  // Scalars first (see declLooksScalar), each preceded by a #line naming the arg for diagnostics.
  for (int Pass = 0; Pass < 2; ++Pass)
    for (unsigned I = 0; I < Decls.size(); ++I) {
      if (declLooksScalar(Decls[I]) != (Pass == 0))
        continue;
      if (!W.ParamOrder.empty())
        C += ",";
      C += "\n#line 1 \"arg " + std::to_string(I + 1) + "\"\n";
      C += Decls[I];
      W.ParamOrder.push_back(I);
    }
  if (Decls.empty())
    C += "void";
  C += ")\n{\n";
  // The construct's lines as the user's: a kernel jaccc wrote names its file and line (its
  // site), so that diagnostics and run-time reports point there.
  C += constructLineMarker(Source, Construct->Line);
  // Keep the construct's column positions: pad its first line as the source had it.
  unsigned LineStart = Source.rfind('\n', Construct->Offset) == llvm::StringRef::npos
                           ? 0
                           : Source.rfind('\n', Construct->Offset) + 1;
  C += std::string(Construct->Offset - LineStart, ' ');
  W.ConstructBegin = C.size();
  C += Source.drop_front(Construct->Offset).str();
  C += "\n}\n";
  return W;
}

/// The site's file and line, when the kernel has a site whose file a #line directive can name.
static std::optional<std::pair<std::string, unsigned>> siteFileLine(llvm::StringRef Source) {
  std::string Site = kernelSite(Source);
  llvm::StringRef S(Site);
  size_t Colon = S.rfind(':');
  unsigned Line = 0;
  if (Colon == llvm::StringRef::npos || S.drop_front(Colon + 1).getAsInteger(10, Line) ||
      Line == 0 || S.take_front(Colon).find_first_of("\"\\") != llvm::StringRef::npos)
    return std::nullopt;
  return std::make_pair(S.take_front(Colon).str(), Line);
}

std::string kernelFileName(llvm::StringRef Source) {
  auto Site = siteFileLine(Source);
  return Site ? Site->first : "kernel";
}

std::string constructLineMarker(llvm::StringRef Source, unsigned ConstructLine) {
  auto Site = siteFileLine(Source);
  return "#line " + std::to_string(Site ? Site->second : ConstructLine) + " \"" +
         (Site ? Site->first : "kernel") + "\"\n";
}

bool definesBool(llvm::StringRef Leading) {
  for (size_t At = Leading.find("bool"); At != llvm::StringRef::npos;
       At = Leading.find("bool", At + 4)) {
    if ((At > 0 && isIdentChar(Leading[At - 1])) ||
        (At + 4 < Leading.size() && isIdentChar(Leading[At + 4])))
      continue;
    if (Leading.drop_front(At + 4).ltrim(" \t").starts_with(";"))
      return true; // the declarator of a typedef
    llvm::StringRef Line = Leading.take_front(At);
    Line = Line.drop_front(Line.rfind('\n') + 1).ltrim();
    if (Line.consume_front("#") && (Line = Line.ltrim()).consume_front("define") &&
        Line.ltrim().empty())
      return true; // the name of a macro: '#define' then blanks only
  }
  return false;
}

std::string kernelDialectPrelude(llvm::StringRef Leading) {
  std::string P = definesBool(Leading) ? "" : "#include <stdbool.h>\n";
  return P + "int acc_on_device(int);\n";
}

bool isDeviceApiRoutine(llvm::StringRef Name) {
  return Name == "acc_on_device";
}

bool mentionsIdentifier(llvm::StringRef Text, llvm::StringRef Name) {
  for (size_t I = 0; I < Text.size();) {
    if (!isIdentChar(Text[I])) {
      ++I;
      continue;
    }
    size_t Begin = I;
    bool Number = llvm::isDigit(Text[I]); // 1.5e3f: one token
    while (I < Text.size() &&
           (isIdentChar(Text[I]) || (Number && Text[I] == '.')))
      ++I;
    if (!Number && Text.slice(Begin, I) == Name)
      return true;
  }
  return false;
}

} // namespace jacc::analysis
