// JACC_DEVICES=local-rank:...: the local rank and size from each MPI launcher's variables (fake
// environments), and how the listed devices and the node's cores are dealt among the ranks.
#include "src/DeviceConfig.h"
#include "src/LocalRank.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace jacc;
using env::Var;

namespace {

using FakeEnv = std::map<Var, std::string>;

llvm::Expected<LocalRank> rankOf(const FakeEnv &E) {
  return localRankFrom([&](Var V) -> const char * {
    auto I = E.find(V);
    return I == E.end() ? nullptr : I->second.c_str();
  });
}

/// Open MPI's variables for rank R of N.
FakeEnv ompi(unsigned R, unsigned N) {
  return {{Var::OmpiLocalRank, std::to_string(R)}, {Var::OmpiLocalSize, std::to_string(N)}};
}

/// JACC_DEVICES=Devices on a node of Cores cores and Gpus GPUs, in the environment E.
llvm::Expected<DeviceConfig> parseIn(llvm::StringRef Devices, const FakeEnv &E, unsigned Cores,
                                     int Gpus, llvm::StringRef HostThreads = "") {
  return parseDeviceConfig(
      Devices, HostThreads, "", Cores,
      [&]() -> llvm::Expected<int> {
        if (Gpus < 0)
          return makeError(ErrorCode::Device, "no CUDA driver");
        return Gpus;
      },
      [&] { return rankOf(E); });
}

/// The devices as "host/4" (threads) and "cuda:2", in order.
std::vector<std::string> devicesOf(llvm::Expected<DeviceConfig> C) {
  std::vector<std::string> Out;
  if (!C) {
    ADD_FAILURE() << llvm::toString(C.takeError());
    return Out;
  }
  for (const DeviceSpec &S : C->Devices)
    Out.push_back(S.Kind == "cuda" ? "cuda:" + std::to_string(S.Ordinal)
                                   : "host/" + std::to_string(S.Threads));
  return Out;
}

std::string errorOf(llvm::Expected<DeviceConfig> C) {
  if (C) {
    ADD_FAILURE() << "parsed but should not";
    return "";
  }
  std::string Msg;
  EXPECT_EQ(takeError(C.takeError(), Msg), ErrorCode::InvalidArgument) << Msg;
  return Msg;
}

using Names = std::vector<std::string>;

TEST(LocalRankTest, EachLaunchersVariables) {
  auto R = rankOf(ompi(1, 4));
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Rank, 1u);
  EXPECT_EQ(R->Size, 4u);
  EXPECT_EQ(R->Source, "OMPI_COMM_WORLD_LOCAL_RANK=1, OMPI_COMM_WORLD_LOCAL_SIZE=4");
  R = rankOf({{Var::MpichLocalRank, "2"}, {Var::MpichLocalSize, "3"}});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Rank, 2u);
  EXPECT_EQ(R->Size, 3u);
  R = rankOf({{Var::SlurmLocalId, " 0 "}, {Var::SlurmTasksPerNode, "2"}});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Rank, 0u);
  EXPECT_EQ(R->Size, 2u);
  // Open MPI's first (an mpirun inside a Slurm allocation sets both), then MPICH's.
  FakeEnv Both = ompi(3, 4);
  Both[Var::SlurmLocalId] = "0";
  Both[Var::SlurmTasksPerNode] = "1";
  R = rankOf(Both);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Rank, 3u);
  // An empty rank variable is unset.
  R = rankOf({{Var::OmpiLocalRank, ""}, {Var::MpichLocalRank, "1"}, {Var::MpichLocalSize, "2"}});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Rank, 1u);
}

TEST(LocalRankTest, LauncherErrorsNameTheVariables) {
  std::string Msg;
  takeError(rankOf({}).takeError(), Msg);
  EXPECT_EQ(Msg, "no launcher variable gives this process's local rank "
                 "(OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID or SLURM_LOCALID); start it with "
                 "mpirun or srun");
  takeError(rankOf({{Var::SlurmLocalId, "1"}}).takeError(), Msg);
  EXPECT_EQ(Msg, "SLURM_LOCALID is set but SLURM_NTASKS_PER_NODE is not: the number of ranks on "
                 "the node is needed to deal its devices (srun --ntasks-per-node=N)");
  for (FakeEnv Bad : {ompi(2, 2), ompi(0, 0),
                      FakeEnv{{Var::OmpiLocalRank, "x"}, {Var::OmpiLocalSize, "2"}},
                      FakeEnv{{Var::OmpiLocalRank, "-1"}, {Var::OmpiLocalSize, "2"}}}) {
    EXPECT_EQ(takeError(rankOf(Bad).takeError(), Msg), ErrorCode::InvalidArgument);
    EXPECT_NE(Msg.find("OMPI_COMM_WORLD_LOCAL_SIZE="), std::string::npos) << Msg;
    EXPECT_NE(Msg.find("is not a local rank: both must be numbers, the rank below the size"),
              std::string::npos)
        << Msg;
  }
}

