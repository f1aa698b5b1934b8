#include "ClangInvocation.h"

#include "Error.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>

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
  for (const char *A : Cmd.getArguments())
    if (llvm::StringRef(A) != PlaceholderFile)
      Args.push_back(A);
  return Args;
}

struct ArgCache {
  std::once_flag Once;
  std::vector<std::string> Args;
  std::string Error;
};

ArgCache &cacheFor(ClangPurpose P) {
  static ArgCache Caches[2];
  return Caches[P == ClangPurpose::Analysis ? 0 : 1];
}

} // namespace

llvm::Expected<const std::vector<std::string> &> cc1Arguments(ClangPurpose Purpose) {
  ArgCache &C = cacheFor(Purpose);
  std::call_once(C.Once, [&] {
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
    auto ArgsOr = driverArgs(Flags);
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

llvm::Expected<std::unique_ptr<clang::CompilerInstance>>
makeCompilerInstance(ClangPurpose Purpose, llvm::StringRef Code, llvm::StringRef FileName,
                     llvm::raw_ostream &DiagOS) {
  auto ArgsOr = cc1Arguments(Purpose);
  if (!ArgsOr)
    return ArgsOr.takeError();
  std::vector<const char *> Argv;
  for (const std::string &A : *ArgsOr)
    if (A != "-cc1")
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
  CI->getDiagnosticOpts().ShowColors = false;
  // The main file lives in memory (the caller keeps Code alive while the instance runs).
  CI->getFrontendOpts().Inputs.clear();
  CI->getFrontendOpts().Inputs.emplace_back(llvm::MemoryBufferRef(Code, FileName),
                                            clang::InputKind(clang::Language::C));
  CI->getFrontendOpts().DisableFree = false;
  return CI;
}

std::string clangVersion() { return CLANG_VERSION_STRING; }

} // namespace jacc
