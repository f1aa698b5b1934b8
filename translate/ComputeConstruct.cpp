// A compute construct as a jacc_kernel_push of its own text, with the calls around it.
#include "translate/ComputeLowering.h"

#include "translate/ConstructCalls.h"
#include "translate/ImplicitSections.h"

#include "analysis/ConstructReport.h"
#include "analysis/KernelSource.h"
#include "analysis/Pipeline.h"
#include "support/DynamicASTVisitor.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

void ComputeLowering::describeConstruct(const Pragma &P, const std::string &Kernel,
                                        const std::vector<std::string> &Args) {
  if (std::optional<std::string> Routines = kernelRoutines(Kernel)) {
    // Their definitions are linked into the kernel when it first runs (jit/KernelRoutines.h).
    File.info(P.Line,
              "calls routines of other files (" + *Routines +
                  "): analysed with their definitions when it first runs (JACC_DEBUG=analysis "
                  "prints it)");
    return;
  }
  // Each initialiser is `{"<declaration>", <value>}`.
  std::vector<std::string> Decls;
  for (llvm::StringRef A : Args)
    Decls.push_back(A.drop_front(2).take_until([](char C) { return C == '"'; }).str());
  auto Info = runAnalysis(Kernel, Decls);
  if (!Info) {
    // What the runtime will report when the kernel first runs; the build goes on.
    File.info(P.Line, "not analysed before it runs: " + llvm::toString(Info.takeError()));
    return;
  }
  for (std::string &Line : analysis::describeConstruct(*Info))
    File.Diags.infoLine(std::move(Line));
}

std::string ComputeLowering::hostStatement(const Region &R) const {
  // Its inner pragmas become comments (cc would warn about them).
  std::string Host;
  unsigned At = R.P->LineEnd;
  for (const Pragma &Q : File.Pragmas)
    if (Q.Hash > R.P->Hash && Q.Hash < R.End) {
      Host +=
          File.Buf.slice(At, Q.LineStart).str() + Q.Indent + "/* #pragma acc " + Q.Text + " */\n";
      At = Q.LineEnd;
    }
  return Host + File.Buf.slice(At, R.End).str();
}

/// A compute construct on its way to its push: what the steps below learn of it, in order.
struct ComputeLowering::Compute {
  explicit Compute(Region &R) : R(R), P(*R.P), D(R.D) {}
  Region &R;
  const Pragma &P;
  const Directive &D;
  const FunctionDecl *Template = nullptr; ///< the template (C++) whose body holds it, or null
  CxxKernel K;                            ///< its C++ lowered to C
  KernelNeeds N;                          ///< what its kernel needs from the file
  std::string Kept;                       ///< the clauses that stay in the kernel's pragma
  bool DefaultPresent = false;
  std::set<std::string> Explicit; ///< names in data or privatising clauses
  std::set<const VarDecl *> PrivateArrays, OnDeviceVars;
  std::vector<PrivateSection> Sections;
  std::map<unsigned, std::string> SectionDecls; ///< their declarations in the kernel, by offset
  ComputePush Push;
};

std::optional<ComputePush> ComputeLowering::lower(Region &R) {
  Compute C(R);
  if (!templateParameters(C) || !kernelNeeds(C))
    return std::nullopt;
  bool Ok = clauses(C);
  inheritedDeviceptrs(C);
  implicitCopies(C);
  Ok &= privates(C);
  deviceScalarCalls(C);
  Ok &= kernelArguments(C);
  if (!kernelTexts(C))
    return std::nullopt;
  // The construct's own data (its clauses, implicit copies) lives where its kernel runs.
  Ok &= atDataLocation(File, C.P, C.Push.Entry);
  if (!Ok || File.Diags.failed() || C.Push.Kernels.empty())
    return std::nullopt;
  if (File.Describe && C.Template)
    // Its argument types are the instantiation's, spelled when the push runs.
    File.info(C.P.Line, "in a template: analysed for each instantiation when it first runs "
                        "(JACC_DEBUG=analysis prints it)");
  else if (File.Describe)
    describeConstruct(C.P, C.Push.Kernels.front().second, C.Push.Args);
  hostSide(C);
  return std::move(C.Push);
}

bool ComputeLowering::templateParameters(Compute &C) {
  // In a template (a function template, a member of a class template): the kernel's text starts
  // with its parameters' values, built when each instantiation first runs the construct.
  C.Template = File.cxx() ? Templates.templateAround(C.P) : nullptr;
  if (!C.Template)
    return true;
  std::optional<std::string> Params = Templates.parameterText(C.Template);
  if (!Params) {
    File.error(C.P,
               "compute construct in a template whose parameters jacc-translate cannot spell in "
               "the kernel (a pack or a template template parameter): call a template without "
               "them or non-template code from it");
    return false;
  }
  C.Push.TemplateParams = *Params;
  return true;
}

