// A kernel's site and display name, and the spellings of them in messages and symbols.
#include "analysis/KernelName.h"

#include "analysis/Kernel.h"
#include "analysis/KernelSource.h"

namespace jacc::analysis {

/// The construct's first loop line: what a reader recognises a kernel pushed as text by.
static std::string displayName(const KernelInfo &K) {
  llvm::StringRef S = K.Source;
  unsigned At = K.Nests.empty() ? K.BodyBegin : K.Nests.front().Loops.front().ForBegin;
  if (At >= S.size())
    At = K.ConstructOffset;
  auto LineAt = [&](size_t Offset) {
    return S.drop_front(Offset).take_until([](char C) { return C == '\n'; }).trim();
  };
  llvm::StringRef Line = LineAt(At);
  if (Line.empty() || Line == "{")
    Line = LineAt(K.ConstructOffset);
  // A kernel loaded from the disk cache knows its construct, not its nests: the line after a
  // combined construct's pragma is its loop.
  if (Line.startswith("#pragma") && K.Nests.empty()) {
    size_t Next = S.find('\n', K.ConstructOffset);
    if (Next != llvm::StringRef::npos && !LineAt(Next + 1).empty() && LineAt(Next + 1) != "{")
      Line = LineAt(Next + 1);
  }
  return Line.str();
}

KernelName nameKernel(const KernelInfo &K) {
  return {kernelSite(K.Source), displayName(K)};
}

std::string KernelName::described(llvm::StringRef Part) const {
  std::string Name = Display;
  if (Name.size() > 80) // a generated one-line kernel may be megabytes long
    Name = Name.substr(0, 77) + "...";
  std::string S = "kernel '" + Name + "'";
  return Part.empty() ? S : S + " (" + Part.str() + ")";
}

std::string KernelName::where() const {
  return Site.empty() ? described() : "the kernel at " + Site;
}

std::string KernelName::symbol(bool Split, llvm::StringRef VariantKey) const {
  std::string Name = Site;
  if (Name.empty()) {
    Name = Display;
    if (Name.size() > 60)
      Name = Name.substr(0, 57) + "...";
  }
  std::string S = "jacc:" + Name + (Split ? " split" : "");
  return VariantKey.empty() ? S : S + " [" + VariantKey.str() + "]";
}

} // namespace jacc::analysis
