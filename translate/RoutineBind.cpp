// `routine bind(name)`, per device kind with device_type (OpenACC 3.3 2.15.1): a kernel calls the
// routine by its own name, and `#define`s in its leading declarations rename the call to the
// binding of the device compiling it. Every kernel is compiled as C for host devices and as CUDA
// C++ by NVRTC for GPUs; only NVRTC defines __CUDACC__, so `#ifdef __CUDACC__` tells the two
// apart in the one text. The analysis frontend parses that text as C, the host's view: both
// bound definitions are in it, so each compiler sees the one its devices call defined.
#include "translate/Routines.h"

#include "analysis/DeviceTypeClauses.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

FunctionDecl *RoutineTable::boundDefinition(const Pragma &P, const Clause &B,
                                            const FunctionDecl *F) {
  // bind(name) or bind("name"): an identifier or a string naming the function.
  std::string Name = llvm::StringRef(B.Argument).trim().trim('"').str();
  for (FunctionDecl *G : File.Idx.Functions)
    if (File.Idx.routineName(G) == Name && G->isThisDeclarationADefinition())
      return G;
  File.error(P, B,
             "routine '" + File.Idx.routineName(F) + "' is bound to '" + Name +
                 "', which this file does not define: define it here (jaccc compiles "
                 "kernels from this file's functions)");
  return nullptr;
}

void RoutineTable::bind(const Pragma &P, const Directive &D, FunctionDecl *F) {
  const Clause *HostBind = routineBind(D, DeviceKind::Host);
  const Clause *GpuBind = routineBind(D, DeviceKind::Nvidia);
  Binding B;
  bool Ok = true;
  if (HostBind)
    Ok &= (B.Host = boundDefinition(P, *HostBind, F)) != nullptr;
  if (GpuBind == HostBind)
    B.Gpu = B.Host; // one clause, one error
  else if (GpuBind)
    Ok &= (B.Gpu = boundDefinition(P, *GpuBind, F)) != nullptr;
  if (!Ok || (!B.Host && !B.Gpu))
    return; // errors, or binds for other device kinds only
  BoundTo[F->getCanonicalDecl()] = B;
  // A bound function is the device's routine: the same level, its loops orphaned in it.
  for (FunctionDecl *Target : {B.Host, B.Gpu}) {
    if (!Target)
      continue;
    RoutineOf.try_emplace(Target->getCanonicalDecl(), &P);
    RoutineDir.try_emplace(Target->getCanonicalDecl(), D);
    // Only kernels may call it: static, it is unused in the host code (-Wunused-function).
    if (Target->getStorageClass() == SC_Static && UnusedBound.insert(Target).second)
      File.RW.InsertTextBefore(File.SM.getExpansionLoc(Target->getBeginLoc()),
                               "__attribute__((unused)) ");
  }
}

std::string RoutineTable::renameText(const std::string &Routine, const RoutineNames &To) {
  auto Define = [&](const std::string &Name) {
    return Name == Routine ? std::string() : "#define " + Routine + " " + Name + "\n";
  };
  if (To.Host == To.Gpu)
    return To.Host == Routine ? "" : "#define " + Routine + " " + To.Host + " /* routine bind */\n";
  std::string Why = " /* routine bind: NVRTC (GPUs) defines it */\n";
  if (To.Host == Routine)
    return "#ifdef __CUDACC__" + Why + Define(To.Gpu) + "#endif\n";
  if (To.Gpu == Routine)
    return "#ifndef __CUDACC__" + Why + Define(To.Host) + "#endif\n";
  return "#ifdef __CUDACC__" + Why + Define(To.Gpu) + "#else\n" + Define(To.Host) + "#endif\n";
}

std::string RoutineTable::kernelRoutinePragma(const Directive &D) {
  std::string S = "#pragma acc routine";
  for (const Clause &C : D.Clauses) {
    if (C.Kind == ClauseKind::DeviceType)
      break;
    if (C.Kind != ClauseKind::Bind)
      S += " " + C.Name + (C.HasArgument ? "(" + C.Argument + ")" : "");
  }
  return S + "\n";
}

} // namespace jacc::translate
