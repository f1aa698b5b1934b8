// OpenACC 3.3's directive grammar as tables, for the directive parser (Directive.cpp): the clause
// spellings, the clauses each directive admits, the shape of each clause's argument, and the
// spellings of reduction operators and directives.
#ifndef JACC_ANALYSIS_DIRECTIVEGRAMMAR_H
#define JACC_ANALYSIS_DIRECTIVEGRAMMAR_H

#include "analysis/Directive.h"

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>

namespace jacc::analysis {

/// The clause a spelling names (with the aliases 3.3 still accepts: pcopy, present_or_copy,
/// dtype, ...), or nullopt.
std::optional<ClauseKind> lookupClause(llvm::StringRef Name);

/// A set of clause kinds.
using ClauseMask = uint64_t;
static_assert(static_cast<unsigned>(ClauseKind::DefaultAsync) < 64,
              "ClauseMask has too few bits");

constexpr ClauseMask clauseBit(ClauseKind K) {
  return ClauseMask(1) << static_cast<unsigned>(K);
}
template <typename... Kinds> constexpr ClauseMask maskOf(Kinds... K) {
  return (clauseBit(K) | ...);
}

/// The clauses directive K admits.
ClauseMask allowedClauses(DirectiveKind K);

/// What a clause's parenthesised argument must look like.
enum class ArgRule {
  None,     ///< no parentheses at all
  Optional, ///< free-form expression text, parentheses optional
  Required, ///< free-form expression text, parentheses required
  List,     ///< comma-separated list split into Vars (tile sizes, device types)
  VarList   ///< comma-separated var-list split into Vars
};

/// The argument rule of clause K on directive D.
ArgRule argRule(ClauseKind K, DirectiveKind D);

/// The reduction operator a spelling names ("+", "max", "&&", ...), or nullopt.
std::optional<ReductionOp> parseReductionOp(llvm::StringRef S);

} // namespace jacc::analysis

#endif
