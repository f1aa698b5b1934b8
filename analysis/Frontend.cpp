// The kernel frontend: the construct, its directives, arguments, reductions and region statements.
#include "analysis/Frontend.h"
#include "analysis/NestingDepth.h"

#include "analysis/AccPragma.h"
#include "analysis/AtomicForm.h"
#include "analysis/BoundsSites.h"
#include "analysis/FlatVla.h"
#include "analysis/InnerParallel.h"
#include "analysis/Interchange.h"
#include "analysis/KernelLocations.h"
#include "analysis/KernelSource.h"
#include "analysis/LoopNest.h"
#include "analysis/LowerRegion.h"
#include "analysis/ReductionItem.h"
#include "analysis/Stores.h"
#include "support/ClangInvocation.h"
#include "support/ClangUse.h"
#include "support/DynamicASTVisitor.h"
#include "support/Error.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecordLayout.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/Preprocessor.h>

#include <map>
#include <set>

using namespace clang;

namespace jacc::analysis {
namespace {

/// Finds, for each pragma, the statement that follows it, and collects facts about loops.
class StmtIndex : public DynamicASTVisitor {
public:
  explicit StmtIndex(SourceManager &SM) : SM(SM) {}
  bool VisitStmt(Stmt *S) override {
    unsigned Off = SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
    // Pre-order: the first statement at an offset is the outermost one.
    Starts.emplace(Off, S);
    return true;
  }
  /// The outermost statement starting after Offset.
  Stmt *after(unsigned Offset) const {
    auto It = Starts.upper_bound(Offset);
    return It == Starts.end() ? nullptr : It->second;
  }

private:
  SourceManager &SM;
  std::map<unsigned, Stmt *> Starts; // emplace keeps the first (outermost) per offset
};

/// Whether the loop directive D asserts its loop's iterations independent: no clause but the
/// levels of parallelism and independent (not seq or auto), and private variables when
/// AllowPrivate (a loop shared among threads must honour its own clauses; one run in another
/// order on a thread need not).
bool assertsIndependence(const Directive &D, bool AllowPrivate) {
  return llvm::all_of(D.Clauses, [&](const Clause &Cl) {
    return Cl.Kind == ClauseKind::Gang || Cl.Kind == ClauseKind::Worker ||
           Cl.Kind == ClauseKind::Vector || Cl.Kind == ClauseKind::Independent ||
           (AllowPrivate && Cl.Kind == ClauseKind::Private);
  });
}

/// Whether a value of type T holds a pointer: a pointer, or an array or struct/union with one.
bool holdsPointers(QualType T) {
  T = T.getCanonicalType();
  if (T->isPointerType() || T->isBlockPointerType())
    return true;
  if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    return holdsPointers(AT->getElementType());
  if (const auto *RT = T->getAs<RecordType>()) {
    const RecordDecl *RD = RT->getDecl()->getDefinition();
    if (!RD)
      return true; // unknown contents
    for (const FieldDecl *F : RD->fields())
      if (holdsPointers(F->getType()))
        return true;
  }
  return false;
}

/// At most this many pointer offsets are kept per struct argument (a struct holding a large array
/// of pointers): the rest are passed as the program holds them.
constexpr size_t MaxPointerOffsets = 1024;

/// Append the byte offsets (from Base) of the pointers a value of type T holds: a pointer
/// itself, the members of a struct, the elements of a constant array. Union members overlap
/// other data and are left alone.
void pointerOffsets(const ASTContext &Ctx, QualType T, uint64_t Base, std::vector<uint64_t> &Out) {
  T = T.getCanonicalType();
  if (Out.size() >= MaxPointerOffsets)
    return;
  if (T->isPointerType()) {
    Out.push_back(Base);
    return;
  }
  if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
    QualType E = AT->getElementType();
    if (!holdsPointers(E))
      return;
    uint64_t Size = Ctx.getTypeSizeInChars(E).getQuantity();
    for (uint64_t I = 0; I < AT->getSize().getZExtValue() && Out.size() < MaxPointerOffsets; ++I)
      pointerOffsets(Ctx, E, Base + I * Size, Out);
    return;
  }
  const auto *RT = T->getAs<RecordType>();
  const RecordDecl *RD = RT ? RT->getDecl()->getDefinition() : nullptr;
  if (!RD || RD->isUnion() || RD->isInvalidDecl())
    return;
  const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
  for (const FieldDecl *F : RD->fields())
    if (!F->isBitField())
      pointerOffsets(
          Ctx, F->getType(),
          Base + Ctx.toCharUnitsFromBits(L.getFieldOffset(F->getFieldIndex())).getQuantity(), Out);
}

/// The ScalarType of a canonical C arithmetic type (an enumeration's integer type; a complex
/// floating type), if any.
std::optional<ScalarType> scalarTypeOf(QualType T) {
  if (const auto *ET = T->getAs<EnumType>())
    T = ET->getDecl()->getIntegerType().getCanonicalType();
  if (const auto *CT = T->getAs<ComplexType>()) {
    const auto *Elem = CT->getElementType()->getAs<BuiltinType>();
    switch (Elem ? Elem->getKind() : BuiltinType::Void) {
    case BuiltinType::Float: return ScalarType::C32;
    case BuiltinType::Double: return ScalarType::C64;
    case BuiltinType::LongDouble: return ScalarType::C80;
    default: return std::nullopt; // _Complex int, a GNU extension
    }
  }
  const auto *BT = T->getAs<BuiltinType>();
  if (!BT)
    return std::nullopt;
  switch (BT->getKind()) {
  case BuiltinType::Bool: return ScalarType::Bool;
  case BuiltinType::Char_S:
  case BuiltinType::SChar: return ScalarType::I8;
  case BuiltinType::Char_U:
  case BuiltinType::UChar: return ScalarType::U8;
  case BuiltinType::Short: return ScalarType::I16;
  case BuiltinType::UShort: return ScalarType::U16;
  case BuiltinType::Int: return ScalarType::I32;
  case BuiltinType::UInt: return ScalarType::U32;
  case BuiltinType::Long:
  case BuiltinType::LongLong: return ScalarType::I64;
  case BuiltinType::ULong:
  case BuiltinType::ULongLong: return ScalarType::U64;
  case BuiltinType::Float: return ScalarType::F32;
  case BuiltinType::Double: return ScalarType::F64;
  case BuiltinType::LongDouble: return ScalarType::F80;
  default: return std::nullopt;
  }
}

class Analyzer : KernelLocations {
public:
  Analyzer(ASTContext &Ctx, const WrappedKernel &W, llvm::StringRef Source,
           llvm::ArrayRef<std::string> Decls, const std::vector<AccPragma> &Pragmas)
      : KernelLocations(Ctx, W), Source(Source), Decls(Decls), Pragmas(Pragmas) {}

