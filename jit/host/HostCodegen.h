// Host code generation: a KernelInfo becomes C source for one entry function that each thread of a
// host device's team calls with its jacc_host_team (see HostABI.h).
#ifndef JACC_JIT_HOST_HOSTCODEGEN_H
#define JACC_JIT_HOST_HOSTCODEGEN_H

#include "analysis/Kernel.h"
#include "jit/EntryCodegen.h"

#include <string>

namespace jacc::jit {

/// How the host's entries differ from other targets' (see EntryTarget): a team of threads, each
/// taking a contiguous part of the flattened iterations, struct arguments by address.
const EntryTarget &hostEntryTarget();

/// The C source of the host kernel: the kernel's leading declarations, then
/// `void __jacc_entry(<params in ArgInfo::Param order>, const jacc_host_team *)` running the
/// construct with its parallel nests' iterations divided among the team.
/// With Split, the split entry instead (compiled on demand, the first time a kernel runs split).
/// With Spec (checked by checkSpecialization), the variant folding its values (generateEntry):
/// same entry name and parameters.
std::string generateHostSource(const analysis::KernelInfo &K, bool Split = false,
                               const Specialization *Spec = nullptr);

} // namespace jacc::jit

#endif
