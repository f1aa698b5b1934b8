// The passes run in order on a kernel (frontend, traits, then SSA, index locals, dependences,
// split plan, read extents, predicates and rewriting when it may split), and the
// JACC_DEBUG=analysis dumps.
#include "analysis/Pipeline.h"

#include "analysis/AccessTraits.h"
#include "analysis/Accumulations.h"
#include "analysis/Dependences.h"
#include "analysis/EntryValues.h"
#include "analysis/Frontend.h"
#include "analysis/IndexLocals.h"
#include "analysis/Predicates.h"
#include "analysis/ReadExtents.h"
#include "analysis/RestrictArgs.h"
#include "analysis/Rewrite.h"
#include "analysis/SSA.h"
#include "analysis/SplitPlan.h"
#include "analysis/SplitTwin.h"
#include "support/Debug.h"
#include "support/LargeStack.h"
#include "support/TextEdits.h"

namespace jacc::analysis {

static void dumpAfter(const char *Pass, const KernelInfo &K) {
  if (!debugEnabled("analysis"))
    return;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (llvm::StringRef(Pass) == "frontend")
    dumpKernelInfo(K, OS);
  else
    dumpRegion(K, OS);
  debugLog("analysis", llvm::Twine("after ") + Pass + ":\n" + OS.str());
}

/// The variables the split nest itself reduces: its loop's reduction clauses and the construct's.
static std::set<std::string> nestReductions(const KernelInfo &K) {
  std::set<std::string> Names;
  for (const Directive *D : {&K.Construct, &K.Nests.front().Dir})
    for (const Clause &C : D->Clauses)
      if (C.Kind == ClauseKind::Reduction)
        Names.insert(C.Vars.begin(), C.Vars.end());
  return Names;
}

/// The passes of the split, each a function of the previous result.
static void runSplitPasses(KernelInfo &K) {
  SplitInfo &S = K.Split;
  for (const ReductionVar &R : K.Reductions)
    if (S.Enabled && R.isArray()) {
      S.Enabled = false;
      S.Fallback = "an array reduction (" + R.Name + "[" + R.Lower + ":" +
                   std::to_string(R.Count) + "]): every device computes the whole kernel";
    }
  if (!S.Enabled)
    return;
  S.IR = buildSSA(std::move(S.IR));
  S.IR = substituteIndexLocals(std::move(S.IR));
  dumpAfter("ssa", K);
  Dependences D = buildDependences(S.IR);
  S.Plan = planSplit(S.IR);
  findWriteWindows(S.IR, S.Plan);
  S.Reads = computeReadExtents(S.IR, S.Plan);
  S.ProbeExact = boundsReadNoArray(K);
  if (!S.Plan.Splittable) {
    S.Enabled = false;
    S.Fallback = S.Plan.Fallback;
  } else if (S.Plan.Arrays.empty() && K.Reductions.empty()) {
    S.Enabled = false;
    S.Fallback = "the kernel writes no array argument and has no reduction";
  }
  std::string Conflict;
  S.Preds = computePredicates(S.IR, D, S.Plan, nestReductions(K), &Conflict);
  if (S.Enabled && !Conflict.empty()) {
    S.Enabled = false;
    S.Fallback = "the split loop's reduction variable '" + Conflict +
                 "' is also used for other values (each device would need it outside its share)";
  }
  dumpAfter("predicates", K);
  if (!S.Enabled)
    return;
  std::set<std::string> WholeIterations;
  for (const SplitArray &A : S.Plan.Arrays)
    if (A.testsWholeIterations())
      WholeIterations.insert(A.Name);
  S.Guards = rewriteRegion(S.IR, S.Preds, WholeIterations);
  TextEdits E;
  for (const auto &[Offset, Text] : S.Guards)
    E.insert(Offset, Text);
  S.Rewritten = E.apply(K.Source, 0, K.Source.size());
  debugLog("rewrite", "rewritten kernel:\n" + S.Rewritten);
}

static llvm::Expected<KernelInfo>
runPasses(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls, bool WithTwin = true) {
  auto K = analyzeKernel(Source, Decls);
  if (!K)
    return K.takeError();
  findUnreadEntryValues(*K);
  dumpAfter("frontend", *K);
  K->Traits = computeAccessTraits(*K);
  for (ParallelNest &N : K->Nests) {
    N.OnlyGathers = innermostLoopOnlyGathers(*K, N);
    N.IndexedThroughMemory = indexedThroughMemory(N);
    N.AccumulatesFloats = accumulatesFloats(N);
    N.SumsAlongInnerLoop = sumsAlongInnerLoop(N);
  }
  K->MayRestrict = restrictableKernel(*K);
  K->MayAlign = alignableKernel(*K);
  if (debugEnabled("analysis"))
    debugLog("analysis", "after traits: " + describeTraits(K->Traits));
  runSplitPasses(*K);
  if (!K->Split.Enabled)
    debugLog("analysis", "no split variant: " + K->Split.Fallback);
  // The split twin, analysed as the runtime would analyse it when pushed: its split axes.
  if (std::optional<std::string> Twin = WithTwin ? splitTwinSource(*K) : std::nullopt) {
    auto T = runPasses(*Twin, Decls, /*WithTwin=*/false);
    if (!T)
      llvm::consumeError(T.takeError());
    else if (T->Split.Enabled) {
      K->Split.Twin = std::move(*Twin);
      K->Split.TwinAxes = splitAxes(*T);
    }
  }
  return K;
}

llvm::Expected<KernelInfo> runAnalysis(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls) {
  std::optional<llvm::Expected<KernelInfo>> Result;
  runWithLargeStack([&] { Result.emplace(runPasses(Source, Decls)); });
  return std::move(*Result);
}

static const char *kindName(IRStmt::Kind K) {
  switch (K) {
  case IRStmt::Kind::ArrayWrite: return "write";
  case IRStmt::Kind::ScalarDef: return "def";
  case IRStmt::Kind::Phi: return "phi";
  case IRStmt::Kind::Control: return "control";
  case IRStmt::Kind::Call: return "call";
  }
  return "?";
}

void dumpRegion(const KernelInfo &K, llvm::raw_ostream &OS) {
  const SplitInfo &S = K.Split;
  for (unsigned B = 0; B < S.IR.Blocks.size(); ++B) {
    OS << "  block " << B << " ->";
    for (unsigned Succ : S.IR.Blocks[B].Succs)
      OS << " " << Succ;
    OS << "\n";
    for (unsigned Id : S.IR.Blocks[B].Stmts) {
      const IRStmt &St = S.IR.Stmts[Id];
      OS << "    s" << Id << " " << kindName(St.K);
      if (St.K == IRStmt::Kind::ArrayWrite) {
        OS << " " << St.Write.Name;
        for (const IndexExpr &X : St.Write.Index)
          OS << "[" << X.Text << "]";
      } else if (!St.Var.empty()) {
        OS << " " << St.Var << "." << St.DefVersion;
      }
      if (Id < S.Preds.size())
        OS << "  need: " << predicateText(S.IR, S.Preds[Id]);
      OS << "\n";
    }
  }
  for (const SplitArray &A : S.Plan.Arrays)
    OS << "  split " << A.Name << " along dimension " << A.Dim << (A.Affine ? " (affine)" : "")
       << "\n";
  if (!S.Plan.Narrowable)
    OS << "  no narrowing: " << S.Plan.NoNarrowing << "\n";
  for (const ReadExtent &R : S.Reads)
    OS << "  reads " << describeReadExtent(R) << "\n";
}

static const char *modeName(RegionStmt::Mode M) {
  switch (M) {
  case RegionStmt::Mode::Shared: return "shared";
  case RegionStmt::Mode::Redundant: return "redundant";
  case RegionStmt::Mode::Master: return "master";
  }
  return "?";
}

void dumpKernelInfo(const KernelInfo &K, llvm::raw_ostream &OS) {
  OS << "construct: #pragma acc " << K.Construct.Text << " (line " << K.ConstructLine << ")\n";
  for (const ArgInfo &A : K.Args) {
    OS << "  arg " << A.Position << " '" << A.Decl << "' param " << A.Param << " ";
    switch (A.ArgKind) {
    case ArgInfo::Kind::Scalar: OS << "scalar " << scalarTypeName(A.Scalar); break;
    case ArgInfo::Kind::Pointer: OS << "pointer to " << A.PointeeSize << " bytes"; break;
    case ArgInfo::Kind::Aggregate: OS << "aggregate of " << A.Size << " bytes"; break;
    }
    if (A.Deviceptr)
      OS << " deviceptr";
    if (!A.ValueRead)
      OS << " assigned before read";
    OS << "\n";
  }
  for (const RegionStmt &S : K.Stmts) {
    OS << "  stmt [" << S.Begin << "," << S.End << ") " << modeName(S.ExecMode);
    if (S.Nest >= 0) {
      const ParallelNest &N = K.Nests[S.Nest];
      OS << " nest:";
      for (const CanonicalLoop &L : N.Loops)
        OS << " for(" << L.VarType << " " << L.Var << " = " << L.Lower << "; "
           << (L.Increasing ? "up" : "down") << " to " << L.Upper << "; step " << L.Step << ")";
      for (const std::string &P : N.PrivateDecls)
        OS << " private(" << P << ")";
    }
    OS << "\n";
  }
  for (const ReductionVar &R : K.Reductions)
    OS << "  reduction(" << reductionOpName(R.Op) << ":" << R.Name
       << (R.isArray() ? "[" + R.Lower + ":" + std::to_string(R.Count) + "]" : "") << ") "
       << scalarTypeName(R.Type) << " slot " << R.Slot << "\n";
  if (K.Serial)
    OS << "  serial" << (K.SerialReason.empty() ? "" : ": " + K.SerialReason) << "\n";
}

} // namespace jacc::analysis
