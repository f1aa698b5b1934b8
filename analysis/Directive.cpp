// Parse the text of one `#pragma acc` directive into its kind and clauses.
//
// This decides only whether the text is valid OpenACC 3.3 syntax (directive names, clause
// spellings, argument shapes and which clauses a directive admits, by the tables of
// DirectiveGrammar.h); whether jacc supports a construct is the frontend's decision.
#include "analysis/Directive.h"

#include "analysis/DeviceTypeClauses.h"
#include "analysis/DirectiveGrammar.h"
#include "support/CText.h"
#include "support/Error.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/ADT/Twine.h>

#include <optional>
#include <utility>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace jacc::analysis {

namespace {

using CK = ClauseKind;

//===-- Text helpers -------------------------------------------------------------------------===//

/// Index of the quote closing the string or character literal opened at S[Open], or npos.
size_t skipLiteral(StringRef S, size_t Open) {
  char Quote = S[Open];
  for (size_t I = Open + 1; I < S.size(); ++I) {
    if (S[I] == '\\')
      ++I;
    else if (S[I] == Quote)
      return I;
  }
  return StringRef::npos;
}

/// Offsets of the first Sep of S outside parentheses, brackets and literals, or npos.
/// S must be balanced (the argument scanner checked it).
size_t findTopLevel(StringRef S, char Sep, size_t From = 0) {
  unsigned Depth = 0;
  for (size_t I = From; I < S.size(); ++I) {
    char C = S[I];
    if (C == '"' || C == '\'') {
      size_t Close = skipLiteral(S, I);
      if (Close == StringRef::npos)
        return StringRef::npos;
      I = Close;
    } else if (C == '(' || C == '[') {
      ++Depth;
    } else if ((C == ')' || C == ']') && Depth > 0) {
      --Depth;
    } else if (C == Sep && Depth == 0) {
      return I;
    }
  }
  return StringRef::npos;
}

/// S trimmed of whitespace; Offset (the offset of S in the directive text) moves along.
StringRef trimmed(StringRef S, size_t &Offset) {
  StringRef Left = S.ltrim();
  Offset += S.size() - Left.size();
  return Left.rtrim();
}

/// If S starts with "word:" (but not "word::", a C++ qualified name), the word, and in
/// RestOffset the offset just past the ':'.
std::optional<StringRef> splitModifier(StringRef S, size_t &RestOffset) {
  if (S.empty() || !isIdentStart(S[0]))
    return std::nullopt;
  size_t I = 1;
  while (I < S.size() && isIdentChar(S[I]))
    ++I;
  StringRef Word = S.take_front(I);
  while (I < S.size() && llvm::isSpace(S[I]))
    ++I;
  if (I >= S.size() || S[I] != ':' || (I + 1 < S.size() && S[I + 1] == ':'))
    return std::nullopt;
  RestOffset = I + 1;
  return Word;
}

//===-- Parser -------------------------------------------------------------------------------===//

class Parser {
public:
  Parser(StringRef Text, unsigned Line) : Text(Text), Line(Line) {}

  Expected<Directive> parse();

private:
  StringRef Text; ///< trimmed directive text; every offset below indexes it
  unsigned Line;
  size_t Pos = 0;

  Error error(size_t Offset, const Twine &Problem) const {
    return makeError(ErrorCode::InvalidArgument, "line " + Twine(Line) + ", column " +
                                                     Twine(Offset + 1) + ": " + Problem +
                                                     " in '#pragma acc " + Text + "'");
  }

  bool atEnd() const { return Pos >= Text.size(); }
  char peek() const { return atEnd() ? '\0' : Text[Pos]; }
  void skipSpace() {
    while (!atEnd() && llvm::isSpace(Text[Pos]))
      ++Pos;
  }
  StringRef identifier() {
    size_t Start = Pos;
    if (atEnd() || !isIdentStart(Text[Pos]))
      return StringRef();
    while (!atEnd() && isIdentChar(Text[Pos]))
      ++Pos;
    return Text.slice(Start, Pos);
  }
  /// Consume the next word if it is Word (after any whitespace); otherwise consume nothing.
  bool acceptWord(StringRef Word) {
    size_t Save = Pos;
    skipSpace();
    if (identifier() == Word)
      return true;
    Pos = Save;
    return false;
  }

