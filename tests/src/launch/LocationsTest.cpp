// The location hierarchy (src/launch/Locations.h): the configuration file, binding to devices,
// changes at run time, and the shares of a launch targeting a location.
#include "src/launch/Locations.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace jacc {
namespace {

/// The paper's Figure 4 (four GPUs and two CPU sockets) on a machine of host devices: the two
/// sockets and the four "GPUs" are host devices 0-1 and 2-5.
const char *Figure4 = R"(# Gecko's Figure 4 with host devices
location LocA   memory
location LocB   virtual
location LocN   virtual
location LocN1  host
location LocN2  host        # the second socket
location LocG   virtual
location LocGs  host all    # every other host device: the "GPUs"
hierarchy LocA + LocB
hierarchy LocN + LocN1, LocN2
hierarchy LocG + LocGs
hierarchy LocB + LocG
)";

/// The device kinds the tests' configurations may name (the runtime passes its backends').
const llvm::StringRef DeviceKinds[] = {"host", "cuda"};

LocationTree parsed(const char *Text, unsigned HostDevices) {
  auto T = LocationTree::parse(Text, "test.conf", DeviceKinds);
  EXPECT_TRUE(bool(T)) << llvm::toString(T.takeError());
  if (!T)
    return *LocationTree::parse("location L virtual", "x", DeviceKinds);
  std::vector<std::string> Kinds(HostDevices, "host");
  llvm::Error E = T->bind(Kinds);
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return std::move(*T);
}

/// The shares as "begin/end/scale" per device, or the error's message.
std::string shares(const LocationTree &T, llvm::StringRef Name, const char *Policy,
                   unsigned Devices, std::vector<uint64_t> Pending = {}) {
  auto D = parseDistribution(Policy);
  if (!D)
    return llvm::toString(D.takeError());
  if (Pending.empty())
    Pending.assign(Devices, 0);
  auto S = T.sharesOf(Name, *D, Devices, Pending);
  if (!S)
    return llvm::toString(S.takeError());
  std::string Out;
  for (const SplitShare &Sh : *S) {
    // Reduced to the fraction of the iterations, as a percentage with one decimal.
    double F = double(Sh.End - Sh.Begin) / double(Sh.Scale);
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "%s%.1f", Out.empty() ? "" : " ", F * 100);
    Out += Buf;
  }
  return Out;
}

std::string parseError(const char *Text) {
  auto T = LocationTree::parse(Text, "bad.conf", DeviceKinds);
  if (T)
    return "parsed";
  return llvm::toString(T.takeError());
}

TEST(LocationsTest, Figure4ParsesAndBindsToHostDevices) {
  LocationTree T = parsed(Figure4, 6);
  EXPECT_EQ(T.root(), "LocA");
  EXPECT_EQ(T.describe(), "LocA(memory) { LocB(virtual) { LocG(virtual) { LocGs(host: device 2 3 "
                          "4 5) } } }; LocN(virtual) { LocN1(host: device 0) LocN2(host: device "
                          "1) }");
  EXPECT_EQ(T.devicesUnder("LocB"), (std::vector<unsigned>{2, 3, 4, 5}));
  EXPECT_EQ(T.devicesUnder("LocN"), (std::vector<unsigned>{0, 1}));
  EXPECT_TRUE(T.devicesUnder("LocA") == T.devicesUnder("LocB")) << "LocN is not under the root";
}

TEST(LocationsTest, EveryPolicySharesTheTargetsDevicesOnly) {
  LocationTree T = parsed(Figure4, 6);
  EXPECT_EQ(shares(T, "LocB", "static", 6), "0.0 0.0 25.0 25.0 25.0 25.0");
  EXPECT_EQ(shares(T, "LocN", "flatten", 6), "50.0 50.0 0.0 0.0 0.0 0.0");
  EXPECT_EQ(shares(T, "LocB", "percentage:[10,20,30,40]", 6), "0.0 0.0 10.0 20.0 30.0 40.0");
  EXPECT_EQ(shares(T, "LocN", "range:[100,300]", 6), "25.0 75.0 0.0 0.0 0.0 0.0");
  EXPECT_EQ(shares(T, "LocN", "weights:[1,3]", 6), "25.0 75.0 0.0 0.0 0.0 0.0");
  EXPECT_EQ(shares(T, "LocB", "any", 6, {0, 0, 3, 1, 2, 5}), "0.0 0.0 0.0 100.0 0.0 0.0")
      << "the least busy device under the target, not device 0 or 1";
  // Bad: values not one per device under the target; auto.
  std::string Message = shares(T, "LocN", "weights:[1,2,3]", 6);
  EXPECT_NE(Message.find("location 'LocN' has 2 device(s)"), std::string::npos) << Message;
  Message = shares(T, "LocB", "auto", 6);
  EXPECT_NE(Message.find("cannot target location 'LocB'"), std::string::npos) << Message;
  Message = shares(T, "LocZ", "static", 6);
  EXPECT_NE(Message.find("no location is named 'LocZ'"), std::string::npos) << Message;
}

