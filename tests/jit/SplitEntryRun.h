// Running a compiled kernel's host split entry by hand, as device D of N devices would: the
// split and read information it reports (tests of the entry's code and of its read probe).
#ifndef JACC_TESTS_JIT_SPLITENTRYRUN_H
#define JACC_TESTS_JIT_SPLITENTRYRUN_H

#include "jit/CompiledKernel.h"
#include "jit/ReadProbe.h"
#include "jit/host/HostABI.h"

#include <gtest/gtest.h>

#include <vector>

namespace jacc_test {

/// What one run of a split entry reported.
struct SplitEntryRun {
  std::vector<long long> SplitInfo, ReadInfo;
};

/// Run the split entry of K as device D of N, one thread, its arguments' values ByPosition (in
/// the user's order), every split array mapped as [0, MappedBytes) from its pointer; as a read
/// probe (which runs no iteration) when Probe.
inline SplitEntryRun runSplitEntry(const jacc::jit::CompiledKernel &K,
                                   const std::vector<const void *> &ByPosition,
                                   long long MappedBytes, int D, int N, bool Probe) {
  SplitEntryRun R;
  R.SplitInfo.assign(JACC_SPLIT_INFO_WORDS * K.Info.Split.Plan.Arrays.size(), 0);
  R.ReadInfo.assign(jacc::jit::readInfoWords(K.Info), -7);
  jacc_host_team T{};
  T.nthreads = 1;
  T.barrier = [](void *) {};
  T.share_begin = D;
  T.share_end = D + 1;
  T.share_scale = N;
  T.narrow = 1;
  T.split_info = R.SplitInfo.data();
  T.read_info = Probe ? R.ReadInfo.data() : nullptr;
  const jacc_host_team *TP = &T;
  // Parameters by ArgInfo::Param, then each split array's mapping, then the team.
  std::vector<void *> Values(K.Info.Args.size());
  for (const jacc::analysis::ArgInfo &A : K.Info.Args)
    Values[A.Param] = const_cast<void *>(ByPosition[A.Position]);
  long long MLo = 0, MHi = MappedBytes;
  for (size_t I = 0; I < K.Info.Split.Plan.Arrays.size(); ++I) {
    Values.push_back(&MLo);
    Values.push_back(&MHi);
  }
  Values.push_back(&TP);
  auto Split = K.splitCode();
  EXPECT_TRUE(bool(Split)) << llvm::toString(Split.takeError());
  if (Split)
    (*Split)->Call->call((*Split)->Entry, Values.data());
  return R;
}

} // namespace jacc_test

#endif
