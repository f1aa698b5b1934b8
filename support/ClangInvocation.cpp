// Building a clang compiler instance for an in-memory file: cc1 arguments asked of the driver once
// per purpose, regular files only, and precompiled headers for a kernel's system includes.
#include "support/ClangInvocation.h"

#include "support/Error.h"
#include "support/Fork.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/DiagnosticSema.h>
#include <clang/Basic/Version.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/TargetParser/Host.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>

#ifndef JACC_CLANG_RESOURCE_DIR
#error "the build must define JACC_CLANG_RESOURCE_DIR (clang's resource directory)"
#endif
#ifndef JACC_CLANG_BINARY
#define JACC_CLANG_BINARY "/usr/lib/llvm-16/bin/clang"
#endif

namespace jacc {
namespace {

constexpr const char *PlaceholderFile = "jacc-kernel.c";

/// The real file system, except that only regular files open: an `#include </dev/stdin>` or of
/// a FIFO in a kernel would block the compile (and jacc_finalize after it) for ever.
class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
public:
  RegularFilesOnly() : ProxyFileSystem(llvm::vfs::getRealFileSystem()) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    llvm::ErrorOr<llvm::vfs::Status> S = status(Path);
    if (S && S->getType() != llvm::sys::fs::file_type::regular_file)
      return std::make_error_code(std::errc::operation_not_supported); // "not supported"
    return ProxyFileSystem::openFileForRead(Path);
  }
};

/// Ask the driver what cc1 would be given for `clang <Flags> jacc-kernel.c`.
llvm::Expected<std::vector<std::string>> driverArgs(llvm::ArrayRef<const char *> Flags) {
  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter Printer(DiagOS, DiagOpts.get());
  clang::DiagnosticsEngine Diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), DiagOpts,
                                 &Printer, /*ShouldOwnClient=*/false);
  clang::driver::Driver D(JACC_CLANG_BINARY, llvm::sys::getDefaultTargetTriple(), Diags);
  D.ResourceDir = JACC_CLANG_RESOURCE_DIR;
  D.setCheckInputsExist(false); // the file lives in memory
  std::vector<const char *> Argv = {"clang"};
  Argv.insert(Argv.end(), Flags.begin(), Flags.end());
  Argv.push_back(PlaceholderFile);
  std::unique_ptr<clang::driver::Compilation> C(D.BuildCompilation(Argv));
  if (!C || Diags.hasErrorOccurred())
    return makeError(ErrorCode::Internal, "clang driver failed: " + DiagOS.str());
  const clang::driver::JobList &Jobs = C->getJobs();
  if (Jobs.size() != 1)
    return makeError(ErrorCode::Internal, "clang driver produced " + llvm::Twine(Jobs.size()) +
                                              " jobs, expected one cc1 job");
  const clang::driver::Command &Cmd = *Jobs.begin();
  std::vector<std::string> Args;
  // The input goes (the caller names it), the value of -main-file-name stays (without it the
  // option would take the next one, -mrelocation-model, as its value).
  for (const char *A : Cmd.getArguments())
    if (llvm::StringRef(A) != PlaceholderFile ||
        (!Args.empty() && Args.back() == "-main-file-name"))
      Args.push_back(A);
  return Args;
}

struct ArgCache {
  std::once_flag Once;
  std::vector<std::string> Args;
  std::string Error;
};

ArgCache &cacheFor(ClangPurpose P) {
  static ArgCache Caches[4];
  return Caches[static_cast<unsigned>(P)];
}

