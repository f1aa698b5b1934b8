// The constructor a translated file registers its routines from (RoutineRegistration.h).
#include "translate/RoutineRegistration.h"

#include "translate/ComputePush.h"

namespace jacc::translate {

std::string routineError(std::string Why) {
  for (char &C : Why)
    if (C == '"' || C == '\\')
      C = '\'';
  return "#error \"" + Why + "\"\n";
}

std::string routineRegistration(const std::string &Name, const std::string &Text,
                                const std::string &Site) {
  return "  jacc_translated_check(jacc_define_routine(\"" + Name + "\",\n" +
         cString(Text + "// jacc-site: " + Site + "\n", "      ") + "), \"" + Site + "\");\n";
}

std::string registrationConstructor(const std::string &Calls, const std::string &Whose) {
  if (Calls.empty())
    return "";
  return "\n/* The " + Whose +
         " of this file, for the kernels of other files. */\n"
         "__attribute__((constructor)) static void jacc_define_routines(void) {\n" +
         Calls + "}\n";
}

} // namespace jacc::translate
