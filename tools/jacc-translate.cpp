// jacc-translate: translate an OpenACC C file into C calling jacc.
//   jacc-translate in.c [-o out.c] [--info] [-- cc preprocessor options: -I -D -U -isystem ...]
// --info prints what was inferred (implicit data clauses) as "file:line: implicit copy(c[0:n])".
// Diagnostics go to stderr as "file:line:column: error: ..."; exit status 1 on any error.
// It runs under the compile server's limits (JACC_COMPILE_TIMEOUT, JACC_COMPILE_MEMORY): a
// source that would take it without bound (a macro that doubles forty times) is an error.
#include "jit/server/CompileConfig.h"
#include "support/ProcessLimits.h"
#include "translate/Translate.h"

#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

static int usage() {
  llvm::errs() << "usage: jacc-translate in.c [-o out.c] [--info] [-- -Idir -DNAME=value ...]\n";
  return 1;
}

/// The file being translated, for the error that ends a translation out of time or memory.
static std::string Translating;

/// End the translation of Translating with "file: error: jacc-translate Why ..." and status 1
/// (from the watchdog thread or an allocation failure: nothing here allocates).
[[noreturn]] static void giveUp(const char *Why, const char *Fix) {
  for (const char *Piece : {Translating.c_str(), ": error: jacc-translate ", Why,
                            " translating this file (", Fix, ")\n"})
    if (::write(2, Piece, std::strlen(Piece)) < 0)
      break;
  ::_exit(1);
}

[[noreturn]] static void outOfMemory() {
  giveUp("ran out of memory", "a macro expanding without bound? gcc would run out too");
}

/// Apply the compile server's limits to this process; false (said on stderr) for a bad variable.
static bool limitThisProcess() {
  auto Config = jacc::jit::compileConfigFromEnv();
  if (!Config) {
    llvm::errs() << "jacc-translate: " << llvm::toString(Config.takeError()) << "\n";
    return false;
  }
  std::set_new_handler(outOfMemory);
  llvm::install_bad_alloc_error_handler([](void *, const char *, bool) { outOfMemory(); }, nullptr);
  jacc::watchThisProcess(Config->TimeoutSeconds, Config->MemoryBytes,
                         [](jacc::ProcessLimit Limit, const std::string &What) {
                           giveUp(What.c_str(), Limit == jacc::ProcessLimit::Time
                                                    ? "JACC_COMPILE_TIMEOUT sets the limit; 0 "
                                                      "removes it"
                                                    : "JACC_COMPILE_MEMORY sets the limit; 0 "
                                                      "removes it");
                         });
  return true;
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
  Translating = Input;
  if (!limitThisProcess())
    return 1;
  llvm::CrashRecoveryContext::Enable(); // a crash of clang's parser is an error of the file
  // A device never ends (/dev/zero, /dev/urandom): reading it would end at the limits only.
  struct stat St;
  if (::stat(Input.c_str(), &St) == 0 && (S_ISCHR(St.st_mode) || S_ISBLK(St.st_mode))) {
    llvm::errs() << "jacc-translate: cannot read " << Input
                 << ": it is a device, not a source file\n";
    return 1;
  }
  auto Buf = llvm::MemoryBuffer::getFile(Input, /*IsText=*/true);
  if (!Buf) {
    llvm::errs() << "jacc-translate: cannot read " << Input << ": " << Buf.getError().message()
                 << "\n";
    return 1;
  }
  std::vector<std::string> Warnings, Infos;
  auto Out = jacc::translate::translateOpenACC((*Buf)->getBuffer(), Input, Extra, &Warnings,
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
