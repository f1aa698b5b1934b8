// Specialization that pays (docs/performance.md): a program of many distinct small
// kernels (generated here), each pushed once per time step with the same scalars, run as a
// separate process under JACC_SPECIALIZE=auto and =off, cold (an empty JACC_CACHE_DIR) and then
// warm (the same directory again, twice). Reports the median wall time of each run of the
// sequence, auto against off, and the variants each auto run compiled in the background (a warm
// run should compile none), loaded from the disk cache, or left to the budget.
//
//   jacc-specialize-pays-bench [--kernels N] [--steps S] [--host-us U] [--reps R]
//
// --host-us: host work of the program per time step (a serial part, as output or a
// convergence check are), during which a core is free. The program itself is this executable
// run with --program.
#include <jacc/jacc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

struct Options {
  int Kernels = 100, Steps = 60, HostUs = 0, Reps = 3;
};

/// Kernel K: a small loop over x with a few scalars, distinct by its constant and shape.
std::string kernelSource(int K) {
  std::string C = std::to_string(K);
  std::string Head = "/* k" + C + " */\n#pragma acc parallel loop present(x, y)\n"
                     "for (int i = 0; i < n; i += s) ";
  switch (K % 3) {
  case 0:
    return Head + "y[i] = a * x[i] + b * (i % m) + " + C + ";\n";
  case 1:
    return Head + "y[i] = (i % m) * a + x[i] * b - " + C + ";\n";
  default:
    return Head + "y[i] = x[i] * a + b / m + " + C + ";\n";
  }
}

/// Spin for Us microseconds on this thread (the program's serial host work).
void hostWork(int Us) {
  auto End = std::chrono::steady_clock::now() + std::chrono::microseconds(Us);
  volatile double Sink = 0;
  while (std::chrono::steady_clock::now() < End)
    for (int I = 0; I < 100; ++I)
      Sink = Sink + I * 0.5;
}

/// The program: Kernels kernels, Steps time steps; prints its variant counts on stdout.
int program(const Options &O) {
  int n = 1 << 14, m = 7, s = 1;
  float a = 1.5f, b = 0.25f;
  std::vector<float> X(n, 1.0f), Y(n, 0.0f);
  float *x = X.data(), *y = Y.data();
  if (jacc_copyin(x, n * sizeof(float)) || jacc_copyin(y, n * sizeof(float)))
    return std::fprintf(stderr, "copyin: %s\n", jacc_last_error()), 1;
  std::vector<std::string> Sources;
  for (int K = 0; K < O.Kernels; ++K)
    Sources.push_back(kernelSource(K));
  jacc_arg Args[] = {{"int n", &n}, {"int m", &m}, {"int s", &s}, {"float a", &a},
                     {"float b", &b}, {"const float *x", &x}, {"float *y", &y}};
  for (int Step = 0; Step < O.Steps; ++Step) {
    for (const std::string &Src : Sources)
      if (jacc_kernel_push(Src.c_str(), 7, Args, JACC_DEFAULT))
        return std::fprintf(stderr, "push: %s\n", jacc_last_error()), 1;
    if (O.HostUs)
      hostWork(O.HostUs);
  }
  if (jacc_copyout(y, n * sizeof(float)) || jacc_delete(x, n * sizeof(float)))
    return std::fprintf(stderr, "copyout: %s\n", jacc_last_error()), 1;
  auto Fin = std::chrono::steady_clock::now();
  jacc_finalize(); // the compile it waits for is counted
  if (std::getenv("PAYS_DEBUG"))
    std::fprintf(stderr, "finalize %.3f s\n",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - Fin).count());
  jacc_stats St;
  jacc_get_stats(&St);
  std::printf("%llu %llu %llu %llu\n",
              (unsigned long long)(St.variants_compiled - St.variants_loaded),
              (unsigned long long)St.variants_loaded, (unsigned long long)St.variants_over_budget,
              (unsigned long long)St.specialized_launches);
  return 0;
}

struct Run {
  double Seconds = 0;
  unsigned long long Compiled = 0, Loaded = 0, OverBudget = 0, Specialized = 0;
};

