// C's complex types spelled for CUDA C++ (the arithmetic is the text of CudaComplex.h).
#include "jit/cuda/CudaComplex.h"

#include "support/CText.h"

namespace jacc::jit {

namespace {

/// The end of the comment, string or character constant starting at I, or I when none does.
size_t skipLiteralOrComment(llvm::StringRef S, size_t I) {
  if (S.substr(I).starts_with("//")) {
    size_t E = S.find('\n', I);
    return E == llvm::StringRef::npos ? S.size() : E;
  }
  if (S.substr(I).starts_with("/*")) {
    size_t E = S.find("*/", I + 2);
    return E == llvm::StringRef::npos ? S.size() : E + 2;
  }
  if (S[I] != '"' && S[I] != '\'')
    return I;
  char Quote = S[I];
  for (size_t J = I + 1; J < S.size(); ++J) {
    if (S[J] == '\\')
      ++J;
    else if (S[J] == Quote || S[J] == '\n')
      return J + 1;
  }
  return S.size();
}

bool isRealType(llvm::StringRef Word) {
  return Word == "float" || Word == "double";
}

} // namespace

std::string spellComplexForCuda(llvm::StringRef S, bool ComplexMacro, bool &Changed) {
  std::string Out;
  Out.reserve(S.size());
  // The last identifier written, where it starts in Out, and whether only blanks followed it.
  llvm::StringRef Previous;
  size_t PreviousAt = 0;
  bool Adjacent = false;
  size_t I = 0;
  while (I < S.size()) {
    if (size_t E = skipLiteralOrComment(S, I); E != I) {
      Out += S.slice(I, E).str();
      I = E;
      Adjacent = false;
      continue;
    }
    if (!isIdentStart(S[I]) || (I > 0 && isIdentChar(S[I - 1]))) {
      if (!std::isspace(static_cast<unsigned char>(S[I])))
        Adjacent = false;
      Out += S[I++];
      continue;
    }
    size_t E = I;
    while (E < S.size() && isIdentChar(S[E]))
      ++E;
    llvm::StringRef Word = S.slice(I, E);
    if (Word == "_Complex" || (ComplexMacro && Word == "complex")) {
      if (Adjacent && isRealType(Previous)) { // double _Complex
        Out.resize(PreviousAt);
        Out += "__jacc_complex<" + Previous.str() + ">";
        Changed = true;
        Previous = {};
        Adjacent = false;
        I = E;
        continue;
      }
      size_t Next = E;
      while (Next < S.size() && std::isspace(static_cast<unsigned char>(S[Next])))
        ++Next;
      size_t NextEnd = Next;
      while (NextEnd < S.size() && isIdentChar(S[NextEnd]))
        ++NextEnd;
      if (isRealType(S.slice(Next, NextEnd))) { // _Complex double
        Out += "__jacc_complex<" + S.slice(Next, NextEnd).str() + ">";
        Changed = true;
        Previous = {};
        Adjacent = false;
        I = NextEnd;
        continue;
      }
    }
    Previous = Word;
    PreviousAt = Out.size();
    Adjacent = true;
    Out += Word.str();
    I = E;
  }
  return Out;
}

} // namespace jacc::jit