bool ComputeLowering::kernelNeeds(Compute &C) {
  if (File.cxx()) {
    // First: what stays C++ (a lambda's operator(), a member call) is no routine to collect.
    size_t Before = File.Diags.errorCount();
    Cxx.lower(C.R.S, C.K, "a compute construct", C.Template != nullptr);
    if (File.Diags.errorCount() != Before)
      return false;
  }
  Needs.collect(C.R.S, File.Idx.offset(C.R.S->getBeginLoc()), C.R.End, C.N, nullptr);
  if (File.cxx())
    for (QualType T : C.K.Types)
      Needs.addType(T, C.N);
  return true;
}

bool ComputeLowering::clauses(Compute &C) {
  // Data clauses become calls around the push; the others stay in the kernel.
  ComputePush &Push = C.Push;
  const Pragma &P = C.P;
  bool Ok = Data.regionCalls(C.R, Push.Decls, Push.Entry, Push.Exit);
  for (const Clause &Cl : C.D.Clauses) {
    for (const std::string &V : Cl.Vars)
      C.Explicit.insert(
          llvm::StringRef(V).take_until([](char Ch) { return Ch == '['; }).trim().str());
    switch (Cl.Kind) {
    case ClauseKind::Copy:
    case ClauseKind::Copyin:
    case ClauseKind::Copyout:
    case ClauseKind::Create:
    case ClauseKind::Present:
    case ClauseKind::NoCreate:
      continue; // mapped (or checked) by the calls around the push
    case ClauseKind::Async:
      Push.Async = true;
      continue;
    case ClauseKind::Wait:
      Push.Wait = true;
      continue;
    case ClauseKind::If:
      Push.IfCondition = Cl.Argument;
      continue;
    case ClauseKind::Default:
      C.DefaultPresent = llvm::StringRef(Cl.Argument).trim() == "present";
      break;
    case ClauseKind::Reduction:
      C.Kept += " " + Data.reductionClause(Cl, P, Push.Entry, Push.Exit);
      continue;
    case ClauseKind::Private:
    case ClauseKind::Firstprivate: {
      if (Cl.Kind == ClauseKind::Private && C.D.Kind == DirectiveKind::Kernels)
        File.warning(P, Cl,
                     "clause 'private' on 'kernels' is not OpenACC (NVHPC accepts it): each "
                     "gang gets its own copy, as on 'parallel'");
      // Sections of pointers become arrays in the kernel text (privateSections): not kept.
      std::string Items;
      for (const std::string &V : Cl.Vars)
        if (!Privates.isPrivateSection(V, P))
          Items += (Items.empty() ? "" : ", ") + V;
      if (!Items.empty())
        C.Kept += " " + Cl.Name + "(" + Items + ")";
      continue;
    }
    case ClauseKind::Deviceptr: {
      std::string Vars;
      for (const std::string &V : Cl.Vars)
        if (llvm::any_of(C.N.Vars, [&](VarDecl *X) { return X->getName() == V; }))
          Vars += (Vars.empty() ? "" : ", ") + V;
      if (!Vars.empty())
        C.Kept += " " + Cl.Name + "(" + Vars + ")";
      continue;
    }
    case ClauseKind::Self:
    case ClauseKind::Attach:
      File.error(P, Cl,
                 "clause '" + Cl.Name + "' of '#pragma acc " + directiveKindName(C.D.Kind) +
                     "' is not supported by jacc-translate");
      Ok = false;
      continue;
    default:
      break;
    }
    C.Kept += " " + Cl.Name + (Cl.HasArgument ? "(" + Cl.Argument + ")" : "");
  }
  return Ok;
}

void ComputeLowering::inheritedDeviceptrs(Compute &C) {
  // deviceptr on an enclosing data construct applies to the compute constructs inside it: the
  // same variable (found from the data construct's pragma), unless a clause here names it.
  std::string Inherited;
  for (const Region &Data : File.Datas) {
    if (!(Data.P->Hash < C.P.Hash && C.P.Hash < Data.End))
      continue;
    for (const Clause &Cl : Data.D.Clauses) {
      if (Cl.Kind != ClauseKind::Deviceptr)
        continue;
      for (const std::string &V : Cl.Vars) {
        VarDecl *Outer = File.Idx.lookupVar(V, Data.P->Hash);
        if (C.Explicit.count(V) || !llvm::is_contained(C.N.Vars, Outer))
          continue;
        C.Explicit.insert(V);
        Inherited += (Inherited.empty() ? "" : ", ") + V;
      }
    }
  }
  if (!Inherited.empty())
    C.Kept += " deviceptr(" + Inherited + ")";
}

