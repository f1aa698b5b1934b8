// The calls and comments every translated directive brings around its own.
#include "translate/ConstructCalls.h"

#include "analysis/KernelSource.h"
#include "translate/ComputePush.h"

#include <llvm/ADT/StringExtras.h>

using namespace clang;

namespace jacc::translate {

JaccLines jaccLinesAbove(const SourceFile &File, const Pragma &P) {
  // The `#pragma jacc` lines right above the construct, in any order.
  JaccLines Out;
  llvm::StringRef Before = File.Buf.take_front(P.LineStart).rtrim();
  while (!Before.empty()) {
    size_t Start = Before.rfind('\n') + 1; // npos + 1: the first line
    llvm::StringRef Line = Before.substr(Start);
    if (std::optional<std::string> V = analysis::kernelPolicy(Line)) {
      Out.Policy = V;
    } else if (std::optional<std::string> V = analysis::kernelLocation(Line)) {
      Out.Location = V;
      Out.LocationLine = Before.take_front(Start).count('\n') + 1;
    } else {
      break;
    }
    Out.Lines.push_back({unsigned(Start), unsigned(Line.size())});
    Before = Before.take_front(Start).rtrim();
  }
  return Out;
}

void commentJaccLines(SourceFile &File, const Pragma &P) {
  for (auto [Offset, Length] : jaccLinesAbove(File, P).Lines) {
    std::string Text = File.Buf.substr(Offset, Length).trim().str();
    for (size_t At = Text.find("*/"); At != std::string::npos; At = Text.find("*/", At))
      Text.replace(At, 2, "* /");
    File.RW.ReplaceText(File.SM.getComposedLoc(File.SM.getMainFileID(), Offset), Length,
                        "/* " + Text + " */");
  }
}

std::string jaccLines(const SourceFile &File, const Pragma &P) {
  JaccLines L = jaccLinesAbove(File, P);
  return (L.Location ? "#pragma jacc location(" + *L.Location + ")\n" : "") +
         (L.Policy ? "#pragma jacc policy(" + *L.Policy + ")\n" : "");
}

bool atDataLocation(SourceFile &File, const Pragma &P, std::vector<std::string> &Calls) {
  JaccLines L = jaccLinesAbove(File, P);
  if (!L.Location || Calls.empty())
    return true;
  // A location's name (src/launch/Locations.cpp): it goes into a string literal as it is.
  const std::string &Name = *L.Location;
  if (Name.empty() || !llvm::all_of(Name, [](char C) {
        return llvm::isAlnum(C) || C == '_' || C == '.' || C == '-' || C == ':';
      })) {
    File.error(L.LocationLine, 1,
               "'#pragma jacc location(" + Name + ")' above the directive at line " +
                   llvm::Twine(P.Line) +
                   " names no location: a name is letters, digits, '_', '.', '-' and ':'");
    return false;
  }
  Calls.insert(Calls.begin(), File.check("jacc_data_location_begin(\"" + Name + "\")", P));
  Calls.push_back(File.check("jacc_data_location_end()", P));
  return true;
}

std::vector<std::string> queueChecks(const SourceFile &File, const Pragma &P,
                                     const analysis::Directive &D) {
  std::vector<std::string> Calls;
  auto Add = [&](const std::vector<std::string> &Queues) { // literals: checked by the parser
    for (const std::string &Q : Queues)
      if (!analysis::queueLiteral(Q))
        Calls.push_back("jacc_translated_queue((long long)(" + Q + "), " + File.where(P) + ", " +
                        cString("#pragma acc " + P.Text, "") + ");");
  };
  Add(D.Queues);
  for (const analysis::Clause &C : D.Clauses)
    Add(C.Queues);
  return Calls;
}

std::string constructBegin(const SourceFile &File, const Pragma &P, llvm::StringRef Kind) {
  // The function around the directive, for tools that group by function.
  std::string Func = "0";
  for (const FunctionDecl *F : File.Idx.Functions)
    if (F->doesThisDeclarationHaveABody() &&
        File.Idx.offset(F->getBody()->getBeginLoc()) < P.Hash &&
        P.Hash < File.Idx.offset(F->getBody()->getEndLoc()))
      Func = "\"" + F->getNameAsString() + "\"";
  return "jacc_construct_begin(JACC_CONSTRUCT_" + Kind.str() + ", \"" + File.FileName.str() +
         "\", " + std::to_string(P.Line) + ", " + Func + ");";
}

llvm::StringRef computeKind(analysis::DirectiveKind K) {
  switch (K) {
  case analysis::DirectiveKind::Kernels:
  case analysis::DirectiveKind::KernelsLoop:
    return "KERNELS";
  case analysis::DirectiveKind::Serial:
  case analysis::DirectiveKind::SerialLoop:
    return "SERIAL";
  default:
    return "PARALLEL";
  }
}

} // namespace jacc::translate
