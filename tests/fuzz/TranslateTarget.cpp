// A fuzz target (libFuzzer's entry point) on the program translator behind jaccc: the input is
// a C file (a C++ file when it starts with "//c++"), translated as jacc-translate does. Each
// must give a translation or located errors, never a crash.
#include "translate/Translate.h"

#include <llvm/Support/Error.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A copy: clang's lexer stops at the NUL after the source, which libFuzzer's bytes lack.
  std::string Source(reinterpret_cast<const char *>(Data), Size);
  llvm::StringRef In = Source;
  std::vector<std::string> Warnings, Infos;
  auto Out = jacc::translate::translateOpenACC(In, In.startswith("//c++") ? "fuzz.cpp" : "fuzz.c",
                                               {}, &Warnings, &Infos);
  if (!Out)
    llvm::consumeError(Out.takeError());
  return 0;
}
