// The printer of one kernel or routine: Fortran statements and expressions, typed by flang's
// semantics, as the C of jacc's kernel language, recording the host variables they name. One
// class, its parts each in a file: the variables and the kernel's passes (FortranKernel.cpp),
// expressions (KernelExpressions.cpp), statements (KernelStatements.cpp), atomics
// (KernelAtomics.cpp), the clauses a kernel keeps (KernelClauses.cpp), routines
// (KernelRoutines.cpp).
#ifndef JACC_TRANSLATE_FORTRAN_KERNELWRITER_H
#define JACC_TRANSLATE_FORTRAN_KERNELWRITER_H

#include "translate/fortran/FortranKernel.h"
#include "translate/fortran/FortranRoutines.h"
#include "translate/fortran/ModuleRoutines.h"

#include <flang/Evaluate/expression.h>
#include <flang/Parser/parse-tree.h>
#include <flang/Semantics/symbol.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace jacc::translate::fortran {

namespace common = Fortran::common;
namespace evaluate = Fortran::evaluate;
namespace parser = Fortran::parser;
namespace semantics = Fortran::semantics;
using common::TypeCategory;
using evaluate::Expr;
using evaluate::SomeType;

/// The C type of Fortran's intrinsic type Category(Kind); empty if none.
std::string cTypeOf(TypeCategory Category, int Kind);
/// C text as an operand of any operator: a name or number as it is, else in parentheses
/// (unless one pair already holds it all).
std::string operand(const std::string &Text);

class KernelWriter {
public:
  KernelWriter(const FortranSource &Source) : Source(Source) {}

  FortranKernel Out;
  /// The indices of the loops around (each declared by its for), and the variables of private
  /// and reduction clauses.
  std::set<const semantics::Symbol *> Own, Private, Reductions;
  /// Scalars assigned inside a loop (private to it) and outside any or by an atomic construct
  /// (written through a pointer: the devices share them).
  std::set<const semantics::Symbol *> InLoop, OutsideLoops, Refs;
  /// Scalars assigned so far, and those read before any assignment (in the text's order).
  std::set<const semantics::Symbol *> Assigned, ReadFirst;
  bool Assigning = false; ///< printing an assignment's left side
  int LoopDepth = 0;
  /// An array of a private (First: firstprivate) clause, copied per loop body.
  struct Copy {
    const semantics::Symbol *Symbol;
    bool First;
  };
  /// The arrays of the private clauses read last (clauses()), and its collapse count.
  std::vector<Copy> ClauseCopies;
  int64_t Collapse = 1;
  /// Copies the next loop body declares, PendingLevels loops further in (a collapsed nest's
  /// innermost body); a parallel construct's, which each of its top-level loops declares.
  std::vector<Copy> Pending, ConstructCopies;
  int PendingLevels = 0;
  /// The private arrays whose copy the text being printed is inside.
  std::set<const semantics::Symbol *> InScope;
  /// Inside an array assignment: its rank, the number of its loop counters jacc_e1 ... (the
  /// first dimension's innermost); 0 elsewhere.
  int ElementalRank = 0;
  /// Inside a vector subscript of an array assignment: the counters its own sections start
  /// after (the vector takes the counter of its place in the designator it subscripts).
  int CounterBase = 0;
  /// The names of counters 1, 2, ... where they are not jacc_e1, jacc_e2, ...: inside an
  /// operand of matmul or transpose, whose dimensions take the result's counters in another
  /// order and a counter of their own.
  std::vector<std::string> Counters;
  /// Counter N's name (jacc_eN unless Counters renames it).
  std::string counter(int N) const;
  /// A top-level array assignment of this construct is a loop its devices share.
  bool SharesArrayAssignments = false;
  int Cases = 0; ///< SELECT CASE constructs printed (each selector's variable is numbered)
  /// What the statement being printed needs computed first: the loops of its array reductions
  /// (sum, maxval, ...; each into its variable jacc_r<n>) and the temporaries of expressions it
  /// passes by address (jacc_a<n>). The next line printed comes after them.
  std::vector<std::string> Hoisted;
  /// What the innermost loop of the array assignment (or array reduction) being printed
  /// computes before each element: the reductions along a dimension (dim) of its operands,
  /// one per element.
  std::vector<std::string> ElementLines;
  int Hoists = 0;          ///< variables Hoisted and ElementLines declare (each numbered)
  parser::CharBlock Where; ///< the statement being printed, for errors

