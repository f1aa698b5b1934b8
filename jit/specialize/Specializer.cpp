// The specialization policy: per-argument value tracking, variant choice, JACC_SPECIALIZE*.
#include "jit/specialize/Specializer.h"

#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/Twine.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>

namespace jacc::jit {

using analysis::ScalarType;

/// The raw bytes of a scalar of Size bytes (1, 2, 4 or 8: every foldable type), zero-extended:
/// pushes compare values as one integer.
static uint64_t loadValue(const void *Bytes, unsigned Size) {
  switch (Size) {
  case 1: {
    uint8_t V;
    std::memcpy(&V, Bytes, 1);
    return V;
  }
  case 2: {
    uint16_t V;
    std::memcpy(&V, Bytes, 2);
    return V;
  }
  case 4: {
    uint32_t V;
    std::memcpy(&V, Bytes, 4);
    return V;
  }
  default: {
    uint64_t V;
    std::memcpy(&V, Bytes, 8);
    return V;
  }
  }
}

/// The inverse of loadValue.
static void storeValue(uint64_t Value, unsigned Size, void *Bytes) {
  switch (Size) {
  case 1: {
    uint8_t V = uint8_t(Value);
    std::memcpy(Bytes, &V, 1);
    break;
  }
  case 2: {
    uint16_t V = uint16_t(Value);
    std::memcpy(Bytes, &V, 2);
    break;
  }
  case 4: {
    uint32_t V = uint32_t(Value);
    std::memcpy(Bytes, &V, 4);
    break;
  }
  default:
    std::memcpy(Bytes, &Value, 8);
  }
}

struct Specializer::ArgState {
  unsigned Param = 0;
  std::string Name;
  ScalarType Type = ScalarType::I32;
  unsigned Size = 0;
  bool Eligible = false; // the argument may be folded (and is not forbidden)
  bool Forced = false;
  bool Changing = false; // changed ChangeLimit times: never folded unless forced
  bool Seen = false;
  unsigned Run = 0;     // consecutive pushes with the value in Last
  unsigned Changes = 0; // times the value changed
  uint64_t Last = 0;    // the last value's bytes (loadValue)
};

struct Specializer::Variant {
  llvm::SmallVector<unsigned, 4> Args;   // indices into State, ascending
  llvm::SmallVector<uint64_t, 4> Values; // their values (loadValue)
  jit::Specialization Spec;
  std::string Key;
  bool Disabled = false;
};

Specializer::Specializer() : Specializer(Options()) {}

Specializer::Specializer(Options O) : Opts(std::move(O)) {
  if (Opts.Repeat == 0)
    Opts.Repeat = 1;
}

Specializer::~Specializer() = default;

bool Specializer::sameArgs(llvm::ArrayRef<ScalarArg> Args) const {
  if (Args.size() != State.size())
    return false;
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I].Param != State[I].Param || Args[I].Size != State[I].Size)
      return false;
  return true;
}

void Specializer::reset(llvm::ArrayRef<ScalarArg> Args) {
  auto Listed = [](const std::vector<std::string> &List, llvm::StringRef Name) {
    return std::find(List.begin(), List.end(), Name) != List.end();
  };
  State.clear();
  Variants.clear();
  LastFacts = {};
  FactsRun = 0;
  State.resize(Args.size());
  for (size_t I = 0; I < Args.size(); ++I) {
    const ScalarArg &A = Args[I];
    ArgState &S = State[I];
    S.Param = A.Param;
    S.Name = A.Name.str();
    S.Type = A.Type;
    S.Size = A.Size;
    S.Eligible = A.Eligible && jit::isFoldable(A.Type) && A.Size <= sizeof(uint64_t) &&
                 A.Size == jit::scalarTypeSize(A.Type) && !Listed(Opts.Forbid, A.Name);
    S.Forced = Listed(Opts.Force, A.Name);
  }
}

PointerFacts Specializer::factsNow(PointerFacts Facts) {
  auto Listed = [](const std::vector<std::string> &List, const char *Name) {
    return std::find(List.begin(), List.end(), Name) != List.end();
  };
  Facts.Disjoint &= !Listed(Opts.Forbid, "restrict");
  Facts.Aligned &= !Listed(Opts.Forbid, "aligned");
  FactsRun = Facts == LastFacts && FactsRun < UINT_MAX ? FactsRun + 1 : 1;
  LastFacts = Facts;
  if (Opts.Policy == Mode::Always || FactsRun >= Opts.Repeat)
    return Facts;
  // Forced facts from the first push; the others once they settled.
  return {Facts.Disjoint && Listed(Opts.Force, "restrict"),
          Facts.Aligned && Listed(Opts.Force, "aligned")};
}

