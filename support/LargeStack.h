// Run a function on a thread with a large stack: clang's parser and code generator, and jacc's
// own passes, recurse once per level of an expression, so a long machine-generated expression
// would overflow a caller's stack (8 MB for the main thread, often less for others).
#ifndef JACC_SUPPORT_LARGESTACK_H
#define JACC_SUPPORT_LARGESTACK_H

#include <llvm/ADT/STLFunctionalExtras.h>

namespace jacc {

/// The stack Fn gets (256 MB of address space: pages are committed only when touched).
constexpr unsigned LargeStackBytes = 256u << 20;

/// Run Fn on a new thread with LargeStackBytes of stack and wait for it. clang is told where
/// that stack starts, so that its own deep recursions warn instead of overflowing.
void runWithLargeStack(llvm::function_ref<void()> Fn);

} // namespace jacc

#endif
