// C++ lowered to the C the kernel compilers take: a compute construct's statement and the
// routines it calls become C by edits of their text (CxxKernel.cpp, CxxRoutine.cpp,
// CxxClassTemplates.cpp); anything else is a located error naming the construct.
#ifndef JACC_TRANSLATE_CXXLOWERING_H
#define JACC_TRANSLATE_CXXLOWERING_H

#include "translate/CTypes.h"
#include "translate/Diagnostics.h"
#include "translate/FileIndex.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/TypeLoc.h>
#include <llvm/ADT/Twine.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace jacc::translate {

/// Replacements of a text by offset: offset -> (length replaced, text).
using TextReplacements = std::map<unsigned, std::pair<unsigned, std::string>>;
/// Insertions before the text at an offset.
using TextInsertions = std::map<unsigned, std::string>;

/// Buf's [Begin, End) with the insertions Ins and the replacements Edits.
std::string editedText(llvm::StringRef Buf, unsigned Begin, unsigned End,
                       const TextReplacements &Edits, const TextInsertions &Ins);

/// What a C++ construct's statement (or a routine) needs to be a C kernel.
struct CxxKernel {
  TextReplacements Edits;
  TextInsertions Ins;
  std::vector<const clang::FieldDecl *> Members; ///< data members used through `this`
  std::set<std::string> Helpers;                 ///< C definitions (std::min/max)
  std::set<const clang::VarDecl *> LocalRefs;    ///< references declared inside: pointers
  std::vector<clang::QualType> Types;            ///< types the rewritten text names
};

/// How a kernel's copy of a routine takes a reference parameter (CxxRoutine.cpp).
enum class RefParam {
  AsIs,   ///< not a reference
  Value,  ///< `const T &` of a routine that cannot write through its parameters, `T &&`: `T`
  Pointer ///< `T &` (and `const T &` of a routine that may write): `T *`, used as `(*x)`
};

class CxxLowering {
public:
  /// Lowering in the main file whose text is Buf, indexed by Idx; errors go to Diags.
  CxxLowering(clang::ASTContext &Ctx, const FileIndex &Idx, const CTypes &TypeText,
              llvm::StringRef Buf, Diagnostics &Diags)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Idx(Idx), TypeText(TypeText), Buf(Buf), Diags(Diags) {
  }

  /// Fills K for S (What names the construct in errors); an error for what stays C++. In a
  /// template's pattern (Pattern), what depends on its parameters (a call of `std::sqrt(x)` with
  /// `x` of type T) is left as written: each instantiation lowers it.
  void lower(clang::Stmt *S, CxxKernel &K, const std::string &What, bool Pattern = false);
  /// The C++ of routine definition F lowered as a construct's is (its body, and its reference
  /// parameters, auto return type and C++ specifiers); lowered once, nullptr after an error.
  const CxxKernel *lowerRoutine(const clang::FunctionDecl *F);
  RefParam refParam(const clang::FunctionDecl *F, unsigned I) const;
  /// Whether F may write memory its caller sees: through a parameter that is a non-const
  /// reference, or a pointer to non-const data (arrays and structs' members included).
  bool routineMayWrite(const clang::FunctionDecl *F) const;
  /// A C definition of the C++ class RD a kernel uses (its data members), or "" after an error.
  std::string cStructText(const clang::CXXRecordDecl *RD);

private:
  /// K's rewriting of the head of lambda L, whose call operator is F, into a function's.
  void lowerLambdaHead(const clang::FunctionDecl *F, const clang::LambdaExpr *L, CxxKernel &K,
                       const std::string &What);
  /// K's replacement of the class template instance TL writes (`ns::data_container<real_t>`, a
  /// template specialization or an elaborated one) by its C name, its definition needed; false
  /// when TL writes none.
  bool lowerTemplateType(clang::TypeLoc TL, CxxKernel &K, const std::string &What);
  /// lowerTemplateType of every class template instance written in TL (a routine's signature).
  void lowerTemplateTypes(clang::TypeLoc TL, CxxKernel &K, const std::string &What);
  static void addTypeNeed(clang::QualType T, CxxKernel &K) { K.Types.push_back(T); }
  /// K's replacement of the tokens of R by Text (an error naming What inside a macro).
  void replace(CxxKernel &K, clang::SourceRange R, const std::string &Text,
               const std::string &What);
  /// The error for C++ Construct at L in What (a compute construct, a routine) that stays C++.
  void unsupported(clang::SourceLocation L, const llvm::Twine &Construct, const std::string &What);
  void errorAt(clang::SourceLocation L, const llvm::Twine &Msg);

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const FileIndex &Idx;
  const CTypes &TypeText;
  llvm::StringRef Buf;
  Diagnostics &Diags;
  std::map<const clang::FunctionDecl *, std::optional<CxxKernel>> RoutineCxx;
};

} // namespace jacc::translate

#endif
