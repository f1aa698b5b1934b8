/* C's float and double _Complex in CUDA kernels: NVRTC's C++ has no _Complex, so the kernel's
 * complex types are spelled as a template of the same layout (two T: real part first) and
 * C99's operators and <complex.h> functions are defined on it. As in CudaABI.h the definition is
 * a macro, pasted as text in front of a generated kernel that uses complex values; the tests
 * compile it as host C++ and compare it with std::complex. */
#ifndef JACC_JIT_CUDA_CUDACOMPLEX_H
#define JACC_JIT_CUDA_CUDACOMPLEX_H

#include "llvm/ADT/StringRef.h"

#include <string>

/* One <complex.h> function of a complex argument z for double (NAME) and float (NAME##f), its
 * body written with T for the real type. */
#define JACC_CUDA_COMPLEX_FUNCTION(NAME, RESULT, ...)                                              \
  template <class T> inline RESULT<T> __jacc_##NAME(const __jacc_complex<T> &z) {                  \
    __VA_ARGS__                                                                                    \
  }                                                                                                \
  inline RESULT<double> NAME(const __jacc_complex<double> &z) {                                    \
    return __jacc_##NAME(z);                                                                       \
  }                                                                                                \
  inline RESULT<float> NAME##f(const __jacc_complex<float> &z) {                                   \
    return __jacc_##NAME(z);                                                                       \
  }

/* The template, the arithmetic of C99 (the usual arithmetic conversions between the real types
 * of the operands, complex when either is; Smith's division) and <complex.h>'s functions. */
