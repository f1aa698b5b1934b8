#include <jacc/jacc.h>
#include <stdio.h>
#include <stdlib.h>
/* (the helpers of golden/prelude.expected.c) */
#line 1 "attach_zero.c"
/* attach / detach clauses, the zero modifier, async on data, exit data of absent data, and a
   data construct's sections evaluated once at its entry. */
struct list {
  double *v;
  int n;
};

void pointers(struct list *l, struct list s, double *w, int n) {
/* #pragma acc enter data copyin(l[0:1], s) create(zero: w[0:n]) attach(l->v, w) async */
jacc_construct_begin(JACC_CONSTRUCT_ENTER_DATA, "attach_zero.c", 9, "pointers");
jacc_translated_data(jacc_copyin(&l[0], 1 * sizeof l[0]), "attach_zero.c:9", "#pragma acc enter data copyin(l[0:1], s) create(zero: w[0:n]) attach(l->v, w) async", "l[0:1]");
jacc_translated_data(jacc_copyin(&s, sizeof s), "attach_zero.c:9", "#pragma acc enter data copyin(l[0:1], s) create(zero: w[0:n]) attach(l->v, w) async", "s");
jacc_translated_data(jacc_create_zero(&w[0], n * sizeof w[0]), "attach_zero.c:9", "#pragma acc enter data copyin(l[0:1], s) create(zero: w[0:n]) attach(l->v, w) async", "w[0:n]");
jacc_translated_check(jacc_attach((void **)&(l->v)), "attach_zero.c:9");
jacc_translated_check(jacc_attach((void **)&(w)), "attach_zero.c:9");
jacc_construct_end();
{ /* #pragma acc data copyout(zero: w[0:n]) create(zero: l->v[0:n]) attach(s.v) async(2) */
void *const jacc_section_1 = &w[0];
const size_t jacc_section_1_bytes = n * sizeof w[0];
void *const jacc_section_2 = (void *)&l->v[0];
const size_t jacc_section_2_bytes = n * sizeof l->v[0];
jacc_construct_begin(JACC_CONSTRUCT_DATA, "attach_zero.c", 10, "pointers");
jacc_translated_check(jacc_create_zero(jacc_section_1, jacc_section_1_bytes), "attach_zero.c:10");
jacc_translated_check(jacc_create_zero(jacc_section_2, jacc_section_2_bytes), "attach_zero.c:10");
jacc_translated_check(jacc_attach((void **)&(l->v)), "attach_zero.c:10");
jacc_translated_check(jacc_attach((void **)&(s.v)), "attach_zero.c:10");
jacc_construct_end();
#line 11 "attach_zero.c"
  {
    n = n / 2; /* the exit still copies out w[0:n] as the entry saw it */
  }
jacc_construct_begin(JACC_CONSTRUCT_DATA_EXIT, "attach_zero.c", 10, "pointers");
jacc_translated_check(jacc_detach((void **)&(s.v), 0), "attach_zero.c:10");
jacc_translated_check(jacc_detach((void **)&(l->v), 0), "attach_zero.c:10");
jacc_translated_check(jacc_delete(jacc_section_2, jacc_section_2_bytes), "attach_zero.c:10");
jacc_translated_check(jacc_copyout(jacc_section_1, jacc_section_1_bytes), "attach_zero.c:10");
jacc_construct_end();
}
/* #pragma acc exit data detach(l->v) copyout(l[0:1]) delete(w[0:n]) finalize async(1) */
jacc_construct_begin(JACC_CONSTRUCT_EXIT_DATA, "attach_zero.c", 14, "pointers");
jacc_translated_check(jacc_detach((void **)&(l->v), 1), "attach_zero.c:14");
jacc_translated_data(jacc_exit_data(&l[0], 1 * sizeof l[0], 1, 1), "attach_zero.c:14", "#pragma acc exit data detach(l->v) copyout(l[0:1]) delete(w[0:n]) finalize async(1)", "l[0:1]");
jacc_translated_data(jacc_exit_data(&w[0], n * sizeof w[0], 0, 1), "attach_zero.c:14", "#pragma acc exit data detach(l->v) copyout(l[0:1]) delete(w[0:n]) finalize async(1)", "w[0:n]");
jacc_construct_end();
#line 15 "attach_zero.c"
}
