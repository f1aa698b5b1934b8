// The C and C++ code of a compute construct's push: a block of the calls around it.
#include "translate/ComputePush.h"

namespace jacc::translate {

std::string cString(llvm::StringRef Text, const std::string &Indent) {
  std::string Out = Indent + "\"";
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    switch (C) {
    case '\\':
      Out += "\\\\";
      break;
    case '"':
      Out += "\\\"";
      break;
    case '\t':
      Out += "\\t";
      break;
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
    default:
      Out += C;
    }
  }
  return Out + "\"";
}

/// The start of the push of Kernels (condition, text; one without a template): the kernel text
/// as a literal, or in a template a function-local string of its parameters' lines (Params) and
/// the text of the group of instantiations the conditions select; indented by I.
static std::string pushedSource(const std::string &Params,
                                const std::vector<std::pair<std::string, std::string>> &Kernels,
                                const std::string &I) {
  if (Params.empty())
    return I + "jacc_translated_check(jacc_kernel_push(\n" +
           cString(Kernels[0].second, I + "    ") + ",\n";
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

std::string printComputePush(const ComputePush &Push) {
  std::string I = Push.Indent, I2 = Push.Indent + "  ", Where = "\"" + Push.Site + "\"";
  std::string Code = I + "{ /* #pragma acc " + Push.DirectiveText + " */\n";
  std::string Else;
  if (!Push.IfCondition.empty()) {
    // Not on the device: the statement runs on the host, as written.
    Code += I2 + "if (" + Push.IfCondition + ") {\n";
    Else = I2 + "} else {\n" + Push.HostStatement + "\n" + I2 + "}\n";
  }
  auto Lines = [&](const std::vector<std::string> &Calls) {
    for (const std::string &C : Calls)
      Code += I2 + C + "\n";
  };
  Lines(Push.Decls);
  Code += I2 + Push.Begin + "\n";
  Lines(Push.QueueChecks);
  if (Push.Wait)
    Code += I2 + "jacc_translated_check(jacc_wait(), " + Where + ");\n";
  Lines(Push.Entry);
  Lines(Push.Temps);
  const std::vector<std::string> &Args = Push.Args;
  if (!Args.empty()) {
    Code += I2 + "jacc_arg jacc_args[] = {";
    for (size_t K = 0; K < Args.size(); ++K)
      Code += (K ? ", " : "") + Args[K];
    Code += "};\n";
  }
  Code += pushedSource(Push.TemplateParams, Push.Kernels, I2);
  Code += I2 + "    " + std::to_string(Args.size()) + ", " + (Args.empty() ? "0" : "jacc_args") +
          ", " + (Push.Async ? "JACC_ASYNC" : "JACC_DEFAULT") + "), " + Where + ");\n";
  Lines(Push.Exit);
  Code += I2 + Push.End + "\n";
  return Code + Else + I + "}";
}

} // namespace jacc::translate
