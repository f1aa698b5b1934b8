// OpenACC 3.3's directive grammar as tables (DirectiveGrammar.h), and the names of directives
// and reduction operators (Directive.h).
#include "analysis/DirectiveGrammar.h"

#include <llvm/ADT/StringSwitch.h>

using llvm::StringRef;

namespace jacc::analysis {

namespace {

using CK = ClauseKind;

//===-- Clause spellings and the allowed-clause table ---------------------------------------===//

struct ClauseSpelling {
  const char *Name;
  ClauseKind Kind;
};

// The present_or_* spellings and dtype are OpenACC 1.0/2.x names that 3.3 still accepts as
// aliases, so older kernels keep compiling.
constexpr ClauseSpelling ClauseSpellings[] = {
    {"gang", CK::Gang},
    {"worker", CK::Worker},
    {"vector", CK::Vector},
    {"seq", CK::Seq},
    {"independent", CK::Independent},
    {"auto", CK::Auto},
    {"collapse", CK::Collapse},
    {"tile", CK::Tile},
    {"device_type", CK::DeviceType},
    {"dtype", CK::DeviceType},
    {"reduction", CK::Reduction},
    {"private", CK::Private},
    {"firstprivate", CK::Firstprivate},
    {"present", CK::Present},
    {"deviceptr", CK::Deviceptr},
    {"copy", CK::Copy},
    {"pcopy", CK::Copy},
    {"present_or_copy", CK::Copy},
    {"copyin", CK::Copyin},
    {"pcopyin", CK::Copyin},
    {"present_or_copyin", CK::Copyin},
    {"copyout", CK::Copyout},
    {"pcopyout", CK::Copyout},
    {"present_or_copyout", CK::Copyout},
    {"create", CK::Create},
    {"pcreate", CK::Create},
    {"present_or_create", CK::Create},
    {"no_create", CK::NoCreate},
    {"attach", CK::Attach},
    {"detach", CK::Detach},
    {"delete", CK::Delete},
    {"use_device", CK::UseDevice},
    {"link", CK::Link},
    {"device_resident", CK::DeviceResident},
    {"host", CK::Host},
    {"device", CK::Device},
    {"self", CK::Self},
    {"if_present", CK::IfPresent},
    {"finalize", CK::Finalize},
    {"async", CK::Async},
    {"wait", CK::Wait},
    {"num_gangs", CK::NumGangs},
    {"num_workers", CK::NumWorkers},
    {"vector_length", CK::VectorLength},
    {"if", CK::If},
    {"default", CK::Default},
    {"read", CK::Read},
    {"write", CK::Write},
    {"update", CK::Update},
    {"capture", CK::Capture},
    {"bind", CK::Bind},
    {"nohost", CK::Nohost},
    {"device_num", CK::DeviceNum},
    {"default_async", CK::DefaultAsync},
};

} // namespace

std::optional<ClauseKind> lookupClause(StringRef Name) {
  for (const ClauseSpelling &S : ClauseSpellings)
    if (Name == S.Name)
      return S.Kind;
  return std::nullopt;
}

namespace {

// Allowed clauses per directive, from the "where clause is one of the following" lists of
// OpenACC 3.3. Combined constructs admit any clause of either of their parts (section 2.11).
constexpr ClauseMask ComputeCommon =
    maskOf(CK::Async, CK::Wait, CK::DeviceType, CK::If, CK::Self, CK::Copy, CK::Copyin, CK::Copyout,
           CK::Create, CK::NoCreate, CK::Present, CK::Deviceptr, CK::Attach, CK::Default);
constexpr ClauseMask ParallelClauses =
    ComputeCommon | maskOf(CK::NumGangs, CK::NumWorkers, CK::VectorLength, CK::Reduction,
                           CK::Private, CK::Firstprivate);
// kernels has no data-sharing clauses of its own in OpenACC: the compiler decides the
// parallelism. private is read all the same (real codes use it, NVHPC accepts it): each gang's
// own copy, as on parallel; jacc-translate warns.
constexpr ClauseMask KernelsClauses =
    ComputeCommon | maskOf(CK::NumGangs, CK::NumWorkers, CK::VectorLength, CK::Private);
// serial runs one gang of one worker, so the sizing clauses make no sense there.
constexpr ClauseMask SerialClauses =
    ComputeCommon | maskOf(CK::Reduction, CK::Private, CK::Firstprivate);
constexpr ClauseMask LoopClauses =
    maskOf(CK::Collapse, CK::Gang, CK::Worker, CK::Vector, CK::Seq, CK::Independent, CK::Auto,
           CK::Tile, CK::DeviceType, CK::Private, CK::Reduction);
constexpr ClauseMask AtomicClauses = maskOf(CK::Read, CK::Write, CK::Update, CK::Capture, CK::If);
constexpr ClauseMask RoutineClauses =
    maskOf(CK::Gang, CK::Worker, CK::Vector, CK::Seq, CK::Bind, CK::DeviceType, CK::Nohost);
constexpr ClauseMask DataClauses =
    maskOf(CK::If, CK::Async, CK::Wait, CK::DeviceType, CK::Copy, CK::Copyin, CK::Copyout,
           CK::Create, CK::NoCreate, CK::Present, CK::Deviceptr, CK::Attach, CK::Default);
constexpr ClauseMask EnterDataClauses =
    maskOf(CK::If, CK::Async, CK::Wait, CK::Copyin, CK::Create, CK::Attach);
constexpr ClauseMask ExitDataClauses =
    maskOf(CK::If, CK::Async, CK::Wait, CK::Copyout, CK::Delete, CK::Detach, CK::Finalize);
constexpr ClauseMask UpdateClauses = maskOf(CK::Async, CK::Wait, CK::DeviceType, CK::If,
                                            CK::IfPresent, CK::Self, CK::Host, CK::Device);
constexpr ClauseMask WaitClauses = maskOf(CK::Async, CK::If);
constexpr ClauseMask HostDataClauses = maskOf(CK::UseDevice, CK::If, CK::IfPresent);
constexpr ClauseMask DeclareClauses =
    maskOf(CK::Copy, CK::Copyin, CK::Copyout, CK::Create, CK::Present, CK::Deviceptr,
           CK::DeviceResident, CK::Link);
constexpr ClauseMask InitClauses = maskOf(CK::DeviceType, CK::DeviceNum, CK::If);
constexpr ClauseMask SetClauses = maskOf(CK::DefaultAsync, CK::DeviceNum, CK::DeviceType, CK::If);

} // namespace

ClauseMask allowedClauses(DirectiveKind K) {
  switch (K) {
  case DirectiveKind::Parallel:
    return ParallelClauses;
  case DirectiveKind::Kernels:
    return KernelsClauses;
  case DirectiveKind::Serial:
    return SerialClauses;
  case DirectiveKind::ParallelLoop:
    return ParallelClauses | LoopClauses;
  case DirectiveKind::KernelsLoop:
    return KernelsClauses | LoopClauses;
  case DirectiveKind::SerialLoop:
    return SerialClauses | LoopClauses;
  case DirectiveKind::Loop:
    return LoopClauses;
  case DirectiveKind::Atomic:
    return AtomicClauses;
  case DirectiveKind::Routine:
    return RoutineClauses;
  case DirectiveKind::Cache:
    return 0;
  case DirectiveKind::Data:
    return DataClauses;
  case DirectiveKind::EnterData:
    return EnterDataClauses;
  case DirectiveKind::ExitData:
    return ExitDataClauses;
  case DirectiveKind::Update:
    return UpdateClauses;
  case DirectiveKind::Wait:
    return WaitClauses;
  case DirectiveKind::HostData:
    return HostDataClauses;
  case DirectiveKind::Declare:
    return DeclareClauses;
  case DirectiveKind::Init:
  case DirectiveKind::Shutdown:
    return InitClauses;
  case DirectiveKind::Set:
    return SetClauses;
  }
  return 0;
}

//===-- Clause arguments and reduction operators ---------------------------------------------===//

ArgRule argRule(ClauseKind K, DirectiveKind D) {
  switch (K) {
  case CK::Seq:
  case CK::Independent:
  case CK::Auto:
  case CK::IfPresent:
  case CK::Finalize:
  case CK::Read:
  case CK::Write:
  case CK::Update:
  case CK::Capture:
  case CK::Nohost:
    return ArgRule::None;
  case CK::Gang:
  case CK::Worker:
  case CK::Vector:
  case CK::Async:
  case CK::Wait:
    return ArgRule::Optional;
  case CK::Self:
    // On update, self(list) is a synonym of host(list); on compute constructs it is
    // self[(condition)].
    return D == DirectiveKind::Update ? ArgRule::VarList : ArgRule::Optional;
  case CK::Collapse:
  case CK::NumGangs:
  case CK::NumWorkers:
  case CK::VectorLength:
  case CK::If:
  case CK::Default:
  case CK::Bind:
  case CK::DeviceNum:
  case CK::DefaultAsync:
    return ArgRule::Required;
  case CK::Tile:
  case CK::DeviceType:
    return ArgRule::List;
  case CK::Reduction:
  case CK::Private:
  case CK::Firstprivate:
  case CK::Present:
  case CK::Deviceptr:
  case CK::Copy:
  case CK::Copyin:
  case CK::Copyout:
  case CK::Create:
  case CK::NoCreate:
  case CK::Attach:
  case CK::Detach:
  case CK::Delete:
  case CK::UseDevice:
  case CK::Link:
  case CK::DeviceResident:
  case CK::Host:
  case CK::Device:
    return ArgRule::VarList;
  }
  return ArgRule::Optional;
}

std::optional<ReductionOp> parseReductionOp(StringRef S) {
  // "-" is no OpenACC operator, but gcc accepts it, as OpenMP's: the partial results are
  // added (each starting at 0), so it is "+".
  return llvm::StringSwitch<std::optional<ReductionOp>>(S)
      .Case("+", ReductionOp::Add)
      .Case("-", ReductionOp::Add)
      .Case("*", ReductionOp::Mul)
      .Case("max", ReductionOp::Max)
      .Case("min", ReductionOp::Min)
      .Case("&", ReductionOp::BitAnd)
      .Case("|", ReductionOp::BitOr)
      .Case("^", ReductionOp::BitXor)
      .Case("&&", ReductionOp::LogAnd)
      .Case("||", ReductionOp::LogOr)
      .Default(std::nullopt);
}

//===-- Names --------------------------------------------------------------------------------===//

const char *reductionOpName(ReductionOp Op) {
  switch (Op) {
  case ReductionOp::Add:
    return "+";
  case ReductionOp::Mul:
    return "*";
  case ReductionOp::Max:
    return "max";
  case ReductionOp::Min:
    return "min";
  case ReductionOp::BitAnd:
    return "&";
  case ReductionOp::BitOr:
    return "|";
  case ReductionOp::BitXor:
    return "^";
  case ReductionOp::LogAnd:
    return "&&";
  case ReductionOp::LogOr:
    return "||";
  }
  return "?";
}

const char *directiveKindName(DirectiveKind K) {
  switch (K) {
  case DirectiveKind::Parallel:
    return "parallel";
  case DirectiveKind::Kernels:
    return "kernels";
  case DirectiveKind::Serial:
    return "serial";
  case DirectiveKind::ParallelLoop:
    return "parallel loop";
  case DirectiveKind::KernelsLoop:
    return "kernels loop";
  case DirectiveKind::SerialLoop:
    return "serial loop";
  case DirectiveKind::Loop:
    return "loop";
  case DirectiveKind::Atomic:
    return "atomic";
  case DirectiveKind::Routine:
    return "routine";
  case DirectiveKind::Cache:
    return "cache";
  case DirectiveKind::Data:
    return "data";
  case DirectiveKind::EnterData:
    return "enter data";
  case DirectiveKind::ExitData:
    return "exit data";
  case DirectiveKind::Update:
    return "update";
  case DirectiveKind::Wait:
    return "wait";
  case DirectiveKind::HostData:
    return "host_data";
  case DirectiveKind::Declare:
    return "declare";
  case DirectiveKind::Init:
    return "init";
  case DirectiveKind::Shutdown:
    return "shutdown";
  case DirectiveKind::Set:
    return "set";
  }
  return "?";
}

} // namespace jacc::analysis