  llvm::Expected<KernelInfo> run();

private:
  llvm::Error describeArgs(FunctionDecl *F);
  llvm::Error checkConstructClauses();
  /// The nest of F (buildNest), its innermost loop kept for lowerNests.
  llvm::Expected<ParallelNest> buildNest(ForStmt *F, const Directive &D) {
    std::vector<ForStmt *> Fors;
    auto N = analysis::buildNest(F, D, *this, Fors);
    if (N) {
      NestInner.push_back(Fors.back());
      NestCollapsed.emplace_back(Fors.begin() + 1, Fors.end());
    }
    return N;
  }
  llvm::Error addReductions(const Directive &D, bool ArgsOnly = false);
  /// Lower each nest's body (ParallelNest::Body) and, for a kernel that may split, Split.IR.
  void lowerNests();
  std::map<const Stmt *, AtomicOp::Form> AtomicStmts;
  /// ParallelNest::InnerParallel of N, whose innermost loop is Inner; C lowers N's body.
  void findInnerParallel(ParallelNest &N, ForStmt *Inner, LowerContext C);
  /// Whether the iterations of F, a loop inside a nest whose body C lowers, are independent: its
  /// loop directive asserts it (one with no clause but gang, worker, vector, independent and
  /// private), or, without one, innerIterationsIndependent proves it.
  bool independentLoop(ForStmt *F, const std::string &Var, LowerContext C);
  std::vector<ForStmt *> NestInner; ///< innermost loop of each nest
  /// The loops of each nest that collapse into its first one.
  std::vector<std::vector<const ForStmt *>> NestCollapsed;
  std::map<Stmt *, Directive> LoopDirs; ///< the loop directives inside the construct

