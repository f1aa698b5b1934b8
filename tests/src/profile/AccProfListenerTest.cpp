// jacc's events as OpenACC profiling events: synthetic events through the event layer, the
// callbacks' records checked field by field.
#include "src/profile/AccProfListener.h"
#include "src/DeviceRegistry.h"
#include "tests/src/profile/AccProfRecorder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

using namespace jacc::prof;
using jacc::deviceKind;
using namespace jacc::testing;

Site site(Construct K, int Line, bool ExitPart = false) {
  Site S;
  S.Kind = K;
  S.File = "heat.c";
  S.Func = "main";
  S.Line = Line;
  S.ExitPart = ExitPart;
  return S;
}

/// Delivers one event to every listener, as the runtime's emission sites do.
template <typename F> void deliver(F &&Fn) { each(Fn); }

std::vector<acc_event_t> pair(acc_event_t Start) { return {Start, acc_event_t(Start + 1)}; }

class AccProfListenerTest : public ::testing::Test {
protected:
  RecordEverything Recording; // registers, which adds the listener once per process
};

TEST_F(AccProfListenerTest, ConstructsBecomeTheirStartAndEndEvents) {
  struct Case {
    Construct Kind;
    bool ExitPart;
    acc_event_t Start;
  } Cases[] = {{Construct::Parallel, false, acc_ev_compute_construct_start},
               {Construct::Kernels, false, acc_ev_compute_construct_start},
               {Construct::Serial, false, acc_ev_compute_construct_start},
               {Construct::EnterData, false, acc_ev_enter_data_start},
               {Construct::ExitData, false, acc_ev_exit_data_start},
               {Construct::Data, false, acc_ev_enter_data_start},
               {Construct::Data, true, acc_ev_exit_data_start},
               {Construct::Update, false, acc_ev_update_start},
               {Construct::Wait, false, acc_ev_wait_start}};
  for (const Case &C : Cases) {
    clearRecorded();
    beginConstruct(site(C.Kind, 42, C.ExitPart));
    endConstruct();
    ASSERT_EQ(recordedTypes(), pair(C.Start)) << constructName(C.Kind);
    for (const Recorded &R : recorded()) {
      EXPECT_EQ(R.Prof.valid_bytes, int(offsetof(acc_prof_info, func_end_line_no) + sizeof(int)));
      EXPECT_EQ(R.Prof.version, _OPENACC);
      EXPECT_EQ(R.Prof.device_type, acc_device_host);
      EXPECT_EQ(R.Prof.device_number, 0);
      EXPECT_GE(R.Prof.thread_id, 0);
      EXPECT_EQ(R.Prof.async, acc_async_sync);
      EXPECT_STREQ(R.Prof.src_file, "heat.c");
      EXPECT_STREQ(R.Prof.func_name, "main");
      EXPECT_EQ(R.Prof.line_no, 42);
      EXPECT_EQ(R.Event.other_event.valid_bytes,
                int(offsetof(acc_other_event_info, tool_info) + sizeof(void *)));
      EXPECT_EQ(R.Event.other_event.parent_construct, acc_construct_t(C.Kind));
      EXPECT_EQ(R.Event.other_event.implicit, 0);
      EXPECT_EQ(R.Api.device_api, acc_device_api_none);
      EXPECT_EQ(R.Api.valid_bytes, int(offsetof(acc_api_info, async_handle) + sizeof(void *)));
    }
  }
}

TEST_F(AccProfListenerTest, ConstructsWithoutEventsSendNone) {
  for (Construct K : {Construct::HostData, Construct::Loop, Construct::Init, Construct::Set}) {
    beginConstruct(site(K, 7));
    endConstruct();
  }
  EXPECT_TRUE(recordedTypes().empty());
}

TEST_F(AccProfListenerTest, ARoutineOutsideConstructsIsARuntimeApiConstruct) {
  {
    ImplicitConstruct Call(Construct::EnterData, "acc_copyin");
    int X[4];
    const void *Dev = reinterpret_cast<const void *>(0x1000);
    deliver([&](Listener &L) {
      L.copyBegin({Direction::HostToDevice, 0, -1, X, Dev, sizeof X, 0, 0});
    });
    deliver([&](Listener &L) { L.copyEnd({Direction::HostToDevice, 0, -1, X, Dev, sizeof X, 0, 0}); });
  }
  std::vector<acc_event_t> Want = {acc_ev_enter_data_start, acc_ev_enqueue_upload_start,
                                   acc_ev_enqueue_upload_end, acc_ev_enter_data_end};
  ASSERT_EQ(recordedTypes(), Want);
  for (const Recorded &R : recorded()) {
    EXPECT_EQ(R.Prof.src_file, nullptr);
    EXPECT_STREQ(R.Prof.func_name, "acc_copyin");
    EXPECT_EQ(R.Prof.line_no, 0);
    EXPECT_EQ(R.Event.other_event.parent_construct, acc_construct_runtime_api);
    EXPECT_EQ(R.Event.other_event.implicit, 1);
  }
}

