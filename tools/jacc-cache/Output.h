// The text and JSON output of jacc-cache: errors on stderr, sizes, durations and times as text,
// "label  value" fields, indented blocks, and JSON on stdout.
#ifndef JACC_TOOLS_JACC_CACHE_OUTPUT_H
#define JACC_TOOLS_JACC_CACHE_OUTPUT_H

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/Twine.h>
#include <llvm/Support/JSON.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace jacc::cachetool {

/// The hexadecimal digits of a key shown in tables and reports.
constexpr size_t KeyPrefixLength = 12;
/// The labels of `show` and `stats`, and the width of the values wrapped after them.
constexpr size_t FieldWidth = 20;
constexpr size_t WrapWidth = 80;

/// With On (--json), errors are also printed on stdout as {"error": "...", "status": N}.
void setJsonErrors(bool On);
/// Print "jacc-cache: Message" on stderr (and as JSON, see setJsonErrors); returns Failure.
int fail(const llvm::Twine &Message);
/// Print a usage error and where to find help on stderr (and as JSON); returns Usage.
int usageError(const llvm::Twine &Message, llvm::StringRef Command = "");

/// 512B, 12.3K, 4.5M, 1.0G (powers of 1024).
std::string humanSize(uint64_t Bytes);
/// "850 ms", "12.3 s", "4.2 min", "1.5 h".
std::string humanMs(double Ms);
/// "just now", "42s ago", "3m ago", "5h ago" within a day; the local time beyond.
std::string whenShort(int64_t T, int64_t Now);
/// The local time and, within a day, how long ago: "2025-11-22T08:30:12 (3m ago)".
std::string whenLong(int64_t T, int64_t Now);

/// V on stdout, indented.
void printJson(llvm::json::Value V);
/// "label       value" lines of `show`, `stats` and `config`.
void field(llvm::StringRef Label, const llvm::Twine &Value);
/// Text indented by four spaces, line by line.
void block(llvm::StringRef Text);
/// Words filled into lines of at most WrapWidth characters, continued under a field's value.
std::string wrapWords(llvm::StringRef Text);

} // namespace jacc::cachetool

#endif
