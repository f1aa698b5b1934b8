// The calls and comments every translated directive brings around its own: its construct's
// begin and end for observers, the checks of its queue values, and the `#pragma jacc` lines
// above it (a location for its data, a policy and location for its kernel).
#ifndef JACC_TRANSLATE_CONSTRUCTCALLS_H
#define JACC_TRANSLATE_CONSTRUCTCALLS_H

#include "translate/SourceFile.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jacc::translate {

/// `jacc_construct_begin(JACC_CONSTRUCT_<Kind>, "heat.c", 42, "main");`: brackets the calls a
/// directive became, so that jacc's observers see the construct (see jacc.h).
std::string constructBegin(const SourceFile &File, const Pragma &P, llvm::StringRef Kind);
inline std::string constructEnd() {
  return "jacc_construct_end();";
}
/// The construct kind jacc.h names for a compute directive: PARALLEL, KERNELS or SERIAL.
llvm::StringRef computeKind(analysis::DirectiveKind K);
/// The calls that check the queue values of D's wait argument and async and wait clauses at run
/// time (jacc has one queue per device, so they choose nothing, but an invalid one is an error,
/// as with other compilers).
std::vector<std::string> queueChecks(const SourceFile &File, const Pragma &P,
                                     const analysis::Directive &D);

/// The `#pragma jacc policy(...)` and `#pragma jacc location(...)` lines right above a directive
/// (blank lines between allowed): their values, the location line's 1-based number (0: none),
/// and where each line is (offset and length, without its newline).
struct JaccLines {
  std::optional<std::string> Policy, Location;
  unsigned LocationLine = 0;
  std::vector<std::pair<unsigned, unsigned>> Lines;
};
JaccLines jaccLinesAbove(const SourceFile &File, const Pragma &P);
/// Those lines above P as a kernel's text carries them; "" without any. Other compilers ignore
/// them.
std::string jaccLines(const SourceFile &File, const Pragma &P);
/// The `#pragma jacc` lines right above P become comments in the translated file: jacc used
/// them, and a C compiler would warn about an unknown pragma (-Wall).
void commentJaccLines(SourceFile &File, const Pragma &P);
/// Gecko's memory at a location: Calls (the entry calls of P's data clauses) bracketed by
/// `jacc_data_location_begin("gpus")` and `jacc_data_location_end()` when a `#pragma jacc
/// location(gpus)` line stands right above P, so that the mappings they create live there.
/// False (an error reported) when the line names no valid location.
bool atDataLocation(SourceFile &File, const Pragma &P, std::vector<std::string> &Calls);

} // namespace jacc::translate

#endif
