// Data clauses as the jacc calls around a construct, their array sections read as bytes.
#include "translate/DataClauses.h"

#include "translate/ComputePush.h"

#include "support/CText.h"

#include <clang/Lex/Lexer.h>

using namespace clang;

namespace jacc::translate {

using namespace analysis;

/// Whether Base, a member access written `v.m`, `v->m`, `v.m.n`..., names a pointer member: a
/// section of it is attached to the struct's device copy. Anything else is false.
bool DataClauses::isPointerMember(llvm::StringRef Base, const Pragma &P) {
  size_t Root = Base.find_first_of(".-");
  if (Root == llvm::StringRef::npos)
    return false;
  VarDecl *V = File.Idx.lookupVar(Base.take_front(Root).trim(), P.Hash);
  if (!V)
    return false;
  QualType T = V->getType().getCanonicalType();
  llvm::StringRef Rest = Base.drop_front(Root);
  while (!Rest.empty()) {
    if (Rest.consume_front("->")) {
      if (!T->isPointerType())
        return false;
      T = T->getPointeeType().getCanonicalType();
    } else if (!Rest.consume_front(".")) {
      return false;
    }
    Rest = Rest.ltrim();
    size_t End = Rest.find_first_of(".-");
    llvm::StringRef Name = Rest.take_front(End).trim();
    Rest = End == llvm::StringRef::npos ? "" : Rest.drop_front(End);
    const RecordType *R = T->getAs<RecordType>();
    if (!R)
      return false;
    auto Fields = R->getDecl()->fields();
    auto Field = llvm::find_if(Fields, [&](const FieldDecl *D) { return D->getName() == Name; });
    if (Field == Fields.end())
      return false;
    T = Field->getType().getCanonicalType();
  }
  return T->isPointerType();
}

std::optional<Section> DataClauses::wholeArray(const VarDecl *V) {
  std::string Name = File.hostName(V);
  QualType Ty = V->getType().getCanonicalType();
  Section S;
  if (Ty->isConstantArrayType() || Ty->isVariableArrayType()) {
    S.Bytes = "sizeof " + Name;
  } else if (auto *Parm = dyn_cast<ParmVarDecl>(V)) {
    // An array parameter is a pointer (`sizeof A` is a pointer's size); its declaration as
    // written still gives the first bound.
    QualType Written = Parm->getOriginalType();
    if (auto *CA = File.Ctx.getAsConstantArrayType(Written))
      S.Bytes = std::to_string(CA->getSize().getZExtValue()) + " * sizeof " + Name + "[0]";
    else if (auto *VA = File.Ctx.getAsVariableArrayType(Written); VA && VA->getSizeExpr())
      S.Bytes =
          "(" +
          Lexer::getSourceText(CharSourceRange::getTokenRange(VA->getSizeExpr()->getSourceRange()),
                               File.SM, File.Ctx.getLangOpts())
              .str() +
          ") * sizeof " + Name + "[0]";
    else
      return std::nullopt;
    Ty = Written.getCanonicalType();
  } else {
    return std::nullopt;
  }
  S.Const = File.Ctx.getAsArrayType(Ty)->getElementType().isConstQualified();
  S.Addr = S.Const ? "(void *)" + Name : Name;
  return S;
}

std::optional<Section> DataClauses::section(const std::string &Item, const Pragma &P,
                                            const Clause &C) {
  llvm::StringRef T(Item);
  size_t Br = T.find('[');
  std::string Base = T.take_front(Br).trim().str();
  std::vector<std::pair<std::string, std::string>> Dims; // (lower, length)
  llvm::StringRef Rest = Br == llvm::StringRef::npos ? "" : T.drop_front(Br);
  while (!Rest.empty()) {
    if (Rest.front() != '[') {
      File.error(P, C, "cannot read the array section '" + Item + "' in clause '" + C.Name + "'");
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
      File.error(P, C,
                 "'" + Item + "' in clause '" + C.Name +
                     "' is not an array section: write it as name[lower:length]");
      return std::nullopt;
    }
    Dims.push_back({Rest.slice(1, Colon).trim().str(), Rest.slice(Colon + 1, I).trim().str()});
    Rest = Rest.drop_front(I + 1).ltrim();
  }
  VarDecl *V = File.Idx.lookupVar(Base, P.Hash);
  QualType Ty = V ? V->getType().getCanonicalType() : QualType();
  Section S;
  if (Dims.empty()) {
    if (!V) {
      File.error(P, C, "'" + Base + "' in clause '" + C.Name + "' is not a variable in scope");
      return std::nullopt;
    }
    if (auto Whole = wholeArray(V))
      return Whole;
    if (Ty->isPointerType() && C.Kind == ClauseKind::Present) {
      // present(p) of a pointer, as NVHPC accepts it: what p points to must be present (its
      // first byte is checked; the mapping around it gives the kernel its device address).
      S.Addr = "(void *)" + Base;
      S.Bytes = "1";
      return S;
    }
    if (Ty->isPointerType() || Ty->isArrayType()) {
      File.error(P, C,
                 "'" + Base + "' in clause '" + C.Name +
                     "' is a pointer: give the array section it points to, e.g. " + Base + "[0:n]");
      return std::nullopt;
    }
    if (Ty->isRecordType()) {
      // A struct is mapped as a whole (its pointers can then be attached); a kernel given it
      // while it is present gets its device copy (src/launch/LaunchPlan).
      S.Const = Ty.isConstQualified();
      S.Addr = (S.Const ? "(void *)&" : "&") + Base;
      S.Bytes = "sizeof " + Base;
      return S;
    }
    S.Scalar = true;
    return S;
  }
  if (V && !Ty->isPointerType() && !Ty->isArrayType()) {
    File.error(P, C, "'" + Base + "' in clause '" + C.Name + "' is not an array or a pointer");
    return std::nullopt;
  }
  // One dimension of a pointer to pointers maps the pointer array alone (its host values).
  bool Rows = V && Ty->isPointerType() && Ty->getPointeeType()->isPointerType() && Dims.size() > 1;
  if (Rows && Dims.size() != 2) {
    File.error(P, C,
               "'" + Item + "' in clause '" + C.Name + "': a section of the pointer to pointers '" +
                   Base + "' names the pointers and each row: write it as " + Base +
                   "[lower:length][0:row_length]");
    return std::nullopt;
  }
  for (size_t I = 1; I < Dims.size(); ++I)
    if (!Dims[I].first.empty() && Dims[I].first != "0") {
      File.error(P, C,
                 "'" + Item + "' in clause '" + C.Name +
                     "' is not contiguous: only the first dimension of a section may start "
                     "after 0");
      return std::nullopt;
    }
  std::string Lo = Dims[0].first.empty() ? "0" : Dims[0].first;
  std::string Len = Dims[0].second;
  if (Len.empty()) {
    if (!V || !(Ty->isConstantArrayType() || Ty->isVariableArrayType())) {
      File.error(P, C,
                 "'" + Item + "' in clause '" + C.Name + "' needs a length: the size of '" + Base +
                     "' is not known");
      return std::nullopt;
    }
    Len = "sizeof " + Base + " / sizeof " + Base + "[0] - (" + Lo + ")";
  }
  S.Addr = "&" + Base + "[" + Lo + "]";
  if (!V && isPointerMember(Base, P))
    S.Pointer = "(void **)&(" + Base + ")";
  bool Simple = llvm::all_of(Len, isIdentChar);
  S.Bytes = (Simple ? Len : "(" + Len + ")") + " * sizeof " + Base + "[0]";
  if (V) {
    QualType E =
        Ty->isPointerType() ? Ty->getPointeeType() : File.Ctx.getAsArrayType(Ty)->getElementType();
    if (Rows)
      E = E->getPointeeType();
    S.Const = E.isConstQualified();
  }
  if (Rows) {
    if (Dims[1].second.empty()) {
      File.error(P, C,
                 "'" + Item + "' in clause '" + C.Name + "' needs a row length: the size of " +
                     "the rows of '" + Base + "' is not known");
      return std::nullopt;
    }
    bool SimpleRow = llvm::all_of(Dims[1].second, isIdentChar);
    S.RowBytes =
        (SimpleRow ? Dims[1].second : "(" + Dims[1].second + ")") + " * sizeof " + Base + "[0][0]";
    return S;
  }
  // jacc's data calls take void *: const data needs the cast (a member's type is not looked up).
  if (S.Const || !V)
    S.Addr = "(void *)" + S.Addr;
  return S;
}

std::string DataClauses::forEachRow(const Section &S,
                                    llvm::function_ref<std::string(const std::string &)> Call) {
  return "for (size_t jacc_row = 0; jacc_row < (" + S.Bytes + ") / sizeof(void *); ++jacc_row) " +
         Call("((void **)(" + S.Addr + "))[jacc_row]");
}

bool DataClauses::rowCalls(const Section &S, const Pragma &P, const Clause &C,
                           const std::string &Item, llvm::StringRef In, llvm::StringRef Out,
                           std::vector<std::string> &Entry, std::vector<std::string> &Detaches,
                           std::vector<std::string> &Deletes, std::vector<std::string> &CopyBacks) {
  auto Row = [&](llvm::StringRef Fn, const char *Rest = "") {
    return forEachRow(S, [&](const std::string &R) {
      return File.check((Fn + "(" + R + ", " + S.RowBytes + Rest + ")").str(), P);
    });
  };
  if (In == "present") {
    Entry.push_back("jacc_translated_present(" + S.Addr + ", " + S.Bytes + ", " + File.where(P) +
                    ", \"" + Item + "\");");
    Entry.push_back(forEachRow(S, [&](const std::string &R) {
      return "jacc_translated_present(" + R + ", " + S.RowBytes + ", " + File.where(P) + ", \"" +
             Item + "\");";
    }));
    return true;
  }
  if (In == "no_create") {
    File.error(P, C,
               "'" + Item + "' in clause '" + C.Name +
                   "': no_create of a pointer to pointers' rows is not supported; use present "
                   "or a copy clause");
    return false;
  }
  // Rows first, then the pointer array (with the host's pointers), then each device's copy of
  // it gets that device's row addresses. The exit detaches before anything goes.
  Entry.push_back(Row(In));
  Entry.push_back(File.check("jacc_copyin(" + S.Addr + ", " + S.Bytes + ")", P));
  Entry.push_back(forEachRow(
      S, [&](const std::string &R) { return File.check("jacc_attach(&" + R + ")", P); }));
  Detaches.push_back(forEachRow(
      S, [&](const std::string &R) { return File.check("jacc_detach(&" + R + ", 0)", P); }));
  Deletes.push_back(File.check("jacc_delete(" + S.Addr + ", " + S.Bytes + ")", P));
  bool Back = !S.Const && Out == "jacc_copyout";
  (Back ? CopyBacks : Deletes).push_back(Row(Back ? "jacc_copyout" : "jacc_delete"));
  return true;
}

/// Entry and exit calls of the data clauses of a compute or data construct, in clause order
/// (exits reversed). False after an error. A data construct evaluates each section once, at its
/// entry: its exit calls use the address and size saved then, whatever the region changed.
bool DataClauses::regionCalls(const Region &R, std::vector<std::string> &Decls,
                              std::vector<std::string> &Entry, std::vector<std::string> &Exit) {
  bool Ok = true, Save = R.D.Kind == DirectiveKind::Data || R.D.Kind == DirectiveKind::Declare;
  // Exits run the detaches first, then the deletes, then the copies back: a section named in two
  // clauses (`create(zero: b[0:n]) copyout(b[0:n])`) is copied back by the exit that ends it.
  std::vector<std::string> Detaches, Deletes, CopyBacks;
  for (const Clause &C : R.D.Clauses) {
    const char *In = nullptr, *Out = nullptr;
    bool Zero = hasZeroModifier(C);
    switch (C.Kind) {
    case ClauseKind::Copy: In = "jacc_copyin"; Out = "jacc_copyout"; break;
    case ClauseKind::Copyin: In = "jacc_copyin"; Out = "jacc_delete"; break;
    case ClauseKind::Copyout: In = Zero ? "jacc_create_zero" : "jacc_create";
      Out = "jacc_copyout"; break;
    case ClauseKind::Create:
    case ClauseKind::DeviceResident: In = Zero ? "jacc_create_zero" : "jacc_create";
      Out = "jacc_delete"; break;
    case ClauseKind::Present: In = "present"; break;
    case ClauseKind::NoCreate: In = "no_create"; break;
    case ClauseKind::Attach: {
      // attach at the entry, detach at the exit.
      Clause Detach = C;
      Detach.Kind = ClauseKind::Detach;
      Ok &= pointerCalls(*R.P, C, false, Entry) && pointerCalls(*R.P, Detach, false, Detaches);
      continue;
    }
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
        // copyin on a compute construct: passing it by value is the same there, unless another
        // clause gives it a device copy (copyin(x) copyout(x)), which must start from its value.
        if (C.Kind == ClauseKind::Copyin && R.D.isCompute() &&
            !llvm::any_of(R.D.Clauses, [&](const Clause &O) {
              return (O.Kind == ClauseKind::Copy || O.Kind == ClauseKind::Copyout ||
                      O.Kind == ClauseKind::Create) &&
                     llvm::is_contained(O.Vars, Item);
            }))
          continue;
        S->Addr = "&" + Item;
        S->Bytes = "sizeof " + Item;
      }
      if (Save) {
        std::string Name = "jacc_section_" + std::to_string(++Sections);
        Decls.push_back("void *const " + Name + " = " + S->Addr + ";");
        Decls.push_back("const size_t " + Name + "_bytes = " + S->Bytes + ";");
        S->Addr = Name;
        S->Bytes = Name + "_bytes";
        if (!S->RowBytes.empty()) {
          Decls.push_back("const size_t " + Name + "_row = " + S->RowBytes + ";");
          S->RowBytes = Name + "_row";
        }
      }
      if (!S->RowBytes.empty()) {
        Ok &= rowCalls(*S, *R.P, C, Item, In, Out, Entry, Detaches, Deletes, CopyBacks);
        continue;
      }
      if (llvm::StringRef(In) == "present") {
        Entry.push_back("jacc_translated_present(" + S->Addr + ", " + S->Bytes + ", " +
                        File.where(*R.P) + ", \"" + Item + "\");");
        continue;
      }
      if (llvm::StringRef(In) == "no_create") {
        // Absent data is the host's memory: the construct works on a copy jacc brings in and
        // takes back at its end, as if the devices had used the host's memory.
        std::string Flag = "jacc_no_create_" + std::to_string(++NoCreates);
        Decls.push_back("int " + Flag + " = 0;");
        Entry.push_back(Flag + " = jacc_translated_no_create(" + S->Addr + ", " + S->Bytes + ", " +
                        File.where(*R.P) + ");");
        (S->Const ? Deletes : CopyBacks)
            .push_back("if (" + Flag + ") " +
                       File.check(std::string(S->Const ? "jacc_delete" : "jacc_copyout") + "(" +
                                      S->Addr + ", " + S->Bytes + ")",
                                  *R.P));
        continue;
      }
      Entry.push_back(File.check(std::string(In) + "(" + S->Addr + ", " + S->Bytes + ")", *R.P));
      // Const data is never copied back (it may live in read-only memory).
      bool Back = !S->Const && llvm::StringRef(Out) == "jacc_copyout";
      (Back ? CopyBacks : Deletes)
          .push_back(File.check(std::string(Back ? Out : "jacc_delete") + "(" + S->Addr + ", " +
                                    S->Bytes + ")",
                                *R.P));
      if (!S->Pointer.empty()) { // a struct's pointer member: attached while the data is mapped
        Entry.push_back(File.check("jacc_attach(" + S->Pointer + ")", *R.P));
        Detaches.push_back(File.check("jacc_detach(" + S->Pointer + ", 0)", *R.P));
      }
    }
  }
  for (auto *Part : {&Detaches, &Deletes, &CopyBacks})
    Exit.insert(Exit.end(), Part->rbegin(), Part->rend());
  return Ok;
}