TEST(LocalRankTest, GpusAreDealtRoundRobin) {
  EXPECT_EQ(devicesOf(parseIn("local-rank:cuda:all", ompi(0, 2), 8, 4)),
            (Names{"cuda:0", "cuda:2"}));
  EXPECT_EQ(devicesOf(parseIn("local-rank:cuda:all", ompi(1, 2), 8, 4)),
            (Names{"cuda:1", "cuda:3"}));
  EXPECT_EQ(devicesOf(parseIn("local-rank:cuda:all", ompi(3, 4), 8, 4)), (Names{"cuda:3"}));
  // The list's order, not the GPU numbers, is dealt.
  EXPECT_EQ(devicesOf(parseIn("local-rank: cuda:3,cuda:1", ompi(0, 2), 8, 4)),
            (Names{"cuda:3"}));
  // More ranks than GPUs: they share, rank r on entry r % count.
  EXPECT_EQ(devicesOf(parseIn("local-rank:cuda:all", ompi(2, 3), 8, 2)), (Names{"cuda:0"}));
  EXPECT_EQ(devicesOf(parseIn("local-rank:cuda:all", ompi(5, 6), 8, 2)), (Names{"cuda:1"}));
  // One rank takes everything.
  EXPECT_EQ(devicesOf(parseIn("local-rank:cuda:all", ompi(0, 1), 8, 3)),
            (Names{"cuda:0", "cuda:1", "cuda:2"}));
}

TEST(LocalRankTest, TheCoresAreDividedAmongTheRanks) {
  // host:2 over two ranks: one host device each, with half the node's cores.
  EXPECT_EQ(devicesOf(parseIn("local-rank:host:2", ompi(1, 2), 8, -1)), (Names{"host/4"}));
  // host:4 over two ranks: two each, a quarter of the cores each.
  EXPECT_EQ(devicesOf(parseIn("local-rank:host:4", ompi(0, 2), 8, -1)),
            (Names{"host/2", "host/2"}));
  // More ranks than host devices: each rank still has its own (they are threads of the
  // process), with its share of the cores; at least one thread.
  EXPECT_EQ(devicesOf(parseIn("local-rank:host", ompi(2, 4), 8, -1)), (Names{"host/2"}));
  EXPECT_EQ(devicesOf(parseIn("local-rank:host", ompi(2, 4), 2, -1)), (Names{"host/1"}));
  // Given thread counts stay; JACC_HOST_THREADS still overrides the division.
  EXPECT_EQ(devicesOf(parseIn("local-rank:host:1x3,host:1x1", ompi(0, 2), 8, -1)),
            (Names{"host/3"}));
  EXPECT_EQ(devicesOf(parseIn("local-rank:host:2", ompi(0, 2), 8, -1, "6")), (Names{"host/6"}));
}

TEST(LocalRankTest, PlainLocalRankDealsTheDefault) {
  // Every GPU, else one host device per rank.
  EXPECT_EQ(devicesOf(parseIn("local-rank", ompi(1, 2), 8, 2)), (Names{"cuda:1"}));
  EXPECT_EQ(devicesOf(parseIn(" local-rank: ", ompi(1, 2), 8, 2)), (Names{"cuda:1"}));
  EXPECT_EQ(devicesOf(parseIn("local-rank", ompi(1, 2), 8, -1)), (Names{"host/4"}));
  EXPECT_EQ(devicesOf(parseIn("local-rank", ompi(1, 2), 8, 0)), (Names{"host/4"}));
}

TEST(LocalRankTest, WithoutLocalRankTheLaunchersAreNotRead) {
  // Nonsense in the launcher's variables matters only to local-rank.
  FakeEnv Garbage = {{Var::OmpiLocalRank, "x"}};
  EXPECT_EQ(devicesOf(parseIn("host:2", Garbage, 8, -1)), (Names{"host/4", "host/4"}));
  EXPECT_EQ(devicesOf(parseIn("host:2", {}, 8, -1)), (Names{"host/4", "host/4"}));
}

TEST(LocalRankTest, ErrorsNameTheValueAndTheFix) {
  EXPECT_EQ(errorOf(parseIn("local-rank:cuda:all", {}, 8, 2)),
            "JACC_DEVICES='local-rank:cuda:all' deals the node's devices among its MPI ranks, but "
            "no launcher variable gives this process's local rank (OMPI_COMM_WORLD_LOCAL_RANK, "
            "MPI_LOCALRANKID or SLURM_LOCALID); start it with mpirun or srun, or name this "
            "process's devices without 'local-rank'");
  EXPECT_NE(errorOf(parseIn("local-rank:host:2", ompi(2, 2), 8, -1))
                .find("OMPI_COMM_WORLD_LOCAL_RANK=2, OMPI_COMM_WORLD_LOCAL_SIZE=2 is not a local "
                      "rank"),
            std::string::npos);
  // The list's own errors are the usual ones.
  EXPECT_NE(errorOf(parseIn("local-rank:gpu", ompi(0, 1), 8, -1))
                .find("JACC_DEVICES='local-rank:gpu' is not valid: 'gpu' is not a device"),
            std::string::npos);
  // Only the keyword, not a device named like it.
  EXPECT_NE(errorOf(parseIn("local-ranks", ompi(0, 1), 8, -1)).find("'local-ranks' is not a device"),
            std::string::npos);
}

} // namespace
