// private / firstprivate sections of pointers (`parallel private(c[0:n])`): an array of the
// section's length declared in the kernel where each gang needs its own copy.
#include "translate/PrivateSections.h"

#include <llvm/ADT/StringExtras.h>

using namespace clang;

namespace jacc::translate {

using namespace analysis;

/// "c[0:n]" as its base "c", lower bound "0" and length "n"; false if Item is not one section.
static bool splitSection(llvm::StringRef Item, llvm::StringRef &Base, llvm::StringRef &Lower,
                         llvm::StringRef &Length) {
  size_t Open = Item.find('[');
  if (Open == llvm::StringRef::npos || !Item.endswith("]"))
    return false;
  Base = Item.take_front(Open).trim();
  llvm::StringRef Inside = Item.slice(Open + 1, Item.size() - 1);
  if (Inside.contains('[') || Inside.contains(']'))
    return false;
  size_t Colon = Inside.find(':');
  if (Colon == llvm::StringRef::npos)
    return false;
  Lower = Inside.take_front(Colon).trim();
  Length = Inside.drop_front(Colon + 1).trim();
  return true;
}

bool PrivateData::isPrivateSection(llvm::StringRef Item, const Pragma &P) {
  llvm::StringRef Base, Lower, Length;
  if (!splitSection(Item, Base, Lower, Length))
    return false;
  VarDecl *V = File.Idx.lookupVar(Base, P.Hash);
  return V && V->getType().getCanonicalType()->isPointerType();
}

/// The text inserted to give statement S (a loop's body, or a construct's) Decl as its first
/// declaration: after its '{', or around it in a new block that opens at Open (a loop's body
/// may follow pragmas, which must stay in the block).
void PrivateData::declareIn(Stmt *S, unsigned Open, const std::string &Decl,
                            std::map<unsigned, std::string> &Ins) {
  if (auto *C = dyn_cast<CompoundStmt>(S)) {
    Ins[File.Idx.offset(C->getLBracLoc()) + 1] += " " + Decl;
    return;
  }
  Ins[Open] += " { " + Decl;
  Ins[File.Idx.endOf(S)] += " }";
}

bool PrivateData::privateSections(const Region &R, std::vector<PrivateSection> &Out,
                                  std::map<unsigned, std::string> &Ins) {
  const Pragma &P = *R.P;
  bool Ok = true;
  for (const Clause &C : R.D.Clauses) {
    if (C.Kind != ClauseKind::Private && C.Kind != ClauseKind::Firstprivate)
      continue;
    for (const std::string &Item : C.Vars) {
      if (!isPrivateSection(Item, P))
        continue;
      llvm::StringRef Base, Lower, Length;
      splitSection(Item, Base, Lower, Length);
      VarDecl *Var = File.Idx.lookupVar(Base, P.Hash);
      QualType Elem = Var->getType().getCanonicalType()->getPointeeType();
      auto Fail = [&](const llvm::Twine &Why) {
        File.error(P, C, "'" + Item + "' in clause '" + C.Name + "': " + Why);
        Ok = false;
      };
      if (!Lower.empty() && Lower != "0") {
        Fail("jacc privatises sections that start at 0 ('" + Base + "[0:" + Length + "]')");
        continue;
      }
      if (Length.empty()) {
        Fail("the section needs a length ('" + Base + "[0:n]')");
        continue;
      }
      if (Elem->isArrayType() || Elem->isPointerType()) {
        Fail("jacc privatises sections of pointers to scalars or structs");
        continue;
      }
      // Where each gang's copy lives: the serial construct's body (one gang), the body of each
      // gang loop (a combined construct's, or each loop directly in a parallel construct).
      std::vector<Stmt *> Scopes;
      std::vector<unsigned> Opens; // where a block around each scope would open
      auto AddLoop = [&](ForStmt *F) {
        Scopes.push_back(F->getBody());
        Opens.push_back(File.Idx.offset(F->getRParenLoc()) + 1);
      };
      switch (R.D.Kind) {
      case DirectiveKind::Serial:
        Scopes.push_back(R.S);
        Opens.push_back(File.Idx.offset(R.S->getBeginLoc()));
        break;
      case DirectiveKind::ParallelLoop:
        if (auto *F = dyn_cast<ForStmt>(R.S))
          AddLoop(F);
        break;
      case DirectiveKind::Parallel:
        if (auto *Body = dyn_cast<CompoundStmt>(R.S))
          for (auto [Q, QD] : File.directivesIn(P, R.End)) {
            if (QD->Kind != DirectiveKind::Loop || QD->has(ClauseKind::Seq))
              continue;
            auto *F = dyn_cast_or_null<ForStmt>(File.Idx.statementAfter(*Q));
            if (F && llvm::is_contained(Body->body(), F))
              AddLoop(F);
          }
        break;
      default:
        break;
      }
      if (Scopes.empty()) {
        Fail("jacc privatises sections on 'parallel' (in its gang loops), 'parallel loop' and "
             "'serial'; declare the private array inside the loop body");
        continue;
      }
      bool Owned = llvm::all_of(File.useOffsets(R.S, Var), [&](unsigned Off) {
        return llvm::any_of(Scopes, [&](Stmt *S) {
          return Off >= File.Idx.offset(S->getBeginLoc()) && Off < File.Idx.endOf(S);
        });
      });
      if (!Owned) {
        Fail("each gang's copy lives in a gang loop, and '" + Base + "' is used outside the "
             "construct's gang loops; use it only in loops directly in the construct with a "
             "non-seq 'loop' directive");
        continue;
      }
      PrivateSection S;
      S.Var = Var;
      S.Length = Length.str();
      S.First = C.Kind == ClauseKind::Firstprivate;
      // A constant length (macros are expanded in the clause) gives an array of constant size,
      // which every target can declare; another is a variable-length array (not on CUDA).
      std::string Len = "jacc_private_len_" + Base.str();
      bool Constant = llvm::all_of(Length, [](char Ch) {
        return llvm::isDigit(Ch) || llvm::StringRef(" +-*/%()").contains(Ch);
      });
      S.Constant = Constant;
      std::string KernelLen = Constant ? "(" + Length.str() + ")" : Len;
      std::string Decl =
          File.TypeText.declaration(Elem.getUnqualifiedType(), Base.str() + "[" + KernelLen + "]") +
          ";";
      if (S.First)
        Decl += " for (long jacc_k = 0; jacc_k < " + KernelLen + "; jacc_k++) " + Base.str() +
                "[jacc_k] = jacc_original_" + Base.str() + "[jacc_k];";
      for (size_t K = 0; K < Scopes.size(); ++K)
        declareIn(Scopes[K], Opens[K], Decl, Ins);
      Out.push_back(std::move(S));
    }
  }
  return Ok;
}

// private of an array from outside: the kernel gets it as an array argument (`double t[16]`,
// passed NULL, no data moved) that the loop nest with the clause privatises per iteration
// (analysis/LoopNest.cpp). That holds where the clause makes a gang loop nest: on a combined
// construct, or on a non-seq loop that is a top-level statement of the construct using the
// array nowhere else. Anything else (firstprivate arrays, pointers) is an error.
bool PrivateData::privateArrays(const Region &R, const KernelNeeds &N,
                                std::set<const VarDecl *> &PrivateArrays) {
  bool Ok = true;
  for (auto [Q, QD] : File.directivesIn(*R.P, R.End)) {
    for (const Clause &C : QD->Clauses) {
      if (C.Kind != ClauseKind::Private && C.Kind != ClauseKind::Firstprivate)
        continue;
      for (const std::string &V : C.Vars) {
        if (llvm::StringRef(V).contains('[')) {
          if (Q == R.P && isPrivateSection(V, *Q))
            continue; // privateSections
          File.error(*Q, C,
                     "'" + V + "' in clause '" + C.Name +
                         "': jacc privatises sections of "
                         "pointers in the clauses of 'parallel', 'parallel loop' and 'serial' "
                         "constructs; name a section there, or an array without a section");
          Ok = false;
          continue;
        }
        VarDecl *Var = File.Idx.lookupVar(V, Q->Hash);
        if (!Var || !llvm::is_contained(N.Vars, Var))
          continue;
        QualType T = Var->getType().getCanonicalType();
        if (!T->isArrayType() && !T->isPointerType())
          continue;
        std::string Why;
        if (T->isPointerType())
          Why = "a pointer declared outside the construct: jacc cannot privatise it; name a "
                "section of it on the construct (private(" + V + "[0:n])), or use a pointer "
                "variable declared inside the loop body";
        else if (C.Kind == ClauseKind::Firstprivate)
          Why = "an array declared outside the construct: jacc privatises such arrays only in "
                "private clauses; copy it into an array declared inside the loop body";
        else if (!T->isConstantArrayType())
          Why = "a variable-length array: jacc privatises arrays of constant size";
        else if (!privatisableHere(*Q, *QD, R, Var))
          Why = "an array declared outside the construct, private here to a loop that is not a "
                "gang loop of the construct (a combined construct, or a loop directly in its "
                "body using the array nowhere else); declare the private array inside the loop "
                "body";
        if (Why.empty()) {
          PrivateArrays.insert(Var);
          continue;
        }
        File.error(*Q, C, "'" + V + "' in clause '" + C.Name + "' is " + Why);
        Ok = false;
      }
    }
  }
  return Ok;
}

bool PrivateData::privatisableHere(const Pragma &Q, const Directive &QD, const Region &R,
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
    if (File.Idx.offset(S->getBeginLoc()) >= Q.LineEnd) {
      Loop = S;
      break;
    }
  if (!Loop || !isa<ForStmt>(Loop))
    return false;
  unsigned LoopBegin = File.Idx.offset(Loop->getBeginLoc()), LoopEnd = File.Idx.endOf(Loop);
  for (unsigned Off : File.useOffsets(R.S, Var))
    if (Off < LoopBegin || Off >= LoopEnd)
      return false;
  return true;
}

} // namespace jacc::translate
