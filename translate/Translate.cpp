// The translator's entry: clang with cc's preprocessor options, and the translated prelude.
#include "translate/Translate.h"

#include "analysis/AccPragma.h"
#include "support/ClangInvocation.h"
#include "support/Error.h"
#include "support/LargeStack.h"
#include "translate/Translator.h"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/Path.h>

#include <optional>

using namespace clang;

namespace jacc::translate {

using namespace analysis;

/// The helpers the translated code calls, at the top of every translated file.
static constexpr const char *TranslatedPrelude = R"(#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* Added by jacc-translate: a failing jacc call ends the program with jacc's message, as a failing
   OpenACC directive would. */
static inline void jacc_translated_check(jacc_status status, const char *where) {
  if (status != JACC_SUCCESS) {
    fprintf(stderr, "%s: %s\n", where, jacc_last_error());
    exit(1);
  }
}
/* An async or wait queue value: a queue number >= 0, acc_async_noval (-1), acc_async_sync (-2)
   or acc_async_default (-3). */
static inline void jacc_translated_queue(long long queue, const char *where,
                                         const char *directive) {
  if (queue >= -3)
    return;
  fprintf(stderr, "%s: async argument %lld in '%s' is not valid: use a queue number >= 0, "
          "acc_async_noval or acc_async_sync\n", where, queue, directive);
  exit(1);
}
/* A data directive's call for one variable: its error names the variable and the directive as
   written, and says how to map it when it is not. */
static inline void jacc_translated_data(jacc_status status, const char *where,
                                        const char *directive, const char *what) {
  if (status == JACC_SUCCESS)
    return;
  if (status == JACC_ERROR_NOT_PRESENT || status == JACC_ERROR_PARTIALLY_PRESENT)
    fprintf(stderr, "%s: '%s' in '%s' is %s on the devices: map it first (a data construct, "
            "'enter data' or 'declare') [%s]\n", where, what, directive,
            status == JACC_ERROR_NOT_PRESENT ? "not present" : "only partly present",
            jacc_last_error());
  else
    fprintf(stderr, "%s: '%s' in '%s': %s\n", where, what, directive, jacc_last_error());
  exit(1);
}
/* no_create: 1 when [p, p+bytes) was absent and is now mapped for the construct (copied in;
   the construct's end copies it back). */
static inline int jacc_translated_no_create(void *p, size_t bytes, const char *where) {
  if (!p || !bytes || jacc_is_present(p, bytes))
    return 0;
  jacc_translated_check(jacc_copyin(p, bytes), where);
  return 1;
}
/* firstprivate(p[0:n]): what the private copies start from: the devices' copy when present,
   else a copy of the host's bytes mapped for the construct (the host's array stays unmapped). */
static inline void *jacc_translated_firstprivate(void *p, size_t bytes, const char *where) {
  if (!bytes || jacc_is_present(p, bytes))
    return p;
  unsigned char *copy = (unsigned char *)malloc(bytes);
  if (!copy) {
    fprintf(stderr, "%s: out of memory for a firstprivate section\n", where);
    exit(1);
  }
  for (size_t i = 0; i < bytes; i++)
    copy[i] = ((const unsigned char *)p)[i];
  jacc_translated_check(jacc_copyin(copy, bytes), where);
  return copy;
}
static inline void jacc_translated_firstprivate_end(void *copy, void *p, size_t bytes,
                                                    const char *where) {
  if (copy == p)
    return;
  jacc_translated_check(jacc_delete(copy, bytes), where);
  free(copy);
}
/* An implicit copy or copyin (NVHPC's, of a pointer no clause names) of the section its
   subscripts reach, [p, p + len * size): mapped for the construct unless p is present (a mapping
   around the construct wins); the bytes mapped, or 0. */
static inline size_t jacc_translated_implicit(void *p, long len, size_t size, const char *where) {
  if (!p || len <= 0 || jacc_is_present(p, 1))
    return 0;
  jacc_translated_check(jacc_copyin(p, (size_t)len * size), where);
  return (size_t)len * size;
}
static inline void jacc_translated_present(const void *p, size_t bytes, const char *where,
                                           const char *what) {
  if (!jacc_is_present(p, bytes)) {
    fprintf(stderr, "%s: '%s' in clause 'present' is not present on the devices\n", where, what);
    exit(1);
  }
}
/* host_data use_device: the current device's copy of p (p itself when absent), from then on
   its only current copy (the construct may write it, as an MPI_Recv into it does). */
static inline void *jacc_translated_use_device(void *p, const char *where) {
  void *device = NULL;
  jacc_translated_check(jacc_use_device(p, &device), where);
  return device;
}
/* End of the helpers added by jacc-translate. */
)";