TEST_F(AccProfListenerTest, CopiesAreUploadsAndDownloadsWithTheirAddresses) {
  double Host[8];
  char *Dev0 = reinterpret_cast<char *>(0x1000), *Dev1 = reinterpret_cast<char *>(0x2000);
  beginConstruct(site(Construct::Update, 9));
  CopyEvent Up{Direction::HostToDevice, 1, -1, Host, Dev1, sizeof Host, 0, 0};
  CopyEvent Down{Direction::DeviceToHost, 0, -1, Dev0, Host, 16, 0, 0};
  CopyEvent Across{Direction::DeviceToDevice, 0, 1, Dev0, Dev1, 24, 0, 0};
  for (const CopyEvent *C : {&Up, &Down, &Across}) {
    deliver([&](Listener &L) { L.copyBegin(*C); });
    deliver([&](Listener &L) { L.copyEnd(*C); });
  }
  endConstruct();
  std::vector<acc_event_t> Want = {acc_ev_update_start,
                                   acc_ev_enqueue_upload_start,
                                   acc_ev_enqueue_upload_end,
                                   acc_ev_enqueue_download_start,
                                   acc_ev_enqueue_download_end,
                                   acc_ev_enqueue_upload_start,
                                   acc_ev_enqueue_upload_end,
                                   acc_ev_update_end};
  ASSERT_EQ(recordedTypes(), Want);
  struct Expect {
    int Device;
    const void *Host, *Dev;
    size_t Bytes;
  } Data[] = {{1, Host, Dev1, sizeof Host}, {0, Host, Dev0, 16}, {1, nullptr, Dev1, 24}};
  for (int I = 0; I < 3; ++I)
    for (int Half = 0; Half < 2; ++Half) {
      const Recorded &R = recorded()[1 + 2 * I + Half];
      const acc_data_event_info &D = R.Event.data_event;
      EXPECT_EQ(R.Prof.device_number, Data[I].Device) << I;
      EXPECT_EQ(D.valid_bytes, int(offsetof(acc_data_event_info, device_ptr) + sizeof(void *)));
      EXPECT_EQ(D.host_ptr, Data[I].Host) << I;
      EXPECT_EQ(D.device_ptr, Data[I].Dev) << I;
      EXPECT_EQ(D.bytes, Data[I].Bytes) << I;
      EXPECT_EQ(D.var_name, nullptr);
      EXPECT_EQ(D.parent_construct, acc_construct_update);
      EXPECT_EQ(D.implicit, 0);
      EXPECT_EQ(R.Prof.line_no, 9);
    }
}

TEST_F(AccProfListenerTest, MemoryEventsNameTheirMapping) {
  int X[2];
  const void *Dev = reinterpret_cast<const void *>(0x4000);
  for (MemOp Op : {MemOp::Alloc, MemOp::Create, MemOp::Delete, MemOp::Free})
    deliver([&](Listener &L) { L.memory({Op, 0, X, Dev, sizeof X}); });
  std::vector<acc_event_t> Want = {acc_ev_alloc, acc_ev_create, acc_ev_delete, acc_ev_free};
  ASSERT_EQ(recordedTypes(), Want);
  for (const Recorded &R : recorded()) {
    EXPECT_EQ(R.Event.data_event.host_ptr, X);
    EXPECT_EQ(R.Event.data_event.device_ptr, Dev);
    EXPECT_EQ(R.Event.data_event.bytes, sizeof X);
    EXPECT_EQ(R.Event.data_event.implicit, 1); // outside any construct: the runtime's doing
  }
}