  using Parameter = RoutineParameter;
  struct Signature {
    std::string CName;
    std::vector<Parameter> Parameters;
    /// The module and host variables it reads (its callees' too), passed after its arguments.
    std::vector<const semantics::Symbol *> Captures;
    /// The arrays among them it assigns elements of (its callees' too).
    std::set<const semantics::Symbol *> WrittenCaptures;
    bool Written = false; ///< false while its definition is being written (a recursion)
    /// Its arguments pass as declared (another file's routine): by address where a scalar's
    /// declaration says neither `value` nor `intent(in)`, whether or not it is assigned.
    bool AsDeclared = false;
  };
  /// The file's routines and those a kernel carries (shared with the writers of the routines
  /// it calls): their definitions, each after those it calls, and their signatures.
  struct CalledRoutines {
    CalledRoutines(const RoutineIndex &Index, ModuleRoutines &Modules)
        : Index(Index), Modules(Modules) {}
    const RoutineIndex &Index;
    ModuleRoutines &Modules; ///< the routines of other files' modules
    std::string Text;
    std::map<const Routine *, Signature> Signatures;
    /// The definitions in Text: (C name, text), each once.
    std::vector<std::pair<std::string, std::string>> Definitions;
    /// Adds a definition, unless Text holds it already.
    void define(const std::string &CName, const std::string &Definition);
  };
  CalledRoutines *Called = nullptr;
  /// Writing a routine: its arguments', locals' and result's C text (a scalar taken by address
  /// is `(*x)`), and the bounds of its arrays.
  bool InRoutine = false;
  std::map<const semantics::Symbol *, std::string> Named;
  std::map<const semantics::Symbol *, HostVariable> NamedArrays;
  std::string Result;
  std::vector<const semantics::Symbol *> Captures; ///< Signature::Captures, as found
  std::set<const semantics::Symbol *> WrittenCaptures; ///< Signature::WrittenCaptures, as found

  void error(const std::string &Message);

  /// A host variable's C name, recorded on first use.
  std::string variable(const semantics::Symbol &Symbol);
  /// Records the host variable V, the structs of its type defined before the kernel.
  void record(const HostVariable &V);

  /// Records the array S of a private (First: firstprivate) clause; false if S is a scalar.
  bool privateArray(const semantics::Symbol &Symbol, bool First);
  /// The copies Here (taken from Pending when the loop at this level declares them) opening a
  /// loop body at Indent.
  std::vector<Copy> openCopies(std::string &Text, const std::string &Indent, bool Innermost);
  void closeCopies(const std::vector<Copy> &Here);

  /// The host variable Symbol names, if recorded: a copy, as recording another (any printing of
  /// an expression may) moves the records.
  std::optional<HostVariable> find(const semantics::Symbol &Symbol);

