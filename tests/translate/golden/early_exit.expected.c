#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "early_exit.c"
/* Exit calls of data regions run before every jump out of them. */
int search(int *v, int n, int key) {
  int found = -1;
  for (int r = 0; r < 3; r++) {
{ /* #pragma acc data copy(v[0:n]) */
void *const jacc_section_1 = &v[0];
const size_t jacc_section_1_bytes = n * sizeof v[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "early_exit.c", 5, "search");
jacc_translated_check(jacc_copyin(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5");
jacc_construct_end();
#line 6 "early_exit.c"
    {
{ /* #pragma acc data create(v[n:1]) if(n > 8) */
const int jacc_if_7 = (n > 8) != 0;
void *const jacc_section_2 = &v[n];
const size_t jacc_section_2_bytes = 1 * sizeof v[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "early_exit.c", 7, "search");
if (jacc_if_7) jacc_translated_check(jacc_create(jacc_section_2, jacc_section_2_bytes), "early_exit.c:7");
jacc_construct_end();
#line 8 "early_exit.c"
      for (int i = 0; i < n; i++) {
        if (v[i] == key)
          { jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "early_exit.c", 7, "search"); if (jacc_if_7) jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "early_exit.c:7"); jacc_construct_end(); jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "early_exit.c", 5, "search"); jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5"); jacc_construct_end(); return i; }
        if (v[i] < 0)
          break;
        if (v[i] == 0)
          continue;
        switch (v[i]) {
        case 7:
          break;
        default:
          { jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "early_exit.c", 7, "search"); if (jacc_if_7) jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "early_exit.c:7"); jacc_construct_end(); jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "early_exit.c", 5, "search"); jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5"); jacc_construct_end(); goto out; }
        }
      }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "early_exit.c", 7, "search");
if (jacc_if_7) jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "early_exit.c:7");
jacc_construct_end();
}
#line 22 "early_exit.c"
      if (r == 1)
        { jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "early_exit.c", 5, "search"); jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5"); jacc_construct_end(); break; }
      if (r == 2)
        { jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "early_exit.c", 5, "search"); jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5"); jacc_construct_end(); continue; }
      for (int k = 0; k < n; k++)
        if (v[k] == key)
          break;
    }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "early_exit.c", 5, "search");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "early_exit.c:5");
jacc_construct_end();
}
#line 30 "early_exit.c"
  }
out:
  return found;
}
