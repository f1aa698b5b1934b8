// Tests of the persistent kernel cache store: the entry round trip, hits, artifacts added later,
// listing and finding, removal, pruning, statistics, every kind of damaged entry (a miss with a
// warning, reported and removed by verify, never a crash), concurrent processes (fork) storing,
// adding artifacts and counting, unwritable directories and failing writes, and the cost of a hit.
#include "jit/cache/DiskCache.h"

#include "support/Error.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace jacc;
using namespace jacc::jit;

namespace {

/// A 64-digit key starting with Prefix.
std::string key(const std::string &Prefix) {
  std::string K = Prefix;
  K.resize(64, '0');
  return K;
}

std::string bytes(size_t N, unsigned Seed) {
  std::mt19937 R(Seed);
  std::string S(N, '\0');
  for (char &C : S)
    C = static_cast<char>(R());
  return S;
}

std::string readText(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

void writeText(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  Out << Text;
}

bool exists(const std::string &Path) {
  struct stat St;
  return ::lstat(Path.c_str(), &St) == 0;
}

llvm::json::Object summary(const std::string &Name, int N = 0) {
  return llvm::json::Object{{"name", Name}, {"n", N}, {"args", llvm::json::Array{"int n"}}};
}

/// Run Body in a child process; its exit status (Body's return value, 255 on a crash).
template <typename F> pid_t spawn(F Body) {
  pid_t P = ::fork();
  if (P == 0)
    ::_exit(Body());
  return P;
}

/// Whether find() found an entry (its error consumed).
bool found(llvm::Expected<DiskCacheEntryInfo> E) {
  if (E)
    return true;
  llvm::consumeError(E.takeError());
  return false;
}

/// open() in a child process: the error goes to stderr.
std::optional<DiskCache> openIn(const std::string &Dir, uint64_t MaxSize) {
  auto C = DiskCache::open(Dir, MaxSize);
  if (!C) {
    std::fprintf(stderr, "open: %s\n", llvm::toString(C.takeError()).c_str());
    return std::nullopt;
  }
  return std::move(*C);
}

int waitFor(pid_t P) {
  int Status = 0;
  if (::waitpid(P, &Status, 0) != P)
    return 254;
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 255;
}

class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> P;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-diskcache", P));
    Root = std::string(P);
    Dir = Root + "/cache";
  }
  void TearDown() override {
    ::chmod(Dir.c_str(), 0755);
    llvm::sys::fs::remove_directories(Root);
  }

  std::optional<DiskCache> openCache(uint64_t MaxSize = 1ull << 30) {
    auto C = DiskCache::open(Dir, MaxSize);
    if (!C) {
      ADD_FAILURE() << llvm::toString(C.takeError());
      return std::nullopt;
    }
    return std::move(*C);
  }

  std::string entryFile(const std::string &Key, const std::string &Name) {
    return Dir + "/" + Key.substr(0, 2) + "/" + Key + "/" + Name;
  }

  /// Rewrite fields of an entry's entry.json (times, to order entries).
  void setTimes(const std::string &Key, int64_t Created, int64_t LastUsed) {
    std::string Path = entryFile(Key, "entry.json");
    auto V = llvm::json::parse(readText(Path));
    ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
    llvm::json::Object &O = *V->getAsObject();
    O["created"] = Created;
    O["last_used"] = LastUsed;
    std::string S;
    llvm::raw_string_ostream(S) << llvm::json::Value(std::move(O));
    writeText(Path, S);
  }

  std::optional<llvm::json::Object> entryJson(const std::string &Key) {
    auto V = llvm::json::parse(readText(entryFile(Key, "entry.json")));
    if (!V) {
      llvm::consumeError(V.takeError());
      return std::nullopt;
    }
    if (auto *O = V->getAsObject())
      return std::move(*O);
    return std::nullopt;
  }

  std::string Root, Dir;
};

// --- the store ---

TEST_F(DiskCacheTest, StoreLookupReadRoundTrip) {
  auto C = openCache();
  ASSERT_TRUE(C);
  EXPECT_EQ(readText(Dir + "/CACHEDIR.TAG").rfind("Signature: 8a477f597d28d172789f06886806bc55", 0),
            0u);
  std::string K = key("ab12"), Host = bytes(20000, 1), Cubin = bytes(3000, 2);
  std::string W;
  EXPECT_FALSE(C->lookup(K, W));
  EXPECT_EQ(W, ""); // simply absent: no warning
  EXPECT_FALSE(C->readArtifact(K, "host.o", W));
  EXPECT_EQ(W, "");

  ASSERT_FALSE(bool(llvm::errorToBool(
      C->store(K, summary("saxpy", 3), {{"host.o", Host}, {"sm_80.cubin", Cubin}}))));
  auto S = C->lookup(K, W);
  ASSERT_TRUE(S) << W;
  EXPECT_EQ(W, "");
  EXPECT_EQ(llvm::json::Value(std::move(*S)), llvm::json::Value(summary("saxpy", 3)));
  auto H = C->readArtifact(K, "host.o", W);
  ASSERT_TRUE(H) << W;
  EXPECT_EQ(*H, Host);
  auto G = C->readArtifact(K, "sm_80.cubin", W);
  ASSERT_TRUE(G) << W;
  EXPECT_EQ(*G, Cubin);
  // An artifact not compiled yet is a plain miss.
  EXPECT_FALSE(C->readArtifact(K, "sm_90.cubin", W));
  EXPECT_EQ(W, "");

  // The layout: <dir>/<k0k1>/<key>/{summary.json, artifacts, entry.json}.
  EXPECT_EQ(C->entryDir(K), Dir + "/ab/" + K);
  EXPECT_EQ(readText(entryFile(K, "host.o")), Host);
  EXPECT_TRUE(exists(entryFile(K, "summary.json")));
  auto E = entryJson(K);
  ASSERT_TRUE(E);
  EXPECT_EQ(E->getInteger("format"), int64_t(DiskCacheFormat));
  EXPECT_EQ(E->getString("key"), llvm::StringRef(K));
  EXPECT_EQ(E->getInteger("hits"), 0);
  int64_t Now = std::time(nullptr);
  EXPECT_LE(std::abs(*E->getInteger("created") - Now), 5);
  EXPECT_EQ(E->getInteger("created"), E->getInteger("last_used"));
  const llvm::json::Object *A = E->getObject("artifacts");
  ASSERT_NE(A, nullptr);
  ASSERT_NE(A->getObject("host.o"), nullptr);
  EXPECT_EQ(A->getObject("host.o")->getInteger("size"), 20000);
  EXPECT_TRUE(A->getObject("host.o")->getString("checksum")->startswith("xxh64:"));
  EXPECT_EQ(A->getObject("host.o")->getString("checksum")->size(), 6u + 16u);

  // Another DiskCache object (another process) sees the same entry.
  auto C2 = openCache();
  ASSERT_TRUE(C2);
  EXPECT_TRUE(C2->lookup(K, W)) << W;
  auto L = C2->list();
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0].Key, K);
  EXPECT_EQ(L[0].Hits, 0u);
  EXPECT_EQ((std::map<std::string, uint64_t>{{"host.o", 20000}, {"sm_80.cubin", 3000}}),
            L[0].Artifacts);
  EXPECT_GE(L[0].Size, 23000u);
  EXPECT_EQ(L[0].Summary.getString("name"), llvm::StringRef("saxpy"));
  EXPECT_GE(C2->totalSize(), L[0].Size);
}

