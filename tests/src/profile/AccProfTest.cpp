// The profiling callbacks' registry: registering and unregistering (counted), the calling order,
// the three toggles, lookups.
#include "src/profile/AccProf.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace {

using namespace jacc::prof;

/// Which callbacks ran, in order: each appends its letter.
std::string Calls;
void callA(acc_prof_info *, acc_event_info *, acc_api_info *) { Calls += 'A'; }
void callB(acc_prof_info *, acc_event_info *, acc_api_info *) { Calls += 'B'; }

/// Dispatches one synthetic event of type E; returns the callbacks that ran.
std::string fire(acc_event_t E) {
  Calls.clear();
  acc_prof_info P{};
  P.event_type = E;
  acc_event_info I{};
  I.event_type = E;
  acc_api_info A{};
  accprof::dispatch(&P, &I, &A);
  return Calls;
}

class AccProfTest : public ::testing::Test {
protected:
  void SetUp() override { accprof::resetForTesting(); }
  void TearDown() override { accprof::resetForTesting(); }
};

TEST_F(AccProfTest, ACallbackRunsWhileRegisteredAndCountsItsRegistrations) {
  EXPECT_EQ(fire(acc_ev_create), "");
  acc_prof_register(acc_ev_create, callA, acc_reg);
  EXPECT_TRUE(accprof::wanted(acc_ev_create));
  EXPECT_FALSE(accprof::wanted(acc_ev_delete));
  EXPECT_EQ(fire(acc_ev_create), "A");
  EXPECT_EQ(fire(acc_ev_delete), "");
  // Twice registered: called once per event, removed by the second unregistration.
  acc_prof_register(acc_ev_create, callA, acc_reg);
  EXPECT_EQ(fire(acc_ev_create), "A");
  acc_prof_unregister(acc_ev_create, callA, acc_reg);
  EXPECT_EQ(fire(acc_ev_create), "A");
  acc_prof_unregister(acc_ev_create, callA, acc_reg);
  EXPECT_EQ(fire(acc_ev_create), "");
  EXPECT_FALSE(accprof::wanted(acc_ev_create));
  // Unregistering what is not registered changes nothing.
  acc_prof_unregister(acc_ev_create, callB, acc_reg);
  EXPECT_EQ(fire(acc_ev_create), "");
}

TEST_F(AccProfTest, EndEventsCallInTheReverseOrderOfRegistration) {
  for (acc_event_t E : {acc_ev_enqueue_launch_start, acc_ev_enqueue_launch_end, acc_ev_alloc}) {
    acc_prof_register(E, callA, acc_reg);
    acc_prof_register(E, callB, acc_reg);
  }
  EXPECT_EQ(fire(acc_ev_enqueue_launch_start), "AB");
  EXPECT_EQ(fire(acc_ev_enqueue_launch_end), "BA");
  EXPECT_EQ(fire(acc_ev_alloc), "AB");
}

TEST_F(AccProfTest, ToggleDisablesOneCallbackOneEventOrEveryEvent) {
  for (acc_event_t E : {acc_ev_update_start, acc_ev_update_end}) {
    acc_prof_register(E, callA, acc_reg);
    acc_prof_register(E, callB, acc_reg);
  }
  // One callback of one event.
  acc_prof_unregister(acc_ev_update_start, callA, acc_toggle);
  EXPECT_EQ(fire(acc_ev_update_start), "B");
  EXPECT_EQ(fire(acc_ev_update_end), "BA");
  acc_prof_register(acc_ev_update_start, callA, acc_toggle);
  EXPECT_EQ(fire(acc_ev_update_start), "AB");
  // Every callback of one event.
  acc_prof_unregister(acc_ev_update_end, nullptr, acc_toggle);
  EXPECT_EQ(fire(acc_ev_update_end), "");
  EXPECT_FALSE(accprof::wanted(acc_ev_update_end));
  EXPECT_EQ(fire(acc_ev_update_start), "AB");
  acc_prof_register(acc_ev_update_end, nullptr, acc_toggle);
  EXPECT_EQ(fire(acc_ev_update_end), "BA");
  // Every event.
  acc_prof_unregister(acc_ev_none, nullptr, acc_toggle);
  EXPECT_EQ(fire(acc_ev_update_start) + fire(acc_ev_update_end), "");
  acc_prof_register(acc_ev_none, nullptr, acc_toggle);
  EXPECT_EQ(fire(acc_ev_update_start) + fire(acc_ev_update_end), "ABBA");
  // Toggling a callback that is not registered registers nothing.
  acc_prof_register(acc_ev_free, callA, acc_toggle);
  EXPECT_EQ(fire(acc_ev_free), "");
}

TEST_F(AccProfTest, PerThreadToggleAffectsTheCallingThreadOnly) {
  acc_prof_register(acc_ev_wait_start, callA, acc_reg);
  acc_prof_unregister(acc_ev_none, nullptr, acc_toggle_per_thread);
  EXPECT_EQ(fire(acc_ev_wait_start), "");
  std::string Other;
  std::thread([&] { Other = fire(acc_ev_wait_start); }).join();
  EXPECT_EQ(Other, "A");
  // Only (acc_ev_none, NULL) is the per-thread switch: other arguments are ignored.
  acc_prof_register(acc_ev_wait_start, callA, acc_toggle_per_thread);
  EXPECT_EQ(fire(acc_ev_wait_start), "");
  acc_prof_register(acc_ev_none, nullptr, acc_toggle_per_thread);
  EXPECT_EQ(fire(acc_ev_wait_start), "A");
}

TEST_F(AccProfTest, RequestsOutsideTheChapterAreIgnored) {
  acc_prof_register(acc_ev_last, callA, acc_reg);
  acc_prof_register(acc_event_t(-3), callA, acc_reg);
  acc_prof_register(acc_ev_none, callA, acc_reg);
  acc_prof_register(acc_ev_create, nullptr, acc_reg);
  acc_prof_register(acc_ev_create, callA, acc_register_t(7));
  for (int E = acc_ev_none; E < acc_ev_last; ++E)
    EXPECT_EQ(fire(acc_event_t(E)), "") << E;
  EXPECT_FALSE(accprof::wanted(acc_ev_last));
}

/// Registers callB for acc_ev_free from inside a callback.
void registerFromCallback(acc_prof_info *, acc_event_info *, acc_api_info *) {
  Calls += 'R';
  acc_prof_register(acc_ev_free, callB, acc_reg);
}

TEST_F(AccProfTest, ACallbackMayRegisterCallbacks) {
  acc_prof_register(acc_ev_free, registerFromCallback, acc_reg);
  EXPECT_EQ(fire(acc_ev_free), "R");
  EXPECT_EQ(fire(acc_ev_free), "RB");
}

TEST_F(AccProfTest, LookupKnowsNoNames) {
  EXPECT_EQ(acc_prof_lookup("acc_get_device_num"), nullptr);
  EXPECT_EQ(acc_prof_lookup("no_such_query"), nullptr);
  EXPECT_EQ(acc_prof_lookup(nullptr), nullptr);
}

TEST_F(AccProfTest, EndEventsAreTheTenPairsSecondHalves) {
  int Ends = 0;
  for (int E = acc_ev_none; E < acc_ev_last; ++E)
    Ends += accprof::isEndEvent(acc_event_t(E));
  EXPECT_EQ(Ends, 10);
  EXPECT_TRUE(accprof::isEndEvent(acc_ev_wait_end));
  EXPECT_FALSE(accprof::isEndEvent(acc_ev_wait_start));
  EXPECT_FALSE(accprof::isEndEvent(acc_ev_runtime_shutdown));
}

} // namespace