  // ---- expressions ----
  template <typename A> std::string expr(const A &);
  template <typename T> std::string expr(const Expr<T> &E);
  template <typename T> std::string expr(const common::Indirection<T> &X);
  template <typename T> std::string expr(const evaluate::Parentheses<T> &X);
  template <typename T> std::string expr(const evaluate::Negate<T> &X);
  template <typename T> std::string expr(const evaluate::Add<T> &X);
  template <typename T> std::string expr(const evaluate::Subtract<T> &X);
  template <typename T> std::string expr(const evaluate::Multiply<T> &X);
  template <typename T> std::string expr(const evaluate::Divide<T> &X);
  template <typename X> std::string binary(const X &Op, const char *C);
  template <typename T> std::string expr(const evaluate::Power<T> &X);
  template <typename T> std::string expr(const evaluate::RealToIntPower<T> &X);
  /// B**E: products for a small constant N (as compilers expand them); for an integer B of
  /// kind Kind and any E, exact integer arithmetic (KernelIntrinsics.cpp).
  std::string integerPower(const std::string &B, const std::string &E, std::optional<int64_t> N,
                           int Kind);
  template <typename T> std::string expr(const evaluate::Extremum<T> &X);
  template <typename TO, TypeCategory FROM> std::string expr(const evaluate::Convert<TO, FROM> &X);
  template <int K> std::string expr(const evaluate::Not<K> &X);
  template <int K> std::string expr(const evaluate::LogicalOperation<K> &X);
  static std::string truth(const std::string &E) { return "(" + E + " != 0)"; }
  template <typename T> std::string expr(const evaluate::Relational<T> &X);
  std::string expr(const evaluate::Relational<SomeType> &X);
  /// size, lbound, ubound of an array whose bounds are known only as the program runs (an
  /// assumed-shape argument, an allocatable): its extent or lower bound as the kernel has it.
  std::string expr(const evaluate::DescriptorInquiry &X);
  /// Complex values are C's `_Complex` (host devices; CUDA's C++ has none): a part
  /// (`real(z)`, `aimag(z)`) as creal/cimag, `cmplx(x, y)` as x + y * I.
  template <int K> std::string expr(const evaluate::ComplexComponent<K> &X);
  template <int K> std::string expr(const evaluate::ComplexConstructor<K> &X);
  /// The kernel includes <complex.h> (I, creal, cexp, ...), before the definitions using it.
  void includeComplex();
  /// An intrinsic of complex arguments (abs, sqrt, exp, conjg, ...) as <complex.h>'s function
  /// of ArgKind; empty when it has none.
  std::string complexIntrinsic(const std::string &Name, const std::vector<std::string> &Args,
                               int ArgKind);
  template <typename T> std::string expr(const evaluate::Constant<T> &X);
  template <typename T> std::string expr(const evaluate::Designator<T> &X);
  std::string arrayElement(const evaluate::ArrayRef &A);
  /// A component path (`m%u`, `m%grid%n`) of a scalar variable whose type has no C struct, as
  /// the variable of its own the glue passes (recorded on first use; no name after an error);
  /// nullopt for a component of a struct.
  std::optional<HostVariable> passedComponent(const evaluate::Component &C);
  /// A component of a derived-type variable, its element or component: `base.name`.
  std::string component(const evaluate::Component &C);
  std::string dataRef(const evaluate::DataRef &R);
  /// One part of a designator or data reference: a name, an element, a component, a complex
  /// part (substrings and coarrays are errors).
  std::string part(const semantics::SymbolRef &S);
  std::string part(const evaluate::ArrayRef &A) { return arrayElement(A); }
  std::string part(const evaluate::Component &C) { return component(C); }
  std::string part(const evaluate::ComplexPart &P);
  template <typename A> std::string part(const A &);
  /// Name, the C text of V, at Subs (each dimension's offset from its lower bound, the first
  /// dimension's first). Column-major: the last selects the outermost C row; a flat array
  /// takes the one offset they make.
  static std::string indexed(std::string Name, const HostVariable &V,
                             const std::vector<std::string> &Subs);
  /// A whole array in an array assignment: its element at the assignment's counters.
  std::string wholeElement(const semantics::Symbol &S);
  /// The extents of an array assignment's left side, one per dimension of its rank (C text);
  /// empty when it is no array or section of a plain name.
  std::vector<std::string> assignedExtents(const evaluate::Expr<evaluate::SomeType> &Lhs);
  /// A subscript, without the conversion to a kind 8 integer Fortran's semantics adds (C
  /// converts the index itself).
  std::string subscript(const Expr<evaluate::SubscriptInteger> &E);

