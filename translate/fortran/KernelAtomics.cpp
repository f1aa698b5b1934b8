// Fortran atomic constructs as C's: read, write, update and capture in the forms C's atomics
// take, logicals as bits, max/min as conditionals.
#include "translate/fortran/KernelWriter.h"

#include <flang/Evaluate/tools.h>

namespace jacc::translate::fortran {

void KernelWriter::atomic(std::string &Text, const parser::OpenACCAtomicConstruct &A,
                          const std::string &I) {
  Where = A.source;
  std::visit(common::visitors{[&](const parser::AccAtomicRead &R) {
                                line(Text, I, "#pragma acc atomic read");
                                line(Text, I, atomicStatement(statementOf(R), false));
                              },
                              [&](const parser::AccAtomicWrite &W) {
                                line(Text, I, "#pragma acc atomic write");
                                line(Text, I, atomicStatement(statementOf(W), false));
                              },
                              [&](const parser::AccAtomicUpdate &U) {
                                line(Text, I, "#pragma acc atomic update");
                                line(Text, I, atomicStatement(statementOf(U), true));
                              },
                              [&](const parser::AccAtomicCapture &C) {
                                const auto &First =
                                    std::get<parser::AccAtomicCapture::Stmt1>(C.t).v.statement;
                                const auto &Second =
                                    std::get<parser::AccAtomicCapture::Stmt2>(C.t).v.statement;
                                line(Text, I, "#pragma acc atomic capture");
                                line(Text, I,
                                     "{ " + atomicStatement(First, !isCopy(First)) + " " +
                                         atomicStatement(Second, !isCopy(Second)) + " }");
                              }},
             A.u);
}

template <typename T> const parser::AssignmentStmt &KernelWriter::statementOf(const T &X) {
  return std::get<parser::Statement<parser::AssignmentStmt>>(X.t).statement;
}

bool KernelWriter::isCopy(const parser::AssignmentStmt &S) {
  return S.typedAssignment && S.typedAssignment->v &&
         evaluate::ExtractDataRef(S.typedAssignment->v->rhs).has_value();
}

std::string KernelWriter::atomicStatement(const parser::AssignmentStmt &S, bool Update,
                                          bool Written) {
  if (!S.typedAssignment || !S.typedAssignment->v) {
    error("an atomic statement flang could not type");
    return ";";
  }
  const evaluate::Assignment &A = *S.typedAssignment->v;
  // The atomic's variable x (assigned by an update or a write, read by `v = x`) is shared by
  // the devices' threads: a scalar is written through its pointer, whatever loop it is in.
  bool Read = !Update && isCopy(S) && !Written;
  if (const semantics::Symbol *X = evaluate::UnwrapWholeSymbolDataRef(Read ? A.rhs : A.lhs))
    OutsideLoops.insert(&X->GetUltimate());
  std::string X = expr(A.lhs);
  if (!Update)
    return X + " = " + expr(A.rhs) + ";";
  std::string Other, Op;
  bool XFirst = true;
  if (!atomicOperands(std::get<parser::Expr>(S.t), X, Other, Op, XFirst)) {
    error("this atomic update is not in a form jacc's atomics take (x = x op expr, x = "
          "expr op x, x = intrinsic(x, expr-list) with max, min, iand, ior or ieor)");
    return ";";
  }
  if (Op == "max" || Op == "min") // C's form of an extremum update: x = x > e ? x : e
    return X + " = " + X + (Op == "max" ? " > (" : " < (") + Other + ") ? " + X + " : (" + Other +
           ");";
  return X + " = " +
         (XFirst ? X + " " + Op + " (" + Other + ")" : "(" + Other + ") " + Op + " " + X) + ";";
}

bool KernelWriter::truthOf(std::string &Operand, const char *Cmp) {
  Operand = "(" + Operand + ") " + Cmp + " 0";
  return true;
}

bool KernelWriter::atomicOperands(const parser::Expr &Rhs, const std::string &XText,
                                  std::string &Other, std::string &Op, bool &XFirst) {
  auto Pair = [&](const char *O, const parser::Expr &L, const parser::Expr &R) {
    std::string LT = expr(L), RT = expr(R);
    if (LT != XText && RT != XText)
      return false;
    Op = O;
    XFirst = LT == XText;
    Other = XFirst ? RT : LT;
    return true;
  };
  auto Binary = [&](const char *O, const auto &B) {
    return Pair(O, std::get<0>(B.t).value(), std::get<1>(B.t).value());
  };
  return std::visit(
      common::visitors{
          [&](const parser::Expr::Add &B) { return Binary("+", B); },
          [&](const parser::Expr::Subtract &B) { return Binary("-", B); },
          [&](const parser::Expr::Multiply &B) { return Binary("*", B); },
          [&](const parser::Expr::Divide &B) { return Binary("/", B); },
          // Logicals are 0 or 1: bitwise operators on the operand's truth are C's atomics.
          [&](const parser::Expr::AND &B) { return Binary("&", B) && truthOf(Other, "!="); },
          [&](const parser::Expr::OR &B) { return Binary("|", B) && truthOf(Other, "!="); },
          [&](const parser::Expr::NEQV &B) { return Binary("^", B) && truthOf(Other, "!="); },
          [&](const parser::Expr::EQV &B) { return Binary("^", B) && truthOf(Other, "=="); },
          [&](const parser::Expr::Parentheses &P) {
            return atomicOperands(P.v.value(), XText, Other, Op, XFirst);
          },
          [&](const common::Indirection<parser::FunctionReference> &F) {
            const parser::Call &Call = F.value().v;
            const auto *Name =
                std::get_if<parser::Name>(&std::get<parser::ProcedureDesignator>(Call.t).u);
            const auto &Args = std::get<std::list<parser::ActualArgSpec>>(Call.t);
            static const std::map<std::string, const char *> Ops = {
                {"iand", "&"}, {"ior", "|"}, {"ieor", "^"}, {"max", "max"}, {"min", "min"}};
            auto Found = Name ? Ops.find(Name->ToString()) : Ops.end();
            if (Found == Ops.end() || Args.size() < 2)
              return false;
            std::vector<const parser::Expr *> Operands;
            for (const parser::ActualArgSpec &Arg : Args) {
              const auto *E = std::get_if<common::Indirection<parser::Expr>>(
                  &std::get<parser::ActualArg>(Arg.t).u);
              if (!E || std::get<std::optional<parser::Keyword>>(Arg.t))
                return false;
              Operands.push_back(&E->value());
            }
            if (Operands.size() == 2)
              return Pair(Found->second, *Operands.front(), *Operands.back());
            // max(a, x, b) updates x with max(a, b): x is any one of the arguments.
            if (Found->second != std::string("max") && Found->second != std::string("min"))
              return false;
            std::vector<std::string> Rest;
            for (const parser::Expr *E : Operands)
              if (std::string T = expr(*E); T != XText)
                Rest.push_back(T);
            if (Rest.size() != Operands.size() - 1)
              return false;
            Op = Found->second;
            XFirst = true;
            Other = Rest[0];
            for (size_t I = 1; I < Rest.size(); ++I)
              Other = "(" + Other + (Op == "max" ? " > " : " < ") + Rest[I] + " ? " + Other +
                      " : " + Rest[I] + ")";
            return true;
          },
          [&](const auto &) { return false; }},
      Rhs.u);
}

} // namespace jacc::translate::fortran
