// Reading a JACC_TRACE file back in the tests (unit and end to end): its spans by track, and the
// checks every trace must pass whatever it holds.
#ifndef JACC_TESTS_TRACEREADER_H
#define JACC_TESTS_TRACEREADER_H

#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace jacc_test {

/// A complete ("X") event, its times in nanoseconds from the trace's start.
struct TraceSpan {
  std::string Name, Category, Track;
  int64_t Tid = 0, Start = 0, End = 0;
  const llvm::json::Object *Args = nullptr;

  int64_t intArg(llvm::StringRef Key) const { return Args->getInteger(Key).value_or(-1); }
  std::string textArg(llvm::StringRef Key) const { return Args->getString(Key).value_or("").str(); }
};

/// One end of a flow arrow ("s" or "f"), its time in nanoseconds.
struct TraceFlowEnd {
  int64_t Tid = 0, Time = 0;
};

/// A trace file as the tests see it. Not copyable: the spans point into Root.
struct TraceFile {
  TraceFile() = default;
  TraceFile(const TraceFile &) = delete;
  TraceFile &operator=(const TraceFile &) = delete;

  llvm::json::Value Root = nullptr;
  std::string ProcessName;
  std::map<int64_t, std::string> TrackNames; ///< by tid, from "thread_name"
  std::map<int64_t, int64_t> SortIndexes;    ///< by tid, from "thread_sort_index"
  std::vector<TraceSpan> Spans;              ///< in file order
  std::vector<const llvm::json::Object *> Counters;
  /// Flow arrows by id: their starts ("s") and finishes ("f").
  std::map<int64_t, std::vector<TraceFlowEnd>> FlowStarts, FlowEnds;
  const llvm::json::Object *Other = nullptr;
  /// Problems found while reading (fields missing or of the wrong type).
  std::vector<std::string> Problems;

  /// The spans on the track named Track, in file order.
  std::vector<TraceSpan> on(const std::string &Track) const {
    std::vector<TraceSpan> Out;
    for (const TraceSpan &S : Spans)
      if (S.Track == Track)
        Out.push_back(S);
    return Out;
  }
  /// The spans of category Category, in file order.
  std::vector<TraceSpan> ofCategory(const std::string &Category) const {
    std::vector<TraceSpan> Out;
    for (const TraceSpan &S : Spans)
      if (S.Category == Category)
        Out.push_back(S);
    return Out;
  }
  bool hasTrack(const std::string &Name) const {
    for (const auto &[Tid, N] : TrackNames)
      if (N == Name)
        return true;
    return false;
  }
  int64_t otherInt(llvm::StringRef Key) const {
    return Other ? Other->getInteger(Key).value_or(-1) : -1;
  }
};

/// Microseconds (a JSON number) as nanoseconds; -1 when missing.
inline int64_t traceNanos(const llvm::json::Object &E, llvm::StringRef Key) {
  std::optional<double> Us = E.getNumber(Key);
  return Us ? std::llround(*Us * 1000) : -1;
}

/// Parses the trace at Path into Out: a failure if it cannot be read or is not JSON.
inline ::testing::AssertionResult readTrace(const std::string &Path, TraceFile &Out) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return ::testing::AssertionFailure() << Path << ": " << Buffer.getError().message();
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return ::testing::AssertionFailure()
           << Path << " is not JSON: " << llvm::toString(Parsed.takeError());
  Out.Root = std::move(*Parsed);
  const llvm::json::Object *Top = Out.Root.getAsObject();
  const llvm::json::Array *Events = Top ? Top->getArray("traceEvents") : nullptr;
  if (!Events)
    return ::testing::AssertionFailure() << Path << " has no traceEvents array";
  if (Top->getString("displayTimeUnit") != std::optional<llvm::StringRef>("ns"))
    Out.Problems.push_back("displayTimeUnit is not \"ns\"");
  Out.Other = Top->getObject("otherData");
  for (const llvm::json::Value &V : *Events) {
    const llvm::json::Object *E = V.getAsObject();
    std::optional<llvm::StringRef> Ph = E ? E->getString("ph") : std::nullopt;
    std::optional<llvm::StringRef> Name = E ? E->getString("name") : std::nullopt;
    if (!Ph || !Name || !E->getInteger("pid")) {
      Out.Problems.push_back("an event without ph, name or pid");
      continue;
    }
    const llvm::json::Object *Args = E->getObject("args");
    int64_t Tid = E->getInteger("tid").value_or(-1);
    if (*Ph == "M" && Args) {
      if (*Name == "process_name")
        Out.ProcessName = Args->getString("name").value_or("").str();
      else if (*Name == "thread_name")
        Out.TrackNames[Tid] = Args->getString("name").value_or("").str();
      else if (*Name == "thread_sort_index")
        Out.SortIndexes[Tid] = Args->getInteger("sort_index").value_or(-1);
    } else if (*Ph == "X" && Args) {
      TraceSpan S;
      S.Name = Name->str();
      S.Category = E->getString("cat").value_or("").str();
      S.Tid = Tid;
      S.Start = traceNanos(*E, "ts");
      S.End = S.Start + traceNanos(*E, "dur");
      S.Args = Args;
      if (S.Start < 0 || S.End < S.Start)
        Out.Problems.push_back("span '" + S.Name + "' has ts or dur missing or negative");
      Out.Spans.push_back(S);
    } else if (*Ph == "C" && Args) {
      Out.Counters.push_back(E);
    } else if (*Ph == "s" || *Ph == "f") {
      int64_t Id = E->getInteger("id").value_or(-1);
      (*Ph == "s" ? Out.FlowStarts : Out.FlowEnds)[Id].push_back({Tid, traceNanos(*E, "ts")});
    } else {
      Out.Problems.push_back("event '" + Name->str() + "' of phase " + Ph->str() +
                             (Args ? "" : " without args"));
    }
  }
  for (TraceSpan &S : Out.Spans)
    S.Track = Out.TrackNames.count(S.Tid) ? Out.TrackNames[S.Tid] : "";
  return ::testing::AssertionSuccess();
}

