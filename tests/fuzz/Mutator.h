// The mutation engine the standalone fuzzers share: a seeded xorshift generator, mutations of a
// text (byte flips, insertions of tokens, deletions, splices of other seeds, repeats) and the
// campaign that feeds the mutants to a target.
#ifndef JACC_TESTS_FUZZ_MUTATOR_H
#define JACC_TESTS_FUZZ_MUTATOR_H

#include <llvm/ADT/ArrayRef.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace jacc::fuzz {

/// xorshift64*: the same executions for the same seed.
struct Rng {
  uint64_t S;
  uint64_t next() {
    S ^= S >> 12;
    S ^= S << 25;
    S ^= S >> 27;
    return S * 2685821657736338717ull;
  }
  size_t below(size_t N) { return N ? next() % N : 0; }
};

/// One or two mutations of S: Tokens are inserted whole, Seeds spliced in pieces.
inline std::string mutate(std::string S, Rng &R, llvm::ArrayRef<const char *> Tokens,
                          llvm::ArrayRef<const char *> Seeds) {
  for (unsigned K = 1 + R.below(2); K > 0; --K) {
    size_t At = R.below(S.size() + 1);
    switch (R.below(5)) {
    case 0: // flip a byte
      if (!S.empty())
        S[R.below(S.size())] = static_cast<char>(R.below(256));
      break;
    case 1: // insert a token
      S.insert(At, Tokens[R.below(Tokens.size())]);
      break;
    case 2: // delete a range
      S.erase(At, R.below(8));
      break;
    case 3: { // splice a piece of another seed
      std::string O = Seeds[R.below(Seeds.size())];
      size_t B = R.below(O.size());
      S.insert(At, O.substr(B, R.below(O.size() - B + 1)));
      break;
    }
    default: // repeat a piece (deep nesting, long lists)
      if (!S.empty()) {
        size_t B = R.below(S.size());
        std::string Piece = S.substr(B, 1 + R.below(6));
        for (unsigned I = R.below(40); I > 0; --I)
          S.insert(At, Piece);
      }
    }
  }
  return S;
}

/// Executions mutants, each of a parent drawn from the corpus (the seeds, then inputs RunOne
/// accepted, a quarter of them kept: mutations stack up over generations while the inputs stay
/// close enough to the grammar to reach its deeper checks), cut to MaxSize bytes. Returns how
/// many RunOne accepted. The same Seed gives the same executions.
template <typename Target>
unsigned long runCampaign(unsigned long Executions, uint64_t Seed,
                          llvm::ArrayRef<const char *> Seeds, llvm::ArrayRef<const char *> Tokens,
                          size_t MaxSize, size_t MaxCorpus, Target RunOne) {
  Rng R{Seed | 1};
  std::vector<std::string> Corpus(Seeds.begin(), Seeds.end());
  unsigned long Accepted = 0;
  for (unsigned long I = 0; I < Executions; ++I) {
    std::string In = mutate(Corpus[R.below(Corpus.size())], R, Tokens, Seeds);
    if (In.size() > MaxSize)
      In.resize(MaxSize);
    bool Valid = RunOne(In);
    Accepted += Valid;
    if (Valid && R.below(4) == 0) {
      if (Corpus.size() < MaxCorpus)
        Corpus.push_back(In);
      else
        Corpus[R.below(Corpus.size())] = In;
    }
  }
  return Accepted;
}

} // namespace jacc::fuzz

#endif
