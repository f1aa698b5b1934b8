// exit() from another thread while the main thread pushes new kernels (each analysed by clang
// in this process): every run must end with the exit's status, never a crash. Run as
// `api-exit-race RUNS`: it runs itself RUNS times as `api-exit-race --child DELAY_US`. With
// `--exit-hooks`: jacc called from an atexit handler and a static destructor, status 0 only if
// each call did what it should (the sanitized build sees what they touch).
#include "jacc/jacc.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

/// The child: a thread exits after DelayUs while this one pushes distinct kernels for ever.
[[noreturn]] void race(unsigned DelayUs) {
  setenv("JACC_DEVICES", "host:1", 1);
  setenv("JACC_CACHE", "off", 1);
  int N = 64;
  std::vector<double> X(N, 0);
  double *Xp = X.data();
  jacc_copyin(Xp, N * sizeof(double));
  std::thread([DelayUs] {
    usleep(DelayUs);
    std::exit(0);
  }).detach();
  jacc_arg Args[] = {{"int n", &N}, {"double *x", &Xp}};
  for (long K = 0;; ++K) {
    std::string Src = "#pragma acc parallel loop present(x)\nfor (int i = 0; i < n; i++)\n"
                      "  x[i] += " +
                      std::to_string(K) + ";\n";
    (void)jacc_kernel_push(Src.c_str(), 2, Args, JACC_DEFAULT); // fails once the exit began
  }
}

/// Pushes a kernel that adds K to x[0..n) on the devices and checks it did (false when a call
/// failed, with a message; one that fails without one exits 4).
bool pushAdds(double K) {
  static int N = 64;
  static double X[64]; // an array: a vector would be destroyed before the static destructor
  static double *Xp = X;
  static bool Mapped = false;
  auto Named = [](jacc_status S) {
    if (S != JACC_SUCCESS && std::strlen(jacc_last_error()) == 0)
      std::_Exit(4);
    return S == JACC_SUCCESS;
  };
  if (!Mapped && !(Mapped = Named(jacc_copyin(Xp, N * sizeof(double)))))
    return false;
  std::vector<double> Before(X, X + N);
  jacc_arg Args[] = {{"int n", &N}, {"double *x", &Xp}, {"double k", &K}};
  if (!Named(jacc_kernel_push("#pragma acc parallel loop present(x)\n"
                              "for (int i = 0; i < n; i++)\n  x[i] += k;\n",
                              3, Args, JACC_DEFAULT)) ||
      !Named(jacc_update_self(Xp, N * sizeof(double))))
    return false;
  for (int I = 0; I < N; ++I)
    if (X[I] != Before[I] + K)
      std::_Exit(5);
  return true;
}

/// A call that fails must still name its problem.
void failNamed() {
  if (jacc_copyin(reinterpret_cast<void *>(0x10), 800) == JACC_SUCCESS ||
      std::strlen(jacc_last_error()) == 0)
    std::_Exit(6);
}

/// A static destructor runs after jacc's own exit hook: its calls may fail, never crash.
struct LateUser {
  bool Armed = false;
  ~LateUser() {
    if (!Armed)
      return;
    failNamed();
    (void)pushAdds(2);
  }
} Late;

/// jacc from an atexit handler and a static destructor, which run once exit() destroyed the
/// thread's thread_local objects (the kernel cache's recent hits, the last error's text).
int exitHooks() {
  setenv("JACC_DEVICES", "host:2", 1);
  setenv("JACC_CACHE", "off", 1);
  if (!pushAdds(1)) // the thread's recent hits now hold the kernel
    return 2;
  failNamed(); // and its last error a message
  Late.Armed = true;
  std::atexit([] { // before jacc's exit hook (registered at its init, earlier): pushes work
    if (!pushAdds(3))
      std::_Exit(7);
    failNamed();
  });
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "--child") == 0)
    race(unsigned(std::atoi(argv[2])));
  if (argc == 2 && std::strcmp(argv[1], "--exit-hooks") == 0)
    return exitHooks();
  int Runs = argc > 1 ? std::atoi(argv[1]) : 50, Failed = 0;
  for (int R = 0; R < Runs; ++R) {
    // Exits spread over the first pushes: before, during and after the first analyses.
    std::string Delay = std::to_string(200 + (R * 397) % 4000); // 0.2 to 4.2 ms
    char *Child[] = {argv[0], const_cast<char *>("--child"), Delay.data(), nullptr};
    pid_t Pid = 0;
    if (posix_spawn(&Pid, "/proc/self/exe", nullptr, nullptr, Child, environ) != 0) {
      std::perror("api-exit-race: posix_spawn");
      return 2;
    }
    int Status = 0;
    waitpid(Pid, &Status, 0);
    if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
      ++Failed;
      if (WIFSIGNALED(Status))
        std::fprintf(stderr, "run %d (exit after %s us): signal %d\n", R, Delay.c_str(),
                     WTERMSIG(Status));
      else
        std::fprintf(stderr, "run %d (exit after %s us): status %d\n", R, Delay.c_str(),
                     WEXITSTATUS(Status));
    }
  }
  std::printf("%d of %d runs ended with the exit's status\n", Runs - Failed, Runs);
  return Failed == 0 ? 0 : 1;
}
