// Running a command-line tool from a test: the built binary as a child process with the test's
// environment, its exit status, stdout and stderr captured through files in a scratch directory.
#ifndef JACC_TESTS_TOOLS_RUNTOOL_H
#define JACC_TESTS_TOOLS_RUNTOOL_H

#include <gtest/gtest.h>

#include <llvm/Support/MemoryBuffer.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace jacc_test {

/// What a run of a tool did.
struct Outcome {
  int Status = -1;
  std::string Out, Err;
};

inline std::string readWhole(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

/// Run Program with Args (the environment as set with setenv), stdout and stderr going through
/// files in Scratch.
inline Outcome runTool(const std::string &Program, std::vector<std::string> Args,
                       const std::string &Scratch) {
  Args.insert(Args.begin(), Program);
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);
  std::string OutPath = Scratch + "/stdout", ErrPath = Scratch + "/stderr";
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 1, OutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&Actions, 2, ErrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  Outcome R;
  pid_t Pid = 0;
  int E = posix_spawn(&Pid, Program.c_str(), &Actions, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (E != 0) {
    ADD_FAILURE() << "cannot run " << Program << ": " << strerror(E);
    return R;
  }
  int WStatus = 0;
  while (waitpid(Pid, &WStatus, 0) < 0 && errno == EINTR) {
  }
  R.Status = WIFEXITED(WStatus) ? WEXITSTATUS(WStatus) : 128 + WTERMSIG(WStatus);
  R.Out = readWhole(OutPath);
  R.Err = readWhole(ErrPath);
  return R;
}

} // namespace jacc_test

#endif
