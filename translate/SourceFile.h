// The C or C++ file being translated, as every part of the translator reads it: its AST and
// text, its directives, the rewriter its edits go to and the diagnostics they report.
#ifndef JACC_TRANSLATE_SOURCEFILE_H
#define JACC_TRANSLATE_SOURCEFILE_H

#include "analysis/Directive.h"
#include "translate/CTypes.h"
#include "translate/Diagnostics.h"
#include "translate/FileIndex.h"

#include <clang/AST/ASTContext.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <llvm/ADT/Twine.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace jacc::translate {

/// A compute construct or a data construct and the statement it applies to.
struct Region {
  const Pragma *P = nullptr;
  analysis::Directive D;
  clang::Stmt *S = nullptr;
  unsigned End = 0; ///< offset after the statement (its ';' or '}' included)
  /// Where the region starts when not at its statement: a function-scope `declare`'s region
  /// runs from its pragma to the end of the block S.
  unsigned Begin = 0;
  std::vector<std::string> Exits; ///< exit calls, in order (data regions)
};

class SourceFile {
public:
  /// The parsed file FileName, whose `#pragma acc`s are Read.
  SourceFile(clang::ASTContext &Ctx, clang::Preprocessor &PP,
             const std::vector<analysis::AccPragma> &Read, llvm::StringRef FileName)
      : Diags(FileName), Ctx(Ctx), SM(Ctx.getSourceManager()), PP(PP), FileName(FileName),
        Buf(SM.getBufferData(SM.getMainFileID())), Idx(SM, Ctx.getLangOpts()),
        RW(SM, Ctx.getLangOpts()), TypeText(Ctx) {
    for (const analysis::AccPragma &A : Read)
      Pragmas.push_back(locatePragma(A, SM, Ctx.getLangOpts()));
  }

  /// What the translation reported: errors, warnings for what is accepted though not OpenACC,
  /// and what the translator inferred (implicit data clauses, "file:line: implicit
  /// copy(c[0:n])") and how each construct will run (analysis/ConstructReport.h).
  Diagnostics Diags;
  /// With it, Diags also says how each construct will run (analysis/ConstructReport.h) and
  /// why a loop runs sequentially.
  bool Describe = false;

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  clang::Preprocessor &PP;
  std::vector<Pragma> Pragmas; ///< in source order; never resized after construction
  llvm::StringRef FileName;
  llvm::StringRef Buf;
  FileIndex Idx;
  clang::Rewriter RW;
  CTypes TypeText;
  /// Pragmas[K]'s directive, parsed once (empty where it did not parse: nothing is translated
  /// then).
  std::vector<std::optional<analysis::Directive>> Dirs;
  /// The compute and data constructs (data constructs, function-scope declares), in source
  /// order.
  std::vector<Region> Computes, Datas;
  /// Globals a file-scope `declare` maps: present on the devices for the whole program.
  std::set<const clang::VarDecl *> DeclaredGlobals;

  // Diagnostics at a directive, a clause or a source location (Diags formats them).
  void info(unsigned Line, const llvm::Twine &Msg) { Diags.info(Line, Msg); }
  void warning(const Pragma &P, const analysis::Clause &C, const llvm::Twine &Msg) {
    Diags.warning(P.Line, P.TextColumn + C.Column - 1, Msg);
  }
  void warning(const Pragma &P, const llvm::Twine &Msg) { Diags.warning(P.Line, P.Column, Msg); }
  void error(unsigned Line, unsigned Col, const llvm::Twine &Msg) { Diags.error(Line, Col, Msg); }
  void error(const Pragma &P, const llvm::Twine &Msg) { error(P.Line, P.Column, Msg); }
  void error(const Pragma &P, const analysis::Clause &C, const llvm::Twine &Msg) {
    error(P.Line, P.TextColumn + C.Column - 1, Msg);
  }
  void errorAt(clang::SourceLocation L, const llvm::Twine &Msg) {
    clang::PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(L));
    error(PL.getLine(), PL.getColumn(), Msg);
  }

  /// `"file.c:42"`: P's place as a C string literal, for the runtime's messages.
  std::string where(const Pragma &P) const {
    return "\"" + FileName.str() + ":" + std::to_string(P.Line) + "\"";
  }
  /// The last line of a kernel's text: where its construct is (see jacc_kernel_push).
  std::string siteLine(const Pragma &P) const {
    return "// jacc-site: " + FileName.str() + ":" + std::to_string(P.Line) + "\n";
  }
  /// Call, whose status the runtime checks, reporting a failure at P.
  std::string check(const std::string &Call, const Pragma &P) const {
    return "jacc_translated_check(" + Call + ", " + where(P) + ");";
  }

  bool cxx() const { return Ctx.getLangOpts().CPlusPlus; }
  /// V as the host code at a construct names it: qualified when it is a namespace's or a
  /// class's (`phys::drag`: the kernel names it bare).
  std::string hostName(const clang::VarDecl *V) const;
  /// The offsets of the references to Var in S.
  std::vector<unsigned> useOffsets(clang::Stmt *S, const clang::VarDecl *Var) const;
  /// The directives from P up to End (a construct's own and those inside its statement).
  std::vector<std::pair<const Pragma *, const analysis::Directive *>>
  directivesIn(const Pragma &P, unsigned End) const;
  /// The variable an item of a clause names ("x", "a[0:n]" -> "a").
  static llvm::StringRef itemBase(llvm::StringRef Item);
};

} // namespace jacc::translate

#endif
