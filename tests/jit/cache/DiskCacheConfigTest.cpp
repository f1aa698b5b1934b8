// Tests of the disk cache's configuration from the environment: the directory from each source,
// the switch and the size limit, and sizes as text.
#include "jit/cache/DiskCacheConfig.h"

#include "support/Error.h"
#include "tests/ScopedEnv.h"

#include <llvm/Support/Path.h>

#include <gtest/gtest.h>

using namespace jacc;
using namespace jacc::jit;

namespace {

TEST(DiskCacheConfigTest, DirectoryFromEachSource) {
  ScopedEnv NoCache("JACC_CACHE", nullptr), NoSize("JACC_CACHE_MAX_SIZE", nullptr);
  {
    ScopedEnv D("JACC_CACHE_DIR", "/some/where"), X("XDG_CACHE_HOME", "/xdg");
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    EXPECT_EQ(C->Dir, "/some/where");
    EXPECT_EQ(C->DirFrom, "JACC_CACHE_DIR");
    EXPECT_TRUE(C->Enabled);
    EXPECT_EQ(C->EnabledFrom, "default");
    EXPECT_EQ(C->MaxSize, 1ull << 30);
    EXPECT_EQ(C->MaxSizeFrom, "default");
  }
  {
    // A relative directory becomes absolute: every message names one place.
    ScopedEnv D("JACC_CACHE_DIR", "relative/dir");
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    EXPECT_TRUE(llvm::sys::path::is_absolute(C->Dir)) << C->Dir;
    EXPECT_TRUE(llvm::StringRef(C->Dir).endswith("/relative/dir")) << C->Dir;
  }
  ScopedEnv D("JACC_CACHE_DIR", nullptr);
  {
    ScopedEnv X("XDG_CACHE_HOME", "/xdg"), H("HOME", "/home/u");
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    EXPECT_EQ(C->Dir, "/xdg/jacc");
    EXPECT_EQ(C->DirFrom, "XDG_CACHE_HOME");
  }
  {
    // The XDG specification: a relative XDG_CACHE_HOME is ignored.
    ScopedEnv X("XDG_CACHE_HOME", "xdg"), H("HOME", "/home/u");
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    EXPECT_EQ(C->Dir, "/home/u/.cache/jacc");
    EXPECT_EQ(C->DirFrom, "HOME");
  }
  {
    ScopedEnv X("XDG_CACHE_HOME", nullptr), H("HOME", nullptr);
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    EXPECT_EQ(C->DirFrom, "default");
    // From the password database; with no home at all the cache is off rather than shared.
    EXPECT_TRUE(C->Enabled ? llvm::StringRef(C->Dir).endswith("/.cache/jacc") : C->Dir.empty())
        << C->Dir;
  }
}

TEST(DiskCacheConfigTest, EnabledAndMaxSize) {
  ScopedEnv D("JACC_CACHE_DIR", "/c");
  for (const char *Off : {"off", "OFF", "0", "false", "no", " off "}) {
    ScopedEnv E("JACC_CACHE", Off);
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << Off << ": " << llvm::toString(C.takeError());
    EXPECT_FALSE(C->Enabled) << Off;
    EXPECT_EQ(C->EnabledFrom, "JACC_CACHE");
  }
  for (const char *On : {"on", "1", "true", "yes", "Yes"}) {
    ScopedEnv E("JACC_CACHE", On);
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << On << ": " << llvm::toString(C.takeError());
    EXPECT_TRUE(C->Enabled) << On;
    EXPECT_FALSE(C->ReadOnly) << On;
    EXPECT_EQ(C->EnabledFrom, "JACC_CACHE");
  }
  for (const char *RO : {"readonly", "ReadOnly"}) {
    ScopedEnv E("JACC_CACHE", RO);
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << RO << ": " << llvm::toString(C.takeError());
    EXPECT_TRUE(C->Enabled && C->ReadOnly) << RO;
    EXPECT_EQ(C->EnabledFrom, "JACC_CACHE");
  }
  {
    ScopedEnv E("JACC_CACHE", "maybe");
    auto C = diskCacheConfigFromEnv();
    ASSERT_FALSE(bool(C));
    std::string Message;
    EXPECT_EQ(takeError(C.takeError(), Message), ErrorCode::InvalidArgument);
    EXPECT_NE(Message.find("JACC_CACHE='maybe'"), std::string::npos) << Message;
    EXPECT_NE(Message.find("off"), std::string::npos) << Message;
  }
  {
    ScopedEnv S("JACC_CACHE_MAX_SIZE", "500M");
    auto C = diskCacheConfigFromEnv();
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    EXPECT_EQ(C->MaxSize, 500ull << 20);
    EXPECT_EQ(C->MaxSizeFrom, "JACC_CACHE_MAX_SIZE");
  }
  {
    ScopedEnv S("JACC_CACHE_MAX_SIZE", "lots");
    auto C = diskCacheConfigFromEnv();
    ASSERT_FALSE(bool(C));
    std::string Message;
    EXPECT_EQ(takeError(C.takeError(), Message), ErrorCode::InvalidArgument);
    EXPECT_NE(Message.find("JACC_CACHE_MAX_SIZE='lots'"), std::string::npos) << Message;
    EXPECT_NE(Message.find("500M"), std::string::npos) << Message;
  }
}

TEST(DiskCacheConfigTest, ParseSize) {
  struct Case {
    const char *Text;
    uint64_t Value;
  } Good[] = {{"0", 0},
              {"123456", 123456},
              {"1K", 1024},
              {"1k", 1024},
              {"2M", 2ull << 20},
              {"1G", 1ull << 30},
              {"3T", 3ull << 40},
              {"1GB", 1ull << 30},
              {"1GiB", 1ull << 30},
              {"4 mib", 4ull << 20},
              {" 5M ", 5ull << 20},
              {"100B", 100},
              {"16777215T", 16777215ull << 40}};
  for (const Case &C : Good) {
    auto N = parseSize(C.Text);
    ASSERT_TRUE(bool(N)) << C.Text << ": " << llvm::toString(N.takeError());
    EXPECT_EQ(*N, C.Value) << C.Text;
  }
  for (const char *Bad : {"", "G", "1.5G", "-1", "1X", "1KiBB", "1iB", "K1", "1 2",
                          "99999999999999999999", "16777216T"}) {
    auto N = parseSize(Bad);
    ASSERT_FALSE(bool(N)) << "'" << Bad << "' parsed as " << *N;
    std::string Message;
    EXPECT_EQ(takeError(N.takeError(), Message), ErrorCode::InvalidArgument);
    EXPECT_NE(Message.find("not a size"), std::string::npos) << Message;
  }
}

} // namespace
