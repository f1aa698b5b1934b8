// The automatic balance: weights from measured speeds.
#include "src/launch/Balance.h"

#include "src/launch/Distribution.h"
#include "support/Debug.h"
#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <numeric>

namespace jacc {

/// Each member's median over the remembered launches (of two: their mean).
static std::vector<double> medianSpeeds(const std::vector<std::vector<double>> &Runs) {
  std::vector<double> Median(Runs.front().size());
  for (size_t D = 0; D < Median.size(); ++D) {
    std::vector<double> Of;
    for (const std::vector<double> &Run : Runs)
      Of.push_back(Run[D]);
    std::sort(Of.begin(), Of.end());
    size_t Mid = Of.size() / 2;
    Median[D] = Of.size() % 2 ? Of[Mid] : (Of[Mid - 1] + Of[Mid]) / 2;
  }
  return Median;
}

Balancer::Next Balancer::next(const void *Kernel, unsigned Devices) {
  std::vector<unsigned> All(Devices);
  std::iota(All.begin(), All.end(), 0u);
  return next(Kernel, All, Devices);
}

Balancer::Next Balancer::next(const void *Kernel, llvm::ArrayRef<unsigned> Members,
                              unsigned Devices) {
  std::lock_guard<std::mutex> L(M);
  State &S = Kernels[Kernel];
  if (llvm::ArrayRef<unsigned>(S.Members) != Members) {
    S = State();
    S.Members = Members.vec();
    S.Weights.assign(Members.size(), 1.0 / Members.size());
  }
  Distribution D;
  D.How = Distribution::Kind::Weights;
  D.Values.assign(Devices, 0.0);
  for (size_t I = 0; I < Members.size(); ++I)
    D.Values[Members[I]] = S.Weights[I];
  Next N;
  N.Shares = sharesOf(D, Devices, 0);
  N.Timed = !S.Balanced || S.Launches % RecheckEvery == 0;
  ++S.Launches;
  return N;
}

void Balancer::record(const void *Kernel, llvm::ArrayRef<int64_t> Nanos) {
  std::lock_guard<std::mutex> L(M);
  auto It = Kernels.find(Kernel);
  if (It == Kernels.end())
    return;
  State &S = It->second;
  if (llvm::any_of(S.Members, [&](unsigned D) { return D >= Nanos.size(); }))
    return; // not this launch's devices
  std::vector<int64_t> Member;
  for (unsigned D : S.Members)
    Member.push_back(Nanos[D]);
  Nanos = Member;
  if (std::any_of(Nanos.begin(), Nanos.end(), [](int64_t T) { return T <= 0; }))
    return; // a part not timed: nothing to learn
  auto [Fastest, Slowest] = std::minmax_element(Nanos.begin(), Nanos.end());
  S.Balanced = double(*Slowest) <= double(*Fastest) * (1 + Tolerance);
  std::vector<double> Speed(Nanos.size());
  for (size_t D = 0; D < Nanos.size(); ++D)
    Speed[D] = S.Weights[D] / double(Nanos[D]);
  double Total = std::accumulate(Speed.begin(), Speed.end(), 0.0);
  for (double &V : Speed)
    V /= Total;
  if (S.Speeds.size() == Remembered)
    S.Speeds.erase(S.Speeds.begin());
  S.Speeds.push_back(std::move(Speed));
  std::vector<double> Target = medianSpeeds(S.Speeds);
  Total = std::accumulate(Target.begin(), Target.end(), 0.0);
  std::string Text;
  for (size_t D = 0; D < Nanos.size(); ++D) {
    double W = (S.Weights[D] + Target[D] / Total) / 2;
    S.Weights[D] = std::max(W, MinWeight);
    Text += llvm::formatv("{0}{1:F3} ({2:F1} us)", D ? ", " : "", S.Weights[D],
                          double(Nanos[D]) / 1e3).str();
  }
  double Sum = std::accumulate(S.Weights.begin(), S.Weights.end(), 0.0);
  for (double &W : S.Weights)
    W /= Sum;
  debugLog("launch", llvm::Twine("balance: weights ") + Text + (S.Balanced ? ", balanced" : ""));
}

std::vector<double> Balancer::weights(const void *Kernel) const {
  std::lock_guard<std::mutex> L(M);
  auto It = Kernels.find(Kernel);
  return It == Kernels.end() ? std::vector<double>() : It->second.Weights;
}

void Balancer::clear() {
  std::lock_guard<std::mutex> L(M);
  Kernels.clear();
}

void Balancer::forget(const void *Kernel) {
  std::lock_guard<std::mutex> L(M);
  Kernels.erase(Kernel);
}

bool Balancer::balanced(const void *Kernel) const {
  std::lock_guard<std::mutex> L(M);
  auto It = Kernels.find(Kernel);
  return It != Kernels.end() && It->second.Balanced;
}

} // namespace jacc
