// Tests of the `#pragma acc` directive parser: directive names, clause spellings and aliases,
// argument shapes, the allowed-clause table and the wording of the errors.
#include "analysis/Directive.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace jacc::analysis;
using jacc::ErrorCode;
using llvm::StringRef;

namespace {

/// Parse text that must be valid; report the error otherwise.
Directive parse(StringRef Text, unsigned Line = 1) {
  llvm::Expected<Directive> D = parseDirective(Text, Line);
  if (!D) {
    std::string Message;
    jacc::takeError(D.takeError(), Message);
    ADD_FAILURE() << "'" << Text.str() << "' failed: " << Message;
    return Directive{};
  }
  return std::move(*D);
}

/// Parse text that must be invalid; the whole error message ("" if it parsed).
std::string errorOf(StringRef Text, unsigned Line = 1) {
  llvm::Expected<Directive> D = parseDirective(Text, Line);
  if (D) {
    ADD_FAILURE() << "'" << Text.str() << "' parsed but should not";
    return "";
  }
  std::string Message;
  ErrorCode Code = jacc::takeError(D.takeError(), Message);
  EXPECT_EQ(Code, ErrorCode::InvalidArgument) << Message;
  return Message;
}

/// Expect an error whose message contains Problem.
#define EXPECT_PARSE_ERROR(Text, Problem)                                                          \
  do {                                                                                             \
    std::string Message_ = errorOf(Text);                                                          \
    EXPECT_NE(Message_.find(Problem), std::string::npos)                                           \
        << "message: " << Message_ << "\nexpected to contain: " << (Problem);                      \
  } while (false)

using Strings = std::vector<std::string>;

//===-- Directive names ---------------------------------------------------------------------===//

struct KindCase {
  const char *Text;
  DirectiveKind Kind;
  bool Compute;
  bool Combined;
};

TEST(DirectiveTest, EveryDirectiveKind) {
  const KindCase Cases[] = {
      {"parallel", DirectiveKind::Parallel, true, false},
      {"kernels", DirectiveKind::Kernels, true, false},
      {"serial", DirectiveKind::Serial, true, false},
      {"parallel loop", DirectiveKind::ParallelLoop, true, true},
      {"kernels loop", DirectiveKind::KernelsLoop, true, true},
      {"serial loop", DirectiveKind::SerialLoop, true, true},
      {"loop", DirectiveKind::Loop, false, false},
      {"atomic", DirectiveKind::Atomic, false, false},
      {"routine seq", DirectiveKind::Routine, false, false},
      {"cache(a)", DirectiveKind::Cache, false, false},
      {"data copy(a)", DirectiveKind::Data, false, false},
      {"enter data copyin(a)", DirectiveKind::EnterData, false, false},
      {"exit data copyout(a)", DirectiveKind::ExitData, false, false},
      {"update host(a)", DirectiveKind::Update, false, false},
      {"wait", DirectiveKind::Wait, false, false},
      {"host_data use_device(a)", DirectiveKind::HostData, false, false},
      {"declare create(a)", DirectiveKind::Declare, false, false},
      {"init", DirectiveKind::Init, false, false},
      {"shutdown", DirectiveKind::Shutdown, false, false},
      {"set device_num(0)", DirectiveKind::Set, false, false},
  };
  for (const KindCase &C : Cases) {
    SCOPED_TRACE(C.Text);
    Directive D = parse(C.Text);
    EXPECT_EQ(D.Kind, C.Kind);
    EXPECT_EQ(D.isCompute(), C.Compute);
    EXPECT_EQ(D.isCombinedLoop(), C.Combined);
  }
}

TEST(DirectiveTest, DirectiveKindNames) {
  EXPECT_STREQ(directiveKindName(DirectiveKind::ParallelLoop), "parallel loop");
  EXPECT_STREQ(directiveKindName(DirectiveKind::EnterData), "enter data");
  EXPECT_STREQ(directiveKindName(DirectiveKind::ExitData), "exit data");
  EXPECT_STREQ(directiveKindName(DirectiveKind::HostData), "host_data");
  EXPECT_STREQ(directiveKindName(DirectiveKind::Cache), "cache");
}

TEST(DirectiveTest, TextIsTrimmedAndLineKept) {
  Directive D = parse("  \t parallel loop gang \t ", 17);
  EXPECT_EQ(D.Text, "parallel loop gang");
  EXPECT_EQ(D.Line, 17u);
  EXPECT_EQ(D.Kind, DirectiveKind::ParallelLoop);
  ASSERT_EQ(D.Clauses.size(), 1u);
  EXPECT_EQ(D.Clauses[0].Column, 15u);
}

TEST(DirectiveTest, WhitespaceBetweenWords) {
  EXPECT_EQ(parse("parallel    loop").Kind, DirectiveKind::ParallelLoop);
  EXPECT_EQ(parse("kernels\tloop").Kind, DirectiveKind::KernelsLoop);
  EXPECT_EQ(parse("serial \t loop").Kind, DirectiveKind::SerialLoop);
  EXPECT_EQ(parse("enter   data create(a)").Kind, DirectiveKind::EnterData);
  EXPECT_EQ(parse("exit\tdata delete(a)").Kind, DirectiveKind::ExitData);
  // Joined continuation lines may leave a newline behind.
  EXPECT_EQ(parse("parallel\nloop\n  gang").Kind, DirectiveKind::ParallelLoop);

  Directive D = parse("parallel   copyin (a)   num_gangs ( 4 )");
  ASSERT_EQ(D.Clauses.size(), 2u);
  EXPECT_EQ(D.Clauses[0].Vars, Strings{"a"});
  EXPECT_EQ(D.Clauses[1].Argument, "4");
}

TEST(DirectiveTest, ParallelFollowedByALoopLikeWordIsNotCombined) {
  // "loopy" is not the word "loop", so it is read (and rejected) as a clause.
  EXPECT_PARSE_ERROR("parallel loopy", "unknown clause 'loopy'");
  EXPECT_PARSE_ERROR("parallelloop", "unknown directive 'parallelloop'");
}

TEST(DirectiveTest, NoClauses) {
  Directive D = parse("parallel");
  EXPECT_TRUE(D.Clauses.empty());
  EXPECT_EQ(D.find(ClauseKind::Copy), nullptr);
  EXPECT_FALSE(D.has(ClauseKind::Copy));
}

//===-- Clause spellings --------------------------------------------------------------------===//

struct SpellingCase {
  const char *Text;
  ClauseKind Kind;
  const char *Name;
};

TEST(DirectiveTest, EveryClauseSpelling) {
  const SpellingCase Cases[] = {
      {"loop gang", ClauseKind::Gang, "gang"},
      {"loop worker", ClauseKind::Worker, "worker"},
      {"loop vector", ClauseKind::Vector, "vector"},
      {"loop seq", ClauseKind::Seq, "seq"},
      {"loop independent", ClauseKind::Independent, "independent"},
      {"loop auto", ClauseKind::Auto, "auto"},
      {"loop collapse(2)", ClauseKind::Collapse, "collapse"},
      {"loop tile(4, 4)", ClauseKind::Tile, "tile"},
      {"init device_type(nvidia)", ClauseKind::DeviceType, "device_type"},
      {"init dtype(nvidia)", ClauseKind::DeviceType, "dtype"},
      {"parallel reduction(+:s)", ClauseKind::Reduction, "reduction"},
      {"parallel private(t)", ClauseKind::Private, "private"},
      {"parallel firstprivate(t)", ClauseKind::Firstprivate, "firstprivate"},
      {"parallel present(a)", ClauseKind::Present, "present"},
      {"parallel deviceptr(p)", ClauseKind::Deviceptr, "deviceptr"},
      {"parallel copy(a)", ClauseKind::Copy, "copy"},
      {"parallel pcopy(a)", ClauseKind::Copy, "pcopy"},
      {"parallel present_or_copy(a)", ClauseKind::Copy, "present_or_copy"},
      {"parallel copyin(a)", ClauseKind::Copyin, "copyin"},
      {"parallel pcopyin(a)", ClauseKind::Copyin, "pcopyin"},
      {"parallel present_or_copyin(a)", ClauseKind::Copyin, "present_or_copyin"},
      {"parallel copyout(a)", ClauseKind::Copyout, "copyout"},
      {"parallel pcopyout(a)", ClauseKind::Copyout, "pcopyout"},
      {"parallel present_or_copyout(a)", ClauseKind::Copyout, "present_or_copyout"},
      {"parallel create(a)", ClauseKind::Create, "create"},
      {"parallel pcreate(a)", ClauseKind::Create, "pcreate"},
      {"parallel present_or_create(a)", ClauseKind::Create, "present_or_create"},
      {"parallel no_create(a)", ClauseKind::NoCreate, "no_create"},
      {"parallel attach(p)", ClauseKind::Attach, "attach"},
      {"exit data detach(p)", ClauseKind::Detach, "detach"},
      {"exit data delete(a)", ClauseKind::Delete, "delete"},
      {"host_data use_device(a)", ClauseKind::UseDevice, "use_device"},
      {"declare link(a)", ClauseKind::Link, "link"},
      {"declare device_resident(a)", ClauseKind::DeviceResident, "device_resident"},
      {"update host(a)", ClauseKind::Host, "host"},
      {"update device(a)", ClauseKind::Device, "device"},
      {"update self(a)", ClauseKind::Self, "self"},
      {"parallel self", ClauseKind::Self, "self"},
      {"exit data finalize delete(a)", ClauseKind::Finalize, "finalize"},
      {"parallel async", ClauseKind::Async, "async"},
      {"parallel wait", ClauseKind::Wait, "wait"},
      {"parallel num_gangs(4)", ClauseKind::NumGangs, "num_gangs"},
      {"parallel num_workers(4)", ClauseKind::NumWorkers, "num_workers"},
      {"parallel vector_length(128)", ClauseKind::VectorLength, "vector_length"},
      {"parallel if(n > 100)", ClauseKind::If, "if"},
      {"parallel default(none)", ClauseKind::Default, "default"},
      {"atomic read", ClauseKind::Read, "read"},
      {"atomic write", ClauseKind::Write, "write"},
      {"atomic update", ClauseKind::Update, "update"},
      {"atomic capture", ClauseKind::Capture, "capture"},
      {"routine bind(f)", ClauseKind::Bind, "bind"},
      {"routine seq nohost", ClauseKind::Nohost, "nohost"},
      {"init device_num(1)", ClauseKind::DeviceNum, "device_num"},
      {"set default_async(2)", ClauseKind::DefaultAsync, "default_async"},
  };
  for (const SpellingCase &C : Cases) {
    SCOPED_TRACE(C.Text);
    Directive D = parse(C.Text);
    const Clause *Found = D.find(C.Kind);
    ASSERT_NE(Found, nullptr);
    EXPECT_EQ(Found->Name, C.Name);
    EXPECT_TRUE(D.has(C.Kind));
  }
}

TEST(DirectiveTest, IfPresentOnUpdateAndHostData) {
  Directive D = parse("update if_present host(a)");
  EXPECT_TRUE(D.has(ClauseKind::IfPresent));
  EXPECT_TRUE(parse("host_data use_device(a) if_present").has(ClauseKind::IfPresent));
}

TEST(DirectiveTest, ClauseOrderAndColumns) {
  Directive D = parse("parallel loop gang vector copy(a) reduction(+:s)");
  ASSERT_EQ(D.Clauses.size(), 4u);
  EXPECT_EQ(D.Clauses[0].Kind, ClauseKind::Gang);
  EXPECT_EQ(D.Clauses[0].Column, 15u);
  EXPECT_EQ(D.Clauses[1].Kind, ClauseKind::Vector);
  EXPECT_EQ(D.Clauses[1].Column, 20u);
  EXPECT_EQ(D.Clauses[2].Kind, ClauseKind::Copy);
  EXPECT_EQ(D.Clauses[2].Column, 27u);
  EXPECT_EQ(D.Clauses[3].Kind, ClauseKind::Reduction);
  EXPECT_EQ(D.Clauses[3].Column, 35u);
}

TEST(DirectiveTest, FindReturnsTheFirstClauseOfAKind) {
  Directive D = parse("parallel copy(a) copyin(b) copy(c)");
  const Clause *C = D.find(ClauseKind::Copy);
  ASSERT_NE(C, nullptr);
  EXPECT_EQ(C->Vars, Strings{"a"});
  EXPECT_EQ(D.find(ClauseKind::Copyout), nullptr);
}

//===-- Separators --------------------------------------------------------------------------===//

TEST(DirectiveTest, CommaSeparatedClauses) {
  Directive D = parse("parallel loop gang, vector_length(32),copy(a) ,  private(t)");
  ASSERT_EQ(D.Clauses.size(), 4u);
  EXPECT_EQ(D.Clauses[0].Kind, ClauseKind::Gang);
  EXPECT_EQ(D.Clauses[1].Kind, ClauseKind::VectorLength);
  EXPECT_EQ(D.Clauses[2].Kind, ClauseKind::Copy);
  EXPECT_EQ(D.Clauses[3].Kind, ClauseKind::Private);
}

TEST(DirectiveTest, ClausesRightAfterAClosingParenthesis) {
  Directive D = parse("parallel copy(a)copyin(b)");
  ASSERT_EQ(D.Clauses.size(), 2u);
  EXPECT_EQ(D.Clauses[1].Kind, ClauseKind::Copyin);
}

TEST(DirectiveTest, MisplacedCommas) {
  EXPECT_EQ(errorOf("parallel , copy(a)"),
            "line 1, column 10: unexpected ',' in '#pragma acc parallel , copy(a)'");
  EXPECT_EQ(errorOf("parallel copy(a),, copyin(b)"),
            "line 1, column 18: unexpected ',' in '#pragma acc parallel copy(a),, copyin(b)'");
  EXPECT_EQ(errorOf("parallel copy(a),"),
            "line 1, column 17: expected a clause after ',' in '#pragma acc parallel copy(a),'");
}

TEST(DirectiveTest, StrayCharacters) {
  EXPECT_EQ(errorOf("parallel loop + gang"),
            "line 1, column 15: unexpected '+' in '#pragma acc parallel loop + gang'");
  EXPECT_PARSE_ERROR("parallel(copy)", "column 9: unexpected '('");
  EXPECT_PARSE_ERROR("(parallel)", "column 1: expected a directive name, found '('");
}

//===-- Arguments ---------------------------------------------------------------------------===//

TEST(DirectiveTest, VarListSplitsAtTopLevelCommasOnly) {
  Directive D = parse("parallel copyin(a[0:n*(m+1)], b ,c[i][0:f(x, y)], s.p[0:2])");
  const Clause *C = D.find(ClauseKind::Copyin);
  ASSERT_NE(C, nullptr);
  EXPECT_TRUE(C->HasArgument);
  EXPECT_EQ(C->Argument, "a[0:n*(m+1)], b ,c[i][0:f(x, y)], s.p[0:2]");
  EXPECT_EQ(C->Vars, (Strings{"a[0:n*(m+1)]", "b", "c[i][0:f(x, y)]", "s.p[0:2]"}));
}

TEST(DirectiveTest, NestedParenthesesInExpressionArguments) {
  Directive D = parse("parallel num_gangs((n+1)/2) vector_length( (v) ) if(f(a, (b)) && c[0])");
  EXPECT_EQ(D.find(ClauseKind::NumGangs)->Argument, "(n+1)/2");
  EXPECT_EQ(D.find(ClauseKind::VectorLength)->Argument, "(v)");
  EXPECT_EQ(D.find(ClauseKind::If)->Argument, "f(a, (b)) && c[0]");
  // Expression clauses keep their text whole: no Vars.
  EXPECT_TRUE(D.find(ClauseKind::If)->Vars.empty());
}

TEST(DirectiveTest, EveryVarListClauseFillsVars) {
  const std::pair<const char *, ClauseKind> Cases[] = {
      {"parallel private(a, b)", ClauseKind::Private},
      {"parallel firstprivate(a, b)", ClauseKind::Firstprivate},
      {"parallel present(a, b)", ClauseKind::Present},
      {"parallel deviceptr(a, b)", ClauseKind::Deviceptr},
      {"parallel copy(a, b)", ClauseKind::Copy},
      {"parallel copyin(a, b)", ClauseKind::Copyin},
      {"parallel copyout(a, b)", ClauseKind::Copyout},
      {"parallel create(a, b)", ClauseKind::Create},
      {"parallel no_create(a, b)", ClauseKind::NoCreate},
      {"parallel attach(a, b)", ClauseKind::Attach},
      {"exit data detach(a, b)", ClauseKind::Detach},
      {"exit data delete(a, b)", ClauseKind::Delete},
      {"host_data use_device(a, b)", ClauseKind::UseDevice},
      {"declare link(a, b)", ClauseKind::Link},
      {"declare device_resident(a, b)", ClauseKind::DeviceResident},
      {"update host(a, b)", ClauseKind::Host},
      {"update device(a, b)", ClauseKind::Device},
      {"update self(a, b)", ClauseKind::Self},
      {"loop reduction(+: a, b)", ClauseKind::Reduction},
  };
  for (const auto &[Text, Kind] : Cases) {
    SCOPED_TRACE(Text);
    Directive D = parse(Text);
    const Clause *C = D.find(Kind);
    ASSERT_NE(C, nullptr);
    EXPECT_EQ(C->Vars, (Strings{"a", "b"}));
  }
}

TEST(DirectiveTest, VarListErrors) {
  EXPECT_EQ(errorOf("parallel copy()"),
            "line 1, column 15: empty var-list in clause 'copy' in '#pragma acc parallel copy()'");
  EXPECT_EQ(errorOf("parallel copy(a,,b)"), "line 1, column 17: empty item in the var-list of "
                                            "clause 'copy' in '#pragma acc parallel copy(a,,b)'");
  EXPECT_PARSE_ERROR("parallel private(a, )", "column 20: empty item in the var-list");
  EXPECT_PARSE_ERROR("parallel copy", "column 10: missing required argument of clause 'copy'");
  EXPECT_PARSE_ERROR("update self", "column 8: missing required argument of clause 'self'");
  EXPECT_PARSE_ERROR("declare link", "missing required argument of clause 'link'");
}

TEST(DirectiveTest, DataModifiers) {
  Directive D = parse("parallel copyin(readonly: a, b) copyout( zero :c) create(zero:d[0:n])");
  const Clause *In = D.find(ClauseKind::Copyin);
  EXPECT_EQ(In->Argument, "readonly: a, b");
  EXPECT_EQ(In->Vars, (Strings{"a", "b"}));
  const Clause *Out = D.find(ClauseKind::Copyout);
  EXPECT_EQ(Out->Argument, "zero :c");
  EXPECT_EQ(Out->Vars, Strings{"c"});
  EXPECT_EQ(D.find(ClauseKind::Create)->Vars, Strings{"d[0:n]"});
  // Aliases take the modifier too.
  EXPECT_EQ(parse("parallel pcopyin(readonly:a)").find(ClauseKind::Copyin)->Vars, Strings{"a"});
  // A qualified name is not a modifier.
  EXPECT_EQ(parse("parallel copyin(ns::a)").find(ClauseKind::Copyin)->Vars, Strings{"ns::a"});
}

TEST(DirectiveTest, DataModifierErrors) {
  EXPECT_EQ(errorOf("parallel copyin(zero: a)"),
            "line 1, column 17: unknown modifier 'zero' in clause 'copyin' in "
            "'#pragma acc parallel copyin(zero: a)'");
  EXPECT_PARSE_ERROR("parallel copyout(readonly: a)",
                     "unknown modifier 'readonly' in clause 'copyout'");
  EXPECT_PARSE_ERROR("parallel create(readonly: a)",
                     "unknown modifier 'readonly' in clause 'create'");
  EXPECT_PARSE_ERROR("parallel copyin(readonly:)", "empty var-list in clause 'copyin'");
}

TEST(DirectiveTest, TileAndDeviceTypeLists) {
  Directive D = parse("loop tile(8, *, n/2)");
  EXPECT_EQ(D.find(ClauseKind::Tile)->Vars, (Strings{"8", "*", "n/2"}));
  EXPECT_EQ(parse("shutdown device_type(*)").find(ClauseKind::DeviceType)->Vars, Strings{"*"});
  EXPECT_EQ(parse("update self(a) dtype(nvidia, radeon)").find(ClauseKind::DeviceType)->Vars,
            (Strings{"nvidia", "radeon"}));
  EXPECT_PARSE_ERROR("loop tile()", "column 11: empty list in clause 'tile'");
  EXPECT_PARSE_ERROR("parallel num_gangs[0](n)",
                     "column 19: 'num_gangs[' is not OpenACC: write num_gangs(value), with the "
                     "clause's argument in parentheses");
  EXPECT_PARSE_ERROR("loop tile", "missing required argument of clause 'tile'");
  EXPECT_PARSE_ERROR("parallel device_type", "missing required argument of clause 'device_type'");
}

TEST(DirectiveTest, QueueValuesOfAsyncAndWait) {
  EXPECT_EQ(parse("parallel async(q) wait(1, f(a, b))").find(ClauseKind::Async)->Queues,
            Strings{"q"});
  EXPECT_EQ(parse("parallel async(q) wait(1, f(a, b))").find(ClauseKind::Wait)->Queues,
            (Strings{"1", "f(a, b)"}));
  EXPECT_EQ(parse("wait(devnum: 0 : queues: 1, q)").Queues, (Strings{"1", "q"}));
  EXPECT_EQ(parse("update self(a) async(-1) wait(-2, (-3))").find(ClauseKind::Wait)->Queues,
            (Strings{"-2", "(-3)"}));
  EXPECT_TRUE(parse("parallel async").find(ClauseKind::Async)->Queues.empty());
  EXPECT_PARSE_ERROR("parallel async(-99)",
                     "column 16: async argument -99 is not valid: use a queue number >= 0, "
                     "acc_async_noval or acc_async_sync");
  EXPECT_PARSE_ERROR("update self(a) wait(1, ( -4 ))", "column 24: async argument -4 is not valid");
  EXPECT_PARSE_ERROR("wait(q, -7)", "column 9: async argument -7 is not valid");
}

TEST(DirectiveTest, LoopParallelismArguments) {
  Directive D = parse("loop gang(num:4, static:*) worker(4) vector(128)");
  EXPECT_EQ(D.find(ClauseKind::Gang)->Argument, "num:4, static:*");
  EXPECT_TRUE(D.find(ClauseKind::Gang)->HasArgument);
  EXPECT_EQ(D.find(ClauseKind::Worker)->Argument, "4");
  EXPECT_EQ(D.find(ClauseKind::Vector)->Argument, "128");

  Directive Bare = parse("loop gang worker vector");
  for (const Clause &C : Bare.Clauses) {
    EXPECT_FALSE(C.HasArgument) << C.Name;
    EXPECT_TRUE(C.Argument.empty()) << C.Name;
  }
  EXPECT_EQ(parse("loop vector(length: 64)").find(ClauseKind::Vector)->Argument, "length: 64");
  EXPECT_PARSE_ERROR("loop gang()", "column 11: empty argument of clause 'gang'");
  EXPECT_PARSE_ERROR("loop vector( )", "empty argument of clause 'vector'");
}

TEST(DirectiveTest, OptionalArgumentsOfAsyncWaitSelf) {
  Directive D = parse("parallel async(q) wait(1, 2) self(n < 10)");
  EXPECT_EQ(D.find(ClauseKind::Async)->Argument, "q");
  EXPECT_EQ(D.find(ClauseKind::Wait)->Argument, "1, 2");
  const Clause *Self = D.find(ClauseKind::Self);
  EXPECT_EQ(Self->Argument, "n < 10");
  // On a compute construct self takes a condition, not a var-list.
  EXPECT_TRUE(Self->Vars.empty());

  Directive Bare = parse("kernels async wait self");
  EXPECT_FALSE(Bare.find(ClauseKind::Async)->HasArgument);
  EXPECT_FALSE(Bare.find(ClauseKind::Wait)->HasArgument);
  EXPECT_FALSE(Bare.find(ClauseKind::Self)->HasArgument);
  EXPECT_PARSE_ERROR("parallel async()", "empty argument of clause 'async'");
}

TEST(DirectiveTest, RequiredExpressionArguments) {
  EXPECT_PARSE_ERROR("parallel num_gangs", "column 10: missing required argument of clause "
                                           "'num_gangs'");
  EXPECT_PARSE_ERROR("parallel num_workers", "missing required argument of clause 'num_workers'");
  EXPECT_PARSE_ERROR("parallel vector_length()", "empty argument of clause 'vector_length'");
  EXPECT_PARSE_ERROR("parallel if", "missing required argument of clause 'if'");
  EXPECT_PARSE_ERROR("parallel if( )", "empty argument of clause 'if'");
  EXPECT_PARSE_ERROR("routine bind", "missing required argument of clause 'bind'");
  EXPECT_PARSE_ERROR("set device_num", "missing required argument of clause 'device_num'");
}

TEST(DirectiveTest, ClausesWithoutArguments) {
  EXPECT_EQ(errorOf("loop seq(1)"),
            "line 1, column 6: clause 'seq' takes no argument in '#pragma acc loop seq(1)'");
  EXPECT_PARSE_ERROR("loop independent(x)", "clause 'independent' takes no argument");
  EXPECT_PARSE_ERROR("loop auto()", "clause 'auto' takes no argument");
  EXPECT_PARSE_ERROR("atomic read(x)", "clause 'read' takes no argument");
  EXPECT_PARSE_ERROR("exit data delete(a) finalize(1)", "clause 'finalize' takes no argument");
  EXPECT_PARSE_ERROR("update host(a) if_present(1)", "clause 'if_present' takes no argument");
  EXPECT_PARSE_ERROR("routine seq nohost(1)", "clause 'nohost' takes no argument");
}

TEST(DirectiveTest, StringLiteralArguments) {
  Directive D = parse("routine(f) seq bind(\"f_dev(int)\")");
  EXPECT_EQ(D.find(ClauseKind::Bind)->Argument, "\"f_dev(int)\"");
  EXPECT_PARSE_ERROR("routine seq bind(\"f)", "unterminated literal");
}

//===-- Collapse and default ----------------------------------------------------------------===//

TEST(DirectiveTest, Collapse) {
  EXPECT_EQ(parse("loop collapse(2)").find(ClauseKind::Collapse)->Argument, "2");
  EXPECT_EQ(parse("parallel loop collapse( 3 )").find(ClauseKind::Collapse)->Argument, "3");
  EXPECT_EQ(parse("loop collapse(10)").find(ClauseKind::Collapse)->Argument, "10");
}

TEST(DirectiveTest, CollapseErrors) {
  EXPECT_EQ(errorOf("loop collapse(n)"),
            "line 1, column 15: collapse argument must be a positive integer constant in "
            "'#pragma acc loop collapse(n)'");
  EXPECT_PARSE_ERROR("loop collapse(0)", "collapse argument must be a positive integer constant");
  EXPECT_PARSE_ERROR("loop collapse(-1)", "collapse argument must be a positive integer constant");
  EXPECT_PARSE_ERROR("loop collapse(1+1)", "collapse argument must be a positive integer");
  EXPECT_PARSE_ERROR("loop collapse()", "collapse argument must be a positive integer constant");
  EXPECT_PARSE_ERROR("loop collapse", "column 6: missing required argument of clause 'collapse'");
  // Read without wrapping: 99999999999 is not 1215752191.
  EXPECT_PARSE_ERROR("loop collapse(99999999999)",
                     "collapse argument 99999999999 is out of range: at most 64 loops collapse");
  EXPECT_PARSE_ERROR("loop collapse(65)", "collapse argument 65 is out of range");
  EXPECT_EQ(parse("loop collapse(64)").find(ClauseKind::Collapse)->Argument, "64");
}

TEST(DirectiveTest, NumGangsTakesOneValuePerGangDimension) {
  EXPECT_EQ(parse("parallel num_gangs(a, f(b, c), 4)").find(ClauseKind::NumGangs)->Argument,
            "a, f(b, c), 4");
  EXPECT_EQ(errorOf("parallel num_gangs(1,2,3,4,5,6,7,8,9)"),
            "line 1, column 20: num_gangs takes at most 3 values, one per gang dimension; this "
            "one has 9 in '#pragma acc parallel num_gangs(1,2,3,4,5,6,7,8,9)'");
}

TEST(DirectiveTest, Default) {
  EXPECT_EQ(parse("parallel default(none)").find(ClauseKind::Default)->Argument, "none");
  EXPECT_EQ(parse("kernels default( present )").find(ClauseKind::Default)->Argument, "present");
  EXPECT_EQ(parse("data default(none)").find(ClauseKind::Default)->Argument, "none");
  EXPECT_EQ(errorOf("parallel default(shared)"),
            "line 1, column 18: default argument must be 'none' or 'present' in "
            "'#pragma acc parallel default(shared)'");
  EXPECT_PARSE_ERROR("parallel default", "missing required argument of clause 'default'");
}

//===-- Reductions --------------------------------------------------------------------------===//

TEST(DirectiveTest, EveryReductionOperator) {
  const std::pair<const char *, ReductionOp> Ops[] = {
      {"+", ReductionOp::Add},    {"*", ReductionOp::Mul},     {"max", ReductionOp::Max},
      {"min", ReductionOp::Min},  {"&", ReductionOp::BitAnd},  {"|", ReductionOp::BitOr},
      {"^", ReductionOp::BitXor}, {"&&", ReductionOp::LogAnd}, {"||", ReductionOp::LogOr},
  };
  for (const auto &[Name, Op] : Ops) {
    SCOPED_TRACE(Name);
    std::string Text = std::string("parallel loop reduction(") + Name + ":s)";
    Directive D = parse(Text);
    const Clause *C = D.find(ClauseKind::Reduction);
    ASSERT_NE(C, nullptr);
    EXPECT_EQ(C->Op, Op);
    EXPECT_EQ(C->Vars, Strings{"s"});
    EXPECT_STREQ(reductionOpName(Op), Name);
    // Spaces around the operator and the colon do not matter.
    Directive Spaced = parse(std::string("loop reduction( ") + Name + " : s , t )");
    EXPECT_EQ(Spaced.find(ClauseKind::Reduction)->Op, Op);
    EXPECT_EQ(Spaced.find(ClauseKind::Reduction)->Vars, (Strings{"s", "t"}));
  }
}

// "-" is gcc's (OpenMP's) and adds the partial results: it is "+".
TEST(DirectiveTest, MinusReductionIsASum) {
  Directive D = parse("parallel loop reduction(-:s)");
  ASSERT_NE(D.find(ClauseKind::Reduction), nullptr);
  EXPECT_EQ(D.find(ClauseKind::Reduction)->Op, ReductionOp::Add);
}

TEST(DirectiveTest, ReductionKeepsArgumentAndSplitsArraySections) {
  Directive D = parse("parallel reduction(max:a[0:n], m)");
  const Clause *C = D.find(ClauseKind::Reduction);
  EXPECT_EQ(C->Argument, "max:a[0:n], m");
  EXPECT_EQ(C->Op, ReductionOp::Max);
  EXPECT_EQ(C->Vars, (Strings{"a[0:n]", "m"}));
}

TEST(DirectiveTest, ReductionErrors) {
  EXPECT_EQ(errorOf("loop reduction(s)"),
            "line 1, column 16: missing ':' after the reduction operator in clause "
            "'reduction' in '#pragma acc loop reduction(s)'");
  EXPECT_EQ(errorOf("loop reduction(% : s)"),
            "line 1, column 16: unknown reduction operator '%' in clause 'reduction' in "
            "'#pragma acc loop reduction(% : s)'");
  EXPECT_PARSE_ERROR("loop reduction(sum:s)", "unknown reduction operator 'sum'");
  EXPECT_PARSE_ERROR("loop reduction(a[0:n])", "missing ':' after the reduction operator");
  EXPECT_PARSE_ERROR("loop reduction(:s)", "column 16: missing reduction operator");
  EXPECT_PARSE_ERROR("loop reduction(+:)", "column 18: empty var-list in clause 'reduction'");
  EXPECT_PARSE_ERROR("loop reduction()", "missing ':' after the reduction operator");
  EXPECT_PARSE_ERROR("loop reduction", "missing required argument of clause 'reduction'");
}

//===-- Errors: names and parentheses -------------------------------------------------------===//

TEST(DirectiveTest, UnknownClauseMessage) {
  EXPECT_EQ(errorOf("parallel loop colapse(2)", 3),
            "line 3, column 15: unknown clause 'colapse' in "
            "'#pragma acc parallel loop colapse(2)'");
  // Columns count in the trimmed text, which the message quotes.
  EXPECT_EQ(errorOf("   parallel loop colapse(2)  ", 3),
            "line 3, column 15: unknown clause 'colapse' in "
            "'#pragma acc parallel loop colapse(2)'");
}

TEST(DirectiveTest, UnknownDirective) {
  EXPECT_EQ(errorOf("paralel loop", 12),
            "line 12, column 1: unknown directive 'paralel' in '#pragma acc paralel loop'");
  EXPECT_PARSE_ERROR("end parallel", "unknown directive 'end'");
  EXPECT_PARSE_ERROR("PARALLEL", "unknown directive 'PARALLEL'");
}

TEST(DirectiveTest, MissingDirectiveName) {
  EXPECT_EQ(errorOf(""), "line 1, column 1: missing directive name in '#pragma acc '");
  EXPECT_PARSE_ERROR("   ", "missing directive name");
}

TEST(DirectiveTest, EnterAndExitNeedData) {
  EXPECT_EQ(errorOf("enter copyin(a)"),
            "line 1, column 7: expected 'data' after 'enter' in '#pragma acc enter copyin(a)'");
  EXPECT_PARSE_ERROR("exit", "column 5: expected 'data' after 'exit'");
  EXPECT_PARSE_ERROR("enter datum copyin(a)", "expected 'data' after 'enter'");
}

TEST(DirectiveTest, UnbalancedParentheses) {
  EXPECT_EQ(errorOf("parallel copyin(a[0:n]"),
            "line 1, column 16: unbalanced parentheses in '#pragma acc parallel copyin(a[0:n]'");
  EXPECT_EQ(errorOf("parallel copyin(a[0:n)"),
            "line 1, column 22: unbalanced parentheses in '#pragma acc parallel copyin(a[0:n)'");
  EXPECT_EQ(errorOf("parallel copy(a))"),
            "line 1, column 17: unbalanced parentheses in '#pragma acc parallel copy(a))'");
  EXPECT_PARSE_ERROR("parallel num_gangs((n+1)/2", "column 19: unbalanced parentheses");
  EXPECT_PARSE_ERROR("parallel copy(a[0:n)]", "unbalanced parentheses");
  EXPECT_PARSE_ERROR("cache(a[0:4]", "column 6: unbalanced parentheses");
  EXPECT_PARSE_ERROR("wait(1", "unbalanced parentheses");
  EXPECT_PARSE_ERROR("parallel ]", "unbalanced parentheses");
}

//===-- Allowed-clause table ----------------------------------------------------------------===//

TEST(DirectiveTest, DisallowedClauseMessage) {
  EXPECT_EQ(errorOf("parallel collapse(2)", 4),
            "line 4, column 10: clause 'collapse' is not allowed on 'parallel' in "
            "'#pragma acc parallel collapse(2)'");
  EXPECT_EQ(errorOf("atomic reduction(+:s)"),
            "line 1, column 8: clause 'reduction' is not allowed on 'atomic' in "
            "'#pragma acc atomic reduction(+:s)'");
  // The name in the message is the one written, alias included.
  EXPECT_PARSE_ERROR("enter data pcopy(a)", "clause 'pcopy' is not allowed on 'enter data'");
}

TEST(DirectiveTest, DisallowedCombinations) {
  const std::pair<const char *, const char *> Cases[] = {
      {"parallel gang", "clause 'gang' is not allowed on 'parallel'"},
      {"parallel seq", "clause 'seq' is not allowed on 'parallel'"},
      {"parallel tile(2)", "clause 'tile' is not allowed on 'parallel'"},
      {"kernels firstprivate(a)", "clause 'firstprivate' is not allowed on 'kernels'"},
      {"kernels reduction(+:s)", "clause 'reduction' is not allowed on 'kernels'"},
      {"serial num_gangs(2)", "clause 'num_gangs' is not allowed on 'serial'"},
      {"serial loop vector_length(2)", "clause 'vector_length' is not allowed on 'serial loop'"},
      {"kernels loop firstprivate(a)", "clause 'firstprivate' is not allowed on 'kernels loop'"},
      {"parallel loop delete(a)", "clause 'delete' is not allowed on 'parallel loop'"},
      {"loop copy(a)", "clause 'copy' is not allowed on 'loop'"},
      {"loop firstprivate(a)", "clause 'firstprivate' is not allowed on 'loop'"},
      {"loop num_gangs(4)", "clause 'num_gangs' is not allowed on 'loop'"},
      {"atomic capture private(a)", "clause 'private' is not allowed on 'atomic'"},
      {"routine collapse(2)", "clause 'collapse' is not allowed on 'routine'"},
      {"routine seq copy(a)", "clause 'copy' is not allowed on 'routine'"},
      {"cache(a) copy(a)", "clause 'copy' is not allowed on 'cache'"},
      {"data copy(a) private(b)", "clause 'private' is not allowed on 'data'"},
      {"data copy(a) if_present", "clause 'if_present' is not allowed on 'data'"},
      {"enter data copyout(a)", "clause 'copyout' is not allowed on 'enter data'"},
      {"enter data delete(a)", "clause 'delete' is not allowed on 'enter data'"},
      {"enter data copyin(a) finalize", "clause 'finalize' is not allowed on 'enter data'"},
      {"exit data copyin(a)", "clause 'copyin' is not allowed on 'exit data'"},
      {"exit data create(a)", "clause 'create' is not allowed on 'exit data'"},
      {"update copy(a)", "clause 'copy' is not allowed on 'update'"},
      {"update host(a) default(none)", "clause 'default' is not allowed on 'update'"},
      {"wait copy(a)", "clause 'copy' is not allowed on 'wait'"},
      {"wait(1) wait(2)", "clause 'wait' is not allowed on 'wait'"},
      {"host_data use_device(a) copy(a)", "clause 'copy' is not allowed on 'host_data'"},
      {"declare copy(a) async", "clause 'async' is not allowed on 'declare'"},
      {"declare no_create(a)", "clause 'no_create' is not allowed on 'declare'"},
      {"init async", "clause 'async' is not allowed on 'init'"},
      {"shutdown default_async(1)", "clause 'default_async' is not allowed on 'shutdown'"},
      {"set copy(a)", "clause 'copy' is not allowed on 'set'"},
      {"parallel device_num(0)", "clause 'device_num' is not allowed on 'parallel'"},
  };
  for (const auto &[Text, Problem] : Cases)
    EXPECT_PARSE_ERROR(Text, Problem);
}

TEST(DirectiveTest, CombinedConstructsTakeClausesOfBothParts) {
  Directive D = parse("parallel loop num_gangs(8) vector_length(32) collapse(2) gang vector "
                      "private(t) firstprivate(u) reduction(+:s) copy(a) present(b) async(1) "
                      "if(n > 0) default(present) tile(2, 2) device_type(*)");
  EXPECT_EQ(D.Clauses.size(), 14u) << "device_type resolved (DeviceTypeClausesTest)";
  EXPECT_TRUE(
      parse("kernels loop reduction(+:s) private(t) independent").has(ClauseKind::Reduction));
  EXPECT_TRUE(parse("serial loop private(t) seq firstprivate(u)").has(ClauseKind::Firstprivate));
}

TEST(DirectiveTest, ComputeConstructClauses) {
  EXPECT_EQ(parse("parallel async(1) wait(2) num_gangs(1, 2, 3) num_workers(4) if(c) self(d) "
                  "reduction(max:m) copy(a) copyin(b) copyout(c) create(e) no_create(f) "
                  "present(g) deviceptr(p) attach(q) private(t) firstprivate(u) default(none) "
                  "device_type(nvidia) vector_length(32)")
                .Clauses.size(),
            19u);
  EXPECT_EQ(parse("kernels async wait num_gangs(2) num_workers(2) vector_length(2) if(c) self "
                  "copy(a) default(present)")
                .Clauses.size(),
            9u);
  EXPECT_EQ(parse("serial async wait if(c) self reduction(+:s) private(t) firstprivate(u) "
                  "copy(a) attach(p)")
                .Clauses.size(),
            9u);
}

//===-- Directive-specific rules ------------------------------------------------------------===//

TEST(DirectiveTest, Atomic) {
  EXPECT_TRUE(parse("atomic").Clauses.empty());
  EXPECT_TRUE(parse("atomic update").has(ClauseKind::Update));
  Directive D = parse("atomic capture if(c)");
  EXPECT_TRUE(D.has(ClauseKind::Capture));
  EXPECT_EQ(D.find(ClauseKind::If)->Argument, "c");
  EXPECT_EQ(errorOf("atomic read write"),
            "line 1, column 13: clause 'write' conflicts with 'read': atomic takes one of read, "
            "write, update, capture in '#pragma acc atomic read write'");
  EXPECT_PARSE_ERROR("atomic update update", "clause 'update' conflicts with 'update'");
}

TEST(DirectiveTest, Routine) {
  Directive Named = parse("routine(saxpy) worker");
  EXPECT_EQ(Named.Kind, DirectiveKind::Routine);
  EXPECT_EQ(Named.Argument, "saxpy");
  EXPECT_TRUE(Named.has(ClauseKind::Worker));
  EXPECT_EQ(parse("routine ( ns::f ) seq").Argument, "ns::f");

  Directive Unnamed = parse("routine gang(dim:2) nohost bind(f_dev) device_type(nvidia) seq");
  EXPECT_TRUE(Unnamed.Argument.empty());
  EXPECT_EQ(Unnamed.find(ClauseKind::Gang)->Argument, "dim:2");
  EXPECT_EQ(Unnamed.find(ClauseKind::Bind)->Argument, "f_dev");
  EXPECT_TRUE(parse("routine vector").has(ClauseKind::Vector));
  EXPECT_PARSE_ERROR("routine() seq", "column 9: empty argument of 'routine'");
}

TEST(DirectiveTest, Cache) {
  Directive D = parse("cache(a[i:4], b[j][0:n], c)");
  EXPECT_EQ(D.Kind, DirectiveKind::Cache);
  EXPECT_EQ(D.Argument, "a[i:4], b[j][0:n], c");
  EXPECT_EQ(D.Vars, (Strings{"a[i:4]", "b[j][0:n]", "c"}));
  EXPECT_TRUE(D.Clauses.empty());

  Directive ReadOnly = parse("cache ( readonly : x[0:2], y )");
  EXPECT_EQ(ReadOnly.Argument, "readonly : x[0:2], y");
  EXPECT_EQ(ReadOnly.Vars, (Strings{"x[0:2]", "y"}));
}

TEST(DirectiveTest, CacheErrors) {
  EXPECT_EQ(errorOf("cache"),
            "line 1, column 6: missing required argument (var-list) of 'cache' in "
            "'#pragma acc cache'");
  EXPECT_PARSE_ERROR("cache()", "column 7: empty var-list in 'cache'");
  EXPECT_PARSE_ERROR("cache(a,)", "column 9: empty item in the var-list of 'cache'");
  EXPECT_PARSE_ERROR("cache(zero: a)", "unknown modifier 'zero' in 'cache'");
  EXPECT_PARSE_ERROR("cache(a) seq", "clause 'seq' is not allowed on 'cache'");
}

TEST(DirectiveTest, WaitDirective) {
  Directive Bare = parse("wait");
  EXPECT_EQ(Bare.Kind, DirectiveKind::Wait);
  EXPECT_TRUE(Bare.Argument.empty());
  EXPECT_TRUE(Bare.Clauses.empty());

  Directive D = parse("wait(1, q[2]) async(3)");
  EXPECT_EQ(D.Argument, "1, q[2]");
  EXPECT_EQ(D.find(ClauseKind::Async)->Argument, "3");
  EXPECT_EQ(parse("wait (devnum: 0 : queues: 1) if(c)").Argument, "devnum: 0 : queues: 1");
  // Without parentheses right after it, the next word is a clause.
  EXPECT_TRUE(parse("wait async").has(ClauseKind::Async));
  EXPECT_PARSE_ERROR("wait()", "column 6: empty argument of 'wait'");
}

TEST(DirectiveTest, DataConstructs) {
  Directive D = parse("data copy(a) copyin(b) copyout(c) create(d) no_create(e) present(f) "
                      "deviceptr(g) attach(h) if(x) async(1) wait device_type(*) default(none)");
  EXPECT_EQ(D.Clauses.size(), 13u);
  EXPECT_EQ(parse("enter data copyin(a) create(b) attach(p) if(c) async wait").Clauses.size(), 6u);
  EXPECT_EQ(parse("exit data copyout(a) delete(b) detach(p) finalize if(c) async(2) wait(1)")
                .Clauses.size(),
            7u);
  EXPECT_EQ(parse("update self(a) host(b) device(c) if(x) if_present async wait device_type(*)")
                .Clauses.size(),
            8u);
  EXPECT_EQ(parse("host_data use_device(p) if(c) if_present").Clauses.size(), 3u);
  EXPECT_EQ(parse("declare copy(a) copyin(b) copyout(c) create(d) present(e) deviceptr(f) "
                  "device_resident(g) link(h)")
                .Clauses.size(),
            8u);
}

TEST(DirectiveTest, RuntimeDirectives) {
  Directive Init = parse("init device_type(nvidia) device_num(0) if(c)");
  EXPECT_EQ(Init.Clauses.size(), 3u);
  EXPECT_EQ(Init.find(ClauseKind::DeviceNum)->Argument, "0");
  EXPECT_EQ(parse("shutdown device_type(*) device_num(1)").Clauses.size(), 2u);
  Directive Set = parse("set default_async(acc_async_sync) device_type(host)");
  EXPECT_EQ(Set.find(ClauseKind::DefaultAsync)->Argument, "acc_async_sync");
}

TEST(DirectiveTest, RequiredClauses) {
  EXPECT_EQ(errorOf("update if(c)"),
            "line 1, column 1: 'update' needs at least one of the clauses self, host, device in "
            "'#pragma acc update if(c)'");
  EXPECT_PARSE_ERROR("data", "'data' needs at least one of the clauses copy, copyin");
  EXPECT_PARSE_ERROR("data if(c)", "'data' needs at least one of the clauses");
  EXPECT_PARSE_ERROR("enter data", "'enter data' needs at least one of the clauses copyin, "
                                   "create, attach");
  EXPECT_PARSE_ERROR("exit data finalize", "'exit data' needs at least one of the clauses "
                                           "copyout, delete, detach");
  EXPECT_PARSE_ERROR("host_data if(c)", "'host_data' needs at least one of the clauses "
                                        "use_device");
  EXPECT_PARSE_ERROR("declare", "'declare' needs at least one of the clauses");
  EXPECT_PARSE_ERROR("set if(c)", "'set' needs at least one of the clauses default_async");
}

TEST(DirectiveTest, FirstErrorWins) {
  // The unknown clause comes first, so its error is reported rather than the bad collapse.
  EXPECT_PARSE_ERROR("loop bogus collapse(n)", "unknown clause 'bogus'");
  EXPECT_PARSE_ERROR("loop collapse(n) bogus", "collapse argument must be a positive integer");
}

} // namespace
