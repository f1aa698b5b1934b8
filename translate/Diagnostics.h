// What translating one file reports, as a compiler does: its errors (every one of a phase, each
// once: a template's instantiations find the same), warnings for what it accepts though
// OpenACC does not, and the -Minfo lines, each at the file's line and column. translateOpenACC
// turns the errors into its one llvm::Error, and hands the others to its caller.
#ifndef JACC_TRANSLATE_DIAGNOSTICS_H
#define JACC_TRANSLATE_DIAGNOSTICS_H

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>

#include <string>
#include <vector>

namespace jacc::translate {

class Diagnostics {
public:
  explicit Diagnostics(llvm::StringRef FileName) : FileName(FileName.str()) {}

  /// "file:line:col: error: Msg", unless reported already.
  void error(unsigned Line, unsigned Col, const llvm::Twine &Msg);
  /// "file:line:col: warning: Msg".
  void warning(unsigned Line, unsigned Col, const llvm::Twine &Msg);
  /// A -Minfo line, "file:line: Msg".
  void info(unsigned Line, const llvm::Twine &Msg);
  /// A -Minfo line formatted by its maker (analysis::describeConstruct).
  void infoLine(std::string Line) { Infos.push_back(std::move(Line)); }

  /// The errors so far: a step compares the count before and after to know whether it failed.
  size_t errorCount() const { return Errors.size(); }
  bool failed() const { return !Errors.empty(); }
  /// The errors after the first N, taken back (a caller reports them another way).
  std::vector<std::string> takeErrorsAfter(size_t N);

  /// Everything reported, for translateOpenACC's caller.
  std::vector<std::string> takeErrors() { return std::move(Errors); }
  std::vector<std::string> takeWarnings() { return std::move(Warnings); }
  std::vector<std::string> takeInfos() { return std::move(Infos); }

private:
  std::string FileName;
  std::vector<std::string> Errors, Warnings, Infos;
};

} // namespace jacc::translate

#endif
