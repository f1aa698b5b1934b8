// Derived types in kernels: a type whose components all have C types (integer, logical, real,
// such derived types; scalars or arrays of constant shape) as the C struct of gfortran's layout
// (the components in order, each at its C alignment), and its array components' bounds.
#ifndef JACC_TRANSLATE_FORTRAN_DERIVEDTYPES_H
#define JACC_TRANSLATE_FORTRAN_DERIVEDTYPES_H

#include "translate/fortran/FortranKernel.h"

#include <llvm/Support/Error.h>

namespace Fortran::semantics {
class DerivedTypeSpec;
}

namespace jacc::translate::fortran {

/// The structs of Spec: those of its components' types, then its own (the last); an error
/// naming the component jacc cannot lay out (allocatable, pointer, complex, character, a
/// bound not constant) and the fix.
llvm::Expected<std::vector<CStruct>> structsOf(const Fortran::semantics::DerivedTypeSpec &Spec);

/// The derived type of Symbol's elements, if it has one.
const Fortran::semantics::DerivedTypeSpec *derivedType(const Fortran::semantics::Symbol &Symbol);

/// Whether kernels and data clauses take the components of Symbol, a derived-type variable
/// whose type has no C struct (an allocatable component, most often), as variables of their
/// own (HostVariable::Path), not the variable whole.
bool takenByComponents(const Fortran::semantics::Symbol &Symbol);

/// An array component of a struct (structsOf): its rank and constant bounds, as a kernel
/// indexes it.
HostVariable componentArray(const Fortran::semantics::Symbol &Component);

} // namespace jacc::translate::fortran

#endif