TEST_F(DiskCacheTest, StoreReplacesTheEntry) {
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("cd");
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("a"), {{"host.o", "1"}, {"b.o", "22"}})));
  ASSERT_FALSE(llvm::errorToBool(C->recordHit(K)));
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("b"), {{"host.o", "333"}})));
  std::string W;
  auto S = C->lookup(K, W);
  ASSERT_TRUE(S) << W;
  EXPECT_EQ(S->getString("name"), llvm::StringRef("b"));
  EXPECT_EQ(*C->readArtifact(K, "host.o", W), "333");
  EXPECT_FALSE(C->readArtifact(K, "b.o", W));
  EXPECT_FALSE(exists(entryFile(K, "b.o"))); // the old entry's files go
  auto L = C->list();
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(L[0].Hits, 0u);
  EXPECT_EQ(L[0].Artifacts.size(), 1u);
}

TEST_F(DiskCacheTest, BadKeysAndNames) {
  auto C = openCache();
  ASSERT_TRUE(C);
  for (const char *Bad : {"", "a", "ABCD", "ab/cd", "../x", "abcz"})
    EXPECT_TRUE(llvm::errorToBool(C->store(Bad, summary("x"), {}))) << Bad;
  for (const char *Bad : {"entry.json", "summary.json", "entry.lock", "", ".hidden", "a/b", "..",
                          "x.tmp.1.2", "sp ace"})
    EXPECT_TRUE(llvm::errorToBool(C->store(key("ab"), summary("x"), {{Bad, "x"}}))) << Bad;
  std::string W;
  EXPECT_FALSE(C->lookup("../../etc", W));
  EXPECT_NE(W, "");
  EXPECT_FALSE(C->readArtifact(key("ab"), "../entry.json", W));
  EXPECT_NE(W, "");
  EXPECT_TRUE(C->list().empty());
}

TEST_F(DiskCacheTest, RecordHitCountsAndTouches) {
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("0f");
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("k"), {{"host.o", "x"}})));
  setTimes(K, 1000, 1000);
  ASSERT_FALSE(llvm::errorToBool(C->recordHit(K)));
  ASSERT_FALSE(llvm::errorToBool(C->recordHit(K)));
  auto F = C->find("0f");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Hits, 2u);
  EXPECT_EQ(F->Created, 1000);
  EXPECT_LE(std::abs(F->LastUsed - int64_t(std::time(nullptr))), 5);
  std::string W;
  EXPECT_TRUE(C->readArtifact(K, "host.o", W)) << W; // the artifacts are untouched

  auto E = C->recordHit(key("0e"));
  std::string Message;
  EXPECT_EQ(takeError(std::move(E), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("no entry"), std::string::npos) << Message;
  EXPECT_FALSE(exists(Dir + "/0e/" + key("0e"))); // a hit of nothing creates nothing
}

TEST_F(DiskCacheTest, AddArtifact) {
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("77");
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("k"), {{"host.o", "host"}})));
  ASSERT_FALSE(llvm::errorToBool(C->addArtifact(K, "sm_80.cubin", "cubin")));
  ASSERT_FALSE(llvm::errorToBool(C->addArtifact(K, "host-split.o", "split")));
  ASSERT_FALSE(llvm::errorToBool(C->addArtifact(K, "sm_80.cubin", "cubin v2"))); // replaces
  std::string W;
  EXPECT_EQ(C->readArtifact(K, "host.o", W), std::optional<std::string>("host")) << W;
  EXPECT_EQ(C->readArtifact(K, "sm_80.cubin", W), std::optional<std::string>("cubin v2")) << W;
  EXPECT_EQ(C->readArtifact(K, "host-split.o", W), std::optional<std::string>("split")) << W;
  EXPECT_TRUE(C->lookup(K, W)) << W;
  auto L = C->list();
  ASSERT_EQ(L.size(), 1u);
  EXPECT_EQ(
      (std::map<std::string, uint64_t>{{"host-split.o", 5}, {"host.o", 4}, {"sm_80.cubin", 8}}),
      L[0].Artifacts);

  auto E = C->addArtifact(key("78"), "sm_80.cubin", "x");
  std::string Message;
  EXPECT_EQ(takeError(std::move(E), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("no entry"), std::string::npos) << Message;
  EXPECT_NE(Message.find(key("78")), std::string::npos) << Message;
  EXPECT_FALSE(exists(Dir + "/78/" + key("78")));
  EXPECT_TRUE(llvm::errorToBool(C->addArtifact(K, "entry.json", "{}")));
}

TEST_F(DiskCacheTest, FindByUniquePrefix) {
  auto C = openCache();
  ASSERT_TRUE(C);
  for (const char *P : {"abc1", "abc2", "def"})
    ASSERT_FALSE(llvm::errorToBool(C->store(key(P), summary(P), {})));
  auto F = C->find("abc1");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Key, key("abc1"));
  EXPECT_EQ(F->Summary.getString("name"), llvm::StringRef("abc1"));
  F = C->find("D"); // upper case typed by a user
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Key, key("def"));
  F = C->find(key("abc2"));
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());

  std::string Message;
  F = C->find("abc");
  ASSERT_FALSE(bool(F));
  EXPECT_EQ(takeError(F.takeError(), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("matches 2 entries"), std::string::npos) << Message;
  EXPECT_NE(Message.find("abc1"), std::string::npos) << Message;
  EXPECT_NE(Message.find("abc2"), std::string::npos) << Message;
  F = C->find("a");
  ASSERT_FALSE(bool(F));
  EXPECT_EQ(takeError(F.takeError(), Message), ErrorCode::InvalidArgument);
  F = C->find("999");
  ASSERT_FALSE(bool(F));
  EXPECT_EQ(takeError(F.takeError(), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("no entry"), std::string::npos) << Message;
  for (const char *Bad : {"", "xyz", "../"}) {
    F = C->find(Bad);
    ASSERT_FALSE(bool(F)) << Bad;
    EXPECT_EQ(takeError(F.takeError(), Message), ErrorCode::InvalidArgument);
    EXPECT_NE(Message.find("not a key prefix"), std::string::npos) << Message;
  }
}

TEST_F(DiskCacheTest, Remove) {
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("12");
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("k"), {{"host.o", "x"}})));
  ASSERT_FALSE(llvm::errorToBool(C->remove(K)));
  std::string W;
  EXPECT_FALSE(C->lookup(K, W));
  EXPECT_EQ(W, "");
  EXPECT_FALSE(exists(C->entryDir(K)));
  std::string Message;
  EXPECT_EQ(takeError(C->remove(K), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find("no entry"), std::string::npos) << Message;
  // Stored again after removal.
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("k"), {{"host.o", "x"}})));
  EXPECT_TRUE(C->lookup(K, W)) << W;
}

