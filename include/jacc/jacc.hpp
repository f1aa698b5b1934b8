// C++ convenience over the jacc C API: kernel arguments with their declarations deduced from the
// C++ types, e.g. jacc::push(src, jacc::arg("x", x), jacc::arg("n", n)). C++11 and later: the
// C++ files jaccc translates include it whatever -std= they are compiled with.
#ifndef JACC_JACC_HPP
#define JACC_JACC_HPP

#include "jacc.h"

#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

namespace jacc {

namespace detail {

template <typename T> struct ScalarName { static constexpr const char *value = nullptr; };
#define JACC_SCALAR_NAME(T)                                                                        \
  template <> struct ScalarName<T> { static constexpr const char *value = #T; };
JACC_SCALAR_NAME(bool)
JACC_SCALAR_NAME(char)
JACC_SCALAR_NAME(signed char)
JACC_SCALAR_NAME(unsigned char)
JACC_SCALAR_NAME(short)
JACC_SCALAR_NAME(unsigned short)
JACC_SCALAR_NAME(int)
JACC_SCALAR_NAME(unsigned int)
JACC_SCALAR_NAME(long)
JACC_SCALAR_NAME(unsigned long)
JACC_SCALAR_NAME(long long)
JACC_SCALAR_NAME(unsigned long long)
JACC_SCALAR_NAME(float)
JACC_SCALAR_NAME(double)
JACC_SCALAR_NAME(long double)
#undef JACC_SCALAR_NAME

/// The C declaration of a variable Declarator of type T, built inside out as a C compiler reads it:
/// declare<const double (*)[8]>("a") == "const double (*a)[8]".
template <typename T> struct Declare;

template <typename T> std::string declare(const std::string &Declarator) {
  return Declare<T>::get(Declarator);
}

template <typename T> struct Declare {
  static std::string get(const std::string &D) {
    typedef typename std::remove_cv<T>::type Plain;
    static_assert(ScalarName<Plain>::value != nullptr,
                  "jacc::arg supports C scalar types, pointers and arrays of them");
    std::string Q;
    if (std::is_const<T>::value)
      Q += "const ";
    if (std::is_volatile<T>::value)
      Q += "volatile ";
    std::string Name = ScalarName<Plain>::value;
    if (std::is_same<Plain, bool>::value)
      Name = "_Bool"; // the kernel is C
    return Q + Name + " " + D;
  }
};
template <typename T> struct Declare<T *> {
  static std::string get(const std::string &D) {
    return declare<T>(std::is_array<T>::value ? "(*" + D + ")" : "*" + D);
  }
};
template <typename T> struct Declare<T *const> {
  static std::string get(const std::string &D) { return declare<T *>("const " + D); }
};
template <typename T, std::size_t N> struct Declare<T[N]> {
  static std::string get(const std::string &D) {
    return declare<T>(D + "[" + std::to_string(N) + "]");
  }
};
template <typename T, std::size_t N> struct Declare<const T[N]> {
  static std::string get(const std::string &D) { return declare<const T>(D + "[" + std::to_string(N) + "]"); }
};

} // namespace detail

/// One kernel argument: its declaration and the address of its value. Lvalues are referenced
/// (a reduction result is written back to them); rvalue scalars are copied into the Arg.
class Arg {
public:
  template <typename T>
  Arg(const char *Name, T &Value)
      : Decl(detail::declare<typename std::remove_reference<T>::type>(Name)),
        Ref(const_cast<typename std::remove_const<T>::type *>(&Value)) {
    holdArray(Value, std::is_array<T>());
  }
  template <typename T,
            typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
  Arg(const char *Name, T &&Value) : Decl(detail::declare<T>(Name)), Ref(nullptr) {
    static_assert(sizeof(T) <= sizeof(Storage), "scalar too large");
    std::memcpy(Storage, &Value, sizeof(T));
  }
  Arg(const Arg &O) : Decl(O.Decl), Ref(O.Ref) { std::memcpy(Storage, O.Storage, sizeof Storage); }
  /// The C API form; valid while this Arg lives.
  jacc_arg get() const {
    return {Decl.c_str(), Ref ? Ref : const_cast<unsigned char *>(Storage)};
  }
  const std::string &decl() const { return Decl; }

private:
  /// A C array parameter ("int v[64]") is a pointer: pass a pointer to the first element, held
  /// here like an rvalue, not the address of the array itself.
  template <typename T> void holdArray(T &Value, std::true_type) {
    const void *First = &Value[0];
    std::memcpy(Storage, &First, sizeof First);
    Ref = nullptr;
  }
  template <typename T> void holdArray(T &, std::false_type) {}

  std::string Decl;
  void *Ref;
  alignas(16) unsigned char Storage[16] = {};
};

template <typename T> Arg arg(const char *Name, T &&Value) {
  return Arg(Name, std::forward<T>(Value));
}

/// Push a kernel with flags (JACC_ASYNC, ...).
template <typename... Args>
jacc_status push_flags(unsigned Flags, const char *Source, const Args &...As) {
  jacc_arg C[sizeof...(As) + 1] = {As.get()...};
  return jacc_kernel_push(Source, static_cast<int>(sizeof...(As)), C, Flags);
}

/// Push a kernel and wait for it.
template <typename... Args> jacc_status push(const char *Source, const Args &...As) {
  return push_flags(JACC_DEFAULT, Source, As...);
}

} // namespace jacc

#endif