  template <typename T> std::string expr(const evaluate::FunctionRef<T> &X);
  /// An elemental intrinsic of result type (Category, Kind) over its arguments' C text (the
  /// first of kind ArgKind), as <math.h> calls and C operators (KernelIntrinsics.cpp); an error
  /// when it has none.
  std::string intrinsic(const std::string &Name, const std::vector<std::string> &Args,
                        TypeCategory Category, int Kind, int ArgKind);
  /// An array reduction (sum, product, maxval, minval, dot_product, count, any, all of whole
  /// arrays, sections and elemental expressions of them, with a mask): the variable a loop nest
  /// before the statement (an array assignment's loops too) computes (Hoisted); along the first
  /// or last dimension (dim) of an array, the variable the innermost loop of the array
  /// assignment of the result's rank computes for its element (ElementLines); nullopt when Name
  /// is none.
  std::optional<std::string> arrayReduction(const std::string &Name,
                                            const evaluate::ActualArguments &Args,
                                            TypeCategory Category, int Kind);
  /// matmul and transpose as the right side of an array assignment of their result's rank:
  /// transpose the element of its operand at the counters in the other order, matmul the
  /// variable the innermost loop computes for its element (ElementLines); nullopt when Name is
  /// neither.
  std::optional<std::string> matrixIntrinsic(const std::string &Name,
                                             const evaluate::ActualArguments &Args,
                                             TypeCategory Category, int Kind);
  /// An error when Hoisted holds loops the statement at hand cannot have before it (What:
  /// where its expression is), which it then drops.
  void noReductionIn(const char *What);

  std::string expr(const parser::Expr &E);

  // ---- statements ----
  void line(std::string &Text, const std::string &Indent, const std::string &Code);

  void block(std::string &Text, const parser::Block &Body, const std::string &Indent);

  void construct(std::string &Text, const parser::ExecutionPartConstruct &C,
                 const std::string &Indent);

  void action(std::string &Text, const parser::ActionStmt &A, const std::string &Indent);

  /// Records that the statement being printed assigns the scalar Symbol: private to the loop
  /// around it, or shared outside any; Surely: its value is not read first (an assignment, an
  /// intent(out) argument).
  void assigns(const semantics::Symbol &Symbol, bool Surely);
  void assignment(std::string &Text, const parser::AssignmentStmt &S, const std::string &I);

  /// `a(l:u, j) = e`: a nest of loops over the left side's elements, the first dimension's
  /// innermost, each array of e indexed alike; at a construct's top level a loop its devices
  /// share (`loop independent`, as compilers parallelise array syntax in kernels).
  void arrayAssignment(std::string &Text, const evaluate::Assignment &A, const std::string &I);

  /// SELECT CASE as an if chain on the selector's value, evaluated once (`jacc_caseN`): each
  /// CASE's values and ranges (`lo:`, `:hi`, `lo:hi`), then CASE DEFAULT.
  void caseConstruct(std::string &Text, const parser::CaseConstruct &C, const std::string &I);

  /// A BLOCK construct without declarations: its statements, in place (a parallel construct's
  /// loops inside it stay top-level loops).
  void blockConstruct(std::string &Text, const parser::BlockConstruct &B, const std::string &I);

  void ifConstruct(std::string &Text, const parser::IfConstruct &If, const std::string &I);

