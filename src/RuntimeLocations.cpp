// Gecko's locations in the runtime: JACC_CONFIG's hierarchy bound to the devices,
// the API that changes it and chooses the location kernels target and the location new data
// lives at, and the shares of a launch on that location.
#include "src/Runtime.h"

#include "src/DeviceRegistry.h"

#include "support/Error.h"
#include "support/ExitSafeThreadLocal.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <numeric>

namespace jacc {

namespace {

/// Each device's kind, as locations name it ("host").
std::vector<std::string> deviceKinds(const std::vector<std::unique_ptr<Device>> &Devices) {
  std::vector<std::string> Kinds;
  for (const auto &D : Devices)
    Kinds.push_back(D->kind());
  return Kinds;
}

/// The devices of a list, as a set.
HolderSet setOf(const std::vector<unsigned> &Devices) {
  HolderSet S = 0;
  for (unsigned D : Devices)
    S |= ValidityMap::device(D);
  return S;
}

/// This thread's data locations (jacc_data_location_begin), innermost last; "" for every
/// device. Once exit() destroyed them (support/ExitSafeThreadLocal.h) the thread has none.
using DataScopes = ExitSafeThreadLocal<std::vector<std::string>, struct DataScopesTag>;
/// The innermost, or null without one.
const std::string *innermostDataScope() {
  std::vector<std::string> *Names = DataScopes::get();
  return !Names || Names->empty() ? nullptr : &Names->back();
}

/// Whether Shares are the equal split over all of them.
bool evenOverAll(const std::vector<SplitShare> &Shares) {
  long long N = Shares.size();
  for (const SplitShare &S : Shares)
    if ((S.End - S.Begin) * N != S.Scale)
      return false;
  return true;
}

/// A location file describes a machine's devices in a few lines; anything far larger is not one.
constexpr uint64_t MaxLocationFileBytes = 1 << 20;

} // namespace

llvm::Expected<std::optional<LocationTree>>
Runtime::readLocations(const std::string &File, const std::vector<std::unique_ptr<Device>> &Devs) {
  if (File.empty())
    return std::nullopt;
  // Only a regular file of a location file's size: a device (/dev/zero) would be read until the
  // memory runs out, a FIFO would block the program's start.
  llvm::sys::fs::file_status St;
  bool Known = !llvm::sys::fs::status(File, St);
  if (Known && St.type() != llvm::sys::fs::file_type::regular_file)
    return makeError(ErrorCode::InvalidArgument, "JACC_CONFIG='" + File +
                                                     "' is not a regular file: give the path "
                                                     "of a location file");
  if (Known && St.getSize() > MaxLocationFileBytes)
    return makeError(ErrorCode::InvalidArgument,
                     "JACC_CONFIG='" + File + "' holds " + std::to_string(St.getSize()) +
                         " bytes; a location file is at most " +
                         std::to_string(MaxLocationFileBytes) + ": give the path of one");
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buffer)
    return makeError(ErrorCode::InvalidArgument, "JACC_CONFIG='" + File + "': cannot read it (" +
                                                     Buffer.getError().message() +
                                                     "): give the path of a location file");
  auto T = LocationTree::parse((*Buffer)->getBuffer(), File, deviceKindNames());
  if (!T)
    return prefixError("JACC_CONFIG", T.takeError());
  if (auto E = T->bind(deviceKinds(Devs)))
    return prefixError("JACC_CONFIG " + File, std::move(E));
  return std::move(*T);
}

LocationTree &Runtime::locations() {
  if (Locations)
    return *Locations;
  std::string Text = "location devices virtual\n";
  for (const auto &D : Devices) {
    Text += "location " + D->name() + " " + D->kind() + "\nhierarchy devices + " + D->name() + "\n";
  }
  auto T = LocationTree::parse(Text, "<devices>", deviceKindNames());
  cantFail(T.takeError());
  cantFail(T->bind(deviceKinds(Devices)));
  Target = T->root();
  Locations = std::move(*T);
  HasLocations = true;
  return *Locations;
}

llvm::Expected<std::string> Runtime::existingLocation(const char *Name) {
  LocationTree &T = locations();
  std::string New = Name ? Name : "";
  if (!New.empty() && !T.has(New))
    return makeError(ErrorCode::InvalidArgument,
                     "no location is named '" + New + "' (the hierarchy: " + T.describe() + ")");
  return New;
}

llvm::Error Runtime::chooseLocation(const char *Name, const char *Api,
                                    llvm::function_ref<void(std::string)> Choose) {
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> G(LocationMutex);
  auto New = existingLocation(Name);
  if (!New)
    return prefixError(Api, New.takeError());
  Choose(std::move(*New));
  return llvm::Error::success();
}

llvm::Error Runtime::setLocation(const char *Name) {
  return chooseLocation(Name, "jacc_set_location", [&](std::string New) {
    Target = New.empty() ? Locations->root() : std::move(New);
  });
}

llvm::Error Runtime::setDataLocation(const char *Name) {
  return chooseLocation(Name, "jacc_set_data_location",
                        [&](std::string New) { DataTarget = std::move(New); });
}