void ComputeLowering::implicitCopies(Compute &C) {
  // Pointers no clause maps: NVHPC's implicit copy (written) or copyin (only read) of the
  // section their subscripts reach, unless it is present when the construct starts. default(...)
  // asks for none: its pointers must be present (or named).
  if (C.D.find(ClauseKind::Default))
    return;
  for (const ImplicitSection &S : implicitSections(File, Data, C.R, C.N, C.Explicit)) {
    std::string Name = S.Var->getName().str(), Bytes = "jacc_implicit_" + Name;
    std::string Addr = "(void *)&" + Name + "[" + S.Lower + "]";
    std::string Kind = S.Written ? "copy" : "copyin";
    File.info(C.P.Line, "implicit " + Kind + "(" + Name + "[" + S.Lower + ":" + S.Length + "])");
    C.Push.Entry.push_back("size_t " + Bytes + " = jacc_translated_implicit(" + Addr + ", (long)(" +
                           S.Length + "), sizeof " + Name + "[0], " + File.where(C.P) + ");");
    C.Push.Exit.insert(
        C.Push.Exit.begin(),
        "if (" + Bytes + ") " +
            File.check((S.Written ? "jacc_copyout(" : "jacc_delete(") + Addr + ", " + Bytes + ")",
                       C.P));
  }
}

bool ComputeLowering::privates(Compute &C) {
  bool Ok = Privates.privateArrays(C.R, C.N, C.PrivateArrays);
  return Privates.privateSections(C.R, C.Sections, C.SectionDecls) && Ok;
}

void ComputeLowering::deviceScalarCalls(Compute &C) {
  // Scalars with a copy on the devices (a data clause, or OpenACC's implicit copy in kernels):
  // the kernel reaches them through a pointer, and what it assigns comes back.
  for (auto [V, How] : Scalars.of(C.R, C.N)) {
    std::string Name = V->getName().str();
    auto Call = [&](const char *F) {
      return File.check(std::string(F) + "(&" + Name + ", sizeof " + Name + ")", C.P);
    };
    if (How == DeviceScalar::ReducedInto) {
      C.Push.Entry.push_back(Call("jacc_update_self"));
      C.Push.Exit.insert(C.Push.Exit.begin(), Call("jacc_update_device"));
      continue;
    }
    C.OnDeviceVars.insert(V);
    if (How == DeviceScalar::ImplicitCopy) {
      C.Push.Entry.push_back(Call("jacc_copyin"));
      C.Push.Exit.insert(C.Push.Exit.begin(), Call("jacc_copyout"));
    }
  }
}

