// Split a kernel string into its leading declarations and its compute construct, and wrap it into a
// C translation unit the frontend can parse (argument declarations become parameters).
#ifndef JACC_ANALYSIS_KERNELSOURCE_H
#define JACC_ANALYSIS_KERNELSOURCE_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace jacc::analysis {

/// A `#pragma acc` line found by scanning the text (continuation lines joined).
struct PragmaLine {
  unsigned Offset = 0;    ///< offset of '#'
  unsigned EndOffset = 0; ///< offset of the end of the (last continued) line
  unsigned Line = 1;      ///< 1-based line of '#'
  std::string Text;       ///< the directive after "acc"
};

/// Every `#pragma acc` line of a C source, in order.
std::vector<PragmaLine> scanPragmas(llvm::StringRef Source);

/// 1-based line of an offset.
unsigned lineOf(llvm::StringRef Source, unsigned Offset);

/// Where the kernel was written, from a last line `// jacc-site: heat.c:42` (jaccc adds it):
/// "heat.c:42", or "" when the source has no such line.
std::string kernelSite(llvm::StringRef Source);

/// The file a kernel's positions are in: its site's (the user's file jaccc translated), else
/// "kernel" (the text pushed), as constructLineMarker numbers them.
std::string kernelFileName(llvm::StringRef Source);

/// The `#line` directive before a kernel's construct in the code clang parses: the site's file
/// and line for a kernel that has one, else "kernel" and the construct's line in Source.
std::string constructLineMarker(llvm::StringRef Source, unsigned ConstructLine);

/// The distribution policy a line `#pragma jacc policy(percentage:[25,75])` of the kernel asks
/// for (jaccc copies that line from before the construct): the text between the parentheses;
/// none without such a line. Other compilers ignore the pragma.
std::optional<std::string> kernelPolicy(llvm::StringRef Source);

/// The location (Gecko's hierarchy, src/launch/Locations.h) a line `#pragma jacc location(gpus)`
/// of the kernel sends it to, whatever jacc_set_location says; none without such a line.
std::optional<std::string> kernelLocation(llvm::StringRef Source);

/// The routines of other files a kernel calls, from its line `#pragma jacc routines(f, g)`
/// (jaccc writes it; jit/KernelRoutines.h replaces it by their definitions): the text between
/// the parentheses; none without such a line.
std::optional<std::string> kernelRoutines(llvm::StringRef Source);

/// The line that ends each declaration of a routine's registered text (its macros, types,
/// callees, itself; jacc_define_routine): a kernel that holds a declaration already gets it once.
constexpr const char *RoutineItemEnd = "// jacc-item\n";

struct WrappedKernel {
  std::string Code;            ///< the translation unit to parse
  unsigned LeadingBegin = 0;   ///< where the kernel's leading declarations start in Code
  unsigned ConstructBegin = 0; ///< where the construct (its #pragma) starts in Code
  unsigned ConstructOffset = 0;///< where the construct starts in the kernel source
  std::vector<unsigned> ParamOrder; ///< for each parameter, the index of its user arg
};

/// Name of the function that wraps the construct in the parsed translation unit.
constexpr const char *WrapperFunction = "__jacc_kernel";
/// Whether a kernel's leading declarations define `bool` themselves, as programs written for C89
/// do (`typedef int bool;`, `typedef enum { false, true } bool;`, `#define bool int`): the name
/// declared (`bool;`, `#define bool`), not merely used as a type.
bool definesBool(llvm::StringRef Leading);

/// What a C kernel sees before its own text, on every C target: bool, true and false (C23's
/// keywords, <stdbool.h> before) without an include of the kernel's, unless its leading
/// declarations Leading define bool themselves (cc compiles those without <stdbool.h>); and
/// acc_on_device, the OpenACC routine device code may call (OpenACC 3.3 3.2.13; the host target's
/// calls reach libjacc's, which answers for the host, a jacc host device being acc_device_host).
std::string kernelDialectPrelude(llvm::StringRef Leading);

/// Whether Name is an OpenACC routine device code may call (acc_on_device), which every
/// kernel's prelude declares (kernelDialectPrelude): no definition of the program's is needed.
bool isDeviceApiRoutine(llvm::StringRef Name);

/// Build the translation unit: prelude, leading declarations, then
/// `void __jacc_kernel(<args, scalars first>) { <construct> }`, with #line directives so that
/// diagnostics name "kernel:LINE:COL" or "arg N". Errors: no compute construct, empty decl.
llvm::Expected<WrappedKernel> wrapKernel(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls);

/// Whether a declaration declares a scalar (no '*' and no '['): scalars come first in the parameter
/// list so that array bounds such as `double (*a)[m]` may use them.
bool declLooksScalar(llvm::StringRef Decl);

/// Whether the C text Text has the identifier Name as a token (not within a longer identifier or
/// a number's suffix).
bool mentionsIdentifier(llvm::StringRef Text, llvm::StringRef Name);

} // namespace jacc::analysis

#endif
