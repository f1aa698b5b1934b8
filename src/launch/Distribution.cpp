// Execution policies: parsing, checking against the devices, and each device's share.
#include "src/launch/Distribution.h"

#include "src/Device.h"
#include "support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <cmath>
#include <numeric>

namespace jacc {

namespace {

const char *Accepted = "static, flatten, any, auto, percentage:[p1,p2,...] (adding up to 100), "
                       "range:[n1,n2,...] (iteration counts) or weights:[w1,w2,...], one value "
                       "per device";

llvm::Error badPolicy(llvm::StringRef Text, const llvm::Twine &Why, bool ListAccepted = true) {
  return makeError(ErrorCode::InvalidArgument,
                   "policy '" + Text + "': " + Why +
                       (ListAccepted ? llvm::Twine("; accepted: ") + Accepted : llvm::Twine()));
}

/// The values of "[v1,v2,...]": non-negative numbers, not all zero.
llvm::Expected<std::vector<double>> parseValues(llvm::StringRef Text, llvm::StringRef List) {
  List = List.trim();
  if (!List.consume_front("[") || !List.consume_back("]"))
    return badPolicy(Text, "the values must be a bracketed list, e.g. [25,75]");
  llvm::SmallVector<llvm::StringRef, 8> Items;
  List.split(Items, ',');
  std::vector<double> Values;
  for (llvm::StringRef Item : Items) {
    Item = Item.trim();
    double V;
    if (Item.empty() || Item.getAsDouble(V) || !std::isfinite(V))
      return badPolicy(Text, "'" + Item + "' is not a number");
    if (V < 0)
      return badPolicy(Text, "'" + Item + "' is negative");
    Values.push_back(V);
  }
  if (std::accumulate(Values.begin(), Values.end(), 0.0) <= 0)
    return badPolicy(Text, "the values add up to zero: no device would get any work");
  return Values;
}

} // namespace

llvm::Expected<Distribution> parseDistribution(llvm::StringRef Text) {
  Distribution D;
  D.Text = Text.trim().str();
  llvm::StringRef T = llvm::StringRef(D.Text);
  auto [Name, List] = T.split(':');
  Name = Name.trim();
  using K = Distribution::Kind;
  static const std::pair<const char *, K> Kinds[] = {
      {"static", K::Static}, {"flatten", K::Flatten}, {"any", K::Any}, {"auto", K::Auto},
      {"percentage", K::Percentage}, {"range", K::Range}, {"weights", K::Weights}};
  const std::pair<const char *, K> *Found = nullptr;
  for (const auto &P : Kinds)
    if (Name.equals_insensitive(P.first))
      Found = &P;
  if (!Found)
    return badPolicy(T, "unknown policy '" + Name + "'");
  D.How = Found->second;
  bool TakesValues = D.How == K::Percentage || D.How == K::Range || D.How == K::Weights;
  if (!TakesValues) {
    if (T.contains(':'))
      return badPolicy(T, "'" + Name + "' takes no values");
    return D;
  }
  if (!T.contains(':'))
    return badPolicy(T, "'" + Name + "' needs one value per device, e.g. " + Name + ":[1,3]");
  auto Values = parseValues(T, List);
  if (!Values)
    return Values.takeError();
  D.Values = std::move(*Values);
  if (D.How == K::Percentage) {
    double Sum = std::accumulate(D.Values.begin(), D.Values.end(), 0.0);
    if (std::fabs(Sum - 100) > 1e-6)
      return badPolicy(T, "the percentages add up to " + llvm::formatv("{0}", Sum) + ", not 100");
  }
  if (D.How == K::Range)
    for (double V : D.Values)
      if (V != std::floor(V))
        return badPolicy(T, "iteration counts must be whole numbers");
  return D;
}

llvm::Error checkDistribution(const Distribution &D,
                              llvm::ArrayRef<std::unique_ptr<Device>> Devices) {
  if (D.Values.empty() || D.Values.size() == Devices.size())
    return llvm::Error::success();
  std::string Names;
  for (const auto &Dev : Devices)
    Names += (Names.empty() ? "" : ", ") + Dev->name();
  return badPolicy(D.Text, "gives " + llvm::Twine(D.Values.size()) + " values for " +
                               llvm::Twine(Devices.size()) + " devices (" + Names +
                               "): give one per device, in that order",
                   /*ListAccepted=*/false);
}

std::vector<SplitShare> sharesOf(const Distribution &D, unsigned Devices, unsigned Idle) {
  std::vector<SplitShare> Shares(Devices);
  if (D.How == Distribution::Kind::Any) {
    for (unsigned I = 0; I < Devices; ++I)
      Shares[I] = I == Idle ? SplitShare{0, 1, 1} : SplitShare{0, 0, 1};
    return Shares;
  }
  if (D.Values.size() != Devices) {
    for (unsigned I = 0; I < Devices; ++I)
      Shares[I] = SplitShare::equal(I, Devices);
    return Shares;
  }
  // Whole values whose sum is small are the scale itself: range:[100,300] gives device 0
  // exactly 100 of 400 iterations. Others in fixed point (the generated code multiplies the
  // trip count by the share's ends: the scale must keep that product in 64 bits).
  double Sum = std::accumulate(D.Values.begin(), D.Values.end(), 0.0);
  bool Whole = Sum <= double(1u << 31);
  for (double V : D.Values)
    Whole = Whole && V == std::floor(V);
  long long Scale = Whole ? (long long)Sum : 1ll << 20;
  double Prefix = 0;
  long long Begin = 0;
  for (unsigned I = 0; I < Devices; ++I) {
    Prefix += D.Values[I];
    long long End = I + 1 == Devices ? Scale
                    : Whole         ? (long long)Prefix
                                    : std::llround(Prefix / Sum * double(Scale));
    Shares[I] = SplitShare{Begin, End, Scale};
    Begin = End;
  }
  return Shares;
}

} // namespace jacc
