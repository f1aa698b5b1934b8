// Parsing the `.param` declarations of an entry out of PTX text, comments stripped first: each
// parameter's name, type, size and alignment.
#include "jit/cuda/PtxEntry.h"

#include "support/Error.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>

#include <algorithm>

namespace jacc::jit {

namespace {

/// Ptx without // and /* */ comments, so a commented-out `.entry` or parameter cannot match;
/// quoted strings (.file paths) are kept whole.
std::string stripComments(llvm::StringRef Ptx) {
  std::string Out;
  Out.reserve(Ptx.size());
  for (size_t I = 0; I < Ptx.size();) {
    if (Ptx[I] == '"') {
      size_t End = Ptx.find('"', I + 1);
      End = End == llvm::StringRef::npos ? Ptx.size() : End + 1;
      Out.append(Ptx.data() + I, End - I);
      I = End;
    } else if (Ptx.substr(I).startswith("//")) {
      I = std::min(Ptx.find('\n', I), Ptx.size());
    } else if (Ptx.substr(I).startswith("/*")) {
      size_t End = Ptx.find("*/", I + 2);
      I = End == llvm::StringRef::npos ? Ptx.size() : End + 2;
      Out += ' ';
    } else {
      Out += Ptx[I++];
    }
  }
  return Out;
}

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_' || C == '$' || C == '%'; }

/// Size in bytes of a PTX parameter type, 0 when the token is not one.
unsigned typeSize(llvm::StringRef Type) {
  return llvm::StringSwitch<unsigned>(Type)
      .Cases(".u8", ".s8", ".b8", 1)
      .Cases(".u16", ".s16", ".f16", ".bf16", ".b16", 2)
      .Cases(".u32", ".s32", ".f32", ".b32", ".f16x2", ".bf16x2", 4)
      .Cases(".u64", ".s64", ".f64", ".b64", 8)
      .Case(".b128", 16)
      .Default(0);
}

/// One `.param ...` declaration; false when it does not parse.
bool parseParam(llvm::StringRef Text, PtxParam &P) {
  llvm::SmallVector<llvm::StringRef, 8> Tokens;
  Text.split(Tokens, ' ', -1, /*KeepEmpty=*/false);
  if (Tokens.empty() || Tokens.front() != ".param")
    return false;
  bool Ptr = false;
  size_t I = 1;
  for (; I < Tokens.size() && Tokens[I].startswith("."); ++I) {
    llvm::StringRef T = Tokens[I];
    if (T == ".align") {
      unsigned N = 0;
      if (++I == Tokens.size() || Tokens[I].getAsInteger(10, N) || N == 0)
        return false;
      // After .ptr the alignment is the pointee's, not the parameter's.
      if (!Ptr)
        P.Align = N;
    } else if (T == ".ptr") {
      Ptr = true;
    } else if (T == ".global" || T == ".const" || T == ".local" || T == ".shared") {
      if (!Ptr)
        return false;
    } else if (unsigned Size = typeSize(T); Size && P.Type.empty()) {
      P.Type = T.str();
      P.Size = Size;
    } else {
      return false;
    }
  }
  // The declarator, spaces removed: "name" or "name[N]".
  std::string Decl;
  for (; I < Tokens.size(); ++I)
    Decl += Tokens[I].str();
  llvm::StringRef D = Decl;
  llvm::StringRef Name = D.take_until([](char C) { return C == '['; });
  if (P.Type.empty() || Name.empty() || !llvm::all_of(Name, isIdentChar))
    return false;
  P.Name = Name.str();
  if (!P.Align)
    P.Align = P.Size;
  if (llvm::StringRef Dim = D.drop_front(Name.size()); !Dim.empty()) {
    unsigned Count = 0;
    if (Ptr || !Dim.consume_front("[") || !Dim.consume_back("]") || Dim.getAsInteger(10, Count) ||
        Count == 0)
      return false;
    P.Size *= Count;
  }
  return true;
}

} // namespace

llvm::Expected<std::vector<PtxParam>> parsePtxEntryParams(llvm::StringRef PtxText,
                                                          llvm::StringRef Entry) {
  std::string Stripped = stripComments(PtxText);
  llvm::StringRef Ptx = Stripped;
  std::string Found;
  for (size_t At = Ptx.find(".entry"); At != llvm::StringRef::npos;
       At = Ptx.find(".entry", At + 1)) {
    size_t NameAt = At + 6;
    if ((At && !llvm::isSpace(Ptx[At - 1])) || NameAt >= Ptx.size() || !llvm::isSpace(Ptx[NameAt]))
      continue;
    llvm::StringRef Rest = Ptx.drop_front(NameAt).ltrim();
    llvm::StringRef Name = Rest.take_while(isIdentChar);
    if (Name != Entry) {
      Found += (Found.empty() ? "" : ", ") + Name.str();
      continue;
    }
    Rest = Rest.drop_front(Name.size()).ltrim();
    std::vector<PtxParam> Params;
    // `.entry k {` or `.entry k .maxntid ...`: a kernel without parameters.
    if (!Rest.consume_front("("))
      return Params;
    size_t Close = Rest.find(')');
    if (Close == llvm::StringRef::npos)
      return makeError(ErrorCode::Internal, "the PTX entry '" + Entry +
                                                "' has no ')' closing its parameter list");
    llvm::StringRef List = Rest.take_front(Close);
    if (List.trim().empty())
      return Params;
    llvm::SmallVector<llvm::StringRef, 16> Decls;
    List.split(Decls, ',');
    for (llvm::StringRef Decl : Decls) {
      // Tabs and newlines separate tokens like spaces.
      std::string Text = Decl.trim().str();
      for (char &C : Text)
        if (llvm::isSpace(C))
          C = ' ';
      PtxParam P;
      if (!parseParam(Text, P))
        return makeError(ErrorCode::Internal,
                         "cannot parse parameter " + llvm::Twine(Params.size()) + " of the PTX "
                         "entry '" + Entry + "': '" + Text +
                             "' (expected .param [.align N] .type name[[count]])");
      Params.push_back(std::move(P));
    }
    return Params;
  }
  return makeError(ErrorCode::Internal,
                   "the PTX has no .entry named '" + Entry + "' (entries: " +
                       (Found.empty() ? std::string("none") : Found) + ")");
}

} // namespace jacc::jit
