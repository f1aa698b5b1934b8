// Implicit copies of unmapped pointers, as NVHPC makes them: the section each pointer's
// subscripts reach, inferred from the construct's for loops.
#ifndef JACC_TRANSLATE_IMPLICITSECTIONS_H
#define JACC_TRANSLATE_IMPLICITSECTIONS_H

#include "translate/DataClauses.h"
#include "translate/KernelNeeds.h"
#include "translate/SourceFile.h"

#include <set>
#include <string>
#include <vector>

namespace jacc::translate {

struct ImplicitSection {
  const clang::VarDecl *Var = nullptr;
  std::string Lower, Length; ///< C expressions, evaluated when the construct starts
  bool Written = false;      ///< copy (else copyin)
};

/// The pointers compute construct R of File uses that no clause (Explicit: the construct's own
/// names) and no data or host_data construct around it names, each with the section its
/// subscripts reach in the construct's for loops (as NVHPC infers it); a warning for each
/// pointer whose section cannot be inferred. Written ones first.
std::vector<ImplicitSection> implicitSections(SourceFile &File, DataClauses &Data, const Region &R,
                                              const KernelNeeds &N,
                                              const std::set<std::string> &Explicit);

} // namespace jacc::translate

#endif
