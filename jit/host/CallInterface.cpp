// A host entry's libffi call interface from its arguments' types (then a split entry's mapping
// bounds and the team pointer), and calls through it.
#include "jit/host/CallInterface.h"

#include "support/Error.h"

#include <ffi.h>

namespace jacc::jit {

using namespace analysis;

static ffi_type *ffiType(const ArgInfo &A) {
  if (A.ArgKind != ArgInfo::Kind::Scalar)
    return &ffi_type_pointer;
  switch (A.Scalar) {
  case ScalarType::Bool:
  case ScalarType::U8: return &ffi_type_uint8;
  case ScalarType::I8: return &ffi_type_sint8;
  case ScalarType::I16: return &ffi_type_sint16;
  case ScalarType::U16: return &ffi_type_uint16;
  case ScalarType::I32: return &ffi_type_sint32;
  case ScalarType::U32: return &ffi_type_uint32;
  case ScalarType::I64: return &ffi_type_sint64;
  case ScalarType::U64: return &ffi_type_uint64;
  case ScalarType::F32: return &ffi_type_float;
  case ScalarType::F64: return &ffi_type_double;
  case ScalarType::F80: return &ffi_type_longdouble;
  case ScalarType::C32: return &ffi_type_complex_float;
  case ScalarType::C64: return &ffi_type_complex_double;
  case ScalarType::C80: return &ffi_type_complex_longdouble;
  }
  return &ffi_type_pointer;
}

llvm::Expected<std::unique_ptr<CallInterface>> CallInterface::create(const KernelInfo &K,
                                                                     bool Split) {
  std::unique_ptr<CallInterface> CI(new CallInterface);
  unsigned Extra = Split ? 2 * K.Split.Plan.Arrays.size() : 0;
  CI->Types.resize(K.Args.size() + Extra + 1);
  for (const ArgInfo &A : K.Args)
    CI->Types[A.Param] = ffiType(A);
  for (unsigned I = 0; I < Extra; ++I)
    CI->Types[K.Args.size() + I] = &ffi_type_sint64;
  CI->Types.back() = &ffi_type_pointer;
  CI->Cif.reset(new char[sizeof(ffi_cif)]);
  ffi_status S = ffi_prep_cif(reinterpret_cast<ffi_cif *>(CI->Cif.get()), FFI_DEFAULT_ABI,
                              CI->Types.size(), &ffi_type_void,
                              reinterpret_cast<ffi_type **>(CI->Types.data()));
  if (S != FFI_OK)
    return makeError(ErrorCode::Internal,
                     "libffi cannot prepare the call interface (status " + llvm::Twine(S) + ")");
  return CI;
}

void CallInterface::call(void *Fn, void **Values) const {
  ffi_call(reinterpret_cast<ffi_cif *>(Cif.get()), reinterpret_cast<void (*)()>(Fn), nullptr,
           Values);
}

} // namespace jacc::jit
