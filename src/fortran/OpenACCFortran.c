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

int jacc_f_is_present(CFI_cdesc_t *a) { return acc_is_present(a->base_addr, bytesOf(a, "acc_is_present")); }
int jacc_f_is_present_len(void *a, int bytes) { return acc_is_present(a, (size_t)bytes); }
void *jacc_f_deviceptr(CFI_cdesc_t *a) { return acc_deviceptr(a->base_addr); }
void jacc_f_map_data(CFI_cdesc_t *a, void *dev, size_t bytes) { acc_map_data(a->base_addr, dev, bytes); }
void jacc_f_unmap_data(CFI_cdesc_t *a) { acc_unmap_data(a->base_addr); }
void jacc_f_copyin(CFI_cdesc_t *a) { acc_copyin(a->base_addr, bytesOf(a, "acc_copyin")); }
void jacc_f_copyin_len(void *a, int bytes) { acc_copyin(a, (size_t)bytes); }
void jacc_f_create(CFI_cdesc_t *a) { acc_create(a->base_addr, bytesOf(a, "acc_create")); }
void jacc_f_create_len(void *a, int bytes) { acc_create(a, (size_t)bytes); }
void jacc_f_copyout(CFI_cdesc_t *a) { acc_copyout(a->base_addr, bytesOf(a, "acc_copyout")); }
void jacc_f_copyout_len(void *a, int bytes) { acc_copyout(a, (size_t)bytes); }
void jacc_f_copyout_finalize(CFI_cdesc_t *a) { acc_copyout_finalize(a->base_addr, bytesOf(a, "acc_copyout_finalize")); }
void jacc_f_copyout_finalize_len(void *a, int bytes) { acc_copyout_finalize(a, (size_t)bytes); }
void jacc_f_delete(CFI_cdesc_t *a) { acc_delete(a->base_addr, bytesOf(a, "acc_delete")); }
void jacc_f_delete_len(void *a, int bytes) { acc_delete(a, (size_t)bytes); }
void jacc_f_delete_finalize(CFI_cdesc_t *a) { acc_delete_finalize(a->base_addr, bytesOf(a, "acc_delete_finalize")); }
void jacc_f_delete_finalize_len(void *a, int bytes) { acc_delete_finalize(a, (size_t)bytes); }
void jacc_f_update_device(CFI_cdesc_t *a) { acc_update_device(a->base_addr, bytesOf(a, "acc_update_device")); }
void jacc_f_update_device_len(void *a, int bytes) { acc_update_device(a, (size_t)bytes); }
void jacc_f_update_self(CFI_cdesc_t *a) { acc_update_self(a->base_addr, bytesOf(a, "acc_update_self")); }
void jacc_f_update_self_len(void *a, int bytes) { acc_update_self(a, (size_t)bytes); }
void jacc_f_present_or_copyin(CFI_cdesc_t *a) { acc_present_or_copyin(a->base_addr, bytesOf(a, "acc_present_or_copyin")); }
void jacc_f_present_or_copyin_len(void *a, int bytes) { acc_present_or_copyin(a, (size_t)bytes); }
void jacc_f_pcopyin(CFI_cdesc_t *a) { acc_pcopyin(a->base_addr, bytesOf(a, "acc_pcopyin")); }
void jacc_f_pcopyin_len(void *a, int bytes) { acc_pcopyin(a, (size_t)bytes); }
void jacc_f_present_or_create(CFI_cdesc_t *a) { acc_present_or_create(a->base_addr, bytesOf(a, "acc_present_or_create")); }
void jacc_f_present_or_create_len(void *a, int bytes) { acc_present_or_create(a, (size_t)bytes); }
void jacc_f_pcreate(CFI_cdesc_t *a) { acc_pcreate(a->base_addr, bytesOf(a, "acc_pcreate")); }
void jacc_f_pcreate_len(void *a, int bytes) { acc_pcreate(a, (size_t)bytes); }
void jacc_f_copyin_async(CFI_cdesc_t *a, int async_arg) {
  acc_copyin_async(a->base_addr, bytesOf(a, "acc_copyin_async"), async_arg);
}
void jacc_f_create_async(CFI_cdesc_t *a, int async_arg) {
  acc_create_async(a->base_addr, bytesOf(a, "acc_create_async"), async_arg);
}
void jacc_f_copyout_async(CFI_cdesc_t *a, int async_arg) {
  acc_copyout_async(a->base_addr, bytesOf(a, "acc_copyout_async"), async_arg);
}
void jacc_f_copyout_finalize_async(CFI_cdesc_t *a, int async_arg) {
  acc_copyout_finalize_async(a->base_addr, bytesOf(a, "acc_copyout_finalize_async"), async_arg);
}
void jacc_f_delete_async(CFI_cdesc_t *a, int async_arg) {
  acc_delete_async(a->base_addr, bytesOf(a, "acc_delete_async"), async_arg);
}
void jacc_f_delete_finalize_async(CFI_cdesc_t *a, int async_arg) {
  acc_delete_finalize_async(a->base_addr, bytesOf(a, "acc_delete_finalize_async"), async_arg);
}
void jacc_f_update_device_async(CFI_cdesc_t *a, int async_arg) {
  acc_update_device_async(a->base_addr, bytesOf(a, "acc_update_device_async"), async_arg);
}
void jacc_f_update_self_async(CFI_cdesc_t *a, int async_arg) {
  acc_update_self_async(a->base_addr, bytesOf(a, "acc_update_self_async"), async_arg);
}
