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
/* attach / detach clauses, the zero modifier, async on data, exit data of absent data, and a
   data construct's sections evaluated once at its entry. */
struct list {
  double *v;
  int n;
};

void pointers(struct list *l, struct list s, double *w, int n) {
/* #pragma acc enter data copyin(l[0:1], s) create(zero: w[0:n]) attach(l->v, w) async */
jacc_translated_check(jacc_copyin(&l[0], 1 * sizeof l[0]), "attach_zero.c:9");
jacc_translated_check(jacc_copyin(&s, sizeof s), "attach_zero.c:9");
jacc_translated_check(jacc_create_zero(&w[0], n * sizeof w[0]), "attach_zero.c:9");
jacc_translated_check(jacc_attach((void **)&(l->v)), "attach_zero.c:9");
jacc_translated_check(jacc_attach((void **)&(w)), "attach_zero.c:9");
{ /* #pragma acc data copyout(zero: w[0:n]) create(zero: l->v[0:n]) attach(s.v) async(2) */
void *const jacc_section_1 = &w[0];
const size_t jacc_section_1_bytes = n * sizeof w[0];
void *const jacc_section_2 = (void *)&l->v[0];
const size_t jacc_section_2_bytes = n * sizeof l->v[0];
jacc_translated_check(jacc_create_zero(jacc_section_1, jacc_section_1_bytes), "attach_zero.c:10");
jacc_translated_check(jacc_create_zero(jacc_section_2, jacc_section_2_bytes), "attach_zero.c:10");
jacc_translated_check(jacc_attach((void **)&(l->v)), "attach_zero.c:10");
jacc_translated_check(jacc_attach((void **)&(s.v)), "attach_zero.c:10");
  {
    n = n / 2; /* the exit still copies out w[0:n] as the entry saw it */
  }
jacc_translated_check(jacc_detach((void **)&(s.v), 0), "attach_zero.c:10");
jacc_translated_check(jacc_detach((void **)&(l->v), 0), "attach_zero.c:10");
jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "attach_zero.c:10");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "attach_zero.c:10");
}
/* #pragma acc exit data detach(l->v) copyout(l[0:1]) delete(w[0:n]) finalize async(1) */
jacc_translated_check(jacc_detach((void **)&(l->v), 1), "attach_zero.c:14");
jacc_translated_check(jacc_exit_data(&l[0], 1 * sizeof l[0], 1, 1), "attach_zero.c:14");
jacc_translated_check(jacc_exit_data(&w[0], n * sizeof w[0], 0, 1), "attach_zero.c:14");
}
