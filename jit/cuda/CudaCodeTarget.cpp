// The CUDA target: building a kernel's entries with NVRTC, and keeping them on disk.
#include "jit/cuda/CudaCodeTarget.h"

#include "jit/CompiledKernel.h"
#include "jit/cache/DiskCache.h"
#include "jit/cache/KernelStore.h"
#include "jit/cache/StoreFormat.h"
#include "jit/cuda/BlockGeometry.h"
#include "jit/cuda/CudaLaunchABI.h"
#include "support/Debug.h"
#include "support/Env.h"
#include "support/Error.h"

namespace jacc::jit {

llvm::Expected<std::vector<unsigned>> cudaVerifyArchsFromEnv() {
  llvm::StringRef Env = env::text(env::Var::CudaVerify);
  if (Env.trim() == "source")
    return std::vector<unsigned>{CudaSourceOnly};
  llvm::SmallVector<llvm::StringRef, 4> Archs;
  Env.split(Archs, ',', -1, false);
  std::vector<unsigned> Sms;
  for (llvm::StringRef A : Archs) {
    unsigned Sm = 0;
    llvm::StringRef T = A.trim();
    T.consume_front("sm_");
    if (T.getAsInteger(10, Sm))
      return env::invalid(env::Var::CudaVerify, Env, "architectures such as 75,80,90, or source");
    Sms.push_back(Sm);
  }
  return Sms;
}

std::string cudaImageStem(unsigned Sm, bool Split) {
  return "sm_" + std::to_string(Sm) + (Split ? "-split" : "");
}

std::string cudaImageArtifact(llvm::StringRef Stem, bool IsPtx) {
  return (Stem + (IsPtx ? ".ptx" : ".cubin")).str();
}

std::string cudaLaunchArtifact(llvm::StringRef Stem) {
  return (Stem + ".json").str();
}

llvm::json::Object cudaLaunchToJson(const CudaKernelSource &S) {
  llvm::json::Array Params;
  for (const CudaParam &P : S.Params)
    Params.push_back(llvm::json::Object{{"what", P.What}, {"size", P.Size}, {"align", P.Align}});
  return llvm::json::Object{{"entry", S.Entry},
                            {"params", std::move(Params)},
                            {"grid_sync", S.GridSync},
                            {"block_size", S.BlockSize},
                            {"num_gangs", S.NumGangs}};
}

llvm::Expected<CudaKernelSource> cudaLaunchFromJson(const llvm::json::Value &V) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O)
    return makeError(ErrorCode::Internal, "CUDA launch metadata is not an object");
  std::string Bad;
  diskcache::FieldReader R{*O, Bad};
  CudaKernelSource S;
  S.Entry = R.str("entry");
  S.GridSync = R.flag("grid_sync");
  S.BlockSize = R.num("block_size");
  S.NumGangs = R.num("num_gangs");
  for (const llvm::json::Value &P : R.arr("params"))
    if (const llvm::json::Object *PO = P.getAsObject()) {
      diskcache::FieldReader PR{*PO, Bad};
      S.Params.push_back({PR.str("what"), unsigned(PR.num("size")), unsigned(PR.num("align"))});
    }
  if (S.Params.empty() || S.BlockSize == 0 || S.BlockSize > 1024)
    Bad = Bad.empty() ? "params" : Bad;
  if (!Bad.empty())
    return makeError(ErrorCode::Internal,
                     "CUDA launch metadata: field '" + Bad + "' missing or bad");
  return S;
}

namespace {

class CudaCodeTarget final : public CodeTarget {
public:
  llvm::StringRef name() const override { return "cuda"; }
  std::string archName(unsigned Arch) const override { return "sm_" + std::to_string(Arch); }
  const char *part(bool Split) const override { return Split ? "cuda split" : "cuda"; }

  llvm::Expected<std::unique_ptr<DeviceCode>> build(const analysis::KernelInfo &K, unsigned Sm,
                                                    bool Split,
                                                    const Specialization *Spec) const override {
    auto C = std::make_unique<CudaCode>();
    auto Src = generateCudaSource(K, Split, Spec);
    if (!Src)
      return Src.takeError();
    C->Kernel = std::move(*Src);
    if (Sm == CudaSourceOnly)
      return C;
    if (!Spec)
      debugLog("codegen", "CUDA source (sm_" + std::to_string(Sm) + "):\n" + C->Kernel.Source);
    auto Img = compileCuda(C->Kernel.Source, Sm);
    if (!Img)
      return Img.takeError();
    C->Image = std::move(*Img);
    if (!C->Image.Log.empty())
      debugLog("codegen", "NVRTC: " + C->Image.Log);
    if (auto E = checkCudaLaunchABI(C->Kernel, C->Image.IsPtx ? C->Image.Image : C->Image.Ptx))
      return E;
    return C;
  }

  std::string stem(unsigned Sm, bool Split) const override { return cudaImageStem(Sm, Split); }