  llvm::StringRef Source;
  llvm::ArrayRef<std::string> Decls;
  const std::vector<AccPragma> &Pragmas;
  KernelInfo K;
  std::map<std::string, unsigned> ArgByName;
  /// Pointer arguments to C scalars, by index into K.Args: the element type an array reduction
  /// of them has.
  std::map<unsigned, ScalarType> PointeeScalar;
  std::map<const ParmVarDecl *, unsigned> ArgByDecl;
  /// Arguments the kernel's C code never reads (name, "argument 2 ('int v')"): a launch-size
  /// clause (`vector_length(v)`, which a specialization folds) must name them.
  std::vector<std::pair<std::string, std::string>> Unreferenced;
};

llvm::Error Analyzer::describeArgs(FunctionDecl *F) {
  K.Args.resize(Decls.size());
  for (unsigned P = 0; P < F->getNumParams(); ++P) {
    ParmVarDecl *PV = F->getParamDecl(P);
    unsigned User = W.ParamOrder[P];
    ArgInfo &A = K.Args[User];
    A.Name = PV->getName().str();
    A.Decl = Decls[User];
    A.Position = User;
    A.Param = P;
    std::string Where = "argument " + std::to_string(User + 1) + " ('" + A.Decl + "')";
    if (A.Name.empty())
      return makeError(ErrorCode::InvalidArgument,
                       Where + " declares no name: write it as the kernel names it, e.g. 'int n'");
    if (ArgByName.count(A.Name))
      return makeError(ErrorCode::InvalidArgument,
                       Where + " declares '" + A.Name + "' a second time");
    ArgByName[A.Name] = User;
    ArgByDecl[PV] = User;
    if (!PV->isReferenced())
      Unreferenced.push_back({A.Name, Where}); // used by a clause only, or an error: see run()
    QualType T = PV->getType().getCanonicalType();
    A.Size = Ctx.getTypeSizeInChars(T).getQuantity();
    A.Align = Ctx.getTypeAlignInChars(T).getQuantity();
    if (T->isPointerType()) {
      A.ArgKind = ArgInfo::Kind::Pointer;
      QualType Pointee = T->getPointeeType();
      // A pointer to pointers (`double **a`) is translated like any pointer: its device copy
      // holds each device's addresses of the rows once they are attached (acc_attach, or a
      // translated `copyin(a[0:n][0:m])`). A third level has no such mapping.
      if (Pointee->isPointerType() && Pointee->getPointeeType()->isPointerType())
        return makeError(ErrorCode::Unsupported,
                         Where + ": pointers to pointers to pointers cannot be translated to "
                                 "device copies; pass the rows' pointer array ('T **') instead");
      if (Pointee->isFunctionType())
        return makeError(ErrorCode::Unsupported, Where + ": function pointers are not supported");
      A.HoldsPointers = Pointee->isVoidType() || Pointee->isIncompleteType() ||
                        holdsPointers(Pointee);
      if (!Pointee->isIncompleteType() && !Pointee->isVoidType() && Pointee->isConstantSizeType())
      {
        A.PointeeSize = Ctx.getTypeSizeInChars(Pointee).getQuantity();
        A.PointeeKnown = true;
        if (std::optional<ScalarType> ST = scalarTypeOf(Pointee.getCanonicalType()))
          PointeeScalar[User] = *ST;
      }
      continue;
    }
    if (T->isRecordType()) {
      A.ArgKind = ArgInfo::Kind::Aggregate;
      A.HoldsPointers = holdsPointers(T);
      if (A.HoldsPointers)
        pointerOffsets(Ctx, T, 0, A.PointerOffsets);
      continue;
    }
    if (const auto *ET = T->getAs<EnumType>())
      T = ET->getDecl()->getIntegerType().getCanonicalType();
    if (T->isComplexIntegerType())
      return makeError(ErrorCode::Unsupported,
                       Where + ": complex integers (a GNU extension) cannot be passed to a "
                               "kernel: pass the real and imaginary parts as two integers");
    std::optional<ScalarType> ST = scalarTypeOf(T);
    if (!ST)
      return makeError(ErrorCode::Unsupported,
                       Where + ": type '" + T.getAsString() + "' cannot be passed to a kernel");
    A.ArgKind = ArgInfo::Kind::Scalar;
    A.Scalar = *ST;
  }
  return llvm::Error::success();
}

llvm::Error Analyzer::checkConstructClauses() {
  const Directive &D = K.Construct;
  for (const Clause &C : D.Clauses) {
    auto Unsupported = [&](const char *Fix) {
      return makeError(ErrorCode::Unsupported,
                       "kernel:" + llvm::Twine(D.Line) + ": clause '" + C.Name + "' of '#pragma acc " +
                           D.Text + "' is not supported in a pushed kernel: " + Fix);
    };
    switch (C.Kind) {
    case ClauseKind::Copy:
    case ClauseKind::Copyin:
    case ClauseKind::Copyout:
    case ClauseKind::Create:
    case ClauseKind::NoCreate:
    case ClauseKind::Attach:
      return Unsupported("map the data before the push (jacc_copyin, jacc_create, ...) and use "
                         "'present'; jacc-translate does this for OpenACC programs");
    case ClauseKind::If:
    case ClauseKind::Self:
      return Unsupported("test the condition on the host before the push");
    case ClauseKind::Async:
      K.Async = true;
      break;
    case ClauseKind::Wait:
      K.Wait = true;
      break;
    case ClauseKind::Deviceptr:
    case ClauseKind::Present:
      for (const std::string &V : C.Vars) {
        std::string Name = llvm::StringRef(V).take_until([](char Ch) {
          return Ch == '[' || Ch == ' ';
        }).str();
        auto It = ArgByName.find(Name);
        if (It == ArgByName.end())
          return makeError(ErrorCode::InvalidArgument,
                           "kernel:" + llvm::Twine(D.Line) + ": '" + Name + "' in clause '" +
                               C.Name + "' is not an argument of the kernel");
        if (C.Kind == ClauseKind::Deviceptr) {
          if (K.Args[It->second].ArgKind != ArgInfo::Kind::Pointer)
            return makeError(ErrorCode::InvalidArgument,
                             "kernel:" + llvm::Twine(D.Line) + ": '" + Name +
                                 "' in clause 'deviceptr' is not a pointer");
          K.Args[It->second].Deviceptr = true;
        }
      }
      break;
    default:
      break; // num_gangs, num_workers, vector_length, private, firstprivate, reduction, default
    }
  }
  return llvm::Error::success();
}

namespace {
struct ReturnScan : public DynamicASTVisitor {
  Stmt *Found = nullptr;
  bool VisitReturnStmt(ReturnStmt *R) override {
    if (!Found)
      Found = R;
    return true;
  }
  bool VisitGotoStmt(GotoStmt *G) override {
    if (!Found)
      Found = G;
    return true;
  }
};
} // namespace

llvm::Error Analyzer::addReductions(const Directive &D, bool ArgsOnly) {
  for (const Clause &C : D.Clauses) {
    if (C.Kind != ClauseKind::Reduction)
      continue;
    for (const std::string &Text : C.Vars) {
      auto Item = parseReductionItem(Text);
      if (!Item)
        return makeError(ErrorCode::InvalidArgument, "kernel:" + llvm::Twine(D.Line) + ": " +
                                                         llvm::toString(Item.takeError()));
      const std::string &Name = Item->Name;
      auto It = ArgByName.find(Name);
      bool Array = Item->Subscripted ||
                   (It != ArgByName.end() && K.Args[It->second].ArgKind == ArgInfo::Kind::Pointer);
      // A loop that runs inside one thread may reduce into a variable of the region, or into
      // an array (per-iteration data of the loop around, or elements the thread's iterations
      // own): its iterations run in order there, nothing to combine. Only a kernel argument's
      // scalar result goes back to the host.
      if (ArgsOnly && (It == ArgByName.end() || Array))
        continue;
      auto Fail = [&](ErrorCode Code, const llvm::Twine &Why) {
        return makeError(Code, "kernel:" + llvm::Twine(D.Line) + ": reduction(" +
                                   reductionOpName(C.Op) + ":" + Text + ")" + Why);
      };
      bool Aggregate =
          It != ArgByName.end() && K.Args[It->second].ArgKind == ArgInfo::Kind::Aggregate;
      if (It == ArgByName.end() || Aggregate)
        return makeError(ErrorCode::Unsupported,
                         "kernel:" + llvm::Twine(D.Line) + ": reduction variable '" + Name +
                             "' must be a scalar argument of the kernel (its result is written "
                             "back through the arg's value pointer)");
      const ArgInfo &A = K.Args[It->second];
      ReductionVar R;
      R.Name = Name;
      R.Op = C.Op;
      R.Arg = It->second;
      if (Array) {
        auto Elem = PointeeScalar.find(It->second);
        if (A.ArgKind != ArgInfo::Kind::Pointer || Elem == PointeeScalar.end())
          return Fail(ErrorCode::Unsupported,
                      ": an array reduction needs a pointer argument to a C scalar type ('" +
                          A.Decl + "' is not one)");
        if (!Item->Subscripted)
          return Fail(ErrorCode::InvalidArgument,
                      ": '" + Name + "' is a pointer: name the elements it reduces, a section " +
                          Name + "[lower:length] or an element " + Name + "[i]");
        unsigned long long Count = 1;
        if (!Item->Length.empty() && llvm::StringRef(Item->Length).getAsInteger(0, Count))
          return Fail(ErrorCode::Unsupported,
                      ": the length of a reduced section must be an integer literal (each "
                      "thread keeps a private array of that size), not '" +
                          Item->Length + "'");
        if (Count == 0 || Count > MaxReductionElements)
          return Fail(ErrorCode::Unsupported,
                      ": a reduced section has 1 to " + llvm::Twine(MaxReductionElements) +
                          " elements (each thread keeps a private copy), not " +
                          llvm::Twine(Count));
        R.Type = Elem->second;
        R.Count = static_cast<unsigned>(Count);
        R.Lower = Item->Lower;
      } else {
        R.Type = A.Scalar;
      }
      if (isComplex(R.Type) && C.Op != ReductionOp::Add && C.Op != ReductionOp::Mul)
        return Fail(ErrorCode::InvalidArgument,
                    ": a complex variable ('" + A.Decl +
                        "') is reduced with + or * only (OpenACC 3.3 2.5.15); reduce its real "
                        "and imaginary parts as two variables for other operators");
      bool Bitwise = C.Op == ReductionOp::BitAnd || C.Op == ReductionOp::BitOr ||
                     C.Op == ReductionOp::BitXor;
      if (Bitwise && !isIntegral(R.Type))
        return Fail(ErrorCode::InvalidArgument, " needs an integer variable");
      bool Seen = false;
      for (const ReductionVar &Old : K.Reductions)
        if (Old.Name == Name) {
          Seen = true;
          if (Old.Op != C.Op)
            return makeError(ErrorCode::InvalidArgument,
                             "kernel:" + llvm::Twine(D.Line) + ": '" + Name +
                                 "' is reduced with two different operators");
          if (Old.Count != R.Count || Old.Lower != R.Lower)
            return Fail(ErrorCode::InvalidArgument,
                        ": '" + Name + "' is reduced as two different sets of elements");
        }
      if (Seen)
        continue;
      R.Slot = K.reductionSlots();
      K.Reductions.push_back(R);
    }
  }
  return llvm::Error::success();
}

llvm::Expected<KernelInfo> Analyzer::run() {
  K.Source = Source.str();
  K.Policy = kernelPolicy(Source);
  K.Location = kernelLocation(Source);
  K.Decls = Decls.vec();
  K.ConstructOffset = W.ConstructOffset;
  FunctionDecl *F = nullptr;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->getName() == WrapperFunction)
      F = FD;
    else if (F && !D->isImplicit())
      // An unbalanced '}' closed the wrapper early and the kernel's tail declared more.
      return makeError(ErrorCode::InvalidArgument,
                       "kernel:" + llvm::Twine(SM.getPresumedLoc(D->getLocation()).getLine()) +
                           ": text after the compute construct (an unbalanced '}' ends the "
                           "kernel early): a kernel is one compute construct and its statement");
  }
  if (!F || !F->hasBody())
    return makeError(ErrorCode::Internal, "the kernel wrapper was not parsed");
  // Before any pass that recurses over the code.
  if (const Stmt *Deep = findTooDeeplyNested(F->getBody()))
    return errorAt(ErrorCode::InvalidArgument, Deep,
                   "the code nests more than " + llvm::Twine(MaxNestingDepth) +
                       " levels of expressions and statements here (a very long expression?): "
                       "split it into several statements through temporary variables");
  if (auto E = describeArgs(F))
    return E;
  collectFlatVla(Ctx, F, ArgByDecl,
                    [this](SourceLocation L) { return kernelOffset(SM.getExpansionLoc(L)); }, K);
  K.BoundsSites = collectBoundsSites(Ctx, F, ArgByDecl, [this](SourceLocation L) {
    return kernelOffset(SM.getExpansionLoc(L));
  });

  // Directives: the construct is the first pragma at or after the construct offset.
  std::vector<std::pair<const AccPragma *, Directive>> Dirs;
  for (const AccPragma &P : Pragmas) {
    auto D = parseDirective(P.Text, SM.getPresumedLoc(P.Loc).getLine());
    if (!D)
      return D.takeError();
    if (SM.getFileOffset(P.Loc) < W.ConstructBegin) {
      if (D->Kind != DirectiveKind::Routine)
        return makeError(ErrorCode::Unsupported,
                         "kernel:" + llvm::Twine(D->Line) + ": '#pragma acc " + D->Text +
                             "' before the compute construct: only 'routine' may appear there");
      continue;
    }
    Dirs.emplace_back(&P, std::move(*D));
  }
  if (Dirs.empty() || !Dirs.front().second.isCompute())
    return makeError(ErrorCode::Internal, "the compute construct's pragma was not seen");
  for (const auto &[Name, Where] : Unreferenced) {
    bool InClause = false;
    for (const auto &[P, D] : Dirs)
      for (const Clause &C : D.Clauses)
        InClause |= (C.Kind == ClauseKind::NumGangs || C.Kind == ClauseKind::NumWorkers ||
                     C.Kind == ClauseKind::VectorLength) &&
                    mentionsIdentifier(C.Argument, Name);
    if (!InClause)
      return makeError(ErrorCode::InvalidArgument,
                       Where + " is not used by the kernel: remove it from the args");
  }
  K.Construct = Dirs.front().second;
  K.ConstructLine = Dirs.front().second.Line;

  auto *Body = cast<CompoundStmt>(F->getBody());
  if (Body->size() == 0)
    return makeError(ErrorCode::InvalidArgument,
                     "kernel:" + llvm::Twine(K.ConstructLine) +
                         ": the compute construct must be followed by a statement");
  if (Body->size() > 1)
    return errorAt(ErrorCode::InvalidArgument, Body->body_begin()[1],
                   "the compute construct must be followed by exactly one statement; put the "
                   "statements in a { } block");
  Stmt *Region = Body->body_front();
  K.BodyBegin = beginOf(Region);
  K.BodyEnd = endOf(Region);
  K.BodyIsCompound = isa<CompoundStmt>(Region);
  ReturnScan RS;
  RS.TraverseStmt(Region);
  if (RS.Found)
    return errorAt(ErrorCode::InvalidArgument, RS.Found,
                   "a compute construct cannot be left with return or goto");
  if (auto E = checkConstructClauses())
    return E;
  if (auto E = addReductions(K.Construct))
    return E;

  // Attach the other directives to the statements that follow them.
  StmtIndex Index(SM);
  Index.TraverseStmt(Region);
  for (size_t I = 1; I < Dirs.size(); ++I) {
    const Directive &D = Dirs[I].second;
    Stmt *S = Index.after(SM.getFileOffset(Dirs[I].first->Last));
    switch (D.Kind) {
    case DirectiveKind::Loop:
      if (!S || !isa<ForStmt>(S))
        return makeError(ErrorCode::InvalidArgument,
                         "kernel:" + llvm::Twine(D.Line) +
                             ": '#pragma acc loop' must be followed by a for loop");
      // Reductions of loops that are not shared among the team (serial regions, seq loops,
      // loops inside a shared nest) still return their result when it is an argument.
      if (auto E = addReductions(D, /*ArgsOnly=*/true))
        return E;
      LoopDirs.emplace(S, D);
      break;
    case DirectiveKind::Cache:
      break; // a placement hint; host memory needs none
    case DirectiveKind::Atomic: {
      if (!S)
        return makeError(ErrorCode::Unsupported,
                         "kernel:" + llvm::Twine(D.Line) + ": '#pragma acc " + D.Text +
                             "' must be followed by an expression statement");
      // A macro argument's own text (MAX(x, e) spells x and e in its arguments), else the
      // invocation's.
      auto Atomic = describeAtomic(
          S, D, Source, [this](SourceRange R) { return exactSpan(R).value_or(span(R)); });
      if (!Atomic)
        return Atomic.takeError();
      AtomicStmts.emplace(S, Atomic->Kind);
      K.Atomics.push_back(std::move(*Atomic));
      break;
    }
    default:
      return makeError(ErrorCode::InvalidArgument,
                       "kernel:" + llvm::Twine(D.Line) + ": '#pragma acc " + D.Text +
                           "' is not allowed inside a compute construct");
    }
  }

  bool IsSerial = K.Construct.Kind == DirectiveKind::Serial ||
                  K.Construct.Kind == DirectiveKind::SerialLoop;
  if (IsSerial) {
    K.Serial = true;
    K.Stmts.push_back({RegionStmt::Mode::Master, K.BodyBegin, K.BodyEnd, -1});
    return std::move(K);
  }

  auto SharedLoop = [&](Stmt *S) -> const Directive * {
    auto It = LoopDirs.find(S);
    if (It == LoopDirs.end())
      return nullptr;
    const Directive &D = It->second;
    // seq runs sequentially; auto is left to the compiler, which here means sequentially.
    if (D.has(ClauseKind::Seq) || D.has(ClauseKind::Auto))
      return nullptr;
    return &D;
  };

  if (K.Construct.isCombinedLoop()) {
    auto *FS = dyn_cast<ForStmt>(Region);
    if (!FS)
      return errorAt(ErrorCode::InvalidArgument, Region,
                     "'#pragma acc " + K.Construct.Text + "' must be followed by a for loop");
    if (K.Construct.has(ClauseKind::Seq) || K.Construct.has(ClauseKind::Auto)) {
      K.Stmts.push_back({RegionStmt::Mode::Master, K.BodyBegin, K.BodyEnd, -1});
      K.Serial = true;
      K.SerialReason = "the loop is marked seq or auto";
      return std::move(K);
    }
    auto N = buildNest(FS, K.Construct);
    if (!N)
      return N.takeError();
    K.Nests.push_back(std::move(*N));
    K.Stmts.push_back({RegionStmt::Mode::Shared, K.BodyBegin, K.BodyEnd, 0});
    lowerNests();
    return std::move(K);
  }

  std::vector<Stmt *> Top;
  if (auto *CS = dyn_cast<CompoundStmt>(Region))
    Top.assign(CS->body_begin(), CS->body_end());
  else
    Top.push_back(Region);
  for (Stmt *S : Top) {
    RegionStmt RStmt;
    RStmt.Begin = beginOf(S);
    RStmt.End = endOf(S);
    if (const Directive *D = SharedLoop(S)) {
      auto N = buildNest(cast<ForStmt>(S), *D);
      if (!N)
        return N.takeError();
      if (auto E = addReductions(*D))
        return E;
      RStmt.ExecMode = RegionStmt::Mode::Shared;
      RStmt.Nest = K.Nests.size();
      K.Nests.push_back(std::move(*N));
    } else {
      StmtEffects Effects = effectsOf(S);
      // A declaration cannot be fenced to thread 0 (its name is needed after it).
      if (Effects.WritesMemory && (Effects.WritesOuterScalar || isa<DeclStmt>(S))) {
        K.Serial = true;
        K.SerialReason = "the statement at kernel:" + std::to_string(lineOf(S)) +
                         " outside the parallel loops writes both memory and region variables";
      }
      RStmt.ExecMode = Effects.WritesMemory ? RegionStmt::Mode::Master
                                            : RegionStmt::Mode::Redundant;
    }
    K.Stmts.push_back(RStmt);
  }
  if (K.Serial) {
    K.Nests.clear();
    K.Stmts.assign(1, {RegionStmt::Mode::Master, K.BodyBegin, K.BodyEnd, -1});
  }
  lowerNests();
  return std::move(K);
}

