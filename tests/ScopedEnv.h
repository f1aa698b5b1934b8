// Set (or unset) an environment variable for the rest of a scope, then restore it: tests that read
// JACC_* and MOCKCUDA_* variables must not leak them into the tests that run after them.
#ifndef JACC_TESTS_SCOPEDENV_H
#define JACC_TESTS_SCOPEDENV_H

#include <cstdlib>
#include <string>

namespace jacc {

class ScopedEnv {
public:
  /// Value null: unset the variable.
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name)) {
      Had = true;
      Saved = Old;
    }
    set(Value);
  }
  ~ScopedEnv() { set(Had ? Saved.c_str() : nullptr); }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

  /// Another value (null: unset) for the rest of the scope; the destructor still restores the
  /// value from before the constructor.
  void set(const char *Value) {
    if (Value)
      setenv(Name.c_str(), Value, 1);
    else
      unsetenv(Name.c_str());
  }

private:
  std::string Name;
  bool Had = false;
  std::string Saved;
};

} // namespace jacc

#endif
