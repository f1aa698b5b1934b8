/* A program built with -fopenmp links libgomp, GCC's OpenMP and OpenACC runtime, which defines
 * acc_register_library as an unimplemented stub that ends the process. jacc_init must not take
 * it for the program's profiling tool (it did: "libgomp: TODO", exit status 1). */
#include "jacc/jacc.h"

#include <omp.h>
#include <stdio.h>

int main(void) {
  /* A call into libgomp, so that the linker keeps it. */
  if (omp_get_max_threads() < 1)
    return 2;
  jacc_status S = jacc_init();
  if (S != JACC_SUCCESS) {
    fprintf(stderr, "jacc_init failed: %d\n", (int)S);
    return 1;
  }
  jacc_finalize();
  puts("jacc_init and jacc_finalize with libgomp linked: ok");
  return 0;
}