TEST_F(DiskCacheTest, PruneBySizeInLruOrderThenByAge) {
  auto C = openCache();
  ASSERT_TRUE(C);
  // Stored in one order, used in another: last used decides, then created.
  std::string Old = key("01"), Mid = key("02"), New = key("03"), Tie = key("04");
  for (const std::string &K : {New, Old, Tie, Mid})
    ASSERT_FALSE(llvm::errorToBool(C->store(K, summary(K), {{"host.o", bytes(10000, 3)}})));
  setTimes(Old, 50, 100);
  setTimes(Mid, 10, 200);
  setTimes(Tie, 20, 200); // same last use as Mid, created later: goes after it
  setTimes(New, 300, 300);
  uint64_t Total = C->totalSize();
  // Room for all but one: the least recently used goes.
  auto N = C->prune(Total - 5000);
  ASSERT_TRUE(bool(N)) << llvm::toString(N.takeError());
  EXPECT_EQ(*N, 1u);
  std::string W;
  EXPECT_FALSE(C->lookup(Old, W));
  EXPECT_TRUE(C->lookup(Mid, W));
  // Two more: Mid before Tie.
  N = C->prune(C->totalSize() - 5000);
  ASSERT_TRUE(bool(N)) << llvm::toString(N.takeError());
  EXPECT_EQ(*N, 1u);
  EXPECT_FALSE(C->lookup(Mid, W));
  EXPECT_TRUE(C->lookup(Tie, W));
  // By age: last used before 250.
  N = C->prune(1ull << 40, 250);
  ASSERT_TRUE(bool(N)) << llvm::toString(N.takeError());
  EXPECT_EQ(*N, 1u);
  EXPECT_FALSE(C->lookup(Tie, W));
  EXPECT_TRUE(C->lookup(New, W));
  // Nothing to do.
  N = C->prune(1ull << 40, 250);
  ASSERT_TRUE(bool(N));
  EXPECT_EQ(*N, 0u);
  // Size 0: everything goes.
  N = C->prune(0);
  ASSERT_TRUE(bool(N));
  EXPECT_EQ(*N, 1u);
  EXPECT_TRUE(C->list().empty());
  // Manual pruning is no eviction.
  EXPECT_EQ(C->stats().Evictions, 0u);
}

TEST_F(DiskCacheTest, StoreEvictsLeastRecentlyUsedButNeverTheNewEntry) {
  auto C = openCache(25000);
  ASSERT_TRUE(C);
  std::string A = key("aa"), B = key("bb"), K3 = key("cc"), D = key("dd");
  ASSERT_FALSE(llvm::errorToBool(C->store(A, summary("a"), {{"host.o", bytes(10000, 1)}})));
  ASSERT_FALSE(llvm::errorToBool(C->store(B, summary("b"), {{"host.o", bytes(10000, 2)}})));
  setTimes(A, 100, 300); // A used more recently than B
  setTimes(B, 200, 200);
  ASSERT_FALSE(llvm::errorToBool(C->store(K3, summary("c"), {{"host.o", bytes(10000, 3)}})));
  std::string W;
  EXPECT_TRUE(C->lookup(A, W));
  EXPECT_FALSE(C->lookup(B, W));
  EXPECT_TRUE(C->lookup(K3, W));
  EXPECT_LE(C->totalSize(), 25000u);
  EXPECT_EQ(C->stats().Evictions, 1u);

  // Larger than the whole limit: everything else goes, the new entry stays.
  ASSERT_FALSE(llvm::errorToBool(C->store(D, summary("d"), {{"host.o", bytes(40000, 4)}})));
  EXPECT_TRUE(C->lookup(D, W)) << W;
  EXPECT_FALSE(C->lookup(A, W));
  EXPECT_FALSE(C->lookup(K3, W));
  EXPECT_EQ(C->stats().Evictions, 3u);
  // And an artifact added later makes room the same way, keeping its own entry.
  ASSERT_FALSE(llvm::errorToBool(C->addArtifact(D, "sm_80.cubin", "x")));
  EXPECT_TRUE(C->readArtifact(D, "sm_80.cubin", W)) << W;
}

TEST_F(DiskCacheTest, AnArtifactRewrittenAtItsSizeEvictsNothingAndOneThatGrewDoes) {
  std::string A = key("aa"), B = key("bb"), W;
  {
    auto Roomy = openCache(1 << 20);
    ASSERT_TRUE(Roomy);
    ASSERT_FALSE(llvm::errorToBool(Roomy->store(A, summary("a"), {{"host.o", bytes(10000, 1)}})));
    ASSERT_FALSE(llvm::errorToBool(Roomy->store(B, summary("b"), {{"host.o", bytes(10000, 2)}})));
    ASSERT_FALSE(llvm::errorToBool(Roomy->addArtifact(B, "hits.json", "{\"hits\": 10}")));
  }
  setTimes(A, 100, 100); // A the least recently used
  setTimes(B, 200, 200);
  auto Tight = openCache(15000); // the same cache, now over its limit
  ASSERT_TRUE(Tight);
  // A statistics record rewritten at its size (a variant's hits at every exit) walks nothing.
  ASSERT_FALSE(llvm::errorToBool(Tight->addArtifact(B, "hits.json", "{\"hits\": 11}")));
  EXPECT_TRUE(Tight->lookup(A, W)) << W;
  EXPECT_EQ(Tight->stats().Evictions, 0u);
  // Grown, it makes room as a store does.
  ASSERT_FALSE(llvm::errorToBool(Tight->addArtifact(B, "hits.json", "{\"hits\": 100}")));
  EXPECT_FALSE(Tight->lookup(A, W));
  EXPECT_TRUE(Tight->lookup(B, W)) << W;
  EXPECT_EQ(Tight->stats().Evictions, 1u);
}

