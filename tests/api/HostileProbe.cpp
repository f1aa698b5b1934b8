// A probe of hostile input: what a careless or malicious program, its environment or its sources
// can do to jacc. Run as `api-hostile-probe [--list] [NAME-PREFIX...]`; every case runs in a
// child process of its own (this program, `--case NAME`) under a time limit, and passes when the
// child ends by itself with status 0 within it: no signal, no hang, nothing on stderr that says
// the process broke (an LLVM fatal error, an uncaught exception, a sanitizer's report). In the
// child a case does its hostile thing; every jacc call it makes that fails must name the problem
// (a non-empty jacc_last_error()), and afterwards jacc must still work: a saxpy pushed on the
// case's devices gives the exact result (or, where the environment itself is what is hostile,
// jacc refuses to work, naming why). The jacc-translate cases run the translator instead and
// want exit status 0, or 1 with a located error.
#include "jacc/jacc.h"
#include "jacc/openacc.h"
#include "tests/DoublingMacros.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

/// The child's stderr as it started (a case may close or replace descriptor 2).
int Report = 2;

/// A case fails in the child by exiting with this status after saying why on stderr.
[[noreturn]] void fail(const std::string &Why) {
  std::string Line = "probe: " + Why + "\n";
  (void)!write(Report, Line.data(), Line.size());
  _exit(3);
}

/// Status must be success, or a failure that names its problem.
jacc_status named(jacc_status S, const char *What) {
  if (S != JACC_SUCCESS && std::strlen(jacc_last_error()) == 0)
    fail(std::string(What) + " failed with status " + std::to_string(S) + " and no message");
  return S;
}

/// Status must be a failure that names its problem.
void refused(jacc_status S, const char *What) {
  if (S == JACC_SUCCESS)
    fail(std::string(What) + " succeeded, where it must be refused");
  named(S, What);
}

/// An acc_* routine (JACC_ACC_ERRORS=return) left a message, or none when it succeeded: nothing
/// to check beyond its not crashing, as a routine may succeed on odd input; but an empty
/// message with a NULL result from one that must give memory is a silent failure.
void accDone(const char *What, const void *Result, bool MustGiveMemory) {
  if (MustGiveMemory && !Result && std::strlen(jacc_last_error()) == 0)
    fail(std::string(What) + " returned NULL and recorded no error");
}

const char *const Saxpy = "#pragma acc parallel loop present(x, y)\n"
                          "for (int i = 0; i < n; i++)\n"
                          "  y[i] = a * x[i] + y[i];\n";

/// Pushes Source (with the saxpy's arguments over mapped x and y) and says how it went.
jacc_status pushOverXY(const std::string &Source, unsigned Flags = JACC_DEFAULT) {
  static int n = 1000;
  static std::vector<double> X(n, 1), Y(n, 2);
  static double a = 3, *x = X.data(), *y = Y.data();
  named(jacc_copyin(x, n * sizeof(double)), "jacc_copyin(x)");
  named(jacc_copyin(y, n * sizeof(double)), "jacc_copyin(y)");
  jacc_arg Args[] = {{"int n", &n}, {"double a", &a}, {"double *x", &x}, {"double *y", &y}};
  jacc_status S = named(jacc_kernel_push(Source.c_str(), 4, Args, Flags), "jacc_kernel_push");
  named(jacc_delete(x, n * sizeof(double)), "jacc_delete(x)");
  named(jacc_delete(y, n * sizeof(double)), "jacc_delete(y)");
  return S;
}

/// jacc works: a saxpy on every device gives the exact result. With MayRefuse (the environment
/// being what is hostile), a call that fails naming the problem is an answer too.
void expectHealthy(bool MayRefuse, int Pushes = 1) {
  auto Step = [MayRefuse](jacc_status S, const char *What) {
    if (S == JACC_SUCCESS)
      return true;
    if (!MayRefuse)
      fail(std::string(What) + " failed after the case: " + jacc_last_error());
    named(S, What);
    return false;
  };
  int n = 4099;
  std::vector<double> X(n), Y(n);
  for (int I = 0; I < n; ++I)
    X[I] = I, Y[I] = 2 * I + 1;
  double a = 0.5, *x = X.data(), *y = Y.data();
  jacc_arg Args[] = {{"int n", &n}, {"double a", &a}, {"const double *x", &x}, {"double *y", &y}};
  if (!Step(jacc_init(), "jacc_init") || !Step(jacc_copyin(x, n * sizeof(double)), "copyin") ||
      !Step(jacc_copyin(y, n * sizeof(double)), "copyin") ||
      !Step(jacc_kernel_push(Saxpy, 4, Args, JACC_DEFAULT), "the saxpy"))
    return;
  for (int Push = 1; Push < Pushes; ++Push)
    if (!Step(jacc_kernel_push(Saxpy, 4, Args, JACC_DEFAULT), "the saxpy"))
      return;
  if (!Step(jacc_copyout(y, n * sizeof(double)), "copyout") ||
      !Step(jacc_delete(x, n * sizeof(double)), "delete"))
    return;
  for (int I = 0; I < n; ++I)
    if (Y[I] != Pushes * (0.5 * I) + 2 * I + 1)
      fail("the saxpy computed y[" + std::to_string(I) + "] = " + std::to_string(Y[I]));
}

/// One hostile case: the environment it runs in, what it does, whether jacc may then refuse to
/// work (the environment being what is hostile), and how long it may take.
struct Case {
  std::string Name;
  std::vector<std::pair<std::string, std::string>> Env;
  std::function<void()> Run;
  bool MayRefuse = false;
  int Seconds = 60;
};

