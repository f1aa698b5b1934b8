// private / firstprivate data of a compute construct that the kernel declares itself: sections
// of pointers (`private(c[0:n])`) as arrays of the section's length, and arrays declared outside
// the construct, each declared where each gang needs its own copy.
#ifndef JACC_TRANSLATE_PRIVATESECTIONS_H
#define JACC_TRANSLATE_PRIVATESECTIONS_H

#include "translate/KernelNeeds.h"
#include "translate/SourceFile.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace jacc::translate {

struct PrivateSection {
  const clang::VarDecl *Var = nullptr;
  std::string Length;    ///< the section's length as written
  bool First = false;    ///< firstprivate: each copy starts as the original section
  bool Constant = false; ///< a constant length: the kernel has it as a literal, not argument
};

class PrivateData {
public:
  explicit PrivateData(SourceFile &File) : File(File) {}

  /// Whether Item of a clause at P is a section of a pointer variable (`c[0:n]`).
  bool isPrivateSection(llvm::StringRef Item, const Pragma &P);
  /// The private and firstprivate sections of compute construct R: each gets an array of the
  /// section's length (`double c[jacc_private_len_c]`) declared by insertions into the kernel
  /// text, Ins, where each gang needs its own copy. False after an error.
  bool privateSections(const Region &R, std::vector<PrivateSection> &Out,
                       std::map<unsigned, std::string> &Ins);
  /// The arrays declared outside compute construct R (N: its needs) that a `private` clause of
  /// it or of a loop in it privatises: the kernel's loop nest declares its own copy. Errors for
  /// what cannot be privatised so; false after one.
  bool privateArrays(const Region &R, const KernelNeeds &N,
                     std::set<const clang::VarDecl *> &PrivateArrays);

private:
  /// Insertions into Ins that make Decl the first declaration of statement S (in a new block
  /// opening at Open when S is not one).
  void declareIn(clang::Stmt *S, unsigned Open, const std::string &Decl,
                 std::map<unsigned, std::string> &Ins);
  /// Whether `private(Var)` of directive QD (at Q) in compute construct R makes a gang loop
  /// nest that owns every use of Var in R.
  bool privatisableHere(const Pragma &Q, const analysis::Directive &QD, const Region &R,
                        const clang::VarDecl *Var);

  SourceFile &File;
};

} // namespace jacc::translate

#endif
