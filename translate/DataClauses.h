// Data clauses as the jacc calls around a construct, their array sections read as bytes.
#ifndef JACC_TRANSLATE_DATACLAUSES_H
#define JACC_TRANSLATE_DATACLAUSES_H

#include "translate/SourceFile.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <optional>
#include <string>
#include <vector>

namespace jacc::translate {

/// An array section (or a scalar, a whole array) a clause names, as C expressions.
struct Section {
  std::string Addr, Bytes;
  bool Scalar = false; ///< a scalar named without a section: passed by value
  bool Const = false;  ///< const elements: never copied back
  /// `(void **)&(s.p)` for a section of a struct's pointer member `s.p[lo:len]`: OpenACC
  /// attaches the pointer to the mapped data (and detaches it before the data goes).
  std::string Pointer;
  /// A section `a[lo:n][0:m]` of a pointer to pointers (`double **a`): Addr and Bytes are the
  /// pointer array's part, and each of its pointers is a row of RowBytes bytes, mapped with
  /// it and attached into the devices' copies of the array (OpenACC 3.3 2.7.1).
  std::string RowBytes;
};

class DataClauses {
public:
  explicit DataClauses(SourceFile &File) : File(File) {}

  /// Item of clause C at P as a section; nullopt after an error.
  std::optional<Section> section(const std::string &Item, const Pragma &P,
                                 const analysis::Clause &C);
  /// The whole of V as a section when its size is known: a C array (`sizeof a`), or a parameter
  /// declared as an array (`double A[N][M]`: its declared first bound, as NVHPC takes it);
  /// nullopt for anything else.
  std::optional<Section> wholeArray(const clang::VarDecl *V);
  /// The entry and exit calls of R's data clauses; Decls gets the declarations they need, which
  /// go before the entry calls (outside an `if` clause's guard). False after an error.
  bool regionCalls(const Region &R, std::vector<std::string> &Decls,
                   std::vector<std::string> &Entry, std::vector<std::string> &Exit);
  /// The calls of an enter data, exit data or update clause C (its jacc function Fn) for S, a
  /// section of a pointer to pointers.
  std::vector<std::string> standaloneRowCalls(const Section &S, const Pragma &P,
                                              const analysis::Clause &C, const std::string &Fn,
                                              bool Enter, bool Exit, bool Finalize) const;
  /// attach / detach clause C as jacc_attach / jacc_detach calls; false after an error.
  bool pointerCalls(const Pragma &P, const analysis::Clause &C, bool Finalize,
                    std::vector<std::string> &Calls);
  /// Call for Item of P's data clause: its error names the variable and the directive as the
  /// program wrote them.
  std::string checkData(const std::string &Call, const Pragma &P, llvm::StringRef Item) const;
  /// A compute construct's reduction clause C as the kernel gets it: a whole C array named bare
  /// becomes its section `a[0:N]`. An array item's elements a data clause maps go to the host
  /// before the push (Entry) and back to the devices after it (Exit): the result goes to the
  /// device copy, as NVHPC does (ArrayReductions.cpp).
  std::string reductionClause(const analysis::Clause &C, const Pragma &P,
                              std::vector<std::string> &Entry, std::vector<std::string> &Exit);
  /// Whether a copyout/create clause has OpenACC 3.3's `zero:` modifier.
  static bool hasZeroModifier(const analysis::Clause &C);

private:
  /// `for` over the rows of S (RowBytes set) doing Call(row), row being the expression of that
  /// row's address (a `void *` lvalue in the pointer array: `&` of it is the pointer's address).
  static std::string forEachRow(const Section &S,
                                llvm::function_ref<std::string(const std::string &)> Call);
  bool isPointerMember(llvm::StringRef Base, const Pragma &P);
  /// The calls of data clause C (entry In, exit Out as regionCalls names them) for S, a section
  /// of a pointer to pointers: the rows, the pointer array, the attachments. False on error.
  bool rowCalls(const Section &S, const Pragma &P, const analysis::Clause &C,
                const std::string &Item, llvm::StringRef In, llvm::StringRef Out,
                std::vector<std::string> &Entry, std::vector<std::string> &Detaches,
                std::vector<std::string> &Deletes, std::vector<std::string> &CopyBacks);

  SourceFile &File;
  unsigned NoCreates = 0; ///< no_create flags declared so far (their names are numbered)
  unsigned Sections = 0;  ///< data construct sections saved so far (jacc_section_N)
};

} // namespace jacc::translate

#endif
