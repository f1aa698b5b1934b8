// A compute construct as a jacc_kernel_push of its own text, with the calls around it.
#include "translate/Translator.h"

#include "analysis/ConstructReport.h"
#include "analysis/KernelSource.h"
#include "analysis/Pipeline.h"
#include "support/DynamicASTVisitor.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

std::string cString(llvm::StringRef Text, const std::string &Indent) {
  std::string Out = Indent + "\"";
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    switch (C) {
    case '\\': Out += "\\\\"; break;
    case '"': Out += "\\\""; break;
    case '\t': Out += "\\t"; break;
    case '\r': // CRLF sources: the line ends at the '\n'; a lone CR stays a character
      if (I + 1 < Text.size() && Text[I + 1] == '\n')
        break;
      Out += "\\r";
      break;
    case '\n':
      Out += "\\n\"";
      if (I + 1 < Text.size())
        Out += "\n" + Indent + "\"";
      else
        return Out;
      break;
    default: Out += C;
    }
  }
  return Out + "\"";
}

void Translator::describeConstruct(const Pragma &P, const std::string &Kernel,
                                   const std::vector<std::string> &Args) {
  if (std::optional<std::string> Routines = kernelRoutines(Kernel)) {
    // Their definitions are linked into the kernel when it first runs (jit/KernelRoutines.h).
    info(P.Line, "calls routines of other files (" + *Routines +
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
    info(P.Line, "not analysed before it runs: " + llvm::toString(Info.takeError()));
    return;
  }
  for (std::string &Line : analysis::describeConstruct(*Info))
    Infos.push_back(std::move(Line));
}

std::vector<unsigned> Translator::useOffsets(Stmt *S, const VarDecl *Var) {
  struct Uses : public DynamicASTVisitor {
    const FileIndex &Idx;
    const VarDecl *Var;
    std::vector<unsigned> Offsets;
    Uses(const FileIndex &Idx, const VarDecl *Var) : Idx(Idx), Var(Var) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) override {
      if (E->getDecl() == Var)
        Offsets.push_back(Idx.offset(E->getLocation()));
      return true;
    }
  } U(Idx, Var);
  U.TraverseStmt(S);
  return U.Offsets;
}

bool Translator::privatisableHere(const Pragma &Q, const Directive &QD, const Region &R,
                                  const VarDecl *Var) {
  if (&Q == R.P)
    return R.D.Kind == DirectiveKind::ParallelLoop || R.D.Kind == DirectiveKind::KernelsLoop;
  if (QD.Kind != DirectiveKind::Loop || QD.find(ClauseKind::Seq) ||
      (R.D.Kind != DirectiveKind::Parallel && R.D.Kind != DirectiveKind::Kernels))
    return false;
  auto *Body = dyn_cast<CompoundStmt>(R.S);
  if (!Body)
    return false;
  // The statement right after the pragma must be a for loop of the construct's body.
  Stmt *Loop = nullptr;
  for (Stmt *S : Body->body())
    if (Idx.offset(S->getBeginLoc()) >= Q.LineEnd) {
      Loop = S;
      break;
    }
  if (!Loop || !isa<ForStmt>(Loop))
    return false;
  unsigned LoopBegin = Idx.offset(Loop->getBeginLoc()), LoopEnd = Idx.endOf(Loop);
  for (unsigned Off : useOffsets(R.S, Var))
    if (Off < LoopBegin || Off >= LoopEnd)
      return false;
  return true;
}

/// The start of the push of Kernels (condition, text; one without a template): the kernel text
/// as a literal, or in a template a function-local string of its parameters' lines (Params) and
/// the text of the group of instantiations the conditions select; indented by I.
static std::string pushedSource(const std::string &Params,
                                const std::vector<std::pair<std::string, std::string>> &Kernels,
                                const std::string &I) {
  if (Params.empty())
    return I + "jacc_translated_check(jacc_kernel_push(\n" + cString(Kernels[0].second, I + "    ") +
           ",\n";
  std::string Choice;
  for (size_t K = 0; K < Kernels.size(); ++K) {
    bool Last = K + 1 == Kernels.size();
    Choice += (Last ? "std::string(\n" : Kernels[K].first + "\n" + I + "    ? std::string(\n") +
              cString(Kernels[K].second, I + "    ") + ")" + (Last ? "" : "\n" + I + "    : ");
  }
  return I + "static const std::string jacc_kernel_source = " + Params + " + " +
         (Kernels.size() > 1 ? "(" + Choice + ")" : Choice) + ";\n" + I +
         "jacc_translated_check(jacc_kernel_push(jacc_kernel_source.c_str(),\n";
}

