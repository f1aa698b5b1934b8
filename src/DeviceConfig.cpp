// The devices to create, parsed from JACC_DEVICES (else ACC_DEVICE_TYPE), JACC_HOST_THREADS and
// JACC_SPIN_US: host and CUDA entries, threads per host device, dealing by local rank.
#include "src/DeviceConfig.h"

#include "src/AccDeviceVars.h"
#include "src/cuda/DynamicCuda.h"
#include "src/data/ValidityMap.h"
#include "support/Debug.h"
#include "support/Env.h"
#include "support/Error.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>

#include <cstdlib>
#include <optional>
#include <set>
#include <thread>

namespace jacc {

static llvm::Expected<unsigned> parseCount(llvm::StringRef Var, llvm::StringRef Text,
                                           unsigned Max) {
  unsigned N = 0;
  if (Text.trim().getAsInteger(10, N) || N == 0 || N > Max)
    return makeError(ErrorCode::InvalidArgument,
                     Var + "='" + Text + "' is not a count between 1 and " + llvm::Twine(Max));
  return N;
}

namespace {

/// The CUDA driver's answer, asked once, the first time a list entry needs it.
class GpuCount {
public:
  explicit GpuCount(CudaCountFn Query) : Query(Query) {}
  /// The number of GPUs, or the error that explains why there is no usable driver.
  llvm::Expected<int> get() {
    if (!Asked) {
      Asked = true;
      auto N = Query();
      if (N)
        Count = *N;
      else
        Code = takeError(N.takeError(), Why);
    }
    if (Count < 0)
      return makeError(Code, Why);
    return Count;
  }

private:
  CudaCountFn Query;
  bool Asked = false;
  int Count = -1;
  ErrorCode Code = ErrorCode::Device;
  std::string Why;
};

} // namespace

/// Append the GPUs one `cuda:...` entry (Arg: what follows the colon) names.
static llvm::Error parseCuda(llvm::StringRef Devices, llvm::StringRef Entry, llvm::StringRef Arg,
                             GpuCount &Gpus, std::vector<DeviceSpec> &Out, std::set<int> &Seen) {
  auto Count = Gpus.get();
  if (!Count) {
    std::string Why;
    takeError(Count.takeError(), Why);
    return makeError(ErrorCode::Device,
                     "JACC_DEVICES='" + Devices + "' asks for CUDA GPUs, but " + Why);
  }
  llvm::SmallVector<int, 8> Ordinals;
  if (Arg.trim() == "all") {
    if (*Count == 0)
      return makeError(ErrorCode::Device,
                       "JACC_DEVICES='" + Devices +
                           "' asks for every CUDA GPU, but the CUDA driver found none; check "
                           "nvidia-smi, or use JACC_DEVICES=host");
    for (int I = 0; I < *Count; ++I)
      Ordinals.push_back(I);
  } else {
    unsigned K = 0;
    if (Arg.trim().getAsInteger(10, K))
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_DEVICES='" + Devices + "' is not valid: '" + Entry +
                           "' needs a GPU number or 'all' after 'cuda:'");
    if (K >= unsigned(*Count))
      return makeError(
          ErrorCode::InvalidArgument,
          "JACC_DEVICES='" + Devices + "' names " + Entry + ", but the CUDA driver found " +
              llvm::Twine(*Count) + " GPU(s)" +
              (*Count ? " (cuda:0 to cuda:" + llvm::Twine(*Count - 1) + ")" : llvm::Twine("")));
    Ordinals.push_back(int(K));
  }
  for (int K : Ordinals) {
    if (!Seen.insert(K).second)
      return makeError(ErrorCode::InvalidArgument, "JACC_DEVICES='" + Devices +
                                                       "' lists cuda:" + llvm::Twine(K) +
                                                       " twice; name each GPU once");
    DeviceSpec S;
    S.Kind = "cuda";
    S.Ordinal = K;
    Out.push_back(S);
  }
  return llvm::Error::success();
}

/// The devices of a `local-rank` list that rank R.Rank of R.Size takes (see parseDeviceConfig).
static std::vector<DeviceSpec> dealToRank(const std::vector<DeviceSpec> &All, const LocalRank &R) {
  std::vector<DeviceSpec> Mine;
  if (R.Size > All.size()) { // more ranks than devices: ranks share them
    Mine.push_back(All[R.Rank % All.size()]);
    return Mine;
  }
  for (size_t I = R.Rank; I < All.size(); I += R.Size)
    Mine.push_back(All[I]);
  return Mine;
}