  std::unique_ptr<DeviceCode> load(const DiskSlot &Slot, const std::string &Stem) const override {
    if (!Slot.Cache)
      return nullptr;
    auto Warn = [&](const std::string &W) -> std::unique_ptr<DeviceCode> {
      if (!W.empty())
        cacheWarning("entry " + Slot.Key.substr(0, 12) + ": " + W + " (recompiling)");
      return nullptr;
    };
    std::string Warning;
    std::string MetaName = cudaLaunchArtifact(Stem);
    auto Meta = Slot.Cache->readArtifact(Slot.Key, MetaName, Warning);
    if (!Meta)
      return Warn(Warning);
    auto V = llvm::json::parse(*Meta);
    if (!V)
      return Warn(MetaName + ": " + llvm::toString(V.takeError()));
    const llvm::json::Object *O = V->getAsObject();
    const llvm::json::Value *L = O ? O->get("launch") : nullptr;
    if (!L)
      return Warn(MetaName + ": no launch metadata");
    auto Launch = cudaLaunchFromJson(*L);
    if (!Launch)
      return Warn(MetaName + ": " + llvm::toString(Launch.takeError()));
    bool IsPtx = O->getBoolean("ptx").value_or(false);
    auto Img = Slot.Cache->readArtifact(Slot.Key, cudaImageArtifact(Stem, IsPtx), Warning);
    if (!Img)
      return Warn(Warning.empty() ? Stem + ": image missing" : Warning);
    auto C = std::make_unique<CudaCode>();
    C->Kernel = std::move(*Launch);
    C->Image.Image = std::move(*Img);
    C->Image.IsPtx = IsPtx;
    C->Image.SmVersion = O->getInteger("arch").value_or(0);
    debugLog("cache", "disk hit " + Slot.Key.substr(0, 12) + " " + Stem);
    return C;
  }

  void store(const DiskSlot &Slot, const std::string &Stem, const DeviceCode &Code) const override {
    if (!Slot.Cache)
      return;
    const CudaCode &C = static_cast<const CudaCode &>(Code);
    const CudaImage &I = C.Image;
    llvm::json::Object Meta{{"launch", cudaLaunchToJson(C.Kernel)},
                            {"ptx", I.IsPtx},
                            {"arch", I.SmVersion},
                            {"compile_ms", I.CompileMs}};
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    OS << llvm::json::Value(std::move(Meta));
    OS.flush();
    // The image first: its metadata names it, so a reader never finds metadata without it.
    if (auto E = Slot.Cache->addArtifact(Slot.Key, cudaImageArtifact(Stem, I.IsPtx), I.Image))
      stopUsingDiskCache(llvm::toString(std::move(E)));
    else if (auto E = Slot.Cache->addArtifact(Slot.Key, cudaLaunchArtifact(Stem), Text))
      stopUsingDiskCache(llvm::toString(std::move(E)));
  }

  std::string cacheKeyPart() const override {
    // The block size override changes the generated code; read per key so that it may change
    // between processes sharing one cache.
    static const std::string Nvrtc = nvrtcVersionString();
    return "nvrtc " + Nvrtc + "; cuda-block:" + std::to_string(blockSizeOverride());
  }

  std::vector<std::pair<std::string, std::string>> compilers() const override {
    return {{"nvrtc", nvrtcVersionString()}};
  }

  void describe(const analysis::KernelInfo &K, llvm::json::Object &Summary) const override {
    BlockGeometry Block = cudaBlockGeometry(K);
    Summary["gpu"] = llvm::json::Object{{"traits", analysis::describeTraits(K.Traits)},
                                        {"block_size", Block.BlockSize},
                                        {"block_why", diskcache::textValue(Block.Why)}};
  }

  llvm::Expected<std::vector<unsigned>> verifyArchs() const override {
    return cudaVerifyArchsFromEnv();
  }
  llvm::StringRef verifyVariable() const override { return "JACC_CUDA_VERIFY"; }

  llvm::Error checkEnvironment() const override {
    if (auto N = blockSizeOverrideFromEnv(); !N)
      return N.takeError();
    return cudaVerifyArchsFromEnv().takeError();
  }
};

} // namespace

const CodeTarget &cudaCodeTarget() {
  static const auto *Target = new CudaCodeTarget; // never destroyed: used at exit
  return *Target;
}

llvm::Expected<const CudaCode *> cudaCodeOf(const CompiledKernel &K, unsigned Sm, bool Split) {
  auto C = K.deviceCode(cudaCodeTarget(), Sm, Split);
  if (!C)
    return C.takeError();
  return static_cast<const CudaCode *>(*C);
}

const CudaCode *cudaCodeOf(const VariantCode &V, unsigned Sm, bool Split) {
  auto It = V.Device.find({&cudaCodeTarget(), Sm, Split});
  return It == V.Device.end() ? nullptr : static_cast<const CudaCode *>(It->second.get());
}

} // namespace jacc::jit
