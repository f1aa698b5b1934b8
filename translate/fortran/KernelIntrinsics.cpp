// Fortran's elemental intrinsics in kernels, each one C expression: <math.h> calls (their float
// forms for kind 4) and C operators, the same text for every target's compiler (clang for host
// devices, NVRTC for CUDA); bit intrinsics on the unsigned type of their kind, integer powers in
// exact integer arithmetic.
#include "translate/fortran/KernelWriter.h"

#include <map>
#include <set>

namespace jacc::translate::fortran {

namespace {

/// The unsigned C type of an integer of kind Kind, which bit intrinsics shift and mask.
std::string unsignedType(int Kind) {
  return Kind == 1   ? "unsigned char"
         : Kind == 2 ? "unsigned short"
         : Kind == 4 ? "unsigned int"
                     : "unsigned long long";
}

/// Name(Args...), Name's float form for a real of kind 4 ("erff").
std::string mathCall(std::string Name, const std::vector<std::string> &Args, bool Float) {
  std::string Text = Name + (Float ? "f(" : "(");
  for (size_t I = 0; I < Args.size(); ++I)
    Text += (I ? ", " : "") + Args[I];
  return Text + ")";
}

/// Fortran's modulo from C's remainder R (sign of the dividend) and the divisor P: the result
/// takes P's sign.
std::string moduloOf(const std::string &R, const std::string &P) {
  return "(" + R + " != 0 && ((" + R + " < 0) != ((" + P + ") < 0)) ? " + R + " + (" + P +
         ") : " + R + ")";
}

} // namespace

std::string KernelWriter::integerPower(const std::string &B, const std::string &E,
                                       std::optional<int64_t> N, int Kind) {
  if (N && *N >= 0 && *N <= 4) {
    if (*N == 0)
      return "1";
    std::string P = "(" + B;
    for (int64_t I = 1; I < *N; ++I)
      P += " * " + B;
    return P + ")";
  }
  // Any exponent: B to the powers 2^k for the exponent's bits, multiplied in 64-bit unsigned
  // arithmetic (an overflow wraps, as gfortran's code does); a negative exponent (or one past
  // the bits, where only |B| <= 1 stays in range) leaves 1, -1 or 0.
  std::string T = cTypeOf(TypeCategory::Integer, Kind), U = "unsigned long long";
  std::string X = "((long long)(" + E + "))";
  std::string Square = "((" + U + ")(" + B + "))", Product;
  for (int Bit = 0; Bit < 6; ++Bit) {
    Product += (Bit ? " * " : "") + std::string("((") + X + " >> " + std::to_string(Bit) +
               ") & 1 ? " + Square + " : 1ULL)";
    Square = "(" + Square + " * " + Square + ")";
  }
  return "((" + T + ")(" + X + " < 0 || " + X + " >= 64 ? (" + U + ")((" + B + ") == 1 ? 1 : (" +
         B + ") == -1 ? (" + X + " & 1 ? -1 : 1) : 0) : " + Product + "))";
}

std::string KernelWriter::intrinsic(const std::string &Name, const std::vector<std::string> &Args,
                                    TypeCategory Category, int Kind, int ArgKind) {
  static const std::set<std::string> Math = {
      "sqrt", "exp",  "log",   "log10", "sin",   "cos",   "tan",   "asin", "acos", "atan", "sinh",
      "cosh", "tanh", "asinh", "acosh", "atanh", "atan2", "floor", "erf",  "erfc", "hypot"};
  // Intrinsics that are another <math.h> function of the same arguments.
  static const std::map<std::string, const char *> Renamed = {{"ceiling", "ceil"},
                                                              {"aint", "trunc"},
                                                              {"anint", "round"},
                                                              {"gamma", "tgamma"},
                                                              {"log_gamma", "lgamma"}};
  bool Real = Category == TypeCategory::Real, Float = Real && Kind == 4;
  auto Call = [&](const std::string &C) { return mathCall(C, Args, Float); };
  auto Arity = [&](size_t N) { return Args.size() == N; };
  if (Name == "atan" && Arity(2) && Real)
    return Call("atan2");
  if (Math.count(Name) && Real)
    return Call(Name);
  if (auto It = Renamed.find(Name); It != Renamed.end() && Real && (Arity(1) || Arity(2)))
    return Call(It->second);
  if (Name == "abs" && Arity(1))
    return Real ? Call("fabs") : "(" + Args[0] + " < 0 ? -" + Args[0] + " : " + Args[0] + ")";
  if (Name == "mod" && Arity(2))
    return Real ? Call("fmod") : "(" + Args[0] + " % " + Args[1] + ")";
  if (Name == "modulo" && Arity(2))
    return moduloOf(Real ? Call("fmod") : "(" + Args[0] + " % " + Args[1] + ")", Args[1]);
  if (Name == "dim" && Arity(2))
    return Real ? Call("fdim")
                : "(" + Args[0] + " > " + Args[1] + " ? " + Args[0] + " - " + Args[1] + " : 0)";
  if (Name == "sign" && Arity(2))
    return Real ? Call("copysign")
                : "(" + Args[1] + " >= 0 ? (" + Args[0] + " < 0 ? -" + Args[0] + " : " + Args[0] +
                      ") : (" + Args[0] + " < 0 ? " + Args[0] + " : -" + Args[0] + "))";
  if (Name == "merge" && Arity(3))
    return "((" + Args[2] + ") != 0 ? (" + Args[0] + ") : (" + Args[1] + "))";
  if (Name == "dprod" && Arity(2))
    return "((double)(" + Args[0] + ") * (double)(" + Args[1] + "))";
  if ((Name == "floor" || Name == "ceiling") && Category == TypeCategory::Integer)
    return "((" + cTypeOf(Category, Kind) + ")" + (Name == "floor" ? "floor(" : "ceil(") + Args[0] +
           "))";
  if (Name == "nint" && Category == TypeCategory::Integer)
    return "((" + cTypeOf(Category, Kind) + ")lround(" + Args[0] + "))";
  // The model numbers' parts: x = fraction * 2^exponent, fraction in [0.5, 1).
  if (Name == "exponent" && Arity(1))
    return "((" + Args[0] + ") == 0 ? 0 : " + mathCall("ilogb", Args, ArgKind == 4) + " + 1)";
  if (Name == "fraction" && Arity(1) && Real)
    return "((" + Args[0] + ") == 0 ? (" + Args[0] + ") : " +
           mathCall("ldexp", {Args[0], "-(" + mathCall("ilogb", Args, Float) + " + 1)"}, Float) +
           ")";
  if (Name == "scale" && Arity(2) && Real)
    return mathCall("ldexp", {Args[0], "(int)(" + Args[1] + ")"}, Float);
  if ((Name == "max" || Name == "min") && !Args.empty()) {
    std::string Text = Args[0];
    for (size_t I = 1; I < Args.size(); ++I)
      Text = Real ? mathCall(Name == "max" ? "fmax" : "fmin", {Text, Args[I]}, Float)
                  : "(" + Text + (Name == "max" ? " > " : " < ") + Args[I] + " ? " + Text + " : " +
                        Args[I] + ")";
    return Text;
  }
  if (Category == TypeCategory::Integer || Name == "btest") {
    // Bits of an integer of kind Kind: shifts and masks on its unsigned type, past the last bit
    // as Fortran defines them (C leaves a shift by the width undefined).
    static const std::map<std::string, const char *> Bits = {
        {"iand", " & "}, {"ior", " | "}, {"ieor", " ^ "}};
    std::string T = cTypeOf(TypeCategory::Integer, Kind), U = unsignedType(Kind);
    std::string Width = std::to_string(8 * Kind), I = Args.empty() ? "" : Args[0];
    std::string Bits0 = "((" + U + ")(" + I + "))";
    if (Bits.count(Name) && Arity(2))
      return "(" + Args[0] + Bits.at(Name) + Args[1] + ")";
    if (Name == "not" && Arity(1))
      return "((" + T + ")~(" + I + "))";
    // Counts of bits (of the first argument's kind, the result a default integer): GNU's
    // builtins on 64 bits, the zero-extended value's leading zeros less the bits above the kind.
    std::string Wide = "((unsigned long long)(" + unsignedType(ArgKind) + ")(" + I + "))";
    std::string ArgWidth = std::to_string(8 * ArgKind);
    if (Name == "popcnt" && Arity(1))
      return "((" + T + ")__builtin_popcountll(" + Wide + "))";
    if (Name == "poppar" && Arity(1))
      return "((" + T + ")(__builtin_popcountll(" + Wide + ") & 1))";
    if (Name == "leadz" && Arity(1))
      return "((" + T + ")((" + I + ") == 0 ? " + ArgWidth + " : __builtin_clzll(" + Wide + ") - " +
             std::to_string(64 - 8 * ArgKind) + "))";
    if (Name == "trailz" && Arity(1))
      return "((" + T + ")((" + I + ") == 0 ? " + ArgWidth + " : __builtin_ctzll(" + Wide + ")))";
    if (Name == "btest" && Arity(2))
      return "((((unsigned long long)(" + I + ")) >> (" + Args[1] + ")) & 1)";
    if ((Name == "ibset" || Name == "ibclr") && Arity(2)) {
      std::string Bit = "((" + U + ")1 << (" + Args[1] + "))";
      return "((" + T + ")(" + Bits0 + (Name == "ibset" ? " | " + Bit : " & (" + U + ")~" + Bit) +
             "))";
    }
    if (Name == "ibits" && Arity(3))
      return "((" + T + ")((" + Bits0 + " >> (" + Args[1] + ")) & ((" + Args[2] + ") >= " + Width +
             " ? (" + U + ")~(" + U + ")0 : (" + U + ")((1ULL << (" + Args[2] + ")) - 1))))";
    // ishft(i, s): left for s >= 0, logically right for s < 0; shiftl, shiftr one way each.
    std::optional<std::string> Left, Right;
    if (Name == "ishft" && Arity(2))
      Left = Right = Args[1];
    if (Name == "shiftl" && Arity(2))
      Left = Args[1];
    if (Name == "shiftr" && Arity(2))
      Right = "-(" + Args[1] + ")";
    if (Left || Right) {
      // The counts masked to the width: the same counts where they apply, and never negative
      // (a constant count's other branch would be a negative shift to the compiler).
      std::string S = "(" + (Left ? *Left : *Right) + ")", Mask = std::to_string(8 * Kind - 1);
      std::string Up = Bits0 + " << (" + S + " & " + Mask + ")",
                  Down = Bits0 + " >> (-" + S + " & " + Mask + ")";
      std::string Shifted = Left && Right ? "(" + S + " >= 0 ? " + Up + " : " + Down + ")"
                            : Left        ? Up
                                          : Down;
      return "((" + T + ")(" + S + " >= " + Width + " || " + S + " <= -" + Width +
             " ? 0 : " + Shifted + "))";
    }
    if (Name == "shifta" && Arity(2))
      return "((" + Args[1] + ") >= " + Width + " ? ((" + I + ") < 0 ? (" + T + ")-1 : (" + T +
             ")0) : (" + T + ")((" + I + ") >> (" + Args[1] + ")))";
  }
  error("the intrinsic '" + Name + "' is not translated into a kernel yet");
  return "0";
}

} // namespace jacc::translate::fortran
