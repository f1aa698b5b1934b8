// Gecko's location hierarchy (seed 000): named locations (host memory, host devices,
// CUDA devices, virtual ones standing for their sub-trees) in a tree read from JACC_CONFIG
// and changed at run time. A kernel targets a location: its iterations go to the devices
// under it only, shared by the policy over that sub-tree (static: even over the children,
// recursively; flatten: even over the leaves; the listed policies: one value per leaf).
// Pure logic: which runtime device each device location stands for is given to bind().
#ifndef JACC_SRC_LAUNCH_LOCATIONS_H
#define JACC_SRC_LAUNCH_LOCATIONS_H

#include "src/launch/Distribution.h"
#include "src/launch/KernelLaunch.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

namespace jacc {

class LocationTree {
public:
  /// A location is a memory, a device of one of the runtime's device kinds, or virtual.
  enum class Kind { Memory, Device, Virtual };

  /// Parses a configuration (Name: the file, for messages; DeviceKinds: the device kinds there
  /// are, as JACC_DEVICES names them). Lines, `#` starting a comment:
  ///   location <name> <memory|virtual|device kind> [all]
  ///   hierarchy <parent> <+|-> <child>[,<child>...]
  /// `all` (device locations): the location stands for every device of its kind not bound to
  /// another location. InvalidArgument "<Name>:<line>: <reason>" for a bad line.
  static llvm::Expected<LocationTree> parse(llvm::StringRef Text, llvm::StringRef Name,
                                            llvm::ArrayRef<llvm::StringRef> DeviceKinds);

  /// Binds the device locations, in the order written, to the runtime's devices of their kind
  /// (Kinds[I]: device I's, as JACC_DEVICES names it): one each, `all` takes the rest.
  /// InvalidArgument when the devices are too few, naming both counts and JACC_DEVICES.
  llvm::Error bind(llvm::ArrayRef<std::string> Kinds);

  /// Adds a virtual location (a handle that kernels may target before it has children).
  llvm::Error addVirtual(llvm::StringRef Name);
  /// Makes Child a child of Parent (moving it from its parent, if any). Rejects unknown names,
  /// a cycle, and children under a device location.
  llvm::Error addChild(llvm::StringRef Parent, llvm::StringRef Child);
  /// Removes Child from Parent's children (Child stays known, without a parent).
  llvm::Error removeChild(llvm::StringRef Parent, llvm::StringRef Child);

  /// Whether Name is a location.
  bool has(llvm::StringRef Name) const { return find(Name).has_value(); }
  /// The location kernels target by default: the first written without a parent.
  std::string root() const;
  /// The runtime's devices under Name, in tree order (a device under two branches once).
  std::vector<unsigned> devicesUnder(llvm::StringRef Name) const;
  /// Each of NumDevices devices' share of a split launch targeting Name under D (Idle: the
  /// device `any` chooses, among those under Name). Devices outside Name get none.
  /// InvalidArgument when D's values are not one per device under Name, or none is.
  llvm::Expected<std::vector<SplitShare>> sharesOf(llvm::StringRef Name, const Distribution &D,
                                                   unsigned NumDevices,
                                                   llvm::ArrayRef<uint64_t> Pending) const;
  /// Whether D fits the devices under Name: one value per device when it lists values.
  llvm::Error checkPolicy(const Distribution &D, llvm::StringRef Name) const;
  /// "LocA(memory) { LocB(virtual) { host0(host: device 0) } }", for messages and jacc-info.
  std::string describe() const;

private:
  struct Location {
    std::string Name;
    Kind K = Kind::Virtual;
    std::string DeviceKind; ///< a device location's kind ("host")
    bool All = false;
    std::optional<unsigned> Parent;
    std::vector<unsigned> Children;
    std::vector<unsigned> Devices; ///< bound devices (device locations)
  };
  std::optional<unsigned> find(llvm::StringRef Name) const;
  llvm::Expected<unsigned> lookup(llvm::StringRef Name) const;
  /// Both locations' indices, or the error naming the first unknown one.
  llvm::Expected<std::pair<unsigned, unsigned>> lookupPair(llvm::StringRef Parent,
                                                           llvm::StringRef Child) const;
  /// Each device's weight under location L, when L gets Weight (static: split evenly among the
  /// children that have devices).
  void staticWeights(unsigned L, double Weight, std::vector<double> &Out) const;
  void collect(unsigned L, std::vector<unsigned> &Out) const;

  std::vector<Location> Locs;
  /// The device kinds the configuration may name, in the order devices are bound.
  std::vector<std::string> DeviceKinds;
};

} // namespace jacc

#endif
