// Tests of the host compiler: C source to an ELF relocatable object that the JIT links and runs,
// Compile errors with clang's diagnostics, and the host target identity used in cache keys.
#include "jit/host/HostCompiler.h"

#include "jit/host/HostJIT.h"
#include "support/Error.h"

#include <llvm/TargetParser/Host.h>

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace jacc;
using namespace jacc::jit;

namespace {

HostObject compile(llvm::StringRef Code, llvm::StringRef KernelSource = "") {
  auto Obj = compileHostObjectInProcess(Code, KernelSource);
  if (!Obj) {
    ADD_FAILURE() << llvm::toString(Obj.takeError());
    return {};
  }
  return std::move(*Obj);
}

/// Link Obj and return the address of Symbol (nullptr on failure, reported). The code stays
/// loaded until the test program ends.
void *load(const HostObject &Obj, const std::string &Symbol) {
  static std::vector<std::shared_ptr<const void>> Kept;
  auto Fns = loadHostObject(Obj.Bytes, std::vector<std::string>{Symbol});
  if (!Fns) {
    ADD_FAILURE() << llvm::toString(Fns.takeError());
    return nullptr;
  }
  if (Fns->Symbols.size() != 1) {
    ADD_FAILURE() << "loadHostObject gave " << Fns->Symbols.size() << " addresses for one symbol";
    return nullptr;
  }
  Kept.push_back(Fns->Code);
  return Fns->Symbols.front();
}

TEST(HostCompilerTest, ProducesAnELFRelocatableObject) {
  HostObject Obj = compile("int jacc_test_add(int a, int b) { return a + b; }\n");
  ASSERT_GT(Obj.Bytes.size(), 64u);
  EXPECT_EQ(std::memcmp(Obj.Bytes.data(),
                        "\x7f"
                        "ELF",
                        4),
            0);
  EXPECT_EQ(Obj.Bytes[4], 2); // ELFCLASS64
  EXPECT_EQ(Obj.Bytes[5], 1); // little endian
  // e_type: ET_REL (1), a relocatable object, not an executable or a shared library.
  EXPECT_EQ(static_cast<unsigned char>(Obj.Bytes[16]) | (static_cast<unsigned>(Obj.Bytes[17]) << 8),
            1u);
  // The function's name is in the symbol table.
  std::string Bytes(Obj.Bytes.begin(), Obj.Bytes.end());
  EXPECT_NE(Bytes.find("jacc_test_add"), std::string::npos);
  // Without JACC_DEBUG=ir no IR text is kept.
  EXPECT_TRUE(Obj.OptimizedIR.empty());
}

TEST(HostCompilerTest, ObjectLinksAndRuns) {
  HostObject Obj = compile("int jacc_test_mul_add(int a, int b, int c) { return a * b + c; }\n");
  auto *Fn = reinterpret_cast<int (*)(int, int, int)>(load(Obj, "jacc_test_mul_add"));
  ASSERT_NE(Fn, nullptr);
  EXPECT_EQ(Fn(6, 7, -2), 40);
}

TEST(HostCompilerTest, SeveralSymbolsOfOneObject) {
  HostObject Obj = compile("int jacc_test_one(void) { return 1; }\n"
                           "int jacc_test_two(void) { return 2; }\n");
  auto Fns = loadHostObject(Obj.Bytes, std::vector<std::string>{"jacc_test_two", "jacc_test_one"});
  ASSERT_TRUE(static_cast<bool>(Fns)) << llvm::toString(Fns.takeError());
  ASSERT_EQ(Fns->Symbols.size(), 2u);
  EXPECT_EQ(reinterpret_cast<int (*)()>(Fns->Symbols[0])(), 2);
  EXPECT_EQ(reinterpret_cast<int (*)()>(Fns->Symbols[1])(), 1);
  // A symbol the object does not define is an error, and leaves nothing loaded.
  size_t Before = loadedHostObjects();
  auto Missing = loadHostObject(Obj.Bytes, std::vector<std::string>{"jacc_test_three"});
  EXPECT_FALSE(static_cast<bool>(Missing));
  llvm::consumeError(Missing.takeError());
  EXPECT_EQ(loadedHostObjects(), Before);
}

TEST(HostCompilerTest, CodeIsRemovedWhenItsLastHolderLetsItGo) {
  HostObject Obj = compile("int jacc_test_seven(void) { return 7; }\n");
  size_t Before = loadedHostObjects();
  auto First = loadHostObject(Obj.Bytes, std::vector<std::string>{"jacc_test_seven"});
  ASSERT_TRUE(static_cast<bool>(First)) << llvm::toString(First.takeError());
  std::shared_ptr<const void> Holder = First->Code;
  EXPECT_EQ(loadedHostObjects(), Before + 1);
  First->Code.reset();
  EXPECT_EQ(loadedHostObjects(), Before + 1) << "a holder is left";
  EXPECT_EQ(reinterpret_cast<int (*)()>(First->Symbols[0])(), 7);
  Holder.reset();
  EXPECT_EQ(loadedHostObjects(), Before);
  // The same object loads again, as often as asked, each copy its own.
  for (int I = 0; I < 3; ++I) {
    auto Again = loadHostObject(Obj.Bytes, std::vector<std::string>{"jacc_test_seven"});
    ASSERT_TRUE(static_cast<bool>(Again)) << llvm::toString(Again.takeError());
    EXPECT_EQ(reinterpret_cast<int (*)()>(Again->Symbols[0])(), 7);
  }
  EXPECT_EQ(loadedHostObjects(), Before);
}

TEST(HostCompilerTest, CompilesGnuC99WithLibm) {
  // Kernels are GNU C99 and may call libm; the JIT resolves sqrt in the process.
  const char *Code = "#include <math.h>\n"
                     "double jacc_test_norm(const double *v, int n) {\n"
                     "  double s = 0;\n"
                     "  for (int i = 0; i < n; i++) s += v[i] * v[i];\n"
                     "  return sqrt(s);\n"
                     "}\n";
  HostObject Obj = compile(Code);
  auto *Fn = reinterpret_cast<double (*)(const double *, int)>(load(Obj, "jacc_test_norm"));
  ASSERT_NE(Fn, nullptr);
  const double V[3] = {2, 3, 6};
  EXPECT_EQ(Fn(V, 3), 7.0);
}

TEST(HostCompilerTest, LeadingSystemIncludesOfTheKernelSource) {
  // With the kernel source given, its leading system includes may come from a precompiled
  // header: the object must be the same function.
  const char *Kernel = "#include <math.h>\n#include <stdlib.h>\n";
  std::string Code = std::string(Kernel) +
                     "double jacc_test_hyp(double a, double b) { return hypot(a, b) + abs(-1); }\n";
  for (int Round = 0; Round < 2; ++Round) {
    HostObject Obj = compile(Code, Kernel);
    auto *Fn = reinterpret_cast<double (*)(double, double)>(load(Obj, "jacc_test_hyp"));
    ASSERT_NE(Fn, nullptr);
    EXPECT_EQ(Fn(3, 4), 6.0) << "round " << Round;
  }
}

TEST(HostCompilerTest, SyntaxErrorIsACompileError) {
  auto Obj = compileHostObjectInProcess("int jacc_test_bad(int a) { return a + ; }\n");
  ASSERT_FALSE(static_cast<bool>(Obj));
  std::string Msg;
  EXPECT_EQ(takeError(Obj.takeError(), Msg), ErrorCode::Compile);
  EXPECT_EQ(Msg.rfind("host code generation failed (please report this with JACC_DEBUG=codegen "
                      "output):\n",
                      0),
            0u)
      << Msg;
  EXPECT_NE(Msg.find("error: expected expression"), std::string::npos) << Msg;
}

TEST(HostCompilerTest, UndeclaredIdentifierIsACompileError) {
  auto Obj = compileHostObjectInProcess("int jacc_test_undef(void) { return nope; }\n");
  ASSERT_FALSE(static_cast<bool>(Obj));
  std::string Msg;
  EXPECT_EQ(takeError(Obj.takeError(), Msg), ErrorCode::Compile);
  EXPECT_NE(Msg.find("use of undeclared identifier 'nope'"), std::string::npos) << Msg;
}

TEST(HostCompilerTest, CompilerIsUsableAfterAnError) {
  auto Bad = compileHostObjectInProcess("void f( {");
  ASSERT_FALSE(static_cast<bool>(Bad));
  llvm::consumeError(Bad.takeError());
  HostObject Obj = compile("int jacc_test_after(void) { return 42; }\n");
  auto *Fn = reinterpret_cast<int (*)()>(load(Obj, "jacc_test_after"));
  ASSERT_NE(Fn, nullptr);
  EXPECT_EQ(Fn(), 42);
}

TEST(HostCompilerTest, HostTargetId) {
  std::string Id = hostTargetId();
  ASSERT_FALSE(Id.empty());
  EXPECT_EQ(hostTargetId(), Id); // stable within the process
  // "<triple> <cpu> +feature..." with the features sorted.
  std::string Prefix = llvm::sys::getProcessTriple() + " " + llvm::sys::getHostCPUName().str();
  EXPECT_EQ(Id.rfind(Prefix, 0), 0u) << Id;
  llvm::SmallVector<llvm::StringRef, 0> Words;
  llvm::StringRef(Id).split(Words, ' ');
  ASSERT_GE(Words.size(), 2u);
  for (size_t I = 2; I < Words.size(); ++I) {
    EXPECT_TRUE(Words[I].startswith("+")) << Words[I].str();
    if (I > 2) {
      EXPECT_LT(Words[I - 1], Words[I]) << "features not sorted: " << Id;
    }
  }
}

} // namespace
