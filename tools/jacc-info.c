/* jacc-info: print the devices jacc would use with the current environment, or the reason why
 * it cannot initialise. Exit status 0 on success, 1 on failure. */
#include <jacc/jacc.h>

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const char *devices = getenv("JACC_DEVICES");
  if (jacc_init() != JACC_SUCCESS) {
    fprintf(stderr, "jacc-info: %s\n", jacc_last_error());
    return 1;
  }
  printf("JACC_DEVICES=%s\n", devices ? devices : "(unset: every GPU the CUDA driver finds, else one host device)");
  printf("devices: %d\n", jacc_get_num_devices());
  jacc_finalize();
  return 0;
}