void Analyzer::lowerNests() {
  SplitInfo &S = K.Split;
  if (K.Serial) {
    S.Fallback = K.SerialReason.empty() ? "a serial region" : K.SerialReason;
    return;
  }
  // Every nest's body, for its access traits; the only nest's, for the split.
  LowerContext C;
  C.Ctx = &Ctx;
  C.Source = Source;
  // deviceptr arguments too: acc_malloc memory has a copy on every device, so such a kernel
  // splits like one over mapped data when the runtime binds it that way.
  for (const ArgInfo &A : K.Args)
    if (A.ArgKind == ArgInfo::Kind::Pointer)
      C.PointerArgs[A.Name] = A.Position;
  for (const ReductionVar &R : K.Reductions)
    C.ReductionVars.insert(R.Name);
  C.AtomicStmts = AtomicStmts;
  C.Offsets = [this](SourceRange R) {
    SourceSpan S = span(R);
    return std::make_pair(S.Begin, S.End);
  };
  C.ExactOffsets = [this](SourceRange R) -> std::optional<std::pair<unsigned, unsigned>> {
    if (std::optional<SourceSpan> S = exactSpan(R))
      return std::make_pair(S->Begin, S->End);
    return std::nullopt;
  };
  for (size_t I = 0; I < K.Nests.size() && I < NestInner.size(); ++I) {
    C.ParallelVars.clear();
    for (const CanonicalLoop &L : K.Nests[I].Loops)
      C.ParallelVars.push_back(L.Var);
    C.CollapsedLoops = NestCollapsed[I];
    K.Nests[I].Body = lowerRegion(NestInner[I]->getBody(), C);
    C.CollapsedLoops.clear();
    findInnerParallel(K.Nests[I], NestInner[I], C);
    K.Nests[I].Interchanges = findInterchanges(
        NestInner[I]->getBody(), K.Nests[I].Loops.back().BodyEnd, C, *this,
        [&](ForStmt *F, const std::string &Var) { return independentLoop(F, Var, C); });
  }
  if (K.Nests.size() != 1 || NestInner.size() != 1) {
    S.Fallback = "the region has " + std::to_string(K.Nests.size()) + " parallel loop nests";
    return;
  }
  for (const RegionStmt &R : K.Stmts)
    if (R.ExecMode == RegionStmt::Mode::Master) {
      S.Fallback = "the region writes memory outside its parallel loop";
      return;
    }
  S.IR = K.Nests[0].Body;
  S.Enabled = true; // the passes after the frontend may still decide otherwise
}

