// The kernel specialization policy (JACC_SPECIALIZE): per kernel, from the values its scalar
// arguments take push after push, which variant to run (the generic kernel, or one folding some of
// the values as constants, see jit/specialize/Specialization.h). Pure logic: compiling and caching
// variants is the runtime's.
#ifndef JACC_JIT_SPECIALIZER_H
#define JACC_JIT_SPECIALIZER_H

#include "analysis/Kernel.h"
#include "jit/specialize/Specialization.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jacc::jit {

/// One scalar argument of a push, as the policy sees it.
struct ScalarArg {
  unsigned Param = 0;   ///< its index in the entry's parameter list (ArgInfo::Param)
  llvm::StringRef Name; ///< its name, as the force and forbid lists name it
  analysis::ScalarType Type = analysis::ScalarType::I32; ///< its type
  const void *Bytes = nullptr;                           ///< the value pushed
  size_t Size = 0; ///< bytes at Bytes: jit::scalarTypeSize(Type)
  /// May be folded: not a reduction variable, a long double, or a value the kernel never reads.
  bool Eligible = true;
};

/// The policy for one kernel. Not thread-safe: the caller serialises the calls for a kernel.
class Specializer {
public:
  /// JACC_SPECIALIZE.
  enum class Mode {
    Off,   ///< never specialize
    Auto,  ///< fold the values that stayed the same for Repeat pushes and did not keep changing
    Always ///< fold every eligible value from the first push (variants up to MaxVariants)
  };

  /// The policy's settings (specializeOptionsFromEnv reads them from the environment).
  struct Options {
    Mode Policy = Mode::Auto;        ///< JACC_SPECIALIZE
    unsigned Repeat = 3;             ///< pushes with the same value before it is folded (>= 1)
    unsigned ChangeLimit = 2;        ///< value changes after which it never is (0: no limit)
    unsigned MaxVariants = 4;        ///< variants per kernel; beyond, the generic kernel runs
    std::vector<std::string> Force;  ///< names folded from the first push, changing or not
    std::vector<std::string> Forbid; ///< names never folded (wins over Force)
  };

  /// What a push runs when it is not the generic kernel: a variant, created by some push.
  struct Choice {
    unsigned Index = 0;                        ///< the variant, numbered from 0 in creation order
    bool New = false;                          ///< created by this push: compile it
    const jit::Specialization *Spec = nullptr; ///< the values to fold (owned by the Specializer)
    llvm::StringRef Key;                       ///< Spec->key(), for cache keys
  };

  /// The default options.
  Specializer();
  /// A policy with options O.
  explicit Specializer(Options O);
  ~Specializer();

  /// Record the values of a push and choose what runs it: the generic kernel (nullopt) or a
  /// variant. Args must list the same arguments, in the same order, at every call (a different
  /// list starts the observation over). Compares each value as one integer; allocates only at the
  /// first call and when a variant is created.
  /// Facts: what the last push's binding proved about the pointers (PointerFacts), only the
  /// facts the kernel may assume (KernelInfo::MayRestrict, MayAlign) set. They fold like one
  /// value: the same for Repeat pushes in a row (from the first under always, or for a fact
  /// forced with +restrict / +aligned; never one forbidden with -restrict / -aligned in
  /// JACC_SPECIALIZE_ARGS), then variants assume them, alone or with the values folded
  /// (alignment only joins a variant made for values or restrict).
  std::optional<Choice> observe(llvm::ArrayRef<ScalarArg> Args, PointerFacts Facts = {});

  /// Never choose variant Index again (it failed to compile); it still counts in MaxVariants.
  void disable(unsigned Index);
  /// The variants created so far.
  unsigned numVariants() const { return Variants.size(); }
  /// Variant Index's folded values.
  const jit::Specialization &variant(unsigned Index) const;
  /// Whether argument Name changed too often to be folded (unless forced).
  bool isChanging(llvm::StringRef Name) const;
  /// The options in force.
  const Options &options() const { return Opts; }

private:
  struct ArgState;
  struct Variant;
  void reset(llvm::ArrayRef<ScalarArg> Args);
  bool sameArgs(llvm::ArrayRef<ScalarArg> Args) const;
  std::optional<Choice> create();

  /// The pointer facts this push's variant assumes (observe's Facts).
  PointerFacts factsNow(PointerFacts Facts);

  Options Opts;
  std::vector<ArgState> State;
  PointerFacts LastFacts; // the facts of the last pushes, FactsRun of them in a row
  unsigned FactsRun = 0;
  PointerFacts Assumed; // this push's variant assumes them
  std::vector<std::unique_ptr<Variant>> Variants;
  llvm::SmallVector<unsigned, 8> Fold; // this push's folded arguments (indices into State)
};

/// The options from JACC_SPECIALIZE (Mode: off, auto or always), JACC_SPECIALIZE_ARGS (Args:
/// comma-separated names, `+name` or `name` to force, `-name` to forbid), JACC_SPECIALIZE_AFTER
/// (Repeat: pushes, at least 1) and JACC_SPECIALIZE_MAX (Max: variants per kernel); a null or empty
/// value keeps the default. InvalidArgument naming the variable, its value and what is accepted.
llvm::Expected<Specializer::Options> specializeOptionsFromEnv(const char *Mode, const char *Args,
                                                              const char *Repeat, const char *Max);

} // namespace jacc::jit

#endif
