/* What the test profiling tool (AccProfTool.c, loaded through ACC_PROFLIB) saw, read by the tests
 * through its exported prof_tool_report_get(). */
#ifndef JACC_TESTS_API_ACCPROFTOOL_H
#define JACC_TESTS_API_ACCPROFTOOL_H

#include <jacc/acc_prof.h>

typedef struct prof_tool_report {
  long counts[acc_ev_last];    /* events received, per type */
  long errors;                 /* checks that failed; the first is described below */
  char first_error[256];
  long open_pairs;             /* start events not yet ended, over every thread */
  long located_constructs;     /* explicit construct starts with a source file and line */
  unsigned long long upload_bytes, download_bytes;
  unsigned long long device_to_device_bytes; /* uploads without a host address */
  int host_devices, nvidia_devices; /* highest device_number seen + 1, per device type */
  long host_launch_gangs;           /* num_gangs summed over host devices' launch starts */
  long gpu_launch_threads;          /* num_gangs x vector_length summed over GPUs' launch ends */
  int registrations;           /* calls of the tool's acc_register_library */
} prof_tool_report;

typedef const prof_tool_report *(*prof_tool_report_fn)(void);

#endif
