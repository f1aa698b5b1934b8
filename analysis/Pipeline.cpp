#include "Pipeline.h"

#include "Debug.h"
#include "Frontend.h"

namespace jacc::analysis {

llvm::Expected<KernelInfo> runAnalysis(llvm::StringRef Source, llvm::ArrayRef<std::string> Decls) {
  auto K = analyzeKernel(Source, Decls);
  if (!K)
    return K.takeError();
  if (debugEnabled("analysis")) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    dumpKernelInfo(*K, OS);
    debugLog("analysis", "after frontend:\n" + OS.str());
  }
  return K;
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
    OS << "  reduction(" << reductionOpName(R.Op) << ":" << R.Name << ") "
       << scalarTypeName(R.Type) << " slot " << R.Slot << "\n";
  if (K.Serial)
    OS << "  serial" << (K.SerialReason.empty() ? "" : ": " + K.SerialReason) << "\n";
}

} // namespace jacc::analysis