  Error parenthesised(StringRef &Arg, size_t &ArgOffset);
  Error directiveName(Directive &D);
  Error directiveArgument(Directive &D);
  Error clause(Directive &D);
  Error clauseArgument(Clause &C, DirectiveKind D, StringRef RawArg, size_t Offset);
  Error list(StringRef Arg, size_t Offset, const Twine &What, StringRef ListName,
             std::vector<std::string> &Out);
  Error checkClauseSet(const Directive &D);
};

/// With Pos at '(', find the matching ')' while checking that parentheses and brackets nest.
/// Arg receives the text in between, ArgOffset its offset; Pos moves past the ')'.
Error Parser::parenthesised(StringRef &Arg, size_t &ArgOffset) {
  size_t Open = Pos;
  llvm::SmallVector<char, 8> Closers;
  for (size_t I = Open; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '"' || C == '\'') {
      // Brackets inside bind("name") or a character constant do not nest.
      size_t Close = skipLiteral(Text, I);
      if (Close == StringRef::npos)
        return error(I, "unterminated literal");
      I = Close;
    } else if (C == '(') {
      Closers.push_back(')');
    } else if (C == '[') {
      Closers.push_back(']');
    } else if (C == ')' || C == ']') {
      if (C != Closers.back())
        return error(I, "unbalanced parentheses");
      Closers.pop_back();
      if (Closers.empty()) {
        Arg = Text.slice(Open + 1, I);
        ArgOffset = Open + 1;
        Pos = I + 1;
        return Error::success();
      }
    }
  }
  return error(Open, "unbalanced parentheses");
}

Error Parser::directiveName(Directive &D) {
  size_t Offset = Pos;
  StringRef Word = identifier();
  if (Word.empty()) {
    if (atEnd())
      return error(Pos, "missing directive name");
    return error(Pos, "expected a directive name, found '" + Text.substr(Pos, 1) + "'");
  }
  auto Combined = [&](DirectiveKind Alone, DirectiveKind WithLoop) {
    return acceptWord("loop") ? WithLoop : Alone;
  };
  auto SecondWord = [&](DirectiveKind K) -> Error {
    if (acceptWord("data")) {
      D.Kind = K;
      return Error::success();
    }
    skipSpace();
    return error(Pos, "expected 'data' after '" + Word + "'");
  };
  if (Word == "parallel")
    D.Kind = Combined(DirectiveKind::Parallel, DirectiveKind::ParallelLoop);
  else if (Word == "kernels")
    D.Kind = Combined(DirectiveKind::Kernels, DirectiveKind::KernelsLoop);
  else if (Word == "serial")
    D.Kind = Combined(DirectiveKind::Serial, DirectiveKind::SerialLoop);
  else if (Word == "enter")
    return SecondWord(DirectiveKind::EnterData);
  else if (Word == "exit")
    return SecondWord(DirectiveKind::ExitData);
  else {
    std::optional<DirectiveKind> K = llvm::StringSwitch<std::optional<DirectiveKind>>(Word)
                                         .Case("loop", DirectiveKind::Loop)
                                         .Case("atomic", DirectiveKind::Atomic)
                                         .Case("routine", DirectiveKind::Routine)
                                         .Case("cache", DirectiveKind::Cache)
                                         .Case("data", DirectiveKind::Data)
                                         .Case("update", DirectiveKind::Update)
                                         .Case("wait", DirectiveKind::Wait)
                                         .Case("host_data", DirectiveKind::HostData)
                                         .Case("declare", DirectiveKind::Declare)
                                         .Case("init", DirectiveKind::Init)
                                         .Case("shutdown", DirectiveKind::Shutdown)
                                         .Case("set", DirectiveKind::Set)
                                         .Default(std::nullopt);
    if (!K)
      return error(Offset, "unknown directive '" + Word + "'");
    D.Kind = *K;
  }
  return Error::success();
}

/// The queue values of an async or wait argument (after wait's `devnum: n :` and `queues:`
/// modifiers) into Values; the offset in Arg of a literal one OpenACC does not allow (below
/// acc_async_default, -3), npos when none.
static size_t queueValues(StringRef Arg, std::vector<std::string> &Values, long long &Bad) {
  size_t Start = 0;
  for (size_t Colon = findTopLevel(Arg, ':'); Colon != StringRef::npos;
       Colon = findTopLevel(Arg, ':', Colon + 1))
    Start = Colon + 1;
  size_t BadAt = StringRef::npos;
  for (;;) {
    size_t Comma = findTopLevel(Arg, ',', Start);
    size_t End = Comma == StringRef::npos ? Arg.size() : Comma;
    StringRef Item = Arg.slice(Start, End);
    StringRef Text = Item.trim();
    Values.push_back(Text.str());
    std::optional<long long> Value = queueLiteral(Text);
    if (BadAt == StringRef::npos && Value && *Value < -3) {
      Bad = *Value;
      BadAt = Start + (Item.size() - Item.ltrim().size());
    }
    if (Comma == StringRef::npos)
      return BadAt;
    Start = Comma + 1;
  }
}