std::string Translator::hostStatement(const Region &R) const {
  // Its inner pragmas become comments (cc would warn about them).
  std::string Host;
  unsigned At = R.P->LineEnd;
  for (const Pragma &Q : Pragmas)
    if (Q.Hash > R.P->Hash && Q.Hash < R.End) {
      Host += Buf.slice(At, Q.LineStart).str() + Q.Indent + "/* #pragma acc " + Q.Text + " */\n";
      At = Q.LineEnd;
    }
  return Host + Buf.slice(At, R.End).str();
}

bool Translator::memberArgs(const CxxKernel &K, const Pragma &P, KernelNeeds &N,
                            std::vector<std::string> &Args) {
  bool Ok = true;
  for (const FieldDecl *F : K.Members) {
    // A data member used through `this`: an argument of its name, by value as a variable is.
    std::string Name = F->getName().str();
    QualType T = F->getType();
    if (!T->isScalarType() && !T->isRecordType() &&
        !T->isTemplateTypeParmType()) { // a class template's T: the kernel's typedef names it
      errorAt(F->getLocation(), "data member '" + Name + "' used in the construct at line " +
                                    llvm::Twine(P.Line) + " is not a scalar, pointer or struct");
      Ok = false;
      continue;
    }
    addType(T, N);
    Args.push_back("{\"" + declaration(T.getUnqualifiedType(), Name) + "\", (void *)&this->" +
                   Name + "}");
  }
  return Ok;
}

