// Tests of the disk cache's own files: entry.json and stats.json written and read back, what a bad
// entry.json is reported as, checksums, and JSON nested too deeply to parse.
#include "jit/cache/StoreFormat.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc::jit;
using namespace jacc::jit::diskcache;

namespace {

const std::string Key = "ab" + std::string(62, '0');

EntryMeta sampleEntry() {
  EntryMeta M;
  M.Created = 1000;
  M.LastUsed = 2000;
  M.Hits = 7;
  M.Summary = {12, checksum("{\"name\": 1}")};
  M.Artifacts["host.o"] = {5, checksum("hello")};
  M.Artifacts["sm_80.cubin"] = {3, checksum("abc")};
  return M;
}

/// The problem parseEntry reports for Text ("" when it parses).
std::string problemOf(const std::string &Text) {
  EntryMeta M;
  std::string Why;
  return parseEntry(Text, Key, M, Why) ? "" : Why;
}

TEST(StoreFormatTest, EntryRoundTrip) {
  EntryMeta M = sampleEntry(), Back;
  std::string Why;
  std::string Text = entryJson(Key, M);
  ASSERT_TRUE(parseEntry(Text, Key, Back, Why)) << Why << "\n" << Text;
  EXPECT_EQ(Back.Created, 1000);
  EXPECT_EQ(Back.LastUsed, 2000);
  EXPECT_EQ(Back.Hits, 7u);
  EXPECT_EQ(Back.Summary.Size, 12u);
  EXPECT_EQ(Back.Summary.Checksum, M.Summary.Checksum);
  ASSERT_EQ(Back.Artifacts.size(), 2u);
  EXPECT_EQ(Back.Artifacts["host.o"].Size, 5u);
  EXPECT_EQ(Back.Artifacts["sm_80.cubin"].Checksum, checksum("abc"));
  EXPECT_NE(Text.find("\"format\": 1"), std::string::npos) << Text;
}

TEST(StoreFormatTest, BadEntriesSayWhy) {
  std::string Good = entryJson(Key, sampleEntry());
  auto With = [&](const std::string &From, const std::string &To) {
    std::string T = Good;
    size_t At = T.find(From);
    EXPECT_NE(At, std::string::npos) << From;
    return At == std::string::npos ? T : T.replace(At, From.size(), To);
  };
  EXPECT_EQ(problemOf(""), "entry.json: empty");
  EXPECT_EQ(problemOf("[1]"), "entry.json: not a JSON object");
  EXPECT_EQ(problemOf(std::string(300, '[')), "entry.json: not valid JSON (nested too deeply)");
  EXPECT_EQ(problemOf("{\"key\": 1}"), "entry.json: no format version");
  EXPECT_EQ(problemOf(With("\"format\": 1", "\"format\": 2")),
            "entry.json: format 2, this jacc reads format 1");
  EXPECT_EQ(problemOf(With(Key, "cd" + std::string(62, '0'))),
            "entry.json: belongs to key 'cd" + std::string(62, '0') + "'");
  EXPECT_EQ(problemOf(With("\"hits\": 7", "\"hits\": -1")),
            "entry.json: created, last_used or hits missing or not an integer");
  EXPECT_EQ(problemOf(With("\"host.o\"", "\"entry.json\"")),
            "entry.json: bad artifact record 'entry.json'");
}

TEST(StoreFormatTest, Checksums) {
  std::string C = checksum("bytes");
  EXPECT_EQ(C.rfind("xxh64:", 0), 0u);
  EXPECT_EQ(C.size(), 6u + 16u);
  EXPECT_EQ(C, checksum("bytes"));
  EXPECT_NE(C, checksum("bytez"));
}

TEST(StoreFormatTest, StatsRoundTripAndGarbage) {
  DiskCacheStats S;
  S.MemoryHits = 1;
  S.DiskHits = 2;
  S.Misses = 3;
  S.CompileMsSaved = 4.5;
  S.Evictions = 6;
  S.ZeroedAt = 7;
  DiskCacheStats Back = parseStats(statsJson(S));
  EXPECT_EQ(Back.MemoryHits, 1u);
  EXPECT_EQ(Back.DiskHits, 2u);
  EXPECT_EQ(Back.Misses, 3u);
  EXPECT_DOUBLE_EQ(Back.CompileMsSaved, 4.5);
  EXPECT_EQ(Back.Evictions, 6u);
  EXPECT_EQ(Back.ZeroedAt, 7);
  // A mistyped counter is zero, the others count; garbage is all zeros.
  Back = parseStats("{\"disk_hits\": \"many\", \"misses\": 3}");
  EXPECT_EQ(Back.DiskHits, 0u);
  EXPECT_EQ(Back.Misses, 3u);
  EXPECT_EQ(parseStats("{{{").Misses, 0u);
}

} // namespace
