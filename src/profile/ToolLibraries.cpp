// dlopen each tool, find its acc_register_library, hand it the registration routines.
#include "src/profile/ToolLibraries.h"

#include "jacc/acc_prof.h"
#include "support/Error.h"

#include <llvm/ADT/SmallVector.h>

#include <algorithm>
#include <dlfcn.h>

// The program's own acc_register_library, if it defines one. A weak reference: libjacc.so
// referring to the routine makes the linker export a program's definition (no -rdynamic needed),
// and leaves it null otherwise.
extern "C" __attribute__((weak)) void acc_register_library(acc_prof_reg, acc_prof_reg,
                                                           acc_prof_lookup_func);

namespace jacc::prof {

namespace {

using RegisterLibrary = void (*)(acc_prof_reg, acc_prof_reg, acc_prof_lookup_func);

llvm::Error toolError(llvm::StringRef Path, const llvm::Twine &Why) {
  return makeError(ErrorCode::InvalidArgument,
                   "ACC_PROFLIB: cannot use the profiling tool '" + Path + "': " + Why +
                       "; set ACC_PROFLIB to ':'-separated paths of shared libraries that "
                       "define acc_register_library, or unset it");
}

const char *loaderReason() {
  const char *Why = dlerror();
  return Why ? Why : "unknown reason";
}

/// Whether the routine found is libgomp's: a program built with -fopenmp links GCC's OpenMP and
/// OpenACC runtime, whose acc_register_library is no tool but an unimplemented stub that ends
/// the process ("libgomp: TODO").
bool fromGccOpenAccRuntime(void *Routine) {
  Dl_info Info;
  return dladdr(Routine, &Info) && Info.dli_fname &&
         llvm::StringRef(Info.dli_fname).contains("libgomp");
}

} // namespace

llvm::Error loadToolLibraries(llvm::StringRef Paths) {
  llvm::SmallVector<RegisterLibrary, 4> Called;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Paths.split(Parts, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Path : Parts) {
    Path = Path.trim();
    if (Path.empty())
      continue;
    std::string P = Path.str();
    // Local: a tool's symbols never take the place of the program's or jacc's. Never closed:
    // its callbacks may run until the process ends.
    void *Handle = dlopen(P.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle)
      return toolError(Path, loaderReason());
    dlerror();
    auto Register = reinterpret_cast<RegisterLibrary>(dlsym(Handle, "acc_register_library"));
    if (!Register)
      return toolError(Path, llvm::Twine("it defines no acc_register_library (") +
                                 loaderReason() + ")");
    Register(acc_prof_register, acc_prof_unregister, acc_prof_lookup);
    Called.push_back(Register);
  }
  // The chapter's other way in: a program (or a library it links) defining the routine itself.
  RegisterLibrary Own = acc_register_library;
  if (Own && !fromGccOpenAccRuntime(reinterpret_cast<void *>(Own)) &&
      std::find(Called.begin(), Called.end(), Own) == Called.end())
    Own(acc_prof_register, acc_prof_unregister, acc_prof_lookup);
  return llvm::Error::success();
}

} // namespace jacc::prof