bool ComputeLowering::kernelArguments(Compute &C) {
  // Arguments, with the implicit data attributes of OpenACC: scalars firstprivate (by value),
  // arrays of known size present-or-copy, pointers present.
  ComputePush &Push = C.Push;
  const Pragma &P = C.P;
  for (const PrivateSection &S : C.Sections) {
    // The length, evaluated once at the push; a firstprivate copy's original is the section
    // on the devices when present, else a mapped copy of the host's (OpenACC: the value of the
    // original in the data environment where the construct starts).
    std::string Name = S.Var->getName().str(), Len = "jacc_private_len_" + Name;
    if (S.Constant && !S.First)
      continue; // the kernel has the length; nothing to pass or map
    Push.Decls.push_back("long " + Len + " = (long)(" + S.Length + ");");
    if (!S.Constant)
      Push.Args.push_back("{\"long " + Len + "\", &" + Len + "}");
    if (!S.First)
      continue;
    std::string Original = "jacc_original_" + Name;
    std::string Bytes = Len + " * sizeof " + Name + "[0], " + File.where(P);
    Push.Decls.push_back("void *" + Original + " = 0;");
    Push.Entry.push_back(Original + " = jacc_translated_firstprivate((void *)" + Name + ", " +
                         Bytes + ");");
    Push.Exit.insert(Push.Exit.begin(), "jacc_translated_firstprivate_end(" + Original +
                                            ", (void *)" + Name + ", " + Bytes + ");");
    Push.Args.push_back("{\"" +
                        File.TypeText.declaration(S.Var->getType().getUnqualifiedType(), Original) +
                        "\", &" + Original + "}");
  }
  bool Ok = memberArgs(C.K, P, C.N, Push.Args);
  for (VarDecl *V : C.N.Vars) {
    std::string Decl, Temp, Value;
    std::vector<std::string> Before;
    if (llvm::any_of(C.Sections, [&](const PrivateSection &S) { return S.Var == V; }))
      continue; // the kernel declares its own
    if (C.OnDeviceVars.count(V)) {
      std::string Ref = DeviceScalars::pointerName(V);
      QualType Ptr = File.Ctx.getPointerType(V->getType().getUnqualifiedType());
      Push.Temps.push_back(File.TypeText.hostDeclaration(Ptr, Ref) + " = &" + V->getName().str() +
                           ";");
      Push.Args.push_back("{\"" + File.TypeText.declaration(Ptr, Ref) + "\", &" + Ref + "}");
      continue;
    }
    if (C.PrivateArrays.count(V)) {
      std::string Name = V->getName().str();
      Decl = File.TypeText.declaration(V->getType().getUnqualifiedType(), Name);
      // (void): the host code may not use the array any more.
      Push.Temps.push_back("void *jacc_private_" + Name + " = 0; (void)" + Name + ";");
      Push.Args.push_back("{\"" + Decl + "\", &jacc_private_" + Name + "}");
      continue;
    }
    if (!argDecl(V, Decl, Temp, Value, Before, P)) {
      Ok = false;
      continue;
    }
    if (!Temp.empty())
      Push.Temps.push_back(Temp);
    Push.Args.insert(Push.Args.end(), Before.begin(), Before.end());
    Push.Args.push_back("{\"" + Decl + "\", " + Value + "}");
    std::optional<Section> Whole;
    if (!C.Explicit.count(V->getName().str()) && !C.DefaultPresent &&
        (Whole = Data.wholeArray(V))) {
      Push.Entry.push_back(File.check("jacc_copyin(" + Whole->Addr + ", " + Whole->Bytes + ")", P));
      Push.Exit.insert(Push.Exit.begin(),
                       File.check(std::string(Whole->Const ? "jacc_delete" : "jacc_copyout") + "(" +
                                      Whole->Addr + ", " + Whole->Bytes + ")",
                                  P));
    }
  }
  return Ok;
}

bool ComputeLowering::kernelTexts(Compute &C) {
  // The kernel: leading declarations, the construct's pragma without the clauses handled here,
  // then the statement as written (inner loop, atomic and cache pragmas included).
  bool ConstructSeq = false;
  std::map<unsigned, std::string> SeqLoops =
      Scalars.sequentialLoops(C.R, C.OnDeviceVars, ConstructSeq);
  for (auto &[Off, Text] : C.SectionDecls)
    SeqLoops[Off] += Text;
  if (ConstructSeq)
    C.Kept += " seq";
  // The kernel's text with the C++ lowering KX and what it needs, NX.
  auto kernelText = [&](const CxxKernel &KX, KernelNeeds &NX) -> std::optional<std::string> {
    std::map<unsigned, std::string> Ins = SeqLoops;
    for (auto &[Off, Text] : KX.Ins)
      Ins[Off] += Text;
    std::optional<std::string> Statement = Scalars.referencedThroughPointers(
        C.R, C.OnDeviceVars, C.P.LineEnd, std::move(Ins), KX.Edits);
    if (!Statement)
      return std::nullopt;
    std::string Body = "#pragma acc " + std::string(directiveKindName(C.D.Kind)) + C.Kept + "\n" +
                       *Statement + "\n";
    return jaccLines(File, C.P) + Needs.leadingDecls(NX, Body, KX.Helpers) + Body +
           File.siteLine(C.P);
  };
  // Its texts, each with the condition that selects it: in a template, one per group of
  // instantiations that lower alike.
  std::vector<std::pair<std::string, std::string>> &Kernels = C.Push.Kernels;
  if (C.Template && !Templates.instantiationKernels(C.R, C.Template, C.N, kernelText, Kernels))
    return false;
  if (Kernels.empty()) // not a template, or one never instantiated: as the pattern lowers it
    if (std::optional<std::string> Text = kernelText(C.K, C.N))
      Kernels.push_back({"", *Text});
  return true;
}

void ComputeLowering::hostSide(Compute &C) {
  ComputePush &Push = C.Push;
  Push.Indent = C.P.Indent;
  Push.DirectiveText = C.D.Text;
  Push.Site = File.FileName.str() + ":" + std::to_string(C.P.Line);
  if (!Push.IfCondition.empty())
    Push.HostStatement = hostStatement(C.R);
  Push.Begin = constructBegin(File, C.P, computeKind(C.D.Kind));
  Push.End = constructEnd();
  Push.QueueChecks = queueChecks(File, C.P, C.D);
}

} // namespace jacc::translate
