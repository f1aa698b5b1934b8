// What the frontend learns about a kernel: its arguments, its compute construct and the parallel
// loop nests inside it. Plain data, no clang type: it outlives the AST and feeds code generation.
#ifndef JACC_ANALYSIS_KERNEL_H
#define JACC_ANALYSIS_KERNEL_H

#include "analysis/AccessTraits.h"
#include "analysis/Directive.h"
#include "analysis/KernelName.h"
#include "analysis/Predicates.h"
#include "analysis/ReadExtents.h"
#include "analysis/RegionIR.h"
#include "analysis/Rewrite.h"
#include "analysis/SplitPlan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jacc::analysis {

/// The C scalar types a kernel argument or reduction may have: C's arithmetic types (C32, C64,
/// C80: float, double and long double _Complex).
enum class ScalarType { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F32, F64, F80, C32, C64, C80 };

const char *scalarTypeName(ScalarType T);
bool isIntegral(ScalarType T);
bool isComplex(ScalarType T);
/// The 8-byte words one value of T takes in a reduction buffer (2 for long double, which x86
/// stores in 16 bytes; 4 for long double _Complex).
unsigned reductionWords(ScalarType T);

struct ArgInfo {
  enum class Kind {
    Scalar,   ///< passed by value (C arithmetic, enum)
    Pointer,  ///< a pointer into mapped data, translated to each device's copy
    Aggregate ///< a struct/union by value: passed by address, copied on entry
  };
  std::string Name;
  std::string Decl;       ///< as given by the user
  unsigned Position = 0;  ///< index in the user's args
  unsigned Param = 0;     ///< index in the generated entry's parameter list
  Kind ArgKind = Kind::Scalar;
  ScalarType Scalar = ScalarType::I32; ///< for Scalar
  uint64_t Size = 0;      ///< bytes of the value (8 for a pointer)
  uint64_t Align = 1;
  uint64_t PointeeSize = 1; ///< pointer: sizeof(*p) (a row for double (*)[M]); 1 if unknown
  bool PointeeKnown = false; ///< pointer: PointeeSize is a compile-time constant
  /// deviceptr clause: the program's device memory, translated only when it has copies on
  /// several devices (acc_malloc memory)
  bool Deviceptr = false;
  /// A pointer whose pointee, or an aggregate that, holds pointers (`double **rows`, a struct
  /// with a pointer member): the kernel reaches memory through them that no argument names.
  bool HoldsPointers = false;
  /// Aggregate: the byte offsets of the pointers it holds (its members', its nested structs'
  /// and arrays' elements'; not inside unions). A launch given the struct while it is not
  /// present translates each that points into mapped data to the device's copy.
  std::vector<uint64_t> PointerOffsets;
  /// Scalar: the kernel may read the value pushed. False when it assigns the variable before
  /// every read (a variable of the program first assigned inside the construct: its value at
  /// the push is garbage, so specialization must not fold it). See EntryValues.h.
  bool ValueRead = true;
  /// Pointer to a variable-length array (`double (*a)[m]`), which CUDA C++ cannot declare: the
  /// dimensions of the pointee (outermost first, as C text: "m", "4") and its element type
  /// ("double", "const float"). The CUDA entry declares `ElemType *Name` (see FlatVla.h).
  bool Vla = false;
  std::vector<std::string> Dims;
  std::string ElemType;
};

/// One loop of a parallel nest in canonical form: for (Var = Lower; Var Cmp Upper; Var += Step).
struct CanonicalLoop {
  std::string Var;          ///< loop variable
  std::string VarType;      ///< its C type
  std::string Lower, Upper; ///< source text of the bounds
  std::string Step;         ///< source text of the step magnitude (positive)
  enum class Cmp { LT, LE, GT, GE, NE } Compare = Cmp::LT;
  bool Increasing = true;   ///< false for i-- / i -= s
  unsigned ForBegin = 0;    ///< offset of "for" in the kernel source
  unsigned BodyBegin = 0;   ///< offset of the body statement
  unsigned BodyEnd = 0;     ///< offset one past the body statement
  unsigned Line = 0;
};

struct ReductionVar {
  std::string Name;
  ReductionOp Op = ReductionOp::Add;
  ScalarType Type = ScalarType::I32;
  unsigned Arg = 0;  ///< index into KernelInfo::Args
  unsigned Slot = 0; ///< first 8-byte slot in each thread's reduction buffer
  /// An array reduction (a section `c[lo:len]`, an element `c[i]`, or a whole array the translator
  /// names as `c[0:N]`) of a pointer argument: its element count (0 for a scalar) and the C text
  /// of its first element's index. The kernel reduces into a private array of Count elements,
  /// words() slots each, and reports the index it evaluated in slot Slot + Count * words().
  unsigned Count = 0;
  std::string Lower;
  bool isArray() const { return Count != 0; }
  /// The slots one value takes.
  unsigned words() const { return reductionWords(Type); }
  /// The slots the reduction takes in each thread's buffer.
  unsigned slots() const { return Count ? Count * words() + 1 : words(); }
};

