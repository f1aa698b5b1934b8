// Parse the text of one `#pragma acc` directive into its kind and clauses.
#ifndef JACC_ANALYSIS_DIRECTIVE_H
#define JACC_ANALYSIS_DIRECTIVE_H

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace jacc::analysis {

enum class DirectiveKind {
  Parallel, Kernels, Serial,               // compute constructs
  ParallelLoop, KernelsLoop, SerialLoop,   // combined constructs
  Loop, Atomic, Routine, Cache,            // inside or beside compute constructs
  Data, EnterData, ExitData, Update, Wait, HostData, Declare, Init, Shutdown, Set
};

enum class ClauseKind {
  // loop
  Gang, Worker, Vector, Seq, Independent, Auto, Collapse, Tile, DeviceType,
  // data sharing
  Reduction, Private, Firstprivate,
  // data
  Present, Deviceptr, Copy, Copyin, Copyout, Create, NoCreate, Attach, Detach, Delete,
  UseDevice, Link, DeviceResident, Host, Device, Self, IfPresent, Finalize,
  // execution
  Async, Wait, NumGangs, NumWorkers, VectorLength, If, Default,
  // atomic
  Read, Write, Update, Capture,
  // routine
  Bind, Nohost,
  // init, shutdown, set
  DeviceNum, DefaultAsync
};

enum class ReductionOp { Add, Mul, Max, Min, BitAnd, BitOr, BitXor, LogAnd, LogOr };

struct Clause {
  ClauseKind Kind;
  std::string Name;              ///< as written, e.g. "vector_length"
  bool HasArgument = false;      ///< true when the clause had a parenthesised argument
  std::string Argument;          ///< raw text between the parentheses, trimmed
  std::vector<std::string> Vars; ///< comma-separated items of a var-list clause, trimmed
  std::vector<std::string> Queues;   ///< async and wait: the queue values, trimmed
                                     ///< ("x", "a[0:n]"); for reduction, the items after ':';
                                     ///< for copyin/copyout/create, the items after a modifier
                                     ///< ("readonly:", "zero:"); for tile and device_type, the
                                     ///< list items ("8", "*", "nvidia")
  ReductionOp Op = ReductionOp::Add; ///< for reduction
  unsigned Column = 0;           ///< 1-based column of the clause name in Directive::Text
                                 ///< (the text after "acc", trimmed); error columns count
                                 ///< the same way
};

/// The deepest collapse(n) accepted: far beyond real loop nests, small enough for any counter.
constexpr unsigned MaxCollapse = 64;
/// num_gangs values: OpenACC has gang dimensions 1 to 3.
constexpr unsigned MaxGangDims = 3;

struct Directive {
  DirectiveKind Kind;
  std::string Text;              ///< the directive text after "acc", trimmed
  unsigned Line = 0;             ///< line of the pragma in the kernel source (1-based)
  std::string Argument;          ///< raw text between the parentheses of `cache(...)`,
                                 ///< `routine(name)` and `wait(...)`, trimmed; empty if none
  std::vector<std::string> Vars; ///< for cache, the var-list items (a "readonly:" modifier
                                 ///< stays in Argument only)
  std::vector<std::string> Queues; ///< for wait, the queue values, trimmed
  std::vector<Clause> Clauses;

  /// First clause of that kind, or nullptr.
  const Clause *find(ClauseKind K) const;
  bool has(ClauseKind K) const { return find(K) != nullptr; }
  bool isCompute() const;        ///< parallel/kernels/serial, combined or not
  bool isCombinedLoop() const;   ///< parallel loop / kernels loop / serial loop
};

/// The value of an async or wait queue value written as an integer literal (spaces and
/// parentheses around or inside it allowed: "( -4 )"); none for any other expression.
std::optional<long long> queueLiteral(llvm::StringRef Text);

/// Parse the text after "#pragma acc", e.g. "parallel loop collapse(2) reduction(+:s)".
/// Errors (JaccError, code InvalidArgument) name the line, the column and the offending word.
llvm::Expected<Directive> parseDirective(llvm::StringRef Text, unsigned Line);

/// Name of a reduction operator as written in OpenACC ("+", "max", ...).
const char *reductionOpName(ReductionOp Op);

/// Name of a directive as written in OpenACC ("parallel loop", "enter data", ...).
const char *directiveKindName(DirectiveKind K);

} // namespace jacc::analysis

#endif
