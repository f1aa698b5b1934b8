// A kernel's names in messages and symbols, its summary as JSON for the disk cache, and the part
// of the analysis that launches need, read back from that summary.
#include "jit/cache/KernelSummary.h"

#include "analysis/KernelSource.h"
#include "jit/CodeTarget.h"
#include "jit/cache/StoreFormat.h"
#include "support/Error.h"

#include <llvm/Config/llvm-config.h>

namespace jacc::jit {

using namespace analysis;
using diskcache::textOf;
using diskcache::textValue;
namespace json = llvm::json;

namespace {

json::Array predicateLines(const KernelInfo &K) {
  json::Array Out;
  const SplitInfo &S = K.Split;
  for (const IRStmt &St : S.IR.Stmts) {
    if (St.Id >= S.Preds.size() || S.Preds[St.Id].Always)
      continue;
    if (St.K != IRStmt::Kind::ArrayWrite && St.K != IRStmt::Kind::ScalarDef)
      continue;
    unsigned B = St.WholeEnd > St.WholeBegin ? St.WholeBegin : St.Begin;
    unsigned E = St.WholeEnd > St.WholeBegin ? St.WholeEnd : St.End;
    if (E > K.Source.size() || B >= E)
      continue;
    Out.push_back(textValue("kernel:" + std::to_string(lineOf(K.Source, B)) + ": " +
                            llvm::StringRef(K.Source).slice(B, E).str() + "  when " +
                            predicateText(S.IR, S.Preds[St.Id])));
  }
  return Out;
}

json::Object argToJson(const ArgInfo &A) {
  json::Array Dims;
  for (const std::string &D : A.Dims)
    Dims.push_back(textValue(D));
  json::Array PointerOffsets;
  for (uint64_t Off : A.PointerOffsets)
    PointerOffsets.push_back(static_cast<int64_t>(Off));
  return json::Object{{"name", textValue(A.Name)},
                      {"decl", textValue(A.Decl)},
                      {"position", A.Position},
                      {"param", A.Param},
                      {"kind", static_cast<int>(A.ArgKind)},
                      {"scalar", static_cast<int>(A.Scalar)},
                      {"size", static_cast<int64_t>(A.Size)},
                      {"align", static_cast<int64_t>(A.Align)},
                      {"pointee_size", static_cast<int64_t>(A.PointeeSize)},
                      {"pointee_known", A.PointeeKnown},
                      {"deviceptr", A.Deviceptr},
                      {"pointer_offsets", std::move(PointerOffsets)},
                      {"value_read", A.ValueRead},
                      {"vla", A.Vla},
                      {"dims", std::move(Dims)},
                      {"elem_type", textValue(A.ElemType)}};
}

json::Object boundToJson(const ExtentBound &B) {
  return json::Object{{"lo", B.LoCoef},
                      {"hi", B.HiCoef},
                      {"const", B.Const},
                      {"offset", textValue(B.Offset)},
                      {"scale", textValue(B.Scale)}};
}

json::Array rangesToJson(const std::vector<ExtentRange> &List) {
  json::Array Ranges;
  for (const ExtentRange &E : List)
    Ranges.push_back(json::Object{{"begin", boundToJson(E.Begin)}, {"end", boundToJson(E.End)}});
  return Ranges;
}

json::Array windowsToJson(const std::vector<ExtentWindow> &List) {
  json::Array Windows;
  for (const ExtentWindow &W : List)
    Windows.push_back(json::Object{{"dim", W.Dim}, {"ranges", rangesToJson(W.Ranges)}});
  return Windows;
}

json::Object readToJson(const ReadExtent &R) {
  return json::Object{{"arg", R.Arg},
                      {"name", textValue(R.Name)},
                      {"dim", R.Dim},
                      {"rank", R.Rank},
                      {"written", R.Written},
                      {"whole", R.Whole},
                      {"why", textValue(R.WholeWhy)},
                      {"ranges", rangesToJson(R.Ranges)},
                      {"windows", windowsToJson(R.Windows)}};
}

json::Object runtimeToJson(const KernelInfo &K) {
  json::Array Args, Reds, Arrays, ReadArgs, ReadAfterWrite;
  for (const ArgInfo &A : K.Args)
    Args.push_back(argToJson(A));
  for (const ReductionVar &R : K.Reductions)
    Reds.push_back(json::Object{{"name", textValue(R.Name)},
                                {"op", static_cast<int>(R.Op)},
                                {"type", static_cast<int>(R.Type)},
                                {"arg", R.Arg},
                                {"slot", R.Slot},
                                {"count", R.Count},
                                {"lower", textValue(R.Lower)}});
  for (const SplitArray &A : K.Split.Plan.Arrays) {
    json::Array Writes;
    for (const AffineWrite &W : A.Writes)
      Writes.push_back(json::Object{{"coef", W.Coef},
                                    {"offset", textValue(W.Offset)},
                                    {"scale", textValue(W.Scale)},
                                    {"least", textValue(W.Least)},
                                    {"greatest", textValue(W.Greatest)}});
    Arrays.push_back(json::Object{{"arg", A.Arg},
                                  {"name", textValue(A.Name)},
                                  {"dim", A.Dim},
                                  {"rank", A.Rank},
                                  {"affine", A.Affine},
                                  {"writes", std::move(Writes)},
                                  {"windows", windowsToJson(A.Windows)}});
  }
  for (unsigned R : K.Split.Plan.ReadArgs)
    ReadArgs.push_back(R);
  for (unsigned R : K.Split.Plan.ReadAfterWrite)
    ReadAfterWrite.push_back(R);
  json::Array OwnElement;
  for (const auto &[O, Ws] : K.Split.Plan.ReadsOwnElement)
    for (unsigned W : Ws)
      OwnElement.push_back(json::Array{O, W});
  json::Array Reads;
  for (const ReadExtent &R : K.Split.Reads)
    Reads.push_back(readToJson(R));
  json::Array TwinAxes;
  for (const SplitAxis &A : K.Split.TwinAxes)
    TwinAxes.push_back(json::Array{A.Arg, A.Dim, A.Rank});
  return json::Object{{"args", std::move(Args)},
                      {"reductions", std::move(Reds)},
                      {"async", K.Async},
                      {"wait", K.Wait},
                      {"serial", K.Serial},
                      {"may_restrict", K.MayRestrict},
                      {"may_align", K.MayAlign},
                      {"split_enabled", K.Split.Enabled},
                      {"split_fallback", textValue(K.Split.Fallback)},
                      {"splittable", K.Split.Plan.Splittable},
                      {"arrays", std::move(Arrays)},
                      {"read_args", std::move(ReadArgs)},
                      {"read_after_write", std::move(ReadAfterWrite)},
                      {"reads_own_element", std::move(OwnElement)},
                      {"reads", std::move(Reads)},
                      {"probe_exact", K.Split.ProbeExact},
                      {"narrowable", K.Split.Plan.Narrowable},
                      {"has_share_terms", K.Split.Plan.HasShareTerms},
                      {"split_twin", textValue(K.Split.Twin)},
                      {"twin_axes", std::move(TwinAxes)}};
}

/// Reads fields out of a JSON object, remembering the first one missing or mistyped.
using diskcache::FieldReader;

/// An extent bound written by boundToJson (Bad names the first field missing).
ExtentBound boundFromJson(const json::Object *O, std::string &Bad) {
  ExtentBound B;
  if (!O) {
    Bad = "reads";
    return B;
  }
  FieldReader R{*O, Bad};
  B.LoCoef = R.num("lo");
  B.HiCoef = R.num("hi");
  B.Const = R.num("const");
  B.Offset = R.str("offset");
  B.Scale = R.str("scale");
  return B;
}

/// Ranges written by rangesToJson, from field "ranges" of From.
void rangesFromJson(FieldReader &From, std::vector<ExtentRange> &List, std::string &Bad) {
  for (const json::Value &V : From.arr("ranges")) {
    const json::Object *RO = V.getAsObject();
    if (!RO)
      Bad = "reads";
    else
      List.push_back(
          {boundFromJson(RO->getObject("begin"), Bad), boundFromJson(RO->getObject("end"), Bad)});
  }
}

/// Windows written by windowsToJson, from field "windows" of From, of accesses of Rank
/// subscripts split along Dim: one along Dim, past the subscripts or without a range is not one.
std::vector<ExtentWindow> windowsFromJson(FieldReader &From, unsigned Dim, unsigned Rank,
                                          std::string &Bad) {
  std::vector<ExtentWindow> Windows;
  for (const json::Value &V : From.arr("windows")) {
    const json::Object *WO = V.getAsObject();
    if (!WO) {
      Bad = "windows";
      continue;
    }
    FieldReader WR{*WO, Bad};
    ExtentWindow &W = Windows.emplace_back();
    W.Dim = WR.num("dim");
    rangesFromJson(WR, W.Ranges, Bad);
    if (W.Dim == Dim || W.Dim >= Rank || W.Ranges.empty())
      Bad = "windows";
  }
  return Windows;
}

/// A read extent written by readToJson.
ReadExtent readFromJson(const json::Object &O, std::string &Bad) {
  FieldReader E{O, Bad};
  ReadExtent X;
  X.Arg = E.num("arg");
  X.Name = E.str("name");
  X.Dim = E.num("dim");
  X.Rank = E.num("rank");
  X.Written = E.flag("written");
  X.Whole = E.flag("whole");
  X.WholeWhy = E.str("why");
  rangesFromJson(E, X.Ranges, Bad);
  X.Windows = windowsFromJson(E, X.Dim, X.Rank, Bad);
  return X;
}

} // namespace

json::Object kernelSummary(const KernelInfo &K, llvm::StringRef Target, double AnalysisMs,
                           double CompileMs) {
  json::Array Decls, Arrays;
  for (const std::string &D : K.Decls)
    Decls.push_back(textValue(D));
  for (const SplitArray &A : K.Split.Plan.Arrays)
    Arrays.push_back(
        json::Object{{"name", textValue(A.Name)}, {"dim", A.Dim}, {"affine", A.Affine}});
  json::Object Compilers{{"llvm", LLVM_VERSION_STRING}, {"jacc", JACC_VERSION}, {"format", 1}};
  for (const CodeTarget *T : codeTargets())
    for (auto &[Name, Version] : T->compilers())
      Compilers[Name] = Version;
  json::Object Summary{{"name", textValue(K.Name.Display)},
                       {"target", Target},
                       {"source", textValue(K.Source)},
                       {"decls", std::move(Decls)},
                       {"rewritten", textValue(K.Split.Rewritten)},
                       {"split", json::Object{{"enabled", K.Split.Enabled},
                                              {"fallback", textValue(K.Split.Fallback)},
                                              {"arrays", std::move(Arrays)},
                                              {"narrowable", K.Split.Plan.Narrowable},
                                              {"predicates", predicateLines(K)}}},
                       {"compilers", std::move(Compilers)},
                       {"analysis_ms", AnalysisMs},
                       {"compile_ms", CompileMs},
                       {"kernel", runtimeToJson(K)}};
  for (const CodeTarget *T : codeTargets())
    T->describe(K, Summary);
  return Summary;
}

llvm::Expected<KernelInfo> runtimeInfoFromSummary(const json::Object &Summary) {
  std::string Bad;
  KernelInfo K;
  FieldReader Top{Summary, Bad};
  K.Source = Top.str("source");
  K.Policy = kernelPolicy(K.Source);
  K.Location = kernelLocation(K.Source);
  for (const json::Value &D : Top.arr("decls")) {
    std::optional<std::string> Text = textOf(&D);
    if (!Text)
      Bad = "decls";
    K.Decls.push_back(Text.value_or(""));
  }
  const json::Object *RO = Summary.getObject("kernel");
  if (!RO)
    return makeError(ErrorCode::Internal, "cache summary without its kernel part");
  FieldReader R{*RO, Bad};
  for (const json::Value &V : R.arr("args")) {
    const json::Object *O = V.getAsObject();
    if (!O)
      return makeError(ErrorCode::Internal, "cache summary: malformed args");
    FieldReader A{*O, Bad};
    ArgInfo I;
    I.Name = A.str("name");
    I.Decl = A.str("decl");
    I.Position = A.num("position");
    I.Param = A.num("param");
    I.ArgKind = static_cast<ArgInfo::Kind>(A.num("kind"));
    I.Scalar = static_cast<ScalarType>(A.num("scalar"));
    I.Size = A.num("size");
    I.Align = A.num("align");
    I.PointeeSize = A.num("pointee_size");
    I.PointeeKnown = A.flag("pointee_known");
    I.Deviceptr = A.flag("deviceptr");
    for (const json::Value &Off : A.arr("pointer_offsets"))
      I.PointerOffsets.push_back(Off.getAsUINT64().value_or(0));
    I.ValueRead = O->getBoolean("value_read").value_or(true); // older entries: read
    I.Vla = A.flag("vla");
    for (const json::Value &D : A.arr("dims"))
      I.Dims.push_back(textOf(&D).value_or(""));
    I.ElemType = A.str("elem_type");
    K.Args.push_back(std::move(I));
  }
  for (const json::Value &V : R.arr("reductions")) {
    const json::Object *O = V.getAsObject();
    if (!O)
      return makeError(ErrorCode::Internal, "cache summary: malformed reductions");
    FieldReader A{*O, Bad};
    ReductionVar Red;
    Red.Name = A.str("name");
    Red.Op = static_cast<ReductionOp>(A.num("op"));
    Red.Type = static_cast<ScalarType>(A.num("type"));
    Red.Arg = A.num("arg");
    Red.Slot = A.num("slot");
    Red.Count = O->getInteger("count").value_or(0); // older entries: scalars only
    Red.Lower = textOf(O->get("lower")).value_or(""); // older entries: none
    K.Reductions.push_back(std::move(Red));
  }
  K.Async = R.flag("async");
  K.Wait = R.flag("wait");
  K.Serial = R.flag("serial");
  K.MayRestrict = RO->getBoolean("may_restrict").value_or(false); // older entries: no facts
  K.MayAlign = RO->getBoolean("may_align").value_or(false);
  K.Split.Enabled = R.flag("split_enabled");
  K.Split.Fallback = R.str("split_fallback");
  // Whether the kernel's writes are known (its split arrays): a launch on one device records
  // every mapping an unsplittable kernel uses as written there.
  K.Split.Plan.Splittable = R.flag("splittable");
  for (const json::Value &V : R.arr("arrays")) {
    const json::Object *O = V.getAsObject();
    if (!O)
      return makeError(ErrorCode::Internal, "cache summary: malformed split arrays");
    FieldReader A{*O, Bad};
    SplitArray S;
    S.Arg = A.num("arg");
    S.Name = A.str("name");
    S.Dim = A.num("dim");
    S.Rank = A.num("rank");
    S.Affine = A.flag("affine");
    for (const json::Value &W : A.arr("writes"))
      if (const json::Object *WO = W.getAsObject()) {
        FieldReader WR{*WO, Bad};
        S.Writes.push_back({WR.num("coef"), WR.str("offset"), WR.str("scale"), WR.str("least"),
                            WR.str("greatest")});
      }
    S.Windows = windowsFromJson(A, S.Dim, S.Rank, Bad);
    K.Split.Plan.Arrays.push_back(std::move(S));
  }
  for (const json::Value &V : R.arr("read_args"))
    if (auto N = V.getAsInteger())
      K.Split.Plan.ReadArgs.insert(*N);
  for (const json::Value &V : R.arr("read_after_write"))
    if (auto N = V.getAsInteger())
      K.Split.Plan.ReadAfterWrite.insert(*N);
  for (const json::Value &V : R.arr("reads_own_element"))
    if (const json::Array *Pair = V.getAsArray(); Pair && Pair->size() == 2)
      if (auto O = (*Pair)[0].getAsInteger(), W = (*Pair)[1].getAsInteger(); O && W)
        K.Split.Plan.ReadsOwnElement[*O].insert(*W);
  for (const json::Value &V : R.arr("reads")) {
    const json::Object *O = V.getAsObject();
    if (!O)
      return makeError(ErrorCode::Internal, "cache summary: malformed reads");
    K.Split.Reads.push_back(readFromJson(*O, Bad));
  }
  K.Split.ProbeExact = R.flag("probe_exact");
  K.Split.Plan.Narrowable = R.flag("narrowable");
  K.Split.Plan.HasShareTerms = R.flag("has_share_terms");
  K.Split.Twin = R.str("split_twin");
  for (const json::Value &V : R.arr("twin_axes")) {
    const json::Array *A = V.getAsArray();
    if (!A || A->size() != 3 || !(*A)[0].getAsInteger() || !(*A)[1].getAsInteger() ||
        !(*A)[2].getAsInteger())
      return makeError(ErrorCode::Internal, "cache summary: malformed twin axes");
    K.Split.TwinAxes.push_back({unsigned(*(*A)[0].getAsInteger()),
                                unsigned(*(*A)[1].getAsInteger()),
                                unsigned(*(*A)[2].getAsInteger())});
  }
  // Everything must be consistent, or a launch would index out of range.
  for (const ArgInfo &A : K.Args)
    if (A.Param >= K.Args.size() || A.Position >= K.Args.size())
      Bad = "args";
  for (const SplitAxis &A : K.Split.TwinAxes)
    if (A.Arg >= K.Args.size())
      Bad = "twin_axes";
  for (const ReductionVar &Red : K.Reductions)
    if (Red.Arg >= K.Args.size())
      Bad = "reductions";
  for (const SplitArray &S : K.Split.Plan.Arrays)
    if (S.Arg >= K.Args.size())
      Bad = "arrays";
  for (const ReadExtent &X : K.Split.Reads)
    if (X.Arg >= K.Args.size())
      Bad = "reads";
  if (!Bad.empty())
    return makeError(ErrorCode::Internal, "cache summary: field '" + Bad + "' missing or bad");
  // The analysis's display name (it knew the nests), else what the construct gives.
  K.Name = nameKernel(K);
  if (std::optional<std::string> Display = textOf(Summary.get("name")))
    K.Name.Display = std::move(*Display);
  return K;
}

} // namespace jacc::jit