TEST_F(AccProfListenerTest, LaunchesNameTheirKernelAndDevice) {
  KernelName K = *internKernelName("heat.c:42", "for (int i = 0; i < n; i++)");
  beginConstruct(site(Construct::Parallel, 42));
  for (int D = 0; D < 2; ++D) {
    LaunchEvent L{1, K, Mode::Split, D, D, D + 1, 2, 0, 0};
    deliver([&](Listener &Li) { Li.launchBegin(L); });
    deliver([&](Listener &Li) { Li.launchEnd(L); });
  }
  endConstruct();
  std::vector<acc_event_t> Want = {acc_ev_compute_construct_start, acc_ev_enqueue_launch_start,
                                   acc_ev_enqueue_launch_end,      acc_ev_enqueue_launch_start,
                                   acc_ev_enqueue_launch_end,      acc_ev_compute_construct_end};
  ASSERT_EQ(recordedTypes(), Want);
  for (int I = 1; I <= 4; ++I) {
    const Recorded &R = recorded()[I];
    EXPECT_STREQ(R.Event.launch_event.kernel_name, "heat.c:42");
    EXPECT_EQ(R.Prof.device_number, (I - 1) / 2);
    EXPECT_EQ(R.Event.launch_event.parent_construct, acc_construct_parallel);
    EXPECT_EQ(R.Event.launch_event.implicit, 0);
  }
}

TEST_F(AccProfListenerTest, DataClausesInAComputeConstructAreImplicitDataEvents) {
  int X[3];
  beginConstruct(site(Construct::Parallel, 5));
  {
    DataScope In(DataOp::Enter, X, sizeof X);
  }
  {
    DataScope Out(DataOp::Exit, X, sizeof X);
  }
  endConstruct();
  // Inside an enter data construct the construct's own events cover the clause.
  beginConstruct(site(Construct::EnterData, 6));
  {
    DataScope In(DataOp::Enter, X, sizeof X);
  }
  endConstruct();
  std::vector<acc_event_t> Want = {acc_ev_compute_construct_start, acc_ev_enter_data_start,
                                   acc_ev_enter_data_end,          acc_ev_exit_data_start,
                                   acc_ev_exit_data_end,           acc_ev_compute_construct_end,
                                   acc_ev_enter_data_start,        acc_ev_enter_data_end};
  ASSERT_EQ(recordedTypes(), Want);
  for (int I : {1, 2, 3, 4}) {
    const acc_other_event_info &O = recorded()[I].Event.other_event;
    EXPECT_EQ(O.valid_bytes, int(offsetof(acc_other_event_info, tool_info) + sizeof(void *)));
    EXPECT_EQ(O.implicit, 1);
    EXPECT_EQ(O.parent_construct, acc_construct_parallel);
  }
  EXPECT_EQ(recorded()[6].Event.other_event.implicit, 0);
}

TEST_F(AccProfListenerTest, AWaitConstructIsOneWaitPairAndOtherWaitsAreImplicit) {
  beginConstruct(site(Construct::Wait, 11));
  deliver([](Listener &L) { L.waitBegin(0); });
  deliver([](Listener &L) { L.waitEnd(0); });
  endConstruct();
  ASSERT_EQ(recordedTypes(), pair(acc_ev_wait_start));
  EXPECT_EQ(recorded()[0].Event.other_event.implicit, 0);
  clearRecorded();
  beginConstruct(site(Construct::Update, 12));
  deliver([](Listener &L) { L.waitBegin(0); });
  deliver([](Listener &L) { L.waitEnd(0); });
  endConstruct();
  std::vector<acc_event_t> Want = {acc_ev_update_start, acc_ev_wait_start, acc_ev_wait_end,
                                   acc_ev_update_end};
  ASSERT_EQ(recordedTypes(), Want);
  EXPECT_EQ(recorded()[1].Event.other_event.implicit, 1);
  EXPECT_EQ(recorded()[1].Event.other_event.parent_construct, acc_construct_update);
}

/// Leaves its own pointer in tool_info at a start event; checks it at the end.
int Mismatches = 0;
void keepToolInfo(acc_prof_info *P, acc_event_info *E, acc_api_info *) {
  if (!accprof::isEndEvent(P->event_type))
    E->other_event.tool_info = reinterpret_cast<void *>(&keepToolInfo);
  else if (E->other_event.tool_info != reinterpret_cast<void *>(&keepToolInfo))
    ++Mismatches;
}

