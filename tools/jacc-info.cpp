// jacc-info, like nvaccelinfo: the devices jacc runs on with the current environment (kind,
// threads or SMs, memory; for GPUs the model and compute capability), whether the CUDA driver
// and NVRTC were found, the LLVM version and the host CPU the JIT targets, the kernel cache,
// and every JACC_* variable with its value and where it comes from. --json for tools.
// Exit status 0, or 1 when JACC_DEVICES cannot be satisfied (the reason is printed).
#include "jit/cache/DiskCacheConfig.h"
#include "jit/cuda/NvrtcCompiler.h"
#include "jit/host/HostCompiler.h"
#include "src/Runtime.h"
#include "src/cuda/DynamicCuda.h"
#include "support/Env.h"
#include "support/Format.h"

#include <llvm/Config/llvm-config.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
#include <string>

using namespace jacc;
namespace json = llvm::json;

namespace {

/// Bytes in the cache directory's files (0 when it does not exist).
uint64_t directoryBytes(const std::string &Dir) {
  uint64_t Bytes = 0;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (auto Status = It->status(); Status && Status->type() == llvm::sys::fs::file_type::regular_file)
      Bytes += Status->getSize();
  return Bytes;
}

/// Every device of the runtime, or the reason there are none.
json::Value devices(std::string &Why) {
  json::Array Out;
  Runtime &R = Runtime::instance();
  if (auto E = R.init()) {
    Why = llvm::toString(std::move(E));
    return Out;
  }
  auto N = R.numDevices();
  if (!N) {
    Why = llvm::toString(N.takeError());
    return Out;
  }
  for (unsigned D = 0; D < *N; ++D) {
    auto P = R.deviceProperties(D, "jacc-info");
    if (!P) {
      Why = llvm::toString(P.takeError());
      return Out;
    }
    bool Gpu = P->ComputeCapability != 0;
    json::Object O{{"index", int64_t(D)},
                   {"kind", Gpu ? "cuda" : "host"},
                   {"model", P->Model},
                   {"vendor", P->Vendor},
                   {"driver", P->Driver},
                   {Gpu ? "sms" : "threads", int64_t(P->ComputeUnits)},
                   {"memory_bytes", int64_t(P->TotalMemory)},
                   {"free_memory_bytes", int64_t(P->FreeMemory)}};
    if (Gpu)
      O["compute_capability"] = llvm::formatv("{0}.{1}", P->ComputeCapability / 10,
                                              P->ComputeCapability % 10)
                                    .str();
    Out.push_back(std::move(O));
  }
  return Out;
}

json::Object cuda() {
  json::Object O;
  auto Driver = cudaDriver();
  if (Driver)
    O["driver"] = json::Object{{"library", Driver->Library},
                               {"version", llvm::formatv("{0}.{1}", Driver->Version / 1000,
                                                         Driver->Version % 1000 / 10)
                                               .str()}};
  else
    O["driver"] = json::Object{{"library", cudaDriverPath()},
                               {"missing", llvm::toString(Driver.takeError())}};
  if (jit::nvrtcAvailable())
    O["nvrtc"] = json::Object{{"version", jit::nvrtcVersionString()}};
  else
    O["nvrtc"] = json::Object{{"missing", "libnvrtc was not found: CUDA kernels cannot be "
                                          "compiled (install the CUDA toolkit's NVRTC)"}};
  return O;
}

json::Object cache() {
  auto C = jit::diskCacheConfigFromEnv();
  if (!C)
    return json::Object{{"error", llvm::toString(C.takeError())}};
  return json::Object{{"enabled", C->Enabled},
                      {"read_only", C->ReadOnly},
                      {"directory", C->Dir},
                      {"directory_from", C->DirFrom},
                      {"bytes", int64_t(C->Dir.empty() ? 0 : directoryBytes(C->Dir))},
                      {"max_bytes", int64_t(C->MaxSize)}};
}

json::Array settings() {
  json::Array Out;
  for (env::Var V : env::allVars()) {
    llvm::StringRef Value = env::text(V);
    Out.push_back(json::Object{{"name", env::name(V)},
                               {"value", Value.empty() ? env::defaultText(V) : Value.str()},
                               {"from", Value.empty() ? "default" : "environment"}});
  }
  return Out;
}

std::string str(const json::Value *V) {
  if (!V)
    return "";
  if (auto S = V->getAsString())
    return S->str();
  if (auto I = V->getAsInteger())
    return std::to_string(*I);
  if (auto B = V->getAsBoolean())
    return *B ? "yes" : "no";
  return "";
}

void printText(const json::Object &Info, llvm::StringRef Why) {
  llvm::raw_ostream &OS = llvm::outs();
  OS << "jacc " << str(Info.get("jacc")) << " (LLVM " << str(Info.get("llvm")) << ")\n";
  OS << "Host JIT target: " << str(Info.get("host_target")) << "\n";
  const json::Object *Cuda = Info.getObject("cuda");
  for (const char *Part : {"driver", "nvrtc"}) {
    const json::Object *P = Cuda->getObject(Part);
    OS << (std::strcmp(Part, "driver") == 0 ? "CUDA driver: " : "NVRTC: ");
    if (P->get("missing"))
      OS << "not found (" << str(P->get("missing")) << ")\n";
    else
      OS << "version " << str(P->get("version"))
         << (P->get("library") ? " (" + str(P->get("library")) + ")" : "") << "\n";
  }
  const json::Array *Devs = Info.getArray("devices");
  OS << "\nDevices (JACC_DEVICES=" << str(Info.get("jacc_devices")) << "): " << Devs->size()
     << "\n";
  if (!Why.empty())
    OS << "  none: " << Why << "\n";
  for (const json::Value &D : *Devs) {
    const json::Object &O = *D.getAsObject();
    bool Gpu = str(O.get("kind")) == "cuda";
    OS << llvm::formatv("  {0,-3} {1,-5} {2}", str(O.get("index")), str(O.get("kind")),
                        str(O.get("model")));
    if (Gpu)
      OS << ", compute capability " << str(O.get("compute_capability")) << ", "
         << str(O.get("sms")) << " SMs";
    else
      OS << ", " << str(O.get("threads")) << " thread(s)";
    if (auto M = O.getInteger("memory_bytes"); M && *M > 0)
      OS << ", " << formatBytes(uint64_t(*M)) << " memory";
    if (auto F = O.getInteger("free_memory_bytes"); F && *F > 0)
      OS << " (" << formatBytes(uint64_t(*F)) << " free)";
    OS << "\n";
  }
  const json::Object *C = Info.getObject("cache");
  OS << "\nKernel cache: ";
  if (C->get("error"))
    OS << str(C->get("error")) << "\n";
  else
    OS << str(C->get("directory")) << " (from " << str(C->get("directory_from")) << "), "
       << (*C->getBoolean("enabled") ? (*C->getBoolean("read_only") ? "read-only" : "on") : "off")
       << ", " << formatBytes(uint64_t(*C->getInteger("bytes"))) << " of "
       << formatBytes(uint64_t(*C->getInteger("max_bytes"))) << "\n";
  OS << "\nSettings:\n";
  for (const json::Value &S : *Info.getArray("settings")) {
    const json::Object &O = *S.getAsObject();
    OS << llvm::formatv("  {0,-26} {1,-12} {2}\n", str(O.get("name")), str(O.get("from")),
                        str(O.get("value")));
  }
}

} // namespace

