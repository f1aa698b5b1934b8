// Which of NVIDIA's CUDA libraries the process has loaded, from the dynamic loader's list.
#include "src/cuda/CudaLibraries.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/Path.h>

#include <link.h>

#include <mutex>
#include <optional>
#include <utility>

namespace jacc {

bool isCudaLibrary(llvm::StringRef Path) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  // The driver (libcuda.so, which jacc loads itself) is not one: it writes only what it is told.
  static constexpr llvm::StringRef Libraries[] = {
      "libcudart",     "libcublas",   "libcublasLt", "libcufft", "libcusparse",
      "libcusparseLt", "libcusolver", "libcurand",   "libnccl",  "libcudnn",
      "libcutensor",   "libnvshmem",  "libnpp",      "libnvjpeg"};
  return llvm::any_of(Libraries, [&](llvm::StringRef L) {
    return Name.starts_with(L) && (Name.size() == L.size() || !llvm::isAlpha(Name[L.size()]));
  });
}

namespace {

/// The loader's counts of objects loaded and unloaded so far (the same in every entry).
std::pair<unsigned long long, unsigned long long> loaderCounts() {
  std::pair<unsigned long long, unsigned long long> Counts;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        *static_cast<decltype(Counts) *>(Data) = {Info->dlpi_adds, Info->dlpi_subs};
        return 1;
      },
      &Counts);
  return Counts;
}

bool anyCudaLibrary() {
  bool Found = false;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        if (!Info->dlpi_name || !isCudaLibrary(Info->dlpi_name))
          return 0;
        *static_cast<bool *>(Data) = true;
        return 1;
      },
      &Found);
  return Found;
}

} // namespace

bool cudaLibraryLoaded() {
  static std::mutex M;
  static std::optional<std::pair<unsigned long long, unsigned long long>> Seen;
  static bool Loaded = false;
  std::lock_guard<std::mutex> G(M);
  // The list is walked again only when objects were loaded or unloaded since the last walk.
  auto Counts = loaderCounts();
  if (Seen != Counts) {
    Loaded = anyCudaLibrary();
    Seen = Counts;
  }
  return Loaded;
}

} // namespace jacc