TEST_F(DiskCacheTest, EvictionRemovesEntriesOfAnotherFormatFirst) {
  auto C = openCache(25000);
  ASSERT_TRUE(C);
  std::string Old = key("01"), Foreign = key("02"), New = key("03");
  ASSERT_FALSE(llvm::errorToBool(C->store(Old, summary("a"), {{"host.o", bytes(10000, 1)}})));
  ASSERT_FALSE(llvm::errorToBool(C->store(Foreign, summary("b"), {{"host.o", bytes(10000, 2)}})));
  setTimes(Old, 100, 100); // least recently used of the valid ones
  // A jacc of another format wrote this one, used last: useless here, it goes first.
  std::string Path = entryFile(Foreign, "entry.json"), T = readText(Path);
  T.replace(T.find("\"format\": 1"), 11, "\"format\": 2");
  writeText(Path, T);
  ASSERT_FALSE(llvm::errorToBool(C->store(New, summary("c"), {{"host.o", bytes(10000, 3)}})));
  std::string W;
  EXPECT_TRUE(C->lookup(Old, W)) << W;
  EXPECT_TRUE(C->lookup(New, W)) << W;
  EXPECT_FALSE(exists(C->entryDir(Foreign)));
  EXPECT_EQ(C->stats().Evictions, 1u);
  // prune counts them as the oldest too.
  ASSERT_FALSE(llvm::errorToBool(C->store(Foreign, summary("b"), {{"host.o", "x"}})));
  writeText(entryFile(Foreign, "entry.json"), "garbage");
  auto N = C->prune(1ull << 40, 50);
  ASSERT_TRUE(bool(N)) << llvm::toString(N.takeError());
  EXPECT_EQ(*N, 1u);
  EXPECT_FALSE(exists(C->entryDir(Foreign)));
}

// Records beside the entries: written whole, read back, not entries (list, verify), gone with
// clear; a read-only cache or a bad name writes nothing.
TEST_F(DiskCacheTest, RecordsLiveBesideTheEntries) {
  auto C = openCache();
  ASSERT_TRUE(C);
  EXPECT_FALSE(C->readRecord("program-1")) << "none yet";
  ASSERT_FALSE(llvm::errorToBool(C->writeRecord("program-1", "one")));
  ASSERT_FALSE(llvm::errorToBool(C->writeRecord("program-1", "two"))) << "replaced";
  EXPECT_EQ(C->readRecord("program-1").value_or(""), "two");
  EXPECT_TRUE(C->list().empty()) << "a record is not an entry";
  EXPECT_TRUE(C->verify().empty());
  EXPECT_TRUE(llvm::errorToBool(C->writeRecord("../escape", "x")));
  EXPECT_FALSE(C->readRecord("../stats.json"));
  auto R = DiskCache::open(Dir, 1ull << 30, /*ReadOnly=*/true);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->readRecord("program-1").value_or(""), "two") << "read-only caches read";
  EXPECT_TRUE(llvm::errorToBool(R->writeRecord("program-1", "three")));
  ASSERT_FALSE(llvm::errorToBool(C->clear()));
  EXPECT_FALSE(C->readRecord("program-1"));
  // A link planted in place of the records' directory is neither written through nor read.
  std::string Elsewhere = Root + "/elsewhere";
  ASSERT_EQ(::mkdir(Elsewhere.c_str(), 0755), 0);
  writeText(Elsewhere + "/program-1", "planted");
  ASSERT_EQ(::symlink(Elsewhere.c_str(), (Dir + "/records").c_str()), 0);
  EXPECT_TRUE(llvm::errorToBool(C->writeRecord("program-2", "x")));
  EXPECT_FALSE(exists(Elsewhere + "/program-2"));
  EXPECT_FALSE(C->readRecord("program-1"));
}

TEST_F(DiskCacheTest, ClearKeepsStatistics) {
  auto C = openCache();
  ASSERT_TRUE(C);
  DiskCacheStats D;
  D.DiskHits = 3;
  D.Misses = 2;
  D.MemoryHits = 7;
  D.CompileMsSaved = 12.5;
  ASSERT_FALSE(llvm::errorToBool(C->addStats(D)));
  for (const char *P : {"11", "22", "23"})
    ASSERT_FALSE(llvm::errorToBool(C->store(key(P), summary(P), {{"host.o", "x"}})));
  ASSERT_EQ(C->list().size(), 3u);
  ASSERT_FALSE(llvm::errorToBool(C->clear()));
  EXPECT_TRUE(C->list().empty());
  EXPECT_FALSE(exists(Dir + "/11"));
  DiskCacheStats S = C->stats();
  EXPECT_EQ(S.DiskHits, 3u);
  EXPECT_EQ(S.Misses, 2u);
  EXPECT_EQ(S.MemoryHits, 7u);
  EXPECT_DOUBLE_EQ(S.CompileMsSaved, 12.5);
  EXPECT_TRUE(exists(Dir + "/CACHEDIR.TAG"));
  EXPECT_TRUE(exists(Dir + "/stats.json"));
  // Usable afterwards.
  ASSERT_FALSE(llvm::errorToBool(C->store(key("11"), summary("x"), {})));
  std::string W;
  EXPECT_TRUE(C->lookup(key("11"), W)) << W;
}

TEST_F(DiskCacheTest, StatisticsAddUpAndZero) {
  auto C = openCache();
  ASSERT_TRUE(C);
  EXPECT_EQ(C->stats().DiskHits, 0u);
  DiskCacheStats D;
  D.DiskHits = 1;
  D.CompileMsSaved = 2.5;
  D.Evictions = 4;
  ASSERT_FALSE(llvm::errorToBool(C->addStats(D)));
  ASSERT_FALSE(llvm::errorToBool(C->addStats(D)));
  DiskCacheStats S = C->stats();
  EXPECT_EQ(S.DiskHits, 2u);
  EXPECT_EQ(S.Evictions, 8u);
  EXPECT_DOUBLE_EQ(S.CompileMsSaved, 5.0);
  EXPECT_EQ(S.ZeroedAt, 0);
  ASSERT_FALSE(llvm::errorToBool(C->zeroStats()));
  S = C->stats();
  EXPECT_EQ(S.DiskHits, 0u);
  EXPECT_EQ(S.Evictions, 0u);
  EXPECT_EQ(S.CompileMsSaved, 0.0);
  EXPECT_LE(std::abs(S.ZeroedAt - int64_t(std::time(nullptr))), 5);
  // Garbage statistics count from zero again instead of failing.
  writeText(Dir + "/stats.json", "{\"disk_hits\": [[[");
  EXPECT_EQ(C->stats().DiskHits, 0u);
  ASSERT_FALSE(llvm::errorToBool(C->addStats(D)));
  EXPECT_EQ(C->stats().DiskHits, 1u);
}

// --- damaged entries ---

struct Damage {
  const char *Name;
  /// Damage the entry of Key (host.o of 20000 bytes, sm_80.cubin of 3000) in Dir.
  void (*Apply)(const std::string &EntryDir);
  const char *Problem; ///< in the warning and in verify's report
  bool LookupMisses;   ///< lookup sees it (else only readArtifact of host.o)
};

