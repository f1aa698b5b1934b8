// flang's prescanner, parser and semantics on one file, with OpenACC enabled, as the front end
// of the Fortran translation: what flang rejects is reported at its file and line.
#include "translate/fortran/FortranSource.h"

#include "support/Error.h"

#include <flang/Common/default-kinds.h>
#include <flang/Parser/parsing.h>
#include <flang/Parser/provenance.h>
#include <flang/Semantics/semantics.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

namespace jacc::translate::fortran {

using namespace Fortran;

struct FortranSource::State {
  parser::AllSources Sources;
  parser::AllCookedSources Cooked{Sources};
  parser::Parsing Parsing{Cooked};
  common::IntrinsicTypeDefaultKinds Kinds;
  std::unique_ptr<semantics::SemanticsContext> Context;
  std::unique_ptr<semantics::Semantics> Semantics;
  const parser::SourceFile *Main = nullptr; ///< the file translated (not its INCLUDEs)
};

FortranSource::~FortranSource() = default;

const parser::Program &FortranSource::program() const {
  return *S->Parsing.parseTree();
}

std::string FortranSource::where(parser::CharBlock Where) const {
  auto Range = S->Cooked.GetSourcePositionRange(Where);
  if (!Range)
    return Path;
  // flang names a file by the search directory it was found in: "./x.f90" for "x.f90".
  std::string File = Range->first.file.path();
  if (llvm::StringRef(File).startswith("./"))
    File.erase(0, 2);
  return File + ":" + std::to_string(Range->first.line) + ":" + std::to_string(Range->first.column);
}

std::optional<LineRange> FortranSource::lines(parser::CharBlock Where) const {
  auto Range = S->Cooked.GetSourcePositionRange(Where);
  if (!Range || &Range->first.file != S->Main || &Range->second.file != S->Main)
    return std::nullopt;
  return LineRange{Range->first.line, Range->second.line};
}

/// flang's messages, as gfortran's "file:line:column: error: ..." lines.
static std::string messagesText(const parser::Messages &Messages,
                                const parser::AllCookedSources &Cooked) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Messages.Emit(OS, Cooked, /*echoSourceLines=*/false);
  return OS.str();
}

llvm::Expected<std::unique_ptr<FortranSource>> parseFortran(llvm::StringRef Path,
                                                            const FortranOptions &Options) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return makeError(ErrorCode::InvalidArgument,
                     "cannot read '" + Path + "': " + Buffer.getError().message());
  std::unique_ptr<FortranSource> Source(new FortranSource);
  Source->Path = Path.str();
  Source->Text = (*Buffer)->getBuffer().str();
  Source->S = std::make_unique<FortranSource::State>();
  FortranSource::State &S = *Source->S;

  // flang's module files: beside gfortran's, in a directory of their own.
  std::string Modules = Options.ModuleDir + "/.jacc-modules";
  if (std::error_code EC = llvm::sys::fs::create_directories(Modules))
    return makeError(ErrorCode::InvalidArgument,
                     "cannot create '" + Modules + "' for flang's module files: " + EC.message());
  parser::Options Parse;
  Parse.isFixedForm = Options.FixedForm;
  Parse.features.Enable(common::LanguageFeature::OpenACC);
  // flang's module files first: an include directory may hold gfortran's of the same name.
  Parse.searchDirectories = {Modules};
  for (const std::string &Dir : Options.IncludeDirs)
    Parse.searchDirectories.push_back(Dir + "/.jacc-modules");
  for (const std::string &Dir : Options.IncludeDirs)
    Parse.searchDirectories.push_back(Dir);
  Parse.intrinsicModuleDirectories.push_back(JACC_FLANG_MODULE_DIR);
  Parse.predefinitions = Options.Defines;
  Parse.predefinitions.emplace_back("_OPENACC", "202211");
  S.Main = S.Parsing.Prescan(Source->Path, Parse);
  if (!S.Parsing.messages().AnyFatalError())
    S.Parsing.Parse(llvm::nulls());
  if (S.Parsing.messages().AnyFatalError() || !S.Parsing.parseTree() ||
      !S.Parsing.consumedWholeFile())
    return makeError(ErrorCode::Compile, messagesText(S.Parsing.messages(), S.Cooked) +
                                             Source->Path + ": the Fortran source does not parse");

  // flang opens a module file in the current directory before its search path, where gfortran
  // writes its own module files (another format, same name): semantics runs in flang's module
  // directory, the search path made absolute.
  for (std::string &Dir : Parse.searchDirectories) {
    llvm::SmallString<256> Absolute(Dir);
    llvm::sys::fs::make_absolute(Absolute);
    Dir = Absolute.str().str();
  }
  std::string ModulesDir = Parse.searchDirectories.front();
  S.Context = std::make_unique<semantics::SemanticsContext>(S.Kinds, Parse.features, S.Cooked);
  S.Context->set_searchDirectories(Parse.searchDirectories)
      .set_intrinsicModuleDirectories(Parse.intrinsicModuleDirectories)
      .set_moduleDirectory(ModulesDir)
      .set_warnOnNonstandardUsage(false);
  S.Semantics = std::make_unique<semantics::Semantics>(*S.Context, *S.Parsing.parseTree());
  {
    llvm::SmallString<256> Cwd;
    if (std::error_code EC = llvm::sys::fs::current_path(Cwd))
      return makeError(ErrorCode::InvalidArgument,
                       "cannot read the current directory: " + EC.message());
    if (std::error_code EC = llvm::sys::fs::set_current_path(ModulesDir))
      return makeError(ErrorCode::InvalidArgument,
                       "cannot enter '" + ModulesDir + "': " + EC.message());
    S.Semantics->Perform();
    if (std::error_code EC = llvm::sys::fs::set_current_path(Cwd))
      return makeError(ErrorCode::InvalidArgument,
                       "cannot return to '" + Cwd.str() + "': " + EC.message());
  }
  // flang 16 allows one reduction clause per directive, where OpenACC allows any number.
  S.Context->messages().messages().remove_if([](const parser::Message &M) {
    return llvm::StringRef(M.ToString()).startswith("At most one REDUCTION clause");
  });
  if (S.Context->messages().AnyFatalError()) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    S.Semantics->EmitMessages(OS);
    return makeError(ErrorCode::Compile, OS.str());
  }
  return Source;
}

} // namespace jacc::translate::fortran
