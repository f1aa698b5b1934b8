// Tests of what a kernel's disk cache entry holds: its artifact names (pinned: entries written by
// other processes use them), the rule that recognises a variant's record, variant records read
// back, and the summary fields `jacc-cache` displays read back from what the summary writer wrote.
#include "jit/cache/KernelEntry.h"

#include "analysis/Pipeline.h"
#include "jit/cache/KernelSummary.h"

#include <gtest/gtest.h>

#include <string>

using namespace jacc;
using namespace jacc::jit;
namespace json = llvm::json;

namespace {

TEST(KernelEntryTest, ArtifactNames) {
  EXPECT_STREQ(hostObjectArtifact(/*Split=*/false), "host.o");
  EXPECT_STREQ(hostObjectArtifact(/*Split=*/true), "host-split.o");
  // A variant's stem: "spec-" and 16 lowercase hex digits of the xxHash64 of its key.
  std::string Stem = variantArtifactStem("n=100;m=64");
  EXPECT_EQ(Stem, "spec-fb18d04ba2a25836");
  EXPECT_EQ(variantArtifactStem("n=100;m=64"), Stem);
  EXPECT_NE(variantArtifactStem("n=100;m=65"), Stem);
  for (const char *Key : {"", "a=1", "n=5"}) {
    std::string S = variantArtifactStem(Key);
    EXPECT_EQ(S.size(), 5u + 16u) << S;
    EXPECT_EQ(S.find_first_not_of("0123456789abcdef", 5), std::string::npos) << S;
  }
  EXPECT_EQ(variantArtifact(Stem, hostObjectArtifact(false)), Stem + ".host.o");
  EXPECT_EQ(variantArtifact(Stem, "sm_80-split"), Stem + ".sm_80-split");
  EXPECT_EQ(variantRecordArtifact(Stem), Stem + ".json");
}

TEST(KernelEntryTest, OnlyAVariantsRecordIsOne) {
  std::string Stem = variantArtifactStem("n=8");
  EXPECT_TRUE(isVariantRecordArtifact(variantRecordArtifact(Stem)));
  EXPECT_TRUE(isVariantRecordArtifact("spec-00000000000000aa.json"));
  // Every other artifact of a variant or of the kernel, and names that only look alike.
  // A device target's code (stem "sm_80-split") keeps JSON artifacts beside its image.
  std::string DeviceStem = variantArtifact(Stem, "sm_80-split");
  for (const std::string &Name :
       {variantArtifact(Stem, hostObjectArtifact(false)),
        variantArtifact(Stem, hostObjectArtifact(true)), DeviceStem + ".cubin",
        DeviceStem + ".json", std::string("sm_80.json"), std::string(hostObjectArtifact(false)),
        std::string("spec-00000000000000a.json"), std::string("spec-000000000000000aa.json"),
        std::string("spec-0000000000000zzz.json"),
        std::string("spec-00000000000000aa.json.tmp.1.2"),
        std::string("x-spec-00000000000000aa.json"), std::string("summary.json")})
    EXPECT_FALSE(isVariantRecordArtifact(Name)) << Name;
}

TEST(KernelEntryTest, VariantRecordRoundTrip) {
  std::string Text = variantRecordJson("n=5;m=64", 39.5, 12);
  EXPECT_EQ(Text, R"({"compile_ms":39.5,"hits":12,"values":"n=5;m=64"})");
  std::optional<VariantRecord> R = parseVariantRecord(Text);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Values, "n=5;m=64");
  EXPECT_EQ(R->CompileMs, 39.5);
  EXPECT_EQ(R->Hits, 12);
  EXPECT_EQ(json::Value(json::Object(R->Stored)), json::parse(Text).get());
  // Tolerant of missing fields; not of what is no JSON object.
  R = parseVariantRecord(R"({"other": 1})");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Values, "");
  EXPECT_EQ(R->CompileMs, std::nullopt);
  EXPECT_EQ(R->Hits, 0);
  EXPECT_FALSE(parseVariantRecord("[1]"));
  EXPECT_FALSE(parseVariantRecord("{\"hits\":"));
}

