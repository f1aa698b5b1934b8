// perf's map of JIT'd code (JACC_PERF=1): each host kernel entry loaded into the ORC JIT gets a
// line "START SIZE jacc:<site>" in /tmp/perf-<pid>.map, so `perf report` names kernels instead of
// anonymous [JIT] addresses.
#ifndef JACC_JIT_HOST_PERFMAP_H
#define JACC_JIT_HOST_PERFMAP_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>

namespace jacc::jit {

/// Start (or keep) writing the process's perf map: entries loaded from now on get a line.
/// InvalidArgument (JACC_PERF cannot be honoured) when the file cannot be created.
llvm::Error enablePerfMap();
/// The map's path, "/tmp/perf-<pid>.map".
std::string perfMapPath();

/// Name the functions of Object (an ELF relocatable the JIT loaded) in the perf map: Symbols[0]
/// is at Addrs[0], and every other function of its section at the same distance as in Object.
/// The first is called Prefix, the others "<Prefix>:<symbol>". Does nothing unless
/// enablePerfMap() succeeded.
void addToPerfMap(llvm::ArrayRef<char> Object, llvm::ArrayRef<std::string> Symbols,
                  llvm::ArrayRef<void *> Addrs, llvm::StringRef Prefix);

} // namespace jacc::jit

#endif
