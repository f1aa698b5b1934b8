// Reading and writing the files jaccc keeps beside flang's module files (ModuleFiles.h).
#include "translate/fortran/ModuleFiles.h"

#include "support/Error.h"

#include <llvm/Support/raw_ostream.h>

namespace jacc::translate::fortran {

std::unique_ptr<llvm::MemoryBuffer> readModuleFile(const std::vector<std::string> &Dirs,
                                                   llvm::StringRef Module, llvm::StringRef Kind) {
  for (const std::string &Dir : Dirs)
    if (auto Buffer = llvm::MemoryBuffer::getFile(Dir + "/" + Module + "." + Kind))
      return std::move(*Buffer);
  return nullptr;
}

llvm::Error writeModuleFile(llvm::StringRef Dir, llvm::StringRef Module, llvm::StringRef Kind,
                            llvm::StringRef Text) {
  std::string Path = (Dir + "/" + Module + "." + Kind).str();
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return makeError(ErrorCode::InvalidArgument, "cannot write '" + Path + "': " + EC.message());
  OS << Text;
  return llvm::Error::success();
}

} // namespace jacc::translate::fortran
