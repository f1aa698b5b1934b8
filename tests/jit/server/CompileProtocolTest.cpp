// Tests of the compile server's wire format: messages survive any split of the byte stream,
// garbage is an error, and the hello names a version mismatch.
#include "jit/server/CompileProtocol.h"

#include <gtest/gtest.h>

using namespace jacc::jit::server;

TEST(CompileProtocolTest, MessagesSurviveAnySplit) {
  Message A = hostCompileRequest("int x;\n", std::string("a\0b", 3));
  Message B = okReply(std::string(100000, '\x7f'), "", "kernel:1:1: remark: vectorized");
  std::string Bytes = encode(A) + encode(B);
  for (size_t Piece : {size_t(1), size_t(7), size_t(4096), Bytes.size()}) {
    MessageReader R;
    std::vector<Message> Got;
    for (size_t At = 0; At < Bytes.size(); At += Piece) {
      R.feed(llvm::StringRef(Bytes).substr(At, Piece));
      for (;;) {
        auto M = R.next();
        ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
        if (!*M)
          break;
        Got.push_back(std::move(**M));
      }
    }
    ASSERT_EQ(Got.size(), 2u) << "pieces of " << Piece;
    EXPECT_EQ(Got[0], A);
    EXPECT_EQ(Got[1], B);
  }
}

TEST(CompileProtocolTest, GarbageIsAnError) {
  MessageReader R;
  R.feed("hello, I am something else\n");
  auto M = R.next();
  ASSERT_FALSE(bool(M));
  EXPECT_NE(llvm::toString(M.takeError()).find("malformed message"), std::string::npos);
  MessageReader Huge;
  Huge.feed(std::string("JCS1") + std::string("\xff\xff\xff\xff", 4));
  auto H = Huge.next();
  ASSERT_FALSE(bool(H));
  llvm::consumeError(H.takeError());
}

TEST(CompileProtocolTest, HelloChecksTheVersion) {
  EXPECT_FALSE(checkHello(helloMessage()));
  Message Old = helloMessage();
  Old[2] = "0.0.1";
  auto Wrong = checkHello(Old);
  ASSERT_TRUE(Wrong);
  EXPECT_NE(Wrong->find("it is jacc 0.0.1"), std::string::npos) << *Wrong;
  EXPECT_TRUE(checkHello({"something"}));
}

TEST(CompileProtocolTest, AnalysisRequestCarriesAnyNumberOfDeclarations) {
  std::vector<std::string> Decls;
  for (int I = 0; I < 40; ++I) // more than a message's strings
    Decls.push_back("double a" + std::to_string(I));
  Decls.push_back("");
  Message M = analysisRequest("#pragma acc serial\n{}\n", Decls);
  ASSERT_EQ(M.size(), 3u);
  EXPECT_EQ(M[1], "#pragma acc serial\n{}\n");
  EXPECT_EQ(analysisDecls(M), Decls);
  EXPECT_TRUE(analysisDecls(analysisRequest("k", {})).empty());
}
