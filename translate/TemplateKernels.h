// Compute constructs in templates (function templates, members of class templates): the kernel
// text starts with the template's parameters as each instantiation spells them, and the C++ that
// depends on them is lowered per instantiation (CxxTemplates.cpp).
#ifndef JACC_TRANSLATE_TEMPLATEKERNELS_H
#define JACC_TRANSLATE_TEMPLATEKERNELS_H

#include "translate/CxxLowering.h"
#include "translate/KernelNeeds.h"
#include "translate/SourceFile.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jacc::translate {

class TemplateKernels {
public:
  TemplateKernels(SourceFile &File, CxxLowering &Cxx, KernelDeclarations &Needs)
      : File(File), Cxx(Cxx), Needs(Needs) {}

  /// The template function (a function template's pattern, a member of a class template) whose
  /// body holds P, or nullptr.
  const clang::FunctionDecl *templateAround(const Pragma &P) const;
  /// The kernel's first lines for the template parameters around pattern Fn (its class
  /// templates', then its own), as an expression each instantiation evaluates; none when a
  /// kernel cannot spell them (a pack, a template template parameter).
  std::optional<std::string> parameterText(const clang::FunctionDecl *Fn) const;
  /// The kernel texts of compute construct R in template Fn, one per group of Fn's
  /// instantiations that lower alike (Text: the text of a lowering and what it needs), each with
  /// the condition that selects it (instantiationCondition, `||` over the group); none without
  /// an instantiation. False after an error.
  bool instantiationKernels(
      const Region &R, const clang::FunctionDecl *Fn, const KernelNeeds &N,
      llvm::function_ref<std::optional<std::string>(const CxxKernel &, KernelNeeds &)> Text,
      std::vector<std::pair<std::string, std::string>> &Kernels);

private:
  /// The instantiated definitions of pattern Fn in the file.
  std::vector<clang::FunctionDecl *> instantiationsOf(const clang::FunctionDecl *Fn);
  /// The statement of instantiation I that instantiates Pattern (same place), or nullptr.
  static clang::Stmt *instantiatedStatement(clang::FunctionDecl *I, const clang::Stmt *Pattern);
  /// The C++ condition, true in instantiation I of pattern Fn only, on Fn's template parameters
  /// (`std::is_same<T, float>::value && (long long)(K) == 2LL`); none when it cannot be spelt.
  std::optional<std::string> instantiationCondition(const clang::FunctionDecl *Fn,
                                                    const clang::FunctionDecl *I) const;

  SourceFile &File;
  CxxLowering &Cxx;
  KernelDeclarations &Needs;
  /// Every instantiated definition in the file, by pattern (found on the first question).
  std::optional<std::map<const clang::FunctionDecl *, std::vector<clang::FunctionDecl *>>>
      Instantiations;
};

} // namespace jacc::translate

#endif
