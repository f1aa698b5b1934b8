// Scalars that live on the devices: OpenACC's copy of a scalar (a data clause on the construct or
// on a data construct around it, or implicitly in a kernels construct) as a one-element array the
// kernel reaches through a pointer, so that what the kernel assigns comes back to the host.
#ifndef JACC_TRANSLATE_DEVICESCALARS_H
#define JACC_TRANSLATE_DEVICESCALARS_H

#include "translate/KernelNeeds.h"
#include "translate/SourceFile.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace jacc::translate {

/// How a scalar (or struct) of a compute construct lives on the devices.
enum class DeviceScalar {
  Mapped,       ///< named in copy/copyout/create, or in a data construct around: by pointer
  ImplicitCopy, ///< assigned in a kernels construct: by pointer, copied in and out around it
  ReducedInto   ///< a reduction's variable a data construct around maps: the device copy is
                ///< brought to the host before the push and given the result after it
};

class DeviceScalars {
public:
  explicit DeviceScalars(SourceFile &File) : File(File) {}

  /// The scalars of R that live on the devices rather than being only passed by value.
  std::map<const clang::VarDecl *, DeviceScalar> of(const Region &R, const KernelNeeds &N);
  /// The kernel's pointer to the device copy of scalar V.
  static std::string pointerName(const clang::VarDecl *V);
  /// The loops of kernels construct R that assign one of the device scalars Vars and must run
  /// sequentially: insertions of " seq" into their pragmas, by offset; ConstructSeq when the
  /// construct's own loop (kernels loop) is one.
  std::map<unsigned, std::string> sequentialLoops(const Region &R,
                                                  const std::set<const clang::VarDecl *> &Vars,
                                                  bool &ConstructSeq);
  /// R's text from Begin with every reference to Vars through its device pointer
  /// (`jacc_ref_x[0]`) and the insertions Ins; nullopt after an error.
  std::optional<std::string>
  referencedThroughPointers(const Region &R, const std::set<const clang::VarDecl *> &Vars,
                            unsigned Begin, std::map<unsigned, std::string> Ins,
                            std::map<unsigned, std::pair<unsigned, std::string>> Edits = {});

private:
  SourceFile &File;
};

} // namespace jacc::translate

#endif