/// The driver flags of a purpose.
std::vector<const char *> purposeFlags(ClangPurpose Purpose) {
  if (Purpose == ClangPurpose::Program)
    // A user's program, parsed as gcc would compile it: its default dialect (gnu17), and what
    // clang 16 makes errors but gcc only warns about stays a warning (cc warns when it compiles
    // the translation; the translator reports errors only). gcc 11's __malloc__(deallocator),
    // which gcc's own <omp.h> uses, is a hard error in clang 16: it parses as plain __malloc__.
    return {"-fsyntax-only", "-x", "c", "-std=gnu17", "-Wno-unknown-pragmas",
            "-fno-color-diagnostics", "-O0", "-Wno-error=implicit-function-declaration",
            "-Wno-error=implicit-int", "-Wno-error=int-conversion",
            "-Wno-error=incompatible-function-pointer-types", "-Wno-error=return-type",
            "-Wno-error=incompatible-pointer-types", "-D__malloc__(...)=__malloc__"};
  if (Purpose == ClangPurpose::ProgramCxx)
    // g++'s leniencies that clang makes errors (narrowing in braces is only a warning in g++).
    return {"-fsyntax-only", "-x", "c++", "-std=gnu++17", "-Wno-unknown-pragmas",
            "-fno-color-diagnostics", "-O0", "-Wno-error=c++11-narrowing",
            "-Wno-error=return-type", "-D__malloc__(...)=__malloc__"};
  // Kernels are C99 with GNU extensions; math never sets errno (as on GPUs), which lets the
  // vectoriser use sqrt & co. Unknown pragmas (acc) are ours to handle, not warnings.
  std::vector<const char *> Flags = {"-fsyntax-only", "-x", "c", "-std=gnu99",
                                     "-fno-math-errno", "-Wno-unknown-pragmas",
                                     "-fno-color-diagnostics"};
  if (Purpose == ClangPurpose::HostCodegen) {
    Flags[0] = "-S";
    for (const char *F : {"-emit-llvm", "-O3", "-march=native", "-w", "-fno-stack-protector",
                          "-fno-plt", "-fPIC"})
      Flags.push_back(F);
  } else {
    Flags.push_back("-O0");
  }
  return Flags;
}

} // namespace

llvm::Expected<const std::vector<std::string> &> cc1Arguments(ClangPurpose Purpose) {
  ArgCache &C = cacheFor(Purpose);
  std::call_once(C.Once, [&] {
    auto ArgsOr = driverArgs(purposeFlags(Purpose));
    if (!ArgsOr) {
      C.Error = llvm::toString(ArgsOr.takeError());
      return;
    }
    C.Args = std::move(*ArgsOr);
  });
  if (!C.Error.empty())
    return makeError(ErrorCode::Internal, C.Error);
  return C.Args;
}

std::string systemIncludePrefix(llvm::StringRef Source) {
  std::string Prefix;
  while (!Source.empty()) {
    auto [Line, Rest] = Source.split('\n');
    Source = Rest;
    llvm::StringRef T = Line.trim();
    // Blank lines and one-line comments may sit between the includes; anything else ends them.
    if (T.empty() || T.startswith("//") ||
        (T.startswith("/*") && T.endswith("*/") && T.find("*/") + 2 == T.size()))
      continue;
    if (!T.consume_front("#"))
      break;
    T = T.ltrim();
    if (!T.consume_front("include"))
      break;
    T = T.trim();
    if (!T.startswith("<") || !T.endswith(">"))
      break;
    Prefix += "#include " + T.str() + "\n";
  }
  return Prefix;
}

namespace {

/// Precompiled headers of system include prefixes, one per (purpose, prefix), built on first use
/// into a private directory removed at exit. A header that fails to precompile is simply not
/// precompiled: the kernel's own parse then reports any error in place.
class PCHCache {
public:
  static PCHCache &get() {
    static PCHCache *C = new PCHCache;
    return *C;
  }
  std::string pathFor(ClangPurpose Purpose, const std::string &Prefix) {
    std::string Key = std::to_string(static_cast<int>(Purpose)) + Prefix;
    std::shared_ptr<Entry> E;
    {
      std::lock_guard<std::mutex> L(M);
      auto &Slot = Entries[Key];
      if (!Slot)
        Slot = std::make_shared<Entry>();
      E = Slot;
    }
    std::call_once(E->Once, [&] { E->Path = build(Purpose, Prefix); });
    return E->Path;
  }

private:
  struct Entry {
    std::once_flag Once;
    std::string Path;
  };
  std::string build(ClangPurpose Purpose, const std::string &Prefix) {
    std::string Dir = directory();
    if (Dir.empty())
      return "";
    std::string Path = Dir + "/h" + std::to_string(Counter++) + ".pch";
    std::string Ignored;
    llvm::raw_string_ostream DiagOS(Ignored);
    auto CI = makeCompilerInstance(Purpose, Prefix, "jacc-prelude.h", DiagOS);
    if (!CI) {
      llvm::consumeError(CI.takeError());
      return "";
    }
    auto &Inputs = (*CI)->getFrontendOpts().Inputs;
    Inputs.front() = clang::FrontendInputFile(Inputs.front().getBuffer(),
                                              clang::InputKind(clang::Language::C).getHeader());
    (*CI)->getFrontendOpts().OutputFile = Path;
    (*CI)->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
    clang::GeneratePCHAction Action;
    if (!(*CI)->ExecuteAction(Action) || (*CI)->getDiagnostics().hasErrorOccurred())
      return "";
    return Path;
  }
  std::string directory() {
    std::lock_guard<std::mutex> L(M);
    if (!DirTried) {
      DirTried = true;
      llvm::SmallString<128> D;
      if (!llvm::sys::fs::createUniqueDirectory("jacc-pch", D)) {
        Dir = D.str().str();
        static std::string *ToRemove = new std::string(Dir);
        std::atexit([] {
          if (!forkedChild()) // the parent's directory, still in use there
            llvm::sys::fs::remove_directories(*ToRemove);
        });
      }
    }
    return Dir;
  }
  std::mutex M;
  std::map<std::string, std::shared_ptr<Entry>> Entries;
  std::atomic<unsigned> Counter{0};
  bool DirTried = false;
  std::string Dir;
};

} // namespace