TEST_F(AccProfListenerTest, AStartsToolInfoReachesItsEnd) {
  for (acc_event_t E : {acc_ev_update_start, acc_ev_update_end, acc_ev_enqueue_upload_start,
                        acc_ev_enqueue_upload_end})
    acc_prof_register(E, keepToolInfo, acc_reg);
  Mismatches = 0;
  int X;
  beginConstruct(site(Construct::Update, 3));
  CopyEvent C{Direction::HostToDevice, 0, -1, &X, &X, sizeof X, 0, 0};
  deliver([&](Listener &L) { L.copyBegin(C); });
  deliver([&](Listener &L) { L.copyEnd(C); });
  endConstruct();
  EXPECT_EQ(Mismatches, 0);
  EXPECT_EQ(recordedTypes().size(), 4u);
  // recordEvent ran first at the starts and last at the ends: it saw the end's tool_info.
  EXPECT_EQ(recorded()[3].Event.other_event.tool_info, reinterpret_cast<void *>(&keepToolInfo));
}

TEST_F(AccProfListenerTest, AnEndWithoutItsStartIsDropped) {
  // As when a tool registers between a copy's start and its end.
  int X;
  deliver([&](Listener &L) {
    L.copyEnd({Direction::HostToDevice, 0, -1, &X, &X, sizeof X, 0, 0});
  });
  EXPECT_TRUE(recordedTypes().empty());
}

TEST_F(AccProfListenerTest, PairsNestedTooDeepAreLeftOutWholly) {
  for (int I = 0; I < 40; ++I)
    beginConstruct(site(Construct::Update, I + 1));
  for (int I = 0; I < 40; ++I)
    endConstruct();
  std::vector<acc_event_t> Types = recordedTypes();
  ASSERT_EQ(Types.size(), 64u); // 32 pairs kept
  for (int I = 0; I < 32; ++I) {
    EXPECT_EQ(Types[I], acc_ev_update_start);
    EXPECT_EQ(Types[32 + I], acc_ev_update_end);
    EXPECT_EQ(recorded()[I].Prof.line_no, I + 1);
    EXPECT_EQ(recorded()[63 - I].Prof.line_no, I + 1); // each end with its own start's site
  }
}

TEST_F(AccProfListenerTest, DevicesAreNumberedWithinTheirType) {
  const char *Kinds[] = {"host", "cuda", "host", "cuda"};
  for (int D = 0; D < 4; ++D) {
    deliver([&](Listener &L) { L.deviceInit(D, deviceKind(Kinds[D]), true, 0); });
    deliver([&](Listener &L) { L.deviceInit(D, deviceKind(Kinds[D]), false, 0); });
  }
  ASSERT_EQ(recordedTypes().size(), 8u);
  int Numbers[] = {0, 0, 1, 1};
  for (int D = 0; D < 4; ++D) {
    const Recorded &R = recorded()[2 * D];
    bool Cuda = std::strcmp(Kinds[D], "cuda") == 0;
    EXPECT_EQ(R.Prof.event_type, acc_ev_device_init_start);
    EXPECT_EQ(recorded()[2 * D + 1].Prof.event_type, acc_ev_device_init_end);
    EXPECT_EQ(R.Prof.device_type, Cuda ? acc_device_nvidia : acc_device_host) << D;
    EXPECT_EQ(R.Prof.device_number, Numbers[D]) << D;
    EXPECT_EQ(R.Api.device_api, Cuda ? acc_device_api_cuda : acc_device_api_none) << D;
    EXPECT_EQ(R.Api.device_type, R.Prof.device_type);
  }
  // Shut down, then started again as host devices: the kinds other tests expect.
  clearRecorded();
  for (int D = 3; D >= 0; --D) {
    deliver([&](Listener &L) { L.deviceShutdown(D, deviceKind(Kinds[D]), true, 0); });
    deliver([&](Listener &L) { L.deviceShutdown(D, deviceKind(Kinds[D]), false, 0); });
  }
  EXPECT_EQ(recordedTypes().front(), acc_ev_device_shutdown_start);
  EXPECT_EQ(recordedTypes().back(), acc_ev_device_shutdown_end);
  for (int D = 0; D < 4; ++D) {
    deliver([&](Listener &L) { L.deviceInit(D, deviceKind("host"), true, 0); });
    deliver([&](Listener &L) { L.deviceInit(D, deviceKind("host"), false, 0); });
  }
}

TEST_F(AccProfListenerTest, TheExitIsOneRuntimeShutdown) {
  finishAll(/*AtExit=*/false);
  EXPECT_TRUE(recordedTypes().empty());
  finishAll(/*AtExit=*/true);
  finishAll(/*AtExit=*/true);
  EXPECT_EQ(recordedTypes(), std::vector<acc_event_t>{acc_ev_runtime_shutdown});
}

} // namespace
