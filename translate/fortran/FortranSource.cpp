// flang's prescanner, parser and semantics on one file, with OpenACC enabled, as the front end
// of the Fortran translation: what flang rejects is reported at its file and line.
#include "translate/fortran/FortranSource.h"

#include "support/Error.h"
#include "support/TextEdits.h"

#include <flang/Common/default-kinds.h>
#include <flang/Parser/parse-tree-visitor.h>
#include <flang/Parser/parsing.h>
#include <flang/Parser/provenance.h>
#include <flang/Semantics/semantics.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Regex.h>
#include <llvm/Support/raw_ostream.h>

#include <map>

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
  /// The copy flang read instead of the file (forFlang), or "": messages name the file.
  std::string Copy;
  /// The dimension of each `gang(dim:d)` of the file, by the line and column of its `gang`.
  std::map<std::pair<int, int>, int> GangDims;
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
  if (&Range->first.file == S->Main && !S->Copy.empty())
    File = Path;
  return File + ":" + std::to_string(Range->first.line) + ":" + std::to_string(Range->first.column);
}

std::optional<int> FortranSource::gangDimension(parser::CharBlock Gang) const {
  auto Range = S->Cooked.GetSourcePositionRange(Gang);
  if (!Range || &Range->first.file != S->Main)
    return std::nullopt;
  auto It = S->GangDims.find({Range->first.line, Range->first.column});
  if (It == S->GangDims.end())
    return std::nullopt;
  return It->second;
}

std::optional<LineRange> FortranSource::lines(parser::CharBlock Where) const {
  auto Range = S->Cooked.GetSourcePositionRange(Where);
  if (!Range || &Range->first.file != S->Main || &Range->second.file != S->Main)
    return std::nullopt;
  return LineRange{Range->first.line, Range->second.line};
}

/// Messages' Text with the copy of the file flang read (forFlang), if any, named as the
/// file.
static std::string renamed(const std::string &Text, llvm::StringRef Copy, llvm::StringRef Path) {
  return Copy.empty() ? Text : replaceAll(Text, Copy, Path);
}

/// flang's messages, as gfortran's "file:line:column: error: ..." lines.
static std::string messagesText(const parser::Messages &Messages,
                                const parser::AllCookedSources &Cooked) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Messages.Emit(OS, Cooked, /*echoSourceLines=*/false);
  return OS.str();
}

