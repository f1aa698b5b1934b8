// Scanning C text without a parser: the characters of identifiers, and the identifiers a snippet
// names (the translator's macro closure, the directive parser, the kernel source scanners).
#ifndef JACC_SUPPORT_CTEXT_H
#define JACC_SUPPORT_CTEXT_H

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

#include <map>
#include <string>
#include <vector>

namespace jacc {

/// Whether C may start an identifier.
inline bool isIdentStart(char C) {
  return llvm::isAlpha(C) || C == '_';
}
/// Whether C may continue an identifier (or a number's digits and suffix).
inline bool isIdentChar(char C) {
  return llvm::isAlnum(C) || C == '_';
}

/// The identifiers of a piece of C text in order, repeats included; string and character
/// literals, comments and numbers (`1.5e3f`) name none.
std::vector<std::string> identifiersIn(llvm::StringRef Text);

/// Text with every whole identifier that is a key of Renamed replaced by its value (the rest
/// as it is: a message naming C variables, spelled as the program's source spells them).
std::string renameIdentifiers(llvm::StringRef Text,
                              const std::map<std::string, std::string> &Renamed);

} // namespace jacc

#endif
