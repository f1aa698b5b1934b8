// A known program run under JACC_PROFILE (JSON into a file), whose summary is checked against
// jacc_get_stats in the same process: the program of tests/api/ProfileTest.cpp (host devices)
// and CudaMockTest.cpp (the fake GPUs).
#ifndef JACC_TESTS_API_PROFILEDPROGRAM_H
#define JACC_TESTS_API_PROFILEDPROGRAM_H

#include "jacc/jacc.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace jacc::test {

/// Ends the child with a message when Ok is false.
inline void require(bool Ok, const std::string &What) {
  if (!Ok) {
    std::fprintf(stderr, "profile check failed: %s\n", What.c_str());
    std::exit(3);
  }
}

inline const llvm::json::Object *dataRow(const llvm::json::Object &J, llvm::StringRef Name) {
  for (const llvm::json::Value &V : *J.getArray("data"))
    if (V.getAsObject()->getString("construct") == Name)
      return V.getAsObject();
  return nullptr;
}

inline int64_t bytes(const llvm::json::Object *O, const char *Direction) {
  return O ? O->getObject(Direction)->getInteger("bytes").value_or(-1) : -1;
}

/// The program: copyin, an update inside a construct, split, duplicate and asynchronous
/// pushes, a wait, copyout; then its summary checked against the statistics.
[[noreturn]] inline void profiledProgram(const char *Devices, const std::string &File,
                                        bool CheckResults = true) {
  setenv("JACC_DEVICES", Devices, 1);
  setenv("JACC_PROFILE", File.c_str(), 1);
  jacc_finalize();
  require(jacc_init() == JACC_SUCCESS, jacc_last_error());
  int N = 10000;
  std::vector<double> Xv(N, 1.0), Yv(N, 2.0);
  double *X = Xv.data(), *Y = Yv.data();
  require(jacc_copyin(X, N * sizeof(double)) == JACC_SUCCESS, "copyin");
  require(jacc_copyin(Y, N * sizeof(double)) == JACC_SUCCESS, "copyin");
  jacc_construct_begin(JACC_CONSTRUCT_UPDATE, "profile_test.c", 20, "main");
  require(jacc_update_device(X, N * sizeof(double)) == JACC_SUCCESS, "update");
  jacc_construct_end();
  jacc_arg Args[] = {{"int n", &N}, {"const double *x", &X}, {"double *y", &Y}};
  const char *Src = "#pragma acc parallel loop present(x, y)\n"
                    "for (int i = 0; i < n; i++)\n"
                    "  y[i] = y[i] + 0.5 * x[i];\n"
                    "// jacc-site: profile_test.c:10\n";
  for (unsigned Flags : {0u + JACC_FORCE_SPLIT, 0u + JACC_FORCE_SPLIT, 0u + JACC_FORCE_DUPLICATE,
                         0u + (JACC_FORCE_SPLIT | JACC_ASYNC),
                         0u + (JACC_FORCE_DUPLICATE | JACC_ASYNC)})
    require(jacc_kernel_push(Src, 3, Args, Flags) == JACC_SUCCESS, jacc_last_error());
  require(jacc_wait() == JACC_SUCCESS, "wait");
  require(jacc_copyout(Y, N * sizeof(double)) == JACC_SUCCESS, "copyout");
  require(jacc_delete(X, N * sizeof(double)) == JACC_SUCCESS, "delete");
  require(!CheckResults || Yv[N - 1] == 2.0 + 5 * 0.5, "results");
  jacc_stats S;
  require(jacc_get_stats(&S) == JACC_SUCCESS, "stats");
  int Ndev = jacc_get_num_devices();
  require(jacc_finalize() == JACC_SUCCESS, "finalize"); // writes the summary

  auto Buf = llvm::MemoryBuffer::getFile(File);
  require(bool(Buf), "no summary in " + File);
  auto V = llvm::json::parse((*Buf)->getBuffer());
  require(bool(V), "the summary is not JSON");
  const llvm::json::Object &J = *V->getAsObject();
  const llvm::json::Object &T = *J.getObject("totals");
  require(T.getInteger("launches") == int64_t(S.kernels_pushed), "launches");
  require(T.getInteger("split") == int64_t(S.split_launches), "split launches");
  require(T.getInteger("duplicate") == int64_t(S.duplicate_launches), "duplicate launches");
  require(bytes(&T, "host_to_device") == int64_t(S.bytes_host_to_device), "host-to-device bytes");
  require(bytes(&T, "device_to_host") == int64_t(S.bytes_device_to_host), "device-to-host bytes");
  require(bytes(&T, "device_to_device") == int64_t(S.bytes_device_to_device),
          "device-to-device bytes");
  const llvm::json::Array &Compute = *J.getArray("compute");
  require(Compute.size() == 1, "one compute region");
  const llvm::json::Object &R = *Compute[0].getAsObject();
  require(R.getString("region") == "profile_test.c:10", "the region is named by its site");
  require(R.getInteger("launches") == 5 && R.getInteger("async") == 2, "region launches");
  require(R.getInteger("timed_launches") == 5, "every launch timed once finished");
  require(*R.getNumber("max_seconds") > 0, "launch times");
  require(J.getArray("devices")->size() == size_t(Ndev), "one entry per device");
  const llvm::json::Object *Update = dataRow(J, "profile_test.c:20 update");
  require(Update && Update->getInteger("count") == 1, "the update construct");
  require(bytes(Update, "host_to_device") == int64_t(N * sizeof(double)) * Ndev,
          "the update's bytes (one copy per device)");
  const llvm::json::Object *Copyin = dataRow(J, "jacc_copyin");
  require(Copyin && Copyin->getInteger("count") == 2, "two copyin calls");
  require(bytes(Copyin, "host_to_device") == int64_t(2 * N * sizeof(double)) * Ndev,
          "copyin bytes");
  require(bytes(dataRow(J, "jacc_copyout"), "device_to_host") == int64_t(N * sizeof(double)),
          "copyout gathers each element once");
  require(T.getInteger("waits") >= 1, "the wait");
  std::exit(0);
}

} // namespace jacc::test

#endif
