// A Fortran source file parsed by flang and resolved by its semantics: the parse tree, the
// symbols and typed expressions the later steps only read, and positions as file:line:column.
#ifndef JACC_TRANSLATE_FORTRAN_FORTRANSOURCE_H
#define JACC_TRANSLATE_FORTRAN_FORTRANSOURCE_H

#include <flang/Parser/char-block.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace Fortran::parser {
struct Program;
}

namespace jacc::translate::fortran {

/// How to read a Fortran source: as gfortran would be told on its command line.
struct FortranOptions {
  std::vector<std::string> IncludeDirs; ///< -I: INCLUDE lines, #include and USE'd modules
  std::vector<std::pair<std::string, std::optional<std::string>>> Defines; ///< -D, without -U'd
  bool FixedForm = false;
  /// Where gfortran's module files go (-J): flang's, another format, go to its subdirectory
  /// ".jacc-modules", where USE finds them, as in each include directory's.
  std::string ModuleDir = ".";
};

/// A line range of the source file, 1-based, inclusive.
struct LineRange {
  int First = 0, Last = 0;
};

/// A parsed and resolved Fortran file (flang's sources, parse tree and semantics live as long
/// as it does).
class FortranSource {
public:
  ~FortranSource();
  const Fortran::parser::Program &program() const;
  llvm::StringRef path() const { return Path; }
  llvm::StringRef text() const { return Text; }
  /// "file:line:column" of Where's first character, as gfortran says it.
  std::string where(Fortran::parser::CharBlock Where) const;
  /// The lines of the main file Where spans; nothing when some of it comes from another file
  /// (an INCLUDE line, a macro).
  std::optional<LineRange> lines(Fortran::parser::CharBlock Where) const;
  /// The dimension d of a `gang(dim:d)` clause whose `gang` is at Gang (flang 16 reads the
  /// clause as `gang`); nothing for another gang clause.
  std::optional<int> gangDimension(Fortran::parser::CharBlock Gang) const;

  struct State;

private:
  friend llvm::Expected<std::unique_ptr<FortranSource>> parseFortran(llvm::StringRef,
                                                                     const FortranOptions &);
  FortranSource() = default;
  std::unique_ptr<State> S;
  std::string Path, Text;
};

/// Parse the file at Path and resolve its names (flang's semantics); an error lists flang's
/// messages, one "file:line:column: error: ..." line each.
llvm::Expected<std::unique_ptr<FortranSource>> parseFortran(llvm::StringRef Path,
                                                            const FortranOptions &Options);

} // namespace jacc::translate::fortran

#endif
