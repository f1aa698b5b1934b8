/* A profiling tool for the tests: registers one callback for every event, counts the events,
 * checks each record's fields and that start and end events pair up, properly nested, on each
 * thread, with a start's tool_info reaching its end. */
#include <acc_prof.h> /* as a tool built with -I<prefix>/include/jacc includes it */

#include "AccProfTool.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static prof_tool_report Report;
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;

/* The calling thread's open start events, innermost last. */
static _Thread_local acc_event_t Open[64];
static _Thread_local int Depth;

/* What a start leaves in tool_info: the address of its slot's marker, checked at the end. */
static char Markers[acc_ev_last];

static int isStart(acc_event_t E) {
  switch (E) {
  case acc_ev_device_init_start: case acc_ev_device_shutdown_start: case acc_ev_enter_data_start:
  case acc_ev_exit_data_start: case acc_ev_update_start: case acc_ev_compute_construct_start:
  case acc_ev_enqueue_launch_start: case acc_ev_enqueue_upload_start:
  case acc_ev_enqueue_download_start: case acc_ev_wait_start:
    return 1;
  default:
    return 0;
  }
}
static int isEnd(acc_event_t E) { return E > acc_ev_none && isStart((acc_event_t)(E - 1)); }
static int isData(acc_event_t E) {
  return (E >= acc_ev_create && E <= acc_ev_free) ||
         (E >= acc_ev_enqueue_upload_start && E <= acc_ev_enqueue_download_end);
}
static int isConstructStart(acc_event_t E) {
  return E == acc_ev_enter_data_start || E == acc_ev_exit_data_start ||
         E == acc_ev_update_start || E == acc_ev_compute_construct_start ||
         E == acc_ev_wait_start;
}

/* Under Lock. */
static void fail(acc_event_t E, const char *What) {
  if (Report.errors++ == 0)
    snprintf(Report.first_error, sizeof Report.first_error, "event %d: %s", (int)E, What);
}

#define CHECK(E, Cond)                                                                             \
  do {                                                                                             \
    if (!(Cond))                                                                                   \
      fail(E, #Cond);                                                                              \
  } while (0)

static void onEvent(acc_prof_info *P, acc_event_info *I, acc_api_info *A) {
  acc_event_t E = P->event_type;
  pthread_mutex_lock(&Lock);
  CHECK(E, E > acc_ev_none && E < acc_ev_last);
  if (E <= acc_ev_none || E >= acc_ev_last) {
    pthread_mutex_unlock(&Lock);
    return;
  }
  Report.counts[E]++;
  CHECK(E, I->event_type == E);
  CHECK(E, P->valid_bytes == (int)(offsetof(acc_prof_info, func_end_line_no) + sizeof(int)));
  CHECK(E, P->version == _OPENACC);
  CHECK(E, P->device_type == acc_device_host || P->device_type == acc_device_nvidia);
  CHECK(E, P->device_number >= 0);
  CHECK(E, P->thread_id >= 0);
  CHECK(E, P->async == acc_async_sync || P->async >= 0);
  CHECK(E, A->valid_bytes == (int)(offsetof(acc_api_info, async_handle) + sizeof(void *)));
  CHECK(E, A->device_type == P->device_type);
  CHECK(E, A->device_api ==
               (P->device_type == acc_device_nvidia ? acc_device_api_cuda : acc_device_api_none));
  int *Seen = P->device_type == acc_device_nvidia ? &Report.nvidia_devices : &Report.host_devices;
  if (P->device_number >= *Seen)
    *Seen = P->device_number + 1;
  if (isData(E)) {
    const acc_data_event_info *D = &I->data_event;
    CHECK(E, D->valid_bytes == (int)(offsetof(acc_data_event_info, device_ptr) + sizeof(void *)));
    /* acc_ev_free: jacc does not know the size of what it frees. */
    if (E != acc_ev_free)
      CHECK(E, D->bytes > 0);
    CHECK(E, D->device_ptr != NULL);
    if (E == acc_ev_enqueue_download_start || E == acc_ev_create || E == acc_ev_delete)
      CHECK(E, D->host_ptr != NULL);
    if (E == acc_ev_enqueue_upload_start && D->host_ptr)
      Report.upload_bytes += D->bytes;
    else if (E == acc_ev_enqueue_upload_start)
      Report.device_to_device_bytes += D->bytes;
    if (E == acc_ev_enqueue_download_start)
      Report.download_bytes += D->bytes;
  }
  if (E == acc_ev_enqueue_launch_start || E == acc_ev_enqueue_launch_end) {
    const acc_launch_event_info *L = &I->launch_event;
    CHECK(E, L->kernel_name != NULL && L->kernel_name[0] != '\0');
    /* A host device's threads are its gangs; a GPU's grid and block, known once it is enqueued
     * (its launch_end), are its gangs and vector lanes. */
    if (P->device_type == acc_device_host)
      CHECK(E, L->num_gangs > 0 && L->num_workers == 1 && L->vector_length == 1);
    else if (E == acc_ev_enqueue_launch_end)
      CHECK(E, L->num_gangs > 0 && L->num_workers == 1 && L->vector_length > 0);
    if (E == acc_ev_enqueue_launch_start && P->device_type == acc_device_host)
      Report.host_launch_gangs += (long)L->num_gangs;
    if (E == acc_ev_enqueue_launch_end && P->device_type != acc_device_host)
      Report.gpu_launch_threads += (long)L->num_gangs * L->vector_length;
  }
  if (isConstructStart(E) && !I->other_event.implicit) {
    CHECK(E, P->src_file != NULL && P->line_no > 0);
    Report.located_constructs += P->src_file != NULL && P->line_no > 0;
  }
  if (isStart(E)) {
    CHECK(E, Depth < 64);
    if (Depth < 64)
      Open[Depth++] = E;
    I->other_event.tool_info = &Markers[E];
    Report.open_pairs++;
  } else if (isEnd(E)) {
    CHECK(E, Depth > 0 && Open[Depth - 1] == E - 1);
    CHECK(E, I->other_event.tool_info == &Markers[E - 1]);
    if (Depth > 0)
      --Depth;
    Report.open_pairs--;
  }
  /* The process is ending: the tests read this line, having no later chance to ask. */
  if (E == acc_ev_runtime_shutdown)
    fprintf(stderr,
            "accproftool: runtime_shutdown after %ld errors, %ld open pairs, %ld located "
            "constructs, %ld launches%s%s\n",
            Report.errors, Report.open_pairs, Report.located_constructs,
            Report.counts[acc_ev_enqueue_launch_start], Report.errors ? "; first: " : "",
            Report.first_error);
  pthread_mutex_unlock(&Lock);
}

void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup) {
  (void)unreg;
  pthread_mutex_lock(&Lock);
  Report.registrations++;
  if (lookup("no_such_inquiry_routine") != NULL)
    fail(acc_ev_none, "lookup of an unknown name is not NULL");
  pthread_mutex_unlock(&Lock);
  for (int E = acc_ev_none + 1; E < acc_ev_last; ++E)
    reg((acc_event_t)E, onEvent, acc_reg);
}

const prof_tool_report *prof_tool_report_get(void) { return &Report; }