#define JACC_CUDA_COMPLEX_DEFINITION                                                               \
  template <class T> struct __jacc_complex {                                                       \
    T re, im;                                                                                      \
    __jacc_complex() = default;                                                                    \
    constexpr __jacc_complex(T r, T i = T()) : re(r), im(i) {}                                     \
    template <class U>                                                                             \
    constexpr __jacc_complex(const __jacc_complex<U> &z) : re((T)z.re), im((T)z.im) {}             \
    /* C converts a complex value to a real type by dropping its imaginary part. */                \
    template <class U> explicit constexpr operator U() const { return (U)re; }                     \
    explicit constexpr operator bool() const { return re != 0 || im != 0; }                        \
    template <class U> __jacc_complex &operator+=(const U &b) { return *this = *this + b; }        \
    template <class U> __jacc_complex &operator-=(const U &b) { return *this = *this - b; }        \
    template <class U> __jacc_complex &operator*=(const U &b) { return *this = *this * b; }        \
    template <class U> __jacc_complex &operator/=(const U &b) { return *this = *this / b; }        \
  };                                                                                               \
  template <class T> struct __jacc_real_part {                                                     \
    typedef T type;                                                                                \
    enum { complex = 0 };                                                                          \
  };                                                                                               \
  template <class T> struct __jacc_real_part<__jacc_complex<T>> {                                  \
    typedef T type;                                                                                \
    enum { complex = 1 };                                                                          \
  };                                                                                               \
  /* The complex type of a op b when either is complex (no member otherwise: SFINAE). */           \
  template <class A, class B, bool = __jacc_real_part<A>::complex || __jacc_real_part<B>::complex> \
  struct __jacc_complex_of {};                                                                     \
  template <class A, class B> struct __jacc_complex_of<A, B, true> {                               \
    typedef __jacc_complex<decltype(typename __jacc_real_part<A>::type() +                         \
                                    typename __jacc_real_part<B>::type())>                         \
        type;                                                                                      \
  };                                                                                               \
  template <class A, class B>                                                                      \
  inline typename __jacc_complex_of<A, B>::type operator+(const A &a, const B &b) {                \
    typename __jacc_complex_of<A, B>::type x(a), y(b);                                             \
    x.re += y.re;                                                                                  \
    x.im += y.im;                                                                                  \
    return x;                                                                                      \
  }                                                                                                \
  template <class A, class B>                                                                      \
  inline typename __jacc_complex_of<A, B>::type operator-(const A &a, const B &b) {                \
    typename __jacc_complex_of<A, B>::type x(a), y(b);                                             \
    x.re -= y.re;                                                                                  \
    x.im -= y.im;                                                                                  \
    return x;                                                                                      \
  }                                                                                                \
  template <class A, class B>                                                                      \
  inline typename __jacc_complex_of<A, B>::type operator*(const A &a, const B &b) {                \
    typedef typename __jacc_complex_of<A, B>::type R;                                              \
    R x(a), y(b);                                                                                  \
    return R(x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re);                                \
  }                                                                                                \
  template <class A, class B>                                                                      \
  inline typename __jacc_complex_of<A, B>::type operator/(const A &a, const B &b) {                \
    typedef typename __jacc_complex_of<A, B>::type R;                                              \
    R x(a), y(b);                                                                                  \
    if (fabs(y.re) >= fabs(y.im)) {                                                                \
      auto r = y.im / y.re, d = y.re + y.im * r;                                                   \
      return R((x.re + x.im * r) / d, (x.im - x.re * r) / d);                                      \
    }                                                                                              \
    auto r = y.re / y.im, d = y.re * r + y.im;                                                     \
    return R((x.re * r + x.im) / d, (x.im * r - x.re) / d);                                        \
  }                                                                                                \
  template <class A, class B>                                                                      \
  inline decltype(typename __jacc_complex_of<A, B>::type(), true) operator==(const A &a,           \
                                                                             const B &b) {         \
    typename __jacc_complex_of<A, B>::type x(a), y(b);                                             \
    return x.re == y.re && x.im == y.im;                                                           \
  }                                                                                                \
  template <class A, class B>                                                                      \
  inline decltype(typename __jacc_complex_of<A, B>::type(), true) operator!=(const A &a,           \
                                                                             const B &b) {         \
    return !(a == b);                                                                              \
  }                                                                                                \
  template <class T> inline __jacc_complex<T> operator-(const __jacc_complex<T> &z) {              \
    return __jacc_complex<T>(-z.re, -z.im);                                                        \
  }                                                                                                \
  template <class T> inline __jacc_complex<T> operator+(const __jacc_complex<T> &z) {              \
    return z;                                                                                      \
  }                                                                                                \
  template <class T> inline bool operator!(const __jacc_complex<T> &z) {                           \
    return z.re == 0 && z.im == 0;                                                                 \
  }                                                                                                \
  template <class T> inline __jacc_complex<T> __jacc_complex_sqrt(const __jacc_complex<T> &z) {    \
    if (z.re == 0 && z.im == 0)                                                                    \
      return __jacc_complex<T>(0, z.im);                                                           \
    T t = sqrt((fabs(z.re) + hypot(z.re, z.im)) / 2);                                              \
    if (z.re >= 0)                                                                                 \
      return __jacc_complex<T>(t, z.im / (2 * t));                                                 \
    return __jacc_complex<T>(fabs(z.im) / (2 * t), copysign(t, z.im));                             \
  }                                                                                                \
  template <class T> inline __jacc_complex<T> __jacc_complex_log(const __jacc_complex<T> &z) {     \
    return __jacc_complex<T>(log(hypot(z.re, z.im)), atan2(z.im, z.re));                           \
  }                                                                                                \
  template <class T> inline __jacc_complex<T> __jacc_complex_exp(const __jacc_complex<T> &z) {     \
    T m = exp(z.re);                                                                               \
    return __jacc_complex<T>(m * cos(z.im), m * sin(z.im));                                        \
  }                                                                                                \
  template <class T> inline __jacc_complex<T> __jacc_complex_sinh(const __jacc_complex<T> &z) {    \
    return __jacc_complex<T>(sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im));                      \
  }                                                                                                \
  template <class T> inline __jacc_complex<T> __jacc_complex_cosh(const __jacc_complex<T> &z) {    \
    return __jacc_complex<T>(cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im));                      \
  }                                                                                                \
  /* asin z from the distances of z to 1 and -1 (Hull, Fairgrieve and Tang): on the cuts the       \
     sign of the imaginary part is that of z's, as C's casin. */                                   \
  template <class T> inline __jacc_complex<T> __jacc_complex_asin(const __jacc_complex<T> &z) {    \
    T a = (hypot(z.re + 1, z.im) + hypot(z.re - 1, z.im)) / 2;                                     \
    T b = fmin(fmax(z.re / a, (T)-1), (T)1);                                                       \
    return __jacc_complex<T>(asin(b), copysign(log(a + sqrt(fmax(a * a - 1, (T)0))), z.im));       \
  }                                                                                                \
  /* atan z = (i/2) (log(1 - iz) - log(1 + iz)) */                                                 \
  template <class T> inline __jacc_complex<T> __jacc_complex_atan(const __jacc_complex<T> &z) {    \
    __jacc_complex<T> w = __jacc_complex_log(__jacc_complex<T>(1 + z.im, -z.re)) -                 \
                          __jacc_complex_log(__jacc_complex<T>(1 - z.im, z.re));                   \
    return __jacc_complex<T>(-w.im / 2, w.re / 2);                                                 \
  }                                                                                                \
  template <class T> using __jacc_real = T;                                                        \
  JACC_CUDA_COMPLEX_FUNCTION(creal, __jacc_real, return z.re;)                                     \
  JACC_CUDA_COMPLEX_FUNCTION(cimag, __jacc_real, return z.im;)                                     \
  JACC_CUDA_COMPLEX_FUNCTION(cabs, __jacc_real, return hypot(z.re, z.im);)                         \
  JACC_CUDA_COMPLEX_FUNCTION(carg, __jacc_real, return atan2(z.im, z.re);)                         \
  JACC_CUDA_COMPLEX_FUNCTION(conj, __jacc_complex, return {z.re, -z.im};)                          \
  JACC_CUDA_COMPLEX_FUNCTION(csqrt, __jacc_complex, return __jacc_complex_sqrt(z);)                \
  JACC_CUDA_COMPLEX_FUNCTION(cexp, __jacc_complex, return __jacc_complex_exp(z);)                  \
  JACC_CUDA_COMPLEX_FUNCTION(clog, __jacc_complex, return __jacc_complex_log(z);)                  \
  JACC_CUDA_COMPLEX_FUNCTION(csinh, __jacc_complex, return __jacc_complex_sinh(z);)                \
  JACC_CUDA_COMPLEX_FUNCTION(ccosh, __jacc_complex, return __jacc_complex_cosh(z);)                \
  JACC_CUDA_COMPLEX_FUNCTION(ctanh, __jacc_complex,                                                \
                             return __jacc_complex_sinh(z) / __jacc_complex_cosh(z);)              \
  /* sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz) */                                 \
  JACC_CUDA_COMPLEX_FUNCTION(csin, __jacc_complex,                                                 \
                             auto w = __jacc_complex_sinh(__jacc_complex<T>(-z.im, z.re));         \
                             return {w.im, -w.re};)                                                \
  JACC_CUDA_COMPLEX_FUNCTION(ccos, __jacc_complex,                                                 \
                             return __jacc_complex_cosh(__jacc_complex<T>(-z.im, z.re));)          \
  JACC_CUDA_COMPLEX_FUNCTION(ctan, __jacc_complex, __jacc_complex<T> iz(-z.im, z.re);              \
                             auto w = __jacc_complex_sinh(iz) / __jacc_complex_cosh(iz);           \
                             return {w.im, -w.re};)                                                \
  JACC_CUDA_COMPLEX_FUNCTION(casin, __jacc_complex, return __jacc_complex_asin(z);)                \
  /* acos z = pi/2 - asin z */                                                                     \
  JACC_CUDA_COMPLEX_FUNCTION(cacos, __jacc_complex, auto w = __jacc_complex_asin(z);               \
                             return {(T)1.57079632679489661923 - w.re, -w.im};)                    \
  JACC_CUDA_COMPLEX_FUNCTION(catan, __jacc_complex, return __jacc_complex_atan(z);)                \
  /* pow(a, b) = exp(b log a), 1 for b = 0 and 0 for a = 0 (and b's real part positive) */         \
  template <class T>                                                                               \
  inline __jacc_complex<T> __jacc_complex_pow(const __jacc_complex<T> &a,                          \
                                              const __jacc_complex<T> &b) {                        \
    if (b.re == 0 && b.im == 0)                                                                    \
      return T(1);                                                                                 \
    if (a.re == 0 && a.im == 0)                                                                    \
      return T(0);                                                                                 \
    return __jacc_complex_exp(b * __jacc_complex_log(a));                                          \
  }                                                                                                \
  inline __jacc_complex<double> cpow(const __jacc_complex<double> &a,                              \
                                     const __jacc_complex<double> &b) {                            \
    return __jacc_complex_pow(a, b);                                                               \
  }                                                                                                \
  inline __jacc_complex<float> cpowf(const __jacc_complex<float> &a,                               \
                                     const __jacc_complex<float> &b) {                             \
    return __jacc_complex_pow(a, b);                                                               \
  }                                                                                                \
  /* A warp shuffle moves the parts one by one (block reductions of complex variables). */         \
  template <class T>                                                                               \
  inline __jacc_complex<T> __shfl_down_sync(unsigned mask, const __jacc_complex<T> &v, int d) {    \
    return __jacc_complex<T>(__shfl_down_sync(mask, v.re, d), __shfl_down_sync(mask, v.im, d));    \
  }