int main(int argc, char **argv) {
  bool Json = false;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    if (A == "--json") {
      Json = true;
    } else if (A == "--help" || A == "-h") {
      llvm::outs() << "usage: jacc-info [--json]\n"
                      "The devices jacc runs on with the current environment, the CUDA driver "
                      "and NVRTC,\nthe host JIT target, the kernel cache and every JACC_* "
                      "setting. Exit status 1 when\nJACC_DEVICES cannot be satisfied.\n";
      return 0;
    } else {
      llvm::errs() << "jacc-info: unknown option '" << A << "' (use --json or --help)\n";
      return 2;
    }
  }
  std::string Why;
  json::Object Info{{"jacc", JACC_VERSION},
                    {"llvm", LLVM_VERSION_STRING},
                    {"host_target", jit::hostTargetId()},
                    {"jacc_devices", env::text(env::Var::Devices).empty()
                                         ? std::string("(unset)")
                                         : env::text(env::Var::Devices).str()},
                    {"cuda", cuda()},
                    {"cache", cache()},
                    {"settings", settings()}};
  Info["devices"] = devices(Why);
  if (!Why.empty())
    Info["error"] = Why;
  if (Json)
    llvm::outs() << llvm::formatv("{0:2}", json::Value(std::move(Info))) << "\n";
  else
    printText(Info, Why);
  llvm::consumeError(Runtime::instance().finalize());
  if (!Why.empty()) {
    llvm::errs() << "jacc-info: " << Why << "\n";
    return 1;
  }
  return 0;
}
