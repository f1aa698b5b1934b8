// The process's counters, created on first use so that static initialisers may count too.
#include "support/Stats.h"

namespace jacc {

Stats &stats() {
  // A function-local static so counters are usable from other static initialisers.
  static Stats S;
  return S;
}

} // namespace jacc
