// Tests of the jacc-cache command-line tool: the built binary (JACC_CACHE_TOOL) run as a child
// process against a scratch cache directory filled through the DiskCache API, its exit status,
// stdout (text and --json) and stderr checked.
#include "jit/cache/DiskCache.h"

#include "tests/ScopedEnv.h"
#include "tests/tools/RunTool.h"

#include <gtest/gtest.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/xxhash.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef JACC_CACHE_TOOL
#error "JACC_CACHE_TOOL must name the jacc-cache binary (tests/meson.build)"
#endif


using namespace jacc;
using namespace jacc::jit;
namespace json = llvm::json;

namespace {

const char *const Commands[] = {"list",   "show",  "stats", "zero-stats", "prune",
                                "clear",  "verify", "path", "config"};

using jacc_test::Outcome;
using jacc_test::readWhole;

void writeWhole(const std::string &Path, llvm::StringRef Bytes) {
  std::ofstream(Path, std::ios::binary | std::ios::trunc) << Bytes.str();
}

int64_t now() { return static_cast<int64_t>(std::time(nullptr)); }

/// "2025-11-19T": the local date of T as the tool prints it (ISO-8601).
std::string localDate(int64_t T) {
  std::time_t TT = static_cast<std::time_t>(T);
  std::tm Tm{};
  localtime_r(&TT, &Tm);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT", &Tm);
  return Buf;
}

/// A 64-digit key starting with Prefix.
std::string makeKey(llvm::StringRef Prefix, unsigned Seed) {
  std::string K = Prefix.str();
  for (unsigned I = 0; K.size() < 64; ++I)
    K += llvm::utohexstr(llvm::xxHash64(std::to_string(Seed * 131 + I)), /*LowerCase=*/true);
  return K.substr(0, 64);
}

/// A summary as the runtime stores it (jit/cache/KernelSummary.cpp), split or not.
json::Object summary(llvm::StringRef Array, bool Split) {
  std::string Loop = "for (int i = 0; i < n; i++) " + Array.str() + "[i] = a * x[i] + " +
                     Array.str() + "[i];";
  json::Array Arrays, Predicates;
  if (Split) {
    Arrays.push_back(json::Object{{"name", Array}, {"dim", 0}, {"affine", true}});
    Predicates.push_back("kernel:2: " + Array.str() + "[i] = a * x[i] + " + Array.str() +
                         "[i];  when i in [" + Array.str() + "__lb, " + Array.str() + "__ub]");
  }
  return json::Object{
      {"name", "for (int i = 0; i < n; i++)"},
      {"target", "x86_64-unknown-linux-gnu skylake +avx2,+fma,+sse4.2"},
      {"source", "#pragma acc parallel loop present(x, " + Array.str() + ")\n" + Loop + "\n"},
      {"decls", json::Array{"int n", "float a", "const float *x", "float *" + Array.str()}},
      {"rewritten", Split ? "#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n  if (i >= " +
                                Array.str() + "__lb && i <= " + Array.str() + "__ub) REWRITTEN;\n"
                          : ""},
      {"split", json::Object{{"enabled", Split},
                             {"fallback", Split ? "" : "a reduction writes the array"},
                             {"arrays", std::move(Arrays)},
                             {"narrowable", Split},
                             {"predicates", std::move(Predicates)}}},
      {"gpu", json::Object{{"traits", "coalescing full (3 of 3 accesses unit-stride or uniform)"},
                           {"block_size", 512},
                           {"block_why", "coalesced streaming: bandwidth-bound, few registers"}}},
      {"compilers",
       json::Object{{"llvm", "16.0.6"}, {"nvrtc", "13.0"}, {"jacc", "0.1.0"}, {"format", 1}}},
      {"analysis_ms", 3.1},
      {"compile_ms", 25.3},
      {"kernel", json::Object{{"args", json::Array{}}, {"serial", false}}}};
}

/// Artifact bytes: an ELF-looking object of Size bytes.
std::string objectBytes(size_t Size, char Fill) {
  std::string B = "\x7f"
                  "ELF";
  B.resize(Size, Fill);
  return B;
}

json::Value parseJson(const std::string &Text) {
  llvm::Expected<json::Value> V = json::parse(Text);
  if (!V) {
    ADD_FAILURE() << "not JSON: " << llvm::toString(V.takeError()) << "\n" << Text;
    return nullptr;
  }
  return std::move(*V);
}

class JaccCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-cache-tool-test", D));
    Scratch = D.str().str();
    Dir = Scratch + "/cache";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Scratch); }

  /// Run jacc-cache with Args (the environment as set with setenv), stdout and stderr captured.
  Outcome tool(std::vector<std::string> Args) {
    return jacc_test::runTool(JACC_CACHE_TOOL, std::move(Args), Scratch);
  }
  /// jacc-cache --dir Dir Args...
  Outcome inCache(std::vector<std::string> Args) {
    Args.insert(Args.begin(), {"--dir", Dir});
    return tool(std::move(Args));
  }

  DiskCache cache(uint64_t MaxSize = 1ull << 30) {
    llvm::Expected<DiskCache> C = DiskCache::open(Dir, MaxSize);
    if (!C)
      ADD_FAILURE() << llvm::toString(C.takeError());
    return std::move(*C);
  }
  /// Store an entry with a host object of ObjectSize bytes (and a GPU image when Gpu).
  void store(const std::string &Key, json::Object Summary, size_t ObjectSize = 20000,
             bool Gpu = true) {
    std::map<std::string, std::string> Artifacts{{"host.o", objectBytes(ObjectSize, 'h')}};
    if (Gpu) {
      Artifacts["sm_80.cubin"] = objectBytes(3000, 'c');
      Artifacts["sm_80.json"] = R"({"entry": "jacc_kernel", "params": 4})";
    }
    ASSERT_FALSE(bool(cache().store(Key, Summary, Artifacts)));
  }
  std::string file(const std::string &Key, llvm::StringRef Name) {
    return cache().entryDir(Key) + "/" + Name.str();
  }
  /// Rewrite entry.json's last_used (and created) to When.
  void setLastUsed(const std::string &Key, int64_t When) {
    std::string Path = file(Key, "entry.json");
    json::Value V = parseJson(readWhole(Path));
    ASSERT_TRUE(V.getAsObject());
    (*V.getAsObject())["last_used"] = When;
    (*V.getAsObject())["created"] = When - 10;
    writeWhole(Path, llvm::formatv("{0}", V).str());
  }
  std::vector<std::string> keys() {
    std::vector<std::string> K;
    for (const DiskCacheEntryInfo &E : cache().list())
      K.push_back(E.Key);
    std::sort(K.begin(), K.end());
    return K;
  }

  std::string Scratch, Dir;
  // The tool reads these: every test starts without them.
  ScopedEnv NoSwitch{"JACC_CACHE", nullptr}, NoDir{"JACC_CACHE_DIR", nullptr},
      NoMax{"JACC_CACHE_MAX_SIZE", nullptr};
};

