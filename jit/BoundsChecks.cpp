#include "jit/BoundsChecks.h"

#include "jit/AtomicText.h"
#include "jit/EntryTarget.h"
#include "jit/host/HostABI.h"

namespace jacc::jit {

using namespace analysis;

unsigned boundsScratchWord(unsigned NParams) { return JACC_BOUNDS_RECORD_WORDS + 2 * NParams; }

void insertBoundsChecks(const KernelInfo &K, const EntryTarget &Target, BoundsScope Scope,
                        BoundsPart Part, TextEdits &Edits) {
  if (!K.CheckBounds)
    return;
  for (size_t I = 0; I < K.BoundsSites.size(); ++I) {
    const BoundsSite &S = K.BoundsSites[I];
    bool Atomic = insideAtomic(K, S.Begin, S.End);
    if (K.arrayReductionOf(S.Arg) || Atomic != (Scope == BoundsScope::InsideAtomics))
      continue;
    const ArgInfo &A = K.Args[S.Arg];
    // The site's constants: parameter, line, column, write (its subscript count above bit 0).
    std::string Where = std::to_string(A.Param) + ", " + std::to_string(S.Line) + ", " +
                        std::to_string(S.Col) + ", " +
                        std::to_string(unsigned(S.Write) | S.Subscripts << 1);
    if (Part == BoundsPart::Opens)
      Edits.insert(S.Begin, Target.BoundsCheckOpen(I));
    else
      Edits.insert(S.End, Target.BoundsCheckClose(I, A.Name, Where));
  }
}

std::string boundsStop(const KernelInfo &K) {
  return K.CheckBounds ? "if (*(volatile long long *)__jacc_t->bounds) break;\n" : "";
}

} // namespace jacc::jit