/* OpenACC atomics on complex values. float _Complex fits the 8-byte compare-and-swap of the
 * generic helpers, which only need its loads and stores spelled as words; double _Complex has
 * 16 bytes, which no atomic of sm_80 covers: each address hashes to one of 1024 spin locks
 * (threads of a warp may spin apart since Volta) held around the read-modify-write, and loads
 * and stores take the same lock so that they never see half an update. */
#define JACC_CUDA_COMPLEX_ATOMICS                                                                  \
  __device__ unsigned int __jacc_complex_locks[1024];                                              \
  inline unsigned int *__jacc_complex_lock(const void *p) {                                        \
    unsigned int *l = &__jacc_complex_locks[((unsigned long long)p >> 4) & 1023u];                 \
    while (atomicCAS(l, 0u, 1u) != 0u) {                                                           \
    }                                                                                              \
    __threadfence();                                                                               \
    return l;                                                                                      \
  }                                                                                                \
  inline void __jacc_complex_unlock(unsigned int *l) {                                             \
    __threadfence();                                                                               \
    atomicExch(l, 0u);                                                                             \
  }                                                                                                \
  template <class F>                                                                               \
  inline __jacc_complex<double> __jacc_atomic_rmw(__jacc_complex<double> *p, F f, bool post) {     \
    unsigned int *l = __jacc_complex_lock(p);                                                      \
    volatile double *w = (volatile double *)p;                                                     \
    __jacc_complex<double> o(w[0], w[1]), n = f(o);                                                \
    w[0] = n.re;                                                                                   \
    w[1] = n.im;                                                                                   \
    __jacc_complex_unlock(l);                                                                      \
    return post ? o : n;                                                                           \
  }                                                                                                \
  inline __jacc_complex<double> __jacc_atomic_load(const __jacc_complex<double> *p) {              \
    unsigned int *l = __jacc_complex_lock(p);                                                      \
    const volatile double *w = (const volatile double *)p;                                         \
    __jacc_complex<double> o(w[0], w[1]);                                                          \
    __jacc_complex_unlock(l);                                                                      \
    return o;                                                                                      \
  }                                                                                                \
  template <class U> inline void __jacc_atomic_store(__jacc_complex<double> *p, U v) {             \
    __jacc_complex<double> n(v);                                                                   \
    unsigned int *l = __jacc_complex_lock(p);                                                      \
    volatile double *w = (volatile double *)p;                                                     \
    w[0] = n.re;                                                                                   \
    w[1] = n.im;                                                                                   \
    __jacc_complex_unlock(l);                                                                      \
  }                                                                                                \
  inline __jacc_complex<float> __jacc_atomic_load(const __jacc_complex<float> *p) {                \
    unsigned long long b = *(const volatile unsigned long long *)p;                                \
    __jacc_complex<float> o;                                                                       \
    memcpy(&o, &b, 8);                                                                             \
    return o;                                                                                      \
  }                                                                                                \
  template <class U> inline void __jacc_atomic_store(__jacc_complex<float> *p, U v) {              \
    __jacc_complex<float> n(v);                                                                    \
    unsigned long long b;                                                                          \
    memcpy(&b, &n, 8);                                                                             \
    *(volatile unsigned long long *)p = b;                                                         \
  }

#define JACC_CUDA_STRINGIFY_COMPLEX_(...) #__VA_ARGS__
#define JACC_CUDA_STRINGIFY_COMPLEX(...) JACC_CUDA_STRINGIFY_COMPLEX_(__VA_ARGS__)
/* The definition as text, for the code generator. */
#define JACC_CUDA_COMPLEX_TEXT                                                                     \
  JACC_CUDA_STRINGIFY_COMPLEX(JACC_CUDA_COMPLEX_DEFINITION JACC_CUDA_COMPLEX_ATOMICS)

namespace jacc::jit {

/// Source with C's complex types (`double _Complex`, `_Complex float`, and with ComplexMacro,
/// <complex.h>'s `double complex`) spelled as `__jacc_complex<double>`; Changed tells whether any
/// was found. Comments, strings and character constants are left as they are.
std::string spellComplexForCuda(llvm::StringRef Source, bool ComplexMacro, bool &Changed);

} // namespace jacc::jit

#endif
