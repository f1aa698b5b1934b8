// Tests of perf's map of JIT'd code: once enabled, each loaded object's entry and the other
// functions of its section get a line "START SIZE NAME" at their loaded addresses.
#include "jit/host/PerfMap.h"

#include "jit/host/HostCompiler.h"
#include "jit/host/HostJIT.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace jacc::jit;

namespace {

struct Line {
  uintptr_t Start = 0;
  uint64_t Size = 0;
  std::string Name;
};

std::vector<Line> readMap() {
  std::ifstream In(perfMapPath());
  std::vector<Line> Lines;
  std::string Text;
  while (std::getline(In, Text)) {
    std::istringstream S(Text);
    Line L;
    S >> std::hex >> L.Start >> L.Size;
    std::getline(S >> std::ws, L.Name);
    Lines.push_back(L);
  }
  return Lines;
}

const Line *find(const std::vector<Line> &Lines, const std::string &Name) {
  for (const Line &L : Lines)
    if (L.Name == Name)
      return &L;
  return nullptr;
}

TEST(PerfMapTest, NamesTheEntryAndTheHelpersOfItsSection) {
  const char *Code = "__attribute__((noinline)) static int perf_helper(int x) { return x * 3; }\n"
                     "int perf_entry(int x) { return perf_helper(x) + 1; }\n";
  auto Obj = compileHostObjectInProcess(Code, "");
  ASSERT_TRUE(bool(Obj)) << llvm::toString(Obj.takeError());
  // Before the map is enabled nothing is written.
  auto Before = loadHostObject(Obj->Bytes, std::vector<std::string>{"perf_entry"}, "jacc:early");
  ASSERT_TRUE(bool(Before)) << llvm::toString(Before.takeError());
  ASSERT_FALSE(llvm::errorToBool(enablePerfMap()));
  auto Fns = loadHostObject(Obj->Bytes, std::vector<std::string>{"perf_entry"},
                            "jacc:perf-test.c:7");
  ASSERT_TRUE(bool(Fns)) << llvm::toString(Fns.takeError());
  auto Entry = reinterpret_cast<int (*)(int)>(Fns->Symbols.front());
  EXPECT_EQ(Entry(4), 13);

  std::vector<Line> Lines = readMap();
  EXPECT_EQ(find(Lines, "jacc:early"), nullptr);
  const Line *E = find(Lines, "jacc:perf-test.c:7");
  ASSERT_NE(E, nullptr) << "no line for the entry in " << perfMapPath();
  EXPECT_EQ(E->Start, reinterpret_cast<uintptr_t>(Fns->Symbols.front()));
  EXPECT_GT(E->Size, 0u);
  const Line *H = find(Lines, "jacc:perf-test.c:7:perf_helper");
  ASSERT_NE(H, nullptr) << "the static helper is named after its entry";
  EXPECT_GT(H->Size, 0u);
  EXPECT_TRUE(H->Start + H->Size <= E->Start || E->Start + E->Size <= H->Start)
      << "two functions of one section do not overlap";
  // The helper's code is where the map says: called there, it triples.
  auto Helper = reinterpret_cast<int (*)(int)>(H->Start);
  EXPECT_EQ(Helper(5), 15);
  std::remove(perfMapPath().c_str());
}

} // namespace
