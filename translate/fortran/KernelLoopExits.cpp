// Named CYCLE and EXIT in kernels: C's continue and break leave only the innermost loop, so a
// statement leaving a loop further out sets that loop's flag and breaks, and every loop in
// between checks the flag as it ends, breaking on, until the named loop continues or breaks.
// The flags are locals of the named loop's body, fresh in each iteration: private to it where
// it is the loop the devices share.
#include "translate/fortran/KernelWriter.h"

namespace jacc::translate::fortran {

namespace {

/// The C variable of loop Name's CYCLE (or EXIT) flag.
std::string flagName(const std::string &Name, bool Cycle) {
  return std::string(Cycle ? "jacc_cycle_" : "jacc_exit_") + Name;
}

} // namespace

void KernelWriter::doLoop(std::string &Text, const parser::DoConstruct &Do,
                          const std::string &Pragma, const std::string &I) {
  const auto &Stmt = std::get<parser::Statement<parser::NonLabelDoStmt>>(Do.t).statement;
  const auto &Name = std::get<std::optional<parser::Name>>(Stmt.t);
  OpenLoops.emplace_back();
  OpenLoops.back().Name = Name ? Name->ToString() : "";
  loopText(Text, Do, Pragma, I);
  OpenLoop Done = std::move(OpenLoops.back());
  OpenLoops.pop_back();
  std::string Flags;
  for (bool Cycle : {false, true})
    if (Cycle ? Done.Cycle : Done.Exit)
      Flags += Done.BodyIndent + "int " + flagName(Done.Name, Cycle) + " = 0;\n";
  Text.insert(Done.Body, Flags);
  // The flags raised inside it for loops further out: the loop around it acts on its own and
  // passes the others on.
  for (const auto &[Target, Cycle] : Done.Raised) {
    std::string Flag = flagName(OpenLoops[Target].Name, Cycle);
    if (Target + 1 == OpenLoops.size()) {
      line(Text, I, "if (" + Flag + (Cycle ? ") continue;" : ") break;"));
      continue;
    }
    line(Text, I, "if (" + Flag + ") break;");
    OpenLoops.back().Raised.insert({Target, Cycle});
  }
}

void KernelWriter::loopBody(std::string &Text, const parser::DoConstruct &Do,
                            const std::string &Indent) {
  OpenLoops.back().Body = Text.size();
  OpenLoops.back().BodyIndent = Indent;
  block(Text, std::get<parser::Block>(Do.t), Indent);
}

void KernelWriter::leaveLoop(std::string &Text, const std::optional<parser::Name> &Name, bool Cycle,
                             const std::string &I) {
  const char *Plain = Cycle ? "continue;" : "break;";
  if (!Name || (!OpenLoops.empty() && OpenLoops.back().Name == Name->ToString())) {
    line(Text, I, Plain);
    return;
  }
  size_t Target = OpenLoops.size();
  while (Target > 0 && OpenLoops[Target - 1].Name != Name->ToString())
    --Target;
  if (Target == 0) {
    error(std::string(Cycle ? "CYCLE" : "EXIT") + " of '" + Name->ToString() +
          "', which is no DO loop inside the compute construct, is not translated: leave the "
          "construct by the end of its block");
    return;
  }
  OpenLoop &Loop = OpenLoops[Target - 1];
  (Cycle ? Loop.Cycle : Loop.Exit) = true;
  OpenLoops.back().Raised.insert({Target - 1, Cycle});
  line(Text, I, flagName(Loop.Name, Cycle) + " = 1;");
  line(Text, I, "break;");
}

} // namespace jacc::translate::fortran
