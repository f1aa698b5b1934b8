/* Gecko's memory at a location: a #pragma jacc location(...) line right above a data directive
   makes the mappings its clauses create live there (jacc_data_location_begin/end around its
   entry calls); above a compute construct its kernel runs there and its own data lives there.
   Above exit data or update it changes nothing (a warning). Other compilers ignore the lines. */
void relax(double *a, double *b, double *c, int n) {
#pragma jacc location(LocG)
#pragma acc enter data copyin(a[0:n]) create(b[0:n])

#pragma jacc location(gpu.0)
#pragma acc data copy(c[0:n]) present(a[0:n])
  {
#pragma jacc location(LocG)
#pragma acc parallel loop copyin(a[0:n]) present(b[0:n])
    for (int i = 0; i < n; i++)
      b[i] = 2 * a[i];
#pragma acc parallel loop present(b[0:n], c[0:n])
    for (int i = 0; i < n; i++)
      c[i] = b[i];
  }
#pragma jacc location(LocG)
#pragma acc update self(b[0:n])
#pragma acc exit data delete(a[0:n], b[0:n])
}
