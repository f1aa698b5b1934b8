// What the benchmark drivers share: failing fast on a jacc error, timing steps with the bytes they
// move between devices, and a console reporter that remembers each benchmark's time so that the
// driver can print the ratios the targets use.
#ifndef JACC_TESTS_BENCH_BENCHSUPPORT_H
#define JACC_TESTS_BENCH_BENCHSUPPORT_H

#include "jacc/jacc.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

inline void check(jacc_status S, const char *What) {
  if (S != JACC_SUCCESS) {
    std::fprintf(stderr, "%s failed: %s\n", What, jacc_last_error());
    std::exit(1);
  }
}

/// Bytes of a vector's elements.
template <typename T> size_t bytesOf(const std::vector<T> &V) { return V.size() * sizeof(T); }

/// Runs Step once to warm up, then once per benchmark iteration, counting the bytes moved
/// between devices per step.
template <typename F> void timeSteps(benchmark::State &State, F Step) {
  Step();
  jacc_reset_stats();
  uint64_t Steps = 0;
  for (auto _ : State) {
    Step();
    ++Steps;
  }
  jacc_stats St;
  check(jacc_get_stats(&St), "stats");
  State.counters["d2d_bytes_per_step"] = double(St.bytes_device_to_device) / double(Steps);
}

/// Real time per iteration (ns) of each benchmark by function name (the median when repeated).
class RatioReporter : public benchmark::ConsoleReporter {
public:
  std::map<std::string, double> Ns;
  void ReportRuns(const std::vector<Run> &Runs) override {
    for (const Run &R : Runs)
      if (R.run_type == Run::RT_Iteration || R.aggregate_name == "median")
        Ns[R.run_name.function_name] = R.GetAdjustedRealTime() /
                                       benchmark::GetTimeUnitMultiplier(R.time_unit) * 1e9;
    ConsoleReporter::ReportRuns(Runs);
  }
  bool has(const char *Name) const { return Ns.count(Name) != 0; }
  /// Time of Base over time of Other (how much faster Other is), or -1 if one did not run.
  double ratio(const char *Base, const char *Other) const {
    return has(Base) && has(Other) ? Ns.at(Base) / Ns.at(Other) : -1.0;
  }
};

#endif
