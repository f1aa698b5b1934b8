/* The C side of the openacc Fortran module (openacc.f90): the data routines receive any array
   as a Fortran descriptor, whose address and bytes are what libjacc's OpenACC C API takes. Built
   with the Fortran compiler's C companion (gfortran's ISO_Fortran_binding.h). */
#include <ISO_Fortran_binding.h>
#include <jacc/openacc.h>
#include <stdio.h>
#include <stdlib.h>

/* The bytes of the array a describes; a non-contiguous array (a strided section) stops the
   program, as the C API maps one range. */
static size_t bytesOf(const CFI_cdesc_t *a, const char *routine) {
  if (!CFI_is_contiguous(a)) {
    fprintf(stderr, "%s: the array is not contiguous: pass a whole array or a contiguous section "
            "(or its first element and a length in bytes)\n", routine);
    exit(1);
  }
  size_t bytes = a->elem_len;
  for (CFI_rank_t r = 0; r < a->rank; r++)
    bytes *= (size_t)a->dim[r].extent;
  return bytes;
}

int jacc_f_is_present(CFI_cdesc_t *a, const int *bytes) {
  return acc_is_present(a->base_addr, bytes ? (size_t)*bytes : bytesOf(a, "acc_is_present"));
}
void *jacc_f_deviceptr(CFI_cdesc_t *a) { return acc_deviceptr(a->base_addr); }
void jacc_f_map_data(CFI_cdesc_t *a, void *dev, size_t bytes) { acc_map_data(a->base_addr, dev, bytes); }
void jacc_f_unmap_data(CFI_cdesc_t *a) { acc_unmap_data(a->base_addr); }

/* acc_<name>(a) and acc_<name>(a(1), bytes). */
#define JACC_F_DATA(name)                                                                        \
  void jacc_f_##name(CFI_cdesc_t *a, const int *bytes) {                                         \
    acc_##name(a->base_addr, bytes ? (size_t)*bytes : bytesOf(a, "acc_" #name));                 \
  }
/* acc_<name>_async(a, async) and acc_<name>_async(a(1), bytes, async). */
#define JACC_F_DATA_ASYNC(name)                                                                  \
  void jacc_f_##name##_async(CFI_cdesc_t *a, const int *bytes_or_async, const int *async_arg) { \
    if (async_arg)                                                                               \
      acc_##name##_async(a->base_addr, (size_t)*bytes_or_async, *async_arg);                     \
    else                                                                                         \
      acc_##name##_async(a->base_addr, bytesOf(a, "acc_" #name "_async"), *bytes_or_async);      \
  }
JACC_F_DATA(copyin)
JACC_F_DATA(create)
JACC_F_DATA(copyout)
JACC_F_DATA(copyout_finalize)
JACC_F_DATA(delete)
JACC_F_DATA(delete_finalize)
JACC_F_DATA(update_device)
JACC_F_DATA(update_self)
JACC_F_DATA(present_or_copyin)
JACC_F_DATA(pcopyin)
JACC_F_DATA(present_or_create)
JACC_F_DATA(pcreate)
JACC_F_DATA_ASYNC(copyin)
JACC_F_DATA_ASYNC(create)
JACC_F_DATA_ASYNC(copyout)
JACC_F_DATA_ASYNC(copyout_finalize)
JACC_F_DATA_ASYNC(delete)
JACC_F_DATA_ASYNC(delete_finalize)
JACC_F_DATA_ASYNC(update_device)
JACC_F_DATA_ASYNC(update_self)
