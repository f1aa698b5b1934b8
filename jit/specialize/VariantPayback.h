// When a new variant's compile has paid for itself in advance: under
// JACC_SPECIALIZE=auto, a variant that is not in the disk cache is compiled only once its
// kernel's generic launches, counted from the variant's creation, have run for Factor times
// the variant's expected compile time. The rent-or-buy rule: a program that ends before then
// (short programs, small kernels) never pays a compile it could not win back, one that goes on
// spends at most as much on the compile as it has already spent running the kernel.
#ifndef JACC_JIT_VARIANTPAYBACK_H
#define JACC_JIT_VARIANTPAYBACK_H

namespace jacc::jit {

struct CompiledKernel;

/// Seconds a variant of K is expected to take to compile: K's own compile (both entries when
/// it splits), or a typical 50 ms per entry when unknown.
double expectedVariantCompileSeconds(const CompiledKernel &K);

class VariantPayback {
public:
  /// Due once the kernel ran Needed seconds (0: at once).
  explicit VariantPayback(double Needed = 0) : Needed(Needed) {}
  /// A generic launch of the kernel took Seconds.
  void ran(double Seconds) { Ran += Seconds; }
  /// Whether the compile may start.
  bool due() const { return Ran >= Needed; }
  double ranSeconds() const { return Ran; }
  double neededSeconds() const { return Needed; }

private:
  double Needed, Ran = 0;
};

} // namespace jacc::jit

#endif