// --- Usage, help, exit status ---------------------------------------------------------------

TEST_F(JaccCacheTest, NoArgumentsPrintsUsageAndExits2) {
  Outcome R = tool({});
  EXPECT_EQ(R.Status, 2);
  EXPECT_EQ(R.Out, "");
  EXPECT_NE(R.Err.find("Usage: jacc-cache"), std::string::npos) << R.Err;
}

TEST_F(JaccCacheTest, HelpListsEveryCommand) {
  for (const std::vector<std::string> &Args :
       {std::vector<std::string>{"--help"}, {"-h"}, {"help"}}) {
    Outcome R = tool(Args);
    EXPECT_EQ(R.Status, 0) << Args[0];
    EXPECT_EQ(R.Err, "");
    EXPECT_NE(R.Out.find("Usage: jacc-cache [--dir DIR] [--json] COMMAND"), std::string::npos);
    for (const char *C : Commands)
      EXPECT_NE(R.Out.find("\n  " + std::string(C)), std::string::npos) << C << "\n" << R.Out;
  }
}

TEST_F(JaccCacheTest, EveryCommandHasHelp) {
  for (const char *C : Commands) {
    std::string Usage = "Usage: jacc-cache " + std::string(C);
    Outcome R = tool({C, "--help"});
    EXPECT_EQ(R.Status, 0) << C;
    EXPECT_EQ(R.Out.rfind(Usage, 0), 0u) << C << ":\n" << R.Out;
    EXPECT_NE(R.Out.find("--dir DIR"), std::string::npos) << C;
    EXPECT_NE(R.Out.find("--json"), std::string::npos) << C;
    Outcome H = tool({"help", C});
    EXPECT_EQ(H.Status, 0) << C;
    EXPECT_EQ(H.Out, R.Out) << C;
  }
  EXPECT_NE(tool({"prune", "--help"}).Out.find("--older-than D"), std::string::npos);
  // Help works with options a command would otherwise refuse, and touches no cache.
  EXPECT_EQ(tool({"--help", "show"}).Status, 0);
  EXPECT_FALSE(llvm::sys::fs::exists(Dir));
}

TEST_F(JaccCacheTest, UsageErrorsExit2WithAHint) {
  struct Case {
    std::vector<std::string> Args;
    const char *Message;
  } Cases[] = {
      {{"lst"}, "unknown command 'lst'; did you mean 'list'?"},
      {{"frobnicate"}, "unknown command 'frobnicate'"},
      {{"--bogus", "list"}, "unknown option '--bogus'"},
      {{"list", "-x"}, "unknown option '-x'"},
      {{"list", "extra"}, "unexpected argument 'extra' to 'list'"},
      {{"show"}, "'show' needs KEY"},
      {{"show", "ab", "cd"}, "unexpected argument 'cd' to 'show'"},
      {{"show", "xyz"}, "'xyz' is not a key prefix"},
      {{"list", "--max-size", "1M"}, "option '--max-size' belongs to 'prune'"},
      {{"prune", "--max-size", "lots"}, "--max-size 'lots' is not a size"},
      {{"prune", "--older-than", "3x"}, "--older-than '3x' is not a duration"},
      {{"prune", "--older-than"}, "option '--older-than' needs a value"},
      {{"list", "--dir"}, "option '--dir' needs a value"},
      {{"list", "--dir="}, "option '--dir' needs a non-empty value"},
      {{"help", "nothing"}, "unknown command 'nothing'"},
  };
  for (const Case &C : Cases) {
    Outcome R = tool(C.Args);
    std::string Shown = llvm::join(C.Args, " ");
    EXPECT_EQ(R.Status, 2) << Shown;
    EXPECT_EQ(R.Out, "") << Shown;
    EXPECT_EQ(R.Err.rfind("jacc-cache: ", 0), 0u) << Shown << ": " << R.Err;
    EXPECT_NE(R.Err.find(C.Message), std::string::npos) << Shown << ": " << R.Err;
    EXPECT_NE(R.Err.find("--help' for the usage"), std::string::npos) << Shown << ": " << R.Err;
  }
  EXPECT_FALSE(llvm::sys::fs::exists(Dir));
}

TEST_F(JaccCacheTest, Version) {
  Outcome R = tool({"--version"});
  EXPECT_EQ(R.Status, 0);
  EXPECT_EQ(R.Out.rfind("jacc-cache ", 0), 0u) << R.Out;
}

// --- list ------------------------------------------------------------------------------------