TEST(KernelEntryTest, SummaryFieldsAsTheWriterWroteThem) {
  const char *Source = "#pragma acc parallel loop\n"
                       "for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n";
  auto K = analysis::runAnalysis(Source, {"int n", "float a", "const float *x", "float *y"});
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  json::Object Summary = kernelSummary(*K, "x86_64-unknown-linux-gnu skylake +avx2", 3.5, 25.25);
  KernelSummaryFields F = readKernelSummaryFields(Summary);
  EXPECT_EQ(F.Name, "for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];");
  EXPECT_EQ(F.Target, "x86_64-unknown-linux-gnu skylake +avx2");
  EXPECT_EQ(F.Source, std::string(Source));
  EXPECT_EQ(F.Decls, (std::vector<std::string>{"int n", "float a", "const float *x", "float *y"}));
  EXPECT_EQ(F.AnalysisMs, 3.5);
  EXPECT_EQ(F.CompileMs, 25.25);
  ASSERT_TRUE(F.Rewritten);
  ASSERT_TRUE(F.Compilers);
  ASSERT_EQ(F.Compilers->size(), 4u);
  EXPECT_EQ((*F.Compilers)[0].first, "llvm");
  EXPECT_EQ((*F.Compilers)[1].first, "nvrtc");
  EXPECT_EQ((*F.Compilers)[2].first, "jacc");
  EXPECT_EQ((*F.Compilers)[2].second, JACC_VERSION);
  EXPECT_EQ((*F.Compilers)[3], (std::pair<std::string, std::string>("format", "1")));
  ASSERT_TRUE(F.Split);
  EXPECT_EQ(F.Split->Enabled, K->Split.Enabled);
  EXPECT_EQ(F.Split->Narrowable, K->Split.Plan.Narrowable);
  EXPECT_EQ(F.Split->Fallback, K->Split.Fallback);
  ASSERT_EQ(F.Split->Arrays.size(), K->Split.Plan.Arrays.size());
  for (size_t I = 0; I < F.Split->Arrays.size(); ++I) {
    EXPECT_EQ(F.Split->Arrays[I].Name, K->Split.Plan.Arrays[I].Name);
    EXPECT_EQ(F.Split->Arrays[I].Dim, int64_t(K->Split.Plan.Arrays[I].Dim));
    EXPECT_EQ(F.Split->Arrays[I].Affine, K->Split.Plan.Arrays[I].Affine);
  }
  ASSERT_TRUE(F.Gpu);
  EXPECT_GT(F.Gpu->BlockSize, 0);
  EXPECT_FALSE(F.Gpu->BlockWhy.empty());
  EXPECT_FALSE(F.Gpu->Traits.empty());
}

TEST(KernelEntryTest, SummaryFieldsMayBeMissingOrMistyped) {
  KernelSummaryFields Empty = readKernelSummaryFields(json::Object{});
  EXPECT_FALSE(Empty.Name || Empty.Target || Empty.Source || Empty.Rewritten || Empty.AnalysisMs ||
               Empty.CompileMs || Empty.Compilers || Empty.Split || Empty.Gpu);
  EXPECT_TRUE(Empty.Decls.empty());
  KernelSummaryFields F = readKernelSummaryFields(
      json::Object{{"name", 42},
                   {"decls", json::Array{"int n", 7}},
                   {"compilers", json::Object{{"zeta", true}, {"jacc", "0.1"}, {"alpha", 2}}},
                   {"split", json::Object{{"arrays", json::Array{1, json::Object{{"name", "y"}}}}}},
                   {"gpu", json::Object{{"block_size", "big"}}}});
  EXPECT_EQ(F.Name, std::nullopt) << "a name that is no string";
  EXPECT_EQ(F.Decls, (std::vector<std::string>{"int n", "7"})) << "items as their JSON";
  ASSERT_TRUE(F.Compilers);
  EXPECT_EQ(*F.Compilers, (std::vector<std::pair<std::string, std::string>>{
                              {"jacc", "0.1"}, {"alpha", "2"}, {"zeta", "true"}}));
  ASSERT_TRUE(F.Split);
  EXPECT_EQ(F.Split->Enabled, std::nullopt);
  ASSERT_EQ(F.Split->Arrays.size(), 1u) << "items that are no object are skipped";
  EXPECT_EQ(F.Split->Arrays[0].Name, "y");
  EXPECT_EQ(F.Split->Arrays[0].Dim, std::nullopt);
  ASSERT_TRUE(F.Gpu);
  EXPECT_EQ(F.Gpu->BlockSize, 0);
}

} // namespace