// Static is even over the children, recursively (Gecko), flatten over the leaves.
TEST(LocationsTest, StaticIsEvenOverChildrenFlattenOverLeaves) {
  LocationTree T = parsed(R"(
location Top virtual
location One host
location Pair virtual
location P1 host
location P2 host
hierarchy Top + One, Pair
hierarchy Pair + P1, P2
)",
                          3);
  EXPECT_EQ(shares(T, "Top", "static", 3), "50.0 25.0 25.0");
  EXPECT_EQ(shares(T, "Top", "flatten", 3), "33.3 33.3 33.3");
  // A virtual child without devices takes no part.
  ASSERT_FALSE(bool(T.addVirtual("Empty")));
  ASSERT_FALSE(bool(T.addChild("Top", "Empty")));
  EXPECT_EQ(shares(T, "Top", "static", 3), "50.0 25.0 25.0");
  std::string Message = shares(T, "Empty", "static", 3);
  EXPECT_NE(Message.find("'Empty' has no device under it"), std::string::npos) << Message;
}

// Gecko's dynamic hierarchy: a virtual handle whose sub-tree changes at run time.
TEST(LocationsTest, ChildrenChangeAtRunTime) {
  LocationTree T = parsed(Figure4, 6);
  ASSERT_FALSE(bool(T.addVirtual("LocV")));
  ASSERT_FALSE(bool(T.addChild("LocV", "LocN")));
  EXPECT_EQ(T.devicesUnder("LocV"), (std::vector<unsigned>{0, 1}));
  ASSERT_FALSE(bool(T.addChild("LocV", "LocG"))) << "moved from LocB";
  EXPECT_EQ(T.devicesUnder("LocV"), (std::vector<unsigned>{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(T.devicesUnder("LocB").empty());
  EXPECT_EQ(shares(T, "LocV", "static", 6), "25.0 25.0 12.5 12.5 12.5 12.5");
  ASSERT_FALSE(bool(T.removeChild("LocV", "LocN")));
  EXPECT_EQ(T.devicesUnder("LocV"), (std::vector<unsigned>{2, 3, 4, 5}));
  // Bad changes: a cycle, a child under a device, unknown names, a child of another parent.
  auto Why = [](llvm::Error E) { return E ? llvm::toString(std::move(E)) : "accepted"; };
  EXPECT_NE(Why(T.addChild("LocG", "LocV")).find("would make a cycle"), std::string::npos);
  EXPECT_NE(Why(T.addChild("LocN1", "LocB")).find("devices have no children"), std::string::npos);
  EXPECT_NE(Why(T.addChild("LocV", "Nowhere")).find("no location is named 'Nowhere'"),
            std::string::npos);
  EXPECT_NE(Why(T.removeChild("LocV", "LocN1")).find("not a child of 'LocV'"), std::string::npos);
  EXPECT_NE(Why(T.addVirtual("LocV")).find("exists already"), std::string::npos);
  EXPECT_EQ(T.devicesUnder("LocV"), (std::vector<unsigned>{2, 3, 4, 5})) << "unchanged";
}

TEST(LocationsTest, BadFilesNameTheLineAndTheReason) {
  EXPECT_EQ(parseError("location A virtual\nlocation A host\n"),
            "bad.conf:2: location 'A' is declared twice");
  EXPECT_NE(
      parseError("location A gpu")
          .find("bad.conf:1: 'gpu' is not a location kind: use memory, host, cuda or virtual"),
      std::string::npos);
  // A device kind is whatever the runtime's backends are named.
  const llvm::StringRef Other[] = {"host", "gpu"};
  auto Gpu = LocationTree::parse("location G gpu all", "gpu.conf", Other);
  ASSERT_TRUE(bool(Gpu)) << llvm::toString(Gpu.takeError());
  ASSERT_FALSE(bool(Gpu->bind({"host", "gpu", "gpu"})));
  EXPECT_EQ(Gpu->devicesUnder("G"), (std::vector<unsigned>{1, 2}));
  EXPECT_NE(parseError("\n\nlocation A virtual all").find("bad.conf:3: 'all' covers"),
            std::string::npos);
  EXPECT_NE(parseError("location A virtual\nhierarchy A + B")
                .find("bad.conf:2: no location is "
                      "named 'B'"),
            std::string::npos);
  EXPECT_NE(parseError("location A virtual\nhierarchy A * A")
                .find("bad.conf:2: 'hierarchy' "
                      "takes"),
            std::string::npos);
  EXPECT_NE(parseError("place A host").find("bad.conf:1: 'place' is not a statement"),
            std::string::npos);
  EXPECT_NE(parseError("# nothing\n").find("no location is declared"), std::string::npos);
  EXPECT_NE(parseError("location A host extra").find("only 'all' may follow"), std::string::npos);
  // Too few devices for the file's device locations.
  auto T = LocationTree::parse(Figure4, "fig4.conf", DeviceKinds);
  ASSERT_TRUE(bool(T));
  llvm::Error E = T->bind({"host"});
  ASSERT_TRUE(bool(E));
  std::string Message = llvm::toString(std::move(E));
  EXPECT_NE(Message.find("2 host location(s) and the runtime 1 host device(s): give "
                         "JACC_DEVICES as many (e.g. host:2)"),
            std::string::npos)
      << Message;
}

} // namespace
} // namespace jacc
