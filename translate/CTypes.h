// How kernel text spells the program's C++ types in C: the printing policy of kernels (`_Bool`,
// no `std::`), each instance of a class template by the name of the C struct kernels define for
// it (`data_container<double>`: `data_container__double`), and declarations in C and as the
// host code writes them.
#ifndef JACC_TRANSLATE_CTYPES_H
#define JACC_TRANSLATE_CTYPES_H

#include <clang/AST/ASTContext.h>
#include <llvm/ADT/StringRef.h>

#include <map>
#include <string>

namespace jacc::translate {

class CTypes {
public:
  explicit CTypes(clang::ASTContext &Ctx);

  /// How kernels print types and expressions.
  const clang::PrintingPolicy &policy() const { return Policy; }
  /// The C name of class RD: its own, or for an instance of a class template its name and its
  /// arguments' (`data_container<double>`: `data_container__double`).
  std::string cRecordName(const clang::RecordDecl *RD) const;
  /// T with every class template instance in it named by its C name (a typedef of that name).
  clang::QualType cType(clang::QualType T) const;
  /// Declaration of Name with type T in the host's code (C++ names kept).
  std::string hostDeclaration(clang::QualType T, llvm::StringRef Name) const;
  /// C declaration of Name with type T ("double (*a)[80]"), class template instances by their
  /// C names.
  std::string declaration(clang::QualType T, llvm::StringRef Name) const {
    return hostDeclaration(cType(T), Name);
  }

private:
  clang::ASTContext &Ctx;
  clang::PrintingPolicy Policy;
  mutable std::map<const clang::RecordDecl *, clang::QualType> RecordTypes;
};

} // namespace jacc::translate

#endif