const Damage Damages[] = {
    {"TruncatedArtifact", [](const std::string &E) { ::truncate((E + "/host.o").c_str(), 1000); },
     "host.o: 1000 bytes instead of 20000", true},
    {"FlippedByte",
     [](const std::string &E) {
       std::string B = readText(E + "/host.o");
       B[12345] ^= 0x20;
       writeText(E + "/host.o", B);
     },
     "host.o: checksum mismatch", false},
    {"ForeignFormat",
     [](const std::string &E) {
       std::string T = readText(E + "/entry.json");
       size_t P = T.find("\"format\": 1");
       T.replace(P, 11, "\"format\": 99");
       writeText(E + "/entry.json", T);
     },
     "entry.json: format 99, this jacc reads format 1", true},
    {"MissingArtifact", [](const std::string &E) { ::unlink((E + "/sm_80.cubin").c_str()); },
     "sm_80.cubin: missing", true},
    {"GarbageEntryJson",
     [](const std::string &E) {
       writeText(E + "/entry.json", std::string("\x7f") + "ELF garbage {{{");
     },
     "entry.json: not valid JSON", true},
    {"EmptyEntryJson", [](const std::string &E) { writeText(E + "/entry.json", ""); },
     "entry.json: empty", true},
    {"MissingEntryJson", [](const std::string &E) { ::unlink((E + "/entry.json").c_str()); },
     "entry.json: missing", true},
    {"DeeplyNestedEntryJson",
     [](const std::string &E) { writeText(E + "/entry.json", std::string(500000, '[')); },
     "entry.json: not valid JSON (nested too deeply)", true},
    {"EntryJsonNotAnObject", [](const std::string &E) { writeText(E + "/entry.json", "[1, 2]"); },
     "entry.json: not a JSON object", true},
    {"DirectoryForArtifact",
     [](const std::string &E) {
       ::unlink((E + "/host.o").c_str());
       ::mkdir((E + "/host.o").c_str(), 0755);
     },
     "host.o: not a regular file", true},
    {"DirectoryForEntryJson",
     [](const std::string &E) {
       ::unlink((E + "/entry.json").c_str());
       ::mkdir((E + "/entry.json").c_str(), 0755);
     },
     "entry.json: not a regular file", true},
    {"FlippedSummaryByte",
     [](const std::string &E) {
       std::string B = readText(E + "/summary.json");
       B[B.find("saxpy")] = 'S';
       writeText(E + "/summary.json", B);
     },
     "summary.json: checksum mismatch", true},
    {"LongerArtifact",
     [](const std::string &E) { std::ofstream(E + "/sm_80.cubin", std::ios::app) << "more"; },
     "sm_80.cubin: 3004 bytes instead of 3000", true},
    {"EntryDirIsAFile",
     [](const std::string &E) {
       llvm::sys::fs::remove_directories(E);
       writeText(E, "not a directory");
     },
     "not a directory", true},
};

class DiskCacheDamageTest : public DiskCacheTest, public ::testing::WithParamInterface<Damage> {};

TEST_P(DiskCacheDamageTest, IsAMissWithAWarningAndVerifyRemovesIt) {
  const Damage &D = GetParam();
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("5a"), Good = key("5b");
  std::string Host = bytes(20000, 7);
  for (const std::string &Key : {K, Good})
    ASSERT_FALSE(llvm::errorToBool(
        C->store(Key, summary("saxpy"), {{"host.o", Host}, {"sm_80.cubin", bytes(3000, 8)}})));
  D.Apply(C->entryDir(K));

  std::string W, W2;
  auto S = C->lookup(K, W);
  auto H = C->readArtifact(K, "host.o", W2);
  if (D.LookupMisses) {
    EXPECT_FALSE(S);
    EXPECT_NE(W.find(D.Problem), std::string::npos) << W;
    EXPECT_NE(W.find(C->entryDir(K)), std::string::npos) << W;
    EXPECT_EQ(W.find('\n'), std::string::npos) << W; // one line
  } else {
    EXPECT_TRUE(S) << W;
    EXPECT_FALSE(H);
    EXPECT_NE(W2.find(D.Problem), std::string::npos) << W2;
    EXPECT_NE(W2.find(C->entryDir(K)), std::string::npos) << W2;
  }
  EXPECT_TRUE(!H || *H == Host); // whatever is returned is right
  // The damaged entry is not listed (unless the damage is in an artifact's bytes: listing reads
  // none); the good one is unaffected.
  auto L = C->list();
  ASSERT_EQ(L.size(), D.LookupMisses ? 1u : 2u);
  EXPECT_EQ(L.back().Key, Good);
  EXPECT_TRUE(C->readArtifact(Good, "host.o", W)) << W;
  EXPECT_EQ(found(C->find("5a")), !D.LookupMisses);
  llvm::consumeError(C->recordHit(K)); // fails or not, depending on the damage, never crashes

  auto P = C->verify();
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Key, K);
  EXPECT_NE(P[0].What.find(D.Problem), std::string::npos) << P[0].What;
  EXPECT_FALSE(exists(C->entryDir(K)));
  EXPECT_TRUE(C->verify().empty());
  EXPECT_FALSE(C->lookup(K, W));
  EXPECT_EQ(W, ""); // gone, not bad any more

  // The next compile replaces it.
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("saxpy"), {{"host.o", Host}})));
  EXPECT_EQ(C->readArtifact(K, "host.o", W), std::optional<std::string>(Host)) << W;
}

TEST_P(DiskCacheDamageTest, StoreReplacesItWithoutVerify) {
  const Damage &D = GetParam();
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("6a");
  ASSERT_FALSE(llvm::errorToBool(
      C->store(K, summary("saxpy"), {{"host.o", bytes(20000, 7)}, {"sm_80.cubin", "c"}})));
  // Re-store so that the damage applies to the sizes the table expects.
  ASSERT_FALSE(llvm::errorToBool(C->store(
      K, summary("saxpy"), {{"host.o", bytes(20000, 7)}, {"sm_80.cubin", bytes(3000, 8)}})));
  D.Apply(C->entryDir(K));
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("saxpy"), {{"host.o", "new"}})));
  std::string W;
  EXPECT_TRUE(C->lookup(K, W)) << W;
  EXPECT_EQ(C->readArtifact(K, "host.o", W), std::optional<std::string>("new")) << W;
  EXPECT_TRUE(C->verify().empty());
}

INSTANTIATE_TEST_SUITE_P(DiskCache, DiskCacheDamageTest, ::testing::ValuesIn(Damages),
                         [](const ::testing::TestParamInfo<Damage> &I) {
                           return std::string(I.param.Name);
                         });

