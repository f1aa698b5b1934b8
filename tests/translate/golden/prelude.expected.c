#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* Added by jacc-translate: a failing jacc call ends the program with jacc's message, as a failing
   OpenACC directive would. */
static inline void jacc_translated_check(jacc_status status, const char *where) {
  if (status != JACC_SUCCESS) {
    fprintf(stderr, "%s: %s\n", where, jacc_last_error());
    exit(1);
  }
}
/* An async or wait queue value: a queue number >= 0, acc_async_noval (-1), acc_async_sync (-2)
   or acc_async_default (-3). */
static inline void jacc_translated_queue(long long queue, const char *where,
                                         const char *directive) {
  if (queue >= -3)
    return;
  fprintf(stderr, "%s: async argument %lld in '%s' is not valid: use a queue number >= 0, "
          "acc_async_noval or acc_async_sync\n", where, queue, directive);
  exit(1);
}
/* A data directive's call for one variable: its error names the variable and the directive as
   written, and says how to map it when it is not. */
static inline void jacc_translated_data(jacc_status status, const char *where,
                                        const char *directive, const char *what) {
  if (status == JACC_SUCCESS)
    return;
  if (status == JACC_ERROR_NOT_PRESENT || status == JACC_ERROR_PARTIALLY_PRESENT)
    fprintf(stderr, "%s: '%s' in '%s' is %s on the devices: map it first (a data construct, "
            "'enter data' or 'declare') [%s]\n", where, what, directive,
            status == JACC_ERROR_NOT_PRESENT ? "not present" : "only partly present",
            jacc_last_error());
  else
    fprintf(stderr, "%s: '%s' in '%s': %s\n", where, what, directive, jacc_last_error());
  exit(1);
}
/* no_create: 1 when [p, p+bytes) was absent and is now mapped for the construct (copied in;
   the construct's end copies it back). */
static inline int jacc_translated_no_create(void *p, size_t bytes, const char *where) {
  if (!p || !bytes || jacc_is_present(p, bytes))
    return 0;
  jacc_translated_check(jacc_copyin(p, bytes), where);
  return 1;
}
/* firstprivate(p[0:n]): what the private copies start from: the devices' copy when present,
   else a copy of the host's bytes mapped for the construct (the host's array stays unmapped). */
static inline void *jacc_translated_firstprivate(void *p, size_t bytes, const char *where) {
  if (!bytes || jacc_is_present(p, bytes))
    return p;
  unsigned char *copy = (unsigned char *)malloc(bytes);
  if (!copy) {
    fprintf(stderr, "%s: out of memory for a firstprivate section\n", where);
    exit(1);
  }
  for (size_t i = 0; i < bytes; i++)
    copy[i] = ((const unsigned char *)p)[i];
  jacc_translated_check(jacc_copyin(copy, bytes), where);
  return copy;
}
static inline void jacc_translated_firstprivate_end(void *copy, void *p, size_t bytes,
                                                    const char *where) {
  if (copy == p)
    return;
  jacc_translated_check(jacc_delete(copy, bytes), where);
  free(copy);
}
/* An implicit copy or copyin (NVHPC's, of a pointer no clause names) of the section its
   subscripts reach, [p, p + len * size): mapped for the construct unless p is present (a mapping
   around the construct wins); the bytes mapped, or 0. */
static inline size_t jacc_translated_implicit(void *p, long len, size_t size, const char *where) {
  if (!p || len <= 0 || jacc_is_present(p, 1))
    return 0;
  jacc_translated_check(jacc_copyin(p, (size_t)len * size), where);
  return (size_t)len * size;
}
static inline void jacc_translated_present(const void *p, size_t bytes, const char *where,
                                           const char *what) {
  if (!jacc_is_present(p, bytes)) {
    fprintf(stderr, "%s: '%s' in clause 'present' is not present on the devices\n", where, what);
    exit(1);
  }
}
/* host_data use_device: the current device's copy of p (p itself when absent), from then on
   its only current copy (the construct may write it, as an MPI_Recv into it does). */
static inline void *jacc_translated_use_device(void *p, const char *where) {
  void *device = NULL;
  jacc_translated_check(jacc_use_device(p, &device), where);
  return device;
}
/* End of the helpers added by jacc-translate. */
#line 1 "prelude.c"
/* The helpers jacc-translate puts at the top of every translated file, compared here once. */
void scale(int n, float *x) {
{ /* #pragma acc parallel loop copy(x[0:n]) */
  jacc_construct_begin(JACC_CONSTRUCT_PARALLEL, "prelude.c", 3, "scale");
  jacc_translated_check(jacc_copyin(&x[0], n * sizeof x[0]), "prelude.c:3");
  jacc_arg jacc_args[] = {{"int n", (void *)&n}, {"float *x", (void *)&x}};
  jacc_translated_check(jacc_kernel_push(
      "#pragma acc parallel loop\n"
      "  for (int i = 0; i < n; i++)\n"
      "    x[i] *= 2;\n"
      "// jacc-site: prelude.c:3\n",
      2, jacc_args, JACC_DEFAULT), "prelude.c:3");
  jacc_translated_check(jacc_copyout(&x[0], n * sizeof x[0]), "prelude.c:3");
  jacc_construct_end();
}
#line 6 "prelude.c"
}
