// Tests of the disk cache's file primitives: atomic writes and bounded reads, directory listings,
// tree sizes and removal, file locks, and the errors that say what to do.
#include "jit/cache/CacheFiles.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace jacc::jit::diskcache;

namespace {

class CacheFilesTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> P;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("jacc-cachefiles", P));
    Dir = std::string(P);
  }
  // std::filesystem removes the FIFO too (LLVM's remove_directories leaves it, and the directory).
  void TearDown() override { std::filesystem::remove_all(Dir); }

  void write(llvm::StringRef Name, llvm::StringRef Bytes) {
    ASSERT_FALSE(llvm::errorToBool(writeFileAtomic(Dir, Name, Bytes))) << Name.str();
  }

  std::string Dir;
};

TEST_F(CacheFilesTest, AtomicWriteThenBoundedRead) {
  write("a.bin", "hello");
  write("a.bin", "replaced"); // a rename over the old file
  std::string Out;
  EXPECT_EQ(readFile(pathJoin(Dir, "a.bin"), 100, Out), 0);
  EXPECT_EQ(Out, "replaced");
  EXPECT_EQ(readFile(pathJoin(Dir, "a.bin"), 8, Out), 0) << "exactly the bound";
  EXPECT_EQ(readFile(pathJoin(Dir, "a.bin"), 7, Out), EFBIG);
  EXPECT_EQ(Out, "") << "nothing of a file too large";
  EXPECT_EQ(readFile(pathJoin(Dir, "missing"), 100, Out), ENOENT);
  EXPECT_EQ(readFile(Dir, 100, Out), EISDIR);
  // A FIFO is no regular file: refused without blocking.
  ASSERT_EQ(::mkfifo(pathJoin(Dir, "fifo").c_str(), 0600), 0);
  EXPECT_EQ(readFile(pathJoin(Dir, "fifo"), 100, Out), EISDIR);
  // No temporary file is left behind.
  EXPECT_EQ(listDir(Dir), (std::vector<std::string>{"a.bin", "fifo"}));
}

TEST_F(CacheFilesTest, WriteIntoAMissingDirectoryNamesTheFile) {
  llvm::Error E = writeFileAtomic(pathJoin(Dir, "none"), "x", "bytes");
  ASSERT_TRUE(bool(E));
  std::string Message = llvm::toString(std::move(E));
  EXPECT_EQ(Message.rfind("kernel cache: cannot create '" + Dir + "/none/x.tmp.", 0), 0u)
      << Message;
}

TEST_F(CacheFilesTest, ListingsSizesAndRemoval) {
  write("b", std::string(100, 'b'));
  write("a", std::string(10, 'a'));
  ASSERT_EQ(::mkdir(pathJoin(Dir, "sub").c_str(), 0755), 0);
  ASSERT_FALSE(llvm::errorToBool(writeFileAtomic(pathJoin(Dir, "sub"), "c", "ccc")));
  ASSERT_EQ(::symlink("b", pathJoin(Dir, "link").c_str()), 0);
  EXPECT_EQ(listDir(Dir), (std::vector<std::string>{"a", "b", "link", "sub"})) << "sorted";
  EXPECT_TRUE(listDir(pathJoin(Dir, "missing")).empty());
  EXPECT_EQ(treeSize(Dir), 113u) << "symbolic links are not followed";
  EXPECT_EQ(treeSize(Dir, 1), 110u) << "no deeper than asked";
  EXPECT_EQ(treeSize(pathJoin(Dir, "a")), 10u);
  EXPECT_TRUE(isDirectory(pathJoin(Dir, "sub")));
  EXPECT_FALSE(isDirectory(pathJoin(Dir, "a")));
  EXPECT_EQ(removeTree(pathJoin(Dir, "sub")), 0);
  EXPECT_EQ(removeTree(pathJoin(Dir, "a")), 0);
  EXPECT_EQ(removeTree(pathJoin(Dir, "missing")), 0) << "nothing to remove is no error";
  EXPECT_EQ(listDir(Dir), (std::vector<std::string>{"b", "link"}));
}

TEST_F(CacheFilesTest, LocksCreateTheirDirectoriesAndAreSeenHeld) {
  std::string Parent = pathJoin(Dir, "ab"), Entry = pathJoin(Parent, "abcd");
  std::string Lock = pathJoin(Entry, "entry.lock");
  FileLock L;
  EXPECT_EQ(lockIn(Entry, "entry.lock", /*MakeDirs=*/false, {}, L), ENOENT);
  EXPECT_FALSE(lockHeld(Lock));
  // A file where a directory should be is replaced.
  ASSERT_FALSE(llvm::errorToBool(writeFileAtomic(Dir, "ab", "garbage")));
  ASSERT_EQ(lockIn(Entry, "entry.lock", /*MakeDirs=*/true, {Parent}, L), 0);
  EXPECT_TRUE(isDirectory(Parent));
  EXPECT_GE(L.FD, 0);
  EXPECT_TRUE(lockHeld(Lock));
  FileLock Moved = std::move(L);
  EXPECT_TRUE(lockHeld(Lock));
  Moved = FileLock();
  EXPECT_FALSE(lockHeld(Lock)) << "released with its descriptor";
  FileLock Again;
  EXPECT_EQ(lockIn(Entry, "entry.lock", /*MakeDirs=*/false, {}, Again), 0);
}

TEST(CacheFilesErrorTest, SaysWhatToDo) {
  auto Text = [](int E) { return llvm::toString(ioError("write", "/c/x", E)); };
  EXPECT_EQ(Text(ENOENT).rfind("kernel cache: cannot write '/c/x': ", 0), 0u) << Text(ENOENT);
  for (int Full : {ENOSPC, EDQUOT, EFBIG})
    EXPECT_NE(Text(Full).find("free some space"), std::string::npos) << Text(Full);
  for (int Denied : {EACCES, EPERM, EROFS})
    EXPECT_NE(Text(Denied).find("make it writable"), std::string::npos) << Text(Denied);
  EXPECT_EQ(errnoText(ENOENT), "No such file or directory");
}

} // namespace