std::string DataClauses::checkData(const std::string &Call, const Pragma &P,
                                   llvm::StringRef Item) const {
  return "jacc_translated_data(" + Call + ", " + File.where(P) + ", " +
         cString("#pragma acc " + P.Text, "") + ", " + cString(Item, "") + ");";
}

std::vector<std::string> DataClauses::standaloneRowCalls(const Section &S, const Pragma &P,
                                                         const Clause &C, const std::string &Fn,
                                                         bool Enter, bool Exit,
                                                         bool Finalize) const {
  std::string Fin = Finalize ? ", 1" : ", 0";
  auto Rows = [&](const std::string &Rest) {
    return forEachRow(S, [&](const std::string &R) {
      return File.check(Fn + "(" + R + ", " + S.RowBytes + Rest + ")", P);
    });
  };
  auto Attach = [&](const char *Call, const std::string &Rest) {
    return forEachRow(S, [&](const std::string &R) {
      return File.check(std::string(Call) + "(&" + R + Rest + ")", P);
    });
  };
  if (Enter) // the rows, the pointer array, then each device's row addresses into its copy
    return {Rows(""), File.check("jacc_copyin(" + S.Addr + ", " + S.Bytes + ")", P),
            Attach("jacc_attach", "")};
  if (Exit) { // detached first; the pointer array is never copied back
    bool Back = C.Kind == ClauseKind::Copyout && !S.Const;
    return {Attach("jacc_detach", Fin),
            File.check("jacc_exit_data(" + S.Addr + ", " + S.Bytes + ", 0" + Fin + ")", P),
            Rows((Back ? ", 1" : ", 0") + Fin)};
  }
  return {Rows("")}; // update: the rows' data (the pointer array holds addresses)
}

