// Scanning C text for identifiers (CText.h).
#include "support/CText.h"

namespace jacc {

std::vector<std::string> identifiersIn(llvm::StringRef T) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < T.size();) {
    char C = T[I];
    if (C == '/' && I + 1 < T.size() && (T[I + 1] == '/' || T[I + 1] == '*')) {
      // Comments name nothing, and may hold a lone quote ("A's rows").
      size_t E = T[I + 1] == '/' ? T.find('\n', I) : T.find("*/", I + 2);
      I = E == llvm::StringRef::npos ? T.size() : E + (T[I + 1] == '/' ? 1 : 2);
    } else if (C == '"' || C == '\'') {
      for (++I; I < T.size() && T[I] != C; ++I)
        if (T[I] == '\\')
          ++I;
      ++I;
    } else if (isIdentStart(C)) {
      size_t B = I;
      while (I < T.size() && isIdentChar(T[I]))
        ++I;
      Out.push_back(T.slice(B, I).str());
    } else if (llvm::isDigit(C)) {
      while (I < T.size() && (isIdentChar(T[I]) || T[I] == '.'))
        ++I;
    } else {
      ++I;
    }
  }
  return Out;
}

std::string renameIdentifiers(llvm::StringRef Text,
                              const std::map<std::string, std::string> &Renamed) {
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    size_t B = I;
    if (isIdentStart(Text[I]) && (I == 0 || !isIdentChar(Text[I - 1]))) {
      while (I < Text.size() && isIdentChar(Text[I]))
        ++I;
      auto Found = Renamed.find(Text.slice(B, I).str());
      Out += Found == Renamed.end() ? Text.slice(B, I).str() : Found->second;
    } else {
      Out += Text[I++];
    }
  }
  return Out;
}

} // namespace jacc