TEST_F(DiskCacheTest, RandomDamageNeverCrashes) {
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("e0");
  std::string Host = bytes(5000, 9);
  std::mt19937 R(42);
  const char *Files[] = {"entry.json", "summary.json", "host.o"};
  for (int Round = 0; Round < 300; ++Round) {
    ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("saxpy", Round), {{"host.o", Host}})));
    std::string Path = entryFile(K, Files[R() % 3]);
    std::string B = readText(Path);
    switch (R() % 6) {
    case 0: // truncate
      B.resize(B.empty() ? 0 : R() % B.size());
      break;
    case 1: // flip bytes
      for (int I = 0, N = 1 + R() % 4; I < N && !B.empty(); ++I)
        B[R() % B.size()] ^= static_cast<char>(1 + R() % 255);
      break;
    case 2: // garbage of random bytes
      B = bytes(R() % 300, R());
      break;
    case 3: // insert a byte
      B.insert(B.begin() + (B.empty() ? 0 : R() % B.size()), static_cast<char>(R()));
      break;
    case 4: // replace a digit (sizes, times, checksums, format)
      for (char &Ch : B)
        if (Ch >= '0' && Ch <= '9' && R() % 3 == 0) {
          Ch = static_cast<char>('0' + R() % 10);
          break;
        }
      break;
    case 5: // a number too large for any integer
      if (size_t P = B.find(": "); P != std::string::npos)
        B.insert(P + 2, "99999999999999999999999");
      break;
    }
    writeText(Path, B);
    std::string W;
    auto S = C->lookup(K, W);
    auto H = C->readArtifact(K, "host.o", W);
    EXPECT_TRUE(!H || *H == Host) << Round; // a hit is always the right bytes
    (void)C->list();
    (void)found(C->find("e0"));
    llvm::consumeError(C->recordHit(K));
    llvm::consumeError(C->addArtifact(K, "x.o", "x"));
    auto P = C->verify();
    EXPECT_LE(P.size(), 1u);
    EXPECT_TRUE(C->verify().empty()) << Round;
  }
}

TEST_F(DiskCacheTest, VerifyRemovesLeftoversOfCrashedWriters) {
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("a1");
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("k"), {{"host.o", "x"}})));
  writeText(entryFile(K, "host.o.tmp.123.abcdef"), "half written");
  writeText(entryFile(K, "old-artifact.o"), "of a replaced entry");
  // An entry directory whose writer died before entry.json.
  std::string Dead = key("a2");
  ASSERT_EQ(::mkdir((Dir + "/a2").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(C->entryDir(Dead).c_str(), 0755), 0);
  writeText(C->entryDir(Dead) + "/summary.json", "{}");
  writeText(C->entryDir(Dead) + "/host.o", "x");
  // One that has not even a summary: no entry at all, tidied without a report.
  std::string Empty = key("a3");
  ASSERT_EQ(::mkdir((Dir + "/a3").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(C->entryDir(Empty).c_str(), 0755), 0);
  writeText(C->entryDir(Empty) + "/entry.lock", "");
  // Garbage where entries live.
  writeText(Dir + "/a1/stray-file", "x");
  auto P = C->verify();
  ASSERT_EQ(P.size(), 2u);
  std::sort(P.begin(), P.end(), [](auto &A, auto &B) { return A.Key < B.Key; });
  EXPECT_EQ(P[0].Key, Dead);
  EXPECT_EQ(P[0].What, "entry.json: missing");
  EXPECT_EQ(P[1].Key, "stray-file");
  EXPECT_EQ(P[1].What, "not a cache entry");
  EXPECT_FALSE(exists(entryFile(K, "host.o.tmp.123.abcdef")));
  EXPECT_FALSE(exists(entryFile(K, "old-artifact.o")));
  EXPECT_FALSE(exists(C->entryDir(Dead)));
  EXPECT_FALSE(exists(C->entryDir(Empty)));
  EXPECT_FALSE(exists(Dir + "/a1/stray-file"));
  std::string W;
  EXPECT_TRUE(C->readArtifact(K, "host.o", W)) << W;
}

// --- concurrent processes ---

TEST_F(DiskCacheTest, TwoProcessesStoreOneEntryWhileAThirdReads) {
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("c0ffee");
  std::string Host = bytes(20000, 5), Cubin = bytes(5000, 6);
  auto Writer = [&](int Id) {
    auto D = openIn(Dir, 1ull << 30);
    if (!D)
      return 10;
    for (int I = 0; I < 40; ++I) {
      // The same artifacts (a deterministic compile); the summaries differ (timings).
      if (llvm::Error E = D->store(K, summary("k", Id * 1000 + I),
                                   {{"host.o", Host}, {"sm_80.cubin", Cubin}})) {
        std::fprintf(stderr, "store: %s\n", llvm::toString(std::move(E)).c_str());
        return 11;
      }
    }
    return 0;
  };
  auto Reader = [&] {
    auto D = openIn(Dir, 1ull << 30);
    if (!D)
      return 20;
    int Hits = 0;
    for (int I = 0; I < 400; ++I) {
      std::string W;
      auto S = D->lookup(K, W);
      if (!W.empty()) {
        std::fprintf(stderr, "lookup warning: %s\n", W.c_str());
        return 21;
      }
      if (S && (!S->getString("name") || *S->getString("name") != "k"))
        return 22;
      auto H = D->readArtifact(K, "host.o", W);
      if (!W.empty()) {
        std::fprintf(stderr, "readArtifact warning: %s\n", W.c_str());
        return 23;
      }
      if (H && *H != Host)
        return 24;
      Hits += bool(H);
      llvm::consumeError(D->recordHit(K)); // may find no entry between stores
    }
    std::fprintf(stderr, "reader: %d hits of 400\n", Hits);
    return 0;
  };
  pid_t A = spawn([&] { return Writer(1); });
  pid_t B = spawn([&] { return Writer(2); });
  pid_t R = spawn(Reader);
  EXPECT_EQ(waitFor(A), 0);
  EXPECT_EQ(waitFor(B), 0);
  EXPECT_EQ(waitFor(R), 0);
  std::string W;
  auto S = C->lookup(K, W);
  ASSERT_TRUE(S) << W;
  EXPECT_EQ(C->readArtifact(K, "host.o", W), std::optional<std::string>(Host)) << W;
  EXPECT_EQ(C->readArtifact(K, "sm_80.cubin", W), std::optional<std::string>(Cubin)) << W;
  EXPECT_TRUE(C->verify().empty());
  // No temporary file left behind.
  for (const auto &P : C->list())
    EXPECT_EQ(P.Artifacts.size(), 2u);
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(C->entryDir(K), EC), End; I != End && !EC;
       I.increment(EC))
    EXPECT_EQ(llvm::StringRef(I->path()).find(".tmp."), llvm::StringRef::npos) << I->path();
}