bool DataClauses::hasZeroModifier(const Clause &C) {
  llvm::StringRef A = llvm::StringRef(C.Argument).ltrim();
  if (!A.consume_front("zero"))
    return false;
  A = A.ltrim();
  return A.startswith(":") && !A.startswith("::");
}

bool DataClauses::pointerCalls(const Pragma &P, const Clause &C, bool Finalize,
                               std::vector<std::string> &Calls) {
  bool Ok = true;
  for (const std::string &Item : C.Vars) {
    // A pointer variable, or a member (`s.p`, `s->p`): the compiler checks the latter.
    VarDecl *V = File.Idx.lookupVar(Item, P.Hash);
    bool Name = llvm::all_of(Item, isIdentChar);
    if (Name && (!V || !V->getType().getCanonicalType()->isPointerType())) {
      File.error(P, C,
                 "'" + Item + "' in clause '" + C.Name +
                     "' must be a pointer (a variable or a "
                     "struct member)");
      Ok = false;
      continue;
    }
    std::string Addr = "(void **)&(" + Item + ")";
    Calls.push_back(File.check(C.Kind == ClauseKind::Attach
                                   ? "jacc_attach(" + Addr + ")"
                                   : "jacc_detach(" + Addr + (Finalize ? ", 1)" : ", 0)"),
                               P));
  }
  return Ok;
}

} // namespace jacc::translate
