// jacc-translate: translate an OpenACC C file into C calling jacc.
//   jacc-translate in.c [-o out.c] [--info] [-- cc preprocessor options: -I -D -U -isystem ...]
// --info prints what was inferred (implicit data clauses) as "file:line: implicit copy(c[0:n])".
// Diagnostics go to stderr as "file:line:column: error: ..."; exit status 1 on any error.
#include "translate/Translate.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
#include <string>
#include <vector>

static int usage() {
  llvm::errs() << "usage: jacc-translate in.c [-o out.c] [--info] [-- -Idir -DNAME=value ...]\n";
  return 1;
}

int main(int argc, char **argv) {
  std::string Input, Output;
  std::vector<std::string> Extra;
  bool Info = false;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    if (A == "--") {
      Extra.assign(argv + I + 1, argv + argc);
      break;
    }
    if (A == "-o" && I + 1 < argc)
      Output = argv[++I];
    else if (A == "--info")
      Info = true;
    else if (A == "-h" || A == "--help")
      return usage(), 0;
    else if (Input.empty() && !A.startswith("-"))
      Input = A.str();
    else
      return usage();
  }
  if (Input.empty())
    return usage();
  auto Buf = llvm::MemoryBuffer::getFile(Input, /*IsText=*/true);
  if (!Buf) {
    llvm::errs() << "jacc-translate: cannot read " << Input << ": " << Buf.getError().message()
                 << "\n";
    return 1;
  }
  std::vector<std::string> Warnings, Infos;
  auto Out = jacc::analysis::translateOpenACC((*Buf)->getBuffer(), Input, Extra, &Warnings,
                                              Info ? &Infos : nullptr);
  for (const std::string &W : Warnings)
    llvm::errs() << W << "\n";
  for (const std::string &I : Info ? Infos : std::vector<std::string>())
    llvm::errs() << I << "\n";
  if (!Out) {
    llvm::errs() << llvm::toString(Out.takeError()) << "\n";
    return 1;
  }
  if (Output.empty() || Output == "-") {
    llvm::outs() << *Out;
    return 0;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "jacc-translate: cannot write " << Output << ": " << EC.message() << "\n";
    return 1;
  }
  OS << *Out;
  OS.close();
  if (OS.has_error()) { // a full disk: say so, instead of LLVM's fatal error when OS is destroyed
    llvm::errs() << "jacc-translate: cannot write " << Output << ": " << OS.error().message()
                 << "\n";
    OS.clear_error();
    return 1;
  }
  return 0;
}