void Translator::translateCompute(Region &R) {
  const Pragma &P = *R.P;
  const Directive &D = R.D;
  bool Ok = true;
  KernelNeeds N;
  unsigned StmtBegin = Idx.offset(R.S->getBeginLoc());
  CxxKernel K;
  // In a template (a function template, a member of a class template): the kernel's text starts
  // with its parameters' values, built when each instantiation first runs the construct.
  std::string TemplateParams;
  const FunctionDecl *Template = cxx() ? templateAround(P) : nullptr;
  if (Template) {
    std::optional<std::string> Params = templateParameterText(Template);
    if (!Params) {
      error(P, "compute construct in a template whose parameters jacc-translate cannot spell in "
               "the kernel (a pack or a template template parameter): call a template without "
               "them or non-template code from it");
      return;
    }
    TemplateParams = *Params;
  }
  if (cxx()) {
    // First: what stays C++ (a lambda's operator(), a member call) is no routine to collect.
    size_t Before = Errors.size();
    lowerCxx(R.S, K, "a compute construct", Template != nullptr);
    if (Errors.size() != Before)
      return;
  }
  collect(R.S, StmtBegin, R.End, N, nullptr);
  if (cxx()) {
    for (QualType T : K.Types)
      addType(T, N);
  }

  // Clauses: data clauses become calls around the push; the others stay in the kernel.
  std::vector<std::string> Decls, Entry, Exit;
  Ok &= dataCalls(R, Decls, Entry, Exit);
  std::string Kept, IfCond;
  bool Async = false, Wait = false, DefaultPresent = false;
  std::set<std::string> Explicit; // names in data or privatising clauses
  for (const Clause &C : D.Clauses) {
    for (const std::string &V : C.Vars)
      Explicit.insert(llvm::StringRef(V).take_until([](char Ch) { return Ch == '['; })
                          .trim()
                          .str());
    switch (C.Kind) {
    case ClauseKind::Copy:
    case ClauseKind::Copyin:
    case ClauseKind::Copyout:
    case ClauseKind::Create:
    case ClauseKind::Present:
    case ClauseKind::NoCreate:
      continue; // mapped (or checked) by the calls around the push
    case ClauseKind::Async:
      Async = true;
      continue;
    case ClauseKind::Wait:
      Wait = true;
      continue;
    case ClauseKind::If:
      IfCond = C.Argument;
      continue;
    case ClauseKind::Default:
      DefaultPresent = llvm::StringRef(C.Argument).trim() == "present";
      break;
    case ClauseKind::Reduction:
      Kept += " " + reductionClause(C, P, Entry, Exit);
      continue;
    case ClauseKind::Private:
    case ClauseKind::Firstprivate: {
      if (C.Kind == ClauseKind::Private && D.Kind == DirectiveKind::Kernels)
        warning(P, C, "clause 'private' on 'kernels' is not OpenACC (NVHPC accepts it): each "
                      "gang gets its own copy, as on 'parallel'");
      // Sections of pointers become arrays in the kernel text (privateSections): not kept.
      std::string Items;
      for (const std::string &V : C.Vars)
        if (!isPrivateSection(V, P))
          Items += (Items.empty() ? "" : ", ") + V;
      if (!Items.empty())
        Kept += " " + C.Name + "(" + Items + ")";
      continue;
    }
    case ClauseKind::Deviceptr: {
      std::string Vars;
      for (const std::string &V : C.Vars)
        if (llvm::any_of(N.Vars, [&](VarDecl *X) { return X->getName() == V; }))
          Vars += (Vars.empty() ? "" : ", ") + V;
      if (!Vars.empty())
        Kept += " " + C.Name + "(" + Vars + ")";
      continue;
    }
    case ClauseKind::Self:
    case ClauseKind::Attach:
      error(P, C, "clause '" + C.Name + "' of '#pragma acc " + directiveKindName(D.Kind) +
                      "' is not supported by jacc-translate");
      Ok = false;
      continue;
    default:
      break;
    }
    Kept += " " + C.Name + (C.HasArgument ? "(" + C.Argument + ")" : "");
  }

  // deviceptr on an enclosing data construct applies to the compute constructs inside it: the
  // same variable (found from the data construct's pragma), unless a clause here names it.
  std::string Inherited;
  for (const Region &Data : Datas) {
    if (!(Data.P->Hash < P.Hash && P.Hash < Data.End))
      continue;
    for (const Clause &C : Data.D.Clauses) {
      if (C.Kind != ClauseKind::Deviceptr)
        continue;
      for (const std::string &V : C.Vars) {
        VarDecl *Outer = Idx.lookupVar(V, Data.P->Hash);
        if (Explicit.count(V) || !llvm::is_contained(N.Vars, Outer))
          continue;
        Explicit.insert(V);
        Inherited += (Inherited.empty() ? "" : ", ") + V;
      }
    }
  }
  if (!Inherited.empty())
    Kept += " deviceptr(" + Inherited + ")";

  // Pointers no clause maps: NVHPC's implicit copy (written) or copyin (only read) of the
  // section their subscripts reach, unless it is present when the construct starts. default(...)
  // asks for none: its pointers must be present (or named).
  if (!D.find(ClauseKind::Default))
    for (const ImplicitSection &S : implicitSections(R, N, Explicit)) {
      std::string Name = S.Var->getName().str(), Bytes = "jacc_implicit_" + Name;
      std::string Addr = "(void *)&" + Name + "[" + S.Lower + "]";
      std::string Kind = S.Written ? "copy" : "copyin";
      info(P.Line, "implicit " + Kind + "(" + Name + "[" + S.Lower + ":" + S.Length + "])");
      Entry.push_back("size_t " + Bytes + " = jacc_translated_implicit(" + Addr + ", (long)(" +
                      S.Length + "), sizeof " + Name + "[0], " + where(P) + ");");
      Exit.insert(
          Exit.begin(),
          "if (" + Bytes + ") " +
              check((S.Written ? "jacc_copyout(" : "jacc_delete(") + Addr + ", " + Bytes + ")", P));
    }

  std::set<const VarDecl *> PrivateArrays;
  Ok &= privateArrays(R, N, PrivateArrays);

  std::vector<PrivateSection> Sections;
  std::map<unsigned, std::string> SectionDecls;
  Ok &= privateSections(R, Sections, SectionDecls);

  // Scalars with a copy on the devices (a data clause, or OpenACC's implicit copy in kernels):
  // the kernel reaches them through a pointer, and what it assigns comes back.
  std::set<const VarDecl *> OnDeviceVars;
  for (auto [V, How] : deviceScalars(R, N)) {
    std::string Name = V->getName().str();
    auto Call = [&](const char *F) {
      return check(std::string(F) + "(&" + Name + ", sizeof " + Name + ")", P);
    };
    if (How == DeviceScalar::ReducedInto) {
      Entry.push_back(Call("jacc_update_self"));
      Exit.insert(Exit.begin(), Call("jacc_update_device"));
      continue;
    }
    OnDeviceVars.insert(V);
    if (How == DeviceScalar::ImplicitCopy) {
      Entry.push_back(Call("jacc_copyin"));
      Exit.insert(Exit.begin(), Call("jacc_copyout"));
    }
  }

  // Arguments, with the implicit data attributes of OpenACC: scalars firstprivate (by value),
  // arrays of known size present-or-copy, pointers present.
  std::vector<std::string> Temps, Args;
  for (const PrivateSection &S : Sections) {
    // The length, evaluated once at the push; a firstprivate copy's original is the section
    // on the devices when present, else a mapped copy of the host's (OpenACC: the value of the
    // original in the data environment where the construct starts).
    std::string Name = S.Var->getName().str(), Len = "jacc_private_len_" + Name;
    if (S.Constant && !S.First)
      continue; // the kernel has the length; nothing to pass or map
    Decls.push_back("long " + Len + " = (long)(" + S.Length + ");");
    if (!S.Constant)
      Args.push_back("{\"long " + Len + "\", &" + Len + "}");
    if (!S.First)
      continue;
    std::string Original = "jacc_original_" + Name;
    std::string Bytes = Len + " * sizeof " + Name + "[0], " + where(P);
    Decls.push_back("void *" + Original + " = 0;");
    Entry.push_back(Original + " = jacc_translated_firstprivate((void *)" + Name + ", " + Bytes +
                    ");");
    Exit.insert(Exit.begin(), "jacc_translated_firstprivate_end(" + Original + ", (void *)" +
                                  Name + ", " + Bytes + ");");
    Args.push_back("{\"" + declaration(S.Var->getType().getUnqualifiedType(), Original) +
                   "\", &" + Original + "}");
  }
  Ok &= memberArgs(K, P, N, Args);
  for (VarDecl *V : N.Vars) {
    std::string Decl, Temp, Value;
    std::vector<std::string> Before;
    if (llvm::any_of(Sections, [&](const PrivateSection &S) { return S.Var == V; }))
      continue; // the kernel declares its own
    if (OnDeviceVars.count(V)) {
      std::string Ref = deviceScalarName(V);
      QualType Ptr = Ctx.getPointerType(V->getType().getUnqualifiedType());
      Temps.push_back(hostDeclaration(Ptr, Ref) + " = &" + V->getName().str() + ";");
      Args.push_back("{\"" + declaration(Ptr, Ref) + "\", &" + Ref + "}");
      continue;
    }
    if (PrivateArrays.count(V)) {
      std::string Name = V->getName().str();
      Decl = declaration(V->getType().getUnqualifiedType(), Name);
      // (void): the host code may not use the array any more.
      Temps.push_back("void *jacc_private_" + Name + " = 0; (void)" + Name + ";");
      Args.push_back("{\"" + Decl + "\", &jacc_private_" + Name + "}");
      continue;
    }
    if (!argDecl(V, Decl, Temp, Value, Before, P)) {
      Ok = false;
      continue;
    }
    if (!Temp.empty())
      Temps.push_back(Temp);
    Args.insert(Args.end(), Before.begin(), Before.end());
    Args.push_back("{\"" + Decl + "\", " + Value + "}");
    std::optional<Section> Whole;
    if (!Explicit.count(V->getName().str()) && !DefaultPresent && (Whole = wholeArray(V))) {
      Entry.push_back(check("jacc_copyin(" + Whole->Addr + ", " + Whole->Bytes + ")", P));
      Exit.insert(Exit.begin(),
                  check(std::string(Whole->Const ? "jacc_delete" : "jacc_copyout") + "(" +
                            Whole->Addr + ", " + Whole->Bytes + ")",
                        P));
    }
  }

  // The kernel: leading declarations, the construct's pragma without the clauses handled here,
  // then the statement as written (inner loop, atomic and cache pragmas included).
  bool ConstructSeq = false;
  std::map<unsigned, std::string> SeqLoops = sequentialLoops(R, OnDeviceVars, ConstructSeq);
  for (auto &[Off, Text] : SectionDecls)
    SeqLoops[Off] += Text;
  if (ConstructSeq)
    Kept += " seq";
  // The kernel's text with the C++ lowering KX and what it needs, NX.
  auto kernelText = [&](const CxxKernel &KX, KernelNeeds &NX) -> std::optional<std::string> {
    std::map<unsigned, std::string> Ins = SeqLoops;
    for (auto &[Off, Text] : KX.Ins)
      Ins[Off] += Text;
    std::optional<std::string> Statement =
        useDeviceScalars(R, OnDeviceVars, P.LineEnd, std::move(Ins), KX.Edits);
    if (!Statement)
      return std::nullopt;
    std::string Body =
        "#pragma acc " + std::string(directiveKindName(D.Kind)) + Kept + "\n" + *Statement + "\n";
    return jaccLines(P) + leadingDecls(NX, Body, KX.Helpers) + Body + siteLine(P);
  };
  // Its texts, each with the condition that selects it: in a template, one per group of
  // instantiations that lower alike.
  std::vector<std::pair<std::string, std::string>> Kernels; // condition, text
  if (Template && !instantiationKernels(R, Template, N, kernelText, Kernels))
    return;
  if (Kernels.empty()) // not a template, or one never instantiated: as the pattern lowers it
    if (std::optional<std::string> Text = kernelText(K, N))
      Kernels.push_back({"", *Text});
  // The construct's own data (its clauses, implicit copies) lives where its kernel runs.
  Ok &= atDataLocation(P, Entry);
  if (!Ok || !Errors.empty() || Kernels.empty())
    return;
  if (Describe && Template)
    // Its argument types are the instantiation's, spelled when the push runs.
    info(P.Line, "in a template: analysed for each instantiation when it first runs "
                 "(JACC_DEBUG=analysis prints it)");
  else if (Describe)
    describeConstruct(P, Kernels.front().second, Args);

  std::string I = P.Indent, I2 = P.Indent + "  ";
  std::string Code = I + "{ /* #pragma acc " + D.Text + " */\n";
  std::string Else;
  if (!IfCond.empty()) {
    // Not on the device: the statement runs on the host, as written.
    Code += I2 + "if (" + IfCond + ") {\n";
    Else = I2 + "} else {\n" + hostStatement(R) + "\n" + I2 + "}\n";
  }
  for (const std::string &E : Decls)
    Code += I2 + E + "\n";
  Code += I2 + constructBegin(P, computeKind(D.Kind)) + "\n";
  for (const std::string &Q : queueChecks(P, D))
    Code += I2 + Q + "\n";
  if (Wait)
    Code += I2 + check("jacc_wait()", P) + "\n";
  for (const std::string &E : Entry)
    Code += I2 + E + "\n";
  for (const std::string &T : Temps)
    Code += I2 + T + "\n";
  if (!Args.empty()) {
    Code += I2 + "jacc_arg jacc_args[] = {";
    for (size_t K = 0; K < Args.size(); ++K)
      Code += (K ? ", " : "") + Args[K];
    Code += "};\n";
  }
  Code += pushedSource(TemplateParams, Kernels, I2);
  Code += I2 + "    " + std::to_string(Args.size()) + ", " + (Args.empty() ? "0" : "jacc_args") +
          ", " + (Async ? "JACC_ASYNC" : "JACC_DEFAULT") + "), " + where(P) + ");\n";
  for (const std::string &E : Exit)
    Code += I2 + E + "\n";
  Code += I2 + constructEnd() + "\n";
  Code += Else;
  Code += I + "}";
  commentJaccLines(P);
  RW.ReplaceText(SM.getComposedLoc(SM.getMainFileID(), P.LineStart), R.End - P.LineStart, Code);
}

} // namespace jacc::translate