/// The largest element count of one array reduction: each thread keeps a private copy.
constexpr unsigned MaxReductionElements = 1024;

/// Two loops of a nest's body that a CPU thread runs swapped (analysis/Interchange.h): Outer,
/// whose iterations are independent and whose body is the loop Inner alone.
struct LoopInterchange {
  CanonicalLoop Outer, Inner;
};

/// A gang-level loop nest whose iterations are shared among the threads (collapse flattened).
struct ParallelNest {
  Directive Dir;                     ///< the loop (or combined) directive
  std::vector<CanonicalLoop> Loops;  ///< outermost first; size() == collapse depth
  std::vector<std::string> PrivateDecls; ///< "double t" for each private variable, declared per
                                         ///< iteration
  RegionIR Body;                     ///< one iteration of the innermost body (LowerRegion.h)
  /// innermostLoopOnlyGathers (AccessTraits.h): the host code keeps the innermost loop scalar.
  bool OnlyGathers = false;
  /// indexedThroughMemory (AccessTraits.h): a variant whose pointers are disjoint declares them
  /// restrict, without which LLVM keeps the loop scalar and reloads values after each store.
  bool IndexedThroughMemory = false;
  /// accumulatesFloats (Accumulations.h): the host code does not fuse its multiply-adds.
  bool AccumulatesFloats = false;
  /// sumsAlongInnerLoop (Accumulations.h): with its pointers declared restrict, the host code
  /// jams several iterations of the innermost parallel loop into one pass of the inner loop.
  bool SumsAlongInnerLoop = false;
  /// Loops nested perfectly inside Loops, outermost first, whose iterations are independent
  /// (analysis/InnerParallel.h): a GPU shares them among its threads as if collapsed, so that
  /// neighbouring threads touch neighbouring elements. Each level holds only when the ones
  /// before it are shared too.
  std::vector<CanonicalLoop> InnerParallel;
  /// From this level of InnerParallel on, the independence is proven only for pointer arguments
  /// that do not overlap (a variant whose pointers are restrict); before it, a loop directive
  /// asserts it or the loop touches one array. InnerParallel.size() when none.
  unsigned InnerNeedsDisjointFrom = 0;
  /// Loops of the body a CPU thread runs inside the loop each holds, because the accesses move
  /// along them contiguously (analysis/Interchange.h); none inside another.
  std::vector<LoopInterchange> Interchanges;
};

/// How one top-level statement of the construct executes on a device's team.
struct RegionStmt {
  enum class Mode {
    Shared,    ///< a ParallelNest: iterations divided among the team, then a barrier
    Redundant, ///< no memory write: every thread executes it (scalars stay per-thread)
    Master     ///< writes memory: thread 0 executes it, then a barrier
  };
  Mode ExecMode = Mode::Redundant;
  unsigned Begin = 0, End = 0; ///< source range in the kernel source
  int Nest = -1;               ///< index into KernelInfo::Nests for Shared
};

/// The axis a split cuts an array argument along: the dimension of its accesses (Rank
/// subscripts) that the split loop's iterator indexes, for an array the nest writes, or reads
/// in a bounded range along it.
struct SplitAxis {
  unsigned Arg = 0; ///< index in KernelInfo::Args
  unsigned Dim = 0;
  unsigned Rank = 1;
  bool operator==(const SplitAxis &O) const {
    return Arg == O.Arg && Dim == O.Dim && Rank == O.Rank;
  }
};

/// What splitting the kernel across devices needs (the multi-device issue): the region IR of its
/// single parallel nest, the plan, the predicates and the guards that rewrite the source.
struct SplitInfo {
  bool Enabled = false;        ///< a split variant of the kernel exists
  std::string Fallback;        ///< why not, when !Enabled
  RegionIR IR;
  SplitPlan Plan;
  /// What each device reads of each pointer argument: the runtime fetches it before a
  /// split launch, from the entry's read probe (jit/ReadProbe.h).
  std::vector<ReadExtent> Reads;
  /// The probe is exact: the iterations and extents depend on scalars only (boundsReadNoArray).
  bool ProbeExact = false;
  std::vector<Predicate> Preds; ///< by IRStmt::Id
  Insertions Guards;           ///< predicate insertions into the kernel source
  std::string Rewritten;       ///< the kernel source with the guards (JACC_DEBUG=rewrite)
  /// The source of the kernel's split twin (analysis/SplitTwin.h); "" when it has none.
  std::string Twin;
  /// The twin's split axes (splitAxes of its analysis), when it has one.
  std::vector<SplitAxis> TwinAxes;
};

/// A range [Begin, End) of the kernel source.
struct SourceSpan {
  unsigned Begin = 0, End = 0;
};