  /// A DO loop as a for loop whose index it declares (Pragma, if any, on the line before), with
  /// the flags of the named CYCLE and EXIT statements that leave it from loops inside
  /// (KernelLoopExits.cpp).
  void doLoop(std::string &Text, const parser::DoConstruct &Do, const std::string &Pragma,
              const std::string &I);
  /// The loop itself: DO with bounds, DO WHILE, DO without control (`for (;;)`), DO CONCURRENT.
  void loopText(std::string &Text, const parser::DoConstruct &Do, const std::string &Pragma,
                const std::string &I);
  /// A DO loop's statements (every form's), where the flags of statements leaving it go.
  void loopBody(std::string &Text, const parser::DoConstruct &Do, const std::string &Indent);
  /// CYCLE or EXIT (Cycle false) of the DO loop Name (none: the innermost): `continue` or
  /// `break` for the innermost loop; for one further out, its flag set and a break, which each
  /// loop in between passes on as it ends (doLoop).
  void leaveLoop(std::string &Text, const std::optional<parser::Name> &Name, bool Cycle,
                 const std::string &I);
  /// The DO loops the statement being printed is in, innermost last: their construct names,
  /// where their statements start in the text (and at which indentation), whether a statement
  /// inside leaves them by a flag, and the flags of loops further out that statements inside
  /// them raised (an index into OpenLoops, and whether it is a CYCLE's).
  struct OpenLoop {
    std::string Name;
    size_t Body = 0;
    std::string BodyIndent;
    bool Exit = false, Cycle = false;
    std::set<std::pair<size_t, bool>> Raised;
  };
  std::vector<OpenLoop> OpenLoops;

  /// DO CONCURRENT (i = l:u[:s], j = ...[, mask]): its iterations are independent, a nest of
  /// for loops collapsed under one loop pragma (Pragma's, or `loop independent`), the mask an if
  /// around the body.
  void doConcurrent(std::string &Text, const parser::DoConstruct &Do,
                    const parser::LoopControl::Concurrent &C, const std::string &Pragma,
                    const std::string &I);

  /// A loop directive inside a block construct: its pragma over the DO loop.
  void accLoop(std::string &Text, const parser::OpenACCConstruct &Acc, const std::string &I);

  // ---- atomics ----
  /// An atomic construct as C's: its statements in the forms C's atomics take.
  void atomic(std::string &Text, const parser::OpenACCAtomicConstruct &A, const std::string &I);
  template <typename T> static const parser::AssignmentStmt &statementOf(const T &X);
  /// Whether S is `v = x` (a capture's read), not an update of x.
  static bool isCopy(const parser::AssignmentStmt &S);
  /// `x = x op e` (or `e op x`, or an intrinsic iand/ior/ieor of x) as C's `x = x op (e)`;
  /// a plain assignment when Update is false.
  std::string atomicStatement(const parser::AssignmentStmt &S, bool Update, bool Written = false);
  /// Operand as 0 or 1: its truth (Cmp "!=") or its negation ("==").
  static bool truthOf(std::string &Operand, const char *Cmp);
  /// The operator of Rhs (as written: the parse tree keeps its operands apart) and its operand
  /// that is not X (XText); false if neither is X.
  bool atomicOperands(const parser::Expr &Rhs, const std::string &XText, std::string &Other,
                      std::string &Op, bool &XFirst);

  // ---- clauses ----
  /// A clause's variable as the pragma names it; empty (an error) for anything else.
  std::string objectName(const parser::AccObject &O);
  std::string names(const parser::AccObjectList &List);
  /// Records a clause's variable (the kernel receives it) as a private or reduction one.
  void ownObject(const parser::AccObject &O, bool Reduction);
  void own(const parser::AccObjectList &List, bool Reduction);
  std::string scalar(const parser::ScalarIntExpr &E) { return expr(E.thing.thing.value()); }
  std::string optionalScalar(const char *Name, const std::optional<parser::ScalarIntExpr> &E);

  /// A reduction clause's variable, or an element of a one-dimensional array (`a(k)`, k a value
  /// the kernel does not change), as the kernel's pragma names it; recorded as a reduction variable
  /// (the glue brings the host's value of a mapped one around the push).
  std::string reductionItem(const parser::AccObject &O);

  /// A private or firstprivate clause: its scalars stay in the pragma; its arrays (named whole
  /// or by a section: each copy has the array's shape) are copied per loop body.
  std::string privateClause(const char *Name, const parser::AccObjectList &List);

  /// The clauses a kernel's pragma keeps, as its text (each after a space).
  std::string clauses(const parser::AccClauseList &List);

