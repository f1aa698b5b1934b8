// device_type groups on compute, combined and loop directives (analysis/DeviceTypeClauses.h),
// resolved by the parser for the devices jacc runs on: host devices and NVIDIA GPUs; on routine,
// the binding each kind of device calls.
#include "analysis/DeviceTypeClauses.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc::analysis;

namespace {

/// The clauses of the parsed text, resolved, as "name(argument)" separated by spaces; or the
/// error's message.
std::string resolved(llvm::StringRef Text) {
  auto D = parseDirective(Text, 1);
  if (!D) {
    std::string Message;
    jacc::takeError(D.takeError(), Message);
    return Message;
  }
  std::string Out;
  for (const Clause &C : D->Clauses)
    Out += (Out.empty() ? "" : " ") + C.Name + (C.HasArgument ? "(" + C.Argument + ")" : "");
  return Out;
}

TEST(DeviceTypeClausesTest, ValuesComeFromTheGpuGroupFirst) {
  EXPECT_EQ(resolved("parallel vector_length(64) device_type(nvidia) vector_length(128) "
                     "device_type(host) vector_length(4)"),
            "vector_length(128)");
  EXPECT_EQ(resolved("parallel vector_length(64) device_type(host) vector_length(4)"),
            "vector_length(64)")
      << "the host's value only for the host, which has no use for it";
  EXPECT_EQ(resolved("parallel device_type(*) num_gangs(8) device_type(host) num_gangs(2)"),
            "num_gangs(8)");
  EXPECT_EQ(resolved("parallel async dtype(radeon) num_workers(4) async(3)"), "async")
      << "another device kind's clauses are dropped (every clause after its device_type)";
  EXPECT_EQ(resolved("parallel loop present(a) device_type(nvidia) num_gangs(4) async(2) "
                     "device_type(host) async(1)"),
            "present(a) num_gangs(4) async(2)");
  EXPECT_EQ(resolved("parallel device_type(host) async(1)"), "async(1)")
      << "async for the host devices: the launch is asynchronous";
}

TEST(DeviceTypeClausesTest, ALoopIsParallelWhenAnyDeviceTypeMakesItSo) {
  EXPECT_EQ(resolved("loop device_type(nvidia) gang vector device_type(host) seq"), "gang vector");
  EXPECT_EQ(resolved("loop seq device_type(nvidia) independent"), "independent");
  EXPECT_EQ(resolved("loop device_type(host) seq"), "seq") << "no group makes it parallel";
  EXPECT_EQ(resolved("loop collapse(1) device_type(nvidia) collapse(3) device_type(host) "
                     "collapse(2)"),
            "collapse(3)")
      << "the deepest: each group asserts its loops' iterations independent";
  EXPECT_EQ(resolved("parallel loop reduction(+:s) private(t) device_type(*) gang(num:8) "
                     "tile(4,4)"),
            "reduction(+:s) private(t) gang(num:8) tile(4,4)");
  EXPECT_EQ(resolved("loop gang"), "gang") << "no device_type: unchanged";
  EXPECT_EQ(resolved("kernels loop device_type(nvidia) vector_length(32)"), "vector_length(32)");
}

TEST(DeviceTypeClausesTest, OnlyTuningClausesFollowDeviceType) {
  std::string E = resolved("parallel loop device_type(nvidia) copy(a)");
  EXPECT_NE(E.find("clause 'copy' cannot follow device_type on 'parallel loop'"), std::string::npos)
      << E;
  EXPECT_NE(E.find("column 35"), std::string::npos) << E;
  E = resolved("loop device_type(*) reduction(+:s)");
  EXPECT_NE(E.find("clause 'reduction' cannot follow device_type"), std::string::npos) << E;
  E = resolved("parallel device_type(host) collapse(2)");
  EXPECT_NE(E.find("not allowed on 'parallel'"), std::string::npos)
      << "the clause table still applies first: " << E;
  // Other directives keep their device_type clauses (init, set, update: the translator's).
  EXPECT_EQ(resolved("init device_type(nvidia)"), "device_type(nvidia)");
  EXPECT_EQ(resolved("update self(a) device_type(*) async"), "self(a) device_type(*) async");
}

/// The function devices of kind K call for the routine directive Text: the bound name, or
/// "itself"; or the parse error's message.
std::string boundFor(llvm::StringRef Text, DeviceKind K) {
  auto D = parseDirective(Text, 1);
  if (!D) {
    std::string Message;
    jacc::takeError(D.takeError(), Message);
    return Message;
  }
  const Clause *B = routineBind(*D, K);
  return B ? B->Argument : "itself";
}

TEST(DeviceTypeClausesTest, EachDeviceKindCallsItsRoutineBinding) {
  const char *PerKind = "routine(f) seq bind(any_f) device_type(nvidia) bind(gpu_f) "
                        "device_type(host) bind(host_f)";
  EXPECT_EQ(boundFor(PerKind, DeviceKind::Nvidia), "gpu_f");
  EXPECT_EQ(boundFor(PerKind, DeviceKind::Host), "host_f");
  EXPECT_EQ(boundFor("routine seq device_type(nvidia) bind(gpu_f)", DeviceKind::Host), "itself");
  EXPECT_EQ(boundFor("routine seq bind(any_f) device_type(radeon) bind(amd_f)",
                     DeviceKind::Nvidia),
            "any_f")
      << "another kind's group is ignored";
  EXPECT_EQ(boundFor("routine seq device_type(multicore) bind(cpu_f)", DeviceKind::Host), "cpu_f");
  // `*` is for the kinds no other group names, even a group without its own bind.
  const char *Star = "routine seq bind(any_f) device_type(*) bind(star_f) device_type(host) "
                     "vector";
  EXPECT_EQ(boundFor(Star, DeviceKind::Nvidia), "star_f");
  EXPECT_EQ(boundFor(Star, DeviceKind::Host), "any_f");
  EXPECT_EQ(boundFor("routine seq bind(a) bind(b)", DeviceKind::Host), "a") << "the first";
  EXPECT_EQ(boundFor("routine seq", DeviceKind::Nvidia), "itself");
}

TEST(DeviceTypeClausesTest, RoutineGroupsStayAndTakeOnlyLevelsAndBind) {
  EXPECT_EQ(resolved("routine seq device_type(nvidia) vector bind(g) device_type(host) seq"),
            "seq device_type(nvidia) vector bind(g) device_type(host) seq");
  std::string E = resolved("routine seq device_type(nvidia) nohost");
  EXPECT_NE(E.find("clause 'nohost' cannot follow device_type on 'routine'"), std::string::npos)
      << E;
}

} // namespace