/// Cases that push a kernel source: any outcome but a silent failure, then a healthy saxpy.
void kernelCases(std::vector<Case> &Cases) {
  auto Kernel = [&](std::string Name, std::string Source,
                    std::vector<std::pair<std::string, std::string>> Env = {}) {
    Cases.push_back({"kernel/" + Name, std::move(Env), [Source] { pushOverXY(Source); }});
  };
  std::string Loop = "for (int i = 0; i < n; i++)\n";
  std::string Acc = "#pragma acc parallel loop present(x, y)\n";
  Kernel("empty", "");
  Kernel("comment-only", "/* nothing */\n");
  Kernel("syntax-error", Acc + "for (int i = 0; i < n; i++ y[i] = 1;\n");
  Kernel("unterminated-comment", Acc + Loop + "  y[i] = 1; /* \n");
  Kernel("unterminated-string", Acc + Loop + "  y[i] = \"abc;\n");
  Kernel("include-dev-zero", "#include \"/dev/zero\"\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("include-dev-stdin", "#include </dev/stdin>\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("include-etc-passwd", "#include \"/etc/passwd\"\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("include-directory", "#include \"/tmp\"\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("include-itself-recursively", "#include __FILE__\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("error-directive", "#error stop here\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("pragma-without-loop", Acc);
  Kernel("pragma-before-declaration", Acc + "int z;\n");
  Kernel("two-constructs", Acc + Loop + "  y[i] = 1;\n" + Acc + Loop + "  y[i] = 2;\n");
  Kernel("collapse-deeper-than-nest",
         "#pragma acc parallel loop collapse(5) present(x, y)\n" + Loop + "  y[i] = 1;\n");
  Kernel("collapse-zero",
         "#pragma acc parallel loop collapse(0) present(x, y)\n" + Loop + "  y[i] = 1;\n");
  Kernel("collapse-huge",
         "#pragma acc parallel loop collapse(4294967297) present(x, y)\n" + Loop + "  y[i] = 1;\n");
  Kernel("reduction-undeclared",
         "#pragma acc parallel loop reduction(+:s) present(x, y)\n" + Loop + "  s += y[i];\n");
  Kernel("reduction-on-array",
         "#pragma acc parallel loop reduction(+:y) present(x, y)\n" + Loop + "  y[i] += 1;\n");
  Kernel("reduction-unknown-operator",
         "#pragma acc parallel loop reduction(%:a) present(x, y)\n" + Loop + "  a += y[i];\n");
  Kernel("clause-garbage",
         "#pragma acc parallel loop gang(gang(gang( present(x, y)\n" + Loop + "  y[i] = 1;\n");
  Kernel("num-gangs-nine",
         "#pragma acc parallel loop num_gangs(1,2,3,4,5,6,7,8,9) present(x, y)\n" + Loop +
             "  y[i] = 1;\n");
  Kernel("num-gangs-negative",
         "#pragma acc parallel loop num_gangs(-5) vector_length(-1) present(x, y)\n" + Loop +
             "  y[i] = 1;\n");
  Kernel("async-negative",
         "#pragma acc parallel loop async(-99) present(x, y)\n" + Loop + "  y[i] = 1;\n");
  Kernel("present-of-unknown", "#pragma acc parallel loop present(q)\n" + Loop + "  y[i] = 1;\n");
  Kernel("undeclared-variable", Acc + Loop + "  y[i] = zz[i];\n");
  Kernel("macro-redefines-for", "#define for while\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("macro-redefines-pragma", "#define pragma error\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("line-directive-with-newline", "#line 0 \"evil\\nfile\"\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("underscore-pragma",
         "_Pragma(\"acc parallel loop present(x, y)\")\n" + Loop + "  y[i] = 1;\n");
  Kernel("unknown-routine", "#pragma jacc routines(no_such_routine)\n" + Acc + Loop +
                                "  y[i] = no_such_routine(i);\n");
  Kernel("routines-garbage", "#pragma jacc routines((((\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("jacc-site-garbage", Acc + Loop + "  y[i] = 1;\n// jacc-site: \x01\x02:-5\n");
  Kernel("return-from-loop", Acc + Loop + "  { if (i == 3) return; y[i] = 1; }\n");
  Kernel("goto-out-of-loop", Acc + Loop + "  { if (i == 3) goto out; y[i] = 1; }\nout:;\n");
  Kernel("break-out-of-parallel-loop", Acc + Loop + "  { if (i == 3) break; y[i] = 1; }\n");
  Kernel("loop-step-zero", "#pragma acc parallel loop present(x, y)\n"
                           "for (int i = 0; i < n; i += 0)\n  y[i] = 1;\n");
  Kernel("loop-variable-written", Acc + Loop + "  { y[i] = 1; i += 2; }\n");
  Kernel("index-overflows-int", "#pragma acc parallel loop present(x, y)\n"
                                "for (int i = 2147483000; i < 2147483647; i++)\n"
                                "  y[i % n] = 1;\n");
  Kernel("assigns-the-pointer", Acc + Loop + "  { y = x; y[i] = 1; }\n");
  Kernel("pointer-arithmetic-escape", Acc + Loop + "  *(y + i) = *(x + (i * 7) % n);\n");
  Kernel("function-definition-in-kernel",
         "int f(int v) { return v; }\n" + Acc + Loop + "  y[i] = f(i);\n");
  Kernel("static-variable", Acc + Loop + "  { static int c; c++; y[i] = 1; }\n");
  Kernel("variable-length-array", Acc + Loop + "  { double t[i + 1]; t[i] = 1; y[i] = t[i]; }\n");
  Kernel("inline-assembly-declared", "static inline void nop(void) { __asm__(\"nop\"); }\n" + Acc +
                                         Loop + "  { nop(); y[i] = 1; }\n");
  Kernel("crashes-clangs-parser", "float t[2=6];\nfloat t[3=6];\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("bytes-above-ascii", Acc + Loop + "  y[i] = 1; \xff\xfe\x80\n");
  Kernel("control-characters", Acc + Loop + "  y[i] = 1;\x01\x1b[2J\x7f\n");
  Kernel("identifier-100k",
         "int " + std::string(100000, 'q') + ";\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("parentheses-10k", Acc + Loop + "  y[i] = " + std::string(10000, '(') + "1" +
                                std::string(10000, ')') + ";\n");
  Kernel("comments-1MiB",
         std::string("/*") + std::string(1 << 20, '*') + "/\n" + Acc + Loop + "  y[i] = 1;\n");
  Kernel("collapse-of-nest-of-64", [] {
    std::string S = "#pragma acc parallel loop collapse(64) present(x, y)\n";
    for (int D = 0; D < 64; ++D)
      S += "for (int i" + std::to_string(D) + " = 0; i" + std::to_string(D) + " < 1; i" +
           std::to_string(D) + "++)\n";
    return S + "  y[0] = 1;\n";
  }());
  // The analysis's limits (the compile server's), with limits low enough to reach in seconds.
  std::vector<std::pair<std::string, std::string>> Limits = {{"JACC_COMPILE_MEMORY", "300M"},
                                                             {"JACC_COMPILE_TIMEOUT", "5"}};
  Kernel("macro-doubling-40", jacc_test::doublingMacros(40) + Acc + Loop + "  y[i] = A40;\n",
         Limits);
  Kernel(
      "nested-ifs-40k",
      [&] {
        std::string S = Acc + "for (int i = 0; i < n; i++) {\n";
        for (int D = 0; D < 40000; ++D)
          S += "if (i > " + std::to_string(D % 7) + ") {\n";
        return S + "y[i] = 1;\n" + std::string(40000, '}') + "}\n";
      }(),
      Limits);
  Kernel(
      "statements-20k",
      [&] {
        std::string S = Acc + "for (int i = 0; i < n; i++) {\n";
        for (int D = 0; D < 20000; ++D)
          S += "y[i] = y[i] * 0.5 + " + std::to_string(D) + ";\n";
        return S + "}\n";
      }(),
      Limits);
  Kernel(
      "expression-200k-terms",
      [&] {
        std::string S = Acc + Loop + "  y[i] = 0";
        for (int D = 0; D < 200000; ++D)
          S += "+x[i]";
        return S + ";\n";
      }(),
      Limits);
}

/// Misused arguments of jacc_kernel_push itself.
void pushArgumentCases(std::vector<Case> &Cases) {
  static int n = 8;
  static double Buf[8], *x = Buf;
  auto Push = [](std::string Name, std::function<jacc_status()> Call) {
    return Case{"push/" + Name, {}, [Call] { named(Call(), "jacc_kernel_push"); }};
  };
  const char *K = "#pragma acc parallel loop\nfor (int i = 0; i < n; i++) x[i] = i;\n";
  Cases.push_back(Push("null-source", [] { return jacc_kernel_push(nullptr, 0, nullptr, 0); }));
  Cases.push_back(Push("null-args", [K] { return jacc_kernel_push(K, 2, nullptr, 0); }));
  Cases.push_back(Push("negative-nargs", [K] { return jacc_kernel_push(K, -3, nullptr, 0); }));
  Cases.push_back(Push("null-declaration", [K] {
    jacc_arg A[] = {{"int n", &n}, {nullptr, &x}};
    return jacc_kernel_push(K, 2, A, 0);
  }));
  Cases.push_back(Push("null-value", [K] {
    jacc_arg A[] = {{"int n", &n}, {"double *x", nullptr}};
    return jacc_kernel_push(K, 2, A, 0);
  }));
  Cases.push_back(Push("empty-declaration", [K] {
    jacc_arg A[] = {{"int n", &n}, {"", &x}};
    return jacc_kernel_push(K, 2, A, 0);
  }));
  Cases.push_back(Push("declaration-injects-code", [K] {
    jacc_arg A[] = {{"int n; int evil(void) { return 1; }", &n}, {"double *x", &x}};
    return jacc_kernel_push(K, 2, A, 0);
  }));
  Cases.push_back(Push("declaration-closes-the-entry", [K] {
    jacc_arg A[] = {{"int n) { } void g(int m", &n}, {"double *x", &x}};
    return jacc_kernel_push(K, 2, A, 0);
  }));
  Cases.push_back(Push("declaration-with-newline-and-pragma", [K] {
    jacc_arg A[] = {{"int n\n#pragma once\n", &n}, {"double *x", &x}};
    return jacc_kernel_push(K, 2, A, 0);
  }));
  Cases.push_back(Push("same-name-twice", [K] {
    jacc_arg A[] = {{"int n", &n}, {"double *x", &x}, {"double *x", &x}};
    return jacc_kernel_push(K, 3, A, 0);
  }));
  Cases.push_back(Push("unmapped-pointer-present", [] {
    jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
    return jacc_kernel_push("#pragma acc parallel loop present(x)\n"
                            "for (int i = 0; i < n; i++) x[i] = i;\n",
                            2, A, 0);
  }));
  Cases.push_back(Push("every-flag", [K] {
    jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
    jacc_status S = jacc_kernel_push(K, 2, A, 0xffffffffu);
    jacc_wait();
    return S;
  }));
  Cases.push_back(Push("split-and-duplicate", [K] {
    jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
    return jacc_kernel_push(K, 2, A, JACC_FORCE_SPLIT | JACC_FORCE_DUPLICATE);
  }));
  Cases.push_back(Push("routine-null", [] { return jacc_define_routine(nullptr, nullptr); }));
  Cases.push_back(
      Push("routine-garbage", [] { return jacc_define_routine("f", "this is not C {{{"); }));
  Cases.push_back(Push("routine-redefined-then-called", [] {
    named(jacc_define_routine("twice", "static int twice(int v) { return 2 * v; }\n"),
          "jacc_define_routine");
    named(jacc_define_routine("twice", "static int twice(int v) { return 3 * v; }\n"),
          "jacc_define_routine");
    jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
    return jacc_kernel_push("#pragma jacc routines(twice)\n#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) x[i] = twice(i);\n",
                            2, A, 0);
  }));
  Cases.push_back(Push("routine-crashing-clangs-parser", [] {
    named(jacc_define_routine("bad", "float t[2=6];\nfloat t[3=6];\n"
                                     "static int bad(int v) { return v; }\n"),
          "jacc_define_routine");
    jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
    return jacc_kernel_push("#pragma jacc routines(bad)\n#pragma acc parallel loop\n"
                            "for (int i = 0; i < n; i++) x[i] = bad(i);\n",
                            2, A, 0);
  }));
  Cases.push_back(Push("native-garbage", [] {
    return jacc_kernel_native("#pragma acc parallel loop\nfor (int i = 0; i < n; i++) ;\n",
                              "no-such-device-kind", nullptr, nullptr);
  }));
}

/// Misused data calls: unmapped, overlapping, absurd sizes, pointers that are not memory.
void dataCases(std::vector<Case> &Cases) {
  static std::vector<double> Data(1024, 1);
  static double *P = Data.data();
  const size_t B = Data.size() * sizeof(double);
  auto Data1 = [&](std::string Name, std::function<void()> Run) {
    Cases.push_back({"data/" + Name, {}, std::move(Run)});
  };
  Data1("copyin-null", [] { named(jacc_copyin(nullptr, 8), "jacc_copyin"); });
  Data1("copyin-null-zero", [] { named(jacc_copyin(nullptr, 0), "jacc_copyin"); });
  Data1("copyin-low-address", [] { refused(jacc_copyin((void *)0x10, 800), "jacc_copyin"); });
  Data1("copyin-kernel-address",
        [] { refused(jacc_copyin((void *)0xffffffffff600000ull, 4096), "jacc_copyin"); });
  Data1("copyin-size-max", [] { refused(jacc_copyin(P, SIZE_MAX), "jacc_copyin"); });
  Data1("copyin-2-pow-62", [] { refused(jacc_copyin(P, size_t(1) << 62), "jacc_copyin"); });
  Data1("copyin-past-the-end", [B] { refused(jacc_copyin(P, B + (64u << 20)), "jacc_copyin"); });
  Data1("copyin-wraps-around",
        [] { refused(jacc_copyin((void *)(UINTPTR_MAX - 100), 4096), "jacc_copyin"); });
  Data1("create-stack-then-return", [] {
    double Local[64];
    named(jacc_create(Local, sizeof Local), "jacc_create"); // left mapped as the frame ends
  });
  Data1("copyout-unmapped", [B] { named(jacc_copyout(P, B), "jacc_copyout"); });
  Data1("delete-unmapped", [B] { named(jacc_delete(P, B), "jacc_delete"); });
  Data1("delete-twice", [B] {
    named(jacc_copyin(P, B), "jacc_copyin");
    named(jacc_delete(P, B), "jacc_delete");
    named(jacc_delete(P, B), "jacc_delete");
  });
  Data1("delete-half", [B] {
    named(jacc_copyin(P, B), "jacc_copyin");
    named(jacc_delete(P, B / 2), "jacc_delete");
    named(jacc_delete(P, B), "jacc_delete");
  });
  Data1("copyin-overlapping-extension", [B] {
    named(jacc_copyin(P, B / 2), "jacc_copyin");
    named(jacc_copyin(P + 16, B - 16 * sizeof(double)), "jacc_copyin");
    named(jacc_delete(P + 16, B - 16 * sizeof(double)), "jacc_delete");
    named(jacc_delete(P, B / 2), "jacc_delete");
  });
  Data1("update-unmapped", [B] {
    named(jacc_update_device(P, B), "jacc_update_device");
    named(jacc_update_self(P, B), "jacc_update_self");
  });
  Data1("update-past-mapping", [B] {
    named(jacc_copyin(P, B / 2), "jacc_copyin");
    named(jacc_update_self(P, B), "jacc_update_self");
    named(jacc_update_device(P, B), "jacc_update_device");
    named(jacc_delete(P, B / 2), "jacc_delete");
  });
  Data1("copyout-into-string-literal", [] {
    char *Literal = const_cast<char *>("a read-only literal of some length");
    named(jacc_copyin(Literal, 16), "jacc_copyin");
    named(jacc_copyout(Literal, 16), "jacc_copyout");
    named(jacc_delete(Literal, 16), "jacc_delete");
  });
  Data1("exit-data-odd-flags", [B] {
    named(jacc_copyin(P, B), "jacc_copyin");
    named(jacc_exit_data(P, B, 77, -1), "jacc_exit_data");
    named(jacc_exit_data(P, B, 0, 1), "jacc_exit_data");
  });
  Data1("attach-null", [] { named(jacc_attach(nullptr), "jacc_attach"); });
  Data1("attach-unmapped", [] {
    static double *Ptr = P;
    named(jacc_attach(reinterpret_cast<void **>(&Ptr)), "jacc_attach");
    named(jacc_detach(reinterpret_cast<void **>(&Ptr), 1), "jacc_detach");
  });
  Data1("attach-garbage-pointer", [] {
    static void *Ptr = (void *)0xdeadbeef;
    named(jacc_copyin(&Ptr, sizeof Ptr), "jacc_copyin");
    named(jacc_attach(&Ptr), "jacc_attach");
    named(jacc_detach(&Ptr, 0), "jacc_detach");
    named(jacc_delete(&Ptr, sizeof Ptr), "jacc_delete");
  });
  Data1("detach-never-attached", [] {
    static double *Ptr = P;
    named(jacc_detach(reinterpret_cast<void **>(&Ptr), 0), "jacc_detach");
  });
  Data1("use-device-null", [] { named(jacc_use_device(nullptr, nullptr), "jacc_use_device"); });
  Data1("use-device-unmapped", [] {
    void *D = nullptr;
    named(jacc_use_device(P, &D), "jacc_use_device");
  });
  Data1("is-present-null", [] { (void)jacc_is_present(nullptr, 0); });
  Data1("stats-null", [] { named(jacc_get_stats(nullptr), "jacc_get_stats"); });
  Data1("policy-garbage", [] {
    named(jacc_set_policy(nullptr), "jacc_set_policy");
    named(jacc_set_policy("\xff:;;;percentage:[-1,1e309]"), "jacc_set_policy");
    named(jacc_set_policy("percentage:[0,0,0]"), "jacc_set_policy");
  });
  Data1("locations-garbage", [] {
    named(jacc_set_location(nullptr), "jacc_set_location");
    named(jacc_set_location("nowhere"), "jacc_set_location");
    named(jacc_location_add(""), "jacc_location_add");
    named(jacc_location_add_child("a", "a"), "jacc_location_add_child");
    named(jacc_location_remove_child("nowhere", "none"), "jacc_location_remove_child");
    named(jacc_data_location_end(), "jacc_data_location_end");
    named(jacc_set_data_location("nowhere"), "jacc_set_data_location");
  });
  Data1("location-cycle", [] {
    named(jacc_location_add("a"), "jacc_location_add");
    named(jacc_location_add("b"), "jacc_location_add");
    named(jacc_location_add_child("a", "b"), "jacc_location_add_child");
    named(jacc_location_add_child("b", "a"), "jacc_location_add_child");
    named(jacc_set_location("a"), "jacc_set_location");
    named(jacc_set_location(nullptr), "jacc_set_location");
  });
  Data1("construct-end-without-begin", [] {
    jacc_construct_end();
    jacc_construct_end();
    jacc_construct_begin(9999, nullptr, -1, nullptr);
  });
  Data1("finalize-twice-then-use", [B] {
    named(jacc_finalize(), "jacc_finalize");
    named(jacc_finalize(), "jacc_finalize");
    named(jacc_copyin(P, B), "jacc_copyin");
    named(jacc_delete(P, B), "jacc_delete");
  });
  Data1("finalize-with-data-mapped", [B] {
    named(jacc_copyin(P, B), "jacc_copyin");
    named(jacc_finalize(), "jacc_finalize");
    named(jacc_delete(P, B), "jacc_delete");
  });
  Data1("wait-with-nothing", [] { named(jacc_wait(), "jacc_wait"); });
  Data1("async-push-then-finalize", [] {
    int n = 1 << 16;
    static std::vector<double> V(1 << 16);
    double *x = V.data();
    named(jacc_copyin(x, n * sizeof(double)), "jacc_copyin");
    jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
    for (int K = 0; K < 20; ++K)
      named(jacc_kernel_push("#pragma acc parallel loop present(x)\n"
                             "for (int i = 0; i < n; i++) x[i] += 1;\n",
                             2, A, JACC_ASYNC),
            "jacc_kernel_push");
    named(jacc_finalize(), "jacc_finalize"); // with the queue still full
  });
}

/// The OpenACC runtime routines on odd input (errors recorded, not aborted).
void openaccCases(std::vector<Case> &Cases) {
  std::vector<std::pair<std::string, std::string>> Return = {{"JACC_ACC_ERRORS", "return"}};
  auto Acc = [&](std::string Name, std::function<void()> Run) {
    Cases.push_back({"openacc/" + Name, Return, std::move(Run)});
  };
  static double Buf[64];
  Acc("malloc-zero-and-huge", [] {
    void *Z = acc_malloc(0);
    acc_free(Z);
    accDone("acc_malloc(SIZE_MAX)", acc_malloc(SIZE_MAX), false);
    accDone("acc_malloc(2^60)", acc_malloc(size_t(1) << 60), false);
  });
  Acc("free-null", [] { acc_free(nullptr); });
  Acc("free-host-pointer", [] { acc_free(Buf); });
  Acc("device-number-out-of-range", [] {
    acc_set_device_num(999, acc_device_host);
    acc_set_device_num(-7, acc_device_default);
    (void)acc_get_device_num(acc_device_t(12345));
    (void)acc_get_num_devices(acc_device_t(-1));
    (void)acc_get_property(99, acc_device_host, acc_property_memory);
    (void)acc_get_property_string(-1, acc_device_t(777), acc_property_name);
  });
  Acc("device-type-garbage", [] {
    acc_set_device_type(acc_device_t(4242));
    acc_init(acc_device_t(-3));
    acc_shutdown(acc_device_t(99));
  });
  Acc("memcpy-null", [] {
    acc_memcpy_to_device(nullptr, Buf, sizeof Buf);
    acc_memcpy_from_device(Buf, nullptr, sizeof Buf);
    acc_memcpy_device(nullptr, nullptr, 8);
  });
  Acc("memcpy-to-host-memory-as-device", [] {
    static double Other[64];
    acc_memcpy_to_device(Other, Buf, sizeof Buf);
  });
  Acc("map-data-garbage", [] {
    acc_map_data(Buf, (void *)0x1234, sizeof Buf);
    acc_unmap_data(Buf);
    acc_unmap_data(nullptr);
    (void)acc_hostptr((void *)0x1234);
    (void)acc_deviceptr(nullptr);
  });
  Acc("wait-on-odd-queues", [] {
    acc_wait(-99);
    acc_wait(1 << 30);
    int Queues[] = {-5, 7, 1 << 29};
    (void)acc_wait_any(3, Queues);
    (void)acc_wait_any(-1, nullptr);
    (void)acc_async_test(-42);
    acc_set_default_async(-99);
  });
  Acc("copyin-async-odd-queue", [] {
    acc_copyin_async(Buf, sizeof Buf, -99);
    acc_copyout_async(Buf, sizeof Buf, 1 << 30);
  });
  Acc("attach-null", [] {
    acc_attach(nullptr);
    acc_detach_finalize(nullptr);
  });
}

/// Several threads at once: pushes, maps and a finalize racing them.
void threadCases(std::vector<Case> &Cases) {
  Cases.push_back({"threads/finalize-while-four-push", {}, [] {
                     std::atomic<bool> Stop{false};
                     std::vector<std::thread> Pushers;
                     for (int T = 0; T < 4; ++T)
                       Pushers.emplace_back([&Stop, T] {
                         int n = 512;
                         std::vector<double> V(n);
                         double *x = V.data();
                         jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
                         while (!Stop) {
                           (void)jacc_copyin(x, n * sizeof(double));
                           std::string K = "#pragma acc parallel loop present(x)\n"
                                           "for (int i = 0; i < n; i++) x[i] += " +
                                           std::to_string(T) + ";\n";
                           (void)jacc_kernel_push(K.c_str(), 2, A, 0);
                           (void)jacc_delete(x, n * sizeof(double));
                         }
                       });
                     std::this_thread::sleep_for(std::chrono::milliseconds(300));
                     named(jacc_finalize(), "jacc_finalize");
                     Stop = true;
                     for (auto &T : Pushers)
                       T.join();
                   }});
  Cases.push_back(
      {"threads/eight-map-one-array", {}, [] {
         static std::vector<double> V(1 << 14, 1);
         std::vector<std::thread> Ts;
         for (int T = 0; T < 8; ++T)
           Ts.emplace_back([] {
             for (int K = 0; K < 200; ++K) {
               (void)named(jacc_copyin(V.data(), V.size() * sizeof(double)), "jacc_copyin");
               (void)named(jacc_update_self(V.data(), V.size() * sizeof(double)),
                           "jacc_update_self");
               (void)named(jacc_delete(V.data(), V.size() * sizeof(double)), "jacc_delete");
             }
           });
         for (auto &T : Ts)
           T.join();
         for (double D : V)
           if (D != 1)
             fail("the shared array changed under concurrent maps");
       }});
  Cases.push_back(
      {"threads/distinct-kernels-checked", {}, [] {
         std::atomic<int> Wrong{0};
         std::vector<std::thread> Ts;
         for (int T = 0; T < 4; ++T)
           Ts.emplace_back([&Wrong, T] {
             int n = 777;
             std::vector<double> V(n, 0);
             double *x = V.data();
             jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
             named(jacc_copyin(x, n * sizeof(double)), "jacc_copyin");
             for (int K = 0; K < 10; ++K) {
               std::string Src = "#pragma acc parallel loop present(x)\nfor (int i = 0; i < n; i++)"
                                 " x[i] += " +
                                 std::to_string(T * 100 + K) + ";\n";
               named(jacc_kernel_push(Src.c_str(), 2, A, 0), "jacc_kernel_push");
             }
             named(jacc_copyout(x, n * sizeof(double)), "jacc_copyout");
             for (double D : V)
               if (D != T * 1000 + 45)
                 ++Wrong;
           });
         for (auto &T : Ts)
           T.join();
         if (Wrong)
           fail(std::to_string(Wrong.load()) + " wrong elements from concurrent pushes");
       }});
  Cases.push_back({"threads/init-and-finalize-racing", {}, [] {
                     std::vector<std::thread> Ts;
                     for (int T = 0; T < 6; ++T)
                       Ts.emplace_back([T] {
                         for (int K = 0; K < 10; ++K)
                           named(T % 2 ? jacc_init() : jacc_finalize(),
                                 T % 2 ? "jacc_init" : "jacc_finalize");
                       });
                     for (auto &T : Ts)
                       T.join();
                   }});
}

/// A hostile process life: fork, exit and signals at odd moments.
void processCases(std::vector<Case> &Cases) {
  Cases.push_back({"process/fork-child-pushes", {}, [] {
                     expectHealthy(false);
                     pid_t Child = fork();
                     if (Child == 0) {
                       int n = 4, v[4] = {0}, *x = v;
                       jacc_arg A[] = {{"int n", &n}, {"int *x", &x}};
                       jacc_status S = jacc_kernel_push("#pragma acc parallel loop\n"
                                                        "for (int i = 0; i < n; i++) x[i] = i;\n",
                                                        2, A, 0);
                       _exit(S != JACC_SUCCESS && std::strlen(jacc_last_error()) > 0 ? 0 : 4);
                     }
                     int Status = 0;
                     waitpid(Child, &Status, 0);
                     if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
                       fail("the forked child's push did not fail cleanly");
                   }});
  for (int Delay : {0, 300, 1500, 5000})
    Cases.push_back({"process/exit-from-thread-after-" + std::to_string(Delay) + "us", {}, [Delay] {
                       int n = 64;
                       static std::vector<double> V(64);
                       double *x = V.data();
                       named(jacc_copyin(x, n * sizeof(double)), "jacc_copyin");
                       std::thread([Delay] {
                         usleep(Delay);
                         std::exit(0);
                       }).detach();
                       jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
                       for (long K = 0;; ++K) {
                         std::string Src =
                             "#pragma acc parallel loop present(x)\nfor (int i = 0; i < n; i++)"
                             " x[i] += " +
                             std::to_string(K) + ";\n";
                         (void)jacc_kernel_push(Src.c_str(), 2, A, 0);
                       }
                     }});
  Cases.push_back({"process/exit-with-async-queue-full", {}, [] {
                     int n = 1 << 16;
                     static std::vector<double> V(1 << 16);
                     double *x = V.data();
                     named(jacc_copyin(x, n * sizeof(double)), "jacc_copyin");
                     jacc_arg A[] = {{"int n", &n}, {"double *x", &x}};
                     for (int K = 0; K < 50; ++K)
                       named(
                           jacc_kernel_push("#pragma acc parallel loop present(x)\n"
                                            "for (int i = 0; i < n; i++) x[i] = x[i] * 0.5 + 1;\n",
                                            2, A, JACC_ASYNC),
                           "jacc_kernel_push");
                     std::exit(0);
                   }});
  Cases.push_back({"process/finalize-from-atexit", {}, [] {
                     std::atexit([] { (void)jacc_finalize(); });
                     expectHealthy(false);
                     std::exit(0);
                   }});
  Cases.push_back({"process/push-from-atexit", {}, [] {
                     std::atexit([] {
                       int n = 4, v[4] = {0}, *x = v;
                       jacc_arg A[] = {{"int n", &n}, {"int *x", &x}};
                       named(jacc_kernel_push("#pragma acc parallel loop\n"
                                              "for (int i = 0; i < n; i++) x[i] = 7 * i;\n",
                                              2, A, 0),
                             "jacc_kernel_push from atexit");
                     });
                     expectHealthy(false);
                     std::exit(0);
                   }});
  Cases.push_back({"process/compile-server-killed-mid-compile", {}, [] {
                     named(jacc_init(), "jacc_init");
                     std::thread Killer([] {
                       // Kill every child of this process (the compile servers) a few times while
                       // pushing.
                       for (int Round = 0; Round < 5; ++Round) {
                         usleep(20000);
                         std::string Dir = "/proc/self/task";
                         if (DIR *D = opendir(Dir.c_str())) {
                           while (dirent *E = readdir(D)) {
                             std::ifstream Children(Dir + "/" + E->d_name + "/children");
                             int Pid;
                             while (Children >> Pid)
                               kill(Pid, SIGKILL);
                           }
                           closedir(D);
                         }
                       }
                     });
                     for (int K = 0; K < 12; ++K)
                       pushOverXY(std::string("#pragma acc parallel loop present(x, y)\n"
                                              "for (int i = 0; i < n; i++) y[i] = ") +
                                  std::to_string(K) + " * x[i];\n");
                     Killer.join();
                   }});
  Cases.push_back({"process/sigpipe-ignored-and-closed-stderr", {}, [] {
                     signal(SIGPIPE, SIG_IGN);
                     int Saved = dup(2);
                     close(2);
                     pushOverXY(
                         "#pragma acc parallel loop present(x, y)\nfor (int i = 0; i < n; i++)"
                         " y[i] = zz;\n"); // an error whose diagnostics have nowhere to go
                     dup2(Saved, 2);
                   }});
}

/// A hostile environment: every variable with values it was never meant to hold.
void environmentCases(std::vector<Case> &Cases) {
  auto Env = [&](std::string Var, std::string Value, std::string Devices = "host:2") {
    std::string Name = "env/" + Var + "=" + Value;
    for (char &C : Name)
      if (static_cast<unsigned char>(C) < 32 || static_cast<unsigned char>(C) > 126)
        C = '?';
    Cases.push_back({Name, {{"JACC_DEVICES", Devices}, {Var, Value}}, [] {}, true});
  };
  for (const char *V : {"",
                        "host:0",
                        "host:-1",
                        "host:64",
                        "host:63",
                        "host:1x0",
                        "host:x",
                        "host:1,,",
                        ",",
                        "host",
                        ":",
                        "host:1x-1",
                        "host:99999999999999999999",
                        "host:2x99999999",
                        "cuda:0",
                        "cuda:all",
                        "gpu:99",
                        "host:1,cuda:0",
                        "host:1\nhost:2",
                        "host:1x1,host:1x1,host:1x1"})
    Env("JACC_DEVICES", V, V);
#ifndef __SANITIZE_ADDRESS__
  // Until the system refuses a thread: under AddressSanitizer its own shadow memory runs out
  // first, and it aborts (the sanitized build runs the other cases).
  Env("JACC_DEVICES", "host:32x1024", "host:32x1024");
#endif
  for (const char *V : {"0", "-1", "abc", "99999999", "1e3", "2147483648"})
    Env("JACC_HOST_THREADS", V);
  for (const char *V :
       {"/dev/zero", "/dev/null", "/nonexistent/config", "/tmp", "/proc/self/mem", "/dev/stdin"})
    Env("JACC_CONFIG", V);
  for (const char *V : {"/dev/full", "/nonexistent/dir/profile", "/tmp", "/proc/self/mem"})
    Env("JACC_PROFILE", V);
  for (const char *V : {"/dev/full", "/nonexistent/dir/trace", "/tmp"})
    Env("JACC_TRACE", V);
  for (const char *V : {"/dev/null", "on", "", "readonly", "2"})
    Env("JACC_CACHE", V);
  for (const char *V : {"/dev/null", "/etc/passwd", "/proc", "/nonexistent/cache", "", "/dev/full",
                        "/proc/self/fd/0"})
    Cases.push_back({std::string("env/JACC_CACHE_DIR=") + V,
                     {{"JACC_DEVICES", "host:2"}, {"JACC_CACHE", "on"}, {"JACC_CACHE_DIR", V}},
                     [] {},
                     true});
  for (const char *V : {"0", "-1", "abc", "1e309", "0.000001", "99999999999"})
    Env("JACC_COMPILE_TIMEOUT", V);
  for (const char *V : {"0", "1", "-5", "1T", "abc", "1K", "18446744073709551616"})
    Env("JACC_COMPILE_MEMORY", V);
  for (const char *V : {"/bin/false", "/bin/true", "/bin/cat", "/nonexistent/server", "/dev/null",
                        "/tmp", "/etc/passwd"})
    Env("JACC_COMPILE_SERVER", V);
  for (const char *V : {"bogus", "", "inprocess", "server"})
    Env("JACC_COMPILE", V);
  for (const char *V : {"-1", "0", "1", "abc", "99999999999999999999"})
    Env("JACC_KERNELS_IN_MEMORY", V);
  for (const char *V : {"/dev/null", "/bin/true", "/nonexistent/libcuda.so", "/tmp", "/etc/passwd"})
    Env("JACC_LIBCUDA", V, "cuda:0");
  for (const char *Var : {"JACC_SPLIT",
                          "JACC_CHECK",
                          "JACC_MEMORY",
                          "JACC_SPECIALIZE",
                          "JACC_EXCHANGE",
                          "JACC_NARROW",
                          "JACC_TWINS",
                          "JACC_DEBUG",
                          "JACC_PERF",
                          "JACC_POLICY",
                          "JACC_HUGE_PAGES",
                          "JACC_MEMORY_POOL",
                          "JACC_PROGRESS",
                          "JACC_SPIN_US",
                          "JACC_KERNEL_WARN",
                          "JACC_SPECIALIZE_AFTER",
                          "JACC_SPECIALIZE_ARGS",
                          "JACC_SPECIALIZE_BUDGET",
                          "JACC_SPECIALIZE_PAYBACK",
                          "JACC_SPECIALIZE_WAIT",
                          "JACC_CUDA_BLOCK_SIZE",
                          "JACC_CUDA_VERIFY",
                          "JACC_ACC_ERRORS",
                          "JACC_PROGRAM_CACHE",
                          "ACC_DEVICE_NUM",
                          "ACC_DEVICE_TYPE",
                          "ACC_PROFLIB"})
    for (const char *V : {"bogus", "-1", "99999999999999999999", "\xff\x01"})
      Env(Var, V);
}

/// The disk cache damaged between two runs of the same kernels: the second run must still work.
/// On two devices, the first run pushes long enough to choose its regime (two windows of 64
/// launches) and keep it (a record beside the entries), which is damaged with them.
void cacheCases(std::vector<Case> &Cases) {
  static const char *Dir = "/tmp/jacc-hostile-probe-cache";
  auto Damage = [&](std::string Name, std::function<void(const std::string &)> Harm) {
    Cases.push_back({"cache/" + Name,
                     {{"JACC_CACHE", "on"}, {"JACC_CACHE_DIR", Dir}, {"JACC_DEVICES", "host:2"}},
                     [Harm] {
                       std::system((std::string("rm -rf ") + Dir).c_str());
                       expectHealthy(false, 140); // data mapped once: fresh mappings make each push a one-off
                       named(jacc_finalize(), "jacc_finalize");
                       std::vector<std::string> Files;
                       std::function<void(const std::string &)> Walk = [&](const std::string &D) {
                         if (DIR *H = opendir(D.c_str())) {
                           while (dirent *E = readdir(H)) {
                             std::string N = E->d_name;
                             if (N == "." || N == "..")
                               continue;
                             struct stat St;
                             if (lstat((D + "/" + N).c_str(), &St) == 0 && S_ISDIR(St.st_mode))
                               Walk(D + "/" + N);
                             else
                               Files.push_back(D + "/" + N);
                           }
                           closedir(H);
                         }
                       };
                       Walk(Dir);
                       if (Files.empty())
                         fail("the first run left nothing in the cache");
                       if (std::none_of(Files.begin(), Files.end(), [](const std::string &F) {
                             return F.find("/records/program-") != std::string::npos;
                           }))
                         fail("the first run kept no regime for the next");
                       for (const std::string &F : Files)
                         Harm(F);
                       expectHealthy(false);
                       named(jacc_finalize(), "jacc_finalize");
                       std::system((std::string("rm -rf ") + Dir).c_str());
                     }});
  };
  Damage("truncated-to-zero", [](const std::string &F) { truncate(F.c_str(), 0); });
  Damage("truncated-to-half", [](const std::string &F) {
    struct stat St;
    if (stat(F.c_str(), &St) == 0)
      truncate(F.c_str(), St.st_size / 2);
  });
  Damage("bytes-flipped", [](const std::string &F) {
    std::fstream S(F, std::ios::in | std::ios::out | std::ios::binary);
    std::string Bytes((std::istreambuf_iterator<char>(S)), {});
    for (size_t I = 0; I < Bytes.size(); I += 97)
      Bytes[I] = char(~Bytes[I]);
    S.seekp(0);
    S.write(Bytes.data(), std::streamsize(Bytes.size()));
  });
  Damage("replaced-by-directories", [](const std::string &F) {
    unlink(F.c_str());
    mkdir(F.c_str(), 0700);
  });
  Damage("replaced-by-fifos", [](const std::string &F) {
    unlink(F.c_str());
    mkfifo(F.c_str(), 0600);
  });
  Damage("replaced-by-dev-zero-links", [](const std::string &F) {
    unlink(F.c_str());
    symlink("/dev/zero", F.c_str());
  });
  Damage("grown-by-garbage", [](const std::string &F) {
    std::ofstream S(F, std::ios::app | std::ios::binary);
    S << std::string(1 << 20, '\xa5');
  });
}

/// jacc-translate (jaccc's translator) on hostile files: exit 0, or 1 with a located error.
void translateCases(std::vector<Case> &Cases, const std::string &Translate) {
  // Text is the file's, or with a Path that path is translated as it is.
  auto File = [&](std::string Name, std::string Text, std::string Path = "") {
    Cases.push_back(
        {"translate/" + Name, {{"JACC_COMPILE_TIMEOUT", "10"}}, [=] {
           std::string In = "/tmp/jacc-hostile-probe-" + std::to_string(getpid()) + ".c";
           std::string Out = In + ".out.c";
           if (Path.empty())
             std::ofstream(In, std::ios::binary) << Text;
           std::string Cmd =
               Translate + " " + (Path.empty() ? In : Path) + " -o " + Out + " 2>" + In + ".err";
           int Status = std::system(Cmd.c_str());
           std::ifstream Err(In + ".err");
           std::string Message((std::istreambuf_iterator<char>(Err)), {});
           unlink(In.c_str()), unlink(Out.c_str()), unlink((In + ".err").c_str());
           if (!WIFEXITED(Status))
             fail("jacc-translate died of signal " + std::to_string(WTERMSIG(Status)));
           int Code = WEXITSTATUS(Status);
           if (Code != 0 && (Code != 1 || Message.find(Path.empty() ? "error" : "jacc-translate") ==
                                              std::string::npos))
             fail("jacc-translate exited " + std::to_string(Code) + ": " + Message.substr(0, 300));
         }});
  };
  std::string Main = "int main(void) { return 0; }\n";
  File("empty", "");
  File("missing", "", "/nonexistent/file.c");
  File("binary", std::string("\x7f"
                             "ELF\x02\x01\x01\0\0\0",
                             10) +
                     std::string(4096, '\x90'));
  File("macro-doubling-40", jacc_test::doublingMacros(40) + "int f(void) { return A40; }\n");
  File("expression-200k-terms", [] {
    std::string S = "int f(int x) { return 0";
    for (int D = 0; D < 200000; ++D)
      S += "+x";
    return S + "; }\n";
  }());
  File("pragma-at-end-of-file", "void f(int n, double *y) {\n#pragma acc parallel loop");
  File("pragma-garbage", "void f(int n, double *y) {\n#pragma acc parallel loop \xff(((( \n"
                         "for (int i = 0; i < n; i++) y[i] = 1;\n}\n");
  File("construct-over-a-declaration", "void f(void) {\n#pragma acc parallel loop\nint x;\n}\n");
  File("10k-pragmas", [] {
    std::string S = "void f(int n, double *y) {\n";
    for (int K = 0; K < 10000; ++K)
      S += "#pragma acc parallel loop copy(y[0:n])\nfor (int i = 0; i < n; i++) y[i] += 1;\n";
    return S + "}\n";
  }());
  File("data-region-unclosed-braces", "void f(int n, double *y) {\n#pragma acc data copy(y[0:n])\n{"
                                      "\n#pragma acc parallel loop\nfor (int i = 0; i < n; i++)\n");
  File("routine-recursion",
       "#pragma acc routine seq\nint r(int v) { return v ? r(v - 1) : 0; }\n" + Main);
  File("nested-constructs", "void f(int n, double *y) {\n#pragma acc parallel\n{\n#pragma acc "
                            "parallel loop\nfor (int i = 0; i < n; i++) y[i] = 1;\n}\n}\n");
  File("directory", "", "/tmp");
  File("dev-zero", "", "/dev/zero");
}

std::vector<Case> allCases(const std::string &Translate) {
  std::vector<Case> Cases;
  kernelCases(Cases);
  pushArgumentCases(Cases);
  dataCases(Cases);
  openaccCases(Cases);
  threadCases(Cases);
  processCases(Cases);
  environmentCases(Cases);
  cacheCases(Cases);
  if (!Translate.empty())
    translateCases(Cases, Translate);
  return Cases;
}

/// The child: the case's environment, the case, then jacc must still work.
[[noreturn]] void runCase(const Case &C) {
  Report = fcntl(2, F_DUPFD_CLOEXEC, 100);
  for (const auto &[Var, Value] : C.Env)
    setenv(Var.c_str(), Value.c_str(), 1);
  C.Run();
  expectHealthy(C.MayRefuse);
  (void)jacc_finalize();
  std::exit(0);
}

/// What on a child's stderr says it broke, whatever its exit status.
const char *const Breakage[] = {"LLVM ERROR",     "terminate called", "Sanitizer",
                                "pure virtual",   "Segmentation",     "double free",
                                "stack smashing", "runtime error:"};

/// Runs one case in a child and says whether it passed, and why not.
bool runChild(const char *Self, const Case &C, std::string &Why) {
  std::string Err = "/tmp/jacc-hostile-probe-" + std::to_string(getpid()) + ".stderr";
  posix_spawn_file_actions_t Files;
  posix_spawn_file_actions_init(&Files);
  posix_spawn_file_actions_addopen(&Files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Files, 2, Err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP); // the case and all it starts
  char *Argv[] = {const_cast<char *>(Self), const_cast<char *>("--case"),
                  const_cast<char *>(C.Name.c_str()), nullptr};
  pid_t Pid = 0;
  int Spawned = posix_spawn(&Pid, "/proc/self/exe", &Files, &Attr, Argv, environ);
  posix_spawn_file_actions_destroy(&Files);
  posix_spawnattr_destroy(&Attr);
  if (Spawned != 0) {
    Why = "could not start the case";
    return false;
  }
  int Status = 0;
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(C.Seconds);
  pid_t Done = 0;
  while ((Done = waitpid(Pid, &Status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < Deadline)
    usleep(2000);
  kill(-Pid, SIGKILL); // what the case left running (a server outliving it) goes too
  std::ifstream In(Err);
  std::string Text((std::istreambuf_iterator<char>(In)), {});
  unlink(Err.c_str());
  if (Done == 0) {
    waitpid(Pid, &Status, 0);
    Why = "hung (still running after " + std::to_string(C.Seconds) + " s)";
  } else if (WIFSIGNALED(Status)) {
    Why = std::string("died of signal ") + strsignal(WTERMSIG(Status));
  } else if (WEXITSTATUS(Status) != 0) {
    Why = "exited with status " + std::to_string(WEXITSTATUS(Status));
  } else {
    for (const char *B : Breakage)
      if (Text.find(B) != std::string::npos)
        Why = std::string("printed \"") + B + "\"";
  }
  if (!Why.empty() && !Text.empty())
    Why += "\n    " + Text.substr(Text.size() > 600 ? Text.size() - 600 : 0);
  return Why.empty();
}

} // namespace

int main(int argc, char **argv) {
  const char *Translate = std::getenv("JACC_PROBE_TRANSLATE"); // jacc-translate's path
  std::vector<Case> Cases = allCases(Translate ? Translate : "");
  if (argc == 3 && std::strcmp(argv[1], "--case") == 0) {
    for (const Case &C : Cases)
      if (C.Name == argv[2])
        runCase(C);
    fail(std::string("no case ") + argv[2]);
  }
  bool List = argc > 1 && std::strcmp(argv[1], "--list") == 0;
  std::vector<std::string> Prefixes(argv + 1 + List, argv + argc);
  int Ran = 0, Failed = 0;
  for (const Case &C : Cases) {
    bool Chosen = Prefixes.empty();
    for (const std::string &P : Prefixes)
      Chosen |= C.Name.compare(0, P.size(), P) == 0;
    if (!Chosen)
      continue;
    if (List) {
      std::printf("%s\n", C.Name.c_str());
      continue;
    }
    std::string Why;
    ++Ran;
    auto Start = std::chrono::steady_clock::now();
    bool Passed = runChild(argv[0], C, Why);
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    std::printf("%s %s (%.1f s)%s%s\n", Passed ? "ok  " : "FAIL", C.Name.c_str(), Seconds,
                Passed ? "" : ": ", Why.c_str());
    std::fflush(stdout);
    Failed += !Passed;
  }
  if (!List)
    std::printf("api-hostile-probe: %d cases, %d failed\n", Ran, Failed);
  return Failed ? 1 : 0;
}