static std::string invalidQueueText(long long Value) {
  return "async argument " + std::to_string(Value) +
         " is not valid: use a queue number >= 0, acc_async_noval or acc_async_sync";
}

/// The parenthesised argument that cache (required), routine and wait (optional) take right
/// after their name.
Error Parser::directiveArgument(Directive &D) {
  if (D.Kind != DirectiveKind::Cache && D.Kind != DirectiveKind::Routine &&
      D.Kind != DirectiveKind::Wait)
    return Error::success();
  size_t NameEnd = Pos;
  skipSpace();
  if (peek() != '(') {
    Pos = NameEnd;
    if (D.Kind == DirectiveKind::Cache)
      return error(Pos, "missing required argument (var-list) of 'cache'");
    return Error::success();
  }
  StringRef Raw;
  size_t Offset = 0;
  if (Error E = parenthesised(Raw, Offset))
    return E;
  StringRef Arg = trimmed(Raw, Offset);
  D.Argument = Arg.str();
  if (D.Kind != DirectiveKind::Cache) {
    if (Arg.empty())
      return error(Offset, Twine("empty argument of '") + directiveKindName(D.Kind) + "'");
    long long Queue = 0;
    if (size_t At; D.Kind == DirectiveKind::Wait &&
                   (At = queueValues(Arg, D.Queues, Queue)) != StringRef::npos)
      return error(Offset + At, invalidQueueText(Queue));
    return Error::success();
  }
  size_t RestOffset = 0;
  if (std::optional<StringRef> Modifier = splitModifier(Arg, RestOffset)) {
    if (*Modifier != "readonly")
      return error(Offset, "unknown modifier '" + *Modifier + "' in 'cache'");
    return list(Arg.drop_front(RestOffset), Offset + RestOffset, "'cache'", "var-list", D.Vars);
  }
  return list(Arg, Offset, "'cache'", "var-list", D.Vars);
}

/// Split Arg at top-level commas into Out; every item must be non-empty.
Error Parser::list(StringRef Arg, size_t Offset, const Twine &What, StringRef ListName,
                   std::vector<std::string> &Out) {
  size_t Start = Offset;
  if (trimmed(Arg, Start).empty())
    return error(Start, "empty " + ListName + " in " + What);
  size_t Begin = 0;
  while (true) {
    size_t End = findTopLevel(Arg, ',', Begin);
    size_t ItemOffset = Offset + Begin;
    StringRef Item = trimmed(Arg.slice(Begin, End), ItemOffset);
    if (Item.empty())
      return error(ItemOffset, "empty item in the " + ListName + " of " + What);
    Out.push_back(Item.str());
    if (End == StringRef::npos)
      return Error::success();
    Begin = End + 1;
  }
}

Error Parser::clause(Directive &D) {
  size_t NameOffset = Pos;
  StringRef Name = identifier();
  std::optional<ClauseKind> Kind = lookupClause(Name);
  if (!Kind)
    return error(NameOffset, "unknown clause '" + Name + "'");
  Clause C;
  C.Kind = *Kind;
  C.Name = Name.str();
  C.Column = NameOffset + 1;

  size_t NameEnd = Pos;
  skipSpace();
  StringRef Arg;
  size_t ArgOffset = Pos;
  if (peek() == '[')
    // Seen in the wild: num_gangs[0](n), a vendor's per-dimension spelling.
    return error(Pos, "'" + Name + "[' is not OpenACC: write " + Name +
                          "(value), with the clause's argument in parentheses");
  if (peek() == '(') {
    if (Error E = parenthesised(Arg, ArgOffset))
      return E;
    C.HasArgument = true;
  } else {
    Pos = NameEnd;
  }

  if (!(allowedClauses(D.Kind) & clauseBit(C.Kind)))
    return error(NameOffset,
                 "clause '" + Name + "' is not allowed on '" + directiveKindName(D.Kind) + "'");
  if (Error E = clauseArgument(C, D.Kind, Arg, ArgOffset))
    return E;
  D.Clauses.push_back(std::move(C));
  return Error::success();
}

