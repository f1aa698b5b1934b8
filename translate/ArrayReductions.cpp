// A compute construct's reduction clause: whole C arrays as sections, mapped elements brought
// to the host around the push (DataClauses::reductionClause).
#include "translate/DataClauses.h"

#include "analysis/ReductionItem.h"

using namespace clang;

namespace jacc::translate {

using namespace analysis;

std::string DataClauses::reductionClause(const Clause &C, const Pragma &P,
                                         std::vector<std::string> &Entry,
                                         std::vector<std::string> &Exit) {
  std::string Items;
  bool Rewritten = false;
  for (const std::string &Text : C.Vars) {
    std::string Kept = Text, Addr, Bytes;
    auto Item = parseReductionItem(Text);
    VarDecl *V = Item ? File.Idx.lookupVar(Item->Name, P.Hash) : nullptr;
    if (!Item)
      llvm::consumeError(Item.takeError()); // the kernel's analysis names the problem
    QualType T = V ? V->getType().getCanonicalType() : QualType();
    const std::string Name = Item ? Item->Name : "";
    if (V && !Item->Subscripted) {
      const auto *CA = File.Ctx.getAsConstantArrayType(T);
      if (CA && !CA->getElementType()->isArrayType()) {
        Kept = Name + "[0:" + std::to_string(CA->getSize().getZExtValue()) + "]";
        Rewritten = true;
        Addr = "&" + Name + "[0]";
        Bytes = "sizeof " + Name;
      }
    } else if (V && (T->isPointerType() || T->isArrayType())) {
      Addr = "&" + Name + "[" + Item->Lower + "]";
      Bytes = Item->Length.empty() ? "sizeof " + Name + "[" + Item->Lower + "]"
                                   : "(" + Item->Length + ") * sizeof " + Name + "[0]";
    }
    Items += (Items.empty() ? "" : ", ") + Kept;
    if (Addr.empty())
      continue;
    std::string Present = "if (jacc_is_present(" + Addr + ", " + Bytes + ")) ";
    Entry.push_back(Present + File.check("jacc_update_self(" + Addr + ", " + Bytes + ")", P));
    Exit.insert(Exit.begin(),
                Present + File.check("jacc_update_device(" + Addr + ", " + Bytes + ")", P));
  }
  if (!Rewritten) // as written
    return C.Name + "(" + C.Argument + ")";
  return C.Name + "(" + reductionOpName(C.Op) + ":" + Items + ")";
}

} // namespace jacc::translate
