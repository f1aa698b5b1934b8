// Kernel specialization on runtime values: scalar arguments folded into the generated entry as
// constants (see generateEntry), rendered as exact C literals that both the host C compiler and
// NVRTC accept. The entry's parameters (the launch ABI) stay those of the generic kernel.
#ifndef JACC_JIT_SPECIALIZATION_H
#define JACC_JIT_SPECIALIZATION_H

#include "analysis/Kernel.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace jacc::jit {

/// One scalar argument folded to a constant.
struct ArgSpecialization {
  unsigned Param = 0;  ///< the argument's index in the entry's parameter list (ArgInfo::Param)
  std::string Literal; ///< its value as a C expression of the argument's type (scalarLiteral)
  std::string Name;    ///< the argument's name, for key() (empty: "#<Param>")
};

/// What a push's binding proved about a kernel's pointer arguments, facts of the run that no
/// ahead-of-time compiler has (analysis/RestrictArgs.h says which kernels may use them).
struct PointerFacts {
  /// Each points into a mapping no other one points into: they may be declared restrict.
  bool Disjoint = false;
  /// Each device's copy of each is at a 64-byte boundary (device copies are allocated so, and
  /// the pointers point at their starts): they may be declared so aligned.
  bool Aligned = false;
  bool any() const { return Disjoint || Aligned; }
  /// Whether every fact of these holds in F (a variant assuming these may run F's push).
  bool holdIn(PointerFacts F) const { return (!Disjoint || F.Disjoint) && (!Aligned || F.Aligned); }
  bool operator==(PointerFacts F) const { return Disjoint == F.Disjoint && Aligned == F.Aligned; }
};

/// The alignment PointerFacts::Aligned promises, in bytes.
constexpr unsigned AssumedPointerAlignment = 64;

/// The scalar arguments a variant of a kernel folds, and the pointer facts it assumes; neither:
/// the generic kernel.
struct Specialization {
  std::vector<ArgSpecialization> Args; ///< in any order, one per folded argument
  /// Disjoint: every pointer argument is declared restrict; Aligned: every one is declared
  /// 64-byte aligned. The variant runs only pushes whose binding proved them.
  PointerFacts Pointers;
  /// Stable text naming the folded values, by parameter order whatever the order of Args, then
  /// the facts, e.g. "n=100;m=64LL", "n=100;restrict;aligned64", "aligned64": with the kernel's
  /// own key, the key of the variant in caches.
  std::string key() const;
  /// Whether it is the generic kernel's.
  bool empty() const { return Args.empty() && !Pointers.any(); }
};

/// The integer Spec folds for the argument named Name (`100`, `((int)-5)`, `100LL`), nullopt
/// when it folds none, or a value that is not an integer of a long long.
std::optional<long long> foldedInteger(const Specialization &Spec, llvm::StringRef Name);

/// Bytes of a value of type T (16 for long double, as on x86-64).
unsigned scalarTypeSize(analysis::ScalarType T);

/// Whether values of T can be folded into a kernel: not long double (CUDA has none, and the
/// host literal would not be exact) nor complex (C has no complex literal; NVRTC no _Complex).
bool isFoldable(analysis::ScalarType T);

/// The value of type T whose raw bytes (scalarTypeSize(T) of them) are at Bytes, as an exact
/// C expression of type T valid in host C and in jacc's CUDA C++: `100`, `((int)-5)`, `100LL`,
/// `18446744073709551615ULL`, `((unsigned char)200)`, `((_Bool)1)` (jacc's CUDA prelude defines
/// _Bool), hexadecimal floating literals for finite values (`0x1.8p+1`, `(-0x1.99999ap-4f)`,
/// negative zero `(-0x0p+0)`), and `__builtin_bit_cast(float, 0x7fc00000U)` for NaN (payload and
/// sign kept; NVRTC quiets a signalling NaN) and infinities: NVRTC has no __builtin_nan /
/// __builtin_inf, both compilers have __builtin_bit_cast and fold it. Unsupported unless
/// isFoldable(T).
llvm::Expected<std::string> scalarLiteral(analysis::ScalarType T, const void *Bytes);

/// Whether Spec can specialize K: every entry names a distinct argument of K by parameter index,
/// a scalar that is not a reduction variable (its value is the kernel's result) nor a long double,
/// with a literal; pointer facts only for a kernel that may assume them (KernelInfo::MayRestrict,
/// KernelInfo::MayAlign).
/// InvalidArgument (Unsupported for long double) naming the argument otherwise.
llvm::Error checkSpecialization(const analysis::KernelInfo &K, const Specialization &Spec);

/// One runtime value to fold: the argument's parameter index and its raw bytes.
struct ArgValue {
  unsigned Param = 0;          ///< the argument's index in the entry's parameter list
  const void *Bytes = nullptr; ///< its value (scalarTypeSize of its type bytes)
};

/// The checked specialization of K folding Values (literals rendered, names filled).
llvm::Expected<Specialization> makeSpecialization(const analysis::KernelInfo &K,
                                                  llvm::ArrayRef<ArgValue> Values);

} // namespace jacc::jit

#endif
