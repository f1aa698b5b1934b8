// Applying the edits in one pass: sorted by offset, insertions before a replacement at the same
// offset, and edits inside an earlier replacement skipped.
#include "support/TextEdits.h"

#include <algorithm>
#include <cassert>

namespace jacc {

void TextEdits::replace(unsigned Begin, unsigned End, std::string Text) {
  assert(Begin <= End && "inverted edit range");
  Edits.push_back({Begin, End, static_cast<unsigned>(Edits.size()), std::move(Text)});
}

std::string TextEdits::apply(llvm::StringRef Source, unsigned From, unsigned To, bool AtTo) const {
  std::vector<const Edit *> Sorted;
  for (const Edit &E : Edits)
    if (E.Begin >= From && E.End <= To && (AtTo || E.Begin < To))
      Sorted.push_back(&E);
  // By position; at one position, pure insertions in the order they were made, before a
  // replacement starting there.
  std::stable_sort(Sorted.begin(), Sorted.end(), [](const Edit *A, const Edit *B) {
    if (A->Begin != B->Begin)
      return A->Begin < B->Begin;
    bool AIns = A->Begin == A->End, BIns = B->Begin == B->End;
    if (AIns != BIns)
      return AIns;
    return A->Order < B->Order;
  });
  std::string Out;
  unsigned Pos = From;
  for (const Edit *E : Sorted) {
    if (E->Begin < Pos)
      continue; // inside an earlier replacement
    Out += Source.slice(Pos, E->Begin).str();
    Out += E->Text;
    Pos = E->End;
  }
  Out += Source.slice(Pos, To).str();
  return Out;
}

std::string replaceAll(llvm::StringRef Text, llvm::StringRef From, llvm::StringRef To) {
  std::string Replaced;
  for (size_t At; (At = Text.find(From)) != llvm::StringRef::npos;
       Text = Text.drop_front(At + From.size()))
    Replaced.append(Text.data(), At).append(To.data(), To.size());
  return Replaced + Text.str();
}

} // namespace jacc