TEST_F(DiskCacheTest, ConcurrentAddArtifactsAndHitsAreAllKept) {
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("ad");
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("k"), {{"host.o", "h"}})));
  auto Adder = [&](int Id) {
    auto D = openIn(Dir, 1ull << 30);
    if (!D)
      return 10;
    for (int I = 0; I < 25; ++I) {
      std::string Name = "p" + std::to_string(Id) + "_" + std::to_string(I) + ".o";
      if (llvm::Error E = D->addArtifact(K, Name, Name)) {
        std::fprintf(stderr, "addArtifact: %s\n", llvm::toString(std::move(E)).c_str());
        return 11;
      }
      if (llvm::Error E = D->recordHit(K)) {
        std::fprintf(stderr, "recordHit: %s\n", llvm::toString(std::move(E)).c_str());
        return 12;
      }
    }
    return 0;
  };
  pid_t A = spawn([&] { return Adder(1); });
  pid_t B = spawn([&] { return Adder(2); });
  EXPECT_EQ(waitFor(A), 0);
  EXPECT_EQ(waitFor(B), 0);
  auto F = C->find("ad");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Artifacts.size(), 51u);
  EXPECT_EQ(F->Hits, 50u);
  std::string W;
  EXPECT_EQ(C->readArtifact(K, "p2_24.o", W), std::optional<std::string>("p2_24.o")) << W;
  EXPECT_TRUE(C->verify().empty());
}

TEST_F(DiskCacheTest, ConcurrentStatisticsAddUp) {
  auto C = openCache();
  ASSERT_TRUE(C);
  auto Counter = [&] {
    auto D = openIn(Dir, 1ull << 30);
    if (!D)
      return 10;
    DiskCacheStats Delta;
    Delta.DiskHits = 1;
    Delta.Misses = 2;
    Delta.CompileMsSaved = 0.5;
    for (int I = 0; I < 100; ++I)
      if (llvm::Error E = D->addStats(Delta)) {
        llvm::consumeError(std::move(E));
        return 11;
      }
    return 0;
  };
  pid_t A = spawn(Counter);
  pid_t B = spawn(Counter);
  EXPECT_EQ(waitFor(A), 0);
  EXPECT_EQ(waitFor(B), 0);
  DiskCacheStats S = C->stats();
  EXPECT_EQ(S.DiskHits, 200u);
  EXPECT_EQ(S.Misses, 400u);
  EXPECT_DOUBLE_EQ(S.CompileMsSaved, 100.0);
}

TEST_F(DiskCacheTest, ConcurrentStoresAndEvictionsOfManyEntries) {
  // Two processes store distinct entries into a cache too small for them, a third clears and
  // verifies meanwhile: every call succeeds (or, for clear, fails cleanly) and what stays is valid.
  auto C = openCache(60000);
  ASSERT_TRUE(C);
  auto Writer = [&](int Id) {
    auto D = openIn(Dir, 60000);
    if (!D)
      return 10;
    for (int I = 0; I < 40; ++I) {
      char Prefix[8];
      std::snprintf(Prefix, sizeof Prefix, "%x%02x", Id, I);
      if (llvm::Error E = D->store(key(Prefix), summary(Prefix), {{"host.o", bytes(8000, I)}})) {
        std::fprintf(stderr, "store: %s\n", llvm::toString(std::move(E)).c_str());
        return 11;
      }
      std::string W;
      if (!D->lookup(key(Prefix), W) && !W.empty()) {
        std::fprintf(stderr, "lookup: %s\n", W.c_str());
        return 12;
      }
    }
    return 0;
  };
  auto Janitor = [&] {
    auto D = openIn(Dir, 60000);
    if (!D)
      return 20;
    for (int I = 0; I < 10; ++I) {
      (void)D->verify();
      llvm::consumeError(D->clear());
      usleep(2000);
    }
    return 0;
  };
  pid_t A = spawn([&] { return Writer(1); });
  pid_t B = spawn([&] { return Writer(2); });
  pid_t J = spawn(Janitor);
  EXPECT_EQ(waitFor(A), 0);
  EXPECT_EQ(waitFor(B), 0);
  EXPECT_EQ(waitFor(J), 0);
  EXPECT_TRUE(C->verify().empty());
  EXPECT_LE(C->totalSize(), 60000u + 20000u);
  for (const auto &E : C->list()) {
    std::string W;
    EXPECT_TRUE(C->readArtifact(E.Key, "host.o", W)) << W;
  }
}

// --- unwritable directories and failing writes ---

TEST_F(DiskCacheTest, OpenUnderAFileFailsNamingTheDirectory) {
  writeText(Root + "/file", "x");
  auto C = DiskCache::open(Root + "/file/cache", 1 << 20);
  ASSERT_FALSE(bool(C));
  std::string Message;
  EXPECT_EQ(takeError(C.takeError(), Message), ErrorCode::InvalidArgument);
  EXPECT_NE(Message.find(Root + "/file/cache"), std::string::npos) << Message;
  EXPECT_NE(Message.find("JACC_CACHE_DIR"), std::string::npos) << Message;
  C = DiskCache::open("", 1 << 20);
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(takeError(C.takeError(), Message), ErrorCode::InvalidArgument);
}

/// The read-only directory checks; what failed, as text (they also run in a child process).
std::vector<std::string> readOnlyDirectoryChecks(const std::string &Dir) {
  std::vector<std::string> Failed;
  auto Check = [&](bool Ok, const std::string &What) {
    if (!Ok)
      Failed.push_back(What);
  };
  {
    auto C = DiskCache::open(Dir, 1ull << 30);
    if (!C) {
      Failed.push_back("open: " + llvm::toString(C.takeError()));
      return Failed;
    }
    Check(!llvm::errorToBool(C->store(key("aa"), summary("a"), {{"host.o", "x"}})), "store aa");
    Check(::mkdir((Dir + "/plain").c_str(), 0555) == 0, "mkdir plain 0555");
    Check(::chmod(Dir.c_str(), 0555) == 0, "chmod 0555");
    std::string Message;
    ErrorCode Code = takeError(C->store(key("bb"), summary("b"), {{"host.o", "x"}}), Message);
    Check(!Message.empty() && Code != ErrorCode::InvalidArgument,
          "store into a read-only directory is an I/O error: " + Message);
    Check(Message.find(Dir) != std::string::npos, "the message names the directory: " + Message);
    Check(Message.find("writable") != std::string::npos, "the message says why: " + Message);
    std::string W;
    Check(C->lookup(key("aa"), W).has_value(), "reading still works: " + W);
    Check(llvm::errorToBool(C->addStats(DiskCacheStats())), "statistics cannot be written");
  }
  // A jacc cache that cannot be written opens read-only: its entries hit, nothing is written.
  auto C = DiskCache::open(Dir, 1 << 20);
  if (!C) {
    Failed.push_back("open of a read-only cache: " + llvm::toString(C.takeError()));
    return Failed;
  }
  Check(C->readOnly(), "a read-only cache opens read-only");
  std::string W;
  Check(C->lookup(key("aa"), W).has_value(), "a read-only cache hits: " + W);
  Check(!llvm::errorToBool(C->recordHit(key("aa"))), "a hit is not recorded, and no error");
  Check(!llvm::errorToBool(C->store(key("cc"), summary("c"), {{"host.o", "x"}})),
        "a store is skipped, and no error");
  Check(!C->lookup(key("cc"), W).has_value(), "nothing was stored");
  Check(llvm::errorToBool(C->clear()), "clear of a read-only cache is an error");
  // A read-only directory that is not a jacc cache fails.
  std::string Message;
  auto NotCache = DiskCache::open(Dir + "/plain", 1 << 20);
  Check(!bool(NotCache), "open of a read-only directory that is no cache fails");
  if (!NotCache) {
    ErrorCode Code = takeError(NotCache.takeError(), Message);
    Check(Code == ErrorCode::InvalidArgument, "open: InvalidArgument: " + Message);
  }
  Check(Message.find(Dir + "/plain") != std::string::npos &&
            Message.find("not writable") != std::string::npos,
        "open: the message names the directory and the problem: " + Message);
  // A directory that cannot be created.
  C = DiskCache::open(Dir + "/sub", 1 << 20);
  Check(!bool(C), "open of a directory that cannot be created fails");
  if (!C) {
    ErrorCode Code = takeError(C.takeError(), Message);
    Check(Code == ErrorCode::InvalidArgument && Message.find(Dir + "/sub") != std::string::npos,
          "open of " + Dir + "/sub: " + Message);
  }
  return Failed;
}

