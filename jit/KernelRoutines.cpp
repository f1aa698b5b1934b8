// Routines defined in another file of the program, linked into the kernels that call them.
#include "jit/KernelRoutines.h"

#include "analysis/KernelSource.h"
#include "support/Error.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>

#include <set>
#include <vector>

namespace jacc::jit {

llvm::Error KernelRoutines::define(llvm::StringRef Name, llvm::StringRef Text) {
  if (Name.empty() || !llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '_'; }))
    return makeError(ErrorCode::InvalidArgument,
                     "jacc_define_routine: '" + Name + "' is not a C identifier");
  std::string Site = analysis::kernelSite(Text);
  if (Site.empty())
    Site = "an unnamed site (no '// jacc-site:' line)";
  else // the site is the routine's, not the text of the kernels it goes into
    Text = Text.take_front(Text.rtrim().rfind('\n') + 1);
  // A text written by hand is one declaration.
  std::string Items = Text.str();
  if (!Text.contains(analysis::RoutineItemEnd))
    Items = Text.rtrim('\n').str() + "\n" + analysis::RoutineItemEnd;
  std::lock_guard<std::mutex> L(M);
  auto [It, New] = Table.try_emplace(Name.str(), Routine{Items, Site, ""});
  // Two texts of a name (C++ overloads in two files): an error for the kernels that call it,
  // not for the program, which may never do.
  if (!New && It->second.Text != Items && It->second.OtherSite.empty())
    It->second.OtherSite = Site;
  return llvm::Error::success();
}

/// The declarations of a registered text, each with its analysis::RoutineItemEnd line.
static std::vector<llvm::StringRef> itemsOf(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Items;
  llvm::StringRef End(analysis::RoutineItemEnd);
  while (!Text.empty()) {
    size_t At = Text.find(End);
    size_t Len = At == llvm::StringRef::npos ? Text.size() : At;
    if (!Text.take_front(Len).trim().empty())
      Items.push_back(Text.take_front(Len));
    Text = Text.drop_front(std::min(Text.size(), Len + End.size()));
  }
  return Items;
}

/// Source's first `#pragma jacc routines(...)` line: where it is, and the names it lists.
struct RoutinesLine {
  size_t Offset = 0, Length = 0;
  std::vector<std::string> Names;
};
static std::optional<RoutinesLine> routinesLine(llvm::StringRef Source) {
  for (size_t At = 0; At < Source.size();) {
    size_t NL = Source.find('\n', At);
    size_t End = NL == llvm::StringRef::npos ? Source.size() : NL + 1;
    if (std::optional<std::string> List = analysis::kernelRoutines(Source.slice(At, End))) {
      RoutinesLine L{At, End - At, {}};
      llvm::SmallVector<llvm::StringRef, 4> Names;
      llvm::StringRef(*List).split(Names, ',', -1, false);
      for (llvm::StringRef N : Names)
        if (!N.trim().empty())
          L.Names.push_back(N.trim().str());
      return L;
    }
    At = End;
  }
  return std::nullopt;
}

const KernelRoutines::Routine *KernelRoutines::sameNameOtherSignature(llvm::StringRef Name) const {
  size_t At = Name.rfind("_sig");
  if (At == llvm::StringRef::npos || Name.size() != At + 4 + 8)
    return nullptr;
  llvm::StringRef Base = Name.take_front(At + 4);
  for (const auto &[Other, R] : Table)
    if (llvm::StringRef(Other).startswith(Base) && Other.size() == Name.size())
      return &R;
  return nullptr;
}

llvm::Expected<std::optional<std::string>> KernelRoutines::link(llvm::StringRef Kernel) const {
  std::optional<RoutinesLine> Line = routinesLine(Kernel);
  if (!Line)
    return std::nullopt;
  std::string Out = Kernel.str();
  std::string Site = analysis::kernelSite(Kernel);
  std::string TheKernel = "the kernel" + (Site.empty() ? std::string() : " at " + Site);
  std::set<std::string> Linked;
  std::lock_guard<std::mutex> L(M);
  // A routine's text may name routines of other files in turn: replace lines until none is left.
  for (; Line; Line = routinesLine(Out)) {
    std::string Text;
    for (const std::string &Name : Line->Names) {
      if (!Linked.insert(Name).second)
        continue;
      auto It = Table.find(Name);
      if (It == Table.end()) {
        if (const Routine *Other = sameNameOtherSignature(Name))
          return makeError(ErrorCode::Compile,
                           TheKernel + " calls '" + Name + "', but the routine of that name " +
                               "defined at " + Other->Site +
                               " takes other arguments or returns another type: the "
                               "declaration the call was translated with (a Fortran interface "
                               "block) must declare the same types, kinds, intents, value "
                               "attributes and shapes as the definition");
        return makeError(ErrorCode::Compile,
                         TheKernel + " calls '" + Name +
                             "', which is declared but defined in no file "
                             "of the program compiled by jaccc: compile the file that defines '" +
                             Name +
                             "' with jaccc, under a routine directive before its definition "
                             "('#pragma acc routine seq', '!$acc routine seq'; or gang, worker, "
                             "vector)");
      }
      if (!It->second.OtherSite.empty())
        return makeError(ErrorCode::Compile,
                         TheKernel + " calls '" + Name + "', which is defined at " +
                             It->second.Site + " and, differently, at " + It->second.OtherSite +
                             ": a kernel calls one function of a name; rename one of them or "
                             "make it static");
      for (llvm::StringRef Item : itemsOf(It->second.Text))
        // A declaration the kernel (or a routine linked before) holds already: once only.
        if (!llvm::StringRef(Out).contains(Item) && !llvm::StringRef(Text).contains(Item))
          Text += Item.str();
    }
    Out.replace(Line->Offset, Line->Length, Text);
  }
  return Out;
}

KernelRoutines &kernelRoutines() {
  static KernelRoutines *Table = new KernelRoutines; // used by destructors' pushes at exit too
  return *Table;
}

} // namespace jacc::jit
