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
/* Exit calls of data regions run before every jump out of them. */
int search(int *v, int n, int key) {
  int found = -1;
  for (int r = 0; r < 3; r++) {
{ /* #pragma acc data copy(v[0:n]) */
void *const jacc_section_1 = &v[0];
const size_t jacc_section_1_bytes = n * sizeof v[0];
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5");
    {
{ /* #pragma acc data create(v[n:1]) if(n > 8) */
const int jacc_if_7 = (n > 8) != 0;
void *const jacc_section_2 = &v[n];
const size_t jacc_section_2_bytes = 1 * sizeof v[0];
if (jacc_if_7) jacc_translated_check(jacc_create(jacc_section_2, jacc_section_2_bytes), "early_exit.c:7");
      for (int i = 0; i < n; i++) {
        if (v[i] == key)
          { if (jacc_if_7) jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "early_exit.c:7"); jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5"); return i; }
        if (v[i] < 0)
          break;
        if (v[i] == 0)
          continue;
        switch (v[i]) {
        case 7:
          break;
        default:
          { if (jacc_if_7) jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "early_exit.c:7"); jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5"); goto out; }
        }
      }
if (jacc_if_7) jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "early_exit.c:7");
}
      if (r == 1)
        { jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5"); break; }
      if (r == 2)
        { jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5"); continue; }
      for (int k = 0; k < n; k++)
        if (v[k] == key)
          break;
    }
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5");
}
  }
out:
  return found;
}