llvm::Error Runtime::beginDataLocation(const char *Name) {
  return chooseLocation(Name, "jacc_data_location_begin", [](std::string New) {
    if (std::vector<std::string> *Names = DataScopes::get())
      Names->push_back(std::move(New));
  });
}

llvm::Error Runtime::endDataLocation() {
  if (!innermostDataScope())
    return makeError(ErrorCode::InvalidArgument,
                     "jacc_data_location_end: this thread has no jacc_data_location_begin to "
                     "end; call them in pairs");
  DataScopes::get()->pop_back();
  return llvm::Error::success();
}

llvm::Expected<std::optional<DataPlacement>> Runtime::dataPlacement(const char *Api) {
  std::lock_guard<std::mutex> G(LocationMutex);
  const std::string *Scope = innermostDataScope();
  const std::string &Name = Scope ? *Scope : DataTarget;
  if (Name.empty())
    return std::nullopt;
  // A thread's scope may name a location of a runtime finalized since.
  LocationTree &T = locations();
  if (!T.has(Name))
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": the data location '" + Name +
                         "' no longer exists (the hierarchy: " + T.describe() +
                         "); choose it again (jacc_set_data_location, or "
                         "jacc_data_location_end and _begin on this thread)");
  HolderSet Under = setOf(T.devicesUnder(Name));
  if (!Under)
    return makeError(ErrorCode::InvalidArgument,
                     llvm::Twine(Api) + ": location '" + Name +
                         "', where new data is to live, has no device under it: add one with "
                         "jacc_location_add_child, or choose another with "
                         "jacc_set_data_location");
  return DataPlacement{Name, Under};
}

llvm::Expected<Runtime::TargetDevices>
Runtime::targetDevices(const std::optional<std::string> &Location) {
  if (!HasLocations.load(std::memory_order_relaxed) && !Location)
    return TargetDevices{"", ValidityMap::devices(Devices.size())};
  std::lock_guard<std::mutex> G(LocationMutex);
  auto At = targetOf(Location);
  if (!At)
    return At.takeError();
  return TargetDevices{*At, setOf(Locations->devicesUnder(*At))};
}

llvm::Error Runtime::addLocation(const char *Name) {
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> G(LocationMutex);
  return prefixError("jacc_location_add", locations().addVirtual(Name ? Name : ""));
}

llvm::Error Runtime::changeLocationChild(const char *Parent, const char *Child, bool Add) {
  auto L = acquire();
  if (!L)
    return L.takeError();
  std::lock_guard<std::mutex> G(LocationMutex);
  LocationTree &T = locations();
  llvm::StringRef P = Parent ? Parent : "", C = Child ? Child : "";
  return prefixError(Add ? "jacc_location_add_child" : "jacc_location_remove_child",
                     Add ? T.addChild(P, C) : T.removeChild(P, C));
}

llvm::Expected<std::string> Runtime::targetOf(const std::optional<std::string> &Location) {
  if (!Location)
    return Target;
  LocationTree &T = locations();
  if (!T.has(*Location))
    return makeError(ErrorCode::InvalidArgument, "no location is named '" + *Location +
                                                     "' (the hierarchy: " + T.describe() + ")");
  return *Location;
}

llvm::Error Runtime::checkPolicy(const Distribution &D, const std::optional<std::string> &Location) {
  if (!HasLocations && !Location)
    return checkDistribution(D, Devices);
  std::lock_guard<std::mutex> G(LocationMutex);
  auto At = targetOf(Location);
  if (!At)
    return At.takeError();
  return Locations->checkPolicy(D, *At);
}

llvm::Expected<std::optional<std::vector<SplitShare>>>
Runtime::targetShares(const Distribution *D, const std::optional<std::string> &Location) {
  if (!HasLocations.load(std::memory_order_relaxed) && !Location)
    return std::nullopt;
  std::lock_guard<std::mutex> G(LocationMutex);
  auto At = targetOf(Location);
  if (!At)
    return At.takeError();
  if (D && D->How == Distribution::Kind::Auto)
    return std::nullopt; // the balance shares the work of the target's devices (balanceOver)
  std::vector<uint64_t> Pending;
  if (D && D->How == Distribution::Kind::Any)
    for (const auto &Dev : Devices)
      Pending.push_back(Dev->pending());
  Distribution Static;
  auto S = Locations->sharesOf(*At, D ? *D : Static, Devices.size(), Pending);
  if (!S)
    return S.takeError();
  if (!D && evenOverAll(*S))
    return std::nullopt; // the default even split: the adaptive chooser keeps its say
  return std::move(*S);
}

llvm::Expected<std::vector<unsigned>>
Runtime::balanceOver(const std::optional<std::string> &Location) {
  std::vector<unsigned> All(Devices.size());
  std::iota(All.begin(), All.end(), 0u);
  if (!HasLocations.load(std::memory_order_relaxed) && !Location)
    return All;
  std::lock_guard<std::mutex> G(LocationMutex);
  auto At = targetOf(Location);
  if (!At)
    return At.takeError();
  std::vector<unsigned> Under = Locations->devicesUnder(*At);
  if (Under.empty())
    return makeError(ErrorCode::InvalidArgument,
                     "policy 'auto': location '" + *At +
                         "' has no device under it; add one with jacc_location_add_child");
  return Under;
}

} // namespace jacc
