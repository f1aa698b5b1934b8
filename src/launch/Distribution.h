// How a split launch divides its work between the devices: Gecko's execution policies (static,
// flatten, percentage, range, any) and the Multi-Device Controllers' weights, from JACC_POLICY,
// jacc_set_policy or a kernel's `#pragma jacc policy(...)`.
#ifndef JACC_SRC_LAUNCH_DISTRIBUTION_H
#define JACC_SRC_LAUNCH_DISTRIBUTION_H

#include "src/launch/KernelLaunch.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <memory>
#include <string>
#include <vector>

namespace jacc {

class Device;

/// A parsed policy. Static and flatten are equal shares (the same on a flat list of devices:
/// they differ once devices form a hierarchy); percentage, range and weights give device d the
/// part Values[d] / sum(Values) of the iterations (range: iteration counts, exact when they add
/// up to the loop's); any gives all of it to one idle device; auto learns each kernel's shares
/// (src/launch/Balance.h).
struct Distribution {
  enum class Kind { Static, Flatten, Percentage, Range, Weights, Any, Auto };
  Kind How = Kind::Static;
  std::vector<double> Values; ///< percentage, range, weights: one per device
  std::string Text;           ///< as written, for messages

  /// Whether it is the default even split (the adaptive chooser decides the mode).
  bool even() const { return How == Kind::Static || How == Kind::Flatten; }
};

/// Parses "static", "flatten", "any", "percentage:[25,75]", "range:[100,300]",
/// "weights:[1,3]". InvalidArgument naming the policy, what is wrong and the accepted forms.
llvm::Expected<Distribution> parseDistribution(llvm::StringRef Text);

/// Whether D fits Devices: one value per device. InvalidArgument naming the policy and the
/// devices otherwise.
llvm::Error checkDistribution(const Distribution &D,
                              llvm::ArrayRef<std::unique_ptr<Device>> Devices);

/// Each device's share under D (checked against as many devices). Any: Idle's whole share, an
/// empty one for the others.
std::vector<SplitShare> sharesOf(const Distribution &D, unsigned Devices, unsigned Idle);

} // namespace jacc

#endif
