// Formatting and keeping a file's diagnostics (see Diagnostics.h).
#include "translate/Diagnostics.h"

#include <llvm/ADT/STLExtras.h>

namespace jacc::translate {

void Diagnostics::error(unsigned Line, unsigned Col, const llvm::Twine &Msg) {
  std::string E =
      (FileName + ":" + llvm::Twine(Line) + ":" + llvm::Twine(Col) + ": error: " + Msg).str();
  if (!llvm::is_contained(Errors, E))
    Errors.push_back(std::move(E));
}

void Diagnostics::warning(unsigned Line, unsigned Col, const llvm::Twine &Msg) {
  Warnings.push_back(
      (FileName + ":" + llvm::Twine(Line) + ":" + llvm::Twine(Col) + ": warning: " + Msg).str());
}

void Diagnostics::info(unsigned Line, const llvm::Twine &Msg) {
  Infos.push_back((FileName + ":" + llvm::Twine(Line) + ": " + Msg).str());
}

std::vector<std::string> Diagnostics::takeErrorsAfter(size_t N) {
  std::vector<std::string> Taken(Errors.begin() + std::min(N, Errors.size()), Errors.end());
  Errors.resize(std::min(N, Errors.size()));
  return Taken;
}

} // namespace jacc::translate
