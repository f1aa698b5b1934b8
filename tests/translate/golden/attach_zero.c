/* attach / detach clauses, the zero modifier, async on data, exit data of absent data, and a
   data construct's sections evaluated once at its entry. */
struct list {
  double *v;
  int n;
};

void pointers(struct list *l, struct list s, double *w, int n) {
#pragma acc enter data copyin(l[0:1], s) create(zero: w[0:n]) attach(l->v, w) async
#pragma acc data copyout(zero: w[0:n]) create(zero: l->v[0:n]) attach(s.v) async(2)
  {
    n = n / 2; /* the exit still copies out w[0:n] as the entry saw it */
  }
#pragma acc exit data detach(l->v) copyout(l[0:1]) delete(w[0:n]) finalize async(1)
}