bool Analyzer::independentLoop(ForStmt *F, const std::string &Var, LowerContext C) {
  if (auto It = LoopDirs.find(F); It != LoopDirs.end())
    return assertsIndependence(It->second, /*AllowPrivate=*/true);
  C.ParallelVars.push_back(Var);
  return innerIterationsIndependent(F, Var, C, C.ReductionVars) == InnerIndependence::Yes;
}

void Analyzer::findInnerParallel(ParallelNest &N, ForStmt *Inner, LowerContext C) {
  N.InnerNeedsDisjointFrom = 0;
  if (N.Dir.has(ClauseKind::Tile))
    return; // tiles keep their own order of iterations
  std::set<std::string> Reductions;
  for (const Directive *D : {&K.Construct, &N.Dir})
    for (const Clause &Cl : D->Clauses)
      if (Cl.Kind == ClauseKind::Reduction)
        Reductions.insert(Cl.Vars.begin(), Cl.Vars.end());
  std::vector<CanonicalLoop> Enclosing = N.Loops;
  std::optional<unsigned> NeedsDisjointFrom;
  for (ForStmt *F = perfectlyNested(Inner); F; F = perfectlyNested(F)) {
    // A loop directive asserts independence unless it says otherwise (seq, auto) or gives the
    // loop clauses of its own (reduction, private, collapse...), which sharing would ignore.
    bool Asserted = false;
    if (auto It = LoopDirs.find(F); It != LoopDirs.end()) {
      if (!assertsIndependence(It->second, /*AllowPrivate=*/false))
        break;
      Asserted = true;
    }
    const VarDecl *Var = nullptr;
    auto L = canonicalLoop(F, Var, *this);
    if (!L) {
      llvm::consumeError(L.takeError());
      break;
    }
    // The loop's variable must not outlive it (declared by the loop, or the program's with
    // everything the body assigns kept to the loop), and its header becomes part of the nest's.
    if (!plainRectangularHeader(F, Enclosing) ||
        (!isa_and_nonnull<DeclStmt>(F->getInit()) &&
         !scalarsStayInLoop(F, *L, C, {K.ConstructOffset, K.BodyEnd})))
      break;
    if (auto E = checkNoBreak(F->getBody(), *this)) {
      llvm::consumeError(std::move(E));
      break;
    }
    C.ParallelVars.push_back(L->Var);
    InnerIndependence Independent =
        Asserted ? InnerIndependence::Yes : innerIterationsIndependent(F, L->Var, C, Reductions);
    if (Independent == InnerIndependence::No)
      break;
    if (Independent == InnerIndependence::IfPointersDisjoint && !NeedsDisjointFrom)
      NeedsDisjointFrom = N.InnerParallel.size();
    Enclosing.push_back(*L);
    N.InnerParallel.push_back(std::move(*L));
  }
  N.InnerNeedsDisjointFrom = NeedsDisjointFrom.value_or(N.InnerParallel.size());
}

} // namespace