/// Run the program as a child process with JACC_SPECIALIZE=Mode and the cache in Dir.
Run runChild(const char *Self, const Options &O, const char *Mode, const std::string &Dir) {
  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E)
    if (std::strncmp(*E, "JACC_SPECIALIZE=", 16) && std::strncmp(*E, "JACC_CACHE_DIR=", 15) &&
        std::strncmp(*E, "JACC_CACHE=", 11))
      Env.push_back(*E);
  Env.push_back(std::string("JACC_SPECIALIZE=") + Mode);
  Env.push_back("JACC_CACHE_DIR=" + Dir);
  std::vector<char *> EnvP;
  for (std::string &E : Env)
    EnvP.push_back(E.data());
  EnvP.push_back(nullptr);
  std::string K = std::to_string(O.Kernels), S = std::to_string(O.Steps),
              H = std::to_string(O.HostUs);
  const char *Argv[] = {Self,        "--program", "--kernels", K.c_str(), "--steps",
                        S.c_str(),   "--host-us", H.c_str(),   nullptr};
  int Pipe[2];
  if (::pipe(Pipe))
    std::exit(1);
  posix_spawn_file_actions_t F;
  posix_spawn_file_actions_init(&F);
  posix_spawn_file_actions_adddup2(&F, Pipe[1], 1);
  posix_spawn_file_actions_addclose(&F, Pipe[0]);
  auto Start = std::chrono::steady_clock::now();
  pid_t Pid;
  if (posix_spawn(&Pid, Self, &F, nullptr, const_cast<char **>(Argv), EnvP.data()))
    std::exit(1);
  ::close(Pipe[1]);
  std::string Out;
  char Buf[256];
  for (ssize_t N; (N = ::read(Pipe[0], Buf, sizeof Buf)) > 0;)
    Out.append(Buf, size_t(N));
  ::close(Pipe[0]);
  int Status = 0;
  ::waitpid(Pid, &Status, 0);
  Run R;
  R.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  posix_spawn_file_actions_destroy(&F);
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0 ||
      std::sscanf(Out.c_str(), "%llu %llu %llu %llu", &R.Compiled, &R.Loaded, &R.OverBudget,
                  &R.Specialized) != 4) {
    std::fprintf(stderr, "the program failed (%s, JACC_SPECIALIZE=%s)\n", Out.c_str(), Mode);
    std::exit(1);
  }
  return R;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.size() % 2 ? V[V.size() / 2] : 0.5 * (V[V.size() / 2 - 1] + V[V.size() / 2]);
}

} // namespace

int main(int argc, char **argv) {
  Options O;
  bool Program = false;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    auto Next = [&] { return I + 1 < argc ? std::atoi(argv[++I]) : 0; };
    if (A == "--program")
      Program = true;
    else if (A == "--kernels")
      O.Kernels = Next();
    else if (A == "--steps")
      O.Steps = Next();
    else if (A == "--host-us")
      O.HostUs = Next();
    else if (A == "--reps")
      O.Reps = Next();
    else
      return std::fprintf(stderr, "usage: %s [--kernels N] [--steps S] [--host-us U] [--reps R]\n",
                          argv[0]),
             2;
  }
  if (Program)
    return program(O);

  // Each repetition: for each mode, a fresh cache directory, the cold run, then two warm runs;
  // the modes alternate so that both see the same machine.
  const char *Modes[] = {"off", "auto"};
  const char *RunNames[] = {"cold", "warm 1", "warm 2"};
  std::vector<Run> Runs[2][3];
  for (int Rep = 0; Rep < O.Reps; ++Rep)
    for (int M = 0; M < 2; ++M) {
      char Template[] = "/tmp/jacc-pays-XXXXXX";
      if (!::mkdtemp(Template))
        return 1;
      for (int R = 0; R < 3; ++R)
        Runs[M][R].push_back(runChild(argv[0], O, Modes[M], Template));
      std::string Rm = std::string("rm -rf ") + Template;
      if (std::system(Rm.c_str()) != 0)
        return 1;
    }
  std::printf("%d kernels, %d steps, %d us of host work per step, %d repetitions (medians)\n",
              O.Kernels, O.Steps, O.HostUs, O.Reps);
  std::printf("%-8s %10s %10s %8s %8s   %s\n", "run", "off (s)", "auto (s)", "ratio", "spread",
              "auto variants: compiled, loaded, over budget; specialized launches");
  for (int R = 0; R < 3; ++R) {
    std::vector<double> Off, Auto, Ratio;
    for (size_t I = 0; I < Runs[0][R].size(); ++I) {
      Off.push_back(Runs[0][R][I].Seconds);
      Auto.push_back(Runs[1][R][I].Seconds);
      Ratio.push_back(Auto.back() / Off.back());
    }
    auto [Lo, Hi] = std::minmax_element(Off.begin(), Off.end());
    std::string Counts;
    for (const Run &A : Runs[1][R])
      Counts += " " + std::to_string(A.Compiled) + "/" + std::to_string(A.Loaded) + "/" +
                std::to_string(A.OverBudget) + "/" + std::to_string(A.Specialized);
    std::printf("%-8s %10.3f %10.3f %8.3f %7.1f%%  %s\n", RunNames[R], median(Off), median(Auto),
                median(Ratio), 100 * (*Hi - *Lo) / median(Off), Counts.c_str());
  }
  return 0;
}
