// Source-to-source translation of an OpenACC C file into plain C calling jacc (jacc-translate,
// jaccc): directives become jacc_* calls, compute constructs become jacc_kernel_push of their own
// text, and the rest of the user's code stays as written (clang::Rewriter).
#ifndef JACC_TRANSLATE_TRANSLATE_H
#define JACC_TRANSLATE_TRANSLATE_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace jacc::translate {

/// The helpers translated code calls (jacc_translated_check, ...), which open every translated
/// file: the C translation's, and the Fortran translation's glue.
std::string translatedPrelude();

/// Whether FileName is a Fortran source, as gfortran decides (.f90 .F90 .f95 .f03 .f08 .f .for
/// ...), and whether it is in fixed form (.f .F .for .FOR .ftn): translate/fortran/ translates
/// those.
bool isFortranFile(llvm::StringRef FileName);
bool isFixedForm(llvm::StringRef FileName);

/// Whether FileName is a C++ source (.cpp, .cc, .cxx, .C, .c++), as g++ decides.
bool isCxxFile(llvm::StringRef FileName);

/// Translate the OpenACC C or C++ (isCxxFile; docs/translate.md, "C++") file Source (named FileName
/// in diagnostics and for quoted includes); a NUL follows Source (a file's MemoryBuffer, a
/// std::string). ExtraArgs are preprocessor options as given to cc: -I, -iquote, -isystem,
/// -idirafter, -D, -U, -include (joined "-Idir" or separate "-I" "dir"), and -std=... (the dialect;
/// default gnu17, as gcc). The program is parsed as leniently as gcc compiles it: what gcc only
/// warns about is no error. Warnings, when given, gets one "file:line:column: warning: ..." line
/// per construct accepted though it is not OpenACC (what NVHPC accepts too). Infos, when given,
/// gets one "file:line: implicit copy(c[0:n])" line per data clause the translator inferred
/// (NVHPC's -Minfo=accel reports them). Errors (InvalidArgument, Unsupported, Compile) carry one
/// "file:line:column: error: ..." line per problem: every directive or clause that cannot be
/// translated is reported, never dropped.
llvm::Expected<std::string> translateOpenACC(llvm::StringRef Source, llvm::StringRef FileName,
                                             llvm::ArrayRef<std::string> ExtraArgs,
                                             std::vector<std::string> *Warnings = nullptr,
                                             std::vector<std::string> *Infos = nullptr);

} // namespace jacc::translate

#endif