const char *scalarTypeName(ScalarType T) {
  switch (T) {
  case ScalarType::Bool: return "_Bool";
  case ScalarType::I8: return "signed char";
  case ScalarType::U8: return "unsigned char";
  case ScalarType::I16: return "short";
  case ScalarType::U16: return "unsigned short";
  case ScalarType::I32: return "int";
  case ScalarType::U32: return "unsigned int";
  case ScalarType::I64: return "long long";
  case ScalarType::U64: return "unsigned long long";
  case ScalarType::F32: return "float";
  case ScalarType::F64: return "double";
  case ScalarType::F80: return "long double";
  case ScalarType::C32: return "float _Complex";
  case ScalarType::C64: return "double _Complex";
  case ScalarType::C80: return "long double _Complex";
  }
  return "?";
}

bool isIntegral(ScalarType T) {
  return T != ScalarType::F32 && T != ScalarType::F64 && T != ScalarType::F80 && !isComplex(T);
}

bool isComplex(ScalarType T) {
  return T == ScalarType::C32 || T == ScalarType::C64 || T == ScalarType::C80;
}

unsigned reductionWords(ScalarType T) {
  switch (T) {
  case ScalarType::F80:
  case ScalarType::C64: return 2;
  case ScalarType::C80: return 4;
  default: return 1;
  }
}

