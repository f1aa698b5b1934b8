#include "BackgroundCompiler.h"

namespace jacc::jit {

BackgroundCompiler::~BackgroundCompiler() {
  {
    std::lock_guard<std::mutex> L(M);
    Stop = true;
  }
  Wake.notify_all();
  if (Worker.joinable())
    Worker.join();
}

void BackgroundCompiler::enqueue(std::function<void()> Job) {
  {
    std::lock_guard<std::mutex> L(M);
    Jobs.push_back(std::move(Job));
    if (!Worker.joinable())
      Worker = std::thread([this] { run(); });
  }
  Wake.notify_one();
}

void BackgroundCompiler::drain() {
  std::unique_lock<std::mutex> L(M);
  Idle.wait(L, [this] { return Jobs.empty() && !Running; });
}

void BackgroundCompiler::run() {
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    Wake.wait(L, [this] { return Stop || !Jobs.empty(); });
    if (Jobs.empty()) // stopping, nothing left
      return;
    std::function<void()> Job = std::move(Jobs.front());
    Jobs.pop_front();
    Running = true;
    L.unlock();
    Job();
    L.lock();
    Running = false;
    if (Jobs.empty())
      Idle.notify_all();
  }
}

} // namespace jacc::jit