llvm::Expected<DeviceConfig> parseDeviceConfig(llvm::StringRef Devices, llvm::StringRef HostThreads,
                                               llvm::StringRef SpinUs, unsigned Cores,
                                               CudaCountFn CudaCount, LocalRankFn LocalRankOf) {
  DeviceConfig C;
  Cores = Cores ? Cores : 1;
  GpuCount Gpus(CudaCount);
  unsigned HostDevices = 0;
  bool SizedHosts = false; // the host entries so far were `host:NxT`
  llvm::StringRef Spec = Devices.trim();
  std::optional<LocalRank> Local;
  if (Spec == "local-rank" || Spec.starts_with("local-rank:")) {
    auto R = LocalRankOf();
    if (!R) {
      std::string Why;
      ErrorCode Code = takeError(R.takeError(), Why);
      return makeError(Code, "JACC_DEVICES='" + Devices +
                                 "' deals the node's devices among its MPI ranks, but " + Why +
                                 ", or name this process's devices without 'local-rank'");
    }
    Local = std::move(*R);
    Spec = Spec.drop_front(llvm::StringRef("local-rank").size());
    Spec.consume_front(":");
    Spec = Spec.trim();
  }
  if (Spec.empty()) {
    // The default: every GPU, else the CPU.
    auto N = Gpus.get();
    if (N && *N > 0) {
      for (int K = 0; K < *N; ++K) {
        DeviceSpec S;
        S.Kind = "cuda";
        S.Ordinal = K;
        C.Devices.push_back(S);
      }
    } else {
      std::string Why = N ? "the CUDA driver found no GPU" : llvm::toString(N.takeError());
      debugLog("device", "no CUDA device (" + Why + "); using one host device");
      HostDevices = 1;
      C.Devices.push_back({"host", 1, -1});
    }
  } else {
    llvm::SmallVector<llvm::StringRef, 4> Entries;
    Spec.split(Entries, ',');
    std::set<int> SeenGpus;
    for (llvm::StringRef Entry : Entries) {
      Entry = Entry.trim();
      llvm::StringRef Arg = Entry;
      if (Entry == "host" || Arg.consume_front("host:")) {
        auto [Count, ThreadsText] = Arg.split('x');
        bool Sized = Entry != "host" && Arg.contains('x');
        if (HostDevices && (!Sized || !SizedHosts))
          return makeError(ErrorCode::InvalidArgument, "JACC_DEVICES='" + Devices +
                                                           "' lists host devices twice; use one "
                                                           "'host:N' entry, or 'host:NxT' entries "
                                                           "only (N devices of T threads)");
        unsigned N = 1, T = 0;
        if (Entry != "host") {
          auto Parsed = parseCount("JACC_DEVICES", Count, ValidityMap::MaxDevices);
          llvm::Expected<unsigned> Threads = Sized ? parseCount("JACC_DEVICES", ThreadsText, 1024)
                                                   : llvm::Expected<unsigned>(0u);
          if (!Parsed || !Threads) {
            llvm::consumeError(Parsed.takeError());
            llvm::consumeError(Threads.takeError());
            return makeError(ErrorCode::InvalidArgument,
                             "JACC_DEVICES='" + Devices +
                                 "' is not valid: use 'host', 'host:N' "
                                 "with N between 1 and " +
                                 llvm::Twine(ValidityMap::MaxDevices) +
                                 ", or 'host:NxT' (N devices of T threads, "
                                 "T between 1 and 1024)");
          }
          N = *Parsed;
          T = *Threads;
        }
        SizedHosts = Sized;
        HostDevices += N;
        for (unsigned I = 0; I < N; ++I)
          C.Devices.push_back({"host", Sized ? T : 1, -1, Sized});
      } else if (Arg.consume_front("cuda:")) {
        if (auto E = parseCuda(Devices, Entry, Arg, Gpus, C.Devices, SeenGpus))
          return E;
      } else {
        return makeError(ErrorCode::InvalidArgument,
                         "JACC_DEVICES='" + Devices + "' is not valid: " +
                             (Entry.empty() ? llvm::Twine("an entry is empty")
                                            : "'" + Entry + "' is not a device") +
                             "; use a comma-separated list of host, host:N, cuda:K and cuda:all");
      }
    }
  }
  // Each array range records its current holders in one word: the host and at most MaxDevices.
  if (C.Devices.size() > ValidityMap::MaxDevices)
    return makeError(ErrorCode::InvalidArgument,
                     "JACC_DEVICES='" + Devices + "' names " + llvm::Twine(C.Devices.size()) +
                         " devices; jacc runs at most " + llvm::Twine(ValidityMap::MaxDevices) +
                         ": list fewer");
  if (Local) {
    C.Devices = dealToRank(C.Devices, *Local);
    HostDevices = 0;
    for (const DeviceSpec &S : C.Devices)
      HostDevices += S.Kind == "host";
    // The node's cores are the ranks' to share: each process's host devices get its part.
    Cores = std::max(1u, Cores / Local->Size);
    std::string Names;
    for (const DeviceSpec &S : C.Devices)
      Names += (Names.empty() ? "" : ", ") + S.Kind +
               (S.Kind == "cuda" ? ":" + std::to_string(S.Ordinal) : "");
    debugLog("device", "local rank " + llvm::Twine(Local->Rank) + " of " +
                           llvm::Twine(Local->Size) + " (" + Local->Source + "): " + Names);
  }
  unsigned Threads = std::max(1u, Cores / std::max(1u, HostDevices));
  if (!HostThreads.trim().empty()) {
    auto N = parseCount("JACC_HOST_THREADS", HostThreads, 1024);
    if (!N)
      return N.takeError();
    Threads = *N;
  }
  // Threads divided by the runtime are lent back when the other host devices are idle; threads
  // the user sized (host:NxT, JACC_HOST_THREADS) are what each device has, always (host:2x1 is
  // the model of two one-thread GPUs).
  bool Divided = HostThreads.trim().empty() &&
                 llvm::none_of(C.Devices, [](const DeviceSpec &S) { return S.ThreadsGiven; });
  for (DeviceSpec &S : C.Devices) {
    if (S.Kind == "host" && !S.ThreadsGiven)
      S.Threads = Threads;
    S.AloneThreads = Divided ? std::max(S.Threads, Cores) : S.Threads;
  }
  if (!SpinUs.trim().empty()) {
    unsigned Us = 0;
    if (SpinUs.trim().getAsInteger(10, Us))
      return makeError(ErrorCode::InvalidArgument,
                       "JACC_SPIN_US='" + SpinUs + "' is not a number of microseconds");
    C.SpinTime = std::chrono::microseconds(Us);
  }
  return C;
}

