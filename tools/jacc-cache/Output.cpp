// The text and JSON output of jacc-cache (see Output.h).
#include "tools/jacc-cache/Output.h"

#include "tools/jacc-cache/Tool.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <ctime>

namespace jacc::cachetool {

namespace {

/// ISO-8601 local time: 2025-11-22T08:30:12.
std::string isoLocal(int64_t T) {
  std::time_t TT = static_cast<std::time_t>(T);
  std::tm Tm{};
  if (!localtime_r(&TT, &Tm))
    return std::to_string(T);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%S", &Tm);
  return Buf;
}

} // namespace

namespace {

bool JsonErrors = false;
bool JsonPrinted = false; ///< stdout holds one JSON document at most

/// Under --json, an error is also a JSON document on stdout: {"error": ..., "status": ...},
/// unless the command printed its result already (verify's bad entries).
void jsonError(const llvm::Twine &Message, Exit Status) {
  if (!JsonErrors || JsonPrinted)
    return;
  std::string Text = Message.str();
  if (!llvm::json::isUTF8(Text))
    Text = llvm::json::fixUTF8(Text); // a path need not be UTF-8
  printJson(llvm::json::Object{{"error", std::move(Text)}, {"status", static_cast<int>(Status)}});
}

} // namespace

void setJsonErrors(bool On) { JsonErrors = On; }

int fail(const llvm::Twine &Message) {
  jsonError(Message, Failure);
  llvm::outs().flush();
  llvm::errs() << "jacc-cache: " << Message << "\n";
  return Failure;
}

int usageError(const llvm::Twine &Message, llvm::StringRef Command) {
  jsonError(Message, Usage);
  llvm::outs().flush();
  llvm::errs() << "jacc-cache: " << Message << "\nRun 'jacc-cache "
               << (Command.empty() ? "" : Command.str() + " ") << "--help' for the usage.\n";
  return Usage;
}

std::string humanSize(uint64_t Bytes) {
  if (Bytes < 1024)
    return std::to_string(Bytes) + "B";
  static const char Units[] = "KMGTPE";
  double V = static_cast<double>(Bytes) / 1024;
  unsigned U = 0;
  while (V >= 1023.95 && U + 1 < sizeof Units - 1) {
    V /= 1024;
    ++U;
  }
  return llvm::formatv("{0:f1}", V).str() + Units[U];
}

std::string humanMs(double Ms) {
  if (Ms < 1000)
    return llvm::formatv("{0:f1} ms", Ms).str();
  double S = Ms / 1000;
  if (S < 60)
    return llvm::formatv("{0:f1} s", S).str();
  if (S < 3600)
    return llvm::formatv("{0:f1} min", S / 60).str();
  return llvm::formatv("{0:f1} h", S / 3600).str();
}

std::string whenShort(int64_t T, int64_t Now) {
  int64_t D = Now - T;
  if (D < 0 || D >= 86400)
    return isoLocal(T);
  if (D < 5)
    return "just now";
  if (D < 60)
    return std::to_string(D) + "s ago";
  if (D < 3600)
    return std::to_string(D / 60) + "m ago";
  return std::to_string(D / 3600) + "h ago";
}

std::string whenLong(int64_t T, int64_t Now) {
  std::string S = isoLocal(T);
  int64_t D = Now - T;
  if (D >= 0 && D < 86400)
    S += " (" + whenShort(T, Now) + ")";
  return S;
}

void printJson(llvm::json::Value V) {
  llvm::outs() << llvm::formatv("{0:2}", V) << "\n";
  JsonPrinted = true;
}

void field(llvm::StringRef Label, const llvm::Twine &Value) {
  llvm::outs() << Label;
  // A label as wide as the column still gets a gap (artifact names can be).
  llvm::outs().indent(Label.size() < FieldWidth ? static_cast<unsigned>(FieldWidth - Label.size())
                                                : 2);
  llvm::outs() << Value << "\n";
}

void block(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.rtrim("\n").split(Lines, '\n');
  for (llvm::StringRef L : Lines)
    llvm::outs() << "    " << L.rtrim() << "\n";
}

std::string wrapWords(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 64> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  std::string Out, Line;
  for (llvm::StringRef W : Words) {
    if (!Line.empty() && Line.size() + 1 + W.size() > WrapWidth) {
      Out += Line + "\n" + std::string(FieldWidth, ' ');
      Line.clear();
    }
    Line += (Line.empty() ? "" : " ") + W.str();
  }
  return Out + Line;
}

} // namespace jacc::cachetool