std::optional<Specializer::Choice> Specializer::observe(llvm::ArrayRef<ScalarArg> Args,
                                                        PointerFacts Facts) {
  if (Opts.Policy == Mode::Off || Opts.MaxVariants == 0)
    return std::nullopt;
  if (!sameArgs(Args))
    reset(Args);
  Assumed = factsNow(Facts);
  bool Always = Opts.Policy == Mode::Always;
  Fold.clear();
  for (size_t I = 0; I < Args.size(); ++I) {
    ArgState &S = State[I];
    if (!S.Eligible || !Args[I].Bytes)
      continue;
    uint64_t Value = loadValue(Args[I].Bytes, S.Size);
    if (!S.Seen) {
      S.Seen = true;
      S.Run = 1;
      S.Last = Value;
    } else if (S.Last == Value) {
      if (S.Run < UINT_MAX)
        ++S.Run;
    } else {
      S.Last = Value;
      S.Run = 1;
      if (++S.Changes >= Opts.ChangeLimit && Opts.ChangeLimit != 0)
        S.Changing = true;
    }
    if (Always || S.Forced || (!S.Changing && S.Run >= Opts.Repeat))
      Fold.push_back(I);
  }
  // Alignment alone does not make a variant: on the CPUs measured it changes no loop (they run
  // unaligned vector loads as fast), so it would not pay for a compile. It joins the variants
  // made for folded values or restrict.
  if (Fold.empty() && !Assumed.Disjoint)
    return std::nullopt;
  for (unsigned V = 0; V < Variants.size(); ++V) {
    const Variant &X = *Variants[V];
    if (!(X.Spec.Pointers == Assumed) || X.Args.size() != Fold.size() ||
        !std::equal(Fold.begin(), Fold.end(), X.Args.begin()))
      continue;
    bool Same = true;
    for (unsigned K = 0; K < Fold.size(); ++K)
      Same = Same && X.Values[K] == State[Fold[K]].Last;
    if (!Same)
      continue;
    if (X.Disabled)
      return std::nullopt;
    return Choice{V, false, &X.Spec, X.Key};
  }
  if (Variants.size() >= Opts.MaxVariants)
    return std::nullopt;
  return create();
}

std::optional<Specializer::Choice> Specializer::create() {
  auto V = std::make_unique<Variant>();
  for (unsigned I : Fold) {
    ArgState &S = State[I];
    unsigned char Bytes[sizeof S.Last];
    storeValue(S.Last, S.Size, Bytes);
    auto Literal = jit::scalarLiteral(S.Type, Bytes);
    if (!Literal) { // not a foldable type after all: never again
      llvm::consumeError(Literal.takeError());
      S.Eligible = false;
      return std::nullopt;
    }
    V->Args.push_back(I);
    V->Values.push_back(S.Last);
    V->Spec.Args.push_back({S.Param, std::move(*Literal), S.Name});
  }
  V->Spec.Pointers = Assumed;
  V->Key = V->Spec.key();
  Variants.push_back(std::move(V));
  const Variant &X = *Variants.back();
  return Choice{unsigned(Variants.size() - 1), true, &X.Spec, X.Key};
}

void Specializer::disable(unsigned Index) {
  if (Index < Variants.size())
    Variants[Index]->Disabled = true;
}

const jit::Specialization &Specializer::variant(unsigned Index) const {
  return Variants[Index]->Spec;
}

bool Specializer::isChanging(llvm::StringRef Name) const {
  for (const ArgState &S : State)
    if (S.Name == Name)
      return S.Changing;
  return false;
}

/// A count in [Min, Max] from variable Var, or an error naming it.
static llvm::Error parseCount(const char *Var, const char *Text, unsigned Min, unsigned Max,
                              const char *What, unsigned &Out) {
  llvm::StringRef T = llvm::StringRef(Text ? Text : "").trim();
  if (T.empty()) // unset or empty: the default (support/Env.h's rule)
    return llvm::Error::success();
  unsigned N = 0;
  if (T.getAsInteger(10, N) || N < Min || N > Max)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Var) + "='" + Text + "' is not valid: use a number of " + What +
                         " between " + llvm::Twine(Min) + " and " + llvm::Twine(Max));
  Out = N;
  return llvm::Error::success();
}

static bool isIdentifier(llvm::StringRef S) {
  if (S.empty() || llvm::isDigit(S.front()))
    return false;
  return llvm::all_of(S, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

llvm::Expected<Specializer::Options> specializeOptionsFromEnv(const char *Mode, const char *Args,
                                                              const char *Repeat, const char *Max) {
  Specializer::Options O;
  llvm::StringRef M = llvm::StringRef(Mode ? Mode : "").trim();
  if (M.empty() || M.equals_insensitive("auto"))
    O.Policy = Specializer::Mode::Auto;
  else if (M.equals_insensitive("off"))
    O.Policy = Specializer::Mode::Off;
  else if (M.equals_insensitive("always"))
    O.Policy = Specializer::Mode::Always;
  else
    return makeError(ErrorCode::InvalidArgument, "JACC_SPECIALIZE='" + llvm::Twine(Mode) +
                                                     "' is not valid: use off, auto or always");

  llvm::SmallVector<llvm::StringRef, 8> Entries;
  llvm::StringRef(Args ? Args : "").split(Entries, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Entry : Entries) {
    llvm::StringRef Name = Entry.trim();
    if (Name.empty())
      continue;
    bool Forbid = Name.consume_front("-");
    if (!Forbid)
      Name.consume_front("+");
    Name = Name.trim();
    if (!isIdentifier(Name))
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_SPECIALIZE_ARGS='" + llvm::Twine(Args) + "': '" + Entry.trim() +
                           "' is not an argument name: use comma-separated kernel argument "
                           "names, each either forced (name or +name) or forbidden (-name), "
                           "e.g. n,+m,-dt");
    std::vector<std::string> &Mine = Forbid ? O.Forbid : O.Force;
    std::vector<std::string> &Other = Forbid ? O.Force : O.Forbid;
    if (std::find(Other.begin(), Other.end(), Name) != Other.end())
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_SPECIALIZE_ARGS='" + llvm::Twine(Args) + "': '" + Name +
                           "' is both forced and forbidden: keep one of +" + Name + " and -" +
                           Name);
    if (std::find(Mine.begin(), Mine.end(), Name) == Mine.end())
      Mine.push_back(Name.str());
  }

  if (auto E = parseCount("JACC_SPECIALIZE_AFTER", Repeat, 1, 1000000, "pushes", O.Repeat))
    return E;
  if (auto E =
          parseCount("JACC_SPECIALIZE_MAX", Max, 0, 1024, "variants per kernel", O.MaxVariants))
    return E;
  return O;
}

} // namespace jacc::jit
