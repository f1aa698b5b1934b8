// Scalar arguments whose pushed value the kernel never reads, from each nest body's SSA.
#include "analysis/EntryValues.h"

#include "analysis/SSA.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

#include <set>

namespace jacc::analysis {

namespace {

/// Whether Text contains Name as a whole identifier.
bool mentions(llvm::StringRef Text, llvm::StringRef Name) {
  auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (size_t Pos = Text.find(Name); Pos != llvm::StringRef::npos; Pos = Text.find(Name, Pos + 1)) {
    bool Before = Pos > 0 && IsIdent(Text[Pos - 1]);
    bool After = Pos + Name.size() < Text.size() && IsIdent(Text[Pos + Name.size()]);
    if (!Before && !After)
      return true;
  }
  return false;
}

bool isLoopVar(const ParallelNest &N, const std::string &Name) {
  for (const CanonicalLoop &L : N.Loops)
    if (L.Var == Name)
      return true;
  return false;
}

} // namespace

void findUnreadEntryValues(KernelInfo &K) {
  if (K.Serial || K.Nests.empty())
    return;
  // Candidates: the variables some nest assigns, in its body or as its loop variable.
  std::set<std::string> Assigned, Read;
  for (const ParallelNest &N : K.Nests) {
    for (const CanonicalLoop &L : N.Loops)
      Assigned.insert(L.Var);
    for (const IRStmt &S : N.Body.Stmts)
      if (S.K == IRStmt::Kind::ScalarDef)
        Assigned.insert(S.Var);
    // Inside the body a loop variable's entry value is the iteration's, not the pushed one.
    for (const std::string &V : entryValuesRead(buildSSA(N.Body)))
      if (!isLoopVar(N, V))
        Read.insert(V);
  }
  llvm::StringRef Source = K.Source;
  for (ArgInfo &A : K.Args) {
    if (A.ArgKind != ArgInfo::Kind::Scalar || !Assigned.count(A.Name) || Read.count(A.Name))
      continue;
    // Outside the nest bodies: the construct's text, each nest's header (its loop variables
    // are assigned there before any read) and the statements between the nests.
    bool Mentioned = false;
    unsigned From = K.ConstructOffset;
    for (const ParallelNest &N : K.Nests) {
      unsigned HeaderBegin = N.Loops.front().ForBegin, BodyBegin = N.Loops.back().BodyBegin;
      Mentioned |= mentions(Source.slice(From, HeaderBegin), A.Name);
      if (!isLoopVar(N, A.Name))
        Mentioned |= mentions(Source.slice(HeaderBegin, BodyBegin), A.Name);
      From = N.Loops.back().BodyEnd;
    }
    Mentioned |= mentions(Source.slice(From, K.BodyEnd), A.Name);
    A.ValueRead = Mentioned;
  }
}

} // namespace jacc::analysis
