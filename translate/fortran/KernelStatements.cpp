// Fortran statements as C: assignments (array assignments as loop nests), IF, SELECT CASE,
// BLOCK, DO, DO CONCURRENT and DO WHILE loops, CALL and RETURN, and the loop directives inside.
#include "translate/fortran/KernelWriter.h"

#include "translate/fortran/PrivateCopies.h"

#include <flang/Evaluate/tools.h>
#include <flang/Semantics/tools.h>

namespace jacc::translate::fortran {

void KernelWriter::line(std::string &Text, const std::string &Indent, const std::string &Code) {
  for (const std::string &L : Hoisted) // the statement's array reductions, computed first
    Text += Indent + L + "\n";
  Hoisted.clear();
  Text += Indent + Code + "\n";
}

void KernelWriter::noReductionIn(const char *What) {
  if (Hoisted.empty())
    return;
  error(std::string("an array reduction (sum, maxval, ...) or an expression passed by address "
                    "to a routine of another file in ") +
        What + " is not translated: compute it into a variable first");
  Hoisted.clear();
}

void KernelWriter::block(std::string &Text, const parser::Block &Body, const std::string &Indent) {
  for (const parser::ExecutionPartConstruct &C : Body)
    construct(Text, C, Indent);
}

void KernelWriter::construct(std::string &Text, const parser::ExecutionPartConstruct &C,
                             const std::string &Indent) {
  const auto *E = std::get_if<parser::ExecutableConstruct>(&C.u);
  if (!E) {
    error("only executable statements are translated inside a compute construct");
    return;
  }
  std::visit(
      common::visitors{[&](const parser::Statement<parser::ActionStmt> &S) {
                         Where = S.source;
                         action(Text, S.statement, Indent);
                       },
                       [&](const common::Indirection<parser::DoConstruct> &D) {
                         doLoop(Text, D.value(), "", Indent);
                       },
                       [&](const common::Indirection<parser::IfConstruct> &If) {
                         ifConstruct(Text, If.value(), Indent);
                       },
                       [&](const common::Indirection<parser::OpenACCConstruct> &Acc) {
                         accLoop(Text, Acc.value(), Indent);
                       },
                       [&](const common::Indirection<parser::CaseConstruct> &Case) {
                         caseConstruct(Text, Case.value(), Indent);
                       },
                       [&](const common::Indirection<parser::BlockConstruct> &B) {
                         blockConstruct(Text, B.value(), Indent);
                       },
                       [&](const auto &) {
                         error("this construct is not translated inside a compute construct yet");
                       }},
      E->u);
}

void KernelWriter::action(std::string &Text, const parser::ActionStmt &A,
                          const std::string &Indent) {
  std::visit(
      common::visitors{
          [&](const common::Indirection<parser::AssignmentStmt> &S) {
            assignment(Text, S.value(), Indent);
          },
          [&](const parser::ContinueStmt &) {},
          [&](const common::Indirection<parser::CallStmt> &S) {
            if (!S.value().typedCall.get()) {
              error("a call flang could not resolve");
              return;
            }
            line(Text, Indent, call(*S.value().typedCall) + ";");
          },
          [&](const common::Indirection<parser::ReturnStmt> &S) {
            if (!InRoutine || S.value().v)
              error("RETURN inside a compute construct: only a routine returns");
            line(Text, Indent, Result.empty() ? "return;" : "return " + Result + ";");
          },
          [&](const common::Indirection<parser::CycleStmt> &S) {
            leaveLoop(Text, S.value().v, true, Indent);
          },
          [&](const common::Indirection<parser::ExitStmt> &S) {
            leaveLoop(Text, S.value().v, false, Indent);
          },
          [&](const common::Indirection<parser::IfStmt> &S) {
            const auto &Cond = std::get<parser::ScalarLogicalExpr>(S.value().t);
            line(Text, Indent, "if (" + expr(Cond.thing.thing.value()) + ") {");
            action(Text,
                   std::get<parser::UnlabeledStatement<parser::ActionStmt>>(S.value().t).statement,
                   Indent + "  ");
            line(Text, Indent, "}");
          },
          [&](const auto &) {
            error("this statement is not translated inside a compute construct yet");
          }},
      A.u);
}

void KernelWriter::assigns(const semantics::Symbol &Symbol, bool Surely) {
  const semantics::Symbol &S = Symbol.GetUltimate();
  if (Own.count(&S))
    return;
  (LoopDepth > 0 ? InLoop : OutsideLoops).insert(&S);
  if (Surely)
    Assigned.insert(&S);
}

/// The scalar variable whose component (of a component ...) Lhs is, if it is one.
static const semantics::Symbol *assignedStruct(const evaluate::Expr<SomeType> &Lhs) {
  std::optional<evaluate::DataRef> Ref = evaluate::ExtractDataRef(Lhs);
  const evaluate::DataRef *At = Ref ? &*Ref : nullptr;
  if (!At || !std::holds_alternative<evaluate::Component>(At->u))
    return nullptr;
  while (const auto *C = std::get_if<evaluate::Component>(&At->u))
    At = &C->base();
  const auto *Whole = std::get_if<semantics::SymbolRef>(&At->u);
  return Whole && (*Whole)->Rank() == 0 ? &**Whole : nullptr;
}

void KernelWriter::assignment(std::string &Text, const parser::AssignmentStmt &S,
                              const std::string &I) {
  if (!S.typedAssignment || !S.typedAssignment->v) {
    error("an assignment flang could not type");
    return;
  }
  const evaluate::Assignment &A = *S.typedAssignment->v;
  if (A.lhs.Rank() != 0) {
    arrayAssignment(Text, A, I);
    return;
  }
  std::string Rhs = expr(A.rhs); // its reads come first
  if (const semantics::Symbol *Base = evaluate::UnwrapWholeSymbolDataRef(A.lhs))
    assigns(*Base, true);
  else if (const semantics::Symbol *Struct = assignedStruct(A.lhs)) {
    // A component of a scalar: assigned (a routine takes it by address), its other
    // components keeping their values, as if read first (a kernel shares it).
    assigns(*Struct, true);
    ReadFirst.insert(&Struct->GetUltimate());
  }
  Assigning = true;
  std::string Lhs = expr(A.lhs);
  Assigning = false;
  line(Text, I, Lhs + " = " + Rhs + ";");
}

void KernelWriter::arrayAssignment(std::string &Text, const evaluate::Assignment &A,
                                   const std::string &I) {
  int Rank = A.lhs.Rank();
  std::vector<std::string> Extents = assignedExtents(A.lhs);
  if (static_cast<int>(Extents.size()) != Rank) {
    error("this array assignment's left side is not translated into kernels yet (an array "
          "or a section of one): write the DO loop");
    return;
  }
  ElementalRank = Rank;
  std::string Rhs = expr(A.rhs);
  Assigning = true;
  std::string Lhs = expr(A.lhs);
  Assigning = false;
  // The element assigned: Lhs, or the complex value whose part Lhs is (`z(:)%re`).
  std::string Element = Lhs;
  if (!evaluate::ExtractDataRef(A.lhs))
    if (std::optional<evaluate::DataRef> Complex = evaluate::ExtractDataRef(A.lhs, false, true))
      Element = dataRef(*Complex);
  ElementalRank = 0;
  // Fortran evaluates the right side before it assigns: a read of the assigned array at
  // other elements (a(2:n) = a(1:n-1)) would see elements the loop already wrote.
  std::string Reads = Rhs;
  for (const std::string &L : ElementLines)
    Reads += "\n" + L;
  std::string Name = Element.substr(0, Element.find('['));
  for (size_t At = Reads.find(Name + "["); At != std::string::npos;
       At = Reads.find(Name + "[", At + 1)) {
    bool Whole = At == 0 ||
                 !(std::isalnum(static_cast<unsigned char>(Reads[At - 1])) || Reads[At - 1] == '_');
    if (Whole && Reads.compare(At, Element.size(), Element) != 0) {
      error("this array assignment reads the array it assigns at other elements: write the "
            "DO loop (with a temporary where the elements overlap)");
      ElementLines.clear();
      return;
    }
  }
  std::string Indent = I;
  if (LoopDepth == 0 && SharesArrayAssignments)
    line(Text, Indent,
         "#pragma acc loop independent" +
             (Rank > 1 ? " collapse(" + std::to_string(Rank) + ")" : std::string()));
  for (int D = Rank; D >= 1; --D) {
    std::string K = "jacc_e" + std::to_string(D);
    line(Text, Indent,
         "for (long long " + K + " = 0; " + K + " < " + Extents[D - 1] + "; " + K + "++) {");
    Indent += "  ";
  }
  for (const std::string &L : ElementLines) // its reductions along a dimension, element by element
    Text += Indent + L + "\n";
  ElementLines.clear();
  line(Text, Indent, Lhs + " = " + Rhs + ";");
  for (int D = Rank; D >= 1; --D) {
    Indent.resize(Indent.size() - 2);
    line(Text, Indent, "}");
  }
}

void KernelWriter::caseConstruct(std::string &Text, const parser::CaseConstruct &C,
                                 const std::string &I) {
  const auto &Select = std::get<parser::Statement<parser::SelectCaseStmt>>(C.t);
  Where = Select.source;
  const parser::Expr &E = std::get<parser::Scalar<parser::Expr>>(Select.statement.t).thing;
  std::optional<evaluate::DynamicType> Type =
      E.typedExpr && E.typedExpr->v ? E.typedExpr->v->GetType() : std::nullopt;
  if (!Type ||
      (Type->category() != TypeCategory::Integer && Type->category() != TypeCategory::Logical)) {
    error("SELECT CASE on a character selector is not translated into kernels yet");
    return;
  }
  std::string Value = "jacc_case" + std::to_string(Cases++);
  line(Text, I, "{");
  line(Text, I + "  ", "const long long " + Value + " = " + expr(E) + ";");
  std::string Chain;
  const parser::Block *Default = nullptr;
  for (const parser::CaseConstruct::Case &Case :
       std::get<std::list<parser::CaseConstruct::Case>>(C.t)) {
    const auto &Stmt = std::get<parser::Statement<parser::CaseStmt>>(Case.t);
    Where = Stmt.source;
    const auto &Selector = std::get<parser::CaseSelector>(Stmt.statement.t);
    const auto *Ranges = std::get_if<std::list<parser::CaseValueRange>>(&Selector.u);
    if (!Ranges) {
      Default = &std::get<parser::Block>(Case.t);
      continue;
    }
    auto Bound = [&](const parser::CaseValue &V) {
      return "(" + expr(V.thing.thing.value()) + ")";
    };
    std::string Cond;
    for (const parser::CaseValueRange &R : *Ranges) {
      std::string One;
      if (const auto *V = std::get_if<parser::CaseValue>(&R.u)) {
        One = Value + " == " + Bound(*V);
      } else {
        const auto &Range = std::get<parser::CaseValueRange::Range>(R.u);
        if (Range.lower)
          One = Value + " >= " + Bound(*Range.lower);
        if (Range.upper)
          One += (One.empty() ? "" : " && ") + Value + " <= " + Bound(*Range.upper);
      }
      Cond += (Cond.empty() ? "(" : " || (") + One + ")";
    }
    line(Text, I + "  ", (Chain.empty() ? "if (" : "} else if (") + Cond + ") {");
    Chain = "}";
    block(Text, std::get<parser::Block>(Case.t), I + "    ");
  }
  if (Default) {
    line(Text, I + "  ", Chain.empty() ? "{" : "} else {");
    Chain = "}";
    block(Text, *Default, I + "    ");
  }
  if (!Chain.empty())
    line(Text, I + "  ", Chain);
  line(Text, I, "}");
}

void KernelWriter::blockConstruct(std::string &Text, const parser::BlockConstruct &B,
                                  const std::string &I) {
  const parser::SpecificationPart &Spec = std::get<parser::BlockSpecificationPart>(B.t).v;
  Where = std::get<parser::Statement<parser::BlockStmt>>(B.t).source;
  if (!std::get<std::list<parser::DeclarationConstruct>>(Spec.t).empty() ||
      !std::get<std::list<parser::Statement<common::Indirection<parser::UseStmt>>>>(Spec.t)
           .empty() ||
      !std::get<parser::ImplicitPart>(Spec.t).v.empty()) {
    error("a BLOCK construct with declarations is not translated into kernels yet: declare "
          "its variables in the procedure");
    return;
  }
  block(Text, std::get<parser::Block>(B.t), I);
}

void KernelWriter::ifConstruct(std::string &Text, const parser::IfConstruct &If,
                               const std::string &I) {
  const auto &Then = std::get<parser::Statement<parser::IfThenStmt>>(If.t);
  Where = Then.source;
  line(Text, I,
       "if (" + expr(std::get<parser::ScalarLogicalExpr>(Then.statement.t).thing.thing.value()) +
           ") {");
  block(Text, std::get<parser::Block>(If.t), I + "  ");
  for (const auto &ElseIf : std::get<std::list<parser::IfConstruct::ElseIfBlock>>(If.t)) {
    const auto &Stmt = std::get<parser::Statement<parser::ElseIfStmt>>(ElseIf.t);
    Where = Stmt.source;
    std::string Condition =
        expr(std::get<parser::ScalarLogicalExpr>(Stmt.statement.t).thing.thing.value());
    noReductionIn("an ELSE IF's condition");
    line(Text, I, "} else if (" + Condition + ") {");
    block(Text, std::get<parser::Block>(ElseIf.t), I + "  ");
  }
  if (const auto &Else = std::get<std::optional<parser::IfConstruct::ElseBlock>>(If.t)) {
    line(Text, I, "} else {");
    block(Text, std::get<parser::Block>(Else->t), I + "  ");
  }
  line(Text, I, "}");
}

void KernelWriter::loopText(std::string &Text, const parser::DoConstruct &Do,
                            const std::string &Pragma, const std::string &I) {
  const auto &Stmt = std::get<parser::Statement<parser::NonLabelDoStmt>>(Do.t);
  Where = Stmt.source;
  const auto &Control = Do.GetLoopControl();
  const auto *Bounds = Control ? std::get_if<parser::LoopControl::Bounds>(&Control->u) : nullptr;
  if (Control)
    if (const auto *C = std::get_if<parser::LoopControl::Concurrent>(&Control->u)) {
      doConcurrent(Text, Do, *C, Pragma, I);
      return;
    }
  const auto *While = Control ? std::get_if<parser::ScalarLogicalExpr>(&Control->u) : nullptr;
  if (!Control || While) {
    // DO WHILE: a loop the devices run sequentially, as written; DO without control: until an
    // EXIT (or a RETURN of the routine) leaves it.
    std::string Header = "for (;;) {";
    if (While) {
      Header = "while (" + expr(While->thing.thing.value()) + ") {";
      noReductionIn("a DO WHILE's condition");
      if (!Pragma.empty())
        line(Text, I, Pragma);
    } else if (!Pragma.empty()) {
      error("a loop directive needs a DO loop with bounds, not one without control");
    }
    line(Text, I, Header);
    ++LoopDepth;
    loopBody(Text, Do, I + "  ");
    --LoopDepth;
    line(Text, I, "}");
    return;
  }
  if (!Bounds) {
    error("this DO loop's control is not translated into kernels yet");
    return;
  }
  const semantics::Symbol *Index = Bounds->name.thing.symbol;
  if (!Index) {
    error("a DO loop index flang did not resolve");
    return;
  }
  const semantics::Symbol &S = Index->GetUltimate();
  std::optional<int64_t> Step = 1;
  std::string StepText = "1";
  if (Bounds->step) {
    const parser::Expr &E = Bounds->step->thing.value();
    Step = E.typedExpr && E.typedExpr->v ? evaluate::ToInt64(*E.typedExpr->v) : std::nullopt;
    if (!Step || *Step == 0) {
      error("a DO loop's step in a kernel must be a nonzero constant");
      return;
    }
    StepText = std::to_string(*Step);
  }
  std::string Lower = expr(Bounds->lower.thing.value()), Upper = expr(Bounds->upper.thing.value());
  noReductionIn("a DO loop's bounds");
  // An index of a private clause is the kernel's private variable (its argument), not a second
  // one the for declares: that would leave the argument unused.
  bool Fresh = Own.insert(&S).second, Declared = Fresh && !Private.count(&S);
  std::string Name = cName(S);
  if (!Pragma.empty())
    line(Text, I, Pragma);
  line(Text, I,
       "for (" + (Declared ? cType(S) + " " : std::string()) + Name + " = " + Lower + "; " + Name +
           (*Step > 0 ? " <= " : " >= ") + Upper + "; " + Name +
           (*Step == 1    ? "++"
            : *Step == -1 ? "--"
                          : " += " + StepText) +
           ") {");
  ++LoopDepth;
  std::vector<Copy> Copies = openCopies(Text, I + "  ", false);
  loopBody(Text, Do, I + "  ");
  closeCopies(Copies);
  if (!Copies.empty() || PendingLevels == 0)
    Pending.clear(); // a collapse whose nest was not perfect: reported by the analysis
  --LoopDepth;
  line(Text, I, "}");
  if (Fresh)
    Own.erase(&S);
}

void KernelWriter::doConcurrent(std::string &Text, const parser::DoConstruct &Do,
                                const parser::LoopControl::Concurrent &C, const std::string &Pragma,
                                const std::string &I) {
  const auto &Header = std::get<parser::ConcurrentHeader>(C.t);
  const auto &Controls = std::get<std::list<parser::ConcurrentControl>>(Header.t);
  if (!std::get<std::list<parser::LocalitySpec>>(C.t).empty())
    error("DO CONCURRENT's locality specifiers (local, shared) are not translated yet");
  std::string Loop = Pragma.empty() ? "#pragma acc loop independent" : Pragma;
  if (Controls.size() > 1 && Loop.find("collapse(") == std::string::npos)
    Loop += " collapse(" + std::to_string(Controls.size()) + ")";
  line(Text, I, Loop);
  std::vector<const semantics::Symbol *> Declared;
  std::string Indent = I;
  for (const parser::ConcurrentControl &Control : Controls) {
    const parser::Name &Name = std::get<parser::Name>(Control.t);
    const auto &Step = std::get<std::optional<parser::ScalarIntExpr>>(Control.t);
    std::optional<int64_t> By = 1;
    if (Step) {
      const parser::Expr &E = Step->thing.thing.value();
      By = E.typedExpr && E.typedExpr->v ? evaluate::ToInt64(*E.typedExpr->v) : std::nullopt;
    }
    if (!Name.symbol || !By || *By == 0) {
      error("a DO CONCURRENT index needs a nonzero constant step in a kernel");
      return;
    }
    const semantics::Symbol &S = Name.symbol->GetUltimate();
    Own.insert(&S);
    Declared.push_back(&S);
    std::string N = cName(S), T = cType(S).empty() ? "int" : cType(S);
    if (Private.count(&S))
      T.clear(); // the private clause's variable (see loopText)
    line(Text, Indent,
         "for (" + (T.empty() ? "" : T + " ") + N + " = " + scalar(std::get<1>(Control.t)) + "; " +
             N + (*By > 0 ? " <= " : " >= ") + scalar(std::get<2>(Control.t)) + "; " + N +
             (*By == 1 ? "++" : " += " + std::to_string(*By)) + ") {");
    Indent += "  ";
  }
  const auto &Mask = std::get<std::optional<parser::ScalarLogicalExpr>>(Header.t);
  std::vector<Copy> Copies = openCopies(Text, Indent, true);
  if (Mask)
    line(Text, Indent, "if (" + expr(Mask->thing.thing.value()) + ") {");
  ++LoopDepth;
  loopBody(Text, Do, Indent + (Mask ? "  " : ""));
  --LoopDepth;
  closeCopies(Copies);
  if (Mask)
    line(Text, Indent, "}");
  for (size_t K = 0; K < Controls.size(); ++K) {
    Indent.resize(Indent.size() - 2);
    line(Text, Indent, "}");
  }
  for (const semantics::Symbol *S : Declared)
    Own.erase(S);
}

void KernelWriter::accLoop(std::string &Text, const parser::OpenACCConstruct &Acc,
                           const std::string &I) {
  if (const auto *Atomic = std::get_if<parser::OpenACCAtomicConstruct>(&Acc.u)) {
    atomic(Text, *Atomic, I);
    return;
  }
  // A cache directive is a hint: the devices' memory is where the data is already.
  if (std::holds_alternative<parser::OpenACCCacheConstruct>(Acc.u))
    return;
  const auto *Loop = std::get_if<parser::OpenACCLoopConstruct>(&Acc.u);
  if (!Loop) {
    error("only loop, atomic and cache directives are translated inside a compute construct yet");
    return;
  }
  const auto &Begin = std::get<parser::AccBeginLoopDirective>(Loop->t);
  Where = Begin.source;
  const auto &Do = std::get<std::optional<parser::DoConstruct>>(Loop->t);
  if (!Do) {
    error("a loop directive must be followed by a DO loop");
    return;
  }
  if (InRoutine) { // each call runs the routine's loops in turn
    doLoop(Text, *Do, "", I);
    return;
  }
  std::string Pragma = "#pragma acc loop" + clauses(std::get<parser::AccClauseList>(Begin.t));
  // Each top-level loop the devices share is where a parallel construct's gangs run: each
  // declares the construct's copies.
  bool Shared = LoopDepth == 0 && Pragma.find(" seq") == std::string::npos;
  Pending = ClauseCopies;
  if (Shared)
    Pending.insert(Pending.end(), ConstructCopies.begin(), ConstructCopies.end());
  PendingLevels = static_cast<int>(Collapse) - 1;
  doLoop(Text, *Do, Pragma, I);
}

} // namespace jacc::translate::fortran