Error Parser::clauseArgument(Clause &C, DirectiveKind D, StringRef RawArg, size_t Offset) {
  StringRef Arg = trimmed(RawArg, Offset);
  C.Argument = Arg.str();
  std::string What = "clause '" + C.Name + "'";
  size_t NameOffset = C.Column - 1;
  ArgRule Rule = argRule(C.Kind, D);

  switch (Rule) {
  case ArgRule::None:
    if (C.HasArgument)
      return error(NameOffset, What + " takes no argument");
    return Error::success();
  case ArgRule::Optional:
    if (C.HasArgument && Arg.empty())
      return error(Offset, "empty argument of " + What);
    if ((C.Kind == CK::Async || C.Kind == CK::Wait) && !Arg.empty()) {
      long long Queue = 0;
      if (size_t At = queueValues(Arg, C.Queues, Queue); At != StringRef::npos)
        return error(Offset + At, invalidQueueText(Queue));
    }
    return Error::success();
  case ArgRule::Required:
  case ArgRule::List:
  case ArgRule::VarList:
    if (!C.HasArgument)
      return error(NameOffset, "missing required argument of " + What);
    break;
  }

  switch (C.Kind) {
  case CK::Collapse:
    // collapse(force:n) (OpenACC 3.3) also collapses loops with code between them; jacc
    // collapses perfectly nested loops only, and says so when they are not.
    if (Arg.startswith("force") && Arg.drop_front(5).ltrim().startswith(":")) {
      Arg = Arg.drop_front(5).ltrim().drop_front(1).ltrim();
      C.Argument = Arg.str();
    }
    // The frontend needs the loop count at parse time, so only a literal will do.
    if (Arg.empty() || !llvm::all_of(Arg, llvm::isDigit) ||
        Arg.find_first_not_of('0') == StringRef::npos)
      return error(Offset, "collapse argument must be a positive integer constant");
    if (unsigned Depth; Arg.getAsInteger(10, Depth) || Depth > MaxCollapse)
      return error(Offset, "collapse argument " + Arg + " is out of range: at most " +
                               Twine(MaxCollapse) + " loops collapse");
    return Error::success();
  case CK::NumGangs: {
    // num_gangs(int-expr-list): one value per gang dimension, of which OpenACC has three.
    unsigned Values = 1;
    for (size_t At = findTopLevel(Arg, ','); At != StringRef::npos;
         At = findTopLevel(Arg, ',', At + 1))
      ++Values;
    if (Values > MaxGangDims)
      return error(Offset, "num_gangs takes at most " + Twine(MaxGangDims) +
                               " values, one per gang dimension; this one has " + Twine(Values));
    break;
  }
  case CK::Default:
    if (Arg != "none" && Arg != "present")
      return error(Offset, "default argument must be 'none' or 'present'");
    return Error::success();
  case CK::Reduction: {
    size_t Colon = findTopLevel(Arg, ':');
    if (Colon == StringRef::npos)
      return error(Offset, "missing ':' after the reduction operator in " + What);
    size_t OpOffset = Offset;
    StringRef OpText = trimmed(Arg.take_front(Colon), OpOffset);
    if (OpText.empty())
      return error(OpOffset, "missing reduction operator in " + What);
    std::optional<ReductionOp> Op = parseReductionOp(OpText);
    if (!Op)
      return error(OpOffset, "unknown reduction operator '" + OpText + "' in " + What);
    C.Op = *Op;
    return list(Arg.drop_front(Colon + 1), Offset + Colon + 1, What, "var-list", C.Vars);
  }
  case CK::Copyin:
  case CK::Copyout:
  case CK::Create: {
    size_t RestOffset = 0;
    if (std::optional<StringRef> Modifier = splitModifier(Arg, RestOffset)) {
      StringRef Allowed = C.Kind == CK::Copyin ? "readonly" : "zero";
      if (*Modifier != Allowed)
        return error(Offset, "unknown modifier '" + *Modifier + "' in " + What);
      return list(Arg.drop_front(RestOffset), Offset + RestOffset, What, "var-list", C.Vars);
    }
    break;
  }
  default:
    break;
  }

  if (Rule == ArgRule::Required) {
    if (Arg.empty())
      return error(Offset, "empty argument of " + What);
    return Error::success();
  }
  return list(Arg, Offset, What, Rule == ArgRule::List ? "list" : "var-list", C.Vars);
}

