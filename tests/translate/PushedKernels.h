// The kernels a translated file pushes, read back from its text: each push's kernel source and
// its arguments' declarations (the C, C++ and Fortran translations print pushes alike).
#ifndef JACC_TESTS_TRANSLATE_PUSHEDKERNELS_H
#define JACC_TESTS_TRANSLATE_PUSHEDKERNELS_H

#include <gtest/gtest.h>
#include <llvm/ADT/StringRef.h>

#include <sstream>
#include <string>
#include <vector>

namespace jacc::test {

/// A kernel a translated file pushes: its text and its arguments' declarations.
struct PushedKernel {
  std::string Source;
  std::vector<std::string> Decls;
};

/// The C string literal that is the whole of Line but for a trailing `,` or `);` (its text
/// decoded), or false.
inline bool literalLine(llvm::StringRef Line, std::string &Text) {
  Line = Line.trim();
  if (!Line.consume_front("\""))
    return false;
  size_t End = Line.rfind('"');
  if (End == llvm::StringRef::npos)
    return false;
  for (size_t I = 0; I < End; ++I) {
    if (Line[I] != '\\') {
      Text += Line[I];
      continue;
    }
    char C = Line[++I];
    Text += C == 'n' ? '\n' : C == 't' ? '\t' : C == 'r' ? '\r' : C;
  }
  return true;
}

/// The kernels of a translation, in order: each `jacc_arg jacc_args[] = {{"decl", ...}, ...};`
/// line and the string literal lines of the push after it; a template's kernel source holds one
/// text per group of instantiations, each taking the next of Prefixes (the template's parameters
/// as that group's instantiations spell them) before it.
inline std::vector<PushedKernel> pushedKernels(const std::string &Out,
                                               std::vector<std::string> Prefixes = {}) {
  std::vector<PushedKernel> Kernels;
  std::vector<std::string> Decls;
  std::istringstream In(Out);
  std::string Line;
  bool Template = false;
  size_t Prefix = 0;
  while (std::getline(In, Line)) {
    llvm::StringRef L(Line);
    if (L.contains("jacc_arg jacc_args[] = {")) {
      Decls.clear();
      for (size_t P = L.find("{\""); P != llvm::StringRef::npos; P = L.find("{\"", P + 2))
        Decls.push_back(L.substr(P + 2, L.find('"', P + 2) - P - 2).str());
      continue;
    }
    if (L.contains("static const std::string jacc_kernel_source ="))
      Template = true;
    if (L.contains("jacc_kernel_push(jacc_kernel_source"))
      Template = false;
    if (!L.endswith("jacc_kernel_push(") && !(Template && L.endswith("std::string(")))
      continue;
    PushedKernel K;
    if (Template) {
      EXPECT_LT(Prefix, Prefixes.size()) << "a template kernel without its parameters' lines";
      K.Source = Prefix < Prefixes.size() ? Prefixes[Prefix++] : "";
    }
    K.Decls = Decls;
    std::streampos At = In.tellg();
    while (std::getline(In, Line) && literalLine(Line, K.Source))
      At = In.tellg();
    In.seekg(At); // the line after the text: the next text's, or the push
    Kernels.push_back(K);
  }
  EXPECT_EQ(Prefix, Prefixes.size()) << "template kernels";
  return Kernels;
}

} // namespace jacc::test

#endif
