// The main of a fuzz target built without libFuzzer (every normal build, and CI's sanitized
// one): each input of the corpora given, then mutants of them (tests/fuzz/Mutator.h). A bounded
// run that replays what the coverage-guided runs (scripts/fuzz.sh) kept, and a little beyond.
//   fuzz-<target> [--mutants N] [--seed S] DIR|FILE...    (defaults: 0 mutants, seed 1)
#include "tests/fuzz/Mutator.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

namespace {

/// Inserted whole by the mutator: pieces of OpenACC C that rarely arise from byte flips.
const char *const Tokens[] = {"#pragma acc parallel loop\n",
                              "#pragma acc kernels\n",
                              "#pragma acc data copy(x[0:n])\n",
                              "#pragma acc loop",
                              " reduction(+:s)",
                              " collapse(2)",
                              " present(x)",
                              " async(1)",
                              "copyin(",
                              "(",
                              ")",
                              "[",
                              "]",
                              "{",
                              "}",
                              ";",
                              ",",
                              "*",
                              "0",
                              "i",
                              "n",
                              "x[i]",
                              "\n",
                              "\\\n",
                              "/*",
                              "*/",
                              "\"",
                              "#define X\n",
                              "#include <math.h>\n",
                              "for (int i = 0; i < n; i++) ",
                              "int main(void) {",
                              "\xe9",
                              "99999999999"};

int run(const std::string &In) {
  return LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(In.data()), In.size());
}

/// The files named, and those in the folders named (sorted: the same run every time).
std::vector<std::string> inputsOf(const std::vector<std::string> &Paths) {
  std::vector<std::string> Inputs;
  for (const std::string &P : Paths) {
    std::vector<std::filesystem::path> Files;
    if (std::filesystem::is_directory(P)) {
      for (const auto &E : std::filesystem::directory_iterator(P))
        if (E.is_regular_file())
          Files.push_back(E.path());
    } else {
      Files.push_back(P);
    }
    std::sort(Files.begin(), Files.end());
    for (const auto &F : Files) {
      std::ifstream S(F, std::ios::binary);
      if (!S) {
        std::fprintf(stderr, "fuzz: cannot read %s\n", F.c_str());
        std::exit(2);
      }
      std::ostringstream Text;
      Text << S.rdbuf();
      Inputs.push_back(Text.str());
    }
  }
  return Inputs;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned long Mutants = 0;
  uint64_t Seed = 1;
  std::vector<std::string> Paths;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--mutants") && I + 1 < Argc)
      Mutants = std::strtoul(Argv[++I], nullptr, 10);
    else if (!std::strcmp(Argv[I], "--seed") && I + 1 < Argc)
      Seed = std::strtoull(Argv[++I], nullptr, 10);
    else
      Paths.push_back(Argv[I]);
  }
  std::vector<std::string> Inputs = inputsOf(Paths);
  if (Inputs.empty()) {
    std::fprintf(stderr, "usage: %s [--mutants N] [--seed S] DIR|FILE...: no input given\n",
                 Argv[0]);
    return 2;
  }
  for (const std::string &In : Inputs)
    run(In);
  std::vector<const char *> Seeds;
  for (const std::string &In : Inputs)
    Seeds.push_back(In.c_str());
  jacc::fuzz::runCampaign(Mutants, Seed, Seeds, Tokens, 8192, 1024, [](const std::string &In) {
    run(In);
    return true;
  });
  std::printf("%s: %zu inputs and %lu mutants, no crash\n", Argv[0], Inputs.size(), Mutants);
  return 0;
}
