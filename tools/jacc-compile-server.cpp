// jacc-compile-server: the process libjacc compiles host kernels in (jit/server/), so that a
// crash or fatal error of clang or LLVM ends this process and not the application. libjacc
// starts it with --fd=N, a socket (and --idle for the background compiler's server, which runs
// at idle priority); it is not meant to be run by hand.
#include "jit/server/ServeCompiles.h"

#include <llvm/ADT/StringRef.h>

#include <cstdio>

int main(int Argc, char **Argv) {
  int Fd = -1;
  llvm::StringRef Arg = Argc == 2 || Argc == 3 ? Argv[1] : "";
  bool Idle = Argc == 3 && llvm::StringRef(Argv[2]) == "--idle";
  if ((Argc == 2 || Idle) && Arg.consume_front("--fd=") && !Arg.getAsInteger(10, Fd) && Fd >= 0)
    return jacc::jit::serveCompiles(Fd, Idle);
  std::fprintf(stderr, "usage: %s --fd=N [--idle]\n(jacc starts this program itself to compile kernels: "
                       "see JACC_COMPILE in jacc's docs/environment.md)\n",
               Argc > 0 ? Argv[0] : "jacc-compile-server");
  return 2;
}
