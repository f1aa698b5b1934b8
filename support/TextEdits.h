// Source rewriting by offsets: insertions and replacements applied to a text in one pass.
#ifndef JACC_SUPPORT_TEXTEDITS_H
#define JACC_SUPPORT_TEXTEDITS_H

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace jacc {

class TextEdits {
public:
  /// Insert Text before the character at Offset (insertions at one offset keep their order).
  void insert(unsigned Offset, std::string Text) { replace(Offset, Offset, std::move(Text)); }
  /// Replace [Begin, End) with Text. Replaced ranges must not overlap.
  void replace(unsigned Begin, unsigned End, std::string Text);
  /// Source[From, To) with the edits inside it applied (insertions at To too, unless not
  /// AtTo: those that close what follows To).
  std::string apply(llvm::StringRef Source, unsigned From, unsigned To, bool AtTo = true) const;

private:
  struct Edit {
    unsigned Begin, End, Order;
    std::string Text;
  };
  std::vector<Edit> Edits;
};

/// Text with every occurrence of From (not empty) replaced by To, left to right.
std::string replaceAll(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To);

} // namespace jacc

#endif