llvm::Expected<KernelInfo> analyzeKernel(llvm::StringRef Source,
                                         llvm::ArrayRef<std::string> Decls) {
  if (std::optional<unsigned> At = findLongPrefixRun(Source)) {
    llvm::StringRef Before = Source.take_front(*At);
    size_t LineStart = Before.rfind('\n') + 1; // 0 on the first line
    return makeError(ErrorCode::InvalidArgument,
                     "kernel:" + llvm::Twine(Before.count('\n') + 1) + ":" +
                         llvm::Twine(*At - LineStart + 1) + ": more than " +
                         llvm::Twine(MaxNestingDepth) +
                         " unary operators, parentheses and casts in a row: split the "
                         "expression into several statements through temporary variables");
  }
  auto W = wrapKernel(Source, Decls);
  if (!W)
    return W.takeError();
  ClangUse Use;
  if (!Use)
    return ClangUse::refused("the kernel's analysis");
  std::string DiagText;
  llvm::raw_string_ostream DiagOS(DiagText);
  auto CI =
      makeCompilerInstance(ClangPurpose::Analysis, W->Code, "jacc-kernel.c", DiagOS, Source);
  if (!CI)
    return CI.takeError();
  std::optional<llvm::Expected<KernelInfo>> Result;
  AccParseAction Action(
      [&](ASTContext &Ctx, Preprocessor &, const std::vector<AccPragma> &Pragmas) {
        Result.emplace(Analyzer(Ctx, *W, Source, Decls, Pragmas).run());
      });
  bool Ok = (*CI)->ExecuteAction(Action);
  if (!Ok || (*CI)->getDiagnostics().hasErrorOccurred() || !Result) {
    if (Result && !*Result)
      llvm::consumeError(Result->takeError());
    std::string Msg = llvm::StringRef(DiagOS.str()).rtrim().str();
    if (llvm::StringRef(Msg).contains("undeclared identifier"))
      Msg += "\n(every variable the kernel uses and does not declare must be passed in args)";
    return makeError(ErrorCode::Compile, Msg.empty() ? "the kernel failed to parse" : Msg);
  }
  if (*Result)
    (*Result)->Name = nameKernel(**Result);
  return std::move(*Result);
}

} // namespace jacc::analysis
