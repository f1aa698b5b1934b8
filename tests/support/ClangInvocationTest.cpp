// Tests of the compiler instances jacc builds (support/ClangInvocation.h): each frees what its
// compile allocated, as a long-lived process (the compile server, an application compiling in
// process) needs.
#include "support/ClangInvocation.h"

#include <clang/Frontend/CompilerInstance.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

namespace jacc {
namespace {

// The driver passes -disable-free (a compiler process ends after one file): kept, every host
// compile left its target machine behind, ~400 KB a kernel in the compile server.
TEST(ClangInvocationTest, EveryInstanceFreesItsStateWhenItEnds) {
  for (ClangPurpose P : {ClangPurpose::Analysis, ClangPurpose::HostCodegen, ClangPurpose::Program,
                         ClangPurpose::ProgramCxx}) {
    std::string Diags;
    llvm::raw_string_ostream DiagOS(Diags);
    auto CI = makeCompilerInstance(P, "int f(void) { return 1; }\n", "f.c", DiagOS);
    ASSERT_TRUE(static_cast<bool>(CI)) << llvm::toString(CI.takeError());
    EXPECT_FALSE((*CI)->getFrontendOpts().DisableFree) << int(P);
    EXPECT_FALSE((*CI)->getCodeGenOpts().DisableFree) << int(P);
  }
}

} // namespace
} // namespace jacc
