// Where host code is compiled: in a compile server process (the default; a crash, fatal
// error, runaway or memory-hungry compile there cannot take the application down) or in
// process (JACC_COMPILE=inprocess, for debugging), with the server's limits.
#ifndef JACC_JIT_SERVER_COMPILECONFIG_H
#define JACC_JIT_SERVER_COMPILECONFIG_H

#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>

namespace jacc::jit {

/// A fault the compile server fakes for the tests (JACC_TEST_COMPILE_FAULT=kind[:text]): in a
/// compile whose code contains Text, crash (SIGSEGV), abort, fatal (an LLVM fatal error), hang,
/// or memory (allocate until stopped). Kind is empty when unset. It travels in each request.
struct CompileFault {
  std::string Kind, Text;
};

struct CompileConfig {
  bool InProcess = false;      ///< JACC_COMPILE=inprocess
  double TimeoutSeconds = 60;  ///< JACC_COMPILE_TIMEOUT (0: none)
  uint64_t MemoryBytes = 0;    ///< JACC_COMPILE_MEMORY (0: none); default half the RAM
  std::string ServerPath;      ///< JACC_COMPILE_SERVER; empty: the one installed with libjacc
  /// How long jacc_finalize waits for background compiles before it cancels them (not an
  /// environment variable: tests shorten it).
  double FinalizeWaitSeconds = 10;
  CompileFault Fault;          ///< JACC_TEST_COMPILE_FAULT
};

/// The configuration from the environment; InvalidArgument naming a bad variable.
llvm::Expected<CompileConfig> compileConfigFromEnv();

} // namespace jacc::jit

#endif