  // ---- routines ----
  /// A call of a routine of the file: the kernel carries its definition; the arguments are
  /// passed as the routine takes them.
  std::string call(const evaluate::ProcedureRef &Ref);
  /// A call of a routine of another file's module (ModuleRoutines.h): its definitions carried
  /// as the module's translation wrote them; null Sig when the module has no such routine.
  std::optional<Signature> imported(const semantics::Symbol &Callee, const std::string &Name);
  /// A call of an external procedure another file defines under a routine directive: passed
  /// as the interface the caller declares says (the definition's file registers the same form,
  /// externalRoutines), the kernel linking its text when it first runs; nullopt when Callee is
  /// no such procedure.
  std::optional<Signature> external(const semantics::Symbol &Callee,
                                    const evaluate::ProcedureRef &Ref, const std::string &Name);
  /// The call of a routine of signature Sig: its arguments, then the variables it captures.
  std::string callWith(const Signature &Sig, const evaluate::ProcedureRef &Ref,
                       const std::string &Name);
  std::string argument(const Expr<SomeType> &E, const Parameter &P, const Signature &Sig,
                       const std::string &Callee, size_t Position);
  /// An array, or a section of one its elements fill without gaps (whole columns, then one
  /// range, then single indices: a(:, j), a(l:u, j), a(:, l:u)): the address of its first
  /// element and its extents (assignedExtents').
  struct ContiguousPart {
    std::string First;
    std::vector<std::string> Extents;
  };
  std::optional<ContiguousPart> contiguousPart(const Expr<SomeType> &E);

  /// R's signature, its definition written into the kernel's text first (after the routines
  /// it calls); null after an error. Written twice when it assigns a scalar argument whose
  /// intent it does not state: then that argument is taken by address.
  /// How a routine's scalar arguments pass: in its own file's kernels by value unless it
  /// assigns them (Analysed); for other files' kernels as declared, by value when `value` or
  /// `intent(in)` (Declared: what a caller's interface tells), or all by address (ByAddress:
  /// what a caller without an interface does, as Fortran passes them).
  enum class Passing { Analysed, Declared, ByAddress };
  const Signature *routine(const Routine &R, Passing How = Passing::Analysed);
  /// How the routine being written takes its scalar arguments (routine's How).
  Passing RoutinePassing = Passing::Analysed;

  /// R as a C function of the kernel language; Assigns: the scalar arguments it assigns.
  std::string writeRoutine(const Routine &R, const std::set<const semantics::Symbol *> &Assigns,
                           Signature &Sig);
  /// An array argument or local of a routine: its bounds as C text of the routine's arguments
  /// (ShapedPrefix: an assumed-shape array's extents are arguments of that prefix).
  HostVariable routineArray(const semantics::Symbol &S, const std::string &CType,
                            const std::string &ShapedPrefix);
  /// A bound of a routine's array in C: a number, a name, or an expression in parentheses (an
  /// index minus it stays right).
  std::string bound(const Expr<evaluate::SubscriptInteger> &E);
  /// A variable of the routine's module or host (not an argument or local) the routine uses:
  /// parameters after its arguments, given by each call (a scalar's value, which it may only
  /// read; an array's first element, then each dimension's lower bound and extent).
  std::string capture(const semantics::Symbol &S);
  /// The parameters of routine capture S, as its definition declares them.
  std::string captureParameters(const semantics::Symbol &S);
  /// The values a call passes for capture S, as the caller names the variable.
  std::string capturedValues(const semantics::Symbol &S);
  /// The C type of a routine's argument, result or local (What), which must have one.
  std::string routineType(const semantics::Symbol &S, const char *What);
  /// A local variable of a routine, declared in its prologue (arguments, its result and named
  /// constants are not).
  void local(const semantics::Symbol &Symbol, std::vector<std::string> &Prologue);

private:
  const FortranSource &Source;
};

} // namespace jacc::translate::fortran

#endif