llvm::Expected<std::unique_ptr<clang::CompilerInstance>>
makeCompilerInstance(ClangPurpose Purpose, llvm::StringRef Code, llvm::StringRef FileName,
                     llvm::raw_ostream &DiagOS, llvm::StringRef KernelSource,
                     llvm::ArrayRef<std::string> ExtraArgs) {
  auto ArgsOr = cc1Arguments(Purpose);
  if (!ArgsOr)
    return ArgsOr.takeError();
  std::vector<const char *> Argv;
  for (const std::string &A : *ArgsOr)
    if (A != "-cc1")
      Argv.push_back(A.c_str());
  for (const std::string &A : ExtraArgs) // later options win (-std=)
    Argv.push_back(A.c_str());
  Argv.push_back(FileName.data() ? FileName.data() : "kernel.c");

  auto CI = std::make_unique<clang::CompilerInstance>();
  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  DiagOpts->ShowColors = false;
  DiagOpts->ShowPresumedLoc = true; // "kernel:LINE:COL" through the #line directives
  auto *Printer = new clang::TextDiagnosticPrinter(DiagOS, DiagOpts.get());
  auto Diags = clang::CompilerInstance::createDiagnostics(DiagOpts.get(), Printer, true);
  if (!clang::CompilerInvocation::CreateFromArgs(CI->getInvocation(), Argv, *Diags))
    return makeError(ErrorCode::Internal, "cannot build a clang invocation from the driver's "
                                          "arguments");
  CI->setDiagnostics(Diags.get());
  // The invocation's warning flags (-w for generated code, -Wno-unknown-pragmas) apply to the
  // engine built before the invocation existed.
  clang::ProcessWarningOptions(*Diags, CI->getDiagnosticOpts(), /*ReportDiags=*/false);
  // Kernels may call the C library functions clang knows (sqrt, exp, pow, ...) without including
  // their header; clang then declares them with their standard types. Unknown functions stay errors.
  Diags->setSeverity(clang::diag::ext_implicit_lib_function_decl_c99,
                     clang::diag::Severity::Ignored, clang::SourceLocation());
  CI->getDiagnosticOpts().ShowColors = false;
  // Diagnostics go to DiagOS only: no "N errors generated." on the application's stderr.
  CI->getDiagnosticOpts().ShowCarets = false;
  // The main file lives in memory (the caller keeps Code alive while the instance runs).
  CI->getFrontendOpts().Inputs.clear();
  CI->getFrontendOpts().Inputs.emplace_back(llvm::MemoryBufferRef(Code, FileName),
                                            clang::InputKind(Purpose == ClangPurpose::ProgramCxx
                                                                 ? clang::Language::CXX
                                                                 : clang::Language::C));
  // The driver's -disable-free (a compiler process exits after one file) would leak every
  // compile's state, its target machine among it: ~400 KB a kernel in a long-lived process.
  CI->getFrontendOpts().DisableFree = false;
  CI->getCodeGenOpts().DisableFree = false;
  CI->createFileManager(llvm::makeIntrusiveRefCnt<RegularFilesOnly>());
  if (!KernelSource.empty()) {
    std::string Prefix = systemIncludePrefix(KernelSource);
    if (!Prefix.empty()) {
      std::string PCH = PCHCache::get().pathFor(Purpose, Prefix);
      if (!PCH.empty())
        CI->getPreprocessorOpts().ImplicitPCHInclude = PCH;
    }
  }
  return CI;
}

std::string clangVersion() { return CLANG_VERSION_STRING; }

} // namespace jacc
