// A fuzz target (libFuzzer's entry point) on the kernel frontend as the compile server runs it:
// the input is a kernel's source, sent with the declarations of the arguments it names as an
// analysis request, framed on the wire, received by the server's message reader in pieces and
// answered by the server's own request handler (clang's parse of the wrapped kernel, then every
// analysis pass). An input that starts with the wire's magic is fed to the reader as it is, so
// broken frames are fuzzed too. Each request must get a well-formed reply, never a crash.
#include "jit/server/CompileProtocol.h"
#include "jit/server/ServeCompiles.h"

#include "tests/fuzz/KernelArgs.h"

#include <llvm/Support/Error.h>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace jacc::jit;

namespace {

/// Fail the run (libFuzzer saves the input) unless Reply is an "ok" or an "error" reply.
void checkReply(const server::Message &Reply) {
  bool Ok = !Reply.empty() &&
            (Reply[0] == "ok" ? Reply.size() == 4 : Reply[0] == "error" && Reply.size() == 3);
  if (!Ok)
    __builtin_trap();
}

/// Feed Bytes to a reader in pieces of Piece bytes and answer every analysis request it yields
/// (a compile request would run the compiler, which this target does not fuzz).
void serve(const std::string &Bytes, size_t Piece) {
  server::MessageReader Reader;
  for (size_t At = 0; At < Bytes.size(); At += Piece) {
    Reader.feed(llvm::StringRef(Bytes).substr(At, Piece));
    for (;;) {
      auto M = Reader.next();
      if (!M) {
        llvm::consumeError(M.takeError());
        return;
      }
      if (!*M)
        break;
      if (!(*M)->empty() && (**M)[0] == "analyse-kernel")
        checkReply(answerRequest(**M));
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string In(reinterpret_cast<const char *>(Data), Size);
  size_t Piece = 1 + Size % 97; // messages arrive split anywhere
  if (llvm::StringRef(In).startswith("JCS1"))
    serve(In, Piece);
  else
    serve(server::encode(server::analysisRequest(In, jacc::fuzz::kernelDecls(In))), Piece);
  return 0;
}