/// Apply the cc preprocessor options jaccc passes on.
static llvm::Error applyExtraArgs(CompilerInstance &CI, llvm::ArrayRef<std::string> Args) {
  auto &HS = CI.getHeaderSearchOpts();
  auto &PPO = CI.getPreprocessorOpts();
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    auto Value = [&](llvm::StringRef Flag) -> std::optional<std::string> {
      if (!A.startswith(Flag))
        return std::nullopt;
      if (A.size() > Flag.size())
        return A.drop_front(Flag.size()).str();
      if (I + 1 < Args.size())
        return Args[++I];
      return std::nullopt;
    };
    if (A.startswith("-std="))
      continue; // given to the invocation (translateOpenACC)
    if (auto V = Value("-idirafter"))
      HS.AddPath(*V, frontend::After, false, true);
    else if (auto V = Value("-isystem"))
      HS.AddPath(*V, frontend::System, false, true);
    else if (auto V = Value("-iquote"))
      HS.AddPath(*V, frontend::Quoted, false, true);
    else if (auto V = Value("-include"))
      PPO.Includes.push_back(*V);
    else if (auto V = Value("-I"))
      HS.AddPath(*V, frontend::Angled, false, true);
    else if (auto V = Value("-D"))
      PPO.addMacroDef(*V);
    else if (auto V = Value("-U"))
      PPO.addMacroUndef(*V);
    else
      return makeError(ErrorCode::InvalidArgument,
                       "jacc-translate: unsupported compiler option '" + A +
                           "' (accepted: -I, -iquote, -isystem, -idirafter, -include, -D, -U, -std=)");
  }
  return llvm::Error::success();
}

std::string translatedPrelude() {
  return TranslatedPrelude;
}

bool isFortranFile(llvm::StringRef FileName) {
  std::string Suffix = llvm::sys::path::extension(FileName).lower();
  return Suffix == ".f90" || Suffix == ".f95" || Suffix == ".f03" || Suffix == ".f08" ||
         isFixedForm(FileName);
}

bool isFixedForm(llvm::StringRef FileName) {
  std::string Suffix = llvm::sys::path::extension(FileName).lower();
  return Suffix == ".f" || Suffix == ".for" || Suffix == ".ftn";
}

bool isCxxFile(llvm::StringRef FileName) {
  llvm::StringRef Ext = llvm::sys::path::extension(FileName);
  return Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".C" || Ext == ".c++";
}

static llvm::Expected<std::string> translateFile(llvm::StringRef Source, llvm::StringRef FileName,
                                                 llvm::ArrayRef<std::string> ExtraArgs,
                                                 std::vector<std::string> *Warnings,
                                                 std::vector<std::string> *Infos) {
  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  std::string Name = FileName.str(); // NUL-terminated for the compiler's argv
  // The program's dialect is the one cc compiles it in: the last -std= given, else gcc's default.
  std::vector<std::string> Std;
  for (const std::string &A : ExtraArgs)
    if (llvm::StringRef(A).startswith("-std="))
      Std = {A};
  auto CI = makeCompilerInstance(isCxxFile(FileName) ? ClangPurpose::ProgramCxx
                                                     : ClangPurpose::Program,
                                 Source, Name, DiagOS, "", Std);
  if (!CI)
    return CI.takeError();
  // `#include "x.h"` is looked up next to the file, as cc does (the file itself is in memory).
  llvm::StringRef Dir = llvm::sys::path::parent_path(FileName);
  (*CI)->getHeaderSearchOpts().AddPath(Dir.empty() ? "." : Dir, frontend::Quoted, false, true);
  if (auto E = applyExtraArgs(**CI, ExtraArgs))
    return E;
  std::string Out;
  std::vector<std::string> Errors;
  AccParseAction Action(
      [&](ASTContext &Ctx, Preprocessor &PP, const std::vector<AccPragma> &Pragmas) {
        translate::Translator T(Ctx, PP, Pragmas, Name);
        T.Describe = Infos != nullptr;
        Out = T.run();
        Errors = T.Diags.takeErrors();
        if (Warnings)
          *Warnings = T.Diags.takeWarnings();
        if (Infos)
          *Infos = T.Diags.takeInfos();
      });
  // clang's parser crashes on some invalid code (a variable redeclared with an assignment as its
  // array bound): where the program enabled crash recovery (jacc-translate does), that is the
  // errors found so far and one more, not a crash. The compiler's state is lost with it.
  bool Ran = false;
  llvm::CrashRecoveryContext Recovery;
  if (!Recovery.RunSafely([&] { Ran = (*CI)->ExecuteAction(Action); })) {
    (void)CI->release();
    std::string Before = llvm::StringRef(DiagOS.str()).rtrim().str();
    return makeError(ErrorCode::Compile,
                     (Before.empty() ? "" : Before + "\n") + Name +
                         ": error: the translation crashed on this file (signal " +
                         std::to_string(Recovery.RetCode - 128) + "; " +
                         (Before.empty() ? "if gcc compiles it, please report it)"
                                         : "after the errors above: mend those first)"));
  }
  if (!Ran || (*CI)->getDiagnostics().hasErrorOccurred())
    return makeError(ErrorCode::Compile, llvm::StringRef(DiagOS.str()).rtrim());
  if (!Errors.empty())
    return makeError(ErrorCode::Unsupported, llvm::join(Errors, "\n"));
  // C++: jacc.hpp spells a template's parameters for its kernels (translate/ComputeConstruct.cpp).
  return TranslatedPrelude + std::string(isCxxFile(FileName) ? "#include <jacc/jacc.hpp>\n" : "") +
         Out;
}

llvm::Expected<std::string> translateOpenACC(llvm::StringRef Source, llvm::StringRef FileName,
                                             llvm::ArrayRef<std::string> ExtraArgs,
                                             std::vector<std::string> *Warnings,
                                             std::vector<std::string> *Infos) {
  // Machine-generated expressions nest as deep as they are long: clang and the translator
  // recurse once per level.
  std::optional<llvm::Expected<std::string>> Result;
  runWithLargeStack(
      [&] { Result.emplace(translateFile(Source, FileName, ExtraArgs, Warnings, Infos)); });
  return std::move(*Result);
}

} // namespace jacc::translate
