// jacc-translate: translate an OpenACC C file into C calling jacc, or an OpenACC Fortran file
// into Fortran calling C glue (--glue: where the glue goes) that calls jacc.
//   jacc-translate in.c [-o out.c] [--info] [-- cc preprocessor options: -I -D -U -isystem ...]
//   jacc-translate in.f90 -o out.f90 --glue out.c [-- -I -D -U -J (flang's modules' directory)]
// --info prints what was inferred (implicit data clauses) as "file:line: implicit copy(c[0:n])".
// Diagnostics go to stderr as "file:line:column: error: ..."; exit status 1 on any error.
// It runs under the compile server's limits (JACC_COMPILE_TIMEOUT, JACC_COMPILE_MEMORY): a
// source that would take it without bound (a macro that doubles forty times) is an error.
#include "jit/server/CompileConfig.h"
#include "support/ProcessLimits.h"
#include "translate/Translate.h"
#ifdef JACC_HAVE_FORTRAN
#include "translate/fortran/FortranTranslate.h"
#endif

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
  llvm::errs() << "usage: jacc-translate in.c [-o out.c] [--info] [-- -Idir -DNAME=value ...]\n"
                  "       jacc-translate in.f90 -o out.f90 --glue out.c [-- -Idir -DNAME -Jdir]\n";
  return 1;
}

/// Write Text to Path ("-" or empty: stdout); false, said on stderr, when it cannot.
static bool writeText(const std::string &Path, const std::string &Text) {
  if (Path.empty() || Path == "-") {
    llvm::outs() << Text;
    return true;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "jacc-translate: cannot write " << Path << ": " << EC.message() << "\n";
    return false;
  }
  OS << Text;
  OS.close();
  if (OS.has_error()) { // a full disk: say so, instead of LLVM's fatal error when OS is destroyed
    llvm::errs() << "jacc-translate: cannot write " << Path << ": " << OS.error().message() << "\n";
    OS.clear_error();
    return false;
  }
  return true;
}

/// Translate the Fortran file Input (its host program to Output, its glue to Glue) with the
/// preprocessor and module options of Extra.
static int translateFortranFile(const std::string &Input, const std::string &Output,
                                const std::string &Glue, const std::vector<std::string> &Extra,
                                bool Info) {
#ifdef JACC_HAVE_FORTRAN
  namespace F = jacc::translate::fortran;
  F::FortranOptions Options;
  Options.FixedForm = jacc::translate::isFixedForm(Input);
  for (size_t I = 0; I < Extra.size(); ++I) {
    llvm::StringRef A = Extra[I];
    for (const char *Flag : {"-I", "-D", "-U", "-J"}) {
      if (!A.startswith(Flag))
        continue;
      std::string Value = A.size() > 2           ? A.drop_front(2).str()
                          : I + 1 < Extra.size() ? Extra[++I]
                                                 : std::string();
      if (Flag[1] == 'I')
        Options.IncludeDirs.push_back(Value);
      else if (Flag[1] == 'J')
        Options.ModuleDir = Value;
      else if (Flag[1] == 'U')
        llvm::erase_if(Options.Defines, [&](const auto &D) { return D.first == Value; });
      else if (size_t Eq = Value.find('='); Eq != std::string::npos)
        Options.Defines.emplace_back(Value.substr(0, Eq), Value.substr(Eq + 1));
      else
        Options.Defines.emplace_back(Value, "1");
    }
  }
  if (Glue.empty()) {
    llvm::errs() << "jacc-translate: a Fortran file's translation needs --glue FILE (where its "
                    "C glue goes)\n";
    return 1;
  }
  std::vector<std::string> Infos;
  auto Out = F::translateFortran(Input, Options, Info ? &Infos : nullptr);
  for (const std::string &I : Infos)
    llvm::errs() << I << "\n";
  if (!Out) {
    llvm::errs() << llvm::toString(Out.takeError()) << "\n";
    return 1;
  }
  return writeText(Output, Out->Host) && writeText(Glue, Out->Glue) ? 0 : 1;
#else
  (void)Output, (void)Glue, (void)Extra, (void)Info;
  llvm::errs() << Input << ": error: this jacc was built without flang's libraries, which it "
               << "translates Fortran with: install libflang-16-dev (scripts/dev.sh does) and "
               << "rebuild\n";
  return 1;
#endif
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
  std::string Input, Output, Glue;
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
    else if (A == "--glue" && I + 1 < argc)
      Glue = argv[++I];
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
  if (jacc::translate::isFortranFile(Input))
    return translateFortranFile(Input, Output, Glue, Extra, Info);
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
  return writeText(Output, *Out) ? 0 : 1;
}
