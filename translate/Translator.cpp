// The walk over a file's directives: parsed, matched with their statements, translated.
#include "translate/Translator.h"

#include "analysis/KernelSource.h"
#include "translate/LineMarkers.h"

#include <llvm/ADT/StringExtras.h>

using namespace clang;

namespace jacc::translate {

using namespace analysis;

std::string Translator::run() {
  Idx.index(Ctx.getTranslationUnitDecl());

  // Parse every directive; find the statement of each construct.
  for (const Pragma &P : Pragmas) {
    if (P.Problem.empty())
      continue;
    if (P.Included) {
      // A header's directive that needs no rewriting of its text is taken (its routine loops
      // are checked once the routines are known, below).
      auto D = parseDirective(P.Text, P.Line);
      bool Taken = D && takenFromHeader(P, *D);
      if (!D)
        llvm::consumeError(D.takeError());
      if (Taken)
        continue;
    }
    error(P, P.Problem);
  }
  if (Diags.failed())
    return "";
  Dirs.clear();
  for (const Pragma &P : Pragmas) {
    auto D = parseDirective(P.Text, P.Line);
    if (!D) {
      std::string Msg = llvm::toString(D.takeError());
      unsigned Col = P.Column;
      llvm::StringRef M(Msg);
      // "line L, column C: problem": C counts in the directive text.
      if (M.consume_front("line ")) {
        size_t Comma = M.find(", column ");
        unsigned C = 0;
        if (Comma != llvm::StringRef::npos &&
            !M.drop_front(Comma + 9).take_while(llvm::isDigit).getAsInteger(10, C)) {
          Col = P.TextColumn + C - 1;
          M = M.drop_front(Comma + 9).drop_while(llvm::isDigit);
          M.consume_front(": ");
          Msg = M.str();
        }
      }
      error(P.Line, Col, Msg);
      Dirs.emplace_back();
      continue;
    }
    Dirs.emplace_back(std::move(*D));
  }
  if (Diags.failed())
    return "";

  // Routines first: compute constructs carry the ones they call.
  for (size_t K = 0; K < Pragmas.size(); ++K) {
    const Pragma &P = Pragmas[K];
    const Directive &D = *Dirs[K];
    if (D.Kind != DirectiveKind::Routine)
      continue;
    FunctionDecl *F = routineTarget(P, D);
    if (!F) {
      error(P, "'#pragma acc " + D.Text + "' must be followed by a function declaration or "
                                          "name a function");
      continue;
    }
    Routines.RoutineOf[F->getCanonicalDecl()] = &P;
    Routines.RoutineDir[F->getCanonicalDecl()] = D;
    if (D.has(ClauseKind::Bind))
      Routines.bind(P, D, F);
  }

  // A header's loops: in the body of a routine only.
  for (size_t K = 0; K < Pragmas.size(); ++K)
    if (Pragmas[K].Included && Dirs[K] && Dirs[K]->Kind == DirectiveKind::Loop)
      if (FunctionDecl *In = functionAround(Pragmas[K].Loc);
          !Routines.RoutineOf.count(In->getCanonicalDecl()))
        error(Pragmas[K], Pragmas[K].Problem);
  if (Diags.failed())
    return "";

  // Constructs with a statement.
  std::vector<std::pair<unsigned, unsigned>> ComputeRanges;
  for (size_t K = 0; K < Pragmas.size(); ++K) {
    const Pragma &P = Pragmas[K];
    const Directive &D = *Dirs[K];
    if (P.Included)
      continue;
    if (!D.isCompute() && D.Kind != DirectiveKind::Data && D.Kind != DirectiveKind::Declare)
      continue;
    bool Inside = llvm::any_of(ComputeRanges, [&](auto &Rg) {
      return P.Hash >= Rg.first && P.Hash < Rg.second;
    });
    if (D.Kind == DirectiveKind::Declare) {
      // In a function: a data region (file scope and compute constructs: below).
      Region R;
      if (!Inside && declareRegion(P, D, R))
        Datas.push_back(std::move(R));
      continue;
    }
    if (Inside) {
      error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                   "' inside a compute construct is not supported");
      continue;
    }
    Region R;
    R.P = &P;
    R.D = D;
    R.S = Idx.statementAfter(P);
    if (!R.S) {
      error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                   "' must be followed by a statement");
      continue;
    }
    R.End = Idx.endOf(R.S);
    if (D.isCompute()) {
      ComputeRanges.push_back({P.Hash, R.End});
      Computes.push_back(std::move(R));
    } else {
      Datas.push_back(std::move(R));
    }
  }
  // The bodies of routine definitions: a loop there is orphaned (OpenACC 2.9), bound to the
  // parallelism of whichever construct calls the routine.
  std::vector<std::pair<unsigned, unsigned>> RoutineBodies;
  for (FunctionDecl *F : Idx.Functions)
    if (F->doesThisDeclarationHaveABody() && Routines.RoutineOf.count(F->getCanonicalDecl()))
      RoutineBodies.push_back(
          {Idx.offset(F->getBody()->getBeginLoc()), Idx.offset(F->getBody()->getEndLoc())});
  for (size_t K = 0; K < Pragmas.size(); ++K) {
    const Pragma &P = Pragmas[K];
    const Directive &D = *Dirs[K];
    if (P.Included) {
      // A header's routine is the function's, its loops are commented in the routine's text
      // inside kernels (routineText); a declare maps its globals from this file.
      if (D.Kind == DirectiveKind::Declare)
        translateGlobalDeclare(P, D);
      continue;
    }
    bool Inside = llvm::any_of(ComputeRanges, [&](auto &Rg) {
      return P.Hash > Rg.first && P.Hash < Rg.second;
    });
    bool InRoutine = llvm::any_of(
        RoutineBodies, [&](auto &Rg) { return P.Hash > Rg.first && P.Hash < Rg.second; });
    if (D.Kind == DirectiveKind::Loop && !Inside && InRoutine) {
      // Each call of the routine runs the loop sequentially (a valid schedule for any gang,
      // worker or vector loop; its reduction is then the loop's own result): the pragma becomes
      // a comment on the host and in the routine's text inside kernels (leadingDecls).
      replaceDirective(P, D, "", {});
      Routines.RoutineLoops.push_back(&P);
      continue;
    }
    switch (D.Kind) {
    case DirectiveKind::Loop:
    case DirectiveKind::Atomic:
    case DirectiveKind::Cache:
      if (!Inside)
        error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                     "' outside a compute construct is not supported");
      break; // inside: part of the kernel's text
    case DirectiveKind::EnterData:
    case DirectiveKind::ExitData:
    case DirectiveKind::Update:
    case DirectiveKind::Wait:
    case DirectiveKind::Init:
    case DirectiveKind::Shutdown:
    case DirectiveKind::Set:
      if (Inside)
        error(P, "'#pragma acc " + std::string(directiveKindName(D.Kind)) +
                     "' inside a compute construct is not supported");
      else if (D.Kind == DirectiveKind::Init || D.Kind == DirectiveKind::Shutdown ||
               D.Kind == DirectiveKind::Set)
        translateRuntimeDirective(P, D);
      else
        translateStandalone(P, D);
      break;
    case DirectiveKind::Routine:
      if (Inside)
        error(P, "'#pragma acc routine' inside a compute construct");
      else
        translateRoutine(P, D);
      break;
    case DirectiveKind::HostData:
      if (Inside)
        error(P, "'#pragma acc host_data' inside a compute construct is not allowed");
      else
        translateHostData(P, D);
      break;
    case DirectiveKind::Declare:
      if (Inside)
        error(P, "'#pragma acc declare' inside a compute construct is not supported: declare "
                 "the data before the construct");
      else if (llvm::none_of(Datas, [&](const Region &R) { return R.P == &P; }))
        translateGlobalDeclare(P, D);
      break;
    default:
      break; // compute and data constructs: below
    }
  }
  for (Region &R : Computes)
    translateCompute(R);
  for (Region &R : Datas)
    translateData(R);
  defineRoutines();
  if (Diags.failed())
    return "";

  closeDataRegions();

  // The headers' directives stay in their text, where cc's -Wall would warn of each
  // (-Wunknown-pragmas) and stop a -Werror build: this file took them.
  std::string Quiet = llvm::any_of(Pragmas, [](const Pragma &P) { return P.Included; })
                          ? "#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n"
                          : "";
  const RewriteBuffer *B = RW.getRewriteBufferFor(SM.getMainFileID());
  if (!B)
    return Quiet + withLineMarkers(Buf, Buf, [](size_t Offset) { return Offset; }, FileName);
  std::string Out(B->begin(), B->end());
  SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  // An original offset's place in Out: the rewritten size of everything before it, with the
  // text inserted at it.
  auto Mapped = [&](size_t Offset) -> size_t {
    int Size = RW.getRangeSize(
        CharSourceRange::getCharRange(Start, Start.getLocWithOffset(static_cast<int>(Offset))));
    return Size < 0 ? Out.size() + 1 : static_cast<size_t>(Size);
  };
  return Quiet + withLineMarkers(Buf, Out, Mapped, FileName);
}

void Translator::translateCompute(Region &R) {
  std::optional<ComputePush> Push = Lowering.lower(R);
  if (!Push)
    return;
  commentJaccLines(*this, *R.P);
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), R.P->LineStart), R.End - R.P->LineStart,
                 printComputePush(*Push));
}

} // namespace jacc::translate