TEST_F(JaccCacheTest, TheMissingDefaultCacheIsEmptyAndCreatesNothing) {
  // No program stored a kernel yet: the default directory does not exist.
  ScopedEnv NoDir("JACC_CACHE_DIR", nullptr), Xdg("XDG_CACHE_HOME", nullptr),
      Home("HOME", Scratch.c_str());
  Outcome R = tool({"list"});
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("no entries"), std::string::npos) << R.Out;
  Outcome J = tool({"list", "--json"});
  EXPECT_EQ(J.Status, 0);
  json::Value V = parseJson(J.Out);
  ASSERT_TRUE(V.getAsArray());
  EXPECT_TRUE(V.getAsArray()->empty());
  Outcome S = tool({"stats", "--json"});
  ASSERT_EQ(S.Status, 0) << S.Err;
  json::Value SV = parseJson(S.Out);
  ASSERT_TRUE(SV.getAsObject());
  EXPECT_EQ(SV.getAsObject()->getInteger("entries"), 0);
  EXPECT_FALSE(llvm::sys::fs::exists(Scratch + "/.cache"));
}

TEST_F(JaccCacheTest, ANamedDirectoryThatDoesNotExistIsAnError) {
  for (const char *Command : {"list", "stats", "verify", "zero-stats"}) {
    Outcome R = inCache({Command});
    EXPECT_EQ(R.Status, 1) << Command;
    EXPECT_NE(R.Err.find("jacc-cache: no kernel cache at '" + Dir + "' (from --dir)"),
              std::string::npos)
        << Command << ": " << R.Err;
    // With --json the error is a JSON document on stdout too.
    Outcome J = inCache({Command, "--json"});
    EXPECT_EQ(J.Status, 1) << Command;
    json::Value V = parseJson(J.Out);
    ASSERT_TRUE(V.getAsObject()) << Command << ": " << J.Out;
    EXPECT_NE(V.getAsObject()->getString("error").value_or("").find("does not exist"),
              llvm::StringRef::npos)
        << J.Out;
    EXPECT_EQ(V.getAsObject()->getInteger("status"), 1);
  }
  {
    ScopedEnv Env("JACC_CACHE_DIR", Dir.c_str());
    Outcome R = tool({"list"});
    EXPECT_EQ(R.Status, 1);
    EXPECT_NE(R.Err.find("(from JACC_CACHE_DIR)"), std::string::npos) << R.Err;
  }
  // Removing from nothing succeeds: the cache is as asked.
  EXPECT_EQ(inCache({"clear"}).Status, 0);
  EXPECT_EQ(inCache({"prune", "--max-size", "1M"}).Status, 0);
  EXPECT_FALSE(llvm::sys::fs::exists(Dir));
}

TEST_F(JaccCacheTest, UsageErrorsUnderJsonAreJson) {
  Outcome R = tool({"list", "--json", "extra"});
  EXPECT_EQ(R.Status, 2);
  json::Value V = parseJson(R.Out);
  ASSERT_TRUE(V.getAsObject()) << R.Out;
  EXPECT_EQ(V.getAsObject()->getInteger("status"), 2);
  EXPECT_NE(R.Err.find("unexpected argument 'extra'"), std::string::npos) << R.Err;
}

class ListedCache : public JaccCacheTest {
protected:
  void SetUp() override {
    JaccCacheTest::SetUp();
    store(Old, summary("y", true));
    store(Recent, summary("z", false), 50000, /*Gpu=*/false);
    store(Older, summary("w", true));
    setLastUsed(Old, now() - 7200);
    setLastUsed(Recent, now() - 120);
    setLastUsed(Older, now() - 3 * 86400);
    ASSERT_FALSE(bool(cache().recordHit(Recent))); // last used: now
    ASSERT_FALSE(bool(cache().recordHit(Recent)));
    setLastUsed(Recent, now() - 120);
  }
  std::string Old = makeKey("0a", 1), Recent = makeKey("1b", 2), Older = makeKey("2c", 3);
};

TEST_F(ListedCache, TableNewestFirst) {
  Outcome R = tool({"list", "--dir", Dir}); // options after the command too
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(R.Err, "");
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(R.Out).rtrim().split(Lines, '\n');
  ASSERT_EQ(Lines.size(), 5u) << R.Out; // header, 3 entries, total
  EXPECT_TRUE(Lines[0].startswith("KEY")) << R.Out;
  for (llvm::StringRef H : {"KERNEL", "TARGET", "SIZE", "HITS", "LAST USED"})
    EXPECT_TRUE(Lines[0].contains(H)) << H.str();
  EXPECT_TRUE(Lines[1].startswith(Recent.substr(0, 12) + "  ")) << R.Out;
  EXPECT_TRUE(Lines[2].startswith(Old.substr(0, 12) + "  ")) << R.Out;
  EXPECT_TRUE(Lines[3].startswith(Older.substr(0, 12) + "  ")) << R.Out;
  EXPECT_FALSE(R.Out.find(Recent.substr(0, 13)) != std::string::npos) << "full key shown";
  for (int I = 1; I <= 3; ++I) {
    EXPECT_TRUE(Lines[I].contains("for (int i = 0; i < n; i++)")) << Lines[I].str();
    EXPECT_TRUE(Lines[I].contains(" skylake ")) << Lines[I].str();
    EXPECT_FALSE(Lines[I].contains("x86_64")) << Lines[I].str();
  }
  EXPECT_TRUE(Lines[1].contains("2m ago")) << Lines[1].str();
  EXPECT_TRUE(Lines[1].contains("K      2  ") || Lines[1].contains("K     2  ")) << R.Out;
  EXPECT_TRUE(Lines[2].contains("2h ago")) << Lines[2].str();
  EXPECT_TRUE(Lines[3].contains(localDate(now() - 3 * 86400))) << Lines[3].str();
  EXPECT_TRUE(Lines[4].startswith("3 entries, ")) << Lines[4].str();
}

