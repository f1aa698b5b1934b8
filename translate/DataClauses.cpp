// Data clauses as the jacc calls around a construct, their array sections read as bytes.
#include "translate/Translator.h"

#include "support/CText.h"

#include <clang/Lex/Lexer.h>

using namespace clang;

namespace jacc::translate {

using namespace analysis;

std::optional<Translator::Section> Translator::wholeArray(const VarDecl *V) {
  std::string Name = V->getName().str();
  QualType Ty = V->getType().getCanonicalType();
  Section S;
  if (Ty->isConstantArrayType() || Ty->isVariableArrayType()) {
    S.Bytes = "sizeof " + Name;
  } else if (auto *Parm = dyn_cast<ParmVarDecl>(V)) {
    // An array parameter is a pointer (`sizeof A` is a pointer's size); its declaration as
    // written still gives the first bound.
    QualType Written = Parm->getOriginalType();
    if (auto *CA = Ctx.getAsConstantArrayType(Written))
      S.Bytes = std::to_string(CA->getSize().getZExtValue()) + " * sizeof " + Name + "[0]";
    else if (auto *VA = Ctx.getAsVariableArrayType(Written); VA && VA->getSizeExpr())
      S.Bytes = "(" +
                Lexer::getSourceText(CharSourceRange::getTokenRange(
                                         VA->getSizeExpr()->getSourceRange()),
                                     SM, Ctx.getLangOpts())
                    .str() +
                ") * sizeof " + Name + "[0]";
    else
      return std::nullopt;
    Ty = Written.getCanonicalType();
  } else {
    return std::nullopt;
  }
  S.Const = Ctx.getAsArrayType(Ty)->getElementType().isConstQualified();
  S.Addr = S.Const ? "(void *)" + Name : Name;
  return S;
}

std::optional<Translator::Section> Translator::section(const std::string &Item, const Pragma &P,
                                                       const Clause &C) {
  llvm::StringRef T(Item);
  size_t Br = T.find('[');
  std::string Base = T.take_front(Br).trim().str();
  std::vector<std::pair<std::string, std::string>> Dims; // (lower, length)
  llvm::StringRef Rest = Br == llvm::StringRef::npos ? "" : T.drop_front(Br);
  while (!Rest.empty()) {
    if (Rest.front() != '[') {
      error(P, C, "cannot read the array section '" + Item + "' in clause '" + C.Name + "'");
      return std::nullopt;
    }
    int Depth = 0;
    size_t Colon = llvm::StringRef::npos, I = 0;
    for (; I < Rest.size(); ++I) {
      char Ch = Rest[I];
      if (Ch == '[' || Ch == '(')
        ++Depth;
      else if (Ch == ']' || Ch == ')') {
        if (--Depth == 0)
          break;
      } else if (Ch == ':' && Depth == 1 && Colon == llvm::StringRef::npos)
        Colon = I;
    }
    if (I == Rest.size() || Colon == llvm::StringRef::npos) {
      error(P, C, "'" + Item + "' in clause '" + C.Name +
                      "' is not an array section: write it as name[lower:length]");
      return std::nullopt;
    }
    Dims.push_back({Rest.slice(1, Colon).trim().str(), Rest.slice(Colon + 1, I).trim().str()});
    Rest = Rest.drop_front(I + 1).ltrim();
  }
  VarDecl *V = Idx.lookupVar(Base, P.Hash);
  QualType Ty = V ? V->getType().getCanonicalType() : QualType();
  Section S;
  if (Dims.empty()) {
    if (!V) {
      error(P, C, "'" + Base + "' in clause '" + C.Name + "' is not a variable in scope");
      return std::nullopt;
    }
    if (auto Whole = wholeArray(V))
      return Whole;
    if (Ty->isPointerType() || Ty->isArrayType()) {
      error(P, C, "'" + Base + "' in clause '" + C.Name +
                      "' is a pointer: give the array section it points to, e.g. " + Base +
                      "[0:n]");
      return std::nullopt;
    }
    S.Scalar = true;
    return S;
  }
  if (V && !Ty->isPointerType() && !Ty->isArrayType()) {
    error(P, C, "'" + Base + "' in clause '" + C.Name + "' is not an array or a pointer");
    return std::nullopt;
  }
  for (size_t I = 1; I < Dims.size(); ++I)
    if (!Dims[I].first.empty() && Dims[I].first != "0") {
      error(P, C, "'" + Item + "' in clause '" + C.Name +
                      "' is not contiguous: only the first dimension of a section may start "
                      "after 0");
      return std::nullopt;
    }
  std::string Lo = Dims[0].first.empty() ? "0" : Dims[0].first;
  std::string Len = Dims[0].second;
  if (Len.empty()) {
    if (!V || !(Ty->isConstantArrayType() || Ty->isVariableArrayType())) {
      error(P, C, "'" + Item + "' in clause '" + C.Name +
                      "' needs a length: the size of '" + Base + "' is not known");
      return std::nullopt;
    }
    Len = "sizeof " + Base + " / sizeof " + Base + "[0] - (" + Lo + ")";
  }
  S.Addr = "&" + Base + "[" + Lo + "]";
  bool Simple = llvm::all_of(Len, isIdentChar);
  S.Bytes = (Simple ? Len : "(" + Len + ")") + " * sizeof " + Base + "[0]";
  if (V) {
    QualType E = Ty->isPointerType() ? Ty->getPointeeType()
                                     : Ctx.getAsArrayType(Ty)->getElementType();
    S.Const = E.isConstQualified();
  }
  // jacc's data calls take void *: const data needs the cast (a member's type is not looked up).
  if (S.Const || !V)
    S.Addr = "(void *)" + S.Addr;
  return S;
}

/// Entry and exit calls of the data clauses of a compute or data construct, in clause order
/// (exits reversed). False after an error.
bool Translator::dataCalls(const Region &R, std::vector<std::string> &Decls,
                           std::vector<std::string> &Entry, std::vector<std::string> &Exit) {
  bool Ok = true;
  std::vector<std::string> Exits;
  for (const Clause &C : R.D.Clauses) {
    const char *In = nullptr, *Out = nullptr;
    switch (C.Kind) {
    case ClauseKind::Copy: In = "jacc_copyin"; Out = "jacc_copyout"; break;
    case ClauseKind::Copyin: In = "jacc_copyin"; Out = "jacc_delete"; break;
    case ClauseKind::Copyout: In = "jacc_create"; Out = "jacc_copyout"; break;
    case ClauseKind::Create: In = "jacc_create"; Out = "jacc_delete"; break;
    case ClauseKind::Present: In = "present"; break;
    case ClauseKind::NoCreate: In = "no_create"; break;
    default: continue;
    }
    for (const std::string &Item : C.Vars) {
      auto S = section(Item, *R.P, C);
      if (!S) {
        Ok = false;
        continue;
      }
      if (S->Scalar) {
        // A scalar lives on the devices as one element (translate/DeviceScalars.cpp), except in
        // copyin on a compute construct: passing it by value is the same there.
        if (C.Kind == ClauseKind::Copyin && R.D.isCompute())
          continue;
        S->Addr = "&" + Item;
        S->Bytes = "sizeof " + Item;
      }
      if (llvm::StringRef(In) == "present") {
        Entry.push_back("jacc_translated_present(" + S->Addr + ", " + S->Bytes + ", " +
                        where(*R.P) + ", \"" + Item + "\");");
        continue;
      }
      if (llvm::StringRef(In) == "no_create") {
        // Absent data is the host's memory: the construct works on a copy jacc brings in and
        // takes back at its end, as if the devices had used the host's memory.
        std::string Flag = "jacc_no_create_" + std::to_string(++NoCreates);
        Decls.push_back("int " + Flag + " = 0;");
        Entry.push_back(Flag + " = jacc_translated_no_create(" + S->Addr + ", " + S->Bytes +
                        ", " + where(*R.P) + ");");
        Exits.push_back("if (" + Flag + ") " +
                        check(std::string(S->Const ? "jacc_delete" : "jacc_copyout") + "(" +
                                  S->Addr + ", " + S->Bytes + ")",
                              *R.P));
        continue;
      }
      Entry.push_back(check(std::string(In) + "(" + S->Addr + ", " + S->Bytes + ")", *R.P));
      // Const data is never copied back (it may live in read-only memory).
      const char *O = S->Const && llvm::StringRef(Out) == "jacc_copyout" ? "jacc_delete" : Out;
      Exits.push_back(check(std::string(O) + "(" + S->Addr + ", " + S->Bytes + ")", *R.P));
    }
  }
  Exit.insert(Exit.end(), Exits.rbegin(), Exits.rend());
  return Ok;
}

} // namespace jacc::translate
