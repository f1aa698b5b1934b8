// What a compute construct becomes in the host program: the calls around one jacc_kernel_push
// and the kernel texts it pushes. The steps of translate/ComputeConstruct.cpp build it; a printer
// per host language writes it (C and C++: printComputePush).
#ifndef JACC_TRANSLATE_COMPUTEPUSH_H
#define JACC_TRANSLATE_COMPUTEPUSH_H

#include <llvm/ADT/StringRef.h>

#include <string>
#include <utility>
#include <vector>

namespace jacc::translate {

struct ComputePush {
  std::string Indent;        ///< the construct's pragma's indentation
  std::string DirectiveText; ///< the directive as written, kept as a comment
  std::string Site;          ///< "file.c:42": where errors of the push point
  /// The if clause's condition (empty: none), and the statement as the host runs it when false.
  std::string IfCondition, HostStatement;
  std::vector<std::string> Decls;       ///< declarations the calls need, before the if's guard
  std::string Begin, End;               ///< the construct's jacc_construct_begin and _end calls
  std::vector<std::string> QueueChecks; ///< checks of the async and wait arguments
  bool Wait = false;  ///< a wait clause: what is queued completes before the construct
  bool Async = false; ///< an async clause: the push returns once queued
  /// Calls before and after the push (data clauses, implicit copies, private sections), and
  /// the host temporaries the arguments point to.
  std::vector<std::string> Entry, Exit, Temps;
  std::vector<std::string> Args; ///< jacc_arg initialisers: {"declaration", &value}
  /// The kernel texts, each with the condition that selects it: one without a condition,
  /// except in a template, where TemplateParams is the expression of its parameters' lines and
  /// each group of instantiations that lower alike has its text.
  std::vector<std::pair<std::string, std::string>> Kernels;
  std::string TemplateParams;
};

/// The C (and C++) block that replaces the construct: Push's calls around its push.
std::string printComputePush(const ComputePush &Push);

/// Text as a C string literal, one literal per line, each line indented by Indent.
std::string cString(llvm::StringRef Text, const std::string &Indent);

} // namespace jacc::translate

#endif
