// The clauses a Fortran kernel's pragma keeps (loop and compute clauses; the data clauses are
// the glue's), recording their private, firstprivate and reduction variables.
#include "translate/fortran/KernelWriter.h"

#include <flang/Evaluate/tools.h>
#include <flang/Semantics/tools.h>

namespace jacc::translate::fortran {

std::string KernelWriter::objectName(const parser::AccObject &O) {
  const auto *D = std::get_if<parser::Designator>(&O.u);
  const parser::Name *N = D ? variableName(*D) : nullptr;
  if (!N || !N->symbol) {
    error("only variable names are translated in reduction clauses, and variables or array "
          "sections in private clauses");
    return "";
  }
  return cName(N->symbol->GetUltimate());
}

std::string KernelWriter::names(const parser::AccObjectList &List) {
  std::string Text;
  for (const parser::AccObject &O : List.v)
    if (std::string N = objectName(O); !N.empty())
      Text += (Text.empty() ? "" : ", ") + N;
  return Text;
}

void KernelWriter::ownObject(const parser::AccObject &O, bool Reduction) {
  if (const auto *D = std::get_if<parser::Designator>(&O.u))
    if (const parser::Name *N = variableName(*D))
      if (N->symbol) {
        (Reduction ? Reductions : Private).insert(&N->symbol->GetUltimate());
        variable(*N->symbol);
      }
}

void KernelWriter::own(const parser::AccObjectList &List, bool Reduction) {
  for (const parser::AccObject &O : List.v)
    ownObject(O, Reduction);
}

std::string KernelWriter::optionalScalar(const char *Name,
                                         const std::optional<parser::ScalarIntExpr> &E) {
  return std::string(" ") + Name + (E ? "(" + scalar(*E) + ")" : "");
}

std::string KernelWriter::reductionItem(const parser::AccObject &O) {
  const auto *D = std::get_if<parser::Designator>(&O.u);
  const auto *Ref = D ? std::get_if<parser::DataRef>(&D->u) : nullptr;
  const auto *Element =
      Ref ? std::get_if<common::Indirection<parser::ArrayElement>>(&Ref->u) : nullptr;
  if (!Element) {
    ownObject(O, true);
    return objectName(O);
  }
  const auto *Base = std::get_if<parser::Name>(&Element->value().base.u);
  if (!Base || !Base->symbol) {
    error("a reduction clause names a variable or an element of an array");
    return "";
  }
  const semantics::Symbol &S = Base->symbol->GetUltimate();
  Reductions.insert(&S);
  std::string Text = variable(S);
  std::optional<HostVariable> V = find(S);
  const auto &Subscripts = Element->value().subscripts;
  const auto *Index =
      Subscripts.size() == 1 ? std::get_if<parser::IntExpr>(&Subscripts.front().u) : nullptr;
  if (!V || V->Rank != 1 || !Index) {
    error("a reduction of an array element is translated for an element of a "
          "one-dimensional array (its elements contiguous): reduce into a scalar and store "
          "it");
    return "";
  }
  std::string E = expr(Index->thing.value());
  return Text + "[" + (V->Lower[0] == "0" ? E : E + " - " + V->Lower[0]) + "]";
}

std::string KernelWriter::privateClause(const char *Name, const parser::AccObjectList &List) {
  std::string Text;
  for (const parser::AccObject &O : List.v) {
    const auto *D = std::get_if<parser::Designator>(&O.u);
    const parser::Name *N = D ? sectionBase(*D) : nullptr;
    if (N && N->symbol && privateArray(*N->symbol, Name[0] == 'f'))
      continue;
    ownObject(O, false);
    std::string One = objectName(O);
    if (!One.empty())
      Text += (Text.empty() ? "" : ", ") + One;
  }
  return Text.empty() ? "" : " " + std::string(Name) + "(" + Text + ")";
}

std::string KernelWriter::clauses(const parser::AccClauseList &List) {
  std::string Text;
  ClauseCopies.clear();
  Collapse = 1;
  for (const parser::AccClause &C : List.v) {
    Where = C.source;
    Text += std::visit(
        common::visitors{
            [&](const parser::AccClause::Seq &) { return std::string(" seq"); },
            [&](const parser::AccClause::Independent &) { return std::string(" independent"); },
            [&](const parser::AccClause::Auto &) { return std::string(" auto"); },
            [&](const parser::AccClause::Gang &G) {
              if (G.v && (std::get<std::optional<parser::ScalarIntExpr>>(G.v->t) ||
                          std::get<std::optional<parser::AccSizeExpr>>(G.v->t)))
                error("gang arguments are not translated yet");
              if (std::optional<int> Dim = Source.gangDimension(C.source))
                return " gang(dim:" + std::to_string(*Dim) + ")";
              return std::string(" gang");
            },
            [&](const parser::AccClause::Worker &W) { return optionalScalar("worker", W.v); },
            [&](const parser::AccClause::Vector &V) { return optionalScalar("vector", V.v); },
            [&](const parser::AccClause::NumGangs &N) { return " num_gangs(" + scalar(N.v) + ")"; },
            [&](const parser::AccClause::NumWorkers &N) {
              return " num_workers(" + scalar(N.v) + ")";
            },
            [&](const parser::AccClause::VectorLength &N) {
              return " vector_length(" + scalar(N.v) + ")";
            },
            [&](const parser::AccClause::Tile &T) {
              std::string Sizes;
              for (const parser::AccTileExpr &E : T.v.v) {
                const auto &Size = std::get<std::optional<parser::ScalarIntConstantExpr>>(E.t);
                Sizes += (Sizes.empty() ? "" : ", ") +
                         (Size ? expr(Size->thing.thing.thing.value()) : std::string("*"));
              }
              return " tile(" + Sizes + ")";
            },
            [&](const parser::AccClause::Collapse &N) {
              const parser::Expr &E = N.v.thing.thing.thing.value();
              auto Count =
                  E.typedExpr && E.typedExpr->v ? evaluate::ToInt64(*E.typedExpr->v) : std::nullopt;
              if (!Count)
                error("collapse needs a constant");
              Collapse = Count.value_or(1);
              return " collapse(" + std::to_string(Collapse) + ")";
            },
            [&](const parser::AccClause::Private &P) { return privateClause("private", P.v); },
            [&](const parser::AccClause::Firstprivate &P) {
              return privateClause("firstprivate", P.v);
            },
            [&](const parser::AccClause::Reduction &R) {
              const auto &Op = std::get<parser::AccReductionOperator>(R.v.t);
              const auto &List = std::get<parser::AccObjectList>(R.v.t);
              using O = parser::AccReductionOperator::Operator;
              // Logicals are 0 or 1: .neqv. is ^, and so is .eqv. (r .eqv. x is r ^ !x, so a
              // private copy from 0 updated by `r = (r == x)` holds the ^ of its !x, and
              // combined with the original value by ^ gives the chain of .eqv.).
              static const std::map<O, const char *> Ops = {
                  {O::Plus, "+"}, {O::Multiply, "*"}, {O::Max, "max"}, {O::Min, "min"},
                  {O::Iand, "&"}, {O::Ior, "|"},      {O::Ieor, "^"},  {O::And, "&&"},
                  {O::Or, "||"},  {O::Eqv, "^"},      {O::Neqv, "^"}};
              auto Found = Ops.find(Op.v);
              if (Found == Ops.end()) {
                error("this reduction operator is not translated");
                return std::string();
              }
              std::string Items;
              for (const parser::AccObject &O : List.v) {
                std::string Item = reductionItem(O);
                if (!Item.empty())
                  Items += (Items.empty() ? "" : ", ") + Item;
              }
              return std::string(" reduction(") + Found->second + ":" + Items + ")";
            },
            // Device addresses (acc_malloc's, through c_f_pointer): the kernel takes them as
            // they are, and the glue maps nothing for them.
            [&](const parser::AccClause::Deviceptr &D) {
              std::string Names;
              for (const parser::AccObject &O : D.v.v) {
                const auto *Designator = std::get_if<parser::Designator>(&O.u);
                const parser::Name *N = Designator ? variableName(*Designator) : nullptr;
                if (!N || !N->symbol || N->symbol->Rank() == 0) {
                  error("deviceptr names arrays (pointers acc_malloc's memory is associated "
                        "with) in Fortran");
                  continue;
                }
                Names += (Names.empty() ? "" : ", ") + variable(*N->symbol);
              }
              return Names.empty() ? std::string() : " deviceptr(" + Names + ")";
            },
            // The clauses after it apply to those device types: the kernel's pragma keeps the
            // groups as written, which the analysis resolves for each kind of device, as C's.
            [&](const parser::AccClause::DeviceType &T) {
              std::string Names;
              for (const parser::AccDeviceTypeExpr &E : T.v.v) {
                const auto &Name = std::get<std::optional<parser::ScalarIntExpr>>(E.t);
                Names += (Names.empty() ? "" : ", ") +
                         (Name ? Name->thing.thing.value().source.ToString() : std::string("*"));
              }
              return " device_type(" + Names + ")";
            },
            // Data, queue and condition clauses are the glue's; default(...) is what jacc does.
            [&](const parser::AccClause::Copy &) { return std::string(); },
            [&](const parser::AccClause::Copyin &) { return std::string(); },
            [&](const parser::AccClause::Copyout &) { return std::string(); },
            [&](const parser::AccClause::Create &) { return std::string(); },
            [&](const parser::AccClause::Present &) { return std::string(); },
            [&](const parser::AccClause::NoCreate &) { return std::string(); },
            [&](const parser::AccClause::Attach &) { return std::string(); },
            [&](const parser::AccClause::Default &) { return std::string(); },
            [&](const parser::AccClause::Async &) { return std::string(); },
            [&](const parser::AccClause::If &) { return std::string(); },
            [&](const parser::AccClause::Wait &) { return std::string(); },
            [&](const auto &) {
              error("this clause is not translated for Fortran yet");
              return std::string();
            }},
        C.u);
  }
  return Text;
}

} // namespace jacc::translate::fortran
