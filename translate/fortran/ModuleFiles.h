// The files jaccc keeps beside flang's module files (`.jacc-modules/<module>.<kind>`): what a
// module's translation learnt that flang 16's module files cannot say (its declared variables,
// its routines' kernel text), read where another file uses the module.
#ifndef JACC_TRANSLATE_FORTRAN_MODULEFILES_H
#define JACC_TRANSLATE_FORTRAN_MODULEFILES_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <memory>
#include <string>
#include <vector>

namespace jacc::translate::fortran {

/// Module's file of Kind from the first of Dirs that has one; null if none does.
std::unique_ptr<llvm::MemoryBuffer> readModuleFile(const std::vector<std::string> &Dirs,
                                                   llvm::StringRef Module, llvm::StringRef Kind);
/// Writes Text as Module's file of Kind in Dir.
llvm::Error writeModuleFile(llvm::StringRef Dir, llvm::StringRef Module, llvm::StringRef Kind,
                            llvm::StringRef Text);

} // namespace jacc::translate::fortran

#endif
