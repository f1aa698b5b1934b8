// Whether a kernel's pointer arguments may be declared restrict or aligned, and an argument's
// declaration with `restrict` written before its name.
#include "analysis/RestrictArgs.h"

#include "analysis/Accumulations.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

namespace jacc::analysis {

namespace {

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The offset of the first whole-word occurrence of Name in Decl; npos when none.
size_t wordAt(llvm::StringRef Decl, llvm::StringRef Name) {
  for (size_t At = Decl.find(Name); At != llvm::StringRef::npos; At = Decl.find(Name, At + 1)) {
    bool Starts = At == 0 || !isIdentChar(Decl[At - 1]);
    bool Ends = At + Name.size() == Decl.size() || !isIdentChar(Decl[At + Name.size()]);
    if (Starts && Ends)
      return At;
  }
  return llvm::StringRef::npos;
}

} // namespace

std::string restrictDecl(const ArgInfo &A) {
  if (A.ArgKind != ArgInfo::Kind::Pointer || A.Name.empty())
    return "";
  llvm::StringRef Decl = A.Decl;
  size_t At = wordAt(Decl, A.Name);
  if (At == llvm::StringRef::npos)
    return "";
  // The declarator's name follows its `*` (and the pointer's own qualifiers): the qualifier
  // goes right before the name. Anything else (`double x[]`, a typedef'd pointer) is left as
  // written.
  llvm::StringRef Before = Decl.take_front(At).rtrim();
  while (true) {
    llvm::StringRef Trimmed = Before;
    for (llvm::StringRef Q : {"const", "volatile", "restrict", "__restrict"})
      if (Trimmed.endswith(Q) &&
          (Trimmed.size() == Q.size() || !isIdentChar(Trimmed[Trimmed.size() - Q.size() - 1]))) {
        if (Q == "restrict" || Q == "__restrict")
          return A.Decl; // already restrict
        Trimmed = Trimmed.drop_back(Q.size()).rtrim();
        break;
      }
    if (Trimmed.size() == Before.size())
      break;
    Before = Trimmed;
  }
  if (!Before.endswith("*"))
    return "";
  return (Decl.take_front(At) + "restrict " + Decl.drop_front(At)).str();
}

bool restrictableKernel(const KernelInfo &K) {
  // Restrict pays where it changes the code: a host nest jams its sums along an inner loop or
  // reaches its arrays through indices read from memory, a GPU shares inner loops whose
  // independence holds for disjoint pointers.
  if (llvm::none_of(K.Nests, [](const ParallelNest &N) {
        return jamCandidate(N) || N.IndexedThroughMemory ||
               N.InnerNeedsDisjointFrom < N.InnerParallel.size();
      }))
    return false;
  unsigned Pointers = 0;
  for (unsigned I = 0; I < K.Args.size(); ++I) {
    const ArgInfo &A = K.Args[I];
    if (A.ArgKind == ArgInfo::Kind::Aggregate && A.HoldsPointers)
      return false;
    if (A.ArgKind != ArgInfo::Kind::Pointer || K.arrayReductionOf(I))
      continue;
    if (A.Deviceptr || A.HoldsPointers || restrictDecl(A).empty())
      return false;
    ++Pointers;
  }
  return Pointers >= 2;
}

bool alignableKernel(const KernelInfo &K) {
  for (unsigned I = 0; I < K.Args.size(); ++I)
    if (K.Args[I].ArgKind == ArgInfo::Kind::Pointer && !K.arrayReductionOf(I))
      return true;
  return false;
}

} // namespace jacc::analysis