/// Whether a span of category Category on track Tid holds time At.
inline bool inSpan(const TraceFile &T, int64_t Tid, int64_t At, const std::string &Category) {
  return std::any_of(T.Spans.begin(), T.Spans.end(), [&](const TraceSpan &S) {
    return S.Tid == Tid && S.Category == Category && S.Start <= At && At <= S.End;
  });
}

/// What every trace must be: no reading problems; every span on a named track with a sort
/// index; each track's spans properly nested (a span starting inside another ends inside it);
/// the spans of device and compile tracks one after another, never overlapping; each flow
/// arrow from inside a launch's enqueue to inside a kernel run.
inline ::testing::AssertionResult wellFormed(const TraceFile &T) {
  if (!T.Problems.empty())
    return ::testing::AssertionFailure() << T.Problems.front();
  if (T.ProcessName.rfind("jacc ", 0) != 0)
    return ::testing::AssertionFailure() << "process name '" << T.ProcessName << "'";
  std::map<int64_t, std::vector<TraceSpan>> ByTrack;
  for (const TraceSpan &S : T.Spans)
    ByTrack[S.Tid].push_back(S);
  for (auto &[Tid, Spans] : ByTrack) {
    if (!T.TrackNames.count(Tid) || !T.SortIndexes.count(Tid))
      return ::testing::AssertionFailure() << "track " << Tid << " is unnamed or unsorted";
    const std::string &Track = T.TrackNames.at(Tid);
    bool Sequential = Track.rfind("device ", 0) == 0 || Track.rfind("compile", 0) == 0;
    std::stable_sort(Spans.begin(), Spans.end(), [](const TraceSpan &A, const TraceSpan &B) {
      return A.Start != B.Start ? A.Start < B.Start : A.End > B.End;
    });
    std::vector<const TraceSpan *> Open;
    for (const TraceSpan &S : Spans) {
      while (!Open.empty() && Open.back()->End <= S.Start)
        Open.pop_back();
      if (!Open.empty() && (Sequential || S.End > Open.back()->End))
        return ::testing::AssertionFailure()
               << "on '" << Track << "', '" << S.Name << "' [" << S.Start << ", " << S.End << ") "
               << (Sequential ? "overlaps" : "is not nested in") << " '" << Open.back()->Name
               << "' [" << Open.back()->Start << ", " << Open.back()->End << ")";
      Open.push_back(&S);
    }
  }
  for (const auto &[Id, Starts] : T.FlowStarts) {
    auto Ends = T.FlowEnds.find(Id);
    if (Starts.size() != 1 || Ends == T.FlowEnds.end() || Ends->second.size() != 1)
      return ::testing::AssertionFailure() << "flow " << Id << " has not one start and one end";
    if (!inSpan(T, Starts[0].Tid, Starts[0].Time, "launch") ||
        !inSpan(T, Ends->second[0].Tid, Ends->second[0].Time, "kernel"))
      return ::testing::AssertionFailure() << "flow " << Id << " is not from a launch to a run";
  }
  if (T.FlowEnds.size() != T.FlowStarts.size())
    return ::testing::AssertionFailure() << "a flow ends without starting";
  return ::testing::AssertionSuccess();
}

} // namespace jacc_test

#endif
