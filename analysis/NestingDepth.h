// The nesting limit of kernel code: statements and expressions nested deeper than this are
// refused with a located error before any recursive pass (jacc's or clang's code generator)
// walks them, so a huge generated expression is an error, not a stack overflow.
#ifndef JACC_ANALYSIS_NESTINGDEPTH_H
#define JACC_ANALYSIS_NESTINGDEPTH_H

#include <llvm/ADT/StringRef.h>

#include <optional>

namespace clang {
class Stmt;
}

namespace jacc::analysis {

/// Levels of statements and expressions a kernel may nest (a chain a+b+c+... of N terms nests
/// N levels). Far beyond hand-written code; the passes run on a large stack (support/LargeStack.h)
/// that holds many times this depth.
constexpr unsigned MaxNestingDepth = 10000;

/// The first statement or expression found more than Limit levels below Root; null if none.
/// Iterative: it does not recurse itself.
const clang::Stmt *findTooDeeplyNested(const clang::Stmt *Root, unsigned Limit = MaxNestingDepth);

/// Where, in Source, a run of more than Limit prefix operators, opening parentheses and casts
/// (`- - !~(float)-x`) goes on: clang's parser recurses once per such token before any
/// statement exists to measure; nullopt when there is none. Only the text itself is read
/// (macros are not expanded).
std::optional<unsigned> findLongPrefixRun(llvm::StringRef Source,
                                          unsigned Limit = MaxNestingDepth);

} // namespace jacc::analysis

#endif
