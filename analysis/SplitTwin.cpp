// Swapping the headers of a kernel's parallel loop and its first inner parallel loop.
#include "analysis/SplitTwin.h"

#include "analysis/KernelSource.h"

#include <llvm/ADT/STLExtras.h>

namespace jacc::analysis {

/// The offset after the `)` closing the header of the for loop at For, or nullopt.
static std::optional<unsigned> headerEnd(llvm::StringRef Source, unsigned For) {
  size_t Open = Source.find('(', For);
  if (Open == llvm::StringRef::npos)
    return std::nullopt;
  unsigned Depth = 0;
  for (size_t I = Open; I < Source.size(); ++I) {
    if (Source[I] == '(')
      ++Depth;
    else if (Source[I] == ')' && --Depth == 0)
      return static_cast<unsigned>(I + 1);
  }
  return std::nullopt;
}

std::optional<std::string> splitTwinSource(const KernelInfo &K) {
  if (!K.Split.Enabled || K.Nests.size() != 1 || !K.Reductions.empty())
    return std::nullopt;
  const ParallelNest &N = K.Nests.front();
  // The inner loop must be independent whatever the pointers are: the twin is chosen per
  // kernel, not per binding.
  if (N.Loops.size() != 1 || N.InnerParallel.empty() || N.InnerNeedsDisjointFrom == 0)
    return std::nullopt;
  const CanonicalLoop &Outer = N.Loops.front(), &Inner = N.InnerParallel.front();
  llvm::StringRef Source = K.Source;
  std::optional<unsigned> OuterEnd = headerEnd(Source, Outer.ForBegin),
                          InnerEnd = headerEnd(Source, Inner.ForBegin);
  if (!OuterEnd || !InnerEnd || *OuterEnd > Inner.ForBegin ||
      !Source.substr(Outer.ForBegin).startswith("for") ||
      !Source.substr(Inner.ForBegin).startswith("for"))
    return std::nullopt;
  llvm::StringRef OuterHeader = Source.slice(Outer.ForBegin, *OuterEnd),
                  InnerHeader = Source.slice(Inner.ForBegin, *InnerEnd);
  // The outer header runs inside the inner one in the twin: it must not read the inner
  // loop's variable (InnerParallel's headers read no enclosing loop's already).
  if (mentionsIdentifier(OuterHeader.drop_front(3), Inner.Var))
    return std::nullopt;
  return (Source.take_front(Outer.ForBegin) + InnerHeader +
          Source.slice(*OuterEnd, Inner.ForBegin) + OuterHeader + Source.drop_front(*InnerEnd))
      .str();
}

std::vector<SplitAxis> splitAxes(const KernelInfo &K) {
  std::vector<SplitAxis> Axes;
  auto Has = [&](unsigned Arg) {
    return llvm::any_of(Axes, [&](const SplitAxis &A) { return A.Arg == Arg; });
  };
  for (const SplitArray &A : K.Split.Plan.Arrays)
    if (!Has(A.Arg))
      Axes.push_back({A.Arg, A.Dim, A.Rank});
  for (const ReadExtent &R : K.Split.Reads)
    if (!R.Whole && !Has(R.Arg))
      Axes.push_back({R.Arg, R.Dim, R.Rank});
  return Axes;
}

} // namespace jacc::analysis