/// Restrictions on the set of clauses as a whole: the clauses a directive cannot do without,
/// and the atomic clauses that exclude each other.
Error Parser::checkClauseSet(const Directive &D) {
  auto NeedOneOf = [&](ClauseMask Needed, StringRef Names) -> Error {
    for (const Clause &C : D.Clauses)
      if (Needed & clauseBit(C.Kind))
        return Error::success();
    return error(0, Twine("'") + directiveKindName(D.Kind) + "' needs at least one of the " +
                        "clauses " + Names);
  };
  switch (D.Kind) {
  case DirectiveKind::Atomic: {
    const Clause *First = nullptr;
    for (const Clause &C : D.Clauses) {
      if (C.Kind == CK::If)
        continue;
      if (First)
        return error(C.Column - 1, "clause '" + C.Name + "' conflicts with '" + First->Name +
                                       "': atomic takes one of read, write, update, capture");
      First = &C;
    }
    return Error::success();
  }
  case DirectiveKind::Data:
    return NeedOneOf(maskOf(CK::Copy, CK::Copyin, CK::Copyout, CK::Create, CK::NoCreate,
                            CK::Present, CK::Deviceptr, CK::Attach, CK::Default),
                     "copy, copyin, copyout, create, no_create, present, deviceptr, attach, "
                     "default");
  case DirectiveKind::EnterData:
    return NeedOneOf(maskOf(CK::Copyin, CK::Create, CK::Attach), "copyin, create, attach");
  case DirectiveKind::ExitData:
    return NeedOneOf(maskOf(CK::Copyout, CK::Delete, CK::Detach), "copyout, delete, detach");
  case DirectiveKind::Update:
    return NeedOneOf(maskOf(CK::Self, CK::Host, CK::Device), "self, host, device");
  case DirectiveKind::HostData:
    return NeedOneOf(clauseBit(CK::UseDevice), "use_device");
  case DirectiveKind::Declare:
    return NeedOneOf(allowedClauses(DirectiveKind::Declare),
                     "copy, copyin, copyout, create, present, deviceptr, device_resident, link");
  case DirectiveKind::Set:
    return NeedOneOf(maskOf(CK::DefaultAsync, CK::DeviceNum, CK::DeviceType),
                     "default_async, device_num, device_type");
  default:
    return Error::success();
  }
}

Expected<Directive> Parser::parse() {
  Directive D;
  D.Text = Text.str();
  if (Error E = directiveName(D))
    return E;
  if (Error E = directiveArgument(D))
    return E;

  // Clauses may be separated by whitespace or by one comma, but a comma needs a clause on
  // either side.
  bool AfterComma = false;
  size_t CommaOffset = 0;
  while (true) {
    skipSpace();
    if (atEnd()) {
      if (AfterComma)
        return error(CommaOffset, "expected a clause after ','");
      break;
    }
    char C = peek();
    if (C == ',') {
      if (D.Clauses.empty() || AfterComma)
        return error(Pos, "unexpected ','");
      AfterComma = true;
      CommaOffset = Pos++;
      continue;
    }
    if (C == ')' || C == ']')
      return error(Pos, "unbalanced parentheses");
    if (!isIdentStart(C))
      return error(Pos, "unexpected '" + Text.substr(Pos, 1) + "'");
    if (Error E = clause(D))
      return E;
    AfterComma = false;
  }

  if (std::optional<DeviceTypeProblem> P = resolveDeviceTypes(D))
    return error(P->Column - 1, P->Why);
  if (Error E = checkClauseSet(D))
    return E;
  return D;
}

} // namespace

std::optional<long long> queueLiteral(StringRef Text) {
  std::string Digits;
  for (char Ch : Text)
    if (Ch != ' ' && Ch != '(' && Ch != ')')
      Digits += Ch;
  long long Value = 0;
  if (StringRef(Digits).getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

const Clause *Directive::find(ClauseKind K) const {
  for (const Clause &C : Clauses)
    if (C.Kind == K)
      return &C;
  return nullptr;
}

bool Directive::isCompute() const {
  switch (Kind) {
  case DirectiveKind::Parallel:
  case DirectiveKind::Kernels:
  case DirectiveKind::Serial:
  case DirectiveKind::ParallelLoop:
  case DirectiveKind::KernelsLoop:
  case DirectiveKind::SerialLoop:
    return true;
  default:
    return false;
  }
}

bool Directive::isCombinedLoop() const {
  return Kind == DirectiveKind::ParallelLoop || Kind == DirectiveKind::KernelsLoop ||
         Kind == DirectiveKind::SerialLoop;
}

Expected<Directive> parseDirective(StringRef Text, unsigned Line) {
  Expected<Directive> D = Parser(Text.trim(), Line).parse();
  if (D)
    D->Line = Line;
  return D;
}

} // namespace jacc::analysis
