// Private copies of Fortran arrays in a kernel's loop bodies (PrivateCopies.h).
#include "translate/fortran/PrivateCopies.h"

namespace jacc::translate::fortran {

/// "[e_R]...[e_1]": V's C dimensions from its extents (column-major: the last one outermost),
/// from dimension Skip + 1 inwards.
static std::string dimensions(const HostVariable &V, int Skip = 0) {
  std::string Text;
  for (int D = V.Rank - 1 - Skip; D >= 0; --D)
    Text += "[" + V.Extent[D] + "]";
  return Text;
}

std::vector<std::string> privateCopyLines(const HostVariable &V, bool First) {
  std::vector<std::string> Lines = {V.CType + " " + V.Name + dimensions(V) + ";"};
  if (!First)
    return Lines;
  std::string Element, Indent;
  for (int D = V.Rank; D >= 1; --D) {
    std::string K = "jacc_k" + std::to_string(D);
    Lines.push_back(Indent + "for (long long " + K + " = 0; " + K + " < " + V.Extent[D - 1] + "; " +
                    K + "++)");
    Element += "[" + K + "]";
    Indent += "  ";
  }
  Lines.push_back(Indent + V.Name + Element + " = jacc_original_" + V.Name + Element + ";");
  return Lines;
}

std::string originalParameter(const HostVariable &V) {
  std::string Name = "jacc_original_" + V.Name;
  return V.Rank == 1 ? "const " + V.CType + " *" + Name
                     : "const " + V.CType + " (*" + Name + ")" + dimensions(V, 1);
}

} // namespace jacc::translate::fortran