llvm::Error applySlowdown(DeviceConfig &C, llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 4> Entries;
  Text.split(Entries, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Entry : Entries) {
    auto [Index, Factor] = Entry.trim().split(':');
    unsigned D = 0;
    double F = 0;
    if (Index.trim().getAsInteger(10, D) || Factor.trim().getAsDouble(F) || F < 1 ||
        D >= C.Devices.size() || C.Devices[D].Kind != "host")
      return env::invalid(env::Var::TestSlowdown, Text,
                          "D:F entries, host device D's runs taking F >= 1 times as long");
    C.Devices[D].Slowdown = F;
  }
  return llvm::Error::success();
}

llvm::Expected<DeviceConfig> deviceConfigFromEnv() {
  // OpenACC's variables choose the devices when JACC_DEVICES does not, and the current device.
  AccDeviceVars Acc{env::text(env::Var::AccDeviceType), env::text(env::Var::AccDeviceNum)};
  std::string Devices = env::text(env::Var::Devices).str();
  bool FromAcc = Devices.empty();
  if (FromAcc) {
    auto Spec = accDevicesSpec(Acc, [] { return cudaDeviceCount(); });
    if (!Spec)
      return Spec.takeError();
    Devices = *Spec;
  }
  auto C = parseDeviceConfig(Devices, env::text(env::Var::HostThreads),
                             env::text(env::Var::SpinUs), std::thread::hardware_concurrency(),
                             [] { return cudaDeviceCount(); }, [] { return localRankFromEnv(); });
  if (!C)
    return C;
  if (auto E = applySlowdown(*C, env::text(env::Var::TestSlowdown)))
    return E;
  if (!FromAcc) {
    auto Current = accCurrentDevice(Acc, C->Devices);
    if (!Current)
      return Current.takeError();
    C->CurrentDevice = *Current;
  }
  return C;
}

} // namespace jacc
