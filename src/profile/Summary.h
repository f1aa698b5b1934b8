// JACC_PROFILE: where the time went, in the spirit of NV_ACC_TIME: per compute region (kernel
// site) its launches, how they ran, their times and compiles; per data construct its bytes and
// copy times by direction; totals. Text with aligned columns, or JSON for tools.
#ifndef JACC_SRC_PROFILE_SUMMARY_H
#define JACC_SRC_PROFILE_SUMMARY_H

#include "src/profile/Events.h"

#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

namespace jacc::prof {

/// The summary's listener. It writes to File (empty: stderr) at each finish that follows new
/// events, the whole run so far each time.
class Summary : public Listener {
public:
  Summary(bool Json, std::string File);
  ~Summary() override;

  void constructBegin(const Site &, Nanos) override;
  void copyEnd(const CopyEvent &) override;
  void launchBegin(const LaunchEvent &) override;
  void kernelRun(const LaunchEvent &) override;
  void push(const PushEvent &) override;
  void compile(const CompileEvent &) override;
  void waitBegin(Nanos) override;
  void waitEnd(Nanos) override;
  void deviceInit(int Index, const DeviceKind &Kind, bool Begin, Nanos) override;
  void finish(bool AtExit) override;

  /// The summary so far, as text or JSON.
  void write(llvm::raw_ostream &OS, bool Json);

private:
  struct State;
  std::unique_ptr<State> S;
  bool Json;
  std::string File;
};

} // namespace jacc::prof

#endif
