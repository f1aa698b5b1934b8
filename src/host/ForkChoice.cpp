// Forking the team or running its members in turn, learnt from measured runs.
#include "src/host/ForkChoice.h"

namespace jacc {

ForkChoice::Slot &ForkChoice::slotOf(const void *Code) {
  // Entry points are at least 16 bytes apart.
  Slot &S = Slots[(reinterpret_cast<uintptr_t>(Code) >> 4) % Slots.size()];
  if (S.Code != Code)
    S = Slot{Code, false, 0};
  return S;
}

ForkChoice::Choice ForkChoice::choose(const void *Code) {
  Slot &S = slotOf(Code);
  uint32_t Run = S.Runs++;
  return {S.InTurn, Run < TimedAfterChange || Run % SampleEvery == 0};
}

void ForkChoice::record(const void *Code, bool InTurn, std::chrono::nanoseconds Took) {
  Slot &S = slotOf(Code);
  if (S.InTurn != InTurn)
    return; // the mode changed since this run started
  bool Change = InTurn ? Took > L.LongRunInTurn : Took < L.ShortTeamRun;
  if (Change) {
    S.InTurn = !InTurn;
    S.Runs = 0;
  }
}

} // namespace jacc
