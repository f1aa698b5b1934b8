// The region IR: the body of the innermost parallel loop nest (one iteration of it) as a CFG of
// blocks holding the statements that matter to data ranges: array writes, scalar definitions,
// and the uses that are never filtered (branch conditions, loop bounds, array indices, calls).
#ifndef JACC_ANALYSIS_REGIONIR_H
#define JACC_ANALYSIS_REGIONIR_H

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace jacc::analysis {

/// How an integer expression varies with each variable it reads, for memory-access patterns:
/// it is Coef[v] * v + (terms without v) for each v of Coef, even when those other terms are
/// not affine (`i * n + j` has Coef {j: 1}); it reads the variables of Nonlinear otherwise.
struct LinearForm {
  std::map<std::string, long long> Coef;
  std::set<std::string> Nonlinear;
  bool ReadsMemory = false; ///< reads an array element (idx[i]): varies in no known way
};

/// An integer polynomial over scalar variables: each monomial (its variables sorted, one entry per
/// factor) with its coefficient, the empty monomial the constant. `(i - 1) * n + j` is
/// {[i, n]: 1, [n]: -1, [j]: 1}: an index linearized with run-time strides.
using Monomial = std::vector<std::string>;
using Polynomial = std::map<Monomial, long long>;

/// An index expression: an affine form over scalar variables when it is one, and its text.
struct IndexExpr {
  std::string Text;
  bool Affine = false;
  std::map<std::string, long long> Coeffs; ///< variable -> coefficient (affine only)
  long long Const = 0;                     ///< constant term (affine only)
  std::set<std::string> Vars;              ///< every scalar variable the expression reads
  bool ReadsMemory = false;                ///< e.g. idx[i]: never provably equal to another
  LinearForm Linear;                       ///< how it varies with each variable (AccessTraits)
  /// The expression as a polynomial over integer variables (sums and products of them and of
  /// constants), when it is one; an affine expression's too.
  bool IsPolynomial = false;
  Polynomial Poly;
  unsigned Begin = 0, End = 0;             ///< source range (kernel offsets)
};

/// An element access A[e0][e1]... of an array reached through a kernel argument (Arg >= 0) or a
/// local array (Arg < 0, Name only).
struct ArrayAccess {
  std::string Name;
  int Arg = -1;
  std::vector<IndexExpr> Index; ///< one per dimension, outermost first
  /// Through a pointer the kernel reads from memory (`a[x][y]` of `double **a`): where it lands
  /// is not known, so the access is not attributed to the argument.
  bool ThroughLoadedPointer = false;

  /// The access as written ("a[i - 1][j]").
  std::string text() const {
    std::string S = Name;
    for (const IndexExpr &X : Index)
      S += "[" + X.Text + "]";
    return S;
  }
};

struct IRStmt {
  enum class Kind {
    ArrayWrite, ///< Write = value; reads Reads and Uses
    ScalarDef,  ///< Var = value (declaration, assignment, ++/--, compound assignment)
    Phi,        ///< SSA join of Var (added by the SSA pass)
    Control,    ///< a branch condition or loop bound: never filtered
    Call        ///< a call that may write memory the analysis cannot attribute
  };
  Kind K = Kind::Control;
  unsigned Id = 0;
  unsigned Block = 0;
  ArrayAccess Write;               ///< ArrayWrite
  bool Atomic = false;             ///< ArrayWrite under #pragma acc atomic
  std::string Var;                 ///< ScalarDef / Phi
  bool Reduction = false;          ///< ScalarDef of a reduction variable
  bool DeclaresVar = false;        ///< ScalarDef that is a declaration with initialiser
  std::vector<ArrayAccess> Reads;  ///< array elements read by the value (not by indices)
  std::vector<ArrayAccess> IndexReads; ///< array elements read inside index expressions
  std::set<std::string> Uses;      ///< scalar variables read by the value
  std::set<std::string> IndexUses; ///< scalar variables read by index expressions
  unsigned Flops = 0;              ///< floating-point operations of the value (AccessTraits)
  LinearForm ValueLinear;          ///< ScalarDef of an integer (not compound): its value
  /// ScalarDef of an integer (not compound): its value as an index (i3 = 2 * j3 - d3), which
  /// the indices that read the variable may stand for (analysis/IndexLocals.h).
  std::optional<IndexExpr> IntValue;
  /// Rewriting: the whole write expression (ArrayWrite), or the value expression (ScalarDef).
  unsigned Begin = 0, End = 0;
  unsigned WholeBegin = 0, WholeEnd = 0; ///< ScalarDef by assignment: the whole expression
  bool Compound = false;           ///< x op= value / x++ (the value is not the whole right side)
  bool Conditional = false;        ///< inside ?:, && or ||: may not execute (never kills)
  bool ValueDiscarded = false;     ///< the expression statement itself: nobody uses its value
  unsigned Line = 0;
  /// Filled by the SSA pass: the SSA version of each variable read (Uses and IndexUses, and
  /// the variables of the write's indices) as it reaches this statement; Phi: operand versions.
  std::map<std::string, unsigned> VersionIn;
  unsigned DefVersion = 0;         ///< ScalarDef / Phi: the version it defines
  std::vector<unsigned> PhiOperands;
};

/// A sequential loop inside the region whose variable moves by one from its initial value to
/// its bound (`for (k = i - 1; k <= i + 1; k++)`, or downwards), the body never assigning it:
/// the body sees Var in [Min, Max] (empty when Min > Max).
struct InnerLoop {
  std::string Var;
  IndexExpr Min, Max; ///< the bounds as index expressions (Const adjusted for < and >)
  /// The statements of its condition, body and increment (the initialisation is before them).
  unsigned FirstStmt = 0, EndStmt = 0;
  unsigned Line = 0;
};

struct IRBlock {
  std::vector<unsigned> Stmts; ///< in execution order
  std::vector<unsigned> Succs, Preds;
};

struct RegionIR {
  std::vector<IRBlock> Blocks;
  std::vector<IRStmt> Stmts;
  unsigned Entry = 0, Exit = 0;
  std::vector<std::string> ParallelVars; ///< outermost first (collapse)
  std::vector<InnerLoop> InnerLoops;     ///< the unit-step sequential loops, outermost first
  /// The unit-step loops that collapse into the split one (their iterations run whole for each
  /// of its iterations), as inner loops spanning every statement.
  std::vector<InnerLoop> CollapsedLoops;
  /// Scalars visible at the region's entry (args, region-level locals, loop variables).
  std::set<std::string> EntryVars;
  /// Why the region cannot be split (writes the analysis cannot attribute), empty if it can.
  std::string Unattributable;

  /// Whether Var keeps its entry value: no statement of the region defines it.
  bool invariant(const std::string &Var) const {
    for (const IRStmt &S : Stmts)
      if ((S.K == IRStmt::Kind::ScalarDef || S.K == IRStmt::Kind::Phi) && S.Var == Var)
        return false;
    return true;
  }

  /// The loop of CollapsedLoops over Var, or null.
  const InnerLoop *collapsedLoop(const std::string &Var) const {
    for (const InnerLoop &L : CollapsedLoops)
      if (L.Var == Var)
        return &L;
    return nullptr;
  }

  /// The innermost loop of InnerLoops over Var whose statements include Stmt, or null.
  const InnerLoop *innerLoopOf(const std::string &Var, unsigned Stmt) const {
    const InnerLoop *Best = nullptr;
    for (const InnerLoop &L : InnerLoops)
      if (L.Var == Var && L.FirstStmt <= Stmt && Stmt < L.EndStmt &&
          (!Best || L.EndStmt - L.FirstStmt < Best->EndStmt - Best->FirstStmt))
        Best = &L;
    return Best;
  }

  unsigned addBlock() {
    Blocks.emplace_back();
    return Blocks.size() - 1;
  }
  void addEdge(unsigned From, unsigned To) {
    Blocks[From].Succs.push_back(To);
    Blocks[To].Preds.push_back(From);
  }
  unsigned addStmt(IRStmt S, unsigned Block) {
    S.Id = Stmts.size();
    S.Block = Block;
    Stmts.push_back(std::move(S));
    Blocks[Block].Stmts.push_back(Stmts.size() - 1);
    return Stmts.size() - 1;
  }
};

} // namespace jacc::analysis

#endif
