// Compiling with NVRTC: a CUBIN or PTX target for the GPU, the compile, and its log mapped to the
// kernel's lines with the errors first; without the toolkit, Unsupported.
#include "jit/cuda/NvrtcCompiler.h"

#include "support/Error.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/ScopeExit.h>
#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#ifdef JACC_HAVE_NVRTC
#include <nvrtc.h>
#endif

namespace jacc::jit {

namespace {

/// "name(12): rest" → "name:12: rest"; other lines unchanged.
std::string mapHeader(llvm::StringRef Line) {
  // The first "(digits): " is the location: file names here ("kernel", "<jacc>") hold none.
  for (size_t Open = Line.find('('); Open != llvm::StringRef::npos;
       Open = Line.find('(', Open + 1)) {
    llvm::StringRef After = Line.drop_front(Open + 1);
    size_t Digits = After.find_first_not_of("0123456789");
    if (Open == 0 || Digits == 0 || Digits == llvm::StringRef::npos ||
        !After.drop_front(Digits).startswith("): "))
      continue;
    return (Line.take_front(Open) + ":" + After.take_front(Digits) + ":" +
            After.drop_front(Digits + 2))
        .str();
  }
  return Line.str();
}

bool isNoise(llvm::StringRef Line) {
  if (Line.startswith("Remark: The warnings can be suppressed"))
    return true;
  // "4 errors detected in the compilation of "jacc.cu"." names only our internal file name.
  size_t Digits = Line.find_first_not_of("0123456789");
  return Digits != 0 && Digits != llvm::StringRef::npos &&
         Line.drop_front(Digits).contains(" detected in the compilation of ");
}

} // namespace

std::string mapNvrtcLog(llvm::StringRef Log) {
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Log.split(Lines, '\n');
  std::string Out;
  for (llvm::StringRef Line : Lines) {
    Line = Line.rtrim();
    if (Line.empty() || isNoise(Line))
      continue;
    if (!Out.empty())
      Out += '\n';
    // Source and caret lines are indented; only diagnostic headers start a line.
    Out += Line.front() == ' ' ? Line.str() : mapHeader(Line);
  }
  return Out;
}

llvm::Expected<CudaTarget> chooseCudaTarget(unsigned Sm, llvm::ArrayRef<unsigned> Supported) {
  if (llvm::is_contained(Supported, Sm))
    return CudaTarget{Sm, false};
  // PTX for compute_X runs on every GPU of capability X or newer, once the driver compiles it.
  unsigned Best = 0;
  for (unsigned A : Supported)
    if (A < Sm && A > Best)
      Best = A;
  if (Best)
    return CudaTarget{Best, true};
  std::string List;
  for (unsigned A : Supported)
    List += (List.empty() ? "sm_" : ", sm_") + std::to_string(A);
  if (List.empty())
    List = "none";
  return makeError(ErrorCode::Unsupported,
                   "the GPU's architecture sm_" + llvm::Twine(Sm) + " is older than every "
                   "architecture this NVRTC (" + nvrtcVersionString() + ") compiles for (" + List +
                   "): use an older CUDA toolkit or exclude the GPU from JACC_DEVICES");
}

#ifdef JACC_HAVE_NVRTC

namespace {

constexpr unsigned MaxErrorsShown = 10;

/// Whether a mapped diagnostic header is an error ("kernel:3: error: ...", "nvrtc: error: ...",
/// "... catastrophic error: ..."), judged by the severity word that comes first.
bool isErrorHeader(llvm::StringRef Line) {
  size_t Error = std::min(Line.find(": error"), Line.find(": catastrophic error"));
  size_t Other = std::min(Line.find(": warning"), Line.find(": remark"));
  return Error != llvm::StringRef::npos && Error < Other;
}

/// The message of a failed compile: the error diagnostics (header, source and caret lines) of the
/// mapped log, the first MaxErrorsShown of them; warnings only when there is no error to show.
std::string compileErrorMessage(llvm::StringRef Mapped) {
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Mapped.split(Lines, '\n');
  std::string Out;
  unsigned Errors = 0;
  bool Keep = false, Generated = false;
  for (llvm::StringRef Line : Lines) {
    if (!Line.startswith(" ")) {
      Keep = isErrorHeader(Line);
      if (Keep && ++Errors > MaxErrorsShown)
        Keep = false;
      Generated |= Keep && Line.startswith("<jacc>");
    }
    if (Keep)
      Out += (Out.empty() ? "" : "\n") + Line.str();
  }
  if (Out.empty())
    return Mapped.empty() ? "NVRTC failed without a log" : Mapped.str();
  if (Errors > MaxErrorsShown)
    Out += "\n(" + std::to_string(Errors - MaxErrorsShown) + " more errors not shown)";
  if (Generated)
    Out += "\n(errors in <jacc> lines are in code jacc generated: please report them with the "
           "JACC_DEBUG=codegen output)";
  return Out;
}

std::string programLog(nvrtcProgram Prog) {
  size_t Size = 0;
  if (nvrtcGetProgramLogSize(Prog, &Size) != NVRTC_SUCCESS || Size == 0)
    return "";
  std::string Log(Size, '\0');
  if (nvrtcGetProgramLog(Prog, Log.data()) != NVRTC_SUCCESS)
    return "";
  Log.resize(std::strlen(Log.c_str()));
  return Log;
}

/// The program's PTX or CUBIN. A PTX size counts the terminating NUL, which is dropped; a CUBIN
/// is binary ELF whose trailing zero bytes belong to it (its tables end it), so it is kept whole.
std::string programOutput(nvrtcProgram Prog, nvrtcResult (*GetSize)(nvrtcProgram, size_t *),
                          nvrtcResult (*Get)(nvrtcProgram, char *), bool IsText) {
  size_t Size = 0;
  if (GetSize(Prog, &Size) != NVRTC_SUCCESS || Size == 0)
    return "";
  std::string Out(Size, '\0');
  if (Get(Prog, Out.data()) != NVRTC_SUCCESS)
    return "";
  while (IsText && !Out.empty() && Out.back() == '\0')
    Out.pop_back();
  return Out;
}

llvm::Error nvrtcError(nvrtcResult R, llvm::StringRef What) {
  return makeError(ErrorCode::Internal, "NVRTC failed to " + What + ": " + nvrtcGetErrorString(R));
}

} // namespace

bool nvrtcAvailable() { return true; }

std::string nvrtcVersionString() {
  int Major = 0, Minor = 0;
  if (nvrtcVersion(&Major, &Minor) != NVRTC_SUCCESS)
    return "unavailable";
  return std::to_string(Major) + "." + std::to_string(Minor);
}

std::vector<unsigned> nvrtcSupportedArchs() {
  static const std::vector<unsigned> Archs = [] {
    std::vector<unsigned> Out;
    int N = 0;
    if (nvrtcGetNumSupportedArchs(&N) != NVRTC_SUCCESS || N <= 0)
      return Out;
    std::vector<int> Raw(N);
    if (nvrtcGetSupportedArchs(Raw.data()) != NVRTC_SUCCESS)
      return Out;
    Out.assign(Raw.begin(), Raw.end());
    llvm::sort(Out);
    return Out;
  }();
  return Archs;
}

llvm::Expected<CudaImage> compileCuda(llvm::StringRef Source, unsigned Sm,
                                      llvm::ArrayRef<std::string> ExtraOptions) {
  auto Target = chooseCudaTarget(Sm, nvrtcSupportedArchs());
  if (!Target)
    return Target.takeError();
  auto Start = std::chrono::steady_clock::now();

  nvrtcProgram Prog = nullptr;
  // The source carries its own #line names; "jacc.cu" shows only in NVRTC's trailer line.
  std::string Src = Source.str();
  if (nvrtcResult R = nvrtcCreateProgram(&Prog, Src.c_str(), "jacc.cu", 0, nullptr, nullptr))
    return nvrtcError(R, "create a program");
  auto Destroy = llvm::make_scope_exit([&] { nvrtcDestroyProgram(&Prog); });

  std::string Arch = std::string("--gpu-architecture=") + (Target->IsPtx ? "compute_" : "sm_") +
                     std::to_string(Target->Arch);
  std::vector<const char *> Options = {"-default-device", "-std=c++17", Arch.c_str()};
  for (const std::string &O : ExtraOptions)
    Options.push_back(O.c_str());
  nvrtcResult R = nvrtcCompileProgram(Prog, static_cast<int>(Options.size()), Options.data());
  std::string Log = mapNvrtcLog(programLog(Prog));
  if (R == NVRTC_ERROR_COMPILATION)
    return makeError(ErrorCode::Compile, compileErrorMessage(Log));
  if (R == NVRTC_ERROR_INVALID_OPTION) {
    std::string All;
    for (const char *O : Options)
      All += (All.empty() ? "" : " ") + std::string(O);
    return makeError(ErrorCode::InvalidArgument, "NVRTC rejected the compile options (" + All +
                                                     "): " + Log + " (check the extra options)");
  }
  if (R != NVRTC_SUCCESS)
    return nvrtcError(R, "compile (" + Log + ")");

  CudaImage Img;
  Img.SmVersion = Target->Arch;
  Img.IsPtx = Target->IsPtx;
  Img.Log = std::move(Log);
  Img.Ptx = programOutput(Prog, nvrtcGetPTXSize, nvrtcGetPTX, /*IsText=*/true);
  if (Img.IsPtx) {
    Img.Image = Img.Ptx;
  } else {
    Img.Image = programOutput(Prog, nvrtcGetCUBINSize, nvrtcGetCUBIN, /*IsText=*/false);
    if (Img.Image.empty())
      return makeError(ErrorCode::Internal, "NVRTC compiled for " + llvm::StringRef(Arch) +
                                                " but gave no CUBIN");
  }
  if (Img.Image.empty())
    return makeError(ErrorCode::Internal, "NVRTC compiled for " + llvm::StringRef(Arch) +
                                              " but gave no PTX");
  Img.CompileMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  return Img;
}

#else // !JACC_HAVE_NVRTC

bool nvrtcAvailable() { return false; }

std::string nvrtcVersionString() { return "unavailable"; }

std::vector<unsigned> nvrtcSupportedArchs() { return {}; }

llvm::Expected<CudaImage> compileCuda(llvm::StringRef, unsigned, llvm::ArrayRef<std::string>) {
  return makeError(ErrorCode::Unsupported,
                   "this build of jacc has no NVRTC (the CUDA toolkit was not found at configure "
                   "time: install it in /usr/local/cuda and reconfigure)");
}

#endif

} // namespace jacc::jit
