// Idle priority (support/IdlePriority.h): a thread lowered runs under SCHED_IDLE, read back from
// the kernel by its thread id; other threads of the process are left as they were.
#include "support/IdlePriority.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <sched.h>
#include <unistd.h>

using namespace jacc;

namespace {

/// Field 41 (policy) of /proc/self/task/<Tid>/stat: 5 is SCHED_IDLE.
int policyFromProc(pid_t Tid) {
  std::ifstream F("/proc/self/task/" + std::to_string(Tid) + "/stat");
  std::string Text((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
  // The command name (field 2) may hold spaces: count from its closing parenthesis.
  std::istringstream In(Text.substr(Text.rfind(')') + 2));
  std::string Field;
  for (int I = 3; I <= 41 && In >> Field; ++I)
    if (I == 41)
      return std::stoi(Field);
  return -1;
}

TEST(IdlePriorityTest, ALoweredThreadRunsUnderSchedIdle) {
  pid_t Tid = 0;
  ThreadPriority Got = ThreadPriority::Normal;
  std::thread T([&] {
    Tid = thisThreadId();
    Got = lowerThisThreadToIdle();
  });
  T.join(); // its /proc entry is gone: read it from within the next one
  EXPECT_EQ(Got, ThreadPriority::Idle);
  EXPECT_NE(Tid, thisThreadId());
  EXPECT_EQ(thisThreadPriority(), ThreadPriority::Normal) << "only that thread";

  std::thread U([&] {
    lowerThisThreadToIdle();
    EXPECT_EQ(policyFromProc(thisThreadId()), SCHED_IDLE);
    EXPECT_EQ(::sched_getscheduler(thisThreadId()), SCHED_IDLE);
    EXPECT_EQ(threadPriority(thisThreadId()), ThreadPriority::Idle);
  });
  U.join();
  EXPECT_EQ(policyFromProc(thisThreadId()), SCHED_OTHER);
}

} // namespace