TEST_F(DiskCacheTest, ReadOnlyDirectory) {
  if (::geteuid() != 0) {
    for (const std::string &F : readOnlyDirectoryChecks(Dir))
      ADD_FAILURE() << F;
    return;
  }
  // chmod does not stop root: the checks run in a child that has become 'nobody' (65534).
  ASSERT_EQ(::chown(Root.c_str(), 65534, 65534), 0);
  int Fds[2];
  ASSERT_EQ(::pipe(Fds), 0);
  pid_t Pid = ::fork();
  ASSERT_GE(Pid, 0);
  if (Pid == 0) {
    ::close(Fds[0]);
    std::string Out;
    if (::setgid(65534) != 0 || ::setuid(65534) != 0)
      Out = "cannot become uid 65534\n";
    else
      for (const std::string &F : readOnlyDirectoryChecks(Dir))
        Out += F + "\n";
    if (::write(Fds[1], Out.data(), Out.size()) != static_cast<ssize_t>(Out.size()))
      ::_exit(2);
    ::_exit(0);
  }
  ::close(Fds[1]);
  std::string Out;
  char Buf[512];
  for (ssize_t R; (R = ::read(Fds[0], Buf, sizeof Buf)) > 0;)
    Out.append(Buf, R);
  ::close(Fds[0]);
  int Status = 0;
  ASSERT_EQ(::waitpid(Pid, &Status, 0), Pid);
  EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0) << "child status " << Status;
  EXPECT_EQ(Out, "") << "failed as uid 65534:\n" << Out;
}

TEST_F(DiskCacheTest, FailingWritesAreErrors) {
  // A file size limit makes write(2) fail (EFBIG) as a full disk would (ENOSPC): the store must
  // say so, leave no entry that lookup takes for valid, and not crash. In a child process, whose
  // limit does not touch the test's own files.
  auto C = openCache();
  ASSERT_TRUE(C);
  std::string K = key("f0");
  int Pipe[2];
  ASSERT_EQ(::pipe(Pipe), 0);
  pid_t P = spawn([&] {
    ::close(Pipe[0]);
    std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit L = {4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &L) != 0)
      return 10;
    auto D = openIn(Dir, 1ull << 30);
    if (!D)
      return 11;
    llvm::Error E = D->store(K, summary("k"), {{"host.o", bytes(100000, 1)}});
    if (!E)
      return 12;
    std::string Message = llvm::toString(std::move(E));
    if (::write(Pipe[1], Message.data(), Message.size()) < 0)
      return 13;
    // Adding a large artifact to a valid entry fails the same way, and leaves the entry valid.
    if (llvm::Error E2 = D->store(key("f1"), summary("k"), {{"host.o", "x"}})) {
      llvm::consumeError(std::move(E2));
      return 14;
    }
    E = D->addArtifact(key("f1"), "big.o", bytes(100000, 2));
    if (!E)
      return 15;
    llvm::consumeError(std::move(E));
    std::string W;
    return D->readArtifact(key("f1"), "host.o", W) && W.empty() ? 0 : 16;
  });
  ::close(Pipe[1]);
  std::string Message;
  char Buf[512];
  for (ssize_t N; (N = ::read(Pipe[0], Buf, sizeof Buf)) > 0;)
    Message.append(Buf, static_cast<size_t>(N));
  ::close(Pipe[0]);
  EXPECT_EQ(waitFor(P), 0);
  EXPECT_NE(Message.find(C->entryDir(K) + "/host.o"), std::string::npos) << Message;
  EXPECT_NE(Message.find("too large"), std::string::npos) << Message;
  EXPECT_NE(Message.find("free some space"), std::string::npos) << Message;
  std::string W;
  EXPECT_FALSE(C->lookup(K, W));
  EXPECT_EQ(W, ""); // the half-written entry was removed
  EXPECT_FALSE(exists(C->entryDir(K)));
  EXPECT_EQ(C->list().size(), 1u); // f1 only
  ASSERT_FALSE(llvm::errorToBool(C->store(K, summary("k"), {{"host.o", "x"}})));
  EXPECT_TRUE(C->lookup(K, W)) << W;
}

// --- cost of a hit ---

TEST_F(DiskCacheTest, HitIsCheap) {
  auto C = openCache();
  ASSERT_TRUE(C);
  // A cache with other entries: a hit must not depend on them.
  for (int I = 0; I < 200; ++I) {
    char P[8];
    std::snprintf(P, sizeof P, "%04x", I);
    ASSERT_FALSE(llvm::errorToBool(C->store(key(P), summary(P), {{"host.o", bytes(2000, I)}})));
  }
  std::string K = key("feed"), Host = bytes(20 * 1024, 3);
  llvm::json::Object Sum = summary("saxpy");
  Sum["source"] = std::string(2000, 'x');
  ASSERT_FALSE(llvm::errorToBool(C->store(K, Sum, {{"host.o", Host}})));
  const int N = 500;
  auto Start = std::chrono::steady_clock::now();
  for (int I = 0; I < N; ++I) {
    std::string W;
    auto S = C->lookup(K, W);
    auto H = C->readArtifact(K, "host.o", W);
    ASSERT_TRUE(S && H) << W;
    ASSERT_FALSE(llvm::errorToBool(C->recordHit(K)));
  }
  double Us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - Start).count() /
      N;
  std::printf("lookup + readArtifact (20 KiB) + recordHit: %.1f us\n", Us);
  RecordProperty("hit_us", std::to_string(Us));
  // The target is well under 2 ms (about 0.2 to 0.6 ms on ext4, most of it recordHit's create and
  // rename of entry.json); the bound is loose because test machines are shared and loaded, but a
  // hit that walked the cache or read every entry would still exceed it.
  EXPECT_LT(Us, 20000.0);
  auto F = C->find("feed");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->Hits, uint64_t(N));
}

} // namespace