TEST_F(ListedCache, Json) {
  Outcome R = inCache({"--json", "list"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  json::Value V = parseJson(R.Out);
  json::Array *A = V.getAsArray();
  ASSERT_TRUE(A) << R.Out;
  ASSERT_EQ(A->size(), 3u);
  std::map<std::string, uint64_t> Sizes;
  for (const DiskCacheEntryInfo &E : cache().list())
    Sizes[E.Key] = E.Size;
  const std::string Order[] = {Recent, Old, Older};
  for (size_t I = 0; I < 3; ++I) {
    json::Object *O = (*A)[I].getAsObject();
    ASSERT_TRUE(O);
    EXPECT_EQ(O->getString("key"), llvm::StringRef(Order[I]));
    EXPECT_EQ(O->getString("name"), llvm::StringRef("for (int i = 0; i < n; i++)"));
    EXPECT_EQ(O->getString("target"),
              llvm::StringRef("x86_64-unknown-linux-gnu skylake +avx2,+fma,+sse4.2"));
    EXPECT_EQ(O->getString("cpu"), llvm::StringRef("skylake"));
    EXPECT_EQ(O->getInteger("size"), static_cast<int64_t>(Sizes[Order[I]]));
    EXPECT_EQ(O->getNumber("compile_ms"), 25.3);
    ASSERT_TRUE(O->getObject("artifacts"));
    EXPECT_EQ(O->getObject("artifacts")->getInteger("host.o"), I == 0 ? 50000 : 20000);
    EXPECT_EQ(O->getObject("artifacts")->getInteger("sm_80.cubin"),
              I == 0 ? std::nullopt : std::optional<int64_t>(3000));
    EXPECT_TRUE(O->getInteger("created"));
  }
  EXPECT_EQ((*A)[0].getAsObject()->getInteger("hits"), 2);
  EXPECT_EQ((*A)[1].getAsObject()->getInteger("hits"), 0);
  int64_t Used = *(*A)[1].getAsObject()->getInteger("last_used");
  EXPECT_NEAR(static_cast<double>(Used), static_cast<double>(now() - 7200), 5);
}

// --- show ------------------------------------------------------------------------------------

TEST_F(ListedCache, ShowSplitEntry) {
  Outcome R = inCache({"show", Old.substr(0, 6)});
  ASSERT_EQ(R.Status, 0) << R.Err;
  const std::string &O = R.Out;
  for (const char *Want :
       {"key", "kernel              for (int i = 0; i < n; i++)",
        "target              x86_64-unknown-linux-gnu skylake +avx2,+fma,+sse4.2", "hits",
        "created", "last used", "(2h ago)",
        "compile time        25.3 ms (analysis 3.1 ms)",
        "compilers           llvm 16.0.6, nvrtc 13.0, jacc 0.1.0, format 1",
        "declarations\n    int n\n    float a\n    const float *x\n    float *y\n",
        "source\n    #pragma acc parallel loop present(x, y)\n"
        "    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n",
        "enabled         yes", "narrowable      yes", "arrays          y (dim 0, affine)",
        "predicates\n    kernel:2: y[i] = a * x[i] + y[i];  when i in [y__lb, y__ub]\n",
        "rewritten source\n    #pragma acc parallel loop\n", "if (i >= y__lb && i <= y__ub)",
        "gpu block geometry\n    block size      512 threads (coalesced streaming: "
        "bandwidth-bound, few registers)\n    traits          coalescing full (3 of 3 accesses "
        "unit-stride or uniform)\n",
        "artifacts\n", "host.o", "19.5K (20000 bytes)", "sm_80.cubin", "2.9K (3000 bytes)",
        "sm_80.json"})
    EXPECT_NE(O.find(Want), std::string::npos) << "missing '" << Want << "' in:\n" << O;
  EXPECT_NE(O.find(Old), std::string::npos) << "the full key";
  EXPECT_EQ(O.find("\"args\""), std::string::npos) << "runtime data shown";
}

TEST_F(ListedCache, ShowUnsplitEntryGivesTheFallback) {
  Outcome R = inCache({"show", Recent.substr(0, 3).c_str()});
  ASSERT_EQ(R.Status, 0) << R.Err;
  for (const char *Want : {"enabled         no", "fallback        a reduction writes the array",
                           "narrowable      no", "(none: the kernel is not split)", "hits  "})
    EXPECT_NE(R.Out.find(Want), std::string::npos) << "missing '" << Want << "' in:\n" << R.Out;
  EXPECT_EQ(R.Out.find("predicates"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("sm_80"), std::string::npos) << R.Out;
}

// Specialized variants (jit/specialize/KernelVariants.h): spec-<hash>.json, most used first.
TEST_F(ListedCache, ShowListsVariants) {
  ASSERT_FALSE(bool(cache().addArtifact(
      Old, "spec-00000000000000aa.json",
      R"({"values":"n=100;m=64","compile_ms":41.25,"hits":7})")));
  ASSERT_FALSE(bool(cache().addArtifact(
      Old, "spec-00000000000000bb.json",
      R"({"values":"n=5;m=64","compile_ms":39.5,"hits":12})")));
  Outcome R = inCache({"show", Old.substr(0, 6)});
  ASSERT_EQ(R.Status, 0) << R.Err;
  size_t Top = R.Out.find("12 hits         n=5;m=64 (compiled in 39.5 ms)");
  size_t Next = R.Out.find("7 hits          n=100;m=64 (compiled in 41.2 ms)");
  EXPECT_NE(Top, std::string::npos) << R.Out;
  EXPECT_NE(Next, std::string::npos) << R.Out;
  EXPECT_LT(Top, Next) << "most used first";
  Outcome J = inCache({"show", Old.substr(0, 6), "--json"});
  json::Value V = parseJson(J.Out);
  const json::Array *A = V.getAsObject() ? V.getAsObject()->getArray("variants") : nullptr;
  ASSERT_TRUE(A && A->size() == 2) << J.Out;
  EXPECT_EQ((*A)[0].getAsObject()->getString("values"), llvm::StringRef("n=5;m=64"));
  EXPECT_EQ((*A)[1].getAsObject()->getInteger("hits"), 7);
  EXPECT_NE(inCache({"show", Recent.substr(0, 6)}).Out.find("variants (JACC_SPECIALIZE)\n    "
                                                             "(none)"),
            std::string::npos);
}

// A variant's CUDA images (spec-<hash>.sm_80[-split].cubin with their .json) are not variants.
TEST_F(ListedCache, ShowListsAVariantWithCudaImagesOnce) {
  const std::string Stem = "spec-00000000000000cc";
  const std::string Meta = R"({"launch":{},"ptx":false,"arch":80,"compile_ms":120.5})";
  for (const auto &[Name, Text] : std::vector<std::pair<std::string, std::string>>{
           {Stem + ".host.o", std::string(100, 'o')},
           {Stem + ".sm_80.cubin", std::string(100, 'c')},
           {Stem + ".sm_80.json", Meta},
           {Stem + ".sm_80-split.cubin", std::string(100, 'c')},
           {Stem + ".sm_80-split.json", Meta},
           {Stem + ".json", R"({"values":"n=8","compile_ms":55.5,"hits":3})"}})
    ASSERT_FALSE(bool(cache().addArtifact(Recent, Name, Text))) << Name;
  Outcome R = inCache({"show", Recent.substr(0, 6)});
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("3 hits          n=8 (compiled in 55.5 ms)"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("(compiled in 120.5 ms)"), std::string::npos) << R.Out;
  Outcome J = inCache({"show", Recent.substr(0, 6), "--json"});
  json::Value V = parseJson(J.Out);
  const json::Array *A = V.getAsObject() ? V.getAsObject()->getArray("variants") : nullptr;
  ASSERT_TRUE(A && A->size() == 1) << J.Out;
  EXPECT_EQ((*A)[0].getAsObject()->getString("values"), llvm::StringRef("n=8"));
}

TEST_F(ListedCache, ShowJson) {
  Outcome R = inCache({"show", Old.substr(0, 12), "--json"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  json::Value V = parseJson(R.Out);
  json::Object *O = V.getAsObject();
  ASSERT_TRUE(O) << R.Out;
  EXPECT_EQ(O->getString("key"), llvm::StringRef(Old));
  EXPECT_EQ(O->getInteger("hits"), 0);
  EXPECT_TRUE(O->getInteger("created"));
  EXPECT_TRUE(O->getInteger("last_used"));
  EXPECT_GT(O->getInteger("size").value_or(0), 23000);
  ASSERT_TRUE(O->getObject("artifacts"));
  EXPECT_EQ(O->getObject("artifacts")->getInteger("host.o"), 20000);
  json::Object *S = O->getObject("summary");
  ASSERT_TRUE(S);
  EXPECT_EQ(json::Value(json::Object(*S)), json::Value(summary("y", true)));
}

TEST_F(JaccCacheTest, ShowAmbiguousOrMissingPrefixFails) {
  std::string A = makeKey("abcd01", 1), B = makeKey("abcd02", 2);
  store(A, summary("y", true));
  store(B, summary("y", true));
  Outcome R = inCache({"show", "abcd"});
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err.rfind("jacc-cache: ", 0), 0u) << R.Err;
  EXPECT_NE(R.Err.find("matches 2 entries"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find(A.substr(0, 12)), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find(B.substr(0, 12)), std::string::npos) << R.Err;
  EXPECT_EQ(inCache({"show", "abcd01"}).Status, 0);
  EXPECT_EQ(inCache({"show", "ABCD02"}).Status, 0) << "prefixes are case-insensitive";
  Outcome M = inCache({"show", "ffff"});
  EXPECT_EQ(M.Status, 1);
  EXPECT_NE(M.Err.find("no entry"), std::string::npos) << M.Err;
  EXPECT_NE(M.Err.find("'ffff'"), std::string::npos) << M.Err;
  EXPECT_NE(M.Err.find("jacc-cache list"), std::string::npos) << M.Err;
}

TEST_F(JaccCacheTest, ShowOfAMissingCacheFails) {
  Outcome R = inCache({"show", "ab"});
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Err.find("does not exist"), std::string::npos) << R.Err;
  EXPECT_FALSE(llvm::sys::fs::exists(Dir));
}

TEST_F(JaccCacheTest, SummaryFieldsMayBeMissing) {
  std::string K = makeKey("5e", 5), L = makeKey("6f", 6);
  store(K, json::Object{});
  store(L, json::Object{{"name", 42}, {"split", json::Object{{"arrays", json::Array{1, "x"}}}},
                        {"compilers", json::Object{{"other", true}}}, {"decls", "not a list"}});
  Outcome R = inCache({"list"});
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find(K.substr(0, 12) + "  -"), std::string::npos) << R.Out;
  for (const std::string &Key : {K, L}) {
    Outcome S = inCache({"show", Key});
    EXPECT_EQ(S.Status, 0) << S.Err;
    EXPECT_NE(S.Out.find("host.o"), std::string::npos) << S.Out;
    EXPECT_EQ(inCache({"show", Key, "--json"}).Status, 0);
  }
  EXPECT_NE(inCache({"show", L}).Out.find("compilers           other true"), std::string::npos);
}

// --- stats, zero-stats -----------------------------------------------------------------------

TEST_F(JaccCacheTest, StatsAndZeroStats) {
  store(makeKey("aa", 1), summary("y", true));
  store(makeKey("bb", 2), summary("y", false));
  DiskCacheStats Delta;
  Delta.MemoryHits = 30;
  Delta.DiskHits = 10;
  Delta.Misses = 10;
  Delta.CompileMsSaved = 1500;
  Delta.Evictions = 2;
  ASSERT_FALSE(bool(cache().addStats(Delta)));
  ScopedEnv Max("JACC_CACHE_MAX_SIZE", "2G");

  Outcome R = inCache({"stats"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  for (const char *Want :
       {"cache directory", "entries             2\n", " of 2.0G (", "hits                40\n",
        "  memory            30\n", "  disk              10\n", "misses              10",
        "hit ratio           80.0%\n", "compile time saved  1.5 s\n", "evictions           2\n",
        "stats zeroed        never\n"})
    EXPECT_NE(R.Out.find(Want), std::string::npos) << "missing '" << Want << "' in:\n" << R.Out;
  EXPECT_NE(R.Out.find(Dir), std::string::npos);

  Outcome J = inCache({"stats", "--json"});
  ASSERT_EQ(J.Status, 0) << J.Err;
  json::Value V = parseJson(J.Out);
  json::Object *O = V.getAsObject();
  ASSERT_TRUE(O) << J.Out;
  EXPECT_EQ(O->getString("dir"), llvm::StringRef(Dir));
  EXPECT_EQ(O->getInteger("entries"), 2);
  EXPECT_EQ(O->getInteger("size"), static_cast<int64_t>(cache().totalSize()));
  EXPECT_EQ(O->getInteger("max_size"), int64_t(2) << 30);
  EXPECT_EQ(O->getInteger("memory_hits"), 30);
  EXPECT_EQ(O->getInteger("disk_hits"), 10);
  EXPECT_EQ(O->getInteger("misses"), 10);
  EXPECT_EQ(O->getNumber("hit_ratio"), 0.8);
  EXPECT_EQ(O->getNumber("compile_ms_saved"), 1500.0);
  EXPECT_EQ(O->getInteger("evictions"), 2);
  EXPECT_EQ(O->getInteger("zeroed_at"), 0);

  Outcome Z = inCache({"zero-stats"});
  ASSERT_EQ(Z.Status, 0) << Z.Err;
  EXPECT_NE(Z.Out.find("zeroed"), std::string::npos) << Z.Out;
  DiskCacheStats S = cache().stats();
  EXPECT_EQ(S.MemoryHits + S.DiskHits + S.Misses + S.Evictions, 0u);
  EXPECT_NEAR(static_cast<double>(S.ZeroedAt), static_cast<double>(now()), 5);
  EXPECT_EQ(cache().list().size(), 2u) << "zero-stats keeps the entries";
  Outcome After = inCache({"stats"});
  EXPECT_NE(After.Out.find("hit ratio           -\n"), std::string::npos) << After.Out;
  EXPECT_EQ(After.Out.find("never"), std::string::npos) << After.Out;
  EXPECT_NE(After.Out.find("(just now)"), std::string::npos) << After.Out;
  json::Value ZJ = parseJson(inCache({"zero-stats", "--json"}).Out);
  ASSERT_TRUE(ZJ.getAsObject());
  EXPECT_GT(ZJ.getAsObject()->getInteger("zeroed_at").value_or(0), 0);
  json::Value SJ = parseJson(inCache({"stats", "--json"}).Out);
  EXPECT_EQ(SJ.getAsObject()->get("hit_ratio")->kind(), json::Value::Null);
}

// --- prune, clear ----------------------------------------------------------------------------

TEST_F(JaccCacheTest, PruneBySizeRemovesTheLeastRecentlyUsed) {
  std::vector<std::string> K;
  for (unsigned I = 0; I < 4; ++I) {
    K.push_back(makeKey("c" + std::to_string(I), I));
    store(K.back(), summary("y", true), 100 * 1024, /*Gpu=*/false);
    setLastUsed(K.back(), now() - 1000 * (4 - I)); // K[3] the most recent
  }
  Outcome R = inCache({"prune", "--max-size", "250K"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("removed 2 entries; the cache holds 2 entries"), std::string::npos)
      << R.Out;
  EXPECT_EQ(keys(), (std::vector<std::string>{K[2], K[3]}));
  EXPECT_LE(cache().totalSize(), 250u * 1024);

  Outcome J = inCache({"prune", "--json", "--max-size=150K"});
  ASSERT_EQ(J.Status, 0) << J.Err;
  json::Value V = parseJson(J.Out);
  ASSERT_TRUE(V.getAsObject()) << J.Out;
  EXPECT_EQ(V.getAsObject()->getInteger("removed"), 1);
  EXPECT_EQ(V.getAsObject()->getInteger("entries"), 1);
  EXPECT_EQ(V.getAsObject()->getInteger("max_size"), 150 * 1024);
  EXPECT_EQ(keys(), (std::vector<std::string>{K[3]}));
}

TEST_F(JaccCacheTest, PruneDefaultsToTheConfiguredMaxSize) {
  std::vector<std::string> K;
  for (unsigned I = 0; I < 3; ++I) {
    K.push_back(makeKey("d" + std::to_string(I), I));
    store(K.back(), summary("y", true), 100 * 1024, /*Gpu=*/false);
    setLastUsed(K.back(), now() - 1000 * (3 - I));
  }
  EXPECT_EQ(inCache({"prune"}).Status, 0);
  EXPECT_EQ(keys().size(), 3u) << "under the default 1G";
  ScopedEnv Max("JACC_CACHE_MAX_SIZE", "150K");
  Outcome R = inCache({"prune"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("removed 2 entries"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("(limit 150.0K)"), std::string::npos) << R.Out;
  EXPECT_EQ(keys(), (std::vector<std::string>{K[2]}));
}

TEST_F(JaccCacheTest, PruneByAge) {
  std::string Month = makeKey("e1", 1), Week = makeKey("e2", 2), Fresh = makeKey("e3", 3),
              Hours = makeKey("e4", 4);
  for (const std::string &K : {Month, Week, Fresh, Hours})
    store(K, summary("y", true));
  setLastUsed(Month, now() - 40 * 86400);
  setLastUsed(Week, now() - 10 * 86400);
  setLastUsed(Hours, now() - 13 * 3600);
  Outcome R = inCache({"prune", "--older-than", "30d"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("removed 1 entry;"), std::string::npos) << R.Out;
  EXPECT_EQ(keys(), (std::vector<std::string>{Week, Fresh, Hours}));
  EXPECT_EQ(inCache({"prune", "--older-than=12h"}).Status, 0);
  EXPECT_EQ(keys(), (std::vector<std::string>{Fresh}));
  for (const char *D : {"45m", "3600s", "3600", "2w"})
    EXPECT_EQ(inCache({"prune", "--older-than", D}).Status, 0) << D;
  EXPECT_EQ(keys(), (std::vector<std::string>{Fresh}));
}

TEST_F(JaccCacheTest, ClearRemovesEveryEntryButNotTheStatistics) {
  for (unsigned I = 0; I < 3; ++I)
    store(makeKey("f" + std::to_string(I), I), summary("y", true));
  DiskCacheStats Delta;
  Delta.Misses = 3;
  ASSERT_FALSE(bool(cache().addStats(Delta)));
  Outcome R = inCache({"clear"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("removed 3 entries"), std::string::npos) << R.Out;
  EXPECT_TRUE(keys().empty());
  EXPECT_EQ(cache().stats().Misses, 3u);
  EXPECT_NE(inCache({"list"}).Out.find("no entries"), std::string::npos);
  json::Value V = parseJson(inCache({"clear", "--json"}).Out);
  ASSERT_TRUE(V.getAsObject());
  EXPECT_EQ(V.getAsObject()->getInteger("removed"), 0);
}

// --- verify ----------------------------------------------------------------------------------

TEST_F(JaccCacheTest, VerifyOfAGoodCache) {
  store(makeKey("01", 1), summary("y", true));
  store(makeKey("02", 2), summary("y", false));
  Outcome R = inCache({"verify"});
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(R.Err, "");
  EXPECT_NE(R.Out.find("2 good entries, 0 bad entries"), std::string::npos) << R.Out;
}

TEST_F(JaccCacheTest, VerifyRemovesTruncatedFlippedAndForeignEntries) {
  std::string Truncated = makeKey("71", 1), Flipped = makeKey("72", 2), Foreign = makeKey("73", 3),
              Good = makeKey("74", 4);
  for (const std::string &K : {Truncated, Flipped, Foreign, Good})
    store(K, summary("y", true));
  // A truncated host object.
  std::string Host = file(Truncated, "host.o");
  writeWhole(Host, readWhole(Host).substr(0, 1000));
  // One byte flipped in a GPU image: same size, another checksum.
  std::string Cubin = file(Flipped, "sm_80.cubin");
  std::string Bytes = readWhole(Cubin);
  Bytes[Bytes.size() / 2] ^= 0x20;
  writeWhole(Cubin, Bytes);
  // An entry of another format.
  std::string Entry = file(Foreign, "entry.json");
  json::Value V = parseJson(readWhole(Entry));
  (*V.getAsObject())["format"] = 99;
  writeWhole(Entry, llvm::formatv("{0}", V).str());

  Outcome R = inCache({"verify"});
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Out.find("bad entry " + Truncated.substr(0, 12) + ": host.o: 1000 bytes instead "
                                                                 "of 20000"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("bad entry " + Flipped.substr(0, 12) + ": sm_80.cubin: checksum mismatch"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("bad entry " + Foreign.substr(0, 12) + ": entry.json: format 99"),
            std::string::npos)
      << R.Out;
  EXPECT_EQ(R.Out.find(Good.substr(0, 12)), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("1 good entry, 3 bad entries removed"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Err.rfind("jacc-cache: verify found 3 bad entries", 0), 0u) << R.Err;
  EXPECT_EQ(keys(), (std::vector<std::string>{Good}));
  EXPECT_FALSE(llvm::sys::fs::exists(cache().entryDir(Truncated)));
  EXPECT_EQ(inCache({"verify"}).Status, 0) << "the bad entries are gone";
}

TEST_F(JaccCacheTest, VerifyJson) {
  std::string Bad = makeKey("81", 1), Good = makeKey("82", 2);
  store(Bad, summary("y", true));
  store(Good, summary("y", true));
  writeWhole(file(Bad, "host.o"), objectBytes(20000, 'X')); // foreign bytes, same size
  Outcome R = inCache({"verify", "--json"});
  EXPECT_EQ(R.Status, 1);
  json::Value V = parseJson(R.Out);
  json::Object *O = V.getAsObject();
  ASSERT_TRUE(O) << R.Out;
  EXPECT_EQ(O->getInteger("good"), 1);
  json::Array *P = O->getArray("bad");
  ASSERT_TRUE(P);
  ASSERT_EQ(P->size(), 1u);
  EXPECT_EQ((*P)[0].getAsObject()->getString("key"), llvm::StringRef(Bad));
  EXPECT_EQ((*P)[0].getAsObject()->getString("problem"),
            llvm::StringRef("host.o: checksum mismatch"));
  EXPECT_EQ((*P)[0].getAsObject()->getBoolean("removed"), true);
}

// --- path, config, the directory -------------------------------------------------------------

TEST_F(JaccCacheTest, PathFollowsDirThenEnvironment) {
  ScopedEnv Home("HOME", (Scratch + "/home").c_str()), Xdg("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(tool({"path"}).Out, Scratch + "/home/.cache/jacc\n");
  {
    ScopedEnv X("XDG_CACHE_HOME", (Scratch + "/xdg").c_str());
    EXPECT_EQ(tool({"path"}).Out, Scratch + "/xdg/jacc\n");
    ScopedEnv D("JACC_CACHE_DIR", (Scratch + "/env").c_str());
    EXPECT_EQ(tool({"path"}).Out, Scratch + "/env\n");
    Outcome R = tool({"path", "--dir", Dir});
    EXPECT_EQ(R.Status, 0);
    EXPECT_EQ(R.Out, Dir + "\n");
  }
  // A relative --dir is made absolute; --json.
  llvm::SmallString<256> Cwd;
  ASSERT_FALSE(llvm::sys::fs::current_path(Cwd));
  Outcome J = tool({"--json", "path", "--dir", "rel/./cache"});
  ASSERT_EQ(J.Status, 0) << J.Err;
  json::Value V = parseJson(J.Out);
  ASSERT_TRUE(V.getAsObject());
  EXPECT_EQ(V.getAsObject()->getString("dir"), llvm::StringRef((Cwd + "/rel/cache").str()));
  EXPECT_FALSE(llvm::sys::fs::exists(Scratch + "/home")) << "path creates nothing";
}

TEST_F(JaccCacheTest, ConfigShowsEachSettingAndItsSource) {
  ScopedEnv Home("HOME", Scratch.c_str()), Xdg("XDG_CACHE_HOME", nullptr);
  Outcome Defaults = tool({"config"});
  ASSERT_EQ(Defaults.Status, 0) << Defaults.Err;
  EXPECT_NE(Defaults.Out.find("enabled    yes"), std::string::npos) << Defaults.Out;
  EXPECT_NE(Defaults.Out.find("dir        " + Scratch + "/.cache/jacc"), std::string::npos)
      << Defaults.Out;
  EXPECT_NE(Defaults.Out.find("(from HOME)"), std::string::npos) << Defaults.Out;
  EXPECT_NE(Defaults.Out.find("max size   1.0G (1073741824 bytes)"), std::string::npos)
      << Defaults.Out;
  EXPECT_NE(Defaults.Out.find("(from default)"), std::string::npos) << Defaults.Out;

  ScopedEnv Off("JACC_CACHE", "off"), D("JACC_CACHE_DIR", Dir.c_str()),
      Max("JACC_CACHE_MAX_SIZE", "500M");
  Outcome R = tool({"config"});
  ASSERT_EQ(R.Status, 0) << R.Err;
  for (const char *Want : {"(from JACC_CACHE)", "(from JACC_CACHE_DIR)",
                           "(from JACC_CACHE_MAX_SIZE)", "enabled    no ",
                           "max size   500.0M (524288000 bytes)"})
    EXPECT_NE(R.Out.find(Want), std::string::npos) << "missing '" << Want << "' in:\n" << R.Out;
  EXPECT_NE(R.Out.find("dir        " + Dir), std::string::npos) << R.Out;

  Outcome J = tool({"config", "--json", "--dir", Scratch + "/other"});
  ASSERT_EQ(J.Status, 0) << J.Err;
  json::Value V = parseJson(J.Out);
  json::Object *O = V.getAsObject();
  ASSERT_TRUE(O) << J.Out;
  for (const char *F : {"enabled", "dir", "max_size"})
    ASSERT_TRUE(O->getObject(F)) << F;
  EXPECT_EQ(O->getObject("enabled")->getBoolean("value"), false);
  EXPECT_EQ(O->getObject("enabled")->getString("from"), llvm::StringRef("JACC_CACHE"));
  EXPECT_EQ(O->getObject("dir")->getString("value"), llvm::StringRef(Scratch + "/other"));
  EXPECT_EQ(O->getObject("dir")->getString("from"), llvm::StringRef("--dir"));
  EXPECT_EQ(O->getObject("max_size")->getInteger("value"), 500 << 20);
  EXPECT_EQ(O->getObject("max_size")->getString("from"), llvm::StringRef("JACC_CACHE_MAX_SIZE"));
  EXPECT_EQ(O->getObject("read_only")->getBoolean("value"), false);

  ScopedEnv ReadOnly("JACC_CACHE", "readonly");
  EXPECT_NE(tool({"config"}).Out.find("enabled    yes, read-only"), std::string::npos);
  json::Value RO = parseJson(tool({"config", "--json"}).Out);
  EXPECT_EQ(RO.getAsObject()->getObject("read_only")->getBoolean("value"), true);
}

TEST_F(JaccCacheTest, MalformedEnvironmentFailsNamingTheVariable) {
  ScopedEnv Max("JACC_CACHE_MAX_SIZE", "lots");
  for (const char *C : {"config", "list", "path"}) {
    Outcome R = inCache({C});
    EXPECT_EQ(R.Status, 1) << C;
    EXPECT_EQ(R.Err.rfind("jacc-cache: JACC_CACHE_MAX_SIZE='lots' is not a size", 0), 0u)
        << R.Err;
  }
  ScopedEnv Ok("JACC_CACHE_MAX_SIZE", nullptr), Switch("JACC_CACHE", "maybe");
  Outcome R = inCache({"config"});
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Err.find("JACC_CACHE='maybe'"), std::string::npos) << R.Err;
}

TEST_F(JaccCacheTest, TheCacheMayBeDisabledAndStillInspected) {
  store(makeKey("99", 9), summary("y", true));
  ScopedEnv Off("JACC_CACHE", "off"), D("JACC_CACHE_DIR", Dir.c_str());
  Outcome R = tool({"list"});
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find(makeKey("99", 9).substr(0, 12)), std::string::npos) << R.Out;
}

TEST_F(JaccCacheTest, RefusesADirectoryThatIsNotACache) {
  std::string Other = Scratch + "/documents";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Other + "/ab"));
  writeWhole(Other + "/ab/notes.txt", "keep me");
  for (const char *C : {"list", "clear", "verify", "prune"}) {
    Outcome R = tool({C, "--dir", Other});
    EXPECT_EQ(R.Status, 1) << C;
    EXPECT_NE(R.Err.find("is not a jacc kernel cache"), std::string::npos) << R.Err;
  }
  EXPECT_EQ(readWhole(Other + "/ab/notes.txt"), "keep me");
  EXPECT_FALSE(llvm::sys::fs::exists(Other + "/CACHEDIR.TAG"));
  writeWhole(Scratch + "/file", "x");
  Outcome F = tool({"list", "--dir", Scratch + "/file"});
  EXPECT_EQ(F.Status, 1);
  EXPECT_NE(F.Err.find("is not a directory"), std::string::npos) << F.Err;
}

} // namespace