/// An `#pragma acc atomic` statement (OpenACC 3.3 §2.12: one expression statement, or for capture
/// a structured block of two) by its form and the source ranges of its parts, checked by the
/// frontend (AtomicForm.h). The jit writes the atomic
/// operation that replaces it for each target (jit/host/HostAtomics.h, jit/cuda/CudaAtomics.h).
struct AtomicOp {
  enum class Form {
    Update,  ///< x changes (How)
    Read,    ///< v = x
    Write,   ///< x = Operand
    Capture  ///< v = <an update of x>
  };
  /// How an update, alone or captured, makes x's new value from its old one.
  enum class Change {
    Increment, ///< ++x, x++
    Decrement, ///< --x, x--
    Operator,  ///< x op= expr, x = x op expr, x = expr op x
    Replace    ///< x = Operand: the write of a structured capture `{v = x; x = expr;}`
  };
  Form Kind = Form::Update;
  unsigned Begin = 0, End = 0; ///< the statement's expression (or block), which it replaces
  /// A structured capture: [Begin, End) is the block `{...}`, which becomes `{ <operation>; }`.
  bool Block = false;
  SourceSpan X;                ///< the location accessed atomically
  SourceSpan V;                ///< Read, Capture: what receives x's value
  SourceSpan Operand;          ///< Write, Change::Replace: the value stored; Operator: expr
  Change How = Change::Increment; ///< Update, Capture
  std::string Op; ///< Change::Operator: the binary operator ("+", "<<", ...), "max" or "min"
  bool OldOnLeft = true;    ///< Change::Operator: x op expr (false: expr op x)
  bool Post = false;        ///< Capture: v receives x's old value (x++, {v = x; ...}), not the new
  /// x is an integer that ++, --, += or -= changes: the change is an addition of a delta.
  bool IntegerAdd = false;
};

/// A replacement of [Begin, End) of the kernel source (Begin == End: an insertion).
struct SourceEdit {
  unsigned Begin = 0, End = 0;
  std::string Text;
};

/// One element access `p[...]` whose base is pointer argument Arg, by its kernel source range.
struct BoundsSite {
  unsigned Begin = 0, End = 0; ///< the subscript expression, `y[i]` whole
  unsigned Arg = 0;            ///< index into KernelInfo::Args
  unsigned Line = 0, Col = 0;  ///< kernel:LINE:COL of its first character
  unsigned Subscripts = 1;     ///< 2 for `a[i][j]` of a `double (*a)[m]`
  bool Write = false;          ///< assigned, compound-assigned, incremented or decremented
};

/// The kernel without variably modified types, for targets that have none (see FlatVla.h).
struct FlatVlaInfo {
  std::vector<SourceEdit> Edits; ///< subscripts through variable-length array pointers, flattened
  std::string Unsupported;       ///< why the kernel cannot be written so (empty: it can)
};

struct KernelInfo {
  std::string Source;          ///< the kernel source as pushed
  KernelName Name;             ///< its site and display name (nameKernel), set once
  /// Its `#pragma jacc policy(...)` (kernelPolicy): how its split launches share the work.
  std::optional<std::string> Policy;
  /// Its `#pragma jacc location(...)` (kernelLocation): the location its launches target.
  std::optional<std::string> Location;
  std::vector<AtomicOp> Atomics;
  std::vector<std::string> Decls;
  unsigned ConstructOffset = 0;///< offset of the "#pragma acc" of the compute construct
  unsigned BodyBegin = 0, BodyEnd = 0; ///< the construct's statement
  unsigned ConstructLine = 1;
  Directive Construct;
  std::vector<ArgInfo> Args;   ///< in the user's order
  std::vector<ParallelNest> Nests;
  std::vector<RegionStmt> Stmts;
  std::vector<ReductionVar> Reductions;
  /// The 8-byte slots each thread's (host) or block's (GPU) reduction buffer holds.
  unsigned reductionSlots() const {
    return Reductions.empty() ? 0 : Reductions.back().Slot + Reductions.back().slots();
  }
  /// The array reduction of argument Arg (index into Args), if any.
  const ReductionVar *arrayReductionOf(unsigned Arg) const {
    for (const ReductionVar &R : Reductions)
      if (R.isArray() && R.Arg == Arg)
        return &R;
    return nullptr;
  }
  bool Serial = false;         ///< the whole region runs on one thread (serial construct or fallback)
  std::string SerialReason;    ///< why, when it is a fallback
  bool BodyIsCompound = false; ///< the construct's statement is a { } block
  bool Async = false;          ///< async clause
  bool Wait = false;           ///< wait clause
  SplitInfo Split;
  FlatVlaInfo FlatVla;
  AccessTraits Traits; ///< how the nests touch memory (the GPU block size follows from it)
  /// The element accesses of pointer arguments (always recorded).
  std::vector<BoundsSite> BoundsSites;
  /// restrictableKernel (RestrictArgs.h): a variant may declare every pointer argument restrict
  /// when the present table finds each in a mapping of its own.
  bool MayRestrict = false;
  /// alignableKernel (RestrictArgs.h): a variant may declare every pointer argument 64-byte
  /// aligned when each device's copy of each is.
  bool MayAlign = false;
  /// Generate code that checks every BoundsSite against its argument's mapping
  /// (JACC_CHECK=bounds: a kernel cache key bit, set by whoever compiles, not by the analysis).
  bool CheckBounds = false;
};

} // namespace jacc::analysis

#endif
