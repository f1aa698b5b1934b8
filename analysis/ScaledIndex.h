// Indices linearized with run-time strides (`(i - 1) * n + j`, NPB's `I3D(a, n1, n2, i3, i2, i1)`):
// the split iterator times an invariant scale, plus terms invariant in the region, plus inner
// loops' terms that range between a least and a greatest value. The split plan narrows writes
// of this shape and the read extents bound reads of it; the scales are known at run time only.
#ifndef JACC_ANALYSIS_SCALEDINDEX_H
#define JACC_ANALYSIS_SCALEDINDEX_H

#include "analysis/RegionIR.h"

#include <optional>
#include <string>

namespace jacc::analysis {

/// A value over the region's invariants: a polynomial, plus terms whose form is chosen when the
/// kernel runs (`(m >= 0 ? m * 1 : m * (n - 2))`).
struct InvariantValue {
  Polynomial Poly;
  std::string Runtime; ///< "" for none
  long long constant() const;
  /// The terms but the constant as C text of type long long ("-1LL * (n)"), "" for none.
  std::string termsText() const;
  /// The whole value as C text of type long long ("(2LL + 1LL * (n))"), "" for 0.
  std::string text() const;
  void add(const InvariantValue &O);
};

/// Coef * Scale * i + Offset + (a value between Least and Greatest).
struct ScaledIndex {
  long long Coef = 0; ///< 0 when the index does not vary with the split iterator
  std::string Scale;  ///< C text of a product or sum of invariants ("(n) * (m)"), "" for 1
  Polynomial Step;    ///< Coef * Scale, as a polynomial
  InvariantValue Offset, Least, Greatest;
  /// Offset as AffineWrite::Offset spells it: the constant first ("-1 + -1LL * (n)").
  std::string offsetText() const;
};

/// X, an index of statement Stmt, as a scaled index of the split iterator Outer, or nullopt
/// with Why set.
std::optional<ScaledIndex> scaledIndex(const RegionIR &IR, const IndexExpr &X, unsigned Stmt,
                                       const std::string &Outer, std::string &Why);

/// "(1LL * (n) * (m))": a scale as a C expression of type long long ("1LL" for "").
std::string scaleValue(const std::string &Scale);

} // namespace jacc::analysis

#endif
