// Translation of an OpenACC Fortran file for jaccc: the host program, each directive replaced by
// a call of a C function (the glue) that makes the directive's jacc calls, and the glue itself,
// whose compute constructs push kernels printed from the Fortran statements.
#ifndef JACC_TRANSLATE_FORTRAN_FORTRANTRANSLATE_H
#define JACC_TRANSLATE_FORTRAN_FORTRANTRANSLATE_H

#include "translate/fortran/FortranSource.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace jacc::translate::fortran {

struct FortranTranslation {
  /// The Fortran program with each directive's lines replaced by one call line and blank lines:
  /// every other statement keeps its line.
  std::string Host;
  /// The C glue: one function per directive, named after the file and the directive's line.
  std::string Glue;
};

/// Translate the OpenACC Fortran file at Path; an error lists one "file:line:column: error: ..."
/// line per directive or statement that cannot be translated. Infos, when given, gets what
/// jaccc -Minfo says of each compute construct (how it runs, whether it splits, why not).
llvm::Expected<FortranTranslation> translateFortran(llvm::StringRef Path,
                                                    const FortranOptions &Options,
                                                    std::vector<std::string> *Infos = nullptr);

} // namespace jacc::translate::fortran

#endif