/// The text as flang 16 can read it, or nothing when it reads the file as it is: OpenACC 3.3's
/// `!$acc end loop` lines (closing a loop construct's DO loop) blank, and in directives
/// `gang(dim:d)` as `gang` and `num_gangs(g, ...)` as `num_gangs(g)`, each padded with blanks to
/// its length (lines and columns as before). Each gang's dimension goes into GangDims, by the
/// line and column of its `gang`.
static std::optional<std::string> forFlang(llvm::StringRef Text, bool FixedForm,
                                           std::map<std::pair<int, int>, int> &GangDims) {
  llvm::Regex EndLoop(FixedForm ? "^[c*!]\\$acc[ \t]+end[ \t]*loop[ \t]*(!.*)?\r?$"
                                : "^[ \t]*!\\$acc[ \t]+end[ \t]*loop[ \t]*(!.*)?\r?$",
                      llvm::Regex::IgnoreCase);
  llvm::Regex Directive(FixedForm ? "^[c*!]\\$acc" : "^[ \t]*!\\$acc", llvm::Regex::IgnoreCase);
  llvm::Regex GangDim("gang[ \t]*\\([ \t]*dim[ \t]*:[ \t]*([0-9]+)[ \t]*\\)",
                      llvm::Regex::IgnoreCase);
  llvm::Regex NumGangs("num_gangs[ \t]*\\(([^,()]*),[^()]*\\)", llvm::Regex::IgnoreCase);
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  std::string Out;
  bool Changed = false;
  for (size_t I = 0; I < Lines.size(); ++I) {
    std::string Line = Lines[I].str();
    if (EndLoop.match(Line)) {
      Line.clear();
    } else if (Directive.match(Line)) {
      llvm::SmallVector<llvm::StringRef, 2> M;
      for (size_t From = 0; GangDim.match(llvm::StringRef(Line).substr(From), &M);) {
        size_t At = M[0].data() - Line.data();
        int Dim = 0;
        M[1].getAsInteger(10, Dim);
        GangDims[{static_cast<int>(I) + 1, static_cast<int>(At) + 1}] = Dim;
        Line.replace(At, M[0].size(), "gang" + std::string(M[0].size() - 4, ' '));
        From = At + M[0].size();
      }
      if (NumGangs.match(Line, &M)) {
        size_t At = M[0].data() - Line.data(), Size = M[0].size();
        std::string Kept = "num_gangs(" + M[1].str() + ")";
        Line.replace(At, Size, Kept + std::string(Size - Kept.size(), ' '));
      }
    }
    Changed |= Line != Lines[I];
    Out += Line;
    if (I + 1 < Lines.size())
      Out += "\n";
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

/// The names in device_type clauses: OpenACC 3.3 names device types (`device_type(nvidia)`), and
/// flang 16 still reads them as integer expressions, whose names its semantics reports as
/// undeclared or not integers. The translation reads them as written.
struct DeviceTypeNames {
  std::vector<parser::CharBlock> Names;
  std::optional<parser::CharBlock> InModule; ///< the first name in a module's procedures
  /// Directives with device_type groups: flang 16 checks their clauses as one list (`gang`
  /// in nvidia's group and `seq` in the host's conflict for it; a `vector_length` in each
  /// group is one too many), where OpenACC checks each group; the analysis of the kernel's
  /// pragma does.
  std::vector<parser::CharBlock> Grouped;
  int Modules = 0;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  void grouped(parser::CharBlock Source, const parser::AccClauseList &Clauses) {
    if (llvm::any_of(Clauses.v, [](const parser::AccClause &C) {
          return std::holds_alternative<parser::AccClause::DeviceType>(C.u);
        }))
      Grouped.push_back(Source);
  }
  bool Pre(const parser::AccBeginLoopDirective &D) {
    grouped(D.source, std::get<parser::AccClauseList>(D.t));
    return true;
  }
  bool Pre(const parser::AccBeginCombinedDirective &D) {
    grouped(D.source, std::get<parser::AccClauseList>(D.t));
    return true;
  }
  bool Pre(const parser::AccBeginBlockDirective &D) {
    grouped(D.source, std::get<parser::AccClauseList>(D.t));
    return true;
  }
  bool Pre(const parser::Module &) { return ++Modules; }
  void Post(const parser::Module &) { --Modules; }
  bool Pre(const parser::AccClause::DeviceType &C) {
    for (const parser::AccDeviceTypeExpr &E : C.v.v)
      if (const auto &Name = std::get<std::optional<parser::ScalarIntExpr>>(E.t)) {
        Names.push_back(Name->thing.thing.value().source);
        if (Modules && !InModule)
          InModule = Names.back();
      }
    return false;
  }
};

/// Drops flang's messages about the names in device_type clauses and the conflicts of clauses
/// in different device_type groups (DeviceTypeNames). Returns the
/// first such name in a module that flang said something of: flang writes no module file after
/// an error, so that one cannot be forgiven.
static std::optional<parser::CharBlock>
forgiveDeviceTypeNames(const parser::Program &Program, const parser::AllCookedSources &Cooked,
                       parser::Messages &Messages) {
  DeviceTypeNames V;
  parser::Walk(Program, V);
  auto In = [&](const parser::Message &M, parser::CharBlock Name) {
    std::optional<parser::ProvenanceRange> At = M.GetProvenanceRange(Cooked);
    std::optional<parser::ProvenanceRange> R = Cooked.GetProvenanceRange(Name);
    return At && R && R->Contains(At->start());
  };
  bool InModule = false;
  Messages.messages().remove_if([&](const parser::Message &M) {
    InModule |= V.InModule && In(M, *V.InModule);
    if (llvm::any_of(V.Names, [&](parser::CharBlock Name) { return In(M, Name); }))
      return true;
    std::string Text = M.ToString();
    bool Conflict = llvm::StringRef(Text).contains("is not allowed if clause") ||
                    llvm::StringRef(Text).startswith("At most one ");
    return Conflict &&
           llvm::any_of(V.Grouped, [&](parser::CharBlock Directive) { return In(M, Directive); });
  });
  return InModule ? V.InModule : std::nullopt;
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
  // A file with what flang 16 does not read (forFlang) is read from a copy without it, beside the
  // module files; what it includes is still found from the file's own directory first.
  std::string Read = Source->Path;
  if (std::optional<std::string> Copy = forFlang(Source->Text, Options.FixedForm, S.GangDims)) {
    int FD;
    llvm::SmallString<256> CopyPath;
    if (std::error_code EC = llvm::sys::fs::createUniqueFile(
            Modules + "/%%%%%%-" + llvm::sys::path::filename(Path), FD, CopyPath))
      return makeError(ErrorCode::InvalidArgument, "cannot write a copy of '" + Path + "' in '" +
                                                       Modules + "': " + EC.message());
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << *Copy;
    }
    Read = S.Copy = CopyPath.str().str();
    llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
    Parse.searchDirectories.insert(Parse.searchDirectories.begin(), Dir.empty() ? "." : Dir.str());
  }
  S.Main = S.Parsing.Prescan(Read, Parse);
  if (!S.Copy.empty()) {
    llvm::sys::fs::remove(S.Copy); // flang keeps the text it read
    Parse.searchDirectories.erase(Parse.searchDirectories.begin());
  }
  if (!S.Parsing.messages().AnyFatalError())
    S.Parsing.Parse(llvm::nulls());
  if (S.Parsing.messages().AnyFatalError() || !S.Parsing.parseTree() ||
      !S.Parsing.consumedWholeFile())
    return makeError(ErrorCode::Compile,
                     renamed(messagesText(S.Parsing.messages(), S.Cooked), S.Copy, Path) +
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
  if (std::optional<parser::CharBlock> Name =
          forgiveDeviceTypeNames(*S.Parsing.parseTree(), S.Cooked, S.Context->messages()))
    return makeError(ErrorCode::Compile,
                     Source->where(*Name) + ": error: device type '" + Name->ToString() +
                         "' in a module: flang 16 reads it as an expression, and writes no "
                         "module file after what it says of it; call the OpenACC routine "
                         "(acc_init, acc_shutdown, acc_set_device_type) instead");
  if (S.Context->messages().AnyFatalError()) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    S.Semantics->EmitMessages(OS);
    return makeError(ErrorCode::Compile, renamed(OS.str(), S.Copy, Path));
  }
  return Source;
}

} // namespace jacc::translate::fortran
